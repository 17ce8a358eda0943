//! The request around the body: the method, the path (with the model where the provider puts
//! it), the headers the provider requires, where the caller's key goes, and the provider's
//! default base URL, which the caller may replace (a proxy, a gateway, its own deployment).
//! Never a secret.

use serde::ser::Serializer;

/// The HTTP request that carries a body to a provider, all but the key:
/// [`Provider::request`](crate::Provider::request) makes it.
///
/// It serializes as the example program's `--request` prints it:
/// `{"method":"POST","path":"...","headers":{"name":"value",...},"auth":"...","base_url":"..."}`.
///
/// ```
/// use transcript_replay::{Auth, Provider};
///
/// let anthropic: Provider = "anthropic".parse().unwrap();
/// let request = anthropic.request_for("claude-sonnet-4-5", false);
/// assert_eq!(request.method, "POST");
/// assert_eq!(request.path, "/v1/messages");
/// assert_eq!(request.auth, Auth::XApiKey);
/// assert_eq!(
///     serde_json::to_string(&request).unwrap(),
///     r#"{"method":"POST","path":"/v1/messages","headers":{"content-type":"application/json","anthropic-version":"2023-06-01"},"auth":"x-api-key","base_url":"https://api.anthropic.com"}"#,
/// );
/// assert_eq!(request.url(), "https://api.anthropic.com/v1/messages");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct Request {
    /// The HTTP method: `POST` for every provider.
    pub method: &'static str,
    /// The path and query, starting with `/`, to append to the caller's base URL (its scheme,
    /// host and any prefix, without a trailing `/`).
    pub path: String,
    /// The headers the provider requires, in the order to send them, names in lowercase;
    /// never the key (see [`Request::auth`]). Serialized as one JSON object.
    #[serde(serialize_with = "headers_as_object")]
    pub headers: Vec<(&'static str, String)>,
    /// Where the caller's key goes.
    pub auth: Auth,
    /// The provider's default base URL: scheme, host and any prefix, without a trailing `/`
    /// (`https://api.anthropic.com`; Bedrock's for the turn's
    /// [`region`](crate::Turn::region), `us-east-1` when it has none; a compatible server's
    /// from its [`Dialect::base_url`](crate::Dialect::base_url)). A caller that sends through
    /// its own proxy or deployment puts its own before [`path`](Self::path) instead.
    pub base_url: String,
}

impl Request {
    /// The whole URL: the [`base_url`](Self::base_url), then the [`path`](Self::path).
    ///
    /// ```
    /// use transcript_replay::{Provider, Turn};
    ///
    /// let turn = Turn::new(&[]).model("us.anthropic.claude-sonnet-4-5-20250929-v1:0").region("eu-west-1");
    /// let bedrock: Provider = "bedrock".parse().unwrap();
    /// assert_eq!(
    ///     bedrock.request(&turn).url(),
    ///     "https://bedrock-runtime.eu-west-1.amazonaws.com/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse",
    /// );
    /// ```
    pub fn url(&self) -> String {
        format!("{}{}", self.base_url, self.path)
    }
}

/// Where the caller's key goes: the one thing about credentials a [`Request`] says.
///
/// It serializes as `"bearer"`, `"x-api-key"`, `"x-goog-api-key"` or `"sigv4"`.
///
/// ```
/// use transcript_replay::{Auth, Provider};
///
/// let gemini: Provider = "gemini".parse().unwrap();
/// assert_eq!(gemini.request_for("gemini-2.5-pro", false).auth, Auth::XGoogApiKey);
/// assert_eq!(serde_json::to_string(&Auth::Sigv4).unwrap(), r#""sigv4""#);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[non_exhaustive]
pub enum Auth {
    /// `authorization: Bearer KEY` (OpenAI, and the servers that speak its Chat surface).
    #[serde(rename = "bearer")]
    Bearer,
    /// `x-api-key: KEY` (Anthropic).
    #[serde(rename = "x-api-key")]
    XApiKey,
    /// `x-goog-api-key: KEY` (Gemini).
    #[serde(rename = "x-goog-api-key")]
    XGoogApiKey,
    /// AWS Signature Version 4, service `bedrock`, over the request as sent: the method, the
    /// path exactly as [`Request::path`] gives it (the signer encodes it once more, as SigV4
    /// does for every service but S3), the headers and the body (Bedrock).
    #[serde(rename = "sigv4")]
    Sigv4,
}

fn headers_as_object<S: Serializer>(
    headers: &[(&'static str, String)],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_map(headers.iter().map(|(name, value)| (name, value)))
}

//! The request around the body: the method, the path (with the model where the provider puts
//! it), the headers the provider requires, where the caller's key goes, and the provider's
//! default base URL, which the caller may replace (a proxy, a gateway, its own deployment).
//! Never a secret.

use serde::ser::Serializer;

use crate::body::Turn;

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

    /// The headers to send with the caller's key put where [`auth`](Self::auth) says:
    /// [`headers`](Self::headers), then `authorization: Bearer KEY`, `x-api-key: KEY` or
    /// `x-goog-api-key: KEY`. For [`Auth::Sigv4`] no header carries the key: an AWS SigV4
    /// signer signs the request as sent (the crate does no I/O and no signing), and these are
    /// the headers it signs.
    ///
    /// ```
    /// use transcript_replay::{Provider, Turn};
    ///
    /// let anthropic: Provider = "anthropic".parse().unwrap();
    /// let request = anthropic.request(&Turn::new(&[]).model("claude-sonnet-4-5"));
    /// let headers = request.headers_with_key("sk-ant-1");
    /// assert!(headers.contains(&("x-api-key".to_owned(), "sk-ant-1".to_owned())));
    /// let openai: Provider = "openai".parse().unwrap();
    /// let headers = openai.request(&Turn::new(&[])).headers_with_key("sk-1");
    /// assert_eq!(headers.last().unwrap(), &("authorization".to_owned(), "Bearer sk-1".to_owned()));
    /// ```
    pub fn headers_with_key(&self, key: &str) -> Vec<(String, String)> {
        let mut headers: Vec<(String, String)> = self
            .headers
            .iter()
            .map(|(name, value)| ((*name).to_owned(), value.clone()))
            .collect();
        match self.auth {
            Auth::Bearer => headers.push(("authorization".to_owned(), format!("Bearer {key}"))),
            Auth::XApiKey => headers.push(("x-api-key".to_owned(), key.to_owned())),
            Auth::XGoogApiKey => headers.push(("x-goog-api-key".to_owned(), key.to_owned())),
            Auth::Sigv4 => {}
        }
        headers
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

impl Turn<'_> {
    /// The turn, sent to this region where the provider's host names one (Bedrock's
    /// `bedrock-runtime.{region}.amazonaws.com`, `us-east-1` by default): the
    /// [`Request::base_url`](crate::Request::base_url) [`Provider::request`](crate::Provider::request)
    /// gives. The body is the same.
    ///
    /// ```
    /// use transcript_replay::{Provider, Turn};
    ///
    /// let turn = Turn::new(&[]).region("eu-central-1");
    /// let (bedrock, anthropic): (Provider, Provider) = ("bedrock".parse()?, "anthropic".parse()?);
    /// assert_eq!(bedrock.request(&turn).base_url, "https://bedrock-runtime.eu-central-1.amazonaws.com");
    /// assert_eq!(anthropic.request(&turn).base_url, "https://api.anthropic.com");
    /// # Ok::<(), transcript_replay::errors::UnknownProvider>(())
    /// ```
    #[must_use]
    pub fn region(mut self, region: &str) -> Self {
        self.params.region = Some(region.to_owned());
        self
    }

    /// The region the turn names, if any.
    pub(crate) fn region_given(&self) -> Option<&str> {
        self.params.region.as_deref()
    }
}

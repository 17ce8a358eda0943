//! The request around the body: the method, the path (with the model where the provider puts
//! it), the headers the provider requires, and where the caller's key goes. Never a secret, and
//! never the host: the base URL is the caller's.

use serde::ser::Serializer;

use crate::provider::Provider;

/// The HTTP request that carries a body to a provider, all but the host and the key:
/// [`Provider::request`] makes it.
///
/// It serializes as the example program's `--request` prints it:
/// `{"method":"POST","path":"...","headers":{"name":"value",...},"auth":"..."}`.
///
/// ```
/// use transcript_replay::{Auth, Provider};
///
/// let request = Provider::Anthropic.request_for("claude-sonnet-4-5", false);
/// assert_eq!(request.method, "POST");
/// assert_eq!(request.path, "/v1/messages");
/// assert_eq!(request.auth, Auth::XApiKey);
/// assert_eq!(
///     serde_json::to_string(&request).unwrap(),
///     r#"{"method":"POST","path":"/v1/messages","headers":{"content-type":"application/json","anthropic-version":"2023-06-01"},"auth":"x-api-key"}"#,
/// );
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
}

/// Where the caller's key goes: the one thing about credentials a [`Request`] says.
///
/// It serializes as `"bearer"`, `"x-api-key"`, `"x-goog-api-key"` or `"sigv4"`.
///
/// ```
/// use transcript_replay::{Auth, Provider};
///
/// assert_eq!(Provider::Gemini.request_for("gemini-2.5-pro", false).auth, Auth::XGoogApiKey);
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

/// The version of the Messages API the crate writes bodies for.
const ANTHROPIC_VERSION: &str = "2023-06-01";

impl Provider {
    /// The request around this provider's body for a model, asking for a whole reply or a
    /// streamed one (`stream`): the method, the path, the headers the provider requires and
    /// where the key goes, never a secret. The base URL is the caller's; the path starts with
    /// `/` and goes after it.
    ///
    /// | provider | path | headers beside `content-type: application/json` | key |
    /// |---|---|---|---|
    /// | OpenAI Chat, compatible servers | `/v1/chat/completions` | | bearer |
    /// | OpenAI Responses | `/v1/responses` | | bearer |
    /// | Anthropic | `/v1/messages` | `anthropic-version: 2023-06-01` | `x-api-key` |
    /// | Gemini | `/v1beta/models/{model}:generateContent`, streamed `:streamGenerateContent?alt=sse` | | `x-goog-api-key` |
    /// | Bedrock | `/model/{model}/converse`, streamed `/converse-stream` | | SigV4 |
    ///
    /// A streamed request also asks for the stream's media type: `accept: text/event-stream`
    /// (server-sent events), or `accept: application/vnd.amazon.eventstream` for Bedrock's
    /// binary event stream. OpenAI, Responses and Anthropic take the model and `"stream": true`
    /// in the body (the caller's fields), so their paths are the same either way; Gemini and
    /// Bedrock take both in the path, and their bodies leave them out.
    ///
    /// The model goes in the path as one segment, percent-encoded by the rule of AWS
    /// Signature Version 4 (and RFC 3986): every byte but `A-Z a-z 0-9 - . _ ~` becomes `%XY`,
    /// uppercase, so a Bedrock id's `:` is `%3A` and an ARN's `/` is `%2F`. A literal `/`
    /// would split the ARN across path segments, and Bedrock then answers
    /// `UnknownOperationException` or "The provided model identifier is invalid"
    /// (<https://github.com/vercel/ai/issues/17523>,
    /// <https://github.com/stenolabs/stenoai/pull/361>, <https://github.com/crmne/ruby_llm/pull/803>).
    /// A Gemini name may come with its resource prefix (`models/gemini-2.5-pro`), which is
    /// dropped.
    ///
    /// Sources: OpenAI's API reference, <https://platform.openai.com/docs/api-reference/chat/create>
    /// and <https://platform.openai.com/docs/api-reference/responses/create> (bearer key);
    /// Anthropic's, <https://docs.anthropic.com/en/api/getting-started> (`x-api-key`,
    /// `content-type`) and <https://docs.anthropic.com/en/api/versioning> (`anthropic-version`);
    /// Gemini's, <https://ai.google.dev/api> (`x-goog-api-key`) and
    /// <https://ai.google.dev/api/generate-content> (`alt=sse`); Bedrock's,
    /// <https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html> and
    /// <https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html>,
    /// and SigV4's encoding, <https://docs.aws.amazon.com/IAM/latest/UserGuide/create-signed-request.html>.
    ///
    /// Compatible servers. Each documents a base URL that ends before `/v1` (Groq
    /// `https://api.groq.com/openai`, OpenRouter `https://openrouter.ai/api`, Fireworks
    /// `https://api.fireworks.ai/inference`, local servers `http://localhost:PORT`); a dialect's
    /// [`chat_path`](crate::Dialect::chat_path) is the path: Gemini's OpenAI endpoint
    /// `/v1beta/openai/chat/completions` (<https://ai.google.dev/gemini-api/docs/openai>),
    /// Perplexity `/chat/completions`. Not followed: Azure OpenAI takes its key in an
    /// `api-key` header (a bearer token is Microsoft Entra ID's), and a classic deployment's
    /// path names the deployment and an `api-version`. Bedrock also takes an API key
    /// as a bearer token (<https://docs.aws.amazon.com/bedrock/latest/userguide/api-keys.html>);
    /// the request names SigV4, which every Bedrock caller can sign with.
    ///
    /// ```
    /// use transcript_replay::{Auth, Provider};
    ///
    /// let request = Provider::Bedrock.request_for("us.anthropic.claude-sonnet-4-5-20250929-v1:0", true);
    /// assert_eq!(request.path, "/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse-stream");
    /// assert_eq!(request.headers, [
    ///     ("content-type", "application/json".to_owned()),
    ///     ("accept", "application/vnd.amazon.eventstream".to_owned()),
    /// ]);
    /// assert_eq!(request.auth, Auth::Sigv4);
    ///
    /// let request = Provider::Gemini.request_for("gemini-2.5-flash", true);
    /// assert_eq!(request.path, "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
    /// ```
    pub fn request_for(self, model: &str, stream: bool) -> Request {
        self.request_of_parts(model, stream)
    }

    /// The request around a turn's body: [`request_for`](Provider::request_for) with the turn's
    /// [`model`](crate::Turn::model) (none when it has none) and whether it
    /// [`stream`](crate::Turn::stream)s.
    ///
    /// ```
    /// use transcript_replay::{Provider, StoredMessage, Turn};
    ///
    /// let history = [StoredMessage::user("Hi")];
    /// let turn = Turn::new(&history).model("anthropic.claude-3-haiku-20240307-v1:0").stream(true);
    /// assert_eq!(
    ///     Provider::Bedrock.request(&turn).path,
    ///     "/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse-stream",
    /// );
    /// ```
    pub fn request(self, turn: &crate::Turn<'_>) -> Request {
        self.request_of_parts(turn.model_name().unwrap_or_default(), turn.streams())
    }

    fn request_of_parts(self, model: &str, stream: bool) -> Request {
        let path = match self {
            Provider::OpenAi => "/v1/chat/completions".to_owned(),
            Provider::Compatible(dialect) => dialect.chat_path.to_owned(),
            Provider::OpenAiResponses => "/v1/responses".to_owned(),
            Provider::Anthropic => "/v1/messages".to_owned(),
            Provider::Gemini => {
                let name = model.strip_prefix("models/").unwrap_or(model);
                let method = if stream {
                    "streamGenerateContent?alt=sse"
                } else {
                    "generateContent"
                };
                format!("/v1beta/models/{}:{method}", path_segment(name))
            }
            Provider::Bedrock => {
                let operation = if stream {
                    "converse-stream"
                } else {
                    "converse"
                };
                format!("/model/{}/{operation}", path_segment(model))
            }
        };
        let mut headers = vec![("content-type", "application/json".to_owned())];
        let (auth, stream_type) = match self {
            Provider::OpenAi | Provider::OpenAiResponses | Provider::Compatible(_) => {
                (Auth::Bearer, "text/event-stream")
            }
            Provider::Anthropic => {
                headers.push(("anthropic-version", ANTHROPIC_VERSION.to_owned()));
                (Auth::XApiKey, "text/event-stream")
            }
            Provider::Gemini => (Auth::XGoogApiKey, "text/event-stream"),
            Provider::Bedrock => (Auth::Sigv4, "application/vnd.amazon.eventstream"),
        };
        if stream {
            headers.push(("accept", stream_type.to_owned()));
        }
        Request {
            method: "POST",
            path,
            headers,
            auth,
        }
    }
}

/// A path segment as SigV4 and RFC 3986 encode it: the unreserved characters as they are,
/// every other byte of the UTF-8 as `%XY` in uppercase hex.
fn path_segment(text: &str) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(byte));
        } else {
            out.push('%');
            for nibble in [byte >> 4, byte & 0x0f] {
                out.push(
                    HEX.get(usize::from(nibble))
                        .map_or('0', |&hex| char::from(hex)),
                );
            }
        }
    }
    out
}

//! One entry point for any provider: from a [`Provider`] value, the body of a turn (one value
//! that serializes and prices itself), the reader of a reply, of a stream and of an error, so
//! that a runtime that talks to several providers writes no `match` of its own.
//!
//! This is the one module that reaches every provider's module; nothing the providers share
//! imports it.

use serde::ser::{Serialize, Serializer};

use crate::body::{BodyError, Turn};
use crate::cost::{self, family_of, ImageTokens, Priced, Units};
use std::str::FromStr;

use crate::body::request::Request;
use crate::dialects::Dialect;
use crate::errors::failure::{Failure, Header};
use crate::errors::provider::ProviderError;
use crate::errors::UnknownProvider;
use crate::fit::Budget;
use crate::provider::Provider;
use crate::render::rules::ImageLimits;
use crate::reply::{Reply, ReplyError};
use crate::stream::StreamReader;
use crate::surface::Surface;
use crate::{anthropic, bedrock, gemini, openai, openai_responses};

/// The whole request body of a turn for whichever provider built it
/// ([`Provider::body`]): it serializes as that provider's body and prices itself
/// ([`Priced`]), so one build serves both the estimate and the bytes.
///
/// ```
/// use transcript_replay::{cost::image_tokens, Priced, Provider, StoredMessage, Turn};
///
/// let history = [StoredMessage::user("Is a.rs empty?")];
/// let turn = Turn::new(&history);
/// for provider in Provider::ALL {
///     let body = provider.body(&turn)?;
///     let estimate = body.estimate(image_tokens("claude").unwrap());
///     let bytes = serde_json::to_vec(&body).unwrap();
///     assert_eq!(estimate.bytes, bytes.len());
///     assert_eq!(body.provider(), provider);
/// }
/// # Ok::<(), transcript_replay::BodyError>(())
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum AnyBody<'a> {
    /// An OpenAI Chat Completions body.
    OpenAi(openai::Body<'a>),
    /// An OpenAI Responses body.
    OpenAiResponses(openai_responses::Body<'a>),
    /// An Anthropic Messages body.
    Anthropic(anthropic::Body<'a>),
    /// A Gemini generateContent body.
    Gemini(gemini::Body<'a>),
    /// A Bedrock Converse body.
    Bedrock(bedrock::Body<'a>),
}

impl AnyBody<'_> {
    /// The provider whose body this is.
    ///
    /// ```
    /// use transcript_replay::{Provider, StoredMessage, Turn};
    ///
    /// let history = [StoredMessage::user("Hi")];
    /// assert_eq!(Provider::Gemini.body(&Turn::new(&history))?.provider(), Provider::Gemini);
    /// # Ok::<(), transcript_replay::BodyError>(())
    /// ```
    pub fn provider(&self) -> Provider {
        match self {
            AnyBody::OpenAi(body) => body.provider(),
            AnyBody::OpenAiResponses(_) => Provider::OpenAiResponses,
            AnyBody::Anthropic(_) => Provider::Anthropic,
            AnyBody::Gemini(_) => Provider::Gemini,
            AnyBody::Bedrock(_) => Provider::Bedrock,
        }
    }
}

impl Serialize for AnyBody<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            AnyBody::OpenAi(body) => body.serialize(serializer),
            AnyBody::OpenAiResponses(body) => body.serialize(serializer),
            AnyBody::Anthropic(body) => body.serialize(serializer),
            AnyBody::Gemini(body) => body.serialize(serializer),
            AnyBody::Bedrock(body) => body.serialize(serializer),
        }
    }
}

impl Priced for AnyBody<'_> {}

/// The cost of the provider's body, as that body prices itself.
impl cost::sealed::Sealed for AnyBody<'_> {
    fn units(&self) -> Units<'_> {
        match self {
            AnyBody::OpenAi(body) => body.units(),
            AnyBody::OpenAiResponses(body) => body.units(),
            AnyBody::Anthropic(body) => body.units(),
            AnyBody::Gemini(body) => body.units(),
            AnyBody::Bedrock(body) => body.units(),
        }
    }

    fn told(&self) -> cost::Told {
        match self {
            AnyBody::OpenAi(body) => body.told(),
            AnyBody::OpenAiResponses(body) => body.told(),
            AnyBody::Anthropic(body) => body.told(),
            AnyBody::Gemini(body) => body.told(),
            AnyBody::Bedrock(body) => body.told(),
        }
    }
}

impl Provider {
    /// The provider's own facts and readers, stated once in its folder: the one place a
    /// provider value reaches its module.
    pub(crate) fn surface(self) -> &'static Surface {
        match self {
            Provider::OpenAi | Provider::Compatible(_) => &openai::SURFACE,
            Provider::OpenAiResponses => &openai_responses::SURFACE,
            Provider::Anthropic => &anthropic::SURFACE,
            Provider::Gemini => &gemini::SURFACE,
            Provider::Bedrock => &bedrock::SURFACE,
        }
    }

    /// The dialect of the OpenAI Chat surface this provider speaks: [`Dialect::OPENAI`] for
    /// [`Provider::OpenAi`], the server's for [`Provider::Compatible`], none for the other
    /// surfaces.
    ///
    /// ```
    /// use transcript_replay::{Dialect, Provider};
    ///
    /// assert_eq!(Provider::OpenAi.dialect(), Some(&Dialect::OPENAI));
    /// assert_eq!("groq".parse::<Provider>().unwrap().dialect(), Some(&Dialect::GROQ));
    /// assert_eq!(Provider::Gemini.dialect(), None);
    /// ```
    pub fn dialect(self) -> Option<&'static Dialect> {
        match self {
            Provider::OpenAi => Some(&Dialect::OPENAI),
            Provider::Compatible(dialect) => Some(dialect),
            Provider::OpenAiResponses
            | Provider::Anthropic
            | Provider::Gemini
            | Provider::Bedrock => None,
        }
    }

    /// Whether two providers speak the same API (the OpenAI Chat surface, whatever the
    /// dialect), so that a reply of one can be a round in the other's body.
    pub(crate) fn same_surface(self, other: Provider) -> bool {
        match (self.dialect(), other.dialect()) {
            (Some(_), Some(_)) => true,
            (None, None) | (Some(_), None) | (None, Some(_)) => self == other,
        }
    }

    /// Builds the whole request body of a turn for this provider: what its module's `body`
    /// builds (`openai::body`, `anthropic::body`, ...), as one type for all of them.
    ///
    /// # Errors
    ///
    /// The [`BodyError`] of the provider's own `body`.
    ///
    /// ```
    /// use serde_json::json;
    /// use transcript_replay::{Provider, StoredMessage, Turn};
    ///
    /// let history = [StoredMessage::user("Is a.rs empty?")];
    /// let provider: Provider = "anthropic".parse().unwrap();
    /// let turn = Turn::new(&history).fields(&json!({"model": "claude-sonnet-4-5", "max_tokens": 1024}));
    /// let bytes = serde_json::to_vec(&provider.body(&turn)?).unwrap();
    /// assert!(bytes.starts_with(br#"{"max_tokens":1024,"model":"claude-sonnet-4-5","system":"#));
    /// # Ok::<(), transcript_replay::BodyError>(())
    /// ```
    pub fn body<'a>(self, turn: &'a Turn<'_>) -> Result<AnyBody<'a>, BodyError> {
        Ok(match self {
            Provider::OpenAi | Provider::Compatible(_) => {
                AnyBody::OpenAi(openai::body_of(turn, self)?)
            }
            Provider::OpenAiResponses => AnyBody::OpenAiResponses(openai_responses::body(turn)?),
            Provider::Anthropic => AnyBody::Anthropic(anthropic::body(turn)?),
            Provider::Gemini => AnyBody::Gemini(gemini::body(turn)?),
            Provider::Bedrock => AnyBody::Bedrock(bedrock::body(turn)?),
        })
    }

    /// What the turn's body costs ([`Priced::estimate`] of [`body`](Provider::body)), also for
    /// a turn with no live message yet: the history as it would be sent, which may end on the
    /// model's turn (a body of it would be refused, its size is still known). The estimate is
    /// [`anchored`](crate::cost::Estimate::anchored) on the newest stored assistant message
    /// that carries its provider's reported usage, and priced in
    /// [`usd`](crate::cost::Estimate::usd) where the turn's model is in the catalog.
    ///
    /// # Errors
    ///
    /// The turn's [`BodyError`], as [`body`](Provider::body) gives it, but for the turn it
    /// ends on.
    ///
    /// ```
    /// use transcript_replay::{cost::image_tokens, Provider, StoredMessage, TokenUsage, Turn};
    ///
    /// let usage = TokenUsage { input_tokens: 900, output_tokens: 12, ..TokenUsage::default() };
    /// let history = [StoredMessage::user("Read a.rs."), StoredMessage::assistant("It is empty.").with_usage(usage)];
    /// let provider: Provider = "gemini".parse().unwrap();
    /// let estimate = provider.estimate(&Turn::new(&history), image_tokens("gemini-2").unwrap())?;
    /// assert_eq!(estimate.anchored.map(|anchored| anchored.tokens), Some(912));
    /// assert!(provider.body(&Turn::new(&history)).is_err()); // it ends on the model's turn
    /// # Ok::<(), transcript_replay::BodyError>(())
    /// ```
    pub fn estimate(
        self,
        turn: &Turn<'_>,
        images: &ImageTokens,
    ) -> Result<cost::Estimate, BodyError> {
        let sized = turn.unanswered();
        let mut estimate = self.body(&sized)?.estimate(images);
        let prices = turn
            .model_name()
            .and_then(crate::models::find)
            .and_then(|model| model.usd_per_mtok);
        if let Some(prices) = prices {
            let tokens = estimate.anchored_tokens().unwrap_or(estimate.tokens());
            estimate.usd = Some(tokens as f64 * prices.for_prompt(tokens).input / 1_000_000.0);
        }
        Ok(estimate)
    }

    /// Reads this provider's response body into the [`Reply`]: the stored message of the
    /// assistant's turn and why it stopped, as its module's `read_reply` reads it.
    ///
    /// # Errors
    ///
    /// The [`ReplyError`] of the provider's own `read_reply`.
    ///
    /// ```
    /// use transcript_replay::{Block, Provider};
    ///
    /// let reply = r#"{"output": {"message": {"role": "assistant", "content": [{"text": "Yes."}]}},
    ///   "stopReason": "end_turn"}"#;
    /// let reply = Provider::Bedrock.read_reply(reply)?;
    /// assert_eq!(reply.message.blocks, [Block::text("Yes.")]);
    /// # Ok::<(), transcript_replay::ReplyError>(())
    /// ```
    pub fn read_reply(self, body: &str) -> Result<Reply, ReplyError> {
        (self.surface().read_reply)(body, self)
    }

    /// Starts a reader of this provider's streamed reply: what its module's `stream` starts.
    ///
    /// ```
    /// use transcript_replay::{Block, Provider};
    ///
    /// let mut reader = Provider::OpenAi.stream();
    /// reader.feed(b"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Yes.\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")?;
    /// assert_eq!(reader.finish()?.message.blocks, [Block::text("Yes.")]);
    /// # Ok::<(), transcript_replay::StreamError>(())
    /// ```
    pub fn stream(self) -> StreamReader {
        (self.surface().stream)(self)
    }

    /// Reads this provider's error response: its HTTP status, the response's headers (any
    /// pairs of a name, in any case, and a value, [`Header`]: a slice of `(&str, &str)`, a
    /// `Vec<(String, String)>`, the pairs an `http::HeaderMap` iterates over;
    /// `[] as [(&str, &str); 0]` for none), and its body, as the provider module's
    /// `read_error` reads it.
    ///
    /// What the headers add:
    ///
    /// - How long to wait, [`ProviderError::retry_after`]: `retry-after-ms`, else
    ///   `retry-after` in seconds (its HTTP-date form is not read), else the body's word
    ///   (Gemini's `RetryInfo`, OpenAI's `Please try again in 1.5s`), else, for a rate limit,
    ///   the longer of OpenAI's `x-ratelimit-reset-requests` and `x-ratelimit-reset-tokens`
    ///   (`6m0s`).
    /// - `x-should-retry: true|false`, the provider's own word, sets
    ///   [`ProviderError::retryable`].
    /// - Bedrock's `x-amzn-ErrorType` names the exception the body does not
    ///   (`ModelTimeoutException:http://internal.amazon.com/coral/com.amazon.bedrock/`):
    ///   `ThrottlingException` is a rate limit, `ServiceUnavailableException` and
    ///   `ModelNotReadyException` an overload, `ModelTimeoutException` a server error a retry
    ///   may help, `ModelErrorException` the model's own failure, read by the model's status
    ///   (`originalStatusCode`) when the body gives it, a server error otherwise.
    ///
    /// ```
    /// use std::time::Duration;
    /// use transcript_replay::{errors::ProviderErrorKind, Provider};
    ///
    /// let error = Provider::Anthropic.read_error(529, [] as [(&str, &str); 0],
    ///     r#"{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}"#);
    /// assert_eq!((error.kind, error.retryable), (ProviderErrorKind::Overloaded, true));
    ///
    /// let headers = [("X-Amzn-ErrorType", "ModelTimeoutException:http://internal.amazon.com/coral/com.amazon.bedrock/")];
    /// let error = Provider::Bedrock.read_error(408, &headers, r#"{"message": "Model has timed out in processing the request."}"#);
    /// assert_eq!((error.kind, error.retryable), (ProviderErrorKind::Server, true));
    /// assert_eq!(error.code(), Some("ModelTimeoutException"));
    ///
    /// let headers = vec![("retry-after".to_owned(), "17".to_owned())];
    /// let error = Provider::Anthropic.read_error(429, &headers,
    ///     r#"{"type": "error", "error": {"type": "rate_limit_error", "message": "Number of request tokens has exceeded your per-minute rate limit"}}"#);
    /// assert_eq!(error.retry_after, Some(Duration::from_secs(17)));
    /// ```
    pub fn read_error<H: Header>(
        self,
        status: u16,
        headers: impl IntoIterator<Item = H>,
        body: &str,
    ) -> ProviderError {
        let headers: Vec<H> = headers.into_iter().collect();
        let pairs: Vec<(&str, &str)> = (headers.iter())
            .filter_map(|header| Some((header.name(), header.value()?)))
            .collect();
        if pairs.is_empty() {
            return (self.surface().read_error)(self, status, body);
        }
        (self.surface().read_error_with_headers)(self, status, &pairs, body)
    }

    /// The provider's documented image limits, which its `render` and `body` apply unless
    /// a [`Turn`] gives its own ([`Turn::limits`]).
    ///
    /// ```
    /// use transcript_replay::{anthropic, Provider};
    ///
    /// assert_eq!(Provider::Anthropic.limits(), anthropic::LIMITS);
    /// assert_eq!(Provider::Bedrock.limits().images_per_request, 20);
    /// ```
    pub fn limits(self) -> ImageLimits {
        self.surface().limits
    }
}

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
        self.request_of_parts(model, stream, None)
    }

    /// The request around a turn's body: [`request_for`](Provider::request_for) with the turn's
    /// [`model`](crate::Turn::model) (none when it has none) and whether it
    /// [`stream`](crate::Turn::stream)s; with the headers a beta needs when the body sends the
    /// provider's own compaction back natively (Anthropic's `anthropic-beta:
    /// compact-2026-01-12`).
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
    pub fn request(self, turn: &Turn<'_>) -> Request {
        let mut request = self.request_of_parts(
            turn.model_name().unwrap_or_default(),
            turn.streams(),
            turn.region_given(),
        );
        let shape = &self.surface().request;
        if turn.carries_compaction_of(self.id()) {
            add_headers(&mut request.headers, shape.compaction_headers);
        }
        add_headers(
            &mut request.headers,
            &(shape.tool_headers)(turn.tools_given()),
        );
        request
    }

    /// The request that compacts the turn's conversation now, on a provider that takes one:
    /// for Responses, [`openai_responses::compact_request`] (`POST /v1/responses/compact`, the
    /// model and the input as the turn's body would send them); its reply, read by
    /// [`openai_responses::read_compaction`], is the stored message to append.
    ///
    /// # Errors
    ///
    /// The turn's [`BodyError`]; and, for a provider that takes no compact request of its
    /// own, an error naming it: summarize on any provider with
    /// [`Turn::summary_request`](crate::Turn::summary_request).
    ///
    /// ```
    /// use transcript_replay::{Provider, StoredMessage, Turn};
    ///
    /// let history = [StoredMessage::user("Hi")];
    /// let turn = Turn::new(&history).model("gpt-5.1");
    /// let responses: Provider = "openai-responses".parse().unwrap();
    /// assert_eq!(responses.compact_request(&turn)?.request.path, "/v1/responses/compact");
    /// let gemini: Provider = "gemini".parse().unwrap();
    /// assert_eq!(
    ///     gemini.compact_request(&turn).unwrap_err().to_string(),
    ///     "Gemini takes no compact request (summarize with a summary request instead): the turn's compact request cannot be written",
    /// );
    /// # Ok::<(), transcript_replay::BodyError>(())
    /// ```
    pub fn compact_request(
        self,
        turn: &Turn<'_>,
    ) -> Result<openai_responses::CompactRequest, BodyError> {
        match self {
            Provider::OpenAiResponses => openai_responses::compact_request(turn),
            Provider::OpenAi
            | Provider::Anthropic
            | Provider::Gemini
            | Provider::Bedrock
            | Provider::Compatible(_) => Err(crate::turn::params::Params::not_taken(
                self,
                "compact request",
                "no compact request (summarize with a summary request instead)",
            )),
        }
    }

    fn request_of_parts(self, model: &str, stream: bool, region: Option<&str>) -> Request {
        let shape = &self.surface().request;
        let mut headers = vec![("content-type", "application/json".to_owned())];
        headers.extend(
            shape
                .headers
                .iter()
                .map(|&(name, value)| (name, value.to_owned())),
        );
        if stream {
            headers.push(("accept", shape.stream_type.to_owned()));
        }
        Request {
            method: "POST",
            path: (shape.path)(self, model, stream),
            headers,
            auth: shape.auth,
            base_url: (shape.base_url)(self, region),
        }
    }
}

/// Adds headers to a request's: a value for a header it already has joins that header's
/// value after a comma, once (Anthropic takes several betas as "a comma separated list like
/// `beta1,beta2`", the pinned spec's `anthropic-beta` parameter).
fn add_headers(headers: &mut Vec<(&'static str, String)>, added: &[(&'static str, &'static str)]) {
    for &(name, value) in added {
        match headers.iter_mut().find(|(have, _)| *have == name) {
            Some((_, have)) if have.split(',').any(|one| one == value) => {}
            Some((_, have)) => {
                have.push(',');
                have.push_str(value);
            }
            None => headers.push((name, value.to_owned())),
        }
    }
}

impl Provider {
    /// The image rule of a model's family, from the model's name by [`MODEL_FAMILIES`](crate::cost::MODEL_FAMILIES); for a
    /// name the table does not know, the provider's default: `claude` for Anthropic and
    /// Bedrock, `gemini-2` for Gemini, `gpt-4o` for OpenAI, Responses and compatible servers
    /// (the example program's defaults for `--family`). The same rule prices files
    /// ([`file_tokens`](crate::cost::file_tokens): a PDF's pages by the Gemini families' figures).
    ///
    /// Give it the name as the request carries it (Bedrock's inference-profile ids and ARNs,
    /// OpenRouter's `vendor/model` included).
    ///
    /// ```
    /// use transcript_replay::{Priced, Provider, StoredMessage, Turn};
    ///
    /// assert_eq!(Provider::OpenAi.image_tokens_for("gpt-4.1-mini-2025-04-14").family, "gpt-4.1-mini");
    /// assert_eq!(Provider::Bedrock.image_tokens_for("us.anthropic.claude-sonnet-4-5-20250929-v1:0").family, "claude");
    /// assert_eq!(Provider::Gemini.image_tokens_for("gemini-3-pro-preview").family, "gemini-3");
    /// // Not in the table: the provider's default.
    /// assert_eq!(Provider::Bedrock.image_tokens_for("amazon.nova-pro-v1:0").family, "claude");
    ///
    /// let history = [StoredMessage::user("Is a.rs empty?")];
    /// let estimate = Provider::Gemini.body(&Turn::new(&history))?
    ///     .estimate(Provider::Gemini.image_tokens_for("gemini-2.5-flash"));
    /// assert_eq!(estimate.image_tokens, 0);
    /// # Ok::<(), transcript_replay::BodyError>(())
    /// ```
    pub fn image_tokens_for(self, model: &str) -> &'static ImageTokens {
        match family_of(model) {
            Some(family) => family.rule,
            None => self.surface().image_rule,
        }
    }
}

impl FromStr for Provider {
    type Err = UnknownProvider;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Provider::ALL
            .into_iter()
            .chain(Dialect::NAMED.map(Provider::Compatible))
            .find(|provider| provider.id() == name)
            .ok_or_else(|| UnknownProvider(name.to_owned()))
    }
}

impl Turn<'_> {
    /// Refits the turn after its request overflowed the model's window: a smaller
    /// [`Budget`](crate::Budget), from the overflow's counts, and `true`; `false` when the
    /// failure is no provider's overflow (a rate limit, a body over its own budget, ...) or
    /// nothing smaller is left to send, and the turn is left as it was.
    ///
    /// The body the turn builds now (what was sent) is estimated as the turn's budget counts
    /// (its image rule and counter; without a budget, the provider's rule for the turn's
    /// model), and scaled by how far over the provider counted it: the new budget is
    /// `(limit - max_output) * sent / used` tokens, where the provider named `used` and
    /// `limit` ([`ProviderError::used`], [`ProviderError::limit`]), else three quarters of
    /// what was sent; always less than what was sent. Its step and counter are the budget's.
    ///
    /// ```
    /// use transcript_replay::{anthropic, Budget, Failure, Priced, Provider, StoredMessage, Turn};
    ///
    /// let history: Vec<StoredMessage> =
    ///     (0..60).map(|n| StoredMessage::user(format!("note {n}: {}", "words ".repeat(300)))).collect();
    /// let live = [StoredMessage::user("Sum it up.")];
    /// let claude = Provider::Anthropic.image_tokens_for("claude-sonnet-4-5");
    /// let mut turn = Turn::new(&history).live(&live).max_output(1_000).budget(Budget::window(200_000, claude));
    /// let sent = anthropic::body(&turn)?.estimate(claude).tokens();
    ///
    /// // The provider counted more than the crate's estimate: refit, and send again.
    /// let overflow = anthropic::read_error(400, r#"{"type": "error", "error": {"type": "invalid_request_error",
    ///     "message": "prompt is too long: 30000 tokens > 20000 maximum"}}"#);
    /// assert!(turn.refit(&Failure::from(overflow)));
    /// let refitted = anthropic::body(&turn)?.estimate(claude).tokens();
    /// assert!(refitted <= (20_000 - 1_000) * sent / 30_000);
    ///
    /// let busy = anthropic::read_error(529, r#"{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}"#);
    /// assert!(!turn.refit(&Failure::from(busy)));
    /// # Ok::<(), transcript_replay::BodyError>(())
    /// ```
    pub fn refit(&mut self, failure: &Failure) -> bool {
        let (Some(overflow), Some(error)) = (failure.overflow(), failure.provider_error()) else {
            return false;
        };
        let provider = error.provider();
        let model = self.model_name().unwrap_or_default();
        let budget = (self.budget_given())
            .unwrap_or_else(|| Budget::new(u64::MAX, provider.image_tokens_for(model)));
        let Ok(body) = provider.body(self) else {
            return false;
        };
        let sent = cost::estimate_counted(&body, budget.images, budget.count).tokens();
        match budget.refitted(sent, overflow.used, overflow.limit, self.max_output_given()) {
            Some(refitted) => {
                self.budget = Some(refitted);
                true
            }
            None => false,
        }
    }
}

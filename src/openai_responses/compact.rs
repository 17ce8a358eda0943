//! Compaction now: the request of `POST /v1/responses/compact`, which asks Responses to
//! compact a conversation on its own, and its reply, the compacted window the next request
//! sends in place of the history.
//!
//! Sources: the API reference, <https://platform.openai.com/docs/api-reference/responses/compact>
//! (pinned spec `CompactResponseMethodPublicBody` and `CompactResource`), and the guide's
//! "Pass the compactedResponse.output as input to the next request"
//! (<https://platform.openai.com/docs/guides/conversation-state#managing-the-context-window>).

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde::Deserialize;
use serde_json::value::RawValue;

use super::reply::read_usage;
use super::request::Body;
use crate::body::request::Request;
use crate::body::{BodyError, Turn};
use crate::provider::Provider;
use crate::record::Block;
use crate::reply::{At, Reply};
use crate::stop::StopReason;

/// The path of the compact request, after the base URL.
const PATH: &str = "/v1/responses/compact";

/// The compact request of a turn: the request around it (method, path, headers, where the
/// key goes, the base URL) and its body, `{"model", "input"}`, the model and the input as the
/// turn's body would send them. It serializes as
/// `{"method","path","headers","auth","base_url","body"}`.
///
/// ```
/// use transcript_replay::{openai_responses, StoredMessage, Turn};
///
/// let history = [StoredMessage::user("Read a.rs."), StoredMessage::assistant("It is empty.")];
/// let turn = Turn::new(&history).model("gpt-5.1-codex-max");
/// let compact = openai_responses::compact_request(&turn)?;
/// assert_eq!(compact.request.url(), "https://api.openai.com/v1/responses/compact");
/// assert_eq!(
///     compact.body.get(),
///     r#"{"model":"gpt-5.1-codex-max","input":[{"role":"user","content":"Read a.rs."},{"role":"assistant","content":"It is empty."}]}"#,
/// );
/// # Ok::<(), transcript_replay::BodyError>(())
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct CompactRequest {
    /// The request around the body: `POST /v1/responses/compact`.
    pub request: Request,
    /// The body, as its JSON text: the model and the input.
    pub body: Box<RawValue>,
}

impl Serialize for CompactRequest {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        /// The request's members, then the body.
        #[derive(serde::Serialize)]
        struct Whole<'r> {
            #[serde(flatten)]
            request: &'r Request,
            body: &'r RawValue,
        }
        Whole {
            request: &self.request,
            body: &self.body,
        }
        .serialize(serializer)
    }
}

/// The compact request of a turn ([`CompactRequest`]): the turn's model, and its input as
/// [`body`](super::body()) writes it (the history, any earlier compaction honored, the live
/// turn and the rounds in flight, fitted to the turn's budget when it has one), which may end
/// on the model's turn: the conversation is compacted, not answered (the documented example
/// ends on the assistant's message). The system text, tools and parameters are not part of
/// it.
///
/// # Errors
///
/// The turn's [`BodyError`], as [`body`](super::body()) gives it; and a turn with no
/// [`model`](Turn::model), which the compact request requires.
///
/// ```
/// use transcript_replay::{openai_responses, StoredMessage, Turn};
///
/// let history = [StoredMessage::user("Hi")];
/// let error = openai_responses::compact_request(&Turn::new(&history)).unwrap_err();
/// assert_eq!(
///     error.to_string(),
///     "OpenAI takes a model in every compact request: the turn's model cannot be written",
/// );
/// ```
pub fn compact_request(turn: &Turn<'_>) -> Result<CompactRequest, BodyError> {
    /// The body: the model, then the input as the turn's body writes it.
    struct Compact<'b, 'a> {
        model: &'b str,
        body: &'b Body<'a>,
    }
    impl Serialize for Compact<'_, '_> {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            let mut map = serializer.serialize_map(Some(2))?;
            map.serialize_entry("model", self.model)?;
            self.body.write_input(&mut map)?;
            map.end()
        }
    }
    let model = turn
        .model_name()
        .filter(|model| !model.is_empty())
        .ok_or_else(|| {
            crate::turn::params::Params::not_taken(
                Provider::OpenAiResponses,
                "model",
                "a model in every compact request",
            )
        })?;
    let compacted = turn.unanswered();
    let body = super::body(&compacted)?;
    let body = serde_json::value::to_raw_value(&Compact { model, body: &body })
        .map_err(|error| BodyError::new(crate::body::Kind::NotJson(error.to_string())))?;
    let mut request = Provider::OpenAiResponses.request_for(model, false);
    PATH.clone_into(&mut request.path);
    Ok(CompactRequest { request, body })
}

/// Reads the reply of a compact request (`"object": "response.compaction"`) into the one
/// stored message it becomes: an assistant message holding a `compaction` block whose `data`
/// is the reply's `output` array as it came (the user messages Responses kept, then its
/// `compaction` item), as JSON text, and whose provider is `openai-responses`; with the
/// reply's `usage`. Appended to the record, it is sent back on Responses as those items, in
/// place of everything before it; no other provider can read it.
///
/// # Errors
///
/// A [`ReplyError`](crate::ReplyError) saying where, for a body that is not JSON, is not a
/// `response.compaction`, or has no `output` array.
///
/// ```
/// use transcript_replay::{openai_responses, Block, Role};
///
/// let reply = openai_responses::read_compaction(r#"{"id": "resp_1", "object": "response.compaction",
///     "output": [{"type": "compaction", "id": "cmp_1", "encrypted_content": "gAAA"}],
///     "usage": {"input_tokens": 139, "output_tokens": 438}}"#)?;
/// assert_eq!(reply.message.role, Role::Assistant);
/// let [Block::Compaction { provider, data, summary: None }] = reply.message.blocks.as_slice() else {
///     panic!("one compaction block");
/// };
/// assert_eq!(provider.as_deref(), Some("openai-responses"));
/// assert_eq!(data.as_deref(), Some(r#"[{"type": "compaction", "id": "cmp_1", "encrypted_content": "gAAA"}]"#));
/// # Ok::<(), transcript_replay::ReplyError>(())
/// ```
pub fn read_compaction(body: &str) -> Result<Reply, crate::ReplyError> {
    #[derive(Deserialize)]
    struct Fields<'a> {
        #[serde(default)]
        object: Option<String>,
        #[serde(borrow, default)]
        output: Option<&'a RawValue>,
        #[serde(borrow, default)]
        usage: Option<&'a RawValue>,
    }
    let at = At::body(Provider::OpenAiResponses, body)?;
    let fields: Fields<'_> = at.read()?;
    if fields.object.as_deref() != Some("response.compaction") {
        return Err(at.error(format_args!(
            "not a compacted response: its object is {}, not response.compaction",
            fields.object.as_deref().unwrap_or("absent")
        )));
    }
    let output = fields
        .output
        .ok_or_else(|| at.error("the compacted response has no output"))?;
    let output_at = at.child(output, "output");
    let _: Vec<&RawValue> = output_at.read()?;
    let usage = match at.present(fields.usage, "usage") {
        Some(usage_at) => read_usage(&usage_at)?.usage(),
        None => None,
    };
    let block = Block::provider_compaction(Provider::OpenAiResponses, output.get(), None);
    Ok(Reply::new(
        Provider::OpenAiResponses,
        vec![block],
        usage,
        StopReason::EndTurn,
        Vec::new(),
    ))
}

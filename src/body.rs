//! Whole requests: what a runtime sends, built from the stored record, the live turn and the
//! caller's own instructions, fields and in-flight messages.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::value::RawValue;

use crate::render::{self, Rendered, Role, Rules};
use crate::{
    replay_messages, Cache, ImageLimits, Part, Piece, Provider, StoredMessage, Text, Vision,
    REPLAY_PREAMBLE,
};

/// Everything one turn's request is made of, for any provider: the stored history, the live
/// turn, the caller's instructions, and the caller's own fields and in-flight messages.
///
/// Each provider module builds its whole request body from a `Turn` (`openai::body`,
/// `anthropic::body`, `gemini::body`). The body borrows the record and serializes straight
/// into the output: the history is never copied into a `serde_json::Value`.
///
/// - **System text**: the caller's instructions, a blank line, and [`REPLAY_PREAMBLE`] (just
///   the preamble when the instructions are empty or white space; just the instructions after
///   [`without_preamble`](Turn::without_preamble)). Each provider places it first, as its
///   own block or part, before the history's leading system messages.
/// - **History and live turn** are replayed with the same [`Vision`], and the provider's
///   rules apply to them as one conversation: images of a tool round land in the next user
///   message, whether that is in the history or the live turn; request limits count them all.
/// - **Appended messages** are the caller's own provider-native messages, serialized
///   verbatim after the live turn (an in-flight tool round with real call ids).
/// - **Fields** are the caller's top-level fields (model, max_tokens, tools, ...), written
///   first, in their order, beside the crate's own.
///
/// ```
/// use serde_json::json;
/// use transcript_replay::{anthropic, parse_record, StoredMessage, Turn};
///
/// let record = parse_record(r#"[
///   {"role": "user", "blocks": [{"type": "text", "text": "Is a.rs empty?"}]},
///   {"role": "assistant", "blocks": [{"type": "text", "text": "Yes."}]}
/// ]"#)?;
/// let live = [StoredMessage::user("And b.rs?")];
/// let turn = Turn::new(&record)
///     .instructions("You are a careful coding agent.")
///     .live(&live)
///     .fields(&json!({"model": "claude-sonnet-4-5", "max_tokens": 1024}));
/// let body = anthropic::body(&turn).expect("a valid request");
/// let json: serde_json::Value = serde_json::to_value(&body).unwrap();
/// assert_eq!(json["model"], "claude-sonnet-4-5");
/// assert_eq!(json["messages"].as_array().unwrap().len(), 3);
/// assert!(json["system"][0]["text"].as_str().unwrap().starts_with("You are a careful coding agent.\n\nEarlier turns"));
/// # Ok::<(), transcript_replay::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Turn<'a> {
    history: &'a [StoredMessage],
    live: &'a [StoredMessage],
    vision: Vision,
    instructions: &'a str,
    preamble: bool,
    prefill: bool,
    cache: Option<Cache>,
    limits: Option<ImageLimits>,
    // Shared with every body built from this turn, so that a body borrows nothing of it.
    fields: Arc<Fields>,
    appended: Arc<Appended>,
    problem: Option<BodyError>,
}

/// The caller's top-level fields, in order, each value as its exact JSON text.
pub(crate) type Fields = Vec<(String, Box<RawValue>)>;

/// The caller's own messages, each as its exact JSON text.
pub(crate) type Appended = Vec<Box<RawValue>>;

impl<'a> Turn<'a> {
    /// A turn over the stored history, for a model that sees, with the preamble, no
    /// instructions, no live turn, no fields and nothing appended.
    ///
    /// ```
    /// use transcript_replay::{openai, StoredMessage, Turn};
    ///
    /// let history = [StoredMessage::user("Hi")];
    /// let body = openai::body(&Turn::new(&history).without_preamble()).unwrap();
    /// assert_eq!(serde_json::to_string(&body).unwrap(), r#"{"messages":[{"role":"user","content":"Hi"}]}"#);
    /// ```
    pub fn new(history: &'a [StoredMessage]) -> Self {
        Turn {
            history,
            live: &[],
            vision: Vision::Sees,
            instructions: "",
            preamble: true,
            prefill: false,
            cache: None,
            limits: None,
            fields: Arc::default(),
            appended: Arc::default(),
            problem: None,
        }
    }

    /// Whether the model sees images; history and live turn are replayed with it.
    ///
    /// ```
    /// use transcript_replay::{gemini, Block, Role, StoredMessage, Turn, Vision};
    ///
    /// let history = [StoredMessage::new(Role::User, vec![Block::image("image/png", "iVBORw0KGgo=")])];
    /// let body = gemini::body(&Turn::new(&history).vision(Vision::Blind).without_preamble()).unwrap();
    /// assert!(serde_json::to_string(&body).unwrap().contains("this model cannot view images"));
    /// ```
    #[must_use]
    pub fn vision(mut self, vision: Vision) -> Self {
        self.vision = vision;
        self
    }

    /// The caller's own system prompt, placed before [`REPLAY_PREAMBLE`].
    ///
    /// ```
    /// use transcript_replay::{openai, StoredMessage, Turn};
    ///
    /// let history = [StoredMessage::user("Hi")];
    /// let turn = Turn::new(&history).instructions("Be brief.").without_preamble();
    /// assert_eq!(
    ///     serde_json::to_string(&openai::body(&turn).unwrap()).unwrap(),
    ///     r#"{"messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Hi"}]}"#,
    /// );
    /// ```
    #[must_use]
    pub fn instructions(mut self, instructions: &'a str) -> Self {
        self.instructions = instructions;
        self
    }

    /// Leaves [`REPLAY_PREAMBLE`] out of the system text: for a caller that already has it
    /// in its instructions, or that sends no replayed tool rounds.
    ///
    /// ```
    /// use transcript_replay::{anthropic, StoredMessage, Turn};
    ///
    /// let history = [StoredMessage::user("Hi")];
    /// let body = anthropic::body(&Turn::new(&history).without_preamble()).unwrap();
    /// assert_eq!(serde_json::to_string(&body).unwrap(), r#"{"messages":[{"role":"user","content":[{"type":"text","text":"Hi"}]}]}"#);
    /// ```
    #[must_use]
    pub fn without_preamble(mut self) -> Self {
        self.preamble = false;
        self
    }

    /// The live turn: stored messages not stored yet (usually one user message), replayed
    /// after the history with the same vision.
    ///
    /// ```
    /// use transcript_replay::{openai, StoredMessage, Turn};
    ///
    /// let history = [StoredMessage::user("Hi"), StoredMessage::assistant("Hello!")];
    /// let live = [StoredMessage::user("Bye")];
    /// let body = openai::body(&Turn::new(&history).live(&live).without_preamble()).unwrap();
    /// assert!(serde_json::to_string(&body).unwrap().ends_with(r#"{"role":"user","content":"Bye"}]}"#));
    /// ```
    #[must_use]
    pub fn live(mut self, live: &'a [StoredMessage]) -> Self {
        self.live = live;
        self
    }

    /// Adds the caller's own top-level fields (model, max_tokens, tools, temperature, ...):
    /// anything that serializes as a JSON object. They are written first, in the order they
    /// serialize in (a `serde_json::json!` object sorts its keys; a struct keeps its field
    /// order); a later call adds more. A field the crate writes itself (`messages`, `system`, ...),
    /// a field given twice, or a value that is no object makes the body an error.
    ///
    /// ```
    /// use serde_json::json;
    /// use transcript_replay::{openai, StoredMessage, Turn};
    ///
    /// let history = [StoredMessage::user("Hi")];
    /// let turn = Turn::new(&history)
    ///     .without_preamble()
    ///     .fields(&json!({"model": "gpt-4.1"}))
    ///     .fields(&json!({"temperature": 0}));
    /// assert_eq!(
    ///     serde_json::to_string(&openai::body(&turn).unwrap()).unwrap(),
    ///     r#"{"model":"gpt-4.1","temperature":0,"messages":[{"role":"user","content":"Hi"}]}"#,
    /// );
    /// let clash = Turn::new(&history).fields(&json!({"messages": []}));
    /// assert_eq!(
    ///     openai::body(&clash).unwrap_err().to_string(),
    ///     "the caller's field `messages` is one the crate writes in a request to OpenAI",
    /// );
    /// ```
    #[must_use]
    pub fn fields(mut self, fields: &impl Serialize) -> Self {
        if self.problem.is_none() {
            if let Err(problem) = read_fields(fields, Arc::make_mut(&mut self.fields)) {
                self.problem = Some(problem);
            }
        }
        self
    }

    /// Appends one of the caller's own provider-native messages after the live turn,
    /// serialized verbatim: the messages of a tool round in flight, with real call ids. When
    /// it has a `role`, the body's sequencing rules count it.
    ///
    /// ```
    /// use serde_json::json;
    /// use transcript_replay::{openai, StoredMessage, Turn};
    ///
    /// let history = [StoredMessage::user("List the files.")];
    /// let turn = Turn::new(&history)
    ///     .without_preamble()
    ///     .append(&json!({"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function",
    ///         "function": {"name": "ls", "arguments": "{}"}}]}))
    ///     .append(&json!({"role": "tool", "tool_call_id": "call_1", "content": "a.rs"}));
    /// let body = serde_json::to_string(&openai::body(&turn).unwrap()).unwrap();
    /// assert!(body.ends_with(r#"{"content":"a.rs","role":"tool","tool_call_id":"call_1"}]}"#));
    /// ```
    #[must_use]
    pub fn append(mut self, message: &impl Serialize) -> Self {
        if self.problem.is_none() {
            match serde_json::value::to_raw_value(message) {
                Ok(raw) => Arc::make_mut(&mut self.appended).push(raw),
                Err(error) => {
                    self.problem = Some(BodyError::new(Kind::NotJson(error.to_string())));
                }
            }
        }
        self
    }

    /// Asks for a prefill: the body may end on an assistant turn, which the model continues
    /// (Anthropic only; its trailing white space is left out, as Anthropic requires). Other
    /// providers refuse it with an error.
    ///
    /// ```
    /// use transcript_replay::{anthropic, openai, StoredMessage, Turn};
    ///
    /// let history = [StoredMessage::user("Name a colour."), StoredMessage::assistant("The colour is ")];
    /// let turn = Turn::new(&history).without_preamble().prefill();
    /// assert!(serde_json::to_string(&anthropic::body(&turn).unwrap()).unwrap().contains(r#""text":"The colour is"}"#));
    /// assert!(openai::body(&turn).is_err());
    /// ```
    #[must_use]
    pub fn prefill(mut self) -> Self {
        self.prefill = true;
        self
    }

    /// Asks for prompt-cache breakpoints, kept for the given time, where the provider takes
    /// them (Anthropic's `cache_control`): on the system text S, at the end of the history,
    /// and 21 blocks before that end, so that a turn which added up to 40 blocks still finds
    /// what the previous turn wrote within the 20 blocks each breakpoint looks back over. At
    /// most 3 of the 4 breakpoints a request may carry, leaving one for the caller's tool
    /// definitions. OpenAI and Gemini cache a request's prefix by themselves: for them this
    /// changes nothing.
    ///
    /// ```
    /// use transcript_replay::{anthropic, Cache, StoredMessage, Turn};
    ///
    /// let history = [StoredMessage::user("Hi"), StoredMessage::assistant("Hello!")];
    /// let live = [StoredMessage::user("Bye")];
    /// let turn = Turn::new(&history).instructions("Be brief.").without_preamble().live(&live).cache(Cache::OneHour);
    /// assert_eq!(
    ///     serde_json::to_string(&anthropic::body(&turn).unwrap()).unwrap(),
    ///     concat!(
    ///         r#"{"system":[{"type":"text","text":"Be brief.","cache_control":{"type":"ephemeral","ttl":"1h"}}],"#,
    ///         r#""messages":[{"role":"user","content":[{"type":"text","text":"Hi"}]},"#,
    ///         r#"{"role":"assistant","content":[{"type":"text","text":"Hello!","cache_control":{"type":"ephemeral","ttl":"1h"}}]},"#,
    ///         r#"{"role":"user","content":[{"type":"text","text":"Bye"}]}]}"#,
    ///     ),
    /// );
    /// ```
    #[must_use]
    pub fn cache(mut self, cache: Cache) -> Self {
        self.cache = Some(cache);
        self
    }

    /// The image limits to apply, instead of the provider's documented defaults (its
    /// `LIMITS`): for example 600 images a request on Anthropic models with a smaller context.
    ///
    /// ```
    /// use transcript_replay::{anthropic, ImageLimits, StoredMessage, Turn};
    ///
    /// let history = [StoredMessage::user("Hi")];
    /// let turn = Turn::new(&history).limits(ImageLimits { images_per_request: 600, ..anthropic::LIMITS });
    /// assert!(anthropic::body(&turn).is_ok());
    /// ```
    #[must_use]
    pub fn limits(mut self, limits: ImageLimits) -> Self {
        self.limits = Some(limits);
        self
    }
}

/// Reads a caller's fields as the entries of one JSON object, in order.
fn read_fields(fields: &impl Serialize, into: &mut Fields) -> Result<(), BodyError> {
    let raw = serde_json::value::to_raw_value(fields)
        .map_err(|error| BodyError::new(Kind::NotJson(error.to_string())))?;
    let entries: Entries = serde_json::from_str(raw.get()).map_err(|_| {
        let found = match raw.get().as_bytes().first() {
            Some(b'[') => "an array",
            Some(b'"') => "a string",
            Some(b'n') => "null",
            Some(b't' | b'f') => "a boolean",
            Some(_) | None => "a number",
        };
        BodyError::new(Kind::FieldsNotAnObject(found))
    })?;
    for (key, value) in entries.0 {
        if into.iter().any(|(existing, _)| *existing == key) {
            return Err(BodyError::new(Kind::DuplicateField(key)));
        }
        into.push((key, value));
    }
    Ok(())
}

/// The entries of a JSON object, in order, each value kept as its exact text.
struct Entries(Vec<(String, Box<RawValue>)>);

impl<'de> serde::Deserialize<'de> for Entries {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct EntriesVisitor;

        impl<'de> serde::de::Visitor<'de> for EntriesVisitor {
            type Value = Entries;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Entries, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry::<String, Box<RawValue>>()? {
                    entries.push(entry);
                }
                Ok(Entries(entries))
            }
        }

        deserializer.deserialize_map(EntriesVisitor)
    }
}

/// Why a whole request body cannot be built: a provider would reject every body that could
/// be made without inventing content, or the caller's own parts are not what a body takes.
///
/// ```
/// use transcript_replay::{gemini, StoredMessage, Turn};
///
/// let history = [StoredMessage::user("Hi"), StoredMessage::assistant("Hello!")];
/// let error = gemini::body(&Turn::new(&history)).unwrap_err();
/// assert_eq!(
///     error.to_string(),
///     "the request would end on a model turn: add the live turn (Gemini rejects a request that ends on a model turn)",
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind}")]
pub struct BodyError {
    kind: Kind,
}

impl BodyError {
    fn new(kind: Kind) -> Self {
        BodyError { kind }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    /// Nothing but system text: the provider needs a conversation turn.
    NoMessages(Provider),
    /// The last turn is the model's, and no prefill was asked for (or the provider takes
    /// none).
    EndsOnAssistant {
        provider: Provider,
        role: &'static str,
        prefill: bool,
        rejects: bool,
    },
    /// The first conversation turn is the model's, and the provider needs a user turn first.
    StartsOnAssistant {
        provider: Provider,
        role: &'static str,
    },
    /// A prefill was asked of a provider that has none.
    PrefillNotTaken(Provider),
    /// Two adjacent turns of the same role where the crate cannot merge them (a caller's
    /// appended message is verbatim).
    AdjacentRoles {
        provider: Provider,
        role: &'static str,
        appended: usize,
    },
    FieldsNotAnObject(&'static str),
    DuplicateField(String),
    ReservedField {
        provider: Provider,
        key: String,
    },
    NotJson(String),
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Kind::NoMessages(provider) => write!(
                f,
                "the request has no conversation turn, which {provider} rejects: add the live turn"
            ),
            Kind::EndsOnAssistant {
                provider,
                role,
                prefill,
                rejects,
            } => {
                let turn = article(role);
                write!(f, "the request would end on {turn} turn: add the live turn")?;
                if *prefill {
                    f.write_str(" (or ask for a prefill)")?;
                }
                if *rejects {
                    write!(
                        f,
                        " ({provider} rejects a request that ends on {turn} turn)"
                    )?;
                }
                Ok(())
            }
            Kind::StartsOnAssistant { provider, role } => write!(
                f,
                "the request would start on {} turn, which {provider} rejects (\"A conversation \
                 must start with a user message\"): the record has no user turn before it",
                article(role)
            ),
            Kind::PrefillNotTaken(provider) => {
                write!(f, "a prefill was asked for, and {provider} takes none")
            }
            Kind::AdjacentRoles {
                provider,
                role,
                appended,
            } => write!(
                f,
                "appended message {appended} would follow {} turn with another, which \
                 {provider} rejects, and an appended message is sent as it is",
                article(role)
            ),
            Kind::FieldsNotAnObject(found) => {
                write!(f, "the caller's fields must be a JSON object, not {found}")
            }
            Kind::DuplicateField(key) => write!(f, "the caller's field `{key}` is given twice"),
            Kind::ReservedField { provider, key } => write!(
                f,
                "the caller's field `{key}` is one the crate writes in a request to {provider}"
            ),
            Kind::NotJson(error) => {
                write!(f, "a caller's value does not serialize as JSON: {error}")
            }
        }
    }
}

/// A whole request, assembled for one provider: what its serializer writes.
pub(crate) struct Assembled<'a> {
    /// The caller's fields, written first.
    pub(crate) fields: Arc<Fields>,
    /// The system text S: the caller's instructions and the preamble.
    pub(crate) instructions: Option<Text<'a>>,
    /// The history and live turn under the provider's rules, with the hoisted system text H.
    pub(crate) rendered: Rendered<'a>,
    /// The caller's own messages, written after the live turn.
    pub(crate) appended: Arc<Appended>,
    /// Where the history's breakpoints go, as (message, block), when they are asked for.
    pub(crate) breakpoints: Vec<(usize, usize)>,
    /// The breakpoints asked for.
    pub(crate) cache: Option<Cache>,
}

/// Assembles a turn's body under a provider's rules, or says which rule it cannot meet.
pub(crate) fn assemble<'a>(
    turn: &Turn<'a>,
    rules: &Rules,
    default_limits: &ImageLimits,
) -> Result<Assembled<'a>, BodyError> {
    if let Some(problem) = &turn.problem {
        return Err(problem.clone());
    }
    let provider = rules.provider;
    if let Some((key, _)) = turn
        .fields
        .iter()
        .find(|(key, _)| rules.body_keys.contains(&key.as_str()))
    {
        return Err(BodyError::new(Kind::ReservedField {
            provider,
            key: key.clone(),
        }));
    }
    if turn.prefill && !rules.takes_prefill {
        return Err(BodyError::new(Kind::PrefillNotTaken(provider)));
    }
    let mut wire = replay_messages(turn.history, turn.vision);
    wire.extend(replay_messages(turn.live, turn.vision));
    let mut rendered = render::render(&wire, rules, turn.limits.as_ref().unwrap_or(default_limits));
    let instructions = system_text(turn.instructions, turn.preamble);

    // Sequencing over the whole request: the crate's turns, then the caller's, where their
    // role is known.
    let appended_roles: Vec<Option<Role>> = turn.appended.iter().map(|raw| role_of(raw)).collect();
    if rules.merges_same_role {
        let mut previous = rendered.messages.last().map(|(role, _)| *role);
        for (index, &role) in appended_roles.iter().enumerate() {
            if let (Some(role), Some(before)) = (role, previous) {
                if role == before {
                    return Err(BodyError::new(Kind::AdjacentRoles {
                        provider,
                        role: match role {
                            Role::Assistant => rules.model_role,
                            Role::User => "user",
                            Role::System => "system",
                        },
                        appended: index,
                    }));
                }
            }
            previous = role;
        }
    }
    if rules.starts_on_user
        && rendered.messages.first().map(|(role, _)| *role) == Some(Role::Assistant)
    {
        return Err(BodyError::new(Kind::StartsOnAssistant {
            provider,
            role: rules.model_role,
        }));
    }
    let has_turns = !rendered.messages.is_empty() || !turn.appended.is_empty();
    let openai_system_only = !rules.hoists_system && instructions.is_some();
    if !has_turns && !openai_system_only {
        return Err(BodyError::new(Kind::NoMessages(provider)));
    }
    let last = match appended_roles.last() {
        Some(role) => *role,
        None => rendered.messages.last().map(|(role, _)| *role),
    };
    if last == Some(Role::Assistant) {
        if !turn.prefill {
            return Err(BodyError::new(Kind::EndsOnAssistant {
                provider,
                role: rules.model_role,
                prefill: rules.takes_prefill,
                rejects: rules.rejects_ending_on_assistant,
            }));
        }
        // A prefill the crate rendered: the final assistant text without trailing white
        // space, as the provider requires; nowhere else is anything trimmed.
        if turn.appended.is_empty() {
            if let Some((_, parts)) = rendered.messages.last_mut() {
                if let Some(Part::Text(text)) = parts.last_mut() {
                    text.trim_end();
                }
            }
        }
    }
    // The history's breakpoints, over the turns that carry it (not the live turn's).
    let breakpoints = match turn.cache {
        Some(_) => {
            let history_blocks: Vec<usize> = rendered
                .messages
                .iter()
                .zip(&rendered.starts)
                .take_while(|(_, &start)| start < turn.history.len())
                .map(|((_, parts), _)| parts.len())
                .collect();
            crate::cache::history_breakpoints(&history_blocks)
        }
        None => Vec::new(),
    };
    Ok(Assembled {
        fields: Arc::clone(&turn.fields),
        instructions,
        rendered,
        appended: Arc::clone(&turn.appended),
        breakpoints,
        cache: turn.cache,
    })
}

/// The system text S: the instructions, a blank line, the preamble; either alone when the
/// other is left out; `None` when both are. Instructions that are white space only count as
/// none, since no provider takes a blank system block.
fn system_text(instructions: &str, preamble: bool) -> Option<Text<'_>> {
    let instructions =
        (!instructions.chars().all(crate::wire::is_blank_char)).then_some(instructions);
    let pieces: Vec<Piece<'_>> = instructions
        .into_iter()
        .chain(preamble.then_some(REPLAY_PREAMBLE))
        .map(Piece::Text)
        .collect();
    (!pieces.is_empty()).then(|| Text::from_pieces(pieces))
}

/// The role of a caller's message, when it has one the crate knows.
fn role_of(raw: &RawValue) -> Option<Role> {
    #[derive(serde::Deserialize)]
    struct Probe<'a> {
        #[serde(borrow)]
        role: Option<Cow<'a, str>>,
    }
    let probe: Probe<'_> = serde_json::from_str(raw.get()).ok()?;
    match probe.role?.as_ref() {
        "user" | "tool" | "function" => Some(Role::User),
        "assistant" | "model" => Some(Role::Assistant),
        "system" | "developer" => Some(Role::System),
        _ => None,
    }
}

/// A role's name with its article, for an error: "an assistant", "a model".
fn article(role: &str) -> String {
    // The roles are "assistant", "model", "user" and "system": only the first takes "an".
    let article = if role.starts_with('a') { "an" } else { "a" };
    format!("{article} {role}")
}

/// Writes the caller's fields as entries of the body's map, in their order.
pub(crate) fn write_fields<M: SerializeMap>(
    map: &mut M,
    fields: &[(String, Box<RawValue>)],
) -> Result<(), M::Error> {
    for (key, value) in fields {
        map.serialize_entry(key, value)?;
    }
    Ok(())
}

/// A body's list of turns: the ones the crate rendered, then the caller's own, verbatim.
pub(crate) struct Turns<'b, M> {
    pub(crate) first: Option<&'b M>,
    pub(crate) rendered: &'b [M],
    pub(crate) appended: &'b [Box<RawValue>],
}

impl<M: Serialize> Serialize for Turns<'_, M> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let len = usize::from(self.first.is_some()) + self.rendered.len() + self.appended.len();
        let mut seq = serializer.serialize_seq(Some(len))?;
        if let Some(first) = self.first {
            seq.serialize_element(first)?;
        }
        for message in self.rendered {
            seq.serialize_element(message)?;
        }
        for message in self.appended {
            seq.serialize_element(message)?;
        }
        seq.end()
    }
}

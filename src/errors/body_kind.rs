//! What a [`BodyError`](crate::BodyError) is about, as data a loop can match on.

use crate::provider::Provider;

/// What a [`BodyError`](crate::BodyError) is about, for a loop to act on
/// ([`BodyError::kind`](crate::BodyError::kind)): a body over the budget (withhold more, or
/// summarize), turns out of sequence (add the live turn), tool rounds that do not match
/// their calls (answer every call once), or the caller's own fields, messages and tools (a bug
/// to fix, never a retry).
///
/// ```
/// use transcript_replay::{gemini, errors::BodyErrorKind, errors::Sequencing, StoredMessage, Turn};
///
/// let history = [StoredMessage::user("Hi"), StoredMessage::assistant("Hello!")];
/// let error = gemini::body(&Turn::new(&history)).unwrap_err();
/// assert_eq!(error.kind(), BodyErrorKind::Sequencing(Sequencing::EndsOnAssistant));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum BodyErrorKind<'a> {
    /// The parts a budget never withholds need more than the budget: nothing left to withhold
    /// makes the body fit ([`Turn::budget`](crate::Turn::budget)).
    #[non_exhaustive]
    OverBudget {
        /// The tokens the body needs with everything a budget may withhold withheld.
        needed: u64,
        /// The budget.
        budget: u64,
        /// By how much the body is over: `needed` less `budget`.
        over: u64,
        /// What the body still carries, by part (`the system text`, `the live turn`, `round 1
        /// in flight`, `the tool declarations`, `the parameters`, `the caller's fields`, `the
        /// parameters and the caller's fields`, `what is left of the history`, ...) with its
        /// tokens, largest first: the first is the part to shrink. The live turn is named so
        /// on every provider, even where it is merged into the history's last turn.
        parts: &'a [(String, u64)],
    },
    /// The turns are not in an order the provider takes.
    Sequencing(Sequencing),
    /// The rounds in flight do not match their calls.
    ToolLinkage(ToolLinkage<'a>),
    /// The caller's fields, appended messages or values are not what a body takes.
    Caller(CallerPart<'a>),
    /// The tool declarations or the tool choice are not what the provider takes.
    Tools(ToolDeclaration<'a>),
    /// A bug in transcript-replay, never the caller's doing: two of the crate's own counts
    /// that must match did not (the verdicts on a round's images or files, and the images or
    /// files they judge). Please report it; no retry or change to the turn is meant to help.
    Miscount {
        /// What did not match its count.
        what: &'static str,
    },
}

/// Turns out of the order the provider takes ([`BodyErrorKind::Sequencing`]).
///
/// ```
/// use transcript_replay::{bedrock, errors::BodyErrorKind, errors::Sequencing, StoredMessage, Turn};
///
/// let history = [StoredMessage::assistant("Hello!"), StoredMessage::user("Hi")];
/// let error = bedrock::body(&Turn::new(&history)).unwrap_err();
/// assert_eq!(error.kind(), BodyErrorKind::Sequencing(Sequencing::StartsOnAssistant));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Sequencing {
    /// No user or model turn at all, only system text: add the live turn.
    NoMessages,
    /// The request would end on the model's turn: add the live turn (or ask for a prefill).
    EndsOnAssistant,
    /// The first turn is the model's, and the provider needs a user turn first.
    StartsOnAssistant,
    /// An appended message would follow a turn of its own role, and it is sent as it is.
    #[non_exhaustive]
    AdjacentRoles {
        /// The appended message's index.
        appended: usize,
    },
    /// The rounds would follow a turn that is not the user's: add the live turn.
    RoundsAfterNoUserTurn,
    /// A prefill was asked of a provider that takes none.
    PrefillNotTaken,
    /// A prefill was asked with rounds in flight.
    PrefillWithRounds,
}

/// Rounds in flight that do not match their calls ([`BodyErrorKind::ToolLinkage`]). A round is
/// its index among the turn's rounds, counted from 0 as the error's text counts it.
///
/// ```
/// use transcript_replay::{openai, errors::BodyErrorKind, StoredMessage, errors::ToolLinkage, ToolOutput, Turn};
///
/// let reply = openai::read_reply(r#"{"choices": [{"message": {"role": "assistant", "content": null,
///     "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "ls", "arguments": "{}"}}]},
///     "finish_reason": "tool_calls"}]}"#)?;
/// let history = [StoredMessage::user("List the files.")];
/// let outputs = [ToolOutput::ok("c2", "a.rs")];
/// let turn = Turn::new(&history).round(&reply, &outputs);
/// let error = openai::body(&turn).unwrap_err();
/// assert_eq!(
///     error.kind(),
///     BodyErrorKind::ToolLinkage(ToolLinkage::OutputOfNoCall { round: 0, id: "c2" }),
/// );
/// # Ok::<(), transcript_replay::ReplyError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ToolLinkage<'a> {
    /// A call of the round has no output: answer it.
    CallWithoutOutput {
        /// The round.
        round: usize,
        /// The call's id.
        id: &'a str,
    },
    /// An output answers no call of the round.
    OutputOfNoCall {
        /// The round.
        round: usize,
        /// The output's call id.
        id: &'a str,
    },
    /// Two outputs answer the same call.
    OutputTwice {
        /// The round.
        round: usize,
        /// The call's id.
        id: &'a str,
    },
    /// A call that asks for an approval is answered without one (`approve` true or false).
    ApprovalNotGiven {
        /// The round.
        round: usize,
        /// The call's id.
        id: &'a str,
    },
    /// A call's output does not acknowledge every safety check its call waited on: the
    /// provider refuses to go on ("Computer tool has unacknowledged safety check").
    SafetyChecksNotAcknowledged {
        /// The round.
        round: usize,
        /// The call's id.
        id: &'a str,
    },
    /// A call that searches for tools on the runtime's side (a Responses `tool_search_call`
    /// run by the client) is answered by an output that is not a JSON array of tool
    /// definitions, which its `tool_search_output` carries as its `tools`.
    OutputNotToolDefinitions {
        /// The round.
        round: usize,
        /// The call's id.
        id: &'a str,
    },
    /// The last reply given to `store_turn` still calls tools: it does not end the turn.
    /// Send its round, or store the turn cut short with `Turn::store_interrupted`.
    LastReplyCallsTools {
        /// The ids of the calls it makes.
        calls: &'a [String],
    },
    /// A round whose reply calls no tool: it ends the turn (store it with `store_turn`).
    RoundWithoutCalls {
        /// The round.
        round: usize,
    },
    /// A round whose reply is another provider's.
    RoundOfAnotherProvider {
        /// The round.
        round: usize,
        /// The provider whose reply it is.
        of: Provider,
    },
    /// Rounds, and no tool declared, which the provider rejects: declare the tools.
    RoundsWithoutTools,
}

/// The caller's own parts that a body cannot take ([`BodyErrorKind::Caller`]).
///
/// ```
/// use serde_json::json;
/// use transcript_replay::{anthropic, errors::BodyErrorKind, errors::CallerPart, StoredMessage, Turn};
///
/// let history = [StoredMessage::user("Hi")];
/// let fields = json!({"messages": []});
/// let error = anthropic::body(&Turn::new(&history).fields(&fields)).unwrap_err();
/// assert_eq!(error.kind(), BodyErrorKind::Caller(CallerPart::Reserved { key: "messages" }));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CallerPart<'a> {
    /// The caller's fields are not a JSON object.
    NotAnObject {
        /// What they are instead (`an array`, ...).
        found: &'static str,
    },
    /// A field is given twice.
    Duplicate {
        /// The field.
        key: &'a str,
    },
    /// A field the crate writes itself.
    Reserved {
        /// The field.
        key: &'a str,
    },
    /// A field a compatible server refuses.
    Refused {
        /// The field.
        key: &'a str,
        /// The server's own output-limit field, when the field is the other one.
        output_limit: Option<&'static str>,
    },
    /// A caller's value does not serialize as JSON.
    NotJson,
    /// A neutral parameter of the turn ([`Turn::model`](crate::Turn::model), ...) and a
    /// caller's field that says the same thing.
    ParamConflict {
        /// The parameter: `model`, `max_output`, `reasoning`, `temperature`, `stop`,
        /// `stream` or `reply_schema`.
        param: &'static str,
        /// The caller's field (`generationConfig.temperature` inside an object both write).
        field: &'a str,
    },
    /// A neutral parameter the provider cannot take as given (stop sequences for Responses,
    /// a thinking budget not under Anthropic's `max_tokens`, a reply schema for a compatible
    /// server that takes only `json_object`, ...).
    ParamNotTaken {
        /// The parameter.
        param: &'static str,
    },
    /// The reply schema ([`Turn::reply_schema`](crate::Turn::reply_schema)) is not one JSON
    /// object, or its name is not 1 to 64 letters, digits, `_` or `-`.
    ///
    /// ```
    /// use transcript_replay::{openai, errors::BodyErrorKind, errors::CallerPart, StoredMessage, Turn};
    ///
    /// let history = [StoredMessage::user("Hi")];
    /// let turn = Turn::new(&history).reply_schema("reply", "[1, 2]");
    /// assert_eq!(
    ///     openai::body(&turn).unwrap_err().kind(),
    ///     BodyErrorKind::Caller(CallerPart::ReplySchema { name: "reply", part: "schema" }),
    /// );
    /// ```
    ReplySchema {
        /// The schema's name, as given.
        name: &'a str,
        /// What is wrong: `name` or `schema`.
        part: &'static str,
    },
    /// Two parameters the provider rejects together, whether the turn sets each (its neutral
    /// parameter, or its tool choice) or a caller's field says it: thinking with a forced
    /// tool choice (Anthropic, Claude through Bedrock), a reasoning effort with a temperature
    /// other than 1 or with stop sequences (OpenAI's reasoning models).
    ///
    /// ```
    /// use transcript_replay::{anthropic, errors::BodyErrorKind, errors::CallerPart};
    /// use transcript_replay::{Reasoning, StoredMessage, Tool, ToolChoice, Turn};
    ///
    /// let history = [StoredMessage::user("List the files.")];
    /// let tools = [Tool::new("ls", "Lists files.", r#"{"type": "object"}"#)?];
    /// let turn = Turn::new(&history)
    ///     .max_output(4_096)
    ///     .reasoning(Reasoning::Low)
    ///     .tools(&tools)
    ///     .tool_choice(ToolChoice::Required);
    /// let error = anthropic::body(&turn).unwrap_err();
    /// assert_eq!(
    ///     error.kind(),
    ///     BodyErrorKind::Caller(CallerPart::ParamsTogether { first: "reasoning", second: "tool_choice" }),
    /// );
    /// # Ok::<(), transcript_replay::errors::ToolError>(())
    /// ```
    ParamsTogether {
        /// The parameter named first: `reasoning`.
        first: &'static str,
        /// The parameter named second: `tool_choice`, `temperature` or `stop`.
        second: &'static str,
    },
    /// An appended message is not a JSON object.
    AppendedNotAnObject {
        /// The message's index.
        index: usize,
        /// What it is instead.
        found: &'static str,
    },
    /// An appended message's role is none the provider knows.
    UnknownAppendedRole {
        /// The message's index.
        index: usize,
        /// The role's JSON text, cut to 64 characters.
        role: &'a str,
    },
}

/// Tool declarations or a tool choice the provider does not take ([`BodyErrorKind::Tools`]).
///
/// ```
/// use transcript_replay::{anthropic, errors::BodyErrorKind, StoredMessage, ToolChoice, errors::ToolDeclaration, Turn};
///
/// let history = [StoredMessage::user("Hi")];
/// let error = anthropic::body(&Turn::new(&history).tool_choice(ToolChoice::Required)).unwrap_err();
/// assert_eq!(error.kind(), BodyErrorKind::Tools(ToolDeclaration::ChoiceWithoutTools));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ToolDeclaration<'a> {
    /// A tool name the provider refuses.
    Name {
        /// The name.
        name: &'a str,
        /// The longest name the provider takes.
        max: usize,
    },
    /// A tool declared twice.
    DeclaredTwice {
        /// The name.
        name: &'a str,
    },
    /// A tool asks for strict input of a provider with no such flag.
    StrictNotTaken {
        /// The name.
        name: &'a str,
    },
    /// A tool choice, and no tool.
    ChoiceWithoutTools,
    /// The tool choice names no declared tool.
    ChoiceOfNoTool {
        /// The name.
        name: &'a str,
    },
    /// A tool choice the provider cannot express.
    ChoiceNotTaken {
        /// The choice.
        choice: &'static str,
    },
    /// A neutral server tool ([`Tool::web_search`](crate::Tool::web_search),
    /// [`Tool::code_execution`](crate::Tool::code_execution)) the provider has no form for.
    ServerToolNotTaken {
        /// The tool's neutral name: `web_search` or `code_execution`.
        tool: &'static str,
    },
    /// The tool choice names a server or native tool, where only a function tool can be
    /// named.
    ChoiceOfServerTool {
        /// The name.
        name: &'a str,
    },
    /// Server or native tools beside function tools, on a model that takes only one kind
    /// in a request.
    ServerToolsBesideFunctions {
        /// The turn's model.
        model: &'a str,
    },
}

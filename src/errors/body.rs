//! Why a body cannot be built, said as the rule it would break.

use std::fmt;

use crate::errors::body_kind::{
    BodyErrorKind, CallerPart, Sequencing, ToolDeclaration, ToolLinkage,
};
use crate::provider::Provider;

/// Why a whole request body cannot be built: a provider would reject every body that could
/// be made without inventing content, or the caller's own parts are not what a body takes.
///
/// ```
/// use transcript_replay::{gemini, StoredMessage, Turn};
///
/// let history = [StoredMessage::user("Hi"), StoredMessage::assistant("Hello!")];
/// let turn = Turn::new(&history);
/// let error = gemini::body(&turn).unwrap_err();
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
    pub(crate) fn new(kind: Kind) -> Self {
        BodyError { kind }
    }

    /// What the error is about, as data a loop can match on: over the budget (by how much,
    /// and what the body still carries), turns out of sequence, rounds that do not match their
    /// calls, the caller's own parts, or the tools.
    ///
    /// ```
    /// use transcript_replay::{anthropic, cost::image_tokens, errors::BodyErrorKind, Budget, StoredMessage, Turn};
    ///
    /// let live = [StoredMessage::user("Read this. ".repeat(400))];
    /// let claude = image_tokens("claude").unwrap();
    /// let turn = Turn::new(&[]).live(&live).budget(Budget::new(100, claude));
    /// let error = anthropic::body(&turn).unwrap_err();
    /// let BodyErrorKind::OverBudget { needed, budget, over, parts, .. } = error.kind() else {
    ///     panic!("{error}");
    /// };
    /// assert_eq!((budget, over), (100, needed - 100));
    /// assert_eq!(parts.first().map(|(part, _)| part.as_str()), Some("the live turn"));
    /// ```
    pub fn kind(&self) -> BodyErrorKind<'_> {
        use BodyErrorKind as Of;
        match &self.kind {
            Kind::BudgetTooSmall {
                needed,
                budget,
                parts,
            } => Of::OverBudget {
                needed: *needed,
                budget: *budget,
                over: needed.saturating_sub(*budget),
                parts,
            },
            Kind::NoMessages { .. } => Of::Sequencing(Sequencing::NoMessages),
            Kind::EndsOnAssistant { .. } => Of::Sequencing(Sequencing::EndsOnAssistant),
            Kind::StartsOnAssistant { .. } => Of::Sequencing(Sequencing::StartsOnAssistant),
            Kind::AdjacentRoles { appended, .. } => Of::Sequencing(Sequencing::AdjacentRoles {
                appended: *appended,
            }),
            Kind::RoundsAfterNoUserTurn { .. } => Of::Sequencing(Sequencing::RoundsAfterNoUserTurn),
            Kind::PrefillNotTaken(_) => Of::Sequencing(Sequencing::PrefillNotTaken),
            Kind::PrefillWithRounds => Of::Sequencing(Sequencing::PrefillWithRounds),
            Kind::CallWithoutOutput { round, id } => {
                Of::ToolLinkage(ToolLinkage::CallWithoutOutput { round: *round, id })
            }
            Kind::OutputOfNoCall { round, id } => {
                Of::ToolLinkage(ToolLinkage::OutputOfNoCall { round: *round, id })
            }
            Kind::OutputTwice { round, id } => {
                Of::ToolLinkage(ToolLinkage::OutputTwice { round: *round, id })
            }
            Kind::ApprovalNotGiven { round, id } => {
                Of::ToolLinkage(ToolLinkage::ApprovalNotGiven { round: *round, id })
            }
            Kind::OutputNotToolDefinitions { round, id } => {
                Of::ToolLinkage(ToolLinkage::OutputNotToolDefinitions { round: *round, id })
            }
            Kind::SafetyChecksNotAcknowledged { round, id, .. } => {
                Of::ToolLinkage(ToolLinkage::SafetyChecksNotAcknowledged { round: *round, id })
            }
            Kind::RoundWithoutCalls(round) => {
                Of::ToolLinkage(ToolLinkage::RoundWithoutCalls { round: *round })
            }
            Kind::LastReplyCallsTools { calls } => {
                Of::ToolLinkage(ToolLinkage::LastReplyCallsTools { calls })
            }
            Kind::RoundOfAnotherProvider { round, of, .. } => {
                Of::ToolLinkage(ToolLinkage::RoundOfAnotherProvider {
                    round: *round,
                    of: *of,
                })
            }
            Kind::RoundsWithoutTools(_) => Of::ToolLinkage(ToolLinkage::RoundsWithoutTools),
            Kind::FieldsNotAnObject(found) => Of::Caller(CallerPart::NotAnObject { found }),
            Kind::DuplicateField(key) => Of::Caller(CallerPart::Duplicate { key }),
            Kind::ReservedField { key, .. } => Of::Caller(CallerPart::Reserved { key }),
            Kind::RefusedField {
                key, output_limit, ..
            } => Of::Caller(CallerPart::Refused {
                key,
                output_limit: *output_limit,
            }),
            Kind::NotJson(_) => Of::Caller(CallerPart::NotJson),
            Kind::ParamConflict { param, field } => {
                Of::Caller(CallerPart::ParamConflict { param, field })
            }
            Kind::ParamNotTaken { param, .. } => Of::Caller(CallerPart::ParamNotTaken { param }),
            Kind::ReplySchema { name, error } => Of::Caller(CallerPart::ReplySchema {
                name,
                part: if error.is_some() { "schema" } else { "name" },
            }),
            Kind::ParamsTogether { first, second, .. } => Of::Caller(CallerPart::ParamsTogether {
                first: first.0,
                second: second.0,
            }),
            Kind::AppendedNotAnObject { index, found } => {
                Of::Caller(CallerPart::AppendedNotAnObject {
                    index: *index,
                    found,
                })
            }
            Kind::UnknownAppendedRole { index, role, .. } => {
                Of::Caller(CallerPart::UnknownAppendedRole {
                    index: *index,
                    role,
                })
            }
            Kind::ToolName { name, max, .. } => {
                Of::Tools(ToolDeclaration::Name { name, max: *max })
            }
            Kind::ToolDeclaredTwice(name) => Of::Tools(ToolDeclaration::DeclaredTwice { name }),
            Kind::StrictNotTaken { name, .. } => {
                Of::Tools(ToolDeclaration::StrictNotTaken { name })
            }
            Kind::ChoiceWithoutTools => Of::Tools(ToolDeclaration::ChoiceWithoutTools),
            Kind::ChoiceOfNoTool(name) => Of::Tools(ToolDeclaration::ChoiceOfNoTool { name }),
            Kind::ServerToolNotTaken { tool, .. } => {
                Of::Tools(ToolDeclaration::ServerToolNotTaken { tool })
            }
            Kind::ChoiceOfServerTool(name) => {
                Of::Tools(ToolDeclaration::ChoiceOfServerTool { name })
            }
            Kind::ServerToolsBesideFunctions { model, .. } => {
                Of::Tools(ToolDeclaration::ServerToolsBesideFunctions { model })
            }
            Kind::ChoiceNotTaken { choice, .. } => {
                Of::Tools(ToolDeclaration::ChoiceNotTaken { choice })
            }
            Kind::Miscount { what } => Of::Miscount { what },
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Nothing but system text: no user or model turn for the model to answer. `rejects`
    /// says whether the provider itself answers that with an error, rather than only the
    /// compatible servers that share its API.
    NoMessages {
        provider: Provider,
        rejects: bool,
    },
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
    /// A caller's appended message that is not a JSON object.
    AppendedNotAnObject {
        index: usize,
        found: &'static str,
    },
    /// A caller's appended message whose `role` the provider does not know.
    UnknownAppendedRole {
        provider: Provider,
        index: usize,
        /// The role's JSON text, cut to 64 characters.
        role: String,
        known: Vec<&'static str>,
    },
    FieldsNotAnObject(&'static str),
    /// A tool whose name the provider refuses.
    ToolName {
        provider: Provider,
        name: String,
        max: usize,
    },
    ToolDeclaredTwice(String),
    /// A tool that asks for strictness of a provider that has no such flag.
    StrictNotTaken {
        provider: Provider,
        name: String,
    },
    ChoiceWithoutTools,
    ChoiceOfNoTool(String),
    /// A neutral server tool the provider has no form for: `tool` is its neutral name.
    ServerToolNotTaken {
        provider: Provider,
        tool: &'static str,
    },
    /// The tool choice names a server or native tool.
    ChoiceOfServerTool(String),
    /// Server or native tools beside function tools, on a model that takes one kind only.
    ServerToolsBesideFunctions {
        provider: Provider,
        model: String,
        why: &'static str,
    },
    /// A tool choice the provider cannot express.
    ChoiceNotTaken {
        provider: Provider,
        choice: &'static str,
    },
    /// A round whose reply is another provider's.
    RoundOfAnotherProvider {
        round: usize,
        of: Provider,
        provider: Provider,
    },
    /// A round whose reply calls no tool.
    RoundWithoutCalls(usize),
    /// A last reply given to `store_turn` that still calls tools: their ids.
    LastReplyCallsTools {
        calls: Vec<String>,
    },
    CallWithoutOutput {
        round: usize,
        id: String,
    },
    OutputOfNoCall {
        round: usize,
        id: String,
    },
    OutputTwice {
        round: usize,
        id: String,
    },
    ApprovalNotGiven {
        round: usize,
        id: String,
    },
    OutputNotToolDefinitions {
        round: usize,
        id: String,
    },
    SafetyChecksNotAcknowledged {
        round: usize,
        id: String,
        /// The ids of the checks not acknowledged.
        checks: Vec<String>,
    },
    /// Rounds without declared tools, for a provider that requires them.
    RoundsWithoutTools(Provider),
    /// Rounds after a conversation that does not end on a user turn.
    RoundsAfterNoUserTurn {
        provider: Provider,
        role: &'static str,
    },
    PrefillWithRounds,
    /// The system text, tools and live turn need more than the budget.
    BudgetTooSmall {
        needed: u64,
        budget: u64,
        /// What the body still carries, by part, largest first.
        parts: Vec<(String, u64)>,
    },
    DuplicateField(String),
    ReservedField {
        provider: Provider,
        key: String,
    },
    /// A caller's field that a compatible server refuses (or ignores where that loses what
    /// was asked), with the server's output-limit field when the field is the other one.
    RefusedField {
        provider: Provider,
        key: String,
        output_limit: Option<&'static str>,
    },
    NotJson(String),
    /// A neutral parameter of the turn and a caller's field that says the same thing.
    ParamConflict {
        param: &'static str,
        field: String,
    },
    /// Two parameters the provider rejects together, each the turn's (`None`) or a caller's
    /// field (its name), and why.
    ParamsTogether {
        provider: Provider,
        first: (&'static str, Option<String>),
        second: (&'static str, Option<String>),
        why: &'static str,
    },
    /// A neutral parameter the provider cannot take as given.
    ParamNotTaken {
        provider: Provider,
        param: &'static str,
        why: &'static str,
    },
    /// A reply schema whose name breaks the rule (`error` is `None`), or that is not one
    /// JSON object (`error` says why).
    ReplySchema {
        name: String,
        error: Option<String>,
    },
    /// Two of the crate's own counts that must match did not: a bug in the crate, never
    /// something the caller did.
    Miscount {
        /// What did not match its count.
        what: &'static str,
    },
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // Turns out of the provider's order.
            Kind::NoMessages { provider, rejects } => no_messages(f, *provider, *rejects),
            Kind::EndsOnAssistant {
                provider,
                role,
                prefill,
                rejects,
            } => ends_on_assistant(f, *provider, role, *prefill, *rejects),
            Kind::StartsOnAssistant { provider, role } => starts_on_assistant(f, *provider, role),
            Kind::PrefillNotTaken(provider) => {
                write!(f, "a prefill was asked for, and {provider} takes none")
            }
            Kind::AdjacentRoles {
                provider,
                role,
                appended,
            } => adjacent_roles(f, *provider, role, *appended),
            Kind::RoundsAfterNoUserTurn { provider, role } => {
                rounds_after_no_user_turn(f, *provider, role)
            }
            Kind::PrefillWithRounds => {
                f.write_str("a prefill was asked for, and the turn has rounds in flight")
            }
            // The caller's own parts.
            Kind::AppendedNotAnObject { index, found } => write!(
                f,
                "appended message {index} must be a JSON object, not {found}"
            ),
            Kind::UnknownAppendedRole {
                provider,
                index,
                role,
                known,
            } => unknown_appended_role(f, *provider, *index, role, known),
            Kind::FieldsNotAnObject(found) => {
                write!(f, "the caller's fields must be a JSON object, not {found}")
            }
            Kind::DuplicateField(key) => write!(f, "the caller's field `{key}` is given twice"),
            Kind::ReservedField { provider, key } => write!(
                f,
                "the caller's field `{key}` is one the crate writes in a request to {provider}"
            ),
            Kind::RefusedField {
                provider,
                key,
                output_limit,
            } => refused_field(f, *provider, key, *output_limit),
            Kind::ParamConflict { param, field } => write!(
                f,
                "the turn's {param} and the caller's field `{field}` say the same thing: give one"
            ),
            Kind::ParamsTogether {
                provider,
                first,
                second,
                why,
            } => params_together(f, *provider, first, second, why),
            Kind::ParamNotTaken {
                provider,
                param,
                why,
            } => write!(
                f,
                "{provider} takes {why}: the turn's {param} cannot be written"
            ),
            Kind::ReplySchema { name, error } => reply_schema(f, name, error.as_deref()),
            Kind::NotJson(error) => {
                write!(f, "a caller's value does not serialize as JSON: {error}")
            }
            // The tools and the tool choice.
            Kind::ToolName {
                provider,
                name,
                max,
            } => tool_name(f, *provider, name, *max),
            Kind::ToolDeclaredTwice(name) => write!(f, "the tool `{name}` is declared twice"),
            Kind::StrictNotTaken { provider, name } => write!(
                f,
                "the tool `{name}` asks for strict input, and {provider} has no such flag"
            ),
            Kind::ChoiceWithoutTools => f.write_str("a tool choice was given, and no tool"),
            Kind::ChoiceOfNoTool(name) => {
                write!(
                    f,
                    "the tool choice names `{name}`, which is no declared tool"
                )
            }
            Kind::ServerToolNotTaken { .. }
            | Kind::ChoiceOfServerTool(_)
            | Kind::ServerToolsBesideFunctions { .. } => server_tools(f, self),
            Kind::ChoiceNotTaken { provider, choice } => {
                write!(f, "{provider} cannot express the tool choice `{choice}`")
            }
            // The rounds in flight and their calls.
            Kind::RoundOfAnotherProvider {
                round,
                of,
                provider,
            } => round_of_another_provider(f, *round, *of, *provider),
            Kind::RoundWithoutCalls(round) => round_without_calls(f, *round),
            Kind::LastReplyCallsTools { calls } => last_reply_calls_tools(f, calls),
            Kind::CallWithoutOutput { round, id } => {
                write!(f, "round {round}: the call `{id}` has no output")
            }
            Kind::OutputOfNoCall { round, id } => {
                write!(
                    f,
                    "round {round}: the output for `{id}` answers no call of the round"
                )
            }
            Kind::OutputTwice { round, id } => {
                write!(f, "round {round}: the output for `{id}` is given twice")
            }
            Kind::ApprovalNotGiven { round, id } => write!(
                f,
                "round {round}: the call `{id}` asks for an approval: answer it with `approve` true or false"
            ),
            Kind::OutputNotToolDefinitions { round, id } => write!(
                f,
                "round {round}: the call `{id}` searches for tools: its output must be a JSON array of tool definitions"
            ),
            Kind::SafetyChecksNotAcknowledged { round, id, checks } => write!(
                f,
                "round {round}: the output for `{id}` does not acknowledge the safety checks {}",
                checks.join(", ")
            ),
            Kind::RoundsWithoutTools(provider) => rounds_without_tools(f, *provider),
            // The budget.
            Kind::BudgetTooSmall {
                needed,
                budget,
                parts,
            } => budget_too_small(f, *needed, *budget, parts),
            // A bug in the crate.
            Kind::Miscount { what } => write!(
                f,
                "internal error: the {what} did not match its count; this is a bug in \
                 transcript-replay, please report it"
            ),
        }
    }
}

/// A reply schema that cannot be sent: its name, or (with the JSON error) its text.
fn reply_schema(f: &mut fmt::Formatter<'_>, name: &str, error: Option<&str>) -> fmt::Result {
    match error {
        None => write!(
            f,
            "the reply schema's name {:?} must be 1 to 64 letters, digits, `_` or `-`",
            cut(name)
        ),
        Some(error) => write!(
            f,
            "the reply schema {:?} must be one JSON object: {error}",
            cut(name)
        ),
    }
}

/// The request has no conversation turn: who rejects that, the provider or only the servers
/// that share its API.
fn no_messages(f: &mut fmt::Formatter<'_>, provider: Provider, rejects: bool) -> fmt::Result {
    f.write_str("the request has no conversation turn, which ")?;
    if rejects {
        write!(f, "{provider} rejects")?;
    } else {
        write!(f, "servers compatible with {provider}'s API reject")?;
    }
    f.write_str(": add the live turn")
}

/// The request would end on the model's turn: add the live turn, or a prefill where the
/// provider takes one, and whether the provider itself rejects it.
fn ends_on_assistant(
    f: &mut fmt::Formatter<'_>,
    provider: Provider,
    role: &str,
    prefill: bool,
    rejects: bool,
) -> fmt::Result {
    let turn = article(role);
    write!(f, "the request would end on {turn} turn: add the live turn")?;
    if prefill {
        f.write_str(" (or ask for a prefill)")?;
    }
    if rejects {
        write!(
            f,
            " ({provider} rejects a request that ends on {turn} turn)"
        )?;
    }
    Ok(())
}

/// The request would start on the model's turn, which the provider rejects.
fn starts_on_assistant(f: &mut fmt::Formatter<'_>, provider: Provider, role: &str) -> fmt::Result {
    write!(
        f,
        "the request would start on {} turn, which {provider} rejects (\"A conversation \
         must start with a user message\"): the record has no user turn before it",
        article(role)
    )
}

/// An appended message would follow a turn of its own role, and is sent as it is.
fn adjacent_roles(
    f: &mut fmt::Formatter<'_>,
    provider: Provider,
    role: &str,
    appended: usize,
) -> fmt::Result {
    write!(
        f,
        "appended message {appended} would follow {} turn with another, which \
         {provider} rejects, and an appended message is sent as it is",
        article(role)
    )
}

/// The rounds would follow a turn that is not the user's.
fn rounds_after_no_user_turn(
    f: &mut fmt::Formatter<'_>,
    provider: Provider,
    role: &str,
) -> fmt::Result {
    write!(
        f,
        "the rounds would follow {} turn, and {provider} takes them only after the \
         user's: add the live turn",
        article(role)
    )
}

/// An appended message's role is none the provider knows: the roles it knows, as a list.
fn unknown_appended_role(
    f: &mut fmt::Formatter<'_>,
    provider: Provider,
    index: usize,
    role: &str,
    known: &[&str],
) -> fmt::Result {
    write!(
        f,
        "appended message {index} has the role {role}, which is none of {provider}'s: \
         expected "
    )?;
    for (at, name) in known.iter().enumerate() {
        let separator = match (at, known.len() - at) {
            (0, _) => "",
            (_, 1) => " or ",
            (_, _) => ", ",
        };
        write!(f, "{separator}{name:?}")?;
    }
    Ok(())
}

/// A caller's field the server refuses, with its own output-limit field when it has one.
fn refused_field(
    f: &mut fmt::Formatter<'_>,
    provider: Provider,
    key: &str,
    output_limit: Option<&str>,
) -> fmt::Result {
    write!(f, "the caller's field `{key}` is one {provider} refuses")?;
    match output_limit {
        Some(limit) => write!(f, "; its output limit is `{limit}`"),
        None => Ok(()),
    }
}

/// Two parameters the provider rejects together, each said as the turn's or as the caller's
/// field, and why.
fn params_together(
    f: &mut fmt::Formatter<'_>,
    provider: Provider,
    first: &(&str, Option<String>),
    second: &(&str, Option<String>),
    why: &str,
) -> fmt::Result {
    let said = |(param, field): &(&str, Option<String>)| match field {
        Some(field) => format!("the caller's field `{field}`"),
        None => format!("the turn's {param}"),
    };
    write!(
        f,
        "{provider} rejects {} together with {} ({why}): give one",
        said(first),
        said(second)
    )
}

/// A tool name the provider refuses, with the names it takes.
fn tool_name(
    f: &mut fmt::Formatter<'_>,
    provider: Provider,
    name: &str,
    max: usize,
) -> fmt::Result {
    write!(
        f,
        "the tool name {name:?} is not one {provider} takes: 1 to {max} ASCII letters, \
         digits, `_` or `-`"
    )
}

/// A round whose reply is another provider's: a reply goes back only to its own.
fn round_of_another_provider(
    f: &mut fmt::Formatter<'_>,
    round: usize,
    of: Provider,
    provider: Provider,
) -> fmt::Result {
    write!(
        f,
        "round {round} is a reply of {of}, and the request goes to {provider}: a reply's \
         own content goes back only to its provider"
    )
}

/// A round whose reply calls no tool: it ends the turn.
fn round_without_calls(f: &mut fmt::Formatter<'_>, round: usize) -> fmt::Result {
    write!(
        f,
        "round {round} calls no tool: a reply without tool calls ends the turn (store \
         it with store_turn)"
    )
}

/// A last reply that still calls tools, given to `store_turn`.
fn last_reply_calls_tools(f: &mut fmt::Formatter<'_>, calls: &[String]) -> fmt::Result {
    f.write_str("the last reply still calls ")?;
    for (at, id) in calls.iter().enumerate() {
        if at > 0 {
            f.write_str(", ")?;
        }
        write!(f, "`{id}`")?;
    }
    f.write_str(
        ": it does not end the turn (send its round with the outputs, or store the turn cut \
         short with store_interrupted)",
    )
}

/// Rounds, and no tool declared, which the provider rejects.
fn rounds_without_tools(f: &mut fmt::Formatter<'_>, provider: Provider) -> fmt::Result {
    write!(
        f,
        "the request carries tool rounds and declares no tool, which {provider} rejects: \
         declare the tools"
    )
}

/// What the body needs over the budget, and what it still carries, part by part.
fn budget_too_small(
    f: &mut fmt::Formatter<'_>,
    needed: u64,
    budget: u64,
    parts: &[(String, u64)],
) -> fmt::Result {
    write!(
        f,
        "the body needs {needed} tokens with everything a budget may withhold \
         withheld, {} over the budget of {budget}",
        needed.saturating_sub(budget)
    )?;
    for (index, (part, tokens)) in parts.iter().enumerate() {
        let lead = if index == 0 { ": " } else { ", " };
        write!(f, "{lead}{part} {tokens}")?;
    }
    Ok(())
}

/// A role's name with its article, for an error: "an assistant", "a model".
fn article(role: &str) -> String {
    // The roles are "assistant", "model", "user" and "system": only the first takes "an".
    let article = if role.starts_with('a') { "an" } else { "a" };
    format!("{article} {role}")
}

/// The errors of server and native tools.
fn server_tools(f: &mut fmt::Formatter<'_>, kind: &Kind) -> fmt::Result {
    match kind {
        Kind::ServerToolNotTaken { provider, tool } => write!(
            f,
            "{provider} ({}) has no {} server tool: declare the provider's own with Tool::native, if it has one",
            provider.id(),
            tool.replace('_', " "),
        ),
        Kind::ChoiceOfServerTool(name) => write!(
            f,
            "the tool choice names `{name}`, a server or native tool: a choice names a function tool"
        ),
        Kind::ServerToolsBesideFunctions {
            provider,
            model,
            why,
        } => write!(
            f,
            "{provider} takes server or native tools beside function tools {why}, and the turn's model is `{model}`"
        ),
        // Never reached: the other kinds are written by `Kind`'s own `fmt`.
        _ => fmt::Display::fmt(kind, f),
    }
}

/// A caller's name as an error shows it: its first 64 characters, and `…` when there were
/// more, so that a long one does not swamp the message.
fn cut(name: &str) -> String {
    let mut chars = name.chars();
    let shown: String = chars.by_ref().take(64).collect();
    if chars.next().is_some() {
        format!("{shown}…")
    } else {
        shown
    }
}

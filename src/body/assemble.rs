//! The body assembly shared by every provider: the system text, the history and live turn
//! under the provider's rules, the caller's parts, the sequencing rules over the whole
//! request, and the history's breakpoints.

use std::borrow::Cow;
use std::sync::Arc;

use serde_json::value::RawValue;

use super::error::{BodyError, Kind};
use super::fields::{Appended, Fields};
use super::Turn;
use crate::cache::{self, Cache};
use crate::render::{self, Rendered};
use crate::replay::{replay_messages, REPLAY_PREAMBLE};
use crate::rules::{ImageLimits, Rules, TurnRole};
use crate::wire::{is_blank_char, Part, Piece, Text};

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
    let appended_roles = appended_roles(&turn.appended, rules)?;
    let mut wire = replay_messages(turn.history, turn.vision);
    wire.extend(replay_messages(turn.live, turn.vision));
    let mut rendered = render::render(&wire, rules, turn.limits.as_ref().unwrap_or(default_limits));
    let instructions = system_text(turn.instructions, turn.preamble);

    // Sequencing over the whole request: the crate's turns, then the caller's, where their
    // role is known.
    if rules.merges_same_role {
        let mut previous = rendered.messages.last().map(|(role, _)| *role);
        for (index, &role) in appended_roles.iter().enumerate() {
            if let (Some(role), Some(before)) = (role, previous) {
                if role == before {
                    return Err(BodyError::new(Kind::AdjacentRoles {
                        provider,
                        role: rules.role_name(role),
                        appended: index,
                    }));
                }
            }
            previous = role;
        }
    }
    if rules.starts_on_user
        && rendered.messages.first().map(|(role, _)| *role) == Some(TurnRole::Assistant)
    {
        return Err(BodyError::new(Kind::StartsOnAssistant {
            provider,
            role: rules.model_role,
        }));
    }
    // A conversation turn is a user or model turn; system text alone asks nothing.
    let has_turn = rendered
        .messages
        .iter()
        .map(|(role, _)| Some(*role))
        .chain(appended_roles.iter().copied())
        .any(|role| matches!(role, Some(TurnRole::User | TurnRole::Assistant)));
    if !has_turn {
        // Where the list of turns would be empty, the provider's own schema refuses it;
        // system text alone it may answer, but servers that share its API do not.
        let list_empty = rendered.messages.is_empty()
            && turn.appended.is_empty()
            && !(rules.instructions_as_message && instructions.is_some());
        return Err(BodyError::new(Kind::NoMessages {
            provider,
            rejects: rules.rejects_no_turn || list_empty,
        }));
    }
    let last = match appended_roles.last() {
        Some(role) => *role,
        None => rendered.messages.last().map(|(role, _)| *role),
    };
    if last == Some(TurnRole::Assistant) {
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
            cache::history_breakpoints(&history_blocks)
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
    let instructions = (!instructions.chars().all(is_blank_char)).then_some(instructions);
    let pieces: Vec<Piece<'_>> = instructions
        .into_iter()
        .chain(preamble.then_some(REPLAY_PREAMBLE))
        .map(Piece::Text)
        .collect();
    (!pieces.is_empty()).then(|| Text::from_pieces(pieces))
}

/// The turn each of the caller's appended messages is, where it names a role; an appended
/// message that is no JSON object, or whose role the provider does not know, is an error.
fn appended_roles(
    appended: &[Box<RawValue>],
    rules: &Rules,
) -> Result<Vec<Option<TurnRole>>, BodyError> {
    #[derive(serde::Deserialize)]
    struct Probe<'a> {
        #[serde(borrow, default)]
        role: Option<&'a RawValue>,
    }
    let mut roles = Vec::with_capacity(appended.len());
    for (index, raw) in appended.iter().enumerate() {
        let found = match raw.get().as_bytes().first() {
            Some(b'{') => None,
            Some(b'[') => Some("an array"),
            Some(b'"') => Some("a string"),
            Some(b'n') => Some("null"),
            Some(b't' | b'f') => Some("a boolean"),
            Some(_) | None => Some("a number"),
        };
        if let Some(found) = found {
            return Err(BodyError::new(Kind::AppendedNotAnObject { index, found }));
        }
        let probe: Probe<'_> = serde_json::from_str(raw.get())
            .map_err(|error| BodyError::new(Kind::NotJson(error.to_string())))?;
        let role = match probe.role {
            None => None,
            Some(role) => {
                let name: Option<Cow<'_, str>> = serde_json::from_str(role.get()).ok();
                let known = name.as_deref().and_then(|name| {
                    rules
                        .appended_roles
                        .iter()
                        .find(|(known, _)| *known == name)
                        .map(|&(_, turn)| turn)
                });
                match known {
                    Some(turn) => Some(turn),
                    None => {
                        return Err(BodyError::new(Kind::UnknownAppendedRole {
                            provider: rules.provider,
                            index,
                            role: role.get().chars().take(64).collect(),
                            known: rules.appended_roles.iter().map(|&(name, _)| name).collect(),
                        }))
                    }
                }
            }
        };
        roles.push(role);
    }
    Ok(roles)
}

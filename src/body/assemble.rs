//! The body assembly shared by every provider: the system text, the history and live turn
//! under the provider's rules, the caller's parts, the sequencing rules over the whole
//! request, and the history's breakpoints.

use std::borrow::Cow;
use std::sync::Arc;

use serde_json::value::RawValue;

use super::fields::{Appended, Fields};
use super::Turn;
use crate::errors::body::{BodyError, Kind};
use crate::fit::Plan;
use crate::media::file::File;
use crate::media::marker::Reason;
use crate::record::compaction::Sent;
use crate::record::Block;
use crate::render::native_images::Verdicts;
use crate::render::rules::{ImageLimits, Rules, TurnRole};
use crate::render::{self, Rendered};
use crate::replay::{replaced_marker, replay_withholding, unseen, unseen_file, REPLAY_PREAMBLE};
use crate::reply::Reply;
use crate::turn::cache::{self, Cache};
use crate::turn::rounds;
use crate::turn::rounds::{Answer, Answered};
use crate::turn::tools::{self, Tool, ToolChoice};
use crate::wire::{is_blank_char, Image, Part, Piece, Text, WireMessage, WireRole};

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
    /// The tools declared, and the choice among them.
    pub(crate) tools: &'a [Tool],
    pub(crate) tool_choice: Option<ToolChoice>,
    /// The rounds of the turn in flight, written after the live turn.
    pub(crate) rounds: Vec<AssembledRound<'a>>,
    /// How many wire messages the history has (the live turn's follow), to say which stored
    /// message each turn begins with.
    pub(crate) history_len: usize,
    /// Which of the history's images (those replay shows, in order) the body sends natively.
    pub(crate) history_natives: Vec<bool>,
}

/// A round as a body writes it: the reply whose content goes back as it came, and one answer
/// per call, in the calls' order.
pub(crate) struct AssembledRound<'a> {
    pub(crate) reply: &'a Reply,
    pub(crate) answers: Vec<Answer<'a>>,
}

/// Assembles a turn's body under a provider's rules, or says which rule it cannot meet; with
/// a budget's plan, the history as the plan leaves it.
///
/// The steps, in the order their errors are reported: check the turn's inputs, judge which
/// images and files stay native, render and fit the history and live turn, answer the
/// rounds, and check the provider's sequencing over the whole request.
pub(crate) fn assemble<'a>(
    turn: &'a Turn<'_>,
    rules: &Rules,
    default_limits: &ImageLimits,
    plan: Option<&Plan>,
) -> Result<Assembled<'a>, BodyError> {
    let Checked {
        fields,
        answered,
        appended_roles,
    } = check(turn, rules)?;
    let sent = turn.sent(rules);
    let Media {
        wire,
        verdicts,
        round_images,
        round_files,
        history_natives,
    } = judge_media(turn, &sent, rules, default_limits, &answered);
    let mut rendered = render_and_fit(turn, rules, plan, wire, verdicts);
    let rounds = answer_rounds(
        turn,
        plan,
        answered,
        round_images,
        round_files,
        &mut rendered,
    )?;
    let instructions = system_text(turn.instructions, turn.preamble);
    sequence(
        turn,
        rules,
        &mut rendered,
        !rounds.is_empty(),
        &appended_roles,
        instructions.is_some(),
    )?;
    let breakpoints = history_breakpoints(turn, &rendered);
    Ok(Assembled {
        fields,
        instructions,
        rendered,
        appended: Arc::clone(&turn.appended),
        breakpoints,
        cache: turn.cache,
        tools: turn.tools,
        tool_choice: turn.tool_choice.clone(),
        rounds,
        history_len: turn.history.len(),
        history_natives,
    })
}

/// What the checks of a turn's inputs give the later steps.
struct Checked<'a> {
    /// The caller's fields, after the neutral parameters as the provider names them.
    fields: Arc<Fields>,
    /// Each round's calls, each linked to its output, in the calls' order.
    answered: Vec<Vec<Answered<'a>>>,
    /// The turn each appended message is, where it names a role.
    appended_roles: Vec<Option<TurnRole>>,
}

/// Checks the turn's inputs, in the order their errors are reported: a problem the turn
/// already carries, the caller's fields the crate writes or the provider refuses, the neutral
/// parameters, a prefill, the tools, the rounds' calls and outputs, and the appended messages.
fn check<'a>(turn: &'a Turn<'_>, rules: &Rules) -> Result<Checked<'a>, BodyError> {
    if let Some(problem) = &turn.problem {
        return Err(problem.clone());
    }
    let provider = rules.provider;
    refuse_reserved(&turn.fields, rules.body_keys, rules)?;
    if let Some((key, _)) = turn
        .fields
        .iter()
        .find(|(key, _)| rules.refused_fields.contains(&key.as_str()))
    {
        return Err(BodyError::new(Kind::RefusedField {
            provider,
            key: key.clone(),
            output_limit: rules.output_limit.filter(|limit| {
                let limits = ["max_tokens", "max_completion_tokens"];
                limits.contains(&key.as_str()) && limits.contains(limit)
            }),
        }));
    }
    // The neutral parameters, as the provider names them, before the caller's fields.
    let fields = match turn.params == crate::turn::params::Params::default() {
        true => Arc::clone(&turn.fields),
        false => Arc::new(turn.params.merged(provider, &turn.fields)?),
    };
    if turn.prefill && !rules.takes_prefill {
        return Err(BodyError::new(Kind::PrefillNotTaken(provider)));
    }
    tools::check(turn.tools, turn.tool_choice.as_ref(), rules)?;
    crate::turn::params::together(&turn.params, turn.tool_choice.as_ref(), &turn.fields, rules)?;
    if !turn.tools.is_empty() {
        refuse_reserved(&turn.fields, rules.tool_keys, rules)?;
    }
    let answered = turn
        .rounds
        .iter()
        .enumerate()
        .map(|(index, round)| rounds::answered(index, round, provider))
        .collect::<Result<Vec<_>, _>>()?;
    if rules.rounds_need_tools && !turn.rounds.is_empty() && turn.tools.is_empty() {
        return Err(BodyError::new(Kind::RoundsWithoutTools(provider)));
    }
    if turn.prefill && !turn.rounds.is_empty() {
        return Err(BodyError::new(Kind::PrefillWithRounds));
    }
    let appended_roles = appended_roles(&turn.appended, rules)?;
    Ok(Checked {
        fields,
        answered,
        appended_roles,
    })
}

/// Refuses the first of the caller's fields, in their order, that is one of `keys`: a field
/// the crate writes itself in a request to the provider.
fn refuse_reserved(fields: &Fields, keys: &[&str], rules: &Rules) -> Result<(), BodyError> {
    match fields.iter().find(|(key, _)| keys.contains(&key.as_str())) {
        Some((key, _)) => Err(BodyError::new(Kind::ReservedField {
            provider: rules.provider,
            key: key.clone(),
        })),
        None => Ok(()),
    }
}

/// The history, live turn and rounds' media as judged before the render.
struct Media<'a> {
    /// The history's and the live turn's wire messages, as replay shows them.
    wire: Vec<WireMessage<'a>>,
    /// The verdict on each image and file of `wire`, in order, and, under the request's
    /// limits, on each round image and file that passed on its own.
    verdicts: Verdicts<'a>,
    /// Each round image, in order: the image, or why it is not sent even on its own.
    round_images: Vec<Result<Image<'a>, Reason>>,
    /// Each round file, in order: the file, or why it is not sent even on its own.
    round_files: Vec<Result<File<'a>, Reason>>,
    /// Which of the history's images (those replay shows, in order) the body sends natively.
    history_natives: Vec<bool>,
}

/// Judges which images and files stay native: the history's and the live turn's under the
/// request's limits, and the rounds' each on its own first, as replay judges a stored image
/// or file.
fn judge_media<'a>(
    turn: &'a Turn<'_>,
    sent: &Sent<'a>,
    rules: &Rules,
    default_limits: &ImageLimits,
    answered: &[Vec<Answered<'a>>],
) -> Media<'a> {
    // What is sent of the history and live turn, each message as replay shows it, with the
    // target's own compaction native.
    let wire: Vec<WireMessage<'a>> = sent
        .history
        .iter()
        .chain(sent.live)
        .map(|message| replay_withholding(message, turn.vision, sent.reads, |_| false))
        .collect();
    // The rounds' images, each judged on its own first as replay judges a stored image.
    let round_images: Vec<Result<Image<'a>, Reason>> = answered
        .iter()
        .flatten()
        .flat_map(|answer| &answer.output.images)
        .map(
            |image| match unseen(&image.media_type, &image.data, turn.vision) {
                Some(reason) => Err(reason),
                None => Ok(Image::new(&image.media_type, &image.data)),
            },
        )
        .collect();
    let candidates: Vec<Image<'a>> = round_images.iter().filter_map(|image| image.ok()).collect();
    // The rounds' files, each judged on its own first as replay judges a stored file, then
    // under the request's limits with its other images and files.
    let round_files: Vec<Result<File<'a>, Reason>> = answered
        .iter()
        .flatten()
        .flat_map(|answer| &answer.output.files)
        .map(
            |file| match unseen_file(&file.media_type, &file.data, turn.vision) {
                Some(reason) => Err(reason),
                None => Ok(File::of_tool(file)),
            },
        )
        .collect();
    let file_candidates: Vec<File<'a>> = round_files.iter().filter_map(|file| file.ok()).collect();
    let verdicts = render::verdicts(
        &wire,
        rules,
        turn.limits.as_ref().unwrap_or(default_limits),
        (&candidates, &file_candidates),
    );
    // Which of the history's images the body sends, as a budget's plan needs to know.
    let history_images = wire
        .iter()
        .take(sent.history.len())
        .flat_map(|message| &message.content)
        .filter(|part| matches!(part, Part::Image(_)))
        .count();
    let history_natives: Vec<bool> = verdicts
        .images
        .iter()
        .take(history_images)
        .map(Result::is_ok)
        .collect();
    Media {
        wire,
        verdicts,
        round_images,
        round_files,
        history_natives,
    }
}

/// Renders the history and live turn under the provider's rules, with the images and files
/// judged; with a budget's plan, as the plan leaves them; first, the user turn that stands for
/// what a compaction replaced.
fn render_and_fit<'a>(
    turn: &'a Turn<'_>,
    rules: &Rules,
    plan: Option<&Plan>,
    wire: Vec<WireMessage<'a>>,
    verdicts: Verdicts<'a>,
) -> Rendered<'a> {
    let sent = &turn.sent(rules);
    // The messages to render, and the message of what is sent each one comes from.
    let (mut messages, verdicts, mut origins) = match plan {
        None => {
            let origins = (0..wire.len()).collect();
            (wire, verdicts, origins)
        }
        Some(plan) => fitted(turn, sent, &wire, verdicts, plan),
    };
    if sent.replaced > 0 {
        messages.insert(0, replaced_marker(sent.replaced));
        origins.insert(0, 0);
    }
    let mut rendered = render::render_judged(messages, rules, verdicts);
    // Each turn says which stored or live message it begins with, numbered as the record and
    // live turn are (what a compaction replaced counted).
    for start in &mut rendered.starts {
        *start = sent.replaced + origins.get(*start).copied().unwrap_or(*start);
    }
    rendered
}

/// Answers the rounds: each call's output as the body writes it, its images and files native
/// where their verdicts let them be and named as not shown where not, and an output a
/// budget's plan withholds said so. Takes the rendered request's verdicts on the rounds'
/// media.
fn answer_rounds<'a>(
    turn: &'a Turn<'_>,
    plan: Option<&Plan>,
    answered: Vec<Vec<Answered<'a>>>,
    round_images: Vec<Result<Image<'a>, Reason>>,
    round_files: Vec<Result<File<'a>, Reason>>,
    rendered: &mut Rendered<'a>,
) -> Result<Vec<AssembledRound<'a>>, BodyError> {
    let extra = std::mem::take(&mut rendered.extra);
    let mut judged = settle(
        round_images,
        extra,
        "request's list of verdicts on the rounds' images",
        |_, image| image,
    )?
    .into_iter();
    // The native files so far, the history's and the live turn's, which number the rounds'
    // files after them (the render applied a provider's limit on a request's files, to the
    // rounds' files as the newest).
    let mut native_files = rendered
        .messages
        .iter()
        .flat_map(|(_, parts)| parts)
        .filter(|part| matches!(part, Part::File(_)))
        .count();
    let extra_files = std::mem::take(&mut rendered.extra_files);
    let mut judged_files = settle(
        round_files,
        extra_files,
        "request's list of verdicts on the rounds' files",
        |file, ()| file,
    )?
    .into_iter();
    turn.rounds
        .iter()
        .zip(answered)
        .enumerate()
        .map(|(round_index, (round, answered))| {
            let answers = answered
                .into_iter()
                .enumerate()
                .map(|(answer_index, answered)| {
                    let withheld =
                        plan.is_some_and(|plan| plan.round_output(round_index, answer_index));
                    answer(
                        answered,
                        withheld,
                        &mut judged,
                        &mut judged_files,
                        &mut native_files,
                    )
                })
                .collect::<Result<_, _>>()?;
            Ok(AssembledRound {
                reply: &round.reply,
                answers,
            })
        })
        .collect()
}

/// The last verdict on each of the rounds' images or files, in order: why it is not sent on
/// its own, or else the request's verdict on it (`request` has one for each that passed on
/// its own, in order), with `keep` making what is sent of the two. A verdict missing from
/// `request` is a bug, said as the count of `what` that did not match.
fn settle<T, V, U>(
    own: Vec<Result<T, Reason>>,
    request: Vec<Result<V, Reason>>,
    what: &'static str,
    keep: impl Fn(T, V) -> U,
) -> Result<Vec<Result<U, Reason>>, BodyError> {
    let mut request = request.into_iter();
    own.into_iter()
        .map(|own| match own {
            Ok(own) => match request.next() {
                Some(verdict) => Ok(verdict.map(|sent| keep(own, sent))),
                None => Err(BodyError::new(Kind::Miscount { what })),
            },
            Err(reason) => Ok(Err(reason)),
        })
        .collect()
}

/// One call's answer: its output's text, its images and files native where their verdicts
/// (taken in order from `images` and `files`) let them be and named as not shown where not,
/// and, for an output a budget withheld, the output marker instead of its text. A verdict
/// missing from `images` or `files` is a bug, said as such.
fn answer<'a>(
    answered: Answered<'a>,
    withheld: bool,
    images: &mut impl Iterator<Item = Result<Image<'a>, Reason>>,
    files: &mut impl Iterator<Item = Result<File<'a>, Reason>>,
    native_files: &mut usize,
) -> Result<Answer<'a>, BodyError> {
    let mut pieces = Vec::new();
    let mut natives = Vec::new();
    for image in &answered.output.images {
        let verdict = images.next().ok_or_else(|| {
            BodyError::new(Kind::Miscount {
                what: "list of the rounds' judged images",
            })
        })?;
        match verdict {
            Ok(native) => natives.push(native),
            Err(reason) => pieces.push(Piece::ImageNotShown {
                media_type: &image.media_type,
                reason,
            }),
        }
    }
    let mut native_files_here = Vec::new();
    for file in &answered.output.files {
        let verdict = files.next().ok_or_else(|| {
            BodyError::new(Kind::Miscount {
                what: "list of the rounds' judged files",
            })
        })?;
        match verdict {
            Ok(native) => {
                *native_files += 1;
                native_files_here.push(native.numbered(*native_files));
            }
            Err(reason) => pieces.push(Piece::FileNotShown {
                media_type: &file.media_type,
                name: file.name.as_deref(),
                reason,
            }),
        }
    }
    // An output a budget withheld says so, with the output marker; the result itself stays,
    // linked to its call.
    if withheld {
        pieces.insert(
            0,
            Piece::OutputWithheld {
                tool_name: answered.name,
                is_error: answered.output.is_error,
                bytes: answered.output.output.len(),
            },
        );
    } else if !answered.output.output.is_empty() || pieces.is_empty() {
        pieces.insert(0, Piece::Text(&answered.output.output));
    }
    Ok(Answer {
        id: answered.id,
        name: answered.name,
        real_id: answered.real_id,
        is_error: answered.output.is_error,
        text: Text::from_pieces(pieces),
        images: natives,
        files: native_files_here,
        approval: answered
            .output
            .approve
            .map(|approve| (approve, answered.output.reason.as_deref())),
        checks: answered.checks,
    })
}

/// Checks the provider's sequencing rules over the whole request (the crate's turns, the
/// rounds, then the caller's appended messages): rounds only after a user turn, no two
/// adjacent turns of one role where the provider merges them, no first turn of the model's,
/// at least one conversation turn, and no last turn of the model's unless it is a prefill,
/// whose trailing white space it trims.
fn sequence(
    turn: &Turn<'_>,
    rules: &Rules,
    rendered: &mut Rendered<'_>,
    has_rounds: bool,
    appended_roles: &[Option<TurnRole>],
    has_instructions: bool,
) -> Result<(), BodyError> {
    let provider = rules.provider;
    // The rounds answer the last turn, which must be the user's; they end on the results.
    if has_rounds && rendered.messages.last().map(|(role, _)| *role) != Some(TurnRole::User) {
        return Err(BodyError::new(Kind::RoundsAfterNoUserTurn {
            provider,
            role: rules.model_role,
        }));
    }
    // Sequencing over the whole request: the crate's turns, then the caller's, where their
    // role is known.
    if rules.merges_same_role {
        let mut previous = match has_rounds {
            false => rendered.messages.last().map(|(role, _)| *role),
            true => Some(TurnRole::User),
        };
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
            && !(rules.instructions_as_message && has_instructions);
        return Err(BodyError::new(Kind::NoMessages {
            provider,
            rejects: rules.rejects_no_turn || list_empty,
        }));
    }
    end_on_user_or_prefill(turn, rules, rendered, has_rounds, appended_roles)
}

/// Checks that the request does not end on the model's turn, unless the turn asks for a
/// prefill: then the crate's own final assistant text loses its trailing white space, as the
/// provider requires (nowhere else is anything trimmed).
fn end_on_user_or_prefill(
    turn: &Turn<'_>,
    rules: &Rules,
    rendered: &mut Rendered<'_>,
    has_rounds: bool,
    appended_roles: &[Option<TurnRole>],
) -> Result<(), BodyError> {
    let last = match (appended_roles.last(), has_rounds) {
        (Some(role), _) => *role,
        // The last round ends on the results, the user's side.
        (None, true) => Some(TurnRole::User),
        (None, false) => rendered.messages.last().map(|(role, _)| *role),
    };
    if last == Some(TurnRole::Assistant) && !turn.unanswered {
        if !turn.prefill {
            return Err(BodyError::new(Kind::EndsOnAssistant {
                provider: rules.provider,
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
    Ok(())
}

/// Where the history's breakpoints go, as (message, block), over the turns that carry the
/// history (not the live turn's); none when the turn asks for none.
fn history_breakpoints(turn: &Turn<'_>, rendered: &Rendered<'_>) -> Vec<(usize, usize)> {
    match turn.cache {
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
    }
}

/// The history and live turn as a budget's plan leaves them: the oldest messages after the
/// leading system ones replaced by one user turn that says how many, the withheld outputs,
/// inputs and reasoning in their withheld form, and the withheld images and files marked as
/// such (each other image and file keeps the verdict it had on the whole record). With the
/// message each wire message comes from, numbered as the record and live turn are.
fn fitted<'a>(
    turn: &'a Turn<'_>,
    sent: &Sent<'a>,
    wire: &[WireMessage<'a>],
    verdicts: Verdicts<'a>,
    plan: &Plan,
) -> (Vec<WireMessage<'a>>, Verdicts<'a>, Vec<usize>) {
    let (lead, count) = plan.messages();
    let withheld_whole = |index: usize| index >= lead && index < lead + count;
    let mut messages = Vec::with_capacity(wire.len());
    let mut origins = Vec::with_capacity(wire.len());
    let mut kept = Vec::with_capacity(verdicts.images.len());
    let mut kept_files = Vec::with_capacity(verdicts.files.len());
    let Verdicts {
        images: image_verdicts,
        extra_images,
        files: file_verdicts,
        extra_files,
    } = verdicts;
    let mut image_verdicts = image_verdicts.into_iter();
    let mut file_verdicts = file_verdicts.into_iter();
    for (index, message) in wire.iter().enumerate() {
        if index == lead && count > 0 {
            messages.push(WireMessage {
                role: WireRole::User,
                content: vec![Part::Text(Text::from_pieces(vec![
                    Piece::MessagesWithheld { count },
                ]))],
            });
            origins.push(lead);
        }
        let count_of = |file: bool| {
            message
                .content
                .iter()
                .filter(|part| match part {
                    Part::Image(_) => !file,
                    Part::File(_) => file,
                    Part::Text(_) | Part::Compaction(_) => false,
                })
                .count()
        };
        let (images, files) = (count_of(false), count_of(true));
        if withheld_whole(index) {
            // The message is gone, and its images and files with it.
            image_verdicts.by_ref().take(images).for_each(drop);
            file_verdicts.by_ref().take(files).for_each(drop);
            continue;
        }
        let Some(stored) = sent.history.get(index) else {
            // The live turn: never withheld.
            kept.extend(image_verdicts.by_ref().take(images));
            kept_files.extend(file_verdicts.by_ref().take(files));
            messages.push(message.clone());
            origins.push(index);
            continue;
        };
        messages.push(replay_withholding(
            stored,
            turn.vision,
            sent.reads,
            |block| plan.block(index, block),
        ));
        origins.push(index);
        // The images and files replay shows, in block order, as the verdicts are.
        let shown = |file: bool| {
            stored
                .blocks
                .iter()
                .enumerate()
                .filter(move |(_, block)| match block {
                    Block::Image { media_type, data } => {
                        !file && unseen(media_type, data, turn.vision).is_none()
                    }
                    Block::File {
                        media_type, data, ..
                    } => file && unseen_file(media_type, data, turn.vision).is_none(),
                    Block::Text { .. }
                    | Block::ToolUse { .. }
                    | Block::ToolResult { .. }
                    | Block::Reasoning { .. }
                    | Block::Source { .. }
                    | Block::Compaction { .. }
                    | Block::Unknown { .. } => false,
                })
        };
        for ((block, _), verdict) in shown(false).zip(image_verdicts.by_ref().take(images)) {
            kept.push(match verdict {
                Ok(_) if plan.image(index, block) => Err(Reason::Fit),
                verdict => verdict,
            });
        }
        // A file the plan withholds is its marker already, with no verdict to take.
        for ((block, _), verdict) in shown(true).zip(file_verdicts.by_ref().take(files)) {
            if !plan.block(index, block) {
                kept_files.push(verdict);
            }
        }
    }
    let verdicts = Verdicts {
        images: kept,
        extra_images,
        files: kept_files,
        extra_files,
    };
    (messages, verdicts, origins)
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

//! The render pass: one pass that applies a provider's [`Rules`] to wire messages, shared by
//! every provider's `render` and `body`.

pub(crate) mod native_images;
pub(crate) mod rules;

use crate::media::file::File;
use crate::media::marker::Reason;
use crate::render::native_images::{media_verdicts, FileVerdict, Landing, Verdict, Verdicts};
use crate::render::rules::{ImageLimits, Rules, TurnRole};
use crate::wire::{Content, Image, Part, Piece, Text, WireMessage, WireRole};

/// A conversation as a provider will carry it: an optional system text, and messages.
pub(crate) struct Rendered<'a> {
    pub(crate) system: Option<Text<'a>>,
    pub(crate) messages: Vec<(TurnRole, Vec<Part<'a>>)>,
    /// For each message, the index of the first wire message it carries.
    pub(crate) starts: Vec<usize>,
    /// The verdicts on the extra images given after the messages, in order.
    pub(crate) extra: Vec<Verdict<'a>>,
    /// The verdicts on the extra files given after the messages (a round's tool files), in
    /// order, under the request's limits with the messages' files.
    pub(crate) extra_files: Vec<FileVerdict>,
}

/// Applies a provider's rules to wire messages: one message out per wire message, except
/// leading system messages that the provider takes in its system field and, for a provider
/// that rejects them, adjacent turns of the same role, merged into one.
pub(crate) fn render<'a>(
    messages: &[WireMessage<'a>],
    rules: &Rules,
    limits: &ImageLimits,
) -> Rendered<'a> {
    render_with_extra(messages, rules, limits, &[])
}

/// Renders as [`render`] does, and judges `extra` images that follow the messages (a round's
/// tool images) under the same request limits.
pub(crate) fn render_with_extra<'a>(
    messages: &[WireMessage<'a>],
    rules: &Rules,
    limits: &ImageLimits,
    extra: &[Image<'a>],
) -> Rendered<'a> {
    let verdicts = verdicts(messages, rules, limits, (extra, &[]));
    render_judged(messages.to_vec(), rules, verdicts)
}

/// The verdict on every image and file of the messages, in order, and on the `extra` images
/// and files after them: each on its own, then under the request's limits.
pub(crate) fn verdicts<'a>(
    messages: &[WireMessage<'a>],
    rules: &Rules,
    limits: &ImageLimits,
    extra: (&[Image<'a>], &[File<'a>]),
) -> Verdicts<'a> {
    let landings = landings(messages, rules);
    media_verdicts(messages, &landings, rules, limits, extra)
}

/// Renders messages whose images and files are already judged: one verdict per image and one
/// per file of `messages`, in order (a budget's withholding judges them on the whole record,
/// then leaves some out), and the verdicts on the extra ones after them, which the
/// [`Rendered`] carries. The messages are taken, so that a message the rules leave as it is
/// keeps its parts.
pub(crate) fn render_judged<'a>(
    messages: Vec<WireMessage<'a>>,
    rules: &Rules,
    verdicts: Verdicts<'a>,
) -> Rendered<'a> {
    let Verdicts {
        images,
        extra_images: extra,
        files,
        extra_files,
    } = verdicts;
    let mut verdicts = images.into_iter();
    let leading = if rules.hoists_system {
        messages
            .iter()
            .take_while(|message| message.role == WireRole::System)
            .count()
    } else {
        0
    };
    let mut verdicts = Judged {
        images: &mut verdicts,
        files: files.into_iter(),
        native_files: 0,
    };
    let mut messages = messages.into_iter();
    let system = match leading {
        0 => None,
        leading => Some(join_system(
            messages.by_ref().take(leading),
            rules,
            &mut verdicts,
        )),
    };
    let mut carried = Vec::new();
    let mut rendered: Vec<(TurnRole, Vec<Part<'a>>)> = Vec::with_capacity(messages.len());
    let mut starts = Vec::with_capacity(messages.len());
    let mut gathered: Option<Text<'a>> = None;
    for (index, message) in (leading..).zip(messages) {
        let role = TurnRole::of(message.role);
        if rules.gathers_system && role == TurnRole::System {
            // A template that takes system text only at the beginning: it joins the rest.
            let text = join_system(std::iter::once(message), rules, &mut verdicts);
            match gathered.as_mut() {
                Some(before) => before.join(text),
                None => gathered = Some(text),
            }
            continue;
        }
        let mut parts = adapt(message, rules, &mut verdicts, &mut carried);
        let role = match (role, rules.hoists_system) {
            (TurnRole::System, true) => {
                label_as_system(&mut parts);
                TurnRole::User
            }
            (TurnRole::System | TurnRole::User | TurnRole::Assistant, _) => role,
        };
        match rendered.last_mut() {
            Some((last, previous)) if rules.merges_same_role && *last == role => {
                join_parts(previous, parts);
            }
            Some(_) | None => {
                rendered.push((role, parts));
                starts.push(index);
            }
        }
    }
    let system = match (system, gathered) {
        (Some(mut system), Some(gathered)) => {
            system.join(gathered);
            Some(system)
        }
        (system, gathered) => system.or(gathered),
    };
    Rendered {
        system,
        messages: rendered,
        starts,
        extra,
        extra_files,
    }
}

/// Appends the parts of a turn to the turn before it, of the same role: adjacent text parts
/// join by the join rule, as if they had come in one message.
fn join_parts<'a>(previous: &mut Vec<Part<'a>>, parts: Vec<Part<'a>>) {
    let mut parts = parts.into_iter();
    match (previous.last_mut(), parts.next()) {
        (Some(Part::Text(last)), Some(Part::Text(first))) => last.join(first),
        (_, Some(first)) => previous.push(first),
        (_, None) => {}
    }
    previous.extend(parts);
}

/// The leading system messages as one text, each message adapted on its own (so a blank one
/// still says `[Empty message]`) and all joined by the join rule.
fn join_system<'a, I: Iterator<Item = Verdict<'a>>>(
    hoisted: impl Iterator<Item = WireMessage<'a>>,
    rules: &Rules,
    verdicts: &mut Judged<'_, I>,
) -> Text<'a> {
    let mut pieces = Vec::new();
    for message in hoisted {
        for part in adapt(message, rules, verdicts, &mut Vec::new()) {
            match part {
                Part::Text(text) => pieces.extend_from_slice(text.pieces()),
                // No provider takes images or files in a system message; the verdicts
                // already said so.
                Part::Image(image) => pieces.push(Piece::ImageNotShown {
                    media_type: image.media_type(),
                    reason: rules.role_reason(),
                }),
                Part::File(file) => pieces.push(Piece::FileNotShown {
                    media_type: file.media_type(),
                    name: file.name(),
                    reason: rules.role_reason(),
                }),
                // Hoisted into the system text, a compaction is its summary's prose.
                Part::Compaction(compaction) => {
                    pieces.extend_from_slice(compaction.as_text().pieces());
                }
            }
        }
    }
    Text::from_pieces(pieces)
}

/// The verdicts of a render: one per image and one per file, judged before the render.
struct Judged<'v, I> {
    images: &'v mut I,
    files: std::vec::IntoIter<FileVerdict>,
    /// The native files so far.
    native_files: usize,
}

/// An image or file carried from an assistant turn to the next user message, for a provider
/// that takes it only there.
enum Carried<'a> {
    /// The image's stored media type (which the text before it names, as the marker it left
    /// behind does) and the image sent.
    Image(&'a str, Image<'a>),
    /// The file sent, whose media type and name the text before it names.
    File(File<'a>),
}

/// Re-builds one message's content under the provider's rules: images and files carried from
/// earlier assistant turns first (in a user message), each after the text that says so, then
/// each image and file as its verdict says (native, carried forward, or a marker that names
/// the provider), and text parts that are white space only left out where the provider
/// rejects them (blank pieces within a text part stay). A message of one text part that the
/// rules leave as it is keeps its parts.
fn adapt<'a, I: Iterator<Item = Verdict<'a>>>(
    message: WireMessage<'a>,
    rules: &Rules,
    verdicts: &mut Judged<'_, I>,
    carried: &mut Vec<Carried<'a>>,
) -> Vec<Part<'a>> {
    // Nothing carried to put first, and the content as the builder would build it: kept.
    let carries = message.role == WireRole::User && !carried.is_empty();
    if !carries && Content::built(&message.content, rules.drops_blank_text) {
        return message.content;
    }
    let mut content = Content::new();
    if message.role == WireRole::User {
        for carried in carried.drain(..) {
            match carried {
                Carried::Image(media_type, image) => {
                    content.push_piece(Piece::ImageFromEarlierTurn { media_type });
                    content.push_image(image);
                }
                // The text that names it is the text a provider that takes a file only beside
                // text needs (Bedrock), so it takes no label besides.
                Carried::File(file) => {
                    content.push_piece(Piece::FileFromEarlierTurn {
                        media_type: file.media_type(),
                        name: file.name(),
                    });
                    verdicts.native_files += 1;
                    content.push_file(file.numbered(verdicts.native_files));
                }
            }
        }
    }
    for part in &message.content {
        match part {
            Part::Text(text) => {
                for &piece in text.pieces() {
                    content.push_piece(piece);
                }
            }
            Part::Image(image) => {
                // One verdict per image, in the same order; a missing one cannot happen, and
                // would still only withhold the image.
                let verdict = verdicts.images.next().unwrap_or(Err(rules.role_reason()));
                match verdict {
                    Ok(native)
                        if message.role == WireRole::Assistant
                            && rules.carries_images_forward() =>
                    {
                        carried.push(Carried::Image(image.media_type(), native));
                        content.push_piece(Piece::ImageNotShown {
                            media_type: image.media_type(),
                            reason: Reason::ShownInNextUserMessage,
                        });
                    }
                    Ok(native) => content.push_image(native),
                    Err(reason) => content.push_piece(Piece::ImageNotShown {
                        media_type: image.media_type(),
                        reason,
                    }),
                }
            }
            Part::File(file) => match verdicts.files.next().unwrap_or(Err(rules.role_reason())) {
                Ok(()) if message.role == WireRole::Assistant && rules.carries_files_forward() => {
                    carried.push(Carried::File(*file));
                    content.push_piece(Piece::FileNotShown {
                        media_type: file.media_type(),
                        name: file.name(),
                        reason: Reason::ShownInNextUserMessage,
                    });
                }
                Ok(()) => {
                    if rules.files.labelled {
                        content.push_piece(Piece::FileLabel {
                            media_type: file.media_type(),
                            name: file.name(),
                        });
                    }
                    verdicts.native_files += 1;
                    content.push_file(file.numbered(verdicts.native_files));
                }
                Err(reason) => content.push_piece(Piece::FileNotShown {
                    media_type: file.media_type(),
                    name: file.name(),
                    reason,
                }),
            },
            Part::Compaction(compaction) => content.push_compaction(**compaction),
        }
    }
    content.finish_dropping_blank_text(rules.drops_blank_text)
}

/// Whether each message's images can be sent natively somewhere in the request: in the
/// message itself when the provider takes images in its role, or, for an assistant turn of a
/// provider that takes them only in user messages, in the next user message, if one follows;
/// and the role its files are judged in: the user's for an assistant turn's files carried so.
fn landings(messages: &[WireMessage<'_>], rules: &Rules) -> Vec<Landing> {
    let mut user_follows = false;
    let mut landings: Vec<Landing> = messages
        .iter()
        .rev()
        .map(|message| {
            let role = TurnRole::of(message.role);
            let carried = role == TurnRole::Assistant && user_follows;
            let images = (rules.images_in)(role) || (carried && rules.carries_images_forward());
            let files_as = match carried && rules.carries_files_forward() {
                true => TurnRole::User,
                false => role,
            };
            user_follows |= message.role == WireRole::User;
            Landing { images, files_as }
        })
        .collect();
    landings.reverse();
    landings
}

/// Labels a system message sent as a user turn: its first text part begins with `[System]: `,
/// and content that begins with something else (an image, a native compaction) is preceded
/// by a text part of the label, so the label is never lost.
fn label_as_system(parts: &mut Vec<Part<'_>>) {
    match parts.first_mut() {
        Some(Part::Text(text)) => text.label_as_system(),
        Some(Part::Image(_) | Part::File(_) | Part::Compaction(_)) | None => {
            let mut label = Text::from_pieces(Vec::new());
            label.label_as_system();
            parts.insert(0, Part::Text(label));
        }
    }
}

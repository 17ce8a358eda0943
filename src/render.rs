//! What the three renderers share: the providers, the rules each one states, and the one
//! pass that applies them to wire messages.

use std::fmt;

use crate::signature;
use crate::wire::Content;
use crate::{Image, Part, Piece, Reason, Text, WireMessage, WireRole};

/// A provider API that a renderer targets; named in the markers of images it cannot take.
///
/// ```
/// use transcript_replay::Provider;
///
/// assert_eq!(Provider::OpenAi.to_string(), "OpenAI");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Provider {
    /// OpenAI Chat Completions ([`openai`](crate::openai)).
    OpenAi,
    /// Anthropic Messages ([`anthropic`](crate::anthropic)).
    Anthropic,
    /// Gemini generateContent ([`gemini`](crate::gemini)).
    Gemini,
    /// OpenAI Responses ([`openai_responses`](crate::openai_responses)); named "OpenAI" in
    /// markers, like Chat Completions: the provider is the same.
    OpenAiResponses,
    /// Amazon Bedrock Converse ([`bedrock`](crate::bedrock)).
    Bedrock,
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Provider::OpenAi | Provider::OpenAiResponses => "OpenAI",
            Provider::Anthropic => "Anthropic",
            Provider::Gemini => "Gemini",
            Provider::Bedrock => "Bedrock",
        })
    }
}

impl Provider {
    /// Where the provider takes images, as a marker says it.
    pub(crate) fn image_role_rule(self) -> &'static str {
        let rules = match self {
            Provider::OpenAi => &crate::openai::RULES,
            Provider::Anthropic => &crate::anthropic::RULES,
            Provider::Gemini => &crate::gemini::RULES,
            Provider::OpenAiResponses => &crate::openai_responses::RULES,
            Provider::Bedrock => &crate::bedrock::RULES,
        };
        rules.image_role_rule
    }
}

/// What one provider accepts, stated once in its module and applied by [`render`].
pub(crate) struct Rules {
    pub(crate) provider: Provider,
    /// The media types the provider takes, lowercase.
    pub(crate) media_types: &'static [&'static str],
    /// Whether the provider refuses GIFs of more than one frame.
    pub(crate) refuses_animated_gifs: bool,
    /// Whether a message of this role may carry a native image. A provider that takes images
    /// in user messages but not in assistant ones gets an assistant turn's images (a tool's
    /// screenshots) carried to the next user message.
    pub(crate) images_in: fn(Role) -> bool,
    /// Where the provider takes images, as a marker says it.
    pub(crate) image_role_rule: &'static str,
    /// Whether system messages go to the request's system field (the leading ones) and in
    /// place as user turns labelled `[System]: ` (the later ones), rather than as messages of
    /// a system role.
    pub(crate) hoists_system: bool,
    /// Whether text parts that are white space only are left out, for a provider that
    /// rejects them.
    pub(crate) drops_blank_text: bool,
    /// Whether adjacent turns of the same role are merged into one, for a provider that
    /// rejects them.
    pub(crate) merges_same_role: bool,
    /// Whether a whole request may end on an assistant turn that the model continues (a
    /// prefill).
    pub(crate) takes_prefill: bool,
    /// Whether the provider answers a request that ends on the model's turn with an error
    /// (rather than with a reply to nothing).
    pub(crate) rejects_ending_on_assistant: bool,
    /// Whether the first conversation turn must be a user turn.
    pub(crate) starts_on_user: bool,
    /// What the provider calls the model's role.
    pub(crate) model_role: &'static str,
    /// The top-level keys of a whole request that the crate writes, which a caller's own
    /// fields must not repeat.
    pub(crate) body_keys: &'static [&'static str],
}

impl Rules {
    /// Whether an assistant turn's images travel to the next user message.
    fn carries_images_forward(&self) -> bool {
        (self.images_in)(Role::User) && !(self.images_in)(Role::Assistant)
    }
}

/// How many images, and how large, a provider takes in one request.
///
/// Each provider module has its documented defaults as a constant (`openai::LIMITS`,
/// `anthropic::LIMITS`, `gemini::LIMITS`), used by its `render`; where a limit depends on the
/// model, pass your own to its `render_with`. Sizes count the base64 text. When a history
/// exceeds a request limit, the newest images stay native and the oldest become markers.
///
/// ```
/// use transcript_replay::{anthropic, ImageLimits};
///
/// // Anthropic models with less than a 200k context take 600 images a request.
/// let limits = ImageLimits { images_per_request: 600, ..anthropic::LIMITS };
/// # let _ = limits;
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ImageLimits {
    /// The longest base64 text of one image.
    pub base64_len_per_image: usize,
    /// How many images one request may carry.
    pub images_per_request: usize,
    /// How much base64 text all the images of one request may add up to.
    pub base64_len_per_request: usize,
    /// The most pixels an image may have on either side, when there is a limit.
    pub max_side_pixels: Option<u32>,
    /// A stricter limit on either side that applies once a request carries more than the
    /// given number of images: `(images, pixels)`.
    pub max_side_pixels_beyond: Option<(usize, u32)>,
    /// How many images are withheld at a time when a request limit binds, so that the set of
    /// withheld images changes once per step of new images rather than with every one (each
    /// change rewrites the request from the oldest image on, and a prompt cache keeps only
    /// the part before it). `None` is a fifth of the count that binds, at least 1: 20 under
    /// a limit of 100 images, 4 under Anthropic's rule beyond 20 images, a fifth of the images
    /// that fit under a data limit. `Some(1)` withholds only what the limits require.
    pub withholding_step: Option<usize>,
}

/// The role of a rendered message, before each provider names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    System,
    User,
    Assistant,
}

/// A conversation as a provider will carry it: an optional system text, and messages.
pub(crate) struct Rendered<'a> {
    pub(crate) system: Option<Text<'a>>,
    pub(crate) messages: Vec<(Role, Vec<Part<'a>>)>,
    /// For each message, the index of the first wire message it carries.
    pub(crate) starts: Vec<usize>,
}

/// Applies a provider's rules to wire messages: one message out per wire message, except
/// leading system messages that the provider takes in its system field and, for a provider
/// that rejects them, adjacent turns of the same role, merged into one.
pub(crate) fn render<'a>(
    messages: &[WireMessage<'a>],
    rules: &Rules,
    limits: &ImageLimits,
) -> Rendered<'a> {
    let landings = landings(messages, rules);
    let mut verdicts = image_verdicts(messages, &landings, rules, limits).into_iter();
    let leading = if rules.hoists_system {
        messages
            .iter()
            .take_while(|message| message.role == WireRole::System)
            .count()
    } else {
        0
    };
    let (hoisted, rest) = messages.split_at(leading);
    let system = match hoisted {
        [] => None,
        hoisted => Some(join_system(hoisted, rules, &mut verdicts)),
    };
    let mut carried = Vec::new();
    let mut rendered: Vec<(Role, Vec<Part<'a>>)> = Vec::with_capacity(rest.len());
    let mut starts = Vec::with_capacity(rest.len());
    for (index, message) in (leading..).zip(rest) {
        let role = role_of(message.role);
        let mut parts = adapt(message, rules, &mut verdicts, &mut carried);
        let role = match (role, rules.hoists_system) {
            (Role::System, true) => {
                if let Some(Part::Text(text)) = parts.first_mut() {
                    text.label_as_system();
                }
                Role::User
            }
            (Role::System | Role::User | Role::Assistant, _) => role,
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
    Rendered {
        system,
        messages: rendered,
        starts,
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
fn join_system<'a>(
    hoisted: &[WireMessage<'a>],
    rules: &Rules,
    verdicts: &mut impl Iterator<Item = Verdict<'a>>,
) -> Text<'a> {
    let mut pieces = Vec::new();
    for message in hoisted {
        for part in adapt(message, rules, verdicts, &mut Vec::new()) {
            match part {
                Part::Text(text) => pieces.extend_from_slice(text.pieces()),
                // No provider takes images in a system message; `verdict` already said so.
                Part::Image(image) => pieces.push(Piece::ImageNotShown {
                    media_type: image.media_type(),
                    reason: Reason::Role(rules.provider),
                }),
            }
        }
    }
    Text::from_pieces(pieces)
}

/// An image carried from an assistant turn to the next user message: its stored media type
/// (which the text before it names, as the marker it left behind does) and the image sent.
type Carried<'a> = (&'a str, Image<'a>);

/// Re-builds one message's content under the provider's rules: images carried from earlier
/// assistant turns first (in a user message), then each image as its verdict says (native,
/// carried forward, or a marker that names the provider), and text parts that are white space
/// only left out where the provider rejects them (blank pieces within a text part stay).
fn adapt<'a>(
    message: &WireMessage<'a>,
    rules: &Rules,
    verdicts: &mut impl Iterator<Item = Verdict<'a>>,
    carried: &mut Vec<Carried<'a>>,
) -> Vec<Part<'a>> {
    let mut content = Content::new();
    if message.role == WireRole::User {
        for (media_type, image) in carried.drain(..) {
            content.push_piece(Piece::ImageFromEarlierTurn { media_type });
            content.push_image(image);
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
                let verdict = verdicts.next().unwrap_or(Err(Reason::Role(rules.provider)));
                match verdict {
                    Ok(native)
                        if message.role == WireRole::Assistant
                            && rules.carries_images_forward() =>
                    {
                        carried.push((image.media_type(), native));
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
        }
    }
    content.finish_dropping_blank_text(rules.drops_blank_text)
}

fn role_of(role: WireRole) -> Role {
    match role {
        WireRole::System => Role::System,
        WireRole::User => Role::User,
        WireRole::Assistant => Role::Assistant,
    }
}

/// Whether each message's images can be sent natively somewhere in the request: in the
/// message itself when the provider takes images in its role, or, for an assistant turn of a
/// provider that takes them only in user messages, in the next user message, if one follows.
fn landings(messages: &[WireMessage<'_>], rules: &Rules) -> Vec<bool> {
    let mut user_follows = false;
    let mut landings: Vec<bool> = messages
        .iter()
        .rev()
        .map(|message| {
            let role = role_of(message.role);
            let lands = (rules.images_in)(role)
                || (role == Role::Assistant && rules.carries_images_forward() && user_follows);
            user_follows |= message.role == WireRole::User;
            lands
        })
        .collect();
    landings.reverse();
    landings
}

/// An image as the provider will take it, or why it cannot.
type Verdict<'a> = Result<Image<'a>, Reason>;

/// The verdict on every image of the conversation, in order: first each image on its own,
/// then the request's limits, which keep the newest images and withhold the oldest.
fn image_verdicts<'a>(
    messages: &[WireMessage<'a>],
    landings: &[bool],
    rules: &Rules,
    limits: &ImageLimits,
) -> Vec<Verdict<'a>> {
    let mut verdicts: Vec<(Verdict<'a>, Option<(u32, u32)>)> = messages
        .iter()
        .zip(landings)
        .flat_map(|(message, &lands)| {
            message.content.iter().filter_map(move |part| match part {
                Part::Image(image) => Some(verdict(image, lands, rules, limits)),
                Part::Text(_) => None,
            })
        })
        .collect();
    withhold_for_request(&mut verdicts, rules.provider, limits);
    verdicts.into_iter().map(|(verdict, _)| verdict).collect()
}

/// Which request limit decides how many images stay native.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Binding {
    Count,
    Pixels,
    Data,
}

/// Applies the per-request limits to the images that passed on their own: the native images
/// are the newest that satisfy every limit at once (count, data, and the pixel limit that
/// applies at that count), withheld in steps so that the set of withheld images changes
/// rarely as a record grows.
///
/// The newest `k` images fit when `k` is within the count limit, their data within the data
/// limit, and, beyond the many-images threshold, every one of them within its pixel limit.
/// Each condition only gets harder as `k` grows, so the largest `k` that fits is found by
/// walking from the newest image back. The `w` images that do not fit are then rounded up:
/// the first is withheld alone (a conversation just crossing a limit loses one image), and
/// after it they go in whole steps, `1 + step * ceil((w - 1) / step)`, so the withheld set
/// only grows with the record and changes once per `step` new images.
fn withhold_for_request(
    verdicts: &mut [(Verdict<'_>, Option<(u32, u32)>)],
    provider: Provider,
    limits: &ImageLimits,
) {
    // Newest first, the images still native, with their data size and pixel size.
    let candidates: Vec<usize> = (0..verdicts.len())
        .rev()
        .filter(|&index| matches!(verdicts.get(index), Some((Ok(_), _))))
        .collect();
    let total = candidates.len();
    let (mut fit, mut data, mut binding) = (0, 0usize, None);
    let mut large_seen = false;
    for &index in &candidates {
        let Some((Ok(image), size)) = verdicts.get(index) else {
            continue;
        };
        let large = match (limits.max_side_pixels_beyond, size) {
            (Some((_, pixels)), Some((width, height))) => *width > pixels || *height > pixels,
            (Some(_) | None, _) => false,
        };
        let next = fit + 1;
        let beyond_threshold = limits
            .max_side_pixels_beyond
            .is_some_and(|(images, _)| next > images);
        if next > limits.images_per_request {
            binding = Some(Binding::Count);
        } else if data + image.data().len() > limits.base64_len_per_request {
            binding = Some(Binding::Data);
        } else if beyond_threshold && (large || large_seen) {
            binding = Some(Binding::Pixels);
        }
        if binding.is_some() {
            break;
        }
        large_seen |= large;
        fit = next;
        data += image.data().len();
    }
    let Some(binding) = binding else { return };
    let step = limits.withholding_step.unwrap_or_else(|| {
        let bound = match binding {
            Binding::Count => limits.images_per_request,
            Binding::Pixels => limits
                .max_side_pixels_beyond
                .map_or(limits.images_per_request, |(images, _)| images),
            Binding::Data => fit,
        };
        bound / 5
    });
    let step = step.max(1);
    let over = total - fit;
    let withheld = (1 + (over - 1).div_ceil(step) * step).min(total);
    let reason = match binding {
        Binding::Count => Reason::TooManyImages {
            provider,
            limit: limits.images_per_request,
        },
        Binding::Data => Reason::RequestTooLarge {
            provider,
            limit: limits.base64_len_per_request,
        },
        Binding::Pixels => {
            let (images, pixels) = limits.max_side_pixels_beyond.unwrap_or((0, 0));
            Reason::ManyImages {
                provider,
                images,
                pixels,
            }
        }
    };
    // The oldest `withheld` candidates: the end of the newest-first list.
    for &index in candidates.iter().skip(total - withheld) {
        if let Some((verdict, _)) = verdicts.get_mut(index) {
            *verdict = Err(reason);
        }
    }
}

/// The verdict on one image on its own, with its pixel size where its header gives one;
/// `lands` says whether the request has a message where the provider takes it.
///
/// The media type sent is the one the bytes have, as the provider spells it; bytes that are
/// no image the provider can read become a marker.
fn verdict<'a>(
    image: &Image<'a>,
    lands: bool,
    rules: &Rules,
    limits: &ImageLimits,
) -> (Verdict<'a>, Option<(u32, u32)>) {
    let provider = rules.provider;
    let accepted = |media_type: &str| {
        rules
            .media_types
            .iter()
            .copied()
            .find(|accepted| accepted.eq_ignore_ascii_case(media_type))
    };
    if !lands {
        return (Err(Reason::Role(provider)), None);
    }
    let Some(signature) = signature::read(image.data()) else {
        let reason = match accepted(image.media_type()) {
            None => Reason::MediaType {
                provider,
                actual: None,
            },
            Some(_) => Reason::UnrecognizedData,
        };
        return (Err(reason), None);
    };
    let size = signature.size;
    let format = signature.format;
    let Some(media_type) = accepted(format.media_type()) else {
        let actual =
            (!format.media_type().eq_ignore_ascii_case(image.media_type())).then_some(format);
        return (Err(Reason::MediaType { provider, actual }), size);
    };
    if signature.animated && rules.refuses_animated_gifs {
        return (Err(Reason::AnimatedGif(provider)), size);
    }
    if image.data().len() > limits.base64_len_per_image {
        let limit = limits.base64_len_per_image;
        return (Err(Reason::TooLarge { provider, limit }), size);
    }
    if let (Some(limit), Some((width, height))) = (limits.max_side_pixels, size) {
        if width > limit || height > limit {
            return (
                Err(Reason::TooManyPixels {
                    provider,
                    width,
                    height,
                    limit,
                }),
                size,
            );
        }
    }
    (Ok(Image::new(media_type, image.data())), size)
}

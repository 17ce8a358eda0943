//! What the three renderers share: the providers, the rules each one states, and the one
//! pass that applies them to wire messages.

use std::fmt;

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
pub enum Provider {
    /// OpenAI Chat Completions ([`openai`](crate::openai)).
    OpenAi,
    /// Anthropic Messages ([`anthropic`](crate::anthropic)).
    Anthropic,
    /// Gemini generateContent ([`gemini`](crate::gemini)).
    Gemini,
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Provider::OpenAi => "OpenAI",
            Provider::Anthropic => "Anthropic",
            Provider::Gemini => "Gemini",
        })
    }
}

impl Provider {
    /// The provider's rules, as its module states them.
    fn rules(self) -> &'static Rules {
        match self {
            Provider::OpenAi => &crate::openai::RULES,
            Provider::Anthropic => &crate::anthropic::RULES,
            Provider::Gemini => &crate::gemini::RULES,
        }
    }

    /// Where the provider takes images, as a marker says it.
    pub(crate) fn image_role_rule(self) -> &'static str {
        self.rules().image_role_rule
    }

    /// The provider's per-image limit, as a marker says it.
    pub(crate) fn image_limit_text(self) -> &'static str {
        self.rules().max_image_text
    }
}

/// What one provider accepts, stated once in its module and applied by [`render`].
pub(crate) struct Rules {
    pub(crate) provider: Provider,
    /// The media types the provider takes, lowercase.
    pub(crate) media_types: &'static [&'static str],
    /// The longest base64 text the provider takes for one image.
    pub(crate) max_image_base64_len: usize,
    /// The same limit as a marker says it.
    pub(crate) max_image_text: &'static str,
    /// Whether a message of this role may carry a native image.
    pub(crate) images_in: fn(Role) -> bool,
    /// Where the provider takes images, as a marker says it.
    pub(crate) image_role_rule: &'static str,
    /// Whether system messages go to the request's system field (the leading ones) and in
    /// place as user turns labelled `[System]: ` (the later ones), rather than as messages of
    /// a system role.
    pub(crate) hoists_system: bool,
    /// Whether white-space-only text is left out, for a provider that rejects it.
    pub(crate) drops_blank_text: bool,
    /// Whether a final assistant message must not end in white space.
    pub(crate) trims_final_assistant: bool,
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
}

/// Applies a provider's rules to wire messages: one message out per wire message, except
/// leading system messages that the provider takes in its system field.
pub(crate) fn render<'a>(messages: &[WireMessage<'a>], rules: &Rules) -> Rendered<'a> {
    let leading = match rules.hoists_system {
        true => messages
            .iter()
            .take_while(|message| message.role == WireRole::System)
            .count(),
        false => 0,
    };
    let (hoisted, rest) = messages.split_at(leading);
    let system = match hoisted {
        [] => None,
        hoisted => Some(join_system(hoisted, rules)),
    };
    let mut rendered: Vec<(Role, Vec<Part<'a>>)> = rest
        .iter()
        .map(|message| {
            let role = match message.role {
                WireRole::System => Role::System,
                WireRole::User => Role::User,
                WireRole::Assistant => Role::Assistant,
            };
            let mut parts = adapt(&message.content, role, rules);
            match (role, rules.hoists_system) {
                (Role::System, true) => {
                    if let Some(Part::Text(text)) = parts.first_mut() {
                        text.label_as_system();
                    }
                    (Role::User, parts)
                }
                (Role::System | Role::User | Role::Assistant, _) => (role, parts),
            }
        })
        .collect();
    if rules.trims_final_assistant {
        if let Some((Role::Assistant, parts)) = rendered.last_mut() {
            if let Some(Part::Text(text)) = parts.last_mut() {
                text.trim_end();
            }
        }
    }
    Rendered {
        system,
        messages: rendered,
    }
}

/// The leading system messages as one text, each message adapted on its own (so a blank one
/// still says `[Empty message]`) and all joined by the join rule.
fn join_system<'a>(hoisted: &[WireMessage<'a>], rules: &Rules) -> Text<'a> {
    let mut pieces = Vec::new();
    for message in hoisted {
        for part in adapt(&message.content, Role::System, rules) {
            match part {
                Part::Text(text) => pieces.extend_from_slice(text.pieces()),
                // No provider takes images in a system message; `accept` already said so.
                Part::Image(image) => pieces.push(Piece::ImageNotShown {
                    media_type: image.media_type(),
                    reason: Reason::Role(rules.provider),
                }),
            }
        }
    }
    Text::from_pieces(pieces)
}

/// Re-builds one message's content under the provider's rules: images it cannot take
/// become markers that name it, and white-space-only text is left out where it rejects that.
fn adapt<'a>(parts: &[Part<'a>], role: Role, rules: &Rules) -> Vec<Part<'a>> {
    let mut content = Content::new();
    for part in parts {
        match part {
            Part::Text(text) => {
                for &piece in text.pieces() {
                    if !(rules.drops_blank_text && piece.is_blank()) {
                        content.push_piece(piece);
                    }
                }
            }
            Part::Image(image) => match accept(image, role, rules) {
                Ok(image) => content.push_image(image),
                Err(reason) => content.push_piece(Piece::ImageNotShown {
                    media_type: image.media_type(),
                    reason,
                }),
            },
        }
    }
    content.finish()
}

/// The image as the provider will take it (with the media type spelled as the provider
/// lists it), or why it cannot.
fn accept<'a>(image: &Image<'a>, role: Role, rules: &Rules) -> Result<Image<'a>, Reason> {
    let provider = rules.provider;
    if !(rules.images_in)(role) {
        return Err(Reason::Role(provider));
    }
    let media_type = rules
        .media_types
        .iter()
        .find(|accepted| accepted.eq_ignore_ascii_case(image.media_type()))
        .ok_or(Reason::MediaType(provider))?;
    if image.data().len() > rules.max_image_base64_len {
        return Err(Reason::TooLarge(provider));
    }
    Ok(Image::new(media_type, image.data()))
}

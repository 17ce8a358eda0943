//! What a provider accepts, as data: each provider module states its [`Rules`] once, and the
//! shared render pass and body assembly apply them. Nothing here knows any provider by name.

use crate::media::marker::Reason;
use crate::provider::Provider;
use crate::wire::WireRole;

/// What one provider accepts, stated once in its module and applied by the render pass
/// (`render/mod.rs`) and the body assembly (`body/`).
#[derive(Clone, Copy)]
pub(crate) struct Rules {
    pub(crate) provider: Provider,
    /// How the provider reads its own `compaction` blocks back natively (the block's
    /// `provider` is the provider's id): in which messages, and which payloads are its items;
    /// `None` for a provider sent only a compaction's summary.
    pub(crate) reads_compaction: Option<NativeCompaction>,
    /// The media types the provider takes, lowercase.
    pub(crate) media_types: &'static [&'static str],
    /// Whether the provider refuses GIFs of more than one frame.
    pub(crate) refuses_animated_gifs: bool,
    /// Whether a message of this role may carry a native image. A provider that takes images
    /// in user messages but not in assistant ones gets an assistant turn's images (a tool's
    /// screenshots) carried to the next user message.
    pub(crate) images_in: fn(TurnRole) -> bool,
    /// Whether system messages go to the request's system field (the leading ones) and in
    /// place as user turns labelled `[System]: ` (the later ones), rather than as messages of
    /// a system role.
    pub(crate) hoists_system: bool,
    /// Whether every system message, wherever it stands, is joined into the system text
    /// (a chat template that takes a system message only at the beginning).
    pub(crate) gathers_system: bool,
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
    /// Whether the provider itself answers a request with no conversation turn with an error
    /// (rather than only the compatible servers that share its API).
    pub(crate) rejects_no_turn: bool,
    /// Whether the system text S is the first message of the list of turns (OpenAI Chat's
    /// `system` message), rather than a field of its own.
    pub(crate) instructions_as_message: bool,
    /// Whether the first conversation turn must be a user turn.
    pub(crate) starts_on_user: bool,
    /// What the provider calls the model's role.
    pub(crate) model_role: &'static str,
    /// The top-level keys of a whole request that the crate writes, which a caller's own
    /// fields must not repeat.
    pub(crate) body_keys: &'static [&'static str],
    /// The roles a caller's appended message may name, and the turn each one is. An appended
    /// message without a `role` is an item of another kind (a Responses `function_call`,
    /// say), and counts as no turn.
    pub(crate) appended_roles: &'static [(&'static str, TurnRole)],
    /// How the provider limits a tool's name.
    pub(crate) tool_names: NameRule,
    /// Whether a tool may ask for strict adherence to its schema.
    pub(crate) tools_take_strict: bool,
    /// Whether the provider can be told to call no tool.
    pub(crate) takes_no_tool_choice: bool,
    /// Whether a tool choice needs a function tool beside the server tools: the choice governs
    /// only the caller's functions there.
    pub(crate) choice_needs_functions: bool,
    /// Whether a request whose messages carry tool calls or results must declare tools
    /// (Bedrock: "The toolConfig field must be defined when using toolUse and toolResult
    /// content blocks").
    pub(crate) rounds_need_tools: bool,
    /// The top-level keys the provider's tool declarations and choice go in.
    pub(crate) tool_keys: &'static [&'static str],
    /// How the provider writes the neutral server tools, where it has them.
    pub(crate) server_tools: ServerTools,
    /// The files the provider takes natively, and where.
    pub(crate) files: FileRules,
    /// Top-level fields the provider refuses (or ignores where that loses what was asked),
    /// which a caller's own fields must not name.
    pub(crate) refused_fields: &'static [&'static str],
    /// The field that caps the reply's tokens, named in the error for a refused one.
    pub(crate) output_limit: Option<&'static str>,
    /// The parameters the provider rejects together, each pair with its reason: a turn or a
    /// caller's fields that set both is an error naming both.
    pub(crate) pairs: &'static [Pair],
}

/// A request parameter as a rejected pair names it, whether the turn sets it (its neutral
/// parameter) or the caller's fields do (under any provider's name for it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Param {
    /// Reasoning asked for: a thinking budget, or an effort other than `none`.
    Reasoning,
    /// A temperature other than the default, 1.
    Temperature,
    /// Stop sequences.
    Stop,
    /// A tool choice that forces a call: any tool, or a named one.
    ForcedToolChoice,
}

impl Param {
    /// The parameter's name, as the turn's neutral parameters name it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Param::Reasoning => "reasoning",
            Param::Temperature => "temperature",
            Param::Stop => "stop",
            Param::ForcedToolChoice => "tool_choice",
        }
    }
}

/// Two parameters a provider rejects together, and why, in words for the error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Pair {
    /// The one named first.
    pub(crate) first: Param,
    /// The one named second.
    pub(crate) second: Param,
    /// Why the provider rejects them together, as the error says it.
    pub(crate) why: &'static str,
}

/// How a provider writes each neutral server tool: `None` where it has no such tool.
#[derive(Clone, Copy)]
pub(crate) struct ServerTools {
    /// Web search.
    pub(crate) web_search: Option<ServerForm>,
    /// Code execution.
    pub(crate) code_execution: Option<ServerForm>,
}

impl ServerTools {
    /// A provider with neither.
    pub(crate) const NONE: ServerTools = ServerTools {
        web_search: None,
        code_execution: None,
    };
}

/// Where a provider writes a neutral server tool.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum ServerForm {
    /// An element of the provider's tools, named so in the name checks (by its `name`, else
    /// its `type` or only key, as a native declaration is named).
    Entry(&'static str),
    /// A top-level field of the body, not a tool: a tool choice does not count it as one.
    Field,
}

/// What files a provider takes natively (a `file` block that is not an image), stated once in
/// its module with its sources; a file it does not take becomes the marker, with a reason
/// that names the provider.
#[derive(Clone, Copy)]
pub(crate) struct FileRules {
    /// The media types it takes, lowercase.
    pub(crate) media_types: &'static [&'static str],
    /// Whether a message of this role may carry a native file. A provider that takes files in
    /// user messages but not in assistant ones gets an assistant turn's files (a tool's PDF)
    /// carried to the next user message, as its images are.
    pub(crate) files_in: fn(TurnRole) -> bool,
    /// The most base64 text one file may have.
    pub(crate) per_file: usize,
    /// The most files one request may carry, when the provider limits it: the newest are kept.
    pub(crate) per_request: Option<usize>,
    /// The most base64 text the files of one request may add up to: the newest are kept.
    pub(crate) bytes_per_request: Option<usize>,
    /// Whether the request's data limit
    /// ([`ImageLimits::base64_len_per_request`]) is the whole request's, so that the files'
    /// data counts against it with the images': one budget for both, the newest kept
    /// (Anthropic's and Gemini's request size). Otherwise the images and the files each have
    /// their own.
    pub(crate) data_with_images: bool,
    /// The most PDF pages one request may carry (counted from each PDF's page objects; a PDF
    /// whose pages cannot be counted counts one a 2,000 bytes): the newest are kept.
    pub(crate) pages_per_request: Option<usize>,
    /// The media types the provider takes as text rather than bytes (Anthropic's plain-text
    /// document source): their data must decode to UTF-8.
    pub(crate) text_types: &'static [&'static str],
    /// Whether each native file is preceded by a text label that names it, for a provider
    /// that takes a file only beside text.
    pub(crate) labelled: bool,
}

impl FileRules {
    /// Files in user messages only: what four of the five providers take.
    pub(crate) fn user_only(role: TurnRole) -> bool {
        match role {
            TurnRole::User => true,
            TurnRole::System | TurnRole::Assistant => false,
        }
    }

    /// Why a file of this media type and data may not go natively in a message of this role,
    /// of `provider`; `None` when it may.
    pub(crate) fn refuses(
        &self,
        provider: Provider,
        role: TurnRole,
        media_type: &str,
        data: &str,
    ) -> Option<Reason> {
        if !(self.files_in)(role) {
            return Some(match (self.files_in)(TurnRole::Assistant) {
                true => Reason::SystemInstructions(provider),
                false => Reason::Role(provider),
            });
        }
        let lowercase = crate::media::file::lowercase(media_type);
        if !self.media_types.contains(&lowercase.as_ref()) {
            return Some(Reason::MediaType {
                provider,
                actual: None,
            });
        }
        if data.len() > self.per_file {
            return Some(Reason::TooLarge {
                provider,
                limit: self.per_file,
            });
        }
        let as_text = self.text_types.contains(&lowercase.as_ref());
        (as_text && std::str::from_utf8(&crate::media::file::decode_base64(data)).is_err())
            .then_some(Reason::NotUtf8Text(provider))
    }
}

/// How a provider takes its own compaction back: the part of [`Rules`] the compaction
/// decision reads (with the provider's id, it is a `compaction::Reads`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct NativeCompaction {
    /// Whether the provider takes the block natively in a stored message of this role.
    pub(crate) in_role: fn(crate::record::Role) -> bool,
    /// Whether a stored payload is the provider's own item.
    pub(crate) payload: fn(Option<&str>) -> bool,
}

impl Rules {
    /// The provider whose compaction payloads the target reads natively: its own, when it
    /// reads any.
    pub(crate) fn compaction_reads(&self) -> Option<crate::record::compaction::Reads> {
        self.reads_compaction
            .map(|native| crate::record::compaction::Reads {
                provider: self.provider.id(),
                in_role: native.in_role,
                payload: native.payload,
            })
    }

    /// Whether an assistant turn's images travel to the next user message.
    pub(crate) fn carries_images_forward(&self) -> bool {
        (self.images_in)(TurnRole::User) && !(self.images_in)(TurnRole::Assistant)
    }

    /// Whether an assistant turn's files travel to the next user message, as its images do.
    pub(crate) fn carries_files_forward(&self) -> bool {
        (self.files.files_in)(TurnRole::User) && !(self.files.files_in)(TurnRole::Assistant)
    }

    /// Why an image that stands where the provider takes none is not shown: a provider that
    /// takes images in both conversation roles refuses them only in its system text.
    pub(crate) fn role_reason(&self) -> Reason {
        if (self.images_in)(TurnRole::Assistant) {
            Reason::SystemInstructions(self.provider)
        } else {
            Reason::Role(self.provider)
        }
    }

    /// A role's name as the provider spells it, for an error.
    pub(crate) fn role_name(&self, role: TurnRole) -> &'static str {
        match role {
            TurnRole::Assistant => self.model_role,
            TurnRole::User => "user",
            TurnRole::System => "system",
        }
    }
}

/// The role of a rendered turn, before each provider names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TurnRole {
    System,
    User,
    Assistant,
}

impl TurnRole {
    /// The turn a wire message of this role renders as, before the rules move it (a hoisted
    /// or labelled system message).
    pub(crate) fn of(role: WireRole) -> Self {
        match role {
            WireRole::System => TurnRole::System,
            WireRole::User => TurnRole::User,
            WireRole::Assistant => TurnRole::Assistant,
        }
    }
}

/// How many images, and how large, a provider takes in one request.
///
/// Each provider module has its documented defaults as a constant (`openai::LIMITS`,
/// `anthropic::LIMITS`, `gemini::LIMITS`, `openai_responses::LIMITS`, `bedrock::LIMITS`), used
/// by its `render` and `body`; where a limit depends on the model, pass your own to its
/// `render_with`, or to [`Turn::limits`](crate::Turn::limits). Sizes count the base64 text.
/// When a history exceeds a request limit, the newest images stay native and the oldest
/// become markers.
///
/// # Whole-request limits
///
/// When a history carries more images, or more image data, than one request may, the newest
/// images that meet every limit at once (count, data, and the pixel limit that applies at that
/// count) stay native and the oldest become markers that name the limit, deterministically:
/// `[Image (image/png) not shown: Anthropic takes at most 100 images a request, and the newest
/// are kept]`, `... Gemini takes at most 100 MB of image data a request, and the newest images
/// are kept]`, or `... Anthropic takes at most 20 images a request when any is over 2000x2000
/// pixels, and the newest are kept]`. Limits count the base64 text, not the decoded bytes:
/// Anthropic counts the base64 text, and for the others the check then holds however the
/// server counts. Checked by `conformance/tests/conformance/render_images.rs` and
/// `conformance/tests/conformance/image_withholding.rs`.
///
/// Where the provider's data limit is the whole request's (Anthropic's 32 MB request size,
/// Gemini's 100 MB of inline data), [`base64_len_per_request`](ImageLimits::base64_len_per_request)
/// is one budget for the request's images and files together, newest first, whatever their
/// kind: `... Gemini takes at most 100 MB of image and file data a request, and the newest
/// are kept]` once the record has both. The counts and PDF pages stay each kind's own.
/// Checked by `tests/spec/request_limits.rs` and `conformance/tests/conformance/request_limits.rs`.
///
/// # Withholding in steps
///
/// Each change of the withheld set rewrites the request from the oldest native image on, and
/// a prompt cache keeps only the part before it. So the first image over a limit is withheld
/// alone, and after it they go in steps ([`withholding_step`](ImageLimits::withholding_step)):
/// the withheld set only grows as a record grows and changes once per step. Each limit is
/// taken on its own over the record as it grew, and the request withholds the most any of
/// them does, so a withheld image stays withheld, and its marker names the limit that
/// withheld it first, whichever limits come to bind later. A step never reaches past what a
/// limit lets through: the newest image that fits every limit alone is never withheld, and
/// with the default steps at least four fifths of the newest that fit a limit stay. In
/// `conformance/tests/conformance/prompt_cache.rs`, on 80 turns with a screenshot in one tool round of
/// three, steps of 20 read 0.859 of the history from a simulated cache, and withholding one
/// image at a time 0.322.
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
    /// How much base64 text all the images of one request may add up to; with its files,
    /// where the provider's limit is the whole request's (Anthropic, Gemini).
    pub base64_len_per_request: usize,
    /// The most pixels an image may have on either side, when there is a limit.
    pub max_side_pixels: Option<u32>,
    /// A stricter limit on either side that applies once a request carries more than the
    /// given number of images: `(images, pixels)`.
    pub max_side_pixels_beyond: Option<(usize, u32)>,
    /// How many images are withheld at a time when a request limit binds, so that the set of
    /// withheld images changes once per step of new images rather than with every one (each
    /// change rewrites the request from the oldest image on, and a prompt cache keeps only
    /// the part before it). `None` is a fifth of what the binding limit lets through, at
    /// least 1: 20 under a limit of 100 images, 4 under Anthropic's rule beyond 20 images,
    /// and under a data limit a fifth of the images (and files) whose data fits, taken when
    /// the withholding moves, so that it never changes what was withheld before. A step is
    /// never more than what fits: the newest that fit alone stay native. `Some(1)` withholds
    /// only what the limits require.
    pub withholding_step: Option<usize>,
}

/// How a provider limits a tool's name: at most `max` characters, each an ASCII letter, a
/// digit, `_` or `-`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct NameRule {
    pub(crate) max: usize,
}

impl NameRule {
    pub(crate) fn allows(self, name: &str) -> bool {
        !name.is_empty()
            && name.len() <= self.max
            && name
                .bytes()
                .all(|byte| byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'-')
    }
}

/// How a provider's usage counts the tokens of its cache against the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CacheCounting {
    /// The input tokens leave out the cache reads and writes, reported apart: the context is
    /// the sum of the three.
    Apart,
    /// The input tokens include the cache reads; writes, if reported, are apart.
    ReadsIncluded,
}

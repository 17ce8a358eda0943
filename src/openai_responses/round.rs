//! The rounds of a Responses turn in flight: the reply's output items as they came (its
//! reasoning items with their `encrypted_content` among them), then one output item per call,
//! of the kind its call asks for: `function_call_output` (its images and files in it),
//! `custom_tool_call_output`, `computer_call_output` (the output's first image as its
//! screenshot; its text, other images and files in a user message right after it), `shell_call_output` (the output as stdout, exit code 1 for an error),
//! `local_shell_call_output` and `apply_patch_call_output` (`failed` for an error), each
//! checked against its schema in the pinned spec (`conformance/tests/conformance/not_kept.rs`). The last
//! three take text only: an output's images and files are the marker in its text,
//! `[Image (...) not shown: OpenAI takes no images in a shell_call_output]`.

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::value::RawValue;

use super::wire::InputPart;
use crate::body::{Answer, AssembledRound, BodyError, Kind, Turn};
use crate::cost::{Of, Units};
use crate::media::file::File;
use crate::media::marker::{Reason, TextOnlyOutput};
use crate::provider::Provider;
use crate::wire::{DataUrl, Image, Part, Piece, Text};

/// One input item of a round.
#[derive(Debug, Clone)]
pub(super) enum Element<'a> {
    /// One of the reply's output items, as it came.
    Item { round: usize, item: &'a RawValue },
    /// A call's result: `{"type": "function_call_output", "call_id", "output"}`, the output a
    /// string, or, with images, `input_text` and `input_image` parts.
    Output {
        round: usize,
        answer: [Answer<'a>; 1],
        kind: OutputKind,
    },
    /// What a computer call's output item cannot carry (it takes one screenshot and no
    /// text): the output's text as `Result (computer): ...`, its other images and its files,
    /// each after the line that names the call, in a user message right after the output.
    Rest { round: usize, parts: Vec<Part<'a>> },
}

/// Which output item answers a call: the one its call's item type asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum OutputKind {
    /// `function_call_output`.
    Function,
    /// `custom_tool_call_output`.
    Custom,
    /// `computer_call_output`, the output's first image as its screenshot.
    Computer,
    /// `shell_call_output`, the output as its stdout, the exit code 1 for an error, else 0.
    Shell,
    /// `local_shell_call_output`, the output as its text.
    LocalShell,
    /// `apply_patch_call_output`, `failed` for an error, else `completed`.
    ApplyPatch,
    /// `mcp_approval_response`, the runtime's approval of an MCP tool call.
    Approval,
    /// `tool_search_output`, the tool definitions a search run by the runtime loaded: the
    /// output, a JSON array, as its `tools`.
    ToolSearch,
}

/// The kind of output the call of this id asks for, from the type of the reply's item that
/// made it.
fn output_kind(items: &[Box<RawValue>], call_id: &str) -> OutputKind {
    #[derive(serde::Deserialize)]
    struct Item<'a> {
        #[serde(rename = "type", borrow)]
        kind: std::borrow::Cow<'a, str>,
        #[serde(borrow, default)]
        call_id: Option<std::borrow::Cow<'a, str>>,
        #[serde(borrow, default)]
        id: Option<std::borrow::Cow<'a, str>>,
    }
    // An approval request is answered by its own id; every other call by its `call_id`.
    let kind = items.iter().find_map(|raw| {
        serde_json::from_str::<Item<'_>>(raw.get())
            .ok()
            .filter(|item| match item.kind.as_ref() {
                "mcp_approval_request" => item.id.as_deref() == Some(call_id),
                _ => item.call_id.as_deref() == Some(call_id),
            })
            .map(|item| item.kind.into_owned())
    });
    match kind.as_deref() {
        Some("custom_tool_call") => OutputKind::Custom,
        Some("computer_call") => OutputKind::Computer,
        Some("shell_call") => OutputKind::Shell,
        Some("local_shell_call") => OutputKind::LocalShell,
        Some("apply_patch_call") => OutputKind::ApplyPatch,
        Some("mcp_approval_request") => OutputKind::Approval,
        Some("tool_search_call") => OutputKind::ToolSearch,
        Some(_) | None => OutputKind::Function,
    }
}

/// The items of the rounds, in order.
pub(super) fn elements(rounds: Vec<AssembledRound<'_>>) -> Vec<Element<'_>> {
    let mut elements = Vec::new();
    for (round, assembled) in rounds.into_iter().enumerate() {
        for item in assembled.reply.native_items() {
            elements.push(Element::Item { round, item });
        }
        let items = assembled.reply.native_items();
        for mut answer in assembled.answers {
            let kind = output_kind(items, answer.id);
            let item = match kind {
                OutputKind::Shell => Some(TextOnlyOutput::Shell),
                OutputKind::LocalShell => Some(TextOnlyOutput::LocalShell),
                OutputKind::ApplyPatch => Some(TextOnlyOutput::ApplyPatch),
                OutputKind::Function
                | OutputKind::Custom
                | OutputKind::Computer
                | OutputKind::Approval
                | OutputKind::ToolSearch => None,
            };
            if let Some(item) = item {
                // An output item of text only: what it cannot carry is the marker in its text.
                let reason = Reason::NotInOutput {
                    provider: Provider::OpenAiResponses,
                    item,
                };
                let mut markers: Vec<Piece<'_>> = answer
                    .images
                    .drain(..)
                    .map(|image| Piece::ImageNotShown {
                        media_type: image.media_type(),
                        reason,
                    })
                    .collect();
                markers.extend(answer.files.drain(..).map(|file| Piece::FileNotShown {
                    media_type: file.media_type(),
                    name: file.name(),
                    reason,
                }));
                if !markers.is_empty() {
                    answer.text.join(Text::from_pieces(markers));
                }
            }
            let rest = match kind {
                OutputKind::Computer => computer_rest(&mut answer),
                OutputKind::Function
                | OutputKind::Custom
                | OutputKind::Shell
                | OutputKind::LocalShell
                | OutputKind::ApplyPatch
                | OutputKind::Approval
                | OutputKind::ToolSearch => Vec::new(),
            };
            elements.push(Element::Output {
                round,
                answer: [answer],
                kind,
            });
            if !rest.is_empty() {
                elements.push(Element::Rest { round, parts: rest });
            }
        }
    }
    elements
}

/// Takes from a computer call's answer what its output item cannot carry: its text (unless
/// blank), as `Result ({name}): ...` (or `Error (...)`), its images after the first and its
/// files, each after the line that names the call; the answer keeps its first image.
fn computer_rest<'a>(answer: &mut Answer<'a>) -> Vec<Part<'a>> {
    let mut parts = Vec::new();
    let text = std::mem::replace(&mut answer.text, Text::from_pieces(Vec::new()));
    if !text.pieces().iter().all(Piece::is_blank) {
        let mut pieces = text.pieces().to_vec();
        // The output's own words go in the result's prose form; markers after them stay.
        if let Some(first) = pieces.first_mut() {
            if let Piece::Text(output) = *first {
                *first = Piece::ToolResult {
                    tool_name: answer.name,
                    output,
                    is_error: answer.is_error,
                };
            }
        }
        parts.push(Part::Text(Text::from_pieces(pieces)));
    }
    let id = answer.real_id.then_some(answer.id);
    let more = answer.images.len().min(1);
    for image in answer.images.split_off(more) {
        parts.push(Part::Text(Text::from_pieces(vec![Piece::ToolImage {
            name: answer.name,
            id,
        }])));
        parts.push(Part::Image(image));
    }
    for file in std::mem::take(&mut answer.files) {
        parts.push(Part::Text(Text::from_pieces(vec![Piece::ToolFile {
            name: answer.name,
            id,
        }])));
        parts.push(Part::File(file));
    }
    parts
}

impl Serialize for Element<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Element::Item { item, .. } => item.serialize(serializer),
            Element::Rest { parts, .. } => {
                let mut map = serializer.serialize_map(Some(2))?;
                map.serialize_entry("role", "user")?;
                map.serialize_entry("content", &RestParts(parts))?;
                map.end()
            }
            Element::Output { answer, kind, .. } => {
                let [answer] = answer;
                let mut map = serializer.serialize_map(None)?;
                match kind {
                    OutputKind::Function | OutputKind::Custom => {
                        let name = if *kind == OutputKind::Custom {
                            "custom_tool_call_output"
                        } else {
                            "function_call_output"
                        };
                        map.serialize_entry("type", name)?;
                        map.serialize_entry("call_id", answer.id)?;
                        if !answer.has_media() {
                            map.serialize_entry("output", &answer.text)?;
                        } else {
                            map.serialize_entry("output", &Content(answer))?;
                        }
                    }
                    OutputKind::Computer => {
                        map.serialize_entry("type", "computer_call_output")?;
                        map.serialize_entry("call_id", answer.id)?;
                        // The checks the call waited on, each acknowledged (the round is an
                        // error otherwise), as the call gave them.
                        if !answer.checks.is_empty() {
                            map.serialize_entry("acknowledged_safety_checks", answer.checks)?;
                        }
                        map.serialize_entry("output", &Screenshot(answer.images.first()))?;
                    }
                    // `{"type": "mcp_approval_response", "approval_request_id", "approve",
                    // "reason"}` (spec `MCPApprovalResponse`).
                    OutputKind::Approval => {
                        let (approve, reason) = answer.approval.unwrap_or((false, None));
                        map.serialize_entry("type", "mcp_approval_response")?;
                        map.serialize_entry("approval_request_id", answer.id)?;
                        map.serialize_entry("approve", &approve)?;
                        if let Some(reason) = reason.filter(|reason| !reason.is_empty()) {
                            map.serialize_entry("reason", reason)?;
                        }
                    }
                    // `{"type": "tool_search_output", "call_id", "execution": "client", "tools"}`
                    // (spec `ToolSearchOutputItemParam`); the body checked the output is an
                    // array (`tool_definitions`).
                    OutputKind::ToolSearch => {
                        map.serialize_entry("type", "tool_search_output")?;
                        map.serialize_entry("call_id", answer.id)?;
                        map.serialize_entry("execution", "client")?;
                        match tool_definitions(&answer.text) {
                            Some(tools) => map.serialize_entry("tools", tools)?,
                            // Withheld to fit a budget: no tools loaded.
                            None => map.serialize_entry("tools", &[(); 0])?,
                        }
                    }
                    OutputKind::Shell => {
                        map.serialize_entry("type", "shell_call_output")?;
                        map.serialize_entry("call_id", answer.id)?;
                        map.serialize_entry("output", &[ShellOutput(answer)])?;
                    }
                    OutputKind::LocalShell => {
                        map.serialize_entry("type", "local_shell_call_output")?;
                        map.serialize_entry("id", answer.id)?;
                        map.serialize_entry("call_id", answer.id)?;
                        map.serialize_entry("output", &answer.text)?;
                    }
                    OutputKind::ApplyPatch => {
                        map.serialize_entry("type", "apply_patch_call_output")?;
                        map.serialize_entry("call_id", answer.id)?;
                        let status = if answer.is_error {
                            "failed"
                        } else {
                            "completed"
                        };
                        map.serialize_entry("status", status)?;
                        map.serialize_entry("output", &answer.text)?;
                    }
                }
                map.end()
            }
        }
    }
}

/// The tool definitions an output holds: its text, when that is one JSON array.
fn tool_definitions<'a>(text: &Text<'a>) -> Option<&'a RawValue> {
    let [Piece::Text(output)] = text.pieces() else {
        return None;
    };
    let tools: &RawValue = serde_json::from_str(output).ok()?;
    tools.get().starts_with('[').then_some(tools)
}

/// Checks that each output answering a tool search the runtime ran is a JSON array of tool
/// definitions, which its `tool_search_output` carries as its `tools`.
pub(super) fn check_tool_searches(turn: &Turn<'_>) -> Result<(), BodyError> {
    for (round, assembled) in turn.rounds_given().iter().enumerate() {
        let items = assembled.reply.native_items();
        for output in assembled.outputs.iter() {
            let array = serde_json::from_str::<&RawValue>(&output.output)
                .is_ok_and(|tools| tools.get().starts_with('['));
            if !array && output_kind(items, &output.id) == OutputKind::ToolSearch {
                return Err(BodyError::new(Kind::OutputNotToolDefinitions {
                    round,
                    id: output.id.clone(),
                }));
            }
        }
    }
    Ok(())
}

/// `{"type": "computer_screenshot", "image_url": "data:..."}`: the output's first image.
struct Screenshot<'b, 'a>(Option<&'b Image<'a>>);

impl Serialize for Screenshot<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("type", "computer_screenshot")?;
        if let Some(image) = self.0 {
            map.serialize_entry("image_url", &DataUrl(image))?;
        }
        map.end()
    }
}

/// `{"stdout": text, "stderr": "", "outcome": {"type": "exit", "exit_code": 0 or 1}}`.
struct ShellOutput<'b, 'a>(&'b Answer<'a>);

impl Serialize for ShellOutput<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(serde::Serialize)]
        struct Outcome {
            #[serde(rename = "type")]
            kind: &'static str,
            exit_code: u8,
        }
        let mut map = serializer.serialize_map(Some(3))?;
        map.serialize_entry("stdout", &self.0.text)?;
        map.serialize_entry("stderr", "")?;
        map.serialize_entry(
            "outcome",
            &Outcome {
                kind: "exit",
                exit_code: u8::from(self.0.is_error),
            },
        )?;
        map.end()
    }
}

/// The parts of a user message, as the request writes them.
struct RestParts<'b, 'a>(&'b [Part<'a>]);

impl Serialize for RestParts<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(InputPart))
    }
}

/// An output with images: its text (when there is any), then each image.
struct Content<'b, 'a>(&'b Answer<'a>);

impl Serialize for Content<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let answer = self.0;
        let text = (!answer.is_blank()).then_some(&answer.text);
        serializer.collect_seq(
            text.into_iter()
                .map(ContentPart::Text)
                .chain(answer.images.iter().map(ContentPart::Image))
                .chain(answer.files.iter().map(ContentPart::File)),
        )
    }
}

enum ContentPart<'b, 'a> {
    Text(&'b Text<'a>),
    Image(&'b Image<'a>),
    /// An `input_file` (`InputFileContentParam`, which a function call's output takes).
    File(&'b File<'a>),
}

impl Serialize for ContentPart<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            ContentPart::Text(text) => {
                let mut map = serializer.serialize_map(Some(2))?;
                map.serialize_entry("type", "input_text")?;
                map.serialize_entry("text", text)?;
                map.end()
            }
            ContentPart::Image(image) => {
                let mut map = serializer.serialize_map(Some(3))?;
                map.serialize_entry("type", "input_image")?;
                map.serialize_entry("image_url", &DataUrl(image))?;
                map.serialize_entry("detail", "auto")?;
                map.end()
            }
            // As a user message carries it.
            ContentPart::File(file) => InputPart(&Part::File(**file)).serialize(serializer),
        }
    }
}

impl<'a> crate::body::RoundElement<'a> for Element<'a> {
    fn price(&'a self, units: &mut Units<'a>) {
        match self {
            Element::Item { round, item } => units.raw(Of::Round(*round), item),
            Element::Output { round, answer, .. } => units.answers(Of::Round(*round), answer, &[]),
            Element::Rest { round, parts } => units.parts(Of::Round(*round), parts),
        }
    }
}

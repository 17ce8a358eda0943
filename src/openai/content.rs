//! What a Chat Completions message carries beyond its text and calls, read the same way by the
//! whole-reply reader and the stream reader: `<think>` tags, generated audio, annotations,
//! a compatible server's top-level sources and the tools it ran itself.

use serde_json::Value;

use crate::dialects::ThinkTag;
use crate::record::Block;
use crate::reply::{self, field};

/// The tags of reasoning inside `content`, and whether the content may begin inside them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Tags {
    open: &'static str,
    close: &'static str,
    /// Whether a chat template may have opened the tag already, so that only the closing tag
    /// arrives.
    opened_before: bool,
}

/// R1-style models' `<think>…</think>`, which a chat template may open itself: Qwen3's
/// thinking templates end the prompt with `<think>`, so the reply carries only `</think>`
/// (<https://github.com/vllm-project/vllm/issues/31045>,
/// <https://github.com/vllm-project/vllm/issues/22507>).
pub(super) const THINK: Tags = Tags {
    open: "<think>",
    close: "</think>",
    opened_before: true,
};

/// Gemini's OpenAI endpoint's thought summaries, `<thought>…</thought>` at the start of
/// `content`.
pub(super) const THOUGHT: Tags = Tags {
    open: "<thought>",
    close: "</thought>",
    opened_before: false,
};

/// Whether a value is a zero value, which stands for absence: `null`, an empty string, array or
/// object, or an object whose members are all zero values (`{"name": "", "arguments": ""}`).
/// Some compatible servers fill every field a reply leaves out with zero values, in a whole
/// message and in each chunk of a stream (`"function_call": {"name": "", "arguments": ""}`,
/// `"refusal": ""`, `"tool_calls": []`, `"finish_reason": ""`, a tool call's empty `name`
/// or `type`: <https://github.com/Wei-Shaw/sub2api/pull/5632>,
/// <https://github.com/binaricat/Netcatty/pull/1690>): none of them is a call, a refusal or
/// a stop, and none goes back in the round.
pub(super) fn is_zero(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::String(text) => text.is_empty(),
        Value::Array(items) => items.is_empty(),
        Value::Object(members) => members.values().all(is_zero),
        Value::Bool(_) | Value::Number(_) => false,
    }
}

/// [`is_zero`] of a value's exact text (and so of text that is no JSON, false); a string or
/// any other scalar is judged by its text alone.
pub(super) fn is_zero_text(raw: &str) -> bool {
    let raw = raw.trim();
    match raw.as_bytes().first() {
        Some(b'[' | b'{') => serde_json::from_str::<Value>(raw).is_ok_and(|value| is_zero(&value)),
        Some(_) | None => raw == "null" || raw == "\"\"",
    }
}

/// The tags of a dialect with `think_tags`, or `None`.
pub(super) fn tags_of(provider: crate::Provider) -> Option<Tags> {
    let dialect = provider.dialect().filter(|dialect| dialect.think_tags)?;
    Some(match dialect.think_tag {
        ThinkTag::Think => THINK,
        ThinkTag::Thought => THOUGHT,
    })
}

/// Where a [`ThinkSplit`] is in the content.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Nothing but white space yet: the content may still open with the tag.
    #[default]
    Start,
    /// Content that did not open with the tag, whose tag a template may have opened: held
    /// back until a closing tag (reasoning up to it), an opening tag or the end (the
    /// answer) says which it is. `scanned` bytes of it hold neither tag.
    Opened { scanned: usize },
    /// Inside the tags; `started` once the reasoning has shown a character that is not white
    /// space.
    Thinking { started: bool },
    /// After the closing tag: white space before the answer is left out.
    After,
    /// The answer, as it comes.
    Text,
}

/// Splits `content` that may hold reasoning in tags (R1-style models on servers that parse no
/// reasoning) into the reasoning and the answer, as pieces come: the one rule the whole-reply
/// reader (which feeds it the whole content at once) and the stream reader share, so both
/// store the same blocks.
///
/// The rule: content whose first characters other than white space are the opening tag is
/// reasoning up to the closing tag (or to its end, when the tag never closes), without the
/// white space at its ends; what follows, less its leading white space, is the answer. For
/// tags a template may have opened, content with a closing tag and no opening tag before it
/// is reasoning up to that closing tag, trimmed the same way. Any other content is the
/// answer, unchanged. Streamed, content that does not open with the tag but whose tag a
/// template may have opened is held back until a closing tag, an opening tag or its end
/// decides.
#[derive(Debug)]
pub(super) struct ThinkSplit {
    tags: Tags,
    state: State,
    pending: String,
}

/// A piece of split content: reasoning, or the answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Split {
    Reasoning(String),
    Text(String),
}

impl ThinkSplit {
    /// A splitter of content by these tags.
    pub(super) fn new(tags: Tags) -> Self {
        ThinkSplit {
            tags,
            state: State::Start,
            pending: String::new(),
        }
    }

    /// Takes a piece of the content; gives what is decided.
    pub(super) fn push(&mut self, piece: &str) -> Vec<Split> {
        self.pending.push_str(piece);
        let Tags { open, close, .. } = self.tags;
        let mut out = Vec::new();
        loop {
            match self.state {
                State::Start => {
                    let trimmed = self.pending.trim_start();
                    if let Some(rest) = trimmed.strip_prefix(open) {
                        self.pending = rest.to_owned();
                        self.state = State::Thinking { started: false };
                    } else if open.starts_with(trimmed) {
                        return out;
                    } else if self.tags.opened_before {
                        self.state = State::Opened { scanned: 0 };
                    } else {
                        self.state = State::Text;
                    }
                }
                State::Opened { scanned } => {
                    // Where a tag may start that was not whole when last looked at.
                    let mut from = scanned.saturating_sub(open.len().max(close.len()));
                    while !self.pending.is_char_boundary(from) {
                        from -= 1;
                    }
                    let tail = self.pending.get(from..).unwrap_or_default();
                    let closed = tail.find(close).map(|at| at + from);
                    let opened = tail.find(open).map(|at| at + from);
                    // A closing tag with no opening one before it ends the reasoning.
                    let end = match (closed, opened) {
                        (Some(at), Some(opened)) if opened < at => None,
                        (closed, _) => closed,
                    };
                    match (end, opened) {
                        (Some(at), _) => {
                            let rest = self.pending.split_off(at);
                            let reasoning = std::mem::take(&mut self.pending);
                            push_split(&mut out, Split::Reasoning(reasoning.trim().to_owned()));
                            self.pending = rest.get(close.len()..).unwrap_or_default().to_owned();
                            self.state = State::After;
                        }
                        (None, Some(_)) => self.state = State::Text,
                        (None, None) => {
                            self.state = State::Opened {
                                scanned: self.pending.len(),
                            };
                            return out;
                        }
                    }
                }
                State::Thinking { started } => {
                    if !started {
                        let trimmed = self.pending.trim_start().len();
                        self.pending = self
                            .pending
                            .split_off(self.pending.len().saturating_sub(trimmed));
                        if self.pending.is_empty() {
                            return out;
                        }
                        self.state = State::Thinking { started: true };
                    }
                    if let Some(at) = self.pending.find(close) {
                        let rest = self.pending.split_off(at);
                        let reasoning = std::mem::take(&mut self.pending);
                        push_split(&mut out, Split::Reasoning(reasoning.trim_end().to_owned()));
                        self.pending = rest.get(close.len()..).unwrap_or_default().to_owned();
                        self.state = State::After;
                        continue;
                    }
                    // Keep back what may be white space before the closing tag, or its start.
                    let keep = held_back(&self.pending, close);
                    let kept = self.pending.split_off(self.pending.len() - keep);
                    let reasoning = std::mem::replace(&mut self.pending, kept);
                    push_split(&mut out, Split::Reasoning(reasoning));
                    return out;
                }
                State::After => {
                    let trimmed = self.pending.trim_start().len();
                    self.pending = self
                        .pending
                        .split_off(self.pending.len().saturating_sub(trimmed));
                    if self.pending.is_empty() {
                        return out;
                    }
                    self.state = State::Text;
                }
                State::Text => {
                    let text = std::mem::take(&mut self.pending);
                    push_split(&mut out, Split::Text(text));
                    return out;
                }
            }
        }
    }

    /// The content has ended: what is still held back.
    pub(super) fn finish(&mut self) -> Vec<Split> {
        let pending = std::mem::take(&mut self.pending);
        let mut out = Vec::new();
        // Whatever comes after is the answer, as it comes.
        match std::mem::replace(&mut self.state, State::Text) {
            // Content that is only the start of the opening tag, or white space, or that no
            // closing tag ended: the answer.
            State::Start | State::Opened { .. } | State::Text => {
                push_split(&mut out, Split::Text(pending));
            }
            State::Thinking { .. } => {
                push_split(&mut out, Split::Reasoning(pending.trim_end().to_owned()));
            }
            State::After => {}
        }
        out
    }

    /// Splits whole content at once.
    pub(super) fn whole(tags: Tags, content: &str) -> Vec<Split> {
        let mut split = ThinkSplit::new(tags);
        let mut out = split.push(content);
        out.extend(split.finish());
        out
    }
}

fn push_split(out: &mut Vec<Split>, split: Split) {
    match &split {
        Split::Reasoning(text) | Split::Text(text) if text.is_empty() => {}
        Split::Reasoning(_) | Split::Text(_) => out.push(split),
    }
}

/// How many bytes at the end of reasoning may be white space before the closing tag or the
/// start of the tag itself, and so cannot be given yet.
fn held_back(pending: &str, close: &str) -> usize {
    let partial_tag = (1..close.len())
        .rev()
        .find(|&len| {
            close
                .get(..len)
                .is_some_and(|prefix| pending.ends_with(prefix))
        })
        .unwrap_or(0);
    let before_tag = pending.len() - partial_tag;
    let space = pending
        .get(..before_tag)
        .map_or(0, |text| text.len() - text.trim_end().len());
    partial_tag + space
}

/// The media type of generated audio, from its first bytes: Chat Completions' reply says
/// no format (the request's `audio.format` chose it: `wav`, `mp3`, `flac`, `opus` or
/// `pcm16`). WAV (a RIFF `WAVE`), MP3, FLAC and Ogg are known by their headers; anything else is `pcm16`,
/// which has none: 16-bit little-endian samples at 24 kHz, one channel
/// (<https://platform.openai.com/docs/guides/audio>), written `audio/pcm`.
pub(super) fn audio_media_type(data: &str) -> &'static str {
    let head = crate::media::file::decode_base64(data.get(..16).unwrap_or(data));
    let starts = |signature: &[u8]| head.starts_with(signature);
    if starts(b"RIFF") && head.get(8..12) == Some(b"WAVE".as_slice()) {
        "audio/wav"
    } else if starts(b"ID3") || starts(&[0xFF, 0xFB]) || starts(&[0xFF, 0xF3]) {
        "audio/mpeg"
    } else if starts(b"fLaC") {
        "audio/flac"
    } else if starts(b"OggS") {
        "audio/ogg"
    } else {
        "audio/pcm"
    }
}

/// A reply's generated audio (`message.audio`: `{"id", "data", "transcript", "expires_at"}`)
/// as docs/design.md#content-kept stores it: its transcript as a text block, then the audio as a `file`
/// block (when it carries data).
pub(super) fn audio_blocks(transcript: &str, data: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    if !transcript.is_empty() {
        blocks.push(Block::text(transcript));
    }
    if !data.is_empty() {
        blocks.push(Block::file(audio_media_type(data), data));
    }
    blocks
}

/// Images a model generated through a compatible server (OpenRouter's and Vercel's
/// `message.images`, `[{"type": "image_url", "image_url": {"url": "data:image/png;base64,..."}}]`,
/// <https://openrouter.ai/docs/features/multimodal/image-generation>) as `image` blocks; an
/// image given only by a URL, which the record cannot hold, is the `[Not kept: ...]` marker,
/// its kind added to `not_kept`.
pub(super) fn generated_images(
    provider: crate::Provider,
    images: &[Value],
    not_kept: &mut Vec<String>,
) -> Vec<Block> {
    images
        .iter()
        .map(|image| {
            let url = field(image, &["image_url", "url"])
                .as_str()
                .or_else(|| field(image, &["url"]).as_str())
                .unwrap_or_default();
            let data = url
                .strip_prefix("data:")
                .and_then(|rest| rest.split_once(";base64,"));
            match data {
                Some((media_type, data)) => Block::image(media_type, data),
                None => {
                    not_kept.push("image_url".to_owned());
                    Block::text(crate::media::marker::not_kept(provider, "image_url"))
                }
            }
        })
        .collect()
}

/// The sources of a message's `annotations` (`{"type": "url_citation", "url_citation":
/// {"url", "title", "start_index", "end_index"}}`, and a file citation's `file_citation`),
/// one per distinct source.
pub(super) fn annotation_sources(annotations: &[Value]) -> Vec<Block> {
    let citations: Vec<Value> = annotations
        .iter()
        .map(|annotation| {
            let kind = field(annotation, &["type"]).as_str().unwrap_or_default();
            match field(annotation, &[kind]) {
                Value::Object(inner) => Value::Object(inner.clone()),
                Value::Null
                | Value::Bool(_)
                | Value::Number(_)
                | Value::String(_)
                | Value::Array(_) => annotation.clone(),
            }
        })
        .collect();
    reply::sources(&citations, &["url"], &["title", "filename"], &[])
}

/// The sources a compatible server gives beside the choices (Perplexity): `search_results`
/// (`{"title", "url", "date"}`), then each of `citations` (URLs) that no search result
/// names.
pub(super) fn top_level_sources(citations: &Value, search_results: &Value) -> Vec<Block> {
    let mut all: Vec<Value> = search_results.as_array().cloned().unwrap_or_default();
    for url in citations.as_array().into_iter().flatten() {
        let known = all.iter().any(|result| field(result, &["url"]) == url);
        if url.is_string() && !known {
            all.push(serde_json::json!({ "url": url }));
        }
    }
    reply::sources(&all, &["url"], &["title"], &[])
}

/// Groq's `executed_tools` (the tools `groq/compound` ran itself: `{"index", "type",
/// "arguments", "output", "search_results": {"results": [{"title", "url"}]}}`) as
/// provider-executed calls and their results (docs/design.md#provider-executed-tools): the call named after its type,
/// its arguments as the input, the result its search results one a line as `{title} <{url}>`,
/// or its output. The calls get made ids (Groq gives none; they are never sent back), the
/// first the reply's call `first` ([`made_id`](reply::made_id)).
pub(super) fn executed_tool_blocks(tools: &[Value], first: usize) -> Vec<Block> {
    (tools.iter().enumerate())
        .flat_map(|(index, tool)| executed_tool(tool, first + index))
        .collect()
}

/// One of Groq's `executed_tools`, the reply's call `k`: its call and its result.
pub(super) fn executed_tool(tool: &Value, k: usize) -> [Block; 2] {
    let name = field(tool, &["type"]).as_str().unwrap_or("tool");
    let id = reply::made_id(0, k);
    let input = match field(tool, &["arguments"]) {
        Value::String(arguments) => arguments.clone(),
        Value::Null => "{}".to_owned(),
        other => other.to_string(),
    };
    let results: Vec<String> = field(tool, &["search_results", "results"])
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|result| {
            reply::source_line(
                field(result, &["url"]).as_str(),
                field(result, &["title"]).as_str(),
            )
        })
        .collect();
    let output = match (results.is_empty(), field(tool, &["output"])) {
        (false, _) => results.join("\n"),
        (true, Value::String(output)) => output.clone(),
        (true, Value::Null) => String::new(),
        (true, other) => other.to_string(),
    };
    [
        Block::provider_tool_use(id.clone(), name, crate::record::ToolInput::from(input)),
        Block::tool_result(id, name, output),
    ]
}

#[cfg(test)]
mod tests {
    use super::{Split, ThinkSplit, THINK, THOUGHT};

    /// The stream's splits, joined per kind, equal the whole content's, however it is cut.
    #[test]
    fn think_tags_split_alike_in_any_pieces() {
        let cases = [
            "<think>\nweighing it\n</think>\n\nNo.",
            "  <think>a</think>b",
            "<think>unclosed",
            "<thi",
            "plain <think>text</think>",
            "<think></think>",
            "<think>a </thi nk> b</think> c",
            "",
            "opened by the template\n</think>\n\nNo.",
            "</think>",
            "a </thi nk> b</think> c",
            "plain </thin",
            "é </think> ü </think>",
        ];
        let thought = [
            "<thought>\nweighing it\n</thought>\n\nNo.",
            "<thought>unclosed",
            "<thou",
            "not opened </thought> No.",
        ];
        let cases = cases.map(|content| (THINK, content));
        for (tags, content) in cases.into_iter().chain(thought.map(|c| (THOUGHT, c))) {
            let whole = joined(ThinkSplit::whole(tags, content));
            for cut in 1..=content.len().max(1) {
                let mut split = ThinkSplit::new(tags);
                let mut pieces = Vec::new();
                let mut rest = content;
                while !rest.is_empty() {
                    let at = (1..=cut.min(rest.len()))
                        .rev()
                        .find(|&at| rest.is_char_boundary(at))
                        .unwrap_or(rest.len());
                    let (piece, tail) = rest.split_at(at);
                    pieces.extend(split.push(piece));
                    rest = tail;
                }
                pieces.extend(split.finish());
                assert_eq!(joined(pieces), whole, "{content:?} in pieces of {cut}");
            }
        }
        assert_eq!(
            ThinkSplit::whole(THINK, "<think>\nweighing it\n</think>\n\nNo."),
            [
                Split::Reasoning("weighing it".into()),
                Split::Text("No.".into())
            ]
        );
        assert_eq!(
            ThinkSplit::whole(THINK, "plain <think>"),
            [Split::Text("plain <think>".into())]
        );
        assert_eq!(
            ThinkSplit::whole(THOUGHT, "not opened </thought> No."),
            [Split::Text("not opened </thought> No.".into())]
        );
        assert_eq!(
            ThinkSplit::whole(THINK, "weighing it\n</think>\n\nNo."),
            [
                Split::Reasoning("weighing it".into()),
                Split::Text("No.".into())
            ]
        );
    }

    fn joined(splits: Vec<Split>) -> Vec<Split> {
        let mut out: Vec<Split> = Vec::new();
        for split in splits {
            match (out.last_mut(), split) {
                (Some(Split::Reasoning(last)), Split::Reasoning(text))
                | (Some(Split::Text(last)), Split::Text(text)) => last.push_str(&text),
                (_, split) => out.push(split),
            }
        }
        out
    }
}

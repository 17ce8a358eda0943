//! Server-sent events, as OpenAI, Anthropic and Gemini (`?alt=sse`) stream their replies:
//! bytes in, in chunks split anywhere, events out.
//!
//! The framing is the WHATWG one (<https://html.spec.whatwg.org/multipage/server-sent-events.html>):
//! lines end in CRLF, LF or CR; `data:` lines of one event join with `\n`; one space after the
//! colon is not part of the value; `:` comments, `id` and `retry` are ignored; a blank line
//! ends the event, and an event without data is not dispatched; an initial byte-order mark is
//! skipped. Two choices of the crate's: at the end of the bytes, a last event not yet closed
//! by a blank line counts as closed (a server that closes the connection right after its last
//! event loses nothing), and a line that is no field the format knows is handed on as it is
//! (Gemini sends a JSON error object outside `data:` mid-stream).

use super::{Fault, Frame};

/// The byte-order mark a stream may begin with.
const BOM: &str = "\u{feff}";

/// A reader of server-sent events, fed bytes as they arrive.
#[derive(Debug, Default)]
pub(crate) struct Sse {
    /// The bytes of a line not yet ended.
    line: Vec<u8>,
    /// Whether the last byte seen was a CR, so that an LF right after it ends nothing.
    after_cr: bool,
    /// How many bytes came before the first one not yet read.
    offset: usize,
    /// Where the line being gathered starts.
    line_start: usize,
    /// Whether a line has been read yet (the byte-order mark can only begin the first).
    started: bool,
    /// The event being gathered: its name, its data, whether it has any, and where it starts.
    name: String,
    data: String,
    has_data: bool,
    event_start: Option<usize>,
}

impl Sse {
    /// Reads a chunk, handing each frame (and the offset where it starts) to `sink`.
    pub(crate) fn feed(
        &mut self,
        chunk: &[u8],
        sink: &mut dyn FnMut(Frame<'_>, usize) -> Result<(), Fault>,
    ) -> Result<(), (Fault, usize)> {
        let mut rest = chunk;
        if self.after_cr {
            if let Some((b'\n', after)) = rest.split_first() {
                rest = after;
                self.offset += 1;
                self.line_start = self.offset;
            }
            self.after_cr = false;
        }
        while let Some(end) = rest.iter().position(|&byte| byte == b'\n' || byte == b'\r') {
            let (line, after) = rest.split_at(end);
            let (&terminator, after) = after.split_first().unwrap_or((&b'\n', after));
            let start = self.line_start;
            if self.line.is_empty() {
                self.line_ended(line, start, sink)?;
            } else {
                self.line.extend_from_slice(line);
                let line = std::mem::take(&mut self.line);
                self.line_ended(&line, start, sink)?;
            }
            self.offset += end + 1;
            rest = after;
            if terminator == b'\r' {
                match rest.split_first() {
                    Some((b'\n', after)) => {
                        rest = after;
                        self.offset += 1;
                    }
                    Some(_) => {}
                    None => self.after_cr = true,
                }
            }
            self.line_start = self.offset;
        }
        self.line.extend_from_slice(rest);
        self.offset += rest.len();
        Ok(())
    }

    /// Reads what is left at the end of the bytes: a last line without its end, and a last
    /// event without its blank line.
    pub(crate) fn finish(
        &mut self,
        sink: &mut dyn FnMut(Frame<'_>, usize) -> Result<(), Fault>,
    ) -> Result<(), (Fault, usize)> {
        // A last event the bytes did not end (no blank line after it) is read all the same,
        // for servers that leave the blank line out; when it cannot be read, the connection
        // dropped inside it: a cut, not a bad event.
        let unterminated = !self.line.is_empty() || self.has_data;
        let read = (|| {
            if !self.line.is_empty() {
                let line = std::mem::take(&mut self.line);
                self.line_ended(&line, self.line_start, sink)?;
            }
            self.dispatch(sink)
        })();
        match read {
            Err((Fault::Json(_) | Fault::Content(_), offset)) if unterminated => {
                let what = "the stream ended inside an event".to_owned();
                Err((Fault::CutInEvent(what), offset))
            }
            read => read,
        }
    }

    /// How many bytes have been read.
    pub(crate) fn offset(&self) -> usize {
        self.offset
    }

    fn line_ended(
        &mut self,
        line: &[u8],
        start: usize,
        sink: &mut dyn FnMut(Frame<'_>, usize) -> Result<(), Fault>,
    ) -> Result<(), (Fault, usize)> {
        let line = std::str::from_utf8(line).map_err(|error| {
            (
                Fault::Frame("the stream is not UTF-8".to_owned()),
                start + error.valid_up_to(),
            )
        })?;
        let line = if self.started {
            line
        } else {
            self.started = true;
            line.strip_prefix(BOM).unwrap_or(line)
        };
        if line.is_empty() {
            return self.dispatch(sink);
        }
        if line.starts_with(':') {
            return Ok(());
        }
        let (field, value) = match line.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (line, ""),
        };
        match field {
            "data" => {
                self.event_start.get_or_insert(start);
                if self.has_data {
                    self.data.push('\n');
                }
                self.data.push_str(value);
                self.has_data = true;
            }
            "event" => {
                self.event_start.get_or_insert(start);
                value.clone_into(&mut self.name);
            }
            "id" | "retry" => {}
            _ => sink(Frame::Line(line), start).map_err(|failure| (failure, start))?,
        }
        Ok(())
    }

    fn dispatch(
        &mut self,
        sink: &mut dyn FnMut(Frame<'_>, usize) -> Result<(), Fault>,
    ) -> Result<(), (Fault, usize)> {
        let start = self.event_start.take().unwrap_or(self.offset);
        if self.has_data {
            self.has_data = false;
            let frame = Frame::Event {
                name: &self.name,
                data: &self.data,
            };
            let sent = sink(frame, start);
            self.name.clear();
            self.data.clear();
            sent.map_err(|failure| (failure, start))?;
        } else {
            self.name.clear();
        }
        Ok(())
    }
}

//! The AWS event-stream encoding, as Bedrock's `ConverseStream` sends its reply
//! (`application/vnd.amazon.eventstream`): bytes in, in chunks split anywhere, frames out.
//!
//! A frame is its total length (u32, big-endian), its headers' length (u32), a CRC-32 of those
//! eight bytes, the headers, the payload, and a CRC-32 of everything before it
//! (<https://docs.aws.amazon.com/lexv2/latest/dg/event-stream-encoding.html>). Both CRCs are
//! checked, so a truncated or damaged frame is an error rather than a short answer; the
//! prelude's is checked before the frame's length is trusted. A header is its name's length
//! (u8), the name, a type (u8) and a value; `:message-type` says whether the frame is an
//! `event` (named by `:event-type`), an `exception` (named by `:exception-type`) or an
//! `error` (`:error-code`, `:error-message`).

use super::{Fault, Frame};

/// The bytes of a prelude (two lengths and their CRC) and of the message CRC.
const PRELUDE: usize = 12;
const MESSAGE_CRC: usize = 4;

/// The longest frame the encoding allows: 16 MB of payload and 128 KB of headers, with the
/// prelude and CRC.
const MAX_FRAME: usize = 16 * 1024 * 1024 + 128 * 1024 + PRELUDE + MESSAGE_CRC;

/// A reader of event-stream frames, fed bytes as they arrive.
#[derive(Debug, Default)]
pub(crate) struct EventStream {
    /// Bytes read and not yet part of a whole frame, from `start` on.
    buffer: Vec<u8>,
    start: usize,
    /// How many bytes came before `buffer[start]`.
    offset: usize,
}

impl EventStream {
    /// Reads a chunk, handing each whole frame (and the offset where it starts) to `sink`.
    pub(crate) fn feed(
        &mut self,
        mut chunk: &[u8],
        sink: &mut dyn FnMut(Frame<'_>, usize) -> Result<(), Fault>,
    ) -> Result<(), (Fault, usize)> {
        // Whole frames straight from the chunk while nothing waits in the buffer.
        if self.buffer.len() == self.start {
            self.buffer.clear();
            self.start = 0;
            while let Some(length) =
                frame_length(chunk).map_err(|failure| (failure, self.offset))?
            {
                let (Some(frame), Some(rest)) = (chunk.get(..length), chunk.get(length..)) else {
                    break;
                };
                read_frame(frame, self.offset, sink)?;
                self.offset += length;
                chunk = rest;
            }
        }
        self.buffer.extend_from_slice(chunk);
        loop {
            let pending = self.buffer.get(self.start..).unwrap_or_default();
            let Some(length) = frame_length(pending).map_err(|failure| (failure, self.offset))?
            else {
                break;
            };
            let Some(frame) = pending.get(..length) else {
                break;
            };
            read_frame(frame, self.offset, sink)?;
            self.start += length;
            self.offset += length;
        }
        // Keep the buffer from growing with frames already read.
        if self.start > 0 && self.start * 2 >= self.buffer.len() {
            self.buffer.drain(..self.start);
            self.start = 0;
        }
        Ok(())
    }

    /// Says whether the bytes ended inside a frame.
    pub(crate) fn finish(&mut self) -> Result<(), (Fault, usize)> {
        match self.buffer.len() - self.start {
            0 => Ok(()),
            left => Err((
                Fault::CutInEvent(format!(
                    "the stream ends inside a frame, {left} bytes into it"
                )),
                self.offset,
            )),
        }
    }

    /// How many bytes have been read into whole frames.
    pub(crate) fn offset(&self) -> usize {
        self.offset
    }
}

/// The length of the frame at the start of `bytes`, once its prelude is there and checked;
/// `None` until then.
fn frame_length(bytes: &[u8]) -> Result<Option<usize>, Fault> {
    let (Some(total), Some(headers), Some(crc), Some(prelude)) = (
        be_u32(bytes, 0),
        be_u32(bytes, 4),
        be_u32(bytes, 8),
        bytes.get(..8),
    ) else {
        return Ok(None);
    };
    if crc32(prelude) != crc {
        return Err(Fault::Frame(format!(
            "the prelude's CRC is {crc:#010x}, and its bytes give {:#010x}",
            crc32(prelude)
        )));
    }
    let (total, headers) = (total as usize, headers as usize);
    if total < PRELUDE + MESSAGE_CRC + headers || total > MAX_FRAME {
        return Err(Fault::Frame(format!(
            "a frame of {total} bytes with {headers} bytes of headers is no frame the encoding allows"
        )));
    }
    Ok(Some(total))
}

/// Checks a whole frame and hands it on.
fn read_frame(
    frame: &[u8],
    offset: usize,
    sink: &mut dyn FnMut(Frame<'_>, usize) -> Result<(), Fault>,
) -> Result<(), (Fault, usize)> {
    let fail = |what: String| (Fault::Frame(what), offset);
    let body_end = frame.len() - MESSAGE_CRC;
    let crc = be_u32(frame, body_end).unwrap_or_default();
    let body = frame.get(..body_end).unwrap_or_default();
    if crc32(body) != crc {
        return Err(fail(format!(
            "the frame's CRC is {crc:#010x}, and its bytes give {:#010x}",
            crc32(body)
        )));
    }
    let headers_len = be_u32(frame, 4).unwrap_or_default() as usize;
    let headers = frame
        .get(PRELUDE..PRELUDE + headers_len)
        .unwrap_or_default();
    let payload = frame
        .get(PRELUDE + headers_len..body_end)
        .unwrap_or_default();
    let headers = Headers::read(headers).map_err(fail)?;
    let payload =
        std::str::from_utf8(payload).map_err(|_| fail("the payload is not UTF-8".to_owned()))?;
    let frame = match headers.get(":message-type").unwrap_or("event") {
        "event" => Frame::Event {
            name: headers.get(":event-type").unwrap_or_default(),
            data: payload,
        },
        "exception" => Frame::Exception {
            name: headers.get(":exception-type").unwrap_or_default(),
            data: payload,
        },
        "error" => Frame::Error {
            code: headers.get(":error-code").unwrap_or_default(),
            message: headers.get(":error-message").unwrap_or_default(),
        },
        other => {
            return Err(fail(format!(
                "a frame of the unknown message type {other:?}"
            )));
        }
    };
    sink(frame, offset).map_err(|failure| (failure, offset))
}

/// A frame's string headers, by name.
struct Headers<'a>(Vec<(&'a str, &'a str)>);

impl<'a> Headers<'a> {
    fn read(mut bytes: &'a [u8]) -> Result<Self, String> {
        let short = || "a header is cut short".to_owned();
        let mut headers = Vec::new();
        while let Some((&name_len, rest)) = bytes.split_first() {
            let name = rest.get(..usize::from(name_len)).ok_or_else(short)?;
            let rest = rest.get(usize::from(name_len)..).ok_or_else(short)?;
            let (&kind, rest) = rest.split_first().ok_or_else(short)?;
            let (value, rest) = match kind {
                0 | 1 => (None, rest),
                2 => (None, rest.get(1..).ok_or_else(short)?),
                3 => (None, rest.get(2..).ok_or_else(short)?),
                4 => (None, rest.get(4..).ok_or_else(short)?),
                5 | 8 => (None, rest.get(8..).ok_or_else(short)?),
                9 => (None, rest.get(16..).ok_or_else(short)?),
                6 | 7 => {
                    let len = usize::from(u16::from_be_bytes(
                        rest.get(..2)
                            .and_then(|len| len.try_into().ok())
                            .ok_or_else(short)?,
                    ));
                    let value = rest.get(2..2 + len).ok_or_else(short)?;
                    (
                        (kind == 7).then_some(value),
                        rest.get(2 + len..).ok_or_else(short)?,
                    )
                }
                other => return Err(format!("a header of the unknown type {other}")),
            };
            let name =
                std::str::from_utf8(name).map_err(|_| "a header's name is not UTF-8".to_owned())?;
            if let Some(value) = value {
                let value = std::str::from_utf8(value)
                    .map_err(|_| format!("the header {name} is not UTF-8"))?;
                headers.push((name, value));
            }
            bytes = rest;
        }
        Ok(Headers(headers))
    }

    fn get(&self, name: &str) -> Option<&'a str> {
        self.0
            .iter()
            .find(|(key, _)| *key == name)
            .map(|&(_, value)| value)
    }
}

fn be_u32(bytes: &[u8], at: usize) -> Option<u32> {
    bytes
        .get(at..at + 4)
        .and_then(|word| word.try_into().ok())
        .map(u32::from_be_bytes)
}

/// CRC-32/ISO-HDLC (the CRC of zlib, PNG and Ethernet): reflected polynomial 0xEDB88320,
/// initial value and final XOR 0xFFFFFFFF. Eight bytes a step, by eight tables (the
/// slicing-by-8 method), so that checking a frame costs little beside parsing its payload.
pub(crate) fn crc32(bytes: &[u8]) -> u32 {
    let table = |k: usize, index: u32| -> u32 {
        CRC_TABLES
            .get(k)
            .and_then(|table| table.get((index & 0xff) as usize))
            .copied()
            .unwrap_or_default()
    };
    let mut crc = !0u32;
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        let (low, high) = word.split_at(4);
        let low = u32::from_le_bytes(low.try_into().unwrap_or_default()) ^ crc;
        let high = u32::from_le_bytes(high.try_into().unwrap_or_default());
        crc = table(7, low)
            ^ table(6, low >> 8)
            ^ table(5, low >> 16)
            ^ table(4, low >> 24)
            ^ table(3, high)
            ^ table(2, high >> 8)
            ^ table(1, high >> 16)
            ^ table(0, high >> 24);
    }
    for &byte in words.remainder() {
        crc = (crc >> 8) ^ table(0, crc ^ u32::from(byte));
    }
    !crc
}

/// The eight tables: the first is the byte-at-a-time table, and each next one the first
/// advanced by one more zero byte.
// A const block cannot call `get_mut` on the crate's minimum Rust version; every index is
// below its bound.
#[allow(clippy::indexing_slicing)]
const CRC_TABLES: [[u32; 256]; 8] = {
    let mut tables = [[0u32; 256]; 8];
    let mut n = 0;
    while n < 256 {
        let mut crc = n as u32;
        let mut bit = 0;
        while bit < 8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
            bit += 1;
        }
        tables[0][n] = crc;
        n += 1;
    }
    let mut k = 1;
    while k < 8 {
        let mut n = 0;
        while n < 256 {
            let previous = tables[k - 1][n];
            tables[k][n] = (previous >> 8) ^ tables[0][(previous & 0xff) as usize];
            n += 1;
        }
        k += 1;
    }
    tables
};

#[cfg(test)]
// A test may panic: that is how it fails.
#[allow(clippy::indexing_slicing)]
mod tests {
    use super::*;

    #[test]
    fn the_crc_is_crc_32_iso_hdlc() {
        // The check value of the CRC catalogue, and the empty input.
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
        // Eight bytes a step gives what one byte a step gives, at every length.
        let bytes: Vec<u8> = (0..200u32).map(|n| (n * 7 + 3) as u8).collect();
        for end in 0..bytes.len() {
            let slow = !bytes[..end].iter().fold(!0u32, |crc, &byte| {
                (crc >> 8) ^ CRC_TABLES[0][usize::from((crc as u8) ^ byte)]
            });
            assert_eq!(crc32(&bytes[..end]), slow, "{end} bytes");
        }
    }
}

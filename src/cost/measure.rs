//! Counting a body's bytes, and each unit's, in one pass through its own serializer.

use std::cell::{Cell, RefCell};
use std::io;
use std::rc::Rc;

use serde::Serialize;

/// The keys of a body's system text, whose value is one unit.
const SYSTEM_KEYS: [&str; 3] = ["system", "systemInstruction", "instructions"];

/// The keys of a body's list of turns, each element of which is one unit.
const TURN_KEYS: [&str; 3] = ["messages", "contents", "input"];

/// Measures a body in one pass through its own serializer, counting bytes as they are
/// written and never keeping them: the total, and the bytes of each unit (the system text's
/// value, then each element of the list of turns).
pub(super) fn measure(value: &(impl Serialize + ?Sized)) -> (usize, Vec<usize>) {
    let position = Rc::new(Cell::new(0));
    let units = Rc::new(RefCell::new(Vec::new()));
    let writer = Counter(Rc::clone(&position));
    let formatter = Measuring {
        position: Rc::clone(&position),
        depth: 0,
        key: String::new(),
        in_key: false,
        list: false,
        start: 0,
        units: Rc::clone(&units),
    };
    let mut serializer = serde_json::Serializer::with_formatter(writer, formatter);
    // A counter never fails to write, and the crate's values always serialize.
    let _ = value.serialize(&mut serializer);
    drop(serializer);
    let units = units.take();
    (position.get(), units)
}

/// A writer that only counts, into a position the formatter reads.
struct Counter(Rc<Cell<usize>>);

impl io::Write for Counter {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0.set(self.0.get() + bytes.len());
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// serde_json's compact format, byte for byte, that notes where each unit starts and ends.
struct Measuring {
    position: Rc<Cell<usize>>,
    /// How deep in objects and arrays the writer is: 1 inside the body's own object.
    depth: usize,
    /// The key of the body's field being written, and whether it is being written.
    key: String,
    in_key: bool,
    /// Whether the body's list of turns is being written.
    list: bool,
    start: usize,
    units: Rc<RefCell<Vec<usize>>>,
}

impl serde_json::ser::Formatter for Measuring {
    fn begin_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.depth += 1;
        writer.write_all(b"[")
    }

    fn end_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.depth -= 1;
        writer.write_all(b"]")
    }

    fn begin_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.depth += 1;
        writer.write_all(b"{")
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.depth -= 1;
        writer.write_all(b"}")
    }

    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if !first {
            writer.write_all(b",")?;
        }
        if self.list && self.depth == 2 {
            self.start = self.position.get();
        }
        Ok(())
    }

    fn end_array_value<W: ?Sized + io::Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        if self.list && self.depth == 2 {
            self.units
                .borrow_mut()
                .push(self.position.get() - self.start);
        }
        Ok(())
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if self.depth == 1 {
            self.key.clear();
            self.in_key = true;
        }
        if first {
            Ok(())
        } else {
            writer.write_all(b",")
        }
    }

    fn end_object_key<W: ?Sized + io::Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        self.in_key = false;
        Ok(())
    }

    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        if self.in_key {
            self.key.push_str(fragment);
        }
        writer.write_all(fragment.as_bytes())
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b":")?;
        if self.depth == 1 {
            self.list = TURN_KEYS.contains(&self.key.as_str());
            self.start = self.position.get();
        }
        Ok(())
    }

    fn end_object_value<W: ?Sized + io::Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        if self.depth == 1 {
            if SYSTEM_KEYS.contains(&self.key.as_str()) {
                self.units
                    .borrow_mut()
                    .push(self.position.get() - self.start);
            }
            self.list = false;
        }
        Ok(())
    }
}

//! Counting a body's bytes, and each unit's, in one pass through its own serializer.

use std::cell::{Cell, RefCell};
use std::io;
use std::rc::Rc;

use serde::Serialize;

use super::Slot;

/// Measures a body in one pass through its own serializer, counting bytes as they are
/// written and never keeping them: the total, and the bytes of each of `count` units, found by
/// `slots` (a top-level key whose value is one unit, or adds to one; a key whose list's
/// elements are units from an index on).
pub(super) fn measure(
    value: &(impl Serialize + ?Sized),
    slots: &[(&str, Slot)],
    count: usize,
) -> (usize, Vec<usize>) {
    let position = Rc::new(Cell::new(0));
    let units = Rc::new(RefCell::new(vec![0; count]));
    let writer = Counter(Rc::clone(&position));
    let formatter = Measuring {
        position: Rc::clone(&position),
        slots,
        depth: 0,
        key: String::new(),
        in_key: false,
        slot: None,
        element: 0,
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
struct Measuring<'s> {
    position: Rc<Cell<usize>>,
    slots: &'s [(&'s str, Slot)],
    /// How deep in objects and arrays the writer is: 1 inside the body's own object.
    depth: usize,
    /// The key of the body's field being written, and whether it is being written.
    key: String,
    in_key: bool,
    /// Where the field being written goes, when it is measured.
    slot: Option<Slot>,
    /// The index of the element of a list being written.
    element: usize,
    start: usize,
    units: Rc<RefCell<Vec<usize>>>,
}

impl Measuring<'_> {
    fn add(&self, unit: usize, bytes: usize) {
        if let Some(total) = self.units.borrow_mut().get_mut(unit) {
            *total += bytes;
        }
    }
}

impl serde_json::ser::Formatter for Measuring<'_> {
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
        if let (Some(Slot::List(_)), 2) = (self.slot, self.depth) {
            self.start = self.position.get();
        }
        Ok(())
    }

    fn end_array_value<W: ?Sized + io::Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        if let (Some(Slot::List(first)), 2) = (self.slot, self.depth) {
            self.add(first + self.element, self.position.get() - self.start);
            self.element += 1;
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
            self.slot = self
                .slots
                .iter()
                .find(|(key, _)| *key == self.key)
                .map(|&(_, slot)| slot);
            self.element = 0;
            self.start = self.position.get();
        }
        Ok(())
    }

    fn end_object_value<W: ?Sized + io::Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        if self.depth == 1 {
            if let Some(Slot::Whole(unit)) = self.slot {
                self.add(unit, self.position.get() - self.start);
            }
            self.slot = None;
        }
        Ok(())
    }
}

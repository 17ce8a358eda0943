//! The crate's own JSON writer: the bytes `serde_json::to_vec` gives for the same value, byte
//! for byte, written faster.
//!
//! A body is mostly long strings (prose, tool output, base64 image data), and serde_json
//! scans a string for characters to escape one byte at a time. This writer finds every quote,
//! backslash and control character of a block of 64 bytes at once (eight words, one bit a
//! byte), copies the runs between them 32 bytes at a time, and looks each escape up in a
//! table; an image's checked base64 it copies without a test ([`Unescaped`]); it writes
//! integers without a formatter. Everything else is serde_json's compact format, and anything
//! this writer does not write itself (a map key that is not a string, an error from a value's
//! own `Serialize`) makes it start over with `serde_json::to_writer`, so its output, and its
//! error, are serde_json's by construction.

use std::fmt;

use serde::ser::{self, Serialize};

mod compact;
mod string;

pub use compact::CompactJson;

pub(crate) use string::{copy_escaping, first_escape, AtStop, Step, Stopped};
use string::{escaped, string};

/// Appends the JSON of `value` to `out`: what `serde_json::to_writer` would append. On an
/// error, `out` is as it was.
pub(crate) fn write<T: Serialize + ?Sized>(
    value: &T,
    out: &mut Vec<u8>,
) -> Result<(), serde_json::Error> {
    let start = out.len();
    if value.serialize(&mut Writer { out: &mut *out }).is_ok() {
        return Ok(());
    }
    out.truncate(start);
    serde_json::to_writer(&mut *out, value).inspect_err(|_| out.truncate(start))
}

/// Why the writer stopped: something it leaves to serde_json.
#[derive(Debug)]
pub(crate) struct Fallback;

impl fmt::Display for Fallback {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("left to serde_json")
    }
}

impl std::error::Error for Fallback {}

impl ser::Error for Fallback {
    fn custom<T: fmt::Display>(_: T) -> Self {
        Fallback
    }
}

/// The name an [`Unescaped`] string serializes as: a newtype struct, which serde_json writes
/// as the string inside it, and this writer writes without scanning it.
const UNESCAPED: &str = "$transcript_replay::Unescaped";

/// A string known to hold nothing that JSON escapes (no quote, backslash or control
/// character): an image's checked base64 data, or a data URL of it with its checked media
/// type. serde_json writes it as the string it is; this writer copies it without scanning.
/// Only an image that replay or a round has checked ([`unseen`](crate::replay::unseen)) is
/// ever wrapped, and the equality tests (`conformance/tests/conformance/json_writer.rs`) write every
/// body both ways.
pub(crate) struct Unescaped<T>(pub(crate) T);

impl<T: fmt::Display> Serialize for Unescaped<T> {
    fn serialize<S: ser::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_newtype_struct(UNESCAPED, &Collected(&self.0))
    }
}

/// A displayed value, serialized as the string it displays.
struct Collected<'t, T>(&'t T);

impl<T: fmt::Display> Serialize for Collected<'_, T> {
    fn serialize<S: ser::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self.0)
    }
}

/// The name serde_json's `RawValue` serializes as, whose one field is JSON text to write as
/// it is.
const RAW_VALUE: &str = "$serde_json::private::RawValue";

/// Writes an unsigned integer in decimal, as serde_json (by `itoa`) writes it.
fn unsigned(out: &mut Vec<u8>, mut value: u64) {
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    loop {
        start -= 1;
        if let Some(digit) = digits.get_mut(start) {
            // A digit: `value % 10` is below 10.
            *digit = b'0' + (value % 10) as u8;
        }
        value /= 10;
        if value == 0 {
            break;
        }
    }
    out.extend_from_slice(digits.get(start..).unwrap_or_default());
}

fn signed(out: &mut Vec<u8>, value: i64) {
    if value < 0 {
        out.push(b'-');
    }
    unsigned(out, value.unsigned_abs());
}

/// The writer, as a serde serializer.
struct Writer<'o> {
    out: &'o mut Vec<u8>,
}

/// A string written through `fmt::Write`, escaped as it comes.
struct Escaping<'o>(&'o mut Vec<u8>);

impl fmt::Write for Escaping<'_> {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        escaped(self.0, text.as_bytes());
        Ok(())
    }
}

impl<'a, 'o> ser::Serializer for &'a mut Writer<'o> {
    type Ok = ();
    type Error = Fallback;
    type SerializeSeq = Compound<'a, 'o>;
    type SerializeTuple = Compound<'a, 'o>;
    type SerializeTupleStruct = Compound<'a, 'o>;
    type SerializeTupleVariant = Compound<'a, 'o>;
    type SerializeMap = Compound<'a, 'o>;
    type SerializeStruct = Compound<'a, 'o>;
    type SerializeStructVariant = Compound<'a, 'o>;

    fn serialize_bool(self, value: bool) -> Result<(), Fallback> {
        self.out
            .extend_from_slice(if value { b"true" } else { b"false" });
        Ok(())
    }

    fn serialize_i8(self, value: i8) -> Result<(), Fallback> {
        signed(self.out, i64::from(value));
        Ok(())
    }

    fn serialize_i16(self, value: i16) -> Result<(), Fallback> {
        signed(self.out, i64::from(value));
        Ok(())
    }

    fn serialize_i32(self, value: i32) -> Result<(), Fallback> {
        signed(self.out, i64::from(value));
        Ok(())
    }

    fn serialize_i64(self, value: i64) -> Result<(), Fallback> {
        signed(self.out, value);
        Ok(())
    }

    fn serialize_i128(self, value: i128) -> Result<(), Fallback> {
        self.out.extend_from_slice(value.to_string().as_bytes());
        Ok(())
    }

    fn serialize_u8(self, value: u8) -> Result<(), Fallback> {
        unsigned(self.out, u64::from(value));
        Ok(())
    }

    fn serialize_u16(self, value: u16) -> Result<(), Fallback> {
        unsigned(self.out, u64::from(value));
        Ok(())
    }

    fn serialize_u32(self, value: u32) -> Result<(), Fallback> {
        unsigned(self.out, u64::from(value));
        Ok(())
    }

    fn serialize_u64(self, value: u64) -> Result<(), Fallback> {
        unsigned(self.out, value);
        Ok(())
    }

    fn serialize_u128(self, value: u128) -> Result<(), Fallback> {
        self.out.extend_from_slice(value.to_string().as_bytes());
        Ok(())
    }

    fn serialize_f32(self, value: f32) -> Result<(), Fallback> {
        // serde_json's own spelling of floating-point numbers (and `null` for the rest).
        serde_json::to_writer(&mut *self.out, &value).map_err(|_| Fallback)
    }

    fn serialize_f64(self, value: f64) -> Result<(), Fallback> {
        serde_json::to_writer(&mut *self.out, &value).map_err(|_| Fallback)
    }

    fn serialize_char(self, value: char) -> Result<(), Fallback> {
        string(self.out, value.encode_utf8(&mut [0; 4]));
        Ok(())
    }

    fn serialize_str(self, value: &str) -> Result<(), Fallback> {
        string(self.out, value);
        Ok(())
    }

    fn serialize_bytes(self, value: &[u8]) -> Result<(), Fallback> {
        self.out.push(b'[');
        for (index, &byte) in value.iter().enumerate() {
            if index > 0 {
                self.out.push(b',');
            }
            unsigned(self.out, u64::from(byte));
        }
        self.out.push(b']');
        Ok(())
    }

    fn serialize_none(self) -> Result<(), Fallback> {
        self.serialize_unit()
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Fallback> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), Fallback> {
        self.out.extend_from_slice(b"null");
        Ok(())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Fallback> {
        self.serialize_unit()
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), Fallback> {
        self.serialize_str(variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<(), Fallback> {
        if name == UNESCAPED {
            return value.serialize(Copied(self));
        }
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Fallback> {
        self.out.push(b'{');
        string(self.out, variant);
        self.out.push(b':');
        value.serialize(&mut *self)?;
        self.out.push(b'}');
        Ok(())
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Compound<'a, 'o>, Fallback> {
        self.out.push(b'[');
        Ok(Compound::open(self, len, b']'))
    }

    fn serialize_tuple(self, len: usize) -> Result<Compound<'a, 'o>, Fallback> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<Compound<'a, 'o>, Fallback> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a, 'o>, Fallback> {
        self.out.push(b'{');
        string(self.out, variant);
        self.out.extend_from_slice(b":[");
        let mut compound = Compound::open(self, Some(len), b']');
        compound.variant = true;
        Ok(compound)
    }

    fn serialize_map(self, len: Option<usize>) -> Result<Compound<'a, 'o>, Fallback> {
        self.out.push(b'{');
        Ok(Compound::open(self, len, b'}'))
    }

    fn serialize_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Compound<'a, 'o>, Fallback> {
        if name == RAW_VALUE {
            let mut compound = Compound::open(self, Some(1), b'}');
            compound.raw = true;
            return Ok(compound);
        }
        self.serialize_map(Some(len))
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a, 'o>, Fallback> {
        self.out.push(b'{');
        string(self.out, variant);
        self.out.extend_from_slice(b":{");
        let mut compound = Compound::open(self, Some(len), b'}');
        compound.variant = true;
        Ok(compound)
    }

    fn collect_str<T: fmt::Display + ?Sized>(self, value: &T) -> Result<(), Fallback> {
        self.out.push(b'"');
        fmt::write(&mut Escaping(&mut *self.out), format_args!("{value}")).map_err(|_| Fallback)?;
        self.out.push(b'"');
        Ok(())
    }
}

/// An array or object being written: whether an element has been written yet, what closes
/// it, and whether it is a variant's (closed by a `}` too) or a `RawValue`'s.
struct Compound<'a, 'o> {
    writer: &'a mut Writer<'o>,
    first: bool,
    close: u8,
    variant: bool,
    raw: bool,
}

impl<'a, 'o> Compound<'a, 'o> {
    fn open(writer: &'a mut Writer<'o>, len: Option<usize>, close: u8) -> Self {
        let mut compound = Compound {
            writer,
            first: true,
            close,
            variant: false,
            raw: false,
        };
        // serde_json closes an empty one at once, and writes nothing at its end.
        if len == Some(0) {
            compound.writer.out.push(close);
            compound.close = 0;
        }
        compound
    }

    fn comma(&mut self) {
        if !self.first {
            self.writer.out.push(b',');
        }
        self.first = false;
    }

    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Fallback> {
        self.comma();
        value.serialize(&mut *self.writer)
    }

    fn entry<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result<(), Fallback> {
        self.comma();
        string(self.writer.out, key);
        self.writer.out.push(b':');
        value.serialize(&mut *self.writer)
    }

    fn end(self) -> Result<(), Fallback> {
        if self.raw {
            return Ok(());
        }
        if self.close != 0 {
            self.writer.out.push(self.close);
        }
        if self.variant {
            self.writer.out.push(b'}');
        }
        Ok(())
    }
}

/// The four sequences serde names (a sequence, a tuple, a tuple struct, a tuple variant), each
/// its elements one after the other.
macro_rules! sequence {
    ($($kind:ident::$element:ident),*) => {$(
        impl ser::$kind for Compound<'_, '_> {
            type Ok = ();
            type Error = Fallback;

            fn $element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Fallback> {
                self.element(value)
            }

            fn end(self) -> Result<(), Fallback> {
                Compound::end(self)
            }
        }
    )*};
}

sequence!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl ser::SerializeMap for Compound<'_, '_> {
    type Ok = ();
    type Error = Fallback;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Fallback> {
        self.comma();
        key.serialize(Key(&mut *self.writer))?;
        self.writer.out.push(b':');
        Ok(())
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Fallback> {
        value.serialize(&mut *self.writer)
    }

    fn end(self) -> Result<(), Fallback> {
        Compound::end(self)
    }
}

impl ser::SerializeStruct for Compound<'_, '_> {
    type Ok = ();
    type Error = Fallback;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Fallback> {
        if self.raw {
            if key != RAW_VALUE {
                return Err(Fallback);
            }
            return value.serialize(Raw(&mut *self.writer));
        }
        self.entry(key, value)
    }

    fn end(self) -> Result<(), Fallback> {
        Compound::end(self)
    }
}

impl ser::SerializeStructVariant for Compound<'_, '_> {
    type Ok = ();
    type Error = Fallback;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Fallback> {
        self.entry(key, value)
    }

    fn end(self) -> Result<(), Fallback> {
        Compound::end(self)
    }
}

/// A map key: a string, or anything else left to serde_json.
struct Key<'a, 'o>(&'a mut Writer<'o>);

/// The text of a `RawValue`, written as it is.
struct Raw<'a, 'o>(&'a mut Writer<'o>);

/// An [`Unescaped`] string, copied between its quotes without a scan.
struct Copied<'a, 'o>(&'a mut Writer<'o>);

/// Appends what it is given, as it is.
struct Appending<'o>(&'o mut Vec<u8>);

impl fmt::Write for Appending<'_> {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        self.0.extend_from_slice(text.as_bytes());
        Ok(())
    }
}

/// The methods of a serializer that only takes strings: everything else is left to serde_json.
macro_rules! only_strings {
    () => {
        type Ok = ();
        type Error = Fallback;
        type SerializeSeq = ser::Impossible<(), Fallback>;
        type SerializeTuple = ser::Impossible<(), Fallback>;
        type SerializeTupleStruct = ser::Impossible<(), Fallback>;
        type SerializeTupleVariant = ser::Impossible<(), Fallback>;
        type SerializeMap = ser::Impossible<(), Fallback>;
        type SerializeStruct = ser::Impossible<(), Fallback>;
        type SerializeStructVariant = ser::Impossible<(), Fallback>;

        fn serialize_bool(self, _: bool) -> Result<(), Fallback> {
            Err(Fallback)
        }
        fn serialize_i8(self, _: i8) -> Result<(), Fallback> {
            Err(Fallback)
        }
        fn serialize_i16(self, _: i16) -> Result<(), Fallback> {
            Err(Fallback)
        }
        fn serialize_i32(self, _: i32) -> Result<(), Fallback> {
            Err(Fallback)
        }
        fn serialize_i64(self, _: i64) -> Result<(), Fallback> {
            Err(Fallback)
        }
        fn serialize_u8(self, _: u8) -> Result<(), Fallback> {
            Err(Fallback)
        }
        fn serialize_u16(self, _: u16) -> Result<(), Fallback> {
            Err(Fallback)
        }
        fn serialize_u32(self, _: u32) -> Result<(), Fallback> {
            Err(Fallback)
        }
        fn serialize_u64(self, _: u64) -> Result<(), Fallback> {
            Err(Fallback)
        }
        fn serialize_f32(self, _: f32) -> Result<(), Fallback> {
            Err(Fallback)
        }
        fn serialize_f64(self, _: f64) -> Result<(), Fallback> {
            Err(Fallback)
        }
        fn serialize_char(self, _: char) -> Result<(), Fallback> {
            Err(Fallback)
        }
        fn serialize_bytes(self, _: &[u8]) -> Result<(), Fallback> {
            Err(Fallback)
        }
        fn serialize_none(self) -> Result<(), Fallback> {
            Err(Fallback)
        }
        fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<(), Fallback> {
            Err(Fallback)
        }
        fn serialize_unit(self) -> Result<(), Fallback> {
            Err(Fallback)
        }
        fn serialize_unit_struct(self, _: &'static str) -> Result<(), Fallback> {
            Err(Fallback)
        }
        fn serialize_unit_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
        ) -> Result<(), Fallback> {
            Err(Fallback)
        }
        fn serialize_newtype_struct<T: Serialize + ?Sized>(
            self,
            _: &'static str,
            _: &T,
        ) -> Result<(), Fallback> {
            Err(Fallback)
        }
        fn serialize_newtype_variant<T: Serialize + ?Sized>(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: &T,
        ) -> Result<(), Fallback> {
            Err(Fallback)
        }
        fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Fallback> {
            Err(Fallback)
        }
        fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Fallback> {
            Err(Fallback)
        }
        fn serialize_tuple_struct(
            self,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeTupleStruct, Fallback> {
            Err(Fallback)
        }
        fn serialize_tuple_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeTupleVariant, Fallback> {
            Err(Fallback)
        }
        fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Fallback> {
            Err(Fallback)
        }
        fn serialize_struct(
            self,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeStruct, Fallback> {
            Err(Fallback)
        }
        fn serialize_struct_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeStructVariant, Fallback> {
            Err(Fallback)
        }
    };
}

impl ser::Serializer for Key<'_, '_> {
    only_strings!();

    fn serialize_str(self, value: &str) -> Result<(), Fallback> {
        string(self.0.out, value);
        Ok(())
    }

    fn collect_str<T: fmt::Display + ?Sized>(self, value: &T) -> Result<(), Fallback> {
        self.0.collect_str(value)
    }
}

impl ser::Serializer for Raw<'_, '_> {
    only_strings!();

    fn serialize_str(self, value: &str) -> Result<(), Fallback> {
        self.0.out.extend_from_slice(value.as_bytes());
        Ok(())
    }
}

impl ser::Serializer for Copied<'_, '_> {
    only_strings!();

    fn serialize_str(self, value: &str) -> Result<(), Fallback> {
        self.0.out.push(b'"');
        self.0.out.extend_from_slice(value.as_bytes());
        self.0.out.push(b'"');
        Ok(())
    }

    fn collect_str<T: fmt::Display + ?Sized>(self, value: &T) -> Result<(), Fallback> {
        self.0.out.push(b'"');
        fmt::write(&mut Appending(&mut *self.0.out), format_args!("{value}"))
            .map_err(|_| Fallback)?;
        self.0.out.push(b'"');
        Ok(())
    }
}

#[cfg(test)]
// A test may panic: that is how it fails.
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// Checks the bytes against serde_json's, and that the writer wrote them itself (not by
    /// starting over with serde_json) when `own`.
    fn same_by<T: Serialize + ?Sized>(value: &T, own: bool) {
        let mut ours = Vec::new();
        let written = value.serialize(&mut Writer { out: &mut ours });
        assert_eq!(written.is_ok(), own);
        ours.clear();
        write(value, &mut ours).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&ours),
            String::from_utf8_lossy(&serde_json::to_vec(value).unwrap())
        );
    }

    fn same<T: Serialize + ?Sized>(value: &T) {
        same_by(value, true);
    }

    #[test]
    fn every_byte_below_128_in_every_position_of_a_word_is_written_as_serde_json_writes_it() {
        for byte in 0u8..128 {
            for position in 0..17 {
                let mut text = "abcdefghijklmnopq".to_owned().into_bytes();
                if let Some(slot) = text.get_mut(position) {
                    *slot = byte;
                }
                same(&String::from_utf8(text).unwrap());
            }
        }
    }

    #[test]
    fn values_of_every_shape_are_written_as_serde_json_writes_them() {
        same(&serde_json::json!({
            "a": [1, -2, 3.5, 1e300, null, true, false, "x\u{2028}\u{7f}é😀"],
            "": {},
            "empty": [],
            "nested": {"k": [[], [{}], {"z": -9223372036854775808i64}]},
            "max": u64::MAX,
        }));
        same(&(1u8, 'c', Some(2i32), None::<u8>, (), [0u8; 0]));
        same(&serde_json::value::RawValue::from_string("{\"raw\" : [1, 2]}".into()).unwrap());
        // Keys that are not strings are left to serde_json.
        same_by(&std::collections::BTreeMap::from([(1, 2), (3, 4)]), false);
        same(&f64::NAN);
    }
}

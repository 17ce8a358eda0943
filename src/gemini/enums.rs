//! The enums a Gemini reply carries, read by name however they are encoded.
//!
//! Gemini writes an enum's value as its name (`"finishReason": "STOP"`), or, when the request
//! asks for `$alt=json;enum-encoding=int` (a system parameter every Google API takes,
//! <https://docs.cloud.google.com/apis/docs/system-parameters>), as its number in the proto
//! (`"finishReason": 1`). Each table below is an enum's names in the order of their numbers,
//! from Google's own protos of the Gemini API (`google/ai/generativelanguage/v1beta`,
//! <https://github.com/googleapis/googleapis/blob/bc7e3baa28fbb223fa93782e130260fab8205bfc/google/ai/generativelanguage/v1beta/generative_service.proto>
//! and `content.proto` of the same commit). The numbers are not the order the pinned OpenAPI
//! export lists the names in: `FinishReason` declares `LANGUAGE = 6` before `OTHER = 5`, and
//! Vertex AI's enum of the same name numbers its values otherwise (`BLOCKLIST = 6` there,
//! `7` here), so the tables are the Gemini API's and no one else's.
//!
//! A number a table does not hold (a value newer than the table) is kept as its decimal text,
//! never refused: a stop reason then reads as that word, as any word the crate does not know.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, Visitor};

/// `Candidate.FinishReason`, by number.
pub(super) const FINISH_REASON: [&str; 18] = [
    "FINISH_REASON_UNSPECIFIED",
    "STOP",
    "MAX_TOKENS",
    "SAFETY",
    "RECITATION",
    "OTHER",
    "LANGUAGE",
    "BLOCKLIST",
    "PROHIBITED_CONTENT",
    "SPII",
    "MALFORMED_FUNCTION_CALL",
    "IMAGE_SAFETY",
    "UNEXPECTED_TOOL_CALL",
    "TOO_MANY_TOOL_CALLS",
    "IMAGE_PROHIBITED_CONTENT",
    "IMAGE_OTHER",
    "NO_IMAGE",
    "IMAGE_RECITATION",
];

/// `GenerateContentResponse.PromptFeedback.BlockReason`, by number.
pub(super) const BLOCK_REASON: [&str; 6] = [
    "BLOCK_REASON_UNSPECIFIED",
    "SAFETY",
    "OTHER",
    "BLOCKLIST",
    "PROHIBITED_CONTENT",
    "IMAGE_SAFETY",
];

/// `CodeExecutionResult.Outcome`, by number.
pub(super) const OUTCOME: [&str; 4] = [
    "OUTCOME_UNSPECIFIED",
    "OUTCOME_OK",
    "OUTCOME_FAILED",
    "OUTCOME_DEADLINE_EXCEEDED",
];

/// `ExecutableCode.Language`, by number.
pub(super) const LANGUAGE: [&str; 2] = ["LANGUAGE_UNSPECIFIED", "PYTHON"];

/// `UrlMetadata.UrlRetrievalStatus`, by number.
pub(super) const URL_RETRIEVAL_STATUS: [&str; 5] = [
    "URL_RETRIEVAL_STATUS_UNSPECIFIED",
    "URL_RETRIEVAL_STATUS_SUCCESS",
    "URL_RETRIEVAL_STATUS_ERROR",
    "URL_RETRIEVAL_STATUS_PAYWALL",
    "URL_RETRIEVAL_STATUS_UNSAFE",
];

/// An enum's value as a reply carries it: its name, or its number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Word {
    /// The value's name, as sent.
    Name(String),
    /// The value's number (`enum-encoding=int`).
    Number(i64),
}

impl Word {
    /// The value's name: as sent, or the name of its number in `names` (the enum's names in
    /// the order of their numbers), or the number's decimal text when `names` has none.
    pub(super) fn name(self, names: &[&str]) -> String {
        match self {
            Word::Name(name) => name,
            Word::Number(number) => usize::try_from(number)
                .ok()
                .and_then(|index| names.get(index))
                .map_or_else(|| number.to_string(), |name| (*name).to_owned()),
        }
    }
}

/// The name of an enum's value read from a JSON value (a string, or a number under
/// `enum-encoding=int`); `None` for anything else, or no value.
pub(super) fn name_of(value: &serde_json::Value, names: &[&str]) -> Option<String> {
    match value {
        serde_json::Value::String(name) => Some(name.clone()),
        serde_json::Value::Number(number) => number
            .as_i64()
            .map(|number| Word::Number(number).name(names)),
        serde_json::Value::Null
        | serde_json::Value::Bool(_)
        | serde_json::Value::Array(_)
        | serde_json::Value::Object(_) => None,
    }
}

impl<'de> Deserialize<'de> for Word {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Either;

        impl Visitor<'_> for Either {
            type Value = Word;

            fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
                formatter.write_str("an enum's name or number")
            }

            fn visit_str<E: de::Error>(self, name: &str) -> Result<Word, E> {
                Ok(Word::Name(name.to_owned()))
            }

            fn visit_string<E: de::Error>(self, name: String) -> Result<Word, E> {
                Ok(Word::Name(name))
            }

            fn visit_i64<E: de::Error>(self, number: i64) -> Result<Word, E> {
                Ok(Word::Number(number))
            }

            fn visit_u64<E: de::Error>(self, number: u64) -> Result<Word, E> {
                i64::try_from(number)
                    .map(Word::Number)
                    .map_err(|_| E::custom("an enum's number out of range"))
            }
        }

        deserializer.deserialize_any(Either)
    }
}

#[cfg(test)]
// A test may panic: that is how it fails.
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn a_number_reads_as_its_name_and_an_unknown_one_as_its_digits() {
        let read = |text: &str| serde_json::from_str::<Word>(text).unwrap();
        assert_eq!(read("1").name(&FINISH_REASON), "STOP");
        assert_eq!(read("5").name(&FINISH_REASON), "OTHER");
        assert_eq!(read("6").name(&FINISH_REASON), "LANGUAGE");
        assert_eq!(read("7").name(&FINISH_REASON), "BLOCKLIST");
        assert_eq!(read("11").name(&FINISH_REASON), "IMAGE_SAFETY");
        assert_eq!(read("99").name(&FINISH_REASON), "99");
        assert_eq!(read("-1").name(&FINISH_REASON), "-1");
        assert_eq!(read(r#""STOP""#).name(&FINISH_REASON), "STOP");
        assert!(serde_json::from_str::<Word>("true").is_err());
        assert_eq!(
            name_of(&serde_json::json!(2), &URL_RETRIEVAL_STATUS).as_deref(),
            Some("URL_RETRIEVAL_STATUS_ERROR")
        );
        assert_eq!(name_of(&serde_json::json!(null), &OUTCOME), None);
    }
}

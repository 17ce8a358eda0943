//! The one property of every record text, shared by the fast reader's tests: whoever reads it,
//! it reads the same.

use proptest::prelude::*;
use transcript_replay::{parse_record, parse_record_by_serde, parse_record_fast_only};

/// The text reads the same whoever reads it: `parse_record` gives the serde reader's record or
/// its error, and whatever the fast reader takes, it reads as the serde reader does.
///
/// ```
/// use transcript_replay_conformance::reading::same_reading;
///
/// assert!(same_reading(r#"[{"role":"user","blocks":[]}]"#).is_ok());
/// assert!(same_reading("[{").is_ok());
/// ```
pub fn same_reading(text: &str) -> Result<(), TestCaseError> {
    let serde = parse_record_by_serde(text);
    prop_assert_eq!(&parse_record(text), &serde, "text: {:?}", text);
    if let Some(fast) = parse_record_fast_only(text) {
        prop_assert_eq!(Ok(fast), serde, "text: {:?}", text);
    }
    Ok(())
}

//! The default text estimate is sane on any text: a text that is not empty is at least a
//! token, adding text never lowers the estimate, and no text is estimated above two tokens a
//! byte (a tokenizer never makes more than one).

use proptest::prelude::*;
use transcript_replay::cost::estimate_tokens;

/// Any text, and text of the characters an agent's records are mostly made of.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[a-zA-Z0-9 \\n\\t{}\":,._/-]{0,200}",
        "[a-z ]{0,50}[\\u{4e00}-\\u{9fff}\\u{1F600}-\\u{1F64F}é]{0,20}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn a_text_that_is_not_empty_is_at_least_a_token(text in text()) {
        prop_assert_eq!(estimate_tokens(&text) == 0, text.is_empty());
    }

    #[test]
    fn adding_text_never_lowers_the_estimate(start in text(), more in text()) {
        let whole = format!("{start}{more}");
        prop_assert!(estimate_tokens(&whole) >= estimate_tokens(&start));
    }

    #[test]
    fn no_text_is_estimated_above_two_tokens_a_byte(text in text()) {
        prop_assert!(estimate_tokens(&text) <= 2 * text.len());
    }
}

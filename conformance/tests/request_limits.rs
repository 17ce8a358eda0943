//! A request's limits, on Anthropic: under the data limit, the withheld set moves in steps
//! that keep four fifths of the images that fit, and changes once per step.

use proptest::prelude::*;
use transcript_replay::{
    anthropic, replay_messages, wire::Part, Block, ImageLimits, Role, StoredMessage, Vision,
};
use transcript_replay_conformance::records;

/// The header of a PNG of the given size, padded with zero bytes to about `len` characters.
fn png(width: u32, height: u32, len: usize) -> String {
    let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    bytes.extend(width.to_be_bytes());
    bytes.extend(height.to_be_bytes());
    bytes.extend([8, 2, 0, 0, 0, 0, 0, 0, 0]);
    let header = records::base64(&bytes);
    let padding = len.saturating_sub(header.len()) / 4 * 4;
    format!("{header}{}", "A".repeat(padding))
}

/// How many of the images, one a user message, Anthropic carries natively.
fn natives(images: &[String], limits: &ImageLimits) -> usize {
    let record: Vec<StoredMessage> = images
        .iter()
        .map(|data| StoredMessage::new(Role::User, vec![Block::image("image/png", data.as_str())]))
        .collect();
    let wire = replay_messages(&record, Vision::Sees);
    anthropic::render_with(&wire, limits)
        .messages
        .iter()
        .filter(|message| matches!(message.content.as_slice(), [Part::Image(_)]))
        .count()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn under_the_data_limit_the_withheld_set_moves_in_steps_of_a_fifth_of_what_fits(
        count in 30usize..90,
        len in 100usize..400,
        fit in 1usize..40,
    ) {
        // Images of one size, of which `fit` fit the data limit; nothing else binds.
        let image = png(100, 100, len);
        let images = vec![image.clone(); count];
        let limits = ImageLimits {
            images_per_request: usize::MAX,
            base64_len_per_request: image.len() * fit,
            max_side_pixels_beyond: None,
            ..anthropic::LIMITS
        };
        let step = (fit / 5).max(1);
        let (mut withheld_before, mut changes) = (0, 0);
        for len in 0..=count {
            let native = natives(&images[..len], &limits);
            let withheld = len - native;
            prop_assert!(withheld >= withheld_before, "the withheld set shrank at {}", len);
            prop_assert!(native >= len.min(fit + 1 - step), "{} native of {}, {} fit", native, len, fit);
            prop_assert!(native <= fit);
            changes += usize::from(withheld != withheld_before);
            withheld_before = withheld;
        }
        let over = count.saturating_sub(fit);
        let allowed = if over == 0 { 0 } else { 1 + (over - 1).div_ceil(step) };
        prop_assert!(changes <= allowed, "{} changes for {} over, step {}", changes, over, step);
    }
}

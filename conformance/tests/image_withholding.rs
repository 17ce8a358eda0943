//! When a request limit binds, the native images are the newest that satisfy every limit at
//! once, and the oldest are withheld in steps: as a record grows, the withheld set only grows,
//! and it changes once per step of new images (and once more as a limit first binds).

use proptest::prelude::*;
use transcript_replay::{
    anthropic, replay_messages, Block, ImageLimits, Part, Role, StoredMessage, Vision,
};
use transcript_replay_conformance::records;

/// The header of a PNG of the given size, padded with zero bytes to `len` base64 characters.
fn png(width: u32, height: u32, len: usize) -> String {
    let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    bytes.extend(width.to_be_bytes());
    bytes.extend(height.to_be_bytes());
    bytes.extend([8, 2, 0, 0, 0, 0, 0, 0, 0]);
    let header = records::base64(&bytes);
    let padding = len.saturating_sub(header.len()) / 4 * 4;
    format!("{header}{}", "A".repeat(padding))
}

/// One image per user message, so each stored message adds one image.
fn record(images: &[String]) -> Vec<StoredMessage> {
    images
        .iter()
        .map(|data| StoredMessage::new(Role::User, vec![Block::image("image/png", data.as_str())]))
        .collect()
}

/// Which of the record's images are native, by position.
fn natives(images: &[String], limits: &ImageLimits) -> Vec<usize> {
    let record = record(images);
    let wire = replay_messages(&record, Vision::Sees);
    anthropic::render_with(&wire, limits)
        .messages
        .iter()
        .enumerate()
        .filter(|(_, message)| matches!(message.content.as_slice(), [Part::Image(_)]))
        .map(|(index, _)| index)
        .collect()
}

/// An image: small or large (over the many-images pixel limit), and of some data size.
fn image() -> impl Strategy<Value = String> {
    (prop::bool::weighted(0.2), 60usize..400).prop_map(|(large, len)| {
        if large {
            png(2560, 1600, len)
        } else {
            png(100, 100, len)
        }
    })
}

fn limits() -> impl Strategy<Value = ImageLimits> {
    (
        4usize..16,
        1000usize..6000,
        2usize..6,
        prop::option::of(1usize..5),
    )
        .prop_map(|(count, data, beyond, step)| ImageLimits {
            images_per_request: count,
            base64_len_per_request: data,
            max_side_pixels_beyond: Some((beyond, 2000)),
            withholding_step: step,
            ..anthropic::LIMITS
        })
}

/// Whether a set of images, by position, meets every per-request limit at once.
fn fits(images: &[String], natives: &[usize], limits: &ImageLimits) -> bool {
    let data: usize = natives.iter().map(|&index| images[index].len()).sum();
    let large = natives
        .iter()
        .any(|&index| images[index].starts_with(&png(2560, 1600, 0)[..30]));
    let (beyond, _) = limits.max_side_pixels_beyond.unwrap();
    natives.len() <= limits.images_per_request
        && data <= limits.base64_len_per_request
        && !(natives.len() > beyond && large)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn the_native_images_are_always_the_newest_and_fit_every_limit(
        images in proptest::collection::vec(image(), 0..40),
        limits in limits(),
    ) {
        let kept = natives(&images, &limits);
        let suffix: Vec<usize> = (images.len() - kept.len()..images.len()).collect();
        prop_assert_eq!(&kept, &suffix);
        prop_assert!(fits(&images, &kept, &limits));
        // With steps of 1, nothing is withheld that the limits do not require.
        let exact = ImageLimits { withholding_step: Some(1), ..limits };
        let most = natives(&images, &exact);
        let one_more: Vec<usize> = (images.len().saturating_sub(most.len() + 1)..images.len()).collect();
        prop_assert!(most.len() == images.len() || !fits(&images, &one_more, &limits));
    }

    #[test]
    fn as_a_record_grows_the_withheld_set_only_grows_and_changes_once_per_step(
        images in proptest::collection::vec(image(), 0..60),
        count in 4usize..12,
        step in prop::option::of(1usize..5),
    ) {
        // One binding limit, the count, so that the step is fixed.
        let limits = ImageLimits {
            images_per_request: count,
            base64_len_per_request: usize::MAX,
            max_side_pixels_beyond: None,
            withholding_step: step,
            ..anthropic::LIMITS
        };
        let step = step.unwrap_or((count / 5).max(1));
        let mut withheld_before = 0;
        let mut changes = 0;
        for len in 0..=images.len() {
            let native = natives(&images[..len], &limits).len();
            let withheld = len - native;
            prop_assert!(withheld >= withheld_before, "the withheld set shrank at {}", len);
            if withheld != withheld_before {
                changes += 1;
            }
            withheld_before = withheld;
        }
        let over = images.len().saturating_sub(count);
        let allowed = if over == 0 { 0 } else { 1 + (over - 1).div_ceil(step) };
        prop_assert!(changes <= allowed, "{} changes for {} images over, step {}", changes, over, step);
    }
}

#[test]
fn anthropic_withholds_in_steps_of_20_beyond_100_images_and_4_beyond_20_large_ones() {
    let small: Vec<String> = (0..140).map(|_| png(100, 100, 60)).collect();
    let counts: Vec<usize> = [100, 101, 102, 121, 122]
        .iter()
        .map(|&len| len - natives(&small[..len], &anthropic::LIMITS).len())
        .collect();
    assert_eq!(counts, [0, 1, 21, 21, 41]);
    let large: Vec<String> = (0..40).map(|_| png(2560, 1600, 60)).collect();
    let counts: Vec<usize> = [20, 21, 22, 25, 26]
        .iter()
        .map(|&len| len - natives(&large[..len], &anthropic::LIMITS).len())
        .collect();
    assert_eq!(counts, [0, 1, 5, 5, 9]);
}

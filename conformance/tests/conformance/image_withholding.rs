//! When a request limit binds, the native images are the newest that satisfy every limit at
//! once, and the oldest are withheld in steps: as a record grows, the withheld set only grows,
//! it changes once per step of new images (and once more as a limit first binds), and no
//! withheld image's marker ever changes, whichever limits bind.

use proptest::prelude::*;
use transcript_replay::{
    anthropic, replay_messages, wire::Part, Block, ImageLimits, Role, StoredMessage, Vision,
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

/// What each message of the record renders to for Anthropic: the image, or its marker's text.
fn rendered(images: &[String], limits: &ImageLimits) -> Vec<Option<String>> {
    let record = record(images);
    let wire = replay_messages(&record, Vision::Sees);
    anthropic::render_with(&wire, limits)
        .messages
        .iter()
        .map(|message| match message.content.as_slice() {
            [Part::Image(_)] => None,
            [Part::Text(text)] => Some(text.to_string()),
            other => Some(format!("{other:?}")),
        })
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn as_a_record_grows_under_every_limit_no_withheld_image_comes_back_or_changes_its_marker(
        images in proptest::collection::vec(image(), 0..48),
        limits in limits(),
    ) {
        let mut before: Vec<Option<String>> = Vec::new();
        for len in 0..=images.len() {
            let now = rendered(&images[..len], &limits);
            for (index, (was, is)) in before.iter().zip(&now).enumerate() {
                if let Some(marker) = was {
                    prop_assert_eq!(Some(marker), is.as_ref(), "image {} at {} images", index, len);
                }
            }
            before = now;
        }
    }
}

#[test]
fn under_the_data_limit_a_small_new_image_withholds_no_fewer() {
    // 30 images of 1.3 MB: Anthropic's 32 MB a request holds 24.
    let big: Vec<String> = (0..30).map(|_| png(1000, 800, 1_300_000)).collect();
    let before = rendered(&big, &anthropic::LIMITS);
    let mut grown = big.clone();
    grown.push(png(1, 1, 60));
    let after = rendered(&grown, &anthropic::LIMITS);
    let withheld =
        |rendered: &[Option<String>]| rendered.iter().filter(|message| message.is_some()).count();
    assert!(
        withheld(&after) >= withheld(&before),
        "{} then {}",
        withheld(&before),
        withheld(&after)
    );
    assert_eq!(
        &after[..30],
        &before[..],
        "no marker of the first 30 changes"
    );
}

#[test]
fn a_withheld_images_marker_keeps_the_limit_that_withheld_it_as_others_come_to_bind() {
    // Big images bind the data limit first; then large ones bring the 2000 px rule.
    let mut images: Vec<String> = (0..26).map(|_| png(1000, 800, 1_300_000)).collect();
    let before = rendered(&images, &anthropic::LIMITS);
    assert!(
        before[0]
            .as_deref()
            .is_some_and(|marker| marker.contains("MB")),
        "{:?}",
        before[0]
    );
    images.extend((0..25).map(|_| png(2560, 1600, 100)));
    let after = rendered(&images, &anthropic::LIMITS);
    let withheld = |rendered: &[Option<String>]| rendered.iter().filter(|m| m.is_some()).count();
    assert!(withheld(&after[..26]) >= withheld(&before));
    assert!(
        after[26..].iter().any(Option::is_none),
        "the newest stay native"
    );
    for (was, is) in before.iter().zip(&after) {
        if was.is_some() {
            assert_eq!(was, is);
        }
    }
}

#[test]
fn an_assistant_images_marker_is_its_own_reason_whether_or_not_a_user_message_follows() {
    // Too many pixels for Anthropic, whichever message it would go in.
    let heic = StoredMessage::new(
        Role::Assistant,
        vec![Block::image("image/png", png(9000, 9000, 60))],
    );
    let alone = [StoredMessage::user("Look."), heic.clone()];
    let followed = [
        StoredMessage::user("Look."),
        heic,
        StoredMessage::user("Well?"),
    ];
    let marker = |record: &[StoredMessage]| {
        let request = anthropic::render(&replay_messages(record, Vision::Sees));
        match request.messages[1].content.as_slice() {
            [Part::Text(text)] => text.to_string(),
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(marker(&alone), marker(&followed));
    assert!(marker(&alone).contains("8000"), "{}", marker(&alone));
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

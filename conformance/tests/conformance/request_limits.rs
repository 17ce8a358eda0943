//! A request's limits over images and files together, on Anthropic (an image count, a pixel
//! limit beyond many images, PDF pages, and a data limit of the whole request, one budget for
//! its images and files): the native images and files are the newest of each kind and fit
//! every limit at once; the newest item stays native whenever it fits alone, however the
//! steps fall; as a record grows nothing withheld comes back or changes its marker; and under
//! the data limit the withheld set moves in steps that keep four fifths of what fits.

use proptest::prelude::*;
use transcript_replay::{
    anthropic, replay_messages, wire::Part, Block, ImageLimits, Role, StoredMessage, Vision,
};
use transcript_replay_conformance::records;

/// Anthropic's most PDF pages a request.
const PAGES: usize = 100;

/// One item of a record.
#[derive(Clone, Debug)]
enum Item {
    /// An image's data, and whether it is over the many-images pixel limit.
    Image(String, bool),
    /// A PDF's data and pages.
    Pdf(String, usize),
}

impl Item {
    fn len(&self) -> usize {
        match self {
            Item::Image(data, _) | Item::Pdf(data, _) => data.len(),
        }
    }
}

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

/// A PDF of so many page objects, and `padding` zero bytes.
fn pdf(pages: usize, padding: usize) -> String {
    let mut bytes = b"%PDF-1.7\n".to_vec();
    for _ in 0..pages {
        bytes.extend_from_slice(b"<</Type /Page>>\n");
    }
    bytes.resize(bytes.len() + padding, 0);
    records::base64(&bytes)
}

fn item() -> impl Strategy<Value = Item> {
    prop_oneof![
        3 => (prop::bool::weighted(0.2), 60usize..800).prop_map(|(large, len)| match large {
            true => Item::Image(png(2560, 1600, len), true),
            false => Item::Image(png(100, 100, len), false),
        }),
        1 => (5usize..45, 0usize..600).prop_map(|(pages, padding)| Item::Pdf(pdf(pages, padding), pages)),
    ]
}

fn limits() -> impl Strategy<Value = ImageLimits> {
    (
        4usize..16,
        1500usize..8000,
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

/// One item per user message.
fn record(items: &[Item]) -> Vec<StoredMessage> {
    items
        .iter()
        .enumerate()
        .map(|(at, item)| {
            let block = match item {
                Item::Image(data, _) => Block::image("image/png", data.as_str()),
                Item::Pdf(data, _) => {
                    Block::named_file(format!("f{at}.pdf"), "application/pdf", data.as_str())
                }
            };
            StoredMessage::new(Role::User, vec![block])
        })
        .collect()
}

/// What each item renders to for Anthropic: `None` when native, else its marker's text.
fn rendered(items: &[Item], limits: &ImageLimits) -> Vec<Option<String>> {
    let record = record(items);
    let wire = replay_messages(&record, Vision::Sees);
    anthropic::render_with(&wire, limits)
        .messages
        .iter()
        .map(|message| match message.content.as_slice() {
            [Part::Image(_) | Part::File(_)] => None,
            [Part::Text(text)] => Some(text.to_string()),
            other => Some(format!("{other:?}")),
        })
        .collect()
}

/// Whether a set of items, by position, meets every per-request limit at once.
fn fits(items: &[Item], natives: &[usize], limits: &ImageLimits) -> bool {
    let images: Vec<&Item> = natives
        .iter()
        .map(|&at| &items[at])
        .filter(|item| matches!(item, Item::Image(..)))
        .collect();
    let large = images
        .iter()
        .any(|item| matches!(item, Item::Image(_, true)));
    let pages: usize = natives
        .iter()
        .map(|&at| match &items[at] {
            Item::Pdf(_, pages) => *pages,
            Item::Image(..) => 0,
        })
        .sum();
    let data: usize = natives.iter().map(|&at| items[at].len()).sum();
    let (beyond, _) = limits.max_side_pixels_beyond.unwrap();
    images.len() <= limits.images_per_request
        && !(images.len() > beyond && large)
        && pages <= PAGES
        && data <= limits.base64_len_per_request
}

/// Whether the natives, by position, are the newest of their kind: no item of that kind after
/// one native is withheld.
fn newest_of_each_kind(items: &[Item], natives: &[usize]) -> bool {
    let is_image = |at: usize| matches!(items[at], Item::Image(..));
    [true, false].into_iter().all(|image| {
        let of_kind: Vec<usize> = (0..items.len())
            .filter(|&at| is_image(at) == image)
            .collect();
        let kept: Vec<usize> = natives
            .iter()
            .copied()
            .filter(|&at| is_image(at) == image)
            .collect();
        kept.as_slice() == &of_kind[of_kind.len() - kept.len()..]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn the_natives_are_the_newest_of_each_kind_and_fit_every_limit_together(
        items in proptest::collection::vec(item(), 0..36),
        limits in limits(),
    ) {
        let rendered = rendered(&items, &limits);
        let natives: Vec<usize> = (0..items.len()).filter(|&at| rendered[at].is_none()).collect();
        prop_assert!(newest_of_each_kind(&items, &natives), "{:?}", natives);
        prop_assert!(fits(&items, &natives, &limits), "{:?}", natives);
        // The newest item stays native whenever it fits every limit alone, whatever the step.
        if let Some(newest) = items.len().checked_sub(1) {
            if fits(&items, &[newest], &limits) {
                prop_assert!(natives.contains(&newest), "{:?} of {}", natives, items.len());
            }
        }
    }

    #[test]
    fn as_a_record_of_images_and_files_grows_no_withheld_item_comes_back_or_changes_its_marker(
        items in proptest::collection::vec(item(), 0..32),
        limits in limits(),
    ) {
        let mut before: Vec<Option<String>> = Vec::new();
        for len in 0..=items.len() {
            let now = rendered(&items[..len], &limits);
            for (at, (was, is)) in before.iter().zip(&now).enumerate() {
                if let Some(marker) = was {
                    prop_assert_eq!(Some(marker), is.as_ref(), "item {} at {} items", at, len);
                }
            }
            before = now;
        }
    }

    #[test]
    fn under_the_data_limit_the_withheld_set_moves_in_steps_of_a_fifth_of_what_fits(
        count in 30usize..90,
        len in 100usize..400,
        fit in 1usize..40,
    ) {
        // Images of one size, of which `fit` fit the data limit; nothing else binds.
        let image = png(100, 100, len);
        let items = vec![Item::Image(image.clone(), false); count];
        let limits = ImageLimits {
            images_per_request: usize::MAX,
            base64_len_per_request: image.len() * fit,
            max_side_pixels_beyond: None,
            ..anthropic::LIMITS
        };
        let step = (fit / 5).max(1);
        let (mut withheld_before, mut changes) = (0, 0);
        for len in 0..=count {
            let rendered = rendered(&items[..len], &limits);
            let native = rendered.iter().filter(|marker| marker.is_none()).count();
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

//! A request's limits, as the specification: the native images are the newest that satisfy
//! every per-request limit at once (count, data, pixels), withheld in steps that never reach
//! the newest that fit.
//!
//! Each case is a record of one image a user message, oldest first; each image's data ends in
//! its own number, so the body shows which went natively.

use transcript_replay::{Block, ImageLimits, Provider, Role, StoredMessage, Turn};

/// Standard base64 with padding.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let word = chunk.iter().enumerate().fold(0u32, |word, (at, &byte)| {
            word | u32::from(byte) << (16 - 8 * at)
        });
        for at in 0..4 {
            match at <= chunk.len() {
                true => out.push(char::from(ALPHABET[(word >> (18 - 6 * at)) as usize & 63])),
                false => out.push('='),
            }
        }
    }
    out
}

/// An item's data: `head`, then zero bytes, then the item's number in 8 digits, `len`
/// characters of base64 in all.
fn data(head: &[u8], len: usize, tag: usize) -> String {
    let mut head = head.to_vec();
    head.resize(head.len().div_ceil(3) * 3, 0);
    let head = base64(&head);
    let tag = format!("{tag:08}");
    let padding = len - head.len() - tag.len();
    format!("{head}{}{tag}", "A".repeat(padding))
}

/// A PNG of 100x100 pixels (its header, which is all a renderer reads).
fn png(len: usize, tag: usize) -> String {
    let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    bytes.extend(100u32.to_be_bytes());
    bytes.extend(100u32.to_be_bytes());
    bytes.extend([8, 2, 0, 0, 0, 0, 0, 0, 0]);
    data(&bytes, len, tag)
}

/// One item of a record: an image, of so many characters of base64.
#[derive(Clone, Copy, Debug)]
enum Item {
    Image(usize),
}

fn record(items: &[Item]) -> Vec<StoredMessage> {
    items
        .iter()
        .enumerate()
        .map(|(tag, item)| {
            let block = match *item {
                Item::Image(len) => Block::image("image/png", png(len, tag)),
            };
            StoredMessage::new(Role::User, vec![block])
        })
        .collect()
}

/// The body a provider makes of the record, under its own limits or the given ones.
fn body(provider: Provider, history: &[StoredMessage], limits: Option<ImageLimits>) -> String {
    let turn = Turn::new(history).without_preamble();
    let turn = match limits {
        Some(limits) => turn.limits(limits),
        None => turn,
    };
    serde_json::to_string(&provider.body(&turn).unwrap()).unwrap()
}

/// Which of the items the body carries natively, by number.
fn natives(body: &str, items: usize) -> Vec<usize> {
    (0..items)
        .filter(|tag| body.contains(&format!("{tag:08}\"")))
        .collect()
}

const MB: usize = 1_000_000;

fn many(count: usize, item: Item) -> Vec<Item> {
    vec![item; count]
}

#[test]
fn under_a_data_limit_the_newest_images_that_fit_stay_native_never_none() {
    // (provider, the images, a limit of the caller's, how many of the newest stay native)
    let cases: [(Provider, Vec<Item>, Option<ImageLimits>, usize); 6] = [
        // 32 MB holds 6 of 4.6 MB: all 6 stay, where every image was withheld.
        (
            Provider::Anthropic,
            many(8, Item::Image(4_600_000)),
            None,
            6,
        ),
        // 50 MB holds 50 of 1 MB: the first over goes alone, then a step of a fifth of the 50
        // that fit, where every image was withheld.
        (Provider::OpenAi, many(53, Item::Image(MB)), None, 42),
        (
            Provider::OpenAiResponses,
            many(53, Item::Image(MB)),
            None,
            42,
        ),
        // 100 MB holds 25 of 4 MB: steps of 5.
        (Provider::Gemini, many(30, Item::Image(4 * MB)), None, 24),
        // Steps of 1: exactly the newest that fit.
        (
            Provider::OpenAi,
            many(53, Item::Image(MB)),
            Some(ImageLimits {
                withholding_step: Some(1),
                ..transcript_replay::openai::LIMITS
            }),
            50,
        ),
        // A step the caller sets larger than what fits is cut to what fits: never every image.
        (
            Provider::Anthropic,
            many(8, Item::Image(4_600_000)),
            Some(ImageLimits {
                withholding_step: Some(50),
                ..transcript_replay::anthropic::LIMITS
            }),
            1,
        ),
    ];
    for (provider, items, limits, kept) in cases {
        let body = body(provider, &record(&items), limits);
        let native = natives(&body, items.len());
        let newest: Vec<usize> = (items.len() - kept..items.len()).collect();
        assert_eq!(
            native,
            newest,
            "{provider}, {} items, {limits:?}",
            items.len()
        );
        assert!(
            body.contains("of image data a request, and the newest images are kept]"),
            "{provider}: the marker names the data limit"
        );
    }
}

#[test]
fn the_newest_image_stays_native_whenever_it_fits_the_data_limit_alone() {
    let limits = ImageLimits {
        base64_len_per_request: 4_500_000,
        ..transcript_replay::anthropic::LIMITS
    };
    // (the images, oldest first, which stay native): no two fit together.
    let cases: [(Vec<Item>, Vec<usize>); 3] = [
        (vec![Item::Image(5 * MB), Item::Image(4 * MB)], vec![1]),
        (many(3, Item::Image(4 * MB)), vec![2]),
        (many(12, Item::Image(4 * MB)), vec![11]),
    ];
    for (items, kept) in cases {
        let body = body(Provider::Anthropic, &record(&items), Some(limits));
        assert_eq!(natives(&body, items.len()), kept, "{items:?}");
    }
}

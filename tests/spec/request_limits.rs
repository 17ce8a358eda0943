//! A request's limits, as the specification: the native images and files are the newest that
//! satisfy every per-request limit at once (count, data, pages), withheld in steps that never
//! reach the newest that fit; where a provider's limit is the whole request's (Anthropic's
//! 32 MB, Gemini's 100 MB of inline data), its images and files are one budget, newest first.
//!
//! Each case is a record of one image or file a user message, oldest first; each item's data
//! ends in its own number, so the body shows which went natively.

use transcript_replay::{Block, ImageLimits, Provider, Role, StoredMessage, ToolOutput, Turn};

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

/// A PDF of one page.
fn pdf(len: usize, tag: usize) -> String {
    data(b"%PDF-1.7\n<</Type /Page>>\n", len, tag)
}

/// One item of a record: an image or a PDF, of so many characters of base64.
#[derive(Clone, Copy, Debug)]
enum Item {
    Image(usize),
    Pdf(usize),
}

fn record(items: &[Item]) -> Vec<StoredMessage> {
    items
        .iter()
        .enumerate()
        .map(|(tag, item)| {
            let block = match *item {
                Item::Image(len) => Block::image("image/png", png(len, tag)),
                Item::Pdf(len) => {
                    Block::named_file(format!("f{tag}.pdf"), "application/pdf", pdf(len, tag))
                }
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

#[test]
fn images_and_files_share_a_whole_request_limit_newest_first() {
    // (provider, the items oldest first, which stay native, the marker of the others)
    let cases: [(Provider, Vec<Item>, Vec<usize>, &str); 6] = [
        // Gemini: 50 MB of PDF, then 60 MB of images, is 110 MB of inline data over 100 MB.
        (
            Provider::Gemini,
            [vec![Item::Pdf(50 * MB)], many(3, Item::Image(20 * MB))].concat(),
            vec![1, 2, 3],
            "[File f0.pdf (application/pdf) not shown: Gemini takes at most 100 MB of image and file data a request, and the newest are kept]",
        ),
        // The PDF newest: the oldest image goes.
        (
            Provider::Gemini,
            [many(3, Item::Image(20 * MB)), vec![Item::Pdf(50 * MB)]].concat(),
            vec![1, 2, 3],
            "[Image (image/png) not shown: Gemini takes at most 100 MB of image and file data a request, and the newest are kept]",
        ),
        // Anthropic: 25 MB of PDF, then 20 MB of images, is 45 MB over 32 MB.
        (
            Provider::Anthropic,
            [vec![Item::Pdf(25 * MB)], many(4, Item::Image(5 * MB))].concat(),
            vec![1, 2, 3, 4],
            "[File f0.pdf (application/pdf) not shown: Anthropic takes at most 32 MB of image and file data a request, and the newest are kept]",
        ),
        (
            Provider::Anthropic,
            [many(4, Item::Image(5 * MB)), vec![Item::Pdf(25 * MB)]].concat(),
            vec![3, 4],
            "[Image (image/png) not shown: Anthropic takes at most 32 MB of image and file data a request, and the newest are kept]",
        ),
        // OpenAI states the images' limit and the files' apart: 45 MB of images and 45 MB of
        // files all go.
        (
            Provider::OpenAi,
            [many(3, Item::Pdf(15 * MB)), many(3, Item::Image(15 * MB))].concat(),
            vec![0, 1, 2, 3, 4, 5],
            "",
        ),
        // Within the limit together: nothing is withheld.
        (
            Provider::Gemini,
            [vec![Item::Pdf(40 * MB)], many(3, Item::Image(20 * MB))].concat(),
            vec![0, 1, 2, 3],
            "",
        ),
    ];
    for (provider, items, kept, marker) in cases {
        let body = body(provider, &record(&items), None);
        assert_eq!(natives(&body, items.len()), kept, "{provider}: {items:?}");
        assert!(
            body.contains(marker),
            "{provider}: {items:?} has no {marker}"
        );
    }
}

#[test]
fn a_single_kind_over_a_shared_limit_keeps_its_own_marker() {
    // Files alone, over Anthropic's 32 MB: the files' marker, as before files and images
    // shared it.
    let items = many(3, Item::Pdf(15 * MB));
    let body = body(Provider::Anthropic, &record(&items), None);
    assert_eq!(natives(&body, 3), [1, 2]);
    assert!(body.contains(
        "[File f0.pdf (application/pdf) not shown: Anthropic takes at most 32 MB of file data a request, and the newest files are kept]"
    ));
    let items = many(3, Item::Image(15 * MB));
    let body = self::body(
        Provider::Gemini,
        &record(&items),
        Some(ImageLimits {
            base64_len_per_request: 40 * MB,
            ..transcript_replay::gemini::LIMITS
        }),
    );
    assert_eq!(natives(&body, 3), [1, 2]);
    assert!(body.contains(
        "[Image (image/png) not shown: Gemini takes at most 40 MB of image data a request, and the newest images are kept]"
    ));
}

#[test]
fn a_tools_file_shares_the_request_limit_with_the_historys_images() {
    // Anthropic: 4 images of 5 MB in the history, and a tool's PDF of 25 MB, the newest.
    let history = record(&many(4, Item::Image(5 * MB)));
    let reply = Provider::Anthropic
        .read_reply(r#"{"content":[{"type":"tool_use","id":"toolu_1","name":"report","input":{}}],"stop_reason":"tool_use"}"#)
        .unwrap();
    let outputs = [ToolOutput::ok("toolu_1", "Made it.").with_named_file(
        "new.pdf",
        "application/pdf",
        pdf(25 * MB, 99),
    )];
    let tools = [transcript_replay::Tool::new("report", "", r#"{"type":"object"}"#).unwrap()];
    let turn = Turn::new(&history)
        .without_preamble()
        .tools(&tools)
        .round(&reply, &outputs);
    let body = serde_json::to_string(&Provider::Anthropic.body(&turn).unwrap()).unwrap();
    assert!(
        body.contains("00000099\""),
        "the tool's file, the newest, is native"
    );
    assert_eq!(natives(&body, 4), [3]);
}

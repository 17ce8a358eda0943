//! Renderers trust an image's bytes, not its record: they send the media type the bytes
//! have, withhold what a provider cannot read, and keep each request within its provider's
//! image limits, newest images first.

use transcript_replay_conformance::records as common;

use proptest::prelude::*;
use transcript_replay::{
    anthropic, gemini, openai, parse_record, replay_messages, wire::Part, wire::Piece,
    wire::Reason, ImageLimits, StoredMessage, Vision,
};

const PNG: &str = common::IMAGES[0];
const JPEG: &str = common::IMAGES[2];
const GIF: &str = common::IMAGES[3];
const ANIMATED_GIF: &str = common::IMAGES[4];
const WEBP: &str = common::IMAGES[5];
const HEIC: &str = common::IMAGES[6];
const CUT_SHORT_PNG: &str = common::IMAGES[7];

/// The header of a PNG of the given size, enough for a renderer to read it.
fn png_header(width: u32, height: u32) -> String {
    let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    bytes.extend(width.to_be_bytes());
    bytes.extend(height.to_be_bytes());
    bytes.extend([8, 2, 0, 0, 0, 0, 0, 0, 0]);
    common::base64(&bytes)
}

fn user_images(images: &[(&str, &str)]) -> Vec<StoredMessage> {
    let blocks: Vec<String> = images
        .iter()
        .map(|(media_type, data)| {
            format!(r#"{{"type":"image","media_type":"{media_type}","data":"{data}"}}"#)
        })
        .collect();
    parse_record(&format!(
        r#"[{{"role":"user","blocks":[{}]}}]"#,
        blocks.join(",")
    ))
    .unwrap()
}

fn openai_json(record: &[StoredMessage]) -> String {
    serde_json::to_string(&openai::render(&replay_messages(record, Vision::Sees))).unwrap()
}

fn anthropic_json(record: &[StoredMessage]) -> String {
    serde_json::to_string(&anthropic::render(&replay_messages(record, Vision::Sees))).unwrap()
}

fn gemini_json(record: &[StoredMessage]) -> String {
    serde_json::to_string(&gemini::render(&replay_messages(record, Vision::Sees))).unwrap()
}

#[test]
fn the_media_type_sent_is_the_one_the_bytes_have() {
    let record = user_images(&[("image/png", JPEG)]);
    assert!(openai_json(&record).contains(&format!("data:image/jpeg;base64,{JPEG}")));
    assert!(anthropic_json(&record).contains(r#""media_type":"image/jpeg""#));
    assert!(gemini_json(&record).contains(r#""mimeType":"image/jpeg""#));
    let record = user_images(&[("image/jpeg", WEBP), ("image/gif", PNG)]);
    let json = anthropic_json(&record);
    assert!(
        json.contains(r#""media_type":"image/webp""#)
            && json.contains(r#""media_type":"image/png""#)
    );
}

#[test]
fn each_recognized_format_reaches_a_provider_that_takes_it() {
    for (data, media_type) in [
        (PNG, "image/png"),
        (JPEG, "image/jpeg"),
        (GIF, "image/gif"),
        (WEBP, "image/webp"),
    ] {
        let record = user_images(&[(media_type, data)]);
        assert!(anthropic_json(&record).contains(data), "{media_type}");
        assert!(openai_json(&record).contains(data), "{media_type}");
    }
    assert!(
        gemini_json(&user_images(&[("image/heic", HEIC)])).contains(r#""mimeType":"image/heic""#)
    );
}

#[test]
fn bytes_that_are_no_image_become_a_marker() {
    let marker =
        "[Image (image/png) not shown: its data is not a PNG, JPEG, GIF, WEBP, HEIC or HEIF image]";
    for data in [
        "AAAAAAAAAAAAAAAA",
        "/9g=",
        "PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=",
    ] {
        let record = user_images(&[("image/png", data)]);
        for json in [
            openai_json(&record),
            anthropic_json(&record),
            gemini_json(&record),
        ] {
            assert!(json.contains(marker), "{data}: {json}");
            assert!(!json.contains(data));
        }
    }
}

#[test]
fn a_signature_cut_short_still_names_its_format_but_no_size() {
    // Eight bytes of PNG signature: a PNG, of no known size, so no pixel limit can apply.
    let record = user_images(&[("image/jpeg", CUT_SHORT_PNG)]);
    assert!(anthropic_json(&record).contains(&format!(
        r#"{{"type":"base64","media_type":"image/png","data":"{CUT_SHORT_PNG}"}}"#
    )));
}

#[test]
fn a_provider_that_refuses_the_actual_format_is_named_with_it() {
    let record = user_images(&[("image/png", HEIC)]);
    assert!(anthropic_json(&record)
        .contains("[Image (image/png) not shown: Anthropic does not accept image/heic]"));
    assert!(gemini_json(&user_images(&[("image/gif", GIF)]))
        .contains("[Image (image/gif) not shown: Gemini does not accept image/gif]"));
}

#[test]
fn an_avif_image_is_named_as_avif_and_refused_by_every_provider() {
    // A real AVIF file type box: major brand avif, then avif, mif1 and miaf, the generic HEIF
    // brands that made it look like HEIF.
    let avif = common::base64(b"\0\0\0\x1cftypavif\0\0\0\0avifmif1miafMA1B");
    for stored in ["image/avif", "image/heif"] {
        let record = user_images(&[(stored, &avif)]);
        for (provider, json) in [
            ("OpenAI", openai_json(&record)),
            ("Anthropic", anthropic_json(&record)),
            ("Gemini", gemini_json(&record)),
        ] {
            let marker =
                format!("[Image ({stored}) not shown: {provider} does not accept image/avif]");
            assert!(json.contains(&marker), "{json}");
            assert!(!json.contains(&avif), "{json}");
        }
    }
}

#[test]
fn a_gif_frame_larger_than_its_logical_screen_counts_for_pixel_limits() {
    // A 1x1 logical screen holding one 9000x10 frame.
    let mut bytes = b"GIF89a\x01\x00\x01\x00\x00\x00\x00".to_vec();
    bytes.extend([0x2c, 0, 0, 0, 0, 0x28, 0x23, 10, 0, 0]);
    bytes.extend([2, 2, 0x44, 0x01, 0, 0x3b]);
    let gif = common::base64(&bytes);
    let json = anthropic_json(&user_images(&[("image/gif", &gif)]));
    assert!(
        json.contains("[Image (image/gif) not shown: it is 9000x10 pixels, over Anthropic's limit of 8000x8000]"),
        "{json}"
    );
}

#[test]
fn a_jpeg_that_states_a_side_of_0_is_held_to_the_limit_on_the_other() {
    // A baseline frame header stating height 0 (legal: a later DNL marker sets it) and width
    // 9000, three components.
    let jpeg = common::base64(&[
        0xff, 0xd8, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x00, 0x23, 0x28, 0x03, 0x01, 0x22, 0x00,
        0x02, 0x11, 0x01, 0x03, 0x11, 0x01, 0xff, 0xd9,
    ]);
    let json = anthropic_json(&user_images(&[("image/jpeg", &jpeg)]));
    assert!(
        json.contains("[Image (image/jpeg) not shown: it is 9000x0 pixels, over Anthropic's limit of 8000x8000]"),
        "{json}"
    );
}

#[test]
fn openai_refuses_animated_gifs_and_the_others_take_them() {
    let record = user_images(&[("image/gif", ANIMATED_GIF)]);
    assert!(openai_json(&record)
        .contains("[Image (image/gif) not shown: OpenAI does not accept animated GIFs]"));
    assert!(openai_json(&user_images(&[("image/gif", GIF)])).contains(GIF));
    assert!(anthropic_json(&record).contains(ANIMATED_GIF));
}

#[test]
fn anthropic_refuses_an_image_over_8000_pixels_on_a_side() {
    let wide = png_header(8001, 10);
    let record = user_images(&[("image/png", &wide), ("image/png", &png_header(8000, 8000))]);
    let json = anthropic_json(&record);
    assert!(json.contains(
        "[Image (image/png) not shown: it is 8001x10 pixels, over Anthropic's limit of 8000x8000]"
    ));
    assert!(json.contains(&png_header(8000, 8000)));
    assert!(
        openai_json(&record).contains(&wide),
        "OpenAI scales large images itself"
    );
}

#[test]
fn beyond_20_images_anthropic_takes_only_2000_pixels_on_a_side() {
    let large = png_header(2001, 100);
    let mut images = vec![("image/png", large.as_str())];
    images.extend(std::iter::repeat_n(("image/png", PNG), 19));
    let twenty = user_images(&images);
    assert!(
        anthropic_json(&twenty).contains(&large),
        "20 images: no stricter limit"
    );
    images.push(("image/png", PNG));
    let json = anthropic_json(&user_images(&images));
    assert!(json.contains(
        "[Image (image/png) not shown: Anthropic takes at most 20 images a request when any is over 2000x2000 pixels, and the newest are kept]"
    ));
    assert!(!json.contains(&large));
    assert_eq!(json.matches(PNG).count(), 20);
}

/// The native images of a request, oldest first, by their position among all images.
fn natives(record: &[StoredMessage], limits: &ImageLimits) -> Vec<usize> {
    let wire = replay_messages(record, Vision::Sees);
    let parts = &anthropic::render_with(&wire, limits).messages[0].content;
    let mut position = 0;
    let mut natives = Vec::new();
    for part in parts {
        match part {
            Part::Image(_) | Part::File(_) | Part::Compaction(_) => {
                natives.push(position);
                position += 1;
            }
            Part::Text(text) => position += text.pieces().len(),
        }
    }
    natives
}

#[test]
fn screenshots_over_2000_pixels_keep_the_newest_20_native() {
    // 21 screenshots of 2560x1600: the newest 20 go, not none.
    let screenshot = png_header(2560, 1600);
    let record = user_images(&vec![("image/png", screenshot.as_str()); 21]);
    assert_eq!(
        natives(&record, &anthropic::LIMITS),
        (1..21).collect::<Vec<_>>()
    );

    // 20 small images, then a large one: the large one is the newest, and stays.
    let small = png_header(100, 100);
    let mut images = vec![("image/png", small.as_str()); 20];
    images.push(("image/png", screenshot.as_str()));
    let record = user_images(&images);
    assert_eq!(
        natives(&record, &anthropic::LIMITS),
        (1..21).collect::<Vec<_>>()
    );

    // 99 small images and a large newest one: the marker names the rule that withheld them,
    // never a count the request does not carry.
    let mut images = vec![("image/png", small.as_str()); 99];
    images.push(("image/png", screenshot.as_str()));
    let json = anthropic_json(&user_images(&images));
    assert!(!json.contains("100 images"), "no marker claims 100 images");
    assert!(json.contains("when any is over 2000x2000 pixels"));
    let natives = natives(&user_images(&images), &anthropic::LIMITS);
    assert!(natives.len() <= 20 && natives.contains(&99), "{natives:?}");
}

#[test]
fn over_the_image_count_the_newest_images_stay_and_the_oldest_go_in_steps() {
    let images: Vec<String> = (1..=102).map(|side| png_header(side, 1)).collect();
    let record = user_images(
        &images
            .iter()
            .map(|data| ("image/png", data.as_str()))
            .collect::<Vec<_>>(),
    );
    let marker = Piece::ImageNotShown {
        media_type: "image/png",
        reason: Reason::TooManyImages {
            provider: transcript_replay::Provider::Anthropic,
            limit: 100,
        },
    };
    assert_eq!(
        marker.to_string(),
        "[Image (image/png) not shown: Anthropic takes at most 100 images a request, and the newest are kept]"
    );
    // Two over the limit: the first image over goes alone, the next starts a step of 20.
    assert_eq!(
        natives(&record, &anthropic::LIMITS),
        (21..102).collect::<Vec<_>>()
    );
    let exact = ImageLimits {
        withholding_step: Some(1),
        ..anthropic::LIMITS
    };
    assert_eq!(natives(&record, &exact), (2..102).collect::<Vec<_>>());
    let wire = replay_messages(&record, Vision::Sees);
    let Part::Text(text) = &anthropic::render_with(&wire, &exact).messages[0].content[0] else {
        panic!("the oldest image was kept")
    };
    assert_eq!(text.pieces(), [marker, marker]);
    let more = ImageLimits {
        images_per_request: 600,
        ..anthropic::LIMITS
    };
    assert_eq!(
        natives(&record, &more).len(),
        102,
        "a caller's own limit applies"
    );
}

#[test]
fn over_the_request_size_the_newest_images_stay() {
    let record = user_images(&[("image/png", PNG), ("image/jpeg", JPEG), ("image/gif", GIF)]);
    let wire = replay_messages(&record, Vision::Sees);
    let limits = ImageLimits {
        base64_len_per_request: JPEG.len() + GIF.len(),
        ..gemini::LIMITS
    };
    let json = serde_json::to_string(&gemini::render_with(&wire, &limits)).unwrap();
    assert!(json.contains(&format!(
        "[Image (image/png) not shown: Gemini takes at most {} bytes of image data a request, and the newest images are kept]",
        JPEG.len() + GIF.len()
    )));
    assert!(json.contains(JPEG));
    let limits = ImageLimits {
        base64_len_per_request: 20_000_000,
        ..openai::LIMITS
    };
    let big = format!("{PNG}{}", "A".repeat(20_000_000 - PNG.len()));
    let record = user_images(&[("image/png", PNG), ("image/png", &big)]);
    let json = serde_json::to_string(&openai::render_with(
        &replay_messages(&record, Vision::Sees),
        &limits,
    ))
    .unwrap();
    assert!(json.starts_with(
        r#"{"messages":[{"role":"user","content":[{"type":"text","text":"[Image (image/png) not shown: OpenAI takes at most 20 MB of image data a request, and the newest images are kept]"}"#
    ));
}

fn native_images(parts: &[Part<'_>]) -> Vec<usize> {
    parts
        .iter()
        .filter_map(|part| match part {
            Part::Image(image) => Some(image.data().len()),
            Part::Text(_) | Part::File(_) | Part::Compaction(_) => None,
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn a_request_never_exceeds_its_image_limits_and_keeps_the_newest(
        record in common::record(),
        images_per_request in 0..6usize,
        base64_len_per_request in 0..400usize,
    ) {
        let wire = replay_messages(&record, Vision::Sees);
        let limits = ImageLimits { images_per_request, base64_len_per_request, ..gemini::LIMITS };
        let rendered = gemini::render_with(&wire, &limits);
        let native: Vec<usize> = rendered.contents.iter().flat_map(|content| native_images(&content.parts)).collect();
        prop_assert!(native.len() <= images_per_request);
        prop_assert!(native.iter().sum::<usize>() <= base64_len_per_request);
        // Withheld for the request's sake only where a newer image was kept or did not fit:
        // after the first such marker, reading from the newest back, no image is native.
        let mut seen_full = false;
        for content in rendered.contents.iter().rev() {
            for part in content.parts.iter().rev() {
                match part {
                    Part::Image(_) => prop_assert!(!seen_full, "an older image kept after the request was full"),
                    Part::File(_) | Part::Compaction(_) => {}
                    Part::Text(text) => {
                        for piece in text.pieces().iter().rev() {
                            if let Piece::ImageNotShown { reason: Reason::TooManyImages { .. } | Reason::RequestTooLarge { .. }, .. } = piece {
                                seen_full = true;
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn rendered_text_parts_are_never_side_by_side(record in common::record(), blind in any::<bool>()) {
        let wire = replay_messages(&record, if blind { Vision::Blind } else { Vision::Sees });
        let openai = openai::render(&wire).messages.into_iter().map(|message| message.content);
        let anthropic = anthropic::render(&wire).messages.into_iter().map(|message| message.content);
        let gemini = gemini::render(&wire).contents.into_iter().map(|content| content.parts);
        for parts in openai.chain(anthropic).chain(gemini) {
            prop_assert!(!parts.is_empty());
            for pair in parts.windows(2) {
                prop_assert!(!matches!(pair, [Part::Text(_), Part::Text(_)]));
            }
        }
    }

    #[test]
    fn rendering_is_deterministic(record in common::record()) {
        let wire = replay_messages(&record, Vision::Sees);
        prop_assert_eq!(
            serde_json::to_string(&anthropic::render(&wire)).unwrap(),
            serde_json::to_string(&anthropic::render(&wire.clone())).unwrap()
        );
    }
}

//! Golden cases: records replayed and rendered for each provider, to the exact JSON
//! (docs/design.md#renderers).

use transcript_replay::{anthropic, gemini, openai, parse_record, replay_messages, Vision};

#[derive(Clone, Copy, Debug)]
enum Provider {
    OpenAi,
    Anthropic,
    Gemini,
}

fn render(provider: Provider, record: &str, vision: Vision) -> String {
    let record = parse_record(record).unwrap();
    let wire = replay_messages(&record, vision);
    match provider {
        Provider::OpenAi => serde_json::to_string(&openai::render(&wire)),
        Provider::Anthropic => serde_json::to_string(&anthropic::render(&wire)),
        Provider::Gemini => serde_json::to_string(&gemini::render(&wire)),
    }
    .unwrap()
}

/// A real 1x1 PNG, so that a renderer reads its header.
const PNG_DATA: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC";
const PNG: &str = r#"{"type":"image","media_type":"image/png","data":"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC"}"#;
const GIF: &str = r#"{"type":"image","media_type":"image/gif","data":"R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw=="}"#;
const HEIC: &str = r#"{"type":"image","media_type":"image/heic","data":"AAAAGGZ0eXBoZWlj"}"#;

fn text(text: &str) -> String {
    serde_json::json!({"type": "text", "text": text}).to_string()
}

fn message(role: &str, blocks: &[&str]) -> String {
    format!(r#"{{"role":"{role}","blocks":[{}]}}"#, blocks.join(","))
}

fn record(messages: &[String]) -> String {
    format!("[{}]", messages.join(","))
}

struct Case {
    name: &'static str,
    provider: Provider,
    vision: Vision,
    record: String,
    expected: &'static str,
}

fn cases() -> Vec<Case> {
    use Provider::{Anthropic, Gemini, OpenAi};
    let case = |name, provider, vision, record, expected| Case {
        name,
        provider,
        vision,
        record,
        expected,
    };
    let sees = Vision::Sees;
    let blind = Vision::Blind;
    let conversation = record(&[
        message("system", &[&text("Be brief.")]),
        message("system", &[&text("Summary: a.rs was read.")]),
        message("user", &[&text("What is this?"), PNG]),
        message(
            "assistant",
            &[
                r#"{"type":"tool_use","id":"t1","name":"read","input":"{}"}"#,
                r#"{"type":"tool_result","tool_use_id":"t1","tool_name":"read","output":"x","is_error":true}"#,
            ],
        ),
        message("system", &[&text("Context was compacted.")]),
        message("tool", &[&text("done")]),
    ]);
    vec![
        // OpenAI Chat Completions.
        case(
            "openai: roles stay, tool is assistant, one text part is a string",
            OpenAi,
            sees,
            conversation.clone(),
            concat!(
                r#"{"messages":[{"role":"system","content":"Be brief."},"#,
                r#"{"role":"system","content":"Summary: a.rs was read."},"#,
                r#"{"role":"user","content":[{"type":"text","text":"What is this?"},{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC"}}]},"#,
                r#"{"role":"assistant","content":"Tool use: read({})\n\nError (read): x"},"#,
                r#"{"role":"system","content":"Context was compacted."},"#,
                r#"{"role":"assistant","content":"done"}]}"#
            ),
        ),
        case(
            "openai: images only in user messages",
            OpenAi,
            sees,
            record(&[message("assistant", &[&text("Here:"), PNG])]),
            r#"{"messages":[{"role":"assistant","content":"Here:\n\n[Image (image/png) not shown: OpenAI accepts images only in user messages]"}]}"#,
        ),
        case(
            "openai: images only in user messages, not system ones",
            OpenAi,
            sees,
            record(&[message("system", &[PNG])]),
            r#"{"messages":[{"role":"system","content":"[Image (image/png) not shown: OpenAI accepts images only in user messages]"}]}"#,
        ),
        case(
            "openai: media types it does not take",
            OpenAi,
            sees,
            record(&[message("user", &[HEIC, &text("ok?")])]),
            r#"{"messages":[{"role":"user","content":"[Image (image/heic) not shown: OpenAI does not accept image/heic]\n\nok?"}]}"#,
        ),
        case(
            "openai: gif is taken",
            OpenAi,
            sees,
            record(&[message("user", &[GIF])]),
            r#"{"messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw=="}}]}]}"#,
        ),
        case(
            "openai: the media type is sent as OpenAI spells it",
            OpenAi,
            sees,
            record(&[message(
                "user",
                &[
                    r#"{"type":"image","media_type":"Image/PNG","data":"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC"}"#,
                ],
            )]),
            r#"{"messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC"}}]}]}"#,
        ),
        case(
            "openai: a blind replay carries markers only",
            OpenAi,
            blind,
            record(&[message("user", &[PNG])]),
            r#"{"messages":[{"role":"user","content":"[Image (image/png) not shown: this model cannot view images]"}]}"#,
        ),
        case(
            "openai: white space is text it takes",
            OpenAi,
            sees,
            record(&[message("user", &[&text(" ")])]),
            r#"{"messages":[{"role":"user","content":" "}]}"#,
        ),
        case(
            "openai: an empty record is an empty list",
            OpenAi,
            sees,
            "[]".into(),
            r#"{"messages":[]}"#,
        ),
        // Anthropic Messages.
        case(
            "anthropic: leading system hoisted, later system in place, tool is assistant",
            Anthropic,
            sees,
            conversation.clone(),
            concat!(
                r#"{"system":"Be brief.\n\nSummary: a.rs was read.","messages":["#,
                r#"{"role":"user","content":[{"type":"text","text":"What is this?"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC"}}]},"#,
                r#"{"role":"assistant","content":[{"type":"text","text":"Tool use: read({})\n\nError (read): x"}]},"#,
                r#"{"role":"user","content":[{"type":"text","text":"[System]: Context was compacted."}]},"#,
                r#"{"role":"assistant","content":[{"type":"text","text":"done"}]}]}"#
            ),
        ),
        case(
            "anthropic: no system message, no system key",
            Anthropic,
            sees,
            record(&[message("user", &[&text("hi")])]),
            r#"{"messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}]}"#,
        ),
        case(
            "anthropic: a white-space-only text part is left out, white space within a text kept",
            Anthropic,
            sees,
            record(&[
                message("user", &[&text(" \n"), &text("a"), &text("\t")]),
                message("user", &[&text("  ")]),
                message("user", &[PNG, &text("\n")]),
            ]),
            concat!(
                r#"{"messages":[{"role":"user","content":[{"type":"text","text":" \n\n\na\n\n\t"}]},"#,
                r#"{"role":"user","content":[{"type":"text","text":"[Empty message]"}]},"#,
                r#"{"role":"user","content":[{"type":"image","source":{"type":"base64","media_type":"image/png","#,
                r#""data":"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC"}}]}]}"#,
            ),
        ),
        case(
            "anthropic: a history's last assistant message keeps its white space, since the live turn follows it",
            Anthropic,
            sees,
            record(&[
                message("assistant", &[&text("kept \n")]),
                message(
                    "assistant",
                    &[
                        &text("last"),
                        r#"{"type":"tool_result","tool_use_id":"t","tool_name":"ls","output":" \n ","is_error":false}"#,
                    ],
                ),
            ]),
            r#"{"messages":[{"role":"assistant","content":[{"type":"text","text":"kept \n"}]},{"role":"assistant","content":[{"type":"text","text":"last\n\nResult (ls):  \n "}]}]}"#,
        ),
        case(
            "anthropic: images only in user messages",
            Anthropic,
            sees,
            record(&[message("tool", &[PNG])]),
            r#"{"messages":[{"role":"assistant","content":[{"type":"text","text":"[Image (image/png) not shown: Anthropic accepts images only in user messages]"}]}]}"#,
        ),
        case(
            "anthropic: a hoisted system image is a marker",
            Anthropic,
            sees,
            record(&[message("system", &[&text("See"), PNG])]),
            r#"{"system":"See\n\n[Image (image/png) not shown: Anthropic accepts images only in user messages]","messages":[]}"#,
        ),
        case(
            "anthropic: media types it does not take",
            Anthropic,
            sees,
            record(&[message(
                "user",
                &[r#"{"type":"image","media_type":"image/svg+xml","data":"PHN2Zz4="}"#],
            )]),
            r#"{"messages":[{"role":"user","content":[{"type":"text","text":"[Image (image/svg+xml) not shown: Anthropic does not accept image/svg+xml]"}]}]}"#,
        ),
        // Gemini generateContent.
        case(
            "gemini: camelCase, model turns, system hoisted and in place",
            Gemini,
            sees,
            conversation,
            concat!(
                r#"{"systemInstruction":{"parts":[{"text":"Be brief.\n\nSummary: a.rs was read."}]},"contents":["#,
                r#"{"role":"user","parts":[{"text":"What is this?"},{"inlineData":{"mimeType":"image/png","data":"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC"}}]},"#,
                r#"{"role":"model","parts":[{"text":"Tool use: read({})\n\nError (read): x"}]},"#,
                r#"{"role":"user","parts":[{"text":"[System]: Context was compacted."}]},"#,
                r#"{"role":"model","parts":[{"text":"done"}]}]}"#
            ),
        ),
        case(
            "gemini: images may stand in model turns",
            Gemini,
            sees,
            record(&[message("assistant", &[HEIC])]),
            r#"{"contents":[{"role":"model","parts":[{"inlineData":{"mimeType":"image/heic","data":"AAAAGGZ0eXBoZWlj"}}]}]}"#,
        ),
        case(
            "gemini: gif is not taken",
            Gemini,
            sees,
            record(&[message("user", &[&text("a"), GIF, &text("b")])]),
            r#"{"contents":[{"role":"user","parts":[{"text":"a\n\n[Image (image/gif) not shown: Gemini does not accept image/gif]\n\nb"}]}]}"#,
        ),
        case(
            "gemini: no system image",
            Gemini,
            sees,
            record(&[message("user", &[&text("u")]), message("system", &[PNG])]),
            r#"{"contents":[{"role":"user","parts":[{"text":"u\n\n[System]: [Image (image/png) not shown: Gemini does not accept images in system instructions]"}]}]}"#,
        ),
        case(
            "gemini: no empty or white-space-only text part",
            Gemini,
            sees,
            record(&[message("user", &[&text(" "), PNG, &text("\n")])]),
            r#"{"contents":[{"role":"user","parts":[{"inlineData":{"mimeType":"image/png","data":"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC"}}]}]}"#,
        ),
    ]
}

#[test]
fn every_golden_record_renders_to_its_exact_provider_json() {
    let mut failures = Vec::new();
    for case in cases() {
        let got = render(case.provider, &case.record, case.vision);
        if got != case.expected {
            failures.push(format!(
                "{} ({:?}):\n  got  {got}\n  want {}",
                case.name, case.provider, case.expected
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn an_image_over_the_provider_limit_is_a_marker_that_says_so() {
    for (provider, limit, reason) in [
        (
            Provider::OpenAi,
            openai::MAX_IMAGE_BASE64_LEN,
            "it is larger than OpenAI's limit of 20 MB per image",
        ),
        (
            Provider::Anthropic,
            anthropic::MAX_IMAGE_BASE64_LEN,
            "it is larger than Anthropic's limit of 5 MB per image",
        ),
        (
            Provider::Gemini,
            gemini::MAX_INLINE_DATA_BASE64_LEN,
            "it is larger than Gemini's limit of 100 MB per image",
        ),
    ] {
        // A real PNG header, then zero bytes up to the size wanted.
        let at_limit = format!("{PNG_DATA}{}", "A".repeat(limit / 4 * 4 - PNG_DATA.len()));
        let over = format!("{at_limit}AAAA");
        for (data, shown) in [(at_limit, true), (over, false)] {
            let record = record(&[message(
                "user",
                &[&format!(
                    r#"{{"type":"image","media_type":"image/png","data":"{data}"}}"#
                )],
            )]);
            let rendered = render(provider, &record, Vision::Sees);
            assert_eq!(
                rendered.contains(&data),
                shown,
                "{provider:?}, {} characters",
                data.len()
            );
            assert_eq!(
                rendered.contains(reason),
                !shown,
                "{provider:?}, {} characters",
                data.len()
            );
        }
    }
}

#[test]
fn renderers_keep_one_message_per_wire_message_but_hoisted_system_ones_and_gemini_merges() {
    let record = parse_record(&record(&[
        message("system", &[&text("s")]),
        message("user", &[&text("u")]),
        message("system", &[&text("s2")]),
        message("assistant", &[]),
    ]))
    .unwrap();
    let wire = replay_messages(&record, Vision::Sees);
    assert_eq!(openai::render(&wire).messages.len(), 4);
    assert_eq!(anthropic::render(&wire).messages.len(), 3);
    // Gemini rejects adjacent turns of one role: the later system message, a user turn
    // there, merges with the user message before it.
    let contents = gemini::render(&wire).contents;
    assert_eq!(contents.len(), 2);
    assert_eq!(
        serde_json::to_string(&contents[0]).unwrap(),
        r#"{"role":"user","parts":[{"text":"u\n\n[System]: s2"}]}"#
    );
}

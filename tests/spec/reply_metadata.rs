//! What a reply carries beyond its message is on `Reply::metadata`, never silently dropped:
//! whole replies and their streams give the same metadata, and `--outcome`'s JSON carries it
//! as `"metadata"`, left out when empty.

use transcript_replay::{Provider, Reply};

/// Reads a stream of server-sent events.
fn streamed(provider: Provider, events: &str) -> Reply {
    let mut reader = provider.stream();
    reader.feed(events.as_bytes()).unwrap();
    reader.finish().unwrap()
}

/// (provider, a whole reply, the metadata as `--outcome` prints it).
const WHOLE: &[(&str, &str, &str)] = &[
    (
        "anthropic",
        r#"{"role":"assistant","content":[{"type":"fallback","from":{"model":"claude-opus-4-5"},"to":{"model":"claude-sonnet-4-5"}},{"type":"text","text":"No."}],"stop_reason":"refusal","stop_details":{"type":"refusal","category":"cyber","explanation":"Not that."},"container":{"id":"container_1","expires_at":"2026-12-06T13:00:00Z"}}"#,
        r#"{"container":{"id":"container_1","expires_at":"2026-12-06T13:00:00Z"},"stop_details":{"type":"refusal","category":"cyber","explanation":"Not that."},"model_hops":[{"from":"claude-opus-4-5","to":"claude-sonnet-4-5"}]}"#,
    ),
    (
        "bedrock",
        r#"{"output":{"message":{"role":"assistant","content":[{"text":"Sorry."}]}},"stopReason":"guardrail_intervened","trace":{"guardrail":{"actionReason":"Guardrail blocked."}}}"#,
        r#"{"guardrail_trace":{"actionReason":"Guardrail blocked."}}"#,
    ),
    (
        "gemini",
        r#"{"candidates":[{"content":{"parts":[{"text":"Read one."}]},"finishReason":"STOP","urlContextMetadata":{"urlMetadata":[{"retrievedUrl":"https://a.example","urlRetrievalStatus":"URL_RETRIEVAL_STATUS_SUCCESS"},{"retrievedUrl":"https://b.example","urlRetrievalStatus":"URL_RETRIEVAL_STATUS_ERROR"}]}}]}"#,
        r#"{"urls":[{"url":"https://a.example","status":"URL_RETRIEVAL_STATUS_SUCCESS","read":true},{"url":"https://b.example","status":"URL_RETRIEVAL_STATUS_ERROR","read":false}]}"#,
    ),
    (
        // A blocked prompt: no candidate, the reason kept (spec `PromptFeedback.blockReason`).
        "gemini",
        r#"{"promptFeedback":{"blockReason":"PROHIBITED_CONTENT"},"usageMetadata":{"promptTokenCount":9,"totalTokenCount":9}}"#,
        r#"{"prompt_blocked":"PROHIBITED_CONTENT"}"#,
    ),
    (
        // Its reason as a number (`enum-encoding=int`; `BlockReason` 3 is `BLOCKLIST`).
        "gemini",
        r#"{"promptFeedback":{"blockReason":3}}"#,
        r#"{"prompt_blocked":"BLOCKLIST"}"#,
    ),
    (
        // Three candidates (`candidateCount: 3`): the first read, two counted.
        "gemini",
        r#"{"candidates":[{"content":{"parts":[{"text":"A"}]},"finishReason":"STOP","index":0},{"content":{"parts":[{"text":"B"}]},"finishReason":"STOP","index":1},{"content":{"parts":[{"text":"C"}]},"finishReason":"STOP","index":2}]}"#,
        r#"{"other_choices":2}"#,
    ),
    (
        // A URL's status as a number (`UrlRetrievalStatus` 1 is success, 3 a paywall).
        "gemini",
        r#"{"candidates":[{"content":{"parts":[{"text":"Read one."}]},"finishReason":1,"urlContextMetadata":{"urlMetadata":[{"retrievedUrl":"https://a.example","urlRetrievalStatus":1},{"retrievedUrl":"https://b.example","urlRetrievalStatus":3}]}}]}"#,
        r#"{"urls":[{"url":"https://a.example","status":"URL_RETRIEVAL_STATUS_SUCCESS","read":true},{"url":"https://b.example","status":"URL_RETRIEVAL_STATUS_PAYWALL","read":false}]}"#,
    ),
];

#[test]
fn each_reply_s_metadata_is_listed_as_outcome_prints_it() {
    for (provider, body, expected) in WHOLE {
        let provider: Provider = provider.parse().unwrap();
        let reply = provider.read_reply(body).unwrap();
        let outcome = serde_json::to_string(&reply).unwrap();
        assert!(
            outcome.ends_with(&format!(r#","metadata":{expected}}}"#)),
            "{provider}: {outcome}"
        );
    }
}

#[test]
fn a_reply_with_none_prints_no_metadata() {
    let reply = Provider::Anthropic
        .read_reply(r#"{"role":"assistant","content":[{"type":"text","text":"Hi"}],"stop_reason":"end_turn"}"#)
        .unwrap();
    assert!(reply.metadata().is_empty());
    let outcome = serde_json::to_value(&reply).unwrap();
    assert!(outcome.get("metadata").is_none(), "{outcome}");
}

#[test]
fn a_model_hop_is_metadata_not_a_marker_in_the_message() {
    let (_, body, _) = WHOLE[0];
    let reply = Provider::Anthropic.read_reply(body).unwrap();
    assert_eq!(
        reply.message.blocks,
        [transcript_replay::Block::text("No.")]
    );
}

#[test]
fn anthropic_s_stream_gives_the_whole_reply_s_metadata() {
    let events = concat!(
        "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"role\":\"assistant\",\"content\":[],\"usage\":{\"input_tokens\":5,\"output_tokens\":0}}}\n\n",
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"fallback\",\"from\":{\"model\":\"claude-opus-4-5\"},\"to\":{\"model\":\"claude-sonnet-4-5\"}}}\n\n",
        "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n",
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"text_delta\",\"text\":\"No.\"}}\n\n",
        "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":1}\n\n",
        "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"refusal\",\"stop_details\":{\"type\":\"refusal\",\"category\":\"cyber\",\"explanation\":\"Not that.\"},\"container\":{\"id\":\"container_1\",\"expires_at\":\"2026-12-06T13:00:00Z\"}},\"usage\":{\"output_tokens\":3}}\n\n",
        "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
    );
    let reply = streamed(Provider::Anthropic, events);
    let (_, body, _) = WHOLE[0];
    let whole = Provider::Anthropic.read_reply(body).unwrap();
    assert_eq!(reply.metadata(), whole.metadata());
    assert_eq!(reply.message.blocks, whole.message.blocks);
}

#[test]
fn gemini_image_safety_is_a_content_filter() {
    let reply = Provider::Gemini
        .read_reply(r#"{"candidates":[{"content":{"parts":[]},"finishReason":"IMAGE_SAFETY"}]}"#)
        .unwrap();
    assert_eq!(reply.stop, transcript_replay::StopReason::ContentFilter);
}

#[test]
fn a_file_the_provider_s_code_made_is_named_by_its_id_whole_and_streamed() {
    let item = r#"{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Here is the chart.","annotations":[{"type":"container_file_citation","container_id":"cntr_1","file_id":"cfile_1","filename":"chart.png","start_index":0,"end_index":5}]}]}"#;
    let whole = Provider::OpenAiResponses
        .read_reply(&format!(r#"{{"status":"completed","output":[{item}]}}"#))
        .unwrap();
    assert_eq!(
        whole.message.blocks,
        [
            transcript_replay::Block::text("Here is the chart."),
            transcript_replay::Block::text("file: chart.png <cfile_1>"),
        ]
    );
    let events = [
        r#"data: {"type":"response.output_text.delta","output_index":0,"content_index":0,"delta":"Here is the chart."}"#.to_owned(),
        format!(r#"data: {{"type":"response.output_item.done","output_index":0,"item":{item}}}"#),
        format!(r#"data: {{"type":"response.completed","response":{{"status":"completed","output":[{item}]}}}}"#),
    ]
    .join("\n\n")
        + "\n\n";
    let streamed = streamed(Provider::OpenAiResponses, &events);
    assert_eq!(streamed.message.blocks, whole.message.blocks);
}

#[test]
fn gemini_s_stream_gives_the_whole_reply_s_urls() {
    let (_, body, _) = WHOLE[2];
    let whole = Provider::Gemini.read_reply(body).unwrap();
    let events = format!("data: {body}\n\n");
    let streamed = streamed(Provider::Gemini, &events);
    assert_eq!(streamed.metadata(), whole.metadata());
    assert_eq!(streamed.metadata().urls.len(), 2);
}

#[test]
fn gemini_s_stream_gives_the_whole_reply_s_blocked_prompt_and_other_choices() {
    for (_, body, _) in &WHOLE[3..6] {
        let whole = Provider::Gemini.read_reply(body).unwrap();
        let streamed = streamed(Provider::Gemini, &format!("data: {body}\n\n"));
        assert_eq!(streamed, whole, "{body}");
        assert!(!streamed.metadata().is_empty(), "{body}");
    }
    let (_, blocked, _) = WHOLE[3];
    let reply = Provider::Gemini.read_reply(blocked).unwrap();
    assert_eq!(reply.stop, transcript_replay::StopReason::ContentFilter);
    assert!(reply.message.blocks.is_empty());
    assert_eq!(reply.message.usage.map(|usage| usage.input_tokens), Some(9));
}

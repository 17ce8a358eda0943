//! A streamed Anthropic reply goes back in the round in flight as the whole reply does: its
//! text blocks with the citations that came in `citations_delta` events, each as it came
//! (a web search result's `encrypted_index`, which Anthropic says must be passed back, a
//! document's character, page and content block locations, a search result's location), so
//! that the next body is the same, byte for byte, whole or streamed, however the stream's
//! bytes are chunked.

use transcript_replay::{anthropic, Provider, Reply, StoredMessage, ToolOutput, Turn};

/// One citation of each kind Anthropic streams (the pinned spec's `CitationsDelta`), in the
/// documented key order.
const WEB: &str = r#"{"type":"web_search_result_location","url":"https://www.rust-lang.org/","title":"Rust","encrypted_index":"Eo8BCioIAhgBIiQy","cited_text":"A language empowering everyone"}"#;
const CHAR: &str = r#"{"type":"char_location","cited_text":"The grass is green.","document_index":0,"document_title":"Facts","start_char_index":0,"end_char_index":20,"file_id":null}"#;
const PAGE: &str = r#"{"type":"page_location","cited_text":"Water boils at 100 \u00b0C.","document_index":1,"document_title":null,"start_page_number":2,"end_page_number":3}"#;
const BLOCK: &str = r#"{"type":"content_block_location","cited_text":"Rust is fast.","document_index":2,"document_title":"Notes","start_block_index":0,"end_block_index":1}"#;
const SEARCH: &str = r#"{"type":"search_result_location","cited_text":"Rust 1.0 shipped in 2015.","source":"https://blog.rust-lang.org/2015/05/15/Rust-1.0.html","title":"Announcing Rust 1.0","search_result_index":0,"start_block_index":0,"end_block_index":1}"#;

const SEARCH_CALL: &str =
    r#"{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"rust"}}"#;
const SEARCH_RESULT: &str = r#"{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[{"type":"web_search_result","url":"https://www.rust-lang.org/","title":"Rust","encrypted_content":"EqgfCioIARgB","page_age":null}]}"#;

/// The cited texts: (the text's two pieces as the stream sends them, JSON strings with
/// their escapes, its citations). The whole reply's text is the two joined, escapes as sent.
fn cited() -> [([&'static str; 2], Vec<&'static str>); 4] {
    [
        ([r#""Rust empowers ""#, r#""everyone.""#], vec![WEB]),
        (
            [
                r#"" Grass is green; ""#,
                r#""water boils at 100 \u00b0C \/ 212 \u00b0F.""#,
            ],
            vec![CHAR, PAGE],
        ),
        (
            [r#"" Rust is fast,\n""#, r#""and 1.0 shipped in 2015.""#],
            vec![BLOCK, SEARCH],
        ),
        ([r#"" Reading ""#, r#""the file.""#], vec![]),
    ]
}

/// A JSON string's contents, between its quotes.
fn inner(json: &str) -> &str {
    &json[1..json.len() - 1]
}

/// The reply whole: a web search, its result, cited texts, then a call of the caller's tool.
fn whole() -> String {
    let mut content = vec![SEARCH_CALL.to_owned(), SEARCH_RESULT.to_owned()];
    for ([head, tail], citations) in cited() {
        let text = format!(r#""{}{}""#, inner(head), inner(tail));
        content.push(match citations.is_empty() {
            true => format!(r#"{{"type":"text","text":{text}}}"#),
            false => format!(
                r#"{{"type":"text","text":{text},"citations":[{}]}}"#,
                citations.join(",")
            ),
        });
    }
    content.push(
        r#"{"type":"tool_use","id":"toolu_1","name":"read","input":{"path":"a.rs"}}"#.to_owned(),
    );
    format!(
        r#"{{"content":[{}],"stop_reason":"tool_use","usage":{{"input_tokens":30,"output_tokens":20}}}}"#,
        content.join(",")
    )
}

/// The same reply streamed: each cited text's citations in `citations_delta` events before
/// and between its text's pieces.
fn streamed() -> String {
    let mut events = vec![
        r#"{"type":"message_start","message":{"content":[],"usage":{"input_tokens":30,"output_tokens":1}}}"#.to_owned(),
        r#"{"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{}}}"#.to_owned(),
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"query\":\"rust\"}"}}"#.to_owned(),
        r#"{"type":"content_block_stop","index":0}"#.to_owned(),
        format!(r#"{{"type":"content_block_start","index":1,"content_block":{SEARCH_RESULT}}}"#),
        r#"{"type":"content_block_stop","index":1}"#.to_owned(),
    ];
    for (n, ([head, tail], citations)) in cited().into_iter().enumerate() {
        let index = n + 2;
        events.push(format!(
            r#"{{"type":"content_block_start","index":{index},"content_block":{{"type":"text","text":"","citations":[]}}}}"#
        ));
        let text_delta = |piece: &str| {
            format!(
                r#"{{"type":"content_block_delta","index":{index},"delta":{{"type":"text_delta","text":{piece}}}}}"#
            )
        };
        let citation_delta = |citation: &str| {
            format!(
                r#"{{"type":"content_block_delta","index":{index},"delta":{{"type":"citations_delta","citation":{citation}}}}}"#
            )
        };
        if let Some(first) = citations.first() {
            events.push(citation_delta(first));
        }
        events.push(text_delta(head));
        for citation in citations.iter().skip(1) {
            events.push(citation_delta(citation));
        }
        events.push(text_delta(tail));
        events.push(format!(
            r#"{{"type":"content_block_stop","index":{index}}}"#
        ));
    }
    events.extend([
        r#"{"type":"content_block_start","index":6,"content_block":{"type":"tool_use","id":"toolu_1","name":"read","input":{}}}"#.to_owned(),
        r#"{"type":"content_block_delta","index":6,"delta":{"type":"input_json_delta","partial_json":"{\"path\":"}}"#.to_owned(),
        r#"{"type":"content_block_delta","index":6,"delta":{"type":"input_json_delta","partial_json":"\"a.rs\"}"}}"#.to_owned(),
        r#"{"type":"content_block_stop","index":6}"#.to_owned(),
        r#"{"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":20}}"#.to_owned(),
        r#"{"type":"message_stop"}"#.to_owned(),
    ]);
    events
        .iter()
        .map(|data| {
            let kind: serde_json::Value = serde_json::from_str(data).unwrap();
            format!(
                "event: {}\ndata: {data}\n\n",
                kind["type"].as_str().unwrap()
            )
        })
        .collect()
}

/// The stream read in chunks of `size` bytes.
fn read_streamed(bytes: &[u8], size: usize) -> Reply {
    let mut reader = anthropic::stream();
    for chunk in bytes.chunks(size) {
        reader.feed(chunk).unwrap();
    }
    reader.end().unwrap();
    reader.finish().unwrap()
}

/// The next body: the history, the live turn, and the reply's round with the call's output.
fn next_body(reply: &Reply) -> String {
    let history = [StoredMessage::user("Is Rust fast? Then read a.rs.")];
    let outputs = [ToolOutput::ok("toolu_1", "fn main() {}")];
    let turn = Turn::new(&history)
        .without_preamble()
        .round(reply, &outputs);
    serde_json::to_string(&Provider::Anthropic.body(&turn).unwrap()).unwrap()
}

#[test]
fn a_streamed_reply_gives_the_next_body_the_whole_reply_gives_byte_for_byte() {
    let whole = anthropic::read_reply(&whole()).unwrap();
    let expected = next_body(&whole);
    // Every citation goes back as it came, on the text it supports, and the text with its
    // escapes as sent.
    for sent in [WEB, CHAR, PAGE, BLOCK, SEARCH, r#"100 \u00b0C \/ 212"#] {
        assert!(expected.contains(sent), "{sent} in {expected}");
    }
    let bytes = streamed();
    for size in [1, 2, 3, 7, 64, bytes.len()] {
        let streamed = read_streamed(bytes.as_bytes(), size);
        assert_eq!(streamed, whole, "chunks of {size}: the reply");
        assert_eq!(
            next_body(&streamed),
            expected,
            "chunks of {size}: the next body"
        );
    }
}

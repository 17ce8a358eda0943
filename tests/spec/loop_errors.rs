//! Errors a loop can act on (docs/design.md#provider-errors): `BodyError::kind()`,
//! `StreamError::retryable()`, `ProviderError::retry_after` from the body or the response's
//! headers, Bedrock's `x-amzn-ErrorType`, and every overflow wording with its counts, each
//! with where it was documented or reported.

use std::time::Duration;

use serde_json::json;
use transcript_replay::{
    anthropic, bedrock, cost::image_tokens, errors::BodyErrorKind, errors::CallerPart,
    errors::ProviderErrorKind, errors::Sequencing, errors::StreamErrorKind,
    errors::ToolDeclaration, errors::ToolLinkage, gemini, openai, Budget, Provider, StoredMessage,
    Tool, ToolChoice, ToolOutput, Turn,
};

use crate::common::run;

fn calls(ids: &[&str]) -> transcript_replay::Reply {
    let calls: Vec<_> = ids
        .iter()
        .map(|id| json!({"id": id, "type": "function", "function": {"name": "ls", "arguments": "{}"}}))
        .collect();
    let body = json!({"choices": [{"message": {"role": "assistant", "content": null,
        "tool_calls": calls}, "finish_reason": "tool_calls"}]});
    openai::read_reply(&body.to_string()).unwrap()
}

#[test]
fn each_body_error_says_what_it_is_about() {
    let user = [StoredMessage::user("List the files.")];
    let ends = [
        StoredMessage::user("Hi"),
        StoredMessage::assistant("Hello!"),
    ];
    let starts = [
        StoredMessage::assistant("Hello!"),
        StoredMessage::user("Hi"),
    ];
    let turn = Turn::new(&ends);
    let error = gemini::body(&turn).unwrap_err();
    assert_eq!(
        error.kind(),
        BodyErrorKind::Sequencing(Sequencing::EndsOnAssistant)
    );
    // The text stays what it was.
    assert_eq!(
        error.to_string(),
        "the request would end on a model turn: add the live turn (Gemini rejects a request that ends on a model turn)"
    );
    // Bedrock's Converse needs a user turn first.
    let error = bedrock::body(&Turn::new(&starts)).unwrap_err();
    assert_eq!(
        error.kind(),
        BodyErrorKind::Sequencing(Sequencing::StartsOnAssistant)
    );

    // Tool linkage: a call without its output, an output of no call, an output twice.
    let reply = calls(&["c1", "c2"]);
    let missing = [ToolOutput::ok("c1", "a.rs")];
    let error = openai::body(&Turn::new(&user).round(&reply, &missing)).unwrap_err();
    assert_eq!(
        error.kind(),
        BodyErrorKind::ToolLinkage(ToolLinkage::CallWithoutOutput { round: 0, id: "c2" })
    );
    let stray = [
        ToolOutput::ok("c1", "a.rs"),
        ToolOutput::ok("c2", "b.rs"),
        ToolOutput::ok("c9", "?"),
    ];
    let error = openai::body(&Turn::new(&user).round(&reply, &stray)).unwrap_err();
    assert_eq!(
        error.kind(),
        BodyErrorKind::ToolLinkage(ToolLinkage::OutputOfNoCall { round: 0, id: "c9" })
    );
    let twice = [
        ToolOutput::ok("c1", "a.rs"),
        ToolOutput::ok("c1", "a.rs"),
        ToolOutput::ok("c2", "b.rs"),
    ];
    let error = openai::body(&Turn::new(&user).round(&reply, &twice)).unwrap_err();
    assert_eq!(
        error.kind(),
        BodyErrorKind::ToolLinkage(ToolLinkage::OutputTwice { round: 0, id: "c1" })
    );
    let answered = [ToolOutput::ok("c1", "a.rs"), ToolOutput::ok("c2", "b.rs")];
    let error = anthropic::body(&Turn::new(&user).round(&reply, &answered)).unwrap_err();
    assert_eq!(
        error.kind(),
        BodyErrorKind::ToolLinkage(ToolLinkage::RoundOfAnotherProvider {
            round: 0,
            of: Provider::OpenAi
        })
    );

    // The caller's parts and the tools.
    let fields = json!({"messages": []});
    let error = anthropic::body(&Turn::new(&user).fields(&fields)).unwrap_err();
    assert_eq!(
        error.kind(),
        BodyErrorKind::Caller(CallerPart::Reserved { key: "messages" })
    );
    let fields = json!([1]);
    let error = anthropic::body(&Turn::new(&user).fields(&fields)).unwrap_err();
    assert!(
        matches!(
            error.kind(),
            BodyErrorKind::Caller(CallerPart::NotAnObject { .. })
        ),
        "{error}"
    );
    let error = anthropic::body(&Turn::new(&user).tool_choice(ToolChoice::Required)).unwrap_err();
    assert_eq!(
        error.kind(),
        BodyErrorKind::Tools(ToolDeclaration::ChoiceWithoutTools)
    );
    let tools = [
        Tool::new("ls", "List files.", r#"{"type": "object"}"#).unwrap(),
        Tool::new("ls", "List files.", r#"{"type": "object"}"#).unwrap(),
    ];
    let error = anthropic::body(&Turn::new(&user).tools(&tools)).unwrap_err();
    assert_eq!(
        error.kind(),
        BodyErrorKind::Tools(ToolDeclaration::DeclaredTwice { name: "ls" })
    );
}

#[test]
fn over_budget_says_by_how_much_and_which_part() {
    let live = [StoredMessage::user("Read this. ".repeat(400))];
    let claude = image_tokens("claude").unwrap();
    let turn = Turn::new(&[]).live(&live).budget(Budget::new(100, claude));
    let error = anthropic::body(&turn).unwrap_err();
    let BodyErrorKind::OverBudget {
        needed,
        budget,
        over,
        parts,
        ..
    } = error.kind()
    else {
        panic!("{error}");
    };
    assert_eq!(budget, 100);
    assert!(needed > 800, "{needed}");
    assert_eq!(over, needed - budget);
    let (largest, tokens) = parts.first().unwrap();
    assert_eq!(largest, "the live turn");
    assert!(parts.iter().all(|(_, part)| part <= tokens));
    assert!(
        error
            .to_string()
            .contains(&format!("{over} over the budget of 100")),
        "{error}"
    );
}

#[test]
fn a_stream_says_whether_a_retry_can_help() {
    // Cut: the bytes end before `[DONE]`.
    let mut reader = openai::stream();
    reader
        .feed(b"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}\n\n")
        .unwrap();
    let error = reader.finish().unwrap_err();
    assert_eq!(error.kind(), StreamErrorKind::Cut);
    assert!(error.is_retryable());
    // The provider's overload: retryable; its refusal of the request: not.
    let event = |kind: &str, message: &str| {
        format!("event: error\ndata: {{\"type\":\"error\",\"error\":{{\"type\":\"{kind}\",\"message\":\"{message}\"}}}}\n\n")
    };
    let error = anthropic::stream()
        .feed(event("overloaded_error", "Overloaded").as_bytes())
        .unwrap_err();
    assert_eq!(error.kind(), StreamErrorKind::ProviderError);
    assert!(error.is_retryable());
    let error = anthropic::stream()
        .feed(
            event(
                "invalid_request_error",
                "prompt is too long: 219898 tokens > 200000 maximum",
            )
            .as_bytes(),
        )
        .unwrap_err();
    assert_eq!(error.kind(), StreamErrorKind::ProviderError);
    assert!(!error.is_retryable());
    // JSON that is not the provider's.
    let error = openai::stream().feed(b"data: {oops\n\n").unwrap_err();
    assert_eq!(error.kind(), StreamErrorKind::Json);
    assert!(!error.is_retryable());
    // A frame whose prelude CRC does not match.
    let error = bedrock::stream()
        .feed(&[0, 0, 0, 16, 0, 0, 0, 0, 1, 2, 3, 4, 0, 0, 0, 0])
        .unwrap_err();
    assert_eq!(error.kind(), StreamErrorKind::Frame);
    assert!(!error.is_retryable());
}

#[test]
fn the_wait_comes_from_the_body() {
    // OpenAI's text (https://github.com/openai/codex/issues/88,
    // https://github.com/daveshap/Medical_Intake/issues/9).
    let error = openai::read_error(
        429,
        r#"{"error": {"message": "Rate limit reached for o4-mini in organization org-x on tokens per min (TPM): Limit 200000, Used 162960, Requested 42288. Please try again in 1.574s. Visit https://platform.openai.com/account/rate-limits to learn more.", "type": "tokens", "param": null, "code": "rate_limit_exceeded"}}"#,
    );
    assert_eq!(
        (error.kind, error.retryable, error.retry_after),
        (
            ProviderErrorKind::RateLimited,
            true,
            Some(Duration::from_millis(1574))
        )
    );
    let error = openai::read_error(
        429,
        r#"{"error": {"message": "Rate limit reached for 10KTPM-200RPM in organization org-x on tokens per min. Limit: 10000 / min. Please try again in 6ms. Contact us through our help center at help.openai.com if you continue to have issues.", "type": "tokens", "code": "rate_limit_exceeded"}}"#,
    );
    assert_eq!(error.retry_after, Some(Duration::from_millis(6)));
    // Gemini's RetryInfo wins over its text
    // (https://github.com/googleapis/python-genai/pull/2114).
    let error = gemini::read_error(
        429,
        r#"{"error": {"code": 429, "message": "You exceeded your current quota. Please retry in 58.934310785s.", "status": "RESOURCE_EXHAUSTED", "details": [{"@type": "type.googleapis.com/google.rpc.QuotaFailure", "violations": []}, {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "58s"}]}}"#,
    );
    assert_eq!(error.retry_after, Some(Duration::from_secs(58)));
    let error = gemini::read_error(
        429,
        r#"{"error": {"code": 429, "message": "You exceeded your current quota. Please retry in 58.934310785s.", "status": "RESOURCE_EXHAUSTED"}}"#,
    );
    assert_eq!(error.retry_after, Some(Duration::new(58, 934_310_785)));
    // A rate limit the one request is larger than: no wait helps
    // (https://github.com/TheR1D/shell_gpt/issues/653).
    let error = openai::read_error(
        429,
        r#"{"error": {"message": "Request too large for gpt-4o in organization org-x on tokens per min (TPM): Limit 30000, Requested 31538. The input or output tokens must be reduced in order to run successfully. Visit https://platform.openai.com/account/rate-limits to learn more.", "type": "tokens", "param": null, "code": "rate_limit_exceeded"}}"#,
    );
    assert_eq!(
        (error.kind, error.retryable),
        (ProviderErrorKind::RateLimited, false)
    );
    // Nothing said, nothing kept.
    let error = anthropic::read_error(
        529,
        r#"{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}"#,
    );
    assert_eq!(error.retry_after, None);
}

#[test]
fn the_headers_say_how_long_and_whether() {
    let limited = r#"{"type": "error", "error": {"type": "rate_limit_error", "message": "Number of request tokens has exceeded your per-minute rate limit"}}"#;
    let read = |headers: &[(&str, &str)]| Provider::Anthropic.read_error(429, headers, limited);
    // Seconds, names in any case (https://docs.anthropic.com/en/api/rate-limits).
    assert_eq!(
        read(&[("Retry-After", "17")]).retry_after,
        Some(Duration::from_secs(17))
    );
    // Milliseconds first.
    assert_eq!(
        read(&[("retry-after", "17"), ("RETRY-AFTER-MS", "1500")]).retry_after,
        Some(Duration::from_millis(1500))
    );
    // An HTTP date is not read.
    assert_eq!(
        read(&[("retry-after", "Wed, 21 Oct 2015 07:28:00 GMT")]).retry_after,
        None
    );
    // The provider's own word on a retry.
    let error = read(&[("x-should-retry", "false")]);
    assert_eq!(
        (error.kind, error.retryable),
        (ProviderErrorKind::RateLimited, false)
    );
    // OpenAI's resets, the longer of the two, only for a rate limit and only when nothing
    // else says (https://thoughtbot.com/blog/openai-rate-limits).
    let resets = [
        ("x-ratelimit-reset-requests", "1s"),
        ("x-ratelimit-reset-tokens", "6m0s"),
    ];
    let openai_limited = r#"{"error": {"message": "Rate limit reached", "type": "requests", "code": "rate_limit_exceeded"}}"#;
    let error = Provider::OpenAi.read_error(429, resets, openai_limited);
    assert_eq!(error.retry_after, Some(Duration::from_secs(360)));
    let with_text = r#"{"error": {"message": "Rate limit reached. Please try again in 20ms.", "type": "requests", "code": "rate_limit_exceeded"}}"#;
    let error = Provider::OpenAi.read_error(429, resets, with_text);
    assert_eq!(error.retry_after, Some(Duration::from_millis(20)));
    let server = r#"{"error": {"message": "The server had an error", "type": "server_error"}}"#;
    let error = Provider::OpenAi.read_error(500, resets, server);
    assert_eq!(error.retry_after, None);
    // No headers, or none that says anything: the body's reading alone.
    for provider in Provider::ALL {
        assert_eq!(
            provider.read_error(429, [] as [(&str, &str); 0], limited),
            provider.read_error(429, [("x-request-id", "req_1")], limited)
        );
    }
    // The headers in any form an HTTP client holds them: owned pairs, pairs by reference,
    // byte values; a value that is not UTF-8 is not read.
    let owned = vec![("Retry-After".to_owned(), "17".to_owned())];
    assert_eq!(
        Provider::Anthropic
            .read_error(429, &owned, limited)
            .retry_after,
        Some(Duration::from_secs(17))
    );
    let bytes = [("retry-after", b"17".to_vec())];
    assert_eq!(
        Provider::Anthropic
            .read_error(429, bytes, limited)
            .retry_after,
        Some(Duration::from_secs(17))
    );
    let not_utf8 = [("retry-after", vec![0xff_u8])];
    assert_eq!(
        Provider::Anthropic
            .read_error(429, not_utf8, limited)
            .retry_after,
        None
    );
}

#[test]
fn bedrocks_error_type_header_names_the_exception() {
    let read = |status: u16, error_type: &str, body: &str| {
        Provider::Bedrock.read_error(status, [("x-amzn-ErrorType", error_type)], body)
    };
    let suffix = ":http://internal.amazon.com/coral/com.amazon.bedrock/";
    // (status, exception, body, kind, retryable): the names in
    // https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html
    let cases = [
        (
            408,
            "ModelTimeoutException",
            r#"{"message": "Model has timed out in processing the request. Try your request again."}"#,
            ProviderErrorKind::Server,
            true,
        ),
        (
            429,
            "ThrottlingException",
            r#"{"message": "Too many requests, please wait before trying again."}"#,
            ProviderErrorKind::RateLimited,
            true,
        ),
        (
            503,
            "ServiceUnavailableException",
            r#"{"message": "Bedrock is unable to process your request."}"#,
            ProviderErrorKind::Overloaded,
            true,
        ),
        (
            424,
            "ModelErrorException",
            r#"{"message": "The model returned an error.", "originalStatusCode": 400, "resourceName": "arn:aws:x"}"#,
            ProviderErrorKind::InvalidRequest,
            false,
        ),
        (
            424,
            "ModelErrorException",
            r#"{"message": "The model returned an error.", "originalStatusCode": 429}"#,
            ProviderErrorKind::RateLimited,
            true,
        ),
        (
            424,
            "ModelErrorException",
            r#"{"message": "The model returned an error."}"#,
            ProviderErrorKind::Server,
            true,
        ),
        (
            400,
            "ValidationException",
            r#"{"message": "The model returned the following errors: prompt is too long: 903884 tokens > 200000 maximum"}"#,
            ProviderErrorKind::ContextWindowExceeded,
            false,
        ),
        (
            408,
            "ModelTimeoutException",
            "<html>timeout</html>",
            ProviderErrorKind::Server,
            true,
        ),
    ];
    for (status, name, body, kind, retryable) in cases {
        let error = read(status, &format!("{name}{suffix}"), body);
        assert_eq!(
            (error.kind, error.retryable),
            (kind, retryable),
            "{name} {body}"
        );
        assert_eq!(error.code(), Some(name), "{name}");
    }
    // Without the header a 424 or a 408 says nothing the status maps.
    let error = bedrock::read_error(424, r#"{"message": "The model returned an error."}"#);
    assert_eq!(
        (error.kind, error.retryable),
        (ProviderErrorKind::Other, false)
    );
    // The body's `__type` wins over the header.
    let error = read(
        400,
        "ThrottlingException",
        r#"{"__type": "com.amazon.bedrock#ValidationException", "message": "Malformed input request"}"#,
    );
    assert_eq!(error.kind, ProviderErrorKind::InvalidRequest);
}

#[test]
fn every_overflow_wording_gives_its_counts() {
    let compatible = |id: &str| id.parse::<Provider>().unwrap();
    let chat = |message: &str, code: &str| {
        json!({"error": {"message": message, "type": "invalid_request_error", "param": null, "code": code}})
            .to_string()
    };
    // (provider, status, body, used, limit, max_tokens, source)
    type Case = (
        Provider,
        u16,
        String,
        Option<u64>,
        Option<u64>,
        Option<u64>,
        &'static str,
    );
    let cases: Vec<Case> = vec![
        (Provider::OpenAi, 400, chat("Input tokens exceed the configured limit of 272000 tokens. Your messages resulted in 289650 tokens. Please reduce the length of the messages.", "context_length_exceeded"), Some(289_650), Some(272_000), None, "https://github.com/cline/cline/issues/5474"),
        (Provider::OpenAi, 400, chat("This model's maximum context length is 8192 tokens. However, you requested 8213 tokens (6683 in the messages, 730 in the functions, and 800 in the completion). Please reduce the length of the messages, functions, or completion.", "context_length_exceeded"), Some(7413), Some(8192), Some(800), "https://github.com/FoundationAgents/OpenManus/issues/62"),
        (Provider::OpenAiResponses, 400, chat("Your input exceeds the context window of this model. Please adjust your input and try again.", "context_length_exceeded"), None, None, None, "https://github.com/dyad-sh/dyad/issues/1672"),
        (Provider::Bedrock, 400, json!({"message": "The model returned the following errors: prompt is too long: 200049 tokens > 200000 maximum"}).to_string(), Some(200_049), Some(200_000), None, "https://github.com/daisuke-awaji/moca/issues/254"),
        (Provider::Bedrock, 400, json!({"message": "Input is too long for requested model."}).to_string(), None, None, None, "https://github.com/aws-samples/bedrock-chat/issues/95"),
        (compatible("deepseek"), 400, chat("This model's maximum context length is 131072 tokens. However, you requested 131134 tokens (122942 in the messages, 8192 in the completion). Please reduce the length of the messages or completion.", "invalid_request_error"), Some(122_942), Some(131_072), Some(8192), "https://github.com/evalstate/fast-agent/issues/621"),
        (compatible("vllm"), 400, json!({"object": "error", "message": "This model's maximum context length is 6048 tokens. However, you requested 6616 tokens (568 in the messages, 6048 in the completion). Please reduce the length of the messages or completion.", "type": "BadRequestError", "param": null, "code": 400}).to_string(), Some(568), Some(6048), Some(6048), "https://github.com/ogx-ai/ogx/issues/4534"),
        (compatible("llama-cpp"), 400, json!({"error": {"code": 400, "message": "the request exceeds the available context size. try increasing the context size or enable context shift", "type": "exceed_context_size_error", "n_prompt_tokens": 14429, "n_ctx": 8192}}).to_string(), Some(14_429), Some(8192), None, "https://github.com/oobabooga/textgen/issues/7257"),
        (compatible("llama-cpp"), 400, json!({"error": {"code": 400, "message": "request (4390 tokens) exceeds the available context size (4096 tokens), try increasing it", "type": "exceed_context_size_error", "n_prompt_tokens": 4390, "n_ctx": 4096}}).to_string(), Some(4390), Some(4096), None, "https://github.com/ggml-org/llama.cpp/issues/19774"),
        (compatible("llama-cpp"), 500, json!({"error": {"code": 500, "message": "Context size has been exceeded.", "type": "server_error"}}).to_string(), None, None, None, "https://github.com/ggml-org/llama.cpp/issues/19774"),
        (compatible("groq"), 400, chat("Please reduce the length of the messages or completion.", "context_length_exceeded"), None, None, None, "https://github.com/thepersonalaicompany/amurex-backend/issues/51"),
        (Provider::Anthropic, 400, json!({"type": "error", "error": {"type": "invalid_request_error", "message": "input length and max_tokens exceed context limit: 86888 + 119866 > 204648, decrease input length or max_tokens and try again"}}).to_string(), Some(86_888), Some(204_648), Some(119_866), "https://github.com/stackblitz/bolt.new/issues/7414"),
        (Provider::Gemini, 400, json!({"error": {"code": 400, "message": "The input token count (2845475) exceeds the maximum number of tokens allowed (1048576).", "status": "INVALID_ARGUMENT"}}).to_string(), Some(2_845_475), Some(1_048_576), None, "https://github.com/google-gemini/gemini-cli/issues/4692"),
    ];
    for (provider, status, body, used, limit, max_tokens, source) in cases {
        let error = provider.read_error(status, [] as [(&str, &str); 0], &body);
        assert_eq!(
            error.kind,
            ProviderErrorKind::ContextWindowExceeded,
            "{source}"
        );
        assert!(!error.retryable, "{source}");
        assert_eq!(
            (error.used, error.limit, error.max_tokens),
            (used, limit, max_tokens),
            "{source}"
        );
    }
}

#[test]
fn the_wait_serializes_exactly_and_only_when_said() {
    let error = Provider::Anthropic.read_error(
        429,
        [("retry-after-ms", "1574")],
        r#"{"type": "error", "error": {"type": "rate_limit_error", "message": "Rate limited"}}"#,
    );
    assert_eq!(
        serde_json::to_string(&error).unwrap(),
        r#"{"kind":"rate_limited","retryable":true,"message":"Rate limited","retry_after":1.574}"#
    );
    let error = anthropic::read_error(
        429,
        r#"{"type": "error", "error": {"type": "rate_limit_error", "message": "Rate limited"}}"#,
    );
    assert_eq!(
        serde_json::to_string(&error).unwrap(),
        r#"{"kind":"rate_limited","retryable":true,"message":"Rate limited"}"#
    );
}

#[test]
fn the_example_program_passes_the_headers() {
    let body = r#"{"type":"error","error":{"type":"rate_limit_error","message":"Rate limited"}}"#;
    let output = run(
        &[
            "--error",
            "anthropic",
            "429",
            "--header",
            "Retry-After: 30",
            "-",
        ],
        body,
    );
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        "{\"kind\":\"rate_limited\",\"retryable\":true,\"message\":\"Rate limited\",\"retry_after\":30}\n"
    );
    let output = run(
        &[
            "--error",
            "bedrock",
            "408",
            "--header",
            "x-amzn-ErrorType:ModelTimeoutException:http://internal.amazon.com/coral/com.amazon.bedrock/",
            "--header",
            "retry-after-ms:250",
            "-",
        ],
        r#"{"message":"Model has timed out in processing the request."}"#,
    );
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        "{\"kind\":\"server\",\"retryable\":true,\"message\":\"Model has timed out in processing the request.\",\"retry_after\":0.25}\n"
    );
    // Without headers the output is what it was.
    let output = run(&["--error", "anthropic", "429", "-"], body);
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        "{\"kind\":\"rate_limited\",\"retryable\":true,\"message\":\"Rate limited\"}\n"
    );
    for args in [
        &["--header", "retry-after:1", "-"][..],
        &["--error", "anthropic", "429", "--header", "no-colon", "-"],
        &["--error", "anthropic", "429", "--header", ":1", "-"],
        &["--error", "anthropic", "429", "--header"],
    ] {
        let output = run(args, "");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
    }
}

//! A provider's error response becomes data: its kind, its message, whether a retry can help,
//! and, for a history that outgrew the context window, the token counts the provider named.
//! The texts are the providers' own, as their users reported them.

use transcript_replay::{errors::ProviderErrorKind, Provider};

#[test]
fn each_error_body_becomes_its_kind_and_counts() {
    use ProviderErrorKind::*;
    // (provider, status, body, kind, used, limit, max_tokens)
    type Case = (
        Provider,
        u16,
        &'static str,
        ProviderErrorKind,
        Option<u64>,
        Option<u64>,
        Option<u64>,
    );
    let cases: Vec<Case> = vec![
        (
            Provider::Anthropic,
            400,
            r#"{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 219898 tokens > 200000 maximum"}}"#,
            ContextWindowExceeded,
            Some(219_898),
            Some(200_000),
            None,
        ),
        (
            Provider::Anthropic,
            400,
            r#"{"type":"error","error":{"type":"invalid_request_error","message":"input length and `max_tokens` exceed context limit: 187254 + 20000 > 204798, decrease input length or `max_tokens` and try again"}}"#,
            ContextWindowExceeded,
            Some(187_254),
            Some(204_798),
            Some(20_000),
        ),
        (
            Provider::Anthropic,
            400,
            r#"{"type":"error","error":{"type":"invalid_request_error","message":"messages: text content blocks must be non-empty"}}"#,
            InvalidRequest,
            None,
            None,
            None,
        ),
        (
            Provider::Anthropic,
            401,
            r#"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}"#,
            Authentication,
            None,
            None,
            None,
        ),
        (
            Provider::Anthropic,
            403,
            r#"{"type":"error","error":{"type":"permission_error","message":"Your API key does not have permission to use the specified resource."}}"#,
            Permission,
            None,
            None,
            None,
        ),
        (
            Provider::Anthropic,
            404,
            r#"{"type":"error","error":{"type":"not_found_error","message":"model: claude-9"}}"#,
            NotFound,
            None,
            None,
            None,
        ),
        (
            Provider::Anthropic,
            413,
            r#"{"type":"error","error":{"type":"request_too_large","message":"Request exceeds the maximum size"}}"#,
            RequestTooLarge,
            None,
            None,
            None,
        ),
        (
            Provider::Anthropic,
            429,
            r#"{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}"#,
            RateLimited,
            None,
            None,
            None,
        ),
        (
            Provider::Anthropic,
            500,
            r#"{"type":"error","error":{"type":"api_error","message":"Internal server error"}}"#,
            Server,
            None,
            None,
            None,
        ),
        (
            Provider::Anthropic,
            529,
            r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#,
            Overloaded,
            None,
            None,
            None,
        ),
        (
            Provider::OpenAi,
            400,
            r#"{"error":{"message":"This model's maximum context length is 4097 tokens. However, your messages resulted in 4294 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}"#,
            ContextWindowExceeded,
            Some(4294),
            Some(4097),
            None,
        ),
        (
            Provider::OpenAi,
            400,
            r#"{"error":{"message":"This model's maximum context length is 8192 tokens. However, you requested 9000 tokens (8000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}"#,
            ContextWindowExceeded,
            Some(8000),
            Some(8192),
            Some(1000),
        ),
        (
            Provider::OpenAi,
            400,
            r#"{"error":{"message":"This endpoint's maximum context length is 32768 tokens. However, you requested about 42832 tokens (42832 of text input). Please reduce the length of either one, or use the \"middle-out\" transform to compress your prompt automatically.","code":400}}"#,
            ContextWindowExceeded,
            Some(42_832),
            Some(32_768),
            None,
        ),
        (
            Provider::OpenAi,
            429,
            r#"{"error":{"message":"Rate limit reached for gpt-4o in organization org-x on tokens per min (TPM): Limit 30000, Used 28000, Requested 5000.","type":"tokens","param":null,"code":"rate_limit_exceeded"}}"#,
            RateLimited,
            None,
            None,
            None,
        ),
        (
            Provider::OpenAi,
            429,
            r#"{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}"#,
            Other,
            None,
            None,
            None,
        ),
        (
            Provider::OpenAi,
            401,
            r#"{"error":{"message":"Incorrect API key provided: sk-abc.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}"#,
            Authentication,
            None,
            None,
            None,
        ),
        (
            Provider::OpenAi,
            503,
            r#"{"error":{"message":"The engine is currently overloaded, please try again later","type":"server_error","param":null,"code":null}}"#,
            Overloaded,
            None,
            None,
            None,
        ),
        (
            Provider::OpenAiResponses,
            400,
            r#"{"error":{"message":"Your input exceeds the context window of this model. Please adjust your input and try again.","type":"invalid_request_error","param":"input","code":"context_length_exceeded"}}"#,
            ContextWindowExceeded,
            None,
            None,
            None,
        ),
        (
            Provider::Gemini,
            400,
            r#"{"error":{"code":400,"message":"The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).","status":"INVALID_ARGUMENT"}}"#,
            ContextWindowExceeded,
            Some(1_200_293),
            Some(1_048_576),
            None,
        ),
        (
            Provider::Gemini,
            429,
            r#"{"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).","status":"RESOURCE_EXHAUSTED"}}"#,
            RateLimited,
            None,
            None,
            None,
        ),
        (
            Provider::Gemini,
            503,
            r#"{"error":{"code":503,"message":"The model is overloaded. Please try again later.","status":"UNAVAILABLE"}}"#,
            Overloaded,
            None,
            None,
            None,
        ),
        (
            Provider::Gemini,
            403,
            r#"{"error":{"code":403,"message":"Method doesn't allow unregistered callers.","status":"PERMISSION_DENIED"}}"#,
            Permission,
            None,
            None,
            None,
        ),
        (
            Provider::Gemini,
            500,
            r#"[{"error":{"code":500,"message":"An internal error has occurred.","status":"INTERNAL"}}]"#,
            Server,
            None,
            None,
            None,
        ),
        (
            Provider::Bedrock,
            400,
            r#"{"message":"The model returned the following errors: prompt is too long: 200049 tokens > 200000 maximum"}"#,
            ContextWindowExceeded,
            Some(200_049),
            Some(200_000),
            None,
        ),
        (
            Provider::Bedrock,
            400,
            r#"{"message":"Input is too long for requested model."}"#,
            ContextWindowExceeded,
            None,
            None,
            None,
        ),
        (
            Provider::Bedrock,
            400,
            r#"{"message":"A conversation must alternate between user and assistant roles."}"#,
            InvalidRequest,
            None,
            None,
            None,
        ),
        (
            Provider::Bedrock,
            429,
            r#"{"message":"Too many requests, please wait before trying again."}"#,
            RateLimited,
            None,
            None,
            None,
        ),
        (
            Provider::Bedrock,
            503,
            r#"{"message":"Bedrock is unable to process your request."}"#,
            Overloaded,
            None,
            None,
            None,
        ),
        (
            Provider::Bedrock,
            403,
            r#"{"message":"You don't have access to the model with the specified model ID."}"#,
            Permission,
            None,
            None,
            None,
        ),
        (
            Provider::Bedrock,
            400,
            r#"{"__type":"com.amazon.bedrock#ThrottlingException","message":"Too many tokens"}"#,
            RateLimited,
            None,
            None,
            None,
        ),
        // Mistral's overflow wording carries both counts
        // (https://github.com/badlogic/pi-mono/blob/main/packages/ai/src/utils/overflow.ts).
        (
            Provider::from(&transcript_replay::dialects::Dialect::MISTRAL),
            400,
            r#"{"object":"error","message":"Prompt contains 300000 tokens, too large for model with 131072 maximum context length","type":"invalid_request_message_error","param":null,"code":"3051"}"#,
            ContextWindowExceeded,
            Some(300_000),
            Some(131_072),
            None,
        ),
        // llama.cpp's server started without `--jinja` answers a request with tools with a
        // 500 that no retry helps (https://github.com/containers/ramalama/issues/988).
        (
            Provider::OpenAi,
            500,
            r#"{"error":{"code":500,"message":"tools param requires --jinja flag","type":"server_error"}}"#,
            InvalidRequest,
            None,
            None,
            None,
        ),
        (
            Provider::OpenAi,
            500,
            r#"{"code":500,"message":"Unsupported param: tools","type":"server_error"}"#,
            InvalidRequest,
            None,
            None,
            None,
        ),
        // A wrong key is `authentication` whatever the status: Gemini sends it as a 400.
        (
            Provider::Gemini,
            400,
            r#"{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com"}]}}"#,
            Authentication,
            None,
            None,
            None,
        ),
        (
            Provider::Bedrock,
            403,
            r#"{"message":"The security token included in the request is invalid."}"#,
            Authentication,
            None,
            None,
            None,
        ),
    ];
    let mut failures = Vec::new();
    for (index, (provider, status, body, kind, used, limit, max_tokens)) in cases.iter().enumerate()
    {
        let error = provider.read_error(*status, [] as [(&str, &str); 0], body);
        let got = (error.kind, error.used, error.limit, error.max_tokens);
        let want = (*kind, *used, *limit, *max_tokens);
        if got != want {
            failures.push(format!(
                "case {index} ({provider:?}): got {got:?}, want {want:?}"
            ));
        }
        if error.retryable != kind.is_retryable() {
            failures.push(format!("case {index}: retryable {}", error.retryable));
        }
        if error.message.is_empty() || error.status() != Some(*status) {
            failures.push(format!(
                "case {index}: message {:?}, status {:?}",
                error.message,
                error.status()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_body_that_is_not_json_is_read_by_its_status_alone() {
    let page = "<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>";
    for provider in Provider::ALL {
        for (status, kind) in [
            (502, ProviderErrorKind::Server),
            (503, ProviderErrorKind::Overloaded),
            (529, ProviderErrorKind::Overloaded),
            (429, ProviderErrorKind::RateLimited),
            (413, ProviderErrorKind::RequestTooLarge),
            (401, ProviderErrorKind::Authentication),
            (404, ProviderErrorKind::NotFound),
            (400, ProviderErrorKind::InvalidRequest),
            (418, ProviderErrorKind::Other),
        ] {
            let error = provider.read_error(status, [] as [(&str, &str); 0], page);
            assert_eq!(error.kind, kind, "{provider:?} {status}");
            assert_eq!(error.message, page);
            assert_eq!(error.retryable, matches!(status, 502 | 503 | 529 | 429));
        }
    }
}

#[test]
fn an_error_serializes_as_the_example_program_prints_it() {
    let error = Provider::Anthropic.read_error(
        400,
        [] as [(&str, &str); 0],
        r#"{"type":"error","error":{"type":"invalid_request_error","message":"input length and `max_tokens` exceed context limit: 187254 + 20000 > 204798, decrease input length or `max_tokens` and try again"}}"#,
    );
    assert_eq!(
        serde_json::to_string(&error).unwrap(),
        r#"{"kind":"context_window_exceeded","retryable":false,"message":"input length and `max_tokens` exceed context limit: 187254 + 20000 > 204798, decrease input length or `max_tokens` and try again","used":187254,"limit":204798,"max_tokens":20000}"#
    );
    let error = Provider::Gemini.read_error(
        503,
        [] as [(&str, &str); 0],
        r#"{"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}"#,
    );
    assert_eq!(
        serde_json::to_string(&error).unwrap(),
        r#"{"kind":"overloaded","retryable":true,"message":"The model is overloaded."}"#
    );
}

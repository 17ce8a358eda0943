//! The request around the body (docs/design.md#request): for every provider, whole and streamed, the
//! method, the path with the model where the provider puts it, the headers and where the key
//! goes, as `Provider::request` gives them and as they serialize.

use serde_json::json;
use transcript_replay::{Auth, Dialect, Provider, Request};

const JSON: (&str, &str) = ("content-type", "application/json");
const SSE: (&str, &str) = ("accept", "text/event-stream");
const EVENTSTREAM: (&str, &str) = ("accept", "application/vnd.amazon.eventstream");
const ANTHROPIC_VERSION: (&str, &str) = ("anthropic-version", "2023-06-01");

/// One golden row: provider, model, streamed, then the expected path, headers and key.
type Row<'a> = (
    Provider,
    &'a str,
    bool,
    &'a str,
    &'a [(&'a str, &'a str)],
    Auth,
);

fn check(rows: &[Row]) {
    for &(provider, model, stream, path, headers, auth) in rows {
        let request = provider.request_for(model, stream);
        let headers: Vec<(&str, String)> = headers
            .iter()
            .map(|&(name, value)| (name, value.to_owned()))
            .collect();
        let context = format!("{provider:?} {model:?} stream={stream}");
        assert_eq!(request.method, "POST", "{context}");
        assert_eq!(request.path, path, "{context}");
        assert_eq!(request.headers, headers, "{context}");
        assert_eq!(request.auth, auth, "{context}");
    }
}

#[test]
fn openai_chat_takes_the_model_in_the_body_and_a_bearer_key() {
    check(&[
        (
            Provider::OpenAi,
            "gpt-4.1",
            false,
            "/v1/chat/completions",
            &[JSON],
            Auth::Bearer,
        ),
        (
            Provider::OpenAi,
            "gpt-4.1",
            true,
            "/v1/chat/completions",
            &[JSON, SSE],
            Auth::Bearer,
        ),
        // The model never reaches the path, whatever it holds.
        (
            Provider::OpenAi,
            "ft:gpt-4o:org:x/y",
            false,
            "/v1/chat/completions",
            &[JSON],
            Auth::Bearer,
        ),
    ]);
}

#[test]
fn the_responses_surface_has_its_own_path() {
    check(&[
        (
            Provider::OpenAiResponses,
            "gpt-5",
            false,
            "/v1/responses",
            &[JSON],
            Auth::Bearer,
        ),
        (
            Provider::OpenAiResponses,
            "gpt-5",
            true,
            "/v1/responses",
            &[JSON, SSE],
            Auth::Bearer,
        ),
    ]);
}

#[test]
fn anthropic_takes_its_version_header_and_an_x_api_key() {
    check(&[
        (
            Provider::Anthropic,
            "claude-sonnet-4-5",
            false,
            "/v1/messages",
            &[JSON, ANTHROPIC_VERSION],
            Auth::XApiKey,
        ),
        (
            Provider::Anthropic,
            "claude-sonnet-4-5",
            true,
            "/v1/messages",
            &[JSON, ANTHROPIC_VERSION, SSE],
            Auth::XApiKey,
        ),
    ]);
}

#[test]
fn gemini_takes_the_model_and_the_stream_in_the_path() {
    check(&[
        (
            Provider::Gemini,
            "gemini-2.5-pro",
            false,
            "/v1beta/models/gemini-2.5-pro:generateContent",
            &[JSON],
            Auth::XGoogApiKey,
        ),
        (
            Provider::Gemini,
            "gemini-2.5-pro",
            true,
            "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
            &[JSON, SSE],
            Auth::XGoogApiKey,
        ),
        // The resource name's prefix is dropped, not doubled.
        (
            Provider::Gemini,
            "models/gemini-3-pro-preview",
            false,
            "/v1beta/models/gemini-3-pro-preview:generateContent",
            &[JSON],
            Auth::XGoogApiKey,
        ),
        // Anything else that is not a path character is encoded.
        (
            Provider::Gemini,
            "my model?",
            false,
            "/v1beta/models/my%20model%3F:generateContent",
            &[JSON],
            Auth::XGoogApiKey,
        ),
    ]);
}

#[test]
fn bedrock_percent_encodes_the_model_as_one_path_segment() {
    check(&[
        (Provider::Bedrock, "anthropic.claude-3-5-sonnet-20240620-v1:0", false,
            "/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse", &[JSON], Auth::Sigv4),
        (Provider::Bedrock, "anthropic.claude-3-5-sonnet-20240620-v1:0", true,
            "/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse-stream", &[JSON, EVENTSTREAM], Auth::Sigv4),
        (Provider::Bedrock, "us.amazon.nova-pro-v1:0", true,
            "/model/us.amazon.nova-pro-v1%3A0/converse-stream", &[JSON, EVENTSTREAM], Auth::Sigv4),
        // An application inference profile's ARN: its `/` must not split the path.
        (Provider::Bedrock, "arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/abc123xyz", false,
            "/model/arn%3Aaws%3Abedrock%3Aus-east-1%3A123456789012%3Aapplication-inference-profile%2Fabc123xyz/converse",
            &[JSON], Auth::Sigv4),
        (Provider::Bedrock, "arn:aws:bedrock:us-west-2::foundation-model/meta.llama3-70b-instruct-v1:0", true,
            "/model/arn%3Aaws%3Abedrock%3Aus-west-2%3A%3Afoundation-model%2Fmeta.llama3-70b-instruct-v1%3A0/converse-stream",
            &[JSON, EVENTSTREAM], Auth::Sigv4),
        // The unreserved characters stay; any other byte, UTF-8 included, is %XY in uppercase.
        (Provider::Bedrock, "a-b_c.d~e f+é", false, "/model/a-b_c.d~e%20f%2B%C3%A9/converse", &[JSON], Auth::Sigv4),
    ]);
}

#[test]
fn compatible_servers_speak_openai_chat_requests() {
    for dialect in [
        &Dialect::MISTRAL,
        &Dialect::DEEPSEEK,
        &Dialect::OLLAMA,
        &Dialect::GROQ,
    ] {
        let provider = Provider::Compatible(dialect);
        check(&[
            (
                provider,
                "any-model:7b",
                false,
                "/v1/chat/completions",
                &[JSON],
                Auth::Bearer,
            ),
            (
                provider,
                "any-model:7b",
                true,
                "/v1/chat/completions",
                &[JSON, SSE],
                Auth::Bearer,
            ),
        ]);
    }
}

#[test]
fn a_request_serializes_with_its_headers_as_one_object_in_order() {
    let request = Provider::Anthropic.request_for("claude-opus-4-7", true);
    assert_eq!(
        serde_json::to_string(&request).unwrap(),
        concat!(
            r#"{"method":"POST","path":"/v1/messages","headers":{"content-type":"application/json","#,
            r#""anthropic-version":"2023-06-01","accept":"text/event-stream"},"auth":"x-api-key","#,
            r#""base_url":"https://api.anthropic.com"}"#
        )
    );
    let auths: Vec<serde_json::Value> =
        [Auth::Bearer, Auth::XApiKey, Auth::XGoogApiKey, Auth::Sigv4]
            .iter()
            .map(|auth| serde_json::to_value(auth).unwrap())
            .collect();
    assert_eq!(
        auths,
        [
            json!("bearer"),
            json!("x-api-key"),
            json!("x-goog-api-key"),
            json!("sigv4")
        ]
    );
}

#[test]
fn no_request_carries_the_model_twice_or_a_secret() {
    let model = "gemini-2.5-flash";
    for provider in Provider::ALL
        .into_iter()
        .chain(Dialect::NAMED.map(Provider::Compatible))
    {
        for stream in [false, true] {
            let request: Request = provider.request_for(model, stream);
            assert!(request.path.starts_with('/'), "{request:?}");
            assert!(request.path.matches(model).count() <= 1, "{request:?}");
            for (name, _) in &request.headers {
                assert!(
                    !["authorization", "x-api-key", "x-goog-api-key", "api-key"].contains(name),
                    "{request:?}"
                );
            }
            assert_eq!(
                request.headers.iter().any(|(name, _)| *name == "accept"),
                stream,
                "{request:?}"
            );
        }
    }
}

#[test]
fn a_request_never_panics_on_any_model_name() {
    for model in ["", "/", "%", "models/", "\u{0}", "🦀", &"x".repeat(10_000)] {
        for provider in Provider::ALL {
            let request = provider.request_for(model, true);
            assert!(request.path.is_ascii(), "{request:?}");
        }
    }
}

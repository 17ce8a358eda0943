//! Where a request goes: every provider and every named compatible server has a default base
//! URL, as its documentation gives it, which the request carries beside its path; Bedrock's
//! names the turn's region (us-east-1 when it has none). The whole URL is the base URL, then
//! the path.

use transcript_replay::{Dialect, Provider, Turn};

#[test]
fn each_provider_has_its_documented_base_url() {
    let rows = [
        ("openai", "https://api.openai.com"),
        ("openai-responses", "https://api.openai.com"),
        ("anthropic", "https://api.anthropic.com"),
        ("gemini", "https://generativelanguage.googleapis.com"),
        ("bedrock", "https://bedrock-runtime.us-east-1.amazonaws.com"),
        ("deepseek", "https://api.deepseek.com"),
        ("mistral", "https://api.mistral.ai"),
        ("groq", "https://api.groq.com/openai"),
        ("openrouter", "https://openrouter.ai/api"),
        ("gemini-openai", "https://generativelanguage.googleapis.com"),
        ("fireworks", "https://api.fireworks.ai/inference"),
        ("perplexity", "https://api.perplexity.ai"),
        ("azure", "https://{resource}.openai.azure.com/openai"),
        ("vllm", "http://localhost:8000"),
        ("ollama", "http://localhost:11434"),
    ];
    for (id, base_url) in rows {
        let provider: Provider = id.parse().unwrap();
        assert_eq!(provider.request_for("m", false).base_url, base_url, "{id}");
        let turn = Turn::new(&[]).model("m");
        assert_eq!(provider.request(&turn).base_url, base_url, "{id}");
    }
}

#[test]
fn bedrock_goes_to_the_turns_region() {
    let model = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";
    let turn = Turn::new(&[])
        .model(model)
        .stream(true)
        .region("ap-northeast-1");
    let request = Provider::Bedrock.request(&turn);
    assert_eq!(
        request.base_url,
        "https://bedrock-runtime.ap-northeast-1.amazonaws.com"
    );
    assert_eq!(
        request.url(),
        "https://bedrock-runtime.ap-northeast-1.amazonaws.com/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse-stream"
    );
    // A region is one host label: anything else in it is encoded, a dot too, never a new
    // host, label or path; an empty one is the default.
    let turn = Turn::new(&[]).model(model).region("x.evil.com/#");
    assert_eq!(
        Provider::Bedrock.request(&turn).base_url,
        "https://bedrock-runtime.x%2Eevil%2Ecom%2F%23.amazonaws.com"
    );
    assert_eq!(
        Provider::Bedrock
            .request(&Turn::new(&[]).region(""))
            .base_url,
        "https://bedrock-runtime.us-east-1.amazonaws.com"
    );
    // The region changes no other provider's URL, and no body.
    for provider in Provider::ALL {
        if provider != Provider::Bedrock {
            assert_eq!(
                provider.request(&turn).base_url,
                provider.request_for(model, false).base_url
            );
        }
    }
}

#[test]
fn every_base_url_is_a_scheme_and_host_without_a_trailing_slash() {
    for provider in Provider::ALL
        .into_iter()
        .chain(Dialect::NAMED.map(Provider::Compatible))
    {
        let request = provider.request_for("m", true);
        let base = &request.base_url;
        assert!(
            base.starts_with("https://") || base.starts_with("http://localhost:"),
            "{provider}: {base}"
        );
        assert!(!base.ends_with('/'), "{provider}: {base}");
        assert_eq!(request.url(), format!("{base}{}", request.path));
    }
}

//! Validators of the providers' official request and response schemas.
//!
//! The specs are the trimmed subsets committed in `specs/` beside this package's manifest,
//! compiled into the test binaries, so nothing is read from outside the repository and
//! nothing is ever skipped.

use std::sync::OnceLock;

use jsonschema::{Draft, Registry, Validator};
use serde_json::{json, Value};

const OPENAI: &str = include_str!("../specs/openai-openapi.json");
const ANTHROPIC: &str = include_str!("../specs/anthropic-openapi.json");
const GEMINI: &str = include_str!("../specs/gemini-generativelanguage-v1beta-openapi.json");

/// A parsed OpenAPI document and the JSON Schema draft its schemas follow.
pub struct Spec {
    document: Value,
    draft: Draft,
}

impl Spec {
    fn new(text: &str, draft: Draft) -> Self {
        Spec {
            document: serde_json::from_str(text).expect("a committed spec is JSON"),
            draft,
        }
    }

    /// A validator of the named schema of `components/schemas`, with every reference inside
    /// the document resolved.
    pub fn validator(&self, schema: &str) -> Validator {
        let registry = Registry::new()
            .add(
                "urn:spec",
                self.draft.create_resource(self.document.clone()),
            )
            .expect("the spec registers")
            .prepare()
            .expect("the spec's references resolve");
        jsonschema::options()
            .with_draft(self.draft)
            .with_registry(&registry)
            .build(&json!({ "$ref": format!("urn:spec#/components/schemas/{schema}") }))
            .unwrap_or_else(|error| panic!("schema {schema}: {error}"))
    }
}

/// OpenAI's spec (Chat Completions and Responses), draft 2020-12.
pub fn openai() -> &'static Spec {
    static SPEC: OnceLock<Spec> = OnceLock::new();
    SPEC.get_or_init(|| Spec::new(OPENAI, Draft::Draft202012))
}

/// Anthropic's spec (Messages), draft 2020-12.
pub fn anthropic() -> &'static Spec {
    static SPEC: OnceLock<Spec> = OnceLock::new();
    SPEC.get_or_init(|| Spec::new(ANTHROPIC, Draft::Draft202012))
}

/// Gemini's spec (generateContent), an OpenAPI 3.0 export validated as draft 4.
pub fn gemini() -> &'static Spec {
    static SPEC: OnceLock<Spec> = OnceLock::new();
    SPEC.get_or_init(|| Spec::new(GEMINI, Draft::Draft4))
}

/// The errors of one instance, each with where it is.
pub fn errors(validator: &Validator, instance: &Value) -> Vec<String> {
    validator
        .iter_errors(instance)
        .map(|error| format!("{} at {}", error, error.instance_path()))
        .collect()
}

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

const BEDROCK: &str = include_str!("../specs/bedrock-runtime-service-2.json");

/// Bedrock Runtime's service model: not JSON Schema, but the shapes AWS's SDKs are generated
/// from (`specs/SOURCES.md`).
pub fn bedrock() -> &'static Value {
    static MODEL: OnceLock<Value> = OnceLock::new();
    MODEL.get_or_init(|| serde_json::from_str(BEDROCK).expect("a committed spec is JSON"))
}

/// The errors of a JSON value against a shape of Bedrock's service model, each with its path.
///
/// It checks what botocore's parameter validator checks: a structure's required members and
/// that it has no unknown ones, a union's exactly-one member, list and string lengths, string
/// enums, and the JSON type of blobs (base64 strings on the JSON wire), numbers, booleans and
/// documents. Members the HTTP binding takes elsewhere (`"location": "uri"`) may be absent.
pub fn bedrock_errors(shape: &str, value: &Value) -> Vec<String> {
    let mut errors = Vec::new();
    check_shape(bedrock(), shape, value, "", &mut errors);
    errors
}

fn check_shape(model: &Value, name: &str, value: &Value, path: &str, errors: &mut Vec<String>) {
    let shape = &model["shapes"][name];
    let kind = shape["type"].as_str().unwrap_or("");
    let mut fail = |what: String| errors.push(format!("{path}: {what} ({name})"));
    match kind {
        // A document (a tool's input, its schema) is any JSON.
        "structure" if shape["document"] == true => {}
        "structure" => {
            let Some(object) = value.as_object() else {
                fail(format!("expected an object, found {value}"));
                return;
            };
            let members = shape["members"]
                .as_object()
                .expect("a structure has members");
            for key in object.keys() {
                if !members.contains_key(key) {
                    fail(format!("unknown member `{key}`"));
                }
            }
            if shape["union"] == true && object.len() != 1 {
                fail(format!(
                    "a union needs exactly one member, found {}",
                    object.len()
                ));
            }
            for required in shape["required"].as_array().into_iter().flatten() {
                let required = required.as_str().unwrap_or("");
                let elsewhere = members[required].get("location").is_some();
                if !object.contains_key(required) && !elsewhere {
                    fail(format!("missing required member `{required}`"));
                }
            }
            for (key, member) in object {
                if let Some(member_shape) = members.get(key).and_then(|m| m["shape"].as_str()) {
                    check_shape(
                        model,
                        member_shape,
                        member,
                        &format!("{path}.{key}"),
                        errors,
                    );
                }
            }
        }
        "list" => {
            let Some(items) = value.as_array() else {
                fail(format!("expected an array, found {value}"));
                return;
            };
            check_length(shape, items.len(), &mut fail);
            let member = shape["member"]["shape"].as_str().unwrap_or("");
            for (index, item) in items.iter().enumerate() {
                check_shape(model, member, item, &format!("{path}[{index}]"), errors);
            }
        }
        "map" => {
            let Some(object) = value.as_object() else {
                fail(format!("expected an object, found {value}"));
                return;
            };
            let member = shape["value"]["shape"].as_str().unwrap_or("");
            for (key, item) in object {
                check_shape(model, member, item, &format!("{path}.{key}"), errors);
            }
        }
        "string" => {
            let Some(text) = value.as_str() else {
                fail(format!("expected a string, found {value}"));
                return;
            };
            check_length(shape, text.chars().count(), &mut fail);
            if let Some(allowed) = shape["enum"].as_array() {
                if !allowed.iter().any(|option| option == text) {
                    fail(format!("{text:?} is not one of {allowed:?}"));
                }
            }
        }
        "blob" => match value.as_str() {
            Some(text) => check_length(shape, text.len(), &mut fail),
            None => fail(format!("expected base64 text, found {value}")),
        },
        "integer" | "long" => {
            if !value.is_i64() && !value.is_u64() {
                fail(format!("expected an integer, found {value}"));
            }
        }
        "float" | "double" => {
            if !value.is_number() {
                fail(format!("expected a number, found {value}"));
            }
        }
        "boolean" => {
            if !value.is_boolean() {
                fail(format!("expected a boolean, found {value}"));
            }
        }
        "document" => {}
        other => fail(format!(
            "a shape of type {other:?} this validator does not know"
        )),
    }
}

fn check_length(shape: &Value, len: usize, fail: &mut impl FnMut(String)) {
    if let Some(min) = shape["min"].as_u64() {
        if (len as u64) < min {
            fail(format!("length {len} is under the minimum {min}"));
        }
    }
    if let Some(max) = shape["max"].as_u64() {
        if len as u64 > max {
            fail(format!("length {len} is over the maximum {max}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bedrock_validator_refuses_what_converse_refuses() {
        let valid = serde_json::json!({"messages": [{"role": "user", "content": [{"text": "Hi"}]}],
            "system": [{"text": "Be brief."}]});
        assert_eq!(
            bedrock_errors("ConverseRequest", &valid),
            Vec::<String>::new()
        );
        // A document is any JSON: a tool's input and its schema.
        let tool = serde_json::json!({"messages": [{"role": "assistant", "content": [
            {"toolUse": {"toolUseId": "t", "name": "ls", "input": {"path": ["a", 1, null]}}}]}],
            "toolConfig": {"tools": [{"toolSpec": {"name": "ls", "inputSchema": {"json": {"type": "object"}}}}]}});
        assert_eq!(
            bedrock_errors("ConverseRequest", &tool),
            Vec::<String>::new()
        );
        for bad in [
            serde_json::json!({"messages": [{"role": "robot", "content": [{"text": "Hi"}]}]}),
            serde_json::json!({"messages": [{"role": "user", "content": [{"text": "a", "image": {}}]}]}),
            serde_json::json!({"messages": [{"role": "user", "content": [{"image": {"format": "bmp", "source": {"bytes": "AAAA"}}}]}]}),
            serde_json::json!({"messages": [{"role": "user"}]}),
            serde_json::json!({"system": [{"text": ""}], "messages": []}),
            serde_json::json!({"messages": [], "extra": 1}),
            serde_json::json!({"messages": [{"role": "user", "content": [{"toolUse": {"toolUseId": "t", "name": "ls"}}]}]}),
        ] {
            assert!(!bedrock_errors("ConverseRequest", &bad).is_empty(), "{bad}");
        }
    }
}

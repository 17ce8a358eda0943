//! Every whole body validates against its provider's full official schema (with the caller's
//! `model` and `max_tokens`), meets each sequencing rule the schema cannot express, carries
//! the system text S and the hoisted history text H exactly once where the provider takes
//! them, has no image where the provider takes none, and shows each tool screenshot natively
//! to a model that sees, in the next user message; and a body is refused exactly when no
//! valid one can be made without inventing content.

use std::sync::OnceLock;

use jsonschema::Validator;
use proptest::prelude::*;
use serde_json::{json, Value};
use transcript_replay::{
    anthropic, bedrock, gemini, openai, openai_responses, replay_messages, Block, Role,
    StoredMessage, Turn, Vision, REPLAY_PREAMBLE,
};
use transcript_replay_conformance::json::{is_blank, strings};
use transcript_replay_conformance::{records, schemas};

/// The 1x1 PNG that stands for a screenshot.
const SCREENSHOT: &str = records::IMAGES[0];

struct Validators {
    openai: Validator,
    anthropic: Validator,
    anthropic_beta: Validator,
    gemini: Validator,
    responses: Validator,
    responses_item: Validator,
    responses_compaction: Validator,
}

fn validators() -> &'static Validators {
    static VALIDATORS: OnceLock<Validators> = OnceLock::new();
    VALIDATORS.get_or_init(|| Validators {
        openai: schemas::openai().validator("CreateChatCompletionRequest"),
        anthropic: schemas::anthropic().validator("CreateMessageParams"),
        // A body that sends a compaction back names the beta that has it.
        anthropic_beta: schemas::anthropic().validator("BetaCreateMessageParams"),
        gemini: schemas::gemini().validator("GenerateContentRequest"),
        responses: schemas::openai().validator("CreateResponse"),
        responses_item: schemas::openai().validator("EasyInputMessage"),
        responses_compaction: schemas::openai().validator("CompactionSummaryItemParam"),
    })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Provider {
    OpenAi,
    Anthropic,
    Gemini,
    OpenAiResponses,
    Bedrock,
}

const PROVIDERS: [Provider; 5] = [
    Provider::OpenAi,
    Provider::Anthropic,
    Provider::Gemini,
    Provider::OpenAiResponses,
    Provider::Bedrock,
];

impl Provider {
    /// Whether leading system messages go to a system field.
    fn hoists(self) -> bool {
        matches!(
            self,
            Provider::Anthropic | Provider::Gemini | Provider::Bedrock
        )
    }

    /// Whether adjacent turns of one role are rejected (and so merged).
    fn alternates(self) -> bool {
        matches!(self, Provider::Gemini | Provider::Bedrock)
    }

    /// Whether images go only in user turns.
    fn images_only_in_user_turns(self) -> bool {
        self != Provider::Gemini
    }

    /// Whether text must never be blank.
    fn no_blank_text(self) -> bool {
        matches!(
            self,
            Provider::Anthropic | Provider::Gemini | Provider::Bedrock
        )
    }

    /// The list of turns and each turn's content.
    fn keys(self) -> (&'static str, &'static str) {
        match self {
            Provider::OpenAi | Provider::Anthropic | Provider::Bedrock => ("messages", "content"),
            Provider::Gemini => ("contents", "parts"),
            Provider::OpenAiResponses => ("input", "content"),
        }
    }
}

/// What one turn of the generated conversation asks for.
#[derive(Debug, Clone)]
struct Case {
    history: Vec<StoredMessage>,
    live: Vec<StoredMessage>,
    instructions: String,
    preamble: bool,
    vision: Vision,
}

/// A tool round that returns a screenshot, as a computer-use agent stores it.
fn screenshot_message() -> StoredMessage {
    StoredMessage::new(
        Role::Tool,
        vec![
            Block::tool_result("t", "screenshot", "captured"),
            Block::image("image/png", SCREENSHOT),
        ],
    )
}

fn case() -> impl Strategy<Value = Case> {
    let history = (
        records::record(),
        proptest::collection::vec(any::<prop::sample::Index>(), 0..3),
    )
        .prop_map(|(mut record, at)| {
            for index in at {
                let position = index.index(record.len() + 1);
                record.insert(position, screenshot_message());
            }
            record
        });
    let live = prop_oneof![
        1 => Just(Vec::new()),
        4 => proptest::collection::vec(records::message_of(records::block()), 0..3).prop_map(
            |mut live| {
                live.push(StoredMessage::user("Go on."));
                live
            }
        ),
        1 => proptest::collection::vec(records::message_of(records::block()), 1..3),
    ];
    let instructions = prop_oneof![
        Just(String::new()),
        Just(" \n".to_owned()),
        Just("You are a careful coding agent.".to_owned()),
        records::text(),
    ];
    (
        history,
        live,
        instructions,
        any::<bool>(),
        prop_oneof![Just(Vision::Sees), Just(Vision::Blind)],
    )
        .prop_map(|(history, live, instructions, preamble, vision)| Case {
            history,
            live,
            instructions,
            preamble,
            vision,
        })
}

fn turn(case: &Case) -> Turn<'_> {
    let mut turn = Turn::new(&case.history)
        .vision(case.vision)
        .instructions(&case.instructions)
        .live(&case.live);
    if !case.preamble {
        turn = turn.without_preamble();
    }
    turn
}

/// The system text S the case asks for.
fn system_text(case: &Case) -> Option<String> {
    let instructions = (!is_blank(&case.instructions)).then_some(case.instructions.as_str());
    let parts: Vec<&str> = instructions
        .into_iter()
        .chain(case.preamble.then_some(REPLAY_PREAMBLE))
        .collect();
    (!parts.is_empty()).then(|| parts.join("\n\n"))
}

/// Whether a body can be made, worked out from the record alone: `Err` with the start of the
/// error when it cannot.
/// The history and live turn as the provider is sent them: from the message holding the
/// newest compaction it reads (one with a summary, or its own payload) on, after a user turn
/// that stands for what it replaced.
fn sent(case: &Case, provider: Provider) -> Vec<StoredMessage> {
    let all: Vec<StoredMessage> = case.history.iter().chain(&case.live).cloned().collect();
    let own = match provider {
        Provider::Anthropic => Some("anthropic"),
        Provider::OpenAiResponses => Some("openai-responses"),
        Provider::OpenAi | Provider::Gemini | Provider::Bedrock => None,
    };
    // Its own payload is read natively only where the provider takes it: Anthropic's block
    // in an assistant turn, Responses' payload only when it is a compaction item.
    let native = |role: Role, data: Option<&str>| match provider {
        Provider::Anthropic => role == Role::Assistant,
        Provider::OpenAiResponses => data
            .and_then(|data| serde_json::from_str::<Value>(data).ok())
            .is_some_and(|item| {
                item["type"] == "compaction" && item["encrypted_content"].is_string()
            }),
        Provider::OpenAi | Provider::Gemini | Provider::Bedrock => false,
    };
    let honored = all
        .iter()
        .rposition(|message| {
            message.blocks.iter().any(|block| {
                matches!(block, Block::Compaction { summary, provider, data }
                    if summary.is_some()
                        || (own.is_some()
                            && provider.as_deref() == own
                            && native(message.role, data.as_deref())))
            })
        })
        .unwrap_or(0);
    match honored {
        0 => all,
        _ => std::iter::once(StoredMessage::user("[earlier messages replaced]"))
            .chain(all[honored..].iter().cloned())
            .collect(),
    }
}

/// Whether a body can be made, worked out from the record alone: `Err` with the start of the
/// error when it cannot.
fn expected(case: &Case, provider: Provider) -> Result<(), &'static str> {
    let sent = sent(case, provider);
    let all: Vec<&StoredMessage> = sent.iter().collect();
    let turns: Vec<&&StoredMessage> = if provider.hoists() {
        all.iter().skip_while(|m| m.role == Role::System).collect()
    } else {
        all.iter().collect()
    };
    // A conversation turn is a user or model turn; a system message is one only where the
    // provider renders it as a user turn (after the hoisted ones).
    let conversation = turns
        .iter()
        .any(|message| message.role != Role::System || provider.hoists());
    if !conversation {
        return Err("the request has no conversation turn");
    }
    let first = turns.first().map(|message| message.role);
    if provider == Provider::Bedrock && matches!(first, Some(Role::Assistant | Role::Tool)) {
        return Err("the request would start on");
    }
    match all.last().map(|message| message.role) {
        Some(Role::Assistant | Role::Tool) => Err("the request would end on"),
        Some(Role::User | Role::System) | None => Ok(()),
    }
}

/// The turns of a body, as (role, content or parts).
fn turns(body: &Value, provider: Provider) -> Vec<(&str, &Value)> {
    let (list, content) = provider.keys();
    body[list]
        .as_array()
        .unwrap()
        .iter()
        .map(|turn| (turn["role"].as_str().unwrap_or("?"), &turn[content]))
        .collect()
}

/// The base64 data of every native image in one turn's content.
fn native_images(content: &Value) -> Vec<&str> {
    content
        .as_array()
        .map(|parts| {
            parts
                .iter()
                .filter_map(|part| {
                    part["image_url"]["url"]
                        .as_str()
                        .or_else(|| part["image_url"].as_str())
                        .and_then(|url| url.split_once(";base64,").map(|(_, data)| data))
                        .or_else(|| part["source"]["data"].as_str())
                        .or_else(|| part["inlineData"]["data"].as_str())
                        .or_else(|| part["image"]["source"]["bytes"].as_str())
                })
                .collect()
        })
        .unwrap_or_default()
}

fn value(body: impl serde::Serialize) -> Value {
    serde_json::to_value(body).unwrap()
}

fn problems(case: &Case, provider: Provider) -> Vec<String> {
    let mut problems = Vec::new();
    let fields = match provider {
        Provider::OpenAi | Provider::OpenAiResponses => json!({"model": "test-model"}),
        Provider::Anthropic => json!({"model": "test-model", "max_tokens": 1024}),
        // The model goes in the URL.
        Provider::Gemini | Provider::Bedrock => json!({}),
    };
    let turn = turn(case).fields(&fields);
    let built = match provider {
        Provider::OpenAi => openai::body(&turn).map(value),
        Provider::Anthropic => anthropic::body(&turn).map(value),
        Provider::Gemini => gemini::body(&turn).map(value),
        Provider::OpenAiResponses => openai_responses::body(&turn).map(value),
        Provider::Bedrock => bedrock::body(&turn).map(value),
    };
    let body = match (built, expected(case, provider)) {
        (Ok(body), Ok(())) => body,
        (Err(error), Err(start)) if error.to_string().starts_with(start) => return problems,
        (built, expected) => {
            return vec![format!(
                "built {:?}, expected {expected:?}",
                built.map(|_| "a body")
            )]
        }
    };

    // The full schema.
    let validators = validators();
    match provider {
        Provider::OpenAi => problems.extend(schemas::errors(&validators.openai, &body)),
        Provider::Anthropic => {
            // A text that holds these words has its quotes escaped.
            let compacted = body.to_string().contains(r#""type":"compaction""#);
            let validator = match compacted {
                true => &validators.anthropic_beta,
                false => &validators.anthropic,
            };
            problems.extend(schemas::errors(validator, &body));
        }
        Provider::Gemini => {
            // The export wrongly requires `model` in the body (SOURCES.md).
            let mut instance = body.clone();
            instance["model"] = json!("models/test-model");
            problems.extend(schemas::errors(&validators.gemini, &instance));
        }
        Provider::OpenAiResponses => {
            // `InputItem` is a oneOf whose branches overlap (SOURCES.md): each item is
            // checked against the branch it is, the rest of the body against the request.
            let mut instance = body.clone();
            let items = instance.as_object_mut().unwrap().remove("input").unwrap();
            problems.extend(schemas::errors(&validators.responses, &instance));
            for item in items.as_array().unwrap() {
                let validator = match item["type"].as_str() {
                    Some("compaction") => &validators.responses_compaction,
                    _ => &validators.responses_item,
                };
                problems.extend(schemas::errors(validator, item));
            }
        }
        Provider::Bedrock => problems.extend(schemas::bedrock_errors("ConverseRequest", &body)),
    }

    // Sequencing.
    let turns = turns(&body, provider);
    let last = turns.last().map(|(role, _)| *role);
    if matches!(last, Some("assistant" | "model")) {
        problems.push("ends on the model's turn".to_owned());
    }
    if provider == Provider::Bedrock && turns.first().map(|(role, _)| *role) != Some("user") {
        problems.push("does not start on a user turn".to_owned());
    }
    if provider.alternates() {
        for pair in turns.windows(2) {
            if pair[0].0 == pair[1].0 {
                problems.push(format!("two {} turns in a row", pair[0].0));
            }
        }
        for (_, parts) in &turns {
            if parts.as_array().is_none_or(Vec::is_empty) {
                problems.push("empty content".to_owned());
            }
        }
    }
    if provider.no_blank_text() {
        for text in strings(&body) {
            if text.is_empty() {
                problems.push("an empty string".to_owned());
            }
        }
        for (_, content) in &turns {
            for part in content.as_array().unwrap() {
                if part["text"].as_str().is_some_and(is_blank) {
                    problems.push("a blank text part".to_owned());
                }
            }
        }
    }

    // S and H, each once, in place.
    let texts = |list: Option<&Value>, each: &dyn Fn(&Value) -> Value| {
        list.and_then(Value::as_array)
            .map(|items| items.iter().map(each).collect::<Vec<_>>())
            .unwrap_or_default()
    };
    let system: Option<Vec<Value>> = match provider {
        Provider::OpenAi | Provider::OpenAiResponses => None,
        Provider::Anthropic => Some(texts(body.get("system"), &|block| block["text"].clone())),
        Provider::Bedrock => Some(texts(body.get("system"), &|block| block["text"].clone())),
        Provider::Gemini => Some(texts(
            body.get("systemInstruction")
                .map(|content| &content["parts"]),
            &|part| part["text"].clone(),
        )),
    };
    let s = system_text(case);
    let all = sent(case, provider);
    let wire = replay_messages(&all, case.vision);
    let h = match provider {
        Provider::Gemini => gemini::render(&wire).system_instruction,
        Provider::Bedrock => bedrock::render(&wire).system,
        Provider::OpenAi | Provider::Anthropic | Provider::OpenAiResponses => {
            anthropic::render(&wire).system
        }
    }
    .map(|text| text.to_string());
    match (provider, system) {
        (Provider::OpenAiResponses, _) => {
            if body.get("instructions").and_then(Value::as_str) != s.as_deref() {
                problems.push("instructions are not S".to_owned());
            }
        }
        (_, None) => {
            if let Some(s) = &s {
                if turns.first() != Some(&("system", &json!(s))) {
                    problems.push("S is not the first message".to_owned());
                }
            }
        }
        (_, Some(system)) => {
            let wanted: Vec<Value> = s.iter().chain(&h).map(|text| json!(text)).collect();
            if system != wanted {
                problems.push(format!("system {system:?}, wanted S then H"));
            }
        }
    }
    if case.preamble {
        let count: usize = strings(&body)
            .iter()
            .map(|text| text.matches(REPLAY_PREAMBLE).count())
            .sum();
        if count != 1 {
            problems.push(format!("the preamble appears {count} times"));
        }
    }

    // Images only where the provider takes them; screenshots reach a model that sees.
    if provider.images_only_in_user_turns() {
        for (role, content) in &turns {
            if *role != "user" && !native_images(content).is_empty() {
                problems.push(format!("an image in a {role} turn"));
            }
        }
    }
    let screenshots_with_a_user_after = all
        .iter()
        .enumerate()
        .filter(|(index, message)| {
            matches!(message.role, Role::Assistant | Role::Tool)
                && message.blocks.iter().any(
                    |block| matches!(block, Block::Image { data, media_type } if data == SCREENSHOT && media_type == "image/png"),
                )
                && all[index + 1..].iter().any(|later| later.role == Role::User)
        })
        .count();
    if case.vision == Vision::Sees && screenshots_with_a_user_after > 0 {
        let shown = turns
            .iter()
            .filter(|(role, _)| *role == "user" || !provider.images_only_in_user_turns())
            .flat_map(|(_, content)| native_images(content))
            .filter(|data| *data == SCREENSHOT)
            .count();
        // Bedrock takes 20 images a request: the newest stay.
        let wanted = match provider {
            Provider::Bedrock => screenshots_with_a_user_after.min(1),
            _ => screenshots_with_a_user_after,
        };
        if shown < wanted {
            problems.push(format!(
                "{shown} screenshots shown natively of {screenshots_with_a_user_after}"
            ));
        }
    }
    if provider.images_only_in_user_turns() {
        let text = strings(&body).concat();
        let carried = text.matches("from an earlier turn]").count();
        let left = text
            .matches("not shown: it is shown in the next user message]")
            .count();
        if carried != left {
            problems.push(format!(
                "{carried} images carried, {left} markers left for them"
            ));
        }
    }
    problems
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn every_body_is_valid_for_its_provider_or_refused_for_a_reason(case in case()) {
        for provider in PROVIDERS {
            let problems = problems(&case, provider);
            prop_assert!(problems.is_empty(), "{:?}: {:#?}", provider, problems);
        }
    }
}

#[test]
fn the_checks_catch_a_body_that_breaks_a_rule() {
    // A guard on the guard: a case whose body would end on the model's turn is expected to
    // be refused, and one that needs a screenshot shown counts it.
    let case = Case {
        history: vec![StoredMessage::user("Hi"), screenshot_message()],
        live: vec![StoredMessage::user("Well?")],
        instructions: String::new(),
        preamble: true,
        vision: Vision::Sees,
    };
    for provider in PROVIDERS {
        assert_eq!(
            problems(&case, provider),
            Vec::<String>::new(),
            "{provider:?}"
        );
    }
    let refused = Case {
        live: Vec::new(),
        ..case
    };
    assert!(expected(&refused, Provider::Anthropic).is_err());
    assert!(!validators()
        .responses_item
        .is_valid(&json!({"role": "user", "content": [
        {"type": "input_image", "image_url": "data:image/png;base64,AAAA"}]})));
    assert!(validators()
        .responses_item
        .is_valid(&json!({"role": "user", "content": [
        {"type": "input_image", "image_url": "data:image/png;base64,AAAA", "detail": "auto"}]})));
    assert!(!validators().anthropic.is_valid(&json!({
        "model": "m", "max_tokens": 1, "messages": [{"role": "system", "content": "x"}]
    })));
}

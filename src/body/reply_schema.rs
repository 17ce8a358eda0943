//! The reply's JSON schema, a neutral parameter of the turn (structured output); each
//! provider's form of it is in its folder's `params.rs`.

use super::Turn;
use crate::turn::params::ReplySchema;

impl Turn<'_> {
    /// Asks for the reply as JSON in this schema (structured output), written as each
    /// provider takes it:
    ///
    /// - OpenAI Chat, and the compatible servers that take it
    ///   ([`Dialect::json_schema`](crate::Dialect::json_schema)): `response_format: {"type":
    ///   "json_schema", "json_schema": {"name", "schema"}}`
    ///   (<https://platform.openai.com/docs/guides/structured-outputs>); a server that takes
    ///   only `json_object` (DeepSeek) makes the body an error naming it.
    /// - Responses: `text: {"format": {"type": "json_schema", "name", "schema"}}`
    ///   (<https://platform.openai.com/docs/api-reference/responses/create#responses-create-text>).
    /// - Anthropic: `output_config: {"format": {"type": "json_schema", "schema"}}`, with no beta
    ///   header (<https://platform.claude.com/docs/en/build-with-claude/structured-outputs>).
    /// - Gemini: `generationConfig.responseMimeType: "application/json"` with
    ///   `responseJsonSchema`, which takes JSON Schema, where `responseSchema` takes only an
    ///   OpenAPI subset (<https://ai.google.dev/gemini-api/docs/structured-output>).
    /// - Bedrock: `outputConfig.textFormat: {"type": "json_schema", "structure": {"jsonSchema":
    ///   {"schema", "name"}}}`, the schema as a string of its text
    ///   (<https://docs.aws.amazon.com/bedrock/latest/userguide/structured-output.html>).
    ///
    /// `schema` must be one JSON object, and is sent as its exact text (the order of its
    /// properties is the order the model writes them in); `name` must be 1 to 64 letters,
    /// digits, `_` or `-` (OpenAI's rule, the strictest). Either broken makes the body an
    /// error ([`CallerPart::ReplySchema`](crate::errors::CallerPart::ReplySchema)). A caller's
    /// field that says the same thing (`response_format`, `text.format`,
    /// `output_config.format`, `generationConfig.responseJsonSchema`,
    /// `outputConfig.textFormat`, ...) beside it is the error that names both.
    ///
    /// Strictness is left unsaid: no `strict` is written, so each provider's default holds
    /// (OpenAI's and Groq's are `false`), and a schema that a strict mode would refuse (an
    /// optional property, no `additionalProperties: false`) is never refused for that. A
    /// runtime that wants strict adherence writes the provider's own field instead.
    ///
    /// ```
    /// use transcript_replay::{anthropic, gemini, openai, StoredMessage, Turn};
    ///
    /// let history = [StoredMessage::user("Name a colour.")];
    /// let schema = r#"{"type": "object", "properties": {"colour": {"type": "string"}}}"#;
    /// let turn = Turn::new(&history).without_preamble().reply_schema("colour", schema);
    /// let body = serde_json::to_string(&openai::body(&turn)?).unwrap();
    /// assert!(body.starts_with(concat!(
    ///     r#"{"response_format":{"json_schema":{"name":"colour","schema":"#,
    ///     r#"{"type": "object", "properties": {"colour": {"type": "string"}}}},"type":"json_schema"},"#,
    /// )));
    /// let body = serde_json::to_value(gemini::body(&turn)?).unwrap();
    /// assert_eq!(body["generationConfig"]["responseMimeType"], "application/json");
    ///
    /// let bad = Turn::new(&history).reply_schema("a colour", schema);
    /// assert_eq!(
    ///     anthropic::body(&bad).unwrap_err().to_string(),
    ///     r#"the reply schema's name "a colour" must be 1 to 64 letters, digits, `_` or `-`"#,
    /// );
    /// # Ok::<(), transcript_replay::BodyError>(())
    /// ```
    #[must_use]
    pub fn reply_schema(mut self, name: &str, schema: &str) -> Self {
        match ReplySchema::new(name, schema) {
            Ok(reply) => self.params.reply_schema = Some(reply),
            Err(problem) => {
                if self.problem.is_none() {
                    self.problem = Some(problem);
                }
            }
        }
        self
    }
}

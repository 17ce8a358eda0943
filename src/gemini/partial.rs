//! A function call whose arguments Gemini 3 streams in parts (`streamFunctionCallArguments`):
//! the first part names the call (`functionCall: {name, willContinue: true}`), the parts after
//! it carry `partialArgs` with no `name` (`{jsonPath: "$.location", stringValue: "Bos",
//! willContinue: true}`, a string continued by the next argument of the same path), and an
//! empty `functionCall: {}` ends it
//! (<https://ai.google.dev/gemini-api/docs/function-calling#streaming-function-call-arguments>;
//! Vertex AI's `PartialArg`,
//! <https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/Content#partialarg>).
//! The arguments are assembled into one object, its keys in the order they came, so the call
//! is the one a whole reply gives.

use serde_json::Value;

/// One of `partialArgs`: where the value goes, the value, and whether a string value goes on
/// in the next argument of the same path.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct PartialArg {
    path: Vec<Step>,
    value: Value,
    will_continue: bool,
}

/// One step of a `jsonPath`: a member's key, or an element's index.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    Key(String),
    Index(usize),
}

impl PartialArg {
    /// One of `partialArgs` as Gemini sends it; `None` for one whose path is not a JSON path
    /// the crate reads (`$` then `.key`, `['key']` or `[index]` steps).
    pub(super) fn read(arg: &Value) -> Option<Self> {
        let path = steps(arg.get("jsonPath")?.as_str()?)?;
        let value = ["stringValue", "numberValue", "boolValue"]
            .iter()
            .find_map(|key| arg.get(*key).cloned())
            .unwrap_or(Value::Null);
        let will_continue = arg.get("willContinue").and_then(Value::as_bool) == Some(true);
        Some(PartialArg {
            path,
            value,
            will_continue,
        })
    }
}

/// The steps of a JSON path such as `$.items[0].name` or `$['a b']`.
fn steps(path: &str) -> Option<Vec<Step>> {
    let mut rest = path.strip_prefix('$')?;
    let mut steps = Vec::new();
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('.') {
            let end = after.find(['.', '[']).unwrap_or(after.len());
            let (key, next) = after.split_at(end);
            steps.push(Step::Key(key.to_owned()));
            rest = next;
        } else if let Some(after) = rest.strip_prefix("['") {
            let end = after.find("']")?;
            steps.push(Step::Key(after.get(..end)?.to_owned()));
            rest = after.get(end + 2..)?;
        } else if let Some(after) = rest.strip_prefix('[') {
            let end = after.find(']')?;
            steps.push(Step::Index(after.get(..end)?.parse().ok()?));
            rest = after.get(end + 1..)?;
        } else {
            return None;
        }
    }
    Some(steps)
}

/// The arguments assembled so far: a tree whose objects keep their keys in order.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Arguments {
    root: Node,
    /// The path of a string that goes on in the next argument.
    open: Option<Vec<Step>>,
}

#[derive(Debug, Clone, PartialEq)]
enum Node {
    Object(Vec<(String, Node)>),
    Array(Vec<Node>),
    Leaf(Value),
}

impl Default for Arguments {
    fn default() -> Self {
        Arguments {
            root: Node::Object(Vec::new()),
            open: None,
        }
    }
}

impl Arguments {
    /// Puts each argument where its path says: a string continued from the argument before
    /// (the same path, which said it would go on) is appended to.
    pub(super) fn add(&mut self, args: Vec<PartialArg>) {
        for arg in args {
            let continued = self.open.as_ref() == Some(&arg.path);
            if let Some(slot) = slot(&mut self.root, &arg.path) {
                match (continued, &mut *slot, &arg.value) {
                    (true, Node::Leaf(Value::String(text)), Value::String(more)) => {
                        text.push_str(more);
                    }
                    _ => *slot = Node::Leaf(arg.value),
                }
            }
            self.open = arg.will_continue.then_some(arg.path);
        }
    }

    /// The arguments as JSON text, without white space.
    pub(super) fn json(&self) -> String {
        let mut out = String::new();
        write(&self.root, &mut out);
        out
    }
}

/// The node at `path`, made (as objects and arrays, with `null` where an array's elements
/// are missing) where it is not yet.
fn slot<'n>(node: &'n mut Node, path: &[Step]) -> Option<&'n mut Node> {
    let Some((step, rest)) = path.split_first() else {
        return Some(node);
    };
    match step {
        Step::Key(key) => {
            if !matches!(node, Node::Object(_)) {
                *node = Node::Object(Vec::new());
            }
            let Node::Object(members) = node else {
                return None;
            };
            if !members.iter().any(|(known, _)| known == key) {
                members.push((key.clone(), Node::Leaf(Value::Null)));
            }
            let child = members
                .iter_mut()
                .find_map(|(known, child)| (known == key).then_some(child))?;
            slot(child, rest)
        }
        Step::Index(index) => {
            if !matches!(node, Node::Array(_)) {
                *node = Node::Array(Vec::new());
            }
            let Node::Array(elements) = node else {
                return None;
            };
            // An index past the end is the next element: no model skips one.
            let at = (*index).min(elements.len());
            if at == elements.len() {
                elements.push(Node::Leaf(Value::Null));
            }
            slot(elements.get_mut(at)?, rest)
        }
    }
}

fn write(node: &Node, out: &mut String) {
    match node {
        Node::Leaf(value) => out.push_str(&value.to_string()),
        Node::Array(elements) => {
            out.push('[');
            for (at, element) in elements.iter().enumerate() {
                if at > 0 {
                    out.push(',');
                }
                write(element, out);
            }
            out.push(']');
        }
        Node::Object(members) => {
            out.push('{');
            for (at, (key, member)) in members.iter().enumerate() {
                if at > 0 {
                    out.push(',');
                }
                out.push_str(&Value::from(key.as_str()).to_string());
                out.push(':');
                write(member, out);
            }
            out.push('}');
        }
    }
}

#!/usr/bin/env python3
"""Generates src/models/catalog.rs from the pinned models.dev catalog.

Run it from the repository's root, with the shared specs beside the checkout:

    python3 conformance/specs/models.py ../shared/specs/models.dev > src/models/catalog.rs

It reads `providers/<provider>/models/**/*.toml` for the providers the crate speaks to, each
merged over the provider-neutral `models/<base_model>.toml` it names (the provider's fields win,
table by table, key by key, as models.dev's own generator does), and writes one entry a model:
its limits, what it takes in, its features and its prices (with the first of `cost.tiers`, the
prices of a prompt over its size), with the file it came from; `base_model_omit` removes what it
names after the merge. The
commit is read from the catalog's SOURCES.md. A model without a context window or an output
limit is left out: the crate never guesses one. Run deliberately, never from a test; the output
is committed.
"""

import os
import re
import sys
import tomllib

# models.dev's provider folder -> the crate's provider id, in the order `find` prefers a
# provider when several serve a model under the same id (the first party first).
PROVIDERS = [
    ("openai", "openai"),
    ("anthropic", "anthropic"),
    ("google", "gemini"),
    ("amazon-bedrock", "bedrock"),
    ("deepseek", "deepseek"),
    ("mistral", "mistral"),
    ("xai", "xai"),
    ("groq", "groq"),
    ("cerebras", "cerebras"),
    ("perplexity", "perplexity"),
    ("togetherai", "together"),
    ("fireworks-ai", "fireworks"),
    ("openrouter", "openrouter"),
    ("azure", "azure"),
]


def merged(base, over):
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            inner = dict(out[key])
            inner.update(value)
            out[key] = inner
        else:
            out[key] = value
    return out


def rust_str(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def number(value):
    # Prices as models.dev writes them, as Rust f64 literals.
    text = repr(float(value))
    return text


def omitted(facts, path):
    # base_model_omit: a dotted path removed after the merge (`limit.input`, `cost.tiers`).
    table = facts
    for key in path[:-1]:
        table = table.get(key)
        if not isinstance(table, dict):
            return
    table.pop(path[-1], None)


def price_list(cost):
    # `p(input, output, cache read, cache write, above)`: `above` the first of `cost.tiers`,
    # the prices of a prompt over its size, as `&t(size, p(...))`.
    tiers = cost.get("tiers") or []
    above = "None"
    if tiers and "input" in tiers[0] and "output" in tiers[0]:
        tier = tiers[0]
        above = f"Some(&t({int(tier['tier']['size'])}, {price_list(tier)}))"
    return (
        f"p({number(cost['input'])}, {number(cost['output'])}, "
        f"{opt(cost.get('cache_read'), number)}, {opt(cost.get('cache_write'), number)}, {above})"
    )


def opt(value, fmt):
    return "None" if value is None else f"Some({fmt(value)})"


def main(root):
    sources = open(os.path.join(root, "SOURCES.md"), encoding="utf-8").read()
    commit = re.search(r"commit ([0-9a-f]{40}) \(([0-9-]+)\)", sources)
    if not commit:
        sys.exit("no commit in SOURCES.md")
    entries = []
    for order, (folder, provider) in enumerate(PROVIDERS):
        models = os.path.join(root, "providers", folder, "models")
        for dirpath, _, files in os.walk(models):
            for name in sorted(files):
                if not name.endswith(".toml"):
                    continue
                path = os.path.join(dirpath, name)
                model_id = os.path.relpath(path, models)[: -len(".toml")].replace(os.sep, "/")
                with open(path, "rb") as file:
                    facts = tomllib.load(file)
                base = facts.get("base_model")
                if base:
                    with open(os.path.join(root, "models", base + ".toml"), "rb") as file:
                        facts = merged(tomllib.load(file), facts)
                    for dotted in facts.get("base_model_omit", []):
                        omitted(facts, dotted.split("."))
                limit = facts.get("limit", {})
                if not limit.get("context") or not limit.get("output"):
                    continue
                inputs = facts.get("modalities", {}).get("input", [])
                cost = facts.get("cost")
                prices = "None"
                if cost and "input" in cost and "output" in cost:
                    prices = f"Some({price_list(cost)})"
                source = f"models.dev providers/{folder}/models/{model_id}.toml"
                if base:
                    source += f" over models/{base}.toml"
                input_limit = limit.get("input")
                # An input limit is one less than the window (one not less says nothing).
                if input_limit is not None and input_limit >= limit["context"]:
                    input_limit = None
                flags = [
                    name
                    for name, on in [
                        ("IMAGES", "image" in inputs),
                        ("PDF", "pdf" in inputs),
                        ("REASONING", bool(facts.get("reasoning"))),
                        ("TOOLS", bool(facts.get("tool_call"))),
                        ("SCHEMA", bool(facts.get("structured_output"))),
                    ]
                    if on
                ]
                entries.append(
                    (
                        model_id,
                        order,
                        f"    m({rust_str(model_id)}, {rust_str(provider)}, {int(limit['context'])}, "
                        f"{opt(input_limit, int)}, {int(limit['output'])}, {' | '.join(flags) or '0'}, "
                        f"{prices}, {rust_str(source)}),\n",
                    )
                )
    entries.sort(key=lambda entry: (entry[0], entry[1]))
    out = sys.stdout
    out.write(
        "// @generated by conformance/specs/models.py from the pinned models.dev catalog; do not\n"
        "// edit: run the script again (see its docstring).\n\n"
        "use super::{m, p, t, Model, IMAGES, PDF, REASONING, SCHEMA, TOOLS};\n\n"
        f"/// The models.dev commit the catalog was generated from, and its date.\n"
        f"pub(super) const COMMIT: &str = \"{commit.group(1)} ({commit.group(2)})\";\n\n"
        "/// Every model, by id, then by the provider `find` prefers: one a line.\n"
        "pub(super) static MODELS: &[Model] = &[\n"
    )
    for _, _, text in entries:
        out.write(text)
    out.write("];\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "../shared/specs/models.dev")

#!/usr/bin/env python3
"""Trims the providers' pinned specs to what the conformance tests validate against.

    python3 conformance/specs/trim.py PINNED_SPECS_FOLDER

Run it by hand, deliberately, when the pinned specs change; never from a test. For each spec
it checks the original's sha256 against the one recorded in SOURCES.md beside this script
(a changed original is an error until SOURCES.md is updated), then keeps only the schemas
(OpenAPI) or shapes (the Bedrock service model) reachable from the roots below, and writes
the subset here, sorted and indented so that a refresh reads as a diff.
"""

import hashlib
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

# file -> (kind, roots): the request types the renderers build and the response types the
# reply readers read.
SPECS = {
    "openai-openapi.json": (
        "openapi",
        [
            "CreateChatCompletionRequest",
            "CreateChatCompletionResponse",
            "CreateResponse",
            "Response",
        ],
    ),
    # The beta request and reply, for the blocks only a beta carries (compaction).
    "anthropic-openapi.json": (
        "openapi",
        ["CreateMessageParams", "Message", "BetaCreateMessageParams", "BetaMessage"],
    ),
    "gemini-generativelanguage-v1beta-openapi.json": (
        "openapi",
        ["GenerateContentRequest", "GenerateContentResponse"],
    ),
    "bedrock-runtime-service-2.json": ("smithy", ["ConverseRequest", "ConverseResponse"]),
}

REF = re.compile(r"#/components/schemas/([^\"/]+)")


def recorded_sha256():
    text = (HERE / "SOURCES.md").read_text()
    return dict(re.findall(r"^- `?([\w.-]+\.json)`? original sha256 ([0-9a-f]{64})", text, re.M))


def openapi_refs(value):
    found = set()
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "$ref" and isinstance(item, str):
                match = REF.search(item)
                if match:
                    found.add(match.group(1))
            else:
                found |= openapi_refs(item)
    elif isinstance(value, list):
        for item in value:
            found |= openapi_refs(item)
    return found


def trim_openapi(document, roots):
    schemas = document["components"]["schemas"]
    keep, todo = set(), list(roots)
    while todo:
        name = todo.pop()
        if name in keep:
            continue
        keep.add(name)
        todo.extend(openapi_refs(schemas[name]) - keep)
    return {
        "openapi": document["openapi"],
        "info": document.get("info", {}),
        "components": {"schemas": {name: schemas[name] for name in sorted(keep)}},
    }


def smithy_refs(shape):
    found = set()
    for key in ("member", "key", "value"):
        if key in shape:
            found.add(shape[key]["shape"])
    for member in shape.get("members", {}).values():
        found.add(member["shape"])
    return found


def trim_smithy(document, roots):
    shapes = document["shapes"]
    keep, todo = set(), list(roots)
    while todo:
        name = todo.pop()
        if name in keep:
            continue
        keep.add(name)
        todo.extend(smithy_refs(shapes[name]) - keep)
    return {
        "version": document["version"],
        "metadata": document["metadata"],
        "shapes": {name: shapes[name] for name in sorted(keep)},
    }


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    source = Path(sys.argv[1])
    recorded = recorded_sha256()
    for file, (kind, roots) in SPECS.items():
        raw = (source / file).read_bytes()
        digest = hashlib.sha256(raw).hexdigest()
        if recorded.get(file) != digest:
            sys.exit(
                f"{file}: sha256 {digest} is not the one SOURCES.md records "
                f"({recorded.get(file)}); update SOURCES.md deliberately, then run again"
            )
        document = json.loads(raw)
        subset = (trim_openapi if kind == "openapi" else trim_smithy)(document, roots)
        out = HERE / file
        out.write_text(json.dumps(subset, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
        count = len(subset["components"]["schemas"] if kind == "openapi" else subset["shapes"])
        print(f"{file}: {count} of {len(document['components']['schemas'] if kind == 'openapi' else document['shapes'])} kept, {out.stat().st_size} bytes")


if __name__ == "__main__":
    main()

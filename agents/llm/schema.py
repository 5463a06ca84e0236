"""JSON schemas that OpenAI's strict structured outputs accept.

Why: pydantic renders a discriminated union (the engine's `Action`) as `oneOf`
plus a `discriminator` keyword; OpenAI strict mode (`json_schema` method)
rejects both with HTTP 400, and the SDK's own strict conversion keeps them.
Since exactly one branch can match a discriminated union, `anyOf` means the
same thing. Everything else follows the SDK's rules: every object closed
(`additionalProperties: false`), every property required (optional ones stay
nullable), no `null` defaults, no `$ref` with sibling keys.
"""

from __future__ import annotations

import copy
from typing import Any

from pydantic import BaseModel

__all__ = ["ENUM_RANGE", "MAX_CHARS", "MAX_ITEMS", "bounded_ints_as_enums", "response_format_for", "strict_json_schema"]

# a bounded integer with at most this many values is sent as an enum of them
ENUM_RANGE = 26
# an array or a string without a bound of its own is sent with these (a grammar-held small model that
# starts a list of dice may not stop before the token limit: Vele's `build`, 800 tokens, cut off). Legal
# lists run past 8: Paganini's skills ("any number"), Vele's present components (20+ an act with 5
# players) and a pooling unit's stakes; 24 bounds a runaway and forbids none of them
MAX_ITEMS = 24
MAX_CHARS = 500


def strict_json_schema(schema: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON schema in OpenAI's strict subset."""
    root = copy.deepcopy(schema.model_json_schema())
    return _strict(root, root)


def response_format_for(schema: type[BaseModel]) -> dict[str, Any]:
    """A `json_schema` response-format body (name, schema, strict) for the model."""
    return {"name": schema.__name__, "schema": strict_json_schema(schema), "strict": True}


def _strict(node: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    node.pop("discriminator", None)
    if "oneOf" in node:
        node["anyOf"] = node.pop("oneOf")
    for defs_key in ("$defs", "definitions"):
        for name, sub in (node.get(defs_key) or {}).items():
            node[defs_key][name] = _strict(sub, root)
    if node.get("type") == "object" and "additionalProperties" not in node:
        node["additionalProperties"] = False
    if isinstance(node.get("properties"), dict):
        node["required"] = list(node["properties"])
        node["properties"] = {k: _strict(v, root) for k, v in node["properties"].items()}
    if isinstance(node.get("items"), dict):
        node["items"] = _strict(node["items"], root)
    if isinstance(node.get("anyOf"), list):
        node["anyOf"] = [_strict(v, root) for v in node["anyOf"]]
    if isinstance(node.get("allOf"), list) and len(node["allOf"]) == 1:
        node.update(_strict(node.pop("allOf")[0], root))
    if "default" in node and node["default"] is None:
        node.pop("default")
    ref = node.get("$ref")
    if isinstance(ref, str) and len(node) > 1:  # strict mode: no siblings next to $ref
        target: Any = root
        for part in ref.removeprefix("#/").split("/"):
            target = target[part]
        merged = {**copy.deepcopy(target), **node}
        merged.pop("$ref")
        return _strict(merged, root)
    return node


def bounded_ints_as_enums(node: Any) -> Any:
    """The schema with every bounded integer (`minimum` and `maximum`, at most ENUM_RANGE values) as an
    `enum`, and every array and string without an upper bound given MAX_ITEMS / MAX_CHARS, everywhere
    (properties, items, unions, $defs). An integer with a `minimum` alone keeps it: its legal values have no
    fixed top (a Universalis bid up to the bidder's Wealth, a scene number, Vele XP spent), so an enum
    of its first values would forbid legal choices; our own validation catches a value below it.

    Why: llama-cpp-python's grammar (llama_grammar.py, 0.3.x: "TODO: support minimum, maximum") ignores
    integer bounds, so SmolLM2 held by it wrote Paganini's `rounds` 0 and a skill level 5, our own
    validation refused them ("invalid output"), and the seat lost the decision. Every server family
    enforces an enum; the values are the same.
    """
    if isinstance(node, list):
        return [bounded_ints_as_enums(x) for x in node]
    if not isinstance(node, dict):
        return node
    out = {k: bounded_ints_as_enums(v) for k, v in node.items()}
    low, high = out.get("minimum"), out.get("maximum")
    if out.get("type") == "integer" and "enum" not in out and isinstance(low, int) and isinstance(high, int) \
            and 0 <= high - low < ENUM_RANGE:
        out["enum"] = list(range(low, high + 1))
        out.pop("minimum")
        out.pop("maximum")
    names = out.get("propertyNames")
    if out.get("type") == "object" and isinstance(names, dict) and names.get("enum") and "properties" not in out \
            and isinstance(out.get("additionalProperties"), dict):
        # a dict keyed by an enum (Paganini's armour ratings by damage type): the grammar ignores propertyNames
        # and SmolLM2 wrote any key; every key is written out instead (all required, as strict mode wants)
        keys = [str(k) for k in names["enum"]]
        out = {k: v for k, v in out.items() if k not in ("propertyNames", "additionalProperties")}
        value = bounded_ints_as_enums(node["additionalProperties"])
        out.update(properties={k: value for k in keys}, required=keys, additionalProperties=False)
    if out.get("type") == "array" and "maxItems" not in out:
        out["maxItems"] = max(MAX_ITEMS, int(out.get("minItems", 0)))
    if out.get("type") == "string" and "maxLength" not in out and "enum" not in out and "const" not in out:
        out["maxLength"] = max(MAX_CHARS, int(out.get("minLength", 0)))
    return out

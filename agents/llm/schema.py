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

__all__ = ["response_format_for", "strict_json_schema"]


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

"""strict_json_schema: pydantic schemas turned into OpenAI's strict subset."""

from __future__ import annotations

import json
from typing import Any, Optional

from fakeserver import Choice, NarrateEvent, example_for_schema
from pydantic import BaseModel, Field

from agents.llm.schema import response_format_for, strict_json_schema


def objects(node: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    if isinstance(node, dict):
        if "properties" in node:
            found.append(node)
        for value in node.values():
            found += objects(value)
    elif isinstance(node, list):
        for value in node:
            found += objects(value)
    return found


def test_discriminated_union_becomes_closed_any_of() -> None:
    schema = strict_json_schema(Choice)
    text = json.dumps(schema)
    assert "oneOf" not in text and "discriminator" not in text
    assert len(schema["properties"]["action"]["anyOf"]) == 3
    for obj in objects(schema):
        assert obj["additionalProperties"] is False and obj["required"] == list(obj["properties"])
    # still describes the same instances
    assert Choice.model_validate(example_for_schema(schema)) is not None
    assert strict_json_schema(NarrateEvent)["required"] == ["type", "text", "performer", "receiver"]


class Component(BaseModel):
    name: str


class WithRefAndOptional(BaseModel):
    owner: Component = Field(description="who owns it")
    note: Optional[str] = None


def test_ref_with_siblings_is_inlined_and_none_default_dropped() -> None:
    schema = strict_json_schema(WithRefAndOptional)
    owner = schema["properties"]["owner"]
    assert "$ref" not in owner and owner["description"] == "who owns it"
    assert owner["additionalProperties"] is False and owner["required"] == ["name"]
    assert "default" not in schema["properties"]["note"]
    assert {"type": "null"} in schema["properties"]["note"]["anyOf"]


def test_response_format_and_no_mutation_of_pydantic_cache() -> None:
    before = json.dumps(Choice.model_json_schema())
    fmt = response_format_for(Choice)
    assert (fmt["name"], fmt["strict"]) == ("Choice", True)
    assert json.dumps(Choice.model_json_schema()) == before

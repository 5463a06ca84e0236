"""A strict fake OpenAI-compatible HTTP server for tests, bound to 127.0.0.1 only.

Why: the LLM machinery must be exercised through the real `openai` client and
`langchain-openai` (request shapes, headers, timeouts, error mapping), without internet and
without a real model, and a request the real API would refuse must fail here too (issue 24:
every request carried a tool named "", OpenAI answered 400, and this fake said nothing).

Rules are built from the APIs' documentation and the local servers' code (see `PROFILES`):
OpenAI's function and schema name pattern, `tool_choice` naming a tool that exists, strict
`json_schema` rules (closed objects, every property required, only the supported keywords),
message roles and order (tool messages right after the assistant message that called them),
unknown parameters, parameters per model family (o-series/gpt-5: `max_completion_tokens`,
temperature 1 only), unknown models (404) and wrong keys (401). Profiles imitate
llama-cpp-python, llama.cpp's llama-server, Ollama and vLLM, each with its documented
differences. Refused requests are answered with the server's status and kind of error body
and kept in `violations`; accepted requests that the server would not honour as meant (no
token limit it reads, a tool it does not force) are kept in `lapses`.

Tests queue behaviours (`valid`, `prose`, `invalid_json`, `http_error`, `rate_limited`,
`refusal`, `cut_off`, `no_choices`, `no_usage`, `delay`, `hang`); when the queue is empty a
default callable computes the answer from the request (by default: the first legal option
of the requested schema).

Use the `fake_openai` fixture (import it into a test module or conftest):

    from fakeserver import fake_openai, valid, prose  # noqa: F401
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import re
import socket
import struct
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Annotated, Any, Callable, Iterator, Literal, Union

import pytest
from pydantic import BaseModel, Field

__all__ = [
    "Behaviour",
    "Bid",
    "Choice",
    "NarrateEvent",
    "Pass",
    "FakeOpenAIServer",
    "Recorded",
    "cut_off",
    "delay",
    "example_for_schema",
    "hang",
    "no_choices",
    "no_usage",
    "rate_limited",
    "refusal",
    "strict_schema_problem",
    "fake_openai",
    "first_legal_option",
    "hash_embedding",
    "http_error",
    "invalid_json",
    "prose",
    "valid",
]

MAX_DELAY_S = 5.0  # a delayed answer never holds a thread longer than this
MAX_LIFETIME_S = 120.0  # the server shuts itself down after this, fixture or not
EMBEDDING_DIM = 16


@dataclass(frozen=True)
class Behaviour:
    """One scripted reaction to one chat-completions request."""

    kind: str  # "valid" | "prose" | "invalid_json" | "http_error" | "delay"
    payload: Any = None
    status: int = 200
    seconds: float = 0.0
    then: "Behaviour | None" = None


def valid(obj: dict[str, Any]) -> Behaviour:
    """Answer `obj` as tool-call arguments or JSON content, as the request asked."""
    return Behaviour("valid", payload=obj)


def prose(text: str = "I think I would rather describe the scene in words.") -> Behaviour:
    """Answer plain text content, no tool call (what small local models often do)."""
    return Behaviour("prose", payload=text)


def invalid_json(text: str = '{"type": "bid", "amount": ') -> Behaviour:
    """Answer broken JSON, as tool-call arguments when tools were sent."""
    return Behaviour("invalid_json", payload=text)


def http_error(status: int = 500, message: str = "The server had an error.") -> Behaviour:
    """Answer an OpenAI-style error body with this HTTP status."""
    return Behaviour("http_error", payload=message, status=status)


def delay(seconds: float, then: Behaviour | None = None) -> Behaviour:
    """Sleep (bounded by MAX_DELAY_S) before answering `then` (default: the default)."""
    return Behaviour("delay", seconds=seconds, then=then)


def hang() -> Behaviour:
    """Accept the request and never answer (until the server stops): a dead endpoint."""
    return Behaviour("hang")


def refusal(text: str = "I'm sorry, I can't help with that.") -> Behaviour:
    """OpenAI's refusal shape: `content` null, `refusal` set, finish_reason "stop"."""
    return Behaviour("refusal", payload=text)


def cut_off(obj: dict[str, Any] | None = None) -> Behaviour:
    """An answer cut at the token limit: half of the JSON, finish_reason "length"."""
    return Behaviour("cut_off", payload=obj)


def no_choices() -> Behaviour:
    """A 200 answer whose `choices` list is empty (some compatible servers do this)."""
    return Behaviour("no_choices")


def no_usage(obj: dict[str, Any]) -> Behaviour:
    """A valid answer without the `usage` object (several local servers omit it)."""
    return Behaviour("valid", payload=obj, status=-1)


def rate_limited(retry_after_s: float = 1.0, message: str = "Rate limit reached for requests") -> Behaviour:
    """HTTP 429 with a Retry-After header."""
    return Behaviour("http_error", payload=message, status=429, seconds=retry_after_s)


# ------------------------------------------------------------ sample schemas
# Small action models shaped like the engine's (flat, discriminated on `type`),
# so LLM tests need no dependency on `engine/`.


class Bid(BaseModel):
    """Bid coins for the right to frame the next scene."""

    type: Literal["bid"] = "bid"
    amount: int = Field(ge=0, le=10)


class NarrateEvent(BaseModel):
    """Narrate an event between two components."""

    type: Literal["narrate_event"] = "narrate_event"
    text: str = Field(min_length=1)
    performer: str
    receiver: str


class Pass(BaseModel):
    """Do nothing this turn."""

    type: Literal["pass"] = "pass"


class Choice(BaseModel):
    """Choose exactly one legal action."""

    action: Annotated[Union[Bid, NarrateEvent, Pass], Field(discriminator="type")]


# --------------------------------------------------------------------------- schema


def _resolve(node: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        target: Any = root
        for part in ref[2:].split("/"):
            target = target[part]
        return _resolve(target, root)
    return node


def example_for_schema(schema: dict[str, Any], root: dict[str, Any] | None = None) -> Any:
    """A minimal instance of a JSON schema: first enum value, first union branch."""
    root = schema if root is None else root
    node = _resolve(schema, root)
    if "const" in node:
        return node["const"]
    if node.get("enum"):
        return node["enum"][0]
    for key in ("anyOf", "oneOf", "allOf"):
        if node.get(key):
            return example_for_schema(node[key][0], root)
    if "default" in node:
        return node["default"]
    kind = node.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "object" or "properties" in node:
        props: dict[str, Any] = node.get("properties", {})
        required = set(node.get("required", list(props)))
        # also fill const-valued fields: discriminator tags often have a default
        # and so are not "required" in the schema, yet pydantic needs them
        wanted = [n for n, p in props.items() if n in required or "const" in _resolve(p, root)]
        return {name: example_for_schema(props[name], root) for name in wanted}
    if kind == "array":
        if node.get("prefixItems"):
            return [example_for_schema(sub, root) for sub in node["prefixItems"]]
        count = node.get("minItems", 0)
        return [example_for_schema(node.get("items", {}), root) for _ in range(count)]
    if kind == "integer":
        return int(node.get("minimum", 0))
    if kind == "number":
        return float(node.get("minimum", 0))
    if kind == "boolean":
        return False
    if kind == "string":
        return "x" * int(node.get("minLength", 1))
    return None


def grammar_instance(schema: dict[str, Any], root: dict[str, Any] | None = None) -> Any:
    """What a model held by llama-cpp-python's grammar (llama_grammar.py, 0.3.x) may write for a schema:
    enums, consts, string lengths and item counts hold, but integer `minimum`/`maximum` do not ("TODO:
    support minimum, maximum"), so an integer goes one past its bound, as SmolLM2's did (Paganini
    `rounds` 0, a Vele bid of 7), nor does `propertyNames` (a dict keyed by an enum gets the key "x").
    Every property is written, the first non-null branch of a union taken."""
    root = schema if root is None else root
    node = _resolve(schema, root)
    if "const" in node:
        return node["const"]
    if node.get("enum"):
        return node["enum"][-1]
    for key in ("anyOf", "oneOf", "allOf"):
        if node.get(key):
            branches = [b for b in node[key] if _resolve(b, root).get("type") != "null"] or node[key]
            return grammar_instance(branches[0], root)
    kind = node.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "object" or "properties" in node:
        out = {name: grammar_instance(sub, root) for name, sub in node.get("properties", {}).items()}
        if not out and isinstance(node.get("additionalProperties"), dict):  # the grammar ignores propertyNames
            out["x"] = grammar_instance(node["additionalProperties"], root)
        return out
    if kind == "array":
        if node.get("prefixItems"):
            return [grammar_instance(sub, root) for sub in node["prefixItems"]]
        return [grammar_instance(node.get("items", {}), root) for _ in range(max(1, node.get("minItems", 0)))]
    if kind == "integer":
        if "maximum" in node:
            return int(node["maximum"]) + 1
        return int(node["minimum"]) - 1 if "minimum" in node else 0
    if kind == "number":
        return float(node.get("maximum", 0)) + 1
    if kind == "boolean":
        return False
    if kind == "string":
        return "x" * max(1, int(node.get("minLength", 1)))
    return None


def requested_schema(body: dict[str, Any]) -> dict[str, Any] | None:
    """The JSON schema the client asked for: the forced tool's, else response_format's."""
    tool = _chosen_tool(body)
    if tool is not None:
        return tool.get("function", {}).get("parameters")
    fmt = body.get("response_format") or {}
    if fmt.get("type") == "json_schema":
        return fmt.get("json_schema", {}).get("schema")
    if fmt.get("type") == "json_object" and isinstance(fmt.get("schema"), dict):
        return fmt["schema"]
    return None


def first_legal_option(body: dict[str, Any]) -> Behaviour:
    """Default answer: a minimal valid instance of the requested schema."""
    schema = requested_schema(body)
    if schema is None:
        return prose("Nothing was asked of me in a structured way.")
    return valid(example_for_schema(schema))


def _chosen_tool(body: dict[str, Any]) -> dict[str, Any] | None:
    tools = body.get("tools") or []
    if not tools:
        return None
    choice = body.get("tool_choice")
    if isinstance(choice, dict):
        wanted = choice.get("function", {}).get("name")
        for tool in tools:
            if tool.get("function", {}).get("name") == wanted:
                return tool
    return tools[0]


# ------------------------------------------------------------------------ helpers


def hash_embedding(text: str, dim: int = EMBEDDING_DIM) -> list[float]:
    """A deterministic unit vector derived from sha256 of the text."""
    raw: list[float] = []
    counter = 0
    while len(raw) < dim:
        digest = hashlib.sha256(f"{counter}:{text}".encode()).digest()
        raw.extend((b - 127.5) / 127.5 for b in digest)
        counter += 1
    vec = raw[:dim]
    norm = math.sqrt(sum(v * v for v in vec)) or 1.0
    return [v / norm for v in vec]


def _approx_tokens(text: str) -> int:
    """Deterministic token estimate (chars/4, at least 1) so accounting is testable."""
    return max(1, len(text) // 4)


def _message_text(messages: list[dict[str, Any]]) -> str:
    parts: list[str] = []
    for msg in messages:
        content = msg.get("content")
        if isinstance(content, str):
            parts.append(content)
        elif isinstance(content, list):
            parts.extend(str(p.get("text", "")) for p in content if isinstance(p, dict))
        for call in msg.get("tool_calls") or []:
            parts.append(str(call.get("function", {}).get("arguments", "")))
    return "\n".join(parts)


# ------------------------------------------------------------------------- rules
# Each rule below is one the real API documents (or, for the local servers, one their code
# applies); the message imitates the API's own. A broken rule is answered with the status
# the server uses and recorded in `FakeOpenAIServer.violations`.

NAME_RE = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
ROLES = {"system", "developer", "user", "assistant", "tool", "function"}
KNOWN_PARAMS = {
    "model", "messages", "audio", "frequency_penalty", "function_call", "functions", "logit_bias", "logprobs",
    "max_completion_tokens", "max_tokens", "metadata", "modalities", "n", "parallel_tool_calls", "prediction",
    "presence_penalty", "prompt_cache_key", "reasoning_effort", "response_format", "safety_identifier", "seed",
    "service_tier", "stop", "store", "stream", "stream_options", "temperature", "tool_choice", "tools",
    "top_logprobs", "top_p", "user", "verbosity", "web_search_options",
}
# keywords OpenAI's strict mode accepts in a schema (the Structured Outputs guide's supported subset)
STRICT_KEYWORDS = {
    "type", "properties", "required", "additionalProperties", "items", "anyOf", "enum", "const", "description",
    "title", "$ref", "$defs", "definitions", "pattern", "format", "minimum", "maximum", "exclusiveMinimum",
    "exclusiveMaximum", "multipleOf", "minItems", "maxItems",
}
REASONING_MODEL = re.compile(r"^(o\d|gpt-5(?!-chat))")


class Refused(Exception):
    """A request the server refuses: HTTP status, message, error type."""

    def __init__(self, status: int, message: str, kind: str = "invalid_request_error",
                 param: str | None = None, code: str | None = None) -> None:
        super().__init__(message)
        self.status, self.message, self.kind, self.param, self.code = status, message, kind, param, code


@dataclass(frozen=True)
class Profile:
    """One server family's OpenAI-compatible surface, as its docs and code describe it."""

    name: str
    owned_by: str
    response_formats: tuple[str, ...]  # accepted response_format types
    format_status: int  # status for any other type
    format_message: str
    tool_choice_forces: tuple[str, ...]  # tool_choice shapes that force the tool: "named", "required"
    token_params: tuple[str, ...]  # parameters that limit the answer (others are ignored)
    openai_rules: bool  # OpenAI's own validation (names, strict schemas, model families, unknown params)
    assistant_needs_content: bool = False  # llama-cpp-python: content must be a string
    tools_need_jinja: bool = False  # llama.cpp: tools only with --jinja
    any_model: bool = False  # single-model servers answer with their model whatever the name


PROFILES: dict[str, Profile] = {
    "openai": Profile("openai", "system", ("text", "json_object", "json_schema"), 400,
                      "Invalid value: '{t}'. Supported values are: 'text', 'json_object', and 'json_schema'.",
                      ("named", "required"), ("max_tokens", "max_completion_tokens"), True),
    # llama_cpp/server/types.py: response_format is {"type": Literal["text", "json_object"], "schema"?};
    # a failed request model is answered 500 by its error handler; max_completion_tokens is not a field
    "llama-cpp-python": Profile("llama-cpp-python", "me", ("text", "json_object"), 500,
                                "1 validation error: {{'type': 'literal_error', 'loc': ('body', 'response_format', "
                                "'type'), 'msg': \"Input should be 'text' or 'json_object'\", 'input': '{t}'}}",
                                ("named",), ("max_tokens",), False, assistant_needs_content=True, any_model=True),
    # llama.cpp tools/server utils: json_object (+schema) and json_schema; a named tool_choice object is
    # read as "auto", "required" forces; tools need --jinja
    "llama.cpp": Profile("llama.cpp", "llamacpp", ("text", "json_object", "json_schema"), 400,
                         "Illegal param: \"response_format\" must be one of 'text' or 'json_object', but got: {t}",
                         ("required",), ("max_tokens", "n_predict"), False, tools_need_jinja=True, any_model=True),
    # ollama openai/openai.go: json_schema -> format, json_object -> "json", no tool_choice field,
    # max_tokens -> num_predict; other types are ignored
    "ollama": Profile("ollama", "library", ("text", "json_object", "json_schema", "*"), 400, "",
                      (), ("max_tokens",), False),
    "vllm": Profile("vllm", "vllm", ("text", "json_object", "json_schema"), 400,
                    "response_format type {t} is not supported", ("named", "required"),
                    ("max_tokens", "max_completion_tokens"), False),
}


def check_request(body: dict[str, Any], profile: Profile, model_ids: tuple[str, ...], jinja: bool = True) -> None:
    """Raise Refused for what this server refuses; return for a request it accepts."""
    messages = body.get("messages")
    if profile.openai_rules:
        unknown = sorted(set(body) - KNOWN_PARAMS)
        if unknown:
            raise Refused(400, f"Unrecognized request argument supplied: {unknown[0]}", param=unknown[0])
        if not isinstance(body.get("model"), str) or not body["model"]:
            raise Refused(400, "you must provide a model parameter", param="model")
    if not isinstance(messages, list) or not messages:
        raise Refused(400, "'messages' must be a non-empty array", param="messages")
    model = str(body.get("model", ""))
    if model_ids and model not in model_ids and not profile.any_model:
        raise Refused(404, f"The model `{model}` does not exist or you do not have access to it.",
                      code="model_not_found")
    _check_messages(messages, profile)
    if profile.openai_rules:
        _check_params(body, model)
    _check_tools(body, profile, jinja)
    _check_response_format(body, profile)


def _check_messages(messages: list[Any], profile: Profile) -> None:
    pending: dict[str, int] = {}  # tool_call_id -> index of the assistant message that made it
    for i, msg in enumerate(messages):
        if not isinstance(msg, dict) or msg.get("role") not in ROLES:
            raise Refused(400, f"Invalid value for 'messages[{i}].role': expected one of {sorted(ROLES)}.",
                          param=f"messages[{i}].role")
        role = msg["role"]
        content = msg.get("content")
        calls = msg.get("tool_calls") or []
        if role == "tool":
            call_id = msg.get("tool_call_id")
            if call_id not in pending:
                raise Refused(400, "Invalid parameter: messages with role 'tool' must be a response to a "
                                   "preceeding message with 'tool_calls'.", param=f"messages.[{i}].role")
            pending.pop(call_id)
            continue
        if pending:
            raise Refused(400, "An assistant message with 'tool_calls' must be followed by tool messages "
                               f"responding to each 'tool_call_id'. The following tool_call_ids did not have "
                               f"response messages: {', '.join(sorted(pending))}", param=f"messages.[{i}].role")
        if role == "assistant":
            if profile.assistant_needs_content and not isinstance(content, str):
                raise Refused(500, "1 validation error: {'type': 'string_type', 'loc': ('body', 'messages', "
                                   f"{i}, 'assistant', 'content'), 'msg': 'Input should be a valid string', "
                                   "'input': None}", "internal_server_error")
            if content is None and not calls and not msg.get("refusal"):
                raise Refused(400, f"Invalid value for 'messages[{i}].content': expected a string, got null.",
                              param=f"messages.[{i}].content")
            for call in calls:
                pending[str(call.get("id"))] = i
        elif not isinstance(content, (str, list)):
            raise Refused(400, f"Invalid value for 'messages[{i}].content': expected a string or an array.",
                          param=f"messages.[{i}].content")
    if pending:
        raise Refused(400, "An assistant message with 'tool_calls' must be followed by tool messages responding "
                           f"to each 'tool_call_id'. The following tool_call_ids did not have response messages: "
                           f"{', '.join(sorted(pending))}", param="messages")


def _check_params(body: dict[str, Any], model: str) -> None:
    """Parameters per OpenAI model family (the API reference and its errors)."""
    reasoning = bool(REASONING_MODEL.match(model))
    if "max_tokens" in body and "max_completion_tokens" in body:
        raise Refused(400, "max_tokens and max_completion_tokens cannot both be set", param="max_tokens")
    if reasoning and "max_tokens" in body:
        raise Refused(400, "Unsupported parameter: 'max_tokens' is not supported with this model. "
                           "Use 'max_completion_tokens' instead.", param="max_tokens", code="unsupported_parameter")
    if reasoning and body.get("temperature") not in (None, 1, 1.0):
        raise Refused(400, f"Unsupported value: 'temperature' does not support {body['temperature']} with this "
                           "model. Only the default (1) value is supported.", param="temperature",
                      code="unsupported_value")
    if not reasoning and "reasoning_effort" in body:
        raise Refused(400, "Unrecognized request argument supplied: reasoning_effort", param="reasoning_effort")
    temperature = body.get("temperature")
    if temperature is not None and not (isinstance(temperature, (int, float)) and 0 <= temperature <= 2):
        raise Refused(400, f"Invalid 'temperature': decimal above maximum value. Expected a value <= 2, but got "
                           f"{temperature} instead.", param="temperature")
    for key in ("max_tokens", "max_completion_tokens"):
        value = body.get(key)
        if value is not None and (not isinstance(value, int) or value < 1):
            raise Refused(400, f"Invalid '{key}': integer below minimum value. Expected a value >= 1, but got "
                               f"{value} instead.", param=key)


def _check_tools(body: dict[str, Any], profile: Profile, jinja: bool) -> None:
    tools = body.get("tools")
    choice = body.get("tool_choice")
    if not tools:
        if profile.openai_rules and choice is not None:
            raise Refused(400, "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are "
                               "specified.", param="tool_choice")
        if profile.openai_rules and "parallel_tool_calls" in body:
            raise Refused(400, "Invalid value for 'parallel_tool_calls': 'parallel_tool_calls' is only allowed "
                               "when 'tools' are specified.", param="parallel_tool_calls")
        return
    if profile.tools_need_jinja and not jinja:
        raise Refused(500, "tools param requires --jinja flag", "server_error")
    names = []
    for i, tool in enumerate(tools):
        fn = tool.get("function") if isinstance(tool, dict) else None
        if not isinstance(tool, dict) or tool.get("type") != "function" or not isinstance(fn, dict):
            raise Refused(400, f"Invalid value for 'tools[{i}].type': expected 'function'.", param=f"tools[{i}]")
        name = fn.get("name")
        if profile.openai_rules:
            if not isinstance(name, str) or not NAME_RE.match(name):
                raise Refused(400, f"Invalid 'tools[{i}].function.name': string does not match pattern. Expected a "
                                   "string that matches the pattern '^[a-zA-Z0-9_-]+$'.",
                              param=f"tools[{i}].function.name", code="invalid_value")
            params = fn.get("parameters")
            if params is not None and (not isinstance(params, dict) or params.get("type") != "object"):
                got = params.get("type") if isinstance(params, dict) else None
                raise Refused(400, f"Invalid schema for function '{name}': schema must be a JSON Schema of "
                                   f"'type: \"object\"', got 'type: \"{got}\"'.", param=f"tools[{i}].function.parameters")
            if fn.get("strict") and isinstance(params, dict):
                problem = strict_schema_problem(params)
                if problem:
                    raise Refused(400, f"Invalid schema for function '{name}': {problem}",
                                  param=f"tools[{i}].function.parameters")
        names.append(name)
    if isinstance(choice, dict):
        wanted = (choice.get("function") or {}).get("name")
        if choice.get("type") != "function" or wanted not in names:
            if profile.name == "llama-cpp-python":
                raise Refused(500, f"Tool choice '{wanted}' not found in tools.", "internal_server_error")
            if profile.openai_rules:
                raise Refused(400, f"Invalid value for 'tool_choice': function '{wanted}' was not found in 'tools'.",
                              param="tool_choice")
    elif choice is not None and choice not in ("none", "auto", "required"):
        raise Refused(400, f"Invalid value for 'tool_choice': '{choice}'.", param="tool_choice")
    elif choice == "required" and profile.name == "llama-cpp-python":
        raise Refused(500, "1 validation error: {'type': 'literal_error', 'loc': ('body', 'tool_choice'), "
                           "'msg': \"Input should be 'none' or 'auto'\", 'input': 'required'}", "internal_server_error")


def _check_response_format(body: dict[str, Any], profile: Profile) -> None:
    fmt = body.get("response_format")
    if fmt is None:
        return
    kind = fmt.get("type") if isinstance(fmt, dict) else None
    if kind not in profile.response_formats and "*" not in profile.response_formats:
        raise Refused(profile.format_status, profile.format_message.format(t=kind),
                      "invalid_request_error" if profile.format_status == 400 else "internal_server_error",
                      param="response_format")
    if not profile.openai_rules:
        return
    if kind == "json_schema":
        spec = fmt.get("json_schema")
        if not isinstance(spec, dict) or not isinstance(spec.get("schema"), dict):
            raise Refused(400, "Missing required parameter: 'response_format.json_schema'.",
                          param="response_format.json_schema")
        name = spec.get("name")
        if not isinstance(name, str) or not NAME_RE.match(name):
            raise Refused(400, "Invalid 'response_format.json_schema.name': string does not match pattern. Expected "
                               "a string that matches the pattern '^[a-zA-Z0-9_-]+$'.",
                          param="response_format.json_schema.name")
        if spec.get("strict"):
            problem = strict_schema_problem(spec["schema"])
            if problem:
                raise Refused(400, f"Invalid schema for response_format '{name}': {problem}",
                              param="response_format")
    elif kind == "json_object":
        if "schema" in fmt:
            raise Refused(400, "Unrecognized request argument supplied: response_format.schema",
                          param="response_format.schema")
        if "json" not in _message_text(body["messages"]).lower():
            raise Refused(400, "'messages' must contain the word 'json' in some form, to use 'response_format' of "
                               "type 'json_object'.", param="messages")


def strict_schema_problem(schema: dict[str, Any]) -> str | None:
    """Why OpenAI's strict mode would refuse this schema (None: it is accepted)."""
    if schema.get("type") != "object" or "anyOf" in schema:
        return f"schema must be a JSON Schema of 'type: \"object\"', got 'type: \"{schema.get('type')}\"'."
    return _strict_node(schema, (), 0)


def _strict_node(node: Any, context: tuple[str, ...], depth: int) -> str | None:
    if isinstance(node, list):
        for i, item in enumerate(node):
            found = _strict_node(item, (*context, str(i)), depth)
            if found:
                return found
        return None
    if not isinstance(node, dict):
        return None
    where = f"In context={context}, "
    if depth > 10:
        return where + "schema nesting depth exceeds the maximum of 10."
    for key in node:
        if key not in STRICT_KEYWORDS:
            return where + f"'{key}' is not permitted."
    if "$ref" in node and len(node) > 1 and set(node) - {"$ref", "description"}:
        return where + "$ref cannot have keywords {" + ", ".join(sorted(set(node) - {"$ref"})) + "}."
    kinds = node.get("type")
    if kinds == "object" or (isinstance(kinds, list) and "object" in kinds):
        if node.get("additionalProperties") is not False:
            return where + "'additionalProperties' is required to be supplied and to be false."
        props = node.get("properties") or {}
        if set(node.get("required") or []) != set(props):
            missing = sorted(set(props) - set(node.get("required") or []))
            return (where + "'required' is required to be supplied and to be an array including every key in "
                    f"properties. Missing '{missing[0] if missing else '?'}'.")
    for key, value in node.items():
        if key in ("properties", "$defs", "definitions") and isinstance(value, dict):
            for name, sub in value.items():
                found = _strict_node(sub, (*context, key, name), depth + 1)
                if found:
                    return found
        elif key in ("items", "anyOf"):
            found = _strict_node(value, (*context, key), depth + 1)
            if found:
                return found
    return None


# ------------------------------------------------------------------------- server


@dataclass
class Recorded:
    """One request as the server saw it."""

    method: str
    path: str
    body: dict[str, Any]
    authorization: str | None


@dataclass
class FakeOpenAIServer:
    """Thread-backed fake server; `script` is consumed one behaviour per chat request.

    `profile` picks the server family it imitates ("openai", "llama-cpp-python", "llama.cpp",
    "ollama", "vllm"): what it refuses, with which status, and what it silently ignores.
    Every refused request is kept in `violations`; requests it accepts but that would not
    work as we meant on that server (no token limit, a tool it does not force) in `lapses`.
    With `api_key` set, any other key is answered 401 as OpenAI does (echoing part of it).
    """

    default: Callable[[dict[str, Any]], Behaviour] = first_legal_option
    # answers some requests before the script is read (None: not this one), e.g. a seat's out-of-turn asks
    # while a test scripts the awaited seat's answers
    aside: Callable[[dict[str, Any]], Behaviour | None] | None = None
    model_ids: tuple[str, ...] = ("fake-model", "fake-embed")
    max_delay_s: float = MAX_DELAY_S
    profile: str = "openai"
    jinja: bool = True  # llama.cpp: started with --jinja (tools allowed)
    api_key: str | None = None
    open_models: bool = False  # GET /models answers without the key (llama-server's public endpoints)
    requests: list[Recorded] = field(default_factory=list)
    usages: list[dict[str, int]] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)
    lapses: list[str] = field(default_factory=list)
    _script: deque[Behaviour] = field(default_factory=deque)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _stopping: threading.Event = field(default_factory=threading.Event)
    _httpd: ThreadingHTTPServer | None = None
    _thread: threading.Thread | None = None
    _timer: threading.Timer | None = None
    _conns: set[socket.socket] = field(default_factory=set)

    # -- lifecycle
    def start(self, max_lifetime_s: float = MAX_LIFETIME_S) -> "FakeOpenAIServer":
        """Bind a free port on 127.0.0.1 and serve in a daemon thread."""
        handler = _make_handler(self)
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        self._timer = threading.Timer(max_lifetime_s, self.stop)
        self._timer.daemon = True
        self._timer.start()
        return self

    def stop(self) -> None:
        """Stop serving; idempotent; wakes up any delayed answer."""
        self._stopping.set()
        if self._timer is not None:
            self._timer.cancel()
        httpd, self._httpd = self._httpd, None
        if httpd is not None:
            httpd.shutdown()
            httpd.server_close()
        with self._lock:
            conns, self._conns = list(self._conns), set()
        for conn in conns:  # keep-alive connections outlive shutdown() otherwise
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        if self._thread is not None:
            self._thread.join(timeout=5)

    @property
    def port(self) -> int:
        assert self._httpd is not None, "server not started"
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def rules(self) -> Profile:
        return PROFILES[self.profile]

    # -- scripting
    def script(self, *behaviours: Behaviour) -> None:
        """Queue behaviours for the next chat-completions requests, in order."""
        with self._lock:
            self._script.extend(behaviours)

    @property
    def pending(self) -> int:
        with self._lock:
            return len(self._script)

    def _next(self, body: dict[str, Any]) -> Behaviour:
        early = self.aside(body) if self.aside is not None else None
        if early is not None:
            return early
        with self._lock:
            if self._script:
                return self._script.popleft()
        return self.default(body)

    # -- inspection
    @property
    def chat_requests(self) -> list[dict[str, Any]]:
        """Bodies of chat-completions requests, in arrival order."""
        return [r.body for r in self.requests if r.path.endswith("/chat/completions")]

    def saved_data(self) -> str:
        """Everything recorded except headers, as one string (for leak checks)."""
        return json.dumps([r.body for r in self.requests]) + json.dumps(self.usages)

    # -- answering
    def _record(self, method: str, path: str, body: dict[str, Any], auth: str | None) -> None:
        with self._lock:
            self.requests.append(Recorded(method, path, body, auth))

    def auth_problem(self, auth: str | None) -> tuple[int, dict[str, Any]] | None:
        """OpenAI's 401 for a wrong key (it echoes the key's ends: callers must redact)."""
        if self.api_key is None:
            return None
        given = (auth or "").removeprefix("Bearer ").strip()
        if given == self.api_key:
            return None
        shown = f"{given[:3]}{'*' * max(0, len(given) - 7)}{given[-4:]}" if len(given) > 7 else given
        return 401, _error_body(f"Incorrect API key provided: {shown}. You can find your API key at "
                                "https://platform.openai.com/account/api-keys.", "invalid_request_error",
                                code="invalid_api_key")

    def chat_answer(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]] | tuple[int, dict[str, Any], dict[str, str]] | None:
        """Status and JSON (and headers) for one chat-completions request; None: hang up (stopping)."""
        if body.get("stream"):
            return 400, _error_body("fake server does not stream", "invalid_request_error")
        try:
            check_request(body, self.rules, self.model_ids, self.jinja)
        except Refused as refused:
            with self._lock:
                self.violations.append(f"HTTP {refused.status}: {refused.message}")
            return refused.status, _error_body(refused.message, refused.kind, refused.param, refused.code)
        forced = self._lapses(body)
        behaviour = self._next(body)
        while behaviour.kind == "delay":
            self._stopping.wait(min(behaviour.seconds, self.max_delay_s))
            if self._stopping.is_set():
                return None
            behaviour = behaviour.then or self.default(body)
        if behaviour.kind == "hang":
            self._stopping.wait(MAX_LIFETIME_S)
            return None
        if behaviour.kind == "http_error":
            headers = ({"Retry-After": f"{behaviour.seconds:g}"} if behaviour.status == 429 and behaviour.seconds > 0
                       else {})
            kind = "requests" if behaviour.status == 429 else "server_error"
            return behaviour.status, _error_body(str(behaviour.payload), kind), headers
        if behaviour.kind == "no_choices":
            return 200, {"id": "chatcmpl-empty", "object": "chat.completion", "created": int(time.time()),
                         "model": body.get("model"), "choices": []}
        if not forced and behaviour.kind == "valid" and _chosen_tool(body) is not None:
            behaviour = prose("I will describe my move in words instead.")  # tools offered, none forced
        message, text, finish = self._assistant_message(body, behaviour)
        usage = {
            "prompt_tokens": _approx_tokens(_message_text(body["messages"])),
            "completion_tokens": _approx_tokens(text),
        }
        usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
        with self._lock:
            self.usages.append(usage)
        answer: dict[str, Any] = {
            "id": f"chatcmpl-{len(self.requests)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", "fake-model"),
            "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
        }
        if behaviour.status != -1:
            answer["usage"] = usage
        return 200, answer

    def _lapses(self, body: dict[str, Any]) -> bool:
        """Note what this server would silently ignore; True when a tool (if any) is forced."""
        rules = self.rules
        found: list[str] = []
        limits = [p for p in ("max_tokens", "max_completion_tokens", "n_predict") if p in body]
        if not any(p in rules.token_params for p in limits):
            ignored = f" ({', '.join(limits)} is ignored here)" if limits else ""
            found.append(f"no token limit this server reads{ignored}: a rambling model runs to its context end")
        forced = True
        if body.get("tools"):
            choice = body.get("tool_choice")
            style = "named" if isinstance(choice, dict) else ("required" if choice == "required" else "none")
            forced = style in rules.tool_choice_forces
            if not forced:
                found.append(f"tools offered but not forced on {rules.name} (tool_choice {choice!r}): "
                             "the model may answer in prose")
        if found:
            with self._lock:
                self.lapses.extend(found)
        return forced

    def _assistant_message(self, body: dict[str, Any], behaviour: Behaviour) -> tuple[dict[str, Any], str, str]:
        finish = "stop"
        if behaviour.kind == "valid":
            text = json.dumps(behaviour.payload)
        elif behaviour.kind in ("prose", "invalid_json"):
            text = str(behaviour.payload)
        elif behaviour.kind == "refusal":
            return {"role": "assistant", "content": None, "refusal": str(behaviour.payload)}, "", "stop"
        elif behaviour.kind == "cut_off":
            schema = requested_schema(body)
            whole = json.dumps(behaviour.payload if behaviour.payload is not None
                               else (example_for_schema(schema) if schema else {"text": "x" * 80}))
            text, finish = whole[: max(1, len(whole) // 2)], "length"
        else:
            raise ValueError(f"unknown behaviour {behaviour.kind!r}")
        tool = _chosen_tool(body)
        if tool is not None and behaviour.kind != "prose":
            call = {
                "id": f"call_{len(self.requests)}",
                "type": "function",
                "function": {"name": tool["function"]["name"], "arguments": text},
            }
            return ({"role": "assistant", "content": None, "refusal": None, "tool_calls": [call]}, text,
                    "length" if finish == "length" else "tool_calls")
        return {"role": "assistant", "content": text, "refusal": None}, text, finish

    def embeddings_answer(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """Deterministic hash embeddings, float or base64 as requested."""
        inputs = body.get("input")
        if isinstance(inputs, str):
            inputs = [inputs]
        if not isinstance(inputs, list) or not inputs:
            return 400, _error_body("'input' must be a string or a non-empty array", "invalid_request_error")
        dim = int(body.get("dimensions") or EMBEDDING_DIM)
        data = []
        for i, item in enumerate(inputs):
            vec = hash_embedding(item if isinstance(item, str) else json.dumps(item), dim)
            encoded: Any = vec
            if body.get("encoding_format") == "base64":
                encoded = base64.b64encode(struct.pack(f"<{dim}f", *vec)).decode()
            data.append({"object": "embedding", "index": i, "embedding": encoded})
        tokens = sum(_approx_tokens(str(x)) for x in inputs)
        return 200, {
            "object": "list",
            "data": data,
            "model": body.get("model", "fake-embed"),
            "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
        }

    def models_answer(self) -> tuple[int, dict[str, Any]]:
        owner = self.rules.owned_by
        return 200, {
            "object": "list",
            "data": [{"id": m, "object": "model", "created": 0, "owned_by": owner} for m in self.model_ids],
        }


def _error_body(message: str, kind: str, param: str | None = None, code: str | None = None) -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "param": param, "code": code}}


def _make_handler(server: FakeOpenAIServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # else headers+body writes cost ~40 ms each

        def setup(self) -> None:
            super().setup()
            with server._lock:
                server._conns.add(self.connection)

        def finish(self) -> None:
            with server._lock:
                server._conns.discard(self.connection)
            try:
                super().finish()
            except OSError:
                pass

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            """Keep pytest output clean."""

        def _send(self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None) -> None:
            data = json.dumps(payload).encode()
            try:
                self.send_response(status)
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError, socket.timeout):
                pass  # the client gave up (timeout test): nothing to do

        def do_GET(self) -> None:  # noqa: N802
            server._record("GET", self.path, {}, self.headers.get("Authorization"))
            refused = None if server.open_models else server.auth_problem(self.headers.get("Authorization"))
            if refused:
                self._send(*refused)
            elif self.path.rstrip("/").endswith("/v1/models"):
                self._send(*server.models_answer())
            else:
                self._send(404, _error_body(f"no route {self.path}", "invalid_request_error"))

        def do_POST(self) -> None:  # noqa: N802
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                body = json.loads(raw or b"{}")
            except json.JSONDecodeError:
                self._send(400, _error_body("body is not JSON", "invalid_request_error"))
                return
            server._record("POST", self.path, body, self.headers.get("Authorization"))
            refused = server.auth_problem(self.headers.get("Authorization"))
            if refused:
                self._send(*refused)
            elif self.path.endswith("/v1/chat/completions"):
                answer = server.chat_answer(body)
                if answer is None:
                    self.close_connection = True
                    return
                self._send(*answer)
            elif self.path.endswith("/v1/embeddings"):
                self._send(*server.embeddings_answer(body))
            else:
                self._send(404, _error_body(f"no route {self.path}", "invalid_request_error"))

    return Handler


@pytest.fixture
def fake_openai(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAIServer]:
    """A started FakeOpenAIServer; stopped after the test. No proxy for 127.0.0.1."""
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")
    server = FakeOpenAIServer().start()
    try:
        yield server
    finally:
        server.stop()

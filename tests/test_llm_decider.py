"""StructuredDecider through the real openai client and ChatOpenAI, against the fake server."""

from __future__ import annotations

import json
import socket

import openai
import pytest
from fakeserver import (  # noqa: F401
    Bid,
    Choice,
    FakeOpenAIServer,
    NarrateEvent,
    Pass,
    delay,
    fake_openai,
    http_error,
    invalid_json,
    prose,
    valid,
)
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from pydantic import ValidationError

from agents.llm import LLMSettings, StructuredDecider, extract_json_object, make_chat_model
from agents.llm.fake import ScriptedChatModel

try:  # the HTTP library the installed openai SDK uses (httpx2 for openai>=3)
    import httpx2 as sdk_httpx
except ImportError:  # pragma: no cover
    import httpx as sdk_httpx  # type: ignore[no-redef]

METHODS = ["function_calling", "json_schema", "json_mode"]
PROMPT: list[BaseMessage] = [
    SystemMessage(content="You are a player at a Universalis table."),
    HumanMessage(content="Legal actions: bid 0-10, narrate_event, pass. Your move."),
]
NARRATE = {"action": {"type": "narrate_event", "text": "The tower falls.", "performer": "c3", "receiver": "c5"}}


def decider(server: FakeOpenAIServer, method: str, timeout_s: float = 5.0) -> StructuredDecider:
    settings = LLMSettings(base_url=server.base_url, api_key="sk-test", model="fake-model", timeout_s=timeout_s)
    return StructuredDecider(make_chat_model(settings), method)  # type: ignore[arg-type]


@pytest.mark.parametrize("method", METHODS)
def test_valid_answer_for_each_method(fake_openai: FakeOpenAIServer, method: str) -> None:  # noqa: F811
    fake_openai.script(valid(NARRATE))
    attempt = decider(fake_openai, method).ask(PROMPT, Choice)
    assert attempt.error is None
    assert isinstance(attempt.parsed, Choice) and isinstance(attempt.parsed.action, NarrateEvent)
    assert attempt.parsed.action.receiver == "c5"
    assert json.loads(attempt.raw_text) == NARRATE
    usage = fake_openai.usages[0]
    assert (attempt.tokens_in, attempt.tokens_out) == (usage["prompt_tokens"], usage["completion_tokens"])
    assert attempt.tokens_in > 0 and attempt.tokens_out > 0
    assert 0 < attempt.latency_s < 5


def test_request_shapes_per_method(fake_openai: FakeOpenAIServer) -> None:  # noqa: F811
    fake_openai.script(valid(NARRATE), valid(NARRATE), valid(NARRATE))
    for method in METHODS:
        decider(fake_openai, method).ask(PROMPT, Choice)
    calling, schema, mode = fake_openai.chat_requests
    assert calling["tools"][0]["function"]["name"] == "choose_action"  # valid and stable (issue 24)
    assert calling["tool_choice"] == {"type": "function", "function": {"name": "choose_action"}}
    assert "response_format" not in calling
    assert schema["response_format"]["type"] == "json_schema" and "tools" not in schema
    assert schema["response_format"]["json_schema"]["strict"] is True
    assert mode["response_format"] == {"type": "json_object"}
    # json_mode sends no schema, so the prompt carries it, in the first system message
    system = mode["messages"][0]
    assert system["role"] == "system" and "narrate_event" in system["content"] and "JSON" in system["content"]
    assert [m["role"] for m in mode["messages"]] == ["system", "user"]
    assert calling["messages"][0]["content"] == PROMPT[0].content  # other methods untouched


def test_default_server_answer_is_first_legal_option(fake_openai: FakeOpenAIServer) -> None:  # noqa: F811
    attempt = decider(fake_openai, "function_calling").ask(PROMPT, Choice)
    assert attempt.parsed == Choice(action=Bid(amount=0))


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize(
    ("behaviour", "error_start", "kind"),
    [
        (prose("I would rather describe the scene in words."), "no structured output", "output"),
        (invalid_json('{"action": {"type": "bid", "amount": '), "invalid JSON", "output"),
        (valid({"action": {"type": "bid", "amount": 99}}), "invalid output: action.bid.amount", "output"),
        (valid({"action": {"type": "teleport"}}), "invalid output: action", "output"),
        (http_error(500), "the endpoint failed (HTTP 500)", "transport"),
        (http_error(429, "Rate limit reached"), "the endpoint is rate limiting us (HTTP 429): Rate limit reached",
         "transport"),
    ],
)
def test_failures_become_attempt_errors_not_exceptions(
    fake_openai: FakeOpenAIServer, method: str, behaviour, error_start: str, kind: str  # noqa: F811
) -> None:
    fake_openai.script(behaviour)
    attempt = decider(fake_openai, method).ask(PROMPT, Choice)
    assert attempt.parsed is None
    assert attempt.error is not None and attempt.error.startswith(error_start), attempt.error
    assert attempt.error_kind == kind and attempt.retryable
    if kind == "output":  # the model spoke: its words and usage are kept
        assert attempt.raw_text and attempt.tokens_out == fake_openai.usages[0]["completion_tokens"]


def test_timeout_is_an_error_not_an_exception(fake_openai: FakeOpenAIServer) -> None:  # noqa: F811
    fake_openai.script(delay(3))
    attempt = decider(fake_openai, "function_calling", timeout_s=0.5).ask(PROMPT, Choice)
    assert (attempt.parsed, attempt.error, attempt.error_kind) == (
        None, "the endpoint did not answer within 0.5 s (timeout)", "transport")
    assert 0.4 < attempt.latency_s < 2.5


def test_connection_refused_is_an_error() -> None:
    with socket.socket() as sock:  # a port that nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    settings = LLMSettings(base_url=f"http://127.0.0.1:{port}/v1", model="m", timeout_s=2)
    attempt = StructuredDecider(make_chat_model(settings)).ask(PROMPT, Choice)
    assert (attempt.parsed, attempt.error_kind) == (None, "transport")
    assert attempt.error == "the endpoint is unreachable (connection refused: is the server running?)"


@pytest.mark.parametrize(("status", "says"), [
    (400, "the endpoint refuses the request (HTTP 400): nope"),
    (401, "the endpoint refuses the API key (HTTP 401): check OPENAI_API_KEY (nope)"),
    (404, "nothing answers at that address (HTTP 404): check the base URL, which usually ends in /v1 (nope)"),
    (422, "the endpoint refuses the request (HTTP 422): nope"),
])
def test_client_errors_are_not_retryable(fake_openai: FakeOpenAIServer, status: int, says: str) -> None:  # noqa: F811
    fake_openai.script(http_error(status, "nope"))
    attempt = decider(fake_openai, "function_calling").ask(PROMPT, Choice)
    assert attempt.error == says and attempt.retryable is False and attempt.status == status


@pytest.mark.parametrize("method", METHODS)
def test_json_in_prose_is_salvaged(fake_openai: FakeOpenAIServer, method: str) -> None:  # noqa: F811
    fake_openai.script(prose('Sure! Here is my move:\n```json\n{"action": {"type": "pass"}}\n```'))
    attempt = decider(fake_openai, method).ask(PROMPT, Choice)
    assert attempt.error is None and attempt.parsed == Choice.model_validate({"action": {"type": "pass"}})


def test_unwrapped_action_is_salvaged_for_one_field_wrapper(fake_openai: FakeOpenAIServer) -> None:  # noqa: F811
    fake_openai.script(prose('{"type": "bid", "amount": 3}'))
    attempt = decider(fake_openai, "function_calling").ask(PROMPT, Choice)
    assert attempt.parsed == Choice(action=Bid(amount=3))


def test_flat_schema_works_too(fake_openai: FakeOpenAIServer) -> None:  # noqa: F811
    fake_openai.script(valid({"type": "bid", "amount": 4}))
    attempt = decider(fake_openai, "function_calling").ask(PROMPT, Bid)
    assert attempt.parsed == Bid(amount=4)
    assert fake_openai.chat_requests[0]["tools"][0]["function"]["name"] == "choose_action"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('noise {"a": 1} more {"b": 2}', {"a": 1}),
        ("{broken {\"ok\": true}", {"ok": True}),
        ("[1, 2] then {\"x\": [1]}", {"x": [1]}),
        ("no json here", None),
        ("{never closed", None),
    ],
)
def test_extract_json_object(text: str, expected: object) -> None:
    assert extract_json_object(text) == expected


# ------------------------------------------------------- json_schema strictness


def test_json_schema_request_is_accepted_by_strict_rules(fake_openai: FakeOpenAIServer) -> None:  # noqa: F811
    fake_openai.script(valid(NARRATE))
    attempt = decider(fake_openai, "json_schema").ask(PROMPT, Choice)
    assert attempt.parsed is not None  # the fake server 400s on oneOf / open objects, like OpenAI
    spec = fake_openai.chat_requests[0]["response_format"]["json_schema"]
    assert (spec["name"], spec["strict"]) == ("choice", True)
    assert "oneOf" not in json.dumps(spec) and "discriminator" not in json.dumps(spec)


def test_sdk_own_strict_schema_would_be_refused(fake_openai: FakeOpenAIServer) -> None:  # noqa: F811
    """Why schema.py exists: the SDK keeps pydantic's oneOf/discriminator/default for discriminated unions."""
    client = openai.OpenAI(base_url=fake_openai.base_url, api_key="k", max_retries=0)
    with pytest.raises(openai.BadRequestError, match="is not permitted"):
        client.chat.completions.parse(model="fake-model", messages=[{"role": "user", "content": "go"}],
                                      response_format=Choice)


def test_sdk_parse_exception_is_salvaged_from_attached_response() -> None:
    """Models whose SDK parses and raises (json_schema with a pydantic class): text and usage survive."""
    body = {"choices": [{"message": {"role": "assistant", "content": 'ok: {"action": {"type": "pass"}}'}}],
            "usage": {"prompt_tokens": 21, "completion_tokens": 8}}
    request = sdk_httpx.Request("POST", "http://127.0.0.1/v1/chat/completions")
    try:
        Choice.model_validate_json("ok: not json")
    except ValidationError as exc:
        error = exc
    error.response = sdk_httpx.Response(200, json=body, request=request)  # type: ignore[attr-defined]
    attempt = StructuredDecider(ScriptedChatModel(script=[error]), "json_schema").ask(PROMPT, Choice)
    assert attempt.parsed == Choice(action=Pass()) and (attempt.tokens_in, attempt.tokens_out) == (21, 8)

    plain = StructuredDecider(ScriptedChatModel(script=[ValueError("boom")])).ask(PROMPT, Choice)
    assert plain.parsed is None and plain.error == "model error: ValueError: boom"

"""LLM seats against strict fake endpoints: OpenAI's rules, each local server's differences (issue 24/27/18).

The fake server (tests/fakeserver.py) refuses what the real API refuses, with its status and its
kind of message, and records every refusal (`violations`) and every request the server would
accept but not honour (`lapses`: a token limit it ignores, a tool it does not force).
"""

from __future__ import annotations

import json
import time

import openai
import pytest
from fakeserver import (  # noqa: F401
    Behaviour,
    Choice,
    FakeOpenAIServer,
    Pass,
    cut_off,
    fake_openai,
    hang,
    http_error,
    no_choices,
    no_usage,
    prose,
    rate_limited,
    refusal,
    strict_schema_problem,
    valid,
)
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from agents.heuristic import HeuristicPlayer
from agents.llm import LLMSettings, decide_with_retries
from agents.llm.decider import make_decider
from agents.llm.player import LLMPlayer, max_tokens_for, model_share_line
from agents.llm.schema_actions import choice_schema
from agents.llm.servers import PROFILES, detect_server
from agents.table import Seat, Table
from engine.core.dice import SeededDice
from engine.universalis import pending

PROMPT: list[BaseMessage] = [
    SystemMessage(content="You are a player at a Universalis table. Answer in JSON."),
    HumanMessage(content="Legal actions: bid 0-10, narrate_event, pass. Your move."),
]
PASS = {"action": {"type": "pass"}}
# (fake server profile, [llm] server setting): OpenAI is only recognised by its URL, so it is named
FAMILIES = [("openai", "openai"), ("llama-cpp-python", "auto"), ("llama.cpp", "auto"), ("ollama", "auto"),
            ("vllm", "auto")]


@pytest.fixture
def server(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch):
    """A fake server with the profile given by indirect parametrization (default openai)."""
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")
    fake = FakeOpenAIServer(profile=getattr(request, "param", "openai")).start()
    yield fake
    fake.stop()


def cfg(server: FakeOpenAIServer, setting: str = "auto", **kw) -> LLMSettings:
    base = {"base_url": server.base_url, "api_key": "sk-test-key-123456", "model": "fake-model", "timeout_s": 3.0,
            "server": setting, "max_refusals": 1}
    base.update(kw)
    return LLMSettings(**base)


def raw(server: FakeOpenAIServer) -> openai.OpenAI:
    return openai.OpenAI(base_url=server.base_url, api_key="k", max_retries=0, timeout=5)


# -- the fake enforces OpenAI's rules ----------------------------------------------------------------

OK_TOOL = {"type": "function", "function": {"name": "choose_action", "parameters": {"type": "object", "properties": {}}}}
USER = [{"role": "user", "content": "go"}]


@pytest.mark.parametrize(("request_kw", "says"), [
    ({"tools": [{"type": "function", "function": {"name": "", "parameters": {"type": "object"}}}]},
     "function.name': string does not match pattern"),
    ({"tools": [{"type": "function", "function": {"name": "choose action", "parameters": {"type": "object"}}}]},
     "does not match pattern"),
    ({"tools": [OK_TOOL], "tool_choice": {"type": "function", "function": {"name": "other"}}},
     "function 'other' was not found in 'tools'"),
    ({"tool_choice": "required"}, "'tool_choice' is only allowed when 'tools' are specified"),
    ({"response_format": {"type": "json_schema", "json_schema": {"name": "c", "strict": True, "schema": {
        "type": "object", "properties": {"a": {"type": "string", "default": ""}}, "required": ["a"],
        "additionalProperties": False}}}}, "'default' is not permitted"),
    ({"response_format": {"type": "json_schema", "json_schema": {"name": "c", "strict": True, "schema": {
        "type": "object", "properties": {"a": {"type": "string"}}, "required": []}}}},
     "'additionalProperties' is required to be supplied and to be false"),
    ({"response_format": {"type": "json_schema", "json_schema": {"name": "c", "strict": True, "schema": {
        "type": "object", "properties": {"a": {"type": "string"}}, "required": [], "additionalProperties": False}}}},
     "'required' is required to be supplied"),
    ({"response_format": {"type": "json_object", "schema": {"type": "object"}}}, "response_format.schema"),
    ({"max_tokens": 50, "max_completion_tokens": 50}, "cannot both be set"),
    ({"extra_body": {"grammar": "root ::= x"}}, "Unrecognized request argument supplied: grammar"),
])
def test_fake_refuses_what_openai_refuses(server: FakeOpenAIServer, request_kw: dict, says: str) -> None:
    with pytest.raises(openai.BadRequestError, match=says.replace("(", r"\(").replace(")", r"\)")) as info:
        raw(server).chat.completions.create(model="fake-model", messages=USER, **request_kw)
    assert info.value.body["type"] == "invalid_request_error"  # the API's own kind of error body
    assert len(server.violations) == 1 and says.split("'")[0] in server.violations[0]


@pytest.mark.parametrize("messages", [
    [{"role": "user", "content": "go"}, {"role": "tool", "content": "x", "tool_call_id": "call_1"}],
    [{"role": "user", "content": "go"},
     {"role": "assistant", "content": None, "tool_calls": [
         {"id": "call_1", "type": "function", "function": {"name": "choose_action", "arguments": "{}"}}]},
     {"role": "user", "content": "again"}],
])
def test_fake_enforces_tool_message_order(server: FakeOpenAIServer, messages: list) -> None:
    with pytest.raises(openai.BadRequestError, match="tool"):
        raw(server).chat.completions.create(model="fake-model", messages=messages)


@pytest.mark.parametrize(("model", "request_kw", "says"), [
    ("o3-mini", {"max_tokens": 100}, "Use 'max_completion_tokens' instead"),
    ("gpt-5", {"temperature": 0.2, "max_completion_tokens": 100}, "Only the default (1) value is supported"),
    ("gpt-4o-mini", {"reasoning_effort": "low"}, "reasoning_effort"),
])
def test_fake_checks_parameters_per_model_family(server: FakeOpenAIServer, model: str, request_kw: dict,
                                                 says: str) -> None:
    server.model_ids = (model,)
    with pytest.raises(openai.BadRequestError, match=says.replace("(", r"\(").replace(")", r"\)")):
        raw(server).chat.completions.create(model=model, messages=USER, **request_kw)


def test_our_requests_pass_for_reasoning_models(server: FakeOpenAIServer) -> None:
    """o-series/gpt-5: max_completion_tokens (room for reasoning), no temperature but 1."""
    server.model_ids = ("o4-mini",)
    server.script(valid(PASS))
    decider = make_decider(cfg(server, "openai", model="o4-mini", temperature=0.3))
    attempt = decider.ask(PROMPT, Choice, max_tokens=200)
    assert attempt.parsed == Choice(action=Pass()) and server.violations == []
    body = server.chat_requests[0]
    assert "max_tokens" not in body and body["max_completion_tokens"] >= 2000 and "temperature" not in body


def test_fake_strict_rules_accept_our_schemas() -> None:
    """Every action schema a seat can be offered passes OpenAI's strict rules as we send it."""
    from agents.llm.decider import openai_strict_subset
    from agents.llm.schema import strict_json_schema
    from engine.universalis.actions import ACTION_TYPES

    for kind in ACTION_TYPES:
        if kind == "roll":
            continue
        schema = openai_strict_subset(strict_json_schema(choice_schema((kind,))))
        assert strict_schema_problem(schema) is None, kind
    everything = choice_schema(tuple(t for t in ACTION_TYPES if t != "roll"))
    assert strict_schema_problem(openai_strict_subset(strict_json_schema(everything))) is None


# -- reply shapes ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("behaviour", "says"), [
    (refusal("I can't help with that."), "the model declined: I can't help with that."),
    (cut_off(), "the answer was cut off at the token limit (120 tokens, finish_reason 'length')"),
    (no_choices(), "the server answered with no choices (an empty reply)"),
])
@pytest.mark.parametrize("method", ["function_calling", "json_schema"])
def test_reply_shapes_become_clear_failed_attempts(server: FakeOpenAIServer, behaviour: Behaviour, says: str,
                                                   method: str) -> None:
    server.script(behaviour)
    attempt = make_decider(cfg(server, "openai", structured_method=method)).ask(PROMPT, Choice, max_tokens=120)
    assert attempt.parsed is None and attempt.error == says and attempt.error_kind == "output"


def test_missing_usage_and_string_arguments_are_read(server: FakeOpenAIServer) -> None:
    server.script(no_usage(PASS))
    attempt = make_decider(cfg(server, "openai", structured_method="function_calling")).ask(PROMPT, Choice)
    assert attempt.parsed == Choice(action=Pass()) and (attempt.tokens_in, attempt.tokens_out) == (0, 0)


def test_cut_off_answer_is_asked_again_with_more_room(server: FakeOpenAIServer) -> None:
    server.script(cut_off(), valid(PASS))
    outcome = decide_with_retries(make_decider(cfg(server, "openai")), PROMPT, Choice, lambda a: None, 1,
                                  max_tokens=100)
    assert outcome.action == Choice(action=Pass())
    first, second = server.chat_requests
    assert (first["max_completion_tokens"], second["max_completion_tokens"]) == (100, 200)
    assert "cut off" in second["messages"][-1]["content"]


# -- each server family: detected, asked the way it enforces, nothing ignored --------------------------

@pytest.mark.parametrize(("server", "setting"), FAMILIES, indirect=["server"])
def test_each_family_gets_a_request_it_enforces(server: FakeOpenAIServer, setting: str) -> None:
    server.script(valid(PASS), valid({"action": {"type": "bid", "amount": 99}}), valid(PASS))
    decider = make_decider(cfg(server, setting))
    assert decider.profile.name == server.profile
    assert decider.enforced
    assert decider.ask(PROMPT, Choice, max_tokens=150).parsed == Choice(action=Pass())
    # a retry after unreadable output is a request this server accepts too
    outcome = decide_with_retries(decider, PROMPT, Choice, lambda a: None, 1, max_tokens=150)
    assert outcome.action == Choice(action=Pass()) and outcome.attempts == 2
    assert server.violations == [] and server.lapses == []
    body = server.chat_requests[0]
    limit = "max_completion_tokens" if server.profile == "openai" else "max_tokens"
    assert body[limit] == 150


def test_llama_cpp_python_refuses_json_schema_and_auto_moves_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 27: llama-cpp-python answers 500 to a json_schema response format; "auto" switches."""
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    fake = FakeOpenAIServer(profile="llama-cpp-python").start()
    try:
        decider = make_decider(cfg(fake, "generic"))  # told nothing: starts with the generic order
        decider._methods = ["json_schema", "json_object_schema"]
        attempt = decider.ask(PROMPT, Choice)
        assert attempt.parsed is not None and decider.method == "json_object_schema"
        assert fake.violations and "500" in fake.violations[0] and "'text' or 'json_object'" in fake.violations[0]
        assert "refuses structured output by json_schema" in decider.notes[0]
        forced = make_decider(cfg(fake, "auto", structured_method="json_schema")).ask(PROMPT, Choice)
        assert forced.error is not None and "HTTP 500" in forced.error  # a forced method is not switched
    finally:
        fake.stop()


def test_llama_cpp_without_jinja_refuses_tools(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    fake = FakeOpenAIServer(profile="llama.cpp", jinja=False).start()
    try:
        attempt = make_decider(cfg(fake, structured_method="function_calling")).ask(PROMPT, Choice)
        assert attempt.error is not None and "--jinja" in attempt.error
        assert make_decider(cfg(fake)).ask(PROMPT, Choice).parsed is not None  # auto: json_schema first
        assert make_decider(cfg(fake)).method == "json_schema"
    finally:
        fake.stop()


@pytest.mark.parametrize("server", ["ollama"], indirect=True)
def test_ollama_cannot_force_a_tool(server: FakeOpenAIServer) -> None:
    """Ollama reads no tool_choice: offered tools are a suggestion, and the fake's model answers in prose."""
    attempt = make_decider(cfg(server, structured_method="function_calling")).ask(PROMPT, Choice)
    assert attempt.parsed is None and "prose" in (attempt.error or "")
    assert any("not forced" in lapse for lapse in server.lapses)


def test_detection_from_models_list(server: FakeOpenAIServer) -> None:
    for name, profile in PROFILES.items():
        if name in ("generic", "openai"):
            continue
        server.profile = name
        assert detect_server(server.base_url, refresh=True) == name
    assert detect_server(None) == "openai" and detect_server("https://api.openai.com/v1") == "openai"


# -- errors: clear, and retried only when it can help ------------------------------------------------

def test_wrong_key_is_one_clear_line_without_the_key(server: FakeOpenAIServer) -> None:
    server.api_key = "sk-right-key-000000"
    attempt = make_decider(cfg(server, "openai", api_key="sk-wrong-key-987654321")).ask(PROMPT, Choice)
    assert attempt.error is not None and attempt.error.startswith("the endpoint refuses the API key (HTTP 401)")
    assert "987654321" not in attempt.error and "wrong-key" not in attempt.error and not attempt.retryable


def test_unknown_model_is_one_clear_line(server: FakeOpenAIServer) -> None:
    attempt = make_decider(cfg(server, "openai", model="gpt-4o-typo")).ask(PROMPT, Choice)
    assert attempt.error is not None
    assert attempt.error.startswith("the endpoint does not know the model 'gpt-4o-typo' (HTTP 404)")
    assert not attempt.retryable


def test_rate_limit_waits_for_retry_after(server: FakeOpenAIServer) -> None:
    server.script(rate_limited(0.4), valid(PASS))
    waits: list[float] = []
    outcome = decide_with_retries(make_decider(cfg(server, "openai")), PROMPT, Choice, lambda a: None, 1,
                                  sleep=waits.append)
    assert outcome.action == Choice(action=Pass()) and waits == [0.4]


def test_rate_limit_longer_than_the_deadline_gives_up_at_once(server: FakeOpenAIServer) -> None:
    server.script(rate_limited(60), valid(PASS))
    outcome = decide_with_retries(make_decider(cfg(server, "openai")), PROMPT, Choice, lambda a: None, 2,
                                  deadline_s=5, sleep=lambda s: pytest.fail("must not wait 60 s"))
    assert outcome.action is None and outcome.attempts == 1 and "HTTP 429, retry after 60 s" in outcome.fallback_reason


def test_bad_request_is_not_retried(server: FakeOpenAIServer) -> None:
    server.script(http_error(400, "Invalid 'messages'"), valid(PASS))
    outcome = decide_with_retries(make_decider(cfg(server, "openai")), PROMPT, Choice, lambda a: None, 3)
    assert outcome.action is None and outcome.attempts == 1 and server.pending == 1


def test_hanging_endpoint_costs_one_deadline(server: FakeOpenAIServer) -> None:
    server.default = lambda body: hang()
    started = time.monotonic()
    outcome = decide_with_retries(make_decider(cfg(server, "openai", timeout_s=30)), PROMPT, Choice,
                                  lambda a: None, 5, deadline_s=1.0)
    elapsed = time.monotonic() - started
    assert outcome.action is None and elapsed < 2.0
    assert outcome.fallback_reason is not None and "deadline (1 s) passed" in outcome.fallback_reason


# -- whole games ----------------------------------------------------------------------------------------

def heuristic_answers(box: dict):
    """A fake model that answers well: what the seat's own heuristic would play, when it is offered.

    (A request holds at most 2,000 tokens, issue 23, so a turn's rarer moves may be left off
    the menu; a model can only choose what it was offered: then an Event, or the end of the turn.)
    """
    def answer(body: dict) -> Behaviour:
        table = box["table"]
        name = pending(table.state).players[0]
        decision = table.seats[name].player.heuristic.decide(table.observe(name))
        data = decision.action.model_dump(mode="json")
        data.pop("player")
        shape = json.dumps(body.get("tools") or body.get("response_format") or {})
        if f'"{data["type"]}"' not in shape:  # an Event moves the scene on; ending the turn stalls it
            data = ({"type": "narrate_event", "text": "The story moves on.", "performer": None, "receiver": None}
                    if '"narrate_event"' in shape else {"type": "end_turn"})
        return valid({"action": data, "why": "as planned"})
    return answer


def llm_game(settings: LLMSettings, names=("Ann", "Bo")) -> Table:
    seats = [Seat(n, LLMPlayer(n, settings, seed=1, seat_index=i)) for i, n in enumerate(names)]
    seats.append(Seat("Cy", HeuristicPlayer("Cy", seed=1, seat_index=len(names))))
    return Table.new(seats, dice=SeededDice(5))


@pytest.mark.parametrize(("server", "setting"), [FAMILIES[0], FAMILIES[1], FAMILIES[3]], indirect=["server"])
def test_every_decision_made_by_the_model_and_every_request_valid(server: FakeOpenAIServer, setting: str) -> None:
    """Issue 24 'done when': LLM seats against the strict fake make every decision with the model."""
    box: dict = {}
    server.default = heuristic_answers(box)
    table = llm_game(cfg(server, setting, max_refusals=1))
    box["table"] = table
    table.run(stop=lambda t: t.state.scenes_ended >= 1, max_steps=800)
    assert table.state.scenes_ended >= 1
    assert server.violations == [] and server.lapses == []
    for name in ("Ann", "Bo"):
        player = table.seats[name].player
        assert player.stats.fallbacks == 0 and player.stats.by_model >= 8, [
            r.meta.get("fallback") for r in table.records if r.meta.get("fallback")]
        assert player.stats.model_share == 1.0 and player.status.with_model
    llm_records = [r for r in table.records
                   if r.action.get("player") in ("Ann", "Bo") and r.meta.get("decided_by") != "dice"]
    assert llm_records and all(r.meta["decided_by"] == "llm" and not r.meta.get("fallback") for r in llm_records)
    assert len(server.chat_requests) >= 20
    line = model_share_line(table.seats[n].player for n in ("Ann", "Bo"))
    assert line is not None and line.startswith("Decisions made by the model: ") and "(100%)" in line
    for body in server.chat_requests:
        limit = body.get("max_completion_tokens") or body.get("max_tokens")
        assert limit and limit <= 2 * max(max_tokens_for(k) for k in ("turn", "narration"))


def test_dead_endpoint_game_ends_quickly_and_says_so(server: FakeOpenAIServer) -> None:
    """Issue 18: an endpoint that accepts connections and never answers costs seconds, not the evening."""
    server.default = lambda body: hang()
    heard: list[str] = []
    table = llm_game(cfg(server, "openai", decision_deadline_s=0.3, timeout_s=30, max_refusals=2))
    for name in ("Ann", "Bo"):
        table.seats[name].player.status_listeners.append(lambda p, s: heard.append(s.message))
    started = time.monotonic()
    table.run(stop=lambda t: t.state.scenes_ended >= 1, max_steps=3000)
    elapsed = time.monotonic() - started
    assert table.state.scenes_ended >= 1
    ann = table.seats["Ann"].player
    assert not ann.status.with_model
    assert ann.status.message.startswith("Ann is playing without its model: the decision's deadline (0.3 s) passed")
    assert any(m.startswith("Bo is playing without its model") for m in heard)
    asked = sum(table.seats[n].player.stats.model_decisions for n in ("Ann", "Bo"))
    rested = sum(table.seats[n].player.stats.rested for n in ("Ann", "Bo"))
    assert rested > asked  # the breaker kept most decisions off the dead endpoint
    line = model_share_line(table.seats[n].player for n in ("Ann", "Bo"))
    assert line is not None and line.startswith("Decisions made by the model: 0 of ") and "(0%)" in line
    assert elapsed < 0.3 * asked + 15


def test_breaker_rests_the_model_then_tries_again_and_says_it_is_back(server: FakeOpenAIServer) -> None:
    """Issue 18: after repeated failures the seat plays with the heuristic for a while, then asks again."""
    from agents.llm.player import COOLDOWN, FAILURE_STREAK

    box: dict = {}
    good = heuristic_answers(box)
    server.default = lambda body: http_error(503) if len(server.chat_requests) <= FAILURE_STREAK else good(body)
    table = llm_game(cfg(server, "openai", max_refusals=0), names=("Ann",))
    box["table"] = table
    ann = table.seats["Ann"].player
    heard: list = []
    ann.status_listeners.append(lambda player, status: heard.append(status))
    table.run(stop=lambda t: ann.stats.by_model >= 3, max_steps=3000)
    assert [s.with_model for s in heard] == [False, True]
    assert heard[0].message.startswith("Ann is playing without its model: the endpoint failed (HTTP 503)")
    assert heard[1].message == "Ann is playing with its model again" and ann.status.with_model
    assert ann.stats.rested == COOLDOWN and len(server.chat_requests) == FAILURE_STREAK + ann.stats.by_model
    assert server.violations == []


def test_auto_leaves_a_tool_the_server_does_not_force(server: FakeOpenAIServer) -> None:
    """An unknown server that ignores tool_choice (the model answers in prose): "auto" moves on."""
    server.script(prose(), prose(), valid(PASS))
    decider = make_decider(cfg(server, "generic"))
    assert decider.method == "function_calling"
    assert decider.ask(PROMPT, Choice).parsed is None and decider.method == "function_calling"
    assert decider.ask(PROMPT, Choice).parsed is None and decider.method == "json_schema"
    assert decider.ask(PROMPT, Choice).parsed == Choice(action=Pass())
    assert "does not force the tool" in decider.notes[0]


@pytest.mark.parametrize("server", ["llama-cpp-python"], indirect=True)
def test_a_request_the_server_model_rejects_is_not_retried(server: FakeOpenAIServer) -> None:
    """llama-cpp-python answers 500 '1 validation error' to a request it cannot read: asking again cannot help."""
    outcome = decide_with_retries(make_decider(cfg(server, structured_method="json_schema")), PROMPT, Choice,
                                  lambda a: None, 2)
    assert outcome.attempts == 1 and outcome.action is None
    assert outcome.fallback_reason.startswith("the endpoint refuses the request (HTTP 500): 1 validation error")


@pytest.mark.parametrize(("reason", "rests"), [
    ("refused 2 times: there is no component 'c9' in this game (U-ACT-5)", False),
    ("the endpoint failed (HTTP 503): overloaded", True),
    ("no structured output: the model answered in prose", True),
])
def test_only_endpoint_and_unreadable_failures_rest_the_model(server: FakeOpenAIServer, monkeypatch, reason: str,
                                                              rests: bool) -> None:
    """Moves the rules refuse do not rest the model: it is playing (and told why); a failing endpoint is rested."""
    from agents.llm import player as player_module
    from agents.llm.retry import Outcome

    monkeypatch.setattr(player_module, "decide_with_retries",
                        lambda *a, **k: Outcome(None, 2, 1, reason, refusals=[reason.split(": ", 1)[-1]] * 2))
    table = llm_game(cfg(server, "openai"), names=("Ann",))
    ann = table.seats["Ann"].player
    table.run(stop=lambda t: ann.stats.decisions - ann.stats.skipped >= 12, max_steps=3000)
    assert (ann.stats.rested > 0) is rests and ann.status.with_model is (not rests)
    if rests:
        assert ann.status.message == f"Ann is playing without its model: {reason}"

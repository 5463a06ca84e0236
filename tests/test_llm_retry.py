"""decide_with_retries: retry with feedback, then a recorded fallback; never an exception."""

from __future__ import annotations

import openai
import pytest
from fakeserver import (  # noqa: F401
    Bid,
    Choice,
    FakeOpenAIServer,
    Pass,
    delay,
    fake_openai,
    http_error,
    invalid_json,
    prose,
    valid,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from pydantic import BaseModel

from agents.llm import LLMSettings, StructuredDecider, decide_with_retries, make_chat_model
from agents.llm.fake import ScriptedChatModel, text_message, tool_call

try:  # the HTTP library the installed openai SDK uses (httpx2 for openai>=3)
    import httpx2 as sdk_httpx
except ImportError:  # pragma: no cover
    import httpx as sdk_httpx  # type: ignore[no-redef]

METHODS = ["function_calling", "json_schema", "json_mode"]
PROMPT: list[BaseMessage] = [
    SystemMessage(content="You are a player at a Universalis table. Answer in JSON."),
    HumanMessage(content="You have 3 coins. Legal: bid 0-3, pass. Your move."),
]
REFUSAL = "R4.2: you cannot bid more coins than you have (3)"


def only_small_bids(action: BaseModel) -> str | None:
    """The test's stand-in for the engine: bids above 3 are refused."""
    inner = getattr(action, "action", action)
    if isinstance(inner, Bid) and inner.amount > 3:
        return REFUSAL
    return None


def decider(server: FakeOpenAIServer, method: str = "function_calling", timeout_s: float = 5.0) -> StructuredDecider:
    settings = LLMSettings(base_url=server.base_url, model="fake-model", timeout_s=timeout_s)
    return StructuredDecider(make_chat_model(settings), method)  # type: ignore[arg-type]


def roles(body: dict) -> list[str]:
    return [m["role"] for m in body["messages"]]


@pytest.mark.parametrize("method", METHODS)
def test_refusal_is_quoted_in_the_next_request(fake_openai: FakeOpenAIServer, method: str) -> None:  # noqa: F811
    fake_openai.script(valid({"action": {"type": "bid", "amount": 7}}), valid({"action": {"type": "bid", "amount": 2}}))
    outcome = decide_with_retries(decider(fake_openai, method), PROMPT, Choice, only_small_bids, max_refusals=2)
    assert outcome.action == Choice(action=Bid(amount=2))
    assert (outcome.attempts, outcome.retries, outcome.fallback_reason) == (2, 1, None)
    assert outcome.refusals == [REFUSAL]
    first, second = fake_openai.chat_requests
    # the retry is one user message that every server accepts: the earlier answer and the
    # refusal folded in as text (no assistant/tool messages: llama-cpp-python answers 500)
    assert roles(second) == roles(first) == ["system", "user"]
    assert second["messages"][0] == first["messages"][0]
    last_user = second["messages"][-1]["content"]
    assert last_user.startswith(first["messages"][-1]["content"])  # the question comes first, unchanged
    assert '"amount": 7' in last_user
    assert f"The rules refused that: {REFUSAL}." in last_user
    assert last_user.endswith("Choose again from the legal actions and answer in the requested format.")


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize(
    ("bad", "reason_start"),
    [
        (prose("Let me set the scene instead..."), "no structured output"),
        (invalid_json('{"action": {"type": "bid", "amount": '), "invalid JSON"),
        (valid({"action": {"type": "bid", "amount": 5}}), f"refused 3 times: {REFUSAL}"),
        (http_error(500), "the endpoint failed (HTTP 500)"),
    ],
)
def test_persistent_failure_ends_in_recorded_fallback(
    fake_openai: FakeOpenAIServer, method: str, bad, reason_start: str  # noqa: F811
) -> None:
    fake_openai.script(bad, bad, bad, valid({"action": {"type": "pass"}}))
    outcome = decide_with_retries(decider(fake_openai, method), PROMPT, Choice, only_small_bids, max_refusals=2)
    assert outcome.action is None
    assert outcome.fallback_reason is not None and outcome.fallback_reason.startswith(reason_start)
    assert (outcome.attempts, outcome.retries, len(outcome.refusals)) == (3, 2, 3)
    assert fake_openai.pending == 1, "exactly max_refusals + 1 requests"


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize(
    "bad",
    [prose(), invalid_json(), valid({"action": {"type": "bid", "amount": 9}}), http_error(503)],
    ids=["prose", "invalid_json", "refused", "http_503"],
)
def test_one_failure_then_success(fake_openai: FakeOpenAIServer, method: str, bad) -> None:  # noqa: F811
    fake_openai.script(bad, valid({"action": {"type": "pass"}}))
    outcome = decide_with_retries(decider(fake_openai, method), PROMPT, Choice, only_small_bids, max_refusals=2)
    assert outcome.action == Choice(action=Pass())
    assert (outcome.attempts, outcome.retries, outcome.fallback_reason, len(outcome.refusals)) == (2, 1, None, 1)


def test_unreadable_answer_is_shown_back_with_the_reason(fake_openai: FakeOpenAIServer) -> None:  # noqa: F811
    fake_openai.script(prose("The wind howls."), valid({"action": {"type": "pass"}}))
    decide_with_retries(decider(fake_openai), PROMPT, Choice, only_small_bids, max_refusals=1)
    second = fake_openai.chat_requests[1]["messages"]
    assert [m["role"] for m in second] == ["system", "user"]
    assert "Your earlier answer was: The wind howls." in second[-1]["content"]
    assert "no structured output" in second[-1]["content"]


def test_timeout_retries_then_falls_back(fake_openai: FakeOpenAIServer) -> None:  # noqa: F811
    fake_openai.script(delay(2), delay(2))
    outcome = decide_with_retries(decider(fake_openai, timeout_s=0.5), PROMPT, Choice, only_small_bids, max_refusals=1)
    said = "the endpoint did not answer within 0.5 s (timeout)"
    assert (outcome.action, outcome.fallback_reason, outcome.attempts) == (None, said, 2)
    assert outcome.refusals == [said] * 2
    assert 0.9 < outcome.latency_s < 4


def test_transport_retry_resends_the_same_conversation(fake_openai: FakeOpenAIServer) -> None:  # noqa: F811
    fake_openai.script(http_error(500), valid({"action": {"type": "pass"}}))
    outcome = decide_with_retries(decider(fake_openai), PROMPT, Choice, only_small_bids, max_refusals=1)
    assert outcome.action == Choice(action=Pass())
    first, second = fake_openai.chat_requests
    assert first["messages"] == second["messages"]


def test_non_retryable_error_stops_at_once(fake_openai: FakeOpenAIServer) -> None:  # noqa: F811
    fake_openai.script(http_error(401, "Incorrect API key provided"), valid({"action": {"type": "pass"}}))
    outcome = decide_with_retries(decider(fake_openai), PROMPT, Choice, only_small_bids, max_refusals=3)
    assert outcome.action is None and outcome.attempts == 1
    assert outcome.fallback_reason == ("the endpoint refuses the API key (HTTP 401): check OPENAI_API_KEY "
                                       "(Incorrect API key provided)")


def test_tokens_and_latency_are_summed_over_attempts(fake_openai: FakeOpenAIServer) -> None:  # noqa: F811
    fake_openai.script(prose(), valid({"action": {"type": "bid", "amount": 8}}), valid({"action": {"type": "pass"}}))
    outcome = decide_with_retries(decider(fake_openai), PROMPT, Choice, only_small_bids, max_refusals=2)
    assert outcome.action == Choice(action=Pass()) and outcome.attempts == 3
    assert len(fake_openai.usages) == 3
    assert outcome.tokens_in == sum(u["prompt_tokens"] for u in fake_openai.usages)
    assert outcome.tokens_out == sum(u["completion_tokens"] for u in fake_openai.usages)
    # prompts grow with the feedback, so input tokens must grow too
    assert fake_openai.usages[0]["prompt_tokens"] < fake_openai.usages[2]["prompt_tokens"]
    assert outcome.latency_s > 0


def test_zero_refusals_means_one_attempt(fake_openai: FakeOpenAIServer) -> None:  # noqa: F811
    fake_openai.script(valid({"action": {"type": "bid", "amount": 9}}))
    outcome = decide_with_retries(decider(fake_openai), PROMPT, Choice, only_small_bids, max_refusals=0)
    assert (outcome.action, outcome.attempts, outcome.retries) == (None, 1, 0)
    assert outcome.fallback_reason == f"refused 1 time: {REFUSAL}"


def test_caller_messages_are_not_mutated(fake_openai: FakeOpenAIServer) -> None:  # noqa: F811
    prompt = list(PROMPT)
    fake_openai.script(prose(), valid({"action": {"type": "pass"}}))
    decide_with_retries(decider(fake_openai), prompt, Choice, only_small_bids, max_refusals=1)
    assert prompt == PROMPT


def test_crashing_validator_counts_as_refusal() -> None:
    def broken(_: BaseModel) -> str | None:
        raise KeyError("component c9")

    model = ScriptedChatModel(script=[tool_call("Choice", {"action": {"type": "pass"}})] * 2)
    outcome = decide_with_retries(StructuredDecider(model), PROMPT, Choice, broken, max_refusals=1)
    assert outcome.action is None and outcome.attempts == 2
    assert outcome.fallback_reason is not None and outcome.fallback_reason.startswith("refused 2 times")
    assert "KeyError" in outcome.refusals[0]


def test_raising_chat_model_falls_back() -> None:
    model = ScriptedChatModel(script=[RuntimeError("GPU on fire"), ValueError("weird")])
    outcome = decide_with_retries(StructuredDecider(model), PROMPT, Choice, only_small_bids, max_refusals=1)
    assert outcome.action is None and outcome.attempts == 2
    assert outcome.fallback_reason == "model error: ValueError: weird"


# ------------------------------------------------------------------- property

_items = st.one_of(
    st.builds(lambda n: tool_call("Choice", {"action": {"type": "bid", "amount": n}}), st.integers(-2, 12)),
    st.just(tool_call("Choice", {"action": {"type": "pass"}})),
    st.just(tool_call("Other", {"junk": True})),
    st.text(max_size=40).map(text_message),
    st.just(text_message('{"action": {"type": "pass"}')),
    st.sampled_from([TimeoutError("t"), RuntimeError("r"), ValueError("v"), KeyError("k"), TypeError("x")]),
    st.just(openai.APIConnectionError(request=sdk_httpx.Request("POST", "http://127.0.0.1/v1"))),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(script=st.lists(_items, min_size=0, max_size=6), max_refusals=st.integers(0, 4),
       method=st.sampled_from(METHODS))
def test_never_raises_and_accounts_consistently(script: list, max_refusals: int, method: str) -> None:
    model = ScriptedChatModel(script=script)
    outcome = decide_with_retries(StructuredDecider(model, method), PROMPT, Choice, only_small_bids, max_refusals)
    assert 1 <= outcome.attempts <= max_refusals + 1
    assert outcome.retries == outcome.attempts - 1
    assert outcome.attempts == len(model.calls)
    if outcome.action is not None:
        assert only_small_bids(outcome.action) is None and outcome.fallback_reason is None
        assert len(outcome.refusals) == outcome.attempts - 1
    else:
        assert outcome.fallback_reason and len(outcome.refusals) == outcome.attempts

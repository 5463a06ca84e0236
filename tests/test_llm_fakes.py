"""The test doubles themselves: ScriptedChatModel and the fake OpenAI server."""

from __future__ import annotations

import math
import threading
import time

import openai
import pytest
from fakeserver import (  # noqa: F401
    Bid,
    Choice,
    FakeOpenAIServer,
    NarrateEvent,
    delay,
    example_for_schema,
    fake_openai,
    hash_embedding,
    prose,
    valid,
)
from langchain_core.messages import HumanMessage

from agents.llm import StructuredDecider
from agents.llm.fake import ScriptedChatModel, ScriptExhausted, text_message, tool_call

KEY = "sk-fake-key-1234"


def client(server: FakeOpenAIServer, timeout: float = 5.0) -> openai.OpenAI:
    return openai.OpenAI(base_url=server.base_url, api_key=KEY, max_retries=0, timeout=timeout)


# ---------------------------------------------------------------- ScriptedChatModel


def test_scripted_model_supports_structured_output() -> None:
    model = ScriptedChatModel(script=[tool_call("Choice", {"action": {"type": "bid", "amount": 2}}, tokens=(40, 7))])
    result = model.with_structured_output(Choice, include_raw=True).invoke("go")
    assert result["parsed"] == Choice(action=Bid(amount=2))
    assert result["raw"].usage_metadata["input_tokens"] == 40
    assert model.bind_tools([Choice]) is model


def test_scripted_model_plays_script_in_order_and_records_prompts() -> None:
    model = ScriptedChatModel(
        script=["plain", text_message("with usage", tokens=(3, 2)), lambda msgs: f"saw {len(msgs)}", TimeoutError("slow")]
    )
    assert model.invoke("a").content == "plain"
    assert model.invoke("b").usage_metadata["output_tokens"] == 2
    assert model.invoke([HumanMessage(content="x"), HumanMessage(content="y")]).content == "saw 2"
    with pytest.raises(TimeoutError):
        model.invoke("d")
    with pytest.raises(ScriptExhausted):
        model.invoke("e")
    assert [m[-1].content for m in model.calls] == ["a", "b", "y", "d", "e"]
    assert model.remaining == 0


def test_scripted_model_through_decider_counts_tokens() -> None:
    model = ScriptedChatModel(script=[tool_call("Choice", {"action": {"type": "pass"}}, tokens=(11, 4))])
    attempt = StructuredDecider(model).ask([HumanMessage(content="go")], Choice)
    assert attempt.parsed is not None and (attempt.tokens_in, attempt.tokens_out) == (11, 4)


# --------------------------------------------------------------------- fake server


def test_example_for_schema_fills_discriminator_tags() -> None:
    example = example_for_schema(Choice.model_json_schema())
    assert Choice.model_validate(example) == Choice(action=Bid(amount=0))
    narrate = example_for_schema(NarrateEvent.model_json_schema())
    assert NarrateEvent.model_validate(narrate).type == "narrate_event"


def test_raw_openai_client_chat_with_tools_and_json(fake_openai: FakeOpenAIServer) -> None:  # noqa: F811
    tools = [{"type": "function", "function": {"name": "Bid", "parameters": Bid.model_json_schema()}}]
    fake_openai.script(valid({"type": "bid", "amount": 5}), valid({"type": "bid", "amount": 6}))
    c = client(fake_openai)
    with_tools = c.chat.completions.create(model="fake-model", messages=[{"role": "user", "content": "bid"}], tools=tools,
                                           tool_choice={"type": "function", "function": {"name": "Bid"}})
    call = with_tools.choices[0].message.tool_calls[0]
    assert (call.function.name, call.function.arguments) == ("Bid", '{"type": "bid", "amount": 5}')
    assert with_tools.choices[0].finish_reason == "tool_calls"
    as_json = c.chat.completions.create(
        model="fake-model", messages=[{"role": "user", "content": "bid in json"}], response_format={"type": "json_object"}
    )
    assert as_json.choices[0].message.content == '{"type": "bid", "amount": 6}'
    assert as_json.usage is not None and as_json.usage.total_tokens == sum(fake_openai.usages[1][k] for k in ("prompt_tokens", "completion_tokens"))
    assert all(r.authorization == f"Bearer {KEY}" for r in fake_openai.requests)
    assert KEY not in fake_openai.saved_data()


def test_server_enforces_openai_message_rules(fake_openai: FakeOpenAIServer) -> None:  # noqa: F811
    c = client(fake_openai)
    dangling = [
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": None,
         "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "Bid", "arguments": "{}"}}]},
        {"role": "user", "content": "again"},
    ]
    with pytest.raises(openai.BadRequestError, match="tool_call_id"):
        c.chat.completions.create(model="fake-model", messages=dangling)
    with pytest.raises(openai.BadRequestError, match="json"):
        c.chat.completions.create(model="fake-model", messages=[{"role": "user", "content": "hi"}],
                                  response_format={"type": "json_object"})


def test_embeddings_are_deterministic_unit_vectors(fake_openai: FakeOpenAIServer) -> None:  # noqa: F811
    c = client(fake_openai)
    default = c.embeddings.create(model="fake-embed", input=["a dragon", "a teapot"])  # SDK asks for base64
    floats = c.embeddings.create(model="fake-embed", input="a dragon", encoding_format="float")
    first = default.data[0].embedding
    assert len(first) == 16 and math.isclose(sum(v * v for v in first), 1.0, rel_tol=1e-5)
    assert first == pytest.approx(floats.data[0].embedding, abs=1e-6)
    assert first == pytest.approx(hash_embedding("a dragon"), abs=1e-6)
    assert default.data[1].embedding != pytest.approx(first)
    assert default.usage.prompt_tokens > 0
    sized = c.embeddings.create(model="fake-embed", input="x", dimensions=8, encoding_format="float")
    assert len(sized.data[0].embedding) == 8


def test_models_endpoint(fake_openai: FakeOpenAIServer) -> None:  # noqa: F811
    assert [m.id for m in client(fake_openai).models.list()] == ["fake-model", "fake-embed"]


def test_delay_is_bounded_and_stop_wakes_it() -> None:
    server = FakeOpenAIServer().start()
    server.script(delay(60), prose("late"))
    c = client(server, timeout=10)
    started = time.perf_counter()
    threading.Timer(0.3, server.stop).start()
    with pytest.raises(openai.APIConnectionError):  # the stop closes the connection
        c.chat.completions.create(model="fake-model", messages=[{"role": "user", "content": "hi"}])
    assert time.perf_counter() - started < 5


def test_delay_is_capped(fake_openai: FakeOpenAIServer) -> None:  # noqa: F811
    fake_openai.max_delay_s = 0.3
    fake_openai.script(delay(60, then=prose("finally")))
    started = time.perf_counter()
    reply = client(fake_openai).chat.completions.create(model="fake-model", messages=[{"role": "user", "content": "hi"}])
    assert reply.choices[0].message.content == "finally"
    assert 0.25 < time.perf_counter() - started < 3


def test_stop_closes_keep_alive_connections() -> None:
    server = FakeOpenAIServer().start()
    c = client(server)
    c.chat.completions.create(model="fake-model", messages=[{"role": "user", "content": "hi"}])
    server.stop()
    with pytest.raises(openai.APIConnectionError):
        c.chat.completions.create(model="fake-model", messages=[{"role": "user", "content": "hi"}])


def test_server_stops_by_itself() -> None:
    server = FakeOpenAIServer().start(max_lifetime_s=0.2)
    url = server.base_url
    time.sleep(0.6)
    with pytest.raises(openai.APIConnectionError):
        openai.OpenAI(base_url=url, api_key=KEY, max_retries=0, timeout=2).models.list()

"""`--ai local`: a GGUF in this process through LocalChatModel, without llama.cpp itself.

A stand-in for `llama_cpp.Llama` records what the seat asks `create_chat_completion` (the same
OpenAI-shaped call the real one takes) and answers like it, so these tests check the adapter's
contract: the enforced structured output reaches the call, answers come back with tool calls
and token counts, and bad model files are refused in one line. The real model plays in
tests/test_real_model.py.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

from agents.llm.config import ConfigError
from agents.llm.decider import make_decider
from agents.llm.local import LocalChatModel, check_model_file, local_settings, to_plain_messages
from agents.llm.player import LLMPlayer
from agents.llm.schema_actions import choice_schema
from agents.table import Seat, Table
from engine.core.dice import SeededDice

ROOT = Path(__file__).resolve().parents[1]


class StandInLlama:
    """Answers like llama_cpp.Llama.create_chat_completion: a tool call when a tool is forced,
    else the JSON text; records every call's keyword arguments."""

    def __init__(self, answer: dict[str, Any]) -> None:
        self.answer = answer
        self.calls: list[dict[str, Any]] = []

    def create_chat_completion(self, **kwargs: Any) -> dict[str, Any]:
        self.calls.append(kwargs)
        text = json.dumps(self.answer)
        choice = kwargs.get("tool_choice")
        if isinstance(choice, dict):
            message = {"role": "assistant", "content": None, "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": choice["function"]["name"], "arguments": text}}]}
            finish = "tool_calls"
        else:
            message, finish = {"role": "assistant", "content": text}, "stop"
        return {"id": "x", "object": "chat.completion", "model": "stand-in",
                "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                "usage": {"prompt_tokens": 321, "completion_tokens": 17, "total_tokens": 338}}


TENET = {"action": {"type": "propose_tenet", "text": "Every bridge remembers who crossed it", "kind": "story"},
         "why": "a world rule"}


def test_enforced_output_and_token_limit_reach_llama_cpp() -> None:
    """The seat's request as llama-cpp-python enforces it: json_object with the schema (a grammar)
    and max_tokens, taken out of the OpenAI client's extra_body."""
    llama = StandInLlama(TENET)
    chat = LocalChatModel(llama=llama, model_name="stand-in")
    decider = make_decider(local_settings(chat), chat)
    schema = choice_schema(("propose_tenet", "pass_prep"))
    attempt = decider.ask([SystemMessage(content="rules"), HumanMessage(content="your move")], schema, max_tokens=123)
    assert attempt.error is None, attempt.error
    assert attempt.parsed.action.text == TENET["action"]["text"]  # type: ignore[union-attr]
    assert (attempt.tokens_in, attempt.tokens_out) == (321, 17)
    call = llama.calls[-1]
    assert call["max_tokens"] == 123
    fmt = call["response_format"]
    assert fmt["type"] == "json_object" and "action" in fmt["schema"]["properties"]
    assert "extra_body" not in call and "timeout" not in call
    assert [m["role"] for m in call["messages"]] == ["system", "user"]


def test_forced_tool_comes_back_as_a_tool_call() -> None:
    """function_calling: tool_choice names the tool (llama-cpp-python turns it into a grammar)."""
    llama = StandInLlama(TENET)
    chat = LocalChatModel(llama=llama)
    settings = local_settings(chat).model_copy(update={"structured_method": "function_calling"})
    attempt = make_decider(settings, chat).ask([HumanMessage(content="go")], choice_schema(("propose_tenet",)))
    assert attempt.parsed is not None, attempt.error
    call = llama.calls[-1]
    assert call["tool_choice"] == {"type": "function", "function": {"name": call["tools"][0]["function"]["name"]}}


def test_bind_tools_any_forces_the_single_tool() -> None:
    llama = StandInLlama({"text": "x"})
    chat = LocalChatModel(llama=llama)
    msg = chat.bind_tools([{"type": "function", "function": {"name": "say", "parameters": {
        "type": "object", "properties": {"text": {"type": "string"}}}}}], tool_choice="any").invoke("hi")
    assert isinstance(msg, AIMessage) and msg.tool_calls[0]["args"] == {"text": "x"}
    assert llama.calls[-1]["tool_choice"]["function"]["name"] == "say"


def test_plain_messages_for_small_chat_templates() -> None:
    """Tool calls become the assistant's text, tool results are dropped, roles alternate."""
    msgs = [SystemMessage(content="sys"), HumanMessage(content="q"),
            AIMessage(content="", tool_calls=[{"name": "t", "args": {"a": 1}, "id": "c1", "type": "tool_call"}]),
            ToolMessage(content="not accepted", tool_call_id="c1"), HumanMessage(content="again"),
            HumanMessage(content="please")]
    out = to_plain_messages(msgs)
    assert [m["role"] for m in out] == ["system", "user", "assistant", "user"]
    assert json.loads(out[2]["content"]) == {"a": 1}
    assert out[3]["content"] == "again\n\nplease"


def test_a_seat_plays_on_the_local_model() -> None:
    """An LLMPlayer with the in-process model makes its preparation decision with it."""
    llama = StandInLlama(TENET)
    chat = LocalChatModel(llama=llama, model_name="stand-in")
    settings = local_settings(chat)
    seats = [Seat("Ann", LLMPlayer("Ann", settings, seed=1, chat_model=chat)),
             Seat("Bo", LLMPlayer("Bo", settings, seed=1, seat_index=1, chat_model=chat))]
    table = Table.new(seats, dice=SeededDice(1))
    table.step()
    rec = table.records[0]
    assert rec.meta["decided_by"] == "llm" and not rec.meta.get("fallback")
    assert rec.action["type"] == "propose_tenet" and rec.meta["tokens_in"] == 321


def test_model_file_checks(tmp_path: Path) -> None:
    """A missing file or one that is not GGUF is one line naming the file, never its directory."""
    with pytest.raises(ConfigError, match="no model file 'm.gguf'") as missing:
        check_model_file(tmp_path / "m.gguf")
    assert str(tmp_path) not in str(missing.value)
    text = tmp_path / "notes.gguf"
    text.write_text("hello")
    with pytest.raises(ConfigError, match="not a GGUF model file"):
        check_model_file(text)
    good = tmp_path / "tiny.gguf"
    good.write_bytes(b"GGUF\x03\x00\x00\x00")
    assert check_model_file(good) == good


@pytest.mark.parametrize("args, says", [
    (["--ai", "local"], "--ai local needs --model-path"),
    (["--model-path", "x.gguf"], "--model-path goes with --ai local"),
    (["--ai", "local", "--model-path", "missing.gguf"], "no model file 'missing.gguf'"),
])
def test_cli_says_what_is_wrong_in_one_line(tmp_path: Path, args: list[str], says: str) -> None:
    proc = subprocess.run([sys.executable, "-m", "app.cli", "simulate", "--seats", "2", "--scenes", "1", *args],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and says in lines[0], proc.stderr


def test_gemma_keeps_the_system_prompt() -> None:
    """llama-cpp-python's "gemma" format drops system messages: the seat's rules join the first user turn."""
    llama = StandInLlama(TENET)
    chat = LocalChatModel(llama=llama, system_in_user=True)
    chat.invoke([SystemMessage(content="RULES"), HumanMessage(content="your move")])
    assert llama.calls[-1]["messages"] == [{"role": "user", "content": "RULES\n\nyour move"}]

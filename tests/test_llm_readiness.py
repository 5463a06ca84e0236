"""`storytable check-endpoint` and agents.llm.readiness.check: each misconfiguration in one line (issue 24)."""

from __future__ import annotations

import socket

import pytest
from fakeserver import FakeOpenAIServer, hang

from agents.llm import LLMSettings
from agents.llm.readiness import check

KEY = "sk-proj-secret-key-0123456789"


@pytest.fixture
def start(monkeypatch: pytest.MonkeyPatch):
    """Start fake servers with given options; all stopped after the test."""
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")
    started: list[FakeOpenAIServer] = []

    def make(**kw) -> FakeOpenAIServer:
        server = FakeOpenAIServer(**kw).start()
        started.append(server)
        return server

    yield make
    for server in started:
        server.stop()


def settings(fake: FakeOpenAIServer | None = None, **kw) -> LLMSettings:
    base = {"base_url": fake.base_url if fake else None, "model": "fake-model", "timeout_s": 5.0}
    base.update(kw)
    return LLMSettings(**base)


def one_line(text: str) -> bool:
    return "\n" not in text and 0 < len(text) < 400


@pytest.mark.parametrize(("profile", "setting", "method"), [
    ("openai", "openai", "json_schema"), ("llama-cpp-python", "auto", "json_object_schema"),
    ("llama.cpp", "auto", "json_schema"), ("ollama", "auto", "json_schema"), ("vllm", "auto", "json_schema")])
def test_ready_endpoint_reports_method_and_capabilities(start, profile: str, setting: str, method: str) -> None:
    server = start(profile=profile)
    result = check(settings(server, server=setting))
    assert result.ready, result.message
    assert result.method == method and result.json_schema is True
    assert result.tool_calling is (None if profile == "ollama" else True)  # Ollama cannot force a tool
    assert result.latency_s is not None and result.latency_s < 5 and one_line(result.message)
    assert server.violations == [] and server.lapses == []
    lines = result.lines()
    assert lines[-1].startswith("ready: fake-model on ") and any(line.startswith("latency:") for line in lines)


def test_not_configured() -> None:
    result = check(LLMSettings())
    assert not result.ready and result.message.startswith("no model endpoint is configured: set OPENAI_BASE_URL")


def test_unreachable() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    result = check(LLMSettings(base_url=f"http://127.0.0.1:{port}/v1"))
    assert not result.ready
    assert result.message == f"the endpoint is unreachable: nothing answers at 127.0.0.1:{port} (is the server running?)"


def test_wrong_key_never_shows_the_key(start) -> None:
    server = start(api_key="sk-the-right-one-999")
    result = check(settings(server, api_key=KEY))
    assert not result.ready and result.message == "the endpoint refuses the API key (HTTP 401): check OPENAI_API_KEY"
    assert KEY[6:] not in "\n".join(result.lines())


def test_wrong_key_on_chat_only(start) -> None:
    """A server whose /models is open but whose chat needs the key: the chat's 401, without the key."""
    server = start(profile="openai", api_key="sk-the-right-one-999", open_models=True)
    result = check(settings(server, api_key=KEY, server="openai"))
    assert not result.ready and result.message.startswith("the endpoint refuses the API key (HTTP 401)")
    assert "0123456789" not in result.message and one_line(result.message)


def test_wrong_model(start) -> None:
    server = start(profile="ollama", model_ids=("llama3.2",))
    result = check(settings(server, model="llama3.3"))
    assert not result.ready
    assert result.message.startswith("the endpoint does not know the model 'llama3.3' (HTTP 404)")
    assert result.notes == ["the server does not list the model 'llama3.3' (it lists: llama3.2)"]


def test_wrong_base_url(start) -> None:
    server = start()
    result = check(settings(server, base_url=server.base_url.removesuffix("/v1")))
    assert not result.ready
    assert result.message.startswith("nothing answers at that address (HTTP 404): check the base URL, which usually "
                                     "ends in /v1")


def test_endpoint_that_never_answers(start) -> None:
    server = start()
    server.default = lambda body: hang()
    result = check(settings(server, server="openai"), timeout_s=0.5)
    assert not result.ready and result.message == "the endpoint did not answer within 0.5 s (timeout)"


def test_server_refuses_json_schema(start) -> None:
    server = start(profile="llama-cpp-python")
    result = check(settings(server, structured_method="json_schema"))
    assert not result.ready and one_line(result.message)
    assert result.message.startswith("the endpoint refuses structured output by json_schema: the endpoint refuses "
                                     "the request (HTTP 500): 1 validation error")
    assert result.message.endswith('set [llm] structured_method = "auto" to use what this server supports')
    assert check(settings(server)).method == "json_object_schema"  # auto finds the one that works


def test_llama_server_without_jinja_refuses_tools(start) -> None:
    server = start(profile="llama.cpp", jinja=False)
    result = check(settings(server, structured_method="function_calling"))
    assert not result.ready and "tools param requires --jinja flag" in result.message
    auto = check(settings(server))
    assert auto.ready and auto.method == "json_schema" and auto.tool_calling is False


def test_command_prints_report_and_exit_code(start, monkeypatch: pytest.MonkeyPatch, capsys, tmp_path) -> None:
    from app.cli import main

    server = start(profile="llama-cpp-python")
    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("STORYTABLE_MODEL", "fake-model")
    monkeypatch.delenv("STORYTABLE_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)
    assert main(["check-endpoint"]) == 0
    out = capsys.readouterr().out
    assert "server:        llama-cpp-python server" in out and "method used:   json_object_schema" in out
    assert "tool calling:  works" in out and "JSON schema:   works" in out and KEY not in out
    broken = start(profile="ollama", model_ids=("llama3.2",))
    monkeypatch.setenv("OPENAI_BASE_URL", broken.base_url)
    assert main(["check-endpoint"]) == 1
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.startswith("not ready: the endpoint does not know the model 'fake-model' (HTTP 404)")

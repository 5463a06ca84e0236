"""LLM settings: env, TOML, per-seat overrides, one-line errors, no key leaks."""

from __future__ import annotations

from pathlib import Path

import pytest
from fakeserver import FakeOpenAIServer, fake_openai  # noqa: F401
from langchain_core.messages import HumanMessage

from agents.llm import (
    ConfigError,
    LLMSettings,
    StructuredDecider,
    is_configured,
    load_settings,
    make_chat_model,
)
from agents.llm.decider import LOCAL_DUMMY_KEY

SECRET = "sk-test-DO-NOT-LEAK-8c1f2e"


@pytest.fixture(autouse=True)
def _empty_cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No stray storytable.toml from the developer's working directory."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_without_env_or_file() -> None:
    s = load_settings(env={})
    assert s.api_key is None and s.base_url is None
    assert (s.timeout_s, s.max_refusals, s.structured_method) == (30.0, 2, "auto")
    assert (s.server, s.decision_deadline_s) == ("auto", 22.0)
    assert not is_configured(s)


def test_env_vars_are_honoured() -> None:
    s = load_settings(
        env={"OPENAI_API_KEY": SECRET, "OPENAI_BASE_URL": "http://localhost:11434/v1/", "STORYTABLE_MODEL": "llama3.2"}
    )
    assert s.api_key is not None and s.api_key.get_secret_value() == SECRET
    assert s.base_url == "http://localhost:11434/v1"  # trailing slash normalised
    assert s.model == "llama3.2"


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"OPENAI_API_KEY": SECRET}, True),
        ({"OPENAI_BASE_URL": "http://127.0.0.1:8080/v1"}, True),
        ({"OPENAI_API_KEY": "  ", "OPENAI_BASE_URL": ""}, False),
        ({"STORYTABLE_MODEL": "gpt-4o"}, False),
    ],
)
def test_is_configured(env: dict[str, str], expected: bool) -> None:
    assert is_configured(load_settings(env=env)) is expected


TOML = """
[llm]
base_url = "http://localhost:11434/v1"
model = "qwen2.5:7b"
temperature = 0.3
timeout_s = 12.5
max_refusals = 4
structured_method = "json_schema"

[seats.alice]
model = "llama3.1:8b"
persona = "a gloomy poet"

[seats.bob]
kind = "heuristic"

[engine]   # other sections belong to other parts of Storytable
anything = 1
"""


def test_toml_in_cwd_gives_llm_defaults_and_seats(_empty_cwd: Path) -> None:
    write(_empty_cwd / "storytable.toml", TOML)
    s = load_settings(env={})
    assert (s.base_url, s.model, s.temperature, s.timeout_s, s.max_refusals, s.structured_method) == (
        "http://localhost:11434/v1", "qwen2.5:7b", 0.3, 12.5, 4, "json_schema")
    assert s.seat("alice").persona == "a gloomy poet" and s.seat("alice").kind == "llm"
    assert s.seat("bob").kind == "heuristic"
    assert s.seat("carol").kind == "llm" and s.seat("carol").model is None
    assert s.for_seat("alice").model == "llama3.1:8b"
    assert s.for_seat("alice").timeout_s == 12.5  # everything else inherited
    assert s.for_seat("bob").model == "qwen2.5:7b"


def test_env_overrides_toml_and_config_env_var_selects_file(tmp_path: Path) -> None:
    path = write(tmp_path / "elsewhere.toml", TOML)
    s = load_settings(env={"STORYTABLE_CONFIG": str(path), "STORYTABLE_MODEL": "from-env",
                           "OPENAI_BASE_URL": "http://10.0.0.2:8000/v1"})
    assert s.model == "from-env" and s.base_url == "http://10.0.0.2:8000/v1"
    assert s.max_refusals == 4  # still from the file
    assert s.for_seat("alice").model == "llama3.1:8b"  # seat beats the global model


def test_explicit_path_beats_cwd_file(_empty_cwd: Path, tmp_path: Path) -> None:
    write(_empty_cwd / "storytable.toml", '[llm]\nmodel = "cwd"\n')
    other = write(tmp_path / "explicit.toml", '[llm]\nmodel = "explicit"\n')
    assert load_settings(other, env={}).model == "explicit"
    assert load_settings(env={}).model == "cwd"


def _config_error(text: str, tmp_path: Path, env: dict[str, str] | None = None) -> str:
    path = write(tmp_path / "bad.toml", text)
    with pytest.raises(ConfigError) as info:
        load_settings(path, env=env or {})
    message = str(info.value)
    assert "\n" not in message, "must be one line"
    assert str(path) in message, "must name the file"
    err = info.value
    assert err.__cause__ is None and (err.__context__ is None or err.__suppress_context__), "no chained traceback"
    return message


def test_bad_toml_syntax_names_file_and_line(tmp_path: Path) -> None:
    message = _config_error('[llm]\nmodel = "unterminated\n', tmp_path)
    assert "invalid TOML" in message and "line 2" in message


@pytest.mark.parametrize(
    ("text", "expected_key"),
    [
        ('[llm]\ntimeout_s = "soon"\n', "[llm] timeout_s"),
        ("[llm]\nmax_refusals = -1\n", "[llm] max_refusals"),
        ('[llm]\nstructured_method = "xml"\n', "[llm] structured_method"),
        ('[llm]\nmodle = "typo"\n', "[llm] modle"),
        ('[llm]\nbase_url = "localhost:11434"\n', "[llm] base_url"),
        ('[seats.alice]\nkind = "robot"\n', "[seats.alice] kind"),
        ("[seats.alice]\nmodel = 3\n", "[seats.alice] model"),
        ("seats = 3\n", "seats"),
        ("llm = 3\n", "llm"),
    ],
)
def test_wrong_types_name_file_and_key(text: str, expected_key: str, tmp_path: Path) -> None:
    assert expected_key in _config_error(text, tmp_path)


def test_api_key_refused_in_toml_and_not_echoed(tmp_path: Path) -> None:
    message = _config_error(f'[llm]\napi_key = "{SECRET}"\n', tmp_path)
    assert "api_key" in message and "OPENAI_API_KEY" in message
    assert SECRET not in message


def test_bad_env_value_names_the_env_var_and_hides_key(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as info:
        load_settings(env={"OPENAI_BASE_URL": "ftp://nope", "OPENAI_API_KEY": SECRET})
    assert "OPENAI_BASE_URL" in str(info.value) and SECRET not in str(info.value)


def test_missing_named_config_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not found"):
        load_settings(tmp_path / "nope.toml", env={})
    with pytest.raises(ConfigError, match="STORYTABLE_CONFIG"):
        load_settings(env={"STORYTABLE_CONFIG": str(tmp_path / "nope.toml")})


def test_api_key_never_in_public_dict_repr_or_dumps() -> None:
    s = load_settings(env={"OPENAI_API_KEY": SECRET})
    public = s.public_dict()
    assert "api_key" not in public and public["api_key_set"] is True
    for text in (str(public), repr(s), str(s), s.model_dump_json(), str(s.model_dump())):
        assert SECRET not in text
    assert load_settings(env={}).public_dict()["api_key_set"] is False


def test_make_chat_model_requires_configuration() -> None:
    with pytest.raises(ConfigError, match="no LLM configured"):
        make_chat_model(LLMSettings())


def test_make_chat_model_settings() -> None:
    model = make_chat_model(LLMSettings(base_url="http://127.0.0.1:9/v1", model="m", timeout_s=7, temperature=0.2))
    assert (model.max_retries, model.request_timeout, model.model_name, model.temperature) == (0, 7, "m", 0.2)
    assert model.openai_api_key.get_secret_value() == LOCAL_DUMMY_KEY
    assert SECRET not in repr(make_chat_model(LLMSettings(api_key=SECRET)))


def test_key_reaches_server_only_in_authorization_header(fake_openai: FakeOpenAIServer) -> None:  # noqa: F811
    settings = LLMSettings(base_url=fake_openai.base_url, api_key=SECRET, model="fake-model", timeout_s=5)
    decider = StructuredDecider(make_chat_model(settings))
    from fakeserver import Choice

    assert decider.ask([HumanMessage(content="Your move.")], Choice).parsed is not None
    # GET /models (which server is it?) and the chat request
    assert [r.authorization for r in fake_openai.requests] == [f"Bearer {SECRET}"] * 2
    assert SECRET not in fake_openai.saved_data()


def test_local_server_gets_dummy_key(fake_openai: FakeOpenAIServer) -> None:  # noqa: F811
    settings = LLMSettings(base_url=fake_openai.base_url, model="fake-model", timeout_s=5)
    from fakeserver import Choice

    StructuredDecider(make_chat_model(settings)).ask([HumanMessage(content="Your move.")], Choice)
    assert fake_openai.requests[0].authorization == f"Bearer {LOCAL_DUMMY_KEY}"

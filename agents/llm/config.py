"""LLM settings: env vars, an optional `storytable.toml`, per-seat overrides.

Why a module of its own: settings are read by the CLI, the app and the eval
harness, and every one of them must (a) never print the API key and (b) turn
bad config into one readable line instead of a traceback.

Precedence (highest first): environment (`OPENAI_API_KEY`, `OPENAI_BASE_URL`,
`STORYTABLE_MODEL`), then the TOML file's `[llm]` table, then defaults. The API
key is deliberately *not* accepted from the TOML file: that file sits in the
working tree and tends to get committed.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, field_validator

__all__ = [
    "CONFIG_ENV",
    "ConfigError",
    "DEFAULT_CONFIG_NAME",
    "LLMSettings",
    "SeatSettings",
    "ServerSetting",
    "StructuredMethod",
    "is_configured",
    "load_settings",
]

# "auto": the method the server family enforces (see servers.py); the others force one.
StructuredMethod = Literal["auto", "json_schema", "function_calling", "json_object_schema", "json_mode"]
ServerSetting = Literal["auto", "openai", "llama-cpp-python", "llama.cpp", "ollama", "vllm", "generic"]
SeatKind = Literal["llm", "heuristic"]

DEFAULT_CONFIG_NAME = "storytable.toml"
CONFIG_ENV = "STORYTABLE_CONFIG"
ENV_API_KEY = "OPENAI_API_KEY"
ENV_BASE_URL = "OPENAI_BASE_URL"
ENV_MODEL = "STORYTABLE_MODEL"


class ConfigError(Exception):
    """Bad configuration; the message is one line naming the file and the key."""


class SeatSettings(BaseModel):
    """Per-seat choices from `[seats.<name>]`."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: SeatKind = "llm"
    model: str | None = None
    persona: str | None = None


class LLMSettings(BaseModel):
    """How to reach a chat model. `api_key` is a SecretStr: masked in repr/dumps."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    api_key: SecretStr | None = None
    base_url: str | None = None
    model: str = "gpt-4o-mini"
    temperature: float | None = Field(default=None, ge=0.0, le=2.0)
    timeout_s: float = Field(default=30.0, gt=0.0)
    # the most one AI decision may cost, all attempts together: a dead endpoint costs seconds.
    # counted from the start of the seat's decision. 22 s: a small local model on 2 busy cores
    # needs 15-25 s for a turn (issue 27), and the heuristic's fallback after a missed deadline
    # took up to 6 s more at load 18, inside the 30 s ceiling for one decision
    decision_deadline_s: float = Field(default=22.0, gt=0.0)
    max_refusals: int = Field(default=2, ge=0)
    structured_method: StructuredMethod = "auto"
    server: ServerSetting = "auto"
    # scales every decision kind's token budget (a wordy model may need 1.5)
    max_tokens_scale: float = Field(default=1.0, gt=0.0, le=10.0)
    seats: dict[str, SeatSettings] = Field(default_factory=dict)

    @field_validator("base_url")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        if value is None or value.strip() == "":
            return None
        value = value.strip().rstrip("/")
        if not value.startswith(("http://", "https://")):
            raise ValueError("must start with http:// or https://")
        return value

    def public_dict(self) -> dict[str, Any]:
        """Everything safe to log or save: no api_key, only whether one is set."""
        data = self.model_dump(mode="json", exclude={"api_key"})
        data["api_key_set"] = bool(self.api_key and self.api_key.get_secret_value())
        return data

    def seat(self, name: str) -> SeatSettings:
        """The seat's settings; an unlisted seat gets the defaults."""
        return self.seats.get(name, SeatSettings())

    def for_seat(self, name: str) -> "LLMSettings":
        """These settings with the seat's model override applied."""
        seat = self.seat(name)
        return self.model_copy(update={"model": seat.model}) if seat.model else self


def is_configured(settings: LLMSettings) -> bool:
    """True when there is somewhere to send requests: a base_url or an API key."""
    has_key = settings.api_key is not None and bool(settings.api_key.get_secret_value())
    return bool(settings.base_url) or has_key


def load_settings(
    config_path: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] = os.environ,
) -> LLMSettings:
    """Build settings from defaults < TOML `[llm]`/`[seats]` < environment.

    The file is `config_path`, else `$STORYTABLE_CONFIG`, else `./storytable.toml`
    if present. An explicitly named file that is missing is an error.
    """
    path = _config_path(config_path, env)
    llm_table: dict[str, Any] = {}
    seats_table: dict[str, Any] = {}
    if path is not None:
        data = _read_toml(path)
        llm_table = _table(data, "llm", path)
        seats_table = _table(data, "seats", path)
        if "api_key" in llm_table:
            raise ConfigError(
                f"{path}: [llm] api_key: not read from the config file; set {ENV_API_KEY} instead"
            )
        for name, seat in seats_table.items():
            if not isinstance(seat, dict):
                raise ConfigError(f"{path}: [seats] {name}: expected a table like [seats.{name}]")

    values: dict[str, Any] = dict(llm_table)
    values["seats"] = seats_table
    for env_name, field in ((ENV_API_KEY, "api_key"), (ENV_BASE_URL, "base_url"), (ENV_MODEL, "model")):
        if env.get(env_name, "").strip():
            values[field] = env[env_name].strip()
    try:
        return LLMSettings.model_validate(values)
    except ValidationError as exc:
        raise ConfigError(_describe(exc, path, env)) from None


def _config_path(explicit: str | os.PathLike[str] | None, env: Mapping[str, str]) -> Path | None:
    if explicit is not None:
        path, origin = Path(explicit), "config file"
    elif env.get(CONFIG_ENV, "").strip():
        path, origin = Path(env[CONFIG_ENV].strip()), f"${CONFIG_ENV}"
    else:
        default = Path.cwd() / DEFAULT_CONFIG_NAME
        return default if default.is_file() else None
    if not path.is_file():
        raise ConfigError(f"{path}: {origin} not found")
    return path


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {_one_line(str(exc))}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read: {_one_line(str(exc))}") from None


def _table(data: dict[str, Any], key: str, path: Path) -> dict[str, Any]:
    table = data.get(key, {})
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: {key}: expected a table [{key}], got {type(table).__name__}")
    return table


def _describe(exc: ValidationError, path: Path | None, env: Mapping[str, str]) -> str:
    """One line: where the bad value came from, which key, what is wrong."""
    error = exc.errors()[0]
    loc = [str(part) for part in error["loc"]]
    env_for = {"api_key": ENV_API_KEY, "base_url": ENV_BASE_URL, "model": ENV_MODEL}
    field = loc[0] if loc else "?"
    if field in env_for and env.get(env_for[field], "").strip():
        where = f"env {env_for[field]}"
    elif field == "seats" and len(loc) >= 3:
        where = f"{path}: [seats.{loc[1]}] {'.'.join(loc[2:])}"
    else:
        where = f"{path}: [llm] {'.'.join(loc)}"
    message = error["msg"]
    if error["type"] == "extra_forbidden":
        message = "unknown key"
    elif error["type"] not in ("missing",) and "input" in error and field != "api_key":
        message = f"{message} (got {error['input']!r})"
    return _one_line(f"{where}: {message}")


def _one_line(text: str) -> str:
    return " ".join(text.split())

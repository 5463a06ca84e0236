"""What each OpenAI-compatible server family accepts, and which one is at the other end.

Why: "OpenAI-compatible" servers differ exactly where structured output lives, and a request
that one accepts another refuses or silently ignores (read from each server's own code/docs):

- OpenAI: strict `json_schema` response formats and strict forced functions are enforced;
  reasoning models (o-series, gpt-5) refuse `max_tokens` (they want `max_completion_tokens`)
  and any temperature but 1.
- llama-cpp-python (`python -m llama_cpp.server`): `response_format.type` must be "text" or
  "json_object" (a "json_schema" type is answered with HTTP 500); `{"type": "json_object",
  "schema": {...}}` and a tool_choice naming a function are both turned into a grammar.
  It knows `max_tokens` only (an unknown `max_completion_tokens` is dropped: no limit at all),
  and an assistant message without string content fails its request model (HTTP 500).
  `/v1/models` says `owned_by: "me"`.
- llama.cpp `llama-server`: `json_schema` and `json_object` + `schema` become a grammar; tools
  need `--jinja`; a named tool_choice object is read as "auto", so a function is forced with
  `tool_choice: "required"` and a single tool. `owned_by: "llamacpp"`.
- Ollama (`/v1`): `response_format` json_schema becomes its native `format` (enforced);
  `tool_choice` is not read at all (so a function cannot be forced); `max_tokens` becomes
  `num_predict`, `max_completion_tokens` is ignored. `owned_by` is the namespace, "library".
- vLLM: `json_schema` and a named tool_choice are enforced by guided decoding; `owned_by: "vllm"`.
"""

from __future__ import annotations

import json
import logging
import re
import threading
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any, Literal

__all__ = [
    "METHODS",
    "Method",
    "PROFILES",
    "ServerName",
    "ServerProfile",
    "detect_server",
    "is_reasoning_model",
    "profile_for",
]

log = logging.getLogger(__name__)

ServerName = Literal["openai", "llama-cpp-python", "llama.cpp", "ollama", "vllm", "generic"]
# json_object_schema: {"type": "json_object", "schema": ...} (llama-cpp-python, llama.cpp)
Method = Literal["json_schema", "function_calling", "json_object_schema", "json_mode"]
METHODS: tuple[Method, ...] = ("json_schema", "function_calling", "json_object_schema", "json_mode")
ToolChoiceStyle = Literal["named", "required", "unsupported"]


@dataclass(frozen=True)
class ServerProfile:
    """How to ask one server family for structured output it will enforce."""

    name: ServerName
    methods: tuple[Method, ...]  # enforced methods first, in order of preference
    token_param: Literal["max_tokens", "max_completion_tokens"]
    tool_choice: ToolChoiceStyle
    strict: bool  # send `strict: true` (OpenAI's enforced subset)
    label: str


PROFILES: dict[str, ServerProfile] = {
    "openai": ServerProfile("openai", ("json_schema", "function_calling", "json_mode"),
                            "max_completion_tokens", "named", True, "OpenAI"),
    "llama-cpp-python": ServerProfile("llama-cpp-python", ("json_object_schema", "function_calling", "json_mode"),
                                      "max_tokens", "named", False, "llama-cpp-python server"),
    "llama.cpp": ServerProfile("llama.cpp", ("json_schema", "json_object_schema", "function_calling", "json_mode"),
                               "max_tokens", "required", False, "llama.cpp llama-server"),
    "ollama": ServerProfile("ollama", ("json_schema", "json_mode"), "max_tokens", "unsupported", False, "Ollama"),
    "vllm": ServerProfile("vllm", ("json_schema", "function_calling", "json_mode"), "max_tokens", "named", False,
                          "vLLM"),
    "generic": ServerProfile("generic", ("function_calling", "json_schema", "json_object_schema", "json_mode"),
                             "max_tokens", "named", False, "an OpenAI-compatible server"),
}

# Methods the server enforces (json_mode only promises some JSON, the schema rides in the prompt).
ENFORCED: frozenset[str] = frozenset({"json_schema", "function_calling", "json_object_schema"})

_REASONING = re.compile(r"^(o\d|gpt-5(?!-chat))", re.IGNORECASE)


def is_reasoning_model(model: str) -> bool:
    """o-series and gpt-5 models (not gpt-5-chat): no temperature but 1, no `max_tokens`."""
    return bool(_REASONING.match(model.split("/")[-1]))


def profile_for(name: str) -> ServerProfile:
    return PROFILES.get(name, PROFILES["generic"])


def is_official_openai(base_url: str | None) -> bool:
    if not base_url:
        return True
    host = urllib.parse.urlsplit(base_url).hostname or ""
    return host == "api.openai.com" or host.endswith(".openai.com")


def server_from_models(payload: Any, base_url: str | None = None) -> ServerName:
    """The family a `/v1/models` answer (and the port) points to; "generic" when unsure."""
    owners: set[str] = set()
    data = payload.get("data") if isinstance(payload, dict) else None
    if isinstance(data, list):
        owners = {str(m.get("owned_by", "")).lower() for m in data if isinstance(m, dict)}
    if "me" in owners:
        return "llama-cpp-python"
    if "llamacpp" in owners:
        return "llama.cpp"
    if "vllm" in owners:
        return "vllm"
    if owners & {"openai", "system", "openai-internal"} and is_official_openai(base_url):
        return "openai"
    port = urllib.parse.urlsplit(base_url or "").port
    if "library" in owners or port == 11434:
        return "ollama"
    return "generic"


_cache: dict[str, ServerName] = {}
_cache_lock = threading.Lock()


def detect_server(base_url: str | None, api_key: str = "", timeout_s: float = 3.0,
                  refresh: bool = False) -> ServerName:
    """The server family at `base_url`, asked once per process (GET /models); "generic" if unknown.

    A failed probe is not cached, so a server started later is still recognised.
    """
    if is_official_openai(base_url):
        return "openai"
    assert base_url is not None
    with _cache_lock:
        if not refresh and base_url in _cache:
            return _cache[base_url]
    try:
        payload = fetch_models(base_url, api_key, timeout_s)
    except Exception as exc:  # noqa: BLE001 - detection is a hint; requests report real errors
        log.info("could not ask %s which server it is: %s", _where(base_url), type(exc).__name__)
        return "generic"
    found = server_from_models(payload, base_url)
    with _cache_lock:
        _cache[base_url] = found
    return found


def fetch_models(base_url: str, api_key: str = "", timeout_s: float = 3.0) -> Any:
    """GET {base_url}/models as JSON; raises urllib errors as they come."""
    request = urllib.request.Request(base_url.rstrip("/") + "/models",
                                     headers={"Authorization": f"Bearer {api_key or 'not-needed'}"})
    with urllib.request.urlopen(request, timeout=timeout_s) as response:  # noqa: S310 - http(s) only
        return json.loads(response.read().decode("utf-8", "replace"))


def _where(base_url: str) -> str:
    parts = urllib.parse.urlsplit(base_url)
    return f"{parts.hostname}:{parts.port}" if parts.port else str(parts.hostname)

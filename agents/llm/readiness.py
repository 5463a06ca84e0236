"""Is the configured endpoint ready for LLM seats? One small structured request says.

Why: a misconfigured endpoint used to fail every AI decision silently (the heuristic played
on). `check(settings)` asks the server which family it is, sends one tiny structured request
per structured-output method worth knowing about, and explains the first problem in one line
(the endpoint's own message, never the key). The `storytable check-endpoint` command prints
it; the app's setup page shows `.message` when a seat is set to LLM.
"""

from __future__ import annotations

import socket
import urllib.error
import urllib.parse
from dataclasses import dataclass, field
from typing import Literal

from langchain_core.messages import HumanMessage, SystemMessage
from pydantic import BaseModel, Field

from .config import LLMSettings, is_configured
from .decider import Attempt, make_decider, redact
from .servers import ENFORCED, Method, fetch_models, is_official_openai, profile_for, server_from_models

__all__ = ["Probe", "Readiness", "check"]

PROBE_TOKENS = 60
SCHEMA_METHODS = {"json_schema", "json_object_schema"}
# servers that answer with their loaded model whatever name is asked
SINGLE_MODEL = {"llama-cpp-python", "llama.cpp"}


class ReadyCheck(BaseModel):
    """Say that you are ready to play."""

    answer: Literal["ready"] = Field(description='the word "ready"')


PROMPT = [SystemMessage(content="You are checking that a game can talk to you. Answer in JSON."),
          HumanMessage(content='Answer with the word "ready" in the `answer` field.')]


@dataclass(frozen=True)
class Probe:
    """One structured request with one method: did it come back right, how fast, or why not."""

    method: str
    ok: bool
    latency_s: float
    error: str | None = None


@dataclass(frozen=True)
class Readiness:
    """The verdict: `ready`, and `message`, one line a player can act on."""

    ready: bool
    message: str
    model: str = ""
    server: str = ""
    address: str = ""
    method: str | None = None
    tool_calling: bool | None = None
    json_schema: bool | None = None
    latency_s: float | None = None
    probes: list[Probe] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        """A short report for the terminal, ending with the verdict."""
        def said(flag: bool | None, probe_methods: tuple[str, ...]) -> str:
            if flag is None:
                return "not tried"
            if flag:
                return "works"
            errors = [p.error for p in self.probes if p.method in probe_methods and p.error]
            return f"does not work ({errors[0]})" if errors else "does not work"
        out = [f"endpoint:      {self.address or '(none)'}", f"model:         {self.model or '(none)'}",
               f"server:        {self.server or 'unknown'}"]
        if self.probes:
            out += [f"tool calling:  {said(self.tool_calling, ('function_calling',))}",
                    f"JSON schema:   {said(self.json_schema, ('json_schema', 'json_object_schema'))}",
                    f"latency:       {self.latency_s:.2f} s" if self.latency_s is not None else "latency:       -",
                    f"method used:   {self.method or 'none works'}"]
        out += [f"note:          {n}" for n in self.notes]
        out.append(("ready: " if self.ready else "not ready: ") + self.message)
        return out


def check(settings: LLMSettings, timeout_s: float = 20.0) -> Readiness:
    """Probe the configured endpoint; never raises for endpoint trouble."""
    address = _address(settings.base_url)
    if not is_configured(settings):
        return Readiness(False, "no model endpoint is configured: set OPENAI_BASE_URL (a local server such as "
                                "Ollama or llama.cpp) or OPENAI_API_KEY (OpenAI), or [llm] base_url in storytable.toml",
                         settings.model, address=address)
    key = settings.api_key.get_secret_value() if settings.api_key else ""
    notes: list[str] = []
    family = settings.server
    if not is_official_openai(settings.base_url):
        assert settings.base_url is not None
        listed, problem = _models(settings.base_url, key, min(timeout_s, 10.0))
        if problem is not None:
            return Readiness(False, redact(problem, (key,)), settings.model, address=address)
        if listed is not None:
            ids = [str(m.get("id")) for m in listed.get("data", []) if isinstance(m, dict)]
            if family == "auto":
                family = server_from_models(listed, settings.base_url)
            if ids and settings.model not in ids and family not in SINGLE_MODEL:
                names = [_short(i) for i in ids]
                shown = ", ".join(names[:5]) + (", ..." if len(ids) > 5 else "")
                notes.append(f"the server does not list the model '{settings.model}' (it lists: {shown})")
    if family == "auto":
        family = "openai" if is_official_openai(settings.base_url) else "generic"
    profile = profile_for(family)
    probes = _probe(settings, family, timeout_s)
    return _verdict(settings, profile.label, address, probes, notes)


def _probe(settings: LLMSettings, family: str, timeout_s: float) -> list[Probe]:
    """One request per method worth knowing about: the configured one, or the family's in order.

    Stops at the first that works once both tool calling and a JSON-schema method are known,
    and at once on a wrong key or model (no method can help).
    """
    profile = profile_for(family)
    if settings.structured_method != "auto":
        wanted: list[Method] = [settings.structured_method]  # type: ignore[list-item]
    else:
        wanted = [m for m in profile.methods if m in ENFORCED]
        if profile.tool_choice != "unsupported" and "function_calling" not in wanted:
            wanted.append("function_calling")
    probes: list[Probe] = []
    for method in wanted:
        if method in SCHEMA_METHODS and any(p.ok and p.method in SCHEMA_METHODS for p in probes):
            continue  # one JSON-schema method that works is enough to know
        decider = make_decider(settings.model_copy(update={"structured_method": method, "server": family}))
        attempt: Attempt = decider.ask(PROMPT, ReadyCheck, max_tokens=PROBE_TOKENS, timeout_s=timeout_s)
        probes.append(Probe(method, attempt.parsed is not None, attempt.latency_s, attempt.error))
        if attempt.status in (401, 403, 404) or (attempt.error_kind == "transport" and attempt.status is None):
            break  # the key, the model, the address or the connection: every method would fail alike
        tried = {p.method for p in probes}
        know_tools = "function_calling" in tried or "function_calling" not in wanted
        know_schema = bool(tried & SCHEMA_METHODS) or not (set(wanted) & SCHEMA_METHODS)
        if any(p.ok for p in probes) and know_tools and know_schema:
            break
    return probes


def _verdict(settings: LLMSettings, label: str, address: str, probes: list[Probe], notes: list[str]) -> Readiness:
    def flag(methods: tuple[str, ...]) -> bool | None:
        tried = [p for p in probes if p.method in methods]
        return any(p.ok for p in tried) if tried else None

    working = [p for p in probes if p.ok]
    key = settings.api_key.get_secret_value() if settings.api_key else ""
    common = {"model": settings.model, "server": label, "address": address, "probes": probes, "notes": notes,
              "tool_calling": flag(("function_calling",)), "json_schema": flag(("json_schema", "json_object_schema"))}
    if working:
        best = working[0]
        how = {"json_schema": "JSON schema enforced by the server", "function_calling": "a forced function call",
               "json_object_schema": "a JSON object with its schema enforced by the server",
               "json_mode": "JSON mode (schema in the prompt only)"}[best.method]
        return Readiness(True, f"{settings.model} on {label} answers by {how} in {best.latency_s:.1f} s",
                         method=best.method, latency_s=best.latency_s, **common)
    first = probes[0] if probes else None
    reason = redact(first.error or "no answer", (key,)) if first else "nothing was tried"
    if first is not None and settings.structured_method != "auto" and _method_fault(first.error or ""):
        reason = (f"the endpoint refuses structured output by {first.method}: {reason}; "
                  f'set [llm] structured_method = "auto" to use what this server supports')
    return Readiness(False, reason, latency_s=first.latency_s if first else None, **common)


def _method_fault(error: str) -> bool:
    return any(w in error.lower() for w in ("response_format", "json_schema", "tool", "jinja", "grammar", "schema"))


def _models(base_url: str, key: str, timeout_s: float) -> tuple[dict | None, str | None]:
    """(GET /models answer or None, a one-line problem that makes the endpoint unusable or None)."""
    parts = urllib.parse.urlsplit(base_url)
    where = f"{parts.hostname}:{parts.port}" if parts.port else str(parts.hostname)
    try:
        payload = fetch_models(base_url, key, timeout_s)
    except urllib.error.HTTPError as exc:
        if exc.code == 401:
            return None, "the endpoint refuses the API key (HTTP 401): check OPENAI_API_KEY"
        if exc.code == 404:
            return None, None  # some servers have no /models: the chat request will tell
        return None, None
    except urllib.error.URLError as exc:
        reason = exc.reason
        if isinstance(reason, ConnectionRefusedError):
            return None, f"the endpoint is unreachable: nothing answers at {where} (is the server running?)"
        if isinstance(reason, (socket.timeout, TimeoutError)):
            return None, f"the endpoint at {where} did not answer within {timeout_s:g} s"
        if isinstance(reason, socket.gaierror):
            return None, f"the endpoint's host is unknown: {urllib.parse.urlsplit(base_url).hostname}"
        return None, f"the endpoint at {where} is unreachable ({reason})"
    except (socket.timeout, TimeoutError):
        return None, f"the endpoint at {where} did not answer within {timeout_s:g} s"
    except ValueError:
        return None, None  # not JSON: let the chat request tell
    return (payload if isinstance(payload, dict) else None), None


def _short(model_id: str) -> str:
    """A model id as shown: a file path (llama-cpp-python lists its model file) by its name only."""
    return model_id.replace("\\", "/").rsplit("/", 1)[-1] if "/" in model_id or "\\" in model_id else model_id


def _address(base_url: str | None) -> str:
    """Scheme, host, port and path of the endpoint (no credentials that a URL might carry)."""
    if not base_url:
        return "https://api.openai.com/v1 (OpenAI)"
    parts = urllib.parse.urlsplit(base_url)
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{host}{port}{parts.path}"




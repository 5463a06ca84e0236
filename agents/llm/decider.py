"""One structured question to a chat model, never raising for model trouble.

Why: LangChain's structured output fails in different ways per method and
server. `json_schema` raises (the OpenAI SDK parses the reply itself),
`function_calling` returns `parsed=None` silently when the model answers in
prose, `json_mode` reports a parsing error, and the transport can time out or
return HTTP errors. (For ChatOpenAI in json_schema mode we pass a strict schema
dict, so the SDK does not parse and prose arrives as a parsing error; the
raising path is still handled for other models and older versions.) `StructuredDecider.ask` folds all of that into one
`Attempt` value, salvaging a JSON object from the raw text as a last resort.
"""

from __future__ import annotations

import json
import logging
import re
import time
from dataclasses import dataclass, field
from typing import Any, Literal

import httpx
import openai
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, SystemMessage
from langchain_core.runnables import Runnable
from pydantic import BaseModel, ValidationError

from .config import ConfigError, LLMSettings, StructuredMethod, is_configured
from .schema import response_format_for

try:  # openai>=3 is backed by httpx2; older SDKs by httpx
    import httpx2
except ImportError:  # pragma: no cover - depends on the installed SDK
    httpx2 = None  # type: ignore[assignment]

__all__ = [
    "Attempt",
    "ErrorKind",
    "OPENAI_BASE_URL",
    "StructuredDecider",
    "extract_json_object",
    "make_chat_model",
]

log = logging.getLogger(__name__)

OPENAI_BASE_URL = "https://api.openai.com/v1"
LOCAL_DUMMY_KEY = "not-needed"
ErrorKind = Literal["transport", "output"]
# HTTP statuses where asking again with the same request cannot help.
_NOT_RETRYABLE = {400, 401, 403, 404, 422}


@dataclass(frozen=True)
class Attempt:
    """What one call produced: a parsed object or an error, plus accounting.

    `answer` is the model's message (for the retry transcript), `error_kind`
    says whether the model spoke at all ("output") or the call failed
    ("transport"), and `retryable` is False when asking again is pointless.
    """

    parsed: BaseModel | None
    error: str | None
    raw_text: str = ""
    tokens_in: int = 0
    tokens_out: int = 0
    latency_s: float = 0.0
    answer: AIMessage | None = field(default=None, repr=False, compare=False)
    error_kind: ErrorKind | None = None
    retryable: bool = True


class StructuredDecider:
    """Asks a chat model for an instance of a pydantic schema."""

    def __init__(self, chat_model: BaseChatModel, method: StructuredMethod = "function_calling",
                 secrets: tuple[str, ...] = ()) -> None:
        self.chat_model = chat_model
        self.method: StructuredMethod = method
        self._secrets = tuple(x for x in secrets if x and len(x) >= 4)
        self._runnables: dict[type[BaseModel], Runnable[Any, Any]] = {}

    def _runnable(self, schema: type[BaseModel]) -> Runnable[Any, Any]:
        """The structured-output runnable, cached per schema.

        For OpenAI models in json_schema mode we send our own strict schema
        (see schema.py: discriminated unions would be refused) and validate
        the returned dict ourselves in `ask`.
        """
        if schema not in self._runnables:
            target: Any = schema
            if self.method == "json_schema" and _is_openai_chat(self.chat_model):
                target = response_format_for(schema)
            self._runnables[schema] = self.chat_model.with_structured_output(
                target, method=self.method, include_raw=True
            )
        return self._runnables[schema]

    def ask(self, messages: list[BaseMessage], schema: type[BaseModel]) -> Attempt:
        """One call; never raises for transport or model-output problems."""
        prompt = self._with_format_hint(messages, schema)
        start = time.perf_counter()
        try:
            result = self._runnable(schema).invoke(prompt)
        except Exception as exc:  # noqa: BLE001 - a misbehaving model must not stop a game
            return self._from_exception(exc, schema, time.perf_counter() - start)
        latency = time.perf_counter() - start
        raw = result.get("raw") if isinstance(result, dict) else None
        raw_msg = raw if isinstance(raw, AIMessage) else None
        tokens_in, tokens_out = _usage(raw_msg)
        raw_text = _raw_text(raw_msg)
        parsed = result.get("parsed") if isinstance(result, dict) else None
        if isinstance(parsed, schema):
            return Attempt(parsed, None, raw_text, tokens_in, tokens_out, latency, raw_msg)
        salvaged, error = _salvage(raw_msg, raw_text, schema)
        if salvaged is not None:
            return Attempt(salvaged, None, raw_text, tokens_in, tokens_out, latency, raw_msg)
        return Attempt(None, error, raw_text, tokens_in, tokens_out, latency, raw_msg, "output")

    def _with_format_hint(self, messages: list[BaseMessage], schema: type[BaseModel]) -> list[BaseMessage]:
        """json_mode sends no schema to the server, so the prompt must carry it.

        (OpenAI also rejects json_object requests whose prompt never says "JSON".)
        The hint joins the first system message, because several local chat
        templates refuse a system message anywhere but first.
        """
        if self.method != "json_mode":
            return list(messages)
        hint = (
            "Reply with only a JSON object, no prose, that validates against this JSON schema:\n"
            + json.dumps(schema.model_json_schema())
        )
        out = list(messages)
        if out and isinstance(out[0], SystemMessage) and isinstance(out[0].content, str):
            out[0] = SystemMessage(content=f"{out[0].content}\n\n{hint}")
        else:
            out.insert(0, SystemMessage(content=hint))
        return out

    def _from_exception(self, exc: Exception, schema: type[BaseModel], latency: float) -> Attempt:
        transport = _transport_error(exc)
        if transport is not None:
            reason, retryable = transport
            reason = redact(reason, self._secrets)
            log.info("LLM transport failure: %s", reason)
            return Attempt(None, reason, "", 0, 0, latency, None, "transport", retryable)
        # json_schema: the SDK parsed the reply and raised; LangChain attaches
        # the HTTP response, from which we recover the text and the usage.
        raw_text, tokens_in, tokens_out = _from_response(getattr(exc, "response", None))
        answer = AIMessage(content=raw_text) if raw_text else None
        if raw_text:
            salvaged, error = _salvage(None, raw_text, schema)
            if salvaged is not None:
                return Attempt(salvaged, None, raw_text, tokens_in, tokens_out, latency, answer)
            return Attempt(None, error, raw_text, tokens_in, tokens_out, latency, answer, "output")
        log.warning("LLM call failed unexpectedly", exc_info=exc)
        return Attempt(None, f"model error: {type(exc).__name__}: {_one_line(str(exc))[:200]}",
                       "", tokens_in, tokens_out, latency, None, "output")


_KEY_LIKE = re.compile(r"\b(sk-|Bearer\s+)([A-Za-z0-9_\-]{2})[A-Za-z0-9_\-*]{6,}")


def redact(text: str, secrets: tuple[str, ...] = ()) -> str:
    """Mask API keys a server echoed in an error (OpenAI does: 'Incorrect API key provided: ...').

    Error messages end up in the game log as fallback reasons, and the key must never be there.
    """
    for secret in secrets:
        if secret and len(secret) >= 4:
            text = text.replace(secret, "***")
    return _KEY_LIKE.sub(lambda m: f"{m.group(1)}{m.group(2)}***", text)


def _is_openai_chat(model: BaseChatModel) -> bool:
    try:
        from langchain_openai.chat_models.base import BaseChatOpenAI
    except ImportError:  # pragma: no cover - langchain-openai is a dependency
        return False
    return isinstance(model, BaseChatOpenAI)


def make_chat_model(settings: LLMSettings) -> BaseChatModel:
    """A ChatOpenAI for OpenAI or any OpenAI-compatible server, without SDK retries.

    Local servers (Ollama, llama.cpp, vLLM) need some key string, so a dummy
    one is sent when only a base_url is set. Without a base_url the official
    endpoint is pinned, so the key cannot be redirected by stray env vars.
    """
    from langchain_openai import ChatOpenAI

    if not is_configured(settings):
        raise ConfigError("no LLM configured: set OPENAI_API_KEY or OPENAI_BASE_URL (or [llm] base_url)")
    key = settings.api_key.get_secret_value() if settings.api_key else ""
    kwargs: dict[str, Any] = {
        "model": settings.model,
        "base_url": settings.base_url or OPENAI_BASE_URL,
        "api_key": key or LOCAL_DUMMY_KEY,
        "timeout": settings.timeout_s,
        "max_retries": 0,
    }
    if settings.temperature is not None:
        kwargs["temperature"] = settings.temperature
    if settings.base_url:
        kwargs["use_responses_api"] = False  # compatible servers speak Chat Completions only
    return ChatOpenAI(**kwargs)


# ----------------------------------------------------------------- error mapping


def _transport_error(exc: BaseException) -> tuple[str, bool] | None:
    """(reason, retryable) when the call itself failed; None otherwise."""
    timeouts: tuple[type[BaseException], ...] = (openai.APITimeoutError, httpx.TimeoutException, TimeoutError)
    connects: tuple[type[BaseException], ...] = (openai.APIConnectionError, httpx.TransportError, ConnectionError)
    if httpx2 is not None:
        timeouts += (httpx2.TimeoutException,)
        connects += (httpx2.TransportError,)
    if isinstance(exc, timeouts):
        return "transport: timeout", True
    if isinstance(exc, openai.APIStatusError):
        message = _status_message(exc)
        return f"transport: HTTP {exc.status_code}: {message}", exc.status_code not in _NOT_RETRYABLE
    if isinstance(exc, connects):
        chain = _chain(exc)
        if any(isinstance(e, ConnectionRefusedError) for e in chain):
            return "transport: connection refused", True
        detail = _one_line(str(chain[-1]))[:160]
        return f"transport: connection error: {detail}", True
    if isinstance(exc, openai.APIResponseValidationError):
        return "transport: malformed response from server", True
    http_errors: tuple[type[BaseException], ...] = (httpx.HTTPError,)
    if httpx2 is not None:
        http_errors += (httpx2.HTTPError,)
    if isinstance(exc, http_errors):
        return f"transport: {type(exc).__name__}: {_one_line(str(exc))[:160]}", True
    return None


def _chain(exc: BaseException) -> list[BaseException]:
    """The exception and its causes, outermost first (LangChain and the SDK each wrap)."""
    chain: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in chain and len(chain) < 10:
        chain.append(current)
        current = current.__cause__ or current.__context__
    return chain


def _status_message(exc: openai.APIStatusError) -> str:
    body = exc.body
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and isinstance(inner.get("message"), str):
            return _one_line(inner["message"])[:200]
        if isinstance(body.get("message"), str):
            return _one_line(body["message"])[:200]
    return _one_line(exc.message)[:200]


# ---------------------------------------------------------------- raw output


def _usage(message: AIMessage | None) -> tuple[int, int]:
    usage = getattr(message, "usage_metadata", None) or {}
    return int(usage.get("input_tokens", 0) or 0), int(usage.get("output_tokens", 0) or 0)


def _raw_text(message: AIMessage | None) -> str:
    """The model's words: tool-call arguments if it called a tool, else its text."""
    if message is None:
        return ""
    if message.tool_calls:
        return json.dumps(message.tool_calls[0]["args"])
    if message.invalid_tool_calls:
        return str(message.invalid_tool_calls[0].get("args") or "")
    return message.text


def _from_response(response: Any) -> tuple[str, int, int]:
    """Text and usage out of an attached httpx(2) response, if readable."""
    try:
        body = response.json()
        choice = body["choices"][0]["message"]
        usage = body.get("usage") or {}
        text = choice.get("content") or ""
        calls = choice.get("tool_calls") or []
        if not text and calls:
            text = calls[0]["function"]["arguments"]
        return str(text), int(usage.get("prompt_tokens", 0)), int(usage.get("completion_tokens", 0))
    except Exception:  # noqa: BLE001 - best effort only
        return "", 0, 0


def extract_json_object(text: str) -> dict[str, Any] | None:
    """The first JSON object embedded in text (prose, code fences and all)."""
    decoder = json.JSONDecoder()
    start = text.find("{")
    while start != -1:
        try:
            value, _ = decoder.raw_decode(text, start)
        except json.JSONDecodeError:
            start = text.find("{", start + 1)
            continue
        if isinstance(value, dict):
            return value
        start = text.find("{", start + 1)
    return None


def _salvage(message: AIMessage | None, raw_text: str, schema: type[BaseModel]) -> tuple[BaseModel | None, str]:
    """Last resort: validate any tool call's args, or a JSON object in the text.

    Also accepts the object unwrapped when the schema is a one-field wrapper,
    a common slip of small models. Returns (parsed, error-if-not).
    """
    candidates: list[dict[str, Any]] = []
    if message is not None:
        candidates.extend(call["args"] for call in message.tool_calls if isinstance(call.get("args"), dict))
    found = extract_json_object(raw_text)
    if found is not None:
        candidates.append(found)
    if not candidates:
        if "{" in raw_text:
            return None, f"invalid JSON: {_json_problem(raw_text)}"
        return None, "no structured output" + (": the model answered in prose" if raw_text.strip() else "")
    fields = [name for name, info in schema.model_fields.items() if info.is_required()]
    first_error: ValidationError | None = None
    for obj in candidates:
        variants = [obj]
        if len(fields) == 1 and fields[0] not in obj:
            variants.append({fields[0]: obj})
        for variant in variants:
            try:
                return schema.model_validate(variant), ""
            except ValidationError as exc:
                first_error = first_error or exc
    assert first_error is not None
    return None, f"invalid output: {_summarise(first_error)}"


def _json_problem(text: str) -> str:
    try:
        json.loads(text[text.find("{"):])
    except json.JSONDecodeError as exc:
        return exc.msg + f" at char {exc.pos}"
    return "not a JSON object"


def _summarise(exc: BaseException) -> str:
    """A short, model-readable account of why the output was not accepted."""
    if isinstance(exc, ValidationError):
        parts = []
        for err in exc.errors()[:3]:
            loc = ".".join(str(p) for p in err["loc"]) or "(root)"
            parts.append(f"{loc}: {err['msg']}")
        more = exc.error_count() - len(parts)
        return "; ".join(parts) + (f" (+{more} more)" if more > 0 else "")
    return _one_line(str(exc))[:300]


def _one_line(text: str) -> str:
    return " ".join(text.split())

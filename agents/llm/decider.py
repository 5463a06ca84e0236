"""One structured question to a chat model, as a request the server accepts and enforces.

Why: "OpenAI-compatible" servers enforce structured output in different ways and refuse each
other's ways (see servers.py). `StructuredDecider` builds the request itself, per server family
and method, instead of LangChain's `with_structured_output` (whose tool name comes from the
schema's title, which our lean schemas drop: an empty name OpenAI refuses): a fixed tool name,
`tool_choice` forcing it where the server reads it, a token limit in the parameter the server
knows, and the response format it enforces. The reply is read by us too: `finish_reason`
"length", a `refusal`, an empty choice list, prose, broken JSON and every transport error
become one `Attempt` value with a one-line reason; `ask` never raises for model trouble.

With method "auto" a request the server refuses *because of the method* (a response format
or tools it does not know) switches to the family's next method for the rest of the game.
"""

from __future__ import annotations

import json
import logging
import re
import time
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import httpx
import openai
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, SystemMessage
from pydantic import BaseModel, ValidationError

from .config import ConfigError, LLMSettings, is_configured
from .schema import bounded_ints_as_enums, strict_json_schema
from .servers import ENFORCED, Method, ServerProfile, detect_server, is_reasoning_model, profile_for

try:  # openai>=3 is backed by httpx2; older SDKs by httpx
    import httpx2
except ImportError:  # pragma: no cover - depends on the installed SDK
    httpx2 = None  # type: ignore[assignment]

__all__ = [
    "Attempt",
    "ErrorKind",
    "OPENAI_BASE_URL",
    "SCHEMA_NAME",
    "StructuredDecider",
    "TOOL_NAME",
    "extract_json_object",
    "make_chat_model",
    "make_decider",
    "redact",
    "request_chars",
]

log = logging.getLogger(__name__)

OPENAI_BASE_URL = "https://api.openai.com/v1"
LOCAL_DUMMY_KEY = "not-needed"
TOOL_NAME = "choose_action"  # ^[a-zA-Z0-9_-]{1,64}$, the same for every decision
SCHEMA_NAME = "choice"
DEFAULT_MAX_TOKENS = 400
ErrorKind = Literal["transport", "output"]
# HTTP statuses where asking again with the same request cannot help.
_NOT_RETRYABLE = {400, 401, 403, 404, 409, 413, 422}
# words in a server's refusal that blame the structured-output method, not the prompt
_METHOD_FAULT = re.compile(r"response_format|json_schema|json_object|tool|function|grammar|jinja|schema",
                           re.IGNORECASE)


@dataclass(frozen=True)
class Attempt:
    """What one call produced: a parsed object or an error, plus accounting.

    `answer` is the model's message, `error_kind` says whether the model spoke at all
    ("output") or the call failed ("transport"), `retryable` is False when asking again with
    the same request is pointless, `status` the HTTP status of a refused call, `retry_after`
    the seconds a 429 asked us to wait, `cut_off` that the answer hit the token limit.
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
    status: int | None = None
    retry_after: float | None = None
    cut_off: bool = False
    method: str = ""
    # characters of the request we sent (messages, and the schema when it travels in the request):
    # /4 it is the prompt a server's tokenizer sees, schemas included (issue 23's "total sent")
    sent_chars: int = 0


class StructuredDecider:
    """Asks a chat model for an instance of a pydantic schema, the way its server enforces."""

    def __init__(self, chat_model: BaseChatModel, method: str = "auto", secrets: tuple[str, ...] = (),
                 *, server: str = "auto", model: str | None = None) -> None:
        self.chat_model = chat_model
        self.requested_method = method
        self.requested_server = server
        self.model = model or str(getattr(chat_model, "model_name", "") or "")
        timeout = getattr(chat_model, "request_timeout", None)
        self.timeout_s: float | None = float(timeout) if isinstance(timeout, (int, float)) else None
        self._secrets = tuple(x for x in secrets if x and len(x) >= 4)
        self._profile: ServerProfile | None = None
        self._methods: list[Method] = []
        self._prose = 0  # prose answers in a row to a forced tool
        self.notes: list[str] = []  # method switches, for check-endpoint and the logs

    # -- which server, which method --------------------------------------------------------------
    @property
    def profile(self) -> ServerProfile:
        """The server family, detected once (GET /models) when the setting says "auto"."""
        if self._profile is None:
            name = self.requested_server
            if name == "auto":
                if _is_openai_chat(self.chat_model):
                    base = getattr(self.chat_model, "openai_api_base", None)
                    key = getattr(self.chat_model, "openai_api_key", None)
                    secret = key.get_secret_value() if key is not None and hasattr(key, "get_secret_value") else ""
                    name = detect_server(base, secret)
                else:  # a test double or another LangChain model: the most widely accepted shape
                    name = "generic"
            self._profile = profile_for(name)
        return self._profile

    @property
    def method(self) -> Method:
        """The structured-output method the next request uses."""
        if not self._methods:
            if self.requested_method in ("auto", "", None):
                self._methods = list(self.profile.methods)
            else:
                self._methods = [self.requested_method]  # type: ignore[list-item]
        return self._methods[0]

    @property
    def enforced(self) -> bool:
        """Whether the server, not only the prompt, holds the model to the schema."""
        return self.method in ENFORCED and not (self.method == "function_calling"
                                                 and self.profile.tool_choice == "unsupported")

    # -- one question ----------------------------------------------------------------------------
    def ask(self, messages: list[BaseMessage], schema: type[BaseModel], *, max_tokens: int | None = None,
            timeout_s: float | None = None) -> Attempt:
        """One call (two if the server refuses the method and "auto" has another); never raises.

        Every request carries a token limit: DEFAULT_MAX_TOKENS unless the caller says.
        """
        max_tokens = max_tokens or DEFAULT_MAX_TOKENS
        while True:
            method = self.method
            attempt = self._ask_once(method, messages, schema, max_tokens, timeout_s)
            if self._tool_not_forced(attempt):
                return attempt  # this answer stands; the next request uses the next method
            if not self._method_refused(attempt):
                return attempt
            dropped = self._methods.pop(0)
            note = f"the server refuses structured output by {dropped} ({attempt.error}); using {self.method}"
            self.notes.append(note)
            log.info("%s", note)

    def _tool_not_forced(self, attempt: Attempt) -> bool:
        """Prose twice in a row to a forced tool: this server does not force it; "auto" moves on.

        (A server that ignores `tool_choice`, as Ollama does, lets the model answer in prose.)
        """
        if attempt.method != "function_calling" or attempt.parsed is not None:
            self._prose = 0
            return False
        if not (attempt.error or "").startswith("no structured output"):
            return False
        self._prose += 1
        if self._prose < 2 or self.requested_method not in ("auto", "", None) or len(self._methods) < 2:
            return False
        self._methods.pop(0)
        self._prose = 0
        note = f"the server does not force the tool (the model answered in prose twice); using {self.method}"
        self.notes.append(note)
        log.info("%s", note)
        return True

    def _method_refused(self, attempt: Attempt) -> bool:
        """A refusal that blames the method, while "auto" has another one to try."""
        if self.requested_method not in ("auto", "", None) or len(self._methods) < 2:
            return False
        if attempt.error_kind != "transport" or attempt.status not in (400, 422, 500, 501):
            return False
        return bool(_METHOD_FAULT.search(attempt.error or ""))

    def _ask_once(self, method: Method, messages: list[BaseMessage], schema: type[BaseModel],
                  max_tokens: int | None, timeout_s: float | None) -> Attempt:
        prompt = self._with_format_hint(method, messages, schema)
        limits = [t for t in (timeout_s, self.timeout_s) if t]
        timeout_s = min(limits) if limits else None  # the deadline's rest, never past the setting
        start = time.perf_counter()
        sent = 0
        try:
            options = self.request_options(method, schema, max_tokens, timeout_s)
            sent = request_chars(prompt, options)
            result = self.chat_model.bind(**options).invoke(prompt)
        except Exception as exc:  # noqa: BLE001 - a misbehaving model must not stop a game
            failed = self._from_exception(exc, schema, time.perf_counter() - start, method, timeout_s)
            return replace(failed, sent_chars=sent)
        latency = time.perf_counter() - start
        message = result if isinstance(result, AIMessage) else None
        return replace(self._read(message, schema, latency, method, max_tokens), sent_chars=sent)

    def request_options(self, method: Method, schema: type[BaseModel], max_tokens: int | None,
                        timeout_s: float | None = None) -> dict[str, Any]:
        """The request's parameters beyond the messages, as this server family wants them.

        Response formats and `max_tokens` travel in `extra_body`: LangChain would otherwise
        route a response_format through the SDK's parser (which raises on some replies) and
        rename `max_tokens` to `max_completion_tokens`, which local servers silently ignore.
        """
        prof = self.profile
        options: dict[str, Any] = {}
        extra: dict[str, Any] = {}
        if timeout_s is not None:
            options["timeout"] = max(0.05, timeout_s)
        reasoning = prof.name == "openai" and is_reasoning_model(self.model)
        if max_tokens:
            if reasoning:  # the limit covers hidden reasoning tokens too
                options["max_completion_tokens"] = max(4 * max_tokens, 2000)
                options["reasoning_effort"] = "low"
            elif prof.token_param == "max_completion_tokens":
                options["max_completion_tokens"] = max_tokens
            else:
                extra["max_tokens"] = max_tokens
        if method == "function_calling":
            function: dict[str, Any] = {"name": TOOL_NAME, "description": _describe(schema),
                                        "parameters": self._schema(schema)}
            if prof.strict:
                function["strict"] = True
            options["tools"] = [{"type": "function", "function": function}]
            if prof.tool_choice == "named":
                options["tool_choice"] = {"type": "function", "function": {"name": TOOL_NAME}}
            elif prof.tool_choice == "required":  # one tool: "required" forces it
                options["tool_choice"] = "required"
            if prof.name == "openai":
                options["parallel_tool_calls"] = False
        elif method == "json_schema":
            extra["response_format"] = {"type": "json_schema", "json_schema": {
                "name": SCHEMA_NAME, "description": _describe(schema), "schema": self._schema(schema),
                "strict": True}}
        elif method == "json_object_schema":
            extra["response_format"] = {"type": "json_object", "schema": self._schema(schema)}
        elif method == "json_mode":
            extra["response_format"] = {"type": "json_object"}
        if extra:
            options["extra_body"] = extra
        return options

    def _schema(self, schema: type[BaseModel]) -> dict[str, Any]:
        """The JSON schema to send: OpenAI's strict subset for OpenAI, else with every constraint.

        Strict mode refuses keywords outside its subset ('default', 'minLength', ...: HTTP 400),
        and an unknown server may be a proxy in front of OpenAI;
        grammar-based local servers use them (a maxLength keeps a small model's `why` short).
        Our own validation checks them either way. Bounded integers go as enums (bounded_ints_as_enums).
        """
        full = bounded_ints_as_enums(strict_json_schema(schema))
        # an unknown server may be a proxy in front of OpenAI: the subset is accepted everywhere
        return openai_strict_subset(full) if self.profile.name in ("openai", "generic") else full

    def _with_format_hint(self, method: Method, messages: list[BaseMessage],
                          schema: type[BaseModel]) -> list[BaseMessage]:
        """json_mode sends no schema to the server, so the prompt must carry it.

        (OpenAI also rejects json_object requests whose prompt never says "JSON".)
        The hint joins the first system message, because several local chat
        templates refuse a system message anywhere but first.
        """
        if method != "json_mode":
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

    # -- reading the reply -----------------------------------------------------------------------
    def _read(self, message: AIMessage | None, schema: type[BaseModel], latency: float, method: str,
              max_tokens: int | None) -> Attempt:
        tokens_in, tokens_out = _usage(message)
        raw_text = _raw_text(message)
        if message is None:
            return Attempt(None, "the server sent no answer", "", 0, 0, latency, None, "output", method=method)
        meta = message.response_metadata or {}
        finish = meta.get("finish_reason")
        refusal = message.additional_kwargs.get("refusal")
        if refusal:
            return Attempt(None, f"the model declined: {_one_line(str(refusal))[:200]}", str(refusal), tokens_in,
                           tokens_out, latency, message, "output", method=method)
        parsed, error = _parse(message, raw_text, schema)
        if parsed is not None:
            return Attempt(parsed, None, raw_text, tokens_in, tokens_out, latency, message, method=method)
        if finish == "length":
            limit = f"{max_tokens} tokens" if max_tokens else "the server's limit"
            return Attempt(None, f"the answer was cut off at the token limit ({limit}, finish_reason 'length')",
                           raw_text, tokens_in, tokens_out, latency, message, "output", cut_off=True, method=method)
        if finish == "content_filter":
            error = "the server's content filter stopped the answer"
        return Attempt(None, error, raw_text, tokens_in, tokens_out, latency, message, "output", method=method)

    def _from_exception(self, exc: Exception, schema: type[BaseModel], latency: float, method: str,
                        timeout_s: float | None) -> Attempt:
        transport = _transport_error(exc, timeout_s, self.model)
        if transport is not None:
            reason, retryable, status, retry_after = transport
            reason = redact(reason, self._secrets)
            log.info("LLM endpoint failure: %s", reason)
            return Attempt(None, reason, "", 0, 0, latency, None, "transport", retryable, status, retry_after,
                           method=method)
        if isinstance(exc, IndexError):  # LangChain indexes an empty choice list
            return Attempt(None, "the server answered with no choices (an empty reply)", "", 0, 0, latency, None,
                           "output", method=method)
        # an SDK that parsed the reply itself and raised: LangChain attaches the HTTP response
        raw_text, tokens_in, tokens_out = _from_response(getattr(exc, "response", None))
        answer = AIMessage(content=raw_text) if raw_text else None
        if raw_text:
            parsed, error = _parse(None, raw_text, schema)
            if parsed is not None:
                return Attempt(parsed, None, raw_text, tokens_in, tokens_out, latency, answer, method=method)
            return Attempt(None, error, raw_text, tokens_in, tokens_out, latency, answer, "output", method=method)
        log.warning("LLM call failed unexpectedly", exc_info=exc)
        return Attempt(None, redact(f"model error: {type(exc).__name__}: {_one_line(str(exc))[:200]}", self._secrets),
                       "", tokens_in, tokens_out, latency, None, "output", method=method)


_KEY_LIKE = re.compile(r"\b(sk-|Bearer\s+)([A-Za-z0-9_\-]{2})[A-Za-z0-9_\-*]{6,}")


def redact(text: str, secrets: tuple[str, ...] = ()) -> str:
    """Mask API keys a server echoed in an error (OpenAI does: 'Incorrect API key provided: ...').

    Error messages end up in the game log as fallback reasons, and the key must never be there.
    """
    for secret in secrets:
        if secret and len(secret) >= 4:
            text = text.replace(secret, "***")
    return _KEY_LIKE.sub(lambda m: f"{m.group(1)}{m.group(2)}***", text)


# the keywords OpenAI's strict mode accepts (Structured Outputs guide, "supported schemas")
STRICT_KEYWORDS = frozenset({
    "type", "properties", "required", "additionalProperties", "items", "anyOf", "enum", "const", "description",
    "title", "$ref", "$defs", "definitions", "pattern", "format", "minimum", "maximum", "exclusiveMinimum",
    "exclusiveMaximum", "multipleOf", "minItems", "maxItems",
})


def openai_strict_subset(node: Any) -> Any:
    """A copy of a strict-shaped schema without the keywords OpenAI's strict mode refuses."""
    if isinstance(node, list):
        return [openai_strict_subset(x) for x in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    if isinstance(node.get("prefixItems"), list) and "items" not in node:  # a tuple: strict mode has no prefixItems
        node = {**node, "items": {"anyOf": node["prefixItems"]}}
    for key, value in node.items():
        if key in ("properties", "$defs", "definitions") and isinstance(value, dict):
            out[key] = {name: openai_strict_subset(sub) for name, sub in value.items()}
        elif key in STRICT_KEYWORDS:
            out[key] = openai_strict_subset(value)
    return out


def request_chars(messages: list[BaseMessage], options: dict[str, Any]) -> int:
    """Characters a request carries to the model: message texts, tools and response format.

    (A server's template adds a few tokens per message; the JSON punctuation of the body is
    not the model's to read, but the schema's is: function tools are rendered into the prompt.)
    """
    text = sum(len(m.content) if isinstance(m.content, str) else len(json.dumps(m.content)) for m in messages)
    extra = options.get("extra_body") or {}
    shapes = [options.get("tools"), extra.get("response_format")]
    return text + sum(len(json.dumps(x)) for x in shapes if x)


def _describe(schema: type[BaseModel]) -> str:
    doc = " ".join((schema.__doc__ or "").split())
    return (doc or "Answer in this shape.")[:1000]


def _is_openai_chat(model: Any) -> bool:
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
    Reasoning models (o-series, gpt-5) refuse any temperature but 1, so none is sent.
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
        "use_responses_api": False,  # our requests are Chat Completions, whichever the server
    }
    if settings.temperature is not None:
        if is_reasoning_model(settings.model) and settings.temperature != 1:
            log.info("%s accepts no temperature but 1: the setting is not sent", settings.model)
        else:
            kwargs["temperature"] = settings.temperature
    return ChatOpenAI(**kwargs)


def make_decider(settings: LLMSettings, chat_model: BaseChatModel | None = None) -> StructuredDecider:
    """The decider for these settings (server family, method, key to redact)."""
    key = settings.api_key.get_secret_value() if settings.api_key else ""
    return StructuredDecider(chat_model if chat_model is not None else make_chat_model(settings),
                             settings.structured_method, secrets=(key,), server=settings.server,
                             model=settings.model)


# ----------------------------------------------------------------- error mapping


def _transport_error(exc: BaseException, timeout_s: float | None = None,
                     model: str = "") -> tuple[str, bool, int | None, float | None] | None:
    """(reason, retryable, HTTP status, retry-after seconds) when the call itself failed."""
    timeouts: tuple[type[BaseException], ...] = (openai.APITimeoutError, httpx.TimeoutException, TimeoutError)
    connects: tuple[type[BaseException], ...] = (openai.APIConnectionError, httpx.TransportError, ConnectionError)
    if httpx2 is not None:
        timeouts += (httpx2.TimeoutException,)
        connects += (httpx2.TransportError,)
    if isinstance(exc, timeouts):
        within = f" within {timeout_s:.1f} s" if timeout_s else ""
        return f"the endpoint did not answer{within} (timeout)", True, None, None
    if isinstance(exc, openai.APIStatusError):
        return _status_reason(exc, model)
    if isinstance(exc, connects):
        chain = _chain(exc)
        if any(isinstance(e, ConnectionRefusedError) for e in chain):
            return "the endpoint is unreachable (connection refused: is the server running?)", True, None, None
        detail = _one_line(str(chain[-1]))[:160]
        return f"the endpoint is unreachable (connection error: {detail})", True, None, None
    if isinstance(exc, openai.APIResponseValidationError):
        return "the endpoint sent a malformed response", True, None, None
    http_errors: tuple[type[BaseException], ...] = (httpx.HTTPError,)
    if httpx2 is not None:
        http_errors += (httpx2.HTTPError,)
    if isinstance(exc, http_errors):
        return f"the endpoint failed ({type(exc).__name__}: {_one_line(str(exc))[:160]})", True, None, None
    return None


def _status_reason(exc: openai.APIStatusError, model: str) -> tuple[str, bool, int | None, float | None]:
    status = exc.status_code
    message = _status_message(exc)
    if status == 401:
        return (f"the endpoint refuses the API key (HTTP 401): check OPENAI_API_KEY ({message})", False, status,
                None)
    if status == 403:
        return f"the endpoint forbids this request (HTTP 403): {message}", False, status, None
    if status == 404:
        if "model" in message.lower() or not message:
            return (f"the endpoint does not know the model '{model}' (HTTP 404): check STORYTABLE_MODEL or "
                    f"[llm] model ({message})", False, status, None)
        return (f"nothing answers at that address (HTTP 404): check the base URL, which usually ends in /v1 "
                f"({message})", False, status, None)
    if status == 429:
        wait = _retry_after(exc)
        after = f", retry after {wait:g} s" if wait is not None else ""
        return f"the endpoint is rate limiting us (HTTP 429{after}): {message}", True, status, wait
    if status in _NOT_RETRYABLE or (status >= 500 and "validation error" in message.lower()):
        # (llama-cpp-python answers a request its model rejects with 500 "N validation error(s)")
        return f"the endpoint refuses the request (HTTP {status}): {message}", False, status, None
    return f"the endpoint failed (HTTP {status}): {message}", True, status, None


def _retry_after(exc: openai.APIStatusError) -> float | None:
    headers = getattr(getattr(exc, "response", None), "headers", None) or {}
    try:
        if headers.get("retry-after-ms"):
            return float(headers["retry-after-ms"]) / 1000
        if headers.get("retry-after"):
            return float(headers["retry-after"])
    except (TypeError, ValueError):
        return None
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
        if isinstance(inner, str):
            return _one_line(inner)[:200]
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
    """The first JSON object embedded in text (prose, code fences and all).

    Control characters inside strings are read (strict=False): llama-cpp-python's grammar (0.3.x) lets
    a string hold a raw newline (its `char` is `[^"\\]`), and SmolLM2 wrote one into a Paganini ruling.
    """
    decoder = json.JSONDecoder(strict=False)
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


def _parse(message: AIMessage | None, raw_text: str, schema: type[BaseModel]) -> tuple[BaseModel | None, str]:
    """The tool call's args, or a JSON object in the text, validated against the schema.

    Also accepts the object unwrapped when the schema is a one-field wrapper,
    a common slip of small models. Returns (parsed, error-if-not).
    """
    candidates: list[dict[str, Any]] = []
    if message is not None:
        candidates.extend(call["args"] for call in message.tool_calls if isinstance(call.get("args"), dict))
    found = extract_json_object(raw_text)
    if found is not None and found not in candidates:
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


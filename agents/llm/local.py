"""A GGUF model in this process: a LangChain chat model around llama-cpp-python, no server.

Why: a person with a model file should be able to play without running a server
(`storytable simulate --ai local --model-path FILE.gguf`). The seat asks it the same way it asks
an endpoint (LangChain's structured output), and the output is enforced the same way as on
llama-cpp-python's server, by a grammar: a forced tool (`function_calling`) or
`response_format={"type": "json_object", "schema": ...}` (any other method). Small models never
see the schema in those modes, so the prompts must say what the fields mean.

llama-cpp-python is optional (the `local-model` extra); importing this module never needs it,
`load_local_model` says in one line what is missing.
"""
from __future__ import annotations

import json
import os
import threading
import time
import uuid
from operator import itemgetter
from pathlib import Path
from typing import Any, Callable, Sequence

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage, SystemMessage, ToolMessage
from langchain_core.output_parsers import JsonOutputParser, PydanticOutputParser
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable, RunnableMap, RunnablePassthrough
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from .config import ConfigError, LLMSettings

__all__ = ["GGUF_MAGIC", "LocalChatModel", "check_model_file", "fold_system", "free_cores", "load_local_model",
           "local_settings",
           "to_plain_messages"]

GGUF_MAGIC = b"GGUF"
DEFAULT_N_CTX = 4096  # a prompt (about 1,000 tokens), a retry with its feedback, and the answer


def check_model_file(path: str | os.PathLike[str]) -> Path:
    """The path when it is a readable GGUF file; ConfigError (one line, no server path) otherwise."""
    p = Path(path)
    if not p.is_file():
        raise ConfigError(f"--model-path: no model file {p.name!r} there")
    try:
        with p.open("rb") as fh:
            magic = fh.read(4)
    except OSError as exc:
        raise ConfigError(f"--model-path: cannot read {p.name!r}: {exc.strerror or exc}") from None
    if magic != GGUF_MAGIC:
        raise ConfigError(f"--model-path: {p.name!r} is not a GGUF model file (llama.cpp's format)")
    return p


def load_local_model(path: str | os.PathLike[str], *, n_ctx: int = DEFAULT_N_CTX, threads: int | None = None,
                     chat_format: str | None = None, temperature: float = 0.2,
                     max_tokens: int | None = 400) -> "LocalChatModel":
    """Load a GGUF file into a LocalChatModel; ConfigError with one line when that cannot be done.

    `chat_format` None uses the template inside the file; a Gemma file without one gets "gemma".
    """
    p = check_model_file(path)
    # llama.cpp's OpenMP threads spin while they wait for each other, which on a busy machine
    # starves the thread they wait for; a passive wait must be set before the library loads
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    try:
        from llama_cpp import Llama
    except ImportError:
        raise ConfigError("--ai local needs llama-cpp-python: pip install 'storytable[local-model]' "
                          "(or pip install llama-cpp-python)") from None
    threads = threads or free_cores()
    try:
        llama = Llama(model_path=str(p), n_ctx=n_ctx, n_threads=threads, n_threads_batch=threads,
                      chat_format=chat_format, verbose=False)
    except Exception as exc:  # noqa: BLE001 - llama.cpp says little more than "failed to load"
        raise ConfigError(f"--model-path: llama.cpp could not load {p.name!r}: {' '.join(str(exc).split())[:160]}") \
            from None
    gemma = chat_format == "gemma" or (chat_format is None and _needs_gemma_format(llama))
    if gemma:
        llama.chat_format = "gemma"
        llama.chat_handler = None
    return LocalChatModel(llama=llama, model_name=p.stem, temperature=temperature, max_tokens=max_tokens,
                          system_in_user=gemma)


def free_cores() -> int:
    """Threads for llama.cpp: the cores that are free now, at least one.

    llama.cpp's threads meet at a barrier after every operation; on a machine whose cores are
    busy with other work, a second thread mostly waits for a descheduled first one (measured on
    a shared 2-core machine: one token in 1.4 s with 2 threads, several times faster with 1).
    """
    cpus = os.cpu_count() or 1
    try:
        busy = os.getloadavg()[0]
    except OSError:
        busy = 0.0
    return max(1, min(cpus, 4, int(cpus - busy + 1)))


def _needs_gemma_format(llama: Any) -> bool:
    """A Gemma file that carries no chat template would be read with a Llama-2 format."""
    meta = getattr(llama, "metadata", {}) or {}
    return "tokenizer.chat_template" not in meta and str(meta.get("general.architecture", "")).startswith("gemma")


def to_plain_messages(messages: Sequence[BaseMessage]) -> list[dict[str, str]]:
    """OpenAI-style messages every small chat template accepts: system, user, assistant only.

    A tool call becomes the assistant's text (its JSON arguments) and a tool result is left out
    (our retries follow it with a user message saying what was wrong); consecutive messages of
    one role are joined, since templates such as Gemma's want users and the model to alternate.
    """
    out: list[dict[str, str]] = []
    for m in messages:
        if isinstance(m, ToolMessage):
            continue
        if isinstance(m, SystemMessage):
            role = "system"
        elif isinstance(m, AIMessage):
            role = "assistant"
        else:
            role = "user"
        text = m.text if isinstance(m.content, (str, list)) else str(m.content)
        if isinstance(m, AIMessage) and m.tool_calls:
            text = json.dumps(m.tool_calls[0]["args"], ensure_ascii=False)
        if out and out[-1]["role"] == role:
            out[-1]["content"] += "\n\n" + text
        else:
            out.append({"role": role, "content": text})
    return out


def fold_system(messages: list[Any]) -> list[Any]:
    """The messages with the system text joined to the start of the first user message.

    llama-cpp-python's "gemma" chat format drops system messages (Gemma has no system role);
    Gemma's own template puts the system text at the start of the first user turn, as here.
    """
    system = "\n\n".join(str(m.get("content") or "") for m in messages if m.get("role") == "system")
    rest = [dict(m) for m in messages if m.get("role") != "system"]
    if not system:
        return rest
    for m in rest:
        if m.get("role") == "user":
            m["content"] = f"{system}\n\n{m.get('content') or ''}"
            return rest
    return [{"role": "user", "content": system}, *rest]


def _forced_tool(tools: list[dict[str, Any]], tool_choice: Any) -> dict[str, Any] | str | None:
    """LangChain's tool_choice spellings as llama-cpp-python's: a named function forces it."""
    if tool_choice in (None, "auto", "none"):
        return tool_choice
    if isinstance(tool_choice, dict):
        return tool_choice
    if isinstance(tool_choice, str) and tool_choice not in ("any", "required"):
        name = tool_choice
    else:  # "any", "required", True: with one tool, that tool
        name = tools[0]["function"]["name"] if tools else ""
    return {"type": "function", "function": {"name": name}}


class LocalChatModel(BaseChatModel):
    """llama_cpp.Llama.create_chat_completion as a LangChain chat model (one call at a time)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    llama: Any = Field(exclude=True, repr=False)
    model_name: str = "local"
    temperature: float = 0.2
    max_tokens: int | None = 400
    # llama-cpp-python's "gemma" format drops system messages: their text joins the first user turn
    system_in_user: bool = False
    _lock: threading.Lock = PrivateAttr(default_factory=threading.Lock)

    @property
    def _llm_type(self) -> str:
        return "llama-cpp-local"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"model_name": self.model_name}

    # -- the call ------------------------------------------------------------------------------------
    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                  run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any) -> ChatResult:
        params: dict[str, Any] = {"temperature": self.temperature, "max_tokens": self.max_tokens}
        # the OpenAI client's `extra_body` (where our decider puts response_format and max_tokens)
        # is merged into the request there; here it is merged into the call
        given = {**(kwargs.get("extra_body") or {}), **{k: v for k, v in kwargs.items() if k != "extra_body"}}
        for key in ("tools", "tool_choice", "response_format", "max_tokens", "temperature", "top_p", "seed"):
            if key in given and given[key] is not None:
                params[key] = given[key]
        kwargs = given
        if "max_completion_tokens" in kwargs and kwargs["max_completion_tokens"]:
            params["max_tokens"] = kwargs["max_completion_tokens"]
        if "tools" in params:
            params["tool_choice"] = _forced_tool(params["tools"], params.get("tool_choice"))
        started = time.perf_counter()
        with self._lock:
            plain = to_plain_messages(messages)
            if self.system_in_user:
                plain = fold_system(plain)
            out = self.llama.create_chat_completion(messages=plain, stop=stop, **params)
        return ChatResult(generations=[ChatGeneration(message=_to_ai_message(out, time.perf_counter() - started))])

    # -- structured output ---------------------------------------------------------------------------
    def bind_tools(self, tools: Sequence[Any], *, tool_choice: Any = None,
                   **kwargs: Any) -> Runnable[LanguageModelInput, AIMessage]:
        formatted = [convert_to_openai_tool(t) for t in tools]
        return self.bind(tools=formatted, tool_choice=_forced_tool(formatted, tool_choice), **kwargs)

    def with_structured_output(self, schema: Any, *, method: str = "function_calling", include_raw: bool = False,
                               **kwargs: Any) -> Runnable[LanguageModelInput, Any]:
        """function_calling: a forced tool; any other method: a JSON object held to the schema by a grammar."""
        kwargs.pop("strict", None)
        if method == "function_calling":
            return super().with_structured_output(schema, include_raw=include_raw)
        json_schema = _json_schema_of(schema)
        llm = self.bind(response_format={"type": "json_object", "schema": json_schema})
        parser: Runnable[Any, Any]
        if isinstance(schema, type) and issubclass(schema, BaseModel):
            parser = PydanticOutputParser(pydantic_object=schema)
        else:
            parser = JsonOutputParser()
        if not include_raw:
            return llm | parser
        parse: Callable[[dict[str, Any]], Any] = itemgetter("raw") | parser  # type: ignore[assignment]
        with_parsed = RunnablePassthrough.assign(parsed=parse, parsing_error=lambda _: None)
        on_error = RunnablePassthrough.assign(parsed=lambda _: None)
        return RunnableMap(raw=llm) | with_parsed.with_fallbacks([on_error], exception_key="parsing_error")


def _json_schema_of(schema: Any) -> dict[str, Any]:
    if isinstance(schema, type) and issubclass(schema, BaseModel):
        return schema.model_json_schema()
    if isinstance(schema, dict):
        inner = schema.get("schema") if "schema" in schema and "name" in schema else None
        return inner if isinstance(inner, dict) else schema
    return convert_to_openai_tool(schema)["function"]["parameters"]


def _to_ai_message(out: dict[str, Any], seconds: float) -> AIMessage:
    """llama-cpp-python's OpenAI-shaped answer as an AIMessage with tool calls and usage."""
    choice = (out.get("choices") or [{}])[0]
    msg = choice.get("message") or {}
    text = msg.get("content") or ""
    tool_calls, invalid = [], []
    for call in msg.get("tool_calls") or []:
        fn = call.get("function") or {}
        raw_args = fn.get("arguments") or ""
        call_id = call.get("id") or f"call_{uuid.uuid4().hex[:12]}"
        try:
            args = json.loads(raw_args) if isinstance(raw_args, str) else raw_args
            if not isinstance(args, dict):
                raise ValueError("arguments are not a JSON object")
            tool_calls.append({"name": fn.get("name", ""), "args": args, "id": call_id, "type": "tool_call"})
        except ValueError as exc:
            invalid.append({"name": fn.get("name", ""), "args": raw_args, "id": call_id, "error": str(exc)[:200],
                            "type": "invalid_tool_call"})
    usage = out.get("usage") or {}
    tin, tout = int(usage.get("prompt_tokens") or 0), int(usage.get("completion_tokens") or 0)
    return AIMessage(
        content=text, tool_calls=tool_calls, invalid_tool_calls=invalid,
        usage_metadata={"input_tokens": tin, "output_tokens": tout, "total_tokens": tin + tout},
        response_metadata={"finish_reason": choice.get("finish_reason"), "model_name": out.get("model", ""),
                           "seconds": round(seconds, 3)},
    )



def local_settings(chat: LocalChatModel) -> LLMSettings:
    """Seat settings for a model in this process: no endpoint, output held to the schema by a grammar."""
    return LLMSettings(model=chat.model_name, server="llama-cpp-python", structured_method="auto")

"""A scripted chat model for fast unit tests without HTTP.

Why: most tests of LLM players need "the model says X, then Y" with tool calls
and token usage, not a server. LangChain's `GenericFakeChatModel` cannot do
structured output (it has no `bind_tools`, so `with_structured_output` raises);
`ScriptedChatModel` adds that and a richer script:

    model = ScriptedChatModel(script=[
        "I'd rather not.",                       # prose
        tool_call("choose_action", {"action": {...}}),  # a tool call
        TimeoutError("slow"),                    # raised from invoke
        lambda messages: text_message("..."),    # computed from the prompt
    ])

Every prompt received is kept in `calls` so tests can inspect retries.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import LanguageModelInput
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from pydantic import Field

__all__ = ["ScriptedChatModel", "ScriptExhausted", "text_message", "tool_call"]

ScriptItem = AIMessage | str | BaseException | Callable[[list[BaseMessage]], "AIMessage | str"]
_ids = itertools.count(1)


class ScriptExhausted(RuntimeError):
    """The model was asked more often than the test scripted."""


def _usage(tokens_in: int, tokens_out: int) -> dict[str, int]:
    return {"input_tokens": tokens_in, "output_tokens": tokens_out, "total_tokens": tokens_in + tokens_out}


def tool_call(name: str, args: dict[str, Any], *, tokens: tuple[int, int] = (10, 5), call_id: str | None = None) -> AIMessage:
    """An AIMessage calling tool `name` (the decider always names it `choose_action`) with `args`."""
    return AIMessage(
        content="",
        tool_calls=[{"name": name, "args": args, "id": call_id or f"call_{next(_ids)}", "type": "tool_call"}],
        usage_metadata=_usage(*tokens),  # type: ignore[arg-type]
    )


def text_message(text: str, *, tokens: tuple[int, int] = (10, 5)) -> AIMessage:
    """A plain-text AIMessage with usage, e.g. prose or JSON in the content."""
    return AIMessage(content=text, usage_metadata=_usage(*tokens))  # type: ignore[arg-type]


class ScriptedChatModel(GenericFakeChatModel):
    """Returns (or raises) the scripted items in order, one per call."""

    script: list[Any] = Field(default_factory=list)
    messages: Iterator[AIMessage | str] = Field(default_factory=lambda: iter(()))
    calls: list[list[BaseMessage]] = Field(default_factory=list)
    position: int = 0

    def bind_tools(
        self,
        tools: Sequence[Any],
        *,
        tool_choice: str | None = None,
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, AIMessage]:
        """The script already decides about tool calls: binding changes nothing."""
        return self

    @property
    def remaining(self) -> int:
        return len(self.script) - self.position

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.calls.append(list(messages))
        if self.position >= len(self.script):
            raise ScriptExhausted(f"script of {len(self.script)} answers exhausted")
        item = self.script[self.position]
        self.position += 1
        if isinstance(item, BaseException):
            raise item
        if callable(item) and not isinstance(item, (AIMessage, str)):
            item = item(list(messages))
        message = AIMessage(content=item) if isinstance(item, str) else item
        return ChatResult(generations=[ChatGeneration(message=message)])

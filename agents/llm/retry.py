"""Ask, let the rules judge, tell the model why, ask again; then give up politely.

Why: models answer in prose, break JSON, pick illegal actions, or the server
times out. The game must go on regardless, so `decide_with_retries` never
raises for any of that: after `max_refusals` retries it returns `action=None`
with a `fallback_reason`, and the caller plays its heuristic move instead.
"""

from __future__ import annotations

import logging
import time
import uuid
from dataclasses import dataclass, field
from typing import Callable, Protocol

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from pydantic import BaseModel

from .decider import Attempt

__all__ = [
    "Decider",
    "Outcome",
    "OUTPUT_TEMPLATE",
    "REFUSAL_TEMPLATE",
    "decide_with_retries",
    "feedback_messages",
]

log = logging.getLogger(__name__)

REFUSAL_TEMPLATE = "The rules refused that: {message}. Choose again from the legal actions."
OUTPUT_TEMPLATE = (
    "Your answer could not be read as an action: {message}. "
    "Choose again from the legal actions and answer in the requested format."
)
TOOL_RESULT = "Not accepted; see the next message."


class Decider(Protocol):
    """Anything with StructuredDecider.ask's shape (real or test double)."""

    def ask(self, messages: list[BaseMessage], schema: type[BaseModel]) -> Attempt: ...


@dataclass
class Outcome:
    """The result of one decision: an accepted action, or why there is none.

    `refusals` holds one line per failed attempt, in order, for the game
    record: the rules' refusal message verbatim, or the error ("transport:
    timeout", "no structured output: ...", "invalid output: ...").
    """

    action: BaseModel | None
    attempts: int
    retries: int
    fallback_reason: str | None
    tokens_in: int = 0
    tokens_out: int = 0
    latency_s: float = 0.0
    refusals: list[str] = field(default_factory=list)


def decide_with_retries(
    decider: Decider,
    messages: list[BaseMessage],
    schema: type[BaseModel],
    validate: Callable[[BaseModel], str | None],
    max_refusals: int,
    *,
    backoff_s: float = 0.0,
) -> Outcome:
    """Ask up to `max_refusals + 1` times; `validate` returns a refusal message or None.

    After unreadable output or a refusal, the model's answer and the reason are
    appended to the conversation so the next attempt can correct itself. After
    a transport failure the same conversation is resent (after `backoff_s`).
    Non-retryable HTTP errors (e.g. 401, 404) end the loop at once.
    """
    transcript = list(messages)
    failures: list[str] = []
    rule_refusals = 0
    tokens_in = tokens_out = 0
    latency = 0.0
    attempts = 0
    last_error, last_was_refusal = "no attempt made", False
    while attempts <= max(0, max_refusals):
        attempts += 1
        attempt = _safe_ask(decider, transcript, schema)
        tokens_in += attempt.tokens_in
        tokens_out += attempt.tokens_out
        latency += attempt.latency_s
        if attempt.parsed is not None:
            refusal = _safe_validate(validate, attempt.parsed)
            if refusal is None:
                return Outcome(attempt.parsed, attempts, attempts - 1, None, tokens_in, tokens_out, latency, failures)
            rule_refusals += 1
            last_error, last_was_refusal = refusal, True
            failures.append(refusal)
            transcript += feedback_messages(attempt, REFUSAL_TEMPLATE.format(message=_strip_dot(refusal)))
            continue
        last_error, last_was_refusal = attempt.error or "no structured output", False
        failures.append(last_error)
        if attempt.error_kind == "transport":
            if not attempt.retryable:
                break
            if backoff_s > 0 and attempts <= max_refusals:
                time.sleep(backoff_s * attempts)
            continue
        if attempt.answer is not None or attempt.raw_text.strip():
            transcript += feedback_messages(attempt, OUTPUT_TEMPLATE.format(message=_strip_dot(last_error)))
    if last_was_refusal:
        reason = f"refused {rule_refusals} time{'s' if rule_refusals != 1 else ''}: {last_error}"
    else:
        reason = last_error
    log.info("LLM decision fell back after %d attempts: %s", attempts, reason)
    return Outcome(None, attempts, attempts - 1, reason, tokens_in, tokens_out, latency, failures)


def feedback_messages(attempt: Attempt, feedback: str) -> list[BaseMessage]:
    """The model's answer and our reply to it, in a shape every server accepts.

    A tool call must be answered by a tool message for each call id (OpenAI
    rejects the next request otherwise); then the feedback goes in a user
    message, which all chat templates understand.
    """
    answer = attempt.answer
    out: list[BaseMessage] = []
    if answer is not None and answer.tool_calls:
        calls = [
            {"name": c["name"], "args": c["args"], "id": c.get("id") or f"call_{uuid.uuid4().hex[:12]}", "type": "tool_call"}
            for c in answer.tool_calls
        ]
        out.append(AIMessage(content=answer.text, tool_calls=calls))
        out.extend(ToolMessage(content=TOOL_RESULT, tool_call_id=c["id"]) for c in calls)
    elif attempt.raw_text.strip():
        out.append(AIMessage(content=attempt.raw_text))
    out.append(HumanMessage(content=feedback))
    return out


def _safe_ask(decider: Decider, messages: list[BaseMessage], schema: type[BaseModel]) -> Attempt:
    """StructuredDecider.ask never raises; this guards other deciders too."""
    try:
        return decider.ask(messages, schema)
    except Exception as exc:  # noqa: BLE001 - the game must go on
        log.warning("decider raised", exc_info=exc)
        return Attempt(None, f"model error: {type(exc).__name__}: {exc}", error_kind="output")


def _safe_validate(validate: Callable[[BaseModel], str | None], action: BaseModel) -> str | None:
    """A validator that crashes on a strange action counts as a refusal, logged."""
    try:
        return validate(action)
    except Exception as exc:  # noqa: BLE001
        log.warning("validate raised on %r", action, exc_info=exc)
        return f"could not check that action ({type(exc).__name__}: {exc})"


def _strip_dot(message: str) -> str:
    return message.strip().rstrip(".")

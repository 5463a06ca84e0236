"""Ask, let the rules judge, tell the model why, ask again; then give up politely, in time.

Why: models answer in prose, break JSON, pick illegal actions, or the server times out. The
game must go on regardless, so `decide_with_retries` never raises for any of that: after
`max_refusals` retries, or when the decision's deadline has passed, it returns `action=None`
with a `fallback_reason`, and the caller plays its heuristic move instead.

Retries are requests every server accepts: the earlier answer and why it was refused are
folded into the last user message as text. (An assistant message carrying the model's tool
call must be followed by a tool message for OpenAI, and llama-cpp-python answers HTTP 500 to
an assistant message without string content; several chat templates also refuse two user
messages in a row. One user message satisfies all of them.)
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from langchain_core.messages import BaseMessage, HumanMessage
from pydantic import BaseModel

from .decider import DEFAULT_MAX_TOKENS, Attempt

__all__ = [
    "Decider",
    "Outcome",
    "OUTPUT_TEMPLATE",
    "REFUSAL_TEMPLATE",
    "decide_with_retries",
    "with_feedback",
]

log = logging.getLogger(__name__)

REFUSAL_TEMPLATE = "The rules refused that: {message}."
OUTPUT_TEMPLATE = "It could not be read as an answer: {message}."
CUT_TEMPLATE = "It was cut off: it was too long. Keep every text field short."
AGAIN = "Choose again from the legal actions and answer in the requested format."
MAX_ECHO = 600  # characters of an earlier answer shown back to the model
MIN_ATTEMPT_S = 0.2  # a remaining deadline shorter than this is not worth a request
BACKOFF_S = 0.5
RETRY_SHARE = 0.5  # a retry is started only with at least half the last attempt's seconds left


class Decider(Protocol):
    """Anything with StructuredDecider.ask's shape (real or test double)."""

    def ask(self, messages: list[BaseMessage], schema: type[BaseModel], *, max_tokens: int | None = None,
            timeout_s: float | None = None) -> Attempt: ...


@dataclass
class Outcome:
    """The result of one decision: an accepted action, or why there is none.

    `refusals` holds one line per failed attempt, in order, for the game
    record: the rules' refusal message verbatim, or the error. `endpoint_failed`
    says the last failure was the endpoint's (not the model's words or the rules).
    """

    action: BaseModel | None
    attempts: int
    retries: int
    fallback_reason: str | None
    tokens_in: int = 0
    tokens_out: int = 0
    latency_s: float = 0.0
    refusals: list[str] = field(default_factory=list)
    endpoint_failed: bool = False


def decide_with_retries(
    decider: Decider,
    messages: list[BaseMessage],
    schema: type[BaseModel],
    validate: Callable[[BaseModel], str | None],
    max_refusals: int,
    *,
    backoff_s: float = BACKOFF_S,
    deadline_s: float | None = None,
    max_tokens: int | None = DEFAULT_MAX_TOKENS,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
    spent_s: float = 0.0,
) -> Outcome:
    """Ask up to `max_refusals + 1` times within `deadline_s`; `validate` returns a refusal or None.

    `spent_s`: seconds the decision already took before this call; they count against the deadline.

    After unreadable output or a refusal, the next request shows the model its answer and the
    reason. A cut-off answer is asked again with twice the token budget. After a transport
    failure the same request is resent, after a short backoff (a 429's Retry-After when it fits
    the deadline). Requests the API refused as invalid (400, 401, 404, 422) end the loop at once.
    """
    started = clock() - max(0.0, spent_s)  # the decision's own work before the first call counts
    notes: list[str] = []
    failures: list[str] = []
    rule_refusals = 0
    tokens_in = tokens_out = 0
    latency = 0.0
    attempts = 0
    budget = max_tokens
    last_latency = 0.0
    last_error, last_was_refusal, endpoint_failed = "no attempt made", False, False
    transcript = list(messages)
    while attempts <= max(0, max_refusals):
        remaining = None if deadline_s is None else deadline_s - (clock() - started)
        # a retry takes about as long as the answer it corrects (the prompt's prefix is cached):
        # one started with much less time left only times out and keeps a local server busy
        least = max(MIN_ATTEMPT_S, RETRY_SHARE * last_latency) if attempts else MIN_ATTEMPT_S
        if remaining is not None and remaining < least:
            last_error = _past_deadline(deadline_s, last_error if attempts else "")
            break
        attempts += 1
        attempt = _safe_ask(decider, transcript, schema, budget, remaining)
        last_latency = attempt.latency_s
        tokens_in += attempt.tokens_in
        tokens_out += attempt.tokens_out
        latency += attempt.latency_s
        endpoint_failed = attempt.error_kind == "transport"
        if attempt.parsed is not None:
            refusal = _safe_validate(validate, attempt.parsed)
            if refusal is None:
                return Outcome(attempt.parsed, attempts, attempts - 1, None, tokens_in, tokens_out, latency, failures)
            rule_refusals += 1
            last_error, last_was_refusal = refusal, True
            failures.append(refusal)
            notes.append(_note(attempt.raw_text, REFUSAL_TEMPLATE.format(message=_strip_dot(refusal))))
            transcript = with_feedback(messages, notes)
            continue
        last_error, last_was_refusal = attempt.error or "no structured output", False
        failures.append(last_error)
        if attempt.error_kind == "transport":
            if not attempt.retryable:
                break
            wait = attempt.retry_after if attempt.retry_after is not None else (
                0.0 if "timeout" in last_error else backoff_s * attempts)
            left = None if deadline_s is None else deadline_s - (clock() - started)
            if attempts > max_refusals:
                break
            if left is not None and wait > left - MIN_ATTEMPT_S:
                if attempt.retry_after is not None:  # waiting as asked would miss the deadline
                    break
                wait = max(0.0, left - MIN_ATTEMPT_S)
            if wait > 0:
                sleep(wait)
            continue
        if attempt.cut_off:
            budget = (budget or DEFAULT_MAX_TOKENS) * 2
            notes.append(_note("", CUT_TEMPLATE))
        elif attempt.answer is not None or attempt.raw_text.strip():
            notes.append(_note(attempt.raw_text, OUTPUT_TEMPLATE.format(message=_strip_dot(last_error))))
        transcript = with_feedback(messages, notes)
    if last_was_refusal:
        reason = f"refused {rule_refusals} time{'s' if rule_refusals != 1 else ''}: {last_error}"
    else:
        reason = last_error
    log.info("LLM decision fell back after %d attempts: %s", attempts, reason)
    return Outcome(None, attempts, max(0, attempts - 1), reason, tokens_in, tokens_out, latency, failures,
                   endpoint_failed)


def with_feedback(messages: list[BaseMessage], notes: list[str]) -> list[BaseMessage]:
    """The original conversation with the earlier answers and their refusals in the last user message."""
    if not notes:
        return list(messages)
    block = "\n\n".join(notes) + "\n\n" + AGAIN
    out = list(messages)
    for i in range(len(out) - 1, -1, -1):
        msg = out[i]
        if isinstance(msg, HumanMessage) and isinstance(msg.content, str):
            out[i] = HumanMessage(content=f"{msg.content}\n\n{block}")
            return out
    out.append(HumanMessage(content=block))
    return out


def _note(raw_text: str, reason: str) -> str:
    shown = " ".join(raw_text.split())
    if len(shown) > MAX_ECHO:
        shown = shown[:MAX_ECHO] + "..."
    return (f"Your earlier answer was: {shown}\n{reason}" if shown else f"Your earlier answer: {reason}")


def _past_deadline(deadline_s: float | None, last_error: str) -> str:
    said = f"the decision's deadline ({round(deadline_s or 0.0, 1):g} s) passed"
    return f"{said}: {last_error}" if last_error else said


def _safe_ask(decider: Decider, messages: list[BaseMessage], schema: type[BaseModel], max_tokens: int | None,
              timeout_s: float | None) -> Attempt:
    """StructuredDecider.ask never raises; this guards other deciders too."""
    options: dict[str, Any] = {"max_tokens": max_tokens, "timeout_s": timeout_s}
    try:
        return decider.ask(messages, schema, **options)
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

"""Every AI decision of a game, as a row: which kind, whether the model made it, at what cost.

Why: the figures a real model is judged by (issue 27) are per decision, and some are per decision
kind: the share made by the model, first-try legal, seconds and tokens in/out, and which rules
the engine refused the model's choices with. `DecisionLog.watch` wraps each LLM seat's `decide`
and its view of the engine's judge (`obs.check`) without changing the players, so the same rows
serve the test tier and `storytable eval`.
"""
from __future__ import annotations

import re
import statistics
import time
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = ["DecisionLog", "DecisionRow", "RULE_ID", "refusal_key"]

# Universalis core (U-ACT-3) and add-on (UA-DUR-1) rules; FUBAR (F-12, F-TURN), Paganini (P-9, P-END) and
# Vele (V-45, V-AMB-14) rules; GAME for an action of another game
RULE_ID = re.compile(r"\(((?:UA|U|F|P|V)-[A-Z0-9]+(?:-\d+[a-z]?)?|GAME)\)\s*$")
SLOW_S = 30.0  # the ceiling for one decision


@dataclass
class DecisionRow:
    """One decision of an LLM seat. `asked`: the model was (or would have been) called for it."""

    seat: str
    kind: str  # the pending decision kind (turn, reaction, bid, ...)
    asked: bool
    by_model: bool
    first_try: bool
    attempts: int
    seconds: float  # wall time of the whole decision, fallback included
    model_seconds: float
    tokens_in: int
    tokens_out: int
    fallback: str | None = None
    refusals: list[str] = field(default_factory=list)  # the engine's refusals of the model's choices
    sent_tokens: int = 0  # everything the requests carried (messages and schemas), characters / 4
    largest_request: int = 0  # the largest single request of the decision, characters / 4


@dataclass
class DecisionLog:
    """Rows for every watched seat; `summary()` is what eval saves and the tests assert on."""

    rows: list[DecisionRow] = field(default_factory=list)

    def watch(self, player: Any) -> None:
        """Record each decision `player` (an LLMPlayer or GameLLMPlayer) makes from now on, out of turn too."""
        decide = player.decide
        log = self

        refusals: list[str] = []
        answered = [False]  # the model's parsed answer is waiting for the engine's judgement
        sent = [0, 0]  # characters sent for the decision under way; its largest request
        decider = getattr(player, "decider", None)
        if decider is not None and hasattr(decider, "ask"):
            ask = decider.ask

            def ask_and_note(*args: Any, **kwargs: Any) -> Any:
                attempt = ask(*args, **kwargs)
                answered[0] = getattr(attempt, "parsed", None) is not None
                chars = int(getattr(attempt, "sent_chars", 0) or 0)
                sent[0] += chars
                sent[1] = max(sent[1], chars)
                return attempt
            decider.ask = ask_and_note

        def watched(obs: Any, decide: Any = decide, kind: str | None = None) -> Any:
            """One decision (`kind` None: the pending one) or, with kind "interject", one out-of-turn ask,
            whose row is kept only when the model was (or would have been) called: the table offers the
            moment to every watching seat at every step, and most pass without a call."""
            refusals.clear()
            answered[0] = False
            sent[0] = sent[1] = 0
            check = obs.check
            if check is not None:
                def judged(action: Any) -> Any:
                    refusal = check(action)
                    if answered[0]:  # the model's choice (the heuristic also asks the judge)
                        answered[0] = False
                        if refusal is not None:
                            refusals.append(str(refusal))
                    return refusal
                obs.check = judged
            before = _counts(player.stats)
            started = time.perf_counter()
            decision = decide(obs)
            seconds = time.perf_counter() - started
            obs.check = check
            after = _counts(player.stats)
            was_asked = after["model_decisions"] > before["model_decisions"] or after["rested"] > before["rested"]
            if kind is not None and not was_asked:
                return decision
            by_model = after["accepted"] > before["accepted"]
            called = after["model_decisions"] > before["model_decisions"]
            if decision is None:  # an interjection passed: its cost is in the seat's stats, its reason aside
                fallback = getattr(player, "last_pass_reason", "") or "no reason given"
                retries = int(after["retries"] - before["retries"])
                cost = (after["latency_s"] - before["latency_s"], int(after["tokens_in"] - before["tokens_in"]),
                        int(after["tokens_out"] - before["tokens_out"]))
            else:
                fallback, retries = decision.fallback, decision.retries
                cost = (decision.latency_s, decision.tokens_in, decision.tokens_out)
            log.rows.append(DecisionRow(
                seat=player.name, kind=kind or obs.pending.kind, asked=was_asked, by_model=by_model,
                first_try=after["first_try_legal"] > before["first_try_legal"],
                attempts=(retries + 1) if called else 0, seconds=seconds, model_seconds=cost[0],
                tokens_in=cost[1], tokens_out=cost[2], fallback=fallback if was_asked and not by_model else None,
                refusals=list(refusals), sent_tokens=sent[0] // 4, largest_request=sent[1] // 4))
            return decision

        player.decide = watched
        interject = getattr(player, "interject", None)
        if interject is not None:  # an LLM seat that may act out of turn (agents/game_loop.Interjector)
            player.interject = lambda obs: watched(obs, interject, "interject")

    # -- figures -------------------------------------------------------------------------------------
    def asked(self) -> list[DecisionRow]:
        return [r for r in self.rows if r.asked]

    def summary(self) -> dict[str, Any]:
        """Share made by the model (overall and per kind), first-try legal, seconds, tokens, refusals."""
        asked = self.asked()
        kinds: dict[str, list[DecisionRow]] = defaultdict(list)
        for r in asked:
            kinds[r.kind].append(r)
        rules: Counter[str] = Counter()
        for r in asked:
            for refusal in r.refusals:
                rules[refusal_key(refusal)] += 1
        reasons: Counter[str] = Counter(_reason(r.fallback) for r in asked if not r.by_model)
        return {
            "decisions": len(self.rows),
            "without_model": len(self.rows) - len(asked),  # reaction windows passed at no cost, stalls
            **_figures(asked),
            "per_kind": {k: _figures(v) for k, v in sorted(kinds.items())},
            "engine_refusals": sum(rules.values()),
            "engine_refusals_by_rule": dict(rules.most_common()),
            "fallback_reasons": dict(reasons.most_common()),
            "slowest_s": round(max((r.seconds for r in asked), default=0.0), 2),
            "over_30s": sum(1 for r in asked if r.seconds > SLOW_S),
        }

    def as_dicts(self) -> list[dict[str, Any]]:
        return [asdict(r) for r in self.rows]


def _figures(rows: list[DecisionRow]) -> dict[str, Any]:
    """Shares over every decision that called the model or would have (a resting model is a miss);
    seconds and tokens over those that did call it."""
    n = len(rows)
    if n == 0:
        return {"asked": 0}
    called = [r for r in rows if r.attempts] or rows
    secs = [r.seconds for r in called]
    return {
        "asked": n,
        "called": sum(1 for r in rows if r.attempts),
        "by_model": sum(r.by_model for r in rows),
        "model_share": round(sum(r.by_model for r in rows) / n, 3),
        "first_try_legal": round(sum(r.first_try for r in rows) / n, 3),
        "attempts_per_call": round(sum(r.attempts for r in called) / len(called), 2),
        "seconds_median": round(statistics.median(secs), 2),
        "seconds_mean": round(statistics.fmean(secs), 2),
        "seconds_max": round(max(r.seconds for r in rows), 2),
        "tokens_in_per_decision": round(sum(r.tokens_in for r in called) / len(called), 1),
        "tokens_out_per_decision": round(sum(r.tokens_out for r in called) / len(called), 1),
        # what reached the endpoint, all attempts, schemas included (issue 23: at most 2,000)
        "sent_tokens_per_decision": round(sum(r.sent_tokens for r in called) / len(called), 1),
        "sent_tokens_max": max((r.sent_tokens for r in called), default=0),
        "largest_request_tokens": max((r.largest_request for r in called), default=0),
    }


def refusal_key(refusal: str) -> str:
    """The rule a refusal names (U-... or add-on UA-...); the table's pre-send check of an AI seat's
    own words (issue 23: it contradicts a Fact, the roll) names none and is counted as such."""
    m = RULE_ID.search(refusal)
    if m:
        return m.group(1)
    return "pre-send check" if refusal.startswith("not sent") else "other"


def _counts(stats: Any) -> dict[str, float]:
    return {k: getattr(stats, k, 0) for k in ("model_decisions", "accepted", "first_try_legal", "rested", "retries",
                                              "tokens_in", "tokens_out", "latency_s")}


def _reason(fallback: str | None) -> str:
    """A short category of why the model did not make a decision."""
    text = (fallback or "no reason given").lower()
    for key in ("timeout", "deadline", "length", "http", "connection", "prose", "invalid json", "invalid output",
                "refused", "no structured output", "rests", "circuit"):
        if key in text:
            return key
    return text[:60]

"""LLMPlayer: a seat whose choices come from a chat model, and never stop the game.

The model sees a prompt file for the pending decision kind (rules digest, the state a player
may see, the relevant Facts) and answers in a schema offering only the action types legal now.
The engine judges the answer (`obs.check`); a refusal goes back to the model; after
`max_refusals` retries, or on any transport failure, the HeuristicPlayer decides instead and
the Decision records the fallback. Reaction windows are frequent, so the model is consulted
only when a window concerns this player; otherwise it passes at no cost.
"""
from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from pydantic import BaseModel

from agents.base import Decision, Observation
from agents.heuristic import HeuristicPlayer
from agents.personas import Persona
from engine.universalis import actions as A
from engine.universalis.components import importance
from engine.universalis.ledger import available

from .config import LLMSettings
from .decider import make_decider, redact, request_chars
from .legal_now import action_choices, unusable_types
from .retry import Outcome, decide_with_retries
from .schema_actions import NOT_FOR_PLAYERS, choice_schema, field_choices, to_engine_action
from .state_text import MAX_FACTS, describe_facts, describe_recent, describe_state

__all__ = ["LLMPlayer", "LLMStats", "SeatStatus", "TOKEN_BUDGETS", "max_tokens_for", "model_share_line",
           "prompt_name"]

log = logging.getLogger(__name__)

# decision kinds whose prompt carries the relevant Facts (others skip the retrieval)
FACT_KINDS = {"turn", "reaction", "negotiation", "fact_vote", "narration", "judgment", "overrule_vote"}
# decisions in a row lost to the endpoint or to unreadable answers before the seat says so and
# rests the model (moves the rules refuse do not count: the model is playing, and it learns why)
FAILURE_STREAK = 3
SLOW_GRACE = 4  # decisions since the model's last answer within which a timeout is slowness, not failure
COOLDOWN = 8  # decisions decided by the heuristic while the model rests (doubles per relapse)
MAX_COOLDOWN = 64
MAX_TURN_ACTIONS = 30  # a model that never ends its turn (free speech, say) cannot stall the game
# issue 23: at most 2,000 tokens a decision, schemas included; the margin holds a retry's feedback
# (the earlier answer and the rule that refused it, about 100 tokens) and the request's own JSON
PROMPT_BUDGET = 1700
# the moves that leave a model's menu first when a request would not fit PROMPT_BUDGET: the rarest
# and most specialised first; the core of a turn (narrate, create, introduce, Traits, end) never does
MENU_DROP_ORDER = ("return_component", "restore_importance", "restore_trait", "fade_mini_scene",
                   "frame_mini_scene", "declare_absent", "call_fine", "remove_trait", "set_time",
                   "reduce_importance", "exit_component", "take_over", "propose_tenet", "dialog", "speak",
                   "establish_location", "buy_fact", "introduce_component", "create_component", "add_trait")
# (never dropped: end_turn, end_scene (only the framer can end a scene), narrate_event, and every
# move of a Complication, a vote, a bid or a reaction's pass)
FRAMING_FIRST = ("establish_location", "set_time")  # a framer's choices before the scene has a place
IDLE_TURNS = 3  # a framer whose model only ends turns this often in a row: the heuristic moves the scene
# tokens an answer of each decision kind needs: the action's fields plus a short `why`.
# Enough for a wordy model; a cut-off answer is asked again with twice as many.
TOKEN_BUDGETS: dict[str, int] = {
    "bid": 160, "challenge_bid": 200, "consent": 160, "fact_vote": 200, "fine_vote": 200,
    "judgment": 250, "overrule_vote": 200,
    "prep_turn": 300, "reaction": 300, "negotiation": 300, "dialog_answer": 300,
    "turn": 450, "turn_framing": 450, "turn_complication": 400, "narration": 450,
}
DEFAULT_BUDGET = 400


def max_tokens_for(kind: str, scale: float = 1.0) -> int:
    """The token limit for a decision kind (a prompt name), scaled by `[llm] max_tokens_scale`."""
    return max(32, int(TOKEN_BUDGETS.get(kind, DEFAULT_BUDGET) * scale))


@dataclass(frozen=True)
class SeatStatus:
    """Whether the seat's model is playing, for the page and the terminal.

    `with_model` is False while the seat plays with the heuristic after repeated failures;
    `message` then says so in one line ("Bo is playing without its model: ...").
    """

    with_model: bool = True
    message: str = ""
    failures_in_a_row: int = 0


class ModelBreaker:
    """The circuit breaker every LLM seat shares (Universalis and the other games): a few failed
    decisions in a row rest the model for COOLDOWN decisions, doubling per relapse up to
    MAX_COOLDOWN, and the seat's status says so on the page and in the terminal."""

    name: str
    status: SeatStatus
    status_listeners: list[Callable[[Any, SeatStatus], None]]
    _streak: int
    _cooldown: int
    _rest: int
    _last_failure: str

    def _model_failed(self, reason: str) -> None:
        """Count a decision the model did not make; after a few in a row, rest it and say so.

        The rest doubles each time the model fails again right after one (up to MAX_COOLDOWN
        decisions), so a dead endpoint costs a few deadlines per game, not one per decision.
        """
        self._streak += 1
        self._last_failure = reason
        if self._streak < FAILURE_STREAK:
            return
        message = f"{self.name} is playing without its model: {reason}"
        self._rest = self._cooldown
        self._cooldown = min(MAX_COOLDOWN, self._cooldown * 2)
        self._streak = FAILURE_STREAK - 1  # one more failure after the rest rests it again
        self._set_status(SeatStatus(False, message, self._streak + 1))

    def _model_worked(self) -> None:
        self._streak = 0
        self._cooldown = COOLDOWN
        if not self.status.with_model:
            self._set_status(SeatStatus(True, f"{self.name} is playing with its model again", 0))

    def _set_status(self, status: SeatStatus) -> None:
        changed = status.message != self.status.message or status.with_model != self.status.with_model
        self.status = status
        if not changed:
            return
        log.warning("%s", status.message)  # the terminal (stderr) hears of it
        for listener in list(self.status_listeners):
            try:
                listener(self, status)
            except Exception:  # noqa: BLE001 - a page callback must not stop the game
                log.debug("status listener failed", exc_info=True)


@dataclass
class LLMStats:
    """Counters for one seat, for reports and evaluation (never holds prompts or keys)."""

    decisions: int = 0
    model_decisions: int = 0  # decisions where the model was asked
    first_try_legal: int = 0
    accepted: int = 0
    retries: int = 0
    fallbacks: int = 0
    skipped: int = 0  # reaction windows passed without a model call
    rested: int = 0  # decisions skipped while the endpoint was failing
    by_model: int = 0  # decisions whose action the model chose (== accepted)
    tokens_in: int = 0
    tokens_out: int = 0
    latency_s: float = 0.0
    fallback_reasons: dict[str, int] = field(default_factory=dict)
    # per decision kind (prompt name): [decisions needing a choice, made by the model]
    by_kind: dict[str, list[int]] = field(default_factory=dict)

    def count_kind(self, kind: str, by_model: bool) -> None:
        row = self.by_kind.setdefault(kind, [0, 0])
        row[0] += 1
        row[1] += int(by_model)

    def record(self, outcome: Outcome) -> None:
        """One model call's cost (retries, tokens, time), the same for every kind of LLM seat."""
        self.model_decisions += 1
        self.retries += outcome.retries
        self.tokens_in += outcome.tokens_in
        self.tokens_out += outcome.tokens_out
        self.latency_s += outcome.latency_s

    def accept(self, outcome: Outcome, kind: str) -> None:
        """The model's action was taken: a decision by the model, first try or after retries."""
        self.accepted += 1
        self.by_model += 1
        self.count_kind(kind, True)
        self.first_try_legal += outcome.attempts == 1

    def count_fallback(self, reason: str) -> None:
        """The heuristic decided instead of the model, counted by the reason's category."""
        self.fallbacks += 1
        key = _reason_key(reason)
        self.fallback_reasons[key] = self.fallback_reasons.get(key, 0) + 1

    def share_by_kind(self) -> dict[str, float]:
        return {k: round(m / n, 3) for k, (n, m) in sorted(self.by_kind.items()) if n}

    def add(self, other: "LLMStats") -> "LLMStats":
        out = LLMStats()
        for name in ("decisions", "model_decisions", "first_try_legal", "accepted", "retries", "fallbacks",
                     "skipped", "rested", "by_model", "tokens_in", "tokens_out", "latency_s"):
            setattr(out, name, getattr(self, name) + getattr(other, name))
        out.fallback_reasons = dict(self.fallback_reasons)
        for k, v in other.fallback_reasons.items():
            out.fallback_reasons[k] = out.fallback_reasons.get(k, 0) + v
        out.by_kind = {k: list(v) for k, v in self.by_kind.items()}
        for k, (n, m) in other.by_kind.items():
            row = out.by_kind.setdefault(k, [0, 0])
            row[0] += n
            row[1] += m
        return out

    @property
    def model_share(self) -> float | None:
        """The share of decisions needing a choice that the model made (passes without a call excluded)."""
        needed = self.decisions - self.skipped
        return round(self.by_model / needed, 3) if needed > 0 else None

    def summary(self) -> dict[str, Any]:
        asked = max(1, self.model_decisions)
        return {
            "decisions": self.decisions, "model_decisions": self.model_decisions,
            "by_model": self.by_model, "model_share": self.model_share,
            "model_share_by_kind": self.share_by_kind(),
            "skipped_reactions": self.skipped, "rested": self.rested,
            "first_try_legal_rate": round(self.first_try_legal / asked, 3),
            "accepted_rate": round(self.accepted / asked, 3),
            "retries": self.retries, "fallbacks": self.fallbacks,
            "tokens_in_per_decision": round(self.tokens_in / asked, 1),
            "tokens_out_per_decision": round(self.tokens_out / asked, 1),
            "latency_s_per_decision": round(self.latency_s / asked, 4),
            "fallback_reasons": dict(self.fallback_reasons),
        }


def prompt_name(obs: Observation) -> str:
    """Which prompt file serves this decision."""
    kind = obs.pending.kind
    s = obs.state
    if kind == "turn" and s.turn is not None:
        if s.complication is not None:
            return "turn_complication"
        if s.turn.framing:
            return "turn_framing"
    return kind


class LLMPlayer(ModelBreaker):
    """A seat played by a chat model, with the HeuristicPlayer as its safety net."""

    kind = "llm"

    def __init__(self, name: str, settings: LLMSettings | None = None, persona: Persona | str | None = None,
                 seed: int = 0, seat_index: int = 0, chat_model: BaseChatModel | None = None) -> None:
        base = settings if settings is not None else LLMSettings()
        self.name = name
        self.settings = base.for_seat(name)
        seat = base.seat(name)
        self.heuristic = HeuristicPlayer(name, persona or seat.persona, seed=seed, seat_index=seat_index)
        self.persona = self.heuristic.persona
        key = self.settings.api_key.get_secret_value() if self.settings.api_key else ""
        self._redact_key = key if len(key) >= 4 else ""
        # raises ConfigError (a user's problem, shown in one line) when nothing is configured
        self.decider = make_decider(self.settings, chat_model)
        self.stats = LLMStats()
        self.status = SeatStatus()
        # called with (player, status) whenever the seat loses or regains its model (the app listens)
        self.status_listeners: list[Callable[["LLMPlayer", SeatStatus], None]] = []
        self._streak = 0
        self._rest = 0
        self._cooldown = COOLDOWN
        self._last_failure = ""
        self._answered_at = -1  # stats.model_decisions when the model last answered (-1: never yet)
        self._idle: tuple[int | None, int] = (None, 0)  # (scene, empty turns in a row) as framer
        self._hand_over = False  # the heuristic plays the rest of this turn

    def __repr__(self) -> str:  # never show settings (and so never the key)
        return f"LLMPlayer({self.name!r}, model={self.settings.model!r}, persona={self.persona.name!r})"

    # -- the decision ------------------------------------------------------------------------------
    def decide(self, obs: Observation) -> Decision:
        started = time.monotonic()  # the deadline covers this seat's own work too (the reaction checks)
        self.stats.decisions += 1
        options = self.offered(obs)
        types = tuple(o.type for o in options)
        if not types:
            return self._heuristic(obs, "no action a model could choose")
        concern = ""
        if obs.pending.kind == "reaction":
            concern, quick = self._concern(obs)
            if not concern:
                self.stats.skipped += 1
                return Decision(action=quick, kind="llm", rationale="passes without a model call: nothing here concerns it")
        if obs.pending.kind == "turn" and obs.turn_actions >= MAX_TURN_ACTIONS:
            return self._heuristic(obs, f"{obs.turn_actions} actions this turn: the heuristic finishes it", count=True)
        if obs.pending.kind == "turn" and self._hand_over:
            if obs.turn_actions > 0:  # the heuristic plays out the turn it took over
                return self._heuristic(obs, "the heuristic finishes the stalled turn", count=True)
            self._hand_over = False
        if self._stalling(obs):
            self._idle, self._hand_over = (self._idle[0], 0), True
            return self._heuristic(obs, f"the scene stalls ({IDLE_TURNS} empty turns): the heuristic moves it on",
                                   count=True)
        if self._rest > 0:
            self._rest -= 1
            self.stats.rested += 1
            return self._heuristic(obs, f"the model rests after failing: {self._last_failure}", count=True)
        try:
            shown = [f.id for f in obs.facts if getattr(f, "kind", "") != "tenet"][-MAX_FACTS:] \
                if obs.pending.kind in FACT_KINDS else []
            schema, messages = self.request(obs, options, field_choices(obs.state, self.name, shown), concern)
        except Exception as exc:  # noqa: BLE001 - a prompt bug must not stop the game either
            log.warning("could not build the LLM prompt", exc_info=exc)
            return self._heuristic(obs, f"could not build the prompt: {type(exc).__name__}", count=True)
        chosen: dict[str, BaseModel] = {}

        def validate(choice: BaseModel) -> str | None:
            try:
                action = to_engine_action(choice, self.name, obs.state)
            except Exception as exc:  # noqa: BLE001 - the engine's schema said no
                return f"not a valid action: {' '.join(str(exc).split())[:200]}"
            refusal = obs.check(action) if obs.check is not None else None
            if refusal is None:
                chosen["action"] = action
            return refusal

        outcome = decide_with_retries(
            self.decider, messages, schema, validate, self.settings.max_refusals,
            deadline_s=self.settings.decision_deadline_s, spent_s=time.monotonic() - started,
            max_tokens=max_tokens_for(prompt_name(obs), self.settings.max_tokens_scale))
        st = self.stats
        st.record(outcome)
        if outcome.action is not None and "action" in chosen:
            self._model_worked()
            self._answered_at = st.model_decisions
            st.accept(outcome, prompt_name(obs))
            why = self._redact(str(getattr(outcome.action, "why", "") or "")[:300])
            act = chosen["action"]
            self._note_idle(obs, act)
            cited = [str(getattr(act, "fact"))] if getattr(act, "fact", None) else []
            return Decision(action=act, kind="llm", rationale=why, facts_used=cited,
                            tokens_in=outcome.tokens_in, tokens_out=outcome.tokens_out,
                            latency_s=outcome.latency_s, retries=outcome.retries)
        reason = self._redact(outcome.fallback_reason or "no action")
        if (outcome.fallback_reason or "").startswith("refused "):  # the last attempt's move was refused
            # the model answers and the rules refuse its moves: it is playing, just not well
            self._streak = 0
            self._answered_at = st.model_decisions
        elif self._slow_not_dead(reason):
            log.info("%s: the model was too slow this time (%s); it answered %d decisions ago", self.name, reason,
                     st.model_decisions - self._answered_at)
        else:
            self._model_failed(reason)
        decision = self._heuristic(obs, reason, count=True)
        decision.tokens_in, decision.tokens_out = outcome.tokens_in, outcome.tokens_out
        decision.latency_s, decision.retries = outcome.latency_s, outcome.retries
        return decision

    # -- the circuit breaker (ModelBreaker), and what counts as a failure ----------------------
    def _slow_not_dead(self, reason: str) -> bool:
        """A timeout from a server that answered a few decisions ago: slow (a busy CPU), not gone.

        Resting the model then would hand the next COOLDOWN decisions to the heuristic for
        nothing (measured: most of SmolLM2's lost decisions on a loaded 2-core machine were rests
        after three slow turns); the decision deadline already bounds what a slow answer costs.
        """
        slow = "timeout" in reason or "deadline" in reason
        return slow and self._answered_at >= 0 and self.stats.model_decisions - self._answered_at <= SLOW_GRACE

    def offered(self, obs: Observation) -> list[Any]:
        """The legal options the model is offered: all a player may choose, except that a framer
        without a location is not offered to end the turn or scene (U-FRAME-1: the place first),
        and types the engine would refuse whatever the model wrote are left out (legal_now)."""
        options = [o for o in obs.options if o.type not in NOT_FOR_PLAYERS]
        s = obs.state
        try:
            dead = unusable_types(s, [o.type for o in options], action_choices(s, self.name))
        except Exception:  # noqa: BLE001 - a narrowing aid; the engine judges either way
            log.debug("could not narrow the offered actions", exc_info=True)
            dead = set()
        options = [o for o in options if o.type not in dead]
        sc = s.scene()
        if (obs.pending.kind == "turn" and s.turn is not None and s.turn.framing and sc is not None
                and sc.location is None and any(o.type == "establish_location" for o in options)):
            # the place first (U-FRAME-1, line 359): the framer's menu is the location and the time;
            # the rest comes once the scene has a place (and costs no prompt tokens before)
            options = [o for o in options if o.type in FRAMING_FIRST]
        return options

    def _stalling(self, obs: Observation) -> bool:
        """Ending every turn without acting is legal, but as the framer it can freeze a scene."""
        sc = obs.state.scene()
        return (obs.pending.kind == "turn" and sc is not None and sc.framer == self.name
                and self._idle == (sc.number, self._idle[1]) and self._idle[1] >= IDLE_TURNS)

    def _note_idle(self, obs: Observation, action: BaseModel) -> None:
        sc = obs.state.scene()
        if obs.pending.kind != "turn" or sc is None or sc.framer != self.name:
            return
        empty = getattr(action, "type", "") == "end_turn" and obs.turn_actions == 0
        count = self._idle[1] + 1 if empty and self._idle[0] == sc.number else (1 if empty else 0)
        self._idle = (sc.number, count)

    def _redact(self, text: str) -> str:
        """A server may echo the key in an error message: it must not reach the log."""
        return redact(text, (self._redact_key,))

    def _heuristic(self, obs: Observation, reason: str, count: bool = False) -> Decision:
        """The HeuristicPlayer's decision, marked as a fallback with its reason."""
        decision = self._heuristic_decision(obs)
        decision.fallback = reason
        if count or reason == "no action a model could choose":
            self.stats.count_kind(prompt_name(obs), False)
        if count:
            self.stats.count_fallback(reason)
        return decision

    def _heuristic_decision(self, obs: Observation) -> Decision:
        """The heuristic's choice; its simplest always-legal answer if the heuristic itself fails."""
        try:
            return self.heuristic.decide(obs)
        except Exception as exc:  # noqa: BLE001 - the safety net must not tear
            log.warning("heuristic fallback failed; using its safe answer", exc_info=exc)
            return Decision(action=self.heuristic._safe(obs), kind="heuristic", rationale="safe answer")

    # -- reaction windows --------------------------------------------------------------------------
    def _concern(self, obs: Observation) -> tuple[str, BaseModel]:
        """Why this window concerns the player ('' if not), and the no-call answer (a pass).

        The heuristic's judgement decides: its own wish to react, a Fact it holds contradicted,
        a component it controls or made touched, or being short of coins while an Event it
        could oppose with Traits goes by (an Obstacle earns coins).
        """
        s, me = obs.state, self.name
        w = s.window
        quick: BaseModel = A.Pass(player=me)
        if w is None:
            return "", quick
        st = w.statement
        wish = self._heuristic_decision(obs)
        if getattr(wish.action, "type", "pass") != "pass":
            return f"your instinct is to react ({wish.rationale})", quick
        contradiction = self._contradiction(obs)
        if contradiction:
            return f"it may contradict an established Fact: {contradiction}", quick
        touched = [x for x in st.components if x in s.components
                   and (s.controller(x) == me or s.components[x].created_by == me)]
        if touched and st.actor != me:
            names = ", ".join(s.components[x].label for x in touched)
            return f"it touches {names}, which you control or created", quick
        offered = {o.type for o in obs.options}
        if "obstacle" in offered and available(s, me) < self.persona.reserve + 3:
            rich = [x for x in st.components if x in s.components and importance(s, x) >= 2]
            if rich:
                return "you are short of coins and this Event could become a Complication that pays", quick
        return "", quick

    def _contradiction(self, obs: Observation) -> str:
        """The heuristic's offline contradiction check, as words ('' when none or it fails)."""
        s = obs.state
        st = s.window.statement if s.window is not None else None
        if st is None:
            return ""
        try:
            found = self.heuristic._contradiction(obs, st.text, st.components)
        except Exception:  # noqa: BLE001 - a judgement aid, never a reason to stop
            log.debug("contradiction check failed", exc_info=True)
            return ""
        if not found:
            return ""
        return str(found[-1])

    # -- prompts -----------------------------------------------------------------------------------
    def request(self, obs: Observation, options: list[Any], choices: Any,
                concern: str = "") -> tuple[type[BaseModel], list[BaseMessage]]:
        """The schema and messages for this decision, within PROMPT_BUDGET tokens, schema included.

        Why: a turn has up to 17 legal action types and their schemas alone cost about 2,000
        tokens when they travel in the request (function tools, json_schema); issue 23 allows
        2,000 for everything. The rarest moves leave the menu first (MENU_DROP_ORDER) until the
        request fits; the heuristic still makes them when it plays, and the engine is unchanged.
        """
        kept = list(options)
        while True:
            schema = choice_schema(tuple(o.type for o in kept), choices)
            messages = self.messages(obs, concern, kept)
            droppable = [o for o in kept if o.type in MENU_DROP_ORDER]
            if len(kept) <= 1 or not droppable or self._request_tokens(messages, schema) <= PROMPT_BUDGET:
                return schema, messages
            drop = min(droppable, key=lambda o: MENU_DROP_ORDER.index(o.type))
            kept = [o for o in kept if o is not drop]

    def _request_tokens(self, messages: list[BaseMessage], schema: type[BaseModel]) -> int:
        """What the request will carry, characters / 4, as the decider will send it."""
        try:
            options = self.decider.request_options(self.decider.method, schema, None)
        except Exception:  # noqa: BLE001 - a sizing aid only; a test double may lack it
            return 0
        return request_chars(messages, options) // 4

    def messages(self, obs: Observation, concern: str = "", options: list[Any] | None = None) -> list[BaseMessage]:
        """The system and user messages for this decision, from the prompt files."""
        from prompts import render

        s = obs.state
        kind = obs.pending.kind
        values: dict[str, Any] = {
            "player": self.name,
            "persona": self.persona.name,
            "persona_description": self.persona.description,
            "premise": obs.premise or "(none given)",
            "state": describe_state(s, self.name),
            "recent": describe_recent(obs.recent),
            "options": "\n".join(f"- {o.type}: {o.cost}" + (f" ({o.note})" if o.note else "")
                                 for o in (self.offered(obs) if options is None else options)),
            "turn_actions": obs.turn_actions,
            "concern": concern or "it is your turn to answer",
            "note": obs.pending.note or "",
            "my_pool": self._my_pool(s),
            "statement": s.window.statement.text if s.window is not None else "",
            "challenge": self._challenge_text(s),
            "facts": describe_facts(obs.facts, state=s) if kind in FACT_KINDS else "",
        }
        system, user = render(prompt_name(obs), values)
        return [SystemMessage(content=system), HumanMessage(content=user)]

    def _my_pool(self, s: Any) -> str:
        comp = s.complication
        if comp is None:
            return "(none)"
        mine = [p.key for p in comp.pools if p.owner == self.name]
        if len(mine) > 1:  # Individual Pools (UA-MT-5): the Originator holds a Complication Pool per Target
            return ", ".join(mine)
        return mine[0] if mine else "(you have no pool in this Complication)"

    @staticmethod
    def _challenge_text(s: Any) -> str:
        ch = s.challenge
        if ch is None:
            return ""
        return (f"{ch.challenger} challenges {ch.challenged}'s “{ch.statement.text}”: {ch.reason}"
                + (f" (cites Fact {ch.fact_id})" if ch.fact_id else ""))


def model_share_line(players: Any) -> str | None:
    """One line for a transcript or summary: how many decisions the models made ('' kinds excluded).

    `players`: the LLM seats' players (anything with `.stats`); None when there are none.
    """
    total = LLMStats()
    for player in players:
        stats = getattr(player, "stats", None)
        if isinstance(stats, LLMStats):
            total = total.add(stats)
    needed = total.decisions - total.skipped
    if needed <= 0:
        return None
    share = total.by_model / needed
    worst = sorted(total.share_by_kind().items(), key=lambda kv: kv[1])[:2]
    low = "; lowest: " + ", ".join(f"{k} {v:.0%}" for k, v in worst if v < 1) if worst and worst[0][1] < 1 else ""
    return f"Decisions made by the model: {total.by_model} of {needed} ({share:.0%}){low}"


def _reason_key(reason: str) -> str:
    """A short category for counting fallback reasons."""
    r = reason.lower()
    for key in ("model rests", "deadline", "timeout", "api key", "does not know the model", "rate limiting",
                "refuses the request", "unreachable", "endpoint", "cut off", "declined", "prose", "invalid json",
                "invalid output", "refused", "no structured output", "no choices", "no action a model",
                "actions this turn", "stalls"):
        if key in r:
            return key
    return "other"

"""An LLM seat for any registered ruleset (FUBAR, Paganini, Vele, ...), GM, narrator or player.

Why a module of its own: agents/llm/player.py is Universalis's (its schema narrows Universalis ids,
its prompts are Universalis's). This one asks the ruleset for everything: the action union (the
model's answer schema, cut down to the action types legal now and without the `player` field, which
the seat fills in), the seat's view (the only state the model sees), the pending decision and its
options. The prompts live under prompts/<ruleset>/ (one for the GM or narrator, one for a player).

The machinery is the Universalis player's: `StructuredDecider` (structured output as each server
family enforces it), `decide_with_retries` (a refusal goes back to the model, a deadline holds),
a circuit breaker that rests a failing endpoint, and a seat status. Every decision says why; a
model that cannot produce a legal answer hands the decision to that ruleset's heuristic for the
same seat and role, and the log's meta says so (`fallback`).

Before a statement is sent, the memory's contradiction check reads its words against the Facts
established so far; a contradiction goes back to the model as a refusal, like the rules' own.
"""
from __future__ import annotations

import importlib
import json
import logging
from dataclasses import replace
from functools import lru_cache
from typing import Annotated, Any, Callable, Literal, Optional, Union, get_args, get_origin

from annotated_types import MaxLen
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from pydantic import BaseModel, ConfigDict, Field, create_model

from agents.base import Decision
from agents.game_loop import GameObservation, GamePlayer
from engine.core.ruleset import Option, Pending

from .build_words import WORDED, note_for, plan_lines, shape_of, taken_names, with_words, words_schema
from .config import ConfigError, LLMSettings, is_configured, load_settings
from .decider import make_decider, redact
from .game_legal_now import narrowing
from .interjection import PASS, fillable, interjection_data, interjection_schema
from .player import COOLDOWN, LLMStats, ModelBreaker, SeatStatus
from .retry import Outcome, decide_with_retries
from .schema_actions import WHY_LIMIT, _Lean

__all__ = ["GameLLMPlayer", "LLMConfig", "action_models", "game_choice_schema", "game_llm_player",
           "prompt_for", "describe_view"]

log = logging.getLogger(__name__)

#: The settings an LLM seat uses (the same as Universalis's LLMPlayer): endpoint, model, deadline, retries.
LLMConfig = LLMSettings

NOT_FOR_MODELS = {"roll_dice"}  # the table's dice source answers chance decisions
# the seat's view, as compact JSON, is cut to this many characters: at 7,000 a FUBAR or Vele request held
# 2,900 tokens and SmolLM2 on a shared core spent most of its 22 s deadline reading it
VIEW_CHARS = 3000
LIST_TAIL = 6  # long lists in the view (scenes, answers, struggles) keep their latest items
TEXT_CHARS = 240  # any one string in the view
FACTS_SHOWN = 8  # recalled Facts in a prompt
TEXT_FIELDS = ("text", "question", "situation", "terms", "reason", "line", "description")
# tokens an answer needs, per decision kind; the rest get DEFAULT_BUDGET (a cut-off answer is asked
# again with twice as many by decide_with_retries)
TOKEN_BUDGETS = {"prepare_scenario": 700, "prepare_adventure": 700, "create_character": 800,
                 "build_words": 300, "narrate_outcome": 450, "narrate": 450, "narrate_attack": 400, "interject": 200}
DEFAULT_BUDGET = 350


# --------------------------------------------------------------------------- the answer schema

@lru_cache(maxsize=None)
def action_models(ruleset_name: str) -> dict[str, type[BaseModel]]:
    """The ruleset's action models by `type`, read from its package's `actions.Action` union.

    Why by convention: the Ruleset protocol hands out the union's JSON schema, but a flat per-type
    schema needs the pydantic models themselves; every engine package keeps them in `actions.py`.
    """
    from engine.core.ruleset import get_ruleset

    rs = get_ruleset(ruleset_name)
    table = getattr(rs, "action_types", None)
    if isinstance(table, dict):
        return dict(table)
    package = type(rs).__module__.rsplit(".", 1)[0]
    mod = importlib.import_module(f"{package}.actions")
    table = getattr(mod, "ACTION_TYPES", None)
    if isinstance(table, dict):
        return dict(table)
    union = get_args(getattr(mod, "Action"))[0]
    return {cls.model_fields["type"].default: cls for cls in get_args(union)}


def _narrow(annotation: Any, choices: tuple[str, ...]) -> Any | None:
    """A Literal (or Optional Literal / plain str) field cut down to `choices`; None when it does not fit."""
    optional = get_origin(annotation) is Union and type(None) in get_args(annotation)
    base = next((a for a in get_args(annotation) if a is not type(None)), annotation) if optional else annotation
    if get_origin(base) is Literal and set(choices) <= set(get_args(base)):
        narrowed: Any = Literal[tuple(choices)]  # type: ignore[valid-type]
        return Optional[narrowed] if optional else narrowed
    return None


def _narrowed(annotation: Any, info: Any, how: str, values: tuple[Any, ...]) -> tuple[Any, Any] | None:
    """A field narrowed by agents/llm/game_legal_now (an enum of ids or counts, an exact count); None when it does not
    fit. The field keeps its default and description, not its constraints (a length limit on a Literal is an
    error), except a list of ids, which keeps its length bounds."""
    from annotated_types import Len

    optional = get_origin(annotation) is Union and type(None) in get_args(annotation)
    base = next((a for a in get_args(annotation) if a is not type(None)), annotation) if optional else annotation
    if how == "count" and get_origin(base) is list and values:
        out: Any = Annotated[base, Len(int(values[0]), int(values[0]))]
    elif how == "enum" and values and base is str:
        out = Literal[tuple(values)]  # type: ignore[valid-type]
    elif how == "enum" and values and base is int and all(isinstance(v, int) for v in values):
        out = Literal[tuple(values)]  # type: ignore[valid-type]
    elif how == "enum" and values and get_origin(base) is list and get_args(base) and get_args(base)[0] is str:
        # the list's own length bounds stay (Paganini's combatants: at least 2)
        lengths = [m for m in info.metadata if type(m).__name__ in ("MinLen", "MaxLen", "Len")]
        out = list[Literal[tuple(values)]]  # type: ignore[valid-type, misc]
        if lengths:
            out = Annotated[(out, *lengths)]  # type: ignore[valid-type]
    elif how == "split" and len(values) > 1 and get_origin(base) is list and get_args(base) and \
            isinstance(get_args(base)[0], type) and issubclass(get_args(base)[0], BaseModel):
        item, name = get_args(base)[0], str(values[0])
        if name not in item.model_fields:
            return None
        fixed = [create_model(f"{item.__name__}{i + 1}", __base__=item, **{name: (Literal[v], v)})  # type: ignore[call-overload, valid-type]
                 for i, v in enumerate(values[1:])]
        out = tuple[tuple(fixed)]  # type: ignore[misc]
    else:
        return None
    if info.is_required():
        plain = Field(description=info.description)
    elif info.default_factory is not None:
        plain = Field(default_factory=info.default_factory, description=info.description)
    else:
        plain = Field(default=info.default, description=info.description)
    return (Optional[out] if optional else out), plain


@lru_cache(maxsize=512)
def flat_model(ruleset_name: str, action_type: str, require_type: bool, choices: tuple[str, ...] = (),
               narrow: tuple[tuple[str, str, tuple[Any, ...]], ...] = ()) -> type[BaseModel]:
    """The engine's model for `action_type` without `player`; a Literal field holding all of the
    option's `choices` offers only those (advance kinds, stakes...); `narrow` (game_legal_now) leaves out
    the fields the table refuses now and offers only the ids it accepts."""
    cls = action_models(ruleset_name)[action_type]
    rules = {name: (how, values) for name, how, values in narrow}
    fields: dict[str, Any] = {}
    narrowed_one = False
    for name, info in cls.model_fields.items():
        if name == "player":
            continue
        if name == "type":
            fields[name] = (info.annotation, Field(description="which action") if require_type else info)
            continue
        annotation = info.annotation
        how, values = rules.get(name, ("", ()))
        if how == "omit" and not info.is_required():
            continue
        if how:
            cut = _narrowed(annotation, info, how, values)
            if cut is not None:
                fields[name] = cut
                continue
        if choices and not narrowed_one:
            cut = _narrow(annotation, choices)
            if cut is not None:
                annotation, narrowed_one = cut, True
        fields[name] = (annotation, info)
    return create_model(  # type: ignore[call-overload, no-any-return]
        cls.__name__, __config__=ConfigDict(extra="ignore"), __doc__=cls.__doc__, **fields)


class _Choice(_Lean):
    """A Choice whose JSON schema is built once per class: the decider asks for it on every request,
    and pydantic takes tens of milliseconds to build a union's schema."""

    @classmethod
    def model_json_schema(cls, *args: Any, **kwargs: Any) -> dict[str, Any]:  # type: ignore[override]
        import copy

        if args or kwargs:
            return super().model_json_schema(*args, **kwargs)
        cached = cls.__dict__.get("_schema_cache")
        if cached is None:
            cached = super().model_json_schema()
            setattr(cls, "_schema_cache", cached)
        return copy.deepcopy(cached)


@lru_cache(maxsize=256)
def game_choice_schema(ruleset_name: str, offered: tuple[tuple[str, tuple[str, ...]], ...],
                       narrow: tuple[tuple[str, Any], ...] = ()) -> type[BaseModel]:
    """`Choice{action, why}`: exactly the offered action types (with their choices), discriminated on `type`;
    `narrow`: (action type, its game_legal_now narrowing) pairs."""
    known = action_models(ruleset_name)
    wanted = [(t, c) for t, c in offered if t in known and t not in NOT_FOR_MODELS]
    if not wanted:
        raise ValueError("no action type a model can choose")
    many = len(wanted) > 1
    cuts = dict(narrow)
    models = tuple(flat_model(ruleset_name, t, many, c, cuts.get(t, ())) for t, c in wanted)
    action: Any = models[0] if not many else Annotated[Union[models], Field(discriminator="type")]
    return create_model(  # type: ignore[call-overload, no-any-return]
        "Choice", __base__=_Choice, __doc__="Choose exactly one of the legal actions.",
        action=(action, Field(description="the action, with its `type`")),
        why=(Annotated[str, MaxLen(WHY_LIMIT)], Field(default="", description="one short sentence: why this action")))


def to_engine_action(ruleset_name: str, choice: BaseModel, seat: str) -> BaseModel:
    """The ruleset's action for a parsed Choice, acting as `seat` (a model never acts for another)."""
    from engine.core.ruleset import get_ruleset

    data = choice.action.model_dump(mode="json", exclude_none=True)  # type: ignore[attr-defined]
    cls = action_models(ruleset_name).get(str(data.get("type")))
    if cls is not None and "player" in cls.model_fields:
        data["player"] = seat
    return get_ruleset(ruleset_name).parse_action(data)


def no_choice(ruleset_name: str, options: list[Any]) -> bool:
    """One legal action type with no field but its type: there is nothing for a model to choose, so no
    call is made for it. (A field with a default is still a choice: Vele's spend_fate says how much.)"""
    if len(options) != 1 or options[0].choices:
        return False
    cls = action_models(ruleset_name).get(options[0].type)
    if cls is None:
        return False
    fields = {n: f for n, f in cls.model_fields.items() if n not in ("player", "type")}
    return not fields


def writes_words(ruleset_name: str, types: tuple[str, ...]) -> bool:
    """Whether any of these action types carries words for the fiction (only those need recalled Facts:
    keeping a roll or passing a turn needs none, and a recall costs an embedding)."""
    models = action_models(ruleset_name)
    return any(name in models[t].model_fields for t in types if t in models for name in (*TEXT_FIELDS, "details"))


def statement_text(action: BaseModel) -> str:
    """The words an action adds to the fiction (what the contradiction check reads)."""
    parts = []
    for name in TEXT_FIELDS:
        value = getattr(action, name, None)
        if isinstance(value, str) and value.strip():
            parts.append(value.strip())
    for value in getattr(action, "details", None) or []:
        if isinstance(value, str):
            parts.append(value)
    return " ".join(parts)


# --------------------------------------------------------------------------- the prompt

# keys whose false says something a missing key does not
FALSE_MEANS = frozenset({"positive", "attached"})


def _trim(node: Any, depth: int = 0) -> Any:
    if isinstance(node, str):
        return node if len(node) <= TEXT_CHARS else node[:TEXT_CHARS] + "..."
    if isinstance(node, list):
        items = node[-LIST_TAIL:] if len(node) > LIST_TAIL and depth > 0 else node
        out = [_trim(x, depth + 1) for x in items]
        return ([f"({len(node) - LIST_TAIL} earlier items left out)"] + out) if len(items) < len(node) else out
    if isinstance(node, dict):
        # a false flag says nothing a missing one does not (Vele's components carry seven each), except where
        # false is a value of its own: a FUBAR negative Relationship, a Vele component not attached
        return {k: _trim(v, depth + 1) for k, v in node.items()
                if (v is not False or k in FALSE_MEANS) and v not in (None, [], {}, "")}
    return node


def describe_view(view: dict[str, Any], limit: int = VIEW_CHARS) -> str:
    """What the seat may see, as compact JSON within `limit` characters: long lists keep their latest
    items, and when the whole is still too long every key keeps a fair share (the small ones whole, the
    large ones cut), so one large key (Vele's components) cannot push the rest (the struggle under way,
    the spotlights) out of the prompt."""
    shown = _trim({k: v for k, v in view.items() if k not in ("options", "ruleset", "actions")})
    parts = {k: json.dumps(v, ensure_ascii=False, separators=(",", ":"), default=str) for k, v in shown.items()}
    text = json.dumps(shown, ensure_ascii=False, separators=(",", ":"), default=str)
    if len(text) <= limit:
        return text
    keys = {k: json.dumps(k, ensure_ascii=False) + ":" for k in parts}
    left = max(0, limit - 2 - sum(len(x) + 1 for x in keys.values()))
    share: dict[str, int] = {}
    by_size = sorted(parts, key=lambda k: len(parts[k]))
    for i, k in enumerate(by_size):
        share[k] = min(len(parts[k]), left // (len(by_size) - i))
        left -= share[k]
    cut = " ...(cut)"
    body = ",".join(keys[k] + (v if share[k] >= len(v) else v[:max(0, share[k] - len(cut))] + cut)
                    for k, v in parts.items())
    return "{" + body + "}"


def prompt_for(ruleset_name: str, role: str, view: dict[str, Any], seat: str) -> str:
    """The prompt file of this seat now: `<ruleset>/gm`, `<ruleset>/narrator` (while it holds the
    rotating narrator role) or `<ruleset>/player`."""
    if role == "gm":
        return f"{ruleset_name}/gm"
    if view.get("narrator") == seat:
        return f"{ruleset_name}/narrator"
    return f"{ruleset_name}/player"


def _recent(events: list[Any], n: int = 6) -> str:
    lines = []
    for e in events[-n:]:
        try:
            lines.append("- " + " ".join(str(e.line()).split())[:200])
        except Exception:  # noqa: BLE001 - an event without a line is left out
            continue
    return "\n".join(lines) or "(nothing yet)"


# --------------------------------------------------------------------------- the seat

def heuristic_for(ruleset_name: str, seat: str, role: str, seed: int = 0, seat_index: int = 0,
                  scenes: int = 6) -> GamePlayer:
    """That ruleset's heuristic for this seat and role: the LLM seat's safety net."""
    from agents.game_sim import heuristic_seat

    return heuristic_seat(ruleset_name, seat, role, seed=seed, seat_index=seat_index, scenes=scenes)


class GameLLMPlayer(ModelBreaker):
    """A seat of any ruleset played by a chat model, with the ruleset's heuristic as its safety net."""

    kind = "llm"

    def __init__(self, ruleset_name: str, seat: str, role: str, settings: LLMSettings, *, memory: Any = None,
                 chat_model: BaseChatModel | None = None, heuristic: GamePlayer | None = None, seed: int = 0,
                 seat_index: int = 0, scenes: int = 6) -> None:
        from engine.core.ruleset import get_ruleset

        self.ruleset = get_ruleset(ruleset_name)  # RuleViolation naming the known games for another name
        self.game = ruleset_name
        self.name = seat
        self.role = role
        self.settings = settings.for_seat(seat)
        self.memory = memory
        self.heuristic = heuristic or heuristic_for(ruleset_name, seat, role, seed, seat_index, scenes)
        key = self.settings.api_key.get_secret_value() if self.settings.api_key else ""
        self._redact_key = key if len(key) >= 4 else ""
        self.decider = make_decider(self.settings, chat_model)  # ConfigError when nothing is configured
        self.stats = LLMStats()
        self.status = SeatStatus()
        self.status_listeners: list[Callable[["GameLLMPlayer", SeatStatus], None]] = []
        self._streak = 0
        self._rest = 0
        self._cooldown = COOLDOWN
        self._last_failure = ""
        self._interject_at: Any = None  # the table state (its action count) last weighed out of turn
        self.last_pass_reason = ""  # why the last out-of-turn ask passed without the model's answer
        self.last_messages: list[BaseMessage] = []  # the prompt of the last model call (tests, debugging)

    def __repr__(self) -> str:  # never the settings (so never the key)
        return f"GameLLMPlayer({self.game!r}, {self.name!r}, role={self.role!r}, model={self.settings.model!r})"

    # -- the protocol ------------------------------------------------------------------------------
    def fallback(self, obs: GameObservation) -> BaseModel:
        return self.heuristic.fallback(obs)

    def decide(self, obs: GameObservation) -> Decision:
        self.stats.decisions += 1
        kind = obs.pending.kind
        known = action_models(self.game)
        options = [o for o in obs.options if o.type in known and o.type not in NOT_FOR_MODELS]
        if not options:
            return self._heuristic(obs, "no action a model could choose")
        if no_choice(self.game, options):
            self.stats.skipped += 1
            try:
                action = self.heuristic.decide(obs).action
            except Exception:  # noqa: BLE001 - the safety net must not tear
                action = self.heuristic.fallback(obs)
            return Decision(action=action, kind="llm",
                            rationale=f"no model call: {options[0].type} is the only answer, with nothing to choose")
        if self._rest > 0:
            self._rest -= 1
            self.stats.rested += 1
            return self._heuristic(obs, f"the model rests after failing: {self._last_failure}", count=True)
        if self.game == "vele" and any(o.type == "build" for o in options):
            plan = self._plan(obs)
            if plan is None:
                return self._heuristic(obs, "the heuristic had no plan for the purchase", count=True)
            if getattr(plan.action, "type", "") in WORDED:
                return self._build_words(obs, plan)
            # the plan is something else: the model is never asked for a whole build (a 600-token answer SmolLM2
            # cannot give within the deadline); it buys through _build_words when the plan is to buy
            options = [o for o in options if o.type not in WORDED]
            if not options:
                return self._heuristic(obs, "nothing else to choose at the purchase", plan=plan)
        try:
            cuts = tuple((o.type, narrowing(self.game, obs.view, self.name, o.type)) for o in options)
            schema = game_choice_schema(self.game, tuple((o.type, tuple(o.choices)) for o in options),
                                        tuple(c for c in cuts if c[1]))
            facts = self._recall(obs) if writes_words(self.game, tuple(o.type for o in options)) else []
            messages = self.messages(obs, options, facts)
        except Exception as exc:  # noqa: BLE001 - a prompt bug must not stop the game
            log.warning("could not build the LLM prompt", exc_info=exc)
            return self._heuristic(obs, f"could not build the prompt: {type(exc).__name__}", count=True)
        self.last_messages = messages
        chosen: dict[str, BaseModel] = {}

        def validate(choice: BaseModel) -> str | None:
            return self._judged(obs, lambda: to_engine_action(self.game, choice, self.name), chosen)

        outcome = self._ask(messages, schema, validate, kind)
        return self._settle(obs, outcome, chosen, facts)

    def _settle(self, obs: GameObservation, outcome: Outcome, chosen: dict[str, BaseModel], facts: list[Any],
                note: str = "", plan: Decision | None = None) -> Decision:
        """The model's action when it gave a legal one (its `why`, then `note`), else the heuristic's
        (`plan` when it was made already), with the reason and the calls' cost either way."""
        if outcome.action is not None and "action" in chosen:
            self._model_worked()
            self.stats.accept(outcome, obs.pending.kind)
            why = redact(str(getattr(outcome.action, "why", "") or "")[:300], (self._redact_key,))
            why = "; ".join(x for x in (why or "(the model gave no reason)", note) if x)
            return Decision(action=chosen["action"], kind="llm", rationale=why,
                            facts_used=[f.id for f in facts], tokens_in=outcome.tokens_in,
                            tokens_out=outcome.tokens_out, latency_s=outcome.latency_s, retries=outcome.retries)
        reason = redact(outcome.fallback_reason or "no action", (self._redact_key,))
        if (outcome.fallback_reason or "").startswith("refused "):
            self._streak = 0  # the model answers and the rules refuse: it is playing, just not well
        else:
            self._model_failed(reason)
        decision = self._heuristic(obs, reason, count=True, plan=plan)
        decision.tokens_in, decision.tokens_out = outcome.tokens_in, outcome.tokens_out
        decision.latency_s, decision.retries = outcome.latency_s, outcome.retries
        return decision

    # -- a Vele purchase: the heuristic's numbers, the model's words (agents/llm/build_words.py) ------
    def _plan(self, obs: GameObservation) -> Decision | None:
        try:
            return self.heuristic.decide(obs)
        except Exception:  # noqa: BLE001 - the safety net must not tear
            log.warning("the heuristic could not plan the purchase", exc_info=True)
            return None

    def _build_words(self, obs: GameObservation, plan: Decision) -> Decision:
        """The plan's build or group with the model's names, trait names and aspects (a short answer); the
        decision is the model's, its rationale saying the numbers are the plan's."""
        from prompts import render

        draft: Any = plan.action
        taken = taken_names(obs.view)
        try:
            schema = words_schema(shape_of(draft))
            system, user = render("vele/build_words", {
                # not the names already taken: SmolLM2 shown them copied one (refused three times, eval run 2)
                "seat": self.name, "premise": obs.premise or "(none given)", "plan": plan_lines(draft),
                "recent": _recent(obs.recent, 3)})
        except Exception as exc:  # noqa: BLE001 - a prompt bug must not stop the game
            log.warning("could not build the purchase prompt", exc_info=exc)
            return self._heuristic(obs, f"could not build the prompt: {type(exc).__name__}", count=True, plan=plan)
        messages: list[BaseMessage] = [SystemMessage(content=system), HumanMessage(content=user)]
        self.last_messages = messages
        chosen: dict[str, BaseModel] = {}

        def validate(words: BaseModel) -> str | None:
            return self._judged(obs, lambda: with_words(draft, words, taken), chosen)

        return self._settle(obs, self._ask(messages, schema, validate, "build_words"), chosen, [], note_for(draft), plan)

    # -- out of turn (agents/game_loop.Interjector) -------------------------------------------------
    @property
    def interject_on(self) -> frozenset[str]:
        """The out-of-turn option types this seat watches: its heuristic's (none for games without)."""
        return frozenset(getattr(self.heuristic, "interject_on", ()) or ())

    @property
    def interject_when(self) -> frozenset[str]:
        return frozenset(getattr(self.heuristic, "interject_when", ()) or ())

    def interject(self, obs: GameObservation) -> Decision | None:
        """Act out of turn (a challenge, a counter-struggle, a connection) or pass (None).

        Bounded: weighed once per table state (a table waiting on a person asks again and again), and the
        model is asked only when the moment concerns this seat: its heuristic would act, or the struggle
        waiting for its difficulty is aimed at this seat's component; otherwise it passes without a call
        (counted as skipped). Any failure of the model, a refusal included, is a pass, counted as a fallback."""
        at = obs.view.get("actions")
        if at is not None and at == self._interject_at:
            return None
        self._interject_at = at
        known = action_models(self.game)
        offered = [o for o in obs.options if o.type in self.interject_on and o.type in known]
        if not offered:
            return None
        self.stats.decisions += 1
        try:
            wish = self.heuristic.interject(obs)  # type: ignore[attr-defined]
        except Exception:  # noqa: BLE001 - the heuristic's wish is a hint only
            log.warning("heuristic interjection failed", exc_info=True)
            wish = None
        proposal = wish.action if wish is not None else None
        menu = [o for o in offered if fillable(known, o.type) or getattr(proposal, "type", None) == o.type]
        concern = self._interject_concern(obs, wish)
        if not concern or not menu:
            self.stats.skipped += 1
            return None
        if self._rest > 0:
            self._rest -= 1
            self.stats.rested += 1
            return self._pass(f"the model rests after failing: {self._last_failure}")
        try:
            waiting = f"{', '.join(obs.pending.seats)} to decide {obs.pending.kind}"
            asked = replace(obs, pending=Pending("interject", obs.pending.seats, note=(
                f"out of turn, while the table waits for {waiting}: act now or pass; {concern}")))
            options = [Option(PASS, note="do nothing now; the game goes on")] + menu
            messages = self.messages(asked, options, [])
            schema = interjection_schema(tuple(o.type for o in menu))
        except Exception as exc:  # noqa: BLE001 - a prompt bug must not stop the game
            log.warning("could not build the interjection prompt", exc_info=exc)
            return self._pass(f"could not build the prompt: {type(exc).__name__}")
        self.last_messages = messages
        chosen: dict[str, BaseModel | None] = {}

        def validate(choice: BaseModel) -> str | None:
            act = str(getattr(choice, "act", PASS))
            if act == PASS:
                chosen["action"] = None
                return None
            text = str(getattr(choice, "text", ""))
            return self._judged(obs, lambda: self.ruleset.parse_action(
                interjection_data(known, act, text, self.name, proposal, TEXT_FIELDS)), chosen)

        outcome = self._ask(messages, schema, validate, "interject")
        if outcome.action is None or "action" not in chosen:
            reason = redact(outcome.fallback_reason or "no action", (self._redact_key,))
            if not (outcome.fallback_reason or "").startswith("refused "):
                self._model_failed(reason)
            return self._pass(reason)
        self._model_worked()
        self.stats.accept(outcome, "interject")
        action = chosen["action"]
        if action is None:
            return None
        why = redact(str(getattr(outcome.action, "why", "") or "")[:300], (self._redact_key,))
        return Decision(action=action, kind="llm", rationale=why or "(the model gave no reason)",
                        tokens_in=outcome.tokens_in, tokens_out=outcome.tokens_out, latency_s=outcome.latency_s,
                        retries=outcome.retries)

    def _judged(self, obs: GameObservation, make: Callable[[], BaseModel], chosen: dict[str, Any]) -> str | None:
        """The refusal of the action `make` builds from a model's answer (the ruleset's schema, the established
        Facts, the rules), or None with the action kept in `chosen["action"]`."""
        try:
            action = make()
        except Exception as exc:  # noqa: BLE001 - the ruleset's schema said no
            return f"not a valid action: {' '.join(str(exc).split())[:200]}"
        refusal = self._contradicts(action) or (obs.check(action) if obs.check is not None else None)
        if refusal is None:
            chosen["action"] = action
        return refusal

    def _ask(self, messages: list[BaseMessage], schema: type[BaseModel], validate: Callable[[BaseModel], str | None],
             kind: str) -> Outcome:
        """One decision's model calls (retries, deadline, token budget of its kind), counted in the stats."""
        outcome = decide_with_retries(
            self.decider, messages, schema, validate, self.settings.max_refusals,
            deadline_s=self.settings.decision_deadline_s,
            max_tokens=max(32, int(TOKEN_BUDGETS.get(kind, DEFAULT_BUDGET) * self.settings.max_tokens_scale)))
        self.stats.record(outcome)
        return outcome

    def _interject_concern(self, obs: GameObservation, wish: Decision | None) -> str:
        """Why this moment concerns the seat ('' if not): its heuristic's wish to act, or a struggle aimed at
        a component it plays (the claim it may want to challenge)."""
        if wish is not None:
            return f"your instinct is to act ({wish.rationale[:200]})"
        k = obs.view.get("struggle")
        opponent = k.get("opponent") if isinstance(k, dict) else None
        actor = k.get("actor") if isinstance(k, dict) else None
        if isinstance(opponent, dict) and opponent.get("player") == self.name and \
                not (isinstance(actor, dict) and actor.get("player") == self.name):
            return "the struggle is aimed at a component you play"
        return ""

    def _pass(self, reason: str) -> None:
        """An interjection the model did not make: the seat passes (no heuristic acts for it), counted, and
        its reason kept (a pass returns no Decision to carry it)."""
        self.last_pass_reason = reason
        self.stats.count_kind("interject", False)
        self.stats.count_fallback(reason)
        return None

    # -- memory ------------------------------------------------------------------------------------
    def _recall(self, obs: GameObservation) -> list[Any]:
        """The Facts most like the situation (the pending note and the latest events), from memory."""
        if self.memory is None:
            return []
        query = " ".join([obs.pending.note or ""] + [getattr(e, "text", "") or "" for e in obs.recent[-4:]]).strip()
        try:
            return list(self.memory.recall(query or obs.premise or obs.pending.kind, k=FACTS_SHOWN))
        except Exception as exc:  # noqa: BLE001 - memory is an aid; the game goes on without it
            log.warning("memory recall failed: %s", exc)
            return []

    def _contradicts(self, action: BaseModel) -> str:
        """A refusal in words when the action's statement contradicts an established Fact ('' if not)."""
        if self.memory is None:
            return ""
        text = statement_text(action)
        if not text:
            return ""
        try:
            report = self.memory.check(text)
        except Exception as exc:  # noqa: BLE001 - the check is an aid, not a rule
            log.warning("contradiction check failed: %s", exc)
            return ""
        if not report.contradicts:
            return ""
        return "it contradicts an established Fact: " + "; ".join(report.summary().splitlines())[:400]

    # -- the prompt --------------------------------------------------------------------------------
    def messages(self, obs: GameObservation, options: list[Any], facts: list[Any]) -> list[BaseMessage]:
        from prompts import render

        lines = []
        for o in options:
            extra = f" ({o.note})" if o.note else ""
            pick = f" choose from: {', '.join(o.choices)}" if o.choices else ""
            lines.append(f"- {o.type}: cost {o.cost}{extra}{pick}")
        values = {
            "seat": self.name, "role": self.role, "premise": obs.premise or "(none given)",
            "decision": obs.pending.kind, "note": obs.pending.note or "(none)",
            "options": "\n".join(lines), "view": describe_view(obs.view), "recent": _recent(obs.recent),
            "facts": "\n".join(f"- [{f.kind}] {f.text}" for f in facts) or "(none recalled)",
        }
        system, user = render(prompt_for(self.game, self.role, obs.view, self.name), values)
        return [SystemMessage(content=system), HumanMessage(content=user)]

    # -- the safety net and the circuit breaker ----------------------------------------------------
    def _heuristic(self, obs: GameObservation, reason: str, count: bool = False,
                   plan: Decision | None = None) -> Decision:
        """The heuristic's decision for this seat (`plan` when it was made already), marked as a fallback
        with its reason."""
        try:
            decision = plan if plan is not None else self.heuristic.decide(obs)
        except Exception as exc:  # noqa: BLE001 - the safety net must not tear
            log.warning("heuristic fallback failed; using its simplest answer", exc_info=exc)
            decision = Decision(action=self.heuristic.fallback(obs), kind="heuristic", rationale="simplest answer")
        decision.fallback = reason
        decision.rationale = f"the heuristic decided ({reason}): {decision.rationale}".strip()
        self.stats.count_kind(obs.pending.kind, False)
        if count:
            self.stats.count_fallback(reason)
        return decision


def game_llm_player(ruleset_name: str, seat: str, role: str, config: LLMConfig | None = None,
                    memory: Any = None, *, chat_model: BaseChatModel | None = None, seed: int = 0,
                    seat_index: int = 0, scenes: int = 6) -> GamePlayer:
    """An LLM seat for `ruleset_name`, as `role` ("gm", "player"; Vele's narrator is a player holding
    the role). `config` None: the configured settings (storytable.toml, environment); ConfigError in
    one line when no endpoint is configured and no `chat_model` is given. `memory`: a GameFactMemory
    (agents/memory/ruleset_memory.py) to recall Facts and check statements, or None."""
    settings = config if config is not None else load_settings()
    if chat_model is None and not is_configured(settings):
        raise ConfigError("no LLM configured: set OPENAI_API_KEY or OPENAI_BASE_URL (or [llm] base_url)")
    return GameLLMPlayer(ruleset_name, seat, role, settings, memory=memory, chat_model=chat_model, seed=seed,
                         seat_index=seat_index, scenes=scenes)


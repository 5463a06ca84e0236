"""What a ruleset provides to the table: one small typed protocol, and a registry by name.

Why: the table loop, the AI players, memory, the app and the CLI must be able to run any game
without importing it by name (DESIGN.md, "Rulesets"). The shape follows OpenSpiel's one
Game/State interface (chance decisions, legal actions from the state, one observation per
player) and boardgame.io's `playerView` (what a seat may see is the ruleset's call).

A ruleset is pure like the engines behind it: `apply` never does I/O, reads no clock and rolls
no dice. Dice are asked for by `pending(...).dice` and handed back as an action built by
`dice_action`, so every face is in the log and a replay needs no dice source.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Literal, Protocol, Sequence, runtime_checkable

from pydantic import BaseModel

from engine.core.errors import LogError, RuleViolation

Role = Literal["player", "gm", "narrator"]

DICE_SEAT = "dice"  # who "acts" when a chance decision is answered


@dataclass(frozen=True)
class SeatSpec:
    """A seat as the rules see it: a name and a role. Its kind (person, heuristic, LLM) is the
    table's business, not the rules', so any seat, the GM's included, can change hands."""

    name: str
    role: Role = "player"


@dataclass(frozen=True)
class DiceRequest:
    """`count` dice of `sides` faces, rolled for `key` (a pool, an actor, a side)."""

    key: str
    count: int
    sides: int


@dataclass(frozen=True)
class Pending:
    """The decision a game waits for.

    `kind` is the ruleset's word for it (turn, frame_scene, reroll, roll, ...); `seats` are the
    seats asked, in the order they should be asked; `secret` means answers stay hidden until all
    are in; a chance decision has `seats == ("dice",)` and its `dice` say what to roll.
    """

    kind: str
    seats: tuple[str, ...]
    secret: bool = False
    note: str = ""
    dice: tuple[DiceRequest, ...] = ()

    @property
    def is_chance(self) -> bool:
        return bool(self.dice)


@dataclass(frozen=True)
class Option:
    """An action type a seat may take now, what it costs, and (where few) its concrete choices."""

    type: str
    cost: str = "0"
    note: str = ""
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class MemoryFact:
    """One piece of established fiction, in the shape memory indexes and the contradiction check
    reads, whatever the game calls it (a Trait, a Detail, a Condition, a conflict's answer)."""

    id: str
    kind: str
    text: str
    by: str
    seq: int
    scene: int | None = None
    subject: str | None = None
    removed: bool = False
    place: str | None = None


@runtime_checkable
class GameEvent(Protocol):
    """What `apply` reports: at least a kind, a speaker, words, and a transcript line."""

    kind: str
    player: str
    text: str

    def line(self) -> str: ...


@runtime_checkable
class Ruleset(Protocol):
    """The contract between a game's rules and everything above the engine."""

    name: str
    version: str
    roles: tuple[Role, ...]  # the roles its seats may take; ("player",) for a GM-less game
    die_sizes: tuple[int, ...]  # the dice it may ask for (a front end offers those for physical dice)
    options_model: type[BaseModel]

    def new_game(self, seats: Sequence[SeatSpec], options: BaseModel | dict | None = None) -> Any:
        """A fresh state. Refuses impossible tables with RuleViolation."""

    def parse_action(self, data: dict) -> BaseModel:
        """Validate a dict (from a log, a form or a model) into one of the ruleset's actions."""

    def action_schema(self) -> dict[str, Any]:
        """The JSON schema of the action union: the LLM player's output schema."""

    def apply(self, state: Any, action: BaseModel | dict) -> tuple[Any, list[GameEvent]]:
        """The next state and its events; RuleViolation(rule, reason) leaves `state` as it was."""

    def pending(self, state: Any) -> Pending: ...

    def legal_options(self, state: Any, seat: str) -> list[Option]: ...

    def view(self, state: Any, seat: str | None) -> dict[str, Any]:
        """What `seat` may see (None: a watcher with no seat)."""

    def dice_action(self, state: Any, faces: dict[str, list[int]]) -> BaseModel:
        """The action that hands the faces asked for by `pending(state).dice` to the engine."""

    def facts(self, state: Any) -> list[MemoryFact]: ...

    def invariants(self, state: Any) -> list[str]:
        """Broken invariants, in words; an empty list when the state is sound."""

    def header_config(self, state: Any) -> dict[str, Any]:
        """What a log header must hold to rebuild `state`'s new game."""

    def game_from_header(self, header: dict[str, Any]) -> Any:
        """The new game a log starts from; LogError(1, ...) for a bad header."""

    def summary(self, state: Any) -> dict[str, Any]:
        """The JSON `storytable replay` prints."""

    def is_over(self, state: Any) -> bool: ...


# --- the shared adapter -------------------------------------------------------------------------
@dataclass(frozen=True)
class GameRules:
    """A game engine's own functions, as a ruleset adapter calls them (engine/<game>/rules.py,
    decisions.py, actions.py and its summary)."""

    new_game: Callable[..., Any]  # ([(name, role), ...], options) -> a fresh state
    parse_action: Callable[[dict], BaseModel]
    action_schema: Callable[[], dict[str, Any]]
    apply: Callable[[Any, Any], tuple[Any, list[Any]]]
    pending: Callable[[Any], Pending]
    legal_options: Callable[[Any, str], list[Option]]
    summary: Callable[..., dict[str, Any]]  # (state, seat=None): seat "" is a watcher, None sees all
    roll_dice: Callable[..., BaseModel]  # the dice action, built with faces=...


class GameRuleset:
    """The part of a GM-ful game's Ruleset that only hands over to its engine (FUBAR, Paganini).

    Why a base class: each game wrote the same one-line delegations, seat parsing and header
    round trip; a game now names its engine's functions in `rules` and writes only what is its
    own (its Facts and invariants). A phase named "over" ends the game.
    """

    name: str
    version: str
    roles: tuple[Role, ...]
    die_sizes: tuple[int, ...]
    options_model: type[BaseModel]
    rules: GameRules

    def new_game(self, seats: Sequence[SeatSpec | str], options: BaseModel | dict | None = None) -> Any:
        specs = [x if isinstance(x, SeatSpec) else SeatSpec(str(x)) for x in seats]
        if isinstance(options, BaseModel) and not isinstance(options, self.options_model):
            options = options.model_dump()
        return self.rules.new_game([(x.name, x.role) for x in specs], options)

    def parse_action(self, data: dict) -> BaseModel:
        return self.rules.parse_action(data)

    def action_schema(self) -> dict[str, Any]:
        return self.rules.action_schema()

    def apply(self, state: Any, action: BaseModel | dict) -> tuple[Any, list[Any]]:
        return self.rules.apply(state, action)

    def pending(self, state: Any) -> Pending:
        return self.rules.pending(state)

    def legal_options(self, state: Any, seat: str) -> list[Option]:
        return self.rules.legal_options(state, seat)

    def view(self, state: Any, seat: str | None) -> dict[str, Any]:
        """The GM's seat sees the GM's notes; players and watchers (None) do not."""
        return self.rules.summary(state, seat if seat is not None else "")

    def dice_action(self, state: Any, faces: dict[str, list[int]]) -> BaseModel:
        return self.rules.roll_dice(faces=faces)

    def header_config(self, state: Any) -> dict[str, Any]:
        return {"seats": [{"name": x.name, "role": x.role} for x in state.seats],
                "options": state.options.model_dump()}

    def game_from_header(self, header: dict[str, Any]) -> Any:
        cfg = header.get("config")
        try:
            seats = [SeatSpec(x["name"], x["role"]) for x in cfg["seats"]]  # type: ignore[index]
            return self.new_game(seats, cfg.get("options") or {})  # type: ignore[union-attr]
        except (KeyError, TypeError, AttributeError) as exc:
            raise LogError(1, f"the header's config is incomplete ({exc})") from None
        except RuleViolation as exc:
            raise LogError(1, f"the header's config is refused: {exc}") from None

    def summary(self, state: Any) -> dict[str, Any]:
        return self.rules.summary(state)

    def is_over(self, state: Any) -> bool:
        return state.phase == "over"


# --- registry -----------------------------------------------------------------------------------
DEFAULT_RULESET = "universalis"  # logs written before headers named their ruleset are Universalis

_FACTORIES: dict[str, Callable[[], Ruleset]] = {}
_LOADED: dict[str, Ruleset] = {}


def register(name: str, factory: Callable[[], Ruleset]) -> None:
    """Make a ruleset known by name. A factory, so registering imports nothing heavy."""
    _FACTORIES[name] = factory
    _LOADED.pop(name, None)


def names() -> list[str]:
    return sorted(_FACTORIES)


def get_ruleset(name: str) -> Ruleset:
    """The ruleset called `name`; RuleViolation naming the known ones for any other name."""
    if name not in _FACTORIES:
        raise RuleViolation("GAME", f"no game called {name!r}; known games: {', '.join(names())}")
    if name not in _LOADED:
        _LOADED[name] = _FACTORIES[name]()
    return _LOADED[name]


def ruleset_for_header(header: dict[str, Any]) -> Ruleset:
    """The ruleset a log's header names (none named: Universalis). A version newer than the
    installed ruleset is refused, since its actions may mean something this engine does not do."""
    name = header.get("ruleset") or DEFAULT_RULESET
    if not isinstance(name, str) or name not in _FACTORIES:
        raise LogError(1, f"the log is a game of {name!r}, which this Storytable does not know "
                          f"(known: {', '.join(names())})")
    rs = get_ruleset(name)
    wanted = header.get("ruleset_version")
    if wanted is not None and _version_tuple(str(wanted)) > _version_tuple(rs.version):
        raise LogError(1, f"the log was written by {name} rules version {wanted}; "
                          f"this Storytable has version {rs.version}")
    return rs


def _version_tuple(v: str) -> tuple[int, ...]:
    out = []
    for part in v.split("."):
        digits = "".join(ch for ch in part if ch.isdigit())
        out.append(int(digits) if digits else 0)
    return tuple(out)


def _universalis() -> Ruleset:
    from engine.universalis.ruleset import UniversalisRuleset
    return UniversalisRuleset()


def _fubar() -> Ruleset:
    from engine.fubar.ruleset import FubarRuleset
    return FubarRuleset()


def _paganini() -> Ruleset:
    from engine.paganini.ruleset import PaganiniRuleset
    return PaganiniRuleset()


def _vele() -> Ruleset:
    from engine.vele.ruleset import VeleRuleset
    return VeleRuleset()


register("universalis", _universalis)
register("fubar", _fubar)
register("paganini", _paganini)
register("vele", _vele)


@dataclass
class Replayed:
    """A log folded over its ruleset: the state after its valid part, and where it broke."""

    ruleset: Ruleset
    state: Any
    events: list[Any]
    header: dict[str, Any]
    applied: int
    error: LogError | None = None
    states: list[Any] = field(default_factory=list)


def replay_with(rs: Ruleset, header: dict[str, Any], actions: Sequence[dict[str, Any]],
                keep_states: bool = False) -> Replayed:
    """Fold actions over the header's new game; stop at the first refused one (line = i + 2)."""
    state = rs.game_from_header(header)
    events: list[Any] = []
    states = [state] if keep_states else []
    for i, action in enumerate(actions):
        try:
            state, evs = rs.apply(state, action)
        except RuleViolation as exc:
            return Replayed(rs, state, events, header, i,
                            LogError(i + 2, f"action {i + 1} is refused by the rules: {exc}", i), states)
        events.extend(evs)
        if keep_states:
            states.append(state)
    return Replayed(rs, state, events, header, len(actions), None, states)


def replay_log_text(text: str, keep_states: bool = False) -> Replayed:
    """Replay any game's log text, dispatching on its header. A header that cannot be read
    raises LogError; a damaged later line is reported in `error` with the valid part kept."""
    from engine.core.log import parse_log

    parsed = parse_log(text)
    if not parsed.header:
        assert parsed.error is not None
        raise LogError(parsed.error.line, parsed.error.reason, 0)
    rs = ruleset_for_header(parsed.header)
    out = replay_with(rs, parsed.header, [r.action for r in parsed.records], keep_states)
    if out.error is None and parsed.error is not None:
        out.error = LogError(parsed.error.line, parsed.error.reason, len(parsed.records))
    return out


def header_for(rs: Ruleset, state: Any, game_id: str, extra: dict[str, Any] | None = None) -> str:
    """A log's first line for a game of `rs`: the ruleset's name and version, and its config."""
    import json

    from engine.core.log import header_line

    head = json.loads(header_line(rs.name, {**rs.header_config(state), **(extra or {})}, game_id))
    head["ruleset_version"] = rs.version
    return json.dumps(head, sort_keys=True, ensure_ascii=False)

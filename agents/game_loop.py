"""A small table loop for any registered ruleset (engine/core/ruleset.py), headless.

Why a second loop: agents/table.py runs Universalis and is being changed elsewhere right now;
this loop asks the ruleset for everything (who decides, what dice, what a seat may see), so
FUBAR and later games run without naming them here. Moving Universalis onto it is future work
(see the report of issue 19). Every accepted action is appended to the log as it happens; a
refused AI action falls back to that seat's simplest legal answer, and the log says so.
"""
from __future__ import annotations

import json
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Protocol

from pydantic import BaseModel

from agents.base import Decision
from engine.core.dice import DiceSource, SeededDice
from engine.core.errors import LogError, RuleViolation
from engine.core.log import LogRecord
from engine.core.ruleset import Option, Pending, Ruleset, SeatSpec, header_for, replay_log_text


@dataclass
class GameObservation:
    """What one seat may see when asked: the ruleset's view for that seat, never the raw state."""

    seat: str
    role: str
    view: dict[str, Any]
    pending: Pending
    options: list[Option]
    recent: list[Any] = field(default_factory=list)
    premise: str = ""
    check: Callable[[BaseModel | dict], str | None] | None = None


class GamePlayer(Protocol):
    kind: str

    def decide(self, obs: GameObservation) -> Decision: ...

    def fallback(self, obs: GameObservation) -> BaseModel: ...


class Interjector(Protocol):
    """A seat that may act out of turn (a challenge, a claim) while the game waits for another seat. Optional:
    the table asks only players that have `interject`, and only when the ruleset offers them one of the option
    types they name in `interject_on`, so seats without it (and other games' seats) cost nothing more."""

    interject_on: frozenset[str]
    interject_when: frozenset[str]  # optional: the pending kinds worth asking at all (a cheap first filter)

    def interject(self, obs: GameObservation) -> Decision | None: ...


class GameTable:
    """One game of any ruleset in play: state, log, seats, dice."""

    def __init__(self, ruleset: Ruleset, state: Any, header: dict[str, Any], seats: dict[str, GamePlayer | None],
                 dice: DiceSource | None = None, log_path: Path | None = None,
                 records: list[LogRecord] | None = None, events: list[Any] | None = None) -> None:
        self.ruleset = ruleset
        self.state = state
        self.header = header
        self.seats = seats
        self.dice = dice or SeededDice(None)
        self.log_path = log_path
        self.records: list[LogRecord] = records or []
        self.events: list[Any] = events or []
        # called with the table after every accepted action (memory indexes the new Facts)
        self.listeners: list[Callable[["GameTable"], None]] = []
        self.memory: Any = None  # a GameFactMemory once attached (agents/memory/ruleset_memory.py)
        self.roles = {x["name"]: x.get("role", "player") for x in (header.get("config") or {}).get("seats", [])
                      if isinstance(x, dict)}

    @classmethod
    def new(cls, ruleset: Ruleset, seats: list[tuple[SeatSpec, GamePlayer | None]], options: dict | None = None,
            dice: DiceSource | None = None, log_path: Path | str | None = None, game_id: str | None = None,
            premise: str = "") -> "GameTable":
        """A new game; its log's header names the ruleset, its version, options, seats and premise.
        An existing log file is never overwritten."""
        state = ruleset.new_game([spec for spec, _ in seats], options or {})
        gid = game_id or uuid.uuid4().hex[:12]
        line = header_for(ruleset, state, gid, {"premise": premise})
        header = json.loads(line)
        path = Path(log_path) if log_path else None
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            try:
                with open(path, "x", encoding="utf-8") as fh:
                    fh.write(line + "\n")
            except FileExistsError:
                raise FileExistsError(17, "a file is already there; choose another name", str(path.name)) from None
        return cls(ruleset, state, header, {spec.name: p for spec, p in seats}, dice, path)

    @classmethod
    def load(cls, text: str, allow_partial: bool = False) -> "GameTable":
        """Replay a log of any registered ruleset; every seat comes back as a person's (None)."""
        rep = replay_log_text(text)
        if rep.error is not None and not allow_partial:
            raise rep.error
        from engine.core.log import parse_log
        records = parse_log(text).records[:rep.applied]
        seats = {x["name"]: None for x in (rep.header.get("config") or {}).get("seats", []) if isinstance(x, dict)}
        return cls(rep.ruleset, rep.state, rep.header, seats, None, None, records, rep.events)

    def set_seat(self, name: str, player: "GamePlayer | None") -> None:
        """Hand a seat to an AI (or to a person: None), the GM's seat included, mid-game."""
        if name not in self.seats:
            raise RuleViolation("SEAT", f"{name!r} is not a seat at this table")
        self.seats[name] = player

    def undo(self, count: int = 1) -> None:
        """Take back the last `count` actions: replay the rest and rewrite the log whole (atomically)."""
        import os

        if not 0 < count <= len(self.records):
            raise RuleViolation("UNDO", f"there are {len(self.records)} actions to take back, not {count}")
        kept = self.records[:-count]
        state = self.ruleset.game_from_header(self.header)
        events: list[Any] = []
        for rec in kept:
            state, evs = self.ruleset.apply(state, rec.action)
            events.extend(evs)
        self.state, self.records, self.events = state, kept, events
        if self.memory is not None:  # the undone actions' Facts leave the index's live set
            self.memory.sync(state)
        if self.log_path is not None:
            tmp = self.log_path.with_suffix(self.log_path.suffix + ".tmp")
            tmp.write_text(self.log_text(), encoding="utf-8")
            os.replace(tmp, self.log_path)

    @property
    def premise(self) -> str:
        return str((self.header.get("config") or {}).get("premise", ""))

    def log_text(self) -> str:
        lines = [json.dumps(self.header, sort_keys=True, ensure_ascii=False)] + [r.to_json() for r in self.records]
        return "\n".join(lines) + "\n"

    def check(self, action: BaseModel | dict) -> str | None:
        """The refusal an action would meet now, or None if it would be accepted."""
        try:
            self.ruleset.apply(self.state, action)
        except RuleViolation as exc:
            return str(exc)
        return None

    def submit(self, action: BaseModel | dict, meta: dict[str, Any] | None = None) -> list[Any]:
        state, events = self.ruleset.apply(self.state, action)
        data = action.model_dump(mode="json", exclude_none=True) if isinstance(action, BaseModel) else dict(action)
        rec = LogRecord(len(self.records) + 1, data, meta or {})
        if self.log_path is not None:
            with open(self.log_path, "a", encoding="utf-8") as fh:
                fh.write(rec.to_json() + "\n")
        self.state = state
        self.records.append(rec)
        self.events.extend(events)
        for listener in list(self.listeners):
            try:
                listener(self)
            except Exception:  # noqa: BLE001 - memory is a projection of the log; the game goes on
                import logging
                logging.getLogger(__name__).warning("a table listener failed", exc_info=True)
        return events

    def observe(self, seat: str, options: list[Option] | None = None) -> GameObservation:
        """What `seat` may see now; `options`: its legal options when the caller has them already."""
        rs = self.ruleset
        return GameObservation(seat=seat, role=self.roles.get(seat, "player"), view=rs.view(self.state, seat),
                               pending=rs.pending(self.state),
                               options=rs.legal_options(self.state, seat) if options is None else options,
                               recent=self.events[-12:], premise=self.premise, check=self.check)

    def step(self) -> tuple[bool, tuple[str, ...]]:
        """One decision by the dice or an AI seat: (acted, the seats awaited if nobody could act)."""
        rs = self.ruleset
        pend = rs.pending(self.state)
        if rs.is_over(self.state) or not pend.seats:
            return False, ()
        if pend.dice:
            faces = {d.key: self.dice.roll(d.count, d.sides) for d in pend.dice}
            self.submit(rs.dice_action(self.state, faces), {"decided_by": "dice"})
            return True, ()
        if self.interjection(pend):
            return True, ()
        seat = pend.seats[0]
        player = self.seats.get(seat)
        if player is None:
            return False, pend.seats
        obs = self.observe(seat)
        started = time.perf_counter()
        decision = player.decide(obs)
        decision.latency_s = decision.latency_s or (time.perf_counter() - started)
        meta = decision.meta()
        try:
            self.submit(decision.action, meta)
        except RuleViolation as exc:
            safe = player.fallback(obs)
            try:
                self.submit(safe, {**meta, "fallback": f"refused: {exc}"})
            except RuleViolation:
                return False, (seat,)  # even the simplest answer is refused: wait for a person
        return True, ()

    def interjection(self, pend: Pending) -> bool:
        """Ask the AI seats that watch this kind of decision (Interjector) whether they act out of turn before the
        awaited seat answers; the first accepted action is logged with meta out_of_turn. A refused interjection
        is dropped (the seat was not asked to act, so nothing falls back)."""
        for name, player in self.seats.items():
            hook = getattr(player, "interject", None)
            watch = getattr(player, "interject_on", ())
            when = getattr(player, "interject_when", None)
            if hook is None or name in pend.seats or (when is not None and pend.kind not in when):
                continue
            options = self.ruleset.legal_options(self.state, name)  # once: the observation reuses them
            if not any(o.type in watch for o in options):
                continue
            started = time.perf_counter()
            decision = hook(self.observe(name, options))
            if decision is None:
                continue
            decision.latency_s = decision.latency_s or (time.perf_counter() - started)
            try:
                self.submit(decision.action, {**decision.meta(), "out_of_turn": True})
            except RuleViolation:
                continue
            return True
        return False

    def run(self, stop: Callable[["GameTable"], bool] | None = None, max_steps: int = 100_000) -> int:
        """Step until nobody can act, `stop` says so, or `max_steps`; returns the steps taken."""
        n = 0
        while n < max_steps and not (stop is not None and stop(self)):
            acted, _ = self.step()
            if not acted:
                break
            n += 1
        return n


def replay_file(path: Path | str, keep_writing: bool = False) -> GameTable:
    """Load a saved game. With `keep_writing`, new actions are appended to the same file: only a log
    read whole and without damage is ever written to again."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise LogError(1, "the file is not text (not a Storytable game log)") from None
    table = GameTable.load(text)
    if keep_writing:
        if not text.endswith("\n"):
            raise LogError(len(text.splitlines()), "the last line is unfinished; the file is left as it is")
        table.log_path = p
    return table

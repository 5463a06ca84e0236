"""The table: seats, the loop that asks the right player and applies the answer, the log on disk.

The engine names the pending decision; the table asks that seat (an AI decides at once; a
human seat waits for input from a front end), applies the answer and appends it to the log
file straight away, so nothing is lost on a crash. Dice come from the table's dice source and
enter the engine as a recorded `Roll` action. Any seat can switch between a person and an AI
between two decisions.
"""
from __future__ import annotations

import json
import os
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from pydantic import BaseModel

from agents.base import Decision, Observation, Player
from engine.core.dice import DiceSource, SeededDice
from engine.core.errors import LogError, RuleViolation
from engine.core.log import LogRecord, header_line
from engine.universalis import RULESET, apply, legal_options, new_game, pending
from engine.universalis import actions as A
from engine.universalis.events import Event
from engine.universalis.addons import Addons
from engine.universalis.facts import FactView, facts_seen_by
from engine.universalis.replay import replay_bytes, replay_text
from engine.universalis.state import GameState
from engine.universalis.views import seat_state

Retriever = Callable[[GameState, str, str], list[FactView]]
#: Told after an undo: the replayed state and how many log records were kept (the rest are gone).
RewindListener = Callable[[GameState, int], None]


class TableReadOnly(RuleViolation):
    """Every action is refused while another process writes this table's log.

    A RuleViolation so that every front end shows it as it shows any refused action, and the
    table changes nothing; `rule` names the storage rule rather than a rulebook rule."""

    def __init__(self, reason: str) -> None:
        super().__init__("one writer per table", reason)


@dataclass
class Seat:
    name: str
    player: Player | None  # None: a person decides
    persona: str = ""
    model: str = ""

    @property
    def is_human(self) -> bool:
        return self.player is None


@dataclass
class StepResult:
    acted: bool
    waiting_for: tuple[str, ...] = ()
    events: list[Event] = field(default_factory=list)
    decision: Decision | None = None
    player: str = ""


class Table:
    """One game in play. Construct with `Table.new` or `Table.load`."""

    def __init__(self, state: GameState, header: dict[str, Any], records: list[LogRecord], seats: list[Seat],
                 dice: DiceSource | None = None, log_path: Path | None = None, events: list[Event] | None = None,
                 retriever: Retriever | None = None) -> None:
        self.state = state
        self.header = header
        self.records = records
        self.seats = {s.name: s for s in seats}
        self.dice = dice or SeededDice(None)
        self.log_path = log_path
        self.events: list[Event] = events or []
        self.retriever = retriever
        self.decisions: list[dict[str, Any]] = []
        # told about every applied action (the record and its events)
        self.listeners: list[Callable[[LogRecord, list[Event]], None]] = []
        # told when the log went back (undo): whoever keeps something per action drops what was undone
        self.rewind_listeners: list[RewindListener] = []
        self.damage: LogError | None = None  # where the loaded log was damaged (its valid part is in play)
        self.kept: Path | None = None  # where that damaged file was kept when the game went on
        self._unread: Path | None = None  # a damaged log at log_path: never written to, kept aside first
        self.read_only: str | None = None  # why this process must not write the log (another one does)

    # -- making and loading --------------------------------------------------------------------------
    @classmethod
    def new(cls, seats: list[Seat], starting_coins: int = 25, refreshment: int = 5, starting_player: int = 0,
            dice: DiceSource | None = None, log_path: Path | str | None = None, premise: str = "",
            game_id: str | None = None, addons: Addons | dict | None = None) -> "Table":
        state = new_game([s.name for s in seats], starting_coins, refreshment, starting_player, addons)
        gid = game_id or uuid.uuid4().hex[:12]
        config = {"players": [s.name for s in seats], "starting_coins": starting_coins,
                  "refreshment": refreshment, "starting_player": starting_player, "premise": premise,
                  **({"addons": state.config.addons.changed()} if state.config.addons.any else {}),
                  "seats": [{"name": s.name, "human": s.is_human, "persona": s.persona, "model": s.model} for s in seats]}
        header = json.loads(header_line(RULESET, config, gid))
        path = Path(log_path) if log_path else None
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(header_line(RULESET, config, gid) + "\n")
        return cls(state, header, [], seats, dice, path)

    @classmethod
    def load(cls, text: str | bytes, seats_factory: Callable[[dict], list[Seat]] | None = None,
             dice: DiceSource | None = None, log_path: Path | str | None = None,
             allow_partial: bool = False, source: Path | str | None = None) -> "Table":
        """Replay a log (its text, or its file's bytes). A damaged log raises LogError unless
        `allow_partial`, which keeps the valid part in play and never writes to the damaged file:
        when `source` (the file the log came from) is `log_path`, the first write keeps that file
        aside byte for byte and goes on in a new log (see `continue_log`)."""
        rep = replay_bytes(text) if isinstance(text, bytes) else replay_text(text)
        if rep.error is not None and not allow_partial:
            raise rep.error
        config = rep.header.get("config") or {}
        seats = seats_factory(config) if seats_factory else [
            Seat(s["name"], None, s.get("persona", ""), s.get("model", "")) for s in config.get("seats", [])
        ] or [Seat(n, None) for n in config.get("players", [])]
        t = cls(rep.state, rep.header, rep.records, seats, dice, Path(log_path) if log_path else None, rep.events)
        t.damage = rep.error
        if rep.error is not None and t.log_path is not None and (
                source is None or Path(source).resolve() == t.log_path.resolve()):
            t._unread = t.log_path  # without a source, assume the damaged text came from log_path
        return t

    @classmethod
    def load_file(cls, path: Path | str, **kw) -> "Table":
        """Load a log file (read as bytes: a cut inside a character stops it at that line)."""
        p = Path(path)
        return cls.load(p.read_bytes(), log_path=kw.pop("log_path", p), source=p, **kw)

    # -- the log -----------------------------------------------------------------------------------------
    @property
    def game_id(self) -> str:
        return str(self.header.get("game_id", ""))

    @property
    def premise(self) -> str:
        return str((self.header.get("config") or {}).get("premise", ""))

    def log_text(self) -> str:
        lines = [json.dumps(self.header, sort_keys=True, ensure_ascii=False)]
        lines += [r.to_json() for r in self.records]
        return "\n".join(lines) + "\n"

    def continue_log(self) -> Path | None:
        """Go on from the valid part of a damaged log: keep the damaged file beside under a new
        name, byte for byte, and start a new log with the valid part at the usual name.
        Returns where the damaged file is kept (None: nothing to do)."""
        if self.read_only:
            raise TableReadOnly(self.read_only)
        if self._unread is None or self.log_path is None:
            return None
        from agents.storage.logfile import create_log, keep_aside_and_replace

        if self._unread.exists():
            self.kept = keep_aside_and_replace(self._unread, self.log_text())
        else:  # the damaged file is gone meanwhile: nothing to keep, a new log begins
            create_log(self._unread, self.log_text())
        self._unread = None
        return self.kept

    def _before_write(self) -> None:
        """Every write of the log passes here: refused when read-only; a damaged log is kept first."""
        if self.read_only:
            raise TableReadOnly(self.read_only)
        if self._unread is not None:
            self.continue_log()

    def rewrite_log(self) -> None:
        """Write the whole log atomically (after an undo)."""
        if self.log_path is None:
            return
        self._before_write()
        tmp = self.log_path.with_suffix(self.log_path.suffix + ".tmp")
        tmp.write_text(self.log_text(), encoding="utf-8")
        os.replace(tmp, self.log_path)

    def _append(self, rec: LogRecord) -> None:
        if self.log_path is None:
            return
        self._before_write()
        with open(self.log_path, "a+b") as fh:
            line = (rec.to_json() + "\n").encode("utf-8")
            if fh.tell() > 0:  # a whole log saved without its last newline must not glue two records
                fh.seek(-1, os.SEEK_END)
                if fh.read(1) != b"\n":
                    line = b"\n" + line
            fh.write(line)
            fh.flush()
            os.fsync(fh.fileno())

    # -- acting ----------------------------------------------------------------------------------------
    def check(self, action: BaseModel | dict) -> str | None:
        """The refusal the engine would give, or None if the action is legal now."""
        try:
            apply(self.state, action)
        except RuleViolation as exc:
            return str(exc)
        return None

    def submit(self, action: BaseModel | dict, meta: dict[str, Any] | None = None) -> list[Event]:
        """Apply an action from anyone; raises RuleViolation (and changes nothing) if refused."""
        new_state, events = apply(self.state, action)
        if self.log_path is not None:
            self._before_write()  # before anything changes: a refused write leaves the table as it was
        act = action if isinstance(action, BaseModel) else A.parse_action(action)
        rec = LogRecord(seq=len(self.records) + 1, action=act.model_dump(mode="json"), meta=meta or {})
        self._append(rec)
        self.state = new_state
        self.records.append(rec)
        self.events.extend(events)
        for fn in self.listeners:
            fn(rec, events)
        return events

    def undo(self, count: int = 1) -> None:
        """Replay the log without its last `count` actions (a slip of the hand).

        The action listeners heard of the undone actions; the rewind listeners are then told
        the replayed state and how many records were kept, so they can drop what was undone.
        """
        keep = self.records[:max(0, len(self.records) - count)]
        if len(keep) == len(self.records):
            return
        if self.log_path is not None:
            self._before_write()
        text = "\n".join([json.dumps(self.header, sort_keys=True)] + [r.to_json() for r in keep]) + "\n"
        rep = replay_text(text)
        self.state, self.records, self.events = rep.state, rep.records, rep.events
        self.rewrite_log()
        for fn in self.rewind_listeners:
            fn(self.state, len(self.records))

    def undo_to_human(self) -> None:
        """Undo back to just before the last decision a person made."""
        for i in range(len(self.records) - 1, -1, -1):
            if self.records[i].meta.get("decided_by") == "human":
                self.undo(len(self.records) - i)
                return

    def set_seat(self, name: str, player: Player | None, persona: str = "") -> None:
        """Switch a seat between a person (None) and an AI, between two decisions."""
        seat = self.seats[name]
        seat.player = player
        if persona:
            seat.persona = persona

    # -- observing and stepping -----------------------------------------------------------------------
    def observe(self, name: str) -> Observation:
        s = self.state
        pend = pending(s)
        public = seat_state(s, name)  # others' bids, secret Traits and cards hidden (UA-ENIGMA-1, UA-CDICE-1)
        situation = " ".join(e.text for e in self.events[-6:])
        retriever = self.retriever

        def facts() -> list[FactView]:
            return retriever(s, name, situation) if retriever else default_facts(s, seat=name)

        seat = self.seats.get(name)
        check = self.check if seat is None or seat.is_human else self._ai_check(name)
        return Observation(player=name, state=public, pending=pend, options=legal_options(s, name),
                           facts_fn=facts, recent=self.events[-12:], premise=self.premise, check=check,
                           turn_actions=self._turn_actions(name))

    def _ai_check(self, name: str) -> Callable[[BaseModel | dict], str | None]:
        """The engine's check, then the pre-send check of an AI seat's own words (issue 23): a model
        whose statement contradicts the roll, an elimination or a Fact is told why and says something
        else; a person's words are never second-guessed here."""
        def check(action: BaseModel | dict) -> str | None:
            refusal = self.check(action)
            if refusal is not None or not isinstance(action, BaseModel):
                return refusal
            from agents.presend import presend_clash

            clash = presend_clash(seat_state(self.state, name), [], action, name)  # never quotes another's secret
            return f"not sent: {clash}" if clash else None
        return check

    def _turn_actions(self, name: str) -> int:
        """Paid or free actions `name` took since his current turn began."""
        n = 0
        for e in reversed(self.events):
            if e.kind in ("turn", "bids_revealed", "complication_end", "end_scene"):
                break
            if e.player == name and e.kind not in QUIET_EVENTS:
                n += 1
        return n

    def step(self) -> StepResult:
        """Advance by one decision if an AI or the dice can make it; otherwise say who is awaited."""
        pend = pending(self.state)
        if pend.kind == "roll":
            sides = pend.sides or (6 if self.state.config.addons.die == "d6" else 10)  # d6 add-on (UA-SIX-1)
            currency = self.state.config.addons.currency
            if currency in ("cards_bank", "cards_stack") and not pend.sides:  # face-down cards (UA-CARDS-3)
                from engine.universalis.addon_cards_play import deal
                faces = deal(self.state, lambda k: self.dice.roll(1, k)[0])
            elif currency == "cards_hand" and not pend.sides:  # Cards instead of Dice (UA-CDICE-1..3)
                from engine.universalis import addon_cards_hand as hands
                source = hands.deal_faces if hands.owed(self.state) else hands.roll_faces
                faces = source(self.state, lambda k: self.dice.roll(1, k)[0])
            else:
                faces = {k: self.dice.roll(n, sides) if n else [] for k, n in pend.dice.items()}  # an empty Pool asks nobody
            events = self.submit(A.Roll(faces=faces), {"decided_by": "dice"})
            return StepResult(True, events=events, player="dice")
        humans = []
        for name in pend.players:
            seat = self.seats.get(name)
            if seat is None or seat.is_human:
                humans.append(name)
                continue
            started = time.perf_counter()
            decision = seat.player.decide(self.observe(name))  # type: ignore[union-attr]
            decision.latency_s = decision.latency_s or (time.perf_counter() - started)
            meta = decision.meta()
            try:
                events = self.submit(decision.action, meta)
            except RuleViolation as exc:
                # an AI must never stop the game: fall back to the simplest legal answer
                from agents.heuristic import HeuristicPlayer
                safe = HeuristicPlayer(name)._safe(self.observe(name))
                meta = {**meta, "fallback": f"refused: {exc}", "decided_by": meta.get("decided_by", "ai")}
                events = self.submit(safe, meta)
                decision = Decision(action=safe, kind=decision.kind, fallback=str(exc))
            self.decisions.append({"player": name, "kind": pend.kind, **meta})
            return StepResult(True, events=events, decision=decision, player=name)
        return StepResult(False, waiting_for=tuple(humans))

    def run(self, stop: Callable[["Table"], bool] | None = None, max_steps: int = 100_000,
            progress: Callable[["Table"], None] | None = None) -> StepResult:
        """Step until a person is awaited, `stop` says so, or `max_steps` is reached."""
        last = StepResult(False)
        for _ in range(max_steps):
            if stop is not None and stop(self):
                break
            last = self.step()
            if progress is not None:
                progress(self)
            if not last.acted:
                break
        return last

    def transcript(self) -> list[Event]:
        return [e for e in self.events if e.kind not in QUIET_EVENTS]


QUIET_EVENTS = {"reaction", "bid_placed", "turn", "narration_turn"}


def default_facts(s: GameState, limit: int = 40, seat: str | None = None) -> list[FactView]:
    """Without a memory index: Tenets, the scene's components' Traits, then the latest Facts, as `seat`
    may read them (another's secret Enigma Trait hidden, UA-ENIGMA-1)."""
    sc = s.scene()
    here = set(sc.present) | ({sc.location} if sc and sc.location else set()) if sc else set()
    facts = [f for f in facts_seen_by(s, [seat] if seat else []) if not f.removed]
    exact = [f for f in facts if f.kind == "tenet" or (f.kind == "trait" and f.component_id in here)]
    chosen = {f.id for f in exact}
    rest = [f for f in facts if f.id not in chosen]
    return exact + rest[-max(0, limit - len(exact)):]


def heuristic_seats(names: Iterable[str], seed: int = 0, personas: dict[str, str] | None = None) -> list[Seat]:
    from agents.heuristic import HeuristicPlayer
    out = []
    for i, n in enumerate(names):
        pname = (personas or {}).get(n)
        player = HeuristicPlayer(n, pname, seed=seed, seat_index=i)
        out.append(Seat(n, player, player.persona.name))
    return out

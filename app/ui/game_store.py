"""Tables of the other games (FUBAR, Paganini, Vele) on disk, like Universalis tables in store.py.

Why a second store: store.py is built around Universalis's `Table` (wealth history, reaction
windows, its Facts memory); these games run on agents/game_loop.py's `GameTable`, which asks the
ruleset for everything. The files are the same kind: games/<CODE>/game.jsonl (the log, the truth),
table.json (how each seat is played: role and kind; the dice; the seed) and seats.json (who holds
which seat, app/ui/seats.py). One process writes a table (the flock on table.lock); any other
opens it read-only. A damaged log is never written: its valid part is shown, and the file stays
byte for byte as it was.
"""
from __future__ import annotations

import json
import os
import random
import threading
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable

from agents.game_loop import GameTable
from agents.storage import filelock
from agents.storage.paths import scrub
from app.ui.store import LOCK_NAME, home, new_code, read_only_reason, valid_code
from engine.core.errors import LogError, RuleViolation
from engine.core.ruleset import SeatSpec as RuleSeat
from engine.core.ruleset import get_ruleset

GAMES = {"fubar": "FUBAR", "paganini": "Paganini", "vele": "Death of the Vele"}
KINDS = {"human": "person", "heuristic": "AI (offline)", "llm": "AI (language model)"}


class ReadOnly(Exception):
    """This process may not write the table (another server does, or its log is damaged)."""


@dataclass
class GameSeat:
    """A seat as the table plays it: its name and role (the rules') and who plays it (the table's)."""

    name: str
    role: str = "player"
    kind: str = "human"  # human | heuristic | llm

    @property
    def is_human(self) -> bool:
        return self.kind == "human"


@dataclass
class GameConfig:
    """What the log's header does not say: how each seat is played, the dice and the seed."""

    ruleset: str
    seats: list[GameSeat]
    seed: int = 0
    dice: str = "virtual"  # virtual | physical
    scenes: int = 4  # how long the heuristic GM makes its scenario

    def to_json(self) -> str:
        return json.dumps({"ruleset": self.ruleset, "seats": [asdict(s) for s in self.seats], "seed": self.seed,
                           "dice": self.dice, "scenes": self.scenes}, indent=1)

    @classmethod
    def from_json(cls, text: str) -> "GameConfig":
        d = json.loads(text)
        seats = [GameSeat(str(s["name"]), str(s.get("role", "player")),
                          s.get("kind") if s.get("kind") in KINDS else "human") for s in d["seats"]]
        return cls(str(d["ruleset"]), seats, int(d.get("seed", 0)),
                   "physical" if d.get("dice") == "physical" else "virtual", int(d.get("scenes", 4)))

    @classmethod
    def from_header(cls, header: dict[str, Any]) -> "GameConfig":
        """A table.json lost or unreadable: every seat is a person's, virtual dice."""
        cfg = header.get("config") or {}
        seats = [GameSeat(str(s["name"]), str(s.get("role", "player"))) for s in cfg.get("seats", [])
                 if isinstance(s, dict) and "name" in s]
        return cls(str(header.get("ruleset")), seats)


class TableDice:
    """Virtual dice reproducible from the seed and the log's length: a restarted server rolls
    the faces it would have rolled."""

    def __init__(self, seed: int, table: GameTable) -> None:
        self.seed, self.table = seed, table
        self._at, self._n = -1, 0

    def roll(self, n: int, sides: int = 10) -> list[int]:
        at = len(self.table.records)
        if at != self._at:
            self._at, self._n = at, 0
        rng = random.Random(f"{self.seed}:{at}:{self._n}")
        self._n += 1
        return [rng.randint(1, sides) for _ in range(n)]


def ai_player(ruleset: str, seat: GameSeat, seed: int, index: int, scenes: int = 4) -> tuple[Any, str]:
    """The AI that plays `seat` (None for a person's seat) and a note when an LLM seat could not
    be built and the offline heuristic sits in for it."""
    if seat.kind == "human":
        return None, ""
    if seat.kind == "llm":
        try:
            from agents.llm.game_player import game_llm_player

            return game_llm_player(ruleset, seat.name, seat.role, seed=seed, seat_index=index, scenes=scenes), ""
        except Exception as exc:  # no endpoint, or the LLM player is not there: the table goes on
            note = scrub(f"{seat.name} plays with the offline heuristic: the language model is not available ({exc}).")
            return _heuristic(ruleset, seat, seed, index, scenes), note
    return _heuristic(ruleset, seat, seed, index, scenes), ""


def _heuristic(ruleset: str, seat: GameSeat, seed: int, index: int, scenes: int) -> Any:
    import importlib

    mod = importlib.import_module(f"agents.{ruleset}")
    return mod.heuristic_seat(seat.name, seat.role, seed=seed, seat_index=index, scenes=scenes)


def llm_available() -> bool:
    """Whether the LLM kind can be offered: the game LLM player exists and an endpoint is configured."""
    try:
        import importlib.util

        if importlib.util.find_spec("agents.llm.game_player") is None:
            return False
        from agents.llm.config import is_configured, load_settings

        return bool(is_configured(load_settings()))
    except Exception:
        return False


@dataclass
class GameLive:
    """A table of one of the other games in play in this server process."""

    code: str
    table: GameTable
    config: GameConfig
    lock: threading.RLock = field(default_factory=threading.RLock)
    size: int = 0
    read_only: str | None = None
    damage: LogError | None = None
    notes: list[str] = field(default_factory=list)
    # the log length at which the AI seats last declined to act out of turn: they are asked once a state
    declined_at: int = -1

    @property
    def dir(self) -> Path:
        return home() / self.code

    @property
    def ruleset(self):
        return self.table.ruleset

    def synced(self) -> None:
        p = self.dir / "game.jsonl"
        self.size = p.stat().st_size if p.exists() else 0

    def writable(self) -> None:
        if self.read_only:
            raise ReadOnly(self.read_only)
        if self.damage is not None:
            raise ReadOnly(damage_note(self))

    def save_config(self) -> None:
        self.writable()
        tmp = self.dir / "table.json.tmp"
        tmp.write_text(self.config.to_json(), encoding="utf-8")
        os.replace(tmp, self.dir / "table.json")

    def set_seat_kind(self, name: str, kind: str) -> str:
        """Switch a seat (the GM's included) between a person and an AI, between two decisions."""
        if kind not in KINDS:
            raise ValueError(f"unknown kind {kind!r}")
        self.writable()
        i = [s.name for s in self.config.seats].index(name)
        seat = GameSeat(name, self.config.seats[i].role, kind)
        player, note = ai_player(self.config.ruleset, seat, self.config.seed, i, self.config.scenes)
        self.table.set_seat(name, player)
        self.declined_at = -1  # a new AI seat has not been asked yet
        self.config.seats[i] = seat
        self.save_config()
        attach_memory(self)
        return note

    def pending(self):
        return self.ruleset.pending(self.table.state)

    def needs_typed_roll(self) -> bool:
        return self.config.dice == "physical" and self.pending().is_chance and not self.over()

    def over(self) -> bool:
        return bool(self.ruleset.is_over(self.table.state))

    def interjection_due(self) -> bool:
        """Is a person awaited at a state where the AI seats were not yet asked whether they act out of turn?
        `storytable play` asks them before every person's decision; the page runs the AI seats when this is so
        (a person's action that leads straight to another decision of the same person included), once a state."""
        if self.read_only or self.damage is not None or self.over() or self.ai_pending():
            return False
        pend = self.pending()
        return bool(pend.seats) and not pend.is_chance and len(self.table.records) != self.declined_at \
            and any(getattr(p, "interject", None) is not None for p in self.table.seats.values() if p is not None)

    def ai_pending(self) -> bool:
        """Is the decision pending now one the AI seats (or the virtual dice) make?"""
        pend = self.pending()
        if self.over() or not pend.seats:
            return False
        if pend.is_chance:
            return self.config.dice != "physical"
        return self.table.seats.get(pend.seats[0]) is not None


_MEMORIES: dict[str, Any] = {}  # one Facts memory (one Chroma client) per table folder per process


def attach_memory(live: GameLive) -> None:
    """Index the table's Facts as it plays, for LLM seats to recall and check against; only at a
    table with an LLM seat, and only by its writer. A memory that cannot open is a note, never a
    stop: the LLM seats then play without recall."""
    if live.read_only or live.damage is not None:
        return
    if not any(s.kind == "llm" for s in live.config.seats):
        return
    key = str(live.dir)
    try:
        mem = _MEMORIES.get(key)
        if mem is None:
            from agents.memory.ruleset_memory import GameFactMemory

            mem = _MEMORIES[key] = GameFactMemory.attach(live.table, live.dir)
        elif live.table.memory is not mem:  # a reloaded table reuses the open index
            mem.sync(live.table.state)
            live.table.listeners.append(mem.on_action)
            live.table.memory = mem
    except Exception as exc:  # noqa: BLE001 - the game goes on without recall
        live.notes.append(scrub(f"The Facts memory could not open ({exc}); the AI seats play without recall."))
        return
    for player in live.table.seats.values():
        if getattr(player, "kind", "") == "llm" and getattr(player, "memory", "absent") is None:
            player.memory = mem


_REGISTRY: dict[str, GameLive] = {}
_REG_LOCK = threading.Lock()
_UNREADABLE: dict[str, str] = {}


def _lock_path(code: str) -> Path:
    return home() / code / LOCK_NAME


def is_game_table(code: str) -> bool:
    """Is the table at `code` one of the other games? Read from table.json, else the log's header."""
    if not valid_code(code):
        return False
    d = home() / code
    try:
        r = json.loads((d / "table.json").read_text(encoding="utf-8")).get("ruleset")
        if isinstance(r, str):
            return r in GAMES
    except (OSError, ValueError, AttributeError):
        pass
    try:
        with open(d / "game.jsonl", "rb") as fh:
            first = fh.readline(1_000_000)
        head = json.loads(first.decode("utf-8"))
        return isinstance(head, dict) and head.get("ruleset") in GAMES
    except (OSError, ValueError, UnicodeDecodeError):
        return False


def create(ruleset: str, seats: list[GameSeat], options: dict | None = None, seed: int = 0, dice: str = "virtual",
           premise: str = "", scenes: int = 4) -> GameLive:
    """A new table on disk, this process its writer. RuleViolation (nothing written) for an
    impossible table: the ruleset says which rule refused it."""
    if ruleset not in GAMES:
        raise RuleViolation("GAME", f"no game called {ruleset!r} here; choose one of {', '.join(GAMES)}")
    rs = get_ruleset(ruleset)
    names = [s.name for s in seats]
    if any(not n.strip() for n in names):
        raise RuleViolation("SEAT", "every seat needs a name")
    if len({n.lower() for n in names}) != len(names):
        raise RuleViolation("SEAT", "two seats have the same name")
    rs.new_game([RuleSeat(s.name, s.role) for s in seats], options or {})  # refuses before anything is written
    config = GameConfig(ruleset, list(seats), seed, dice, scenes)
    players, notes = [], []
    for i, s in enumerate(seats):
        p, note = ai_player(ruleset, s, seed, i, scenes)
        players.append((RuleSeat(s.name, s.role), p))  # type: ignore[arg-type]
        if note:
            notes.append(note)
    code = new_code()
    d = home() / code
    d.mkdir(parents=True, exist_ok=True)
    if filelock.acquire(_lock_path(code)) is None:
        raise ReadOnly(read_only_reason(code))
    (d / "table.json").write_text(config.to_json(), encoding="utf-8")  # first: the folder says its game
    table = GameTable.new(rs, players, options or {}, log_path=d / "game.jsonl", game_id=code.lower(),
                          premise=premise)
    live = GameLive(code, table, config, notes=notes)
    table.dice = TableDice(seed, table)
    live.synced()
    attach_memory(live)
    with _REG_LOCK:
        _REGISTRY[str(d)] = live
    return live


def why_not(code: str) -> str:
    if not valid_code(code):
        return f"{code!r} is not a table code."
    return _UNREADABLE.get(str(home() / code)) or f"There is no table {code} on this server."


def open_table(code: str) -> GameLive | None:
    """The live table for a code, (re)loaded from disk when the log changed under it."""
    if not valid_code(code):
        return None
    d = home() / code
    log = d / "game.jsonl"
    k = str(d)
    with _REG_LOCK:
        live = _REGISTRY.get(k)
    if live is not None:
        with live.lock:
            takeover = live.read_only is not None and filelock.acquire(_lock_path(code)) is not None
            if not takeover and log.exists() and log.stat().st_size == live.size:
                return live
    with _REG_LOCK:
        if not log.exists():
            _REGISTRY.pop(k, None)
            return None
        writer = filelock.acquire(_lock_path(code)) is not None
        data = log.read_bytes()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            text = data[:exc.start].decode("utf-8")
            text = text[:text.rfind("\n") + 1]
        try:
            table = GameTable.load(text, allow_partial=True)
        except (LogError, RuleViolation, ValueError, KeyError, TypeError) as exc:
            _REGISTRY.pop(k, None)
            _UNREADABLE[k] = (f"The log of table {code} cannot be read ({scrub(str(exc))}). Nothing was loaded and "
                              "nothing was changed: the file is kept as it is.")
            return None
        _UNREADABLE.pop(k, None)
        damage = _damage(text, data, len(table.records))
        try:
            config = GameConfig.from_json((d / "table.json").read_text(encoding="utf-8"))
            if [s.name for s in config.seats] != list(table.seats):
                raise ValueError("seats differ from the log's")
        except (OSError, ValueError, KeyError, TypeError):
            config = GameConfig.from_header(table.header)
        live = GameLive(code, table, config, read_only=None if writer else read_only_reason(code), damage=damage)
        for i, s in enumerate(config.seats):
            p, note = ai_player(config.ruleset, s, config.seed, i, config.scenes)
            table.seats[s.name] = p
            if note:
                live.notes.append(note)
        table.log_path = log if (writer and damage is None) else None  # never append to a damaged file
        table.dice = TableDice(config.seed, table)
        live.synced()
        attach_memory(live)
        _REGISTRY[k] = live
        return live


def _damage(text: str, data: bytes, applied: int) -> LogError | None:
    """Where the log on disk goes wrong, or None when every line of it was applied."""
    lines = [ln for ln in data.split(b"\n")]
    if lines and lines[-1] == b"":
        lines.pop()
    if len(lines) == applied + 1 and data.endswith(b"\n") and len(text) == len(data.decode("utf-8", "replace")):
        return None
    line = applied + 2
    return LogError(line, "this line cannot be read or is refused by the rules", applied)


def damage_note(live: GameLive) -> str:
    err = live.damage
    assert err is not None
    return (f"The game log is damaged at line {err.line}: the {err.valid_records} actions before it are shown. "
            "The file is kept exactly as it is and nothing is written to it; the host can go on from the valid "
            "part (the damaged file is then kept beside the new log).")


def submit(live: GameLive, action: Any, who: str = "human") -> list:
    """Apply an action and append it to the log; RuleViolation leaves everything as it was."""
    with live.lock:
        live.writable()
        events = live.table.submit(action, {"decided_by": who})
        live.synced()
        return events


def run_ai(live: GameLive, progress: Callable[[str, Any], None] | None = None, max_steps: int = 300) -> int:
    """Let AI seats and virtual dice decide until a person (or typed dice) is awaited."""
    steps = 0
    with live.lock:
        if live.read_only or live.damage is not None:
            return 0
        while steps < max_steps:
            before = len(live.table.records)
            if live.ai_pending():
                acted, _ = live.table.step()
            elif live.over() or not live.pending().seats or live.pending().is_chance:
                break
            else:  # a person is awaited: AI seats may still act out of turn first (a challenge, a claim),
                at = len(live.table.records)  # asked once at a state, not again on every rerun of the page
                acted = at != live.declined_at and live.table.interjection(live.pending())
                if not acted:
                    live.declined_at = at
            if not acted:
                break
            steps += 1
            if progress is not None:
                for rec in live.table.records[before:]:
                    progress(str(rec.action.get("player", "dice")), rec)
        live.synced()
    return steps


def upload_ruleset(data: bytes) -> str | None:
    """The game an uploaded log's header names, if it is one of these games."""
    first = data.split(b"\n", 1)[0]
    try:
        head = json.loads(first.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None
    r = head.get("ruleset") if isinstance(head, dict) else None
    return r if r in GAMES else None


def import_upload(data: bytes) -> GameLive:
    """A new table from an uploaded log of one of these games: its valid part is the new table's
    log (every seat a person's, for the uploader to hold or hand to AI); a damaged upload's bytes
    are kept beside it as they came. LogError when nothing in it is valid; nothing is written then."""
    from app.ui.store import UPLOAD_KEPT

    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        text = data[:exc.start].decode("utf-8")
        text = text[:text.rfind("\n") + 1]
    table = GameTable.load(text, allow_partial=True)  # LogError when even the header is bad
    damage = _damage(text, data, len(table.records))
    config = GameConfig.from_header(table.header)
    code = new_code()
    d = home() / code
    d.mkdir(parents=True, exist_ok=True)
    if filelock.acquire(_lock_path(code)) is None:
        raise ReadOnly(read_only_reason(code))
    (d / "table.json").write_text(config.to_json(), encoding="utf-8")
    with open(d / "game.jsonl", "x", encoding="utf-8") as fh:
        fh.write(table.log_text())
    if damage is not None:
        (d / UPLOAD_KEPT).write_bytes(data)
    live = open_table(code)
    assert live is not None
    if damage is not None:
        live.notes.append(f"The uploaded file is damaged at line {damage.line}: the {damage.valid_records} actions "
                          f"before it are loaded. The uploaded file is kept as it came, as {code}/{UPLOAD_KEPT}.")
    return live


def continue_damaged(live: GameLive) -> str:
    """The host goes on from a damaged log's valid part: the damaged file keeps its bytes under a
    second name beside it (agents/storage/logfile.py), and a whole log of the valid part takes its
    place. Returns the kept file's name (never a server path)."""
    from agents.storage.logfile import keep_aside_and_replace

    with live.lock:
        if live.read_only:
            raise ReadOnly(live.read_only)
        if live.damage is None:
            return ""
        log = live.dir / "game.jsonl"
        kept = keep_aside_and_replace(log, live.table.log_text())
        live.damage = None
        live.table.log_path = log
        live.synced()
        return kept.name


def log_withheld(live: GameLive, seats: list[str]) -> str:
    """Why the log download is withheld from a browser holding `seats`, or "": the log holds every action as
    taken, so while it holds what the views keep from this browser (a ruleset's `log_secrets`, e.g. a Vele hidden
    roll's dice) it stays on the server, whole, and is offered when that is no longer secret or the game is over."""
    secrets = getattr(live.ruleset, "log_secrets", None)
    held = secrets(live.table.state, seats) if secrets is not None and not live.over() else []
    if not held:
        return ""
    return ("The log holds " + "; ".join(held) + ": it can be saved here once that is no longer secret or the game "
            "is over (the table keeps it on the server meanwhile).")


def log_download(live: GameLive) -> str:
    """The log as a player downloads it: the same JSON values, with <, > and & as \\u escapes."""
    from app.ui.safe import json_text

    return json_text(live.table.log_text())

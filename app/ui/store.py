"""Tables on disk: games/<CODE>/game.jsonl (the event log) and table.json (how seats are played).

Why a module without Streamlit: the game must survive a browser refresh and a server restart,
and several browsers must share one table. So the truth is the log on disk, and one process-wide
registry keeps the live `Table` per code (all sessions of this server share it), reloading it
from disk when the file changed under it.

Why a lock (games/<CODE>/table.lock): two server processes on one games folder would both
append to one log. The process holding the lock writes; any other opens the table read-only and
follows the writer's moves; the kernel drops the lock when its process dies.
Why a damaged log is never written: it is the only copy of the game. Its valid part is played,
and the first write keeps the damaged file beside the new log, byte for byte (agents/storage).
"""
from __future__ import annotations

import json
import os
import random
import secrets
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agents.seating import SeatSpec
from agents.storage import filelock
from agents.storage.paths import scrub, shown_path
from agents.table import Seat, Table, TableReadOnly
from app.ui import reactions as windows
from engine.core.errors import LogError

LOCK_NAME = "table.lock"
UPLOAD_KEPT = "upload.damaged.jsonl"  # the bytes of a damaged upload, kept beside its table

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
AI_KINDS = ("heuristic", "llm")


def home() -> Path:
    """Where games live: $STORYTABLE_HOME, else ./games."""
    return Path(os.environ.get("STORYTABLE_HOME") or "games").resolve()


def new_code() -> str:
    """An unguessable table code (96 random bits): the code is the link that lets one watch."""
    while True:
        code = secrets.token_urlsafe(12)
        # one code in 64 starts with "-", which valid_code refuses (it reads as an option on a command line)
        if valid_code(code) and not (home() / code).exists():
            return code


def valid_code(code: str) -> bool:
    """Codes from token_urlsafe, and the short codes of tables made before them."""
    return 4 <= len(code) <= 40 and code[0] != "-" and all(ch.isascii() and (ch.isalnum() or ch in "-_") for ch in code)


class AppDice:
    """Virtual dice reproducible from the table's seed and the log's length, so a restarted
    server rolls the same faces it would have rolled."""

    def __init__(self, seed: int, table: "Table | None" = None) -> None:
        self.seed = seed
        self.table = table
        self._at = -1
        self._n = 0

    def roll(self, n: int, sides: int = 10) -> list[int]:
        at = len(self.table.records) if self.table is not None else 0
        if at != self._at:
            self._at, self._n = at, 0
        rng = random.Random(f"{self.seed}:{at}:{self._n}")
        self._n += 1
        return [rng.randint(1, sides) for _ in range(n)]


@dataclass
class TableConfig:
    """What the log's header does not say: how each seat is played, the dice, the seed."""

    seats: list[SeatSpec]
    seed: int = 0
    dice: str = "virtual"  # virtual | physical
    ruleset: str = "universalis"
    notes: list[str] = field(default_factory=list)
    reactions: dict[str, str] = field(default_factory=dict)  # seat -> windows.MODES key (default: concerns)

    def reaction_mode(self, name: str) -> str:
        return self.reactions.get(name, windows.DEFAULT)

    def to_json(self) -> str:
        return json.dumps({"seats": [s.__dict__ for s in self.seats], "seed": self.seed, "dice": self.dice,
                           "ruleset": self.ruleset, "reactions": self.reactions}, indent=1)

    @classmethod
    def from_json(cls, text: str) -> "TableConfig":
        d = json.loads(text)
        modes = d.get("reactions") or {}
        modes = {str(k): v for k, v in modes.items() if v in windows.MODES} if isinstance(modes, dict) else {}
        return cls([SeatSpec(**s) for s in d["seats"]], int(d.get("seed", 0)), d.get("dice", "virtual"),
                   d.get("ruleset", "universalis"), reactions=modes)

    @classmethod
    def from_header(cls, header: dict[str, Any], seed: int = 0) -> "TableConfig":
        cfg = header.get("config") or {}
        seats = [SeatSpec(s["name"], "human" if s.get("human") else "heuristic", s.get("persona", ""), s.get("model", ""))
                 for s in cfg.get("seats", [])] or [SeatSpec(n, "human") for n in cfg.get("players", [])]
        return cls(seats, seed)


def make_seat(spec: SeatSpec, seed: int, index: int) -> tuple[Seat, str]:
    """A Seat for a spec; an AI seat that cannot be built (no LLM configured) sits as the heuristic."""
    from agents.seating import make_player

    try:
        player = make_player(spec, seed=seed, seat_index=index)
        note = ""
    except Exception as exc:  # an LLM seat without a model must not stop the table
        player = make_player(SeatSpec(spec.name, "heuristic", spec.persona), seed=seed, seat_index=index)
        note = scrub(f"{spec.name} plays with the offline heuristic: the language model is not available ({exc}).")
    persona = spec.persona or (getattr(getattr(player, "persona", None), "name", "") if player else "")
    return Seat(spec.name, player, persona, spec.model), note


@dataclass
class Live:
    """A table in play in this server process."""

    code: str
    table: Table
    config: TableConfig
    lock: threading.RLock = field(default_factory=threading.RLock)
    size: int = 0  # log file size after our last write: a different size means someone else wrote
    history: list[dict[str, int]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def dir(self) -> Path:
        return home() / self.code

    @property
    def read_only(self) -> str | None:
        """Why this process may not write the table (another process does), or None."""
        return self.table.read_only

    def save_config(self) -> None:
        if self.read_only:
            raise TableReadOnly(self.read_only)
        tmp = self.dir / "table.json.tmp"
        tmp.write_text(self.config.to_json(), encoding="utf-8")
        os.replace(tmp, self.dir / "table.json")

    def synced(self) -> None:
        """Call after changing the log: remember its size so we do not reload our own writes."""
        p = self.table.log_path
        self.size = p.stat().st_size if p is not None and p.exists() else 0

    def set_seat_kind(self, name: str, kind: str, persona: str = "", model: str = "") -> str:
        """Switch a seat between a person and an AI between two decisions; returns a note or ''."""
        if self.read_only:
            return self.read_only
        i = [s.name for s in self.config.seats].index(name)
        spec = SeatSpec(name, kind, persona, model)  # type: ignore[arg-type]
        seat, note = make_seat(spec, self.config.seed, i)
        self.table.set_seat(name, seat.player, seat.persona)
        self.table.seats[name].model = model
        self.config.seats[i] = spec
        self.save_config()
        return note

    def set_reaction_mode(self, name: str, mode: str) -> None:
        """A person's choice of when to be asked in reaction windows, kept in table.json."""
        if mode not in windows.MODES:
            raise ValueError(f"unknown reaction setting {mode!r}")
        if self.read_only:
            self.notes.append(self.read_only)
            return
        self.config.reactions[name] = mode
        self.save_config()

    def wealth_history(self) -> list[dict[str, int]]:
        """Wealth of every seat after each action (index 0: the start)."""
        if len(self.history) != len(self.table.records) + 1:
            from engine.universalis.replay import replay_records

            rep = replay_records(self.table.header, self.table.records, keep_states=True)
            self.history = [{p.name: p.wealth for p in st.players} for st in rep.states]
        return self.history


_REGISTRY: dict[str, Live] = {}
_REG_LOCK = threading.Lock()


def _key(code: str) -> str:
    return str(home() / code)


def _attach(live: Live) -> Live:
    live.table.dice = AppDice(live.config.seed, live.table)
    live.synced()
    if live.read_only:  # a viewer: the writer keeps the Facts memory; search here uses plain text
        return live

    def on_submit(rec, events) -> None:
        if len(live.history) == len(live.table.records):
            live.history.append({p.name: p.wealth for p in live.table.state.players})

    def on_rewind(state, kept: int) -> None:  # an undo: the wealth after the undone actions is history no more
        del live.history[kept + 1:]

    live.table.listeners.append(on_submit)
    live.table.rewind_listeners.append(on_rewind)
    _attach_memory(live)
    live.synced()
    return live


_MEMORIES: dict[str, Any] = {}  # one memory (one Chroma client) per game folder per process


def _attach_memory(live: Live) -> None:
    """Index Facts as they are bought, when the memory package offers a GameMemory."""
    try:
        from agents.memory.game import GameMemory, fingerprint_of  # type: ignore[import-not-found]
    except Exception:
        return
    try:
        key = str(live.dir)
        mem = _MEMORIES.get(key)
        if mem is None:
            mem = _MEMORIES[key] = GameMemory.attach(live.table, live.dir)
        else:  # a reloaded table reuses the open index
            mem.table = live.table
            live.table.listeners.append(mem.on_action)
            live.table.rewind_listeners.append(mem.on_rewind)
            live.table.retriever = mem.retriever
            resync_memory(live)
        live.table.memory = mem  # type: ignore[attr-defined]
    except Exception as exc:  # the game goes on without retrieval
        live.notes.append(scrub(f"The Facts memory could not open ({exc}); search uses plain text."))


def resync_memory(live: Live) -> None:
    """After a reload the log may have changed under the memory: bring the Fact memory to it.
    (An undo needs nothing here: the table tells the memory itself, as a rewind listener.)"""
    mem = getattr(live.table, "memory", None) or _MEMORIES.get(str(live.dir))
    if mem is None:
        return
    try:
        from agents.memory.game import fingerprint_of  # type: ignore[import-not-found]

        mem.ensure_fresh(live.table.state, fingerprint_of(live.table.header, live.table.records))
    except Exception as exc:  # retrieval degrades; the game goes on
        live.notes.append(scrub(f"The Facts memory could not follow the undo ({exc})."))


def undo_to_human(live: Live) -> None:
    """Take back the last decision a person made (a slip of the hand). Passes the table made for
    a person by his reaction setting are skipped: undoing one would only see it made again."""
    with live.lock:
        if live.read_only:
            live.notes.append(live.read_only)
            return
        recs = live.table.records
        for i in range(len(recs) - 1, -1, -1):
            if recs[i].meta.get("decided_by") == "human" and not windows.is_auto(recs[i].meta):
                live.table.undo(len(recs) - i)  # the rewind listeners bring history and memory along
                break
        live.synced()


def _lock_path(code: str) -> Path:
    return home() / code / LOCK_NAME


def read_only_reason(code: str) -> str:
    """Why a second server process shows this table read-only, in a player's words."""
    who = filelock.holder(_lock_path(code))
    return (f"Another Storytable server ({who}) is playing table {code}: this page shows it read-only and "
            "follows its moves. It becomes playable here when that server stops.")


def close(code: str) -> None:
    """This process lets go of a table: forgets it and releases its writer's lock, so another
    process (a server the table was set up for) can write it."""
    _REGISTRY.pop(_key(code), None)
    if _MEMORIES.pop(str(home() / code), None) is not None:
        from agents.memory.index import close_local
        close_local(home() / code)
    filelock.release(_lock_path(code))


def create(config: TableConfig, starting_coins: int = 25, refreshment: int = 5, premise: str = "",
           code: str | None = None, addons=None) -> Live:
    """Make a new table on disk and register it (this process is its writer)."""
    code = code or new_code()
    d = home() / code
    d.mkdir(parents=True, exist_ok=True)
    if filelock.acquire(_lock_path(code)) is None:
        raise TableReadOnly(read_only_reason(code))
    if (d / "game.jsonl").exists():
        raise FileExistsError(f"table {code} already has a game log")  # never overwrite a game
    seats, notes = [], []
    for i, spec in enumerate(config.seats):
        seat, note = make_seat(spec, config.seed, i)
        seats.append(seat)
        if note:
            notes.append(note)
    table = Table.new(seats, starting_coins, refreshment, log_path=d / "game.jsonl", premise=premise, game_id=code.lower(),
                      addons=addons)
    live = Live(code, table, config, notes=notes)
    live.save_config()
    with _REG_LOCK:
        _REGISTRY[_key(code)] = _attach(live)
    return live


_UNREADABLE: dict[str, str] = {}  # code -> why its log could not be opened at all (last attempt)


def why_not(code: str) -> str:
    """Why `open_table(code)` gave no table, in words fit for any page (no server paths)."""
    if not valid_code(code):
        return f"{code!r} is not a table code."
    return _UNREADABLE.get(_key(code)) or f"There is no table {code} on this server."


def open_table(code: str) -> Live | None:
    """The live table for a code, loading (or reloading) it from disk when needed.

    A damaged log loads its valid part and is never written (see `damage_note`); a table
    another process writes opens read-only, and becomes writable here when that process ends.
    """
    if not valid_code(code):
        return None
    k = _key(code)
    d = home() / code
    log = d / "game.jsonl"
    with _REG_LOCK:
        live = _REGISTRY.get(k)
    if live is not None:
        with live.lock:  # another session may be writing this table right now: wait for it
            takeover = live.read_only is not None and filelock.acquire(_lock_path(code)) is not None
            if not takeover and log.exists() and log.stat().st_size == live.size:
                return live
    with _REG_LOCK:
        if not log.exists():
            _REGISTRY.pop(k, None)
            return None
        writer = filelock.acquire(_lock_path(code)) is not None
        data = log.read_bytes()
        from engine.core.log import parse_log_bytes

        header = parse_log_bytes(data).header
        cfg_path = d / "table.json"
        try:
            config = TableConfig.from_json(cfg_path.read_text(encoding="utf-8"))
        except (OSError, ValueError, KeyError, TypeError):
            config = TableConfig.from_header(header)
        notes: list[str] = []

        def factory(_cfg: dict) -> list[Seat]:
            out = []
            for i, spec in enumerate(config.seats):
                seat, note = make_seat(spec, config.seed, i)
                out.append(seat)
                if note:
                    notes.append(note)
            return out

        try:
            table = Table.load(data, seats_factory=factory, log_path=log, allow_partial=True, source=log)
        except LogError as exc:  # not even a header: nothing to play; the file stays as it is
            _REGISTRY.pop(k, None)
            _UNREADABLE[k] = (f"The log of table {code} cannot be read ({exc}). Nothing was loaded and nothing "
                              f"was changed: the file is kept as it is ({shown_path(log)}).")
            return None
        _UNREADABLE.pop(k, None)
        table.read_only = None if writer else read_only_reason(code)
        live = Live(code, table, config, notes=notes)
        if not cfg_path.exists() and writer:
            live.save_config()
        _REGISTRY[k] = _attach(live)
        return live


def awaits_continue(live: Live) -> bool:
    """Is this table's log damaged, its valid part loaded, and nothing written yet?"""
    return live.table._unread is not None


def damage_note(live: Live) -> str | None:
    """What a damaged log became, in words fit for the page (no server paths), or None."""
    err = live.table.damage
    if err is None:
        return None
    log = live.table.log_path
    after = ""
    if awaits_continue(live) and log is not None:
        try:
            total = log.read_bytes().rstrip(b"\n").count(b"\n") + 1
            if total > err.line:
                after = f", nor the {total - err.line} lines after it"
        except OSError:
            pass
    head = (f"The game log is damaged at line {err.line} ({err.reason}). The {err.valid_records} actions before "
            f"that line are loaded; the damaged line is not{after}.")
    if awaits_continue(live):
        return head + (" The file is kept exactly as it is: going on from here starts a new log and keeps the "
                       f"damaged one beside it as {shown_path(_kept_preview(log))}.")
    if live.table.kept is not None:
        return head + (f" The damaged file is kept, byte for byte, as {shown_path(live.table.kept)}; the game goes "
                       "on in a new log.")
    return head


def _kept_preview(log: Path | None) -> Path:
    from agents.storage.logfile import kept_name

    assert log is not None
    return kept_name(log)


def continue_damaged(live: Live) -> Path | None:
    """The host goes on from the valid part: the damaged file is kept aside, a new log begins."""
    with live.lock:
        kept = live.table.continue_log()
        live.synced()
        return kept


def import_upload(data: bytes, seed: int = 0) -> Live:
    """A new table from an uploaded log's bytes. A file cut short (or damaged later on) loads its
    valid part, and its bytes are kept beside the new table; a file with no valid game header
    raises LogError and writes nothing."""
    from agents.storage.logfile import create_log

    table = Table.load(data, allow_partial=True)  # LogError only when nothing is valid
    config = TableConfig.from_header(table.header, seed)
    code = new_code()
    d = home() / code
    d.mkdir(parents=True, exist_ok=True)
    if filelock.acquire(_lock_path(code)) is None:
        raise TableReadOnly(read_only_reason(code))
    create_log(d / "game.jsonl", table.log_text())
    if table.damage is not None:
        (d / UPLOAD_KEPT).write_bytes(data)
    (d / "table.json").write_text(config.to_json(), encoding="utf-8")
    live = open_table(code)
    assert live is not None
    if table.damage is not None:
        err = table.damage
        live.notes.append(f"The uploaded file is damaged at line {err.line} ({err.reason}): the {err.valid_records} "
                          f"actions before that line are loaded. The uploaded file is kept as it came, as "
                          f"{code}/{UPLOAD_KEPT}.")
    return live


def import_log(text: str, seed: int = 0) -> Live:
    """A new table from a log's text (see `import_upload`)."""
    return import_upload(text.encode("utf-8"), seed)


def decode_upload(data: bytes) -> str:
    """The uploaded bytes as log text up to any bytes that are not UTF-8; LogError if nothing is."""
    from engine.core.log import decode_log

    text, problem = decode_log(data)
    if problem is not None and problem.line == 1:
        raise LogError(1, problem.reason)
    if not text.strip():
        raise LogError(1, "the file is empty")
    return text


def list_tables() -> list[str]:
    h = home()
    if not h.exists():
        return []
    found = [p for p in h.iterdir() if (p / "game.jsonl").exists() and valid_code(p.name)]
    return [p.name for p in sorted(found, key=lambda p: (p / "game.jsonl").stat().st_mtime, reverse=True)]


def submit(live: Live, action: Any, who: str = "human") -> list:
    """Apply a person's (or typed dice') action; RuleViolation propagates and nothing changes."""
    with live.lock:
        events = live.table.submit(action, {"decided_by": who})  # TableReadOnly when another process writes
        live.synced()
        return events


def needs_typed_roll(live: Live) -> bool:
    from engine.universalis import pending

    return live.config.dice == "physical" and pending(live.table.state).kind == "roll"


def auto_pass_due(live: Live) -> bool:
    """Is a person waited for in a reaction window that his setting says not to ask him about?"""
    return bool(windows.due(live.table, live.config.reactions))


def run_ai(live: Live, progress=None, max_steps: int = 400) -> int:
    """Let the AI seats (and virtual dice) decide, and pass reaction windows for people whose
    setting says not to ask them, until a person is awaited; returns steps taken."""
    steps = 0
    with live.lock:
        if live.read_only or awaits_continue(live):
            return 0  # a viewer never writes; a damaged log waits for the host to go on from it
        try:
            while steps < max_steps:
                if needs_typed_roll(live):
                    break
                res = live.table.step()
                done = [res] if res.acted else windows.auto_pass(live.table, live.config.reactions)
                if not done:
                    break
                for r in done:
                    steps += 1
                    if progress is not None:
                        progress(live, r, steps)  # may raise when the browser starts a new run
        finally:
            live.synced()
    return steps

"""Seats belong to people: who may act for a seat, switch it, free it, and on which decision.

Why a module of its own, without Streamlit: anyone with a table's link can open it, so the page
hiding a button is not protection. Every action a browser sends goes through `act` here, which
checks, under the table's lock and at the moment the action is applied, that the sender holds
the seat and that the decision it answers is still the one pending.

A browser proves what it holds with a secret token kept in its URL (?table=CODE&seat=TOKEN):
taking a seat gives one; the browser that created the table holds the host's token too. Only
SHA-256 digests of tokens are stored, in seats.json beside the game, so a server restart keeps
every seat with its holder and a copy of the folder gives no one a seat.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import zlib
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from app.ui import reactions as windows
from app.ui import store

SEATS_FILE = "seats.json"


class Refused(Exception):
    """A browser asked for something its token does not allow; the message says why, to a player."""


class Stale(Exception):
    """An answer to a decision that was already answered (a double click, a rerun, another tab)."""


def new_token() -> str:
    return secrets.token_urlsafe(18)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _same(token: str, hashed: str) -> bool:
    return bool(token) and bool(hashed) and hmac.compare_digest(digest(token), hashed)


@dataclass
class Holders:
    """Who holds what at one table: the host's digest and each held seat's holder digest."""

    host: str = ""
    seats: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> str:
        return json.dumps({"host": self.host, "seats": self.seats}, indent=1)


def load(live: store.Live) -> Holders:
    """The table's holders from disk (a table made before seats had holders has none)."""
    path = live.dir / SEATS_FILE
    try:
        d = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return Holders()
    if not isinstance(d, dict):
        return Holders()
    seats = d.get("seats") if isinstance(d.get("seats"), dict) else {}
    return Holders(str(d.get("host") or ""), {str(k): str(v) for k, v in seats.items()})


def _save(live: store.Live, h: Holders) -> None:
    tmp = live.dir / (SEATS_FILE + ".tmp")
    tmp.write_text(h.to_json(), encoding="utf-8")
    os.replace(tmp, live.dir / SEATS_FILE)


def _names(live: store.Live) -> list[str]:
    return [s.name for s in live.config.seats]


def _is_person(live: store.Live, name: str) -> bool:
    return any(s.name == name and s.kind == "human" for s in live.config.seats)


# -- what a token holds ---------------------------------------------------------------------------------


def held(live: store.Live, token: str) -> list[str]:
    """The seats this token holds, in seating order."""
    h = load(live)
    return [n for n in _names(live) if _same(token, h.seats.get(n, ""))]


def is_host(live: store.Live, token: str) -> bool:
    return _same(token, load(live).host)


def holder_of(live: store.Live, name: str) -> str:
    """'' if the seat is free, else the holder's digest (never the token)."""
    return load(live).seats.get(name, "")


def free_seats(live: store.Live) -> list[str]:
    """Person seats that nobody holds: anyone with the table's link may take one."""
    h = load(live)
    return [n for n in _names(live) if _is_person(live, n) and not h.seats.get(n)]


def start(live: store.Live, token: str | None = None) -> str:
    """The browser that created (or uploaded) the table: it is the host and holds every person's
    seat until it frees one for someone else. Returns its token."""
    token = token or new_token()
    with live.lock:
        if load(live).host:
            raise Refused("This table already has a host.")
        h = Holders(digest(token), {n: digest(token) for n in _names(live) if _is_person(live, n)})
        _save(live, h)
    return token


def take(live: store.Live, token: str, name: str) -> str:
    """Take a free person's seat; returns the token to keep (a new one if the browser had none).
    At a table from before seats had holders, the first browser to take a seat becomes its host."""
    with live.lock:
        h = load(live)
        if name not in _names(live):
            raise Refused(f"There is no seat {name!r} at this table.")
        if not _is_person(live, name):
            raise Refused(f"{name}'s seat is played by an AI; only the host can make it a person's seat.")
        if h.seats.get(name) and not _same(token, h.seats[name]):
            raise Refused(f"{name}'s seat is taken by someone else. The host can free it.")
        known = _same(token, h.host) or any(_same(token, v) for v in h.seats.values())
        if not known:  # a secret this table did not give out (or an old ?seat=NAME link): a fresh one
            token = new_token()
        h.seats[name] = digest(token)
        if not h.host:
            h.host = digest(token)
        _save(live, h)
        return token


def free(live: store.Live, token: str, name: str) -> None:
    """Free a seat: its holder may leave it, the host may free anyone's."""
    with live.lock:
        h = load(live)
        if name not in h.seats:
            return
        if not (_same(token, h.seats[name]) or _same(token, h.host)):
            raise Refused(f"Only {name}'s holder or the host can free {name}'s seat.")
        del h.seats[name]
        _save(live, h)


def may_act_for(live: store.Live, token: str, name: str) -> str:
    """'' if this token may act for the seat, else why not (in a player's words)."""
    if not _is_person(live, name):
        return f"{name}'s seat is played by an AI."
    h = load(live)
    if _same(token, h.seats.get(name, "")):
        return ""
    if not h.seats.get(name):
        return f"Nobody holds {name}'s seat: take it first."
    return f"{name}'s seat is held by someone else; this browser only watches it."


def may_switch(live: store.Live, token: str, name: str) -> str:
    """A held seat is switched person/AI by its holder only; a seat nobody holds (an AI's, or a
    freed person's) by the host."""
    h = load(live)
    if h.seats.get(name):
        return "" if _same(token, h.seats[name]) else f"Only the person holding {name}'s seat can switch it."
    return "" if _same(token, h.host) else f"Only the host can switch {name}'s seat, which nobody holds."


# -- the decision asked now ------------------------------------------------------------------------------


def decision_id(live: store.Live) -> str:
    """An id for the decision pending now: the log's length and a checksum of its last record.
    Any action applied (or undone) changes it, so an answer carrying an old id is an answer to a
    decision already answered."""
    recs = live.table.records
    last = json.dumps([recs[-1].seq, recs[-1].action], sort_keys=True) if recs else ""
    return f"{len(recs)}-{zlib.crc32(last.encode('utf-8')):08x}"


def act(live: store.Live, token: str, action: Any, answered: str) -> list:
    """Apply a person's action if its sender holds the seat and answers the decision pending now.

    Raises Refused (not his seat), Stale (that decision was already answered) or the engine's
    RuleViolation; in each case nothing changes.
    """
    with answering(live, token, getattr(action, "player", ""), answered, store.open_table) as current:
        return store.submit(current, action)


@contextmanager
def answering(live: Any, token: str, player: str, answered: str, reopen: Callable[[str], Any]) -> Iterator[Any]:
    """The table as it is now (`reopen`: another process may have written since the page drew),
    held under its lock, if `token` holds `player`'s seat and `answered` is still the decision
    pending; else Refused or Stale. Every game's table (store.Live, game_store.GameLive)."""
    with live.lock:
        current = reopen(live.code) or live
        with current.lock:
            why = may_act_for(current, token, player)
            if why:
                raise Refused(why)
            if answered != decision_id(current):
                raise Stale("That decision was already answered; your second answer was not applied.")
            yield current


@contextmanager
def entering_roll(live: Any, token: str, answered: str) -> Iterator[None]:
    """Typed faces of real dice, under the table's lock: any person holding a seat at the table
    may enter them, once per roll asked (else Refused or Stale). Every game's table."""
    with live.lock:
        if not held(live, token):
            raise Refused("Only a person holding a seat at this table can enter the roll.")
        if answered != decision_id(live):
            raise Stale("That roll was already entered; the second entry was not applied.")
        yield


def roll(live: store.Live, token: str, action: Any, answered: str) -> list:
    """Typed faces of real dice: any person holding a seat at the table may enter them; the cards a player
    drew into his hand only he does (`deal`)."""
    if any(str(k).startswith(("deal:", "trait:")) for k in getattr(action, "faces", {})):
        return deal(live, token, action)
    with entering_roll(live, token, answered):
        return store.submit(live, action, who="dice (typed)")


def may_type_deal(live: store.Live, token: str, name: str) -> str:
    """'' if this browser may type the cards `name` drew (Cards instead of Dice with real cards): his own
    seat's holder only; an AI seat's cards, any person holding a seat (someone at the table draws them)."""
    if not _is_person(live, name):
        return "" if held(live, token) else "Only a person holding a seat at this table can enter an AI's cards."
    return may_act_for(live, token, name)


def deal(live: store.Live, token: str, action: Any) -> list:
    """The cards drawn for the seats this browser holds, typed in (UA-CDICE-1): never another person's
    hand. Not bound to the decision id: players type their hands at the same time, and each entry only
    has to be for cards still owed."""
    from engine.universalis.addon_cards_hand import DEAL, TRAIT, owed_keys
    with live.lock:
        current = store.open_table(live.code) or live
        with current.lock:
            for key in action.faces:
                if not str(key).startswith((DEAL, TRAIT)):
                    raise Refused("Only the cards a player drew are entered here.")
                name = str(key).split(":", 1)[1]
                why = may_type_deal(current, token, name)
                if why:
                    raise Refused(why)
                if key not in owed_keys(current.table.state):
                    raise Stale(f"{name}'s cards were already entered.")
            return store.submit(current, action, who="cards (typed)")


def switch(live: store.Live, token: str, name: str, kind: str, persona: str = "", model: str = "") -> str:
    """Switch a seat between a person and an AI. A held seat stays with its holder either way (he
    may hand it to an AI for a while and take it back); a seat nobody held, made a person's by
    the host, is free for anyone with the table's link to take."""
    with live.lock:
        why = may_switch(live, token, name)
        if why:
            raise Refused(why)
        return live.set_seat_kind(name, kind, persona, model)


def set_reaction(live: store.Live, token: str, name: str, mode: str) -> None:
    """When a person is asked in reaction windows: that person's own choice."""
    with live.lock:
        why = may_act_for(live, token, name)
        if why:
            raise Refused(why)
        live.set_reaction_mode(name, mode)


def undo(live: store.Live, token: str) -> str:
    """Take back the last decision a person made, if it was this browser's and nobody else's
    decision came after it (an undo replays the log without everything after it). Returns a note."""
    with live.lock:
        mine = set(held(live, token))
        recs = live.table.records
        for i in range(len(recs) - 1, -1, -1):
            meta = recs[i].meta
            if meta.get("decided_by") == "human" and not windows.is_auto(meta):
                who = recs[i].action.get("player", "")
                if who not in mine:
                    raise Refused(f"The last decision was {who}'s, not yours: only {who} can take it back.")
                what = str(recs[i].action.get("type", "")).replace("_", " ")
                live.table.undo(len(recs) - i)  # the rewind listeners bring history and memory along
                live.synced()
                return f"Your last decision ({what}) was taken back."
        raise Refused("There is no decision of yours to take back.")

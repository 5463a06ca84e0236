"""Who may act for a seat at a FUBAR, Paganini or Vele table: app/ui/seats.py's tokens, applied.

Why reuse seats.py: a seat held by a browser is the same idea whatever the game (hashed tokens in
seats.json, the host, free seats); seats.py reads only a table's folder, lock and seat kinds,
which game tables have too. What differs is applying the action: here it goes to the GameTable,
and it must answer the decision the ruleset waits for, from the seat it waits for.
"""
from __future__ import annotations

from typing import Any

from app.ui import game_store, seats
from app.ui.seats import Refused, Stale, decision_id, may_act_for, may_switch  # noqa: F401


def act(live: game_store.GameLive, token: str, action: Any, answered: str) -> list:
    """Apply a person's action if this browser holds its seat, the seat is the one asked now, and
    the decision answered is still the pending one. Refused/Stale/RuleViolation change nothing."""
    player = getattr(action, "player", "")
    with seats.answering(live, token, player, answered, game_store.open_table) as current:
        pend = current.pending()
        if player not in pend.seats:
            waited = ", ".join(pend.seats) or "nobody"
            raise Refused(f"The table waits for {waited}, not {player}.")
        return game_store.submit(current, action)


def roll(live: game_store.GameLive, token: str, faces: dict[str, list[int]], answered: str) -> list:
    """Faces of real dice typed in: any person holding a seat at the table may enter them."""
    with seats.entering_roll(live, token, answered):
        action = live.ruleset.dice_action(live.table.state, faces)
        return game_store.submit(live, action, who="dice (typed)")


def switch(live: game_store.GameLive, token: str, name: str, kind: str) -> str:
    """Switch a seat (the GM's too) between a person and an AI: its holder, or the host for a
    seat nobody holds."""
    with live.lock:
        why = may_switch(live, token, name)
        if why:
            raise Refused(why)
        return live.set_seat_kind(name, kind)

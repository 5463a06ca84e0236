"""Multiple Targets, Individual Pools (UA-MT-5; book L2360-2368; digest §2.1).

Why a module: under this method "there is a separate Complication Pool facing each Target" (L2362),
"very similar to running a series of different Standard Complications simultaneously" (L2368). The
matches are played by the Independent machinery (addon_independent.py: one match per Target Pool,
most dice first, each narrated before the next roll); this module adds the Complication Pools.

Engine choices (the book leaves them to the table): the Complication Pool "C" faces the first
Target Pool in Pool order, and every further Target Pool k gets a Complication Pool of its own keyed
"C:k", held by the Originator, built like any Pool (dice bought or drawn into it by key). Only the
Target players' Pools get one, so the method is refused with Own Pool per Participant at setup.

Not played yet (as for Independent): bonus Coins of one match buying dice for a Pool still to roll
(L2364), and the mix with Split Allocation (L2362; refused at setup, UA-SETUP-7: the book does not say who
groups several Targets onto one Complication Pool, nor how that group's single roll fits the pairs rolled
one at a time).
"""
from __future__ import annotations

from typing import Callable

from engine.universalis.state import Complication, GameState, Pool

PREFIX = "C:"


def on(s: GameState) -> bool:
    return s.config.addons.multi_target_mode == "individual"


def is_c_key(key: str) -> bool:
    """Is this a Complication Pool's key ("C" always; "C:k" under Individual)?"""
    return key == "C" or key.startswith(PREFIX)


def add_pools(s: GameState, comp: Complication) -> None:
    """Every Target player's Pool after the first gets a Complication Pool facing it (L2362)."""
    if not on(s):
        return
    targets = [p.key for p in comp.pools if not is_c_key(p.key)]
    for k in targets[1:]:
        if all(p.key != PREFIX + k for p in comp.pools):
            comp.pools.append(Pool(key=PREFIX + k, owner=comp.originator))


def paired(s: GameState, comp: Complication, key: str) -> str:
    """The Pool across the match from `key`: a Target Pool's Complication Pool, or the reverse."""
    if key.startswith(PREFIX):
        return key[len(PREFIX):]
    if key == "C":
        return next(p.key for p in comp.pools if not is_c_key(p.key))
    return facing(s, comp, key, ["C"])[0]


def facing(s: GameState, comp: Complication, target_key: str, c_keys: list[str]) -> list[str]:
    """The Complication Pools in `target_key`'s match: its own one under Individual, else all of them."""
    if not on(s):
        return c_keys
    own = PREFIX + target_key
    return [own] if any(p.key == own for p in comp.pools) else ["C"]


def facing_label(s: GameState, comp: Complication, pool: Pool) -> str:
    """How a front end names the Pool a Pool meets under Individual ("facing B"); '' otherwise."""
    targets = [p for p in comp.pools if not is_c_key(p.key)]
    if not on(s) or len(targets) < 2:
        return ""
    return f"facing {paired(s, comp, pool.key)}"


def pool_label(key: str, esc: Callable[[str], str] = str) -> str:
    """How a screen names a Pool by its key: "Complication Pool", "Complication Pool facing B" (UA-MT-5),
    "B's Pool"; `esc` escapes the player's name in it for the screen's markup."""
    if key.startswith(PREFIX):
        return f"Complication Pool facing {esc(key[len(PREFIX):])}"
    return "Complication Pool" if key == "C" else f"{esc(key)}'s Pool"

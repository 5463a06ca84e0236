"""Multiple Targets, Independent (UA-MT-3; book L2338-2346; digest §2.1).

Why a module: under this method each Target Pool meets the Complication side in a match of its
own, "Essentially, there is a separate Complication for each Target" (L2340). The core handlers
(complications.py) ask `current_match` which Target Pool rolls now; with any other method, or a
single Target Pool, the answer is None and the Complication rolls exactly as before.

Engine choices (the book leaves them to the table): the order is the book's order for a dispute,
most dice first, then nearest the Originator's left (L2342), taken afresh before each match; every
Complication die counts against every Target (the engine does not record dice "that only apply
against limited Targets", L2340); an Edge die won in one match stays in that match.

Not played yet: Target Pools built one at a time between matches (every Pool is built before the
call for the roll, L2340 "all be built first"), and bonus Coins of an earlier match buying dice for
a Pool still to roll (L2344); the bonus narration offers the core moves only.
"""
from __future__ import annotations

from engine.universalis.addon_complications import resolution_order
from engine.universalis.state import Complication, GameState


def on(s: GameState, t_keys: list[str]) -> bool:
    """Independent (UA-MT-3), or Individual (UA-MT-5: the same matches, each against its own Pool)."""
    return s.config.addons.multi_target_mode in ("independent", "individual") and len(t_keys) >= 2


def current_match(s: GameState, comp: Complication, t_keys: list[str]) -> str | None:
    """The Target Pool whose match is next (None: not Independent, or every match is played)."""
    if not on(s, t_keys):
        return None
    left = [k for k in t_keys if k not in comp.matched]
    if not left:
        return None
    owners = {k: comp.pool(k).owner for k in left}
    return resolution_order({k: comp.pool(k).size for k in left}, owners, s.seat_names, comp.originator)[0]


def next_match(s: GameState, comp: Complication, played: str, c_keys: list[str], t_keys: list[str]) -> str | None:
    """After `played`'s match is narrated: the next Target Pool to roll, with the Complication side's
    Edge dice cleared (they were won in that match), or None when every Target has had its match."""
    comp.matched.append(played)
    nxt = current_match(s, comp, t_keys)
    if nxt is not None:
        for k in c_keys:
            comp.pool(k).edge = 0
        comp.winner_side = None
    return nxt


def finished_pools(s: GameState, comp: Complication) -> set[str]:
    """The Pools whose match is over: the Target Pools already matched and, under Individual (UA-MT-5),
    the Complication Pool each of them faced. Their cards (with the card add-ons) are discarded; under
    Independent the Complication side plays again in every match."""
    from engine.universalis.addon_individual import facing, on as individual
    out = set(comp.matched)
    if individual(s):
        for key in comp.matched:
            out |= set(facing(s, comp, key, ["C"]))
    return out

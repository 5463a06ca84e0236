"""Own Pool per Participant (UA-OWN-1; core Chapter Six optional rule, L1040; digest §2.6).

Why a module: under this option every player at the table keeps a Pool of his own in a
Complication and, "after the dice are accumulated but before they're rolled", declares it for
the side that makes sense (@128224). The core handlers (complications.py) ask `side_keys` which
Pools make up each side; with the option off the answer is the core one (the Complication Pool
against every Target Pool), so a core game rolls and logs exactly as before.

Reading (the book does not say): the Originator's Pool is the Complication Pool and a Target's
Controller's Pool is on the Targets' side, as in the core rules; the other players declare. A Pool
with no dice takes no side and needs no declaration. A declaration is a statement like any other
and may be Challenged (@16365).
"""
from __future__ import annotations

from engine.core.errors import RuleViolation
from engine.core.seats import seats_left_of
from engine.universalis import actions as A
from engine.universalis.addon_complications import refuse
from engine.universalis.addon_individual import is_c_key
from engine.universalis.rules import Ctx, blocking, handles, require_turn, statement
from engine.universalis.state import Complication, GameState, Pool

OWN = "Own Pool per Participant"
SIDE_WORDS = {"C": "the Complication's side", "T": "the Targets' side"}


def on(s: GameState) -> bool:
    return s.config.addons.pool_per_participant


def target_players(s: GameState, comp: Complication) -> set[str]:
    return {p for p in (s.controller(t) for t in comp.targets) if p is not None}


def side_of(s: GameState, comp: Complication, pool: Pool) -> str | None:
    """'C', 'T', or None (a bystander's Pool not declared yet). Core: every Pool but C is a Target Pool."""
    if is_c_key(pool.key):  # "C", or under Individual (UA-MT-5) a "C:k" facing one Target Pool
        return "C"
    if not on(s) or pool.owner in target_players(s, comp):
        return "T"
    return pool.side


def side_keys(s: GameState, comp: Complication) -> tuple[list[str], list[str]]:
    """The Pools of the Complication's side and of the Targets' side, in Pool order."""
    sides = {p.key: side_of(s, comp, p) for p in comp.pools}
    return [k for k, v in sides.items() if v == "C"], [k for k, v in sides.items() if v == "T"]


def add_pools(s: GameState, comp: Complication) -> None:
    """UA-OWN-1: every other player at the table gets an empty Pool of his own (L1040, @128052)."""
    if not on(s):
        return
    for name in seats_left_of(s.seat_names, comp.originator):
        if name != comp.originator and all(p.owner != name for p in comp.pools):
            comp.pools.append(Pool(key=name, owner=name))


def undeclared(s: GameState, comp: Complication | None = None) -> list[str]:
    """Owners of Pools with dice still to be declared, from the Originator's left."""
    comp = comp or s.complication
    if comp is None or not on(s):
        return []
    order = seats_left_of(s.seat_names, comp.originator)
    owners = [p.owner for p in comp.pools if p.size > 0 and side_of(s, comp, p) is None]
    return sorted(owners, key=lambda o: order.index(o) if o in order else len(order))


def check_declared(s: GameState, comp: Complication) -> None:
    """No roll while a Pool with dice has taken no side (@128224: declared before they're rolled)."""
    who = undeclared(s, comp)
    if who:
        raise refuse("UA-OWN-1", OWN, f"{who[0]}'s Pool has not been declared for a side; "
                                      "every Pool with dice is declared before the roll")


@handles(A.DeclarePool)
def declare_pool(c: Ctx) -> None:
    """UA-OWN-1: a player declares his own Pool for the Complication or the Targets before the roll."""
    s, a = c.s, c.a
    assert isinstance(a, A.DeclarePool)
    if not on(s):
        raise refuse("UA-OWN-1", OWN, "this table plays the core rule: one Complication Pool and one Pool "
                                      "per Target's Controller, with no sides to declare")
    comp = s.complication
    if comp is None:
        raise refuse("UA-OWN-1", OWN, "there is no open Complication")
    if comp.rolls or s.narration is not None:
        raise refuse("UA-OWN-1", OWN, "the dice have been rolled; a Pool is declared before the roll")
    if comp.extension is not None and comp.extension.by:  # UA-EXT-1: the sides are divided into stages
        raise refuse("UA-OWN-1", OWN, "the Complication has been extended: its sides are already divided into stages")
    b = blocking(s)
    if b and not (b[0] == "U-COMP-7" and s.narration is None):  # the Pools waiting to roll wait for it
        raise RuleViolation(b[0], f"not now: {b[1]}")
    if not s.roll_pending:  # before the call for the roll: on one's own turn, like building a Pool
        require_turn(c)
    if a.player == comp.originator:
        raise refuse("UA-OWN-1", OWN, f"{a.player} Originated the Complication: his Pool is the Complication Pool")
    if a.player in target_players(s, comp):
        raise refuse("UA-OWN-1", OWN, f"{a.player} Controls a Target: his Pool is on the Targets' side")
    pool = next((p for p in comp.pools if p.owner == a.player and p.key != "C"), None)
    if pool is None:
        raise refuse("UA-OWN-1", OWN, f"{a.player} has no Pool in this Complication")
    if pool.side == a.side:
        raise refuse("UA-OWN-1", OWN, f"{a.player}'s Pool is already declared for {SIDE_WORDS[a.side]}")
    pool.side = a.side
    why = a.text.strip()
    words = f"declares {a.player}'s Pool ({pool.size} dice) for {SIDE_WORDS[a.side]}" + (f": {why}" if why else "")
    c.emit("declare_pool", words, pool=pool.key, side=a.side)
    # a declaration that does not make sense may be Challenged like anything said (@16365)
    statement(c, "declare_pool", words, 0, lapses=True)
    if s.window is not None:  # no Interrupt: it would hand on the turn while the Pools wait to roll
        s.window.allow_interrupt = False


def may_declare(s: GameState, player: str) -> bool:
    """Whether `player` has a Pool of his own he may (re)declare now, before the roll."""
    comp = s.complication
    if (comp is None or not on(s) or comp.rolls or player == comp.originator or player in target_players(s, comp)
            or (comp.extension is not None and comp.extension.by)):  # UA-EXT-1: sides divided into stages
        return False
    return any(p.owner == player and p.key != "C" for p in comp.pools)


def side_label(s: GameState, comp: Complication, pool: Pool) -> str:
    """How a front end names a Pool's side: '' at a table without the option (the core Pools say it)."""
    if not on(s):
        return ""
    return {"C": "Complication side", "T": "Targets' side"}.get(side_of(s, comp, pool) or "", "side not declared yet")

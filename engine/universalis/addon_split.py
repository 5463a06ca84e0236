"""Multiple Targets, Split Allocation (UA-MT-4; book L2350-2356; digest §2.1).

Why a module: under this method "all of the Pools are rolled at the same time. The Originator then
takes the Successes rolled from each of the Complication Pools (from any player) and allocates them
against each of the Target Pools in whatever manner he chooses. Each Target Pool will then Win or
Lose based on how it compares to the Successes the Originator allocated" (L2352). The core roll
(complications.py) hands this module the roll when the method is on and two Target Pools or more
roll; with any other method, or one Target Pool, the Complication rolls exactly as before.

The book is silent on equal counts and on the Complication's coins; the engine plays the digest's
suggested reading (§2.1), the table's options `split_tie` and `split_c_coins` at their defaults:
- a tie is a core tie in that match (U-COMP-8): the higher sum of Success dice (the Target Pool's
  against the dice assigned to it) takes an Edge die, equal sums both, and that match alone rolls
  again, the Target Pool against its assigned dice; several tied matches roll one at a time, most
  dice first, then nearest the Originator's left (as Independent, L2342). With `split_tie =
  "complication"` a tie goes to the Complication instead, with no Edge die;
- the Complication earns, by U-COMP-9 in each match, the sum of the dice assigned where it won and
  1 per assigned die where it lost (a rerolled match: its own dice of that roll, Edge dice included).
  Its unassigned failures earn nothing. It narrates twice when the results are mixed: its coins from
  the matches it won among the winners, those from the matches it lost among the losers (L2332).

Engine choices: the Originator allocates counts, one per Target Pool (a flat action a model and a
form can fill); the engine gives his highest Success dice to the matches he wins, then to ties, then
to those he loses, the choice that pays him most. Not played, each refused at setup with its reason
(UA-SETUP-7, UA-MT-4): Own Pool per Participant's Complication Pools from other players (the
allocation names counts per Target Pool from the one Complication Pool, so it cannot pay another
player's dice), the mirrored form (one Target against several opponents, L2356: several Complication
Pools exist only under Own Pool per Participant, and the Target's player would allocate against them),
the mix with Individual (L2362: the book does not say who groups the Targets onto the Complication
Pools, nor how a group that rolls at once fits the pairs rolled one at a time), and the alternative
`split_c_coins = "whole_roll"` (with mixed results the Complication has no one result to score its
whole roll by, and a tied match rolls part of it again).
"""
from __future__ import annotations

from engine.core.errors import RuleViolation
from engine.universalis import actions as A
from engine.universalis.addon_complications import check_allocation, pool_coins, refuse, resolution_order, verdicts
from engine.universalis.rules import Ctx, blocking, handles
from engine.universalis.state import Complication, GameState, Narration, NarrationSlot, SplitMatch, SplitRoll

SPLIT = "Split Allocation"


def on(s: GameState, t_keys: list[str]) -> bool:
    return s.config.addons.multi_target_mode == "split" and len(t_keys) >= 2


def target_keys(comp: Complication) -> list[str]:
    """The Target Pools in Pool order: the order the counts of an allocation follow."""
    return [p.key for p in comp.pools if p.key != "C"]


def awaiting(s: GameState) -> bool:
    """Has the roll been made and the Originator not yet allocated its Successes?"""
    comp = s.complication
    return comp is not None and comp.split is not None and not comp.split.matches


def _succ(s: GameState, faces: list[int]) -> list[int]:
    from engine.universalis.addon_hooks import success
    return [f for f in faces if success(s, f)]


def current_match(s: GameState, comp: Complication) -> str | None:
    """The tied match that rolls next: the Target Pool with most dice first, then nearest the Originator's
    left (as Independent, L2342)."""
    if comp.split is None:
        return None
    left = [k for k, m in comp.split.matches.items() if m.t_won is None]
    if not left:
        return None
    owners = {k: comp.pool(k).owner for k in left}
    return resolution_order({k: comp.pool(k).size for k in left}, owners, s.seat_names, comp.originator)[0]


def roll_request(s: GameState, comp: Complication) -> dict[str, int] | None:
    """A tied match rolls alone: its assigned dice plus Edge against the Target Pool; None otherwise."""
    k = current_match(s, comp)
    if k is None:
        return None
    m = comp.split.matches[k]  # type: ignore[union-attr]
    return {"C": len(m.assigned) + m.c_edge, k: comp.pool(k).size}


def note(s: GameState) -> str:
    """The allocation asked for, in a player's words (the pending decision's note, the model's state)."""
    comp = s.complication
    assert comp is not None and comp.split is not None
    c = len(_succ(s, comp.split.faces["C"]))
    t = ", ".join(f"{k} ({len(_succ(s, comp.split.faces[k]))} rolled)" for k in target_keys(comp))
    return (f"Split Allocation (UA-MT-4): assign the Complication's {_n(c)} with allocate_successes, "
            f"one count per Target Pool in this order: {t}; every Success once. A Target Pool wins if it "
            "rolled more Successes than it faces, loses if fewer")


def state_line(s: GameState, comp: Complication) -> str:
    """The allocation or its matches, one line for a model's state text ('' before the roll)."""
    if comp.split is None:
        return ""
    if not comp.split.matches:
        return note(s) + "."
    res = {True: "won", False: "lost", None: "tied, to roll again"}
    return "Split Allocation (UA-MT-4): " + "; ".join(
        f"{k}'s Pool faces {_n(len(m.assigned))} ({res[m.t_won]})" for k, m in comp.split.matches.items()) + "."


def _n(n: int) -> str:
    return f"{n} Success" if n == 1 else f"{n} Successes"


# --- the roll -------------------------------------------------------------------------------------
def rolled(c: Ctx, comp: Complication, faces: dict[str, tuple[int, ...]], succ: dict[str, int]) -> None:
    """The one roll of every Pool (then the Originator allocates), or a tied match's roll."""
    s = c.s
    if comp.split is None:
        comp.split = SplitRoll(faces={k: list(v) for k, v in faces.items()})
        s.roll_pending = False
        shown = "; ".join(f"{k}: {' '.join(str(f) for f in v) or '-'}" for k, v in faces.items())
        counts = ", ".join(f"{k} {n}" for k, n in succ.items() if k != "C")
        c.emit("roll", f"Roll: {shown}. Successes: Complication {succ['C']}; Target Pools {counts}. "
                       f"{comp.originator} allocates the Complication's Successes (Split Allocation).", player="",
               faces={k: list(v) for k, v in faces.items()}, successes=succ)
        if succ["C"] == 0:  # nothing to allocate: every Target Pool faces none
            settle(c, comp, {k: 0 for k in target_keys(comp)})
        return
    k = current_match(s, comp)
    assert k is not None
    m = comp.split.matches[k]
    shown = "; ".join(f"{x}: {' '.join(str(f) for f in v) or '-'}" for x, v in faces.items())
    c.emit("roll", f"Roll of the match against {k}'s Pool: {shown}. Successes: Complication {succ['C']}, {k} "
                   f"{succ[k]}.", player="", faces={x: list(v) for x, v in faces.items()}, successes=succ)
    if succ["C"] == succ[k] and s.config.addons.split_tie == "core":
        _edge(c, comp, k, _succ(s, list(faces["C"])), _succ(s, list(faces[k])))
        return
    m.t_won = succ[k] > succ["C"]
    m.c_faces, m.t_faces = list(faces["C"]), list(faces[k])
    _next(c, comp)


@handles(A.AllocateSuccesses)
def allocate(c: Ctx) -> None:
    """UA-MT-4: the Originator assigns every Success the Complication rolled, each once (L2352)."""
    s, a = c.s, c.a
    assert isinstance(a, A.AllocateSuccesses)
    if not awaiting(s):
        raise refuse("UA-MT-4", SPLIT, "there are no Complication Successes waiting to be allocated now; "
                                       "they are allocated once every Pool has rolled")
    b = blocking(s)
    if b is not None and b[0] != "UA-MT-4":
        raise RuleViolation(b[0], f"not now: {b[1]}")
    comp = s.complication
    assert comp is not None and comp.split is not None
    if a.player != comp.originator:
        raise refuse("UA-MT-4", SPLIT, f"only {comp.originator}, who Originated the Complication, allocates its Successes")
    keys = target_keys(comp)
    if len(a.counts) != len(keys):
        raise refuse("UA-MT-4", SPLIT, f"give one count per Target Pool, in this order: {', '.join(keys)} "
                                       f"({len(a.counts)} given)")
    alloc = dict(zip(keys, a.counts))
    total = len(_succ(s, comp.split.faces["C"]))
    check_allocation(total, alloc)
    if sum(alloc.values()) < total:
        raise refuse("UA-MT-4", SPLIT, f"every Success is allocated, each once: the Complication rolled {total} and "
                                       f"{sum(alloc.values())} were assigned")
    settle(c, comp, alloc)


def settle(c: Ctx, comp: Complication, alloc: dict[str, int]) -> None:
    """Each Target Pool against its count: won, lost, or a tie played as the table reads it."""
    s = c.s
    assert comp.split is not None
    t_succ = {k: len(_succ(s, comp.split.faces[k])) for k in alloc}
    c_faces = sorted(_succ(s, comp.split.faces["C"]), reverse=True)
    res = {v.pool: v.result for v in verdicts("split", len(c_faces), t_succ, alloc)}
    for group in ("lost", "tie", "won"):  # the highest dice where the Complication wins (U-COMP-9 pays their sum)
        for k in (k for k in alloc if res[k] == group):
            faces, c_faces = c_faces[:alloc[k]], c_faces[alloc[k]:]
            m = SplitMatch(assigned=faces, c_faces=faces, t_faces=list(comp.split.faces[k]))
            m.t_won = True if group == "won" else False if group == "lost" or s.config.addons.split_tie != "core" else None
            comp.split.matches[k] = m
    comp.split.matches = {k: comp.split.matches[k] for k in alloc}
    words = {"won": "wins", "lost": "loses", "tie": "ties"}
    said = "; ".join(f"{len(m.assigned)} against {k}'s Pool ({t_succ[k]} rolled: {words[res[k]]})"
                     for k, m in comp.split.matches.items())
    tie_c = " A tie goes to the Complication at this table." if "tie" in res.values() and \
        s.config.addons.split_tie != "core" else ""
    c.emit("allocate_successes", f"allocates the Complication's Successes: {said}.{tie_c}", player=comp.originator,
           counts=dict(alloc))
    for k, m in comp.split.matches.items():
        if m.t_won is None:
            _edge(c, comp, k, m.assigned, _succ(s, m.t_faces), reroll=False)
    _next(c, comp)


def _edge(c: Ctx, comp: Complication, k: str, c_succ: list[int], t_succ: list[int], reroll: bool = True) -> None:
    """A tie in one match (U-COMP-8): the higher sum of Success dice takes an Edge die, equal sums both."""
    from engine.universalis.complications import pool_name
    m = comp.split.matches[k]  # type: ignore[union-attr]
    gets = []
    if sum(c_succ) >= sum(t_succ):
        m.c_edge += 1
        gets.append("C")
    if sum(t_succ) >= sum(c_succ):
        comp.pool(k).edge += 1
        gets.append(k)
    comp.pool("C").edge = m.c_edge
    again = " The match rolls again." if reroll else ""
    c.emit("edge", f"A tie against {k}'s Pool. Sums of Successes: Complication {sum(c_succ)}, {k} {sum(t_succ)}: "
                   f"an Edge die for {' and '.join(pool_name(comp.pool(g)) for g in gets)}.{again}", player="", gets=gets, pool=k)


def _next(c: Ctx, comp: Complication) -> None:
    """The next tied match rolls, or, every match decided, the narration begins."""
    s = c.s
    k = current_match(s, comp)
    if k is not None:
        s.roll_pending = True
        comp.pool("C").edge = comp.split.matches[k].c_edge  # type: ignore[union-attr]
        m = comp.split.matches[k]  # type: ignore[union-attr]
        c.emit("next_match", f"The tied match rolls: the Complication's {len(m.assigned) + m.c_edge} dice against "
                             f"{k}'s Pool.", player="", pool=k)
        return
    s.roll_pending = False
    comp.pool("C").edge = 0
    narrate(c, comp)


def narrate(c: Ctx, comp: Complication) -> None:
    """Bonus coins by match (U-COMP-9); winners narrate first, most coins first (U-COMP-11, L2332)."""
    from engine.universalis.addon_hooks import die
    from engine.universalis.complications import advance_narration, bonus_for
    s = c.s
    assert comp.split is not None
    ms = comp.split.matches
    c_won = sum(pool_coins(m.c_faces, len(m.assigned), True, die(s)) for m in ms.values() if not m.t_won)
    c_lost = sum(pool_coins(m.c_faces, len(m.assigned), False, die(s)) for m in ms.values() if m.t_won)
    slots = []
    # the losing part first: a winner's cancel_bonus names the Pool, and finds it
    if any(m.t_won for m in ms.values()):
        slots.append(NarrationSlot(pool="C", player=comp.originator, coins=c_lost, won=False))
    if any(not m.t_won for m in ms.values()):
        slots.append(NarrationSlot(pool="C", player=comp.originator, coins=c_won, won=True))
    for k, m in ms.items():
        p = comp.pool(k)
        slots.append(NarrationSlot(pool=k, player=p.owner, coins=bonus_for(p, tuple(m.t_faces), bool(m.t_won), die(s)),
                                   won=bool(m.t_won)))
    s.narration = Narration(slots=slots, resume_player=comp.turn_player_at_call or comp.originator)
    beaten = sum(1 for m in ms.values() if not m.t_won)
    comp.winner_side = "C" if 2 * beaten > len(ms) else "T"  # the side that won most matches; even: the Targets
    won = ", ".join(k for k, m in ms.items() if m.t_won) or "none"
    lost = ", ".join(k for k, m in ms.items() if not m.t_won) or "none"
    earned = ", ".join(f"{sl.player} {sl.coins}" + ("" if sl.pool != "C" else " (won)" if sl.won else " (lost)")
                       for sl in slots)
    c.emit("complication_result", f"Split Allocation: Target Pools that win: {won}; that lose: {lost}. "
                                  f"Bonus coins: {earned}.", player="", winner=comp.winner_side,
           bonus={"C": c_won + c_lost, **{sl.pool: sl.coins for sl in slots if sl.pool != "C"}},
           results={k: "won" if m.t_won else "lost" for k, m in ms.items()})
    advance_narration(c)

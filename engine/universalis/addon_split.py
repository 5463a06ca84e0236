"""Multiple Targets, Split Allocation (UA-MT-4; book L2350-2356; digest §2.1).

Why a module: under this method "all of the Pools are rolled at the same time. The Originator then
takes the Successes rolled from each of the Complication Pools (from any player) and allocates them
against each of the Target Pools in whatever manner he chooses. Each Target Pool will then Win or
Lose based on how it compares to the Successes the Originator allocated" (L2352). The core roll
(complications.py) hands this module the roll when the method is on and two Target Pools or more roll
(against the Complication Pool, or several, below), or one Target Pool against two Complication Pools or
more (the mirrored form, below); with any other method, or one Pool a side, it rolls exactly as before.

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
to those he loses, the choice that pays him most.

The mirrored form (L2356 "a single Target faced with multiple opponents run by different players"):
with Own Pool per Participant, other players' Pools declared for the Complication's side are Complication
Pools of their own. One Target Pool against two Complication Pools or more: the Target's player allocates
his Successes against them, one count per Complication Pool, and each wins or loses against its count,
everything else as above with the roles swapped (reading: the player facing the many allocates, as the
Originator does in L2352). Two Target Pools or more against several Complication Pools: the Originator
allocates the Successes "from each of the Complication Pools (from any player)" (L2352), one count per
Target Pool; the engine deals the dice highest first (equal faces: the Complication Pool's first, then
nearest the Originator's left), and each die pays its own Pool's owner (U-COMP-9): each allocating Pool
narrates its part of the matches won and of those lost; a tied match's Edge die goes to its allocating
Pool with most Successes in that match (the Complication Pool first, as `edge_pool`).

Not played, each refused at setup with its reason: the mix with Individual (UA-SETUP-7, L2362: the book
does not say who groups the Targets onto the Complication Pools, nor how a group that rolls at once fits
the pairs rolled one at a time), and the alternative `split_c_coins = "whole_roll"` (UA-MT-4, at setup: with mixed
results the Complication has no one result to score its whole roll by, and a tied match rolls part of it
again).
"""
from __future__ import annotations

from engine.core.errors import RuleViolation
from engine.universalis import actions as A
from engine.universalis.addon_complications import check_allocation, refuse, resolution_order, split_c_coins, verdicts
from engine.universalis.rules import Ctx, blocking, handles
from engine.universalis.state import Complication, GameState, Narration, NarrationSlot, SplitMatch, SplitRoll

SPLIT = "Split Allocation"


def form(s: GameState, c_keys: list[str], t_keys: list[str]) -> tuple[str, list[str], list[str]] | None:
    """(the lead allocating Pool, the allocating Pools, the Pools they are allocated against), or None when
    the roll is not a Split Allocation: two Target Pools or more face the Complication's Pools, whose
    Successes the Originator allocates "from any player" (L2352), or one Target Pool faces two Complication
    Pools or more (the mirrored form, L2356: the Target's Successes are allocated)."""
    if s.config.addons.multi_target_mode != "split":
        return None
    if len(t_keys) >= 2:
        return "C", (list(c_keys) if len(c_keys) >= 2 else ["C"]), list(t_keys)
    if len(t_keys) == 1 and len(c_keys) >= 2:
        return t_keys[0], [t_keys[0]], list(c_keys)
    return None


def target_keys(comp: Complication) -> list[str]:
    """The Pools faced, in Pool order: the order the counts of an allocation follow (the Target Pools,
    or in the mirrored form the Complication Pools)."""
    if comp.split is not None and comp.split.faced:
        return list(comp.split.faced)
    return [p.key for p in comp.pools if p.key != "C"]


def one_key(comp: Complication) -> str:
    return comp.split.one if comp.split is not None else "C"


def alloc_keys(comp: Complication) -> list[str]:
    """The Pools whose Successes are allocated: `one`, or several Complication Pools (L2352 "from any player")."""
    assert comp.split is not None
    return list(comp.split.allocating) or [comp.split.one]


def to_allocate(s: GameState, comp: Complication) -> list[tuple[int, str]]:
    """The Successes to allocate, each (face, Pool), highest first; equal faces: the Complication Pool's
    first, then nearest the Originator's left (engine choice: whose die goes where decides whose coins)."""
    from engine.core.seats import seats_left_of
    assert comp.split is not None
    order = seats_left_of(s.seat_names, comp.originator)
    rank = {q: -1 if q == "C" else order.index(comp.pool(q).owner) for q in alloc_keys(comp)}
    dice = [(f, q) for q in alloc_keys(comp) for f in _succ(s, comp.split.faces[q])]
    return sorted(dice, key=lambda d: (-d[0], rank[d[1]]))


def _from(m: SplitMatch, one: str) -> list[str]:
    return list(m.assigned_from) or [one] * len(m.assigned)


def _edge_to(m: SplitMatch, one: str) -> str:
    return m.edge_to or one


def allocator(comp: Complication) -> str:
    """Who allocates: the Originator (L2352), or in the mirrored form the one Target Pool's player (L2356)."""
    return comp.pool(one_key(comp)).owner


def mirrored(comp: Complication) -> bool:
    return one_key(comp) != "C"


def _label(key: str) -> str:
    return "Complication" if key == "C" else key


def _whose(key: str) -> str:
    return "the Complication's" if key == "C" else f"{key}'s"


def _kind(comp: Complication) -> str:
    return "Complication Pool" if mirrored(comp) else "Target Pool"


def _pool(key: str) -> str:
    return "the Complication Pool" if key == "C" else f"{key}'s Pool"


def awaiting(s: GameState) -> bool:
    """Has the roll been made and its Successes not yet allocated?"""
    comp = s.complication
    return comp is not None and comp.split is not None and not comp.split.matches


def _succ(s: GameState, faces: list[int]) -> list[int]:
    from engine.universalis.addon_hooks import success
    return [f for f in faces if success(s, f)]


def faced_successes(s: GameState, comp: Complication) -> dict[str, int]:
    """Each faced Pool's rolled Successes, in Pool order: what its allocated count is weighed against."""
    assert comp.split is not None
    return {k: len(_succ(s, comp.split.faces[k])) for k in target_keys(comp)}


def current_match(s: GameState, comp: Complication) -> str | None:
    """The tied match that rolls next: the faced Pool with most dice first, then nearest the Originator's
    left (as Independent, L2342)."""
    if comp.split is None:
        return None
    left = [k for k, m in comp.split.matches.items() if m.t_won is None]
    if not left:
        return None
    owners = {k: comp.pool(k).owner for k in left}
    return resolution_order({k: comp.pool(k).size for k in left}, owners, s.seat_names, comp.originator)[0]


def roll_request(s: GameState, comp: Complication) -> dict[str, int] | None:
    """A tied match rolls alone: its assigned dice plus Edge against the faced Pool; None otherwise."""
    k = current_match(s, comp)
    if k is None:
        return None
    m = comp.split.matches[k]  # type: ignore[union-attr]
    one, src, holder = one_key(comp), _from(m, one_key(comp)), _edge_to(m, one_key(comp))
    out = {q: src.count(q) + (m.c_edge if q == holder else 0) for q in alloc_keys(comp)}
    return {**{q: n for q, n in out.items() if n or q == one}, k: comp.pool(k).size}


def note(s: GameState) -> str:
    """The allocation asked for, in a player's words (the pending decision's note, the model's state)."""
    comp = s.complication
    assert comp is not None and comp.split is not None
    one, kind = one_key(comp), _kind(comp)
    c = len(to_allocate(s, comp))
    t = ", ".join(f"{k} ({n} rolled)" for k, n in faced_successes(s, comp).items())
    mirror = " (the mirrored form, L2356)" if mirrored(comp) else ""
    return (f"Split Allocation (UA-MT-4){mirror}: assign {_whose(one)} {_n(c)} with allocate_successes, "
            f"one count per {kind} in this order: {t}; every Success once. A {kind} wins if it "
            "rolled more Successes than it faces, loses if fewer")


def state_line(s: GameState, comp: Complication) -> str:
    """The allocation or its matches, one line for a model's state text ('' before the roll)."""
    if comp.split is None:
        return ""
    if not comp.split.matches:
        return note(s) + "."
    res = {True: "won", False: "lost", None: "tied, to roll again"}
    return "Split Allocation (UA-MT-4): " + "; ".join(
        f"{_pool(k)} faces {_n(len(m.assigned))} ({res[m.t_won]})" for k, m in comp.split.matches.items()) + "."


def _n(n: int) -> str:
    return f"{n} Success" if n == 1 else f"{n} Successes"


# --- the roll -------------------------------------------------------------------------------------
def rolled(c: Ctx, comp: Complication, faces: dict[str, tuple[int, ...]], succ: dict[str, int],
           one: str = "C", allocating: list[str] | None = None, faced: list[str] | None = None) -> None:
    """The one roll of every Pool (then `one`'s player allocates), or a tied match's roll."""
    s = c.s
    if comp.split is None:
        several = list(allocating or []) if len(allocating or []) > 1 else []
        comp.split = SplitRoll(faces={k: list(v) for k, v in faces.items()}, one=one, faced=list(faced or []),
                               allocating=several)
        s.roll_pending = False
        shown = "; ".join(f"{k}: {' '.join(str(f) for f in v) or '-'}" for k, v in faces.items())
        counts = ", ".join(f"{_label(k)} {succ[k]}" for k in target_keys(comp))
        total = len(to_allocate(s, comp))
        if one == "C":
            said = (f"Successes: Complication {total}; Target Pools {counts}. {comp.originator} allocates the "
                    "Complication's Successes (Split Allocation).")
        else:
            said = (f"Successes: {one} {succ[one]}; Complication Pools {counts}. {allocator(comp)} allocates "
                    f"{_whose(one)} Successes (Split Allocation, mirrored).")
        c.emit("roll", f"Roll: {shown}. {said}", player="",
               faces={k: list(v) for k, v in faces.items()}, successes=succ)
        if total == 0:  # nothing to allocate: every faced Pool faces none
            settle(c, comp, {k: 0 for k in target_keys(comp)})
        return
    one = one_key(comp)
    k = current_match(s, comp)
    assert k is not None
    m = comp.split.matches[k]
    mine = [q for q in faces if q != k]  # the allocating Pools of this match
    c_succ = sum(succ[q] for q in mine)
    shown = "; ".join(f"{x}: {' '.join(str(f) for f in v) or '-'}" for x, v in faces.items())
    c.emit("roll", f"Roll of the match against {_pool(k)}: {shown}. Successes: {_label(one)} {c_succ}, "
                   f"{_label(k)} {succ[k]}.", player="", faces={x: list(v) for x, v in faces.items()}, successes=succ)
    if c_succ == succ[k] and s.config.addons.split_tie == "core":
        _edge(c, comp, k, {q: _succ(s, list(faces[q])) for q in mine}, _succ(s, list(faces[k])))
        return
    m.t_won = succ[k] > c_succ
    m.c_faces, m.t_faces = [f for q in mine for f in faces[q]], list(faces[k])
    if comp.split.allocating:
        m.c_from = [q for q in mine for _ in faces[q]]
    _next(c, comp)


@handles(A.AllocateSuccesses)
def allocate(c: Ctx) -> None:
    """UA-MT-4: the allocator assigns every Success his side's Pool rolled, each once (L2352, L2356)."""
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
    one, who = one_key(comp), allocator(comp)
    if a.player != who:
        if mirrored(comp):
            raise refuse("UA-MT-4", SPLIT, f"only {who}, whose Pool is the one Target Pool against several "
                                           f"Complication Pools, allocates its Successes (L2356)")
        raise refuse("UA-MT-4", SPLIT, f"only {comp.originator}, who Originated the Complication, allocates its Successes")
    keys = target_keys(comp)
    if len(a.counts) != len(keys):
        raise refuse("UA-MT-4", SPLIT, f"give one count per {_kind(comp)}, in this order: {', '.join(keys)} "
                                       f"({len(a.counts)} given)")
    alloc = dict(zip(keys, a.counts))
    total = len(to_allocate(s, comp))
    check_allocation(total, alloc)
    if sum(alloc.values()) < total:
        raise refuse("UA-MT-4", SPLIT, f"every Success is allocated, each once: {_whose(one)} Pool rolled {total} "
                                       f"and {sum(alloc.values())} were assigned" if mirrored(comp) else
                     f"every Success is allocated, each once: the Complication rolled {total} and "
                     f"{sum(alloc.values())} were assigned")
    settle(c, comp, alloc)


def settle(c: Ctx, comp: Complication, alloc: dict[str, int]) -> None:
    """Each faced Pool against its count: won, lost, or a tie played as the table reads it."""
    s = c.s
    assert comp.split is not None
    one = one_key(comp)
    t_succ = {k: len(_succ(s, comp.split.faces[k])) for k in alloc}
    dice = to_allocate(s, comp)
    res = {v.pool: v.result for v in verdicts("split", len(dice), t_succ, alloc)}
    several = bool(comp.split.allocating)
    for group in ("lost", "tie", "won"):  # the highest dice where the allocator wins (U-COMP-9 pays their sum)
        for k in (k for k in alloc if res[k] == group):
            mine, dice = dice[:alloc[k]], dice[alloc[k]:]
            faces = [f for f, _ in mine]
            m = SplitMatch(assigned=faces, c_faces=faces, t_faces=list(comp.split.faces[k]))
            if several:
                m.assigned_from = m.c_from = [q for _, q in mine]
            m.t_won = True if group == "won" else False if group == "lost" or s.config.addons.split_tie != "core" else None
            comp.split.matches[k] = m
    comp.split.matches = {k: comp.split.matches[k] for k in alloc}
    words = {"won": "wins", "lost": "loses", "tie": "ties"}
    said = "; ".join(f"{len(m.assigned)} against {_pool(k)} ({t_succ[k]} rolled: {words[res[k]]})"
                     for k, m in comp.split.matches.items())
    tie_c = " A tie goes to the Complication at this table." if "tie" in res.values() and \
        s.config.addons.split_tie != "core" else ""
    c.emit("allocate_successes", f"allocates {_whose(one)} Successes: {said}.{tie_c}", player=allocator(comp),
           counts=dict(alloc))
    for k, m in comp.split.matches.items():
        if m.t_won is None:
            src = _from(m, one)
            _edge(c, comp, k, {q: [f for f, p in zip(m.assigned, src) if p == q] for q in dict.fromkeys(src)},
                  _succ(s, m.t_faces), reroll=False)
    _next(c, comp)


def _edge(c: Ctx, comp: Complication, k: str, mine: dict[str, list[int]], t_succ: list[int],
          reroll: bool = True) -> None:
    """A tie in one match (U-COMP-8): the higher sum of Success dice takes an Edge die, equal sums both; on
    the allocating side it goes to its Pool with most Successes in the match (the Complication Pool first)."""
    from engine.universalis.addon_complications import edge_pool
    from engine.universalis.complications import pool_name
    one = one_key(comp)
    m = comp.split.matches[k]  # type: ignore[union-attr]
    c_sum = sum(sum(v) for v in mine.values())
    gets = []
    if c_sum >= sum(t_succ):
        if not m.edge_to and comp.split.allocating and mine:  # type: ignore[union-attr]
            owners = {q: comp.pool(q).owner for q in mine}
            m.edge_to = edge_pool({q: len(v) for q, v in mine.items()}, owners, c.s.seat_names, comp.originator,
                                  ahead="C")
        m.c_edge += 1
        gets.append(_edge_to(m, one))
    if sum(t_succ) >= c_sum:
        comp.pool(k).edge += 1
        gets.append(k)
    comp.pool(_edge_to(m, one)).edge = m.c_edge
    again = " The match rolls again." if reroll else ""
    c.emit("edge", f"A tie against {_pool(k)}. Sums of Successes: {_label(one)} {c_sum}, {_label(k)} "
                   f"{sum(t_succ)}: an Edge die for {' and '.join(pool_name(comp.pool(g)) for g in gets)}.{again}",
           player="", gets=gets, pool=k)


def _next(c: Ctx, comp: Complication) -> None:
    """The next tied match rolls, or, every match decided, the narration begins."""
    s = c.s
    one = one_key(comp)
    k = current_match(s, comp)
    for q in alloc_keys(comp):
        comp.pool(q).edge = 0
    if k is not None:
        s.roll_pending = True
        m = comp.split.matches[k]  # type: ignore[union-attr]
        comp.pool(_edge_to(m, one)).edge = m.c_edge
        c.emit("next_match", f"The tied match rolls: {_whose(one)} {len(m.assigned) + m.c_edge} dice against "
                             f"{_pool(k)}.", player="", pool=k)
        return
    s.roll_pending = False
    narrate(c, comp)


def narrate(c: Ctx, comp: Complication) -> None:
    """Bonus coins by match (U-COMP-9); winners narrate first, most coins first (U-COMP-11, L2332)."""
    from engine.universalis.addon_hooks import die
    from engine.universalis.complications import advance_narration, bonus_for
    s = c.s
    assert comp.split is not None
    one = one_key(comp)
    ms = comp.split.matches
    res = {k: "won" if m.t_won else "lost" for k, m in ms.items()}
    part: dict[str, tuple[int, int]] = {}  # each allocating Pool's coins: (from matches it won, from those it lost)
    for q in alloc_keys(comp):
        faces = {k: [f for f, p in zip(m.c_faces, list(m.c_from) or [one] * len(m.c_faces)) if p == q]
                 for k, m in ms.items()}
        normal = {k: _from(m, one).count(q) for k, m in ms.items()}
        part[q] = (split_c_coins({k: faces[k] for k, m in ms.items() if not m.t_won}, res, die(s), normal),
                   split_c_coins({k: faces[k] for k, m in ms.items() if m.t_won}, res, die(s), normal))
    slots = []
    for q, (won_coins, lost_coins) in part.items():  # the losing part first: a winner's cancel_bonus finds it
        who = comp.pool(q).owner
        if any(m.t_won for m in ms.values()):
            slots.append(NarrationSlot(pool=q, player=who, coins=lost_coins, won=False))
        if any(not m.t_won for m in ms.values()):
            slots.append(NarrationSlot(pool=q, player=who, coins=won_coins, won=True))
    for k, m in ms.items():
        p = comp.pool(k)
        slots.append(NarrationSlot(pool=k, player=p.owner, coins=bonus_for(p, tuple(m.t_faces), bool(m.t_won), die(s)),
                                   won=bool(m.t_won)))
    s.narration = Narration(slots=slots, resume_player=comp.turn_player_at_call or comp.originator)
    beaten = sum(1 for m in ms.values() if not m.t_won)
    if mirrored(comp):  # the side that won most matches; even: the Targets
        comp.winner_side = "T" if 2 * beaten >= len(ms) else "C"
    else:
        comp.winner_side = "C" if 2 * beaten > len(ms) else "T"
    won = ", ".join(k for k, m in ms.items() if m.t_won) or "none"
    lost = ", ".join(k for k, m in ms.items() if not m.t_won) or "none"
    earned = ", ".join(f"{sl.player} {sl.coins}" + ("" if sl.pool not in part else " (won)" if sl.won else " (lost)")
                       for sl in slots)
    c.emit("complication_result", f"Split Allocation: {_kind(comp)}s that win: {won}; that lose: {lost}. "
                                  f"Bonus coins: {earned}.", player="", winner=comp.winner_side,
           bonus={**{q: w + lo for q, (w, lo) in part.items()},
                  **{sl.pool: sl.coins for sl in slots if sl.pool not in part}},
           results=res)
    advance_narration(c)

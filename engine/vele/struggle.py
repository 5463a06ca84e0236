"""A struggle's arithmetic, pure: who wins, the effect, where the wagered dice go, which traits
absorb the effect, and what a maneuver's margin buys.

Why pure functions: the book's resolution (L381-401, L489) has several orders (ties, power dice,
fees to allies and the bowl) that the state machine and the tests must read the same way.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Sequence

from engine.core.errors import RuleViolation
from engine.vele.economy import POINTS

Kind = Literal["offensive", "head_to_head"]


@dataclass(frozen=True)
class Side:
    """One side's roll: struggle dice faces (the average bowl d6 included, V-AMB-7), power faces
    (attack power for the actor, Power Defense for the opponent), and its difficulty."""

    faces: tuple[int, ...]
    power: tuple[int, ...] = ()
    difficulty: int = 0
    bonus: int = 0  # fate (+1/+2, V-46) and spin (V-29)

    @property
    def result(self) -> int:
        """V-27 step 6: the highest struggle die; difficulty and fate adjust it; no dice is 0."""
        return (max(self.faces) if self.faces else 0) - self.difficulty + self.bonus

    @property
    def best_power(self) -> int:
        return max(self.power) if self.power else 0


@dataclass(frozen=True)
class Outcome:
    winner: Literal["actor", "opponent"] | None
    effect: int  # the margin after power dice (V-AMB-19); 0 or less: no damage
    actor_result: int
    opponent_result: int


def decide(kind: Kind, actor: Side, opponent: Side) -> Outcome:
    """V-27 step 7 (L390-394). Offensive/defensive: the actor wins when higher, or on a tie when only
    the actor has power dice; else the opponent wins. Head-to-head: higher wins, a tie has no winner.
    The winner's effect = its result − the other's + its best power − the other's best power
    (Power Defense subtracts here, V-24)."""
    a, o = actor.result, opponent.result
    if kind == "head_to_head":
        if a == o:
            return Outcome(None, 0, a, o)
        win, lose = (actor, opponent) if a > o else (opponent, actor)
        return Outcome("actor" if a > o else "opponent", win.result - lose.result + win.best_power - lose.best_power, a, o)
    if a > o or (a == o and actor.power and not opponent.power):
        return Outcome("actor", a - o + actor.best_power - opponent.best_power, a, o)
    return Outcome("opponent", 0, a, o)


def maneuver(effect: int) -> dict:
    """V-47, V-29 (L356, L405-411): a margin of 1-2 places a fragile aspect, 3 or more a sticky one;
    3 or more points beyond what the aspect used buy a spin (a margin of 6: sticky plus 3 spin)."""
    if effect <= 0:
        return {"aspect": None, "spin": 0}
    if effect < 3:
        return {"aspect": "fragile", "spin": 0}
    spare = effect - 3
    return {"aspect": "sticky", "spin": spare if spare >= 3 else 0}


# --- dice flow (V-27 steps 8-10, V-28, V-AMB-8/9/10) --------------------------------------------
@dataclass(frozen=True)
class Stake:
    """A wagered die and where it came from: 'own' (the wagerer's pool) or 'bowl'; `who` is the
    wagerer (the actor, or an ally, V-27 step 9)."""

    die: int
    source: Literal["own", "bowl"]
    who: str


@dataclass
class Flow:
    """Where every die of a resolved struggle goes: to a player's pool or to the bowl."""

    to_player: dict[str, list[int]] = field(default_factory=dict)
    to_bowl: list[int] = field(default_factory=list)

    def give(self, who: str, die: int) -> None:
        self.to_player.setdefault(who, []).append(die)


def dice_flow(winners: Sequence[Stake], losers: Sequence[Stake], power: Sequence[int], winner_name: str | None,
              tie_no_winner: bool = False, allies_first: Sequence[str] = ()) -> Flow:
    """Where the dice go after a roll.

    - Power dice go to the bowl (step 8).
    - A head-to-head tie with no winner sends every die back where it came from (V-28, V-AMB-8).
    - Otherwise the winners keep their own dice and take the losers' (both own and bowl dice, V-AMB-10).
      The winnings are paid out in the order of V-AMB-9: each ally picks one die per die it wagered
      (its choicest: the largest), then each winner's bowl die returns to the bowl with the highest
      die left, then each winner's own die returns with the lowest left; leftovers go to the actor.
    """
    f = Flow(to_bowl=list(power))
    if tie_no_winner or winner_name is None:
        for s in [*winners, *losers]:
            (f.to_bowl.append(s.die) if s.source == "bowl" else f.give(s.who, s.die))
        return f
    pot = sorted((s.die for s in losers), reverse=True)
    for s in winners:  # every winner's own die comes back; bowl dice go back to the bowl
        (f.to_bowl.append(s.die) if s.source == "bowl" else f.give(s.who, s.die))
    for ally in allies_first:
        for s in [x for x in winners if x.who == ally]:
            if pot:
                f.give(ally, pot.pop(0))
    for s in [x for x in winners if x.source == "bowl" and x.who not in allies_first]:
        if pot:
            f.to_bowl.append(pot.pop(0))
    for s in [x for x in winners if x.source == "own" and x.who not in allies_first]:
        if pot:
            f.give(s.who, pot.pop())
    for d in pot:
        f.give(winner_name, d)
    return f


# --- damage (V-35, V-34, V-37, V-EX-4/5/7) --------------------------------------------------------
def check_damage(effect: int, healthy: dict[str, int], chosen: Sequence[str], first: str | None = None) -> None:
    """V-35 (L401, L459-463): the defender disables healthy traits, each absorbing its points, until
    the effect is used up; a leftover point still takes a trait. So the chosen traits must cover the
    effect, and every trait but the last must still have been needed. `first` is the targeted trait,
    which goes first when no allies defend (V-34, L375). `healthy` maps trait name -> die size."""
    if effect <= 0:
        if chosen:
            raise RuleViolation("V-35", "there is no effect to absorb")
        return
    if len(set(chosen)) != len(chosen):
        raise RuleViolation("V-35", "a trait can be disabled once")
    for t in chosen:
        if t not in healthy:
            raise RuleViolation("V-35", f"{t!r} is not a healthy trait of the defender")
    if first is not None and first in healthy and (not chosen or chosen[0] != first):
        raise RuleViolation("V-34", f"the attacked trait {first!r} is disabled first")
    total = sum(POINTS[healthy[t]] for t in chosen)
    if total < effect and len(chosen) < len(healthy):
        raise RuleViolation("V-35", f"the chosen traits absorb {total} of {effect} points: "
                                    f"{effect - total} remain, so another trait must go")
    if chosen and sum(POINTS[healthy[t]] for t in chosen[:-1]) >= effect:
        raise RuleViolation("V-35", "more traits were chosen than the effect needs")


def auto_damage(effect: int, healthy: dict[str, int], first: str | None = None) -> list[str]:
    """A legal choice: the attacked trait first, then the smallest traits (the book's owner policy,
    digest §3)."""
    out: list[str] = []
    left = effect
    order = ([first] if first in healthy else []) + sorted((t for t in healthy if t != first),
                                                           key=lambda t: (healthy[t], t))
    for t in order:
        if left <= 0:
            break
        out.append(t)
        left -= POINTS[healthy[t]]
    return out


def ally_rounds(effect: int, target: str, allies: Sequence[tuple[str, int]], control: bool = False) -> list[str]:
    """V-35, V-37, V-EX-5 (L463, L471): who disables the next trait, in order. Allies (each with the
    number of traits it contributed) take one trait per contributed trait, in rounds with the target
    last in each round; the target takes whatever remains. Control attacks go to the target only.
    Each entry is one trait lost; the sequence is as long as the allies can absorb plus 'target...'
    (the target's share is open-ended, marked by a final `target`)."""
    if control or not allies:
        return [target]
    left = {name: n for name, n in allies}
    seq: list[str] = []
    while any(v > 0 for v in left.values()):
        for name, _ in allies:
            if left[name] > 0:
                seq.append(name)
                left[name] -= 1
        seq.append(target)
    return seq


def assisting_die(main: int, assist: int) -> int:
    """V-20 (L641): a partly applicable assisting trait adds a die of its own size if that is no larger
    than the main trait, else one size above the main trait."""
    from engine.vele.economy import larger
    return assist if assist <= main else larger(main)


def _ally_walk(effect: int, allies: Sequence[tuple[str, int]], picks: dict[str, list[str]],
               healthy: dict[str, dict[str, int]]) -> tuple[int, dict[str, int]]:
    """Walk the ally rounds (V-35, L463) over `picks` (component -> traits in order, "" the target):
    returns the effect left for the target's own free choice and how many of each ally's picks were used."""
    seq = ally_rounds(effect, "", allies)[:-1]  # the final target entry is the open-ended rest
    used = {cid: 0 for cid, _ in allies}
    used[""] = 0
    left = effect
    for who in seq:
        if left <= 0:
            break
        mine = picks.get(who, [])
        if used[who] >= len(mine):
            if who == "" or len(mine) < len(healthy[who]):
                raise RuleViolation("V-35", "the ally rounds take one trait from " + ("the target" if who == "" else who)
                                    + " now: allies lose one trait per trait they contributed, the target last in each round")
            continue  # an ally with no healthy trait left skips its place
        left -= POINTS[healthy[who][mine[used[who]]]]
        used[who] += 1
    return left, used


def check_ally_damage(effect: int, target: dict[str, int], chosen: Sequence[str], first: str | None,
                      allies: Sequence[tuple[str, int, dict[str, int], Sequence[str]]]) -> None:
    """V-35, V-43, V-EX-5 (L463): with allies defending, each ally disables one trait per trait it
    contributed, in rounds with the target last in each round; the target takes whatever remains (its
    attacked trait first among its own, V-EX-7). `allies`: (component, traits contributed, its healthy
    traits, the traits it loses in order)."""
    healthy = {cid: h for cid, _, h, _ in allies}
    healthy[""] = target
    for cid, _, h, picks in allies:
        if len(set(picks)) != len(picks) or any(t not in h for t in picks):
            raise RuleViolation("V-35", f"{cid}: name each healthy trait once")
    picks = {cid: list(p) for cid, _, _, p in allies}
    picks[""] = list(chosen)
    left, used = _ally_walk(effect, [(cid, n) for cid, n, _, _ in allies], picks, healthy)
    for cid, _, _, p in allies:
        if used[cid] != len(p):
            raise RuleViolation("V-35", f"{cid} loses {used[cid]} traits in the ally rounds, not {len(p)}")
    if first is not None and first in target and chosen and chosen[0] != first:
        raise RuleViolation("V-34", f"the attacked trait {first!r} is the target's first trait lost")
    rest_healthy = {t: v for t, v in target.items() if t not in chosen[:used[""]]}
    check_damage(max(0, left), rest_healthy, list(chosen[used[""]:]), None)


def auto_ally_damage(effect: int, target: dict[str, int], first: str | None,
                     allies: Sequence[tuple[str, int, dict[str, int]]]) -> tuple[list[str], dict[str, list[str]]]:
    """A legal choice for check_ally_damage: smallest traits first on every component, the attacked trait
    first among the target's."""
    order = {cid: sorted(h, key=lambda t: (h[t], t)) for cid, _, h in allies}
    order[""] = ([first] if first in target else []) + sorted((t for t in target if t != first),
                                                             key=lambda t: (target[t], t))
    healthy = {cid: h for cid, _, h in allies}
    healthy[""] = target
    left, used = _ally_walk(effect, [(cid, n) for cid, n, _ in allies], order, healthy)
    mine = order[""][:used[""]]
    rest = {t: v for t, v in target.items() if t not in mine}
    mine += auto_damage(max(0, left), rest, None)
    return mine, {cid: order[cid][:used[cid]] for cid, _, _ in allies}

"""Alternate Reality Variant (Kirt Dankmyer, book L1996-2008), played through `apply`.

Why its own module: a fork gives the table a second world, which the core (one world) never has.
The engine keeps one live world (the branch being played) and archives the others as the book's
"records" of their branch. Readings where the book is silent, each an engine choice:
- a fork is made at the end of a scene, before anyone bids for the next (the just-finished scene is
  mirrored; L2002 "At the end of any scene");
- the mirror scene starts as the finished scene stood when its framing ended (L2002 "starts the same way
  (time, location, and introduced Components)"): same location, time, Components and Controllers, for
  no framing cost; whoever splits off the branch is its framer and keeps the branch's records (L2008);
- the new branch's world is the world at that point: Components made later in that scene do not exist
  in it, and Components altered later are as they were (L2006 "if it is altered subsequently, it is only
  altered for that current branch"); the Facts bought after the framing belong to the old branch;
- coins, Tenets and the add-ons' own records (Player Characters, Plot Threads...) belong to the table, not
  to a branch; a fork that would leave such a record without its Component is refused;
- play goes on in the new branch; the old one is kept as a record (its Components, its Facts); the old
  branch's scene keeps in the scene list only the Components this branch has (cutting back to it from
  the new branch is not refused: a gap left for the table to Challenge).
Cost (UA-ALT-1, L2006): 1 coin per fork between the mirror scene and the first scene, the new one
included (the digest's worked numbers: 1, then 2). The first scene cannot be forked (UA-ALT-2, L2004).
"""
from __future__ import annotations

import copy
import string
from dataclasses import dataclass

from engine.core.errors import RuleViolation
from engine.universalis import actions as A
from engine.universalis.addon_scenes import ALT
from engine.universalis.ledger import available, coins, pay
from engine.universalis.rules import Ctx, handles
from engine.universalis.state import AltBranch, AltStart, GameState, Scene, Turn


def on(s: GameState) -> bool:
    return s.config.addons.alternate_realities


def track(c: Ctx) -> None:
    """After every action: when a new main scene begins, its place on the number line (the scene before
    it in this branch); when its framing ends (its first Event), the scene and the world as they stood
    then: what its mirror would start from."""
    s, o = c.s, c.orig
    if len(s.scenes) > len(o.scenes) and not s.scenes[-1].mini and str(s.scenes[-1].number) not in s.extra.alt_before:
        s.extra.alt_before[str(s.scenes[-1].number)] = s.extra.alt_last
        s.extra.alt_last = s.scenes[-1].number
    t = o.turn
    if t is None or not t.framing or t.mini_scene is not None or o.current_scene is None:
        return
    if s.turn is not None and s.turn.framing and s.current_scene == o.current_scene:
        return  # still framing
    sc = o.scenes[o.current_scene - 1]
    s.extra.alt_start = AltStart(scene=sc.number, location=sc.location, time=sc.time, time_kind=sc.time_kind,
                                 present=list(sc.present), control=dict(sc.control),
                                 components=dict(o.components), facts=list(o.facts))


def forks_back(s: GameState, number: int | None) -> int:
    """Mirror scenes on the number line from `number` back to the first scene."""
    n = 0
    while number is not None:
        n += 1 if number in s.extra.alt_mirrors else 0
        number = s.extra.alt_before.get(str(number))
    return n


def finished_scene(s: GameState) -> Scene | None:
    """The scene that can be mirrored now: the last main scene, just ended, before any bid."""
    mains = [sc for sc in s.scenes if not sc.mini]
    if s.phase != "bidding" or s.bids or not mains or not mains[-1].ended:
        return None
    return mains[-1]


def branch_label(i: int) -> str:
    return string.ascii_uppercase[i] if i < 26 else f"B{i + 1}"


@dataclass(frozen=True)
class Fork:
    """Whether `player` may fork now: the scene its mirror would copy and the price, or why not (rule, why).
    Why one record: the handler, the bid option and the heuristic read all three, derived once."""

    scene: Scene | None = None
    cost: int = 0
    problem: tuple[str, str] | None = None


def fork_now(s: GameState, player: str) -> Fork:
    """The fork `player` could make now (UA-ALT-1/2), with its scene and price, or the reason it is refused."""
    if not on(s):
        return Fork(problem=("UA-ALT-1", f"{ALT} is not in play (L1996)"))
    if s.window is not None or s.challenge is not None or s.fine is not None or s.extra.judgment is not None:
        return Fork(problem=("U-TURN-3", "not now: the last statement is being answered"))
    sc = finished_scene(s)
    if sc is None:
        return Fork(problem=("UA-ALT-1", f"{ALT}: a mirror scene is split off at the end of a scene, before the "
                                         "bids for the next"))
    before = s.extra.alt_before.get(str(sc.number))
    if before is None:
        return Fork(sc, problem=("UA-ALT-2", f"{ALT}: the first scene of the game is the starting point and cannot "
                                             "be forked (L2004)"))
    start = s.extra.alt_start
    if start is None or start.scene != sc.number:
        return Fork(sc, problem=("UA-ALT-1", f"{ALT}: scene {sc.number} was not framed under the add-on (or ended "
                                             "before its framing did): how its mirror would start is unknown"))
    world = start.components
    refs = set(s.addon.pcs) | {t.component for t in s.addon.threads} | set(s.addon.protected)
    lost = sorted(x for x in refs if x not in world)
    if lost:
        label = s.components[lost[0]].label if lost[0] in s.components else lost[0]
        return Fork(sc, problem=("UA-ALT-1", f"{ALT}: {label} was made in scene {sc.number} and is a Player "
                                             "Character, Plot Thread or protected Component of the whole table: the "
                                             "engine cannot fork that scene"))
    cost = 1 + forks_back(s, before)  # UA-ALT-1: 1 per fork back to the first scene, the new one included
    if available(s, player) < cost:
        return Fork(sc, cost, ("UA-ALT-1", f"{ALT}: {player} holds {coins(available(s, player))}; this mirror scene "
                                           f"costs {cost} (1 per fork back to the first scene, L2006)"))
    return Fork(sc, cost)


@handles(A.ForkScene)
def fork_scene(c: Ctx) -> None:
    """UA-ALT-1/2: split off a mirror of the just-finished scene, placed just before it on the number line."""
    s, a = c.s, c.a
    assert isinstance(a, A.ForkScene)
    fork = fork_now(s, a.player)
    if fork.problem is not None:
        raise RuleViolation(*fork.problem)
    sc, cost = fork.scene, fork.cost
    assert sc is not None and s.extra.alt_start is not None
    pay(s, a.player, cost, "a mirror scene", rule="UA-ALT-1")
    start = s.extra.alt_start
    old = s.extra.alt_branch
    had = {f.id for f in start.facts}
    made = [f for f in s.facts if f.id not in had]
    s.extra.alt_records.append(AltBranch(label=old, keeper=s.extra.alt_keeper, scenes=[sc.number],
                                         components=dict(s.components), facts=made))
    label = branch_label(len(s.extra.alt_records))
    s.components = {k: copy.deepcopy(v) for k, v in start.components.items()}
    s.facts = list(start.facts)
    for old_sc in s.scenes:  # the old branch's scenes name only what exists in this one (their records are kept)
        if old_sc.number >= sc.number and any(x not in s.components for x in old_sc.present + old_sc.absent
                                              + old_sc.seen + ([old_sc.location] if old_sc.location else [])):
            i = old_sc.number - 1
            s.scenes[i] = old_sc = old_sc.model_copy(deep=True)
            old_sc.present = [x for x in old_sc.present if x in s.components]
            old_sc.absent = [x for x in old_sc.absent if x in s.components]
            old_sc.seen = [x for x in old_sc.seen if x in s.components]
            old_sc.location = old_sc.location if old_sc.location in s.components else None
    number = len(s.scenes) + 1
    mirror = Scene(number=number, framer=a.player, location=start.location, time=start.time,
                   time_kind=start.time_kind, present=list(start.present), control=dict(start.control))
    s.scenes.append(mirror)
    s.extra.alt_before[str(number)] = s.extra.alt_before.get(str(sc.number))
    s.extra.alt_mirrors.append(number)
    s.extra.alt_last = number
    s.extra.alt_branch, s.extra.alt_keeper = label, a.player
    s.extra.alt_start = start.model_copy(update={"scene": number, "components": {
        k: copy.deepcopy(v) for k, v in s.components.items()}})  # a mirror can itself be mirrored
    s.current_scene = number
    s.last_framer = a.player
    s.phase = "scene"
    s.turn = Turn(player=a.player)
    c.emit("fork_scene", f"pays {coins(cost)} and splits off branch {label}: scene {number} mirrors scene {sc.number} "
           f"(same place, time and Components); branch {old} is kept as a record.", cost, scene=number,
           mirrors=sc.number, branch=label, rule="UA-ALT-1")


def bid_option(s: GameState, player: str) -> tuple[str, str, str] | None:
    """The fork offered with the bids (decisions.legal_options), when one can be made now."""
    fork = fork_now(s, player)
    if fork.problem is not None or fork.scene is None:
        return None
    return ("fork_scene", str(fork.cost), f"split off a mirror of scene {fork.scene.number} (Alternate Reality)")

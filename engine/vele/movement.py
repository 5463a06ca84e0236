"""Zones and movement in play (V-44, L413-415; the `zones` option), on tactics.check_movement's arithmetic.

Why a module: the book makes a map optional ("purely in fiction or ... a map with zones"), so the map lives on
the scene only when the table asks for it, and a move is its own action with its own checks. Registered on
rules.HANDLERS when engine.vele.rules is imported.
"""
from __future__ import annotations

from engine.core.errors import RuleViolation
from engine.vele import actions as A
from engine.vele.rules import Ctx, advance_turn, current_turn, handles, need_phase, player_of
from engine.vele.state import GameState, Scene
from engine.vele.tactics import check_movement


def lay_zones(s: GameState, sc: Scene, a: A.FrameScene) -> None:
    """V-44: the narrator lays the scene's zones (a row: neighbours are next to each other) and places components."""
    if a.zones is None:
        if a.placed:
            raise RuleViolation("V-44", "components are placed in zones: lay the scene's zones first")
        return
    if not s.options.zones:
        raise RuleViolation("V-44", "this table keeps movement in the fiction: no map of zones (the zones option)")
    if not a.zones or len(set(a.zones)) != len(a.zones):
        raise RuleViolation("V-44", "a map needs at least one zone, each with its own name")
    for cid, zone in (a.placed or {}).items():
        if cid not in sc.present:
            raise RuleViolation("V-44", f"only components present in the scene are placed; {cid!r} is not")
        if zone not in a.zones:
            raise RuleViolation("V-44", f"there is no zone {zone!r} in this scene")
    sc.zones = list(a.zones)
    sc.where = {cid: z for cid, z in (a.placed or {}).items() if z != a.zones[0]}


def neighbours(sc: Scene, zone: str) -> list[str]:
    i = sc.zones.index(zone)
    return sc.zones[max(0, i - 1):i] + sc.zones[i + 1:i + 2]


def attached_to(s: GameState, sc: Scene, head: str) -> list[str]:
    """V-45, V-44 (L683; rules version 3): the components in the scene attached to `head`, which go where it goes
    (a snake coiled around its owner, a warrior's intelligent sword, L425)."""
    return [x for x in sc.present if s.components[x].unit == head and s.components[x].attached]


@handles(A.Move)
def move(c: Ctx) -> None:
    """V-44 (L415): one zone before the struggle, free, and one more zone as the struggle, which takes the turn.
    (A struggle here ends its turn, so the book's "or after" move is made before the next struggle.)"""
    s, a = c.s, c.a
    need_phase(c, "scene")
    if a.player != current_turn(s):
        raise RuleViolation("V-25", f"you move on your turn; it is {current_turn(s)}'s")
    sc = s.scene
    assert sc is not None
    if not sc.zones:
        raise RuleViolation("V-44", "this scene has no map of zones: movement stays in the fiction")
    k = s.components.get(a.component)
    if k is None or player_of(s, k) != a.player or k.id not in sc.present or k.out:
        raise RuleViolation("V-44", "move one of your components in the scene that is not taken out")
    if k.stationary:
        raise RuleViolation("V-41", f"{k.name} is a stationary part of the geography: it does not move")
    if s.rules_version >= 3 and k.unit and k.attached:
        raise RuleViolation("V-45", f"{k.name} is attached to {s.components[k.unit].name}: attached components function "
                                    "as a single component (L683), so it moves with it; detach it first (a struggle's "
                                    "time, or 1 XP of fate, L685)")
    here = sc.zone_of(k.id)
    if a.to not in neighbours(sc, here):
        raise RuleViolation("V-44", f"{k.name} moves one zone at a time: from {here} to "
                                    + " or ".join(neighbours(sc, here) or ["nowhere"]))
    before = sc.moved.get(k.id, 0)  # a move as the struggle takes the turn, so the moves before it were free
    check_movement(before + (0 if a.as_struggle else 1), 0, int(a.as_struggle), k.name)
    sc.moved[k.id] = before + 1
    riders = attached_to(s, sc, k.id) if s.rules_version >= 3 else []
    for cid in [k.id, *riders]:
        if a.to == sc.zones[0]:
            sc.where.pop(cid, None)
        else:
            sc.where[cid] = a.to
    c.emit("move", f"{k.name} moves from {here} to {a.to}"
           + (f", carrying {', '.join(s.components[x].name for x in riders)} attached to it" if riders else "")
           + (" as its struggle" if a.as_struggle else "")
           + (f": {a.text}" if a.text else ""), a.player, component=k.id, to=a.to)
    if a.as_struggle:
        advance_turn(s)  # moving took the component's struggle

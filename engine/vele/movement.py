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
    (a snake coiled around its owner, a warrior's intelligent sword, L425). From rules version 4 the integrated
    ones beside it that are not attached go with it too (check_aide)."""
    here = sc.zone_of(head)
    return [x for x in sc.present if s.components[x].unit == head
            and (s.components[x].attached or s.rules_version >= 4 and sc.zone_of(x) == here)]


def check_aide(s: GameState, sc: Scene, cid: str, to: str) -> None:
    """V-45, V-44, rules version 4: an integrated component that is not attached does not move away from the one
    it aids. The book's reading (this table's, as the revised rule L681-686 is silent on moving): integrated
    components "operate as a unit" (L421: "A close bodyguard could be integrated with its subject") and "must act
    as a unit. If a bodyguard and its subject want to act separately, they must both operate autonomously" (L423);
    the aiding of L427 (the aided component is hit only by targeting a trait) is a bodyguard's, at its subject's
    side. The revised rule L686 ("Unattached components can still be allies") keeps it an aide, not a free agent.
    So it moves only where the one it aids is (and goes with it when that one moves: attached_to); to go its own
    way it is announced autonomous first, which L421 allows when it acts, unless the round already saw it act as
    part of the unit. Alternative: it moves freely and stays integrated (logs of versions 1-3)."""
    k = s.components[cid]
    if s.rules_version < 4 or not k.unit or k.attached or k.unit not in sc.present or to == sc.zone_of(k.unit):
        return  # the one it aids is not in this scene: nothing to stay beside
    head = s.components[k.unit]
    raise RuleViolation("V-45", f"{k.name} is integrated with {head.name} and aids it: integrated components act as a "
                                f"unit (L421, L423), so it stays at {head.name}'s side and goes where it goes. To go "
                                "its own way, announce it autonomous first (L421: a mode is announced when a component "
                                "acts)")


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
    check_aide(s, sc, k.id, a.to)
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
           + (f", carrying {', '.join(s.components[x].name for x in riders)} "
              + ("attached to it" if all(s.components[x].attached for x in riders) else "with it (V-45: a unit)")
              if riders else "")
           + (" as its struggle" if a.as_struggle else "")
           + (f": {a.text}" if a.text else ""), a.player, component=k.id, to=a.to)
    if a.as_struggle:
        advance_turn(s)  # moving took the component's struggle

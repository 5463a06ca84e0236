"""Components, Traits and Importance (U-COMP-0, U-IMP-1, U-TRAIT-*, U-ELIM-*)."""
from __future__ import annotations

from engine.core.errors import RuleViolation
from engine.universalis.state import Component, GameState, Trait


def component(s: GameState, cid: str | None, rule: str = "U-COMP-0") -> Component:
    if not cid or cid not in s.components:
        raise RuleViolation(rule, f"there is no component {cid!r} in this game")
    return s.components[cid]


def find_trait(s: GameState, tid: str) -> tuple[Component, int]:
    for comp in s.components.values():
        for i, t in enumerate(comp.traits):
            if t.id == tid:
                return comp, i
    raise RuleViolation("U-ACT-5", f"there is no Trait {tid!r} in this game")


def possessions(s: GameState, cid: str) -> list[Component]:
    """Owned components not separated (their link Trait stands) and not eliminated."""
    return [c for c in s.components.values() if c.owner == cid and not c.eliminated]


def subs(s: GameState, cid: str) -> list[Component]:
    return [c for c in s.components.values() if cid in c.masters and not c.eliminated]


def own_importance(c: Component) -> int:
    return max(0, len(c.live_traits()) - c.reduced)


def importance(s: GameState, cid: str, _seen: frozenset[str] = frozenset()) -> int:
    """U-IMP-1: live Trait occurrences - reductions (>= 0) + possessions + Sub Components."""
    if cid in _seen:
        return 0
    c = s.components[cid]
    seen = _seen | {cid}
    total = own_importance(c)
    # a component both owned by and a Sub of this one counts once
    parts = {x.id: x for x in possessions(s, cid) + subs(s, cid)}
    total += sum(importance(s, x, seen) for x in parts)
    return total


def reaches(s: GameState, start: str, goal: str, via: str = "both") -> bool:
    """Does following owner ("owner"), master ("masters") or both ("both") links from start
    reach goal? Both kinds of link add Importance upwards (U-IMP-1), so a cycle mixing them
    (A owns B while B is A's Master) is refused like a cycle of one kind (U-ACT-6)."""
    stack, seen = [start], set()
    while stack:
        cur = stack.pop()
        if cur == goal:
            return True
        if cur in seen or cur not in s.components:
            continue
        seen.add(cur)
        c = s.components[cur]
        if via in ("owner", "both") and c.owner:
            stack.append(c.owner)
        if via in ("masters", "both"):
            stack.extend(c.masters)
    return False


def new_id(s: GameState, prefix: str) -> str:
    n = s.counters.get(prefix, 0) + 1
    s.counters[prefix] = n
    return f"{prefix}{n}"


def bought_origin(s: GameState) -> str | None:
    """What a Trait or Fact bought now is by the rules: "outcome" during a roll's narration (U-COMP-10)."""
    return "outcome" if s.narration is not None else None


def add_trait(s: GameState, comp: Component, text: str, kind: str, by: str, **extra) -> Trait:
    """Record a bought Trait, with its `bought_origin`."""
    sc = s.scene()
    t = Trait(id=new_id(s, "t"), text=text, kind=kind, by=by, seq=s.seq,
              scene=sc.number if sc else None, origin=bought_origin(s), **extra)
    comp.traits.append(t)
    return t


def replace_trait(comp: Component, index: int, **changes) -> Trait:
    t = comp.traits[index].model_copy(update=changes)
    comp.traits[index] = t
    return t


def trait_ids_drawable(s: GameState, comp: Component) -> list[tuple[Trait, str]]:
    """Traits a component can draw on: its own, plus its Masters' not negated (U-TRAIT-4).

    Returns (trait, key) where the key makes each Sub draw a Master Trait separately.
    """
    out = [(t, f"{t.id}@{comp.id}") for t in comp.live_traits()]
    negated = {t.negates for t in comp.live_traits() if t.negates}
    for mid in comp.masters:
        master = s.components.get(mid)
        if master is None:
            continue
        for t in master.live_traits():
            if t.id not in negated:
                out.append((t, f"{t.id}@{comp.id}"))
    return out

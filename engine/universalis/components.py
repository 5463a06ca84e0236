"""Components, Traits and Importance (U-COMP-0, U-IMP-1, U-TRAIT-*, U-ELIM-*)."""
from __future__ import annotations

from engine.core.errors import RuleViolation
from engine.universalis.state import Component, GameState, Trait


def component(s: GameState, cid: str | None, rule: str = "U-COMP-0") -> Component:
    if not cid or cid not in s.components:
        raise RuleViolation(rule, f"there is no component {cid!r} in this game")
    return s.components[cid]


def trait_kind_problem(s: GameState, comp: Component, kind: str, other: Component | None,
                       negates: str | None = None) -> RuleViolation | None:
    """Why `comp` cannot take a Trait of this kind (naming `other`) now, or None.

    Why here: the engine's refusal of an AddTrait and the model's schema (agents/llm/legal_now,
    which reads a kind that cannot be taken as an ordinary Trait) ask the same question.
    U-TRAIT-2/3/4, U-ACT-6 (no loops of ownership or of Master and Sub links).
    """
    if kind in ("relationship", "possession", "sub") and other is None:
        return RuleViolation("U-TRAIT-2", f"a {kind} Trait names the other component")
    if other is not None and other.id == comp.id:
        return RuleViolation("U-TRAIT-2", "a component cannot relate to itself")
    if kind == "name" and comp.is_master:
        return RuleViolation("U-TRAIT-4", "a Master Component cannot have a proper name")
    if kind == "master":
        sc = s.scene()
        if comp.is_master:
            return RuleViolation("U-ACT-6", f"{comp.label} is already a Master Component")
        if any(t.kind == "name" and not t.removed for t in comp.traits):
            return RuleViolation("U-TRAIT-4", "a Master Component cannot have a proper name")
        if sc is not None and (comp.id in sc.present or comp.id == sc.location):
            return RuleViolation("U-TRAIT-4", "a Master Component cannot be in a scene; exit it first")
        if comp.owner is not None:
            return RuleViolation("U-TRAIT-4", f"{comp.label} is a possession and would enter scenes with its "
                                              "owner: a Master Component cannot be introduced into a scene")
    if kind == "possession" and other is not None:
        if other.owner is not None:
            return RuleViolation("U-TRAIT-3", f"{other.label} already belongs to {s.components[other.owner].label}")
        if other.is_master:
            return RuleViolation("U-TRAIT-4", f"{other.label} is a Master Component: it cannot be owned, since a "
                                              "possession enters scenes with its owner")
        if reaches(s, comp.id, other.id):
            return RuleViolation("U-ACT-6", "ownership may not go round in a circle")
    if kind == "sub" and other is not None:
        if not other.is_master:
            return RuleViolation("U-ACT-6", f"{other.label} is not a Master Component")
        if other.id in comp.masters:
            return RuleViolation("U-ACT-6", f"{comp.label} is already a Sub Component of {other.label}")
        if reaches(s, other.id, comp.id):
            return RuleViolation("U-ACT-6", "Master and Sub links may not go round in a circle")
    if kind == "negates":
        master_traits = {t.id for m in comp.masters for t in s.components[m].traits}
        if negates not in master_traits:
            return RuleViolation("U-TRAIT-4", "a negating Trait names a Trait of one of the component's Masters")
    return None


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

"""What a player can pick for each field of an action: components, Traits, Pools, Facts.

Why: the engine's actions carry ids; a person picks by name. These lists are the ids that make
sense for a field right now, each with a label, so forms never ask anyone to type an id.
"""
from __future__ import annotations

from engine.universalis.addon_individual import pool_label
from engine.universalis.complications import drawable as engine_drawable
from engine.universalis.complications import take_over_problem
from engine.universalis.components import importance
from engine.universalis.facts import SECRET_TRAIT, all_facts, hidden_from
from engine.universalis.state import GameState

Choices = list[tuple[str, str]]  # (value, label)


def components(s: GameState, kinds: tuple[str, ...] | None = None, eliminated: bool = False,
               in_scene: bool = False) -> Choices:
    sc = s.scene()
    here = set(sc.present) | ({sc.location} if sc and sc.location else set()) if sc else set()
    out = []
    for c in s.components.values():
        if c.eliminated != eliminated or (kinds and c.kind not in kinds) or (in_scene and c.id not in here):
            continue
        out.append((c.id, f"{c.label} ({c.kind}, Importance {importance(s, c.id)})"))
    return out


def traits(s: GameState, removed: bool = False, kinds: tuple[str, ...] | None = None, player: str = "") -> Choices:
    """Traits by id; another player's secret Enigma Trait is labelled as secret (UA-ENIGMA-1)."""
    return [(t.id, f"{c.label}: {SECRET_TRAIT if hidden_from(t, [player]) else t.text}")
            for c in s.components.values() for t in c.traits
            if t.removed == removed and (kinds is None or t.kind in kinds)]


def drawable(s: GameState) -> Choices:
    """(trait@component, label) for every draw the engine accepts now (complications.drawable)."""
    return [(f"{t.id}@{cid}", f"{s.components[cid].label}: “{t.text}”") for cid, t in engine_drawable(s)]


def pools(s: GameState) -> Choices:
    comp = s.complication
    if comp is None:
        return []
    return [(p.key, pool_label(p.key)) for p in comp.pools]


def split_targets(s: GameState) -> Choices:
    """Split Allocation (UA-MT-4): the Target Pools an allocation's counts follow, in order, with what each rolled."""
    from engine.universalis.addon_split import faced_successes
    comp = s.complication
    if comp is None or comp.split is None:
        return []
    rolled = faced_successes(s, comp)
    return [(k, f"{pool_label(k)} ({n} {'Success' if n == 1 else 'Successes'} rolled)") for k, n in rolled.items()]


def facts(s: GameState) -> Choices:
    secret = {t.id for c in s.components.values() for t in c.traits if t.secret}  # not citable (UA-ENIGMA-2)
    return [(f.id, f"{f.kind}: {f.text}"[:90]) for f in all_facts(s) if not f.removed and f.id not in secret]


def tenets(s: GameState) -> Choices:
    return [(t.id, t.text) for t in s.tenets if not t.removed]


def players(s: GameState, but: str = "") -> Choices:
    return [(p.name, p.name) for p in s.players if p.name != but]


def scenes(s: GameState) -> Choices:
    return [(str(sc.number), f"scene {sc.number}") for sc in s.scenes if sc.ended and not sc.faded]


def challenge_options(s: GameState) -> Choices:
    ch = s.challenge
    if ch is None:
        return []
    return [(str(i), f"{i}: {o.text} (cost {o.cost})") for i, o in enumerate(ch.options)]


def for_field(s: GameState, action: str, field: str, player: str) -> Choices | None:
    """The choices for one field of one action type, or None if the field is typed in."""
    comp_fields = {"component", "performer", "receiver", "about", "speaker", "listener", "other", "sub_of"}
    if action == "return_component" and field == "component":
        return components(s, eliminated=True)
    if action == "take_over" and field == "component":  # only those the engine would let him take
        return [(cid, name) for cid, name in components(s, in_scene=True) if take_over_problem(s, player, cid) is None]
    if action in ("exit_component", "speak") and field == "component":
        return components(s, in_scene=True)
    if action == "establish_location" and field == "location":
        return components(s, kinds=("location",))
    if field in comp_fields:
        return components(s)
    if field == "trait":
        return traits(s, removed=(action == "restore_trait"), player=player)
    if field == "negates":
        return traits(s, kinds=("master",), player=player)
    if field == "pool":
        return pools(s)
    if field == "accused":
        return players(s, but=player)
    if field == "fact":
        return facts(s)
    if field == "replaces":
        return tenets(s)
    if field == "return_to_scene":
        return scenes(s)
    if field == "scene" and action in ("switch_scene", "close_scene"):  # Open Scene Framing (UA-OPEN-2/3)
        from engine.universalis.addon_open import active
        return [(str(n), f"scene {n} (framed by {s.scenes[n - 1].framer})") for n in active(s)
                if action == "close_scene" or n != s.current_scene]
    if field == "option":
        return challenge_options(s)
    return None

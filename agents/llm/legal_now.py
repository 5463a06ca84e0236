"""What a model may name now, per action: the engine's own conditions turned into enums and omissions.

Why: a small model held by a grammar picks from what the schema offers. When the schema offers
every component for `introduce_component`, it picks one already in the scene and the engine
refuses it (U-ACT-3); when it offers `proper_name` in preparation, it fills it and the engine
refuses that too (U-PREP-3: one coin buys one Tenet action). Measured with SmolLM2, such
refusals were most of the decisions the model lost. Here each action's id fields list only the
components the engine would accept for that action, fields the rules forbid now are left out
of the schema (the engine's default applies), and action types with nothing to act on are not
offered at all. The engine still judges every answer; this only stops offering what it refuses.

Keys are "<action type>.<field>"; they take precedence over the plain field names of
`schema_actions.field_choices`. An empty tuple for a field that has a default leaves it out.
"""
from __future__ import annotations

from typing import Any, Iterable

from engine.universalis.complications import dialog_problem, drawable, take_over_problem, touch_problem
from engine.universalis.components import trait_kind_problem
from engine.universalis.scene_actions import presence_problem
from engine.universalis.state import GameState

__all__ = ["MUST_WRITE", "NEEDS_LOCATION", "action_choices", "fit_choice", "normalise_choice", "unusable_types"]

# action types the engine refuses while the scene has no location (require_location, U-FRAME-1)
NEEDS_LOCATION = frozenset({"introduce_component", "exit_component", "declare_absent", "narrate_event",
                            "buy_fact", "dialog"})
# the id fields an action cannot do without: nothing to name, nothing to do
REQUIRED_IDS = {"introduce_component": ("component",), "exit_component": ("component",),
                "declare_absent": ("component",), "speak": ("component",), "dialog": ("speaker", "listener"),
                "take_over": ("component",), "return_component": ("component",),
                "restore_importance": ("component",), "reduce_importance": ("component",), "restore_trait": ("trait",),
                "remove_trait": ("trait",), "add_trait": ("component",), "draw_trait": ("component", "trait"),
                "cancel_bonus": ("pool",)}
# in preparation one coin buys one Tenet action (U-PREP-3): a bare Role, a single Trait
PREP_LEAVE_OUT = ("create_component.introduce", "create_component.proper_name", "add_trait.times")
# a nullable text field the model must write now (schema_actions makes it a required, non-empty string)
MUST_WRITE: tuple[str, ...] = ("<must write>",)
# Trait kinds a model may buy; "negates" needs a Master Trait's id, a field models are not shown
TRAIT_KINDS = ("plain", "name", "relationship", "possession", "master", "sub")
# an add-on's own field, offered only while the table plays that add-on (else UA-DUR-1, UA-ENIGMA-1, UA-ROY-1)
ADDON_FIELDS = {"create_component.durable": lambda ad: ad.durable_cost is not None,
                "add_trait.enigma": lambda ad: ad.enigma_trait_cost is not None,
                "take_over.royalty": lambda ad: bool(ad.royalty)}


def _scene_ids(s: GameState) -> tuple[Any, set[str]]:
    sc = s.scene()
    if sc is None:
        return None, set()
    here = set(sc.present) | ({sc.location} if sc.location else set())
    return sc, here


def action_choices(s: GameState, me: str) -> list[tuple[str, tuple[Any, ...]]]:
    """Per-action enums of the ids the engine accepts now, and fields the rules leave out now."""
    out: list[tuple[str, tuple[Any, ...]]] = []
    live = [c for c in s.components.values() if not c.eliminated]
    out += [(key, ()) for key, on in ADDON_FIELDS.items() if not on(s.config.addons)]
    masters = tuple(c.id for c in live if c.is_master)
    # U-TRAIT-2 / U-ACT-6: a relationship needs another component, a Sub Component a Master to link to
    out.append(("add_trait.kind", tuple(k for k in TRAIT_KINDS if (k != "sub" or masters)
                                        and (k not in ("relationship", "possession") or len(live) > 1))))
    # U-ACT-6: a Sub Component links to a Master Component (Gemma 3 named a character: 15 refusals)
    out.append(("create_component.sub_of", masters))
    if s.phase == "prep":
        out += [(key, ()) for key in PREP_LEAVE_OUT]
        return out
    sc, here = _scene_ids(s)
    if sc is None:
        return out
    placeable = [c for c in live if not c.is_master]
    mine_here = tuple(x for x in sc.present if x != sc.location and s.controller(x) == me
                      and x in s.components and not s.components[x].eliminated)
    present = tuple(x for x in [*([sc.location] if sc.location else []), *sc.present] if x in s.components)
    # U-ACT-3: introduce what is not here (a location enters only as the scene's location)
    out.append(("introduce_component.component",
                tuple(c.id for c in placeable if c.id not in here and c.kind != "location")))
    # U-ACT-3: exit only what you control here; U-TRAIT-3: a possession goes with its owner
    out.append(("exit_component.component",
                tuple(x for x in mine_here if not (s.components[x].owner and s.components[x].owner in sc.present))))
    # U-ACT-3: declare absent what is not here and not already declared absent
    out.append(("declare_absent.component",
                tuple(c.id for c in placeable if c.id not in here and c.id not in sc.absent)))
    # U-FRAME-1 / U-ACT-3: a location other than the scene's own, never a Master (U-TRAIT-4)
    out.append(("establish_location.location",
                tuple(c.id for c in placeable if c.kind == "location" and c.id != sc.location)))
    # U-ACT-1: performer and receiver are in the scene; U-ACT-8: you speak with a character you control;
    # U-COMP-10 / U-COMP-1: what another player controls only while doing it is allowed (touch_problem)
    acted_on = tuple(x for x in present if _touchable(s, me, x))
    out += [("narrate_event.performer", acted_on), ("narrate_event.receiver", acted_on),
            ("speak.component", mine_here), ("dialog.speaker", mine_here),
            ("dialog.listener", tuple(x for x in sc.present if x in s.components
                                      and dialog_problem(s, me, x) is None))]
    # U-CTRL-3: take over what another player controls here (the engine's own test)
    out.append(("take_over.component", tuple(x for x in present if take_over_problem(s, me, x) is None)))
    # U-ELIM-3 / U-ELIM-4 / U-ACT-5: only what there is to bring back, restore or cross off
    out.append(("return_component.component", tuple(c.id for c in s.components.values()
                                                    if c.eliminated and not c.is_master)))
    # U-CTRL-4: Traits and Importance are paid on components in the scene (Masters excepted; in a
    # Complication's narration its Targets and committed components too): the engine's own test
    reach = [c for c in live if presence_problem(s, c) is None and _touchable(s, me, c.id)]
    out.append(("reduce_importance.component", tuple(c.id for c in reach)))
    out.append(("restore_importance.component", tuple(c.id for c in reach if c.reduced > 0)))
    out.append(("restore_trait.trait", tuple(tr.id for c in reach for tr in c.traits if tr.removed)))
    out.append(("remove_trait.trait", tuple(tr.id for c in reach for tr in c.traits if not tr.removed)))
    out.append(("add_trait.component", tuple(c.id for c in live if _touchable(s, me, c.id))))
    out += _complication_choices(s)
    if sc.location is None:
        out.append(("create_component.introduce", ()))  # nothing enters a scene without a place
    # U-FRAME-1: name one location. A grammar-held model writes every field, and left free to write
    # null everywhere it did (3 of 30 SmolLM2 decisions lost), so a new Role is always written and an
    # existing location named too is read as meant (normalise_choice). A cut-back (U-FRAME-5) would
    # then never be read: it is not offered to a model (the heuristic still makes it)
    out.append(("establish_location.return_to_scene", ()))
    out.append(("establish_location.new_role", MUST_WRITE))
    return out


def _touchable(s: GameState, me: str, cid: str) -> bool:
    """Whether `me` may do something to `cid` now without the engine refusing it (U-COMP-10, U-COMP-1)."""
    return touch_problem(s, me, [cid]) is None


def _complication_choices(s: GameState) -> list[tuple[str, tuple[Any, ...]]]:
    """Drawing on Traits (U-COMP-3) and cancelling bonus coins (U-COMP-10): only what can be done now."""
    out: list[tuple[str, tuple[Any, ...]]] = []
    comp = s.complication
    if comp is not None and s.narration is None:
        pairs = _drawable(s)
        out.append(("draw_trait.component", tuple(dict.fromkeys(c for c, _ in pairs))))
        out.append(("draw_trait.trait", tuple(dict.fromkeys(t for _, t in pairs))))
        if not any(p.dice > 0 for p in comp.pools):
            out += [("draw_trait.remove", ()), ("buy_die.remove", ())]  # no Pool holds a die to remove
    if comp is not None and s.roll_pending and s.config.addons.allow_extended:  # UA-EXT-2: at most the smaller side
        from engine.universalis.addon_extended import most_stages
        out.append(("extend_complication.stages", (max(2, most_stages(s, comp)),)))
    if s.narration is not None:
        slot = s.narration.slots[s.narration.current]
        losers = [x for x in s.narration.slots if not x.won and not x.done and x.coins > 0]
        most = min(slot.coins, max((x.coins for x in losers), default=0))
        out.append(("cancel_bonus.pool", tuple(x.pool for x in losers) if slot.won and most > 0 else ()))
        out.append(("cancel_bonus.coins", (most,)))
    return out


def _drawable(s: GameState) -> list[tuple[str, str]]:
    """(component, Trait id) pairs the engine lets be drawn on now (U-COMP-3, UA-ENIGMA-2)."""
    return [(cid, t.id) for cid, t in drawable(s)]


def fit_choice(data: dict[str, Any], s: GameState, me: str) -> dict[str, Any]:
    """The engine's reading of an answer whose fields the schema could not tie to each other.

    An enum offers each field's legal values, not legal pairs: a drawable Trait with a component
    that does not carry it, a relationship Trait without the other component, a new location
    "introduced" (it enters a scene only as its location, U-ACT-3). The pair the engine accepts
    is taken: the Trait's own component, an ordinary Trait, a location created and not introduced.
    """
    out = dict(data)
    kind = out.get("type")
    if kind == "create_component" and out.get("kind") == "location" and out.get("introduce"):
        out["introduce"] = False  # U-ACT-3
    elif kind == "draw_trait":
        pairs = _drawable(s)
        if (out.get("component"), out.get("trait")) not in pairs:
            holder = next((c for c, t in pairs if t == out.get("trait")), None)
            if holder is not None:  # U-COMP-3: the Trait's own component (or a Sub drawing its Master's)
                out["component"] = holder
    elif kind == "add_trait":
        out = _fit_trait(out, s)
    elif kind == "cancel_bonus" and s.narration is not None:
        target = next((x for x in s.narration.slots if x.pool == out.get("pool")), None)
        if target is not None and isinstance(out.get("coins"), int) and out["coins"] > target.coins > 0:
            out["coins"] = target.coins  # U-COMP-10: no more than the loser has
    return out


def _fit_trait(out: dict[str, Any], s: GameState) -> dict[str, Any]:
    """A Trait kind the components cannot take is read as an ordinary Trait (the engine's trait_kind_problem)."""
    comp = s.components.get(str(out.get("component")))
    other = s.components.get(str(out.get("other"))) if out.get("other") else None
    if other is not None and comp is not None and other.id == comp.id:
        out["other"], other = None, None  # U-TRAIT-2: a component cannot relate to itself
    kind = out.get("kind", "plain")
    # "negates" needs a Master Trait's id, a field models are not shown (TRAIT_KINDS)
    if kind == "negates" or (comp is not None and trait_kind_problem(s, comp, kind, other) is not None):
        out["kind"] = "plain"
        out["other"] = None
    if out.get("kind", "plain") != "plain" and out.get("times", 1) != 1:
        out["times"] = 1  # U-COMP-0: only an ordinary Trait is bought several times
    return out


def unusable_types(s: GameState, types: Iterable[str], choices: Iterable[tuple[str, tuple[Any, ...]]]) -> set[str]:
    """Offered types the engine would refuse whatever the model wrote: nothing to name, or no place yet.

    `choices`: the per-action enums above; an action whose required id field has no value left
    cannot be taken now.
    """
    narrowed = dict(choices)
    sc = s.scene()
    out: set[str] = set()
    for t in types:
        if s.phase != "prep" and sc is not None and sc.location is None and t in NEEDS_LOCATION:
            out.add(t)
        elif any(narrowed.get(f"{t}.{name}") == () for name in REQUIRED_IDS.get(t, ())):
            out.add(t)
    return out


def normalise_choice(data: dict[str, Any]) -> dict[str, Any]:
    """One reading of an answer whose schema makes every nullable field be written.

    A grammar-held model writes every property; for `establish_location` it may name an existing
    location *and* a new Role. The engine wants exactly one (U-FRAME-1); the existing location,
    the more specific choice, is read as meant, then a new Role, then a cut-back.
    """
    if data.get("type") != "establish_location":
        return data
    out = dict(data)
    if out.get("location"):
        out.update(new_role=None, proper_name=None, return_to_scene=None)
    elif out.get("new_role"):
        out["return_to_scene"] = None
    return out

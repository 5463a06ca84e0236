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

from engine.universalis.complications import take_over_problem
from engine.universalis.state import GameState

__all__ = ["NEEDS_LOCATION", "action_choices", "normalise_choice", "unusable_types"]

# action types the engine refuses while the scene has no location (require_location, U-FRAME-1)
NEEDS_LOCATION = frozenset({"introduce_component", "exit_component", "declare_absent", "narrate_event",
                            "buy_fact", "dialog"})
# the id fields an action cannot do without: nothing to name, nothing to do
REQUIRED_IDS = {"introduce_component": ("component",), "exit_component": ("component",),
                "declare_absent": ("component",), "speak": ("component",), "dialog": ("speaker", "listener"),
                "take_over": ("component",), "return_component": ("component",),
                "restore_importance": ("component",), "reduce_importance": ("component",), "restore_trait": ("trait",), "remove_trait": ("trait",)}
# in preparation one coin buys one Tenet action (U-PREP-3): a bare Role, a single Trait
PREP_LEAVE_OUT = ("create_component.introduce", "create_component.proper_name", "add_trait.times")


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
    # U-ACT-1: performer and receiver are in the scene; U-ACT-8: you speak with a character you control
    out += [("narrate_event.performer", present), ("narrate_event.receiver", present),
            ("speak.component", mine_here), ("dialog.speaker", mine_here),
            ("dialog.listener", tuple(x for x in sc.present if x in s.components))]
    # U-CTRL-3: take over what another player controls here (the engine's own test)
    out.append(("take_over.component", tuple(x for x in present if take_over_problem(s, me, x) is None)))
    # U-ELIM-3 / U-ELIM-4 / U-ACT-5: only what there is to bring back, restore or cross off
    out.append(("return_component.component", tuple(c.id for c in s.components.values()
                                                    if c.eliminated and not c.is_master)))
    # U-CTRL-4: Traits and Importance are paid on components in the scene (Masters excepted; in a
    # Complication's narration its Targets and committed components too)
    reach = [c for c in live if c.id in here or c.is_master
             or (s.narration is not None and s.complication is not None
                 and c.id in {*s.complication.targets, *s.complication.committed})]
    out.append(("reduce_importance.component", tuple(c.id for c in reach)))
    out.append(("restore_importance.component", tuple(c.id for c in reach if c.reduced > 0)))
    out.append(("restore_trait.trait", tuple(tr.id for c in reach for tr in c.traits if tr.removed)))
    out.append(("remove_trait.trait", tuple(tr.id for c in reach for tr in c.traits if not tr.removed)))
    # U-ACT-6: a Sub Component links to a Master Component
    out.append(("create_component.sub_of", tuple(c.id for c in live if c.is_master)))
    if sc.location is None:
        out.append(("create_component.introduce", ()))  # nothing enters a scene without a place
    if not _can_cut_back(s, sc):
        out.append(("establish_location.return_to_scene", ()))
    return out


def _can_cut_back(s: GameState, sc: Any) -> bool:
    """U-FRAME-5: while framing, back to an ended scene that did not fade."""
    framing = s.turn is not None and s.turn.framing and sc.location is None
    return framing and any(o.ended and not o.faded and o.number != sc.number for o in s.scenes)


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

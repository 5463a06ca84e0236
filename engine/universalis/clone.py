"""A fast copy of a state for `apply`: mutable parts are copied, frozen records are shared.

A generic deep copy of a long game costs milliseconds per action; this copies only what a
handler may change (the open scenes, components, players, the pending sub-states).
"""
from __future__ import annotations

import copy

from engine.universalis.state import Component, GameState, Scene


def _component(c: Component) -> Component:
    new = c.model_copy()
    new.traits = list(c.traits)
    new.masters = list(c.masters)
    return new


def _scene(sc: Scene) -> Scene:
    if sc.ended:
        return sc  # an ended scene is never changed again
    new = sc.model_copy()
    new.present = list(sc.present)
    new.control = dict(sc.control)
    new.absent = list(sc.absent)
    new.seen = list(sc.seen)
    new.positive = dict(sc.positive)
    return new


def clone(s: GameState) -> GameState:
    new = s.model_copy()
    new.players = [p.model_copy(update={"ledger": p.ledger.model_copy()}) for p in s.players]
    new.bids = dict(s.bids)
    new.tenets = list(s.tenets)
    new.facts = list(s.facts)
    new.components = {k: _component(c) for k, c in s.components.items()}
    new.scenes = [_scene(sc) for sc in s.scenes]
    new.counters = dict(s.counters)
    new.addon = s.addon.model_copy(deep=True)
    new.extra = s.extra.model_copy(update={"jobs": list(s.extra.jobs), "between_pools": dict(s.extra.between_pools),
                                          "setting_pools": dict(s.extra.setting_pools),
                                          "between_made": list(s.extra.between_made),
                                          "spenders": list(s.extra.spenders),
                                          "judgment": copy.deepcopy(s.extra.judgment),
                                          "alt_before": dict(s.extra.alt_before),
                                          "alt_mirrors": list(s.extra.alt_mirrors),
                                          "alt_records": list(s.extra.alt_records),
                                          "cards": dict(s.extra.cards), "hands": dict(s.extra.hands)})
    new.suspended = copy.deepcopy(s.suspended)  # Nested Complications (UA-NEST-1); [] in other games
    for name in ("turn", "window", "challenge", "fine", "complication", "consent", "narration", "dialog"):
        value = getattr(s, name)
        if value is not None:
            setattr(new, name, copy.deepcopy(value))
    return new

"""A fast copy of a FUBAR state for `apply`: what a handler may change is copied, frozen records
(Details, answers, Conditions, Relationships, dice sources) are shared.

Why: a generic deep copy walks every record of a long game on every action; the property tests
check that `apply` still never changes its input.
"""
from __future__ import annotations

import copy

from engine.fubar.state import Character, GameState, Opposition, Scene


def _character(c: Character) -> Character:
    return c.model_copy(update={
        "concept_abilities": list(c.concept_abilities), "trademarks": list(c.trademarks), "flaws": list(c.flaws),
        "relationships": list(c.relationships), "goals": list(c.goals), "conditions": list(c.conditions),
        "consequences": list(c.consequences), "armour": c.armour.model_copy(),
        "assets": [a.model_copy(update={"trademarks": list(a.trademarks), "flaws": list(a.flaws),
                                        "invested": list(a.invested)}) for a in c.assets],
        "powers": list(c.powers), "disabled_powers": list(c.disabled_powers),
        "power_scene_uses": dict(c.power_scene_uses), "power_session_uses": dict(c.power_session_uses)})


def _opposition(o: Opposition) -> Opposition:
    return o.model_copy(update={"trademarks": list(o.trademarks), "flaws": list(o.flaws),
                                "conditions": list(o.conditions), "armour": o.armour.model_copy()})


def _scene(sc: Scene) -> Scene:
    return sc if sc.ended else sc.model_copy(update={"present": list(sc.present)})


def clone(s: GameState) -> GameState:
    return s.model_copy(update={
        "seats": list(s.seats), "places": list(s.places),
        "characters": {k: _character(c) for k, c in s.characters.items()},
        "opposition": {k: _opposition(o) for k, o in s.opposition.items()},
        "scenes": [_scene(sc) for sc in s.scenes], "details": list(s.details), "answers": list(s.answers),
        "conflict": copy.deepcopy(s.conflict), "escape": list(s.escape), "advance": dict(s.advance),
        "relationships_due": list(s.relationships_due)})

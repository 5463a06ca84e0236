"""Per-action schemas offer only what the engine accepts now (agents/llm/legal_now.py, issue 27).

SmolLM2 lost most of its decisions to engine refusals of answers the schema had let through:
U-PREP-3 (a Role and a proper name for one coin in preparation), U-ACT-3 (introducing a
component already in the scene) and U-FRAME-1 (acting before the scene has a place). Each test
builds the situation with the engine, checks the schema no longer admits the refused answer,
and that what it does admit the engine accepts.
"""
from __future__ import annotations

import pytest
from engine_helpers import framed, game, to_scene
from pydantic import ValidationError

from agents.llm.legal_now import action_choices, unusable_types
from agents.llm.schema_actions import choice_schema, field_choices, to_engine_action
from engine.core.errors import RuleViolation
from engine.universalis import actions as A
from engine.universalis.rules import apply


def _props(schema: type, model: str) -> dict:
    return schema.model_json_schema()["$defs"][model]["properties"]


def _enum(node: dict) -> list:
    for branch in node.get("anyOf", [node]):
        if "enum" in branch:
            return branch["enum"]
    return []


def test_prep_component_is_a_bare_role_and_a_trait_is_single_u_prep_3() -> None:
    """U-PREP-3 (book lines 257, 1652): in preparation one coin buys one Tenet action."""
    g = game()
    me = g.pend.players[0]
    schema = choice_schema(("propose_tenet", "create_component", "add_trait", "pass_prep"), field_choices(g.s, me))
    comp = _props(schema, "CreateComponent")
    assert "introduce" not in comp and "times" not in _props(schema, "AddTrait")
    with pytest.raises(ValidationError, match="proper_name"):
        schema.model_validate({"action": {"type": "create_component", "role": "Knight", "proper_name": "Sir T"}})
    # a stray `introduce` is not read: the engine's default (not introduced) applies, and it is legal
    ok = schema.model_validate({"action": {"type": "create_component", "role": "Knight", "introduce": True}})
    action = to_engine_action(ok, me)
    assert action.introduce is False  # type: ignore[attr-defined]
    apply(g.s, action)


def test_introduce_offers_only_components_not_in_the_scene_u_act_3() -> None:
    """U-ACT-3 (line 917): introduce an existing component that is not in the scene."""
    g = framed()
    me = g.turn
    here = g.create(me, "Ferryman")  # introduced
    away = g.create(me, "Smuggler", introduce=False)
    choices = dict(field_choices(g.s, me))
    assert choices["introduce_component.component"] == (away,)
    schema = choice_schema(("introduce_component", "end_turn"), tuple(choices.items()))
    with pytest.raises(ValidationError):
        schema.model_validate({"action": {"type": "introduce_component", "component": here}})
    with pytest.raises(RuleViolation, match="U-ACT-3"):  # what the old schema let through
        apply(g.s, A.IntroduceComponent(player=me, component=here))
    apply(g.s, to_engine_action(schema.model_validate(
        {"action": {"type": "introduce_component", "component": away}}), me))


def test_exit_and_speak_name_only_components_you_control_here_u_act_3_u_act_8() -> None:
    g = framed()
    me = g.turn
    mine = g.create(me, "Ferryman")
    choices = dict(field_choices(g.s, me))
    assert choices["exit_component.component"] == (mine,)
    assert choices["speak.component"] == (mine,)
    loc = g.s.scene().location
    with pytest.raises(RuleViolation, match="U-ACT-3"):
        apply(g.s, A.ExitComponent(player=me, component=loc))  # a location is not exited
    other = next(p.name for p in g.s.players if p.name != me)
    theirs = dict(field_choices(g.s, other))
    assert mine not in theirs["exit_component.component"]


def test_establish_location_never_offers_the_current_one_u_act_3() -> None:
    g = framed()
    me = g.turn
    loc = g.s.scene().location
    choices = dict(field_choices(g.s, me))
    assert loc not in choices["establish_location.location"]
    with pytest.raises(RuleViolation, match="U-ACT-3"):
        apply(g.s, A.EstablishLocation(player=me, location=loc))
    schema = choice_schema(("establish_location", "end_turn"), tuple(choices.items()))
    assert _props(schema, "EstablishLocation")["return_to_scene"].get("type") == "null"  # no scene to cut back to


def test_a_location_and_a_new_role_both_written_read_as_the_location_u_frame_1() -> None:
    """U-FRAME-1: one location. A grammar makes the model write every field; the named place is meant."""
    g = to_scene()
    me = g.turn
    g.act(A.EstablishLocation(player=me, new_role="Harbour"))
    g.act(A.NarrateEvent(player=me, text="Fog rolls in."))
    harbour = g.s.scene().location
    g.create(me, "Lighthouse", kind="location", introduce=False)
    lighthouse = g.new_component()
    schema = choice_schema(("establish_location", "end_turn"), field_choices(g.s, me))
    both = schema.model_validate({"action": {"type": "establish_location", "location": lighthouse,
                                             "new_role": "Cave", "proper_name": "X", "text": "We climb."}})
    with pytest.raises(RuleViolation, match="U-FRAME-1"):
        apply(g.s, A.EstablishLocation(player=me, location=lighthouse, new_role="Cave"))
    action = to_engine_action(both, me)
    assert (action.location, action.new_role, action.proper_name) == (lighthouse, None, None)  # type: ignore[attr-defined]
    after, _ = apply(g.s, action)
    assert after.scene().location == lighthouse != harbour


def test_nothing_needing_a_place_is_offered_before_the_scene_has_one_u_frame_1() -> None:
    """U-FRAME-1 (line 359): the framer establishes the location first; these actions need it."""
    g = to_scene()
    me = g.turn
    types = ("establish_location", "narrate_event", "buy_fact", "introduce_component", "create_component",
             "dialog", "add_trait")
    dead = unusable_types(g.s, types, action_choices(g.s, me))
    assert dead == {"narrate_event", "buy_fact", "introduce_component", "dialog"}
    for action in (A.NarrateEvent(player=me, text="Rain."), A.BuyFact(player=me, text="It is cold.")):
        with pytest.raises(RuleViolation, match="U-FRAME-1"):
            apply(g.s, action)
    # a component may still be created, but it cannot enter a scene without a place
    assert "introduce" not in _props(choice_schema(("create_component",), field_choices(g.s, me)),
                                     "CreateComponent")


def test_narrate_event_names_only_components_in_the_scene_u_act_1() -> None:
    g = framed()
    me = g.turn
    away = g.create(me, "Smuggler", introduce=False)
    choices = dict(field_choices(g.s, me))
    assert away not in choices["narrate_event.performer"]
    assert g.s.scene().location in choices["narrate_event.receiver"]
    with pytest.raises(RuleViolation, match="U-ACT-1"):
        apply(g.s, A.NarrateEvent(player=me, text="He sails.", performer=away))

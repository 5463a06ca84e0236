"""Per-action schemas offer only what the engine accepts now (agents/llm/legal_now.py, issue 27).

SmolLM2 lost most of its decisions to engine refusals of answers the schema had let through:
U-PREP-3 (a Role and a proper name for one coin in preparation), U-ACT-3 (introducing a
component already in the scene) and U-FRAME-1 (acting before the scene has a place). Each test
builds the situation with the engine, checks the schema no longer admits the refused answer,
and that what it does admit the engine accepts.
"""
from __future__ import annotations

import pytest
from engine_helpers import framed, game, rival_called, to_scene
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
        if "const" in branch:  # a one-value Literal
            return [branch["const"]]
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
    # add_trait too: no component exists yet to carry a Trait (U-ACT-5), place or not
    assert not g.s.components
    assert dead == {"narrate_event", "buy_fact", "introduce_component", "dialog", "add_trait"}
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


# --- issue 27, third round: what SmolLM2 and Gemma 3 still chose and the engine refused ------------
def _narration() -> tuple:
    """Ben won a roll against Ann's Hero and narrates; Ann's location is in the scene, not tied to it."""
    g, hero = rival_called(complication_dice=2, hero_dice=3)
    g.roll(C=[4, 5], Ann=[7, 8, 9])
    assert g.pend.kind == "narration" and g.pend.players == ("Ben",)
    bystander = g.s.scene().location
    assert g.s.controller(bystander) == "Ann"
    return g, hero, bystander


def test_narration_names_only_what_is_tied_to_the_complication_u_comp_10() -> None:
    """U-COMP-10 (line 1145): bonus coins change what is tied to the Complication (SmolLM2: 15 refusals)."""
    g, hero, bystander = _narration()
    choices = field_choices(g.s, "Ben")
    schema = choice_schema(("narrate_event", "add_trait", "cancel_bonus", "end_narration"), choices)
    performers = _enum(_props(schema, "NarrateEvent")["performer"])
    assert hero in performers and bystander not in performers
    assert bystander not in _enum(_props(schema, "AddTrait")["component"])
    with pytest.raises(RuleViolation, match="U-COMP-10"):
        apply(g.s, A.NarrateEvent(player="Ben", text="x", performer=bystander, receiver=hero))
    # cancel_bonus: only a losing Pool still to narrate, at most what it holds (Ann's 3 bonus coins)
    assert _enum(_props(schema, "CancelBonus")["pool"]) == ["Ann"]
    assert _enum(_props(schema, "CancelBonus")["coins"]) == [1, 2, 3]
    with pytest.raises(RuleViolation, match="U-COMP-10"):
        apply(g.s, A.CancelBonus(player="Ben", pool="Ann", coins=4))
    ok = schema.model_validate({"action": {"type": "cancel_bonus", "pool": "Ann", "coins": 3}})
    apply(g.s, to_engine_action(ok, "Ben", g.s))
    # a loser narrating cannot cancel: the move is not offered at all
    g.act(A.EndNarration(player="Ben"))
    assert g.pend.players == ("Ann",)
    ann = action_choices(g.s, "Ann")
    assert "cancel_bonus" in unusable_types(g.s, ["cancel_bonus", "end_narration"], ann)


def test_add_on_fields_are_not_offered_without_the_add_on_ua_dur_1() -> None:
    """UA-DUR-1, UA-ENIGMA-1, UA-ROY-1: an add-on's field is refused unless the table plays it."""
    g = framed()
    me = g.turn
    schema = choice_schema(("create_component", "add_trait", "take_over", "end_turn"), field_choices(g.s, me))
    assert "durable" not in _props(schema, "CreateComponent")
    assert "enigma" not in _props(schema, "AddTrait") and "royalty" not in _props(schema, "TakeOver")
    with pytest.raises(RuleViolation, match="UA-DUR-1"):
        apply(g.s, A.CreateComponent(player=me, role="Ship", durable=True))
    ok = schema.model_validate({"action": {"type": "create_component", "role": "Ship", "durable": True}})
    assert to_engine_action(ok, me, g.s).durable is False  # type: ignore[attr-defined]


def test_a_sub_component_links_only_to_a_master_u_act_6() -> None:
    """U-ACT-6 (lines 786, 796): Gemma 3 made every preparation Component a Sub of a character."""
    g = game()
    me = g.pend.players[0]
    g.act(A.CreateComponent(player=me, role="Sailor"))
    sailor = g.new_component()
    me = g.pend.players[0]
    with pytest.raises(RuleViolation, match="U-ACT-6"):
        apply(g.s, A.CreateComponent(player=me, role="Mate", sub_of=sailor))
    schema = choice_schema(("create_component", "add_trait", "pass_prep"), field_choices(g.s, me))
    assert _props(schema, "CreateComponent")["sub_of"].get("type") == "null"
    assert "sub" not in _enum(_props(schema, "AddTrait")["kind"])  # no Master to link to
    with pytest.raises(ValidationError, match="sub_of"):
        schema.model_validate({"action": {"type": "create_component", "role": "Mate", "sub_of": sailor}})


def test_a_trait_relating_a_component_to_itself_is_read_as_ordinary_u_trait_2() -> None:
    """U-TRAIT-2: a relationship names the *other* component; Gemma 3 named the same one."""
    g = framed()
    me = g.turn
    cid = g.create(me, "Sailor")
    with pytest.raises(RuleViolation, match="U-TRAIT-2"):
        apply(g.s, A.AddTrait(player=me, component=cid, text="Brave", kind="name", other=cid))
    schema = choice_schema(("add_trait", "end_turn"), field_choices(g.s, me))
    for kind in ("name", "relationship"):
        ok = schema.model_validate({"action": {"type": "add_trait", "component": cid, "text": "Brave",
                                               "kind": kind, "other": cid}})
        action = to_engine_action(ok, me, g.s)
        assert action.other is None  # type: ignore[attr-defined]
        apply(g.s, action)


def test_a_new_location_is_named_and_not_introduced_u_frame_1_u_act_3() -> None:
    """U-FRAME-1: the framer names one location (SmolLM2 left every field null); U-ACT-3: a location
    enters a scene only as its location (SmolLM2 created one with introduce: true, 4 refusals)."""
    g = to_scene()
    me = g.turn
    schema = choice_schema(("establish_location", "set_time"), field_choices(g.s, me))
    assert "new_role" in schema.model_json_schema()["$defs"]["EstablishLocation"]["required"]
    with pytest.raises(ValidationError, match="new_role"):
        schema.model_validate({"action": {"type": "establish_location", "new_role": None, "text": "x"}})
    with pytest.raises(ValidationError, match="new_role"):
        schema.model_validate({"action": {"type": "establish_location", "new_role": "", "text": "x"}})
    with pytest.raises(RuleViolation, match="U-FRAME-1"):
        apply(g.s, A.EstablishLocation(player=me, proper_name="Rim"))
    ok = schema.model_validate({"action": {"type": "establish_location", "new_role": "Harbour", "text": "Fog."}})
    g.act(to_engine_action(ok, me, g.s))
    with pytest.raises(RuleViolation, match="U-ACT-3"):
        apply(g.s, A.CreateComponent(player=me, role="Cave", kind="location", introduce=True))
    made = choice_schema(("create_component", "end_turn"), field_choices(g.s, me)).model_validate(
        {"action": {"type": "create_component", "role": "Cave", "kind": "location", "introduce": True}})
    action = to_engine_action(made, me, g.s)
    assert action.introduce is False  # type: ignore[attr-defined]
    g.act(action)


def test_a_drawn_trait_is_drawn_from_its_own_component_u_comp_3() -> None:
    """U-COMP-3: a Trait is drawn from a component in the scene that carries it (SmolLM2 named another)."""
    g = framed(("Ann", "Ben", "Cat"), {"Ann": 1})
    hero = g.create("Ann", "Hero")
    g.end_turn("Ann")
    g.event("Ben", "A rival challenges the hero.", receiver=hero)
    me = g.turn
    assert me == "Ben" and g.s.complication is not None
    tid = g.trait(hero, "Hero")
    loc = g.s.scene().location
    choices = dict(field_choices(g.s, me))
    assert tid in choices["draw_trait.trait"] and hero in choices["draw_trait.component"]
    with pytest.raises(RuleViolation, match="U-COMP-3"):
        apply(g.s, A.DrawTrait(player=me, trait=tid, component=loc, pool="C"))
    schema = choice_schema(("draw_trait", "end_turn"), tuple(choices.items()))
    ok = schema.model_validate({"action": {"type": "draw_trait", "trait": tid, "component": loc, "pool": "C"}})
    action = to_engine_action(ok, me, g.s)
    assert action.component == hero  # type: ignore[attr-defined]
    g.act(action)
    assert tid not in dict(field_choices(g.s, me))["draw_trait.trait"]  # drawn once per Complication


def test_a_possession_closing_a_loop_of_ownership_is_read_as_ordinary_u_act_6() -> None:
    """U-ACT-6 (digest: ownership and Master/Sub links may not form cycles; the book says it in no
    words, but Importance flows up such links, L790, U-IMP-1). The schema's reading of a Trait kind
    asks the engine's own trait_kind_problem, so the loop check is not left out of it."""
    g = framed()
    me = g.turn
    knight, sword = g.create(me, "Knight"), g.create(me, "Sword")
    g.add(me, knight, "Carries the sword", kind="possession", other=sword)
    assert g.s.components[sword].owner == knight
    with pytest.raises(RuleViolation, match="U-ACT-6"):
        apply(g.s, A.AddTrait(player=me, component=sword, text="Owns its bearer", kind="possession", other=knight))
    schema = choice_schema(("add_trait", "end_turn"), field_choices(g.s, me))
    ok = schema.model_validate({"action": {"type": "add_trait", "component": sword, "text": "Owns its bearer",
                                           "kind": "possession", "other": knight}})
    action = to_engine_action(ok, me, g.s)
    assert action.kind == "plain" and action.other is None  # type: ignore[attr-defined]
    g.act(action)


def test_a_secret_enigma_trait_is_not_offered_to_draw_on_ua_enigma_2() -> None:
    """UA-ENIGMA-2 (L2184): a secret Trait cannot be used in a Complication until revealed. The model's
    schema and the app's form both list the engine's drawable(), which draw_problem decides."""
    from app.ui import choices as C
    g = framed(("Ann", "Ben", "Cat"), {"Ann": 1}, addons={"enigma_trait_cost": 2})
    hero = g.create("Ann", "Hero")
    wolf = g.add("Ann", hero, "Werewolf", enigma=True)
    g.end_turn("Ann")
    g.event("Ben", "A rival challenges the hero.", receiver=hero)
    me = g.turn
    assert me == "Ben" and g.s.complication is not None
    with pytest.raises(RuleViolation, match="UA-ENIGMA-2"):
        apply(g.s, A.DrawTrait(player=me, trait=wolf, component=hero, pool="C"))
    offered = dict(field_choices(g.s, me))["draw_trait.trait"]
    assert g.trait(hero, "Hero") in offered and wolf not in offered
    in_form = [value for value, _ in C.drawable(g.s)]
    assert f"{g.trait(hero, 'Hero')}@{hero}" in in_form and f"{wolf}@{hero}" not in in_form

def test_a_fact_is_about_a_component_that_exists_u_act_2() -> None:
    """U-ACT-2: a Fact bought about a component names one in the game (SmolLM2 wrote a sentence there)."""
    g = framed()
    me = g.turn
    cid = g.create(me, "Sailor")
    with pytest.raises(RuleViolation, match="U-ACT-2"):
        apply(g.s, A.BuyFact(player=me, text="It rains.", about="Decision: Ben. A tale of two players"))
    schema = choice_schema(("buy_fact", "end_turn"), field_choices(g.s, me))
    assert cid in _enum(_props(schema, "BuyFact")["about"])
    with pytest.raises(ValidationError, match="about"):
        schema.model_validate({"action": {"type": "buy_fact", "text": "It rains.", "about": "Decision: Ben."}})
    g.act(to_engine_action(schema.model_validate({"action": {"type": "buy_fact", "text": "It rains.",
                                                             "about": cid}}), me, g.s))


def test_eval_counts_refusals_by_their_rule_add_ons_and_pre_send_included() -> None:
    """eval's refusal counts name add-on rules (UA-DUR-1 was 'other') and the pre-send check."""
    from eval.decisions import refusal_key

    g = framed()
    me = g.turn
    with pytest.raises(RuleViolation) as refused:
        apply(g.s, A.CreateComponent(player=me, role="Ship", durable=True))
    assert refusal_key(str(refused.value)) == "UA-DUR-1"
    with pytest.raises(RuleViolation) as refused:
        apply(g.s, A.IntroduceComponent(player=me, component=g.s.scene().location))
    assert refusal_key(str(refused.value)) == "U-ACT-3"
    assert refusal_key("not sent: it contradicts the Fact “Ben won” (numbers differ)") == "pre-send check"
    assert refusal_key("not a valid action: 1 validation error") == "other"


def test_a_model_always_names_a_new_role_even_when_a_cut_back_is_possible_u_frame_5() -> None:
    """U-FRAME-1 / U-FRAME-5: framing a later scene, a cut-back is legal, but a grammar-held model
    writing every field null would be refused; a model names a place, and the heuristic cuts back."""
    g = framed()
    framer = g.turn
    g.act(A.EndScene(player=framer))
    while g.pend.kind not in ("turn",):
        if g.pend.kind == "bid":
            g.bids({p: 0 for p in g.pend.players})
        else:
            g.passes()
    me = g.turn
    sc = g.s.scene()
    assert sc.location is None and any(o.ended and not o.faded for o in g.s.scenes)
    schema = choice_schema(("establish_location", "set_time"), field_choices(g.s, me))
    props = _props(schema, "EstablishLocation")
    assert props["return_to_scene"].get("type") == "null"
    assert "new_role" in schema.model_json_schema()["$defs"]["EstablishLocation"]["required"]
    ok = schema.model_validate({"action": {"type": "establish_location", "new_role": "Quay", "text": "Dawn."}})
    g.act(to_engine_action(ok, me, g.s))

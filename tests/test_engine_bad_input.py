"""Bad input: wrong player, wrong time, over budget, unknown or eliminated components.

Every refusal must name its rule ID in the message and leave the state exactly as it was
(`Game.refused` compares `model_dump_json` before and after).
"""
from __future__ import annotations

import pytest

from engine.core.errors import RuleViolation
from engine.universalis import actions as A
from engine.universalis import apply, new_game

from engine_helpers import P3, framed, game, to_scene


def test_unknown_player_and_reserved_names_U_TURN_1_U_PREP_1():
    g = framed(P3, {"Ann": 1})
    g.refused(A.EndTurn(player="Zed"), "U-TURN-1", "not a player")
    for names in (["Ann"], ["Ann", "Ann"], ["Ann", ""], ["Ann", "C"], ["Ann", "dice"]):
        with pytest.raises(RuleViolation) as exc:
            new_game(names)
        assert exc.value.rule == "U-PREP-1"
    with pytest.raises(RuleViolation):
        new_game(P3, starting_player=3)


def test_malformed_action_dict_is_refused_U_INPUT():
    s = new_game(P3)
    with pytest.raises(RuleViolation) as exc:
        apply(s, {"type": "narrate_event", "player": "Ann"})
    assert exc.value.rule == "U-INPUT"
    with pytest.raises(RuleViolation):
        apply(s, {"type": "no_such_action", "player": "Ann"})
    # a valid dict is accepted like the model
    s2, _ = apply(s, {"type": "pass_prep", "player": "Ann"})
    assert s2.prep_index == 1


def test_wrong_player_at_each_kind_of_decision():
    g = game(P3)
    g.refused(A.ProposeTenet(player="Ben", text="x"), "U-PREP-1")
    g.refused(A.Bid(player="Ann", amount=1), "U-BID-1")  # no bid during preparation
    g.refused(A.NarrateEvent(player="Ann", text="x"), "U-TURN-1")
    g = framed(P3, {"Ann": 1})
    g.refused(A.NarrateEvent(player="Ben", text="x"), "U-TURN-1")
    g.refused(A.AddTrait(player="Cat", component="c1", text="x"), "U-TURN-1")
    g.refused(A.PassPrep(player="Ann"), "U-PREP-1")
    g.refused(A.Pass(player="Ben"), "U-TURN-3")  # no window open
    g.do(A.NarrateEvent(player="Ann", text="x"))
    g.refused(A.Pass(player="Ann"), "U-TURN-3")  # not on his own statement
    g.do(A.Pass(player="Ben"))
    g.refused(A.Pass(player="Ben"), "U-TURN-3")  # answered already
    g.refused(A.EndTurn(player="Ann"), "U-TURN-3")  # the window is still open
    g.refused(A.Roll(faces={"C": []}), "U-COMP-7")
    g.refused(A.EndNarration(player="Ann"), "U-TURN-3")


def test_wrong_time_for_challenge_fine_and_complication_actions():
    g = framed(P3, {"Ann": 1})
    g.refused(A.ConcedeChallenge(player="Ann"), "U-CHAL-1")
    g.refused(A.ChallengeBid(player="Ann", coins=1), "U-CHAL-1")
    g.refused(A.WithdrawChallenge(player="Ben"), "U-CHAL-1")
    g.refused(A.FineVote(player="Ann", fine=True), "U-FINE-1")
    g.refused(A.FactVote(player="Ann", applies=True), "U-CHAL-1")
    g.refused(A.DrawTrait(player="Ann", trait="t1", component="c1", pool="C"), "U-COMP-2")
    g.refused(A.BuyDie(player="Ann", pool="C"), "U-COMP-2")
    g.refused(A.CallResolution(player="Ann"), "U-COMP-2")
    g.refused(A.AnswerResolution(player="Ben", agree=True), "U-COMP-6")
    g.refused(A.CancelBonus(player="Ann", pool="C", coins=1), "U-COMP-11")
    g.refused(A.AnswerDialog(player="Ben", accept=True), "U-ACT-8")
    g.refused(A.SetTime(player="Ann", when="past"), "U-FRAME-2")
    g.refused(A.FadeMiniScene(player="Ann"), "U-TURN-4")
    g.refused(A.EstablishLocation(player="Ann", return_to_scene=1), "U-FRAME-5")
    g2 = to_scene(P3, {"Ann": 1})
    g2.refused(A.FrameMiniScene(player="Ann"), "U-TURN-4")  # still framing
    g2.refused(A.DisputeFact(player="Ann"), "U-CHAL-1")


def test_over_budget_everywhere_U_ECO_3():
    g = framed(P3, {"Ann": 1}, starting_coins=3)
    # Ann holds 1 coin
    assert g.spendable("Ann") == 1
    for action in (A.CreateComponent(player="Ann", role="Duke", proper_name="Orsino"),
                   A.AddTrait(player="Ann", component="c1", text="x", times=2),
                   A.EstablishLocation(player="Ann", new_role="Keep", proper_name="Dunmore")):
        g.refused(action, "U-ECO-3")
    g.do(A.NarrateEvent(player="Ann", text="Last coin."))
    g.passes()
    assert g.spendable("Ann") == 0
    g.end_turn("Ann")
    g.do(A.NarrateEvent(player="Ben", text="x"))
    g.refused(A.Interrupt(player="Ann"), "U-ECO-3")
    g.refused(A.Obstacle(player="Cat", dice=5, text="x"), "U-ECO-3")
    g.refused(A.TakeOver(player="Ann", component="c1"), "U-CTRL-3")  # the location is Ann's own
    g.passes()
    g.refused(A.ProposeTenet(player="Ben", text="x" * 3, kind="story", replaces="T9"), "U-PREP-3")


def test_unknown_and_eliminated_components_are_refused():
    g = framed(P3, {"Ann": 1})
    g.refused(A.IntroduceComponent(player="Ann", component="c42"), "U-ACT-3", "no component")
    g.refused(A.AddTrait(player="Ann", component="nope", text="x"), "U-ACT-5")
    g.refused(A.ReduceImportance(player="Ann", component="c42"), "U-ELIM-1")
    g.refused(A.NarrateEvent(player="Ann", text="x", performer="c42"), "U-ACT-1")
    g.refused(A.ExitComponent(player="Ann", component="c42"), "U-ACT-3")
    g.refused(A.DeclareAbsent(player="Ann", component="c42"), "U-ACT-3")
    g.refused(A.RestoreImportance(player="Ann", component="c42"), "U-ELIM-4")
    g.refused(A.ReturnComponent(player="Ann", component="c42"), "U-ELIM-3")
    g.refused(A.TakeOver(player="Ann", component="c42"), "U-CTRL-3")
    g.refused(A.EstablishLocation(player="Ann", location="c42"), "U-FRAME-1")
    g.refused(A.AddTrait(player="Ann", component="c1", text="x", kind="relationship", other="c42"), "U-TRAIT-2")
    g.refused(A.CreateComponent(player="Ann", role="x", sub_of="c42"), "U-ACT-6")
    g.refused(A.Speak(player="Ann", component="c42", line="hi"), "U-ACT-8")
    g.refused(A.Dialog(player="Ann", speaker="c42", listener="c1", line="hi"), "U-ACT-8")
    g.refused(A.CallFine(player="Ann", accused="Zed", reason="x"), "U-FINE-1")
    ghost = g.create("Ann", "Ghost")
    g.act(A.ReduceImportance(player="Ann", component=ghost, coins=1))
    g.refused(A.NarrateEvent(player="Ann", text="x", performer=ghost), "U-ACT-1")
    g.refused(A.IntroduceComponent(player="Ann", component=ghost), "U-ELIM-1")
    g.refused(A.ReduceImportance(player="Ann", component=ghost), "U-ELIM-1")
    g.refused(A.TakeOver(player="Ann", component=ghost), "U-CTRL-3")
    g.refused(A.EstablishLocation(player="Ann", location=ghost), "U-FRAME-1")


def test_refusals_never_change_the_state_even_deep_in_a_complication():
    g = framed(P3, {"Ann": 1})
    hero = g.create("Ann", "Hero")
    g.end_turn("Ann")
    g.event("Ben", "A trap springs on the hero.", receiver=hero)
    g.act(A.BuyDie(player="Ben", pool="C", count=2))
    g.call_and_agree("Ben")
    for bad in (A.Roll(faces={"C": [1]}), A.Roll(faces={"C": [1, 2], "Ann": [1]}),
                A.Roll(faces={"C": [1, 12], "Ann": []}), A.EndTurn(player="Ben"), A.BuyDie(player="Ben", pool="C")):
        g.refused(bad, "U-COMP-7")
    g.roll(C=[1, 2], Ann=[])
    g.refused(A.EndNarration(player="Ann"), "U-COMP-11")
    g.refused(A.CancelBonus(player="Ben", pool="Ann", coins=1), "U-COMP-10")  # Ann has 0 to cancel
    g.check()

"""Whose decision is pending, and which actions each player may take with their costs.

The table asks exactly `pending(s).players`; `legal_options(s, player)` lists the action types
with a cost each. The property test checks that whatever the engine accepts was offered;
these tests walk one game through every kind of decision.
"""
from __future__ import annotations

from engine.universalis import actions as A
from engine.universalis import legal_options, pending

from engine_helpers import P3, all_pass_prep, framed, game


def types(s, who) -> set[str]:
    return {o.type for o in legal_options(s, who)}


def costs(s, who) -> dict[str, str]:
    return {o.type: o.cost for o in legal_options(s, who)}


def test_prep_then_secret_bids_U_PREP_1_U_BID_1():
    g = game(P3, starting_player=1)
    assert g.pend.kind == "prep_turn" and g.pend.players == ("Ben",)
    assert costs(g.s, "Ben")["propose_tenet"] == "1" and costs(g.s, "Ben")["pass_prep"] == "0"
    assert legal_options(g.s, "Ann") == []
    all_pass_prep(g)
    assert g.pend.kind == "bid" and g.pend.secret and set(g.pend.players) == set(P3)
    assert costs(g.s, "Cat") == {"bid": "0 to 25"}
    g.do(A.Bid(player="Cat", amount=3))
    assert "Cat" not in g.pend.players and legal_options(g.s, "Cat") == []


def test_framing_offers_location_first_and_no_interrupt_until_the_first_Event_U_FRAME_4():
    g = game(P3)
    all_pass_prep(g)
    g.bids({"Ann": 2})
    assert g.pend.kind == "turn" and g.pend.players == ("Ann",)
    opts = legal_options(g.s, "Ann")
    assert "end_turn" not in types(g.s, "Ann") and "establish_location" in types(g.s, "Ann")  # U-FRAME-1
    assert "set_time" in types(g.s, "Ann") and "frame_mini_scene" not in types(g.s, "Ann")
    g.do(A.EstablishLocation(player="Ann", new_role="Harbour"))
    assert g.pend.kind == "reaction" and g.pend.players == ("Ben", "Cat")  # closest to Ann's left first
    assert types(g.s, "Ben") == {"pass", "challenge", "call_fine", "take_over"}  # no interrupt while framing
    g.passes()
    g.event("Ann", "Fog rolls in.")
    assert "set_time" not in types(g.s, "Ann")  # framing is over
    g.do(A.NarrateEvent(player="Ann", text="A bell rings."))
    assert {"interrupt", "obstacle"} <= types(g.s, "Ben")
    assert costs(g.s, "Ben")["obstacle"] == "1 + 1 per die" and costs(g.s, "Cat")["interrupt"] == "1"


def test_a_turn_lists_what_the_player_can_pay_for_with_costs_U_TURN_1():
    g = framed(P3, {"Ann": 1})
    c = costs(g.s, "Ann")
    assert c["narrate_event"] == "1" and c["add_trait"] == "1 per Trait"
    assert c["return_component"] == "its Importance" and c["end_scene"].startswith("0")
    assert "frame_mini_scene" in c and "propose_tenet" in c
    assert legal_options(g.s, "Ben") == []
    g.act(A.ProposeTenet(player="Ann", text="The sea keeps its dead."))
    assert "propose_tenet" not in types(g.s, "Ann")  # one Tenet action per turn (U-PREP-2)
    g.end_turn("Ann")
    assert "end_scene" not in types(g.s, "Ben")  # only the framer ends the scene (U-TURN-5)


def test_a_challenge_asks_the_challenged_then_bidders_in_order_and_the_challenger_may_withdraw_U_CHAL_1_U_CHAL_2():
    g = framed(P3, {"Ann": 1})
    g.do(A.NarrateEvent(player="Ann", text="The ship sinks."))
    g.react({"Cat": A.ChallengeStatement(player="Cat", reason="too soon")})
    assert g.pend.kind == "negotiation" and g.pend.players == ("Ann",)
    assert types(g.s, "Ann") == {"concede_challenge", "contest_challenge"}
    assert types(g.s, "Cat") == {"withdraw_challenge"}  # not asked, but he may let it stand
    assert legal_options(g.s, "Ben") == []
    g.do(A.ContestChallenge(player="Ann"))
    assert g.pend.kind == "challenge_bid" and g.pend.players == ("Cat",)
    assert costs(g.s, "Cat") == {"challenge_bid": "1+", "challenge_pass": "0"}
    g.do(A.ChallengeBid(player="Cat", option=1, coins=1))
    assert g.pend.players == ("Ben",)  # clockwise from the challenger, the challenged last
    g.do(A.ChallengePass(player="Ben"))
    assert g.pend.players == ("Ann",)


def test_a_fine_is_a_secret_vote_of_everyone_U_FINE_1():
    g = framed(P3, {"Ann": 1})
    g.do(A.CallFine(player="Ann", accused="Ben", reason="spoilers"))
    assert g.pend.kind == "fine_vote" and g.pend.secret and set(g.pend.players) == set(P3)
    assert types(g.s, "Ben") == {"fine_vote"}


def test_a_complication_consent_roll_and_narration_U_COMP_6_U_COMP_7_U_COMP_11():
    g = framed(P3, {"Ann": 1})
    hero = g.create("Ann", "Hero")
    g.end_turn("Ann")
    g.event("Ben", "A wolf bites the hero.", receiver=hero)
    assert {"draw_trait", "call_resolution", "buy_die"} <= types(g.s, "Ben")
    assert costs(g.s, "Ben")["buy_die"] == "1 per die" and costs(g.s, "Ben")["draw_trait"] == "0"
    assert "frame_mini_scene" not in types(g.s, "Ben") and "end_scene" not in types(g.s, "Ann")
    g.act(A.BuyDie(player="Ben", pool="C", count=2))
    g.do(A.CallResolution(player="Ben"))
    assert g.pend.kind == "consent" and g.pend.secret and set(g.pend.players) == {"Ann", "Cat"}
    for p in ("Cat", "Ann"):
        g.do(A.AnswerResolution(player=p, agree=True))
    assert g.pend.kind == "roll" and g.pend.players == ("dice",) and g.pend.dice == {"C": 2, "Ann": 0}
    g.roll(C=[3, 4], Ann=[])
    assert g.pend.kind == "narration" and g.pend.players == ("Ben",)
    c = costs(g.s, "Ben")
    assert c["end_narration"] == "0" and c["add_trait"] == "1 per Trait" and "propose_tenet" in c
    assert "end_turn" not in c and "interrupt" not in c


def test_with_no_coin_only_free_actions_are_offered_U_ECO_3():
    g = framed(P3, {"Ann": 1}, starting_coins=2)
    assert g.spendable("Ann") == 0 and g.spendable("Ben") == 2
    for o in legal_options(g.s, "Ann"):
        assert o.cost.startswith("0"), o
    g.end_turn("Ann")
    g.do(A.NarrateEvent(player="Ben", text="Rain."))
    assert types(g.s, "Ann") == {"pass", "challenge", "call_fine"}  # Interrupts and Take Overs cost 1
    assert {"interrupt", "take_over"} <= types(g.s, "Cat")


def test_a_fine_is_offered_to_everyone_at_any_time_U_FINE_1():
    """line 1361: "Any player can at any time call for a Fine": `any_time_options` says so for every
    seat while no Fine is being voted on, whoever's decision is pending."""
    from engine.universalis.decisions import any_time_options
    g = game(P3)
    all_pass_prep(g)
    assert g.pend.kind == "bid"
    assert [o.type for o in any_time_options(g.s, "Ben")] == ["call_fine"]
    g.do(A.CallFine(player="Ben", accused="Cat", reason="x"))
    assert any_time_options(g.s, "Ann") == [] and g.pend.kind == "fine_vote"


def test_every_action_a_model_may_be_offered_has_a_strict_schema():
    """New action fields (a Challenge's `instead` action) must not break OpenAI's strict JSON schema:
    every object in it lists its properties and allows no others."""
    import json

    from agents.llm.schema import strict_json_schema
    from agents.llm.schema_actions import NOT_FOR_PLAYERS, choice_schema
    from engine.universalis import ACTION_TYPES

    types_ = tuple(t for t in ACTION_TYPES if t not in NOT_FOR_PLAYERS)
    text = json.dumps(strict_json_schema(choice_schema(types_)))
    assert '"additionalProperties": true' not in text

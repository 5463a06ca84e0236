"""Challenges and Facts in Challenges: U-CHAL-1..4, U-FACT-2."""
from __future__ import annotations

from engine.universalis import actions as A
from engine.universalis import legal_options, pending

from engine_helpers import P3, framed, game, to_scene

P4 = ["A", "B", "Cy", "D"]


def _challenged(players=P4, challenger="Cy", **kw):
    """A narrates an Event (1 coin) and `challenger` challenges it."""
    g = framed(players, {players[0]: 1})
    g.do(A.NarrateEvent(player=players[0], text="The bridge collapses."))
    g.snapshot = {p: g.spendable(p) for p in players}
    g.react({challenger: A.ChallengeStatement(player=challenger, reason="too soon", **kw)})
    return g


def test_U_CHAL_1_negotiation_concede_rewords_and_reprices_withdraw_lets_it_stand():
    g = _challenged(alternative="The bridge creaks ominously.", alternative_cost=1, withdraw=False)
    assert pending(g.s).kind == "negotiation" and pending(g.s).players == ("A",)
    g.refused(A.ConcedeChallenge(player="Cy"), "U-CHAL-1")
    g.do(A.ConcedeChallenge(player="A"))
    assert g.s.facts[-1].text == "The bridge creaks ominously."
    assert g.spendable("A") == g.snapshot["A"]  # same price
    # the changed statement cannot be challenged again; the others may still answer it
    assert pending(g.s).kind == "reaction"
    g.refused(A.ChallengeStatement(player="B", reason="again"), "U-CHAL-4")
    g.passes()
    assert g.turn == "A"
    # a changed statement that costs more is re-priced
    g = _challenged(alternative="The bridge collapses and the river floods.", alternative_cost=2, withdraw=False)
    g.do(A.ConcedeChallenge(player="A"))
    assert g.spendable("A") == g.snapshot["A"] - 1
    # the challenger may withdraw during negotiation: the statement stands
    g = _challenged()
    g.refused(A.WithdrawChallenge(player="A"), "U-CHAL-1")
    g.do(A.WithdrawChallenge(player="Cy"))
    assert g.s.facts[-1].text == "The bridge collapses." and g.s.challenge is None
    # anything said can be challenged, Tenets in preparation too
    g = game(P3)
    g.do(A.ProposeTenet(player="Ann", text="Zombies."))
    g.react({"Cat": A.ChallengeStatement(player="Cat", reason="no zombies")})
    g.do(A.ConcedeChallenge(player="Ann"))
    assert g.s.tenets == [] and g.wealth("Ann") == 25


def test_U_CHAL_2_challenger_must_open_then_clockwise_skipping_the_challenged_who_bids_last():
    g = _challenged()
    g.do(A.ContestChallenge(player="A"))
    assert pending(g.s).kind == "challenge_bid" and g.s.challenge.order == ["Cy", "D", "B", "A"]
    g.refused(A.ChallengeBid(player="D", option=0, coins=1), "U-CHAL-2")
    g.refused(A.ChallengeBid(player="Cy", option=0, coins=1), "U-CHAL-2")  # opens for his own option
    g.do(A.ChallengeBid(player="Cy", option=1, coins=1))
    g.do(A.ChallengeBid(player="D", option=0, coins=1))
    g.do(A.ChallengePass(player="B"))
    g.do(A.ChallengeBid(player="A", option=0, coins=1))
    g.do(A.ChallengeBid(player="Cy", option=1, coins=2))  # 3 v 2
    g.do(A.ChallengePass(player="D"))
    g.do(A.ChallengeBid(player="B", option=2, coins=1, new_option="The bridge is only damaged."))
    g.do(A.ChallengePass(player="A"))
    g.refused(A.ChallengeBid(player="D", option=5, coins=1), "U-CHAL-2")
    g.do(A.ChallengePass(player="Cy"))
    g.do(A.ChallengeBid(player="D", option=0, coins=1))  # D passed before and bids again: 3 v 3
    for p in ["B", "A", "Cy", "D"]:
        assert g.s.challenge is not None
        g.do(A.ChallengePass(player=p))
    # a full round of passes ended it; 3 v 3 v 1: the challenged player's option wins the tie
    assert g.s.challenge is None
    assert g.last("challenge_result").data["totals"] == [3, 3, 1]
    assert g.s.facts[-1].text == "The bridge collapses."


def test_U_CHAL_2_challenger_not_bidding_ends_the_challenge():
    g = _challenged()
    g.do(A.ContestChallenge(player="A"))
    g.do(A.ChallengePass(player="Cy"))
    assert g.s.challenge is None and g.s.facts[-1].text == "The bridge collapses."
    assert g.spendable("Cy") == g.snapshot["Cy"]


def test_U_CHAL_3_every_coin_bid_on_any_side_goes_to_the_bank():
    g = _challenged()
    bank = g.s.bank_in
    g.do(A.ContestChallenge(player="A"))
    g.do(A.ChallengeBid(player="Cy", option=1, coins=2))
    g.do(A.ChallengeBid(player="D", option=1, coins=1))
    g.do(A.ChallengeBid(player="B", option=0, coins=1))
    g.do(A.ChallengeBid(player="A", option=0, coins=4))
    for p in ["Cy", "D", "B", "A"]:
        g.do(A.ChallengePass(player=p))
    assert g.s.bank_in - bank == 8
    assert [g.snapshot[p] - g.spendable(p) for p in P4] == [4, 1, 2, 1]
    g.check()


def test_U_CHAL_4_winning_alternative_is_recalculated_withdrawal_refunds_and_turn_continues():
    # the challenger's "it does not happen" wins: the statement is withdrawn and refunded
    g = _challenged()
    g.do(A.ContestChallenge(player="A"))
    g.do(A.ChallengeBid(player="Cy", option=1, coins=2))
    for p in ["D", "B", "A", "Cy"]:
        g.do(A.ChallengePass(player=p))
    assert all(f.text != "The bridge collapses." for f in g.s.facts)
    assert g.spendable("A") == g.snapshot["A"] + 1  # the Event's coin refunded
    assert g.spendable("Cy") == g.snapshot["Cy"] - 2  # challenge bids stay spent
    assert g.turn == "A" and pending(g.s).kind == "turn"
    g.check()
    # a dearer alternative wins: the actor pays the difference
    g = _challenged(alternative="The bridge collapses onto the barge.", alternative_cost=3, withdraw=False)
    g.do(A.ContestChallenge(player="A"))
    g.do(A.ChallengeBid(player="Cy", option=1, coins=1))
    for p in ["D", "B", "A", "Cy"]:
        g.do(A.ChallengePass(player=p))
    assert g.s.facts[-1].text == "The bridge collapses onto the barge."
    assert g.spendable("A") == g.snapshot["A"] - 2
    assert pending(g.s).kind == "reaction"
    assert all(o.type != "challenge" for o in legal_options(g.s, "B"))
    g.passes()
    assert g.turn == "A"
    # a cheaper one refunds the difference
    g = framed(P4, {"A": 1})
    g.do(A.AddTrait(player="A", component="c1", text="Haunted", times=3))
    before = g.spendable("A")
    g.react({"B": A.ChallengeStatement(player="B", reason="too much", alternative="Haunted",
                                       alternative_cost=1, withdraw=False)})
    g.do(A.ConcedeChallenge(player="A"))
    assert g.spendable("A") == before + 2
    g.check()


def test_U_CHAL_4_actor_who_cannot_pay_the_winning_version_has_it_withdrawn():
    g = framed(P4, {"A": 1}, starting_coins=4)
    g.do(A.NarrateEvent(player="A", text="Fireworks."))
    assert g.spendable("A") == 1
    g.react({"B": A.ChallengeStatement(player="B", reason="bigger", alternative="Fireworks over the city.",
                                       alternative_cost=4, withdraw=False)})
    g.do(A.ConcedeChallenge(player="A"))
    assert all(f.text not in ("Fireworks.", "Fireworks over the city.") for f in g.s.facts)
    assert g.spendable("A") == 2
    g.check()


def test_U_CHAL_4_tied_options_without_the_challenged_one_go_to_the_first_opened():
    g = _challenged(alternative="The bridge sways.", alternative_cost=1, withdraw=False)
    g.do(A.ContestChallenge(player="A"))
    g.do(A.ChallengeBid(player="Cy", option=1, coins=2))
    g.do(A.ChallengeBid(player="D", option=2, coins=2, new_option="The bridge burns.", new_option_cost=1))
    for p in ["B", "A", "Cy", "D"]:
        g.do(A.ChallengePass(player=p))
    assert g.last("challenge_result").data["totals"] == [0, 2, 2]
    assert g.s.facts[-1].text == "The bridge sways."


def test_U_FACT_2_bids_defending_a_contradicted_fact_count_double():
    g = framed(P3, {"Ann": 1})
    g.act(A.BuyFact(player="Ann", text="The only bridge is out."))
    fact = g.s.facts[-1].id
    g.end_turn("Ann")
    g.do(A.NarrateEvent(player="Ben", text="Ben's hero crosses the bridge."))
    g.react({"Cat": A.ChallengeStatement(player="Cat", reason="the bridge is out", fact=fact)})
    g.do(A.ContestChallenge(player="Ben"))
    g.do(A.ChallengeBid(player="Cat", option=1, coins=2))  # counts 4
    g.do(A.ChallengePass(player="Ann"))
    g.do(A.ChallengeBid(player="Ben", option=0, coins=3))
    for p in ["Cat", "Ann", "Ben"]:
        g.do(A.ChallengePass(player=p))
    assert g.last("challenge_result").data["totals"] == [3, 4]
    assert all(f.text != "Ben's hero crosses the bridge." for f in g.s.facts)


def test_U_FACT_2_disputed_fact_is_settled_by_majority_and_a_tie_means_it_does_not_apply():
    g = framed(P4, {"A": 1})
    g.act(A.BuyFact(player="A", text="It is night."))
    fact = g.s.facts[-1].id
    g.do(A.NarrateEvent(player="A", text="The sun glints on the sword."))
    g.refused(A.ChallengeStatement(player="B", reason="x", fact="f999"), "U-FACT-2")
    g.refused(A.ChallengeStatement(player="B", reason="x", fact=g.s.facts[-1].id), "U-FACT-2")  # itself
    g.react({"B": A.ChallengeStatement(player="B", reason="it is night", fact=fact)})
    g.do(A.DisputeFact(player="A"))
    assert pending(g.s).kind == "fact_vote"
    for p, v in zip(P4, [False, True, True, False]):
        g.do(A.FactVote(player=p, applies=v))
    assert g.s.challenge.fact_applies is False
    g.do(A.ChallengeBid(player="B", option=1, coins=2))
    for p in ["Cy", "D", "A", "B"]:
        g.do(A.ChallengePass(player=p))
    # not doubled: 2 v 0, the challenger's version still wins on its own coins
    assert g.last("challenge_result").data["totals"] == [0, 2]
    # with a majority it applies and doubles
    g = framed(P3, {"Ann": 1})
    g.act(A.BuyFact(player="Ann", text="It is night."))
    fact = g.s.facts[-1].id
    g.do(A.NarrateEvent(player="Ann", text="Sunlight."))
    g.react({"Ben": A.ChallengeStatement(player="Ben", reason="night", fact=fact)})
    g.refused(A.FactVote(player="Ann", applies=True), "U-CHAL-2")
    g.do(A.DisputeFact(player="Ann"))
    for p, v in zip(P3, [False, True, True]):
        g.do(A.FactVote(player=p, applies=v))
    g.do(A.ChallengeBid(player="Ben", option=1, coins=1))
    g.do(A.ChallengePass(player="Cat"))
    g.do(A.ChallengeBid(player="Ann", option=0, coins=1))
    for p in P3[1:] + P3[:1]:
        g.do(A.ChallengePass(player=p))
    assert g.last("challenge_result").data["totals"] == [1, 2]


def test_U_CHAL_3_U_CHAL_4_withdrawn_narration_statement_bids_stay_paid_from_wealth_not_bonus():
    g = framed(P3, {"Ann": 1})
    hero = g.create("Ann", "Hero")
    g.end_turn("Ann")
    g.event("Ben", "A rock falls toward the hero.", receiver=hero)
    g.act(A.BuyDie(player="Ben", pool="C", count=2))
    g.call_and_agree("Ben")
    g.roll(C=[2, 3], Ann=[])
    assert pending(g.s).players == ("Ben",) and g.s.narration.slots[g.s.narration.current].coins == 5
    wealth = g.wealth("Ben")
    g.do(A.NarrateEvent(player="Ben", text="The hero is crushed.", receiver=hero))
    g.react({"Cat": A.ChallengeStatement(player="Cat", reason="too much")})
    g.do(A.ContestChallenge(player="Ben"))
    g.do(A.ChallengeBid(player="Cat", option=1, coins=3))
    g.do(A.ChallengePass(player="Ann"))
    g.do(A.ChallengeBid(player="Ben", option=0, coins=2))
    for p in ["Cat", "Ann", "Ben"]:
        g.do(A.ChallengePass(player=p))
    assert all(f.text != "The hero is crushed." for f in g.s.facts)
    assert g.s.narration.slots[g.s.narration.current].coins == 5  # the Event's bonus coin is back
    assert g.wealth("Ben") == wealth - 2  # his Challenge bid stays paid, from his wealth
    g.check()


def test_U_FINE_1_a_narrator_pays_a_fine_from_his_wealth_not_his_bonus_coins():
    g = framed(P3, {"Ann": 1})
    hero = g.create("Ann", "Hero")
    g.end_turn("Ann")
    g.event("Ben", "A rock falls toward the hero.", receiver=hero)
    g.act(A.BuyDie(player="Ben", pool="C", count=2))
    g.call_and_agree("Ben")
    g.roll(C=[2, 3], Ann=[])
    wealth = g.wealth("Ben")
    g.do(A.CallFine(player="Ben", accused="Cat", reason="heckling"))
    for p, v in zip(P3, [False, False, True]):
        g.do(A.FineVote(player=p, fine=v))
    assert g.wealth("Ben") == wealth - 2 and g.s.narration.slots[g.s.narration.current].coins == 5
    g.check()


def test_U_CHAL_4_withdrawing_a_future_time_takes_back_the_coins_it_paid_out_bids_take_what_is_left():
    g2 = to_scene(P3, {"Ann": 0}, starting_coins=3)
    g2.act(A.EstablishLocation(player="Ann", new_role="Spaceport"))
    g2.do(A.SetTime(player="Ann", when="future"))  # 1 coin to Ben and 1 to Cat
    assert [g2.spendable(p) for p in P3] == [0, 4, 4]
    g2.react({"Ben": A.ChallengeStatement(player="Ben", reason="no time skips")})
    g2.do(A.ContestChallenge(player="Ann"))
    g2.do(A.ChallengeBid(player="Ben", option=1, coins=4))  # the coin Ann paid him included
    for p in ["Cat", "Ann", "Ben"]:
        g2.do(A.ChallengePass(player=p))
    # withdrawn: Ann gets her 2 coins back, Ben and Cat lose the coin she paid them; Ben's bid
    # of 4 takes the 3 he holds before the statement
    assert g2.s.scene().time_kind == "after"
    assert [g2.spendable(p) for p in P3] == [2, 0, 3]
    g2.check()


def _tenet_fined_in_challenge(fine_up: bool = True, **challenge):
    """Ann proposes a Tenet (1 coin), Cat challenges it, and in the negotiation Ann calls for a Fine
    against Cat: all three vote up (Cat pays 3) or all down (Ann, the accuser, pays 3)."""
    g = game(P3)
    g.do(A.ProposeTenet(player="Ann", text="Zombies."))
    g.react({"Cat": A.ChallengeStatement(player="Cat", reason="no zombies", **challenge)})
    g.do(A.CallFine(player="Ann", accused="Cat", reason="sneering"))
    for p in P3:
        g.do(A.FineVote(player=p, fine=fine_up))
    return g


def _coins(g) -> list[int]:
    return [g.spendable(p) for p in P3]


def test_U_FINE_1_U_CHAL_4_a_fine_voted_during_a_challenge_stands_when_the_statement_is_withdrawn():
    """Book L597-601: the loser pays the Bank when the table votes; L541-553 (U-CHAL-4): the
    statement is withdrawn or replaced. Withdrawing the statement refunds it, not the Fine."""
    total = 75
    # fined, then conceded: the Tenet is withdrawn and refunded, Cat's Fine stays paid
    g = _tenet_fined_in_challenge()
    assert _coins(g) == [24, 25, 22]
    g.do(A.ConcedeChallenge(player="Ann"))
    assert g.s.tenets == [] and _coins(g) == [25, 25, 22]
    assert sum(_coins(g)) + g.s.bank_in - g.s.bank_out - g.s.bank_refunds == total
    g.check()
    # the accuser loses the vote, then concedes: his 3 stay paid, his Tenet is refunded
    g = _tenet_fined_in_challenge(fine_up=False)
    g.do(A.ConcedeChallenge(player="Ann"))
    assert g.s.tenets == [] and _coins(g) == [22, 25, 25]
    g.check()
    # fined, then withdrawn by the bidding: Cat 1 against Ann's nothing; Cat's bid and Fine stay paid
    g = _tenet_fined_in_challenge()
    g.do(A.ContestChallenge(player="Ann"))
    g.do(A.ChallengeBid(player="Cat", option=1, coins=1))
    for p in ["Ben", "Ann", "Cat"]:
        g.do(A.ChallengePass(player=p))
    assert g.last("statement_withdrawn") is not None
    assert g.s.tenets == [] and _coins(g) == [25, 25, 21]
    assert sum(_coins(g)) + g.s.bank_in - g.s.bank_out - g.s.bank_refunds == total
    g.check()
    # fined during the bidding this time, then withdrawn
    g = game(P3)
    g.do(A.ProposeTenet(player="Ann", text="Zombies."))
    g.react({"Cat": A.ChallengeStatement(player="Cat", reason="no zombies")})
    g.do(A.ContestChallenge(player="Ann"))
    g.do(A.ChallengeBid(player="Cat", option=1, coins=2))
    g.do(A.CallFine(player="Ben", accused="Ann", reason="stalling"))
    for p, v in zip(P3, [False, True, True]):
        g.do(A.FineVote(player=p, fine=v))
    for p in ["Ben", "Ann", "Cat"]:
        g.do(A.ChallengePass(player=p))
    assert g.s.tenets == [] and _coins(g) == [23, 25, 23]  # Ann: refunded 1, fined 2
    g.check()
    # fined, then replaced: the reworded Tenet (1 coin) stands, Cat's Fine stays paid
    g = _tenet_fined_in_challenge(alternative="Zombies, but slow ones.", alternative_cost=1, withdraw=False)
    g.do(A.ConcedeChallenge(player="Ann"))
    assert [t.text for t in g.s.tenets] == ["Zombies, but slow ones."]
    assert _coins(g) == [24, 25, 22]
    assert sum(_coins(g)) + g.s.bank_in - g.s.bank_out - g.s.bank_refunds == total
    g.check()


def test_U_FINE_1_a_fine_voted_in_the_reaction_window_stands_when_a_later_challenge_withdraws():
    """Book L597-601: a Fine called on the statement's own reaction window (voted before anyone
    challenges) is paid then; a Challenge that withdraws the statement afterwards keeps it paid."""
    g = game(P3)
    g.do(A.ProposeTenet(player="Ann", text="Zombies."))
    # Ann, who made the statement, calls at once: the window stays open for the others' answers
    g.do(A.CallFine(player="Ann", accused="Ben", reason="groaning"))
    for p in P3:
        g.do(A.FineVote(player=p, fine=True))
    assert _coins(g) == [24, 22, 25]
    g.react({"Cat": A.ChallengeStatement(player="Cat", reason="no zombies")})
    g.do(A.ConcedeChallenge(player="Ann"))
    assert g.s.tenets == [] and _coins(g) == [25, 22, 25]
    g.check()

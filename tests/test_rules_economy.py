"""Economy, preparation, bids and fines: U-ECO-*, U-PREP-*, U-BID-*, U-FINE-1."""
from __future__ import annotations

from engine.universalis import actions as A
from engine.universalis import legal_options, new_game, pending
from engine.universalis.ledger import accounted

from engine_helpers import BOOK, P3, all_pass_prep, framed, game, to_scene


# --- U-ECO ---------------------------------------------------------------------------------
def test_U_ECO_1_starting_coins_and_refreshment_after_each_scene_not_before_first_bid():
    g = game(P3, starting_coins=12, refreshment=3)
    assert [p.wealth for p in g.s.players] == [12, 12, 12]
    all_pass_prep(g)
    assert g.s.phase == "bidding"
    assert [p.wealth for p in g.s.players] == [12, 12, 12]  # no Refreshment before the first bid
    g.bids({"Ann": 2})
    g.act(A.EstablishLocation(player="Ann", new_role="Harbour"))
    g.act(A.EndScene(player="Ann"))
    # Ann: 12 - 2 stake (1 spent on the location, 1 left to the Bank) + 3; others 12 + 3
    assert [g.wealth(n) for n in P3] == [13, 15, 15]
    assert all(p.ledger.refreshments == 3 for p in g.s.players)
    assert g.s.phase == "bidding"


def test_U_ECO_1_configurable_values_are_validated():
    import pytest
    from engine.core.errors import RuleViolation
    with pytest.raises(RuleViolation) as exc:
        new_game(P3, starting_coins=-1)
    assert exc.value.rule == "U-ECO-1"


def test_U_ECO_2_every_coin_is_accounted_for():
    g = framed(P3, {"Ann": 3})
    g.act(A.CreateComponent(player="Ann", role="Smuggler", introduce=True))
    smuggler = g.new_component()
    g.end_turn("Ann")
    g.event("Ben", "A guard bursts in.")
    g.act(A.ReduceImportance(player="Ben", component=smuggler, coins=1))  # a Complication
    g.act(A.BuyDie(player="Ben", pool="C", count=2))
    g.act(A.BuyDie(player="Ben", pool="Ann", count=1))
    g.call_and_agree("Ben")
    g.roll(C=[1, 2], Ann=[9])
    g.narrate_out()
    g.end_turn("Ben")
    g.end_turn("Cat")
    g.act(A.EndScene(player="Ann"))
    for p in g.s.players:
        lg = p.ledger
        assert lg.start + lg.refreshments + lg.bonus + lg.compensation - lg.paid == p.wealth + p.stake
    total = sum(p.wealth + p.stake for p in g.s.players)
    assert total == 3 * 25 + g.s.bank_out - g.s.bank_in
    assert g.s.player("Ben").ledger.bonus == 3  # 1 + 2: the sum of his Success dice
    assert g.s.player("Ann").ledger.bonus == 1  # one die rolled by the losing Pool


def test_U_ECO_3_action_costing_more_than_the_actor_holds_is_refused_with_cost_and_holdings():
    g = framed(P3, {"Ann": 1}, starting_coins=4)
    # Ann: the stake paid the location, her wealth the Event; 2 coins of wealth left
    assert g.spendable("Ann") == 2
    err = g.refused(A.AddTrait(player="Ann", component="c1", text="Smoky", times=3), "U-ECO-3")
    assert "Ann holds 2 coins; 3 Trait occurrences cost 3" in str(err)
    g.act(A.AddTrait(player="Ann", component="c1", text="Smoky", times=2))
    assert g.wealth("Ann") == 0
    g.refused(A.NarrateEvent(player="Ann", text="More smoke."), "U-ECO-3")


def test_U_ECO_3_fine_larger_than_wealth_takes_what_there_is():
    g = framed(P3, {"Ann": 1}, starting_coins=2)
    g.end_turn("Ann")
    g.do(A.NarrateEvent(player="Ben", text="Ben's joke."))
    g.do(A.Pass(player="Cat"))
    g.do(A.CallFine(player="Ann", accused="Ben", reason="an off-colour joke"))
    assert pending(g.s).kind == "fine_vote"
    for p in P3:
        g.do(A.FineVote(player=p, fine=p != "Ben"))
    # two ups, but Ben holds 1 coin: he pays 1 and never goes below zero
    assert g.wealth("Ben") == 0
    assert g.last("fine").cost == 1
    g.check()


def test_U_ECO_4_stake_is_spent_before_wealth_and_its_rest_goes_to_the_bank():
    g = to_scene(P3, {"Ann": 4})
    assert g.s.player("Ann").stake == 4 and g.wealth("Ann") == 21
    g.act(A.EstablishLocation(player="Ann", new_role="Quay"))
    assert g.s.player("Ann").stake == 3 and g.wealth("Ann") == 21
    g.act(A.AddTrait(player="Ann", component="c1", text="Foggy", times=4))
    assert g.s.player("Ann").stake == 0 and g.wealth("Ann") == 20
    bank_in = g.s.bank_in
    g2 = to_scene(P3, {"Ann": 4})
    g2.act(A.EstablishLocation(player="Ann", new_role="Quay"))
    g2.act(A.EndScene(player="Ann"))
    assert g2.s.player("Ann").stake == 0
    assert g2.wealth("Ann") == 21 + 5  # the 3 left of the stake went to the Bank
    assert g2.last("end_scene").data["stake_lost"] == 3
    assert bank_in == 5


def test_U_ECO_5_coins_pass_between_players_only_when_framing_into_the_future():
    g = to_scene(P3, {"Ann": 1})
    g.act(A.EstablishLocation(player="Ann", new_role="Quay"))
    g.act(A.SetTime(player="Ann", when="future", text="Ten years later."))
    assert g.wealth("Ben") == 26 and g.wealth("Cat") == 26
    assert g.s.player("Ben").ledger.compensation == 1
    assert g.wealth("Ann") == 24 - 2  # the stake of 1 paid the location, then 1 to each other player
    assert g.s.player("Ann").ledger.paid == 1 + 2
    # the bank saw only the location coin and nothing of the 2 paid to players
    assert g.s.bank_in == 1
    # no action moves coins from one player to another otherwise (no loans, U-ECO-5)
    assert not any("loan" in t or "give" in t or "transfer" in t for t in A.ACTION_TYPES)
    g.check()


# --- U-PREP --------------------------------------------------------------------------------
def test_U_PREP_1_tenets_go_clockwise_from_starting_player_until_a_full_round_of_passes():
    g = game(P3, starting_player=1)
    assert pending(g.s).players == ("Ben",)
    g.refused(A.PassPrep(player="Ann"), "U-PREP-1")
    g.act(A.ProposeTenet(player="Ben", text="Pulp adventure in the 1930s."))
    assert pending(g.s).players == ("Cat",)
    g.do(A.PassPrep(player="Cat"))
    g.do(A.PassPrep(player="Ann"))
    g.act(A.ProposeTenet(player="Ben", text="No time travel.", kind="social"))  # resets the round
    g.do(A.PassPrep(player="Cat"))
    g.do(A.PassPrep(player="Ann"))
    assert g.s.phase == "prep"
    g.do(A.PassPrep(player="Ben"))
    assert g.s.phase == "bidding"
    assert g.wealth("Ben") == 23
    assert [t.text for t in g.s.tenets] == ["Pulp adventure in the 1930s.", "No time travel."]


def test_U_PREP_2_one_tenet_action_per_turn_during_a_scene_and_world_facts_are_tenets():
    g = framed(P3, {"Ann": 1})
    g.act(A.ProposeTenet(player="Ann", text="Slytheran have Prussian names.", kind="world"))
    g.refused(A.ProposeTenet(player="Ann", text="Another one."), "U-PREP-2")
    tid = g.s.tenets[0].id
    g.refused(A.ProposeTenet(player="Ann", text="Slytheran have French names.", replaces=tid), "U-PREP-2")
    g.end_turn("Ann")
    g.end_turn("Ben")
    g.end_turn("Cat")
    # a new turn: one Tenet action again, here a modification
    g.act(A.ProposeTenet(player="Ann", text="Slytheran have French names.", replaces=tid, kind="world"))
    assert [t.removed for t in g.s.tenets] == [True, False]
    assert g.s.tenets[0].kind == "world"


def test_U_PREP_3_tenet_costs_one_and_prep_story_element_buys_one_role_or_one_trait():
    g = game(P3)
    g.act(A.CreateComponent(player="Ann", role="Airship"))
    ship = g.new_component()
    g.act(A.AddTrait(player="Ben", component=ship, text="Leaky"))
    g.refused(A.AddTrait(player="Cat", component=ship, text="Fast", times=2), "U-PREP-3")
    g.refused(A.CreateComponent(player="Cat", role="Pilot", proper_name="Amelia"), "U-PREP-3")
    g.act(A.ProposeTenet(player="Cat", text="Airships rule the skies.", replaces=None))
    tid = g.s.tenets[0].id
    g.act(A.ProposeTenet(player="Ann", text="Airships and zeppelins rule the skies.", replaces=tid))
    assert [g.wealth(n) for n in P3] == [23, 24, 24]
    assert len(g.s.components[ship].traits) == 2


# --- U-BID ---------------------------------------------------------------------------------
def test_U_BID_1_secret_bids_zero_to_wealth_revealed_when_all_are_in():
    g = game(P3, starting_coins=5)
    all_pass_prep(g)
    assert pending(g.s).kind == "bid" and pending(g.s).secret
    g.refused(A.Bid(player="Ann", amount=6), "U-ECO-3")
    g.do(A.Bid(player="Ann", amount=5))
    g.refused(A.Bid(player="Ann", amount=1), "U-BID-1")
    assert g.s.phase == "bidding" and pending(g.s).players == ("Ben", "Cat")
    assert legal_options(g.s, "Ann") == []
    g.do(A.Bid(player="Ben", amount=0))
    g.do(A.Bid(player="Cat", amount=2))
    assert g.last("bids_revealed").data["bids"] == {"Ann": 5, "Ben": 0, "Cat": 2}
    assert g.s.phase == "scene" and g.turn == "Ann"
    g.refused(A.Bid(player="Ben", amount=1), "U-BID-1")


def test_U_BID_2_tie_goes_closest_left_of_last_framer_and_starting_player_first():
    g = to_scene(["A", "B", "Cy", "D"], {"B": 3, "D": 3}, starting_player=2)
    # first scene: the reference is the seat before the starting player (B), so C, D, A, B
    assert g.turn == "D"
    g.act(A.EstablishLocation(player="D", new_role="Cellar"))
    g.act(A.EndScene(player="D"))
    g.bids({"A": 2, "Cy": 2})  # last framer D: A is closest to his left
    assert g.turn == "A"
    g2 = to_scene(["A", "B", "Cy", "D"], {"A": 1, "Cy": 1}, starting_player=2)
    assert g2.turn == "Cy"  # the starting player wins the tie


def test_U_BID_3_losing_bids_return_and_winning_bid_is_the_stake():
    g = to_scene(P3, {"Ann": 2, "Ben": 7, "Cat": 6})
    assert g.turn == "Ben"
    assert (g.wealth("Ann"), g.wealth("Cat")) == (25, 25)
    assert g.s.player("Ben").stake == 7 and g.wealth("Ben") == 18


def test_U_BID_4_nobody_bids_first_clockwise_from_last_framer_with_coins_pays_one():
    g = to_scene(P3, {"Ben": 1})
    g.act(A.EstablishLocation(player="Ben", new_role="Dock"))
    g.act(A.EndScene(player="Ben"))
    g.bids({})
    assert g.turn == "Cat" and g.s.player("Cat").stake == 1 and g.wealth("Cat") == 29


def test_U_BID_4_skips_a_player_without_coins_and_empty_stake_when_nobody_has_any():
    g = to_scene(P3, {"Ann": 1}, starting_coins=1, refreshment=0)
    g.act(A.EstablishLocation(player="Ann", new_role="Dock"))
    g.act(A.EndScene(player="Ann"))
    # Ann has 0 coins now; next scene: nobody bids, Ben (left of Ann) has a coin
    g.bids({})
    assert g.turn == "Ben" and g.s.player("Ben").stake == 1
    g.act(A.EstablishLocation(player="Ben", location="c1"))
    g.act(A.EndScene(player="Ben"))
    g.bids({})
    assert g.turn == "Cat"
    g.act(A.EstablishLocation(player="Cat", location="c1"))
    g.act(A.EndScene(player="Cat"))
    assert all(g.spendable(n) == 0 for n in P3)
    g.bids({})
    assert g.turn == "Ann" and g.s.player("Ann").stake == 0
    assert "empty stake" in g.last("bids_revealed").text
    g.check()


# --- U-FINE --------------------------------------------------------------------------------
def test_U_FINE_1_more_ups_accused_pays_ups_more_downs_accuser_pays_downs_tie_nobody():
    def fine(votes: dict[str, bool]):
        g = framed(BOOK, {"Dave": 1})
        g.do(A.NarrateEvent(player="Dave", text="What is the airspeed of an unladen swallow?"))
        g.before = {p: g.wealth(p) for p in BOOK}
        g.react({"Ed": A.CallFine(player="Ed", accused="Dave", reason="Monty Python violation")})
        assert pending(g.s).kind == "fine_vote" and pending(g.s).secret
        for p in BOOK:
            if p in votes:
                g.do(A.FineVote(player=p, fine=votes[p]))
        return g

    g = fine({"Albert": True, "Bob": True, "Christine": True, "Dave": False, "Ed": True})
    assert g.before["Dave"] - g.wealth("Dave") == 4 and g.wealth("Ed") == g.before["Ed"]
    g = fine({"Albert": False, "Bob": False, "Christine": False, "Dave": False, "Ed": True})
    assert g.before["Ed"] - g.wealth("Ed") == 4 and g.wealth("Dave") == g.before["Dave"]
    assert "accuser" in g.last("fine").text
    g = fine({"Albert": False, "Bob": True, "Christine": False, "Dave": False, "Ed": True, })
    assert g.before["Ed"] - g.wealth("Ed") == 3  # 3 downs against 2 ups
    # a tie is impossible with 5 voters; with 4 players 2 v 2 nobody pays
    g4 = framed(["A", "B", "Cy", "D"], {"A": 1})
    g4.do(A.NarrateEvent(player="A", text="Rude."))
    g4.react({"B": A.CallFine(player="B", accused="A", reason="rude")})
    for p, v in zip(["A", "B", "Cy", "D"], [False, True, True, False]):
        g4.do(A.FineVote(player=p, fine=v))
    assert [g4.spendable(p) for p in ["A", "B", "Cy", "D"]] == [22, 25, 25, 25]  # bid 1, location, two Events
    assert "nobody pays" in g4.last("fine").text


def test_U_FINE_1_called_on_ones_turn_free_and_votes_only_once():
    g = framed(P3, {"Ann": 1})
    g.refused(A.CallFine(player="Ann", accused="Ann", reason="self"), "U-FINE-1")
    before = g.wealth("Ann")
    g.do(A.CallFine(player="Ann", accused="Cat", reason="phone at the table"))
    assert g.wealth("Ann") == before
    g.do(A.FineVote(player="Ann", fine=True))
    g.refused(A.FineVote(player="Ann", fine=True), "U-FINE-1")
    g.refused(A.NarrateEvent(player="Ann", text="Meanwhile."), "U-FINE-1")
    g.do(A.FineVote(player="Ben", fine=True))
    g.do(A.FineVote(player="Cat", fine=False))
    assert g.wealth("Cat") == 23 and g.wealth("Ann") == before
    g.check()


def test_U_ECO_2_ledger_accounted_helper_matches_wealth_at_start():
    s = new_game(P3)
    assert all(accounted(p) == p.wealth for p in s.players)

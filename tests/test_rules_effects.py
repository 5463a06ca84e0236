"""The change each rule makes, seen with `Game.effect` (the evidence tests/test_rules_coverage.py needs).

Each test names its rule ID and the book's line ("line N": ../shared/seeds/000_980e818fe18fd30d.txt);
the check given to `Game.effect` holds after the action and did not before it, with exact coins.
"""
from __future__ import annotations

from engine.universalis import actions as A

from engine_helpers import P3, framed, game, rival_called, to_scene

P4 = ["Albert", "Bob", "Christine", "Dave"]


def held(s, name: str) -> int:
    p = s.player(name)
    return p.wealth + p.stake


def test_U_ECO_1_every_player_gets_refreshment_when_a_scene_ends_line_379():
    g = framed(P3, {"Ann": 1}, refreshment=5)
    before = {p: g.spendable(p) for p in P3}
    g.effect("U-ECO-1", A.EndScene(player="Ann"),
             lambda b, a: all(held(a, p) == before[p] + 5 for p in P3) and a.phase == "bidding")


def test_U_BID_2_U_BID_3_a_tie_goes_to_the_player_closest_to_the_left_of_the_last_framer_lines_349_353():
    """Christine framed last; Bob and Dave bid 4: Dave, sitting immediately clockwise, wins; Bob's
    bid goes back to him and Dave's stays on the table as the stake."""
    g = to_scene(P4, {"Christine": 2})
    g.act(A.EstablishLocation(player="Christine", new_role="Forest"))
    g.act(A.EndScene(player="Christine"))
    bob, dave = g.wealth("Bob"), g.wealth("Dave")
    g.do(A.Bid(player="Albert", amount=0))
    g.do(A.Bid(player="Bob", amount=4))
    g.do(A.Bid(player="Christine", amount=0))
    g.effect("U-BID-2", A.Bid(player="Dave", amount=4), lambda b, a: a.last_framer == "Dave", react=False)
    assert g.wealth("Bob") == bob  # U-BID-3: the losing bid returns
    assert (g.wealth("Dave"), g.s.player("Dave").stake) == (dave - 4, 4)


def test_U_BID_3_the_winning_bid_becomes_the_stake():
    g = game(P3)
    while g.s.phase == "prep":
        g.do(A.PassPrep(player=g.pend.players[0]))
    g.do(A.Bid(player="Ann", amount=2))
    g.do(A.Bid(player="Ben", amount=5))
    g.effect("U-BID-3", A.Bid(player="Cat", amount=1),
             lambda b, a: a.player("Ben").stake == 5 and a.player("Ann").wealth == 25 and a.player("Cat").wealth == 25,
             react=False)


def test_U_BID_4_nobody_bids_the_first_player_clockwise_must_bid_one_line_347():
    g = to_scene(P3, {"Ben": 3})
    g.act(A.EstablishLocation(player="Ben", new_role="Dock"))
    g.act(A.EndScene(player="Ben"))
    g.do(A.Bid(player="Ann", amount=0))
    g.do(A.Bid(player="Ben", amount=0))
    g.effect("U-BID-4", A.Bid(player="Cat", amount=0),
             lambda b, a: a.last_framer == "Cat" and a.player("Cat").stake == 1, react=False)


def test_U_CHAL_3_coins_bid_on_a_challenge_go_to_the_bank_line_556():
    g = framed(P3, {"Ann": 1})
    g.do(A.NarrateEvent(player="Ann", text="The bridge falls."))
    g.react({"Ben": A.ChallengeStatement(player="Ben", reason="too soon")})
    g.do(A.ContestChallenge(player="Ann"))
    g.effect("U-CHAL-3", A.ChallengeBid(player="Ben", option=1, coins=2),
             lambda b, a: a.bank_in == b.bank_in + 2 and held(a, "Ben") == held(b, "Ben") - 2, react=False)


def test_U_COMP_1b_a_take_over_of_a_component_in_a_declared_event_makes_it_a_complication_line_469():
    g = framed(P3, {"Ann": 1})
    hero = g.create("Ann", "Hero")
    g.do(A.NarrateEvent(player="Ann", text="The hero walks home.", performer=hero))
    g.do(A.TakeOver(player="Ben", component=hero))
    g.effect("U-COMP-1b", A.Pass(player="Cat"),
             lambda b, a: a.complication is not None and a.complication.originator == "Ann"
             and [p.key for p in a.complication.pools] == ["C", "Ben"], react=False)


def test_U_COMP_5_buying_dice_costs_one_coin_each_line_1086():
    g = framed(P3, {"Ann": 1})
    hero = g.create("Ann", "Hero")
    g.end_turn("Ann")
    g.event("Ben", "A rival challenges the hero.", receiver=hero)
    g.effect("U-COMP-5", A.BuyDie(player="Ben", pool="C", count=3, text="the rival is strong"),
             lambda b, a: a.complication.pool("C").dice == 3 and held(a, "Ben") == held(b, "Ben") - 3)


def test_U_COMP_8_a_tie_on_successes_gives_the_higher_sum_an_edge_die_line_1351():
    g, _hero = rival_called(2, 2)
    # 2 Successes each; sums 1+2 = 3 against 3+4 = 7: Ann's Pool gets the Edge die
    g.effect("U-COMP-8", A.Roll(faces={"C": [1, 2], "Ann": [3, 4]}),
             lambda b, a: a.complication.pool("Ann").edge == 1 and a.complication.pool("C").edge == 0, react=False)
    assert g.pend.kind == "roll" and g.pend.dice == {"C": 2, "Ann": 3}


def test_U_COMP_9_bonus_coins_winner_sums_successes_loser_one_per_die_line_1124():
    g, _hero = rival_called(2, 1)
    g.effect("U-COMP-9", A.Roll(faces={"C": [1, 2], "Ann": [9]}),
             lambda b, a: a.narration is not None
             and {sl.pool: sl.coins for sl in a.narration.slots} == {"C": 3, "Ann": 1}, react=False)


def test_U_CTRL_1_introducing_gives_control_and_it_ends_with_the_scene_line_447():
    g = framed(P3, {"Ann": 1})
    g.effect("U-CTRL-1", A.CreateComponent(player="Ann", role="Guard", introduce=True),
             lambda b, a: a.scene().control.get(f"c{a.counters['c']}") == "Ann"
             and f"c{a.counters['c']}" not in b.components)
    guard = g.new_component()
    g.effect("U-CTRL-1", A.EndScene(player="Ann"), lambda b, a: a.scenes[0].control == {} and guard in b.scenes[0].control)


def test_U_CTRL_2_changing_a_component_another_player_controls_originates_a_complication_line_513():
    g = framed(P3, {"Ann": 1})
    hero = g.create("Ann", "Hero")
    g.end_turn("Ann")
    g.effect("U-CTRL-2", A.AddTrait(player="Ben", component=hero, text="Wounded"),
             lambda b, a: a.complication is not None and a.complication.targets == [hero]
             and "Wounded" not in [t.text for t in a.components[hero].traits], react=False)


def test_U_ECO_5_framing_into_the_future_passes_a_coin_to_each_other_player():
    g = to_scene(P3, {"Ann": 1})
    g.act(A.EstablishLocation(player="Ann", new_role="Port"))
    g.effect("U-ECO-5", A.SetTime(player="Ann", when="future"),
             lambda b, a: [p.ledger.compensation for p in a.players] == [0, 1, 1]
             and a.player("Ann").ledger.paid_players == 2 and a.bank_in == b.bank_in, react=False)


def test_U_FACT_1_a_paid_event_is_a_fact_free_speech_is_not_line_574():
    g = framed(P3, {"Ann": 1})
    hero = g.create("Ann", "Hero")
    g.effect("U-FACT-1", A.NarrateEvent(player="Ann", text="The hero draws a sword.", performer=hero),
             lambda b, a: len(a.facts) == len(b.facts) + 1 and a.facts[-1].kind == "event")
    g.do(A.Speak(player="Ann", component=hero, line="Have at you!"))
    assert g.s.facts[-1].text == "The hero draws a sword."


def test_U_TRAIT_1_a_named_characters_name_is_drawn_on_for_a_die_line_712():
    g = framed(P3, {"Ann": 1})
    hero = g.create("Ann", "Hero", proper_name="Turk Reigns")
    g.end_turn("Ann")
    g.event("Ben", "A rival challenges Turk.", receiver=hero)
    g.end_turn("Ben")
    g.end_turn("Cat")
    name = [t.id for t in g.s.components[hero].traits if t.kind == "name"][0]
    g.effect("U-TRAIT-1", A.DrawTrait(player="Ann", trait=name, component=hero, pool="Ann"),
             lambda b, a: a.complication.pool("Ann").dice == 1 and f"{name}@{hero}" in a.complication.drawn)
    g.refused(A.DrawTrait(player="Ann", trait=name, component=hero, pool="Ann"), "U-COMP-3", "already drawn")


def test_U_TURN_2_an_interrupt_costs_one_coin_and_takes_the_turn_line_397():
    g = framed(P3, {"Ann": 1})
    g.do(A.NarrateEvent(player="Ann", text="Ann goes on and on."))
    g.do(A.Interrupt(player="Ben"))
    g.effect("U-TURN-2", A.Pass(player="Cat"),
             lambda b, a: a.turn.player == "Ben" and held(a, "Ben") == held(b, "Ben") - 1, react=False)


def test_U_ACT_4_creating_a_component_buys_its_role_line_1341():
    g = framed(P3, {"Ann": 1})
    g.effect("U-ACT-4", A.CreateComponent(player="Ann", role="Scout"),
             lambda b, a: len(a.components) == len(b.components) + 1 and held(a, "Ann") == held(b, "Ann") - 1)


def test_U_ACT_7_a_tenet_proposed_on_a_turn_costs_one_coin_line_489():
    g = framed(P3, {"Ann": 1})
    g.effect("U-ACT-7", A.ProposeTenet(player="Ann", text="Slytheran have Prussian names.", kind="world"),
             lambda b, a: len(a.tenets) == len(b.tenets) + 1 and held(a, "Ann") == held(b, "Ann") - 1)
    g.refused(A.ProposeTenet(player="Ann", text="Another."), "U-PREP-2")

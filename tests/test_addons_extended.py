"""Extended Complications played through the engine (UA-EXT-1..4; book L2412-2422; digest §2.3):
the offer before the roll, the price, the division into sub-pools, the stages rolled and narrated
one pair at a time with exact coins, the refusals, the heuristic's choice and the model's view."""
from __future__ import annotations

import random

from engine.universalis import actions as A

from engine_helpers import observed
from test_addons_engine import P4, assert_replays, knight_and_monk, knight_and_monk_open, roll_out

EXT = {"allow_extended": True}


def seen(*rules: str) -> None:
    for rule in rules:
        observed(rule, "effect")


def test_UA_EXT_1_UA_EXT_2_UA_EXT_3_UA_EXT_4_seven_against_ten_in_three_stages_L2416_L2420():
    """The derived test of §2.3 through `apply`: D's Complication (7 dice) against A's Knight (6) and
    B's Monk (4), 10 dice on the Targets' side. Everyone agrees to roll; D, asked first as the
    Originator, pays 1 Coin (reading: the book names no price, L2418 "The person who pays") for 3
    stages. L2418 "divided as evenly as possible": 7 -> 2, 2, 3 and 10 -> 3, 3, 4, the Targets'
    side divided as one pool (A's 6 dice fill the first two sub-pools, B's 4 the third). L2420
    "The smallest sub-pools on either side are rolled first": 2v3, 2v3, 3v4.
    Stage 1: C [1,9] 1 Success, A [1,2,9] 2: the Targets win; A earns 1+2 = 3, D 1 per die = 2.
    Stage 2: C [1,2] 2, A [9,9,9] 0: D earns 1+2 = 3, A 3.
    Stage 3: C [1,9,9] against B [2,9,9,9]: 1 Success each, sums 1 < 2, B's sub-pool takes the Edge
    die (L2420 "Edge dice are accumulated in the sub-pool that rolled them") and only this pair
    rolls again: C [9,9,9] 0, B [9,9,9,9,3] 1: B earns its Success 3 plus nothing for the Edge 3 (a
    Success), 3; D 3. Each stage is narrated before the next (UA-EXT-4). D: -1 + 2 + 3 + 3 = +7,
    A +6, B +3, Cy 0."""
    g = knight_and_monk(EXT, {"C": 7, "A": 6, "B": 4})
    assert g.pend.kind == "extend" and g.pend.players == ("D",) and "7 dice against 10" in g.pend.note
    before = {p: g.wealth(p) for p in P4}
    g.act(A.ExtendComplication(player="D", stages=3, text="a duel of many blows"))
    ext = g.s.complication.extension
    assert ext.by == "D" and ext.whole == {"C": 7, "A": 6, "B": 4}
    assert ext.stages == [{"C": 2, "A": 3}, {"C": 2, "A": 3}, {"C": 3, "B": 4}]
    assert "sub-pools of 2, 2, 3, the Targets' of 3, 3, 4" in g.last("extend_complication").text
    assert g.wealth("D") == before["D"] - 1
    assert g.pend.kind == "roll" and dict(g.pend.dice) == {"C": 2, "A": 3}
    g.roll(C=[1, 9], A=[1, 2, 9])
    res = g.last("complication_result")
    assert res.text.startswith("Stage 1 of 3: the Targets win")
    assert (res.data["winner"], res.data["bonus"]) == ("T", {"C": 2, "A": 3})
    # UA-EXT-4: the stage is narrated before the next roll; its bonus buys narration, not later dice
    assert g.pend.kind == "narration"
    g.refused(A.BuyDie(player=g.pend.players[0], pool="A", count=1), "U-COMP-11")
    g.narrate_out()
    assert g.s.complication is not None and dict(g.pend.dice) == {"C": 2, "A": 3}
    assert "Stage 2 of 3" in g.last("next_stage").text
    g.roll(C=[1, 2], A=[9, 9, 9])
    assert g.last("complication_result").data["bonus"] == {"C": 3, "A": 3}
    g.narrate_out()
    assert dict(g.pend.dice) == {"C": 3, "B": 4}
    g.roll(C=[1, 9, 9], B=[2, 9, 9, 9])
    assert "Edge die for B's Pool" in g.last("edge").text and dict(g.pend.dice) == {"C": 3, "B": 5}
    g.roll(C=[9, 9, 9], B=[9, 9, 9, 9, 3])
    res = g.last("complication_result")
    assert (res.data["winner"], res.data["bonus"]) == ("T", {"C": 3, "B": 3})
    g.narrate_out()
    assert g.s.complication is None and g.last("complication_end")
    assert {p: g.wealth(p) - before[p] for p in P4} == {"A": 6, "B": 3, "Cy": 0, "D": 7}
    g.check()
    seen("UA-EXT-1", "UA-EXT-2", "UA-EXT-3", "UA-EXT-4")


def test_UA_EXT_4_an_edge_die_stays_in_the_stage_that_earned_it_L2420():
    """UA-EXT-4 (L2420): a tie in stage 1 gives an Edge die to the sub-pool that rolled it; once that
    stage is over, stage 2 rolls its own dice with no Edge die. 4 dice against 4 in 2 stages: 2v2."""
    g = knight_and_monk(EXT, {"C": 4, "A": 4})
    g.act(A.ExtendComplication(player="D", stages=2))
    assert dict(g.pend.dice) == {"C": 2, "A": 2}
    g.roll(C=[1, 9], A=[2, 9])  # 1 Success each; C's sum 1 < A's 2: A's Edge die
    assert dict(g.pend.dice) == {"C": 2, "A": 3}
    g.roll(C=[9, 9], A=[9, 9, 4])
    assert g.last("complication_result").data["bonus"] == {"C": 2, "A": 4}
    g.narrate_out()
    assert dict(g.pend.dice) == {"C": 2, "A": 2} and all(p.edge == 0 for p in g.s.complication.pools)
    g.check()
    seen("UA-EXT-4")


def test_UA_EXT_1_everyone_may_decline_and_the_complication_rolls_whole():
    """UA-EXT-1 (L2416 "a player can make the complication extended"): the offer goes round from the
    Originator (engine choice); a player who cannot pay is not asked; when all decline, the Pools roll
    whole, as under the core rules, and nobody has paid."""
    g = knight_and_monk({**EXT, "extend_cost": 2}, {"C": 3, "A": 4})
    before = {p: g.wealth(p) for p in P4}
    asked = []
    while g.pend.kind == "extend":
        asked.append(g.pend.players[0])
        g.act(A.DeclineExtend(player=g.pend.players[0]))
    assert asked == ["D", "A", "B", "Cy"]
    assert g.pend.kind == "roll" and dict(g.pend.dice) == {"C": 3, "A": 4, "B": 0}
    g.roll(C=[1, 2, 3], A=[1, 9, 9, 9], B=[])
    assert g.last("complication_result").text.startswith("The Complication wins")
    g.narrate_out()
    assert g.s.complication is None
    assert {p: g.wealth(p) - before[p] for p in P4} == {"A": 4, "B": 0, "Cy": 0, "D": 6}
    g.check()


def test_UA_EXT_1_UA_EXT_2_refusals_name_the_add_on_in_a_players_words():
    """Refusals: N larger than the smaller side (UA-EXT-2, L2418), not enough coins, rolling while a
    player may still extend, extending twice, after the roll, before the call for the roll, at a
    table without the add-on, and with another multi-target method on two Target Pools (UA-EXT-1)."""
    g = knight_and_monk(EXT, {"C": 3, "A": 5})
    g.refused(A.ExtendComplication(player="D", stages=4), "UA-EXT-2", "the Complication's side has only 3 dice")
    g.refused(A.Roll(faces={"C": [1, 2, 3], "A": [1, 2, 3, 4, 5], "B": []}), "UA-EXT-1", "may still extend")
    dear = knight_and_monk({**EXT, "extend_cost": 30}, {"C": 3, "A": 3})
    dear.refused(A.ExtendComplication(player="Cy", stages=2), "UA-EXT-1", "extending costs 30 coins and Cy holds 25 coins")
    assert dear.pend.kind == "roll"  # nobody can pay: nobody is asked
    g.act(A.ExtendComplication(player="A", stages=2))
    g.refused(A.ExtendComplication(player="B", stages=2), "UA-EXT-1", "A has already extended it into 2 stages")
    g.refused(A.DeclineExtend(player="B"), "UA-EXT-1", "already extended")
    assert dict(g.pend.dice) == {"C": 1, "A": 2}  # 3 -> 1, 2 and 5 -> 2, 3
    g.roll(C=[1], A=[9, 9])
    g.refused(A.ExtendComplication(player="B", stages=2), "UA-EXT-1", "the dice have been rolled")
    # before everyone has agreed to roll: the Pools are still being built
    early = knight_and_monk_open(EXT)
    early.refused(A.ExtendComplication(player="D", stages=2), "UA-EXT-1", "still being built")
    core = knight_and_monk({}, {"C": 3, "A": 3})
    core.refused(A.ExtendComplication(player="D", stages=2), "UA-EXT-1", "does not play Extended Complications")
    assert core.pend.kind == "roll"
    indep = knight_and_monk({**EXT, "multi_target_mode": "independent"}, {"C": 3, "A": 3, "B": 2})
    indep.refused(A.ExtendComplication(player="D", stages=2), "UA-EXT-1", "only a Standard roll can be extended")
    assert indep.pend.kind == "roll"  # no offer: nothing to extend
    seen("UA-EXT-1", "UA-EXT-2")


def test_UA_EXT_2_each_pool_divided_on_its_own_with_the_table_option():
    """UA-EXT-2, the digest's alternative (extended_divide="pool"): each Pool is divided on its own,
    so the Targets' A 5 and B 3 in 3 stages give A 1, 2, 2 and B 1, 1, 1: sub-pools 2, 3, 3; C's 4
    gives 1, 1, 2. A stage is refused when a side would have no die in it (C's 2 in 3 stages)."""
    g = knight_and_monk({**EXT, "extended_divide": "pool"}, {"C": 4, "A": 5, "B": 3})
    g.act(A.ExtendComplication(player="D", stages=3))
    assert g.s.complication.extension.stages == [{"C": 1, "A": 1, "B": 1}, {"C": 1, "A": 2, "B": 1},
                                                 {"C": 2, "A": 2, "B": 1}]
    assert dict(g.pend.dice) == {"C": 1, "A": 1, "B": 1}
    g.check()
    h = knight_and_monk({**EXT, "extended_divide": "pool"}, {"C": 2, "A": 5, "B": 3})
    h.refused(A.ExtendComplication(player="D", stages=3), "UA-EXT-2", "at most 2 stages")


def test_UA_EXT_1_a_challenge_won_against_the_extension_puts_it_back_whole():
    """UA-EXT-1: extending is a statement like any other (@16365); conceded to a Challenge, the
    Complication is as it was before, unextended and unpaid, and the offer goes on."""
    g = knight_and_monk(EXT, {"C": 3, "A": 5})
    before = g.wealth("D")
    g.do(A.ExtendComplication(player="D", stages=2))
    assert g.pend.kind == "reaction"
    g.react({"A": A.ChallengeStatement(player="A", reason="this fight is one blow", withdraw=True)})
    g.do(A.ConcedeChallenge(player="D"))
    g.passes()
    assert g.s.complication.extension is None and g.wealth("D") == before
    assert [p.dice for p in g.s.complication.pools] == [3, 5, 0]
    assert g.pend.kind == "extend"
    g.check()


def test_UA_EXT_1_the_heuristic_extends_when_its_side_is_behind():
    """Digest section 3 applied (project design): the heuristic extends into 3 stages when its own
    side is 2 dice behind or more (7 against 10: the Complication's side, D), and lets a side that is
    ahead (A's Targets), a player with no Pool (Cy) or a nearly even fight (4 against 5) roll whole. The model's prompt names the move and
    the stages."""
    from agents.base import Observation
    from agents.heuristic import HeuristicPlayer
    from agents.llm.state_text import addon_lines, describe_state
    from engine.universalis.decisions import legal_options, pending
    g = knight_and_monk(EXT, {"C": 7, "A": 6, "B": 4})

    def obs(s):
        return Observation(player=pending(s).players[0], state=s, pending=pending(s), options=legal_options(s, pending(s).players[0]),
                           check=lambda a: None)
    d = HeuristicPlayer("D", seed=1).decide(obs(g.s))
    assert isinstance(d.action, A.ExtendComplication) and d.action.stages == 3
    for who in ("A", "Cy"):
        assert isinstance(HeuristicPlayer(who, seed=1).decide(obs(g.s)).action, A.DeclineExtend)
    even = knight_and_monk(EXT, {"C": 4, "A": 5})  # one die apart: a fair fight keeps its single roll
    assert isinstance(HeuristicPlayer("D", seed=1).decide(obs(even.s)).action, A.DeclineExtend)
    opts = [o.type for o in legal_options(g.s, "D")]
    assert opts == ["extend_complication", "decline_extend"]
    assert "extend_complication (stages=N)" in "\n".join(addon_lines(g.s))
    g.act(d.action)
    assert "Extended by D into 3 stages: stage 1 (2 (C 2) against 3 (A 3)) rolls now" in describe_state(g.s, "A")


def test_UA_EXT_2_UA_EXT_4_random_extended_complications_conserve_coins_and_replay():
    """UA-EXT-2/UA-EXT-4 under random dice: random Pool sizes, a random stage count, random faces
    until the Complication is over; every stage rolls its own sub-pools (one result per stage), coins
    are accounted for after every action, and the actions replay to the same state."""
    for seed in range(12):
        rng = random.Random(seed)
        dice = {"C": rng.randint(2, 6), "A": rng.randint(2, 5), "B": rng.randint(1, 4)}
        addons = {**EXT, "extended_divide": "pool"} if seed % 4 == 3 else EXT
        g = knight_and_monk(addons, dice)
        from engine.universalis.addon_extended import most_stages
        n = rng.randint(2, most_stages(g.s, g.s.complication))
        g.act(A.ExtendComplication(player=rng.choice(P4), stages=n))
        roll_out(g, rng)
        assert len([e for e in g.events if e.kind == "complication_result"]) == n
        assert_replays(g, addons)


def test_UA_EXT_4_UA_CDICE_2_a_hands_chosen_cards_go_to_the_earliest_stages_L2420_L2430():
    """UA-EXT-4 (L2420) with Cards instead of Dice (L2430: a bought die is a card chosen from the hand, played
    face down): Ben plays 5 5 5 into C and a 4 into Ann's Pool, and Ann's Pool draws a Trait Deck card: 3 dice
    against 2. Ben pays 1 to extend into 2 stages: C 1 + 2, Ann 1 + 1. The chosen cards go to the earliest
    stages (engine reading): stage 1 shows C's 5 against Ann's 4, the other two 5s waiting ("@1:C"). A tie
    (1 each, sums 5 > 4): C's Edge card, and every Pool of the stage is dealt again from the Trait Deck:
    C 1 9 against Ann 9: C wins 1 + the failed Edge 9 = 10, Ann 1; kept, dealt. Stage 2: C's two waiting 5s
    must show (a roll without them is refused); C 5 5 against Ann 2: C wins 10, Ann 1. Ben -1 + 10 + 10 =
    +19, Ann +2; every hand holds its coins after every action; no card is left in a Pool."""
    import pytest
    from engine.core.errors import RuleViolation
    from engine.universalis import new_game, pending
    from engine.universalis.addon_cards_hand import deal_faces, owed
    from test_addons_cards_hand import rival_with
    for currency in ("cards_bank", "cards_hand", "cards_stack"):  # no card currency is refused any more
        assert new_game(P4, addons={**EXT, "currency": currency}).config.addons.allow_extended
    g, hero = rival_with({"currency": "cards_hand", **EXT})

    def played() -> dict:
        for p in g.s.players:
            h = g.s.extra.hands[p.name]
            assert len(h.hand) + h.owed == p.wealth + p.stake, (p.name, h)
        return {n: h.played for n, h in g.s.extra.hands.items() if h.played}

    def narrate_and_deal() -> None:
        """Each narrator keeps his bonus coins; the cards they owe are dealt by the card source."""
        while owed(g.s) or g.pend.kind == "narration":
            if owed(g.s):
                g.do(A.Roll(faces=deal_faces(g.s, lambda k: 1)))
            else:
                g.act(A.EndNarration(player=g.pend.players[0]))
    g.act(A.BuyDie(player="Ben", pool="C", count=3))
    g.act(A.BuyDie(player="Ben", pool="Ann", count=1))
    g.act(A.DrawTrait(player="Ben", pool="Ann", component=hero, trait=g.s.components[hero].traits[0].id))
    g.call_and_agree("Ben")
    before = {p: g.wealth(p) for p in ("Ann", "Ben", "Cat")}
    g.act(A.ExtendComplication(player="Ben", stages=2))
    assert g.s.complication.extension.stages == [{"C": 1, "Ann": 1}, {"C": 2, "Ann": 1}]
    assert played() == {"Ben": {"C": [5], "Ann": [4], "@1:C": [5, 5]}} and pending(g.s).dice == {"C": 1, "Ann": 1}
    g.roll(C=[5], Ann=[4])
    assert "Edge die" in g.last("edge").text and played() == {"Ben": {"@1:C": [5, 5]}}
    g.roll(C=[1, 9], Ann=[9])
    assert g.last("complication_result").data["bonus"] == {"C": 10, "Ann": 1}
    narrate_and_deal()
    assert played() == {"Ben": {"C": [5, 5]}} and pending(g.s).dice == {"C": 2, "Ann": 1}
    with pytest.raises(RuleViolation) as e:
        g.do(A.Roll(faces={"C": [5, 4], "Ann": [2]}))
    assert e.value.rule == "UA-CDICE-2"
    g.roll(C=[5, 5], Ann=[2])
    assert g.last("complication_result").data["bonus"] == {"C": 10, "Ann": 1}
    narrate_and_deal()
    assert g.s.complication is None and played() == {}
    assert {p: g.wealth(p) - before[p] for p in before} == {"Ann": 2, "Ben": 19, "Cat": 0}
    g.check()
    seen("UA-EXT-4", "UA-CDICE-2")


def test_UA_EXT_4_UA_CARDS_3_each_stage_discards_its_own_cards_L2420_L2050():
    """UA-EXT-4 (L2420: each sub-pool pair rolls and is narrated in turn) with Cards as Coins (L2050: a
    Pool's cards are discarded once resolved): the derived 7 against 10 in three stages, every die a card D
    bought from his Wealth (17 in the Pools). Once stage 1 (2v3) is rolled 12 of his cards are left face
    down, through its narration; after stage 2 (2v3) 7; stage 3 ties and B's Edge card comes from B's Bank (B 1 card in Pools),
    it rolls again, and once narrated no card is left in any Pool. Every deck holds 40 cards and its Wealth
    cards equal its player's coins after every action; D's coins match the derived test (+7)."""
    g = knight_and_monk({**EXT, "currency": "cards_bank"}, {"C": 7, "A": 6, "B": 4})
    before = {p: g.wealth(p) for p in P4}

    def pools() -> dict[str, int]:
        for p in g.s.players:
            d = g.s.extra.cards[p.name]
            assert d.bank + d.discards + d.pool + d.held == 40 and d.held == p.wealth + p.stake, (p.name, d)
        return {n: d.pool for n, d in g.s.extra.cards.items() if d.pool}
    assert pools() == {"D": 17}
    g.act(A.ExtendComplication(player="D", stages=3))
    assert pools() == {"D": 17}
    g.roll(C=[1, 9], A=[1, 2, 9])
    assert pools() == {"D": 12}  # the stage's cards are discarded once rolled; the other stages' wait
    g.narrate_out()
    assert pools() == {"D": 12}
    g.roll(C=[1, 2], A=[9, 9, 9])
    g.narrate_out()
    assert pools() == {"D": 7}
    g.roll(C=[1, 9, 9], B=[2, 9, 9, 9])
    assert pools() == {"D": 7, "B": 1}
    g.roll(C=[9, 9, 9], B=[9, 9, 9, 9, 3])
    g.narrate_out()
    assert g.s.complication is None and pools() == {}
    assert {p: g.wealth(p) - before[p] for p in P4} == {"A": 6, "B": 3, "Cy": 0, "D": 7}
    g.check()
    seen("UA-EXT-4", "UA-CARDS-3")


def test_UA_EXT_1_UA_OWN_1_declared_pools_are_divided_with_their_side():
    """UA-EXT-1 with Own Pool per Participant (UA-OWN-1, L1040): the offer comes once every Pool has
    taken its side; Cat's Pool declared for the Targets is divided with Ann's (3 + 3 against Ben's 2,
    in 2 stages: 1v3 with Ann's dice, 1v3 with Cat's), each die earning for its own Pool's roller;
    once extended, a Pool cannot change sides."""
    from engine_helpers import P3, framed
    g = framed(P3, {"Ann": 1}, addons={"pool_per_participant": True, **EXT})
    hero = g.create("Ann", "Hero")
    g.end_turn("Ann")
    g.event("Ben", "A rival challenges the hero.", receiver=hero)
    for pool, n in (("C", 2), ("Ann", 3), ("Cat", 3)):
        g.act(A.BuyDie(player="Ben", pool=pool, count=n))
    g.call_and_agree("Ben")
    assert g.pend.kind == "declare_side"
    g.act(A.DeclarePool(player="Cat", side="T"))
    assert g.pend.kind == "extend" and "2 dice against 6" in g.pend.note
    before = {p: g.wealth(p) for p in P3}
    g.act(A.ExtendComplication(player="Ben", stages=2))
    assert g.s.complication.extension.stages == [{"C": 1, "Ann": 3}, {"C": 1, "Cat": 3}]
    g.refused(A.DeclarePool(player="Cat", side="C"), "UA-OWN-1", "already divided into stages")
    g.roll(C=[1], Ann=[9, 9, 9])
    assert g.last("complication_result").data["bonus"] == {"C": 1, "Ann": 3}
    g.narrate_out()
    g.roll(C=[9], Cat=[1, 2, 3])
    assert g.last("complication_result").data["bonus"] == {"C": 1, "Cat": 6}
    g.narrate_out()
    assert g.s.complication is None
    assert {p: g.wealth(p) - before[p] for p in P3} == {"Ann": 3, "Ben": 1 + 1 - 1, "Cat": 6}
    g.check()

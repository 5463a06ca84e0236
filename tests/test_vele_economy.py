"""Death of the Vele: the dice economy, levels, votes and bids as pure arithmetic (engine/vele/economy.py,
engine/vele/struggle.py). Each test names its rule (V-n, V-EX-n, V-AMB-n) and the book's line."""
from __future__ import annotations

import pytest

from engine.core.errors import RuleViolation
from engine.vele import economy as E
from engine.vele import struggle as S


def test_V_8_dice_points():
    """V-8 (L332, L375): d4=1, d6=2, d8=3, d10=4, d12=5; there is no d20."""
    assert [E.points([d]) for d in (4, 6, 8, 10, 12)] == [1, 2, 3, 4, 5]
    with pytest.raises(RuleViolation):
        E.points([20])


def test_V_11_V_EX_1_upgrading_keeps_points():
    """V-11, V-EX-1 (L332, L623): d6 + a won d8 = 5 points: {d10, d4} and {d12} are legal, {d10, d6} is not."""
    E.check_upgrade([6, 8], [10, 4])
    E.check_upgrade([6, 8], [12])
    with pytest.raises(RuleViolation, match="V-11"):
        E.check_upgrade([6, 8], [10, 6])


def test_V_12_downgrade_only_to_smaller_dice():
    """V-12 (L332): a downgrade gives dice all smaller than the originals, points kept."""
    E.check_downgrade([10], [6, 6])
    with pytest.raises(RuleViolation, match="V-12"):
        E.check_downgrade([8, 4], [8, 4])
    with pytest.raises(RuleViolation, match="V-11"):
        E.check_downgrade([10], [6, 4])


@pytest.mark.parametrize("orig,alloc,dice,gain", [(13, 5, [10, 8, 6], 0), (12, 5, [6, 4], 4), (30, 10, [6], 10)])
def test_V_13_V_EX_12_top_up(orig, alloc, dice, gain):
    """V-13, V-EX-12 (L590-592, L679): character dice count against the gap; at most 10 points.
    13 with 5 + 9 held: none (not 8); 12 with 5 + 3: add 4; 30 with 10 + 2: add 10 (the cap)."""
    assert E.points(dice) == {13: 9, 12: 3, 30: 2}[orig]
    assert E.top_up(orig, alloc, dice) == gain


def test_V_50_V_EX_9_V_AMB_22_levels_and_rewards():
    """V-50, V-EX-9, V-AMB-22 (L557, L570, L577-583): 100 XP is level 2 with a new aspect and bought-off
    aspects replaced; 140 XP gives a d6 at once; 200 XP is level 3 with a PC trait slot; level 4 adds an
    aspect and level 5 a trait slot (extrapolated)."""
    assert E.level(99) == 1 and E.level(100) == 2 and E.level(200) == 3
    assert E.levels_gained(90, 100) == [{"level": 2, "replace_bought_off": True, "aspect": True, "trait_slot": False}]
    assert E.xp_dice(100, 140) == [4, 6]
    assert E.xp_dice(139, 140) == [6]
    assert E.levels_gained(190, 200)[0]["trait_slot"] is True
    assert E.pc_trait_slots(1) == 6 and E.pc_trait_slots(3) == 7 and E.pc_trait_slots(5) == 8
    assert E.pc_aspects(1) == 5 and E.pc_aspects(2) == 6 and E.pc_aspects(4) == 7


def test_V_1_V_EX_13_V_AMB_4_tied_challenge_fails_without_a_roll():
    """V-1, V-EX-13, V-AMB-4 (L163): 2 of 4 support a challenge: no majority, the player goes on."""
    assert E.challenge_succeeds(2, 4) is False
    assert E.challenge_succeeds(3, 4) is True


def test_V_2_approval_tie_is_rolled():
    """V-2, V-AMB-4 (L165): an approval with 2 of 4 opposed waits for a d6: 1-3 blocks, 4-6 passes."""
    assert E.approval(2, 4) is None
    assert E.approval(2, 4, tie_roll=3) is False
    assert E.approval(2, 4, tie_roll=4) is True
    assert E.approval(3, 4) is False and E.approval(1, 4) is True


def test_V_57_V_EX_9_V_AMB_15_bids():
    """V-57, V-EX-9, V-AMB-15 (L845, L895): A=5, B=3, C=3: A first, B and C roll off; bids are d6 faces."""
    bids = {"A": 5, "B": 3, "C": 3}
    assert E.bid_order(bids) is None
    assert E.tied_bidders(bids, {}) == ["B", "C"]
    assert E.bid_order(bids, {"B": [2], "C": [5]}) == ["A", "C", "B"]
    assert E.bid_order(bids, {"B": [4], "C": [4]}) is None
    with pytest.raises(RuleViolation, match="V-57"):
        E.bid_order({"A": 0, "B": 1})


def test_V_55_narrator_change_walks_the_initiative_list():
    """V-55 (L513): initiative [A,B,C,D], narrator B, no volunteers: C; D volunteers: D; wraps round."""
    order = ["A", "B", "C", "D"]
    assert E.next_narrator(order, "B") == "C"
    assert E.next_narrator(order, "B", ["D", "A"]) == "D"
    assert E.next_narrator(order, "D") == "A"


# --- struggle arithmetic --------------------------------------------------------------------------
def test_V_27_V_EX_2_offensive_tie_goes_to_the_actor_only_with_power():
    """V-27 step 7, V-EX-2 (L390): 5 v 5: the actor wins only if it alone has power dice."""
    assert S.decide("offensive", S.Side((5,), (2,)), S.Side((5,))).winner == "actor"
    assert S.decide("offensive", S.Side((5,), (2,)), S.Side((5,), (1,))).winner == "opponent"
    assert S.decide("offensive", S.Side((5,)), S.Side((5,))).winner == "opponent"


def test_V_28_V_EX_3_V_AMB_8_head_to_head_tie_returns_every_die():
    """V-28, V-EX-3, V-AMB-8 (L390, L489): 7 v 7 head-to-head has no winner and every die goes home."""
    out = S.decide("head_to_head", S.Side((7,)), S.Side((7, 3)))
    assert out.winner is None
    f = S.dice_flow([S.Stake(8, "own", "A"), S.Stake(6, "bowl", "A")], [S.Stake(10, "own", "B")], [4], None,
                    tie_no_winner=True)
    assert f.to_player == {"A": [8], "B": [10]} and sorted(f.to_bowl) == [4, 6]


def test_V_27_V_EX_4_V_AMB_19_effect_with_power_dice():
    """V-27, V-EX-4, V-AMB-19 (L394, L461): 9 v 4, power 3 v 2: effect 6. A defender with d4, d6, d8,
    d10 may take d10 + d6; d10 alone leaves 2 points; an effect of 4 on a d8 leaves 1, which takes one more."""
    out = S.decide("offensive", S.Side((9,), (3,)), S.Side((4,), (2,)))
    assert out.winner == "actor" and out.effect == 6
    traits = {"a": 4, "b": 6, "c": 8, "d": 10}
    S.check_damage(6, traits, ["d", "b"])
    with pytest.raises(RuleViolation, match="2 remain"):
        S.check_damage(6, traits, ["d"])
    with pytest.raises(RuleViolation, match="1 remain"):
        S.check_damage(4, traits, ["c"])
    S.check_damage(4, traits, ["c", "a"])
    with pytest.raises(RuleViolation, match="more traits"):
        S.check_damage(4, traits, ["d", "a"])


def test_V_24_V_EX_11_power_defense():
    """V-24, V-EX-11 (L390, L655): 9 v 4 with Power Defense rolling 3: effect 2; 3 v 4 fails and there is
    nothing to reduce; on 5 v 5 the defender's power dice stop the actor's power from taking the tie."""
    assert S.decide("offensive", S.Side((9,)), S.Side((4,), (3,))).effect == 2
    assert S.decide("offensive", S.Side((3,)), S.Side((4,), (3,))) == S.Outcome("opponent", 0, 3, 4)
    assert S.decide("offensive", S.Side((5,), (6,)), S.Side((5,), (1,))).winner == "opponent"


def test_V_35_V_EX_5_ally_rounds_and_control():
    """V-35, V-37, V-EX-5 (L463, L471): effect 10, an ally with 2 traits: ally, target, ally, then the
    target takes the rest; a control attack falls on the target alone."""
    assert S.ally_rounds(10, "T", [("ally", 2)]) == ["ally", "T", "ally", "T"]
    assert S.ally_rounds(10, "T", [("ally", 2)], control=True) == ["T"]


def test_V_29_V_47_V_EX_6_maneuver_score():
    """V-29, V-47, V-EX-6 (L356, L405-411): margin 2 fragile; 3 sticky; 6 sticky and 3 spin."""
    assert S.maneuver(2) == {"aspect": "fragile", "spin": 0}
    assert S.maneuver(3) == {"aspect": "sticky", "spin": 0}
    assert S.maneuver(6) == {"aspect": "sticky", "spin": 3}
    assert S.maneuver(0)["aspect"] is None


def test_V_34_V_EX_7_attacked_trait_first():
    """V-34, V-EX-7 (L375, L457): attacking a d10 trait costs -4; with no allies it is disabled first."""
    assert E.POINTS[10] == 4
    assert S.Side((9,), difficulty=4).result == 5
    with pytest.raises(RuleViolation, match="V-34"):
        S.check_damage(4, {"arm": 10, "leg": 10}, ["leg"], first="arm")
    S.check_damage(4, {"arm": 10, "leg": 10}, ["arm"], first="arm")
    assert S.auto_damage(5, {"arm": 10, "leg": 4, "eye": 6}, first="arm") == ["arm", "leg"]


def test_V_27_V_AMB_9_V_AMB_10_bowl_borrower_pays_the_bowl_first():
    """V-27 steps 9-10, V-AMB-9, V-AMB-10 (L330, L489): a bowl-die borrower who wins {d10, d6} pays the bowl
    the d10 and keeps the d6; the loser's bowl die goes to the winner too, so losing it costs the loser nothing."""
    f = S.dice_flow([S.Stake(8, "bowl", "A")], [S.Stake(10, "own", "B"), S.Stake(6, "bowl", "B")], [], "A")
    assert f.to_player == {"A": [6]} and sorted(f.to_bowl) == [8, 10]


def test_V_27_allies_pick_before_the_bowl_and_the_actor():
    """V-27 step 9, V-AMB-9 (L489): the ally picks the choicest winnings first, then the bowl, then the actor."""
    winners = [S.Stake(6, "own", "A"), S.Stake(4, "own", "Ally"), S.Stake(6, "bowl", "A")]
    f = S.dice_flow(winners, [S.Stake(10, "own", "B"), S.Stake(8, "own", "B"), S.Stake(4, "own", "B")], [],
                    "A", allies_first=["Ally"])
    assert f.to_player["Ally"] == [4, 10]  # its own die back and the d10
    assert sorted(f.to_bowl) == [6, 8] and f.to_player["A"] == [6, 4]


def test_V_10_V_EX_17_winning_a_d12():
    """V-10, V-EX-17 (L489, L623): B wagers an upgraded d12 and loses: it goes into A's pool."""
    f = S.dice_flow([S.Stake(8, "own", "A")], [S.Stake(12, "own", "B")], [], "A")
    assert sorted(f.to_player["A"]) == [8, 12] and not f.to_bowl


def test_V_20_assisting_trait_die():
    """V-20 (L641): a d10 assisting a d6 main trait adds a d8; a d4 assisting a d6 adds a d4."""
    assert S.assisting_die(6, 10) == 8
    assert S.assisting_die(6, 4) == 4


def test_V_AMB_7_average_d6_is_one_more_struggle_die():
    """V-AMB-7 (L383, L626): the average d6 is one more die of which the highest counts, never a sum."""
    assert S.Side((3, 5)).result == 5

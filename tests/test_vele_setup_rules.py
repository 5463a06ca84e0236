"""Healing, groups and spotlights, awards, table conventions and special components of engine/vele, each
pinned to its rule and the book's line (L###) with fixed numbers."""
from __future__ import annotations

import pytest

from engine.core.errors import RuleViolation
from engine.vele import adjudication as J
from engine.vele import awards as W
from engine.vele import components as K
from engine.vele import groups as G
from engine.vele import healing as H
from engine.vele.options import VeleOptions


def refuses(rule: str, fn, *args, **kw) -> str:
    with pytest.raises(RuleViolation) as exc:
        fn(*args, **kw)
    assert exc.value.rule == rule, exc.value
    assert "\n" not in str(exc.value)
    return str(exc.value)


# --- healing (V-40) ---------------------------------------------------------------------------------
def test_V_40_heal_6_heals_up_to_two_traits_smallest_first_paid_in_points():
    """V-40 (L669): "Heal 6 can heal up to 2 traits"; the cost is the number of traits healed, paid by the
    healer(s) and/or the patient; smaller traits are healed first."""
    assert H.heal_capacity(6, trait_size=8) == 2
    wounded = {"Blade": 8, "Wits": 6, "Sneak": 4}
    assert H.heal_plan(wounded, 2, capacity=2, paid=[6]) == ["Sneak", "Wits"]
    assert H.heal_plan(wounded, 1, capacity=2, paid=[4]) == ["Sneak"]
    refuses("V-40", H.heal_plan, wounded, 3, 2, [8])
    refuses("V-40", H.heal_plan, wounded, 2, 2, [4])


def test_V_40_healing_needs_the_ability_unless_the_table_option_is_on():
    """V-40 (L485 points to the Heal/Repair ability of L669): a healing trait without the ability heals
    only with the heal_without_ability option (the main text's route, L159)."""
    refuses("V-40", H.heal_capacity, None, 6)
    assert H.heal_capacity(None, 6, heal_without_ability=True) == 2
    assert VeleOptions().heal_without_ability is False
    refuses("V-24", H.heal_capacity, 8, 6)


def test_V_40_healing_is_opposed_by_every_wounded_trait_and_tried_once():
    """V-40 (L669): opposed by all the wounded traits together, even those it cannot heal; one attempt after
    each conflict or sleep; a later healer on the same damage joins the first attempt as an ally."""
    assert H.heal_opposition({"Blade": 8, "Wits": 6, "Sneak": 4}) == [4, 6, 8]
    rec, role = H.HealAttempts().attempt("hero", "medic")
    assert role == "healer"
    rec, role = rec.attempt("hero", "priest")
    assert role == "ally"
    refuses("V-40", rec.attempt, "hero", "medic")
    assert rec.rest().attempt("hero", "medic")[1] == "healer"


# --- groups and spotlights (V-60, V-61, V-AMB-13, V-AMB-18) ---------------------------------------------
def test_V_60_group_dice_are_five_sets_for_member_traits_only():
    """V-60 (L720-721): a group gets 5 dice sets (5 x d4+d6+d8+d10 = 50 points), used only for member
    traits, not power or healing; aspect caps 4 main, 3 normal, none on a minion (L725)."""
    assert G.GROUP_POINTS == 50
    assert G.group_spend(50, "trait", [10, 8, 4]) == 42
    refuses("V-60", G.group_spend, 50, "power", [6])
    refuses("V-60", G.group_spend, 2, "trait", [8])
    G.check_member_aspects("main", 4)
    refuses("V-60", G.check_member_aspects, "normal", 4)
    refuses("V-60", G.check_member_aspects, "minion", 1)


def test_V_AMB_18_connected_traits_and_aspects_give_a_d4_each():
    """V-AMB-18 (L726-727): once for each other player, a connected trait and an aspect, "a d4 story die for
    each": with 3 other players, 3 traits and 3 aspects give six d4s; a fourth is refused."""
    assert G.connection_dice(3, 3, 3) == [4] * 6
    assert G.connection_dice(3, 1, 0) == [4]
    refuses("V-60", G.connection_dice, 3, 4, 0)


def test_V_60_members_are_handed_out_in_scenes_without_pcs():
    """V-60 (L732-733): in a scene without PCs the owner keeps the leader and hands the rest out to other
    players; with PCs present (and after the scene) the owner plays them all."""
    hand = G.hand_out(["boss", "m1", "m2", "m3"], "boss", "Ann", ["Ben", "Cy"], pcs_present=False)
    assert hand == {"boss": "Ann", "m1": "Ben", "m2": "Cy", "m3": "Ben"}
    assert set(G.hand_out(["boss", "m1"], "boss", "Ann", ["Ben"], pcs_present=True).values()) == {"Ann"}


def test_V_61_V_AMB_13_spotlights_two_per_pc_per_story_dealt_to_others():
    """V-61, V-AMB-13 (L927, L735, L935): each player makes a group card and, under the cap of two PC
    spotlights per story, a PC card; players take turns taking others' cards: with 2 cards each, everyone
    ends with 2 cards made by others."""
    players = ["A", "B", "C", "D"]
    cards = G.spotlight_cards(players, pc_made={"D": 2}, want_pc=players)
    assert ("D", "pc") not in cards and ("D", "group") in cards and len(cards) == 7
    cards = G.spotlight_cards(players, pc_made={}, want_pc=players)
    held = G.deal_spotlights(cards, players)
    assert all(len(h) == 2 and all(maker != p for maker, _ in h) for p, h in held.items())
    assert sorted(c for h in held.values() for c in h) == sorted(cards)


def test_V_61_spotlight_xp():
    """V-61, V-48 (L566, L736): an achieved spotlight gives 5 XP to its player and 3 to the narrator."""
    assert G.spotlight_xp("Ben", "Ann", True) == {"Ben": 5, "Ann": 3}
    assert G.spotlight_xp("Ben", "Ann", False) == {}


# --- awards (V-AMB-20, V-EX-16) ---------------------------------------------------------------------------
def test_V_AMB_20_hitting_an_aspect_with_danger_is_2_xp_each_in_total():
    """V-AMB-20, V-48 (L563-564): 1 XP for the player and 1 for the narrator; with danger 2 each (not 3);
    a narrator hitting their own aspect is paid once."""
    assert W.hit_aspect_xp("Ben", "Ann", danger=False) == {"Ben": 1, "Ann": 1}
    assert W.hit_aspect_xp("Ben", "Ann", danger=True) == {"Ben": 2, "Ann": 2}
    assert W.hit_aspect_xp("Ann", "Ann", danger=True) == {"Ann": 2}


def test_V_EX_16_objective_lost_without_the_pcs_earns_nothing():
    """V-EX-16, V-49 (L551): a story character destroys "the dark emerald" with no PC involved: not bought
    off, no XP. If the PCs fought for it and failed, the table may approve the buy-off and all get XP."""
    assert W.objective_bought_off("lost_without_pcs", pcs_involved=False) is False
    assert W.objective_xp(["A", "B"], "A", False) == {}
    assert W.objective_bought_off("failed", pcs_involved=True, approved=True) is True
    assert W.objective_bought_off("failed", pcs_involved=True, approved=False) is False
    refuses("V-49", W.objective_bought_off, "failed", True)
    assert W.objective_bought_off("achieved", pcs_involved=True) is True
    assert W.objective_xp(["A", "B", "C"], "B", True) == {"A": 10, "B": 13, "C": 10}


# --- table conventions (V-4, V-5, V-7, V-62) ----------------------------------------------------------------
def test_V_4_justify_with_fiction_until_no_majority_opposes():
    """V-4 (L267): revise the claim "until ... there is no longer a majority opposed": with 4 voters, 3 then
    2 opposed: the second version stands (a tie is no majority, V-1)."""
    assert J.justify([3, 2], voters=4) == 1
    assert J.justify([4, 3, 3], voters=4) is None
    assert J.justify([0], voters=4) == 0


def test_V_5_out_of_character_talk_only_between_players_not_narrating_or_acting():
    """V-5 (L625): out-of-character talk only between players who are neither narrating nor acting; story
    and act creation allow full communication."""
    assert J.may_talk_out_of_character("Cy", "Dee", narrator="Ann", acting=["Ben"], setup=False)
    assert not J.may_talk_out_of_character("Cy", "Ben", narrator="Ann", acting=["Ben"], setup=False)
    assert not J.may_talk_out_of_character("Ann", "Dee", narrator="Ann", acting=["Ben"], setup=False)
    assert J.may_talk_out_of_character("Ann", "Ben", narrator="Ann", acting=["Ben"], setup=True)


def test_V_62_the_thing_you_need_once_per_act():
    """V-62 (L213, L221): once per act with little challenge; again in the act without a supporting
    capability/technique combination, it should be challenged."""
    assert J.thing_you_need({}, "Ben", supporting_traits=False) == "free"
    assert J.thing_you_need({"Ben": 1}, "Ben", supporting_traits=False) == "challenge"
    assert J.thing_you_need({"Ben": 1}, "Ben", supporting_traits=True) == "supported"


def test_V_7_vele_off_stage_is_an_option_and_vele_pcs_are_never_exempt():
    """V-7 (L173): mechanics "should not directly affect a Vele or Verminite" is advice unless the table
    turns on vele_off_stage; a Vele PC can always be overwhelmed and die."""
    assert VeleOptions().vele_off_stage is False
    J.mechanics_may_affect(is_vele=True, is_pc=False, vele_off_stage=False)
    refuses("V-7", J.mechanics_may_affect, True, False, True)
    J.mechanics_may_affect(is_vele=True, is_pc=True, vele_off_stage=True)


# --- special components (V-21, V-22) -----------------------------------------------------------------------
def test_V_21_one_shots_cost_as_normal_work_once_and_power_themselves():
    """V-21 (L205): a one-shot costs the same as a normal component, works once, its dice also power its
    abilities, and it can't be part of another component or absorb damage for it."""
    assert K.one_shot_cost([8, 6]) == 5
    refuses("V-21", K.one_shot_cost, [4, 4, 4, 4, 4])
    K.use_one_shot(used=False)
    refuses("V-21", K.use_one_shot, True)
    K.one_shot_power([8, 6], [6])
    refuses("V-21", K.one_shot_power, [8, 6], [10])
    refuses("V-21", K.check_part_of, "one_shot", "part")
    refuses("V-21", K.check_part_of, "one_shot", "absorb")
    K.check_part_of("normal", "absorb")


def test_V_22_temporary_components_wager_bowl_dice_and_virtual_ones_have_no_mechanics():
    """V-22 (L187, L249, L523): temporary components use bowl dice only in struggles; virtual components
    have no mechanics; a thing with no component gets a temporary component or a bowl d6 default trait."""
    K.check_temporary_stakes(["bowl", "bowl"])
    refuses("V-22", K.check_temporary_stakes, ["bowl", "own"])
    refuses("V-22", K.check_struggle_against, "virtual")
    K.check_struggle_against("temporary")
    assert K.thing_without_component("default_trait") == {"trait": 6, "source": "bowl"}


def test_V_7_a_non_player_vele_is_untouchable_only_with_vele_off_stage():
    """V-7 (L173): a story component marked as a Vele can be attacked at a default table (the book's line is
    advice); with vele_off_stage, a struggle against it is refused, naming V-7."""
    from engine.vele import actions as A
    from engine.vele.rules import apply
    from engine.vele.rules import new_game as fresh
    from tests.vele_helpers import build_action, comp_of, play, story

    def table(options):
        seats = ["Ann", "Ben", "Cy", "Dee"]
        s = play(fresh(seats, options), *[A.Bid(player=n, bid=b) for n, b in zip(seats, (6, 4, 3, 2))])
        mine = story("Ann")
        mine[0].vele = True
        s = play(s, *[build_action(n, story=mine) if n == "Ann" else build_action(n) for n in s.order])
        vele, ben = comp_of(s, "Ann", "main"), comp_of(s, "Ben", "pc")
        s = play(s, A.FrameScene(player="Ann", place="the ruin", present=[ben.id, vele.id]))
        return s, A.StartStruggle(player="Ben", actor=ben.id, target=vele.id, goal="attack")

    s, attack = table(None)
    assert s.components[attack.target].vele and apply(s, attack)[0].struggle is not None
    s, attack = table({"vele_off_stage": True})
    refuses("V-7", apply, s, attack)

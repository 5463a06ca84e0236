"""Paganini's numbered rules (shared/rules/paganini.md section 2): each test names its rule P-<n>
and the book's place (seed 003, @offset), with fixed d20s."""
from __future__ import annotations

from fractions import Fraction

import pytest

from engine.core.errors import RuleViolation
from engine.paganini import apply, legal_options, pending
from engine.paganini import combat as C
from engine.paganini.advancement import cost_between, raise_cost, step_cost
from engine.paganini.ladder import (DIFFICULTY, LADDER, dice_label, kept, kept_index, pool_size, rung_name, rung_of,
                                    succeeds, tier, tier_name, tier_odds)
from engine.paganini.sheet import check_attributes, check_skills, free_skill_levels, untrained_level
from tests.paganini_helpers import (BOW, GM, KNIFE, P1, P2, SPEAR, act, fight, fighter, npc_id, sheet, table)


def refused(s, rule: str, **kw) -> str:
    with pytest.raises(RuleViolation) as exc:
        apply(s, kw)
    assert exc.value.rule == rule, str(exc.value)
    return str(exc.value)


def check(s, seat=P1, attribute="Fitness", skill=None, faces=None, **ruling):
    s = act(s, type="attempt", player=seat, intent="tries", attribute=attribute, skill=skill)
    s = act(s, type="call_check", player=GM, **ruling)
    if faces is not None:
        s = act(s, type="roll_dice", faces=faces)
    return s


# --- P-1 ladder, P-2 dice, P-3 the action check --------------------------------------------------------
def test_P_1_the_rating_ladder_has_nine_signed_rungs():
    """P-1 (@8485): Superb 4 HD ... Average 0 D ... Terrible 4 LD; weapons are rated the same way (@20069)."""
    assert [LADDER[v] for v in range(4, -5, -1)] == ["Superb", "Great", "Good", "Above Avg.", "Average",
                                                      "Below Avg.", "Mediocre", "Poor", "Terrible"]
    assert rung_of("Above Avg.") == 1 and rung_of("mediocre") == -2 and dice_label(-3) == "3 LD"
    with pytest.raises(RuleViolation) as exc:
        rung_name(5)
    assert exc.value.rule == "P-1"


def test_P_1_a_sheet_off_the_ladder_is_refused():
    """P-1 (@8485, @20069): a weapon rated +5 is off the ladder; so is an attribute at 5."""
    s = table(1, scene=False)
    refused(s, "P-INPUT", type="add_opponent", player=GM,
            sheet=sheet("Ogre", weapons=[{"name": "club", "damage": 5}]))


def test_P_2_high_dice_keep_the_highest_and_low_dice_the_lowest():
    """P-2 (@8263): "all dice but the highest showing are discarded"; LD keep the lowest; n=0 the BD alone."""
    assert kept([3, 17, 9], 2) == 17 and kept([3, 17, 9], -2) == 3 and kept([12], 0) == 12
    assert pool_size(0) == 1 and pool_size(5) == 6 and pool_size(-12) == 13  # no cap on the pool
    assert kept_index([5, 5, 2], 2) == 0  # the first of equal highest is the one marked kept
    with pytest.raises(RuleViolation):
        kept([3, 17], 2)  # a 2 HD pool rolls 3 dice
    with pytest.raises(RuleViolation):
        kept([21], 0)


def test_P_3_the_pool_is_skill_plus_attribute_plus_difficulty_and_the_base_die():
    """P-3 (@8940, @8983): "HD and LD cancel out"; one base die is added. Good Fitness + Sword Mediocre
    (+2 -2) at Easy (+2) is 2 HD: three d20, the highest kept."""
    s = check(table(1), skill="Sword", difficulty="easy")
    p = s.check.pools[0]
    assert p.net == 2 and pending(s).dice[0].count == 3 and pending(s).dice[0].sides == 20
    s = act(s, type="roll_dice", faces={P1: [4, 13, 9]})
    assert s.check.pools[0].kept == 13 and s.check.success


def test_P_3_wrong_number_of_dice_is_refused_and_nothing_changes():
    """P-3/P-2 (@8983): the engine asks for |n|+1 d20 and refuses any other count."""
    s = check(table(1), skill="Sword", difficulty="easy")
    refused(s, "P-2", type="roll_dice", faces={P1: [4, 13]})
    refused(s, "P-2", type="roll_dice", faces={"nobody": [4, 13, 1]})


# --- P-4 difficulty, P-5 success chart -----------------------------------------------------------------
def test_P_4_difficulty_rungs_add_dice():
    """P-4 (@9297): Nearly Impossible +4 LD ... Average 0 ... Nearly Automatic +4 HD."""
    assert DIFFICULTY == {"nearly_impossible": -4, "very_hard": -3, "hard": -2, "above_average": -1, "average": 0,
                          "below_average": 1, "easy": 2, "very_easy": 3, "nearly_automatic": 4}
    s = check(table(1), attribute="Intellect", difficulty="very_hard")
    assert s.check.pools[0].net == -3


@pytest.mark.parametrize("roll,name", [(20, "Critical Success"), (17, "Great Success"), (19, "Great Success"),
                                       (14, "Normal Success"), (16, "Normal Success"), (11, "Marginal Success"),
                                       (13, "Marginal Success"), (8, "Marginal Failure"), (10, "Marginal Failure"),
                                       (5, "Normal Failure"), (7, "Normal Failure"), (2, "Great Failure"),
                                       (4, "Great Failure"), (1, "Critical Failure")])
def test_P_5_the_success_chart(roll, name):
    """P-5 (@9536): 20 Critical Success ... 11-13 Marginal Success ... 1 Critical Failure; 11+ succeeds."""
    assert tier_name(tier(roll)) == name
    assert succeeds(roll) == (roll >= 11)


def test_P_5_exact_tier_odds_sum_to_one_and_more_hd_shift_them_up():
    """P-5/P-2 (@8263, @9536): exact keep-highest/keep-lowest odds (what eval compares rolled tiers with)."""
    for n in range(-5, 6):
        assert sum(tier_odds(n)) == 1
    assert tier_odds(0)[7] == Fraction(1, 20)
    assert tier_odds(1)[7] == 1 - Fraction(19, 20) ** 2
    assert tier_odds(-1)[0] == 1 - Fraction(19, 20) ** 2
    ok = [sum(tier_odds(n)[4:]) for n in range(-3, 4)]
    assert ok == sorted(ok) and ok[3] == Fraction(1, 2)


def test_P_5_a_failed_check_is_narrated_by_the_gm_and_a_success_by_its_player():
    """P-5 and section 3 (@9972): the GM interprets the outcome in story terms; success is the player's to tell."""
    s = check(table(1), attribute="Wits", faces={P1: [9]})
    assert not s.check.success and pending(s).seats == (GM,)
    s2 = check(table(1), attribute="Wits", faces={P1: [11]})
    assert s2.check.success and pending(s2).seats == (P1,)
    s2 = act(s2, type="narrate", player=P1, text="She spots the footprints.")
    assert s2.notes[-1].text == "She spots the footprints." and pending(s2).kind == "gm_turn"


# --- P-6 opposed and passive ---------------------------------------------------------------------------
def test_P_6_opposed_check_favours_the_higher_result_and_a_tie_keeps_the_status_quo():
    """P-6 (@9893): "the character with the higher result is favored"; a tie favours nobody (P-AMB-4)."""
    thug = sheet("Richaz", {"Fitness": 2, "Coordination": 1})
    s = table(1, npcs=[thug])
    oid = npc_id(s, "Richaz")
    s = act(s, type="attempt", player=P1, intent="arm-wrestles Richaz", attribute="Fitness", against=oid)
    s = act(s, type="call_check", player=GM, opposed_attribute="Fitness")
    assert [p.net for p in s.check.pools] == [2, 2]
    won = act(s, type="roll_dice", faces={P1: [3, 15, 2], oid: [14, 1, 1]})
    assert won.check.success and won.check.narrator == P1
    tie = act(s, type="roll_dice", faces={P1: [3, 15, 2], oid: [15, 1, 1]})
    assert tie.check.success is False and "tie" in tie.check.outcome and tie.check.narrator == GM


def test_P_6_passive_checks_are_treated_the_same_way():
    """P-6 (@10312): the GM asks for an Alertness check to notice a trap: a roll per character."""
    s = table(2)
    while pending(s).kind == "turn":
        s = act(s, type="pass_turn", player=pending(s).seats[0])
    s = act(s, type="passive_check", player=GM, who=[P1, P2], intent="notice the tripwire", attribute="Wits",
            skill="Alertness", difficulty="hard")
    assert [p.net for p in s.check.pools] == [-2, -2]
    s = act(s, type="roll_dice", faces={P1: [12, 18, 11], P2: [3, 19, 20]})
    assert "Ann's hero succeeds" in s.check.outcome and "Bob's hero fails" in s.check.outcome
    assert pending(s).seats == (GM,)


# --- P-7 skill types -----------------------------------------------------------------------------------
def test_P_7_untrained_skills_by_type():
    """P-7: General at Average (@6508), Experience at Terrible (@6784), Special not at all (@6966)."""
    assert untrained_level("general") == 0 and untrained_level("experience") == -4
    assert untrained_level("special") is None
    s = check(table(1), attribute="Wits", skill="Running", skill_kind="general")
    assert s.check.pools[0].parts[1].dice == 0
    s = check(table(1), attribute="Coordination", skill="Riding", skill_kind="experience")
    assert s.check.pools[0].net == 1 - 4
    msg = refused(table(1), "P-7", type="attempt", player=P1, intent="operates", attribute="Intellect",
                  skill="Neurosurgery", skill_kind="special")
    assert "untrained" in msg


def test_P_7_the_gm_assigns_the_type_of_an_unlisted_skill():
    """P-7 (@8000): "it is up to the GM to fit the skill into one of the categories"; the GM's word wins,
    and an unlisted skill nobody typed is refused until the GM types it."""
    s = act(table(1), type="attempt", player=P1, intent="rides", attribute="Coordination", skill="Riding")
    refused(s, "P-7", type="call_check", player=GM)
    s2 = act(s, type="call_check", player=GM, skill_kind="general")
    assert s2.check.pools[0].net == 1
    refused(s, "P-7", type="call_check", player=GM, skill_kind="special")


# --- P-8 scale -----------------------------------------------------------------------------------------
def test_P_8_scale_is_optional_and_off_by_default():
    """P-8 (@10496, @10590): with scale off a sheet with a scale is refused; with it on, open-ended."""
    refused(table(1, scene=False), "P-8", type="add_opponent", player=GM, sheet=sheet("Giant", scale={"size": 2}))
    s = act(table(1, scene=False, options={"scale": True}), type="add_opponent", player=GM,
            sheet=sheet("Titan", scale={"size": 9}))
    assert s.characters[npc_id(s, "Titan")].size() == 9


def test_P_8_scale_per_ability_and_to_one_side_only():
    """P-8 (@11301, @11499, @11567): a giant "has scale 1 strength"; +1 HD to him "or the human gets +1 LD"."""
    giant = sheet("Giant", scale={"Fitness": 1})
    s = table(1, npcs=[giant], options={"scale": True})
    gid = npc_id(s, "Giant")
    s = act(s, type="attempt", player=P1, intent="pushes the door shut against the giant", attribute="Fitness",
            against=gid)
    larger = act(s, type="call_check", player=GM, opposed_attribute="Fitness", scale_ability="Fitness")
    assert [p.net for p in larger.check.pools] == [2, 0 + 1]
    smaller = act(s, type="call_check", player=GM, opposed_attribute="Fitness", scale_ability="Fitness",
                  scale_to="smaller")
    assert [p.net for p in smaller.check.pools] == [2 - 1, 0]
    left_out = act(s, type="call_check", player=GM, opposed_attribute="Fitness")
    assert [p.net for p in left_out.check.pools] == [2, 0]  # the GM leaves scale out of this roll


# --- P-9, P-10 creation --------------------------------------------------------------------------------
def test_P_9_three_free_attribute_levels_and_equal_trades():
    """P-9 (@23683-@23906): all Average, three free levels, trades lower another attribute equally."""
    check_attributes({"Fitness": 2, "Coordination": 1, "Quickness": 0, "Intellect": 0, "Focus": 0, "Wits": 0})
    check_attributes({"Fitness": 2, "Coordination": 1, "Quickness": 0, "Intellect": -2, "Focus": 0, "Wits": 2})
    with pytest.raises(RuleViolation) as exc:
        check_attributes({"Fitness": 2, "Coordination": 2, "Quickness": 0, "Intellect": 0, "Focus": 0, "Wits": 0})
    assert exc.value.rule == "P-9" and "1 more than the 3" in str(exc.value)
    with pytest.raises(RuleViolation) as exc:  # lowering with nothing raised is no trade
        check_attributes({"Fitness": 0, "Coordination": 0, "Quickness": 0, "Intellect": -1, "Focus": 0, "Wits": 0})
    assert "@23824" in str(exc.value)


def test_P_9_an_invalid_sheet_is_refused_with_its_rule_and_nothing_changes():
    """P-9 (@23743): a player's over-budget sheet is refused by rule, in words, and the game still waits for it."""
    s = table(1, scene=False)
    s = s.model_copy(update={"phase": "characters", "characters": {}})
    msg = refused(s, "P-9", type="create_character", player=P1, sheet=sheet("Hero", {"Fitness": 3, "Wits": 1}))
    assert "free levels" in msg and pending(s).kind == "create_character"
    refused(s, "P-9", type="create_character", player=P1, sheet=sheet("Hero", {"Luck": 1}))


def test_P_10_skill_budgets_defaults_and_special_costs():
    """P-10 (@24024-@24504): defaults; ceil(skills/2) free levels; two per Special rung; General trades."""
    assert free_skill_levels(3) == 2 and free_skill_levels(4) == 2 and free_skill_levels(5) == 3
    check_skills({"Alertness": ("general", 1), "Riding": ("experience", -3), "Cooking": ("general", 0)})
    with pytest.raises(RuleViolation) as exc:  # 2 skills give 1 free level
        check_skills({"Alertness": ("general", 1), "Riding": ("experience", -3)})
    assert "over budget by 1" in str(exc.value)
    check_skills({"Medicine": ("special", -3), "Swimming": ("general", 0), "Running": ("general", 0)})  # 2 levels
    with pytest.raises(RuleViolation) as exc:
        check_skills({"Medicine": ("special", -2), "Swimming": ("general", 0)})  # 4 levels, 1 free
    assert "over budget by 3" in str(exc.value)
    # lowering a General skill two levels raises a Special skill one level (@24411)
    check_skills({"Medicine": ("special", -2), "Cooking": ("general", -2), "Swimming": ("general", 0)})
    with pytest.raises(RuleViolation):
        check_skills({"Riding": ("experience", -5)})
    with pytest.raises(RuleViolation) as exc:
        check_skills({"Riding": ("experience", -4), "Cooking": ("general", -1)})
    assert "@24316" in str(exc.value)


# --- P-11 AP, P-12 costs -------------------------------------------------------------------------------
def test_P_11_adventure_days_and_weeks_grant_ap():
    """P-11 (@12775, @13235): 1 AP a game day on an adventure, 2 a week."""
    s = table(1)
    s = act(s, type="pass_turn", player=P1)
    s = act(s, type="end_day", player=GM)
    s = act(s, type="end_week", player=GM)
    lots = s.characters[P1].lots
    assert [(x.source, x.amount) for x in lots] == [("adventure_day", 1), ("week", 2)]


def test_P_11_a_penned_up_character_learns_nothing():
    """P-11 (@14833): the GM may reduce a character's learning."""
    s = act(act(table(1), type="pass_turn", player=P1), type="end_day", player=GM, withhold=[P1])
    assert s.characters[P1].lots == []


def test_P_11_intensive_study_only_in_a_week_without_adventuring():
    """P-11 (@13542, @13597): 5 AP that week, not while adventuring; the GM may bar Good+ skills (@13865)."""
    s = table(1)
    s = act(s, type="study_intensively", player=P1, reason="a term at the academy")
    s = act(s, type="pass_turn", player=P1)
    s = act(s, type="end_day", player=GM)  # Ann is studying, not adventuring: no day AP
    s = act(s, type="end_week", player=GM)
    assert [(x.source, x.amount) for x in s.characters[P1].lots] == [("intensive", 5)]
    s2 = act(act(table(1), type="pass_turn", player=P1), type="end_day", player=GM)
    s2 = act(s2, type="continue_scene", player=GM)
    refused(s2, "P-11", type="study_intensively", player=P1, reason="school")


def test_P_11_intensive_study_can_be_barred_for_good_skills():
    """P-11 (@13865): with the GM's bar, intensive points do not raise a skill rated Good or above."""
    good = sheet("Scholar", {"Intellect": 3}, [{"name": "Lore", "kind": "general", "level": 2},
                                                  {"name": "Cooking", "kind": "general", "level": 0},
                                                  {"name": "Alertness", "kind": "general", "level": 0}])
    s = table(1, sheets={P1: good}, options={"bar_intensive_good": True})
    s = act(s, type="study_intensively", player=P1, reason="the library")
    s = act(act(s, type="pass_turn", player=P1), type="end_week", player=GM)
    s = act(s, type="continue_scene", player=GM)
    lot = s.characters[P1].lots[0].id
    s = s.model_copy(deep=True)
    s.characters[P1].lots[0].amount = 200
    refused(s, "P-11", type="raise_skill", player=P1, skill="Lore", lots=[lot])


def test_P_11_attributes_change_only_by_the_gms_major_change():
    """P-11 (@12100, @12471): no AP buys an attribute; aging or magic changes it, and a newborn's scale
    grows - by the GM's word, within the ladder."""
    s = act(table(1), type="pass_turn", player=P1)
    s2 = act(s, type="alter_character", player=GM, character=P1, attributes={"Quickness": -1},
             reason="an arrow in the knee")
    assert s2.characters[P1].attributes["Quickness"] == -1
    refused(s, "P-TURN", type="alter_character", player=P1, character=P1, attributes={"Fitness": 4}, reason="x")
    refused(s, "P-8", type="alter_character", player=GM, character=P1, scale={"size": -3}, reason="shrunk")
    refused(s, "P-1", type="alter_character", player=GM, character=P1, attributes={"Fitness": 5}, reason="x")
    assert "alter_character" in {o.type for o in legal_options(s, GM)}


def test_P_12_the_skill_cost_table_doubles_per_rung():
    """P-12 (@14948): Terrible->Poor 2 ... Great->Superb 256; Special double without a teacher (@15680)."""
    assert [step_cost(v) for v in range(-4, 4)] == [2, 4, 8, 16, 32, 64, 128, 256]
    assert raise_cost(-4, "special", teacher=False) == 4 and raise_cost(-4, "special", teacher=True) == 2
    assert cost_between(0, 2) == 96
    with pytest.raises(RuleViolation):
        step_cost(4)


def test_P_12_unlisted_skills_advance_from_their_default_and_special_needs_instruction():
    """P-12 (@15200, @15352): improvement begins from the default; Special needs some instruction."""
    s = act(table(1), type="end_week", player=GM) if False else table(1)
    s = act(s, type="pass_turn", player=P1)
    s = act(s, type="end_week", player=GM)
    s = act(s, type="continue_scene", player=GM)
    lot = s.characters[P1].lots[0].id
    refused(s, "P-12", type="raise_skill", player=P1, skill="Medicine", kind="special", lots=[lot])
    s2 = act(s, type="raise_skill", player=P1, skill="Medicine", kind="special", lots=[lot], teacher=True)
    assert s2.characters[P1].skills["Medicine"].level == -3 and s2.characters[P1].lots == []
    s3 = act(s, type="raise_skill", player=P1, skill="Climbing", kind="experience", lots=[lot])
    assert s3.characters[P1].skills["Climbing"].level == -3
    msg = refused(s, "P-12", type="raise_skill", player=P1, skill="Swimming", kind="general", lots=[lot])
    assert "costs 32" in msg  # a General skill starts from Average


def test_P_11_a_trainer_may_be_required_for_special_skills():
    """P-11 (@13371): "The GM may rule that a character must have a trainer"."""
    s = table(1, options={"trainer_required": True})
    s = act(act(s, type="pass_turn", player=P1), type="end_week", player=GM)
    s = act(s, type="continue_scene", player=GM)
    lot = s.characters[P1].lots[0].id
    refused(s, "P-11", type="raise_skill", player=P1, skill="Medicine", kind="special", lots=[lot],
            instruction="old books")


# --- P-13 initiative -----------------------------------------------------------------------------------
def test_P_13_initiative_each_round_on_quickness_or_focus_and_a_combat_skill():
    """P-13 (@16385, @16691): every round; "either the Quickness or Focus attribute (GM preference)"."""
    thug = fighter("Richaz")
    s = table(1, npcs=[thug])
    oid = npc_id(s, "Richaz")
    s = fight(s, [P1, oid], {P1: [8], oid: [15]}, attribute="Focus")
    assert s.combat.slots == [[oid], [P1]] and pending(s).seats == (GM,)
    s = act(s, type="hold", player=GM, actor=oid)
    s = act(s, type="hold", player=P1, actor=P1)
    assert pending(s).kind == "round_end"
    s = act(s, type="next_round", player=GM)
    assert pending(s).kind == "initiative"
    s2 = act(s, type="initiative", player=GM, attribute="Quickness", skills={P1: "Alertness"}, mods={oid: -1})
    assert [p.net for p in s2.combat.init] == [0, -1]


def test_P_13_initiative_attribute_fixed_for_the_campaign_is_enforced():
    """P-13 (@16691): the table option fixes Quickness or Focus once per campaign."""
    s = table(1, npcs=[fighter("Richaz")], options={"initiative_attribute": "Focus"})
    s = act(s, type="pass_turn", player=P1)
    s = act(s, type="start_combat", player=GM, combatants=[P1, npc_id(s, "Richaz")])
    refused(s, "P-13", type="initiative", player=GM, attribute="Quickness")


def test_P_13_a_critical_success_acts_twice():
    """P-13 (@16446): "he makes another initiative roll in addition to the first one and acts twice"."""
    s = table(1, npcs=[fighter("Richaz")])
    oid = npc_id(s, "Richaz")
    s = fight(s, [P1, oid], {P1: [20], oid: [12]})
    assert pending(s).dice[0].key == f"{P1}+"
    s = act(s, type="roll_dice", faces={f"{P1}+": [3]})
    assert s.combat.slots == [[P1], [oid], [P1]]


def test_P_13_a_character_knocked_out_in_its_own_slot_still_acts():
    """P-13 (@16385): "all characters rolling the same level acting simultaneously": the NPC felled by
    Ann's blow in their shared slot still strikes; the fight ends after the slot."""
    s = table(1, npcs=[fighter("Richaz")])
    oid = npc_id(s, "Richaz")
    s = fight(s, [P1, oid], {P1: [15], oid: [14]})
    assert s.combat.slots == [[P1, oid]]
    s = melee(s, P1, oid, P1, GM, [19, 19], [2, 2])
    s = act(s, type="roll_dice", faces={"damage": [20] * pool_size(s.combat.attack.damage.net)})
    s = act(s, type="roll_dice", faces={"fitness": [1] * pool_size(s.combat.attack.fitness.net)})
    assert not s.characters[oid].conscious
    s = act(s, type="narrate", player=P1, text="Richaz falls.")
    assert pending(s).kind == "combat_turn" and pending(s).seats == (GM,)
    s = act(s, type="attack", player=GM, actor=oid, target=P1, weapon="sword")
    s = act(s, type="defend", player=P1, skill="Dodge")
    s = act(s, type="roll_dice", faces={"attack": [2] * pool_size(s.combat.attack.attack.net),
                                        "defence": [19] * pool_size(s.combat.attack.defence.net)})
    s = act(s, type="narrate", player=GM, text="A last wild swing.")
    assert s.combat is None and pending(s).kind == "gm_turn"


def test_P_13_the_gm_may_rule_a_long_action_kept_up_over_rounds():
    """P-13 (@17100): "the GM may rule that long actions must be maintained for more than one round"."""
    s = table(1, npcs=[fighter("Richaz")])
    oid = npc_id(s, "Richaz")
    s = fight(s, [P1, oid], {P1: [15], oid: [3]})
    s = act(s, type="attempt", player=P1, intent="picks the gate's lock", attribute="Coordination", skill="Lockpicking",
            skill_kind="experience")
    s = act(s, type="call_check", player=GM, rounds=2)
    assert s.check is None and P1 in s.combat.long and pending(s).seats == (GM,)
    s = act(s, type="hold", player=GM, actor=oid)
    s = act(act(s, type="next_round", player=GM), type="initiative", player=GM, attribute="Quickness")
    s = act(s, type="roll_dice", faces={P1: [15], oid: [3]})
    assert {o.type for o in legal_options(s, P1)} >= {"hold", "attack"}
    kept_up = act(s, type="hold", player=P1, actor=P1)
    assert kept_up.check is not None and pending(kept_up).kind == "roll"
    broken = act(s, type="attack", player=P1, actor=P1, target=oid, weapon="sword")
    assert P1 not in broken.combat.long


# --- P-14 melee, P-15 multiple attackers, P-16 modifiers ----------------------------------------------
def melee(s, att, tgt, seat_att, seat_def, faces_att, faces_def, **kw):
    s = act(s, type="attack", player=seat_att, actor=att, target=tgt, weapon=kw.pop("weapon", "sword"), **kw)
    s = act(s, type="defend", player=seat_def, skill="Sword", attribute="Coordination")
    return act(s, type="roll_dice", faces={"attack": faces_att, "defence": faces_def})


def test_P_14_melee_is_opposed_and_the_highest_result_hits():
    """P-14 (@17658): attacker and defender roll; "The character with the highest result is successful"."""
    s = table(1, npcs=[fighter("Richaz")])
    oid = npc_id(s, "Richaz")
    s = fight(s, [P1, oid], {P1: [15], oid: [3]})
    s = act(s, type="attack", player=P1, actor=P1, target=oid, weapon="sword")
    assert pending(s).kind == "defend" and pending(s).seats == (GM,)
    refused(s, "P-TURN", type="defend", player=P1)
    s = act(s, type="defend", player=GM, skill="Sword", attribute="Coordination")
    assert s.combat.attack.attack.net == 1 - 2 and s.combat.attack.defence.net == 1 - 2
    hit = act(s, type="roll_dice", faces={"attack": [14, 16], "defence": [12, 15]})
    assert hit.combat.attack.hit and hit.combat.attack.margin == 1 and pending(hit).kind == "roll"  # 14 vs 12
    tie = act(s, type="roll_dice", faces={"attack": [14, 16], "defence": [14, 15]})
    assert tie.combat.attack.hit is False and pending(tie).kind == "narrate_attack"


def test_P_14_hits_only_on_a_critical_success_is_a_book_option():
    """P-14 (@17953): "a hit might only occur on a critical success"."""
    s = table(1, npcs=[fighter("Richaz")], options={"critical_hits_only": True})
    oid = npc_id(s, "Richaz")
    s = fight(s, [P1, oid], {P1: [15], oid: [3]})
    s2 = melee(s, P1, oid, P1, GM, [19, 19], [2, 2])
    assert s2.combat.attack.hit is False
    s3 = melee(s, P1, oid, P1, GM, [20, 20], [2, 2])
    assert s3.combat.attack.hit is True


def test_P_15_each_defence_after_the_first_takes_a_cumulative_ld():
    """P-15 (@18147): "each defense after the first takes a cumulative +1 LD"."""
    assert [C.defence_penalty(k) for k in range(4)] == [0, -1, -2, -3]


def test_P_16_melee_modifiers_shields_heavy_armour_situation_and_quality():
    """P-16 (@18147-@19039): non-optimal range and vulnerable direction +1LD on the attack; shields add
    HD to defence; heavy armour +1LD to dodges; situation and manoeuvre +-1..4; Quality on every roll."""
    tank = sheet("Knight", {"Fitness": 2, "Coordination": 1}, shield="kite",
                 armour={"name": "plate", "ratings": {"cutting": 3}, "heavy": True})
    fine = dict(name="fine sword", quality=1, damage=1, types=["cutting"], skill="Sword")
    duelist = sheet("Duelist", {"Coordination": 3}, weapons=[fine])
    s = table(1, sheets={P1: duelist}, npcs=[tank])
    kid = npc_id(s, "Knight")
    s = fight(s, [P1, kid], {P1: [15], kid: [3]})
    s = act(s, type="attack", player=P1, actor=P1, target=kid, weapon="fine sword", skill="Sword",
            melee_mods=["non_optimal_range", "vulnerable_direction"], situation=-1, manoeuvre=2)
    a = s.combat.attack.attack
    assert a.net == 3 - 4 + 1 - 1 - 1 - 1 + 2  # Coordination, untrained Sword (Experience), Quality, mods
    s = act(s, type="defend", player=GM, attribute="Coordination", dodge=True)
    assert s.combat.attack.defence.net == 1 + 2 - 1


def test_P_16_quality_is_added_to_a_parry_with_the_weapon():
    """P-16 (@19017): "The quality rating is added to every roll in which the weapon is used"."""
    parry = sheet("Fencer", {"Coordination": 1}, weapons=[dict(name="rapier", quality=2, types=["piercing"])])
    s = table(1, npcs=[parry])
    fid = npc_id(s, "Fencer")
    s = fight(s, [P1, fid], {P1: [15], fid: [3]})
    s = act(s, type="attack", player=P1, actor=P1, target=fid, weapon="sword")
    s = act(s, type="defend", player=GM, attribute="Coordination", weapon="rapier")
    assert s.combat.attack.defence.net == 1 + 2


# --- P-17 wounds, P-18 unconsciousness, P-19 damage ----------------------------------------------------
@pytest.mark.parametrize("boxes,name,pen", [(0, "Unhurt", 0), (1, "Wounded", 0), (5, "Wounded", 0),
                                            (6, "Scratched", -1), (10, "Scratched", -1), (11, "Battered", -2),
                                            (16, "Severely Wounded", -3), (21, "Near Death", -4),
                                            (25, "Near Death", -4)])
def test_P_17_the_25_box_damage_track(boxes, name, pen):
    """P-17 (@19152, @19380): every 5 boxes a wound level; its penalty on every roll."""
    assert C.wound_name(boxes) == name and C.wound_penalty(boxes) == pen


def test_P_17_the_wound_penalty_applies_to_all_rolls():
    """P-17 (@19339): "applied to all the rolls that a character makes" - checks and initiative too."""
    s = table(1)
    s = s.model_copy(deep=True)
    s.characters[P1].wounds = 12
    s2 = check(s, attribute="Fitness")
    assert s2.check.pools[0].net == 2 - 2


def test_P_18_each_damage_needs_a_marginal_success_on_fitness():
    """P-18 (@19713, @19866): a Fitness roll each time damage is taken; 11 or more stays conscious."""
    s = table(1, npcs=[fighter("Richaz")])
    oid = npc_id(s, "Richaz")
    s = fight(s, [P1, oid], {P1: [15], oid: [3]})
    s = melee(s, P1, oid, P1, GM, [14, 16], [12, 13])  # 14 (Normal) beats 12 (Marginal): margin 1
    assert s.combat.attack.damage.net == 1 + 2 + 1 - 2 and pending(s).dice[0].count == 3
    refused(s, "P-2", type="roll_dice", faces={"damage": [4, 9]})
    s = act(s, type="roll_dice", faces={"damage": [4, 9, 2]})
    assert s.characters[oid].wounds == 8 and pending(s).dice[0].key == "fitness"
    assert s.combat.attack.fitness.net == 2 - 1  # Fitness Good, Scratched +1LD counting the new boxes
    out = act(s, type="roll_dice", faces={"fitness": [10, 3]})
    assert not out.characters[oid].conscious
    up = act(s, type="roll_dice", faces={"fitness": [11, 3]})
    assert up.characters[oid].conscious and pending(up).kind == "narrate_attack"


def test_P_19_damage_pool_margin_strength_fitness_and_armour():
    """P-19 (@20159-@20607): weapon + strength + a die per tier of margin - Fitness - armour for the type."""
    arm = sheet("Guard", {"Fitness": 1, "Coordination": 1, "Wits": 1},
                armour={"name": "soft leather", "ratings": {"cutting": 2, "piercing": 1}})
    s = table(1, npcs=[arm])
    gid = npc_id(s, "Guard")
    s = fight(s, [P1, gid], {P1: [15], gid: [3]})
    s = melee(s, P1, gid, P1, GM, [18, 19], [12, 13, 14, 15], damage_type="piercing")
    at = s.combat.attack
    assert at.margin == 2  # Great Success against Marginal Success
    assert at.damage.net == 1 + 2 + 2 - 1 - 1


def test_P_19_armour_is_rated_on_the_ladder_per_damage_type():
    """P-19 (@20069, @20607): armour rated like traits, separately against each damage type."""
    s = table(1, scene=False)
    refused(s, "P-19", type="add_opponent", player=GM,
            sheet=sheet("Golem", armour={"name": "stone", "ratings": {"blunt": 6}}))
    refused(s, "P-INPUT", type="add_opponent", player=GM,
            sheet=sheet("Golem", armour={"name": "stone", "ratings": {"psychic": 1}}))


def test_P_7_an_unlisted_weapon_skill_takes_the_type_the_action_gives():
    """P-7 (@7600): firearms may be Experience in one genre and General in another."""
    s = table(1, npcs=[fighter("Richaz")])
    oid = npc_id(s, "Richaz")
    s = fight(s, [P1, oid], {P1: [15], oid: [3]})
    exp = act(s, type="attack", player=P1, actor=P1, target=oid, weapon="bare hands")
    gen = act(s, type="attack", player=P1, actor=P1, target=oid, weapon="bare hands", skill_kind="general")
    assert exp.combat.attack.attack.net == 1 - 4 and gen.combat.attack.attack.net == 1


def test_P_19_half_and_no_strength_weapons():
    """P-19 (@20190): "some weapons may add half or no strength" (half rounds toward 0, P-AMB-12)."""
    assert C.strength_dice(3, "half") == 1 and C.strength_dice(3, "none") == 0 and C.strength_dice(-3, "half") == -1
    assert C.strength_dice(3, "half", round_away=True) == 2
    assert C.damage_boxes(1) == 0 and C.damage_boxes(20) == 19


# --- P-20 ranged ---------------------------------------------------------------------------------------
def test_P_20_ranged_attacks_are_unopposed_at_a_range_difficulty():
    """P-20 (@21171): Short +1HD, Medium 0, Long +1LD, Extra Long +2LD; skill + Focus; 11+ hits."""
    archer = sheet("Archer", {"Focus": 2, "Fitness": 1}, [{"name": "Bow", "kind": "experience", "level": -3},
                                                          {"name": "Alertness", "kind": "general", "level": 0}],
                   weapons=[BOW, SPEAR])
    s = table(1, sheets={P1: archer}, npcs=[fighter("Richaz")])
    oid = npc_id(s, "Richaz")
    s = fight(s, [P1, oid], {P1: [15], oid: [3]})
    refused(s, "P-20", type="attack", player=P1, actor=P1, target=oid, weapon="bow")
    s2 = act(s, type="attack", player=P1, actor=P1, target=oid, weapon="bow", range="extra_long",
             ranged_mods=["target_moving", "attacker_braced"], soft_cover=20)
    assert s2.combat.attack.attack.net == 2 - 3 - 2 - 1 + 1 - 2 and pending(s2).kind == "roll"
    s2 = act(s2, type="roll_dice", faces={"attack": [11] + [20] * 5})
    assert s2.combat.attack.hit
    # fired: the rating only, minus the target's Fitness and armour (P-AMB-6)
    assert s2.combat.attack.damage.net == 1 - 2
    s3 = act(s, type="attack", player=P1, actor=P1, target=oid, weapon="spear", range="short", skill="Spear")
    assert s3.combat.attack.attack.net == 0 - 4 + 1  # thrown: Coordination + untrained Spear + short
    s3 = act(s3, type="roll_dice", faces={"attack": [13, 12, 14, 15]})
    assert s3.combat.attack.damage.net == 1 + 1 - 2  # thrown: Fitness + rating - target's Fitness


def test_P_20_weapons_may_require_an_attribute():
    """P-20 (@22431): "a bow that requires a Good Fitness to use"."""
    longbow = dict(BOW, name="longbow", requires={"Fitness": 2})
    s = table(1, sheets={P1: sheet("Weakling", {"Focus": 3}, weapons=[longbow])}, npcs=[fighter("Richaz")])
    oid = npc_id(s, "Richaz")
    s = fight(s, [P1, oid], {P1: [15], oid: [3]})
    msg = refused(s, "P-20", type="attack", player=P1, actor=P1, target=oid, weapon="longbow", range="medium")
    assert "Good Fitness" in msg


def test_P_14_the_belt_knife_and_a_defender_without_a_shield():
    """P-14/P-19 (@27061): the book's Belt Knife, Average Quality and Damage, cutting or piercing."""
    s = table(1, sheets={P1: sheet("Cutter", {"Coordination": 3}, weapons=[KNIFE])}, npcs=[fighter("Richaz")])
    oid = npc_id(s, "Richaz")
    s = fight(s, [P1, oid], {P1: [15], oid: [3]})
    refused(s, "P-19", type="attack", player=P1, actor=P1, target=oid, weapon="belt knife", damage_type="blunt")

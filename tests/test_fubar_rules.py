"""FUBAR's numbered rules (shared/rules/fubar.md section 2): each test names its rule F-<n> and the
book's line (seed 004, L = 1-based line)."""
from __future__ import annotations

from fractions import Fraction

import pytest

from engine.core.errors import RuleViolation
from engine.fubar import dice as D
from engine.fubar import apply, new_game, pending
from engine.fubar.gear import armour_die, weapon_die
from tests.fubar_helpers import GM, P1, P2, P3, act, conflict, make_char, narrate, opposition, table


def refused(s, rule: str, **kw) -> str:
    with pytest.raises(RuleViolation) as exc:
        apply(s, kw)
    assert exc.value.rule == rule, str(exc.value)
    return str(exc.value)


# --- F-1, F-2, F-3: the dice ---------------------------------------------------------------------
@pytest.mark.parametrize("evens,name", list(enumerate(D.LADDER)))
def test_F_1_five_dice_count_the_evens_on_the_six_step_ladder(evens, name):
    """F-1, L27-35: "The base roll ... is five dice"; 0 evens No-and ... 5 evens Yes-and."""
    faces = [2] * evens + [1] * (5 - evens)
    assert D.ladder_name(D.redux_result(faces, 0)) == name
    assert D.is_yes(D.redux_result(faces, 0)) == (evens >= 3)


def test_F_1_a_roll_that_is_not_five_plus_net_dice_is_refused():
    """F-1/F-2: the engine refuses a pool of the wrong size rather than reading it."""
    s = table(1)
    s = act(s, type="attempt", player=P1, question="Do I jump the chasm?")
    s = act(s, type="rule_conflict", player=GM)
    refused(s, "F-2", type="roll_dice", faces={P1: [2, 2, 2, 2]})
    refused(s, "F-2", type="roll_dice", faces={P1: [2, 2, 2, 2, 7]})  # a d6 has no 7


def test_F_2_bonus_and_penalty_dice_cancel_and_keep_the_best_or_worst_five():
    """F-2, L39 and L45: "choose the five best ... five worst"; they "cancel one another"."""
    assert D.pool_size(+2 - 1) == 6
    assert D.redux_result([2, 4, 6, 6, 1, 3, 5], -2) == D.NO_BUT  # E=4, 4-2
    assert D.redux_result([2, 4, 6, 6, 8 % 6 or 6, 1], +1) == D.YES_AND
    assert D.redux_result([1, 3, 5, 2, 2, 2], +1) == D.YES_BUT
    assert D.redux_result([2, 2, 2, 2, 2, 2], -1) == D.YES_AND  # the worst five of six evens are evens
    assert D.redux_result([2, 2, 2, 2, 2, 1], -1) == D.YES  # the odd one is kept, the worst
    s = conflict(table(1), faces=[2, 2, 1, 1, 1, 1], descriptors=["Crack shot", "Fast talker"],
                 ruling={"mods": [{"source": "condition", "name": "Bloodied", "dice": -1}]})
    assert s.conflict.rolls[0].net == 1 and s.conflict.result == D.NO_BUT


def test_F_3_exact_odds_of_success():
    """F-3, L74-78: 50%, 65.6%, 77.3%, 85.5%; penalties mirror (the book rounds: @51635)."""
    assert D.success_odds(0) == Fraction(1, 2)
    assert round(float(D.success_odds(1)), 3) == 0.656
    assert round(float(D.success_odds(2)), 3) == 0.773
    assert round(float(D.success_odds(3)), 3) == 0.855
    for k in (1, 2, 3):
        assert D.success_odds(-k) == 1 - D.success_odds(k)
        assert sum(D.result_odds(k)) == 1


# --- F-4 sources of dice --------------------------------------------------------------------------------
def test_F_4_each_source_is_one_die_and_the_engine_nets_them():
    """F-4, L58-70: Descriptors, Conditions (+-1D whatever the tier, L578), Unfamiliarity -1D,
    Applicability +1D, apt Concept +1D, circumstance and gear +-1D; an opponent's Flaw helps (@47202)."""
    s, oid = opposition(table(1), trademarks=["Master swordsman"], flaws=["Drinks on Duty"])
    s = act(s, type="attempt", player=P1, question="Do I disarm him?", descriptors=["Crack shot"],
            use_concept=True, against=oid)
    mods = [{"source": "opposing_descriptor", "name": "Master swordsman", "dice": -1},
            {"source": "opposing_descriptor", "name": "Drinks on Duty", "dice": 1},
            {"source": "condition", "name": "Broken Arm", "dice": -1},
            {"source": "circumstance", "name": "high ground", "dice": 1},
            {"source": "gear", "name": "rapier", "dice": 1}]
    s2 = act(s, type="rule_conflict", player=GM, mods=mods)
    assert s2.conflict.rolls[0].net == 1 + 1 - 1 + 1 - 1 + 1 + 1
    refused(s, "F-4", type="rule_conflict", player=GM, mods=[{"source": "condition", "name": "Major wound", "dice": -2}])
    refused(s, "F-4", type="rule_conflict", player=GM, mods=[{"source": "unfamiliar", "dice": 1}])
    refused(table(1), "F-4", type="attempt", player=P1, question="Q?", descriptors=["Flying"])


def test_F_4_a_claimed_descriptor_the_gm_rules_out_adds_nothing():
    """F-4 with section 3: applicability is the GM's ruling."""
    s = act(table(1), type="attempt", player=P1, question="Q?", descriptors=["Crack shot", "Fast talker"])
    s = act(s, type="rule_conflict", player=GM, disallow=["Crack shot"])
    assert s.conflict.rolls[0].net == 1


# --- F-5 outcome effects --------------------------------------------------------------------------------
def test_F_5_an_and_or_but_needs_a_condition_or_detail_and_a_plain_answer_does_not():
    """F-5, L47: a yes/no answer, or a new Condition or Detail from the 'and'/'but'."""
    s = conflict(table(1), faces=[2, 2, 2, 1, 1])  # Yes, but
    msg = refused(s, "F-5", type="narrate_outcome", player=P1, text="I get in")
    assert "Yes, but" in msg
    s2 = narrate(s, details=["the entrance collapses behind me"])
    assert s2.details[-1].text == "the entrance collapses behind me" and s2.details[-1].origin == "outcome"
    plain = narrate(conflict(table(1), faces=[2, 2, 2, 2, 1]))
    assert plain.answers[-1].result == D.YES


# --- F-6 Resolve --------------------------------------------------------------------------------
def test_F_6_resolve_starts_at_5_and_never_exceeds_the_cap():
    """F-6, L88: "Player characters begin with a Resolve pool of 5 ... can never exceed this pool size cap"."""
    s = table(1)
    assert s.characters[P1].resolve == 5 and s.characters[P1].cap == 5
    s = act(s, type="award_resolve", player=GM, seat=P1, reason="flaw")
    assert s.characters[P1].resolve == 5


def test_F_6_below_zero_the_character_is_out_unless_the_trade_is_made():
    """F-6, L140-144: below 0 "out of the game"; or trade a Trademark for a new, permanent Flaw."""
    s = table(2)
    s.characters[P1].resolve = 0
    s = narrate(conflict(s, faces=[1, 1, 1, 1, 2], ruling={"pc_stakes": "high"}), details=["shot"],
                conditions=[])
    assert s.characters[P1].resolve == -1 and pending(s).kind == "escape"
    out = act(s, type="write_out", player=P1, text="He walks into the snow.")
    assert out.characters[P1].out and P1 not in out.live_players()
    stay = act(s, type="escape_trade", player=P1, trademark="Crack shot", flaw="Shaking hands")
    ch = stay.characters[P1]
    assert ch.resolve == 5 and "Crack shot" not in ch.trademarks and "Shaking hands" in ch.flaws


# --- F-7 Resolve costs --------------------------------------------------------------------------
def test_F_7_a_high_stakes_no_costs_1_and_a_reroll_costs_1_for_any_dice():
    """F-7, L114 and L116: "lose 1 point of Resolve"; "re-roll any number of dice from a roll just made"."""
    s = conflict(table(1), faces=[1, 1, 1, 2, 2], ruling={"pc_stakes": "high"}, keep=False)
    s = act(s, type="reroll", player=P1, key=P1, indices=[0, 1, 2])
    assert s.characters[P1].resolve == 4 and pending(s).kind == "roll"
    s = act(s, type="roll_dice", faces={P1: [1, 3, 5]})
    s = act(s, type="reroll", player=P1, key=P1, indices=[0])  # repeats allowed, 1 each (F-AMB-5)
    s = act(s, type="roll_dice", faces={P1: [1]})
    s = act(s, type="keep_roll", player=P1)
    assert s.characters[P1].resolve == 3 - 1  # two rerolls and the high-stakes No


def test_F_7_a_fact_costs_exactly_one_and_an_unbelievable_one_costs_nothing():
    """F-7, L124: "costing 1 Resolve per plausible fact or coincidence described"."""
    s = act(table(1), type="narrate_fact", player=P1, text="The tool shed holds a fuelled chainsaw")
    yes = act(s, type="judge_fact", player=GM, believable=True)
    no = act(s, type="judge_fact", player=GM, believable=False)
    assert yes.characters[P1].resolve == 4 and yes.details[-1].text.startswith("The tool shed")
    assert no.characters[P1].resolve == 5 and not any(d.origin == "fact" for d in no.details)


def test_F_7_abandoning_a_goal_between_sessions_costs_one():
    """F-7, L186: abandoning a Goal: -1, no Flaw."""
    s = table(1, scene=False)
    s = act(s, type="replace_goal", player=P1, old="Find the Macron Device", new="Get out alive", reason="abandon")
    assert s.characters[P1].resolve == 4 and len(s.characters[P1].flaws) == 2


def test_F_7_a_failed_risky_approach_costs_two():
    """F-7, L464: a failed risky approach: -2."""
    s, oid = opposition(table(1), resolve=2)
    s = conflict(s, faces=[1, 1, 1, 2, 2], against=oid, risky=True, ruling={"risky": True})
    assert s.characters[P1].resolve == 3


# --- F-8 Resolve gains ---------------------------------------------------------------------------
def test_F_8_downtime_once_a_session_in_a_downtime_scene():
    """F-8, L132: "Once per player character per session ... 1 Resolve point is regained"."""
    s = table(2, downtime=True)
    s.characters[P1].resolve = 2
    s = act(s, type="downtime", player=P1, text="sleeps at the safe house")
    assert s.characters[P1].resolve == 3
    not_rest = table(1)
    refused(not_rest, "F-8", type="downtime", player=P1)


def test_F_8_genre_rewards_only_with_the_option_and_flaws_give_one():
    """F-8, L106 (genre, optional) and L120 (a pivotal Flaw: +1 "often")."""
    s = table(1)
    s.characters[P1].resolve = 3
    refused(s, "F-8", type="award_resolve", player=GM, seat=P1, reason="genre")
    assert act(s, type="award_resolve", player=GM, seat=P1, reason="flaw").characters[P1].resolve == 4
    g = table(1, {"genre_reward": True})
    g.characters[P1].resolve = 3
    assert act(g, type="award_resolve", player=GM, seat=P1, reason="genre").characters[P1].resolve == 4


def test_F_8_session_start_gives_two_and_scenario_end_resets():
    """F-8, L136 and L112: +2 each session (capped); Resolve reset to full at a scenario's end."""
    s = table(1, scene=False)
    s.characters[P1].resolve = 1
    s = act(s, type="end_session", player=GM)
    assert s.characters[P1].resolve == 3
    s = act(s, type="end_scenario", player=GM)
    assert s.characters[P1].resolve == 5 and pending(s).kind == "add_relationship"


# --- F-9 Doom ---------------------------------------------------------------------------------
def test_F_9_doom_counts_up_and_writes_out_above_five():
    """F-9, L148: rerolls and high-stakes losses add a point of Doom; written out once Doom exceeds five."""
    s = table(1, {"doom": True})
    assert s.characters[P1].doom == 0
    s.characters[P1].doom = 5
    s = conflict(s, faces=[1, 1, 1, 1, 1], ruling={"pc_stakes": "high"})
    assert s.characters[P1].doom == 6 and pending(s).kind in ("narrate_outcome", "escape")
    assert P1 in s.escape
    d = table(1, {"doom": True})
    d = act(d, type="award_resolve", player=GM, seat=P1, reason="flaw")
    assert d.characters[P1].doom == 0  # floors at 0 (F-AMB-15)


# --- F-10 character creation -----------------------------------------------------------------------
def test_F_10_eight_descriptors_at_creation():
    """F-10, @18326 "Each character starts with 8 Descriptors": 4 Trademarks, 2 Flaws, 2 Relationships."""
    s = new_game([(GM, "gm"), (P1, "player")])
    s = act(s, type="prepare_scenario", player=GM, title="T", situation="S")
    with pytest.raises(RuleViolation) as exc:
        make_char(s, P1, trademarks=["a", "b", "c"])
    assert exc.value.rule == "F-10" and "4 Trademarks" in str(exc.value)
    with pytest.raises(RuleViolation):
        apply(s, {"type": "create_character", "player": P1, "name": "X", "concept": "Y",
                  "trademarks": ["a", "b", "c", "d"], "flaws": ["e", "f"], "goal": "g",
                  "relationships": [{"target": "M", "positive": True}, {"target": "N", "positive": True}]})
    with pytest.raises(RuleViolation):
        new_game([(GM, "gm"), ("G2", "gm"), (P1, "player")])
    refused(s, "F-10", type="create_character", player=GM, name="X", concept="Y", trademarks=["a", "b", "c", "d"],
            flaws=["e", "f"], goal="g", relationships=[{"target": "M", "positive": True},
                                                      {"target": "N", "positive": False}])
    ok = make_char(s, P1)
    assert ok.phase == "play" and ok.characters[P1].goals == ["Find the Macron Device"]


# --- F-11 Goals ----------------------------------------------------------------------------------
def test_F_11_goal_success_restores_and_failure_costs_with_a_new_descriptor():
    """F-11, L184-186: final success: max Resolve, a new Trademark, a new Goal; failure: -1, a Flaw."""
    s = table(1)
    s.characters[P1].resolve = 2
    win = act(s, type="goal_resolved", player=GM, seat=P1, goal="Find the Macron Device", success=True)
    assert win.characters[P1].resolve == 5 and pending(win).kind == "advance"
    refused(win, "F-12", type="advance", player=P1, kind="flaw", text="Haunted", new_goal="g")
    win = act(win, type="advance", player=P1, kind="trademark", text="Device expert", new_goal="Destroy it")
    assert "Device expert" in win.characters[P1].trademarks and win.characters[P1].goals == ["Destroy it"]
    lose = act(s, type="goal_resolved", player=GM, seat=P1, goal="Find the Macron Device", success=False)
    lose = act(lose, type="advance", player=P1, kind="flaw", text="Haunted", new_goal="Redeem myself")
    assert lose.characters[P1].resolve == 1 and "Haunted" in lose.characters[P1].flaws


def test_F_11_more_than_three_goals_is_warned_not_refused():
    """F-11, @42735 "it's recommended no character have more than three Goals active at once"."""
    s = table(1)
    for g in ("two", "three"):
        s = act(s, type="add_goal", player=P1, goal=g)
    s2, events = apply(s, {"type": "add_goal", "player": P1, "goal": "four"})
    assert len(s2.characters[P1].goals) == 4 and events[-1].data["warned"]


def test_F_11_milestone_success_gives_one():
    """F-11, L184: each milestone succeeded +1."""
    s = table(1)
    s.characters[P1].resolve = 3
    s = conflict(s, faces=[2, 2, 2, 2, 1], goal="Find the Macron Device", goal_step="milestone",
                 ruling={"pc_stakes": "high"})
    assert s.characters[P1].resolve == 4


# --- F-12 advancement -----------------------------------------------------------------------------
def test_F_12_new_relationship_at_scenario_end_and_options_gated():
    """F-12, @42138 "New Relationship: At the end of a scenario."; Concept and Level options off by default."""
    s = act(table(1, scene=False), type="end_scenario", player=GM)
    s = act(s, type="add_relationship", player=P1, target="Harper", positive=False)
    assert len(s.characters[P1].relationships) == 3 and s.phase == "scenario" and s.scenario == 2
    refused(table(1), "F-12", type="level_up", player=GM, seat=P1)
    w = act(table(1), type="goal_resolved", player=GM, seat=P1, goal="Find the Macron Device", success=True)
    refused(w, "F-12", type="advance", player=P1, kind="concept", abilities=["a", "b", "c"], new_goal="g")
    w2 = act(w, type="advance", player=P1, kind="remove_flaw", text="Drinks on duty", new_goal="g")
    assert w2.characters[P1].flaws == ["Keen Sense of Vengeance"]


# --- F-13 stakes ------------------------------------------------------------------------------------
def test_F_13_low_stakes_lose_no_resolve_and_stakes_are_per_side():
    """F-13, L390-405: Resolve is lost only in high stakes; a side at high stakes loses on a Yes."""
    low = conflict(table(1), faces=[1, 1, 1, 1, 1])
    assert low.characters[P1].resolve == 5
    s, oid = opposition(table(1), resolve=2)
    yes = conflict(s, faces=[2, 2, 2, 2, 1], against=oid, ruling={"pc_stakes": "high", "opposition_stakes": "high"})
    assert yes.opposition[oid].resolve == 1 and yes.characters[P1].resolve == 5
    one_side = conflict(s, faces=[2, 2, 2, 2, 1], against=oid, ruling={"pc_stakes": "high"})
    assert one_side.opposition[oid].resolve == 2


def test_F_13_a_yes_but_loses_no_resolve_even_at_high_stakes():
    """F-13, L403: Resolve is lost only on No-but, No or No-and."""
    s = conflict(table(1), faces=[2, 2, 2, 1, 1], ruling={"pc_stakes": "high"})
    assert s.characters[P1].resolve == 5


# --- F-14 opposition Resolve --------------------------------------------------------------------
def test_F_14_opposition_stays_until_below_zero_and_risky_deals_two():
    """F-14, L456-468: opposition active until Resolve below 0; risky success deals 2, needs GM agreement."""
    s, oid = opposition(table(1), resolve=0)
    s2 = conflict(s, faces=[2, 2, 2, 1, 1], against=oid, ruling={"opposition_stakes": "high"})
    assert s2.opposition[oid].defeated
    s, oid = opposition(table(1), resolve=2)
    s = act(s, type="attempt", player=P1, question="Q?", against=oid)
    refused(s, "F-14", type="rule_conflict", player=GM, risky=True)  # not asked for
    r, oid = opposition(table(1), resolve=2)
    r = conflict(r, faces=[2, 2, 2, 2, 2], against=oid, risky=True, ruling={"risky": True})
    assert r.opposition[oid].resolve == 0 and not r.opposition[oid].defeated


def test_F_14_gm_option_yes_and_deals_two_instead_of_its_and():
    """F-14 (GM option): a Yes-and deals 2 to the opposition instead of a Condition or Detail."""
    s, oid = opposition(table(1, {"yes_and_two": True}), resolve=5)
    s = conflict(s, faces=[2, 2, 2, 2, 2], against=oid, ruling={"opposition_stakes": "high"})
    assert s.opposition[oid].resolve == 3
    s = narrate(s)  # no 'and' needed
    assert s.conflict is None
    plain, oid = opposition(table(1), resolve=5)
    plain = conflict(plain, faces=[2, 2, 2, 2, 2], against=oid, ruling={"opposition_stakes": "high"})
    assert plain.opposition[oid].resolve == 4
    refused(plain, "F-5", type="narrate_outcome", player=P1, text="and more")


# --- F-15 conceding -----------------------------------------------------------------------------------
def test_F_15_concede_only_when_losing_plus_one_if_high_stakes():
    """F-15, L482-484: "If a character concedes a conflict and it is a high stakes one ... receive 1 Resolve"."""
    s = table(1)
    s.characters[P1].resolve = 3
    losing = conflict(s, faces=[1, 1, 1, 2, 2], ruling={"pc_stakes": "high"}, keep=False)
    c = act(losing, type="concede", player=P1, terms="I drop the sword and run")
    assert c.characters[P1].resolve == 4 and pending(c).seats == (GM,)
    low = conflict(s, faces=[1, 1, 1, 2, 2], keep=False)
    assert act(low, type="concede", player=P1, terms="x").characters[P1].resolve == 3
    winning = conflict(s, faces=[2, 2, 2, 2, 1], ruling={"pc_stakes": "high"}, keep=False)
    refused(winning, "F-15", type="concede", player=P1, terms="x")


# --- F-16 strength -------------------------------------------------------------------------------------
@pytest.mark.parametrize("strength,dice", [("weak", 1), ("average", 0), ("challenging", -1), ("strong", -2),
                                           ("overwhelming", -3)])
def test_F_16_opposition_strength_modifies_the_pc_pool(strength, dice):
    """F-16, L419-424: Weak +1D, Average 0, Challenging -1D, Strong -2D, Overwhelming -3D."""
    s, oid = opposition(table(1), strength=strength)
    s = act(s, type="attempt", player=P1, question="Q?", against=oid)
    s = act(s, type="rule_conflict", player=GM)
    assert s.conflict.rolls[0].net == dice


# --- F-17 PC vs PC, assisting --------------------------------------------------------------------------
def test_F_17_pc_vs_pc_one_rolls_both_may_reroll_and_helpers_add_descriptors():
    """F-17, L504-513: the other player's Descriptors count; "Both players can spend Resolve to re-roll"."""
    s = table(3)
    s = act(s, type="attempt", player=P1, question="Do I win the argument?", against=P2,
            helpers=[P3], helper_descriptors=["Fast talker"])
    s = act(s, type="rule_conflict", player=GM, mods=[{"source": "opposing_descriptor", "name": "Shrewd", "dice": -1}],
            opposition_stakes="high")
    assert s.conflict.rolls[0].net == 0 and [r.key for r in s.conflict.rolls] == [P1]
    s = act(s, type="roll_dice", faces={P1: [2, 2, 2, 1, 1]})
    s = act(s, type="keep_roll", player=P1)
    assert pending(s).seats == (P2,)
    refused(s, "F-7", type="reroll", player=P2, key=P2, indices=[0])
    s = act(s, type="reroll", player=P2, key=P1, indices=[0])
    assert s.characters[P2].resolve == 4
    s = act(s, type="roll_dice", faces={P1: [1]})
    s = act(s, type="keep_roll", player=P2)
    assert s.conflict.result == D.NO_BUT and s.characters[P2].resolve == 4


# --- F-18 scale -------------------------------------------------------------------------------------
def test_F_18_scale_shifts_results_and_stops_at_the_ends():
    """F-18, L521-525: "Yes but" against an ogre one scale up becomes "No but"."""
    assert D.scale_shift(D.YES_BUT, 0, 1) == D.NO_BUT
    assert D.scale_shift(D.NO, 0, 3) == D.NO_AND
    refused(table(1), "F-18", type="add_opposition", player=GM, name="Ogre", scale=1)


# --- F-19 conditions -----------------------------------------------------------------------------------
def test_F_19_default_tier_from_the_resolve_effect_and_minor_gone_at_scene_end():
    """F-19, L561-564: Minor at low stakes; Moderate with >1 left; Major below 2; L585 Minor gone by scene end."""
    s = table(1)
    s = narrate(conflict(s, faces=[1, 1, 1, 2, 2]), conditions=[{"target": P1, "name": "Off Balance"}])
    assert s.characters[P1].conditions[-1].tier == "minor"
    s = act(s, type="continue_scene", player=GM) if pending(s).kind == "gm_turn" else s
    h = table(1)
    h = narrate(conflict(h, faces=[1, 1, 1, 2, 2], ruling={"pc_stakes": "high"}),
                conditions=[{"target": P1, "name": "Broken Arm", "scope": "physical"}])
    assert h.characters[P1].conditions[-1].tier == "moderate"
    h.characters[P1].resolve = 2
    h = act(h, type="continue_scene", player=GM)
    h = narrate(conflict(h, faces=[1, 1, 1, 2, 2], ruling={"pc_stakes": "high"}),
                conditions=[{"target": P1, "name": "Internal Bleeding"}])
    assert h.characters[P1].conditions[-1].tier == "major"
    ended = act(s, type="end_scene", player=GM)
    assert all(c.tier != "minor" for c in ended.characters[P1].conditions)


def test_F_19_conditions_age_a_tier():
    """F-19, L598: "As a Condition ages, its magnitude shrinks by a tier"."""
    s = table(1, scene=False)
    s = act(s, type="apply_condition", player=GM, condition={"target": P1, "name": "Broken Arm", "tier": "major"})
    s = act(s, type="end_session", player=GM)
    assert s.characters[P1].conditions[0].tier == "moderate"


# --- F-20, F-21 weapons and armour -------------------------------------------------------------------------
def test_F_20_weapons_compared_in_melee_reversed_when_cramped_not_against_cover():
    """F-20, L254 and @31617: the higher rating gets +1 die; cramped reverses; no die against cover."""
    assert weapon_die(4, 2, "melee") == 1 and weapon_die(4, 2, "melee", cramped=True) == -1
    assert weapon_die(4, 2, "one_sided") == 0 and weapon_die(4, 2, "one_sided", sprays=True) == 1
    refused(table(1), "F-20", type="add_opposition", player=GM, name="Guard", weapon_rating=4)


def test_F_21_superior_armour_and_soak():
    """F-21, L282-286: armour above the weapon faced gives +1 die; soak replaces a Resolve loss."""
    assert armour_die(6, 4, 0, 4) == 1 and armour_die(4, 4, 0, 4) == 0 and armour_die(6, 2, 6, 2) == 0
    s = table(1, {"weapons_armour": True}, scene=False)
    s.characters[P1].armour.kind, s.characters[P1].armour.soak_left = "light", 1
    s = act(s, type="frame_scene", player=GM, place="the alley")
    s, oid = opposition(s, name="Thug", weapon_rating=4)
    s = conflict(s, faces=[1, 1, 1, 1, 1, 1], against=oid, ruling={"pc_stakes": "high", "combat": True})
    assert s.conflict.rolls[0].net == -1  # the thug's battle arm outranks an unarmed PC
    assert s.characters[P1].resolve == 5 and s.characters[P1].armour.broken


# --- F-22 invested gear ----------------------------------------------------------------------------------
def test_F_22_investing_trademarks_and_refund_on_loss():
    """F-22, L316-351: 1 Trademark gives a Concept, 2 Trademarks, 1 Flaw and 2 Resolve; refunded if lost."""
    s = table(1)
    refused(s, "F-22", type="invest_asset", player=P1, name="Jan", concept="Surly bodyguard",
            invest=["Crack shot"], trademarks=["Big"], flaws=["Dim"])
    s = act(s, type="invest_asset", player=P1, name="Jan", concept="Surly bodyguard", invest=["Crack shot"],
            trademarks=["Big", "Loyal"], flaws=["Dim"])
    assert "Crack shot" not in s.characters[P1].trademarks and s.characters[P1].assets[0].resolve == 2
    s2 = act(s, type="lose_asset", player=GM, seat=P1, name="Jan", permanent=True)
    assert "Crack shot" in s2.characters[P1].trademarks
    s.characters[P1].resolve = 3
    assert act(s, type="lose_asset", player=GM, seat=P1, name="Jan").characters[P1].resolve == 4


# --- F-23 powers ---------------------------------------------------------------------------------------------
def test_F_23_super_descriptor_gives_two_dice_and_broad_power_costs_cap():
    """F-23, L215-226: one 'super' Descriptor per character gives 2D; a broad power may reduce Resolve to a
    maximum of four (@26827)."""
    s = new_game([(GM, "gm"), (P1, "player")], {"super_descriptors": True, "broad_power_cost": True})
    s = act(s, type="prepare_scenario", player=GM, title="T", situation="S")
    refused(s, "F-23", type="create_character", player=P1, name="X", concept="Y", super_descriptor="Flying",
            trademarks=["a", "b", "c", "d"], flaws=["e", "f"], goal="g",
            relationships=[{"target": "M", "positive": True}, {"target": "N", "positive": False}])
    s = make_char(s, P1, super_descriptor="Crack shot", broad_power=True)
    assert s.characters[P1].cap == 4 and s.characters[P1].resolve == 4
    s = act(s, type="frame_scene", player=GM, place="x")
    s = act(s, type="attempt", player=P1, question="Q?", descriptors=["Crack shot", "Fast talker"])
    assert act(s, type="rule_conflict", player=GM).conflict.rolls[0].net == 3
    fresh = act(new_game([(GM, "gm"), (P1, "player")]), type="prepare_scenario", player=GM, title="T", situation="S")
    refused(fresh, "F-23", type="create_character", player=P1, name="X", concept="Y", super_descriptor="a",
            trademarks=["a", "b", "c", "d"], flaws=["e", "f"], goal="g",
            relationships=[{"target": "M", "positive": True}, {"target": "N", "positive": False}])


def test_F_23_unreliable_power_stops_after_overuse_and_magic_points_run_out():
    """F-23, L223-226: used more than once a scene it stops on any No; magic points: 3 a power, then Resolve;
    recharged by ritual or time."""
    s = new_game([(GM, "gm"), (P1, "player")], {"unreliable_powers": True, "magic_points": True})
    s = act(s, type="prepare_scenario", player=GM, title="T", situation="S")
    s = act(make_char(s, P1, powers=["Alchemist"]), type="frame_scene", player=GM, place="x")
    assert s.characters[P1].magic_pool == 3
    s = narrate(conflict(s, faces=[2, 2, 2, 2, 1], power="Alchemist"))
    s = act(s, type="continue_scene", player=GM)
    s = conflict(s, faces=[2, 1, 1, 1, 1], power="Alchemist")  # a plain No, but the second use this scene
    assert "Alchemist" in s.characters[P1].disabled_powers and s.characters[P1].magic_pool == 1
    s = narrate(s)
    s = act(s, type="continue_scene", player=GM)
    refused(s, "F-23", type="attempt", player=P1, question="Q?", power="Alchemist")
    s = act(s, type="recharge_powers", player=GM, seat=P1, text="a night in the laboratory")
    assert s.characters[P1].magic_pool == 3 and not s.characters[P1].disabled_powers


def test_F_23_unreliable_power_is_disabled_by_a_no_and():
    """F-23: "Unreliable powers: a No-and disables the power"."""
    s = new_game([(GM, "gm"), (P1, "player")], {"unreliable_powers": True})
    s = act(s, type="prepare_scenario", player=GM, title="T", situation="S")
    s = act(make_char(s, P1, powers=["Crack shot"]), type="frame_scene", player=GM, place="x")
    s = conflict(s, faces=[1, 1, 1, 1, 1], power="Crack shot")
    assert "Crack shot" in s.characters[P1].disabled_powers


# --- F-24 Buckets of Dice -------------------------------------------------------------------------------------
def test_F_24_buckets_of_dice():
    """F-24, L606-636: 3d10 each; ties discarded; successes above the loser's highest."""
    assert D.buckets_result([9, 7, 6, 5], [9, 5, 2]) == (D.YES, 2)
    assert D.buckets_result([3, 3], [3, 3]) == (None, 0)
    assert D.buckets_result([2, 1, 1], [9, 8, 7])[0] == D.NO_AND
    s = table(1, {"buckets": True})
    s = act(s, type="attempt", player=P1, question="Q?", descriptors=["Crack shot"])
    s = act(s, type="rule_conflict", player=GM, mods=[{"source": "circumstance", "name": "dark", "dice": -1}])
    assert [(d.key, d.count, d.sides) for d in pending(s).dice] == [(P1, 4, 10), (P1 + ":gm", 4, 10)]
    s = act(s, type="roll_dice", faces={P1: [9, 7, 6, 5], P1 + ":gm": [9, 5, 2, 1]})
    assert s.conflict.rolls[0].result == D.YES


# --- F-25 multiple participants -------------------------------------------------------------------------------
def test_F_25_aligned_actors_each_roll_with_a_bonus_and_the_best_narrates():
    """F-25, L640-654: aligned actors +1 die each; the best result sets the answer and narrates."""
    s = table(2)
    s = act(s, type="attempt", player=P1, question="Do we get past the ogre?", aligned=[P2])
    s = act(s, type="rule_conflict", player=GM, pc_stakes="high")
    assert [(d.key, d.count) for d in pending(s).dice] == [(P1, 6), (P2, 6)]
    s = act(s, type="roll_dice", faces={P1: [2, 2, 2, 1, 1, 1], P2: [1, 1, 1, 1, 1, 2]})
    s = act(s, type="keep_roll", player=P1)
    s = act(s, type="keep_roll", player=P2)
    assert s.conflict.result == D.YES_BUT and pending(s).seats == (P1,)
    assert s.characters[P2].resolve == 4 and s.characters[P1].resolve == 5  # each takes his own


# --- F-26 Resolve alternatives -------------------------------------------------------------------------------
def test_F_26_split_life_and_fu():
    """F-26, L670-693: Life 3 lost on high stakes; FU 2 spent on rerolls; FU below 2 resets each session."""
    s = table(1, {"resolve_variant": "split"})
    ch = s.characters[P1]
    assert (ch.resolve, ch.cap, ch.fu) == (3, 3, 2)
    s = conflict(s, faces=[1, 1, 1, 2, 2], ruling={"pc_stakes": "high"}, keep=False)
    s = act(s, type="reroll", player=P1, key=P1, indices=[0])
    s = act(s, type="roll_dice", faces={P1: [1]})
    s = act(s, type="keep_roll", player=P1)
    assert (s.characters[P1].resolve, s.characters[P1].fu) == (2, 1)


def test_F_26_replace_consequences_count_per_type():
    """F-26, L697-712: Replace: FU 2; a high-stakes loss is a Consequence, Minor then Moderate then Major
    of a type; the fourth of a type takes the character out unless a Trademark is traded."""
    s = table(1, {"resolve_variant": "replace"})
    assert s.characters[P1].fu == 2
    for n in range(4):
        s = conflict(s, faces=[1, 1, 1, 2, 2], ruling={"pc_stakes": "high"})
        if n == 0:
            msg = ""
            try:
                apply(s, {"type": "narrate_outcome", "player": GM, "text": "hurt", "details": ["blood"]})
            except RuleViolation as exc:
                msg = str(exc)
            assert "Consequence" in msg
        s = narrate(s, conditions=[{"target": P1, "name": f"Wound {n}", "scope": "physical"}])
        if n < 3:
            assert [c.tier for c in s.characters[P1].consequences] == ["minor", "moderate", "major"][:n + 1]
            s = act(s, type="continue_scene", player=GM)
    assert s.characters[P1].fu == 2 and pending(s).kind == "escape"


def test_F_26_replace_slots_and_low_stakes_conditions_are_no_consequence():
    """F-26, L714: slots 2 Minor, 1 Moderate, 1 Major, filled tiers escalate; only high-stakes losses fill them."""
    s = table(1, {"resolve_variant": "replace_slots"})
    s = narrate(conflict(s, faces=[1, 1, 1, 2, 2]), conditions=[{"target": P1, "name": "Bloodied"}])
    assert s.characters[P1].consequences == [] and s.characters[P1].conditions[-1].name == "Bloodied"
    for n, want in enumerate(["major", "major"]):
        s = act(s, type="continue_scene", player=GM)
        s = narrate(conflict(s, faces=[1, 1, 1, 2, 2], ruling={"pc_stakes": "high"}),
                    conditions=[{"target": P1, "name": f"Shot {n}", "tier": "major"}])
    assert [c.tier for c in s.characters[P1].consequences] == ["major", "major"] and pending(s).kind == "escape"


# --- details added after the first pass -------------------------------------------------------------
def test_F_12_descriptors_renamed_at_session_end_keep_their_type():
    """F-12, L378: "rename an existing Descriptor at the end of each session, although Flaws must remain Flaws"."""
    s = table(1, scene=False)
    s2 = act(s, type="rename_descriptor", player=P1, kind="flaw", old="Drinks on duty", new="Drinks alone")
    assert "Drinks alone" in s2.characters[P1].flaws and len(s2.characters[P1].trademarks) == 4
    refused(s, "F-12", type="rename_descriptor", player=P1, kind="trademark", old="Drinks on duty", new="x")
    s3 = act(s, type="rename_descriptor", player=P1, kind="relationship", old="Blofeld", new="Blofeld's heir",
             positive=True)
    assert s3.characters[P1].relationships[1].positive
    refused(table(1), "F-12", type="rename_descriptor", player=P1, kind="flaw", old="Drinks on duty", new="x")


def test_F_12_level_bump_against_lesser_foes():
    """F-12, L382: levels and "the optional scale rules to give advanced characters a free positive bump"."""
    s = table(1, {"level_option": True, "scale": True})
    s = act(s, type="level_up", player=GM, seat=P1)
    s, o = opposition(s, name="Goblin", strength="weak")
    s = conflict(s, faces=[2, 2, 1, 1, 1, 1], against=o, ruling={"level_bump": True})
    assert s.conflict.result == D.YES_BUT
    refused(act(table(1), type="attempt", player=P1, question="Q?"), "F-12", type="rule_conflict", player=GM,
            level_bump=True)


def test_F_18_a_character_may_have_a_scale_with_the_option():
    """F-18, L521: scale belongs to both parties; the larger shifts the result."""
    s = new_game([(GM, "gm"), (P1, "player")], {"scale": True})
    s = act(s, type="prepare_scenario", player=GM, title="T", situation="S")
    s = act(make_char(s, P1, scale=1), type="frame_scene", player=GM, place="x")
    s, o = opposition(s, name="Trooper")
    s = conflict(s, faces=[2, 2, 1, 1, 1], against=o)
    assert s.conflict.result == D.YES_BUT


def test_F_20_range_disadvantage_and_automatic_fire_change_ratings():
    """F-20, L259-260: range disadvantage -2 rating; an emptied automatic magazine +1."""
    s = table(1, {"weapons_armour": True}, scene=False)
    s.characters[P1].weapon_rating = 4
    s = act(s, type="frame_scene", player=GM, place="the moor")
    s, o = opposition(s, name="Sniper", weapon_rating=4)
    s = act(s, type="attempt", player=P1, question="Do I hit him?", against=o)
    even = act(s, type="rule_conflict", player=GM, combat=True, exchange="mutual_ranged")
    assert even.conflict.rolls[0].net == 0
    far = act(s, type="rule_conflict", player=GM, combat=True, exchange="mutual_ranged", pc_range_disadvantage=True)
    assert far.conflict.rolls[0].net == -1
    auto = act(s, type="rule_conflict", player=GM, combat=True, exchange="mutual_ranged", pc_auto_fire=True)
    assert auto.conflict.rolls[0].net == 1
    refused(s, "F-20", type="rule_conflict", player=GM, pc_auto_fire=True)


def test_F_21_partial_armour_and_soak_lowers_the_condition():
    """F-21, L268-308: partial armour rates 2 lower; soak may also lower the inflicted Condition a tier."""
    from engine.fubar.rules import soak_of
    assert soak_of("heavy", False) == 3 and soak_of("heavy", True) == 2 and soak_of("light", True) == 0
    s = new_game([(GM, "gm"), (P1, "player")], {"weapons_armour": True})
    s = act(s, type="prepare_scenario", player=GM, title="T", situation="S")
    s = act(make_char(s, P1, armour="medium", partial_armour=True), type="frame_scene", player=GM, place="x")
    assert s.characters[P1].armour.rating() == 2 and s.characters[P1].armour.soak_left == 1
    s, o = opposition(s, name="Brute")
    s = conflict(s, faces=[1, 1, 1, 1, 2, 2], against=o, ruling={"combat": True, "pc_stakes": "high"})
    assert s.conflict.rolls[0].net == 1  # armour 2 above an unarmed brute's 0: the superior armour die
    assert s.characters[P1].resolve == 5 and s.characters[P1].armour.broken
    s = narrate(s, conditions=[{"target": P1, "name": "Bruised"}])
    assert s.characters[P1].conditions[-1].tier == "minor"


def test_F_7_an_extremely_powerful_power_costs_one():
    """F-7, L100 and L128: "Some rare, powerful uses of these abilities might require spending Resolve"."""
    s = new_game([(GM, "gm"), (P1, "player")], {"super_descriptors": True})
    s = act(s, type="prepare_scenario", player=GM, title="T", situation="S")
    s = act(make_char(s, P1, powers=["Alchemist"]), type="frame_scene", player=GM, place="x")
    s2 = act(s, type="attempt", player=P1, question="Do I summon it?", power="Alchemist", power_cost=True)
    assert s2.characters[P1].resolve == 4
    refused(s, "F-7", type="attempt", player=P1, question="Q?", power_cost=True)


def test_F_25_participants_with_different_outcomes_the_ogre():
    """F-25, L642-646: Kaled asks to keep the ogre in, Vernox to steal its potion; high stakes for them only.
    Kaled No-but, Vernox Yes-and: Vernox narrates, Kaled loses 1, the ogre nothing; no aligned bonus."""
    s, ogre = opposition(table(2), name="Ogre", resolve=2)
    s = act(s, type="attempt", player=P1, question="Do I keep it from escaping?", against=ogre,
            others=[{"seat": P2, "question": "Do I steal the potion from its belt?", "descriptors": ["Fast talker"]}])
    s = act(s, type="rule_conflict", player=GM, pc_stakes="high")
    assert [(r.key, r.net) for r in s.conflict.rolls] == [(P1, 0), (P2, 1)]
    s = act(s, type="roll_dice", faces={P1: [2, 2, 1, 1, 1], P2: [2, 2, 2, 2, 2, 1]})
    s = act(act(s, type="keep_roll", player=P1), type="keep_roll", player=P2)
    assert pending(s).seats == (P2,) and s.characters[P1].resolve == 4 and s.opposition[ogre].resolve == 2
    s = act(s, type="narrate_outcome", player=P2, text="Vernox plucks the potion while Kaled is swatted aside",
            conditions=[{"target": ogre, "name": "Broken hand"}])
    assert [(a.actor, D.ladder_name(a.result)) for a in s.answers] == [(P1, "No, but"), (P2, "Yes, and")]


def test_F_22_permanent_loss_also_gives_the_complications_point():
    """F-22 with F-8, L327: deprivation "normally constitutes a complication worthy of regaining a Resolve
    point. If the deprivation is permanent ... the character is also returned the number of Descriptors"."""
    s = table(1)
    s = act(s, type="invest_asset", player=P1, name="The Hairy Dwarf", concept="Smuggler's Sloop",
            invest=["Crack shot"], trademarks=["False-bottomed hold", "Hidden deck guns"],
            flaws=["Known to the King's Authorities"])
    s.characters[P1].resolve = 3
    s = act(s, type="lose_asset", player=GM, seat=P1, name="The Hairy Dwarf", permanent=True)
    assert s.characters[P1].resolve == 4 and "Crack shot" in s.characters[P1].trademarks
    g = act(table(1), type="invest_asset", player=P1, name="The Caliburn", concept="Pursuit-Class Starship",
            trademarks=["Speed", "False transponder", "Armoury", "Takes a beating"], flaws=["Outmoded", "Poorly kept"])
    g.characters[P1].resolve = 3
    assert act(g, type="lose_asset", player=GM, seat=P1, name="The Caliburn").characters[P1].resolve == 3


def test_F_26_split_and_replace_gains_come_from_the_books_lists():
    """F-26, L676-708: Split: downtime and conceding give Life; Replace: downtime gives no FU, conceding does."""
    sp = table(1, {"resolve_variant": "split"}, downtime=True)
    sp.characters[P1].resolve = 1
    sp = act(sp, type="downtime", player=P1)
    assert (sp.characters[P1].resolve, sp.characters[P1].fu) == (2, 2)
    rp = table(1, {"resolve_variant": "replace"}, downtime=True)
    assert act(rp, type="downtime", player=P1).characters[P1].fu == 2
    rp = conflict(rp, faces=[1, 1, 1, 2, 2], ruling={"pc_stakes": "high"}, keep=False)
    assert act(rp, type="concede", player=P1, terms="I yield").characters[P1].fu == 3


def test_F_6_below_zero_nothing_but_the_trade_brings_him_back():
    """F-6, L140-144: below 0 the character is out unless the Trademark is traded; a concession's +1 in the
    same conflict does not lift him (found by the property tests)."""
    s = table(1, {"spend_at_zero": True})
    s.characters[P1].resolve = 0
    s = conflict(s, faces=[1, 1, 1, 2, 2], ruling={"pc_stakes": "high"}, keep=False)
    s = act(s, type="reroll", player=P1, key=P1, indices=[0])
    s = act(s, type="roll_dice", faces={P1: [1]})
    assert s.characters[P1].resolve == -1 and P1 in s.escape
    s = act(s, type="concede", player=P1, terms="I yield")
    assert s.characters[P1].resolve == -1
    s = narrate(s)
    assert pending(s).kind == "escape"


def test_F_3_the_engine_ladder_matches_the_exact_odds_over_every_parity_pattern():
    """F-3, L74-78: counting every odd/even pattern of 5+|k| dice through redux_result gives the exact odds."""
    from itertools import product
    for k in range(-3, 4):
        n = D.pool_size(k)
        counts = [0] * 6
        for pattern in product((1, 2), repeat=n):
            counts[D.redux_result(list(pattern), k)] += 1
        assert [Fraction(c, 2 ** n) for c in counts] == D.result_odds(k)
        assert Fraction(sum(counts[3:]), 2 ** n) == D.success_odds(k)

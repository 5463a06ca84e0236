"""The test cases of shared/rules/fubar.md section 5 (F-EX-<n>), played with fixed dice, each with
the book's line; and the digest's readings of section 6 (F-AMB-<n>)."""
from __future__ import annotations

import pytest

from engine.core.errors import RuleViolation
from engine.fubar import apply, new_game, pending
from engine.fubar import dice as D
from engine.fubar.gear import armour_die, soak, weapon_die
from engine.fubar.state import Armour
from tests.fubar_helpers import GM, P1, P2, act, conflict, make_char, narrate, opposition, table


def refused(s, rule: str, **kw) -> None:
    with pytest.raises(RuleViolation) as exc:
        apply(s, kw)
    assert exc.value.rule == rule, str(exc.value)


def test_F_EX_1_harper():
    """F-EX-1, L41-43: +1D, dice 1 2 3 4 4 6; "he discards the '3' leaving a total of four even dice for a 'Yes'"."""
    s = conflict(table(1), faces=[1, 2, 3, 4, 4, 6], descriptors=["Shrewd judge of character"])
    assert s.conflict.result == D.YES
    kept = D.kept_dice([1, 2, 3, 4, 4, 6], 1)
    assert 2 not in kept and D.evens([[1, 2, 3, 4, 4, 6][i] for i in kept]) == 4  # the '3' is discarded


def test_F_EX_2_cancellation():
    """F-EX-2, L45: two positive Descriptors and one negative Condition: "The player rolls six dice"."""
    s = act(table(1), type="attempt", player=P1, question="Q?", descriptors=["Crack shot", "Fast talker"])
    s = act(s, type="rule_conflict", player=GM, mods=[{"source": "condition", "name": "Stunned", "dice": -1}])
    assert pending(s).dice[0].count == 6


def test_F_EX_3_penalty():
    """F-EX-3: net -2, dice 2 4 6 6 1 3 5: four evens less two: No, but."""
    s = act(table(1), type="attempt", player=P1, question="Q?")
    s = act(s, type="rule_conflict", player=GM, strength="strong")
    s = act(s, type="roll_dice", faces={P1: [2, 4, 6, 6, 1, 3, 5]})
    assert s.conflict.rolls[0].result == D.NO_BUT


def test_F_EX_4_temple():
    """F-EX-4, L470-478: temple Resolve 2, high stakes, no combat; a Yes brings it to 1; a risky Yes-but
    to -1, defeated; the 'but' applies and Drayt's Resolve is unchanged."""
    s, t = opposition(table(1), name="The temple", kind="obstacle", resolve=2)
    s = conflict(s, faces=[2, 2, 2, 2, 1], against=t, ruling={"pc_stakes": "high", "opposition_stakes": "high"})
    assert s.opposition[t].resolve == 1
    s = narrate(s)
    s = act(s, type="continue_scene", player=GM)
    s = conflict(s, faces=[2, 2, 2, 1, 1], against=t, risky=True, ruling={"risky": True})
    assert s.opposition[t].resolve == -1 and s.opposition[t].defeated
    assert s.characters[P1].resolve == 5
    refused(s, "F-5", type="narrate_outcome", player=P1, text="in")
    s = narrate(s, details=["the entrance is blocked"])
    assert s.details[-1].text == "the entrance is blocked"


def test_F_EX_5_ogre_scale():
    """F-EX-5, L525: with scale, a Yes-but against an ogre one scale up is a No-but; high stakes: -1."""
    s = table(1, {"scale": True})
    s, ogre = opposition(s, name="Ogre", scale=1)
    s = conflict(s, faces=[2, 2, 2, 1, 1], against=ogre, ruling={"pc_stakes": "high"})
    assert s.conflict.result == D.NO_BUT and s.characters[P1].resolve == 4


def test_F_EX_6_losing_streak():
    """F-EX-6, L559-564 and L140-144: Resolve 3 -> 2 Moderate -> 1 Major -> 0 Major -> -1 out or trade."""
    s = table(1)
    s.characters[P1].resolve = 3
    tiers = []
    for expected in (2, 1, 0):
        s = conflict(s, faces=[1, 1, 1, 1, 2], ruling={"pc_stakes": "high"})
        s = narrate(s, conditions=[{"target": P1, "name": f"Hurt {expected}"}])
        tiers.append(s.characters[P1].conditions[-1].tier)
        assert s.characters[P1].resolve == expected
        s = act(s, type="continue_scene", player=GM)
    assert tiers == ["moderate", "major", "major"]
    assert pending(s).kind == "turn"  # at 0: vulnerable, still in play, no trade (F-AMB-13)
    s = narrate(conflict(s, faces=[1, 1, 1, 1, 2], ruling={"pc_stakes": "high"}), details=["cornered"])
    assert s.characters[P1].resolve == -1 and pending(s).kind == "escape"
    traded = act(s, type="escape_trade", player=P1, trademark="Fast talker", flaw="Haunted by Vienna")
    assert traded.characters[P1].resolve == 5


def test_F_EX_7_brutus():
    """F-EX-7, L486-488: losing a high-stakes duel at Resolve 4, Brutus concedes -> 5; low stakes -> no
    change; a character who is not losing cannot concede."""
    s = table(1)
    s.characters[P1].resolve = 4
    s = conflict(s, faces=[1, 1, 1, 2, 2], ruling={"pc_stakes": "high"}, keep=False)
    assert act(s, type="concede", player=P1, terms="flings down his sword and runs").characters[P1].resolve == 5
    low = table(1)
    low.characters[P1].resolve = 4
    low = conflict(low, faces=[1, 1, 1, 2, 2], keep=False)
    assert act(low, type="concede", player=P1, terms="runs").characters[P1].resolve == 4
    win = conflict(table(1), faces=[2, 2, 2, 2, 2], ruling={"pc_stakes": "high"}, keep=False)
    refused(win, "F-15", type="concede", player=P1, terms="x")


def test_F_EX_8_cap_and_cliffhanger():
    """F-EX-8, L136: Resolve 4 at session start -> 5, not 6; after a cliffhanger, no gain until that scene ends."""
    s = table(1, scene=False)
    s.characters[P1].resolve = 4
    assert act(s, type="end_session", player=GM).characters[P1].resolve == 5
    c = table(1)
    c.characters[P1].resolve = 2
    c = act(c, type="end_session", player=GM, cliffhanger=True)
    assert c.characters[P1].resolve == 2 and c.scene() is not None
    c = act(c, type="pass_turn", player=P1)
    c = act(c, type="end_scene", player=GM)
    assert c.characters[P1].resolve == 4


def test_F_EX_9_buckets_harper():
    """F-EX-9, L612-636: player 9 7 6 5 vs GM 9 5 2: the 9s tie; 7 and 6 beat 5: two successes, Yes."""
    assert D.buckets_result([9, 7, 6, 5], [9, 5, 2]) == (D.YES, 2)


def test_F_EX_10_arms_and_armour():
    """F-EX-10, L254-308: battle arm 4 vs sidearm 2 +1, reversed in a tunnel; rifle vs a runner no die;
    heavy armour 6 vs battle arm +1; medium 4 vs 4 none; medium soaks twice then rates 0."""
    assert weapon_die(4, 2, "melee") == 1 and weapon_die(4, 2, "melee", cramped=True) == -1
    assert weapon_die(4, 2, "one_sided") == 0
    assert armour_die(6, 4, 0, 0) == 1 and armour_die(4, 4, 0, 0) == 0
    med = Armour(kind="medium", soak_left=2)
    assert soak(med, 1) and med.rating() == 4 and soak(med, 1) and med.rating() == 0 and not soak(med, 1)


def test_F_EX_11_aligned_participants():
    """F-EX-11, L650-652: Kaled Yes-but, Vernox Yes: the answer is Yes, Vernox narrates; Kaled takes
    'Seeing Stars'; nobody loses Resolve."""
    s = table(2)
    s = act(s, type="attempt", player=P1, question="Do we drive off the ogre?", aligned=[P2])
    s = act(s, type="rule_conflict", player=GM, pc_stakes="high")
    s = act(s, type="roll_dice", faces={P1: [2, 2, 2, 1, 1, 1], P2: [2, 2, 2, 2, 1, 1]})
    s = act(s, type="keep_roll", player=P1)
    s = act(s, type="keep_roll", player=P2)
    assert s.conflict.result == D.YES and pending(s).seats == (P2,)
    s = act(s, type="narrate_outcome", player=P2, text="The ogre flees",
            conditions=[{"target": P1, "name": "Seeing Stars"}])
    assert s.characters[P1].conditions[-1].name == "Seeing Stars"
    assert s.characters[P1].resolve == 5 and s.characters[P2].resolve == 5


def test_F_EX_12_goal():
    """F-EX-12, L118: Resolve 1, the final Goal conflict won -> 5, +1 Trademark, a new Goal."""
    s = table(1)
    s.characters[P1].resolve = 1
    s = conflict(s, faces=[2, 2, 2, 2, 1], goal="Find the Macron Device", goal_step="final",
                 ruling={"pc_stakes": "high"})
    assert s.characters[P1].resolve == 5
    s = narrate(s)
    s = act(s, type="advance", player=P1, kind="trademark", text="Device hunter", new_goal="Bring it home")
    assert len(s.characters[P1].trademarks) == 5 and s.characters[P1].goals == ["Bring it home"]


def test_F_EX_13_opponents_flaw_helps():
    """F-EX-13, @47202: the swordsman's Flaw 'Drinks on Duty' and his 'Off Balance' are bonus dice:
    net +2, roll 7, keep the best 5."""
    s, sw = opposition(table(1), name="Swordsman", flaws=["Drinks on Duty"])
    s = act(s, type="apply_condition", player=GM, condition={"target": sw, "name": "Off Balance"})
    s = act(s, type="attempt", player=P1, question="Do I beat him?", against=sw, use_concept=True)
    s = act(s, type="rule_conflict", player=GM, concept_applies=False,
            mods=[{"source": "opposing_descriptor", "name": "Drinks on Duty", "dice": 1},
                  {"source": "opposing_condition", "name": "Off Balance", "dice": 1}])
    assert pending(s).dice[0].count == 7


def test_F_EX_14_obstacle_resolve_and_one_sided_stakes():
    """F-EX-14, @52401 and @71859: the mountain (Resolve 1) falls after two Yeses; the ogre, high stakes
    for the PCs only, loses nothing on a Yes while a No costs the PC 1."""
    s, m = opposition(table(1), name="Treacherous mountain", kind="obstacle", resolve=1)
    both = {"pc_stakes": "high", "opposition_stakes": "high"}
    s = narrate(conflict(s, faces=[2, 2, 2, 2, 1], against=m, ruling=both))
    assert s.opposition[m].resolve == 0 and not s.opposition[m].defeated
    s = act(s, type="continue_scene", player=GM)
    s = narrate(conflict(s, faces=[2, 2, 2, 2, 1], against=m, ruling=both))
    assert s.opposition[m].defeated
    o, ogre = opposition(table(1), name="Ogre", resolve=2)
    yes = conflict(o, faces=[2, 2, 2, 2, 1], against=ogre, ruling={"pc_stakes": "high"})
    no = conflict(o, faces=[2, 1, 1, 1, 1], against=ogre, ruling={"pc_stakes": "high"})
    assert yes.opposition[ogre].resolve == 2 and no.characters[P1].resolve == 4


def test_F_EX_15_stakes_moved_by_gear():
    """F-EX-15, @29410: plate armour makes a sword attack low stakes: a No costs nothing, Minor Condition."""
    s = narrate(conflict(table(1), faces=[1, 1, 1, 2, 1], ruling={"pc_stakes": "low"}),
                conditions=[{"target": P1, "name": "Dented helm"}])
    assert s.characters[P1].resolve == 5 and s.characters[P1].conditions[-1].tier == "minor"


def test_F_EX_16_supporting_character():
    """F-EX-16, @38930: Jan Stanislaus ('Surly bodyguard') aiding a brawl spares the Unfamiliarity die;
    absent, the -1D stays; a helper must be aiding for that."""
    s = table(1)
    s = act(s, type="invest_asset", player=P1, name="Jan Stanislaus", concept="Surly bodyguard",
            invest=["Crack shot"], trademarks=["Big fists", "Loyal"], flaws=["Slow"])
    unf = [{"source": "unfamiliar", "name": "brawling", "dice": -1}]
    aided = act(s, type="attempt", player=P1, question="Do I win the brawl?", asset="Jan Stanislaus")
    assert act(aided, type="rule_conflict", player=GM, mods=unf, asset_covers=True).conflict.rolls[0].net == 0
    alone = act(s, type="attempt", player=P1, question="Do I win the brawl?")
    assert act(alone, type="rule_conflict", player=GM, mods=unf).conflict.rolls[0].net == -1
    refused(alone, "F-22", type="rule_conflict", player=GM, mods=unf, asset_covers=True)
    lock = act(s, type="attempt", player=P1, question="Do I pick the lock?", asset="Jan Stanislaus")
    assert act(lock, type="rule_conflict", player=GM, mods=unf).conflict.rolls[0].net == -1


def test_F_EX_17_armour_piercing():
    """F-EX-17, @37710: a Yes-and against a villain in medium armour (soak 2): he spends 2 soak to avoid
    losing 1 Resolve, and there is no 'and' Condition."""
    s = table(1, {"weapons_armour": True, "armour_piercing": True})
    s, v = opposition(s, name="Villain", resolve=3, armour="medium")
    s = act(s, type="attempt", player=P1, question="Do I run him through?", against=v)
    s = act(s, type="rule_conflict", player=GM, combat=True, opposition_stakes="high")
    n = pending(s).dice[0].count
    s = act(s, type="roll_dice", faces={P1: [2] * n})
    s = act(s, type="keep_roll", player=P1)
    assert s.opposition[v].resolve == 3 and s.opposition[v].armour.soak_left == 0
    s = narrate(s, text="Steel bites through the mail")
    assert s.characters[P1].conditions == [] and s.opposition[v].conditions == []


def test_F_EX_18_facts():
    """F-EX-18, @11910 and @11955: the antidote in a pocket is refused at no cost; with 'Alchemist', -1."""
    s = act(table(1), type="narrate_fact", player=P1, text="I have the antidote in my pocket")
    assert act(s, type="judge_fact", player=GM, believable=False).characters[P1].resolve == 5
    s = act(table(1), type="narrate_fact", player=P1, text="I brewed the antidote last night", descriptor="Alchemist")
    assert act(s, type="judge_fact", player=GM, believable=True).characters[P1].resolve == 4


def test_F_EX_19_a_changing_sheet():
    """F-EX-19, @43065, @43447, @15469: Concept option 5 -> 8 abilities; a 4th Goal; level cap 6; the
    Escape trade turns 4 Trademarks / 2 Flaws into 3 / 3."""
    s = new_game([(GM, "gm"), (P1, "player")], {"concept_option": True, "level_option": True})
    s = act(s, type="prepare_scenario", player=GM, title="T", situation="S")
    s = make_char(s, P1, concept_abilities=["guns", "codes", "languages", "disguise", "driving"])
    s = act(s, type="goal_resolved", player=GM, seat=P1, goal="Find the Macron Device", success=True)
    s = act(s, type="advance", player=P1, kind="concept", abilities=["poisons", "locks", "forgery"], new_goal="a")
    ch = s.characters[P1]
    assert len(ch.concept_abilities) == 8 and len(ch.trademarks) == 4
    for g in ("b", "c", "d"):
        s = act(s, type="add_goal", player=P1, goal=g)
    assert len(s.characters[P1].goals) == 4
    s = act(s, type="level_up", player=GM, seat=P1)
    s.characters[P1].resolve = 4
    assert act(s, type="end_session", player=GM).characters[P1].resolve == 6
    s = act(s, type="frame_scene", player=GM, place="x")
    s.characters[P1].resolve = 0
    s = narrate(conflict(s, faces=[1, 1, 1, 1, 1], ruling={"pc_stakes": "high"}), details=["d"])
    s = act(s, type="escape_trade", player=P1, trademark="Crack shot", flaw="Scarred")
    assert (len(s.characters[P1].trademarks), len(s.characters[P1].flaws), s.characters[P1].resolve) == (3, 3, 6)


def test_F_EX_20_failed_milestone():
    """F-EX-20, @20618 and @9080 (F-AMB-3): Resolve 3, a lost high-stakes milestone -> 2, Moderate;
    with the stacking table option -> 1."""
    for opts, want in (({}, 2), ({"milestone_stacking": True}, 1)):
        s = table(1, opts)
        s.characters[P1].resolve = 3
        s = conflict(s, faces=[1, 1, 1, 2, 1], goal="Find the Macron Device", goal_step="milestone",
                     ruling={"pc_stakes": "high"})
        assert s.characters[P1].resolve == want
        s = narrate(s, conditions=[{"target": P1, "name": "Lost the trail"}])
        assert s.characters[P1].conditions[-1].tier == ("moderate" if want == 2 else "major")


# --- section 6 readings ----------------------------------------------------------------------------
def test_F_AMB_1_the_die_is_a_d6():
    """F-AMB-1: the book never names the die; FU's d6."""
    s = act(table(1), type="attempt", player=P1, question="Q?")
    s = act(s, type="rule_conflict", player=GM)
    assert pending(s).dice[0].sides == 6


def test_F_AMB_2_voluntary_spending_needs_one_unless_the_table_allows_zero():
    """F-AMB-2, @6795 and L88: at 0 no rerolls or facts; the table option lets them take you below 0."""
    s = table(1)
    s.characters[P1].resolve = 0
    refused(s, "F-7", type="narrate_fact", player=P1, text="x")
    z = table(1, {"spend_at_zero": True})
    z.characters[P1].resolve = 0
    z = act(act(z, type="narrate_fact", player=P1, text="x"), type="judge_fact", player=GM, believable=True)
    assert z.characters[P1].resolve == -1 and pending(z).kind == "escape"


def test_F_AMB_3_milestone_losses_do_not_stack_by_default():
    """F-AMB-3: see F-EX-20; a lost Goal-resolving conflict is -1 in total too (@20933)."""
    s = table(1)
    s.characters[P1].resolve = 3
    s = conflict(s, faces=[1, 1, 1, 2, 1], goal="Find the Macron Device", goal_step="final", ruling={"pc_stakes": "high"})
    assert s.characters[P1].resolve == 2 and s.advance[P1] == "failure"


def test_F_AMB_4_standard_is_average():
    """F-AMB-4, @48796: 'Standard' opposition is the table's 'Average': no modifier."""
    s, o = opposition(table(1), strength="average")
    s = act(act(s, type="attempt", player=P1, question="Q?", against=o), type="rule_conflict", player=GM)
    assert s.conflict.rolls[0].net == 0


def test_F_AMB_5_rerolls_cover_any_subset_including_extra_dice():
    """F-AMB-5, @9247: any number of dice, the extra ones included; then the best five again."""
    s = conflict(table(1), faces=[1, 1, 1, 1, 2, 1], descriptors=["Crack shot"], keep=False)
    s = act(s, type="reroll", player=P1, key=P1, indices=[0, 1, 5])
    s = act(s, type="roll_dice", faces={P1: [2, 2, 2]})
    assert s.conflict.rolls[0].result == D.YES
    refused(s, "F-7", type="reroll", player=P1, key=P1, indices=[6])


def test_F_AMB_6_condition_removal_minor_by_scene_end_major_needs_treatment():
    """F-AMB-6, L584-596 (garbled): Minor gone by scene end; Major stays until treated or aged."""
    s = act(table(1), type="apply_condition", player=GM, condition={"target": P1, "name": "Unconscious", "tier": "major"})
    s = act(s, type="apply_condition", player=GM, condition={"target": P1, "name": "Dazzled"})
    s = act(s, type="end_scene", player=GM)
    assert [c.name for c in s.characters[P1].conditions] == ["Unconscious"]
    cid = s.characters[P1].conditions[0].id
    assert act(s, type="clear_condition", player=GM, target=P1, condition_id=cid).characters[P1].conditions == []


def test_F_AMB_7_buckets_unequal_pools_count_the_rest():
    """F-AMB-7, @70333: after ties, an empty pool leaves the other's remaining dice as successes."""
    assert D.buckets_result([8, 6, 3], [8]) == (D.YES, 2)
    assert D.buckets_result([8], [8, 4, 2]) == (D.NO, 2)


def test_F_AMB_8_aligned_bonus_in_redux_is_one_die():
    """F-AMB-8, @72681: the aligned bonus applies to Redux as +1 die."""
    s = act(table(2), type="attempt", player=P1, question="Q?", aligned=[P2])
    assert [r.net for r in act(s, type="rule_conflict", player=GM).conflict.rolls] == [1, 1]


def test_F_AMB_9_a_shield_raises_armour_only_for_comparison_and_soaks_one():
    """F-AMB-9, @36574 and @37132: shield benefit raises the rating compared, not the soak; it soaks 1 and breaks."""
    from engine.fubar.gear import armour_rating
    a = Armour(kind="light", shield=True, soak_left=1)
    assert armour_rating(a, melee=True) == 4 and armour_rating(a, melee=False) == 2
    assert soak(a, 1) and a.soak_left == 0 and a.broken and not a.shield_used
    assert soak(a, 1) and a.shield_used and not soak(a, 1)


def test_F_AMB_10_conditions_count_only_when_ruled_applicable():
    """F-AMB-10, L578: a Condition changes dice only when the GM rules it applies."""
    s = act(table(1), type="apply_condition", player=GM, condition={"target": P1, "name": "Broke", "scope": "resources"})
    s = act(act(s, type="attempt", player=P1, question="Do I outrun them?"), type="rule_conflict", player=GM)
    assert s.conflict.rolls[0].net == 0


def test_F_AMB_11_fu_is_uncapped_in_replace():
    """F-AMB-11, @76143: FU is not limited."""
    s = table(1, {"resolve_variant": "replace"})
    for _ in range(6):
        s = act(s, type="award_resolve", player=GM, seat=P1, reason="flaw")
    assert s.characters[P1].fu == 8


def test_F_AMB_12_scale_stops_at_the_ends():
    """F-AMB-12, @61659: shifts stop at No-and and Yes-and."""
    assert D.scale_shift(D.YES_AND, 2, 0) == D.YES_AND and D.scale_shift(D.NO_BUT, 0, 5) == D.NO_AND


def test_F_AMB_13_no_trade_at_exactly_zero():
    """F-AMB-13, @15408: the trade replaces being written out, so only below 0."""
    s = table(1)
    s.characters[P1].resolve = 0
    refused(s, "F-6", type="escape_trade", player=P1, trademark="Crack shot", flaw="x")


def test_F_AMB_14_replace_full_slots_mean_out_unless_traded():
    """F-AMB-14, @77555: no free slot at or above the tier: out unless a Trademark is exchanged (L720: clears all)."""
    s = table(1, {"resolve_variant": "replace_slots"})
    for i in range(2):
        s = narrate(conflict(s, faces=[1, 1, 1, 2, 2], ruling={"pc_stakes": "high"}),
                    conditions=[{"target": P1, "name": f"M{i}", "tier": "major"}])
        if i == 0:
            s = act(s, type="continue_scene", player=GM)
    assert pending(s).kind == "escape"
    s = act(s, type="escape_trade", player=P1, trademark="Crack shot", flaw="Scarred")
    assert s.characters[P1].consequences == [] and pending(s).kind in ("turn", "gm_turn")


def test_F_AMB_15_doom_floors_at_zero():
    """F-AMB-15, @16485: Doom below 0 is unsaid; it floors at 0."""
    s = table(1, {"doom": True})
    s = act(s, type="award_resolve", player=GM, seat=P1, reason="flaw")
    assert s.characters[P1].doom == 0

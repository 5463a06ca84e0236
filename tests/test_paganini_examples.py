"""The digest's test cases (section 5, P-EX-<n>) and readings (section 6, P-AMB-<n>), with the book's
places (seed 003, @offset) and fixed d20s."""
from __future__ import annotations

import pytest

from engine.core.errors import RuleViolation
from engine.paganini import apply, pending
from engine.paganini import combat as C
from engine.paganini.advancement import cost_between, raise_cost
from engine.paganini.ladder import kept, pool_size, tier, tier_name
from engine.paganini.sheet import check_attributes, check_skills
from tests.paganini_helpers import AVERAGE, BOW, GM, P1, P2, P3, SWORD, act, fight, npc_id, sheet, table


def refused(s, rule: str, **kw) -> str:
    with pytest.raises(RuleViolation) as exc:
        apply(s, kw)
    assert exc.value.rule == rule, str(exc.value)
    return str(exc.value)


def attrs(**kw) -> dict:
    return {**AVERAGE, **kw}


RICHAZ_ATTRS = attrs(Fitness=2, Intellect=-1, Coordination=1, Wits=1)
RICHAZ_SKILLS = [{"name": "Streetwise", "kind": "experience", "level": -2},
                 {"name": "Knowledge", "kind": "general", "level": -2},
                 {"name": "Brawling", "kind": "general", "level": 1},
                 {"name": "Melee: Knife", "kind": "experience", "level": -2}]
TARGET = sheet("Target", {"Wits": 3}, [{"name": "Dodge", "kind": "general", "level": 0}])


def to_damage(s, att, tgt, seat_att, faces_att, faces_def, defence=None, **kw):
    s = act(s, type="attack", player=seat_att, actor=att, target=tgt, weapon=kw.pop("weapon", "sword"), **kw)
    s = act(s, type="defend", player=GM, **(defence or {"skill": "Dodge", "attribute": "Coordination"}))
    return act(s, type="roll_dice", faces={"attack": faces_att, "defence": faces_def})


# --- section 5 ----------------------------------------------------------------------------------------
def test_P_EX_1_net_negative_pool_keeps_the_lowest():
    """P-EX-1 (@8263, @9297): Good Fitness + Mediocre Brawling at Hard: n = -2, 3d20 keep lowest."""
    brute = sheet("Brute", {"Fitness": 2, "Wits": 1}, [{"name": "Brawling", "kind": "general", "level": -2},
                                                       {"name": "Riding", "kind": "experience", "level": -2}])
    s = table(1, sheets={P1: brute})
    s = act(s, type="attempt", player=P1, intent="wrestles the door", attribute="Fitness", skill="Brawling")
    s = act(s, type="call_check", player=GM, difficulty="hard")
    assert s.check.pools[0].net == -2 and pending(s).dice[0].count == 3
    s = act(s, type="roll_dice", faces={P1: [18, 5, 12]})
    assert s.check.pools[0].kept == 5 and s.check.outcome == "Normal Failure" and not s.check.success


def test_P_EX_2_net_zero_pool_rolls_the_base_die_alone():
    """P-EX-2 (@8983): Above Avg. skill + Below Avg. attribute at Average: 1d20; 11 is a Marginal Success."""
    odd = sheet("Odd", {"Fitness": 2, "Coordination": 1, "Intellect": -1, "Wits": 1},
                [{"name": "Lore", "kind": "general", "level": 1}])
    s = table(1, sheets={P1: odd})
    s = act(s, type="attempt", player=P1, intent="recalls", attribute="Intellect", skill="Lore")
    s = act(s, type="call_check", player=GM)
    assert s.check.pools[0].net == 0 and pending(s).dice[0].count == 1
    s = act(s, type="roll_dice", faces={P1: [11]})
    assert s.check.outcome == "Marginal Success" and s.check.success


def test_P_EX_3_the_book_damage_example_six_boxes():
    """P-EX-3 (@20645, @20858): sword +1HD, strength +1HD against soft leather +2HD vs cuts, Fitness 0:
    "The difference is 0 ... A 7 is rolled, so 7 - 1 = 6 boxes"."""
    hero = sheet("Hero", {"Fitness": 1, "Coordination": 2}, [{"name": "Sword", "kind": "experience", "level": -3},
                                                             {"name": "Dodge", "kind": "general", "level": 0}],
                 weapons=[SWORD])
    leather = sheet("Leathers", {"Wits": 3}, [{"name": "Dodge", "kind": "general", "level": 0}],
                    armour={"name": "soft leather", "ratings": {"cutting": 2}})
    s = table(1, sheets={P1: hero}, npcs=[leather])
    lid = npc_id(s, "Leathers")
    s = fight(s, [P1, lid], {P1: [15], lid: [3]})
    s = to_damage(s, P1, lid, P1, [12, 13], [11], damage_type="cutting")  # 12 vs 11: same tier, margin 0
    at = s.combat.attack
    assert at.hit and at.margin == 0 and at.damage.net == 0 and pending(s).dice[0].count == 1
    s = act(s, type="roll_dice", faces={"damage": [7]})
    assert s.characters[lid].wounds == 6


def test_P_EX_4_damage_with_margin_and_the_fitness_roll():
    """P-EX-4 (@20237, @19866): 18 vs 12 = +2HD margin; sword +1, Good Fitness +2, no armour: n = +5,
    6d20 keep 17 = 16 boxes (+3LD); Fitness n = -3: 11 stays conscious, 10 does not."""
    s = table(1, npcs=[TARGET])
    tid = npc_id(s, "Target")
    s = fight(s, [P1, tid], {P1: [15], tid: [3]})
    s = to_damage(s, P1, tid, P1, [18, 19], [12])
    at = s.combat.attack
    assert at.margin == 2 and at.damage.net == 5
    s = act(s, type="roll_dice", faces={"damage": [3, 9, 14, 2, 17, 6]})
    assert s.characters[tid].wounds == 16 and C.wound_penalty(16) == -3
    assert s.combat.attack.fitness.net == -3
    up = act(s, type="roll_dice", faces={"fitness": [12, 15, 11, 19]})
    assert up.characters[tid].conscious
    down = act(s, type="roll_dice", faces={"fitness": [12, 15, 10, 19]})
    assert not down.characters[tid].conscious


def test_P_EX_5_richaz_attributes_are_valid():
    """P-EX-5 (@25555): two free levels into Fitness, one into Coordination; Intellect -1 for Wits +1."""
    b = check_attributes(RICHAZ_ATTRS)
    assert b.raised == 4 and b.lowered == 1 and b.free_needed == 3 and b.over == 0


def test_P_EX_6_richaz_skills_overspend_by_one():
    """P-EX-6 (@26244, @26279): 4 skills give 2 free levels; Knowledge at Mediocre trades 2; the book
    spends 5 levels - the validator reports over budget by 1 (P-AMB-2); the table option waives it."""
    with pytest.raises(RuleViolation) as exc:
        check_skills({sk["name"]: (sk["kind"], sk["level"]) for sk in RICHAZ_SKILLS})
    assert exc.value.rule == "P-10" and "over budget by 1" in str(exc.value)
    richaz = {"name": "Richaz", "concept": "Generic Street Thug", "attributes": RICHAZ_ATTRS, "skills": RICHAZ_SKILLS,
              "weapons": [{"name": "belt knife", "types": ["cutting", "piercing"], "skill": "Melee: Knife"}]}
    s = table(1, scene=False)
    refused(s, "P-10", type="add_opponent", player=GM, sheet=richaz)
    waived = act(table(1, scene=False, options={"waive_npc_validation": True}), type="add_opponent", player=GM,
                 sheet=richaz)
    assert waived.characters[npc_id(waived, "Richaz")].skills["Brawling"].level == 1


def test_P_EX_7_advancement_costs():
    """P-EX-7 (@14948, @15680): Average -> Good 96; Special untrained -> Poor 2 with a teacher, 4 without;
    Special Terrible -> Mediocre without a teacher 12."""
    assert cost_between(0, 2) == 96
    assert raise_cost(-4, "special", True) == 2 and raise_cost(-4, "special", False) == 4
    assert cost_between(-4, -2, "special", teacher=False) == 12


def _days(s, n):
    for i in range(n):
        while pending(s).kind == "turn":
            s = act(s, type="pass_turn", player=pending(s).seats[0])
        s = act(s, type="end_day", player=GM)
        if i < n - 1:
            s = act(s, type="continue_scene", player=GM)
    return s


def _ap(s, seat=P1) -> int:
    return sum(x.amount for x in s.characters[seat].lots)


def test_P_EX_8_ap_grants():
    """P-EX-8 (@12775, @13235, @14031, @14121, @13542): 3 days in a normal week 3 + 2 = 5; the same as a
    time-consuming adventure 6; an intensive week 5."""
    s = act(_days(table(1), 3), type="end_week", player=GM)
    assert _ap(s) == 5
    s = act(_days(table(1, time_consuming=True), 3), type="end_week", player=GM)
    assert _ap(s) == 6
    s = act(table(1), type="study_intensively", player=P1, reason="basic training")
    s = act(act(s, type="pass_turn", player=P1), type="end_week", player=GM)
    assert _ap(s) == 5


def test_P_EX_9_the_third_defence_in_a_round_takes_two_ld_and_resets():
    """P-EX-9 (@18147): a third defence gets +2LD; the counter resets next round."""
    s = table(3, npcs=[TARGET])
    tid = npc_id(s, "Target")
    s = fight(s, [P1, P2, P3, tid], {P1: [18], P2: [15], P3: [12], tid: [2]})
    nets = []
    for seat in (P1, P2, P3):
        s = act(s, type="attack", player=seat, actor=seat, target=tid, weapon="sword")
        s = act(s, type="defend", player=GM, skill="Dodge", attribute="Coordination")
        nets.append(s.combat.attack.defence.net)
        n = pool_size(s.combat.attack.attack.net)
        s = act(s, type="roll_dice", faces={"attack": [2] * n, "defence": [19] * pool_size(nets[-1])})
        s = act(s, type="narrate", player=seat, text="Parried.")
    assert nets == [0, -1, -2]
    s = act(s, type="hold", player=GM, actor=tid)
    s = act(s, type="next_round", player=GM)
    assert s.combat.defences == {}


def test_P_EX_10_ranged_modifiers_add_up():
    """P-EX-10 (@21171, @21841): Long +1LD, target moving +1LD, braced +1HD; Good Focus, Average skill:
    n = +1, 2d20 keep highest."""
    shot = sheet("Shot", {"Focus": 2, "Wits": 1}, [{"name": "Bow", "kind": "general", "level": 0}], weapons=[BOW])
    s = table(1, sheets={P1: shot}, npcs=[TARGET])
    tid = npc_id(s, "Target")
    s = fight(s, [P1, tid], {P1: [15], tid: [3]})
    s = act(s, type="attack", player=P1, actor=P1, target=tid, weapon="bow", range="long",
            ranged_mods=["target_moving", "attacker_braced"])
    assert s.combat.attack.attack.net == 1 and pending(s).dice[0].count == 2
    assert kept([4, 15], 1) == 15


def test_P_EX_11_initiative_order_simultaneous_tiers_and_the_extra_slot():
    """P-EX-11 (@16385, @16446): A 20, B 15, C 14, D 7; A's extra 9 -> A | B & C | A | D."""
    s = table(3, npcs=[TARGET])
    tid = npc_id(s, "Target")
    s = fight(s, [P1, P2, P3, tid], {P1: [20], P2: [15], P3: [14], tid: [7]})
    s = act(s, type="roll_dice", faces={f"{P1}+": [9]})
    assert s.combat.slots == [[P1], [P2, P3], [P1], [tid]]
    assert tier(15) == tier(14) == 5


def test_P_EX_12_scale_in_a_strength_contest():
    """P-EX-12 (@11434, @11567): giant strength scale 1 vs a human: the giant +1HD or the human +1LD."""
    assert C.scale_dice(1, 0, "contest") == 1 and C.scale_dice(0, 1, "contest") == -1
    giant = sheet("Giant", scale={"Fitness": 1})
    s = table(1, npcs=[giant], options={"scale": True})
    gid = npc_id(s, "Giant")
    s = act(s, type="attempt", player=P1, intent="holds the gate", attribute="Fitness", against=gid)
    for to, expect in (("larger", [2, 1]), ("smaller", [1, 0])):
        s2 = act(s, type="call_check", player=GM, opposed_attribute="Fitness", scale_ability="Fitness", scale_to=to)
        assert [p.net for p in s2.check.pools] == expect  # never both


def test_P_EX_13_scale_to_hit_and_damage_human_against_troll():
    """P-EX-13 (@18725, @18805): human 0 vs troll 2: the human +2HD to hit (or the troll +2LD on defence),
    damage +2LD; the troll -2LD to hit (or the human +2HD on defence), damage +2HD."""
    troll = sheet("Troll", {"Fitness": 1, "Coordination": 1, "Wits": 1}, [{"name": "Dodge", "kind": "general",
                                                                           "level": 0}],
                  scale={"size": 2}, weapons=[dict(SWORD, name="club", types=["blunt"])])
    s = table(1, npcs=[troll], options={"scale": True})
    tid = npc_id(s, "Troll")
    s = fight(s, [P1, tid], {P1: [15], tid: [3]})
    h = act(s, type="attack", player=P1, actor=P1, target=tid, weapon="sword")
    assert any(m.name == "scale" and m.dice == 2 for m in h.combat.attack.attack.parts)
    d = act(s, type="attack", player=P1, actor=P1, target=tid, weapon="sword", scale_on="defender")
    assert not any(m.name == "scale" for m in d.combat.attack.attack.parts)
    d = act(d, type="defend", player=GM, skill="Dodge")
    assert any(m.name == "scale" and m.dice == -2 for m in d.combat.attack.defence.parts)
    h = act(h, type="defend", player=GM, skill="Dodge")
    h = act(h, type="roll_dice", faces={"attack": [19] * pool_size(h.combat.attack.attack.net),
                                        "defence": [2] * pool_size(h.combat.attack.defence.net)})
    assert any(m.name == "scale" and m.dice == -2 for m in h.combat.attack.damage.parts)
    h = act(h, type="roll_dice", faces={"damage": [1] * pool_size(h.combat.attack.damage.net)})
    # the troll's turn
    h = act(h, type="narrate", player=P1, text="A cut.")
    t = act(h, type="attack", player=GM, actor=tid, target=P1, weapon="club")
    assert any(m.name == "scale" and m.dice == -2 for m in t.combat.attack.attack.parts)
    t = act(t, type="defend", player=P1, skill="Dodge")
    t = act(t, type="roll_dice", faces={"attack": [19] * pool_size(t.combat.attack.attack.net),
                                        "defence": [2] * pool_size(t.combat.attack.defence.net)})
    assert any(m.name == "scale" and m.dice == 2 for m in t.combat.attack.damage.parts)


def test_P_EX_14_scale_beyond_four_dice():
    """P-EX-14 (@10790): dragon scale 5 vs human: 5 dice, no cap; Good Focus, Average skill, Medium: 8d20."""
    dragon = sheet("Dragon", scale={"size": 5})
    shot = sheet("Shot", {"Focus": 2, "Wits": 1}, [{"name": "Bow", "kind": "general", "level": 0}], weapons=[BOW])
    s = table(1, sheets={P1: shot}, npcs=[dragon], options={"scale": True})
    did = npc_id(s, "Dragon")
    s = fight(s, [P1, did], {P1: [15], did: [3]})
    s = act(s, type="attack", player=P1, actor=P1, target=did, weapon="bow", range="medium")
    assert s.combat.attack.attack.net == 7 and pending(s).dice[0].count == 8


def test_P_EX_15_creation_cap_plain_reading():
    """P-EX-15 (@23743, @23906, P-AMB-3): 3 free into Fitness (Great) valid; +1 traded to Superb valid;
    Intellect -3 for Wits +3 invalid (3 traded); 3 free + 2 traded into Fitness invalid (above Superb)."""
    check_attributes(attrs(Fitness=3))
    check_attributes(attrs(Fitness=4, Intellect=-1))
    with pytest.raises(RuleViolation) as exc:
        check_attributes(attrs(Intellect=-3, Wits=3))
    assert "no more than two" in str(exc.value)
    with pytest.raises(RuleViolation) as exc:
        check_attributes(attrs(Fitness=5, Intellect=-2))
    assert "off the ladder" in str(exc.value)


def test_P_EX_16_adventure_ap_go_only_to_skills_used_or_trained():
    """P-EX-16 (@12842, @13235, @14378): Ann used Riding and trained with Healing over 4 days: 4 adventure
    AP (Riding or Healing) + 2 weekly (any). Lockpicking from the weekly lot: allowed; from adventure
    lots: rejected; Riding from adventure lots: allowed. Time-consuming with Riding designated: 8 AP,
    4 only for Riding, 4 for Riding or Healing."""
    ann = sheet("Ann", {"Coordination": 2, "Wits": 1}, [{"name": "Riding", "kind": "experience", "level": -4},
                                                        {"name": "Alertness", "kind": "general", "level": 0}])

    def adventure(**kw):
        s = table(1, sheets={P1: ann}, **kw)
        s = act(s, type="attempt", player=P1, intent="rides hard", attribute="Coordination", skill="Riding")
        s = act(s, type="call_check", player=GM)
        s = act(s, type="roll_dice", faces={P1: [15, 13, 14]})
        s = act(s, type="narrate", player=P1, text="She rides hard.")
        s = act(s, type="record_training", player=GM, character=P1, skill="Healing")
        s = _days(s, 4)
        s = act(s, type="end_week", player=GM)
        return act(s, type="continue_scene", player=GM)  # Ann's turn: she spends her points

    s = adventure()
    lots = s.characters[P1].lots
    assert sorted((x.source, x.amount) for x in lots) == [("adventure_day", 1)] * 4 + [("week", 2)]
    week = next(x.id for x in lots if x.source == "week")
    days = [x.id for x in lots if x.source == "adventure_day"]
    ok = act(s, type="raise_skill", player=P1, skill="Lockpicking", kind="experience", lots=[week])
    assert ok.characters[P1].skills["Lockpicking"].level == -3
    msg = refused(s, "P-11", type="raise_skill", player=P1, skill="Lockpicking", kind="experience", lots=days[:2])
    assert "used or trained" in msg
    ok = act(s, type="raise_skill", player=P1, skill="Riding", lots=days[:2])
    assert ok.characters[P1].skills["Riding"].level == -3 and _ap(ok) == 4

    t = adventure(time_consuming=True, designated="Riding")
    lots = t.characters[P1].lots
    assert _ap(t) == 8 and not any(x.source == "week" for x in lots)
    desig = [x.id for x in lots if x.designated == "Riding"]
    free = [x.id for x in lots if x.designated is None]
    assert len(desig) == 4 and len(free) == 4
    refused(t, "P-11", type="raise_skill", player=P1, skill="Healing", kind="special", lots=desig[:2], teacher=True)
    ok = act(t, type="raise_skill", player=P1, skill="Healing", kind="special", lots=free[:2], teacher=True)
    assert ok.characters[P1].skills["Healing"].level == -3
    ok = act(t, type="raise_skill", player=P1, skill="Riding", lots=desig[:2])
    assert ok.characters[P1].skills["Riding"].level == -3


def test_P_EX_17_the_attackers_wounds_weigh_on_its_damage_roll():
    """P-EX-17 (@19339, P-AMB-8): attacker at 7 boxes (+1LD), sword +1, strength +1 vs Fitness 0, margin 0:
    n = +1, 2d20; with the exemption option n = +2, 3d20."""
    hero = sheet("Hero", {"Fitness": 1, "Coordination": 2}, [{"name": "Sword", "kind": "experience", "level": -3},
                                                             {"name": "Dodge", "kind": "general", "level": 0}],
                 weapons=[SWORD])
    for opts, n in (({}, 1), ({"exempt_damage_from_wounds": True}, 2)):
        s = table(1, sheets={P1: hero}, npcs=[TARGET], options=opts).model_copy(deep=True)
        s.characters[P1].wounds = 7
        tid = npc_id(s, "Target")
        s = fight(s, [P1, tid], {P1: [15, 15], tid: [3]})
        s = act(s, type="attack", player=P1, actor=P1, target=tid, weapon="sword")
        s = act(s, type="defend", player=GM, skill="Dodge", attribute="Coordination")
        s = act(s, type="roll_dice", faces={"attack": [12] * pool_size(s.combat.attack.attack.net), "defence": [11]})
        assert s.combat.attack.margin == 0 and s.combat.attack.damage.net == n
        assert pending(s).dice[0].count == n + 1


def test_P_EX_18_wound_levels_and_the_end_of_the_track():
    """P-EX-18 (@19380, P-AMB-1): 3 Wounded, 6 Scratched, 11 Battered, 16 Severely Wounded, 21 Near Death;
    22 + 10 stays at 25 with 7 excess reported."""
    assert [(C.wound_name(b), C.wound_penalty(b)) for b in (3, 6, 11, 16, 21)] == [
        ("Wounded", 0), ("Scratched", -1), ("Battered", -2), ("Severely Wounded", -3), ("Near Death", -4)]
    assert C.take_boxes(22, 10) == (25, 7)
    s = table(1, npcs=[TARGET])
    tid = npc_id(s, "Target")
    s = hurt_then_hit(s, tid, 22)
    assert s.characters[tid].wounds == 25 and s.characters[tid].excess == 7 and not s.characters[tid].dead


def hurt_then_hit(s, tid, wounds):
    """The target already carries `wounds` boxes; a hit for 10 boxes (a kept 11) lands on it."""
    s = fight(s, [P1, tid], {P1: [15], tid: [3]}).model_copy(deep=True)
    s.characters[tid].wounds = wounds
    s = act(s, type="attack", player=P1, actor=P1, target=tid, weapon="sword")
    s = act(s, type="defend", player=GM, skill="Dodge", attribute="Coordination")
    s = act(s, type="roll_dice", faces={"attack": [18, 19], "defence": [2] * pool_size(s.combat.attack.defence.net)})
    return act(s, type="roll_dice", faces={"damage": [11] * pool_size(s.combat.attack.damage.net)})


def test_P_EX_19_uncapped_cover():
    """P-EX-19 (@21884, P-AMB-13): 60% hard cover +12LD, Medium, Good Focus + Good skill: n = -8, 9d20."""
    shot = sheet("Shot", {"Focus": 2, "Wits": 1}, [{"name": "Bow", "kind": "general", "level": 2},
                                                   {"name": "Cooking", "kind": "general", "level": -2},
                                                   {"name": "Alertness", "kind": "general", "level": 0}],
                 weapons=[BOW])
    s = table(1, sheets={P1: shot}, npcs=[TARGET])
    tid = npc_id(s, "Target")
    s = fight(s, [P1, tid], {P1: [15], tid: [3]})
    s = act(s, type="attack", player=P1, actor=P1, target=tid, weapon="bow", range="medium", hard_cover=60)
    assert s.combat.attack.attack.net == -8 and pending(s).dice[0].count == 9
    assert C.cover_dice(60, 0) == -12 and C.cover_dice(100, 0) == -20


# --- section 6 ----------------------------------------------------------------------------------------
def test_P_AMB_1_wound_names_as_the_row_aligns_them_reached_and_past_25():
    """P-AMB-1 (@19380, @19237, @19456): a level is reached at its first box; past 25 stays at 25 unless
    the death option is on."""
    assert C.wound_penalty(6) == -1 and C.wound_penalty(5) == 0 and C.wound_name(21) == "Near Death"
    s = table(1, npcs=[TARGET], options={"death_past_25": True})
    tid = npc_id(s, "Target")
    s = hurt_then_hit(s, tid, 22)
    assert s.characters[tid].dead and not s.characters[tid].conscious


def test_P_AMB_2_npcs_are_validated_unless_the_table_waives_it():
    """P-AMB-2 (@26279): see P-EX-6; an NPC sheet is refused with its overspend by default."""
    richaz = {"name": "Richaz", "attributes": RICHAZ_ATTRS, "skills": RICHAZ_SKILLS}
    msg = refused(table(1, scene=False), "P-10", type="add_opponent", player=GM, sheet=richaz)
    assert "over budget by 1" in msg


def test_P_AMB_3_the_trade_cap_limits_traded_levels_only():
    """P-AMB-3 (@23906, @24504, @24693): free levels reach Great; two traded on top reach Superb at most."""
    check_attributes(attrs(Fitness=3))
    check_skills({"Sword": ("general", 3), "A": ("general", 0), "B": ("general", -2), "C": ("general", 0),
                  "D": ("general", 0)})  # 3 free + ... 5 skills give 3: one free, two traded
    with pytest.raises(RuleViolation) as exc:
        check_skills({"Sword": ("general", 3), "B": ("general", -3)})
    assert "no more than two" in str(exc.value)


def test_P_AMB_4_ties_no_hit_status_quo_or_reroll():
    """P-AMB-4 (@17658, @9893): an attack tie does not hit; with the re-roll option both roll again."""
    s = table(1, npcs=[TARGET], options={"reroll_ties": True})
    tid = npc_id(s, "Target")
    s = fight(s, [P1, tid], {P1: [15], tid: [3]})
    s = to_damage(s, P1, tid, P1, [12, 13], [12])
    assert s.combat.attack.hit is None and pending(s).kind == "roll" and s.combat.attack.attack.faces == []
    plain = table(1, npcs=[TARGET])
    plain = fight(plain, [P1, tid], {P1: [15], tid: [3]})
    plain = to_damage(plain, P1, tid, P1, [12, 13], [12])
    assert plain.combat.attack.hit is False


def test_P_AMB_5_level_means_a_success_tier():
    """P-AMB-5 (@16385, @20237, @19948): 12 beats 11 by no tier (margin 0); 15 and 14 act together."""
    assert C.initiative_slots([C.InitRoll("a", 15), C.InitRoll("b", 14), C.InitRoll("c", 13)]) == [["a", "b"], ["c"]]
    assert tier(12) - tier(11) == 0 and tier(18) - tier(12) == 2


def test_P_AMB_6_ranged_hits_get_no_margin_dice_unless_the_option():
    """P-AMB-6 (@22712): no defence roll, so no margin dice by default; the option gives tiers above Marginal."""
    shot = sheet("Shot", {"Focus": 2, "Wits": 1}, [{"name": "Bow", "kind": "general", "level": 0}], weapons=[BOW])
    for opts, margin in (({}, 0), ({"ranged_margin": True}, 3)):
        s = table(1, sheets={P1: shot}, npcs=[TARGET], options=opts)
        tid = npc_id(s, "Target")
        s = fight(s, [P1, tid], {P1: [15], tid: [3]})
        s = act(s, type="attack", player=P1, actor=P1, target=tid, weapon="bow", range="medium")
        s = act(s, type="roll_dice", faces={"attack": [20, 2, 2]})
        assert s.combat.attack.margin == margin
        assert s.combat.attack.damage.net == 1 + margin  # fired: the rating only, target Fitness 0


def test_P_AMB_7_a_second_twenty_gives_no_third_action():
    """P-AMB-7 (@16446): at most one extra action."""
    assert C.initiative_slots([C.InitRoll("a", 20, 20), C.InitRoll("b", 3)]) == [["a", "a"], ["b"]]
    s = table(1, npcs=[TARGET])
    tid = npc_id(s, "Target")
    s = fight(s, [P1, tid], {P1: [20], tid: [3]})
    s = act(s, type="roll_dice", faces={f"{P1}+": [20]})
    assert pending(s).kind == "combat_turn" and s.combat.slots == [[P1, P1], [tid]]


def test_P_AMB_8_the_wound_penalty_on_every_roll_including_damage():
    """P-AMB-8 (@19339): initiative, attack and the damage roll of a wounded character all take it."""
    s = table(1, npcs=[TARGET]).model_copy(deep=True)
    s.characters[P1].wounds = 12
    tid = npc_id(s, "Target")
    s = fight(s, [P1, tid], {P1: [15, 15, 15], tid: [3]})
    assert s.combat.init[0].net == -2
    s = act(s, type="attack", player=P1, actor=P1, target=tid, weapon="sword")
    assert s.combat.attack.attack.net == 1 - 2 - 2


def test_P_AMB_9_a_zero_box_hit_needs_no_fitness_roll():
    """P-AMB-9 (@19713): a hit for 0 boxes is no damage, so no roll."""
    s = table(1, npcs=[TARGET])
    tid = npc_id(s, "Target")
    s = fight(s, [P1, tid], {P1: [15], tid: [3]})
    s = to_damage(s, P1, tid, P1, [18, 19], [12])
    s = act(s, type="roll_dice", faces={"damage": [1] * 6})
    assert s.characters[tid].wounds == 0 and pending(s).kind == "narrate_attack"


def test_P_AMB_10_special_skills_listed_at_creation_are_usable_at_terrible():
    """P-AMB-10 (@24024, @6966): a listed Special skill starts at Terrible and can be rolled."""
    doc = sheet("Doc", {"Intellect": 3}, [{"name": "Surgery", "kind": "special", "level": -4},
                                          {"name": "Alertness", "kind": "general", "level": 0}])
    s = table(1, sheets={P1: doc})
    s = act(s, type="attempt", player=P1, intent="operates", attribute="Intellect", skill="Surgery")
    s = act(s, type="call_check", player=GM)
    assert s.check.pools[0].net == -1


def test_P_AMB_11_an_intensive_week_replaces_the_weekly_two():
    """P-AMB-11 (@13512): 5 that week, not 7."""
    s = act(table(1), type="study_intensively", player=P1, reason="a tutor")
    s = act(act(s, type="pass_turn", player=P1), type="end_week", player=GM)
    assert _ap(s) == 5


def test_P_AMB_12_half_strength_rounds_toward_zero():
    """P-AMB-12 (@20190): Great (+3) gives +1; the option rounds away (+2)."""
    assert C.strength_dice(3, "half") == 1 and C.strength_dice(3, "half", True) == 2


def test_P_AMB_13_cover_has_no_cap_unless_the_option():
    """P-AMB-13 (@21841, @21884): 100% hard cover is +20LD; the option caps over-50% cover."""
    assert C.cover_dice(100, 0) == -20 and C.cover_dice(60, 0, capped=True) == -4
    assert C.cover_dice(0, 30) == -3


def test_P_AMB_14_quality_on_attack_and_defence_not_damage_unless_the_option():
    """P-AMB-14 (@19017, @20069, @27061): Quality on the attack, not the damage roll by default."""
    fine = dict(SWORD, name="fine sword", quality=2)
    hero = sheet("Hero", {"Fitness": 1, "Coordination": 2}, [{"name": "Sword", "kind": "experience", "level": -3},
                                                             {"name": "Dodge", "kind": "general", "level": 0}],
                 weapons=[fine])
    for opts, extra in (({}, 0), ({"quality_on_damage": True}, 2)):
        s = table(1, sheets={P1: hero}, npcs=[TARGET], options=opts)
        tid = npc_id(s, "Target")
        s = fight(s, [P1, tid], {P1: [15], tid: [3]})
        s = to_damage(s, P1, tid, P1, [12] * 2, [11], weapon="fine sword")
        assert s.combat.attack.damage.net == 1 + 1 + extra


def test_P_AMB_15_designated_points_one_a_day_or_one_per_adventure():
    """P-AMB-15 (@14378): one of each day's 2 points by default; the option designates one in all."""
    s = _days(table(1, time_consuming=True, designated="Riding"), 3)
    assert sum(1 for x in s.characters[P1].lots if x.designated) == 3
    s = _days(table(1, time_consuming=True, designated="Riding", options={"one_designated_per_adventure": True}), 3)
    assert sum(1 for x in s.characters[P1].lots if x.designated) == 1 and _ap(s) == 6


def test_P_AMB_16_vulnerable_direction_on_the_attackers_roll_unless_the_option():
    """P-AMB-16 (@18371): the +1LD goes on the attack by default, on the defence with the option."""
    for opts, att, dfn in (({}, -1, 0), ({"vulnerable_on_defender": True}, 0, -1)):
        s = table(1, npcs=[TARGET], options=opts)
        tid = npc_id(s, "Target")
        s = fight(s, [P1, tid], {P1: [15], tid: [3]})
        s = act(s, type="attack", player=P1, actor=P1, target=tid, weapon="sword", melee_mods=["vulnerable_direction"])
        s = act(s, type="defend", player=GM, skill="Dodge", attribute="Coordination")
        assert s.combat.attack.attack.net == 1 - 2 + att and s.combat.attack.defence.net == dfn


def test_tier_names_for_the_panel():
    assert tier_name(tier(20)) == "Critical Success" and tier_name(tier(1)) == "Critical Failure"

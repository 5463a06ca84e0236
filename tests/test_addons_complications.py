"""Complication add-ons (digest §2, book L2308-2440, core optional rule L1040): UA-D6, UA-MT,
UA-EXT, UA-OWN, UA-ADD, UA-FREEZE, UA-CARDS (the pool side of cards)."""
from __future__ import annotations

import pytest

from engine.core.errors import RuleViolation
from engine.universalis import actions as A
from engine.universalis import apply, legal_options
from engine.universalis.addon_complications import (
    JACK, KING, QUEEN, edge_pool, extended_stages, is_success, narration_order, pool_coins,
    read_face, resolution_order, score, split_c_coins, split_evenly, verdicts,
)
from engine.universalis.ruleset import UniversalisRuleset

from engine_helpers import P3, framed, observed

D6 = {"die": "d6"}


def seen(*rules: str) -> None:
    """Record for the add-on coverage test that this passing test saw these rules take effect or refuse."""
    for rule in rules:
        observed(rule, "effect")


# --- d6 (L2402-2410) --------------------------------------------------------------------------------
def test_UA_SIX_1_odd_faces_succeed_and_keep_the_mean_of_a_d10_success_L2408():
    """UA-SIX-1 (L2408 "treat odd results as successes"): 1, 3, 5 succeed; their mean is 3, the
    mean of a d10's 1-5, so a winner still expects 0.5·3 = 1.5 coins a die against a loser's 1 (§4)."""
    assert [f for f in range(1, 7) if is_success(f, "d6")] == [1, 3, 5]
    assert [f for f in range(1, 11) if is_success(f, "d10")] == [1, 2, 3, 4, 5]
    d6_mean = sum(f for f in range(1, 7) if is_success(f, "d6")) / 3
    d10_mean = sum(range(1, 6)) / 5
    assert d6_mean == d10_mean == 3
    assert 0.5 * d6_mean == 1.5  # winner's expected coins per die (L1746)
    seen('UA-SIX-1')


def test_UA_SIX_2_bonus_coins_on_a_d6_winner_sums_odd_faces_loser_counts_dice_L2406():
    """UA-SIX-2 (L2406 "the sum of the numbers rolled being the bonus Coins"; U-COMP-9 derived): a
    winning d6 Pool 1,2,3,5 earns 1+3+5 = 9; a failed Edge die 4 adds its face (13); a loser with
    3 dice and that Edge die earns 4 + 4 = 8."""
    assert pool_coins([1, 2, 3, 5], 4, won=True, die="d6") == 9
    assert pool_coins([1, 2, 3, 5, 4], 4, won=True, die="d6") == 13
    assert pool_coins([2, 2, 6, 4], 3, won=False, die="d6") == 8
    seen('UA-SIX-2')


def _rival(addons: dict, c: int = 4, t: int = 3):
    """Ben's Event against Ann's Hero; Ben buys `c` dice for C and `t` for Ann's Pool."""
    g = framed(P3, {"Ann": 1}, addons=addons)
    hero = g.create("Ann", "Hero")
    g.end_turn("Ann")
    g.event("Ben", "A rival challenges the hero.", receiver=hero)
    g.act(A.BuyDie(player="Ben", pool="C", count=c))
    g.act(A.BuyDie(player="Ben", pool="Ann", count=t))
    return g


def test_UA_SIX_1_the_engine_rolls_d6_pools_and_pays_by_odd_faces():
    """UA-SIX-1/2 in play with fixed dice: the Hero's d6 Pool 3,5,2 (2 Successes, 3+5 = 8 coins)
    beats the rival's 2,4,6,1 (1 Success; 4 dice = 4 coins)."""
    g = _rival(D6)
    g.call_and_agree("Ben")
    rs = UniversalisRuleset()
    assert {d.sides for d in rs.pending(g.s).dice} == {6}
    g.roll(C=[2, 4, 6, 1], Ann=[3, 5, 2])
    res = g.last("complication_result")
    assert res.data["winner"] == "T"
    assert res.data["bonus"] == {"C": 4, "Ann": 8}
    g.check()
    seen('UA-SIX-1')


def test_UA_SIX_3_a_typed_d6_face_outside_1_to_6_is_refused_naming_the_add_on():
    """UA-SIX-3: physical dice typed in are read for the die in play: a d6 shows no 0 and no 7."""
    g = _rival(D6, 1, 1)
    g.call_and_agree("Ben")
    err = g.refused(A.Roll(player="dice", faces={"C": [7], "Ann": [1]}), "UA-SIX-3")
    assert "d6 pools add-on" in str(err)
    g.refused(A.Roll(player="dice", faces={"C": [0], "Ann": [1]}), "UA-SIX-3")
    assert read_face(0, "d10") == 10  # the core d10's 0 stays a 10
    seen('UA-SIX-3')


def test_UA_SIX_1_core_table_still_rolls_d10():
    """Without the add-on the Pools are d10 and a 6 fails (U-COMP-7)."""
    g = framed(P3, {"Ann": 1})
    assert UniversalisRuleset().die_sizes == (10,)
    assert not is_success(6, "d10") and is_success(5, "d10")
    seen('UA-SIX-1')


# --- multiple Targets (L2320-2384) ----------------------------------------------------------------------
T = {"A": 4, "B": 2, "C2": 5}


def test_UA_MT_2_standard_all_targets_sum_against_the_complication_L2330():
    """UA-MT-2 (L2330) and the digest's derived test: C has 3 Successes, Targets {4,2,5}: the
    Targets' 11 win, every Target Pool shares it."""
    v = verdicts("standard", 3, T)
    assert {x.result for x in v} == {"won"} and sum(T.values()) == 11
    seen('UA-MT-2')


def test_UA_MT_6_all_or_none_only_the_worst_target_counts_L2372():
    """UA-MT-6 (L2372): the worst Target Pool (2) is compared with C's 3: every Target loses."""
    assert {x.result for x in verdicts("all_or_none", 3, T)} == {"lost"}
    assert {x.result for x in verdicts("all_or_none", 2, T)} == {"tie"}  # a core tie (U-COMP-8)
    seen('UA-MT-6')


def test_UA_MT_7_best_efforts_only_the_best_target_counts_L2380():
    """UA-MT-7 (L2380): the best Target Pool (5) against C's 3: every Target wins; against 6 all lose."""
    assert {x.result for x in verdicts("best_efforts", 3, T)} == {"won"}
    assert {x.result for x in verdicts("best_efforts", 6, T)} == {"lost"}
    seen('UA-MT-7')


def test_UA_MT_4_split_allocation_each_target_against_what_was_assigned_L2352():
    """UA-MT-4 (L2352): the Originator's 5 Successes assigned A:1, B:3, C2:1: A (4>1) wins,
    B (2<3) loses, C2 (5>1) wins; assigning 6 of 5, or a negative count, is refused naming the add-on."""
    v = {x.pool: x.result for x in verdicts("split", 5, T, {"A": 1, "B": 3, "C2": 1})}
    assert v == {"A": "won", "B": "lost", "C2": "won"}
    assert verdicts("split", 5, {"A": 2}, {"A": 2})[0].result == "tie"
    with pytest.raises(RuleViolation) as e:
        verdicts("split", 5, T, {"A": 2, "B": 3, "C2": 1})
    assert e.value.rule == "UA-MT-4" and "Split Allocation" in str(e.value)
    with pytest.raises(RuleViolation):
        verdicts("split", 5, T, {"A": -1, "B": 3, "C2": 1})
    with pytest.raises(RuleViolation) as e:
        verdicts("split", 5, T)
    assert e.value.rule == "UA-MT-4"
    seen('UA-MT-4')


def test_UA_MT_4_split_allocation_complication_coins_suggested_default():
    """UA-MT-4 (unspec, the digest's suggestion): C earns the sum of the dice it assigned where it
    won (B: 1+2+4 = 7) and 1 per assigned die where it lost (A: 1 die): 8. Play pays through this function
    (addon_split.narrate), Edge dice of a rerolled match included."""
    assert split_c_coins({"A": [3], "B": [1, 2, 4]}, {"A": "won", "B": "lost"}) == 8
    # a rerolled match (U-COMP-9): C won against B with [1, 2] and a failed Edge die 8: 1+2+8 = 11; lost
    # against A with [3] and an Edge die 6: 1 per die (2) + the Edge face 6 = 8; a tie pays nothing yet
    assert split_c_coins({"A": [3, 6], "B": [1, 2, 8], "C2": [4]}, {"A": "won", "B": "lost", "C2": "tie"},
                         normal={"A": 1, "B": 2, "C2": 1}) == 11 + 8
    seen('UA-MT-4')


def test_UA_MT_3_independent_targets_each_match_its_own_roll_and_the_order_L2342():
    """UA-MT-3 (L2340-2342): each Target Pool against its own roll of the Complication side; if the
    order is disputed, most dice first, then closest to the Originator's left."""
    v = {x.pool: x.result for x in verdicts("independent", 0, {"A": 2, "B": 1}, {"A": 1, "B": 3})}
    assert v == {"A": "won", "B": "lost"}
    seats = ["O", "P", "Q", "R"]
    order = resolution_order({"R": 3, "Q": 3, "P": 1}, {"R": "R", "Q": "Q", "P": "P"}, seats, "O")
    assert order == ["Q", "R", "P"]
    with pytest.raises(RuleViolation) as e:
        verdicts("independent", 0, {"A": 2}, {})
    assert e.value.rule == "UA-MT-3" and "Multiple Targets" in str(e.value)
    seen('UA-MT-3')


def test_UA_MT_5_individual_pools_each_pair_is_its_own_standard_complication_L2362():
    """UA-MT-5 (L2362): each Target against its own Complication Pool's Successes."""
    v = {x.pool: (x.result, x.against) for x in verdicts("individual", 0, {"A": 3, "B": 3}, {"A": 2, "B": 4})}
    assert v == {"A": ("won", 2), "B": ("lost", 4)}
    seen('UA-MT-5')


def test_UA_MT_2_narration_and_edge_order_L2332():
    """UA-MT-2 (L2332): winners by coins, then losers by coins, equal coins clockwise from the
    Originator; a tie's Edge die to the Target Pool with most Successes, then nearest the left."""
    seats = ["O", "P", "Q", "R"]
    owners = {k: k for k in seats}
    order = narration_order({"O": 5, "P": 9, "Q": 9, "R": 12}, {"O": False, "P": True, "Q": True, "R": False},
                            owners, seats, "O")
    assert order == ["P", "Q", "R", "O"]
    assert edge_pool({"P": 2, "Q": 3, "R": 3}, owners, seats, "O") == "Q"
    # the Complication side (UA-OWN-1): its own Pool first among equals, though the Originator sits last
    assert edge_pool({"C": 1, "R": 1}, {"C": "O", "R": "R"}, seats, "O", ahead="C") == "C"
    assert edge_pool({"C": 1, "R": 2}, {"C": "O", "R": "R"}, seats, "O", ahead="C") == "R"
    # keyed by narration slot (a Split Allocation's Complication Pool narrates twice): O's won part first
    assert narration_order({0: 4, 1: 4, 2: 4}, {0: False, 1: True, 2: True}, {0: "O", 1: "O", 2: "P"},
                           seats, "O") == [2, 1, 0]
    seen('UA-MT-2')


def test_UA_MT_1_no_target_pool_is_refused():
    """UA-MT-1: a method needs at least one Target Pool."""
    with pytest.raises(RuleViolation) as e:
        verdicts("standard", 1, {})
    assert e.value.rule == "UA-MT-1"
    seen('UA-MT-1')


# --- Extended (L2412-2422) ---------------------------------------------------------------------------
def test_UA_EXT_2_UA_EXT_3_seven_against_ten_in_three_stages_L2418():
    """UA-EXT-2 (L2418 "divided as evenly as possible") and UA-EXT-3 (L2420 "The smallest sub-pools
    on either side are rolled first"): the digest's derived test, 7 against 10 with N=3 gives
    [2,2,3] against [3,3,4], rolled 2v3, 2v3, 3v4."""
    assert split_evenly(7, 3) == [2, 2, 3] and split_evenly(10, 3) == [3, 3, 4]
    assert extended_stages(7, 10, 3) == [(2, 3), (2, 3), (3, 4)]
    assert sum(split_evenly(23, 4)) == 23
    seen('UA-EXT-2', 'UA-EXT-3')


def test_UA_EXT_2_too_many_stages_refused_naming_the_add_on():
    """UA-EXT-2: fewer than 2 stages, or more stages than dice, is refused by Extended Complications."""
    for dice, parts in ((7, 1), (2, 3)):
        with pytest.raises(RuleViolation) as e:
            split_evenly(dice, parts)
        assert e.value.rule == "UA-EXT-2" and "Extended Complications" in str(e.value)
    seen('UA-EXT-2')


# --- own Pool per participant (L1040) -------------------------------------------------------------
OWN = {"pool_per_participant": True}


def _own_pools(addons: dict | None = None):
    """Ben's Event against Ann's Hero: Ben buys 4 dice for C and 3 for Ann's Pool; Cat, on her turn,
    buys 2 for her own Pool and calls for the roll."""
    g = _rival(OWN if addons is None else addons)
    g.end_turn("Ben")
    return g


def test_UA_OWN_1_a_bystanders_own_pool_declared_for_the_complication_decides_the_roll_L1040():
    """UA-OWN-1 (L1040, @128052 "every participating player keep their own Pool"; @128224 "before
    they're rolled each player can declare his Pool for whichever side makes sense"): Cat, who
    Controls no Target, keeps a Pool of her own; the roll waits for her declaration; declared for
    the Complication, her 1 Success breaks what would be a 2-2 tie. Coins (U-COMP-9): Ben's C Pool
    won with 1+2 = 3, Cat's won with 5, Ann's lost with 3 dice = 3."""
    g = _own_pools()
    assert [p.key for p in g.s.complication.pools] == ["C", "Ann", "Cat"]
    g.act(A.BuyDie(player="Cat", pool="Cat", count=2, text="the rival's hired blades"))
    assert g.wealth("Cat") == 25 - 2 and g.wealth("Ben") == 25 - 1 - 7
    g.call_and_agree("Cat")
    assert (g.pend.kind, g.pend.players) == ("declare_side", ("Cat",))
    assert [o.type for o in legal_options(g.s, "Cat")] == ["declare_pool"]
    err = g.refused(A.Roll(faces={"C": [1, 2, 7, 8], "Ann": [3, 4, 9], "Cat": [5, 6]}), "UA-OWN-1", "not been declared")
    assert "Own Pool per Participant" in str(err)
    g.refused(A.DeclarePool(player="Ann", side="C"), "UA-OWN-1", "Controls a Target")
    g.refused(A.DeclarePool(player="Ben", side="T"), "UA-OWN-1", "Originated")
    g.effect("UA-OWN-1", A.DeclarePool(player="Cat", side="C", text="her blades are the rival's"),
             lambda b, a: a.complication.pool("Cat").side == "C")
    assert g.pend.kind == "roll" and dict(g.pend.dice) == {"C": 4, "Ann": 3, "Cat": 2}
    g.roll(C=[1, 2, 7, 8], Ann=[3, 4, 9], Cat=[5, 6])
    res = g.last("complication_result")
    assert res.data["winner"] == "C"
    assert res.data["bonus"] == {"C": 3, "Ann": 3, "Cat": 5}
    g.refused(A.DeclarePool(player="Cat", side="T"), "UA-OWN-1")
    before = {p: g.wealth(p) for p in P3}
    g.narrate_out()
    assert {p: g.wealth(p) - before[p] for p in P3} == {"Ann": 3, "Ben": 3, "Cat": 5}
    g.check()
    seen("UA-OWN-1")


def test_UA_OWN_1_a_pool_declared_for_the_targets_joins_them_and_an_empty_pool_takes_no_side():
    """UA-OWN-1: declared for the Targets Cat's Success adds to Ann's (3 against 2: the Targets win:
    Ann 3+4 = 7, Cat 5; C lost with 4 dice = 4); Cat may re-declare until the roll."""
    g = _own_pools()
    g.act(A.BuyDie(player="Cat", pool="Cat", count=2))
    g.act(A.DeclarePool(player="Cat", side="C"))
    g.act(A.DeclarePool(player="Cat", side="T"))
    g.refused(A.DeclarePool(player="Cat", side="T"), "UA-OWN-1", "already declared")
    g.call_and_agree("Cat")
    assert g.pend.kind == "roll"
    g.roll(C=[1, 2, 7, 8], Ann=[3, 4, 9], Cat=[5, 6])
    res = g.last("complication_result")
    assert res.data["winner"] == "T" and res.data["bonus"] == {"C": 4, "Ann": 3 + 4, "Cat": 5}
    g.check()
    # nobody built a bystander Pool: no declaration is asked for; the roll is the core one
    h = _own_pools()
    h.call_and_agree("Cat")
    assert h.pend.kind == "roll" and dict(h.pend.dice) == {"C": 4, "Ann": 3, "Cat": 0}
    seen("UA-OWN-1")


def test_UA_OWN_1_a_tie_gives_the_edge_die_to_the_side_pool_with_most_successes_U_COMP_8():
    """UA-OWN-1 with a tie (U-COMP-8, L1114): C 0 + Cat 2 against Ann 2; the Complication side's sum
    of Successes (5+4 = 9) beats the Targets' (1+2 = 3), so its Edge die goes to the Pool on that side
    with the most Successes: Cat's, which rolls 3 dice next."""
    g = _own_pools()
    g.act(A.BuyDie(player="Cat", pool="Cat", count=2))
    g.act(A.DeclarePool(player="Cat", side="C"))
    g.call_and_agree("Cat")
    g.roll(C=[7, 8, 9, 9], Ann=[1, 2, 9], Cat=[5, 4])
    assert g.last("edge").data["gets"] == ["Cat"]
    assert g.pend.kind == "roll" and dict(g.pend.dice) == {"C": 4, "Ann": 3, "Cat": 3}
    g.check()
    seen("UA-OWN-1")


def test_UA_OWN_1_a_core_table_has_no_bystander_pools_and_no_declarations():
    """Without the option (core U-COMP-2, L1040) only C and the Target's Controller have Pools, and a
    declaration is refused naming the add-on."""
    g = _own_pools({})
    assert [p.key for p in g.s.complication.pools] == ["C", "Ann"]
    err = g.refused(A.DeclarePool(player="Cat", side="C"), "UA-OWN-1", "core rule")
    assert "Own Pool per Participant" in str(err)
    seen("UA-OWN-1")


# --- cards in Pools (L2050-2052) ----------------------------------------------------------------------
def test_UA_CARDS_4_face_cards_in_a_pool_L2052():
    """UA-CARDS-4 (L2052): a Jack cancels a Success; a King counts as an extra Success for deciding
    the winner but earns no coins; a Queen is a free coin but no Success."""
    faces = [1, 3, 7, JACK, KING, KING, QUEEN]
    sc = score(faces, "cards", face_cards=True)
    assert sc.successes == 2 - 1 + 2 and sc.success_sum == 4
    assert pool_coins(faces, len(faces), won=True, die="cards", face_cards=True) == 1 + 3 + 1
    assert pool_coins(faces, len(faces), won=False, die="cards", face_cards=True) == 3 + 1
    assert score(faces, "cards", face_cards=False).successes == 2  # without the gimmick faces count nothing
    seen('UA-CARDS-4')


# --- Dice Only Added (L2308-2318) -----------------------------------------------------------------
def _coward(addons: dict | None = None):
    """Ann's named Sheriff has his name and Cowardice; Ben's Outlaws ride against him."""
    g = framed(P3, {"Ann": 1}, addons=addons or {})
    sheriff = g.create("Ann", "Sheriff", proper_name="Jed")
    coward = g.add("Ann", sheriff, "Cowardice")
    g.end_turn("Ann")
    g.outlaws = g.create("Ben", "Outlaws")
    g.event("Ben", "Outlaws ride in to face the sheriff.", performer=g.outlaws, receiver=sheriff)
    return g, sheriff, coward


def test_UA_ADD_1_worked_example_named_character_with_cowardice_L2318():
    """UA-ADD-1 (L2312, worked number L2318): core: his name's die and Cowardice's removal leave his
    Pool at 0; with Dice Only Added his Pool keeps 1 and the opposing Pool gets +1."""
    for addons, ann, c in (({}, 0, 0), ({"allow_dice_subtraction": False}, 1, 1)):
        g, sheriff, coward = _coward(addons)
        name = g.trait(sheriff, "Jed")
        g.act(A.DrawTrait(player="Ben", component=sheriff, trait=name, pool="Ann", text="the sheriff's nerve"))
        before = g.s.complication.pool("C").dice
        g.act(A.DrawTrait(player="Ben", component=sheriff, trait=coward, pool="Ann", remove=True,
                          text="he is a coward"))
        comp = g.s.complication
        assert (comp.pool("Ann").dice, comp.pool("C").dice - before) == (ann, c), addons
    seen('UA-ADD-1')


def test_UA_ADD_1_bought_removal_becomes_a_bought_die_for_the_other_side():
    """UA-ADD-1: 2 coins that would remove 2 dice from the Complication Pool add 2 to the Target Pool
    instead, at the same price."""
    g, sheriff, _ = _coward({"allow_dice_subtraction": False})
    g.act(A.BuyDie(player="Ben", pool="C", count=2))
    spend = g.spendable("Cat")
    g.end_turn("Ben")
    g.act(A.BuyDie(player="Cat", pool="C", count=2, remove=True, text="the outlaws are drunk"))
    comp = g.s.complication
    assert (comp.pool("C").dice, comp.pool("Ann").dice) == (2, 2)
    assert g.spendable("Cat") == spend - 2
    g.check()
    seen('UA-ADD-1')


# --- No New Traits in Complications (L2218-2230) -------------------------------------------------------
def test_UA_FREEZE_1_no_traits_from_origination_until_the_tally_L2222():
    """UA-FREEZE-1 (L2222 "No buying new Traits during a Complication... Once the dice are rolled and
    results tallied, the ban is lifted"): refused for any Component, Creation included (reading);
    allowed again in the narration after the roll."""
    g, sheriff, _ = _coward({"complication_trait_freeze": "always"})
    g.act(A.BuyDie(player="Ben", pool="C", count=1))
    err = g.refused(A.AddTrait(player="Ben", component=g.outlaws, text="Sharpshooters"), "UA-FREEZE-1")
    assert "No New Traits in Complications" in str(err)
    g.refused(A.CreateComponent(player="Ben", role="Gunslinger"), "UA-FREEZE-1")
    g.act(A.BuyDie(player="Ben", pool="Ann", count=1))
    g.call_and_agree("Ben")
    g.roll(C=[1], Ann=[9])
    assert g.pend.kind == "narration" and tuple(g.pend.players) == ("Ben",)
    g.act(A.AddTrait(player="Ben", component=sheriff, text="Wounded"))  # the ban is lifted
    assert g.s.components[sheriff].traits[-1].text == "Wounded"
    seen('UA-FREEZE-1')


def test_UA_FREEZE_1_core_table_buys_traits_during_complications():
    """Without the add-on a Trait may be bought during a Complication (core: lines 1080-1086)."""
    g, sheriff, _ = _coward()
    g.act(A.AddTrait(player="Ben", component=g.outlaws, text="Sharpshooters"))
    assert g.s.components[g.outlaws].traits[-1].text == "Sharpshooters"
    seen('UA-FREEZE-1')


def test_UA_FREEZE_2_climactic_only_bans_in_scenes_the_framer_marked_L2230():
    """UA-FREEZE-2 (L2230): with the option the ban holds only where the framer bought "Climactic Scene"."""
    g, sheriff, _ = _coward({"complication_trait_freeze": "climactic_only"})
    g.act(A.AddTrait(player="Ben", component=g.outlaws, text="Sharpshooters"))  # a set-up scene: allowed
    g.end_turn("Ben")
    g.end_turn("Cat")
    loc = g.s.scene().location
    g.act(A.AddTrait(player="Ann", component=loc, text="Climactic Scene"))
    g.refused(A.AddTrait(player="Ann", component=sheriff, text="Brave after all"), "UA-FREEZE-2")
    seen('UA-FREEZE-2')


def test_UA_OWN_1_the_model_is_told_its_move_and_each_pools_side_only_when_the_add_on_is_on():
    """The LLM's state text (agents/llm/state_text.py): with Own Pool per Participant the add-on's line
    names its move (declare_pool) and each Pool shows its side; a core table's text has neither, and
    another add-on's line does not name it."""
    from agents.llm.state_text import describe_state
    g = _own_pools()
    g.act(A.BuyDie(player="Cat", pool="Cat", count=2))
    text = describe_state(g.s, "Cat")
    assert "declare_pool" in text and "pool Cat (Cat, side not declared yet)" in text
    assert "pool Ann (Ann, Targets' side)" in text and "pool C (Ben, Complication side)" in text
    from types import SimpleNamespace
    from app.commands.play import situation  # the terminal's table shows the same sides
    shown = "\n".join(situation(SimpleNamespace(state=g.s), "Cat"))
    assert "Cat (Cat, side not declared yet) 2 dice" in shown and "Ann (Ann, Targets' side) 3 dice" in shown
    core = describe_state(_own_pools({}).s, "Cat")
    assert "declare_pool" not in core and "Complication side" not in core and "Moves:" not in core
    other = describe_state(_own_pools({"plot_pools": True}).s, "Cat")
    assert "create_plot_pool" in other and "declare_pool" not in other
    seen("UA-OWN-1")


def test_every_add_on_move_line_names_a_registered_add_on_and_real_actions():
    """The prompt's move lines (addon_registry.ACTIONS) belong to add-ons that exist and name action
    types the engine has, so a model is never told of a move it cannot make."""
    import re
    from engine.universalis.actions import ACTION_TYPES
    from engine.universalis.addon_registry import ACTIONS, BY_KEY
    for key, line in ACTIONS.items():
        assert key in BY_KEY, key
        named = set(re.findall(r"\b[a-z]+(?:_[a-z]+)+\b", line))
        assert named and named <= set(ACTION_TYPES), (key, named - set(ACTION_TYPES))


def _declare_obs(g):
    from agents.base import Observation
    s = g.s

    def check(action) -> str | None:
        try:
            apply(s, action)
        except RuleViolation as exc:
            return str(exc)
        return None

    return Observation(player="Cat", state=s, pending=g.pend, options=legal_options(s, "Cat"), check=check)


def test_UA_OWN_1_ai_seats_answer_the_declaration_heuristic_and_model():
    """UA-OWN-1 for the AI seats: asked to declare (the declare_side decision), the heuristic backs
    the side its dice were gathered for and a model's answer (prompts/declare_side.md) is applied."""
    from agents.heuristic import HeuristicPlayer
    from agents.llm.config import LLMSettings
    from agents.llm.fake import ScriptedChatModel, tool_call
    from agents.llm.player import LLMPlayer, prompt_name
    g = _own_pools()
    g.act(A.BuyDie(player="Cat", pool="Cat", count=2))
    g.call_and_agree("Cat")
    obs = _declare_obs(g)
    d = HeuristicPlayer("Cat", seed=1).decide(obs)
    assert d.action.type == "declare_pool" and d.action.side in ("C", "T") and obs.check(d.action) is None
    chat = ScriptedChatModel(script=[tool_call("Choice", {"action": {"type": "declare_pool", "side": "C",
                                                                     "text": "her blades serve the rival"},
                                                          "why": "the rival paid her"})])
    llm = LLMPlayer("Cat", LLMSettings(base_url="http://127.0.0.1:9/v1"), chat_model=chat)
    assert prompt_name(obs) == "declare_side"
    d = llm.decide(obs)
    assert d.kind == "llm" and d.fallback is None and d.action == A.DeclarePool(
        player="Cat", side="C", text="her blades serve the rival")
    assert "declare your own Pool" in chat.calls[0][-1].content
    seen("UA-OWN-1")


def test_UA_OWN_1_adopting_or_dropping_it_mid_complication_is_refused():
    """UA-OWN-1 with UA-GIM-1: the option changes how an open Complication's Pools are sided, so a
    Rules Gimmick adopting or dropping it waits until the Complication is over."""
    g = _own_pools()
    g.refused(A.AdoptAddon(player="Cat", addon="pool-per-participant", drop=True), "UA-OWN-1", "not while")
    h = _own_pools({})
    h.refused(A.AdoptAddon(player="Cat", addon="pool-per-participant"), "UA-OWN-1", "not while")
    seen("UA-OWN-1")


def test_UA_MT_2_a_roll_with_no_target_pool_is_judged_not_refused():
    """The roll's judge (addon_hooks.judge, through verdicts) with no Pool on the Targets' side (an Obstacle
    on a statement with no Target, at a table whose undeclared Pools take no side, UA-OWN-1): the
    Complication wins with one Success, and 0 against 0 is a tie (U-COMP-8), never a refused roll."""
    from engine.universalis.addon_hooks import judge
    g = _rival(OWN)
    comp = g.s.complication
    assert judge(g.s, comp, 2, {"C": 2}, []).result == "lost"
    assert judge(g.s, comp, 0, {"C": 0}, []).result == "tie"
    assert judge(g.s, comp, 2, {"C": 2, "Ann": 3}, ["Ann"]).result == "won"
    seen("UA-MT-2")

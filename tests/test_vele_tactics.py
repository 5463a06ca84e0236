"""The struggle variants of engine/vele/tactics.py, each pinned to its rule and the book's line with
fixed dice: mass struggles, blocks, terrain, allies, movement, modes and aides, hidden rolls."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.errors import RuleViolation
from engine.vele import tactics as T
from engine.vele.economy import points
from engine.vele.struggle import Side


def refuses(rule: str, fn, *args, **kw) -> str:
    with pytest.raises(RuleViolation) as exc:
        fn(*args, **kw)
    assert exc.value.rule == rule, exc.value
    assert "\n" not in str(exc.value)
    return str(exc.value)


def test_V_38_mass_struggle_needs_area_and_hits_the_zone():
    """V-38 (L433; Area 8 / Selective Area 10, L667-668): a struggle against several components needs Area;
    Area hits the whole zone but the actor, Selective Area only the chosen."""
    zone = ["hero", "m1", "m2", "boss"]
    refuses("V-38", T.mass_targets, zone, "hero", None)
    assert T.mass_targets(zone, "hero", "area") == ["m1", "m2", "boss"]
    assert T.mass_targets(zone, "hero", "selective_area", ["m2"]) == ["m2"]
    refuses("V-38", T.mass_targets, zone, "hero", "selective_area", ["hero"])


def test_V_EX_18_mass_attack_pays_power_for_every_target_or_uses_none():
    """V-EX-18, V-38 (L433): Area 8 plus Power Attack 6 against 3 targets needs a power die for each of the
    3; with only 2 the attack uses no other ability at all."""
    assert T.mass_power([6, 6, 6], per_target=1, targets=3) == [6, 6, 6]
    assert T.mass_power([6, 6], per_target=1, targets=3) == []
    assert T.mass_power([6, 6, 6, 6], per_target=1, targets=3) == [6, 6, 6]


def flow_points(f: T.MassFlow) -> int:
    return sum(points(d) for d in f.to_player.values()) + points(f.to_bowl)


def test_V_38_mass_struggle_resolves_each_defender_and_the_bowl_pays_extra_copies():
    """V-38 (L433-435): one wager, one roll, each defender resolves separately; losing to any defender loses
    the wager; the first winning defender takes the actor's dice, a later one its own copy from the bowl."""
    actor = Side(faces=(5,))
    defenders = {"Ben": (Side(faces=(6,)), [6]), "Cy": (Side(faces=(2,)), [4]), "Dee": (Side(faces=(7,)), [8])}
    f = T.resolve_mass("Ann", actor, own=[8], bowl_used=[], defenders=defenders)
    assert f.winners == {"Ben": "opponent", "Cy": "actor", "Dee": "opponent"}
    assert sorted(f.to_player["Ben"]) == [6, 8] and sorted(f.to_player["Dee"]) == [8, 8]
    assert f.from_bowl == [8] and f.to_player["Ann"] == [4] and f.effects["Cy"] == 3
    # every die in play lands somewhere; the bowl's copy is the only new one
    assert flow_points(f) == points([8, 6, 4, 8]) + points(f.from_bowl)


def test_V_38_mass_struggle_won_against_all_pays_bowl_fees_per_defender():
    """V-38 (L435): "If the actor wins, any bowl dice they used subtract from the winnings for each
    opponent": with one bowl d6 wagered, each beaten defender's highest die goes to the bowl."""
    actor = Side(faces=(9,))
    defenders = {"Ben": (Side(faces=(3,)), [8, 4]), "Cy": (Side(faces=(2,)), [6])}
    f = T.resolve_mass("Ann", actor, own=[10], bowl_used=[6], defenders=defenders)
    assert set(f.winners.values()) == {"actor"} and not f.from_bowl
    assert sorted(f.to_bowl) == [6, 6, 8] and sorted(f.to_player["Ann"]) == [4, 10]
    assert flow_points(f) == points([10, 6, 8, 4, 6])


@settings(max_examples=200, deadline=None)
@given(actor=st.integers(1, 12), own=st.lists(st.sampled_from([4, 6, 8, 10, 12]), min_size=0, max_size=3),
       bowl=st.lists(st.sampled_from([4, 6, 8, 10, 12]), min_size=0, max_size=2),
       defenders=st.lists(st.tuples(st.integers(1, 12), st.lists(st.sampled_from([4, 6, 8, 10, 12]), min_size=1,
                                                                    max_size=3)), min_size=1, max_size=4))
def test_V_38_mass_struggle_conserves_dice_for_any_roll(actor, own, bowl, defenders):
    """V-38, V-9 (L433-435): whatever the rolls, every die wagered in a mass struggle lands in a pool or the
    bowl, and the only dice that appear are the bowl's copies for the second and later winning defenders;
    the actor keeps its own dice only if it beats every defender."""
    if not own and not bowl:
        own = [6]
    ds = {f"D{i}": (Side(faces=(face,)), dice) for i, (face, dice) in enumerate(defenders)}
    f = T.resolve_mass("Ann", Side(faces=(actor,)), own=own, bowl_used=bowl, defenders=ds)
    wagered = [*own, *bowl, *(d for _, dice in ds.values() for d in dice)]
    assert flow_points(f) == points(wagered) + points(f.from_bowl)
    winners = [n for n, w in f.winners.items() if w == "opponent"]
    assert len(f.from_bowl) == len([*own, *bowl]) * max(0, len(winners) - 1)
    for n in winners:  # each winning defender keeps its own dice and gets a full set of the actor's
        assert sorted(f.to_player[n]) == sorted([*ds[n][1], *own, *bowl])
    if not winners:
        assert sorted(d for d in f.to_bowl) == sorted([*bowl, *(
            d for _, dice in ds.values() for d in sorted(dice, reverse=True)[:len(bowl)])])


def test_V_39_block_must_be_exceeded_and_reused_until_the_blockers_next_turn():
    """V-39 (L479-481): the blocked component must exceed the block's result before doing the blocked
    thing; repeat attempts meet the same value; the block stands until the blocker's next turn."""
    b = T.Block(blocker="guard", target="thief", prevents="open the vault", value=5)
    assert not T.overcome_block(b, "thief", "open the vault", 5)  # a tie does not exceed
    assert not T.overcome_block(b, "thief", "open the vault", 4)  # a second try: same value, no new roll
    assert T.overcome_block(b, "thief", "open the vault", 6)
    assert T.overcome_block(b, "thief", "run away", 1) and T.overcome_block(b, "mage", "open the vault", 1)
    assert T.block_stands(b, "thief", ["thief", "mage"]) and not T.block_stands(b, "guard", ["thief"])
    assert not T.block_stands(b, "mage", ["guard", "mage"])


def test_V_24_block_abilities_set_the_block_value():
    """V-24, V-39 (L479; Block 6 / Auto-Block 8): a success blocks with its result; Auto-Block blocks even on
    a failure, with a reroll for the value; plain Block does not."""
    assert T.block_value("block", True, 7) == 7
    assert T.block_value("block", False, 3) is None
    assert T.block_value("auto_block", False, 3, reroll=5) == 5
    refuses("V-24", T.block_value, "auto_block", False, 3)


def test_V_41_V_EX_15_stationary_terrain_attacks_on_its_victims_turn():
    """V-41, V-EX-15 (L437): on Dexter's turn he steps onto a rickety bridge; the bridge attacks him then,
    on his turn, not on its own; an ordinary component attacks on its own turn only (V-25)."""
    T.may_attack_now("bridge", stationary=True, turn_of="Dexter", victim="Dexter")
    refuses("V-41", T.may_attack_now, "bridge", True, "bridge", "Dexter")
    refuses("V-41", T.may_attack_now, "bridge", True, "Dexter", "Dexter", nearby=False)
    refuses("V-25", T.may_attack_now, "troll", False, "Dexter", "Dexter")
    T.may_attack_now("troll", stationary=False, turn_of="troll", victim="Dexter")


def test_V_41_failing_against_a_thing_brings_a_counter_struggle():
    """V-41 (L441): Dexter's d8 Acrobatics fails against a d6 Wall: with approval the wall "attacks" with
    its d6; no failure or no approval, no counter-struggle."""
    assert T.counter_struggle(6, failed=True, approved=True) == 6
    assert T.counter_struggle(6, failed=False, approved=True) is None
    assert T.counter_struggle(6, failed=True, approved=False) is None


def test_V_43_V_EX_20_allies_forfeit_and_cannot_ally_back():
    """V-43, V-EX-20 (L445): C allies in B's defence before C has acted; C still does nothing during its
    next struggle, B may not ally in C's defence, and C may not ally someone else in the same round."""
    book = T.Allies().join("C", "B", defending=True)
    refuses("V-43", book.check_act, "C")
    refuses("V-43", book.join, "B", "C", True)
    refuses("V-43", book.join, "C", "D", False)
    book.join("B", "C", defending=False)  # attacking together is not C's defence
    after = book.sat_out("C")
    after.check_act("C")
    assert after.new_round().join("C", "D", defending=True).helping == {"C": "D"}


def test_V_44_one_zone_before_or_after_and_one_more_as_the_struggle():
    """V-44 (L415): you can move one zone before or after a struggle, and one more zone as a struggle."""
    assert T.check_movement(1, 0) == 1 and T.check_movement(0, 1, as_struggle=1) == 2
    refuses("V-44", T.check_movement, 1, 1)
    refuses("V-44", T.check_movement, 0, 0, 2)


def test_V_45_mode_cannot_contradict_the_round_and_attaching_takes_a_struggle_or_xp():
    """V-45 (L421, L685): a unit attacked while integrated, before it acted, stays integrated that round;
    attaching takes a struggle, or 1 XP of fate."""
    assert T.announce_mode("integrated", "autonomous", happened=[]) == "autonomous"
    refuses("V-45", T.announce_mode, "integrated", "autonomous", ["integrated"])
    assert T.announce_mode("integrated", "integrated", ["integrated"]) == "integrated"
    assert T.attach_cost("struggle", 0) == 0 and T.attach_cost("fate", 3) == 1
    refuses("V-45", T.attach_cost, "fate", 0)


def test_V_EX_14_integrated_aide():
    """V-EX-14, V-45 (L427): a normal bodyguard integrated with and aiding a PC. An attack on the PC must
    target a PC trait (a d8: -3); an attack on the bodyguard has no targeting difficulty; the first trait
    lost is the PC's, the rest may be the bodyguard's."""
    refuses("V-45", T.aided_attack_difficulty, None, aided_by_non_minions=True)
    assert T.aided_attack_difficulty(8, aided_by_non_minions=True) == 3
    assert T.aided_attack_difficulty(None, aided_by_non_minions=False) == 0
    unit = ["pc", "guard"]
    T.check_aided_damage("pc", [("pc", "Wits"), ("guard", "Shield"), ("guard", "Brawn")], unit)
    refuses("V-45", T.check_aided_damage, "pc", [("guard", "Shield"), ("pc", "Wits")], unit)
    refuses("V-45", T.check_aided_damage, "pc", [("pc", "Wits"), ("horse", "Speed")], unit)


def test_V_31_hidden_roll_reports_only_the_effect_and_takes_no_wager():
    """V-31 (L690): the other side hides its roll and reports the effect only, so a failure and a win
    with no effect look alike; no wagering is possible."""
    assert T.hidden_roll(Side(faces=(7,)), Side(faces=(4,)), wagered=False) == {"effect": 3}
    assert T.hidden_roll(Side(faces=(3,)), Side(faces=(4,)), wagered=False) == {"effect": 0}
    assert T.hidden_roll(Side(faces=(4,)), Side(faces=(4,)), wagered=False) == {"effect": 0}
    refuses("V-31", T.hidden_roll, Side(faces=(7,)), Side(faces=(4,)), True)

"""Invariants of Paganini's pure rules as hypothesis properties (P-2, P-5, P-9, P-10, P-13, P-17)."""
from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.errors import RuleViolation
from engine.paganini import combat as C
from engine.paganini.ladder import kept, pool_size, tier, tier_odds
from engine.paganini.sheet import ATTRIBUTES, check_attributes, check_skills, free_skill_levels

d20 = st.integers(1, 20)


@given(st.integers(-12, 12), st.data())
def test_P_2_the_kept_die_is_the_pools_max_or_min(n, data):
    """P-2 (@8263): |n|+1 dice; HD keep the highest, LD the lowest, 0 the base die."""
    faces = data.draw(st.lists(d20, min_size=pool_size(n), max_size=pool_size(n)))
    k = kept(faces, n)
    assert k == (max(faces) if n > 0 else min(faces) if n < 0 else faces[0])


@given(d20, d20)
def test_P_5_tiers_rise_with_the_roll(a, b):
    """P-5 (@9536): a higher roll is never a lower tier; 11 is the first success."""
    if a <= b:
        assert tier(a) <= tier(b)
    assert (tier(a) >= 4) == (a >= 11)


@given(st.integers(-10, 9))
def test_P_2_one_more_hd_never_lowers_the_chance_of_success(n):
    """P-2/P-5 (@8263): the success odds climb with the net dice."""
    assert sum(tier_odds(n + 1)[4:]) >= sum(tier_odds(n)[4:])


@given(st.integers(0, 40), st.integers(0, 30))
def test_P_17_the_track_never_leaves_0_to_25(wounds, boxes):
    """P-17 (@19152): the 25-box track; the excess is reported, not lost."""
    w = min(wounds, 25)
    after, excess = C.take_boxes(w, boxes)
    assert 0 <= after <= 25 and after + excess == w + boxes
    assert C.wound_penalty(after) <= C.wound_penalty(w) <= 0


def _attrs_valid_by_search(vals: dict[str, int], free: int = 3) -> bool:
    """Brute force of P-9: some free split f_i (0..r_i), traded t_i = r_i - f_i <= 2, sum f <= free,
    traded total equal to the levels lowered."""
    raised = [v for v in vals.values() if v > 0]
    lowered = sum(-v for v in vals.values() if v < 0)
    if any(abs(v) > 4 for v in vals.values()):
        return False
    for split in itertools.product(*[range(r + 1) for r in raised]):
        traded = [r - f for r, f in zip(raised, split)]
        if sum(split) <= free and all(t <= 2 for t in traded) and sum(traded) == lowered:
            return True
    return False


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(-4, 4), min_size=6, max_size=6))
def test_P_9_the_attribute_check_agrees_with_a_brute_force_search(levels):
    """P-9 (@23743, @23824, @23906): accepted exactly when some split into free and traded levels fits."""
    vals = dict(zip(ATTRIBUTES, levels))
    try:
        check_attributes(vals)
        ok = True
    except RuleViolation as exc:
        assert exc.rule == "P-9"
        ok = False
    assert ok == _attrs_valid_by_search(vals)


def _skills_valid_by_search(skills: dict[str, tuple[str, int]]) -> bool:
    base = {n: (0 if k == "general" else -4) for n, (k, _) in skills.items()}
    if any(v < base[n] and skills[n][0] != "general" for n, (_, v) in skills.items()):
        return False
    lowered = sum(base[n] - v for n, (_, v) in skills.items() if v < base[n])
    ups = [(v - base[n], 2 if k == "special" else 1) for n, (k, v) in skills.items() if v > base[n]]
    budget = free_skill_levels(len(skills))
    for split in itertools.product(*[range(r + 1) for r, _ in ups]):
        free = sum(f * c for f, (_, c) in zip(split, ups))
        traded = [(r - f, c) for f, (r, c) in zip(split, ups)]
        if free <= budget and all(t <= 2 for t, _ in traded) and sum(t * c for t, c in traded) == lowered:
            return True
    return False


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["general", "experience", "special"]), st.integers(-4, 4)),
                min_size=1, max_size=4))
def test_P_10_the_skill_check_agrees_with_a_brute_force_search(rows):
    """P-10 (@24141, @24249, @24411, @24504): accepted exactly when some free/traded split fits."""
    skills = {f"S{i}": row for i, row in enumerate(rows)}
    try:
        check_skills(skills)
        ok = True
    except RuleViolation as exc:
        assert exc.rule == "P-10"
        ok = False
    assert ok == _skills_valid_by_search(skills)


@given(st.lists(st.tuples(d20, d20), min_size=1, max_size=6))
def test_P_13_everyone_acts_once_a_twenty_twice_in_tier_order(rolls):
    """P-13 (@16385, @16446): each combatant has one slot, two after a 20; slots run down the tiers."""
    inits = [C.InitRoll(f"c{i}", r, e) for i, (r, e) in enumerate(rolls)]
    slots = C.initiative_slots(inits)
    flat = [w for slot in slots for w in slot]
    for i, (r, _) in enumerate(rolls):
        assert flat.count(f"c{i}") == (2 if r == 20 else 1)
    entries = [(tier(r), f"c{i}") for i, (r, _) in enumerate(rolls)]
    entries += [(tier(e), f"c{i}") for i, (r, e) in enumerate(rolls) if r == 20]
    expected = [sorted(w for t2, w in entries if t2 == t) for t in sorted({t for t, _ in entries}, reverse=True)]
    assert [sorted(slot) for slot in slots] == expected


OPTION_FLAGS = ["scale", "critical_hits_only", "reroll_ties", "ranged_margin", "exempt_damage_from_wounds",
                "death_past_25", "half_strength_round_away", "cover_cap", "quality_on_damage",
                "vulnerable_on_defender", "one_designated_per_adventure", "dazed"]


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 10_000), st.sets(st.sampled_from(OPTION_FLAGS), max_size=4),
       st.sampled_from([None, "Quickness", "Focus"]), st.integers(2, 5))
def test_random_tables_end_and_keep_every_invariant(seed, flags, init_attr, seats):
    """P-1, P-11, P-17 and the pending decision, after every action of seeded heuristic adventures
    under drawn table options: the adventure ends, nobody falls back, the invariants hold throughout."""
    from agents.game_sim import simulate
    from engine.core.ruleset import get_ruleset, replay_log_text

    options = {f: True for f in flags} | ({"initiative_attribute": init_attr} if init_attr else {})
    r = simulate("paganini", seats=seats, scenes=4, seed=seed, options=options)
    st_ = r.stats()
    assert st_["over"] and st_["fallbacks"] == 0, st_
    rs = get_ruleset("paganini")
    rep = replay_log_text(r.table.log_text(), keep_states=True)
    assert rep.error is None and rep.state.model_dump() == r.table.state.model_dump()
    for state in rep.states:
        assert rs.invariants(state) == []

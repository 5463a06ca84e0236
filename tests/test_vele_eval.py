"""eval/vele_check.py's stable entry point: the figures `storytable eval --game vele` prints."""
from __future__ import annotations

from eval import vele_check


def test_V_9_run_reports_conservation_and_speed_with_stable_keys():
    """V-9 (L322, @49637): one 3-seat story, every state replayed and checked: the dice are conserved and
    the result has exactly the documented keys."""
    out = vele_check.run(games=1, seats=3)
    assert tuple(out) == vele_check.RESULT_KEYS
    assert out["conserved"] and out["conservation_breaks"] == [] and out["games_over"] == 1
    assert out["states_checked"] == out["actions"] + 1 and out["engine_actions_per_second"] > 0


def test_V_38_V_31_area_uses_counts_area_and_hidden_rolls_at_a_zone_table():
    """V-38 (L667-668: Area 8, Selective Area 10), V-31 (L690): one 4-seat zone story (seed 0): the figures have
    exactly the documented keys; the first seat's villain buys Selective Area and uses it (with named targets), and no hidden roll ends untold (rules version 4 waits for the telling)."""
    out = vele_check.area_uses(games=1, seats=4)
    assert tuple(out) == vele_check.AREA_KEYS
    assert out["selective_area_bought"] >= 1 and out["selective_area_uses"] >= 1
    assert out["mass_struggles"] >= out["selective_area_uses"] and out["untold_hidden_rolls"] == 0
    assert out["fallbacks"] == 0

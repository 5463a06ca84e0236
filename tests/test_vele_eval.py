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

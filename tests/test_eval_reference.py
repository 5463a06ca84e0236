"""The reference arithmetic (eval/reference.py) against the engine on a recorded game, and by hand."""
from __future__ import annotations

import pytest

from eval.games import play_game
from eval.reference import CANCEL, COIN, CREDIT, POOL, ROLL, START, bonus_for, extract_tape, run_tape


@pytest.fixture(scope="module")
def recorded():
    """A short all-heuristic game with Complications rolled, and its tape."""
    for seed in range(5):
        table = play_game(4, 2, seed).table
        if any(e.kind == "complication_result" for e in table.events):
            seats, tape, final = extract_tape(table.header, table.records)
            return table, seats, tape, final
    pytest.fail("no Complication was resolved in 5 seeded games of 2 scenes")


def test_reference_coins_match_the_engine(recorded):
    table, seats, tape, final = recorded
    ref = run_tape(seats, tape)
    assert ref.coins == [p.wealth + p.stake for p in table.state.players]
    assert ref.coins == [p.wealth + p.stake for p in final.players]
    assert ref.pool_mismatches == 0
    assert len(ref.scene_coins) == table.state.scenes_ended


def test_reference_bonus_coins_match_the_engine_roll_by_roll(recorded):
    table, seats, tape, _ = recorded
    ref = run_tape(seats, tape)
    results = [e for e in table.events if e.kind == "complication_result"]
    assert results
    assert [r["bonus"] for r in ref.rolls] == [e.data["bonus"] for e in results]
    assert [r["winner"] for r in ref.rolls] == [e.data["winner"] for e in results]


def test_a_changed_die_changes_the_reference_so_the_check_is_not_vacuous(recorded):
    table, seats, tape, _ = recorded
    i = next(k for k, op in enumerate(tape) if op[0] == ROLL)
    faces = {k: tuple(v) for k, v in tape[i][1].items()}
    key = next(k for k, v in faces.items() if v)
    faces[key] = tuple(10 if f <= 5 else 1 for f in faces[key])  # every Success fails and vice versa
    # the tape is cut after that roll: what followed it (a winner's cancelled coins) was recorded for
    # the real faces, and a flipped roll that ties has no winner to cancel anything (an empty `rolls`)
    changed = tape[:i] + [(ROLL, faces)]
    assert run_tape(seats, changed).rolls[:1] != run_tape(seats, tape[:i + 1]).rolls[:1]


def test_bonus_coins_by_hand():
    # a winner earns his Success faces plus failed Edge faces; a loser 1 per die plus Edge faces (U-COMP-9)
    assert bonus_for(3, (1, 5, 9), won=True) == 6
    assert bonus_for(2, (2, 7, 8), won=True) == 2 + 8  # the third die is Edge and failed
    assert bonus_for(3, (1, 5, 9), won=False) == 3
    assert bonus_for(2, (2, 7, 4), won=False) == 3 + 4


def test_tie_gives_edge_then_the_reroll_pays_the_winner():
    seats = ["Ann", "Bob"]
    tape = [(COIN, 0, 25, 0), (COIN, 1, 25, 0), (START, 0), (POOL, "C", 2), (POOL, "Bob", 2),
            # one Success each; the sums are 1 against 2: Bob's Pool takes an Edge die (U-COMP-8)
            (ROLL, {"C": (1, 9), "Bob": (2, 9)}),
            (ROLL, {"C": (6, 7), "Bob": (3, 8, 9)}),  # Bob wins: 3 + the failed Edge 9; Ann loses: 2 dice
            (CANCEL, "C", 1), (COIN, 1, 0, 1), (CREDIT,)]
    ref = run_tape(seats, tape)
    assert ref.pool_mismatches == 0
    assert ref.rolls == [{"winner": "T", "bonus": {"C": 2, "Bob": 12}, "dice": {"C": 2, "Bob": 3}}]
    assert ref.coins == [25 + 2 - 1, 25 + 12 - 1]

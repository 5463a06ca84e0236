"""A seeded game is the same game in every process: nothing in the engine or the heuristic
players may depend on the order of a set of strings, which changes with PYTHONHASHSEED."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PLAY = ("from agents.simulation import simulate_game\n"
        "import sys\n"
        "sys.stdout.write(simulate_game(seats=3, scenes=1, seed=5).table.log_text())\n")


def _log_with_hashseed(value: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": value}
    done = subprocess.run([sys.executable, "-c", PLAY], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_a_seeded_simulation_logs_the_same_game_whatever_the_hash_seed():
    first, second = _log_with_hashseed("1"), _log_with_hashseed("2")
    assert len(first.splitlines()) > 50
    assert first == second

"""All-heuristic simulations: they finish, they are reproducible, and every action family occurs.

The issue asks that across 100 seeded games every family occurs: `test_100_seeded_games_...`
plays 100 seeds of three scenes each (about 40 s of CPU); the other tests share GAMES full
ten-scene games. The 100-game, ten-scene summary is measured by `agents.simulation.summarize`.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from agents.simulation import REQUIRED_FAMILIES, simulate_game, summarize, transcript_lines

pytestmark = pytest.mark.slow  # hundreds of seeded games: CI runs them with -m slow

GAMES = 8


@pytest.fixture(scope="module")
def games():
    return [simulate_game(seats=4, scenes=10, seed=seed) for seed in range(GAMES)]


def test_every_game_reaches_ten_scenes_without_fallbacks(games):
    for r in games:
        st = r.stats()
        assert st["scenes"] == 10, st
        assert st["fallbacks"] == 0
        assert r.table.state.phase == "bidding"  # a scene just ended and the next bid waits


def test_every_action_family_occurs_across_the_games(games):
    sm = summarize(games)
    assert sm["missing"] == [], sm["families"]
    for fam in REQUIRED_FAMILIES:
        assert sm["families"][fam] > 0, fam
    # complications are started with drawn dice and bought dice on both sides
    assert sm["families"]["complications started"] >= GAMES
    assert sm["families"]["eliminations done"] >= 1


def test_100_seeded_games_finish_and_every_action_family_occurs_across_them():
    results = [simulate_game(seats=4, scenes=3, seed=seed) for seed in range(100)]
    for r in results:
        st = r.stats()
        assert st["scenes"] == 3 and st["fallbacks"] == 0, st
    sm = summarize(results)
    assert sm["missing"] == [], sm["families"]
    for fam in REQUIRED_FAMILIES:
        assert sm["families"][fam] > 0, fam


def test_stats_count_what_the_log_holds(games):
    r = games[0]
    st = r.stats()
    assert sum(st["types"].values()) == st["actions"] == len(r.table.records)
    assert set(st["coins"]) == {"Ann", "Bob", "Cat", "Dan"}
    assert st["coins"]["Ann"] == r.table.state.player("Ann").wealth
    assert st["complications"] == sum(1 for e in r.table.events if e.kind == "complication")


def test_same_seed_same_game(tmp_path):
    a = simulate_game(seats=3, scenes=2, seed=5, log_path=tmp_path / "a.jsonl")
    b = simulate_game(seats=3, scenes=2, seed=5, log_path=tmp_path / "b.jsonl")
    la = [json.loads(x) for x in (tmp_path / "a.jsonl").read_text().splitlines()[1:]]
    lb = [json.loads(x) for x in (tmp_path / "b.jsonl").read_text().splitlines()[1:]]
    assert [x["action"] for x in la] == [x["action"] for x in lb]
    assert len(la) == a.actions == b.actions


def test_log_on_disk_replays_to_the_same_state(tmp_path):
    from engine.universalis.replay import replay_text

    r = simulate_game(seats=4, scenes=3, seed=11, log_path=tmp_path / "g.jsonl")
    rep = replay_text((tmp_path / "g.jsonl").read_text())
    assert rep.error is None
    assert rep.state.scenes_ended == 3
    assert [p.wealth for p in rep.state.players] == [p.wealth for p in r.table.state.players]


def test_progress_is_called_and_max_steps_stops(games):
    seen = []
    r = simulate_game(seats=4, scenes=10, seed=1, progress=lambda t: seen.append(len(t.records)), max_steps=120,
                      every=40)
    assert r.actions == 120
    assert seen[:3] == [40, 80, 120]


def test_transcript_reads_as_a_story(games):
    lines = transcript_lines(games[0].table)
    text = "\n".join(lines)
    assert lines[0].startswith("Premise: ")
    assert "== Scene 1 ==" in text and "== Scene 10 ==" in text
    # the story re-uses its own components: named characters come back after they are made. One made
    # late in a scene that is then cut may never return (seed 0 has one of its 8), so this counts
    # over three games and allows one in ten.
    reused = []
    for g in games[:3]:
        g_lines = transcript_lines(g.table)
        s = g.table.state
        names = [c.label for c in s.components.values() if c.kind == "character"
                 and any(t.kind == "name" for t in c.traits)]
        assert names
        reused += [sum(1 for ln in g_lines if n in ln) >= 2 for n in names]
    assert sum(reused) >= 0.9 * len(reused), reused
    assert "None" not in text and "{" not in text


def _cli(*args, env=None, cwd=None):
    e = dict(os.environ)
    e.pop("OPENAI_API_KEY", None)
    e.pop("OPENAI_BASE_URL", None)
    e.update(env or {})
    # through main() as the console script does (python -m app.cli would load app.cli twice)
    code = "import sys; from app.cli import main; sys.exit(main())"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=e, cwd=cwd,
                          timeout=300)


def test_cli_simulate_summary_transcript_and_log(tmp_path):
    out = tmp_path / "game.jsonl"
    p = _cli("simulate", "--seats", "3", "--scenes", "2", "--seed", "7", "--out", str(out), "--transcript")
    assert p.returncode == 0, p.stderr
    assert "Scenes: 2" in p.stdout and "Coins: Ann" in p.stdout and "Complications:" in p.stdout
    assert "== Scene 1 ==" in p.stdout
    assert "scene " in p.stderr and "actions" in p.stderr  # progress on stderr
    lines = out.read_text().splitlines()
    assert json.loads(lines[0]).get("game_id")
    assert len(lines) > 20


def test_cli_simulate_llm_without_endpoint_says_so(tmp_path, monkeypatch, capsys):
    from app.cli import main

    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "STORYTABLE_CONFIG"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.chdir(tmp_path)  # no storytable.toml here
    assert main(["simulate", "--ai", "llm", "--scenes", "1"]) == 2
    err = capsys.readouterr().err
    assert "OPENAI_API_KEY" in err and "OPENAI_BASE_URL" in err and "Traceback" not in err


def test_cli_simulate_refuses_bad_numbers(capsys):
    from app.cli import main

    assert main(["simulate", "--seats", "1"]) == 2
    assert "--seats" in capsys.readouterr().err


def test_llm_game_with_a_dead_endpoint_finishes_on_fallbacks():
    """--ai llm: every transport failure falls back to the heuristic, is counted, and the game goes on."""
    from agents.llm.config import LLMSettings

    settings = LLMSettings(base_url="http://127.0.0.1:9", timeout_s=0.5, max_refusals=0)
    r = simulate_game(seats=2, scenes=1, seed=1, ai="llm", settings=settings, max_steps=2000)
    st = r.stats()
    assert st["scenes"] == 1
    assert st["fallbacks"] > 0
    assert any(rec.meta.get("decided_by") == "llm" for rec in r.table.records)

"""The blind played-game memory probes (eval/data/probes/game2.json, 3 to 11): built from their logs, complete, honest.

Each was played with the heuristic players, then questioned by someone who saw no retrieval code
(see each file's "about"); these tests check what can break when a log, the engine or a
question list changes: the Facts the questions name, the tag mix, and the file on disk.
The questions are data read by one loader (eval/memory/probe_data.py), not Python modules.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from eval.memory.probe import load_probe
from eval.memory.probe_data import LEVELS, PROBES, build, flat_ids, load_questions, out_path, tag_counts

# probe, game id, question id prefix, fewest questions, words its Tenets must hold (the premise took)
PROBE_SPECS = [
    ("game2", "sim-7", "h", 60, ("crown", "gods")),
    ("game3", "sim-22", "k", 100, ("city", "payroll")),
    ("game4", "sim-43", "m", 100, ("crown", "gods")),
    ("game5", "sim-51", "w", 100, ("railroad", "law")),
    ("game6", "sim-61", "x", 100, ("house", "alone")),
    ("game7", "sim-71", "y", 100, ("empire", "rim")),
    ("game8", "sim-81", "z", 100, ("photograph", "midnight")),
    ("game9", "sim-93", "v", 100, ("sundown", "water")),
    ("game10", "sim-103", "u", 100, ("iron", "crown")),
    ("game11", "sim-111", "t", 100, ("lighthouse", "dead")),
]
NAMES = [p[0] for p in PROBE_SPECS]
_BUILT: dict[str, dict[str, Any]] = {}


def _data(name: str) -> dict[str, Any]:
    if name not in _BUILT:
        _BUILT[name] = build(name)
    return _BUILT[name]


@pytest.mark.parametrize("name, game_id, prefix, fewest, genre", PROBE_SPECS, ids=NAMES)
def test_builds_from_its_played_log_with_enough_facts_and_questions(name, game_id, prefix, fewest, genre):
    data = _data(name)
    assert data["game_id"] == game_id
    assert len(data["facts"]) >= 300 and len(data["queries"]) >= fewest
    assert all(q["scene"] == load_questions(name)["asked_in_scene"] for q in data["queries"])
    assert [q["id"] for q in data["queries"]][:2] == [f"{prefix}1", f"{prefix}2"]
    tenets = " ".join(f["text"] for f in data["facts"] if f["kind"] == "tenet").lower()
    assert all(word in tenets for word in genre)  # the premise took, not the default space opera


@pytest.mark.parametrize("name", NAMES)
def test_every_relevant_id_is_a_fact_and_no_question_copies_a_fact(name):
    data = _data(name)
    ids = {f["id"] for f in data["facts"]}
    texts = {f["text"].strip().lower().rstrip(".?") for f in data["facts"]}
    for q in data["queries"]:
        assert q["relevant"] and len(q["relevant"]) <= 6, q["id"]  # a question with a checkable answer
        assert all(r in ids for r in flat_ids(q["relevant"])), q["id"]
        assert q["text"].strip().lower().rstrip(".?") not in texts, q["text"]
    assert len({q["text"] for q in data["queries"]}) == len(data["queries"])


@pytest.mark.parametrize("name", NAMES)
def test_questions_mix_referents_topics_and_rewording(name):
    data = _data(name)
    counts = tag_counts(data)
    n = len(data["queries"])
    for tag in ("name", "role", "place", "placedesc", "scene", "tenet", "wound", "outcome", "deed"):
        assert counts.get(tag, 0) >= 3, tag
    assert abs(counts["name"] - counts["role"]) <= n // 5  # characters asked by name about as often as by role
    for level in LEVELS:
        assert counts[level] >= n // 5, level


def test_the_tuning_probe_asks_enough_about_described_places_and_outcomes():
    counts = tag_counts(_data("game4"))
    assert counts["placedesc"] >= 12 and counts["outcome"] >= 15


@pytest.mark.parametrize("name", NAMES)
def test_unknown_fact_id_raises(name):
    with pytest.raises(ValueError, match="t9999"):
        build(name, [{"text": "Who is that?", "relevant": [["t1", "t9999"]], "tags": "none light"}])


@pytest.mark.parametrize("name", NAMES)
def test_a_question_without_its_referent_tag_is_refused(name):
    with pytest.raises(ValueError, match="trait light"):  # name, role or none?
        build(name, [{"text": "Who is that?", "relevant": ["t1"], "tags": "trait light"}])


@pytest.mark.parametrize("name, game_id", [p[:2] for p in PROBE_SPECS], ids=NAMES)
def test_written_file_matches_the_build_and_loads_as_a_probe(name, game_id):
    data = _data(name)
    on_disk = json.loads(out_path(name).read_text())
    # ids, texts and questions must match the log; other record fields may grow (rerun probe_data then)
    assert [(f["id"], f["text"]) for f in on_disk["facts"]] == [(f["id"], f["text"]) for f in data["facts"]]
    assert on_disk["queries"] == json.loads(json.dumps(data["queries"]))
    loaded_id, facts, queries = load_probe(out_path(name))
    assert loaded_id == game_id and len(facts) == len(data["facts"]) and len(queries) == len(data["queries"])


def test_probe_questions_are_data_not_code():
    """Issue 23: the probes live under eval/data/probes/ as JSON; no probe_game*.py module is left."""
    from pathlib import Path

    assert len(list(PROBES.glob("game*.json"))) == 11
    assert not list((Path(__file__).resolve().parents[1] / "eval" / "memory").glob("probe_game*.py"))


def test_a_malformed_questions_file_is_a_one_line_error(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"log": "x.jsonl"')
    with pytest.raises(ValueError, match="bad.json") as err:
        load_questions(bad)
    assert "\n" not in str(err.value)

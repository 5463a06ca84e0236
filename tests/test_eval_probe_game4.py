"""The fourth played-game memory probe (eval/memory/probe_game4.py): built from its log, complete, and honest."""

from __future__ import annotations

import json

import pytest

from eval.memory import probe_game4
from eval.memory.probe import load_probe


@pytest.fixture(scope="module")
def data():
    return probe_game4.build()


def test_builds_from_the_played_fantasy_log_with_enough_facts_and_questions(data):
    assert data["game_id"] == "sim-43"
    assert len(data["facts"]) >= 300
    assert len(data["queries"]) >= 100
    assert all(q["scene"] == probe_game4.ASKED_IN_SCENE for q in data["queries"])
    assert [q["id"] for q in data["queries"]][:2] == ["m1", "m2"]
    tenets = " ".join(f["text"] for f in data["facts"] if f["kind"] == "tenet").lower()
    assert "crown" in tenets and "gods" in tenets  # the fantasy premise took, not the default space opera


def test_every_relevant_id_is_a_fact_and_no_question_copies_a_fact(data):
    ids = {f["id"] for f in data["facts"]}
    texts = {f["text"].strip().lower().rstrip(".?") for f in data["facts"]}
    for q in data["queries"]:
        assert q["relevant"], q["id"]
        assert all(r in ids for r in probe_game4.flat_ids(q["relevant"])), q["id"]
        assert q["text"].strip().lower().rstrip(".?") not in texts, q["text"]
    assert len({q["text"] for q in data["queries"]}) == len(data["queries"])


def test_questions_mix_referents_and_rewording(data):
    counts = probe_game4.tag_counts(data)
    n = len(data["queries"])
    for tag in ("name", "role", "place", "placedesc", "scene", "tenet", "wound", "outcome", "deed", "time"):
        assert counts.get(tag, 0) >= 2, tag
    assert counts["placedesc"] >= 12 and counts["outcome"] >= 15
    assert abs(counts["name"] - counts["role"]) <= n // 10  # characters asked by name about as often as by role
    for level in probe_game4.LEVELS:
        assert counts[level] >= n // 4, level


def test_no_question_needs_more_than_six_items(data):
    assert max(len(q["relevant"]) for q in data["queries"]) <= 6


def test_unknown_fact_id_raises(monkeypatch):
    monkeypatch.setattr(probe_game4, "QUERIES", [("Who ferries travellers?", [["t6", "t9999"]], "none light")])
    with pytest.raises(ValueError, match="t9999"):
        probe_game4.build()


def test_bad_tags_raise(monkeypatch):
    monkeypatch.setattr(probe_game4, "QUERIES", [("Who ferries travellers?", ["t6"], "trait light")])
    with pytest.raises(ValueError):
        probe_game4.build()


def test_written_file_matches_the_build_and_loads_as_a_probe(data):
    on_disk = json.loads(probe_game4.OUT.read_text())
    # ids, texts and questions must match the log; other record fields may grow (rerun the module then)
    assert [(f["id"], f["text"]) for f in on_disk["facts"]] == [(f["id"], f["text"]) for f in data["facts"]]
    assert on_disk["queries"] == json.loads(json.dumps(data["queries"]))
    game_id, facts, queries = load_probe(probe_game4.OUT)
    assert game_id == "sim-43" and len(facts) == len(data["facts"]) and len(queries) == len(data["queries"])

"""The second played-game memory probe (eval/memory/probe_game2.py): built from its log, complete, and honest."""

from __future__ import annotations

import json

import pytest

from eval.memory import probe_game2
from eval.memory.probe import load_probe


@pytest.fixture(scope="module")
def data():
    return probe_game2.build()


def test_builds_from_the_played_log_with_enough_facts_and_questions(data):
    assert data["game_id"] == "sim-7"
    assert len(data["facts"]) >= 300
    assert len(data["queries"]) >= 60
    assert all(q["scene"] == probe_game2.ASKED_IN_SCENE for q in data["queries"])


def test_every_relevant_id_is_a_fact_and_no_question_copies_a_fact(data):
    ids = {f["id"] for f in data["facts"]}
    texts = {f["text"].strip().lower().rstrip(".?") for f in data["facts"]}
    for q in data["queries"]:
        assert q["relevant"], q["id"]
        assert all(r in ids for r in probe_game2.flat_ids(q["relevant"])), q["id"]
        assert q["text"].strip().lower().rstrip(".?") not in texts, q["text"]
    assert len({q["text"] for q in data["queries"]}) == len(data["queries"])


def test_questions_mix_referents_and_rewording(data):
    counts = probe_game2.tag_counts(data)
    for tag in ("name", "role", "place", "placedesc", "scene", "tenet", "wound", "outcome", "deed"):
        assert counts.get(tag, 0) >= 3, tag
    n = len(data["queries"])
    for level in probe_game2.LEVELS:
        assert counts[level] >= n // 5, level


def test_unknown_fact_id_raises(monkeypatch):
    monkeypatch.setattr(probe_game2, "QUERIES", [("Who is the ferryman?", [["t13", "t9999"]], "none light")])
    with pytest.raises(ValueError, match="t9999"):
        probe_game2.build()


def test_bad_tags_raise():
    with pytest.raises(ValueError):
        probe_game2.check_tags("trait light")


def test_written_file_matches_the_build_and_loads_as_a_probe(data):
    on_disk = json.loads(probe_game2.OUT.read_text())
    # ids, texts and questions must match the log; other record fields may grow (rerun the module then)
    assert [(f["id"], f["text"]) for f in on_disk["facts"]] == [(f["id"], f["text"]) for f in data["facts"]]
    assert on_disk["queries"] == json.loads(json.dumps(data["queries"]))
    game_id, facts, queries = load_probe(probe_game2.OUT)
    assert game_id == "sim-7" and len(facts) == len(data["facts"]) and len(queries) == len(data["queries"])

"""The blind played-game memory probes (eval/memory/probe_game2.py, 3 to 11): built from their logs, complete, honest.

Each was played with the heuristic players, then questioned by someone who saw no retrieval code
(see each module's docstring); these tests check what can break when a log, the engine or a
question list changes: the Facts the questions name, the tag mix, and the file on disk.
"""

from __future__ import annotations

import json
from types import ModuleType
from typing import Any

import pytest

from eval.memory import (probe_game2, probe_game3, probe_game4, probe_game5, probe_game6, probe_game7,
                         probe_game8, probe_game9, probe_game10, probe_game11)
from eval.memory.probe import load_probe

# module, game id, question id prefix, fewest questions, words its Tenets must hold (the premise took)
PROBES = [
    (probe_game2, "sim-7", "h", 60, ("crown", "gods")),
    (probe_game3, "sim-22", "k", 100, ("city", "payroll")),
    (probe_game4, "sim-43", "m", 100, ("crown", "gods")),
    (probe_game5, "sim-51", "w", 100, ("railroad", "law")),
    (probe_game6, "sim-61", "x", 100, ("house", "alone")),
    (probe_game7, "sim-71", "y", 100, ("empire", "rim")),
    (probe_game8, "sim-81", "z", 100, ("photograph", "midnight")),
    (probe_game9, "sim-93", "v", 100, ("sundown", "water")),
    (probe_game10, "sim-103", "u", 100, ("iron", "crown")),
    (probe_game11, "sim-111", "t", 100, ("lighthouse", "dead")),
]
_BUILT: dict[str, dict[str, Any]] = {}


def _data(module: ModuleType) -> dict[str, Any]:
    if module.__name__ not in _BUILT:
        _BUILT[module.__name__] = module.build()
    return _BUILT[module.__name__]


@pytest.mark.parametrize("module, game_id, prefix, fewest, genre", PROBES, ids=lambda p: getattr(p, "__name__", None))
def test_builds_from_its_played_log_with_enough_facts_and_questions(module, game_id, prefix, fewest, genre):
    data = _data(module)
    assert data["game_id"] == game_id
    assert len(data["facts"]) >= 300 and len(data["queries"]) >= fewest
    assert all(q["scene"] == module.ASKED_IN_SCENE for q in data["queries"])
    assert [q["id"] for q in data["queries"]][:2] == [f"{prefix}1", f"{prefix}2"]
    tenets = " ".join(f["text"] for f in data["facts"] if f["kind"] == "tenet").lower()
    assert all(word in tenets for word in genre)  # the premise took, not the default space opera


@pytest.mark.parametrize("module", [p[0] for p in PROBES], ids=lambda m: m.__name__)
def test_every_relevant_id_is_a_fact_and_no_question_copies_a_fact(module):
    data = _data(module)
    ids = {f["id"] for f in data["facts"]}
    texts = {f["text"].strip().lower().rstrip(".?") for f in data["facts"]}
    for q in data["queries"]:
        assert q["relevant"] and len(q["relevant"]) <= 6, q["id"]  # a question with a checkable answer
        assert all(r in ids for r in module.flat_ids(q["relevant"])), q["id"]
        assert q["text"].strip().lower().rstrip(".?") not in texts, q["text"]
    assert len({q["text"] for q in data["queries"]}) == len(data["queries"])


@pytest.mark.parametrize("module", [p[0] for p in PROBES], ids=lambda m: m.__name__)
def test_questions_mix_referents_topics_and_rewording(module):
    data = _data(module)
    counts = module.tag_counts(data)
    n = len(data["queries"])
    for tag in ("name", "role", "place", "placedesc", "scene", "tenet", "wound", "outcome", "deed"):
        assert counts.get(tag, 0) >= 3, tag
    assert abs(counts["name"] - counts["role"]) <= n // 5  # characters asked by name about as often as by role
    for level in module.LEVELS:
        assert counts[level] >= n // 5, level


def test_the_tuning_probe_asks_enough_about_described_places_and_outcomes():
    counts = probe_game4.tag_counts(_data(probe_game4))
    assert counts["placedesc"] >= 12 and counts["outcome"] >= 15


@pytest.mark.parametrize("module", [p[0] for p in PROBES], ids=lambda m: m.__name__)
def test_unknown_fact_id_raises(module, monkeypatch):
    monkeypatch.setattr(module, "QUERIES", [("Who is that?", [["t1", "t9999"]], "none light")])
    with pytest.raises(ValueError, match="t9999"):
        module.build()


@pytest.mark.parametrize("module", [p[0] for p in PROBES], ids=lambda m: m.__name__)
def test_a_question_without_its_referent_tag_is_refused(module, monkeypatch):
    monkeypatch.setattr(module, "QUERIES", [("Who is that?", ["t1"], "trait light")])  # name, role or none?
    with pytest.raises(ValueError, match="trait light"):
        module.build()


@pytest.mark.parametrize("module, game_id", [p[:2] for p in PROBES], ids=lambda p: getattr(p, "__name__", None))
def test_written_file_matches_the_build_and_loads_as_a_probe(module, game_id):
    data = _data(module)
    on_disk = json.loads(module.OUT.read_text())
    # ids, texts and questions must match the log; other record fields may grow (rerun the module then)
    assert [(f["id"], f["text"]) for f in on_disk["facts"]] == [(f["id"], f["text"]) for f in data["facts"]]
    assert on_disk["queries"] == json.loads(json.dumps(data["queries"]))
    loaded_id, facts, queries = load_probe(module.OUT)
    assert loaded_id == game_id and len(facts) == len(data["facts"]) and len(queries) == len(data["queries"])

"""Precision/recall of the contradiction judge on hand-labelled statement/Fact pairs.

Two figures: the judge alone on each labelled pair, and end to end (retrieve
candidates from the probe index, then judge), which also counts false alarms
against other Facts.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from agents.memory.contradiction import HeuristicJudge, Judge, check_contradiction
from agents.memory.index import FactIndex
from agents.memory.records import FactRecord

from .probe import DATA, PROBE_FILE, load_probe

PAIRS_FILE = DATA / "memory_contradictions.json"  # the probe-world pairs (end to end needs their fact ids)
TUNE_FILE = DATA / "contradictions_tune.json"  # PAIRS_FILE plus new pairs: what the judge is tuned on
BLIND_FILE = DATA / "contradictions_blind.json"  # written before tuning, scored once: never tune on it


def load_pairs(path: Path = PAIRS_FILE) -> list[dict[str, Any]]:
    pairs = json.loads(Path(path).read_text())["pairs"]
    for p in pairs:
        for key in ("statement", "fact", "contradicts"):
            if key not in p:
                raise ValueError(f"{path}: pair {p.get('id')} lacks {key!r}")
    return pairs


def _prf(tp: int, fp: int, fn: int) -> dict[str, float]:
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": round(precision, 4), "recall": round(recall, 4), "f1": round(f1, 4)}


def run_pairs(judge: Judge | None = None, path: Path = PAIRS_FILE) -> dict[str, Any]:
    judge = judge or HeuristicJudge()
    tp = fp = fn = tn = 0
    missed_types: dict[str, int] = {}
    flagged_types: dict[str, int] = {}
    for p in load_pairs(path):
        fact = FactRecord(p.get("fact_id", p["id"]), p["fact"], "trait", "eval", None, None,
                          p.get("component_name"), None, 0)
        said = judge.judge(p["statement"], fact).contradicts
        if said and p["contradicts"]:
            tp += 1
        elif said:
            fp += 1
            flagged_types[p.get("type", "?")] = flagged_types.get(p.get("type", "?"), 0) + 1
        elif p["contradicts"]:
            fn += 1
            missed_types[p.get("type", "?")] = missed_types.get(p.get("type", "?"), 0) + 1
        else:
            tn += 1
    return {"pairs": tp + fp + fn + tn, "positives": tp + fn, "tp": tp, "fp": fp, "fn": fn, "tn": tn,
            **_prf(tp, fp, fn), "missed_by_type": missed_types,
            "false_alarms_by_type": flagged_types}


def run_end_to_end(judge: Judge | None = None, k: int = 8) -> dict[str, Any]:
    """Statements checked against the whole probe index (pairs whose fact_id is in the probe)."""
    judge = judge or HeuristicJudge()
    game_id, facts, _ = load_probe(PROBE_FILE)
    ids = {f.id for f in facts}
    pairs = [p for p in load_pairs() if p.get("fact_id") in ids]
    detected = alarms = positives = negatives = 0
    with tempfile.TemporaryDirectory(prefix="memcontra-") as tmp:
        index = FactIndex(Path(tmp), game_id)
        index.rebuild(facts, "eval")
        for p in pairs:
            report = check_contradiction(p["statement"], index, judge, k=k)
            flagged = {f.id for f, _ in report.facts}
            if p["contradicts"]:
                positives += 1
                detected += p["fact_id"] in flagged
            else:
                negatives += 1
                alarms += bool(flagged)
    return {"k": k, "contradicting_statements": positives, "detected": detected,
            "detection_rate": round(detected / positives, 4) if positives else 0.0,
            "consistent_statements": negatives, "false_alarms": alarms,
            "false_alarm_rate": round(alarms / negatives, 4) if negatives else 0.0}

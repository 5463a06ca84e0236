"""Contradiction judges: heuristic examples, the LLM judge and its fallbacks (no network)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage

from agents.memory import FactIndex, FactRecord, HeuristicJudge, LLMJudge, check_contradiction
from agents.memory.embeddings import load_wordllama
from agents.memory.retrieval import SAME_SUBJECT_WEIGHTS, hybrid_search

GAME = "contra-game"


@pytest.fixture(scope="session", autouse=True)
def wordllama() -> object:
    return load_wordllama()


def fact(fid: str, text: str, name: str | None = None, removed: bool = False) -> FactRecord:
    return FactRecord(fid, text, "trait", GAME, 1, f"c-{fid}" if name else None, name, "cleo", 1, removed)


SWIM = fact("m4", "Marissa cannot swim.", "Marissa Tournou")


@pytest.mark.parametrize(("statement", "fact_text", "name", "expected"), [
    ("Marissa can swim like an eel.", "Marissa cannot swim.", "Marissa Tournou", True),
    ("Odo Fenwick is not blind.", "Odo Fenwick is blind but knows every channel by sound.", "Odo Fenwick", True),
    ("Sister Ilse is alive and well.", "Sister Ilse died defending the abbey gate.", "Sister Ilse", True),
    ("Sister Ilse is not dead.", "Sister Ilse is alive.", "Sister Ilse", False),  # negation cancels antonym
    ("The Tallow Council has nine members.", "The Tallow Council has seven members.", "The Tallow Council", True),
    ("Two of the seven council members are sisters.", "The Tallow Council has seven members.", None, False),
    ("Hollowmere has no palisade of black reeds.", "Hollowmere has no walls, only a palisade of black reeds.",
     "Hollowmere", True),  # the negation ends at the comma
    ("Beatrix does not love Mathis Crane.", "Beatrix is betrothed to Mathis Crane.", "Beatrix Vane", False),
    ("The Slytheran will not enter a chapel with iron bells.", "The Slytheran fear iron bells.", None, False),
    ("The weather is fine today.", "Marissa cannot swim.", "Marissa Tournou", False),  # no shared subject
    ("Marissa Tournou killed a man in Velm.", "Marissa Tournou is a trained killer.", "Marissa Tournou", False),
    # losing a thing is no opposite of winning a fight; losing the fight is
    ("Clara Voss wins this round against Ivy Pell.", "Clara Voss lost the crucifix.", "Clara Voss", False),
    ("Clara Voss won the duel at the mill.", "Clara Voss lost the duel at the mill.", "Clara Voss", True),
    ("Clara Voss wins this round against Ivy Pell.", "Clara Voss loses to Ivy Pell.", "Clara Voss", True),
    # a killing done is not a death suffered: the killer lives; a named victim is dead
    ("Jack Malone killed the sheriff.", "Jack Malone is alive.", "Jack Malone", False),
    ("Jack Malone murdered Vera Lisle in the alley.", "Jack Malone still lives.", "Jack Malone", False),
    ("The fever killed Jack Malone.", "Jack Malone is alive.", "Jack Malone", True),
    ("Jack Malone was killed by the sheriff.", "Jack Malone is alive and well.", "Jack Malone", True),
    ("Jack Malone drowned in the river.", "Jack Malone survives.", "Jack Malone", True),
])
def test_heuristic_examples(statement: str, fact_text: str, name: str | None, expected: bool) -> None:
    verdict = HeuristicJudge().judge(statement, fact("f", fact_text, name))
    assert verdict.contradicts is expected, verdict.reason
    assert verdict.judge == "heuristic" and verdict.reason


def test_check_against_index_flags_only_the_contradicted_fact(tmp_path: Path) -> None:
    ix = FactIndex(tmp_path, GAME)
    ix.add([SWIM, fact("m1", "Marissa Tournou is a trained killer.", "Marissa Tournou"),
            fact("o1", "Odo Fenwick is the ferryman of the Mere.", "Odo Fenwick"),
            fact("e1", "The Slytheran set the forest fire.")])
    report = check_contradiction("Marissa swims across the Mere every morning; she can swim well.", ix)
    assert report.contradicts and [f.id for f, _ in report.facts] == ["m4"]
    assert report.checked == 4 and "swim" in report.facts[0][1]
    ok = check_contradiction("Odo Fenwick rows Marissa across the Mere.", ix)
    assert not ok.contradicts and ok.facts == []
    ix.mark_removed("m4")  # a removed Fact no longer binds the story
    assert not check_contradiction("Marissa can swim.", ix).contradicts


def test_check_judges_every_trait_of_the_subject_it_names_even_beyond_the_closest(tmp_path: Path) -> None:
    ix = FactIndex(tmp_path, GAME)
    loyal = FactRecord("t1", "Loyal to the crown", "trait", GAME, 1, "c-aldric", "Aldric Vane", "ana", 1)
    deeds = ["is never seen without the crown's seal", "guards the crown jewels", "serves the crown's envoy",
             "is never far from the throne", "swears by the crown"]
    places = ["the harbour", "the abbey", "the market", "the keep"]
    events = [FactRecord(f"e{i}", f"Aldric Vane {d} at {p}.", "event", GAME, 2, "c-aldric", "Aldric Vane", "bo", i + 2)
              for i, (d, p) in enumerate((d, p) for d in deeds for p in places)]
    ix.add([loyal, *events])
    statement = "Aldric Vane is never loyal to the crown"
    closest = [sf.record.id for sf in hybrid_search(ix, statement, 3, weights=SAME_SUBJECT_WEIGHTS)]
    assert "t1" not in closest  # his many deeds crowd the Trait out of the closest three
    report = check_contradiction(statement, ix, k=3)
    assert report.contradicts and [f.id for f, _ in report.facts] == ["t1"] and report.checked == 4
    assert check_contradiction("Nobody here is loyal to the crown", ix, k=3).checked == 3  # names no one: no Traits added


def test_check_against_candidates_skips_removed() -> None:
    gone = fact("m4", "Marissa cannot swim.", "Marissa Tournou", removed=True)
    assert not check_contradiction("Marissa can swim.", [gone]).contradicts
    assert check_contradiction("Marissa can swim.", [SWIM]).contradicts


class ToolCallingFake(GenericFakeChatModel):
    """GenericFakeChatModel lacks bind_tools; returning itself lets it script tool calls."""

    def bind_tools(self, tools: Any, **kwargs: Any) -> "ToolCallingFake":
        return self


class RaisingFake(ToolCallingFake):
    """Like json_schema on prose: the SDK's parser raises inside the call."""

    def _generate(self, *args: Any, **kwargs: Any) -> Any:
        raise ValueError("Could not parse response content as JSON: 'I am not sure.'")


def verdict_call(contradicts: bool, reason: str) -> AIMessage:
    return AIMessage(content="", tool_calls=[{"name": "JudgeVerdict", "id": "call_1",
                                              "args": {"contradicts": contradicts, "reason": reason}}])


def test_llm_judge_uses_the_models_structured_verdict() -> None:
    model = ToolCallingFake(messages=iter([verdict_call(False, "she learned to swim later in the story"),
                                           verdict_call(True, "born in Velm, not Ostara")]))
    judge = LLMJudge(model)
    first = judge.judge("Marissa can swim.", SWIM)  # the heuristic would say True; the model decides
    assert (first.contradicts, first.judge) == (False, "llm") and "later" in first.reason
    born = fact("m2", "Marissa was born in Velm.", "Marissa Tournou")
    second = judge.judge("Marissa is a native of Ostara.", born)
    assert (second.contradicts, second.judge) == (True, "llm") and judge.failures == 0


def test_llm_judge_falls_back_when_function_calling_parses_to_none() -> None:
    judge = LLMJudge(ToolCallingFake(messages=iter([AIMessage(content="Hmm, hard to say, both could be true.")])))
    verdict = judge.judge("Marissa can swim like an eel.", SWIM)
    assert verdict.judge == "llm-fallback" and verdict.contradicts is True
    assert "heuristic" in verdict.reason and "prose" in verdict.reason and judge.failures == 1


def test_llm_judge_falls_back_when_the_call_raises() -> None:
    judge = LLMJudge(RaisingFake(messages=iter([])), method="json_schema")
    verdict = judge.judge("Marissa can swim like an eel.", SWIM)
    assert verdict.judge == "llm-fallback" and verdict.contradicts is True
    assert check_contradiction("Marissa can swim.", [SWIM], judge).contradicts


def test_labelled_pairs_precision_and_recall() -> None:
    """Regression guard on eval/data/memory_contradictions.json (balanced, >= 80 pairs)."""
    from eval.memory.contradictions import load_pairs, run_pairs

    pairs = load_pairs()
    positives = sum(p["contradicts"] for p in pairs)
    assert len(pairs) >= 80 and abs(positives - (len(pairs) - positives)) <= 2
    res = run_pairs()
    assert res["precision"] >= 0.85 and res["recall"] >= 0.7

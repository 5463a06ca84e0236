"""Memory for any ruleset (agents/memory/ruleset_memory.py) against a real Chroma in tmp dirs, offline:
the GameTable indexes `ruleset.facts(state)` as it plays, recall finds them, the contradiction check
reads statements against them, and the LLM seat recalls Facts and has a contradicting statement refused."""
from __future__ import annotations

import json

import pytest
from fakeserver import FakeOpenAIServer, fake_openai, valid  # noqa: F401

from agents.game_loop import GameTable
from agents.game_sim import heuristic_seat, seat_specs, simulate
from agents.llm.config import LLMSettings
from agents.llm.game_player import game_llm_player
from agents.memory.embeddings import WordLlamaEmbeddingFunction, load_wordllama
from agents.memory.ruleset_memory import FLUSH_EVERY, GameFactMemory, records_of
from engine.core.dice import SeededDice
from engine.core.ruleset import get_ruleset
from engine.fubar import actions as FA


@pytest.fixture(scope="module", autouse=True)
def wordllama() -> object:
    return load_wordllama()  # loaded once; fast static embeddings of ours (never chromadb's default)


def live(memory: GameFactMemory) -> dict[str, tuple[str, str]]:
    return {r.id: (r.text, r.kind) for r in memory.index.all_records(include_removed=False)}


@pytest.mark.parametrize("game", ["fubar", "paganini", "vele"])
def test_the_table_indexes_the_rulesets_facts_as_it_plays(tmp_path, game: str) -> None:
    sim = simulate(game, seats=4, scenes=2, seed=2, memory_dir=tmp_path, max_steps=400,
                   memory_embedding=WordLlamaEmbeddingFunction())
    table, memory = sim.table, sim.table.memory
    assert isinstance(memory, GameFactMemory)
    assert (tmp_path / "index" / "chroma.sqlite3").exists()
    records = records_of(table.ruleset, table.state, memory.game_id)
    expected = {r.id: (r.text, r.kind) for r in records if not r.removed}
    assert len(expected) > 10
    assert live(memory) == expected
    removed = {r.id for r in records if r.removed}  # Facts the ruleset itself flags (Vele's damaged traits)
    assert removed <= {r.id for r in memory.index.all_records(include_removed=True) if r.removed}
    # incremental: writes only what changed, so a game writes far fewer Facts than flushes x Facts
    flushes = len(table.records) // FLUSH_EVERY + 1
    assert memory.writes < flushes * len(expected) / 2
    assert memory.sync(table.state) == 0  # nothing new: nothing written


def fubar_table(tmp_path, seats=None) -> GameTable:
    rs = get_ruleset("fubar")
    made = seats or [(s, heuristic_seat("fubar", s.name, s.role, 5, i, 3)) for i, s in enumerate(seat_specs("fubar", 4))]
    return GameTable.new(rs, made, {}, dice=SeededDice(5), log_path=tmp_path / "game.jsonl",
                         game_id="mem-fubar", premise="A siege of a mountain monastery")


def run_to(table: GameTable, kind: str, max_steps: int = 400) -> None:
    for _ in range(max_steps):
        if table.ruleset.pending(table.state).kind == kind:
            return
        table.step()
    raise AssertionError(f"never reached {kind}")


def test_a_cleared_condition_is_marked_removed_not_forgotten(tmp_path) -> None:
    """F-19: a Condition ends; memory keeps it as history, out of the live Facts."""
    table = fubar_table(tmp_path)
    memory = GameFactMemory.attach(table, embedding=WordLlamaEmbeddingFunction())
    run_to(table, "gm_turn")
    table.submit(FA.ApplyCondition(player="Gina", condition=FA.ConditionIn(target="Ann", name="Frostbitten")))
    cid = next(c.id for c in table.state.characters["Ann"].conditions if c.name == "Frostbitten")
    memory.flush()
    assert cid in live(memory)
    table.submit(FA.ClearCondition(player="Gina", target="Ann", condition_id=cid))
    memory.flush()
    assert cid not in live(memory)
    kept = {r.id: r for r in memory.index.all_records(include_removed=True)}
    assert kept[cid].removed and "Frostbitten" in kept[cid].text


def test_recall_and_the_contradiction_check_read_the_facts(tmp_path) -> None:
    table = fubar_table(tmp_path)
    memory = GameFactMemory.attach(table, embedding=WordLlamaEmbeddingFunction())
    run_to(table, "gm_turn")
    table.submit(FA.AddDetail(player="Gina", text="The abbot was killed at vespers"))
    found = memory.recall("what happened to the abbot", k=5)
    assert any("abbot was killed" in r.text for r in found)
    report = memory.check("The abbot is alive and greets the pilgrims")
    assert report.contradicts and any("abbot was killed" in f.text for f, _ in report.facts)
    assert not memory.check("The pilgrims sing at the gate").contradicts


def test_the_llm_seat_recalls_facts_and_a_contradiction_goes_back_to_the_model(
        tmp_path, fake_openai: FakeOpenAIServer) -> None:  # noqa: F811
    cfg = LLMSettings(base_url=fake_openai.base_url, api_key="sk-test-9999", model="fake-model", timeout_s=2.0,
                      max_refusals=1)
    specs = seat_specs("fubar", 4)
    gm = game_llm_player("fubar", "Gina", "gm", cfg, seed=5, scenes=3)
    seats = [(specs[0], gm)] + [(s, heuristic_seat("fubar", s.name, s.role, 5, i + 1, 3)) for i, s in enumerate(specs[1:])]
    table = fubar_table(tmp_path, seats)
    memory = GameFactMemory.attach(table, embedding=WordLlamaEmbeddingFunction())
    gm.memory = memory
    shadow = heuristic_seat("fubar", "Gina", "gm", 5, 0, 3)
    for _ in range(400):  # the GM's model plays its heuristic's moves until a scene is running
        pend = table.ruleset.pending(table.state)
        if pend.kind == "gm_turn":
            break
        if pend.seats and pend.seats[0] == "Gina":
            d = shadow.decide(table.observe("Gina"))
            data = d.action.model_dump(mode="json", exclude_none=True)
            data.pop("player")
            fake_openai.script(valid({"action": data, "why": "as planned"}))
        table.step()
    table.submit(FA.AddDetail(player="Gina", text="The abbot was killed at vespers"))
    bad = {"type": "add_detail", "text": "The abbot is alive and well in the chapel"}
    fake_openai.script(valid({"action": bad, "why": "a twist"}), valid({"action": bad, "why": "a twist"}))
    asked = len(fake_openai.chat_requests)
    table.step()
    meta = table.records[-1].meta
    assert meta["decided_by"] == "heuristic" and "contradicts an established Fact" in meta["fallback"]
    first = json.dumps(fake_openai.chat_requests[asked]["messages"])
    assert "abbot was killed" in first  # recalled into the prompt
    retry = json.dumps(fake_openai.chat_requests[asked + 1]["messages"])
    assert "contradicts an established Fact" in retry and "abbot was killed" in retry

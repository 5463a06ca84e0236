"""GameMemory with a played game and a real, offline Chroma: live sync, rebuild, repair, retrieval, check."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from agents.memory import index as index_mod
from agents.memory.config import MemoryConfigError, MemorySettings, load_memory_settings
from agents.memory.contradiction import HeuristicJudge, LLMJudge
from agents.memory.embeddings import load_wordllama
from agents.memory.game import GameMemory, _make_judge, fingerprint_of, records_from_state
from agents.memory.retrieval import estimate_tokens
from agents.table import Table, heuristic_seats
from engine.core.dice import SeededDice

QUERIES = ["who repaired the failing drive", "the bounty hunter's debts", "what is hidden on every station",
           "an ambush in the freighter"]


@pytest.fixture(scope="module", autouse=True)
def wordllama() -> object:
    return load_wordllama()  # loaded once; every index in this module shares it


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Table, GameMemory, Path]:
    """A 900-action heuristic game (600 before draws and bought dice opened a reaction window, 720 before
    the heuristic waited for the other side before calling for a roll), its
    memory attached from the first action."""
    game_dir = tmp_path_factory.mktemp("game")
    table = Table.new(heuristic_seats(["ana", "ben", "cleo"], seed=3), dice=SeededDice(3),
                      log_path=game_dir / "game.jsonl")
    memory = GameMemory.attach(table)
    table.run(max_steps=900)
    memory.flush()
    return table, memory, game_dir


def copy_game(src_dir: Path, dst: Path) -> Path:
    dst.mkdir(parents=True, exist_ok=True)
    shutil.copy(src_dir / "game.jsonl", dst / "game.jsonl")
    return dst / "game.jsonl"


def snapshot(memory: GameMemory) -> list[tuple]:
    return [(r.id, r.text, r.kind, r.scene, r.component_id, r.component_name, r.paid_by, r.seq, r.removed,
             r.eliminated) for r in memory.index.all_records(include_removed=True)]


def test_live_index_is_the_projection_of_the_state(played) -> None:
    table, memory, game_dir = played
    expected = records_from_state(table.state, table.game_id)
    assert len(expected) > 80 and (game_dir / "index" / "chroma.sqlite3").exists()  # ~100 since solo deeds are capped
    assert memory.index.all_records(include_removed=True) == sorted(expected, key=lambda r: (r.seq, r.id))
    assert memory.index.fingerprint == fingerprint_of(table.header, table.records)
    kinds = {r.kind for r in expected}
    assert {"tenet", "trait", "event"} <= kinds
    eliminated = {c for c, comp in table.state.components.items() if comp.eliminated}
    for r in expected:
        assert r.eliminated == (r.component_id in eliminated)
        assert r.paid_by in ("ana", "ben", "cleo") and r.seq >= 1


def test_rebuild_from_the_log_gives_the_same_results(played, tmp_path: Path) -> None:
    table, live, game_dir = played
    rebuilt, _ = GameMemory.for_log(copy_game(game_dir, tmp_path))
    assert rebuilt.status == "rebuilt" and rebuilt.index.path == (tmp_path / "index").resolve()
    assert snapshot(rebuilt) == snapshot(live)
    for q in QUERIES:
        a = live.recall(q, 10)
        b = rebuilt.recall(q, 10, state=rebuilt._state)
        assert [sf.record.id for sf in a] == [sf.record.id for sf in b], q
        assert [sf.score for sf in a] == pytest.approx([sf.score for sf in b], abs=1e-5)
    again, _ = GameMemory.for_log(tmp_path / "game.jsonl")
    assert again.status == "fresh"  # fingerprint and count agree: no rebuild on reload


def test_game_continued_without_memory_is_caught_up_on_load(played, tmp_path: Path) -> None:
    _, _, game_dir = played
    log = copy_game(game_dir, tmp_path)
    short = "\n".join(log.read_text().splitlines()[:401]) + "\n"  # header + 400 actions
    log.write_text(short)
    first, _ = GameMemory.for_log(log)
    n_before = first.index.count()
    table = Table.load_file(log, seats_factory=lambda cfg: heuristic_seats(cfg["players"], seed=3),
                            dice=SeededDice(4))
    table.run(max_steps=150)  # played on without the memory attached
    memory, rep = GameMemory.for_log(log)
    assert memory.status == "updated"
    assert memory.index.all_records() == sorted(records_from_state(rep.state, rep.header["game_id"]),
                                                key=lambda r: (r.seq, r.id))
    assert memory.index.count() > n_before


def test_corrupted_or_missing_index_is_rebuilt_not_fatal(played, tmp_path: Path) -> None:
    _, live, game_dir = played
    log = copy_game(game_dir, tmp_path)
    GameMemory.for_log(log)
    index_dir = (tmp_path / "index").resolve()
    index_mod._evict_client(str(index_dir))  # as a new process would find it
    with (index_dir / "chroma.sqlite3").open("r+b") as fh:
        fh.write(b"not a database " * 500)
    repaired, _ = GameMemory.for_log(log)
    assert repaired.status == "rebuilt" and not list(tmp_path.glob("index.broken*"))  # replaced, not copied
    assert not list(tmp_path.glob("index.replacing*"))
    assert snapshot(repaired) == snapshot(live)
    shutil.rmtree(index_dir)
    again, _ = GameMemory.for_log(log)
    assert again.status == "rebuilt" and snapshot(again) == snapshot(live)


def test_removed_trait_is_marked_eliminated_flagged_undone_fact_dropped(played, tmp_path: Path) -> None:
    _, _, game_dir = played
    memory, rep = GameMemory.for_log(copy_game(game_dir, tmp_path))
    state = rep.state.model_copy(deep=True)
    comps = [c for c in state.components.values() if len(c.live_traits()) >= 2 and not c.eliminated]
    comp, gone = comps[0], comps[1]
    trait = comp.traits[-1]
    comp.traits[-1] = trait.model_copy(update={"removed": True})
    gone.eliminated = True
    last_fact = state.facts.pop()  # as after an undo: the log no longer holds it
    before = memory.index.count()
    assert memory.recall(trait.text, 50, state=state)  # the read syncs the new state first
    assert memory.index.count() == before - 1
    got = {r.id: r for r in memory.index.all_records(include_removed=True)}
    assert got[trait.id].removed and last_fact.id not in got
    assert all(got[t.id].eliminated and not got[t.id].removed for t in gone.traits)
    already = {c.id for c in rep.state.components.values() if c.eliminated}  # eliminated in play
    assert not any(r.eliminated for r in got.values() if r.component_id not in already | {gone.id})
    assert trait.id not in {sf.record.id for sf in memory.recall(trait.text, 50)}
    assert trait.id in {sf.record.id for sf in memory.recall(trait.text, 50, include_removed=True)}


def test_retriever_fills_observations_exact_first_then_recalled(played) -> None:
    table, memory, _ = played
    assert table.retriever == memory.retriever and table.memory is memory
    obs = table.observe("ana")
    facts = obs.facts
    state = table.state
    sc = state.scene()
    here = set(sc.present) | ({sc.location} if sc.location else set())
    exact = [f for f in facts if f.kind == "tenet" or (f.kind == "trait" and f.component_id in here)]
    tenets = [t.id for t in state.tenets if not t.removed]
    assert [f.id for f in facts[:len(exact)]] == [f.id for f in exact]
    assert set(tenets) <= {f.id for f in facts}
    scene_traits = {t.id for c in here if c in state.components for t in state.components[c].live_traits()}
    assert scene_traits <= {f.id for f in facts}
    recalled = facts[len(exact):]
    assert recalled and all(not f.removed for f in facts)
    assert sum(estimate_tokens(f.text) for f in facts) <= max(memory.token_budget,
                                                              sum(estimate_tokens(f.text) for f in exact))
    scored = {sf.record.id: sf for sf in memory.last}
    assert all(0 < scored[f.id].score < float("inf") for f in recalled)
    assert len({f.id for f in facts}) == len(facts)


def test_check_names_the_contradicted_fact(played, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    table, memory, _ = played
    monkeypatch.chdir(tmp_path)
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "STORYTABLE_CONFIG"):
        monkeypatch.delenv(var, raising=False)
    memory._judge = None
    assert isinstance(memory.judge, HeuristicJudge)  # offline by default: no model configured
    comp, trait = next((c, t) for c in table.state.components.values() for t in c.live_traits()
                       if t.kind == "plain" and len(t.text.split()) >= 3
                       and not t.text.lower().startswith(("no ", "not ", "never ", "cannot ", "will not ")))
    report = memory.check(f"{comp.label} is never {trait.text.lower()}", table.state)
    assert report.contradicts and trait.id in report.fact_ids
    assert trait.text in report.summary() and f"event {trait.seq}" in report.summary()
    calm = memory.check("A gull circles over the harbour at dawn", table.state)
    assert not calm.contradicts and calm.checked > 0


def test_judge_is_llm_only_when_a_model_is_configured(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "STORYTABLE_CONFIG"):
        monkeypatch.delenv(var, raising=False)
    assert isinstance(_make_judge("auto"), HeuristicJudge)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")  # configured, never contacted here
    assert isinstance(_make_judge("auto"), LLMJudge)
    assert isinstance(_make_judge("heuristic"), HeuristicJudge)


def test_memory_settings_precedence_and_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert load_memory_settings(env={}) == MemorySettings()
    (tmp_path / "storytable.toml").write_text('[memory]\nchroma_url = "http://db:8000"\ntoken_budget = 300\n')
    s = load_memory_settings(env={})
    assert s.chroma_url == "http://db:8000" and s.token_budget == 300
    s = load_memory_settings(env={"STORYTABLE_CHROMA_URL": "http://other:9000"}, chroma_url=None)
    assert s.chroma_url == "http://other:9000"
    assert load_memory_settings(env={}, chroma_url="https://x:1").chroma_url == "https://x:1"
    (tmp_path / "storytable.toml").write_text('[memory]\nchroma = "db"\n')
    with pytest.raises(MemoryConfigError, match="chroma: unknown key"):
        load_memory_settings(env={})
    (tmp_path / "storytable.toml").unlink()
    with pytest.raises(MemoryConfigError, match="http"):
        load_memory_settings(env={"STORYTABLE_CHROMA_URL": "db:8000"})

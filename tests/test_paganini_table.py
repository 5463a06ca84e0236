"""Paganini at the table: the heuristic GM and players through the generic loop (agents/game_loop.py),
`storytable simulate --game paganini`, and `replay` dispatching on the log's header."""
from __future__ import annotations

import json
from collections import Counter

import pytest

from agents.game_loop import GameTable
from agents.game_sim import simulate, transcript
from agents.paganini import PaganiniGM, PaganiniPlayer
from agents.paganini.sheets import ARCHETYPES, npc_sheet, player_sheet
from app.cli import main
from engine.core.ruleset import get_ruleset, replay_log_text
from engine.paganini.sheet import check_attributes, check_skills


@pytest.fixture(scope="module")
def sim(tmp_path_factory):
    path = tmp_path_factory.mktemp("paganini") / "game.jsonl"
    return path, simulate("paganini", seats=4, scenes=10, seed=5, log_path=path)


def test_a_four_seat_all_ai_adventure_plays_to_its_end_with_a_combat(sim):
    """The issue's "done when": AI GM + 3 AI players, offline, at least one combat, to the adventure's end."""
    _, r = sim
    st = r.stats()
    assert st["over"] and st["fallbacks"] == 0
    assert {"add_opponent", "prepare_adventure", "create_character", "frame_scene", "attempt", "call_check",
            "passive_check", "roll_dice", "narrate", "start_combat", "initiative", "attack", "defend", "end_day",
            "end_adventure"} <= set(st["types"])
    kinds = Counter(e.kind for e in r.table.events)
    assert kinds["combat"] >= 1 and kinds["order"] >= 1 and kinds["damage"] >= 1
    roles = {s["name"]: s["role"] for s in r.table.header["config"]["seats"]}
    assert list(roles.values()).count("gm") == 1 and len(roles) == 4
    assert all(isinstance(r.table.seats[n], PaganiniGM if role == "gm" else PaganiniPlayer)
               for n, role in roles.items())


def test_every_ai_decision_says_why(sim):
    _, r = sim
    decided = [rec for rec in r.table.records if rec.meta.get("decided_by") == "heuristic"]
    assert decided and all(rec.meta.get("rationale") for rec in decided)


def test_the_log_names_its_ruleset_and_replays_byte_for_byte(sim):
    path, r = sim
    text = path.read_text(encoding="utf-8")
    head = json.loads(text.splitlines()[0])
    assert head["ruleset"] == "paganini" and head["ruleset_version"] == get_ruleset("paganini").version
    loaded = GameTable.load(text)
    assert loaded.log_text() == text
    assert loaded.state.model_dump() == r.table.state.model_dump()


def test_same_seed_same_log(tmp_path):
    simulate("paganini", seats=4, scenes=4, seed=9, log_path=tmp_path / "a.jsonl")
    simulate("paganini", seats=4, scenes=4, seed=9, log_path=tmp_path / "b.jsonl")
    assert (tmp_path / "a.jsonl").read_text() == (tmp_path / "b.jsonl").read_text()


def test_many_seeds_end_without_fallbacks_and_every_state_keeps_the_invariants():
    """Over seeds (so genres and seat counts): the adventure ends, nobody falls back, a combat happens,
    and the invariants hold after every action of the replayed log."""
    rs = get_ruleset("paganini")
    for seed in range(5):
        r = simulate("paganini", seats=2 + seed % 3, scenes=4, seed=seed)
        st = r.stats()
        assert st["over"] and st["fallbacks"] == 0, (seed, st)
        assert any(e.kind == "combat" for e in r.table.events)
        rep = replay_log_text(r.table.log_text(), keep_states=True)
        assert rep.error is None
        for state in rep.states:
            assert rs.invariants(state) == []
        lines = transcript(r.table)
        assert not any("  " in line.strip() for line in lines if line.strip())


def test_the_heuristic_sheets_are_valid_in_every_genre():
    """P-9/P-10: the AI seats' characters pass the same creation check as anyone's."""
    from agents.narration import GENRES
    for lex in GENRES.values():
        premise = lex["genre"][0]
        for a in ARCHETYPES:
            s = player_sheet("X", "Y", a, premise)
            check_attributes(s["attributes"])
            check_skills({k["name"]: (k["kind"], k["level"]) for k in s["skills"]})
        for kind in ("boss", "minion"):
            s = npc_sheet("X", "Y", kind, premise)
            check_attributes(s["attributes"])
            check_skills({k["name"]: (k["kind"], k["level"]) for k in s["skills"]})


def test_players_see_npc_names_and_wounds_but_not_their_sheets(sim):
    _, r = sim
    rs = r.table.ruleset
    player_view = rs.view(r.table.state, "Ann")
    gm_view = rs.view(r.table.state, "Gina")
    npc_p = next(c for c in player_view["characters"] if c["npc"])
    npc_g = next(c for c in gm_view["characters"] if c["npc"])
    assert "skills" not in npc_p and "wounds" in npc_p and "skills" in npc_g
    mine = next(c for c in player_view["characters"] if c["id"] == "Ann")
    assert "skills" in mine and "lots" in mine


def test_facts_carry_the_narrated_outcomes(sim):
    _, r = sim
    facts = r.table.ruleset.facts(r.table.state)
    assert any(f.kind == "outcome" for f in facts) and any(f.kind == "scene" for f in facts)
    assert all(f.text for f in facts)


def test_cli_simulate_and_replay_paganini(tmp_path, capsys):
    out = tmp_path / "p.jsonl"
    code = main(["simulate", "--game", "paganini", "--seats", "4", "--seed", "2", "--out", str(out)])
    printed = capsys.readouterr().out
    assert code == 0 and "Game: paganini" in printed and "Scenario over: yes" in printed and "Wounds:" in printed
    code = main(["replay", str(out)])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["ruleset"] == "paganini" and data["phase"] == "over"
    assert len([c for c in data["characters"] if not c["npc"]]) == 3


def test_cli_never_overwrites_a_log(tmp_path, capsys):
    out = tmp_path / "keep.jsonl"
    out.write_text("precious\n", encoding="utf-8")
    code = main(["simulate", "--game", "paganini", "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and "already exists" in err and str(tmp_path) not in err
    assert out.read_text(encoding="utf-8") == "precious\n"


def test_cli_replay_of_a_damaged_paganini_log_names_the_line(sim, tmp_path, capsys):
    path, _ = sim
    lines = path.read_text(encoding="utf-8").splitlines()
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines[:10] + ['{"seq": 10, "action": {"type": "attack"']) + "\n", encoding="utf-8")
    code = main(["replay", str(bad)])
    err = capsys.readouterr().err
    assert code == 2 and "line 11" in err and "Traceback" not in err
    code = main(["replay", "--partial", str(bad)])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["actions"] == 9 and data["damaged"]["line"] == 11


def test_paganini_needs_a_gm_and_a_player():
    with pytest.raises(Exception) as exc:
        simulate("paganini", seats=1)
    assert "Game Master" in str(exc.value) or "player" in str(exc.value)


def test_apply_never_changes_the_state_it_was_given(sim):
    """The engine's promise (DESIGN, "Nothing changes on a refused action"; replays are pure): every
    state of a played game dumps the same before and after the next action is applied to it."""
    _, r = sim
    rs = r.table.ruleset
    state = rs.game_from_header(r.table.header)
    for rec in r.table.records:
        before = state.model_dump_json()
        nxt, _ = rs.apply(state, rec.action)
        assert state.model_dump_json() == before
        state = nxt
    assert state.model_dump() == r.table.state.model_dump()


def test_paganini_meets_the_ruleset_protocol_and_lists_what_was_done(sim):
    """The registry's paganini is a Ruleset; its schema holds every action; at every state of a played
    game the action taken was among the legal options offered to its seat (or was the dice)."""
    from engine.core.ruleset import Ruleset, names
    from engine.paganini.actions import ACTION_TYPES

    rs = get_ruleset("paganini")
    assert "paganini" in names() and isinstance(rs, Ruleset) and rs.die_sizes == (20,)
    schema = json.dumps(rs.action_schema())
    assert all(t in schema for t in ACTION_TYPES)
    _, r = sim
    state = rs.game_from_header(r.table.header)
    for rec in r.table.records:
        kind = rec.action["type"]
        if kind != "roll_dice":
            offered = {o.type for o in rs.legal_options(state, rec.action["player"])}
            assert kind in offered, (kind, offered, rs.pending(state))
        else:
            assert rs.pending(state).dice
        state, _ = rs.apply(state, rec.action)

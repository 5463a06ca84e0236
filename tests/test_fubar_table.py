"""FUBAR at the table: heuristic GM and players through the generic loop (agents/game_loop.py),
`storytable simulate --game fubar`, and `replay` dispatching on the log's header."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from agents.fubar.heuristic import FubarGM, FubarPlayer, base_form
from agents.game_loop import GameTable
from agents.game_sim import simulate, transcript
from app.cli import main
from engine.core.log import header_line
from engine.core.ruleset import get_ruleset


@pytest.fixture(scope="module")
def sim(tmp_path_factory):
    path = tmp_path_factory.mktemp("fubar") / "game.jsonl"
    return path, simulate("fubar", seats=4, scenes=6, seed=5, log_path=path)


def test_a_four_seat_all_ai_game_plays_to_the_end_of_a_scenario(sim):
    """The issue's "done when": AI GM + 3 AI players, offline, to the end of a scenario."""
    _, r = sim
    st = r.stats()
    assert st["over"] and st["scenes"] >= 1 and st["fallbacks"] == 0
    kinds = {t for t in st["types"]}
    assert {"prepare_scenario", "add_opposition", "create_character", "frame_scene", "attempt", "rule_conflict",
            "roll_dice", "narrate_outcome", "end_scene", "end_scenario", "add_relationship"} <= kinds
    roles = {s["name"]: s["role"] for s in r.table.header["config"]["seats"]}
    assert list(roles.values()).count("gm") == 1 and len(roles) == 4
    assert all(isinstance(r.table.seats[n], FubarGM if role == "gm" else FubarPlayer) for n, role in roles.items())


def test_every_ai_decision_says_why(sim):
    _, r = sim
    decided = [rec for rec in r.table.records if rec.meta.get("decided_by") == "heuristic"]
    assert decided and all(rec.meta.get("rationale") for rec in decided)


def test_the_log_names_its_ruleset_and_replays_byte_for_byte(sim):
    path, r = sim
    text = path.read_text(encoding="utf-8")
    head = json.loads(text.splitlines()[0])
    assert head["ruleset"] == "fubar" and head["ruleset_version"] == get_ruleset("fubar").version
    loaded = GameTable.load(text)
    assert loaded.log_text() == text
    assert loaded.state.model_dump() == r.table.state.model_dump()


def test_same_seed_same_log(tmp_path):
    a = simulate("fubar", seats=4, scenes=4, seed=9, log_path=tmp_path / "a.jsonl")
    b = simulate("fubar", seats=4, scenes=4, seed=9, log_path=tmp_path / "b.jsonl")
    assert (tmp_path / "a.jsonl").read_text() == (tmp_path / "b.jsonl").read_text()
    assert a.stats()["actions"] == b.stats()["actions"]


def test_many_seeds_play_without_fallbacks_and_tell_a_story():
    """Over seeds (so genres), the scenario ends, nobody falls back, and the transcript names the places."""
    for seed in range(6):
        r = simulate("fubar", seats=4, scenes=6, seed=seed)
        st = r.stats()
        assert st["over"] and st["fallbacks"] == 0, (seed, st)
        lines = transcript(r.table)
        places = r.table.state.places
        assert any(p in line for line in lines for p in places)
        assert not any("  " in line.strip() for line in lines if line.strip())


def test_deeds_become_questions():
    assert base_form("lights a cigarette and waits") == "light a cigarette and wait"
    assert base_form("studies the star chart") == "study the star chart"


def test_cli_simulate_and_replay_fubar(tmp_path, capsys):
    out = tmp_path / "f.jsonl"
    code = main(["simulate", "--game", "fubar", "--seats", "4", "--scenes", "5", "--seed", "2", "--out", str(out)])
    printed = capsys.readouterr().out
    assert code == 0 and "Game: fubar" in printed and "Scenario over: yes" in printed
    code = main(["replay", str(out)])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["ruleset"] == "fubar" and data["phase"] == "over"
    assert len(data["characters"]) == 3


def test_cli_never_overwrites_a_log(tmp_path, capsys):
    out = tmp_path / "keep.jsonl"
    out.write_text("precious\n", encoding="utf-8")
    code = main(["simulate", "--game", "fubar", "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and "already exists" in err and str(tmp_path) not in err
    assert out.read_text(encoding="utf-8") == "precious\n"


def test_cli_replay_of_a_damaged_fubar_log_names_the_line(sim, tmp_path, capsys):
    path, _ = sim
    lines = path.read_text(encoding="utf-8").splitlines()
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines[:10] + ['{"seq": 10, "action": {"type": "attempt"']) + "\n", encoding="utf-8")
    code = main(["replay", str(bad)])
    err = capsys.readouterr().err
    assert code == 2 and "line 11" in err and "Traceback" not in err
    code = main(["replay", "--partial", str(bad)])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["actions"] == 9 and data["damaged"]["line"] == 11


def test_cli_replay_of_an_unknown_game_is_one_line(tmp_path, capsys):
    p = tmp_path / "chess.jsonl"
    p.write_text(header_line("chess", {}, "g") + "\n", encoding="utf-8")
    code = main(["replay", str(p)])
    err = capsys.readouterr().err
    assert code == 2 and "chess" in err and err.count("\n") == 1


def test_universalis_is_still_the_default_game(tmp_path, capsys):
    code = main(["simulate", "--seats", "3", "--scenes", "1", "--seed", "1", "--out", str(tmp_path / "u.jsonl")])
    capsys.readouterr()
    assert code == 0
    head = json.loads((tmp_path / "u.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert head["ruleset"] == "universalis"
    code = main(["replay", str(tmp_path / "u.jsonl")])
    assert code == 0 and "players" in json.loads(capsys.readouterr().out)


def test_fubar_needs_a_player_seat():
    with pytest.raises(Exception) as exc:
        simulate("fubar", seats=1)
    assert "FUBAR" in str(exc.value) or "seats" in str(exc.value)


def test_a_refused_ai_action_falls_back_and_the_log_says_so(tmp_path):
    """As in Universalis: an AI seat's refused action never stops the game; its seat's simplest legal
    answer is taken and the record names the refusal."""
    from agents.base import Decision
    from agents.game_sim import HEURISTICS
    from engine.core.dice import SeededDice
    from engine.fubar import actions as A

    class Stubborn(FubarPlayer):
        def decide(self, obs):
            if obs.pending.kind == "turn":
                return Decision(action=A.Downtime(player=self.name), kind="llm", rationale="rest, always")
            return super().decide(obs)

    seats = HEURISTICS["fubar"](3, 1, 3)
    seats[1] = (seats[1][0], Stubborn(seats[1][0].name, seed=1, seat_index=1, scenes=3))
    t = GameTable.new(get_ruleset("fubar"), seats, dice=SeededDice(1), log_path=tmp_path / "s.jsonl")
    t.run(max_steps=400)
    fell = [r for r in t.records if r.meta.get("fallback")]
    assert fell and all("F-8" in r.meta["fallback"] for r in fell)
    assert all(r.action["type"] == "pass_turn" for r in fell)
    assert GameTable.load((tmp_path / "s.jsonl").read_text()).state.model_dump() == t.state.model_dump()


def test_the_llm_schema_is_the_action_union():
    schema = get_ruleset("fubar").action_schema()
    text = json.dumps(schema)
    for name in ("attempt", "rule_conflict", "narrate_outcome", "create_character", "reroll", "concede"):
        assert f'"{name}"' in text


def test_cli_replays_a_universalis_log_whose_header_names_no_ruleset(tmp_path, capsys):
    """Logs written before headers named their game are Universalis."""
    head = {"format": "storytable-log", "version": 1, "game_id": "old",
            "config": {"players": ["Ann", "Bob"], "starting_coins": 25, "refreshment": 5, "starting_player": 0}}
    rec = {"seq": 1, "action": {"type": "propose_tenet", "player": "Ann", "text": "A drowned city"}, "meta": {}}
    p = tmp_path / "old.jsonl"
    p.write_text(json.dumps(head) + "\n" + json.dumps(rec) + "\n", encoding="utf-8")
    code = main(["replay", str(p)])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["tenets"][0]["text"] == "A drowned city" and "players" in data


@pytest.mark.parametrize("options", [{"resolve_variant": "replace"}, {"resolve_variant": "replace_slots"},
                                     {"resolve_variant": "split"}, {"doom": True}, {"buckets": True},
                                     {"weapons_armour": True, "scale": True, "armour_piercing": True},
                                     {"yes_and_two": True, "spend_at_zero": True}])
def test_the_ai_table_plays_every_variant_to_its_end(options):
    """Table options change what the AI seats must do (Consequences in Replace, d10 pools in Buckets...):
    the scenario still ends with no fallback."""
    st = simulate("fubar", seats=4, scenes=4, seed=1, options=options).stats()
    assert st["over"] and st["fallbacks"] == 0, st


def test_the_ai_table_keeps_to_the_established_facts():
    """Nobody attacks a defeated opposition or frames it into a scene, and a character written out never acts."""
    for seed in range(4):
        t = simulate("fubar", seats=4, scenes=6, seed=seed, options={"spend_at_zero": True}).table
        rs = t.ruleset
        state = rs.game_from_header(t.header)
        for rec in t.records:
            a = rec.action
            if a["type"] == "attempt" and a.get("against") in state.opposition:
                assert not state.opposition[a["against"]].defeated, (seed, rec.seq)
            if a["type"] == "frame_scene":
                assert not any(state.opposition[o].defeated for o in a.get("present", [])), (seed, rec.seq)
            if a.get("player") in state.characters:
                assert not state.characters[a["player"]].out, (seed, rec.seq)
            state, _ = rs.apply(state, a)


def test_a_seat_changes_hands_and_undo_rewrites_the_log(tmp_path):
    """Any seat, the GM's included, can go from AI to person and back; undo replays the rest."""
    from agents.game_loop import replay_file
    from agents.game_sim import HEURISTICS
    from engine.core.dice import SeededDice

    seats = HEURISTICS["fubar"](4, 3, 4)
    path = tmp_path / "u.jsonl"
    t = GameTable.new(get_ruleset("fubar"), seats, dice=SeededDice(3), log_path=path)
    gm = seats[0][0].name
    t.run(max_steps=30)
    t.set_seat(gm, None)
    t.run(max_steps=500)
    pend = t.ruleset.pending(t.state)
    assert gm in pend.seats and not t.ruleset.is_over(t.state)  # the GM is now a person: the loop waits
    assert t.step() == (False, pend.seats)
    t.set_seat(gm, seats[0][1])
    t.run(max_steps=40)
    n = len(t.records)
    t.undo(5)
    assert len(t.records) == n - 5 and path.read_text(encoding="utf-8") == t.log_text()
    again = replay_file(path, keep_writing=True)
    assert again.state.model_dump() == t.state.model_dump()
    again.set_seat(gm, seats[0][1])
    for spec, player in seats[1:]:
        again.set_seat(spec.name, player)
    again.run(max_steps=20)
    assert GameTable.load(path.read_text(encoding="utf-8")).state.model_dump() == again.state.model_dump()

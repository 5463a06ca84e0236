"""`storytable play`: a person at the terminal with AI players; scripted input, real engine."""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

from app.commands.play import make_table, play_loop


def _args(tmp_path, **kw):
    base = dict(humans="Ann", seats=3, ai="heuristic", out=str(tmp_path / "g.jsonl"), load=None, seed=4,
                premise="noir in a drowned city", scenes=0)
    base.update(kw)
    return argparse.Namespace(**base)


def _script(*answers, table=None):
    """Answers in order; reaction windows (other players' statements) are passed with Enter."""
    it = iter(answers)

    def ask(prompt: str) -> str:
        if "(Enter = pass)" in prompt:
            return ""
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None
    return ask


def test_person_proposes_a_tenet_passes_and_bids(tmp_path):
    table = make_table(_args(tmp_path))
    out: list[str] = []
    # prep: 1 = propose tenet (text, kind default, replaces empty); then 4 = pass; then a bid
    ask = _script("1", "It always rains in the drowned city", "", "",
                  *["4"] * 6, "1", "2")
    play_loop(table, ask, out.append)
    s = table.state
    assert any(t.text == "It always rains in the drowned city" and t.by == "Ann" for t in s.tenets)
    text = "\n".join(out)
    assert "Waiting for Ann (preparation turn)" in text
    assert "1. Propose a Tenet (cost 1)" in text
    assert "Waiting for Ann (secret scene bid)" in text
    # the log on disk holds every action, the person's marked as hers
    lines = (tmp_path / "g.jsonl").read_text().splitlines()
    recs = [json.loads(x) for x in lines[1:]]
    assert len(recs) == len(table.records)
    assert any(r["meta"].get("decided_by") == "human" and r["action"]["type"] == "propose_tenet" for r in recs)
    assert any(r["action"] == {"type": "bid", "player": "Ann", "amount": 2} for r in recs)


def test_refused_action_prints_the_rule_and_changes_nothing(tmp_path):
    table = make_table(_args(tmp_path))
    out: list[str] = []
    # pass preparation until the bid, then bid more than Ann holds
    play_loop(table, _script(*["4"] * 6), out.append)
    assert table.state.phase == "bidding"
    before = (len(table.records), table.state.player("Ann").wealth)
    out.clear()
    play_loop(table, _script("1", "999"), out.append)
    assert any("refused:" in line and "U-ECO-3" in line for line in out), out
    assert (len(table.records), table.state.player("Ann").wealth) == before


def test_bad_menu_input_and_help_do_not_act(tmp_path):
    table = make_table(_args(tmp_path))
    out: list[str] = []
    n = len(table.records)
    play_loop(table, _script("h", "x", "77", "s", "q"), out.append)
    assert len(table.records) == n
    text = "\n".join(out)
    assert "Commands:" in text and "type a number from 1 to" in text
    assert "storytable play --load" in text


def test_saved_game_goes_on_with_load(tmp_path):
    table = make_table(_args(tmp_path))
    play_loop(table, _script(*["4"] * 6, "1", "3"), lambda _: None)
    n = len(table.records)
    assert n > 0
    again = make_table(_args(tmp_path, load=str(tmp_path / "g.jsonl"), out=None))
    assert len(again.records) == n
    assert again.seats["Ann"].is_human and not again.seats["Bob"].is_human
    assert [p.wealth for p in again.state.players] == [p.wealth for p in table.state.players]


def test_undo_takes_back_the_persons_last_decision(tmp_path):
    table = make_table(_args(tmp_path))
    answers = iter(["1", "The river keeps what it takes", "", ""])
    seen = []

    def ask(prompt: str) -> str:
        seen.append(prompt)
        if "(Enter = pass)" in prompt:
            if not any("undo" in x for x in seen):
                seen.append("undo")
                assert any(t.text == "The river keeps what it takes" for t in table.state.tenets)
                return "u"
            raise EOFError
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    play_loop(table, ask, lambda _: None)
    assert "undo" in seen
    assert not any(t.text == "The river keeps what it takes" for t in table.state.tenets)
    on_disk = (tmp_path / "g.jsonl").read_text()
    assert "The river keeps what it takes" not in on_disk


def test_terminal_play_through_stdin(tmp_path):
    log = tmp_path / "t.jsonl"
    env = dict(os.environ)
    code = "import sys; from app.cli import main; sys.exit(main())"
    p = subprocess.run([sys.executable, "-c", code, "play", "--humans", "Ann", "--seats", "2", "--seed", "1",
                        "--out", str(log)], input="1\nThe sea remembers\n\n\n4\n4\n4\n1\n1\nq\n",
                       capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == 0, p.stderr
    assert "Ann, your choice:" in p.stdout
    assert "Traceback" not in p.stderr
    recs = [json.loads(x) for x in log.read_text().splitlines()[1:]]
    assert any(r["action"].get("text") == "The sea remembers" for r in recs)


def test_unknown_person_on_load_is_a_clear_error(tmp_path):
    from app.cli import main

    table = make_table(_args(tmp_path))
    play_loop(table, _script("q"), lambda _: None)
    code = main(["play", "--load", str(tmp_path / "g.jsonl"), "--humans", "Zed"])
    assert code == 2


def test_prompts_speak_the_books_words_and_a_new_place_typed_at_the_location_creates_it(tmp_path):
    """U-FRAME-1: the framer establishes the location, an existing one or a new one ("a new place
    typed where a location is asked creates it"); no prompt shows an engine field name."""
    from app.commands.play import ask_action
    from app.ui.words import field_label
    from engine.universalis import actions as A
    from engine.universalis.actions import ACTION_TYPES
    from engine.universalis.decisions import pending

    for typ, model in ACTION_TYPES.items():
        for f in model.model_fields:
            if f not in ("type", "player"):
                assert "_" not in field_label(typ, f) and field_label(typ, f).strip(), (typ, f)
    table = make_table(_args(tmp_path))
    while table.state.phase == "prep":
        table.submit(A.PassPrep(player=pending(table.state).players[0]), {"decided_by": "human"})
    for p in pending(table.state).players:
        table.submit(A.Bid(player=p, amount=3 if p == "Ann" else 0), {"decided_by": "human"})
    assert table.state.scene().framer == "Ann" and table.state.scene().location is None
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return "The drowned lighthouse" if len(prompts) == 1 else ""

    data = ask_action(table, "Ann", "establish_location", ask, lambda _: None)
    assert data == {"type": "establish_location", "player": "Ann", "new_role": "The drowned lighthouse"}
    assert prompts[0].startswith("  the location (its name from the list, or a new place")
    assert not any(w in " ".join(prompts) for w in ("new_role", "new role", "return_to_scene", "()", "proper_name"))
    table.submit(data, {"decided_by": "human"})
    s = table.state
    assert s.components[s.scene().location].label.lower() == "the drowned lighthouse"
    # an existing place typed by its name is that place
    prompts.clear()
    again = ask_action(table, "Ann", "establish_location",
                       lambda p: (prompts.append(p), "" if prompts[1:] else "the drowned LIGHTHOUSE")[1],
                       lambda _: None)
    assert again == {"type": "establish_location", "player": "Ann", "location": s.scene().location}

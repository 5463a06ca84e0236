"""The ruleset protocol and registry (engine/core/ruleset.py) and the dice sizes it asks for."""
from __future__ import annotations

import json

import pytest

from engine.core.dice import ScriptedDice, SeededDice, TypedDice, normalize_face
from engine.core.errors import LogError, RuleViolation
from engine.core.log import header_line
from engine.core.ruleset import (
    Ruleset, SeatSpec, get_ruleset, header_for, names, replay_log_text, ruleset_for_header,
)


def test_registry_knows_universalis_and_fubar_and_both_meet_the_protocol():
    assert {"universalis", "fubar"} <= set(names())
    for name in ("universalis", "fubar"):
        rs = get_ruleset(name)
        assert isinstance(rs, Ruleset)
        assert rs.name == name and rs.version


def test_unknown_game_is_refused_in_words():
    with pytest.raises(RuleViolation) as exc:
        get_ruleset("paganinni")
    assert "paganinni" in str(exc.value) and "universalis" in str(exc.value)


def test_a_header_without_a_ruleset_is_universalis_and_an_unknown_one_is_a_log_error():
    assert ruleset_for_header({"config": {}}).name == "universalis"
    with pytest.raises(LogError):
        ruleset_for_header({"ruleset": "chess"})
    with pytest.raises(LogError) as exc:
        ruleset_for_header({"ruleset": "fubar", "ruleset_version": "999"})
    assert "999" in str(exc.value)


def test_seeded_dice_keep_the_d10_stream_and_roll_other_sizes():
    """Existing logs stay the same: a d10 roll is what it was; d6 and d20 stay in range."""
    import random
    rng = random.Random(7)
    assert SeededDice(7).roll(5) == [rng.randint(1, 10) for _ in range(5)]
    d = SeededDice(3)
    assert all(1 <= f <= 6 for f in d.roll(200, 6)) and all(1 <= f <= 20 for f in d.roll(200, 20))


def test_scripted_and_typed_dice_refuse_faces_the_die_cannot_show():
    assert ScriptedDice([0, 10, 3]).roll(3) == [10, 10, 3]  # a d10's 0 reads as 10, as before
    with pytest.raises(ValueError):
        ScriptedDice([7], sides=6)
    with pytest.raises(ValueError):
        ScriptedDice([3], sides=10).roll(1, 6)
    assert ScriptedDice([1, 6], sides=6).roll(2, 6) == [1, 6]
    with pytest.raises(ValueError):
        normalize_face(0, 6)
    typed = TypedDice(lambda n, sides: [2] * n)
    assert typed.roll(3, 6) == [2, 2, 2]
    with pytest.raises(ValueError):
        TypedDice(lambda n, sides: [1]).roll(2, 6)


def test_universalis_adapter_delegates_and_replays_an_old_header():
    rs = get_ruleset("universalis")
    s = rs.new_game([SeatSpec("Ann"), SeatSpec("Bob")], {"starting_coins": 10})
    assert rs.pending(s).seats == ("Ann",)
    s2, events = rs.apply(s, {"type": "propose_tenet", "player": "Ann", "text": "A drowned city"})
    assert events and rs.invariants(s2) == []
    assert [f.text for f in rs.facts(s2)] == ["A drowned city"]
    with pytest.raises(RuleViolation):
        rs.new_game([SeatSpec("Ann", "gm"), SeatSpec("Bob")])
    old = header_line("universalis", rs.header_config(s), "g1")  # no ruleset_version: an old log
    line = json.dumps({"seq": 1, "action": {"type": "propose_tenet", "player": "Ann", "text": "A drowned city"},
                       "meta": {}})
    rep = replay_log_text(old + "\n" + line + "\n")
    assert rep.ruleset.name == "universalis" and rep.error is None
    assert rep.state.model_dump() == s2.model_dump()
    head = json.loads(header_for(rs, s, "g2"))
    assert head["ruleset"] == "universalis" and head["ruleset_version"] == rs.version


def test_fubar_view_hides_the_gms_notes_and_facts_feed_memory():
    """What a seat may see: the GM sees the opposition's Resolve and Descriptors, a player does not."""
    from tests.fubar_helpers import GM, P1, act, conflict, narrate, opposition, table
    rs = get_ruleset("fubar")
    s, oid = opposition(table(1), name="Blofeld", resolve=5, trademarks=["Cat lover"])
    s = narrate(conflict(s, faces=[1, 1, 1, 2, 2], against=oid), details=["the lair's door slams"])
    gm = {o["id"]: o for o in rs.view(s, GM)["opposition"]}
    player = {o["id"]: o for o in rs.view(s, P1)["opposition"]}
    watcher = {o["id"]: o for o in rs.view(s, None)["opposition"]}
    assert gm[oid]["resolve"] == 5 and gm[oid]["trademarks"] == ["Cat lover"]
    assert "resolve" not in player[oid] and "trademarks" not in player[oid] and "resolve" not in watcher[oid]
    kinds = {f.kind for f in rs.facts(s)}
    assert {"detail", "answer", "trademark", "flaw", "relationship"} <= kinds
    assert any(f.kind == "detail" and f.text == "the lair's door slams" and f.place == "the embassy"
               for f in rs.facts(s))
    assert rs.die_sizes == (6, 10) and get_ruleset("universalis").die_sizes == (10,)
    assert rs.invariants(s) == []
    assert "fubar" in json.dumps(rs.action_schema()) or "attempt" in json.dumps(rs.action_schema())


def test_universalis_adapter_holds_its_invariants_over_a_played_game():
    """The adapter delegates: a heuristic Universalis game's log replays through the registry to the same
    state the table reached, and every intermediate state passes the adapter's invariants."""
    from agents.simulation import simulate_game
    rs = get_ruleset("universalis")
    result = simulate_game(seats=3, scenes=1, seed=2, max_steps=300)
    rep = replay_log_text(result.table.log_text(), keep_states=True)
    assert rep.error is None and rep.ruleset.name == "universalis"
    assert rep.state.model_dump() == result.table.state.model_dump()
    for st in rep.states[::10] + [rep.state]:
        assert rs.invariants(st) == []
    pend = rs.pending(rep.state)
    assert pend.seats and (pend.dice == () or pend.seats == ("dice",))

"""The event log: saving writes it, loading replays it; damage is refused with its line.

A damaged log never raises past `replay_text` (apart from a missing header, where nothing is
valid): the state before the damage is returned with a `LogError` naming the line, so the
valid part of a game is never lost.
"""
from __future__ import annotations

import json

import pytest

from engine.core.errors import LogError
from engine.core.log import LogRecord, header_line, parse_log
from engine.universalis import actions as A
from engine.universalis.replay import replay_text

from engine_helpers import P3, framed


def logged_game() -> tuple[str, list, object]:
    """A short game with a Complication and a roll, as the table would save it."""
    g = framed(P3, {"Ann": 2})
    hero = g.create("Ann", "Hero")
    g.end_turn("Ann")
    g.event("Ben", "A wolf bites the hero.", receiver=hero)
    g.act(A.BuyDie(player="Ben", pool="C", count=2))
    g.call_and_agree("Ben")
    g.roll(C=[3, 9], Ann=[])
    g.narrate_out()
    cfg = {"players": P3, "starting_coins": 25, "refreshment": 5, "starting_player": 0}
    lines = [header_line("universalis", cfg, "g1")]
    lines += [LogRecord(i + 1, a.model_dump(mode="json")).to_json() for i, a in enumerate(g.actions)]
    return "\n".join(lines) + "\n", g.actions, g.s


def test_replay_with_the_recorded_dice_rebuilds_the_same_state():
    text, actions, state = logged_game()
    rep = replay_text(text)
    assert rep.error is None and len(rep.records) == len(actions)
    assert rep.state.model_dump_json() == state.model_dump_json()
    assert any(e.kind == "roll" for e in rep.events)  # the dice are in the log, not re-rolled


@pytest.mark.parametrize("damage", ["{not json", "[1, 2, 3]", '{"seq": 5}', '{"seq": 99, "action": {}}'])
def test_a_damaged_line_stops_the_replay_there_and_keeps_what_came_before(damage):
    text, actions, _ = logged_game()
    lines = text.splitlines()
    lines[6] = damage  # line 7: the 6th action
    rep = replay_text("\n".join(lines) + "\n")
    assert isinstance(rep.error, LogError) and rep.error.line == 7
    assert rep.error.valid_records == 5 and len(rep.records) == 5
    assert rep.state.seq == 5
    assert f"line 7" in str(rep.error)
    expected = replay_text("\n".join(lines[:6]) + "\n")
    assert expected.error is None
    assert rep.state.model_dump_json() == expected.state.model_dump_json()


def test_a_truncated_last_line_is_reported_as_truncated():
    text, actions, _ = logged_game()
    rep = replay_text(text[:-25])
    assert rep.error is not None and "truncated" in rep.error.reason
    assert rep.error.line == len(actions) + 1
    assert len(rep.records) == len(actions) - 1


def test_an_action_the_rules_refuse_is_reported_with_its_rule_and_line():
    text, actions, _ = logged_game()
    lines = text.splitlines()
    i = next(k for k, line in enumerate(lines) if '"type": "bid"' in line)
    rec = json.loads(lines[i])
    rec["action"]["amount"] = 500
    lines[i] = json.dumps(rec)
    rep = replay_text("\n".join(lines) + "\n")
    assert rep.error is not None and rep.error.line == i + 1
    assert "U-ECO-3" in rep.error.reason and "holds 25 coins" in rep.error.reason
    assert rep.state.seq == i - 1 and rep.state.phase == "bidding"


def test_a_malformed_action_in_the_log_is_refused_U_INPUT():
    text, _, _ = logged_game()
    lines = text.splitlines()
    lines[3] = json.dumps({"seq": 3, "action": {"type": "bid", "player": "Cat", "amount": -1}})
    rep = replay_text("\n".join(lines) + "\n")
    assert rep.error is not None and rep.error.line == 4 and "U-INPUT" in rep.error.reason
    assert rep.state.seq == 2


def test_a_log_without_a_usable_header_is_refused_at_line_1():
    for text in ("", "\n", "nope\n", '{"format": "x"}\n', '{"format": "storytable-log", "version": 7}\n',
                 '{"format": "storytable-log", "version": 1, "config": {"players": ["Ann"]}}\n'):
        with pytest.raises(LogError) as exc:
            replay_text(text)
        assert exc.value.line == 1 and exc.value.valid_records == 0


def test_blank_lines_are_skipped_and_parse_log_never_raises():
    text, actions, _ = logged_game()
    spaced = text.replace("\n", "\n\n")
    parsed = parse_log(spaced)
    assert parsed.error is None and len(parsed.records) == len(actions)
    for junk in ("\x00\x01", "{" * 50, "]]]", "null\n" * 3):
        parse_log(junk)  # must not raise


def test_a_log_cut_inside_a_utf8_character_loads_up_to_that_line():
    """Read from bytes, a cut inside a character is damage at its line like any cut, not 'not text'."""
    from engine.core.log import parse_log_bytes
    from engine.universalis.replay import replay_bytes

    text, actions, _ = logged_game()
    lines = text.splitlines()
    rec = json.loads(lines[4])
    rec["meta"] = {"why": "café ☃"}
    lines[4] = json.dumps(rec, ensure_ascii=False)
    data = ("\n".join(lines) + "\n").encode("utf-8")
    cut = data[:data.index("☃".encode()) + 2]
    parsed = parse_log_bytes(cut)
    assert parsed.error.line == 5 and len(parsed.records) == 3 and "inside a character" in parsed.error.reason
    rep = replay_bytes(cut)
    assert rep.error.line == 5 and rep.error.valid_records == 3 and rep.state.seq == 3
    torn = data.replace("☃".encode(), b"\xe2\x98")  # a torn character mid-file: the lines after are not loaded
    parsed = parse_log_bytes(torn)
    assert parsed.error.line == 5 and len(parsed.records) == 3 and "not UTF-8" in parsed.error.reason
    assert parse_log_bytes(data).error is None and len(parse_log_bytes(data).records) == len(actions)


@pytest.mark.parametrize("data", [b"", b"\x00\x01\x02", bytes(range(256)), b"\xef\xbb"])
def test_bytes_with_no_readable_header_are_refused_at_line_1(data):
    from engine.core.log import parse_log_bytes
    from engine.universalis.replay import replay_bytes

    parsed = parse_log_bytes(data)
    assert parsed.header == {} and parsed.records == [] and parsed.error.line == 1
    with pytest.raises(LogError) as exc:
        replay_bytes(data)
    assert exc.value.line == 1

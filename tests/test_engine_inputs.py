"""What FUBAR and Paganini refuse before any rule of play: seats, table options, malformed actions.

Both read them through engine/core/inputs.py; each names its own rule, in a player's words.
"""
from __future__ import annotations

import pytest

from engine.core.errors import RuleViolation
from engine.fubar import rules as fubar
from engine.paganini import rules as paganini

GAMES = [(fubar, "F-10", "F-OPT", "F-INPUT"), (paganini, "P-SEAT", "P-OPT", "P-INPUT")]


def _refused(rule: str, fn, *args) -> str:
    with pytest.raises(RuleViolation) as exc:
        fn(*args)
    assert exc.value.rule == rule and f"({rule})" in str(exc.value)
    return str(exc.value)


@pytest.mark.parametrize("game,seat_rule,opt_rule,input_rule", GAMES)
def test_seats_options_and_malformed_actions_are_refused_in_words(game, seat_rule, opt_rule, input_rule) -> None:
    assert "distinct, non-empty" in _refused(seat_rule, game.new_game, [("Gm", "gm"), (" Ann ", "player"),
                                                                        ("Ann", "player")])
    assert "distinct, non-empty" in _refused(seat_rule, game.new_game, [("Gm", "gm"), ("  ", "player")])
    assert "'dice' is reserved" in _refused(seat_rule, game.new_game, [("Gm", "gm"), ("dice", "player")])
    assert "bad table option no_such_option" in _refused(opt_rule, game.new_game, [("Gm", "gm"), ("Ann", "player")],
                                                         {"no_such_option": True})
    s = game.new_game([("Gm", "gm"), (" Ann ", "player")])
    assert [x.name for x in s.seats] == ["Gm", "Ann"]  # names are trimmed
    before = s.model_dump_json()
    words = _refused(input_rule, game.apply, s, {"type": "end_scene", "player": "Gm", "surprise": 1})
    assert "the action is malformed" in words and "surprise" in words
    assert s.model_dump_json() == before

"""Death of the Vele behind the ruleset protocol: registry, schema, views, facts, bad headers."""
from __future__ import annotations

import pytest

from engine.core.errors import LogError, RuleViolation
from engine.core.ruleset import Ruleset, SeatSpec, get_ruleset, names
from engine.vele import actions as A
from tests.vele_helpers import SEATS, built, in_scene, play


def test_vele_is_registered_and_speaks_the_protocol():
    rs = get_ruleset("vele")
    assert "vele" in names() and isinstance(rs, Ruleset)
    assert rs.roles == ("player",) and rs.die_sizes == (4, 6, 8, 10, 12)
    schema = rs.action_schema()
    kinds = {x["properties"]["type"]["const"] for x in schema["$defs"].values() if "type" in x.get("properties", {})}
    assert {"bid", "build", "frame_scene", "wager", "spend_fate", "take_damage", "end_act"} <= kinds


def test_V_57_bids_are_secret_in_a_seats_view():
    """V-57 (L845): a bid is secret until all are revealed: other seats see only that one was set."""
    rs = get_ruleset("vele")
    s = rs.new_game([SeatSpec(n) for n in SEATS])
    s = play(s, A.Bid(player="Ann", bid=4))
    view = {p["name"]: p["bid"] for p in rs.view(s, "Ben")["players"]}
    assert view["Ann"] == "hidden" and view["Ben"] is None
    assert {p["name"]: p["bid"] for p in rs.view(s, "Ann")["players"]}["Ann"] == 4


def test_facts_hold_scenes_traits_and_aspects():
    rs = get_ruleset("vele")
    s = play(in_scene(), A.AddGuideline(player="Ann", text="The river floods at dusk"))
    facts = rs.facts(s)
    kinds = {f.kind for f in facts}
    assert {"scene", "trait", "aspect", "guideline"} <= kinds and rs.invariants(s) == []
    assert any("the ford" in f.text for f in facts if f.kind == "scene")


def test_bad_header_and_bad_action_are_one_line_refusals():
    rs = get_ruleset("vele")
    with pytest.raises(LogError):
        rs.game_from_header({"config": {"seats": "nobody"}})
    with pytest.raises(LogError):
        rs.game_from_header({"config": {"seats": [{"name": "A"}], "options": {}}})
    with pytest.raises(RuleViolation) as exc:
        rs.apply(built(), {"type": "frame_scene", "player": "Ann"})
    assert exc.value.rule == "V-INPUT" and "\n" not in str(exc.value)
    with pytest.raises(RuleViolation) as exc:
        rs.apply(built(), {"type": "pass_turn", "player": "Zed"})
    assert exc.value.rule == "V-SEAT"


def test_invariants_catch_lost_dice():
    """V-9: a die that vanishes from the table is reported by the invariants."""
    rs = get_ruleset("vele")
    s = built()
    assert rs.invariants(s) == []
    s.players["Ann"].character.pop()
    assert any(b.startswith("V-9") for b in rs.invariants(s))


def test_invariants_catch_dice_from_nowhere_and_odd_dice():
    """V-9, V-8 (L322, L332, @49637): with a finite bowl the points in play never grow, even when the count
    is kept in step with a forged die; a die of no Vele size is reported, not a traceback."""
    rs = get_ruleset("vele")
    s = built()
    s.players["Ann"].character.append(10)
    s.total_points += 4
    bad = rs.invariants(s)
    assert len(bad) == 1 and "finite bowl began with" in bad[0]
    s = built()
    s.bowl.append(7)
    assert rs.invariants(s)[0].startswith("V-8")
    s = built(options={"unlimited_bowl": True})
    s.players["Ann"].character.append(10)
    s.total_points += 4  # an unlimited bowl adds dice to the table (V-9 option): counted, not refused
    assert rs.invariants(s) == []

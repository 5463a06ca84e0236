"""Stationary terrain in play (V-41, V-EX-15; L437): it attacks a nearby component on that component's
turn, and the turn stays the victim's."""
from __future__ import annotations

import pytest

from engine.core.errors import RuleViolation
from engine.vele import actions as A
from engine.vele.rules import apply, new_game
from tests.vele_helpers import SEATS, build_action, comp_of, play, story


def refuses(s, action, rule):
    with pytest.raises(RuleViolation) as exc:
        apply(s, action)
    assert exc.value.rule == rule, str(exc.value)


def bridge_scene():
    """Ann's first normal story component is a rickety bridge (stationary); Ben's PC is on it."""
    s = play(new_game(SEATS), *[A.Bid(player=n, bid=b) for n, b in zip(SEATS, (6, 4, 3, 2))])
    mine = story("Ann")
    mine[1].name, mine[1].stationary = "Rickety bridge", True
    s = play(s, *[build_action(n, story=mine) if n == "Ann" else build_action(n) for n in s.order])
    bridge = next(c for c in s.components.values() if c.name == "Rickety bridge")
    ben, cy = comp_of(s, "Ben", "pc"), comp_of(s, "Cy", "pc")
    s = play(s, A.FrameScene(player="Ann", place="the gorge", present=[ben.id, cy.id, bridge.id]))
    return s, bridge, ben, cy


def test_V_41_V_EX_15_the_bridge_attacks_dexter_on_his_turn_and_his_turn_goes_on():
    """V-41, V-EX-15 (L437): on Ben's turn his PC steps onto the bridge; the bridge (Ann's) attacks him then;
    after the exchange the turn is still Ben's. It may not strike Cy on Ben's turn, and an ordinary
    component of Ann's may not act on Ben's turn (V-25)."""
    s, bridge, ben, cy = bridge_scene()
    assert s.scene.turns[s.scene.turn] == "Ben"
    refuses(s, A.StartStruggle(player="Ann", actor=bridge.id, target=cy.id, goal="attack"), "V-41")
    refuses(s, A.StartStruggle(player="Ann", actor=comp_of(s, "Ann", "main").id, target=ben.id, goal="attack"), "V-25")
    refuses(s, A.StartStruggle(player="Ann", actor=bridge.id, target=ben.id, goal="attack", extended=True), "V-41")
    s = play(s, A.StartStruggle(player="Ann", actor=bridge.id, target=ben.id, goal="attack", text="the planks give way"),
             A.StateDifficulty(player="Ann", value=0),
             A.Wager(player="Ann", stakes=[A.StakeIn(trait="Numbers", die=6)]),
             A.Wager(player="Ben", stakes=[A.StakeIn(trait="Blade", die=8)]),
             A.RollDice(faces={"actor:0": [2], "opponent:0": [5]}))
    assert s.phase == "scene" and s.scene.turns[s.scene.turn] == "Ben"


def test_V_41_terrain_owner_is_offered_the_strike_out_of_turn():
    """V-41 (L437): on Ben's turn, Ann (whose bridge is in the scene) may start a struggle with it."""
    from engine.vele.decisions import legal_options
    s, bridge, ben, cy = bridge_scene()
    assert "start_struggle" in {o.type for o in legal_options(s, "Ann")}
    assert "start_struggle" not in {o.type for o in legal_options(s, "Cy")}

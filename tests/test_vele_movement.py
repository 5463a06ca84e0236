"""Zones and movement in play (V-44, L413-415): with the table's `zones` option the narrator lays a scene's zones
in a row; on your turn a component moves one zone before its struggle, or one more zone as its struggle."""
from __future__ import annotations

from agents.game_sim import simulate
from engine.core.ruleset import get_ruleset, replay_log_text
from engine.vele import actions as A
from engine.vele.decisions import legal_options
from engine.vele.rules import new_game
from tests.vele_helpers import SEATS, build_action, built, comp_of, play, refuses, story

ZONES = ["the bank", "the ford", "the far shore"]


def mapped_scene(s=None):
    """Ann narrates the ford in three zones: Ben's and Cy's PCs on the bank, her villain on the far shore."""
    s = s or built(options={"zones": True})
    ben, cy, main = comp_of(s, "Ben", "pc"), comp_of(s, "Cy", "pc"), comp_of(s, "Ann", "main")
    s = play(s, A.FrameScene(player="Ann", place="the ford", present=[ben.id, cy.id, main.id], zones=ZONES,
                             placed={main.id: "the far shore"}))
    return s, ben, cy, main


def test_V_44_one_zone_before_the_struggle_and_one_more_as_the_struggle():
    """V-44 (L415: "you can move one zone before or after a struggle. You can also move an additional zone as a
    struggle"): Ben's PC (on the bank, the first zone, unplaced) moves to the ford, free, and the turn is still
    Ben's; a second free move is refused; one more zone as its struggle takes it to the far shore and ends the
    turn. Moves go to a neighbouring zone only, on your own turn, with your own component."""
    s, ben, cy, main = mapped_scene()
    assert s.scene.zone_of(ben.id) == "the bank" and s.scene.zone_of(main.id) == "the far shore"
    assert s.scene.turns[s.scene.turn] == "Ben"
    assert "one zone at a time" in refuses(s, A.Move(player="Ben", component=ben.id, to="the far shore"), "V-44")
    refuses(s, A.Move(player="Cy", component=cy.id, to="the ford"), "V-25")
    refuses(s, A.Move(player="Ben", component=cy.id, to="the ford"), "V-44")
    refuses(s, A.Move(player="Ben", component=ben.id, to="the moon"), "V-44")
    s = play(s, A.Move(player="Ben", component=ben.id, to="the ford", text="Dexter wades in"))
    assert s.scene.zone_of(ben.id) == "the ford" and s.scene.turns[s.scene.turn] == "Ben" and s.phase == "scene"
    assert "free zone" in refuses(s, A.Move(player="Ben", component=ben.id, to="the far shore"), "V-44")
    s = play(s, A.Move(player="Ben", component=ben.id, to="the far shore", as_struggle=True))
    assert s.scene.zone_of(ben.id) == "the far shore" and s.scene.turns[s.scene.turn] == "Cy"
    assert get_ruleset("vele").invariants(s) == []
    # the next turn counts afresh: Cy moves, and a move back to the first zone is recorded as the first zone
    s = play(s, A.Move(player="Cy", component=cy.id, to="the ford"), A.Move(player="Cy", component=cy.id,
                                                                           to="the bank", as_struggle=True))
    assert s.scene.zone_of(cy.id) == "the bank" and cy.id not in s.scene.where


def test_V_44_a_map_only_where_the_table_uses_zones():
    """V-44 (L413: "You can handle movement and locations purely in fiction or you can use a map with zones"):
    without the zones option no scene has a map and nothing moves by the rules; with it, a move is offered on
    your turn. Zones are named once each; only present components are placed, in zones of the map."""
    s = built()
    ben, main = comp_of(s, "Ben", "pc"), comp_of(s, "Ann", "main")
    refuses(s, A.FrameScene(player="Ann", place="the ford", present=[ben.id, main.id], zones=ZONES), "V-44")
    s2 = play(s, A.FrameScene(player="Ann", place="the ford", present=[ben.id, main.id]))
    assert "move" not in {o.type for o in legal_options(s2, "Ben")}
    assert "no map" in refuses(s2, A.Move(player="Ben", component=ben.id, to="the ford"), "V-44")
    z = built(options={"zones": True})
    refuses(z, A.FrameScene(player="Ann", place="x", present=[ben.id, main.id], zones=["a", "a"]), "V-44")
    refuses(z, A.FrameScene(player="Ann", place="x", present=[ben.id], zones=["a", "b"], placed={main.id: "b"}), "V-44")
    refuses(z, A.FrameScene(player="Ann", place="x", present=[ben.id, main.id], zones=["a"], placed={main.id: "b"}),
            "V-44")
    s3, ben, cy, main = mapped_scene(z)
    assert "move" in {o.type for o in legal_options(s3, "Ben")}
    assert "move" not in {o.type for o in legal_options(s3, "Cy")}
    view = get_ruleset("vele").view(s3, "Ben")["scenes"][-1]
    assert view["zones"] == ZONES and view["where"][main.id] == "the far shore" and view["where"][ben.id] == "the bank"


def test_V_44_V_41_terrain_strikes_a_component_in_its_own_zone():
    """V-44, V-41 (L437: terrain "can attack nearby components on their turn"): with a map, nearby is the same
    zone: Ann's bridge (in the middle zone) may not strike Ben's PC on the bank; once Ben's PC walks onto it, it
    may. Stationary terrain does not move."""
    s = play(new_game(SEATS, {"zones": True}), *[A.Bid(player=n, bid=b) for n, b in zip(SEATS, (6, 4, 3, 2))])
    mine = story("Ann")
    mine[1].name, mine[1].stationary = "Rickety bridge", True
    s = play(s, *[build_action(n, story=mine) if n == "Ann" else build_action(n) for n in s.order])
    bridge = next(c for c in s.components.values() if c.name == "Rickety bridge")
    ben = comp_of(s, "Ben", "pc")
    s = play(s, A.FrameScene(player="Ann", place="the gorge", present=[ben.id, bridge.id], zones=ZONES,
                             placed={bridge.id: "the ford"}))
    strike = A.StartStruggle(player="Ann", actor=bridge.id, target=ben.id, goal="attack", text="the planks give way")
    assert "near" in refuses(s, strike, "V-41")
    s = play(s, A.Move(player="Ben", component=ben.id, to="the ford"))
    anns_turn = play(s, A.PassTurn(player="Ben"))
    assert "does not move" in refuses(anns_turn, A.Move(player="Ann", component=bridge.id, to="the bank"), "V-41")
    s = play(s, strike)
    assert s.phase == "struggle" and s.struggle.interrupt


def test_V_44_the_heuristic_table_moves_its_components_and_replays_byte_for_byte(tmp_path):
    """V-44: with the zones option, AI narrators lay maps (PCs at one end, their side at the other) and AI seats
    close in a zone before they struggle; the story ends, dice are conserved, and the log replays."""
    out = tmp_path / "zones.jsonl"
    sim = simulate("vele", seats=3, seed=4, options={"zones": True, "acts": 1}, log_path=out)
    s = sim.table.state
    assert s.phase == "over" and get_ruleset("vele").invariants(s) == []
    moves = [r for r in sim.table.records if r.action["type"] == "move"]
    assert moves and all(r.meta.get("decided_by") == "heuristic" for r in moves)
    assert any(r.action["type"] == "frame_scene" and r.action.get("zones") for r in sim.table.records)
    rep = replay_log_text(out.read_text(encoding="utf-8"))
    assert rep.error is None and rep.state == s


def test_V_44_the_app_shows_the_map_with_names_escaped(monkeypatch):
    """V-44: the sheets panel shows the scene's zones in their row and who stands in each; zone and component
    names are a player's words, escaped for Markdown."""
    from app.ui.games import vele as panel
    shown: list[str] = []
    monkeypatch.setattr(panel.st, "caption", shown.append)
    s, ben, cy, main = mapped_scene()
    s = play(s, A.Move(player="Ben", component=ben.id, to="the ford"))
    view = get_ruleset("vele").view(s, "Ben")
    view["scenes"][-1]["zones"][2] = "*the far shore*"
    view["scenes"][-1]["where"][main.id] = "*the far shore*"
    panel.zones(view)
    assert len(shown) == 1 and "the bank (Cy&#39;s hero)" in shown[0] and "the ford (Ben&#39;s hero)" in shown[0]
    assert "\\*the far shore\\*" in shown[0] and "Ann&#39;s villain" in shown[0]
    shown.clear()
    panel.zones(get_ruleset("vele").view(built(), "Ben"))
    assert shown == []

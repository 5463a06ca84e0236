"""Open Scene Framing (book L1962-1978) played through `apply`: no bidding, framing a new scene for 1
coin on one's turn, switching between active scenes for 1, the framer's Fade to Black for 1 that
closes a scene, and the Refresh that follows (the engine's default reading), with exact coins."""
from __future__ import annotations

from engine.universalis import actions as A
from engine.universalis import legal_options

from engine_helpers import P3, all_pass_prep, game, observed

OSF = {"open_scene_framing": True}


def seen(*rules: str) -> None:
    for rule in rules:
        observed(rule, "effect")


def two_scenes(addons: dict | None = None):
    """Ann frames scene 1 (1), sets it at the Tavern (1) with an Event (1), then frames scene 2 (1) at
    the Harbor (1) with an Event (1): Ann 25 - 6 = 19, both scenes active, scene 2 in play."""
    g = game(P3, addons=addons or OSF)
    all_pass_prep(g)
    g.act(A.FrameScene(player="Ann"))
    g.act(A.EstablishLocation(player="Ann", new_role="Tavern"))
    g.event("Ann", "The lamps are lit.")
    g.act(A.FrameScene(player="Ann"))
    g.act(A.EstablishLocation(player="Ann", new_role="Harbor"))
    g.event("Ann", "A ship docks.")
    return g


def test_UA_OPEN_1_no_bidding_frame_a_new_scene_for_one_coin_and_keep_the_other_L1970():
    """UA-OPEN-1 (L1970 "there is no Bidding for Scene Framing ... 'Frame New Scene' ... costs 1 Coin"):
    after Game Prep the starting player frames; bids are refused; framing mid-turn costs 1 and the
    first scene stays active."""
    g = game(P3, addons=OSF)
    all_pass_prep(g)
    assert g.pend.kind == "frame_turn" and g.pend.players == ("Ann",)
    g.refused(A.Bid(player="Ann", amount=3), "UA-OPEN-1", "no bidding")
    g.refused(A.FrameScene(player="Ben"), "UA-OPEN-1", "Ann's turn to frame")
    g.act(A.FrameScene(player="Ann"))
    assert g.wealth("Ann") == 24 and g.s.current_scene == 1 and g.s.turn.framing
    g.refused(A.FrameScene(player="Ann"), "U-FRAME-1", "location")
    g = two_scenes()
    assert g.wealth("Ann") == 19 and g.wealth("Ben") == 25
    assert [sc.number for sc in g.s.scenes if not sc.ended] == [1, 2] and g.s.current_scene == 2
    assert {"frame_scene", "switch_scene", "close_scene"} <= {o.type for o in legal_options(g.s, "Ann")}
    assert "end_scene" not in {o.type for o in legal_options(g.s, "Ann")}
    g.check()
    seen("UA-OPEN-1")


def test_UA_OPEN_2_switch_to_another_active_scene_for_one_coin_L1974():
    """UA-OPEN-2 (L1974 "pay 1 Coin to switch from the current scene to another of the currently active
    scenes"): Ben switches to scene 1 (25 -> 24) and plays there; the scene in play can't be switched
    to; a scene that does not exist is refused."""
    g = two_scenes()
    g.end_turn("Ann")
    g.refused(A.SwitchScene(player="Ben", scene=2), "UA-OPEN-2", "already the scene in play")
    g.refused(A.SwitchScene(player="Ben", scene=7), "UA-OPEN-2", "no scene 7")
    g.act(A.SwitchScene(player="Ben", scene=1))
    assert g.wealth("Ben") == 24 and g.s.current_scene == 1 and g.s.scene().framer == "Ann"
    g.event("Ben", "A stranger walks in.")
    assert g.s.facts[-1].scene == 1 and g.wealth("Ben") == 23
    g.check()
    seen("UA-OPEN-2")


def test_UA_OPEN_3_UA_OPEN_4_only_the_framer_closes_a_scene_for_one_coin_then_refresh_L1974():
    """UA-OPEN-3 (L1974 "The Framing Player for a given scene can at any time on his turn close the scene
    by paying the 1 Coin to Fade to Black. Once closed the scene can no longer be switched to"):
    Ben may not close Ann's scene; Ann closes scene 1 while scene 2 is in play (19 -> 18); UA-OPEN-4
    (engine default): Refresh 5 follows (Ann 23, Ben 30, Cat 30); play goes on in scene 2; scene 1
    can't be switched to; when Ann closes scene 2 too (23 - 1 + 5 = 27) Ben frames next."""
    g = two_scenes()
    g.refused(A.EndScene(player="Ann"), "UA-OPEN-3", "Fade to Black")
    g.end_turn("Ann")
    g.refused(A.CloseScene(player="Ben", scene=1), "UA-OPEN-3", "only Ann")
    g.end_turn("Ben")
    g.end_turn("Cat")
    g.act(A.CloseScene(player="Ann", scene=1))
    assert (g.wealth("Ann"), g.wealth("Ben"), g.wealth("Cat")) == (23, 30, 30)
    assert g.s.scenes[0].ended and g.s.current_scene == 2 and g.turn == "Ann"
    g.refused(A.SwitchScene(player="Ann", scene=1), "UA-OPEN-2", "closed")
    g.act(A.CloseScene(player="Ann"))
    assert g.wealth("Ann") == 27 and g.pend.kind == "frame_turn" and g.pend.players == ("Ben",)
    g.act(A.FrameScene(player="Ben"))
    assert g.wealth("Ben") == 34 and g.s.current_scene == 3
    g.check()
    seen("UA-OPEN-3", "UA-OPEN-4")


def test_UA_OPEN_4_the_on_frame_reading_pays_refresh_when_a_scene_is_framed_L1974():
    """UA-OPEN-4, the alternative reading (`open_scene_refresh="on_frame"`): Refresh 5 when each new scene
    is framed, none when one closes: Ann 25 - 1 + 5 = 29 after framing scene 1."""
    g = game(P3, addons={**OSF, "open_scene_refresh": "on_frame"})
    all_pass_prep(g)
    g.act(A.FrameScene(player="Ann"))
    assert (g.wealth("Ann"), g.wealth("Ben")) == (29, 30)
    g.act(A.EstablishLocation(player="Ann", new_role="Tavern"))
    g.event("Ann", "The lamps are lit.")
    g.act(A.CloseScene(player="Ann"))
    assert (g.wealth("Ann"), g.wealth("Ben")) == (26, 30)
    g.check()
    seen("UA-OPEN-4")


def test_UA_OPEN_1_panel_state_text_and_heuristic_games_replay(tmp_path):
    """The app panel lists the active scenes (escaped), the LLM's state text names the other active
    scene, and heuristic seats play Open Scene Framing with coins conserved and a byte-identical replay."""
    from agents.llm.state_text import describe_state
    from app.ui.addon_panels import panel_lines
    from engine.universalis.addons import Addons
    from engine_helpers import replayed_game
    g = game(P3, addons=OSF)
    all_pass_prep(g)
    g.act(A.FrameScene(player="Ann"))
    g.act(A.EstablishLocation(player="Ann", new_role="The <b>Inn</b>"))
    g.event("Ann", "The lamps are lit.")
    g.act(A.FrameScene(player="Ann"))
    text = "\n".join(panel_lines(g.s, ["Ben"]))
    assert "scene 1" in text and "scene 2 (in play)" in text and "<b>" not in text
    assert "Other active scenes" in describe_state(g.s, "Ben")
    t = replayed_game(Addons(open_scene_framing=True), 4, tmp_path / "g.jsonl")
    assert t.state.scenes_ended >= 1
    seen("UA-OPEN-1")


def test_UA_OPEN_1_adopted_as_a_gimmick_and_dropped_when_one_scene_is_left_L1978():
    """L1978 ("use this Add-on like a Rules Gimmick ... When that sequence of scenes is over, revert back to
    the standard rules"): a core game adopts it for 1 coin (UA-GIM-1) and Ann frames a second scene; it
    cannot be dropped while two scenes are active; once she closes scene 1 it can (1 coin more)."""
    from engine_helpers import framed
    g = framed(P3, {"Ann": 1})
    g.act(A.AdoptAddon(player="Ann", addon="open-scene-framing"))
    g.end_turn("Ann")
    g.end_turn("Ben")
    g.end_turn("Cat")
    g.act(A.FrameScene(player="Ann"))
    g.act(A.EstablishLocation(player="Ann", new_role="Harbor"))
    g.event("Ann", "A ship docks.")
    g.end_turn("Ann")
    g.end_turn("Ben")
    g.end_turn("Cat")
    g.refused(A.AdoptAddon(player="Ann", addon="open-scene-framing", drop=True), "UA-GIM-1", "one scene active")
    g.act(A.CloseScene(player="Ann", scene=1))
    before = g.wealth("Ann")
    g.act(A.AdoptAddon(player="Ann", addon="open-scene-framing", drop=True))
    assert not g.s.config.addons.open_scene_framing and g.wealth("Ann") == before - 1
    g.check()
    seen("UA-OPEN-1")


def test_UA_OPEN_4_UA_PREF_1_on_frame_refresh_is_seven_after_a_scene_with_the_protagonist_L1974_L2210():
    """UA-OPEN-4 (on-frame reading) with UA-PREF-1 (L2210 "After any scene in which the identified main
    character was present ... the standard Coin Refresh is 7 Coins"): the Refresh paid when a scene is
    framed follows the scene play leaves, so it is 7 when the Main Protagonist was Introduced there.
    Ann frames scene 1 (no scene before it: 25 - 1 + 5 = 29), sets the Tavern (28), narrates an Event
    (27), creates the Hero (26) with "Main Protagonist" (25) and frames scene 2 (25 - 1 + 7 = 31; Ben
    30 + 7 = 37)."""
    g = game(P3, addons={**OSF, "open_scene_refresh": "on_frame", "protagonist_refresh": 7})
    all_pass_prep(g)
    g.act(A.FrameScene(player="Ann"))
    assert (g.wealth("Ann"), g.wealth("Ben")) == (29, 30)
    g.act(A.EstablishLocation(player="Ann", new_role="Tavern"))
    g.event("Ann", "The lamps are lit.")
    hero = g.create("Ann", "Hero")
    g.add("Ann", hero, "Main Protagonist")
    assert g.wealth("Ann") == 25
    g.effect("UA-PREF-1", A.FrameScene(player="Ann"),
             lambda b, a: (a.player("Ann").wealth, a.player("Ben").wealth) == (31, 37))
    g.check()
    seen("UA-OPEN-4")


def test_UA_OPEN_3_the_fade_to_black_cost_is_a_table_setting_like_the_others_L1974():
    """UA-OPEN-3 (L1974 "paying the 1 Coin to Fade to Black"): 1 is the book's price and, like the frame and
    switch prices, a setting (`fade_to_black_cost`): at 2, Ann pays 2 to close scene 1 (19 -> 17, then the
    Refresh: 22), and the option shows 2; the setting without the add-on is refused at setup (UA-SETUP-8)."""
    import pytest
    from engine.core.errors import RuleViolation
    g = two_scenes({**OSF, "fade_to_black_cost": 2})
    assert ("close_scene", "2") in {(o.type, o.cost) for o in legal_options(g.s, "Ann")}
    g.effect("UA-OPEN-3", A.CloseScene(player="Ann", scene=1),
             lambda b, a: a.player("Ann").wealth == 22 and a.scenes[0].ended)
    g.check()
    with pytest.raises(RuleViolation) as exc:
        game(P3, addons={"fade_to_black_cost": 2})
    assert exc.value.rule == "UA-SETUP-8"


def test_UA_OPEN_4_UA_JOB_1_on_frame_a_per_scene_job_is_paid_when_the_scene_closes_L1914_L1974():
    """UA-JOB-1 (L1914, a job paid per scene) under the on-frame reading (UA-OPEN-4): the job is paid when
    a scene ends (its Fade to Black), the Refresh when the next is framed. Ann frames (25 - 1 + 5 = 29),
    sets the Tavern, narrates (27) and closes the scene (26): no Refresh then, Ben's job pays him 2 (30 + 2)."""
    g = game(P3, addons={**OSF, "open_scene_refresh": "on_frame",
                         "jobs": [{"player": "Ben", "title": "Record keeper", "coins": 2, "schedule": "scene"}]})
    all_pass_prep(g)
    g.act(A.FrameScene(player="Ann"))
    g.act(A.EstablishLocation(player="Ann", new_role="Tavern"))
    g.event("Ann", "The lamps are lit.")
    g.effect("UA-JOB-1", A.CloseScene(player="Ann"),
             lambda b, a: (a.player("Ann").wealth, a.player("Ben").wealth, a.player("Cat").wealth) == (26, 32, 30))
    g.check()

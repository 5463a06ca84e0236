"""Alternate Reality Variant (book L1996-2008) played through `apply`: a mirror of the scene just ended,
its price (1 per fork back to scene 1, the new one included), the first scene that cannot be forked,
and the branch's own Components and Facts, with exact coins."""
from __future__ import annotations

import pytest

from engine.core.errors import RuleViolation
from engine.universalis import actions as A
from engine.universalis import legal_options, new_game

from engine_helpers import P3, framed, observed

ALT = {"alternate_realities": True}


def seen(*rules: str) -> None:
    for rule in rules:
        observed(rule, "effect")


def harbor_scene():
    """Scene 1: Ann at the Tavern makes a Hero and ends it. Scene 2: Ben frames the Harbor with the Hero
    (framing ends with its first Event), then makes a Sailor and wounds the Hero, and ends it."""
    g = framed(P3, {"Ann": 1}, addons=ALT)
    hero = g.create("Ann", "Hero")
    g.act(A.EndScene(player="Ann"))
    g.refused(A.ForkScene(player="Cat"), "UA-ALT-2", "first scene")
    g.bids({"Ben": 1})
    g.act(A.EstablishLocation(player="Ben", new_role="Harbor"))
    g.act(A.IntroduceComponent(player="Ben", component=hero))
    g.event("Ben", "A ship docks.")
    sailor = g.create("Ben", "Sailor")
    g.add("Ben", hero, "Wounded")
    g.refused(A.ForkScene(player="Cat"), "UA-ALT-1", "end of a scene")
    g.act(A.EndScene(player="Ben"))
    return g, hero, sailor


def test_UA_ALT_1_a_mirror_scene_costs_one_and_starts_as_the_scene_was_framed_L2002():
    """UA-ALT-1 (L2002 "This mirror scene starts the same way (time, location, and introduced Components)
    with no additional framing cost"; L2006 "1 Coin per fork (including the newly created one)"): Cat
    (35) pays 1 and splits off branch B: scene 3 at the Harbor with the Hero, unwounded; the Sailor and
    the Event 'A ship docks.' belong to branch A, kept as its record."""
    g, hero, sailor = harbor_scene()
    assert g.pend.kind == "bid" and "fork_scene" in {o.type for o in legal_options(g.s, "Cat")}
    assert g.wealth("Cat") == 35
    g.act(A.ForkScene(player="Cat"))
    assert g.wealth("Cat") == 34
    s = g.s
    assert s.current_scene == 3 and s.turn.player == "Cat" and s.phase == "scene"
    sc = s.scene()
    assert s.components[sc.location].label == "Harbor" and hero in sc.present
    assert sailor not in s.components
    assert "Wounded" not in [t.text for t in s.components[hero].live_traits()]
    assert not any(f.text == "A ship docks." for f in s.facts)
    rec = s.extra.alt_records[0]
    assert rec.label == "A" and sailor in rec.components and s.extra.alt_branch == "B" and s.extra.alt_keeper == "Cat"
    assert "Wounded" in [t.text for t in rec.components[hero].live_traits()]
    assert any(f.text == "A ship docks." for f in rec.facts)
    g.check()
    seen("UA-ALT-1")


def test_UA_ALT_1_the_second_fork_back_to_scene_1_costs_two_L2006():
    """UA-ALT-1, the digest's worked numbers (L2006): the fork after scene 2 costs 1; scene 4 follows the
    mirror scene 3, and its mirror crosses two forks back to scene 1 (scene 3's and its own): 2 coins."""
    g, hero, _ = harbor_scene()
    g.act(A.ForkScene(player="Cat"))
    g.event("Cat", "The tide turns.")
    g.act(A.EndScene(player="Cat"))
    g.bids({"Ann": 1})
    g.act(A.EstablishLocation(player="Ann", new_role="Forest"))
    g.event("Ann", "Wolves howl.")
    g.act(A.EndScene(player="Ann"))
    fork = next(o for o in legal_options(g.s, "Ben") if o.type == "fork_scene")
    assert fork.cost == "2"
    before = g.wealth("Ben")
    g.act(A.ForkScene(player="Ben"))
    assert g.wealth("Ben") == before - 2 and g.s.current_scene == 5
    assert [b.label for b in g.s.extra.alt_records] == ["A", "B"] and g.s.extra.alt_branch == "C"
    g.check()
    seen("UA-ALT-1")


def test_UA_ALT_2_the_first_scene_cannot_be_forked_nor_a_fork_made_after_the_bids_begin_L2004():
    """UA-ALT-2 (L2004 "Only the very first scene of the game, the starting point, cannot be forked"); a
    fork is made at the end of a scene, before any bid (engine reading); without the add-on it is refused;
    a fork costing more than its player holds is refused."""
    g = framed(P3, {"Ann": 1})
    g.act(A.EndScene(player="Ann"))
    g.refused(A.ForkScene(player="Ben"), "UA-ALT-1", "not in play")
    with pytest.raises(RuleViolation) as e:  # one number line: not with several active scenes (engine choice)
        new_game(P3, addons={**ALT, "open_scene_framing": True})
    assert e.value.rule == "UA-SETUP-8" and "Alternate Reality" in str(e.value)
    g, _, _ = harbor_scene()
    g.do(A.Bid(player="Ann", amount=0))
    g.refused(A.ForkScene(player="Cat"), "UA-ALT-1", "before the bids")
    seen("UA-ALT-2")


def test_UA_ALT_1_panel_state_text_and_heuristic_games_replay(tmp_path):
    """The app panel shows the branch in play and the others' records (escaped); the LLM's state text
    names the branch; heuristic seats play with forks allowed, coins conserved, the log replaying."""
    from agents.llm.state_text import describe_state
    from app.ui.addon_panels import panel_lines
    from engine.universalis.addons import Addons
    from engine_helpers import replayed_game
    g, _, _ = harbor_scene()
    g.act(A.ForkScene(player="Cat"))
    text = "\n".join(panel_lines(g.s, ["Ann"]))
    assert "branch **B** in play, kept by Cat" in text and "Branch A" in text and "Sailor" in text
    assert "this is branch B" in describe_state(g.s, "Ann")
    replayed_game(Addons(alternate_realities=True), 6, tmp_path / "g.jsonl")
    seen("UA-ALT-1")

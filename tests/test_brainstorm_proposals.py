"""Brainstorming: offline Tenet and frame proposals, the llm version with fallback, seeding a game."""
from __future__ import annotations

import json

import pytest
from fakeserver import FakeOpenAIServer, fake_openai, http_error, prose, valid  # noqa: F401

from agents.brainstorm import KINDS, Proposal, detect_genre, propose_frames, propose_tenets, seed_tenets
from agents.llm.config import LLMSettings
from agents.table import Seat, Table, heuristic_seats
from engine.core.dice import SeededDice
from engine.universalis import actions as A


@pytest.mark.parametrize("premise,genre", [
    ("a haunted lighthouse where the keeper hears a ghost", "horror"),
    ("smugglers fleeing a dying galactic empire", "space opera"),
    ("a detective in a city where it always rains, 1940s noir", "noir"),
    ("an outlaw and a sheriff on the frontier", "western"),
    ("a knight sworn to a cursed crown", "fantasy"),
])
def test_genre_from_premise_keywords(premise: str, genre: str) -> None:
    assert detect_genre(premise) == genre


def test_heuristic_tenets_are_specific_varied_and_of_every_kind() -> None:
    horror = propose_tenets("a haunted lighthouse on a storm-bound island", 6, seed=1)
    space = propose_tenets("smugglers fleeing a dying galactic empire", 6, seed=1)
    assert len(horror) == len(space) == 6
    assert {p.kind for p in horror} == set(KINDS)  # story elements, a social contract issue, a gimmick
    assert sum(p.kind == "story_element" for p in horror) >= 3
    assert not {p.text for p in horror} & {p.text for p in space}
    assert "lighthouse" in horror[0].text  # the premise itself is the first question
    for p in horror + space:
        assert len(p.text.split()) >= 4 and p.why and p.by  # sentences with a reason, not labels
    assert len({p.text for p in horror}) == 6
    other_seed = propose_tenets("a haunted lighthouse on a storm-bound island", 6, seed=2)
    assert [p.text for p in other_seed] != [p.text for p in horror]
    assert propose_tenets("a haunted lighthouse on a storm-bound island", 6, seed=1) == horror


def test_no_premise_names_a_genre_and_count_is_respected() -> None:
    props = propose_tenets("", 3)
    assert len(props) == 3 and props[0].kind == "story_element"
    assert len(propose_tenets("noir", 12)) == 12


def test_seed_tenets_pays_through_preparation_turns() -> None:
    """U-PREP-1..3: each kept Tenet is proposed on a preparation turn, one per turn, for 1 coin."""
    table = Table.new([Seat(n, None) for n in ("Ann", "Bo", "Cy")], dice=SeededDice(1))
    props = propose_tenets("noir", 4)
    ids = seed_tenets(table, props + ["The city has no name"])
    assert len(ids) == 5
    assert [t.text for t in table.state.tenets] == [p.text for p in props] + ["The city has no name"]
    assert [t.by for t in table.state.tenets] == ["Ann", "Bo", "Cy", "Ann", "Bo"]
    assert {t.kind for t in table.state.tenets} == {"story", "social", "gimmick"}
    assert [p.wealth for p in table.state.players] == [23, 23, 24]
    assert table.state.phase == "prep"  # the players go on from here
    seed_tenets(table, [], finish=True)
    assert table.state.phase == "bidding"


def test_seeded_game_plays_on_with_heuristic_seats() -> None:
    table = Table.new(heuristic_seats(["Ann", "Bo", "Cy"], seed=3), dice=SeededDice(3))
    seed_tenets(table, propose_tenets("fantasy", 3))
    table.run(stop=lambda t: t.state.scenes_ended >= 1, max_steps=3000)
    assert table.state.scenes_ended >= 1


def _state_with_story():
    table = Table.new(heuristic_seats(["Ann", "Bo", "Cy"], seed=5), dice=SeededDice(5), premise="noir")
    seed_tenets(table, propose_tenets("noir", 2))
    table.run(stop=lambda t: t.state.scenes_ended >= 1, max_steps=3000)
    return table.state


def test_frames_build_on_the_saved_game() -> None:
    state = _state_with_story()
    frames = propose_frames(state, 4)
    assert len(frames) == 4 and all(f.kind == "scene_frame" for f in frames)
    names = {c.label for c in state.components.values()}
    assert sum(any(n in f.text for n in names) for f in frames) >= 2  # the game's own characters
    tenets = {t.text for t in state.tenets}
    assert any(any(t in f.text for t in tenets) for f in frames)  # one serves a Tenet
    assert len({f.text for f in frames}) == 4
    assert all(set(f.data) >= {"cast", "time"} for f in frames)


def test_frames_for_an_empty_game() -> None:
    from engine.universalis import new_game

    frames = propose_frames(new_game(["A", "B"]), 3)
    assert len(frames) == 3 and len({f.text for f in frames}) == 3


# -- the llm version ---------------------------------------------------------------------------------
def _cfg(server: FakeOpenAIServer) -> LLMSettings:
    return LLMSettings(base_url=server.base_url, api_key="sk-x-1234567", model="fake-model", timeout_s=2.0,
                       max_refusals=1)


def test_llm_tenets_from_the_endpoint(fake_openai: FakeOpenAIServer) -> None:  # noqa: F811
    ideas = [{"kind": "story_element", "text": "The sea keeps every promise made over it", "why": "stakes"},
             {"kind": "social_contract", "text": "Drowning stays off screen", "why": "comfort"},
             {"kind": "rules_gimmick", "text": "Storm scenes start with an Obstacle", "why": "mood"}]
    fake_openai.script(valid({"proposals": ideas}))
    props = propose_tenets("a lighthouse", 3, ai="llm", settings=_cfg(fake_openai))
    assert [(p.kind, p.text, p.by) for p in props] == [(i["kind"], i["text"], "llm") for i in ideas]
    prompt = json.dumps(fake_openai.chat_requests[0]["messages"])
    assert "a lighthouse" in prompt and "specific and actionable" in prompt


def test_llm_tenets_fall_back_to_heuristic(fake_openai: FakeOpenAIServer) -> None:  # noqa: F811
    fake_openai.script(prose(), http_error(500))
    props = propose_tenets("a lighthouse haunted by a ghost", 4, ai="llm", settings=_cfg(fake_openai))
    assert props == propose_tenets("a lighthouse haunted by a ghost", 4)
    assert len(fake_openai.chat_requests) == 2


def test_llm_frames_from_the_endpoint(fake_openai: FakeOpenAIServer) -> None:  # noqa: F811
    state = _state_with_story()
    fake_openai.script(valid({"frames": [{"text": "The docks at dawn: a body in the water.", "location": "the docks",
                                          "why": "a mystery"}]}))
    frames = propose_frames(state, 2, ai="llm", settings=_cfg(fake_openai))
    assert frames[0].text == "The docks at dawn: a body in the water." and frames[0].by == "llm"
    assert len(frames) == 2  # topped up from the heuristic
    some_name = next(iter(state.components.values())).label
    assert some_name in json.dumps(fake_openai.chat_requests[0]["messages"])


def test_unknown_ai_is_an_error() -> None:
    with pytest.raises(ValueError):
        propose_tenets("x", ai="oracle")


def test_proposal_to_dict() -> None:
    p = Proposal("story_element", "Text", "me", "why")
    assert p.to_dict()["kind"] == "story_element"
    assert A.ProposeTenet(player="A", text=p.text, kind="story")

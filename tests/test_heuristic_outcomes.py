"""Who a Complication's outcome is about: the two sides the story set against each other, not bystanders.

Read from the table's own events, independently of how the heuristic computes it: the Targets and
the performer of the Event that started it (an Obstacle has no performer: the Obstacle itself is
the opposition), plus the components a side's own player drew on for that side's Pool. A component
a bystander drew on lent a die; it neither wins nor loses, and is not wounded for it.
"""
from __future__ import annotations

import pytest

from agents.simulation import simulate_game

FANTASY = "A fantasy of a drowned kingdom where a river witch and the exiled prince contest the crown"


def _fights(table):
    """Per Complication: (what the story set up, the events told while its bonus coins were spent).

    What it set up: "sides" {component: "C"|"T"} (the principals, then what a side's own player drew
    on for it); "bare" when it was raised by an Obstacle or against an Event with no receiver; "lent",
    every component drawn on for the Complication Pool, and "defended", the Targets and every
    component drawn on for theirs, whoever drew.
    """
    out, last_event, cur, told = [], None, None, None
    evs = table.events
    for i, e in enumerate(evs):
        if e.kind == "complication":
            sides = {x: "T" for x in e.data["targets"]}
            obstacle = any(x.kind == "obstacle" for x in evs[i + 1:i + 3])
            if last_event is not None and not obstacle:
                perf = last_event.data.get("performer")
                if perf and perf not in sides:
                    sides[perf] = "C"
            alone = last_event is not None and not last_event.data.get("receiver")
            cur = {"sides": sides, "originator": e.player, "bare": obstacle or alone, "lent": set(),
                   "defended": set(e.data["targets"])}
        elif e.kind == "draw" and cur is not None:
            pool, comp = e.data["pool"], e.data["component"]
            owner = cur["originator"] if pool == "C" else pool
            if e.player == owner and comp not in cur["sides"]:
                cur["sides"][comp] = "C" if pool == "C" else "T"
            if told is None:
                cur["lent" if pool == "C" else "defended"].add(comp)
        elif e.kind == "complication_result" and cur is not None:
            told = []
            cur["winner"] = e.data["winner"]
        elif e.kind == "complication_end" and cur is not None:
            out.append((cur, told or []))
            cur, told = None, None
        elif told is not None:
            told.append(e)
        if e.kind == "event":
            last_event = e
        elif e.kind == "dialog":
            last_event = None
    return out


@pytest.fixture(scope="module")
def games():
    return [simulate_game(seats=4, scenes=8, seed=seed, premise=FANTASY).table for seed in (103, 7)] + \
        [simulate_game(seats=4, scenes=8, seed=11).table]


def test_an_outcome_sets_the_winner_against_the_losing_side_never_a_bystander(games):
    checked = 0
    for table in games:
        for fight, told in _fights(table):
            sides = fight["sides"]
            for e in told:
                perf, recv = e.data.get("performer"), e.data.get("receiver")
                if e.kind == "event" and perf and recv:
                    checked += 1
                    assert perf in sides and recv in sides and sides[perf] != sides[recv], (e.text, sides)
                if e.kind == "event" and perf and not recv:
                    assert perf in sides, (e.text, sides)  # "X gets away, bruised but alive" is about X's side
                    assert "nothing stands in the way" not in e.text
    assert checked >= 5


def test_wounds_go_to_the_losing_side(games):
    wounds = {"Deep gash", "Cursed wound", "Broken arm", "Fevered", "Lost a memory", "Scarred"}
    checked = 0
    for table in games:
        for fight, told in _fights(table):
            loser = "T" if fight["winner"] == "C" else "C"
            for e in told:
                if e.kind == "trait" and e.text.split(": ", 1)[-1].removesuffix("  [1]") in wounds:
                    checked += 1
                    assert fight["sides"].get(e.data.get("component")) == loser, (e.text, fight)
    assert checked >= 2


def test_words_for_a_loser_that_came_away_empty_handed():
    import random

    from agents.narration import Words
    from engine.universalis.state import Component, GameState, Trait

    s = GameState.model_construct(tenets=[], facts=[], components={})
    witch = Component(id="c1", kind="character", created_by="Ann",
                      traits=[Trait(id="t1", kind="role", text="Hedge witch", by="Ann", seq=1)])
    words = Words(s, random.Random(0), FANTASY)
    lines = {words.outcome(None, witch, True, "") for _ in range(30)}
    assert "The hedge witch leaves empty-handed." in lines
    assert not any(" they " in x for x in lines), lines  # no "they" for every character, whoever it is
    assert not any("what was wanted" in x for x in lines)


def test_trouble_raised_against_a_lone_deed_names_no_opponent_in_the_outcome(games):
    """Rose listens at a door and trouble is raised against it: whoever lent the trouble dice is no
    opponent of hers ("Ivy Pell is outmatched by Rose Tilney" named a bystander)."""
    checked = 0
    for table in games + [simulate_game(seats=4, scenes=6, seed=4).table]:
        for fight, told in _fights(table):
            for e in told if fight["bare"] else ():
                if e.kind != "event":
                    continue
                checked += 1
                for x in (e.data.get("performer"), e.data.get("receiver")):
                    assert x not in fight["lent"] - fight["defended"], (e.text, fight)
    assert checked >= 10

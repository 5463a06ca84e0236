"""The premise's own people, places and conflict reach the story: the heuristic players' Tenets,
first scenes and goals, and the heuristic brainstorm. A premise that names nothing tells the
genre's stock story as before.
"""
from __future__ import annotations

import pytest

from agents.brainstorm import GENERIC, GENRES as BANKS, propose_frames, propose_tenets
from agents.narration import GENRES
from agents.premise import definite, goals_for, parse_premise, role_of, situation
from agents.simulation import simulate_game

WESTERN = "A western about a silver-mine town where the sheriff and the mine owner are at war"


# -- reading the premise ------------------------------------------------------------------------------
def test_the_western_premise_names_its_people_places_and_war():
    p = parse_premise(WESTERN)
    assert p.people == ("the sheriff", "the mine owner")
    assert p.places == ("a silver-mine town", "the silver mine")  # the mine the town is named for
    (war,) = p.conflicts
    assert war.clause == "the sheriff and the mine owner are at war"
    assert war.sides == ("the sheriff", "the mine owner") and war.fight
    assert goals_for(p, "the sheriff") == ["Wants to win the war against the mine owner"]
    assert goals_for(p, "the mine owner") == ["Wants to win the war against the sheriff"]


@pytest.mark.parametrize("premise, people, places", [
    ("noir in a drowned city", (), ("a drowned city",)),
    ("witches in a drowned city", ("witches",), ("a drowned city",)),
    ("a river witch and a ferryman who owes her a debt", ("a river witch", "a ferryman"), ()),
    ("A haunted lighthouse where the ghost of a drowned keeper waits", ("the ghost of a drowned keeper",),
     ("a haunted lighthouse",)),
    ("Two queens contest the crown of a river kingdom", ("two queens",), ("a river kingdom",)),
    ("Homesteaders and a railroad baron fight over a dusty ranch", ("homesteaders", "a railroad baron"),
     ("a dusty ranch",)),
    ("noir in New Orleans", (), ("New Orleans",)),
    ("A space opera at the edge of a dying Empire", (), ("a dying Empire",)),
])
def test_noun_phrases_split_at_determiners_prepositions_where_and(premise, people, places):
    p = parse_premise(premise)
    assert (p.people, p.places) == (people, places)


def test_the_conflict_gives_what_each_side_wants():
    queens = parse_premise("Two queens contest the crown")
    assert [role_of(x) for x in queens.people] == ["Queen"] and queens.counts["two queens"] == 2
    assert goals_for(queens, "two queens") == ["Wants the crown before the other queen can take it"]
    kingdom = parse_premise("Two queens contest the crown of a river kingdom")
    assert kingdom.conflicts[0].prize == "the crown of the river kingdom"
    # an unknown verb after a known head noun ends the phrase: "the sheriff hates", not a role
    feud = parse_premise("The sheriff hates the mine owner")
    assert feud.people == ("the sheriff", "the mine owner")
    assert goals_for(feud, "the mine owner") == ["Wants to get the better of the sheriff"]
    # a situation that is no fight gives no goal
    ghost = parse_premise("A haunted lighthouse where the ghost of a drowned keeper waits")
    assert ghost.conflicts and not ghost.conflicts[0].fight
    assert goals_for(ghost, "the ghost of a drowned keeper") == []


@pytest.mark.parametrize("premise", ["", "noir", "western", "The start of a friendship"])
def test_a_premise_that_names_nothing_is_empty(premise):
    p = parse_premise(premise)
    assert p.empty and situation(p, "western") == ""


def test_roles_labels_and_situations_read_as_english():
    assert role_of("the mine owner") == "Mine owner" and role_of("witches") == "Witch"
    assert role_of("a river witch") == "River witch"
    assert definite("a drowned city") == "the drowned city" and definite("New Orleans") == "New Orleans"
    assert situation(parse_premise(WESTERN), "western") == (
        "In the silver-mine town, the sheriff and the mine owner are at war, "
        "and out here a quarrel like that ends in gunsmoke")
    assert situation(parse_premise("noir in a drowned city"), "noir").startswith("In the drowned city, ")
    assert situation(parse_premise("a lighthouse on a storm-bound island"), "horror").startswith("In the lighthouse")
    assert situation(parse_premise("a storm-bound island"), "horror").startswith("On the storm-bound island")
    # the place is not said twice when the clause names it
    told = situation(parse_premise("Homesteaders and a railroad baron fight over a dusty ranch"), "western")
    assert told.startswith("Homesteaders and a railroad baron fight over a dusty ranch, and ")


# -- the heuristic players ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def western():
    return simulate_game(seats=4, scenes=14, seed=93, premise=WESTERN).table


def test_the_simulated_western_plays_its_premise(western):
    """The tester's game: the silver mine, the sheriff and the mine owner were nowhere in it."""
    s = western.state
    tenets = [t.text for t in s.tenets]
    assert tenets[0].startswith("In the silver-mine town, the sheriff and the mine owner are at war")
    roles = {t.text for c in s.components.values() for t in c.traits if t.kind == "role"}
    assert {"Sheriff", "Mine owner", "the silver-mine town", "the silver mine"} <= roles
    characters = [c for c in s.components.values() if c.kind == "character"]
    assert [c.traits[0].text for c in characters[:2]] == ["Sheriff", "Mine owner"]  # the first ones made
    first = s.scenes[0]
    assert s.components[first.location].label == "the silver-mine town"  # the first scene's place


def test_the_premise_s_war_is_what_its_people_want(western):
    s = western.state
    by_role = {c.traits[0].text: c for c in s.components.values()}
    assert "Wants to win the war against the mine owner" in {t.text for t in by_role["Sheriff"].traits}
    assert "Wants to win the war against the sheriff" in {t.text for t in by_role["Mine owner"].traits}
    told = " ".join(f.text for f in s.facts)
    assert "to win the war against the" in told  # the narration is moved by it too


def test_the_premise_tenet_is_not_restated_as_a_detail(western):
    facts = [f.text for f in western.state.facts]
    assert not [t for t in facts if ", too, in the silver-mine town" in t.lower()]


def test_a_noir_in_a_drowned_city_opens_there():
    s = simulate_game(seats=3, scenes=2, seed=7, premise="noir in a drowned city").table.state
    assert s.tenets[0].text == "In the drowned city, every favour is paid back with interest"
    assert s.components[s.scenes[0].location].label == "the drowned city"


@pytest.mark.parametrize("premise, genre", [("western", "western"), (GENRES["noir"]["genre"][0], "noir")])
def test_a_premise_that_names_nothing_tells_the_stock_story(premise, genre):
    """Nothing extractable (or a genre's own stock line, as a simulation without premise gets): the
    Tenets and the cast all come from the genre's lexicon, as before."""
    s = simulate_game(seats=4, scenes=3, seed=11, premise=premise).table.state
    lex = GENRES[genre]
    assert s.tenets and {t.text for t in s.tenets} <= set(lex["tenets"] + lex["genre"])
    roles = {t.text for c in s.components.values() for t in c.traits if t.kind == "role"}
    assert roles <= set(lex["roles"] + lex["places"])


# -- the brainstorm ---------------------------------------------------------------------------------------
def test_brainstorm_uses_the_premise_s_nouns():
    props = [p.text for p in propose_tenets(WESTERN, 6, seed=1)]
    assert props[0].startswith("Premise: ")
    assert props[1].startswith("In the silver-mine town, the sheriff and the mine owner are at war, ")
    later = " ".join(props[2:]).lower()
    assert any(x in later for x in ("the sheriff", "the mine owner", "the silver-mine town", "the silver mine"))
    drowned = [p.text for p in propose_tenets("noir in a drowned city", 6, seed=3)]
    assert sum("the drowned city" in t.lower() for t in drowned[1:]) >= 2


@pytest.mark.parametrize("premise", ["", "noir", "space smugglers"])
def test_brainstorm_of_a_premise_without_places_or_conflict_is_the_genre_s(premise):
    bank = {x for spec in BANKS.values() for k in ("story", "social", "gimmick") for x in spec[k]}
    bank |= {x for k in GENERIC for x in GENERIC[k]}
    texts = [p.text for p in propose_tenets(premise, 8, seed=2)]
    extra = [t for t in texts if t not in bank and not t.startswith(("Premise: ", "The genre is "))]
    # "space smugglers" names people and nothing else: one situation, no noun Tenet without a place or a pair
    assert extra == ([] if premise != "space smugglers" else
                     ["Everything in this story turns on space smugglers, and word of it has reached the Rim"])


def test_scene_frames_go_to_the_premise_s_places_first():
    from agents.table import Table, heuristic_seats
    from engine.core.dice import SeededDice

    table = Table.new(heuristic_seats(["Ann", "Bo"], seed=1), dice=SeededDice(1), premise="noir in a drowned city")
    frames = propose_frames(table, 3, seed=1)
    assert "the drowned city" in [f.data.get("new_location") for f in frames]


def test_a_brainstorm_tenet_the_table_dropped_is_not_proposed_again_by_the_players():
    """Kept Tenets from a brainstorm open the game; the players state the premise only as the first Tenet."""
    from agents.brainstorm import seed_tenets
    from agents.table import Table, heuristic_seats
    from engine.core.dice import SeededDice

    premise = "witches in a drowned city"
    props = propose_tenets(premise, 3, seed=1)
    table = Table.new(heuristic_seats(["Ann", "Bo", "Cy"], seed=1), dice=SeededDice(1), premise=premise)
    seed_tenets(table, [props[0], props[2]])
    table.run(stop=lambda t: t.state.phase != "prep", max_steps=500)
    texts = [t.text for t in table.state.tenets]
    assert texts[:2] == [props[0].text, props[2].text] and props[1].text not in texts


def test_brainstorm_verbs_agree_with_a_plural_premise_person():
    texts = [p.text for seed in range(6) for p in propose_tenets("witches in a drowned city", 8, seed=seed)]
    assert not [t for t in texts if t.startswith("Witches holds") or "witches knows" in t]


def test_the_conflict_says_who_is_against_whom():
    from agents.premise import opposed

    vault = parse_premise("A space opera aboard a generation ship where the captain and the mutineers fight over "
                          "the last seed vault")
    assert opposed(vault, "Captain", "Mutineer") and opposed(vault, "mutineer", "captain")
    assert not opposed(vault, "Mutineer", "Mutineer") and not opposed(vault, "Captain", "Rogue pilot")
    dragon = parse_premise("A fantasy where the queen and her knights fight the dragon over the crown")
    assert opposed(dragon, "Queen", "Dragon") and opposed(dragon, "Knight", "Dragon")
    assert not opposed(dragon, "Queen", "Knight")  # the sides fight the opponent, not each other
    assert opposed(parse_premise("Two queens fight over the crown"), "Queen", "Queen")

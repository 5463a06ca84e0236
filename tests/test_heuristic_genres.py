"""The heuristic narrator tells the premise's genre, not a default one (western and horror included)."""
from __future__ import annotations

import pytest

from agents.narration import DEFAULT_GENRE, GENRES, genre_of
from agents.simulation import simulate_game
from engine.universalis.rules import new_game
from engine.universalis.state import GameState, Tenet


def blank() -> GameState:
    return new_game(["Ann", "Bo"])


@pytest.mark.parametrize("genre", list(GENRES))
def test_each_genre_line_is_read_back_as_its_genre(genre):
    assert genre_of(blank(), GENRES[genre]["genre"][0]) == genre


@pytest.mark.parametrize("premise, genre", [
    ("Homesteaders and a railroad baron fight over a dusty ranch", "western"),
    ("A haunted lighthouse where the ghost of a drowned keeper waits", "horror"),
    ("A river kingdom ruled by a drowned queen's court", "fantasy"),  # needed the word "fantasy" before
    ("A heist in a rain-soaked city", "noir"),
])
def test_a_premise_without_the_genre_name_still_finds_it(premise, genre):
    assert genre_of(blank(), premise) == genre


def test_keywords_match_whole_words_not_inside_others():
    # "start" holds "star", "friendship" holds "ship": neither makes this a space opera by keyword,
    # and the Tenets decide when the premise says nothing.
    s = blank()
    s.tenets.append(Tenet(id="t1", kind="story", text="Every sheriff in the county is bought", by="Ann", seq=1))
    assert genre_of(s, "The start of a friendship") == "western"
    assert genre_of(blank(), "The start of a friendship") == DEFAULT_GENRE


def test_a_western_game_is_told_with_western_names_and_places():
    res = simulate_game(seats=3, scenes=2, seed=5, premise="A western about a railroad town")
    comps = [c.label for c in res.table.state.components.values()]
    western = set(GENRES["western"]["names"]) | set(GENRES["western"]["roles"]) | set(GENRES["western"]["places"])
    others = {n for g, lex in GENRES.items() if g != "western" for n in lex["names"] + lex["places"]}
    assert comps and any(c in western for c in comps)
    assert not any(c in others for c in comps)


def test_sentences_read_mid_sentence_and_take_the_place_s_preposition():
    from agents.narration import at, lower_first

    assert lower_first("A charming liar") == "a charming liar"
    assert lower_first("FTL drive") == "FTL drive"
    assert at("the stagecoach road") == "on" and at("the Silver Spur saloon") == "in"
    # one rule for the stock places and the premise's own (probe 11 read "in the fog-bound island"):
    # the head noun decides, so a river kingdom is "in", an island "on", the docks at night "at"
    assert at("the fog-bound island") == "on" and at("the smugglers' moon") == "on"
    assert at("the river kingdom") == "in" and at("the docks at night") == "at"
    assert at("the generation ship") == "on" and at("the Envoy's yacht") == "on"


def test_a_relationship_with_a_nameless_component_names_it_by_role_lowercased():
    import random

    from agents.narration import Words

    res = simulate_game(seats=3, scenes=1, seed=5, premise="A western about a railroad town")
    s = res.table.state
    comps = [c for c in s.components.values() if c.kind == "character"]
    nameless = next(c for c in comps if not any(t.kind == "name" for t in c.traits))
    other = next(c for c in comps if c is not nameless)
    text, _ = Words(s, random.Random(0)).relation(other, nameless)
    assert f"the {nameless.label.lower()}" in text and nameless.label not in text


def test_a_rematch_outcome_is_not_told_word_for_word_again():
    import random

    from agents.narration import Words

    res = simulate_game(seats=3, scenes=1, seed=5, premise="A western about a railroad town")
    s = res.table.state
    a, b = [c for c in s.components.values() if c.kind == "character"][:2]
    words = Words(s, random.Random(0))
    first = words.outcome(a, b, True, "")
    s.facts.append(s.facts[-1].model_copy(update={"id": "f-told", "text": first}))
    assert all(words.outcome(a, b, True, "") != first for _ in range(20))


def test_a_horror_game_restates_few_tenets_per_place_and_names_one_place_per_deed():
    """Probe 6's writer found six Tenets restated at each place and "digs in the churchyard in the lighthouse"."""
    import collections
    import re

    from agents.narration import TENET_DETAILS

    # seed 63 too: since no open-air deed is done indoors, seed 61's game restates no Tenet at all
    all_restated: collections.Counter[str] = collections.Counter()
    for seed in (61, 63):
        res = simulate_game(seats=4, scenes=8, seed=seed, premise="A horror story about a haunted manor")
        facts = [f.text for f in res.table.state.facts]
        assert any(name in " ".join(facts) for name in GENRES["horror"]["names"])
        restated = collections.Counter(m.group(1) for t in facts if (m := re.match(r"(?:In|On) (.+?), too, ", t)))
        assert not restated or max(restated.values()) <= TENET_DETAILS
        all_restated += restated
        # a verb that ends in a preposition ("confides in the doctor on the marsh road") names no place
        verbs = re.compile("|".join(re.escape(f" {v} ")
                                    for v in GENRES["horror"]["friendly"] + GENRES["horror"]["hostile"]))
        assert not [t for t in facts if re.search(r" (in|on) the [^,.]* (in|on) the ", verbs.sub(" ", t))]
    assert all_restated


def test_a_goal_is_told_as_an_infinitive_a_way_out_is_got_not_had():
    """Probe 8's noir read "still hoping to have out of the rackets"."""
    from agents.narration import goal_of
    from engine.universalis.state import Component, Trait

    def goal(text: str) -> str:
        return goal_of(Component(id="c1", kind="character", traits=[Trait(id="t1", text=text)]))

    assert goal("Wants out of the rackets") == "to get out of the rackets"
    assert goal("Wants the ledger back") == "to have the ledger back"
    assert goal("Wants to find the lost fleet") == "to find the lost fleet"
    assert goal("Loyal to the crown") == ""

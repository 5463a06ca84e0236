"""Linking a question's descriptions to components through their Traits (agents/memory/linking.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from agents.memory import FactIndex, FactRecord, search
from agents.memory.linking import link_components, link_places, phrases
from agents.memory.retrieval import DEFAULT_WEIGHTS, PHRASE_WEIGHTS, HybridWeights

NO_LINKING = HybridWeights(**{**DEFAULT_WEIGHTS.__dict__, "named": 0.0, "link_threshold": 2.0})
#: Linking embeds the question's phrases: an option since issue 26 (`[memory] link_phrases`), off by default.
PHRASES = PHRASE_WEIGHTS

GAME = "linking-game"


def test_phrases_skip_stopword_edges_and_keep_inner_ones() -> None:
    got = phrases("Who bandaged the smuggler captain?")
    assert "smuggler captain" in got and "bandaged the smuggler" in got and "bandaged" in got
    assert not any(p.lower().startswith(("who", "the")) or p.lower().endswith("the") for p in got)
    assert phrases("Who is it?") == []
    assert "ambassador's vessel" in phrases("Who tampered with the ambassador's vessel?")


def _embedder(table: dict[str, list[float]]):
    """Vectors from a table (unknown text: a vector orthogonal to all), so the logic is tested without a model."""
    dim = len(next(iter(table.values()))) + 1

    def embed(texts: list[str]) -> np.ndarray:
        out = []
        for t in texts:
            v = np.array(table.get(t.lower(), [0.0] * (dim - 1)) + [0.0 if t.lower() in table else 1.0])
            out.append(v / np.linalg.norm(v))
        return np.stack(out)

    return embed


def test_a_description_links_uniquely_and_a_shared_property_does_not() -> None:
    embed = _embedder({"smuggler captain": [1, 0, 0], "wounded": [0, 1, 0], "blaster wound": [0, 1, 0],
                       "rogue pilot": [0.2, 0, 1]})
    traits = [("t1", "hale"), ("t2", "hale"), ("t3", "sefa"), ("t4", "sefa")]
    vectors = embed(["smuggler captain", "blaster wound", "rogue pilot", "blaster wound"])
    links = link_components("Who bandaged the smuggler captain?", traits, vectors, embed, threshold=0.7)
    assert set(links) == {"hale"}
    assert links["hale"].unique and links["hale"].phrase == "smuggler captain" and links["hale"].trait_id == "t1"
    shared = link_components("Who is wounded?", traits, vectors, embed, threshold=0.7)
    assert set(shared) == {"hale", "sefa"} and not any(ln.unique for ln in shared.values())
    assert link_components("Who drank?", traits, vectors, embed, threshold=0.7) == {}


def _fact(fid: str, text: str, comp: str, name: str, kind: str = "event", seq: int = 1,
          mentions: tuple[str, ...] = ()) -> FactRecord:
    return FactRecord(fid, text, kind, GAME, 2, comp, name, "ana", seq, mentions=mentions or (comp,))


def test_a_question_about_a_role_finds_what_was_done_to_its_bearer(tmp_path: Path) -> None:
    """'the smuggler captain' is Hale Ditmar by his Trait; the Fact that answers only says his name."""
    ix = FactIndex(tmp_path, GAME)  # the default embedder
    facts = [
        _fact("hn", "Hale Ditmar", "c-h", "Hale Ditmar", "trait", 1),
        _fact("hr", "Smuggler captain", "c-h", "Hale Ditmar", "trait", 2),
        _fact("sn", "Sefa Lune", "c-s", "Sefa Lune", "trait", 3),
        _fact("sr", "Rogue pilot", "c-s", "Sefa Lune", "trait", 4),
        _fact("e1", "Sefa Lune patches up Hale Ditmar.", "c-s", "Sefa Lune", seq=5, mentions=("c-s", "c-h")),
        _fact("e2", "Hale Ditmar gets away, bruised but alive.", "c-h", "Hale Ditmar", seq=6),
        _fact("e3", "Sefa Lune threatens the dockmaster.", "c-s", "Sefa Lune", seq=7),
        _fact("e4", "The smugglers' moon smells of rust.", "c-m", "the smugglers' moon", seq=8),
    ]
    ix.add(facts)
    question = "Who bandaged the smuggler captain?"
    linked = {sf.record.id: sf for sf in search(ix, question, 8, weights=PHRASES)}
    unlinked = {sf.record.id: sf for sf in search(ix, question, 8, weights=NO_LINKING)}
    e1 = linked["e1"]
    assert e1.sources["named"] > e1.sources["dense"] + 0.2  # asked again as "Who bandaged Hale Ditmar?"
    assert e1.score > unlinked["e1"].score + 0.2
    ranked = list(linked)
    assert ranked.index("e1") < ranked.index("e3") and ranked.index("e1") < ranked.index("e4")
    # without linking (nor the name-blind wording, which "smuggler" in "the smugglers' moon" switches on
    # here), an unrelated Fact beat it
    bare = search(ix, question, 8, weights=HybridWeights(**{**NO_LINKING.__dict__, "blind": 0.0}))
    assert [sf.record.id for sf in bare].index("e4") < [sf.record.id for sf in bare].index("e1")


def test_a_question_about_a_place_recalls_what_happened_there(tmp_path: Path) -> None:
    """Events rarely repeat where they happened; the scene's location (`place`) says it for them."""
    ix = FactIndex(tmp_path, GAME)
    facts = [
        _fact("ln", "the Crooked Lantern tavern", "c-t", "the Crooked Lantern tavern", "trait", 1),
        _fact("mn", "the Meadow village", "c-m", "the Meadow village", "trait", 2),
        FactRecord("a", "Tamsin heals Brother Cal.", "event", GAME, 3, "c-ta", "Tamsin", "ana", 3,
                   place="the Crooked Lantern tavern"),
        FactRecord("b", "Tamsin heals the priest.", "event", GAME, 4, "c-ta", "Tamsin", "ana", 4,
                   place="the Meadow village"),
    ]
    ix.add(facts)
    by = {sf.record.id: sf for sf in search(ix, "Who was healed at the tavern?", 4)}
    assert by["a"].sources["place"] >= 0.6 and by["b"].sources["place"] == 0  # "tavern" names the place
    blind = {sf.record.id: sf for sf in search(ix, "Who was healed at the tavern?", 4,
                                               weights=HybridWeights(**{**DEFAULT_WEIGHTS.__dict__, "place": 0.0}))}
    gain = (by["a"].score - by["b"].score) - (blind["a"].score - blind["b"].score)
    assert gain > 0.5 * DEFAULT_WEIGHTS.place > 0


def test_a_wording_bought_again_for_the_same_component_is_listed_once(tmp_path: Path) -> None:
    ix = FactIndex(tmp_path, GAME)
    facts = [_fact(f"e{i}", "Brother Cal gets away, bruised but alive.", "c-b", "Brother Cal", seq=i) for i in range(3)]
    facts += [_fact("w1", "Wanted in three systems", "c-b", "Brother Cal", "trait", 5),
              _fact("w2", "Wanted in three systems", "c-j", "Jun", "trait", 6)]
    ix.add(facts)
    ids = [sf.record.id for sf in search(ix, "Who got away bruised? Who is wanted?", 10)]
    assert sum(i.startswith("e") for i in ids) == 1 and ids.count("w1") == 1 and "w2" in ids
    everything = search(ix, "Who got away bruised? Who is wanted?", 10,
                        weights=HybridWeights(**{**DEFAULT_WEIGHTS.__dict__, "distinct": False}))
    assert sum(sf.record.id.startswith("e") for sf in everything) == 3


@pytest.mark.parametrize("name, trait, deed, question, least", [
    ("Isolde Fenn", "Broken arm", "Isolde Fenn protects the thief.", "What wounds does Isolde Fenn carry?", 0.9),
    # 'Okafor' is only part of 'Jun Okafor' (no Link), yet the question is about him alone
    ("Jun Okafor", "Rebel courier", "Jun Okafor retreats to fight another day.",
     "What does Okafor do for the insurgents?", 0.5),
])
def test_a_question_naming_one_component_favours_its_traits_but_not_its_name(
        tmp_path: Path, name: str, trait: str, deed: str, question: str, least: float) -> None:
    ix = FactIndex(tmp_path, GAME)
    ix.add([_fact("n", name, "c-x", name, "trait", 1),
            _fact("w", trait, "c-x", name, "trait", 2),
            _fact("e", deed, "c-x", name, seq=3),
            _fact("o", trait, "c-o", "Orrin", "trait", 4)])
    by = {sf.record.id: sf.sources for sf in search(ix, question, 4)}
    assert by["w"]["bearer"] > least  # its Trait
    assert by["n"]["bearer"] == 0 and by["e"]["bearer"] == 0 and by["o"]["bearer"] == 0


def test_the_name_trait_is_not_an_answer_about_its_bearer(tmp_path: Path) -> None:
    ix = FactIndex(tmp_path, GAME)
    ix.add([_fact("n", "Brother Cal", "c-b", "Brother Cal", "trait", 1),
            _fact("r", "Mercenary captain", "c-b", "Brother Cal", "trait", 2),
            _fact("w", "Deep gash", "c-b", "Brother Cal", "trait", 3)])
    by = {sf.record.id: sf.sources for sf in search(ix, "What wounds has the mercenary captain?", 3, weights=PHRASES)}
    assert by["w"]["bearer"] > 0.9 and by["n"]["bearer"] == 0 and by["r"]["bearer"] == 0


def test_a_question_naming_two_components_favours_neither_ones_traits(tmp_path: Path) -> None:
    ix = FactIndex(tmp_path, GAME)
    ix.add([_fact("n", "Jun Okafor", "c-j", "Jun Okafor", "trait", 1),
            _fact("r", "Rebel courier", "c-j", "Jun Okafor", "trait", 2),
            _fact("s", "Sefa Lune", "c-s", "Sefa Lune", "trait", 3)])
    both = {sf.record.id: sf.sources for sf in search(ix, "What does Okafor think of Sefa Lune?", 3)}
    assert both["r"]["bearer"] == 0  # two components named: neither is *the* one asked about


def test_the_rest_of_a_question_is_also_compared_with_facts_whose_names_are_blanked(tmp_path: Path) -> None:
    """"Who nursed ___ back to health?" matches "someone heals someone" better than the named wording."""
    ix = FactIndex(tmp_path, GAME)
    ix.add([_fact("cn", "Brother Cal", "c-b", "Brother Cal", "trait", 1),
            _fact("tn", "Tamsin Hale", "c-t", "Tamsin Hale", "trait", 2),
            _fact("tav", "the Crooked Lantern tavern", "c-l", "the Crooked Lantern tavern", "trait", 3),
            _fact("heal", "Tamsin Hale heals Brother Cal in the Crooked Lantern tavern.", "c-t", "Tamsin Hale",
                  seq=4, mentions=("c-t", "c-b")),
            _fact("conf", "Brother Cal confesses to Tamsin Hale.", "c-b", "Brother Cal", seq=5,
                  mentions=("c-b", "c-t"))])
    from agents.memory.retrieval import _corpus

    assert _corpus(ix).name_blind("Tamsin Hale heals Brother Cal in the Crooked Lantern tavern.") == \
        "someone heals someone in someone ."
    question = "Who nursed Brother Cal back to health?"
    # with the rest embedded as a text of its own; pooled from the question's pass (the default since
    # issue 26, HybridWeights.pooled_rest) its vector keeps the name's context: the gain is -0.07 here
    embedded = HybridWeights(**{**DEFAULT_WEIGHTS.__dict__, "pooled_rest": False})
    blind = {sf.record.id: sf for sf in search(ix, question, 5, weights=embedded)}
    plain = {sf.record.id: sf for sf in search(ix, question, 5,
                                               weights=HybridWeights(**{**embedded.__dict__, "blind": 0.0}))}
    gain = blind["heal"].sources["rest"] - plain["heal"].sources["rest"]
    assert gain > 0.05
    assert gain > blind["conf"].sources["rest"] - plain["conf"].sources["rest"]
    assert list(blind)[0] == "heal"
    nameless = search(ix, "Who heals people?", 5)  # a question that says no name is compared as it was
    assert all(sf.sources["rest"] == sf.sources["dense"] for sf in nameless)


def test_a_place_described_in_other_words_is_linked_only_when_its_name_is_the_clear_nearest() -> None:
    """"the royal hall" is the queen's throne room; "ambassador" is the envoy, not the Envoy's yacht."""
    from agents.memory.embeddings import MiniLMEmbeddingFunction


    ef = MiniLMEmbeddingFunction()

    def embed(texts: list[str]):
        return np.asarray(ef(texts))

    names = {"p1": "the queen's throne room", "p2": "the Drowned Abbey", "p3": "the Whispering Forest",
             "p4": "the Envoy's yacht", "c1": "Imperial envoy", "c2": "Maud Ashby"}
    ids, vectors = list(names), embed(list(names.values()))
    places = {"p1", "p2", "p3", "p4"}
    assert set(link_places("Who was hurt in the royal hall?", ids, vectors, places, embed, 0.5)) == {"p1"}
    assert set(link_places("Who pledged fealty in the sunken monastery?", ids, vectors, places, embed, 0.5)) == {"p2"}
    assert link_places("What did the doctor tell the ambassador?", ids, vectors, places, embed, 0.5) == {}
    assert link_places("Who healed Maud Ashby?", ids, vectors, places, embed, 0.5) == {}
    assert link_places("Who was hurt in the royal hall?", ids, vectors, {"c1"}, embed, 0.5) == {}  # no place named


def test_a_question_describing_a_place_recalls_what_happened_there(tmp_path: Path) -> None:
    ix = FactIndex(tmp_path, GAME)
    ix.add([_fact("tn", "the queen's throne room", "c-q", "the queen's throne room", "trait", 1),
            _fact("an", "the Drowned Abbey", "c-a", "the Drowned Abbey", "trait", 2),
            FactRecord("x", "Maud Ashby buries something by the ford.", "event", GAME, 3, "c-m", "Maud Ashby", "ana",
                       3, place="the queen's throne room"),
            FactRecord("y", "Wenna buries something by the ford.", "event", GAME, 4, "c-w", "Wenna", "ana", 4,
                       place="the Drowned Abbey")])
    by = {sf.record.id: sf for sf in search(ix, "Who buried something in the royal audience chamber?", 4, weights=PHRASES)}
    assert by["x"].sources["place"] > 0.5 and by["y"].sources["place"] == 0
    assert by["x"].score > by["y"].score


def test_a_question_about_the_beginning_or_the_end_favours_the_first_or_last_scene(tmp_path: Path) -> None:
    def ev(fid: str, text: str, scene: int, place: str) -> FactRecord:
        return FactRecord(fid, text, "event", GAME, scene, "c-" + place.split()[1], place, "ana", scene, place=place)

    ix = FactIndex(tmp_path, GAME)
    ix.add([ev("a", "We open on the Crooked Lantern tavern.", 1, "the Crooked Lantern tavern"),
            ev("b", "The Meadow village: guarded by wolves.", 2, "the Meadow village"),
            ev("c", "Wenna is far from here tonight.", 2, "the Meadow village"),
            ev("d", "Back to the Meadow village.", 5, "the Meadow village"),
            ev("e", "Back to the Crooked Lantern tavern.", 9, "the Crooked Lantern tavern")])
    begin = {sf.record.id: sf.sources["order"] for sf in search(ix, "Where did the story begin?", 5)}
    assert begin["a"] == 1.0 and begin["e"] < 0.01
    end = {sf.record.id: sf.sources["order"] for sf in search(ix, "Where did the story end?", 5)}
    assert end["e"] == 1.0 and end["a"] < 0.01
    there = {sf.record.id: sf.sources["order"]
             for sf in search(ix, "Who was away the first time we went to the Meadow village?", 5)}
    assert there["c"] == 1.0 and there["d"] < 0.1  # the first scene at that place, not the first of all
    assert all(v == 0 for v in {sf.record.id: sf.sources["order"] for sf in search(ix, "Who is far away?", 5)}.values())


def test_where_the_story_opened_is_found_among_many_facts_that_share_its_words(tmp_path: Path) -> None:
    """The first scene's Facts compete even when no other channel finds them, and a "where" question
    favours a place's own Facts over deaths that say "story"."""
    ix = FactIndex(tmp_path, GAME)
    facts = [_fact("mill", "the old mill", "c-mill", "the old mill", "trait", 1),
             FactRecord("open", "We open on the old mill.", "detail", GAME, 1, "c-mill", "the old mill", "ana", 2,
                        place="the old mill")]
    for i in range(40):  # later scenes full of Facts that say "story"
        facts.append(FactRecord(f"d{i}", f"Rider {i} falls and is gone from the story.", "event", GAME, 2 + i % 9,
                                f"c-r{i}", f"Rider {i}", "ana", 3 + i, place="the crossroads"))
    ix.add(facts)
    for question in ("Where did the story begin?", "Where did the story open?"):
        top = [sf.record.id for sf in search(ix, question, 3)]
        assert "open" in top or "mill" in top, (question, top)
        by = {sf.record.id: sf for sf in search(ix, question, 60)}
        assert by["open"].sources["order"] == 1.0 and by["open"].sources["where"] == 1.0
        assert by["d0"].sources["where"] == 0.0
    # "open" as a verb is no question about the beginning
    assert all(sf.sources["order"] == 0 for sf in search(ix, "Who opened the old mill?", 5))


def test_a_question_about_two_components_favours_facts_about_both(tmp_path: Path) -> None:
    ix = FactIndex(tmp_path, GAME)
    ix.add([_fact("en", "Edric the Grey", "c-e", "Edric the Grey", "trait", 1),
            _fact("sn", "Steward of the keep", "c-s", "Steward of the keep", "trait", 2),
            _fact("both", "Edric the Grey shares bread with the steward of the keep.", "c-e", "Edric the Grey", seq=3,
                  mentions=("c-e", "c-s")),
            _fact("one", "Edric the Grey shares bread with the ferryman.", "c-e", "Edric the Grey", seq=4)])
    by = {sf.record.id: sf for sf in search(ix, "What passed between Edric the Grey and the steward of the keep?", 4)}
    assert by["both"].sources["pair"] == 1.0 and by["one"].sources["pair"] == 0
    single = search(ix, "What did Edric the Grey share?", 4)
    assert all(sf.sources["pair"] == 0 for sf in single)  # one component asked about: no pair


def test_by_default_no_phrase_is_linked_and_the_question_still_finds_its_bearer_by_name(tmp_path: Path) -> None:
    """Issue 26: phrases are off by default (a query embeds the question and its rest only): a description
    links nothing, while the same question with the name still finds the Trait."""
    ix = FactIndex(tmp_path, GAME)
    ix.add([_fact("n", "Brother Cal", "c-b", "Brother Cal", "trait", 1),
            _fact("r", "Mercenary captain", "c-b", "Brother Cal", "trait", 2),
            _fact("w", "Deep gash", "c-b", "Brother Cal", "trait", 3)])
    described = {sf.record.id: sf.sources for sf in search(ix, "What wounds has the mercenary captain?", 3)}
    assert all(s["about"] == 0 and s["bearer"] == 0 for s in described.values())
    named = {sf.record.id: sf.sources for sf in search(ix, "What wounds has Brother Cal?", 3)}
    assert named["w"]["bearer"] > 0.5 and named["n"]["bearer"] == 0

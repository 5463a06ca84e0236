"""What the heuristic players' characters do to each other and where: no deed told twice between the
same two in one scene, no kindness right after a fight, an allegiance sworn once and one way."""
from __future__ import annotations

from collections import Counter

import pytest

from agents.narration import GENRES, Words
from agents.simulation import simulate_game

FANTASY = "A fantasy of a drowned kingdom where a river witch and the exiled prince contest the crown"


@pytest.fixture(scope="module")
def games():
    return [simulate_game(seats=4, scenes=14, seed=103, premise=FANTASY).table.state,
            simulate_game(seats=4, scenes=10, seed=7, premise=FANTASY).table.state,
            simulate_game(seats=4, scenes=10, seed=11).table.state]


def _deeds(s):
    """(scene, performer, receiver, verb, hostile, fact) for every Event between two characters."""
    import random

    words = Words(s, random.Random(0))
    lex = GENRES[words.genre]
    out = []
    for f in s.facts:
        if f.kind != "event" or len(f.components) != 2 or f.origin == "outcome" or f.removed:
            continue
        a, b = (s.components[x] for x in f.components)
        for hostile, verbs in ((True, lex["hostile"]), (False, lex["friendly"])):
            for v in verbs:
                if f"{v} {words.who(b)}".lower() in f.text.lower():
                    out.append((f.scene, a.id, b.id, v, hostile, f))
    return out


def test_no_deed_told_twice_between_the_same_two_in_one_scene(games):
    for s in games:
        deeds = _deeds(s)
        assert len(deeds) >= 10
        same = Counter((sc, a, b, v) for sc, a, b, v, _h, _f in deeds)
        assert max(same.values()) == 1, [k for k, n in same.items() if n > 1]


def test_no_kindness_between_two_who_fought_earlier_in_the_scene(games):
    for s in games:
        fought: set[tuple[int, frozenset]] = set()
        for f in s.facts:
            if f.kind == "event" and len(f.components) == 2 and f.origin == "outcome":
                fought.add((f.scene, frozenset(f.components)))
            for sc, a, b, v, hostile, g in _deeds(s):
                if g is f:
                    if hostile:
                        fought.add((sc, frozenset((a, b))))
                    else:
                        assert (sc, frozenset((a, b))) not in fought, f.text


def test_an_allegiance_is_sworn_once_one_way_and_not_to_a_rival(games):
    for s in games:
        sworn = [(a, b) for _sc, a, b, v, _h, _f in _deeds(s) if v == "swears fealty to"]
        pairs = Counter(frozenset(p) for p in sworn)
        assert not pairs or max(pairs.values()) == 1, sworn
        import random

        from agents.narration import HOSTILE_TIES

        words = Words(s, random.Random(0))
        for _sc, a, b, v, _h, f in _deeds(s):
            if v == "swears fealty to":
                other = words.who(s.components[b]).lower()
                assert not [t.text for t in s.components[a].traits if t.seq < f.seq
                            and t.text.startswith(HOSTILE_TIES) and other in t.text.lower()], f.text


def test_a_deed_bound_to_a_kind_of_place_is_done_only_there(games):
    from agents.narration import at

    assert at("the ford at Greywater") == "at" and at("the Meadow village") == "in"
    checked = 0
    for s in games:
        where = {sc.number: s.components[sc.location].label.lower() for sc in s.scenes if sc.location}
        for f in s.facts:
            if f.kind == "event" and "buries something" in f.text:  # the deed, bound to a ford or cut short
                checked += 1
                at_ford = "ford" in where.get(f.scene, "")
                assert ("by the ford" in f.text) <= at_ford, (f.text, where.get(f.scene))
            assert "in the ford" not in f.text, f.text
    assert checked >= 1


def test_a_scene_buys_few_details_and_no_wording_is_said_of_two_places(games):
    from agents.narration import DETAILS_PER_SCENE

    for s in games:
        per_scene = Counter(f.scene for f in s.facts if f.kind == "detail")
        assert per_scene and max(per_scene.values()) <= DETAILS_PER_SCENE, per_scene
        tails = Counter(f.text.split(": ", 1)[-1].split(", too, ", 1)[-1].lower() for f in s.facts
                        if f.kind == "detail" and (": " in f.text or ", too, " in f.text))
        assert max(tails.values()) == 1, [t for t, n in tails.items() if n > 1]


def test_a_nameless_role_reads_lowercased_in_running_text():
    from agents.table import Table

    table = simulate_game(seats=4, scenes=4, seed=103, premise=FANTASY).table
    assert isinstance(table, Table)
    checked = 0
    for e in table.events:
        comp = table.state.components.get(e.data.get("component", ""))
        if comp is None or e.kind not in ("component", "take_over", "draw") or comp.kind == "location":
            continue
        named = any(t.kind == "name" for t in comp.traits)
        if not named:
            checked += 1
            running = e.text.split("“", 1)[0]  # the Trait quoted after it is the Trait's own words
            assert comp.label not in running and f"the {comp.label.lower()}" in running, e.text
    assert checked >= 5

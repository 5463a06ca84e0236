"""A heuristic story that holds together: Traits that fit the character and each other, deeds that fit
the doer (the drowned do not salt the threshold against themselves), deeds not repeated by one
character, place details that name what is there. Probe 11's horror game (seed 111) showed each."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from agents.narration import GENRES, Words
from agents.simulation import simulate_game
from engine.universalis.state import Component, Fact, GameState, Scene, Tenet, Trait

ISLAND = ("A horror story on a fog-bound island where the lighthouse keeper's drowned family comes back to the "
          "house")
HORROR = GENRES["horror"]


@pytest.fixture(scope="module")
def game():
    return simulate_game(seats=4, scenes=14, seed=111, premise=ISLAND).table


def _char(cid: str, role: str, *plain: str) -> Component:
    traits = [Trait(id=f"{cid}r", kind="role", text=role, by="Ann", seq=1)]
    traits += [Trait(id=f"{cid}t{i}", kind="plain", text=t, by="Ann", seq=2 + i) for i, t in enumerate(plain)]
    return Component(id=cid, kind="character", created_by="Ann", traits=traits)


def _state(*comps: Component, tenets: tuple[str, ...] = (), facts: list[Fact] | None = None,
           scenes: list[Scene] | None = None) -> GameState:
    return GameState.model_construct(
        tenets=[Tenet(id=f"n{i}", kind="story", text=t, by="Ann", seq=i) for i, t in enumerate(tenets)],
        facts=facts or [], components={c.id: c for c in comps}, scenes=scenes or [])


def _plain(c: Component) -> set[str]:
    return {t.text for t in c.live_traits() if t.kind == "plain"}


# -- 1. Traits ---------------------------------------------------------------------------------------
def test_a_skeptic_gets_no_seers_trait_and_a_seer_no_skeptics():
    doctor, medium = _char("c1", "Skeptical doctor"), _char("c2", "Medium")
    belief = {"Gifted with second sight", "Talks to the dead", "Wants to speak with her dead husband"}
    doubt = {"Stubbornly skeptical", "Wants to prove the haunting is a hoax"}
    for seed in range(60):
        s = _state(doctor, medium)
        assert Words(s, random.Random(seed), ISLAND).trait_for(doctor) not in belief
        assert Words(s, random.Random(seed), ISLAND).trait_for(medium) not in doubt
        assert Words(s, random.Random(seed), ISLAND).lesson(medium) != "No longer believes it is a hoax"


def test_a_change_of_heart_follows_the_trait_it_changes():
    skeptic, kind = _char("c1", "Innkeeper", "Stubbornly skeptical"), _char("c2", "Innkeeper", "Kind to strangers")
    s = _state(skeptic, kind)
    got = {Words(s, random.Random(seed), ISLAND).lesson(skeptic) for seed in range(80)}
    assert "No longer believes it is a hoax" in got
    got = {Words(s, random.Random(seed), ISLAND).lesson(kind) for seed in range(80)}
    assert "No longer believes it is a hoax" not in got
    turned = _char("c3", "Orphan", "No longer believes it is a hoax")
    s = _state(turned)
    assert all(Words(s, random.Random(seed), ISLAND).trait_for(turned, "traits") != "Stubbornly skeptical"
               for seed in range(60))


def test_the_living_get_no_haunts_limits_and_the_haunt_no_livings():
    doctor, family = _char("c1", "Skeptical doctor"), _char("c2", "Lighthouse keeper's drowned family")
    s = _state(doctor, family)
    living = {x for k in ("traits", "habits", "limits", "goals") for x in HORROR[k]}
    for seed in range(60):
        assert Words(s, random.Random(seed), ISLAND).trait_for(doctor, "limits") not in \
            {"Bound to the place it died", "Cannot cross the threshold of the church", "Bound to the manor"}
        t = Words(s, random.Random(seed), ISLAND).trait_for(family)
        assert t not in living - set(HORROR["haunt"]["habits"]), t


def test_no_trait_copied_word_for_word_from_another_character():
    a = _char("c1", "Innkeeper", "Grieving and reckless", "Kind to strangers", "Stubbornly skeptical")
    b = _char("c2", "Orphan")
    s = _state(a, b)
    for seed in range(60):
        assert Words(s, random.Random(seed), ISLAND).trait_for(b, "traits") not in _plain(a)


def test_a_trait_names_only_someone_met():
    mother, priest = _char("c1", "Grieving mother", "Knows the ghost's name", "Has seen what lives in the cellar"), \
        _char("c2", "Village priest")
    cellar = Component(id="c3", kind="location", created_by="Ann",
                       traits=[Trait(id="c3r", kind="role", text="the flooded cellar", by="Ann", seq=1)])
    apart = _state(mother, priest, cellar)
    assert all(Words(apart, random.Random(seed), ISLAND).lesson(mother) != "Owes the priest a life"
               for seed in range(60))
    together = _state(mother, priest, cellar, scenes=[Scene(number=1, framer="Ann", present=["c1", "c2"])])
    assert "Owes the priest a life" in {Words(together, random.Random(seed), ISLAND).lesson(mother)
                                        for seed in range(60)}


def test_the_island_game_traits_hold_together(game):
    s = game.state
    words = Words(s, random.Random(0), game.premise)
    stock = {x for k in ("traits", "habits", "limits", "goals") for x in HORROR[k]}
    stock |= {x for k in ("traits", "habits", "limits", "goals") for x in HORROR["haunt"][k]}
    owners = Counter(t.text for c in s.components.values() if c.kind == "character"
                     for t in c.live_traits() if t.text in stock and not t.text.startswith("Wants "))
    assert not [t for t, n in owners.items() if n > 1], owners
    for c in s.components.values():
        if c.kind != "character":
            continue
        # a tie names the other one's doubt or belief, not this one's ("Rival of the skeptical doctor")
        fam = [words._families(t.text) for t in c.live_traits() if t.text not in HORROR["turns"]
               and t.kind not in ("relationship", "corollary")]
        assert not ({"doubt", "belief"} <= set().union(*fam)), (c.label, _plain(c))
    # one Complication's outcome changes its hero once: never five Traits at a stroke
    run, last = 0, None
    for e in game.events:
        if e.kind in ("reaction", "end_turn", "bid_placed", "turn", "narration_turn"):
            continue
        key = (e.player, e.data.get("component")) if e.kind == "trait" else None
        run = run + 1 if key is not None and key == last else 1
        last = key
        assert key is None or run <= 3, e.text


# -- 2. deeds that fit the doer ------------------------------------------------------------------------
def test_a_haunt_does_its_own_deeds_and_the_living_theirs():
    family, keeper = _char("c1", "Lighthouse keeper's drowned family"), _char("c2", "Paranormal investigator")
    s = _state(family, keeper)
    warding = set(HORROR["deeds"]) | {"prays with", "salts"}
    for seed in range(40):
        text = Words(s, random.Random(seed), ISLAND).event(family, None, None)
        assert not any(d in text for d in warding), text
        text = Words(s, random.Random(seed), ISLAND).event(family, keeper, None)
        assert "prays with" not in text, text
        text = Words(s, random.Random(seed), ISLAND).event(keeper, None, None)
        assert not any(d in text for d in HORROR["haunt"]["deeds"]), text


def test_the_island_game_drowned_do_no_living_deeds(game):
    s = game.state
    words = Words(s, random.Random(0), game.premise)
    haunts = {c.id for c in s.components.values() if words.is_haunt(c)}
    assert haunts
    for f in s.facts:
        if f.kind == "event" and f.components[:1] and f.components[0] in haunts:
            assert not any(d in f.text for d in HORROR["deeds"] + ["prays with"]), f.text


# -- 3. deeds not repeated, and of the doer's role ---------------------------------------------------------
def test_one_character_does_not_repeat_a_deed_and_seven_deeds_do_not_do_all_the_work(game):
    s = game.state
    deeds = sorted({d for d in HORROR["deeds"] + HORROR["haunt"]["deeds"]
                    + [x for v in HORROR["deeds_by"].values() for x in v]}, key=len, reverse=True)
    done: Counter[tuple[str, str]] = Counter()
    used: Counter[str] = Counter()
    for f in s.facts:
        if f.kind == "event" and len(f.components) == 1 and f.origin is None and not f.removed:
            d = next((x for x in deeds if x in f.text), None)
            if d:
                done[(f.components[0], d)] += 1
                used[d] += 1
    assert sum(used.values()) >= 15
    assert not [k for k, n in done.items() if n > 1], done
    assert sum(n for _, n in used.most_common(7)) < 0.6 * sum(used.values()), used


def test_a_role_has_deeds_of_its_own():
    priest = _char("c1", "Village priest")
    s = _state(priest)
    got = {Words(s, random.Random(seed), ISLAND).event(priest, None, None) for seed in range(40)}
    assert any(d in t for t in got for d in HORROR["deeds_by"]["priest"]), got


# -- 4. details that name what is there ----------------------------------------------------------------
def _place(cid: str, label: str) -> Component:
    return Component(id=cid, kind="location", created_by="Ann",
                     traits=[Trait(id=f"{cid}r", kind="role", text=label, by="Ann", seq=1)])


def test_a_detail_restates_only_a_tenet_of_this_kind_of_place_and_no_open_air_indoors():
    house, island = _place("c1", "the house"), _place("c2", "the fog-bound island")
    tenets = ("On the fog-bound island, the dead come back", "Nobody can leave the village after sunset",
              "The dead remember everything", "The thing in the house can only touch you when you are alone")
    s = _state(house, island, tenets=tenets)
    at_house = {Words(s, random.Random(seed), ISLAND).detail(house) for seed in range(80)}
    at_island = {Words(s, random.Random(seed), ISLAND).detail(island) for seed in range(80)}
    assert not any("village" in (d or "") for d in at_house | at_island)
    assert not any("fog that never lifts" in (d or "") for d in at_house)
    assert any("fog that never lifts" in (d or "") for d in at_island)
    assert any("the dead remember" in (d or "") for d in at_house)
    assert not any("in the house can only" in (d or "") for d in at_island)


def test_no_stock_tenet_names_a_kind_of_place_the_story_has_not_got():
    island = _place("c1", "the fog-bound island")
    s = _state(island, tenets=("On the fog-bound island, the dead come back",))
    got = {Words(s, random.Random(seed), ISLAND).tenet() for seed in range(60)}
    assert got and not any("village" in (t or "") for t in got), got


def test_a_deed_of_the_open_air_is_not_done_in_a_room():
    """"Ivy Pell digs where the ground is soft" in the attic room: the digging is done out of doors."""
    digger = _char("c1", "Gravedigger")
    attic, yard = _place("c2", "the attic room"), _place("c3", "the churchyard")
    s = _state(digger, attic, yard)
    indoors = {Words(s, random.Random(seed), ISLAND).event(digger, None, attic) for seed in range(80)}
    outdoors = {Words(s, random.Random(seed), ISLAND).event(digger, None, yard) for seed in range(80)}
    assert not [t for t in indoors if "digs" in t or "by lantern light" in t], indoors
    assert [t for t in outdoors if "digs where the ground is soft" in t], outdoors
    for genre in GENRES.values():  # every deed tagged is one of the genre's deeds
        deeds = set(genre["deeds"]) | {d for ds in (genre.get("deeds_by") or {}).values() for d in ds}
        assert set(genre.get("open_air", [])) <= deeds


# -- 5. the premise's people, a group among them -----------------------------------------------------------
SEED_VAULT = ("A space opera aboard a generation ship where the captain and the mutineers fight over the last "
              "seed vault")


def test_a_group_named_beside_a_person_is_people_and_shows_up_early():
    """"the captain and the mutineers fight": the mutineers were read as a thing and never appeared."""
    from agents.premise import parse_premise, role_of

    parts = parse_premise(SEED_VAULT)
    assert "the mutineers" in parts.people
    assert parts.conflicts[0].sides == ("the captain", "the mutineers")
    assert role_of("the mutineers") == "Mutineer"
    assert role_of("two queens") == "Queen"
    assert parse_premise("A fantasy where the witch and her secrets in the tower wait").people == ("the witch",)
    table = simulate_game(seats=4, scenes=6, seed=5, premise=SEED_VAULT).table
    first = [c for c in table.state.components.values() if c.kind == "character"][:3]
    assert any(t.text == "Mutineer" for c in first for t in c.traits if t.kind == "role"), \
        [c.label for c in first]


CROWNS = "A dark fantasy where the widowed queen and the priestess hate the usurper king"


@pytest.mark.parametrize("role, gender", [("Queen", "f"), ("Rancher's widow", "f"), ("Grieving mother", "f"),
                                          ("Daughter of the king", "f"), ("King's daughter", "f"),
                                          ("Usurper king", "m"), ("Old king", "m"), ("Brother", "m"),
                                          ("Exiled knight", None), ("Village priest", None), ("Thief", None)])
def test_a_role_says_its_gender_by_its_head(role, gender):
    from agents.narration import role_gender

    assert role_gender(role) == gender


def test_every_name_of_the_genres_is_marked_once():
    from agents.narration import NAME_GENDER

    names = [n for lex in GENRES.values() for n in lex["names"]]
    for n in names:
        assert sum(n in marked for marked in NAME_GENDER.values()) == 1, n
    assert set().union(*NAME_GENDER.values()) == set(names)  # the table adds no name


def test_a_gendered_role_takes_a_name_of_its_gender_or_none():
    """'Isolde Fenn' was made the Old king and 'Edric the Grey' a queen: a name is drawn from those that fit."""
    from agents.narration import NAME_GENDER

    for seed in range(30):
        words = Words(_state(), random.Random(seed), premise=CROWNS)
        new = words.new_character()
        assert new is not None and new[0] == "Widowed queen"
        assert new[1] not in NAME_GENDER["m"], new
    king = _char("c1", "Usurper king")
    queen = _char("c2", "Widowed queen")
    priestess = _char("c3", "Priestess")
    for seed in range(30):
        words = Words(_state(queen, priestess), random.Random(seed), premise=CROWNS)
        new = words.new_character()
        assert new is not None and new[0] == "Usurper king" and new[1] not in NAME_GENDER["f"], new
    words = Words(_state(queen, priestess, king), random.Random(0), premise=CROWNS)
    assert words.new_character() is not None  # an ungendered stock role takes any name


def test_no_simulated_character_has_a_name_of_the_other_gender():
    from agents.narration import NAME_GENDER, role_gender

    checked = 0
    for seed in range(6):
        s = simulate_game(seats=4, scenes=4, seed=seed, premise=CROWNS).table.state
        for c in s.components.values():
            roles = [t.text for t in c.live_traits() if t.kind == "role"]
            names = [t.text for t in c.live_traits() if t.kind == "name"]
            gender = role_gender(roles[0]) if roles else None
            if gender and names:
                checked += 1
                assert names[0] not in NAME_GENDER["m" if gender == "f" else "f"], (seed, roles, names)
    assert checked


VAULT = ("A space opera aboard a generation ship where the captain and the mutineers fight over the last seed "
         "vault")


def test_the_two_sides_of_the_premise_s_conflict_do_no_kindness_to_each_other():
    """'The captain ... shields Jun Okafor' (the mutineer) opened seed 5: the premise's foes are a hostile tie."""
    captain, mutineer, pilot = _char("c1", "Captain"), _char("c2", "Mutineer"), _char("c3", "Rogue pilot")
    words = Words(_state(captain, mutineer, pilot), random.Random(0), premise=VAULT)
    assert words.hostile_tie(captain, mutineer) and words.hostile_tie(mutineer, captain)
    assert words.pair_verbs(captain, mutineer) == [] and words.pair_verbs(mutineer, captain) == []
    assert words.pair_verbs(captain, mutineer, hostile=True)
    assert words.pair_verbs(captain, pilot) and words.pair_verbs(pilot, mutineer)
    allies = Words(_state(_char("q", "Queen"), _char("k", "Knight"), _char("d", "Dragon")), random.Random(0),
                   premise="A fantasy where the queen and her knights fight the dragon over the crown")
    q, k, d = (allies.s.components[x] for x in "qkd")
    assert allies.pair_verbs(q, k) and not allies.pair_verbs(q, d) and not allies.pair_verbs(d, k)

    # seed 6: since issue 23 changed how the heuristic spends and frames, seed 5's captain and
    # mutineer never share an Event in six scenes, and this check needs a game where they meet
    s = simulate_game(seats=4, scenes=6, seed=6, premise=VAULT).table.state
    friendly = set(Words(s, random.Random(0), premise=VAULT).all_of("friendly"))

    def role(cid: str) -> str:
        return next((t.text for t in s.components[cid].live_traits() if t.kind == "role"), "")

    told = [f.text for f in s.facts if f.kind == "event" and len(f.components) == 2
            and {role(x) for x in f.components} == {"Captain", "Mutineer"}]
    assert told  # they do meet, as foes
    for text in told:
        assert not any(v in text for v in friendly), text

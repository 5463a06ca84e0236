"""Facts keep what the rules were doing when they were bought (state.Fact.origin), and memory uses it.

A question about who won or who died is answered by the Facts narrated with a roll's bonus coins
(U-COMP-10) or by the one that took a component out of the story (U-ELIM-1), whatever their words.
"""
from __future__ import annotations

from pathlib import Path

from engine.universalis import actions as A
from engine.universalis.decisions import pending
from engine.universalis.facts import all_facts

from agents.memory import FactIndex, FactRecord, search
from agents.memory.retrieval import DEFAULT_WEIGHTS, HybridWeights
from engine_helpers import P3, framed, rival_called

GAME = "origin-game"


def test_U_ELIM_1_the_fact_that_eliminates_is_marked_and_a_lesser_blow_is_not() -> None:
    g = framed(P3, {"Ann": 1})
    henchman = g.create("Ann", "Henchman")
    g.act(A.AddTrait(player="Ann", component=henchman, text="Tough"))
    g.act(A.ReduceImportance(player="Ann", component=henchman, coins=1, text="A kick to the knee."))
    g.act(A.ReduceImportance(player="Ann", component=henchman, coins=1, text="The henchman is gone for good."))
    origin = {f.text: f.origin for f in all_facts(g.s)}
    assert origin["A kick to the knee."] is None
    assert origin["The henchman is gone for good."] == "elimination"


def test_U_COMP_10_what_the_bonus_coins_narrate_is_an_outcome_and_play_after_is_not() -> None:
    g, hero = rival_called(4)
    g.roll(C=[1, 4, 9, 0], Ann=[6, 7, 5])
    winner = pending(g.s).players[0]
    g.do(A.NarrateEvent(player=winner, text="The rival is driven off.", receiver=hero))
    g.narrate_out()
    origin = {f.text: f.origin for f in all_facts(g.s)}
    assert origin["The rival is driven off."] == "outcome"
    assert origin["A rival challenges the hero."] is None


def test_U_COMP_10_a_trait_the_bonus_coins_buy_is_an_outcome_and_one_bought_in_play_is_not() -> None:
    """What a loser is left with (a wound bought with the winner's bonus coins) is marked like an outcome Event."""
    g, hero = rival_called(4)
    g.roll(C=[1, 4, 9, 0], Ann=[6, 7, 5])
    winner = pending(g.s).players[0]
    g.do(A.AddTrait(player=winner, component=hero, text="Deep gash"))
    g.narrate_out()
    origin = {f.text: f.origin for f in all_facts(g.s) if f.kind == "trait"}
    assert origin["Deep gash"] == "outcome"
    assert origin["Hero"] is None  # bought in play, before the conflict


def test_U_TRAIT_2_a_relationship_trait_is_about_both_components() -> None:
    """"Betrayed Jack once" is filed under Jill, yet a question about Jack must find it too."""
    g = framed(P3, {"Ann": 1})
    jack = g.create("Ann", "Jack")
    jill = g.create("Ann", "Jill")
    g.act(A.AddTrait(player="Ann", component=jill, text="Betrayed Jack once", kind="relationship", other=jack,
                     corollary="Betrayed by Jill"))
    g.act(A.AddTrait(player="Ann", component=jill, text="Limps"))
    mentions = {f.text: f.mentions for f in all_facts(g.s)}
    assert mentions["Betrayed Jack once"] == (jill, jack)
    assert mentions["Betrayed by Jill"] == (jack, jill)
    assert mentions["Limps"] == (jill,)


def _rec(fid: str, text: str, comp: str, origin: str | None, seq: int) -> FactRecord:
    return FactRecord(fid, text, "event", GAME, 3, comp, comp.title(), "ana", seq, mentions=(comp,), origin=origin)


def test_a_question_about_deaths_recalls_the_eliminations_whatever_their_words(tmp_path: Path) -> None:
    ix = FactIndex(tmp_path, GAME)
    ix.add([_rec("k", "The priest falls at the hands of Seren and is gone from the story.", "priest", "elimination", 1),
            _rec("w", "Seren gets the better of the priest.", "seren", "outcome", 2),
            _rec("p", "The priest prays at the broken altar.", "priest", None, 3),
            _rec("d", "Seren denounces the priest.", "seren", None, 4)])
    question = "Who killed the priest?"
    by = {sf.record.id: sf for sf in search(ix, question, 4)}
    assert by["k"].sources["origin"] == 1.0 and by["w"].sources["origin"] == 0.5 and by["p"].sources["origin"] == 0
    blind = {sf.record.id: sf for sf in search(ix, question, 4,
                                               weights=HybridWeights(**{**DEFAULT_WEIGHTS.__dict__, "origin": 0.0}))}
    assert by["k"].score - by["p"].score > blind["k"].score - blind["p"].score + 0.15
    assert search(ix, "Who prays at the altar?", 1)[0].sources["origin"] == 0  # no outcome asked: no boost


def test_a_question_about_wounds_recalls_the_traits_a_fight_left_whatever_their_words(tmp_path: Path) -> None:
    """"What injuries has Cal taken?" against "Deep gash": the Trait was bought as a roll's outcome."""
    def trait(fid: str, text: str, origin: str | None, seq: int) -> FactRecord:
        return FactRecord(fid, text, "trait", GAME, 3, "cal", "Cal", "ana", seq, mentions=("cal",), origin=origin)

    ix = FactIndex(tmp_path, GAME)
    ix.add([trait("g", "Deep gash", "outcome", 1), trait("m", "Mercenary captain", None, 2),
            trait("s", "Sworn to the abbey", None, 3), _rec("w", "Cal gets the better of Odo.", "cal", "outcome", 4)])
    by = {sf.record.id: sf for sf in search(ix, "What injuries has Cal taken?", 4)}
    assert by["g"].sources["origin"] == 1.0
    assert by["m"].sources["origin"] == 0 and by["w"].sources["origin"] == 0  # an outcome Event is not a wound
    assert search(ix, "What injuries has Cal taken?", 1)[0].record.id == "g"
    assert search(ix, "Who won when Cal fought Odo?", 4)[0].sources["origin"] == 1.0
    # "broken" and "burned" describe things as often as people: they ask about no wound
    assert all(sf.sources["origin"] == 0 for sf in search(ix, "Who prayed at the broken altar?", 4))
    # tending a wound asks for the healer: the wounds are not what is wanted
    assert all(sf.sources["origin"] == 0 for sf in search(ix, "Who tended Cal's injuries?", 4))
    # and keeping someone from harm asks for the protector (probe 10: "Who kept Lysa Thorne from harm?")
    assert all(sf.sources["origin"] == 0 for sf in search(ix, "Who kept Cal from harm?", 4))
    assert all(sf.sources["origin"] == 0 for sf in search(ix, "Who shielded Cal from injury?", 4))


def test_asked_who_dealt_a_wound_the_outcome_of_the_roll_that_left_it_comes_up(tmp_path: Path) -> None:
    """"Who broke Vane's arm?": "Broken arm" was bought with the same roll's coins as "Edric beats Vane"."""
    def rec(fid: str, text: str, kind: str, comp: str, scene: int, origin: str | None, mentions: tuple) -> FactRecord:
        return FactRecord(fid, text, kind, GAME, scene, comp, comp.title(), "ana", int(fid[1:]), mentions=mentions,
                          origin=origin)

    ix = FactIndex(tmp_path, GAME)
    ix.add([rec("t1", "Broken arm", "trait", "vane", 3, "outcome", ("vane",)),
            rec("f2", "Vane is outmatched by Edric this time.", "event", "edric", 3, "outcome", ("edric", "vane")),
            rec("f3", "Vane is outmatched by Odo this time.", "event", "odo", 5, "outcome", ("odo", "vane")),
            rec("f4", "Edric is outmatched by Odo this time.", "event", "odo", 3, "outcome", ("odo", "edric"))])
    by = {sf.record.id: sf.sources for sf in search(ix, "Who broke Vane's arm?", 4)}
    assert by["f2"]["cause"] > 0.45  # same scene, about the wounded
    assert by["f3"]["cause"] == 0 and by["f4"]["cause"] == 0  # another scene; not about the wounded
    assert by["t1"]["cause"] == 0
    ranked = [sf.record.id for sf in search(ix, "Who broke Vane's arm?", 4)]
    assert ranked.index("f2") < ranked.index("f3")


def test_an_index_written_with_an_older_record_layout_is_dropped_for_a_rebuild(tmp_path: Path) -> None:
    """Old indexes lack `place`, `mentions` and `origin`: opening one empties it so the log refills it."""
    from agents.memory.index import RECORD_SCHEMA

    ix = FactIndex(tmp_path, GAME)
    ix.add([_rec("k", "The priest is gone.", "priest", "elimination", 1)], fingerprint="1:k")
    coll = ix._collection
    coll.modify(metadata={**(coll.metadata or {}), "schema": RECORD_SCHEMA - 1})
    reopened = FactIndex(tmp_path, GAME)
    assert reopened.count() == 0 and reopened.fingerprint is None  # GameMemory rebuilds an empty index
    reopened.add([_rec("k", "The priest is gone.", "priest", "elimination", 1)], fingerprint="1:k")
    again = FactIndex(tmp_path, GAME)
    assert again.count() == 1 and again.all_records()[0].origin == "elimination"

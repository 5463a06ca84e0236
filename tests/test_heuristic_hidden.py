"""A Universalis AI seat decides from its seat's view (views.seat_state), never from the full state: another
player's secret Enigma Trait (UA-ENIGMA-1, L2182) and his cards in hand (Cards instead of Dice, UA-CDICE-1,
L2428) are hidden from the Observation, so the heuristic's decision cannot depend on them."""
from __future__ import annotations

from engine.universalis import actions as A
from engine.universalis import pending
from engine.universalis.facts import SECRET_TRAIT
from engine.universalis.views import UNSEEN_CARD

from engine_helpers import P3, fact_vote_open, framed, observed

ENIGMA = {"enigma_trait_cost": 2}


def secret_table(words: str):
    """A table of heuristic seats where Ann bought the secret Trait `words` for her Hero and ended her turn."""
    from agents.table import Table, heuristic_seats
    g = framed(P3, {"Ann": 1}, addons=ENIGMA)
    hero = g.create("Ann", "Hero")
    g.act(A.AddTrait(player="Ann", component=hero, text=words, enigma=True))
    g.end_turn("Ann")
    t = Table.new(heuristic_seats(P3, 0), addons=ENIGMA)
    for a in g.actions:
        t.submit(a)
    return t


def decision(t, seat: str):
    from agents.heuristic import HeuristicPlayer
    return HeuristicPlayer(seat, seed=3, seat_index=P3.index(seat)).decide(t.observe(seat))


def test_UA_ENIGMA_1_an_ai_seat_s_observation_hides_another_s_secret_trait_and_its_decision_ignores_it_L2182():
    """UA-ENIGMA-1 (L2182 "written down secretly"): Ben's Observation reads Ann's secret Trait as a secret
    (its buyer's reads the words); Ben's heuristic decides the same whatever Ann wrote."""
    t = secret_table("Wants the crown of the north")
    assert "Wants the crown" in t.log_text()
    ben = t.observe("Ben").state
    texts = [tr.text for c in ben.components.values() for tr in c.traits]
    assert "Wants the crown of the north" not in texts and SECRET_TRAIT in texts
    assert "Wants the crown of the north" in [tr.text for c in t.observe("Ann").state.components.values()
                                              for tr in c.traits]
    assert "Wants the crown of the north" in [tr.text for c in t.state.components.values() for tr in c.traits]
    who = pending(t.state).players[0]
    assert who != "Ann"
    other = secret_table("Secretly a coward who fears the dark")
    assert decision(t, who).action == decision(other, who).action
    observed("UA-ENIGMA-1", "effect")


def test_UA_CDICE_1_an_ai_seat_sees_how_many_cards_the_others_hold_not_their_faces_L2428():
    """UA-CDICE-1 (L2428): a heuristic seat at a card table sees its own hand's faces and only how many
    cards each other player holds or played face down; changing another's faces changes nothing it decides."""
    from agents.table import Table, heuristic_seats
    t = Table.new(heuristic_seats(P3, 5), addons={"currency": "cards_hand"})
    t.run(stop=lambda x: x.state.complication is not None and any(
        h.played for h in x.state.extra.hands.values()), max_steps=400)
    s = t.state
    assert s.extra.hands["Ann"].hand
    for seat in P3:
        view = t.observe(seat).state
        for n, h in s.extra.hands.items():
            seen = view.extra.hands[n]
            if n == seat:
                assert seen == h
            else:
                assert seen.hand == [UNSEEN_CARD] * len(h.hand) and seen.discards == h.discards
                assert {k: len(v) for k, v in seen.played.items()} == {k: len(v) for k, v in h.played.items()}
                assert all(c == UNSEEN_CARD for v in seen.played.values() for c in v)
    assert s.extra.hands["Ann"].hand != [UNSEEN_CARD] * len(s.extra.hands["Ann"].hand)  # the table's state is untouched
    who = next(p for p in pending(s).players if p in P3) if pending(s).kind != "roll" else "Ben"
    before = decision(t, who).action
    for n, h in s.extra.hands.items():  # every other hand turned to its lowest cards
        if n != who:
            h.hand = [1] * len(h.hand)
    assert decision(t, who).action == before
    observed("UA-CDICE-1", "effect")


def test_UA_CDICE_1_the_markdown_export_holds_no_hand_L2428():
    """UA-CDICE-1 (L2428): the transcript export a browser downloads at a card table tells how many cards each
    player drew, never which, and reads no hand: turning every hand's faces around changes nothing in it."""
    import re
    from agents.table import Table, heuristic_seats
    from app.ui import export
    t = Table.new(heuristic_seats(P3, 8), addons={"currency": "cards_hand"})
    t.run(max_steps=300)
    md = export.markdown(t, seats=["Ben"])
    drawn = [line for line in md.splitlines() if "Cards drawn" in line]
    assert drawn and all(re.fullmatch(r"- Cards drawn\\: \w+ \d+(, \w+ \d+)*\\.", line) for line in drawn), drawn
    for h in t.state.extra.hands.values():
        h.hand = [11 - c for c in h.hand]
    assert export.markdown(t, seats=["Ben"]) == md
    observed("UA-CDICE-1", "effect")


def test_UA_ENIGMA_1_an_ai_seat_s_pre_send_check_never_quotes_another_s_secret_trait_L2182():
    """UA-ENIGMA-1 (L2182): the pre-send check that tells an AI seat why its statement is not sent (issue 23)
    reads the seat's view: Ben's Event saying Ann's Hero is not loyal to the crown is not refused by quoting
    Ann's secret Trait "Loyal to the crown" (before, it was: "it contradicts the Fact “Loyal to the crown”")."""
    t = secret_table("Loyal to the crown")
    hero = next(c.id for c in t.state.components.values() if c.label == "Hero")
    event = A.NarrateEvent(player="Ben", text="The Hero is not loyal to the crown.", performer=hero)
    refusal = t._ai_check("Ben")(event)
    assert refusal is None or "Loyal to the crown" not in refusal
    assert t.check(event) is None  # the engine itself takes it
    observed("UA-ENIGMA-1", "effect")


def test_U_FACT_2_an_ai_seat_does_not_see_the_votes_cast_before_its_own_in_a_secret_vote():
    """U-FACT-2: a disputed Fact is settled by everyone's vote, cast in secret (the app says so): the state an AI
    seat decides from holds its own vote only until all are in; once they are, every vote is seen."""
    from engine.universalis.views import seat_state
    g = fact_vote_open()
    assert pending(g.s).kind == "fact_vote" and g.s.challenge.votes == {"Ann": False}
    assert seat_state(g.s, "Ben").challenge.votes == {} and seat_state(g.s, "Ann").challenge.votes == {"Ann": False}
    assert g.s.challenge.votes == {"Ann": False}  # the table's state is untouched
    for p in ("Ben", "Cat"):
        g.do(A.FactVote(player=p, applies=True))
    assert pending(g.s).kind != "fact_vote" and seat_state(g.s, "Ben").challenge.votes == g.s.challenge.votes
    observed("U-FACT-2", "effect")

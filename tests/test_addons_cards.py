"""Cards as Coins (L2040-2052) and Cards instead of Dice (L2428-2440): the pieces both played modules share
(the decks, the card source's deal, the face-card Gimmick). The rules in play are tested through `apply` in
test_addons_cards_play.py and test_addons_cards_hand.py."""
from __future__ import annotations

import pytest

from engine.core.errors import RuleViolation
from engine.universalis.addon_cards import card_face, draw, face_card_payer, success_chance, suit_deck
from engine.universalis.addon_complications import JACK, KING, QUEEN, read_face

from engine_helpers import observed


def seen(*rules: str) -> None:
    """Record for the add-on coverage test that this passing test saw these rules take effect or refuse."""
    for rule in rules:
        observed(rule, "effect")


def test_UA_CARDS_4_face_card_gimmick_who_pays_L2052():
    """UA-CARDS-4 (L2052, the book's example Gimmick): a Jack makes the player to the right pay, a
    Queen the player to the left, a King the player across; other cards, the spender."""
    seats = ["Ann", "Ben", "Cat", "Dan"]
    assert face_card_payer(JACK, "Ann", seats) == "Dan"
    assert face_card_payer(QUEEN, "Ann", seats) == "Ben"
    assert face_card_payer(KING, "Ann", seats) == "Cat"
    assert face_card_payer(7, "Ann", seats) == "Ann"
    seen('UA-CARDS-4')


def test_UA_CARDS_5_a_card_face_outside_ace_to_king_is_refused():
    """UA-CARDS-5: a card read into a Pool is Ace (1) to King (13)."""
    assert read_face(13, "cards") == 13
    with pytest.raises(RuleViolation) as e:
        read_face(14, "cards")
    assert e.value.rule == "UA-CARDS-5" and "cards add-on" in str(e.value)
    seen('UA-CARDS-5')


def test_UA_CDICE_1_quirk_face_cards_give_five_in_thirteen_L2432():
    """Quirk #1 (L2432, the digest's worked number): with face cards 5/13 < 40%; without, 5/10."""
    assert success_chance(True) == pytest.approx(5 / 13) and success_chance(True) < 0.40
    assert success_chance(False) == 0.5
    seen('UA-CDICE-1')



def test_UA_CARDS_5_a_deck_holds_four_of_each_and_the_deal_takes_without_replacement_L2046():
    """UA-CARDS-5 (L2046 "a deck of cards from which the face cards have been removed"): 40 cards, Ace to
    10, four of each; the card source's deal never gives a card twice and reshuffles only when told; a 0
    typed for a card is the 10, as on a d10."""
    deck = suit_deck()
    assert len(deck) == 40 and max(deck) == 10 and deck.count(7) == 4
    got = draw(deck, 40, lambda k: 1)
    assert sorted(got) == suit_deck() and deck == []
    assert draw(deck, 3, lambda k: k, lambda: [1, 2, 3, 4]) == [4, 3, 2] and deck == [1]
    assert card_face(0) == 10 and card_face(3) == 3
    seen('UA-CARDS-5')

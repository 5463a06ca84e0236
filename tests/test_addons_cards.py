"""Cards as Coins (L2040-2052) and Cards instead of Dice (L2428-2440): UA-CARDS, UA-CDICE."""
from __future__ import annotations

import random

import pytest

from engine.core.errors import RuleViolation
from engine.universalis.addon_cards import (
    CardBank, CardHand, WealthStack, face_card_payer, success_chance, suit_deck, trait_deck_draw,
)
from engine.universalis.addon_complications import JACK, KING, QUEEN, read_face

from engine_helpers import observed


def seen(*rules: str) -> None:
    """Record for the add-on coverage test that this passing test saw these rules take effect or refuse."""
    for rule in rules:
        observed(rule, "effect")


def rev(cards: list[int]) -> list[int]:
    """A fixed 'shuffle' for tests: the discards turned over."""
    return list(reversed(cards))


def seeded(seed: int):
    rng = random.Random(seed)

    def shuffle(cards: list[int]) -> list[int]:
        out = list(cards)
        rng.shuffle(out)
        return out
    return shuffle


def test_UA_CARDS_1_gaining_coins_draws_face_down_and_an_empty_bank_reshuffles_L2046():
    """UA-CARDS-1 (L2046-2048): 25 starting coins = 25 cards drawn from a 40-card deck without face
    cards; spending discards; when the Bank runs out the discards become a new Bank."""
    deck = suit_deck()
    assert len(deck) == 40 and max(deck) == 10
    b = CardBank(bank=list(deck))
    b.gain(25, rev)
    assert b.coins == 25 and len(b.bank) == 15
    b.spend(10)
    b.gain(20, rev)  # 15 from the Bank, then the 10 discards reshuffled, 5 of them drawn
    assert b.coins == 35 and len(b.bank) == 5 and b.discards == []
    assert sorted(b.wealth + b.bank) == sorted(deck)  # no card made or lost
    seen('UA-CARDS-1')


def test_UA_CARDS_2_spending_discards_the_top_wealth_card_L2048():
    """UA-CARDS-2 (L2048 "spend the top card from your Wealth by discarding it next to the Bank"); more
    than the pile holds is refused, naming the add-on."""
    b = CardBank(bank=[1, 2, 3, 4])
    b.gain(3, rev)
    assert b.spend(1) == [2] and b.discards == [2]
    with pytest.raises(RuleViolation) as e:
        b.spend(3)
    assert e.value.rule == "UA-CARDS-2" and "Cards as Coins" in str(e.value)
    seen('UA-CARDS-2')


def test_UA_CARDS_3_bought_dice_from_wealth_trait_dice_from_the_bank_L2050():
    """UA-CARDS-3 (L2050): bought dice come off the Wealth pile, Trait dice off the Bank; kept bonus
    coins: the Pool is discarded, then that many cards are drawn from the Bank."""
    b = CardBank(bank=[9, 8, 7, 6, 5, 4, 3, 2, 1])
    b.gain(4, rev)  # wealth 1,2,3,4 (top 4)
    pool = b.buy_dice(2) + b.trait_dice(1, rev)
    assert pool == [4, 3, 5] and b.coins == 2
    b.keep_bonus(pool, 3, rev)
    assert b.coins == 5 and b.discards == [4, 3, 5]
    with pytest.raises(RuleViolation) as e:
        b.buy_dice(9)
    assert e.value.rule == "UA-CARDS-3"
    seen('UA-CARDS-3')


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


def test_UA_CDICE_1_own_deck_draws_and_reshuffles_only_when_exhausted_L2428():
    """UA-CDICE-1 (L2428 "draw your starting Wealth in Cards into your hand... When you refresh draw new
    cards from your own deck... Cards are reshuffled only when that deck is exhausted")."""
    h = CardHand(deck=suit_deck())
    h.draw(25, seeded(1))
    assert h.coins == 25 and len(h.deck) == 15
    for card in list(h.hand)[:20]:
        h.play(card)
    h.draw(5, seeded(1))  # a Refresh: the deck still holds 15, nothing reshuffled
    assert len(h.deck) == 10 and len(h.discards) == 20
    h.draw(15, seeded(1))
    assert len(h.discards) == 0 and h.coins == 25
    seen('UA-CDICE-1')


def test_UA_CDICE_2_play_a_card_of_your_choice_L2428():
    """UA-CDICE-2: spending plays a chosen card; a bought die is a chosen card, face down; a card not
    in the hand is refused, naming the add-on."""
    h = CardHand(deck=[], hand=[1, 7, 9])
    assert h.buy_die(1) == 1 and h.play(9) == 9
    assert h.hand == [7] and h.discards == [9]
    with pytest.raises(RuleViolation) as e:
        h.play(1)
    assert e.value.rule == "UA-CDICE-2" and "Cards instead of Dice" in str(e.value)
    seen('UA-CDICE-2')


def test_UA_CDICE_3_trait_draws_take_the_top_of_the_trait_deck():
    """UA-CDICE-3 (L2428 "When drawing upon existing Traits draw the top card from the Trait Deck")."""
    deck, discards = [4, 8, 2], []
    assert trait_deck_draw(deck, discards, rev) == 2
    discards += [2, 8, 4]
    deck.clear()
    assert trait_deck_draw(deck, discards, rev) == 2 and deck == [4, 8] and discards == []
    with pytest.raises(RuleViolation):
        trait_deck_draw([], [], rev)
    seen('UA-CDICE-3')


def test_UA_CDICE_4_mazza_wealth_stack_spends_top_earns_bottom_L2440():
    """UA-CDICE-4 (L2440): spending takes the top card; new cards go on the bottom; kept bonus cards
    are shuffled in."""
    w = WealthStack(stack=[3, 9])
    w.earn([5])
    assert w.spend() == 3 and w.stack == [9, 5]
    w.keep_bonus([1, 2], rev)
    assert sorted(w.stack) == [1, 2, 5, 9]
    w.stack = []
    with pytest.raises(RuleViolation):
        w.spend()
    seen('UA-CDICE-4')


def test_UA_CDICE_1_quirk_face_cards_give_five_in_thirteen_L2432():
    """Quirk #1 (L2432, the digest's worked number): with face cards 5/13 < 40%; without, 5/10."""
    assert success_chance(True) == pytest.approx(5 / 13) and success_chance(True) < 0.40
    assert success_chance(False) == 0.5
    seen('UA-CDICE-1')

"""Cards in place of Coins and dice (Universalis add-ons, seed L2040-2052 and L2428-2440).

Pure and deterministic: a deck is a list of card faces (Ace = 1 ... King = 13) and every
shuffle is handed in already shuffled (the table's card source, like its dice source), so the
log can record it and a replay needs no randomness. One model per add-on:
- `CardBank` (Cards as Coins, UA-CARDS-*): the player's deck without face cards is the Bank;
  Wealth is a face-down pile; spending discards the top Wealth card.
- `CardHand` (Cards instead of Dice, UA-CDICE-*): the player's deck is his coins; starting
  Wealth is drawn into hand; spending plays a chosen card; bought dice are chosen cards.
- `WealthStack` (Mazza's variant, UA-CDICE-4): Wealth a face-down stack, spent from the top,
  earned onto the bottom.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

from engine.universalis.addon_complications import FACE_CARDS, JACK, KING, QUEEN, refuse

Shuffle = Callable[[list[int]], list[int]]

ADDON_COINS = "Cards as Coins"
ADDON_DICE = "Cards instead of Dice"


def suit_deck(face_cards: bool = False) -> list[int]:
    """One deck's faces, four suits: Ace-10 (and J, Q, K when the face-card gimmick keeps them)."""
    top = 13 if face_cards else 10
    return [v for v in range(1, top + 1) for _ in range(4)]


def card_name(card: int) -> str:
    return {1: "Ace", JACK: "Jack", QUEEN: "Queen", KING: "King"}.get(card, str(card))


@dataclass
class CardBank:
    """Cards as Coins (§2.5a): one player's Bank deck, his Wealth pile and the discards beside the Bank."""

    bank: list[int]
    wealth: list[int] = field(default_factory=list)  # face down; the top card is wealth[-1]
    discards: list[int] = field(default_factory=list)

    @property
    def coins(self) -> int:
        return len(self.wealth)

    def gain(self, n: int, shuffle: Shuffle) -> None:
        """UA-CARDS-1: gaining a Coin draws a card face down onto Wealth; an empty Bank reshuffles
        the discards into a new Bank (L2046-2048)."""
        for _ in range(n):
            if not self.bank:
                if not self.discards:
                    raise refuse("UA-CARDS-1", ADDON_COINS, "the Bank and its discards are both empty: no card to draw")
                self.bank, self.discards = shuffle(list(self.discards)), []
            self.wealth.append(self.bank.pop())

    def spend(self, n: int) -> list[int]:
        """UA-CARDS-2: spending discards the top Wealth card beside the Bank (L2048)."""
        if n > len(self.wealth):
            raise refuse("UA-CARDS-2", ADDON_COINS, f"the Wealth pile holds {len(self.wealth)} cards; {n} are needed")
        out = [self.wealth.pop() for _ in range(n)]
        self.discards.extend(out)
        return out

    def buy_dice(self, n: int) -> list[int]:
        """UA-CARDS-3: dice bought for a Pool come from Wealth, face down (L2050)."""
        if n > len(self.wealth):
            raise refuse("UA-CARDS-3", ADDON_COINS, f"the Wealth pile holds {len(self.wealth)} cards; {n} dice cost {n}")
        return [self.wealth.pop() for _ in range(n)]

    def trait_dice(self, n: int, shuffle: Shuffle) -> list[int]:
        """UA-CARDS-3: dice from Traits come from the Bank, face down (L2050)."""
        out: list[int] = []
        for _ in range(n):
            if not self.bank:
                self.bank, self.discards = shuffle(list(self.discards)), []
                if not self.bank:
                    raise refuse("UA-CARDS-3", ADDON_COINS, "the Bank is empty: no card for a Trait's die")
            out.append(self.bank.pop())
        return out

    def keep_bonus(self, pool: Sequence[int], kept: int, shuffle: Shuffle) -> None:
        """UA-CARDS-3: after a Complication the Pool's cards are discarded, then the kept bonus
        coins are drawn from the Bank (L2050)."""
        self.discards.extend(pool)
        self.gain(kept, shuffle)


def face_card_payer(card: int, spender: str, seats: Sequence[str]) -> str:
    """UA-CARDS-4 (the book's example Gimmick, L2052): a revealed Jack makes the player to the
    right pay the Coin, a Queen the player to the left, a King the player across. Seats run
    clockwise; "left" is the next seat (core digest). "Across" is half the table round; with an
    odd count the seat just past half (engine choice)."""
    i, n = list(seats).index(spender), len(seats)
    if card == JACK:
        return seats[(i - 1) % n]
    if card == QUEEN:
        return seats[(i + 1) % n]
    if card == KING:
        return seats[(i + (n + 1) // 2) % n] if n > 1 else spender
    return spender


@dataclass
class CardHand:
    """Cards instead of Dice (§2.5b): own deck, hand (the player's coins), own discard pile."""

    deck: list[int]
    hand: list[int] = field(default_factory=list)
    discards: list[int] = field(default_factory=list)

    @property
    def coins(self) -> int:
        return len(self.hand)

    def draw(self, n: int, shuffle: Shuffle) -> None:
        """UA-CDICE-1: starting Wealth and Refresh (and, by the digest's reading, kept bonus coins)
        are drawn from one's own deck; a deck is reshuffled only when it runs out (L2428)."""
        for _ in range(n):
            if not self.deck:
                if not self.discards:
                    raise refuse("UA-CDICE-1", ADDON_DICE, "the deck and its discards are empty: no card to draw")
                self.deck, self.discards = shuffle(list(self.discards)), []
            self.hand.append(self.deck.pop())

    def play(self, card: int) -> int:
        """UA-CDICE-2: spending a Coin plays a card of one's choice face up to one's discard pile."""
        if card not in self.hand:
            raise refuse("UA-CDICE-2", ADDON_DICE, f"there is no {card_name(card)} in the hand")
        self.hand.remove(card)
        self.discards.append(card)
        return card

    def buy_die(self, card: int) -> int:
        """UA-CDICE-2: a bought die is a card chosen from the hand, face down until resolution."""
        if card not in self.hand:
            raise refuse("UA-CDICE-2", ADDON_DICE, f"there is no {card_name(card)} in the hand to play as a die")
        self.hand.remove(card)
        return card


def trait_deck_draw(trait_deck: list[int], trait_discards: list[int], shuffle: Shuffle) -> int:
    """UA-CDICE-3: each Trait drawn on is the top card of the shared Trait Deck, reshuffled only
    when it runs out (L2428). Mutates the two lists given."""
    if not trait_deck:
        if not trait_discards:
            raise refuse("UA-CDICE-3", ADDON_DICE, "the Trait Deck and its discards are empty")
        trait_deck.extend(shuffle(list(trait_discards)))
        trait_discards.clear()
    return trait_deck.pop()


@dataclass
class WealthStack:
    """Mazza's variant (UA-CDICE-4, L2440): Wealth is a face-down stack; spending takes the top
    card, new cards go on the bottom, kept bonus cards are shuffled in."""

    stack: list[int] = field(default_factory=list)  # stack[0] is the top

    def spend(self) -> int:
        if not self.stack:
            raise refuse("UA-CDICE-4", ADDON_DICE, "the Wealth stack is empty")
        return self.stack.pop(0)

    def earn(self, cards: Sequence[int]) -> None:
        self.stack.extend(cards)

    def keep_bonus(self, cards: Sequence[int], shuffle: Shuffle) -> None:
        self.stack = shuffle(self.stack + list(cards))


def success_chance(face_cards: bool) -> float:
    """Quirk #1 (L2432): 5 successes in 13 faces with face cards, 5 in 10 without."""
    deck = suit_deck(face_cards)
    return sum(1 for c in deck if c <= 5 and c not in FACE_CARDS) / len(deck)

"""Cards in place of Coins and dice (Universalis add-ons, seed L2040-2052 and L2428-2440): what the two
played modules share.

Pure and deterministic: a deck is a list of card faces (Ace = 1 ... 10, and Jack = 11, Queen = 12,
King = 13 when face cards are kept) and every draw takes a chance pick handed in from outside (the
table's card source, like its dice source), so the log records the faces and a replay needs no
randomness. The rules are played in addon_cards_play.py (Cards as Coins, UA-CARDS-*, and Mazza's
Wealth stack, UA-CDICE-4) and addon_cards_hand.py (Cards instead of Dice, UA-CDICE-1..3).
"""
from __future__ import annotations

from typing import Callable, Sequence

from engine.universalis.addon_complications import FACE_CARDS, JACK, KING, QUEEN

Pick = Callable[[int], int]  # a chance draw of 1..k (the table's dice source)

ADDON_COINS = "Cards as Coins"
ADDON_DICE = "Cards instead of Dice"


def suit_deck(face_cards: bool = False) -> list[int]:
    """One deck's faces, four suits: Ace-10 (and J, Q, K when the face-card gimmick keeps them)."""
    top = 13 if face_cards else 10
    return [v for v in range(1, top + 1) for _ in range(4)]


def card_face(f: int) -> int:
    """A card typed or dealt as a d10 face: 0 is the 10 (a table types a 10 as on a d10)."""
    return 10 if f == 0 else f


def card_name(card: int) -> str:
    """How a card is shown: Ace to 10 by number (Ace = 1), then J, Q, K."""
    return {JACK: "J", QUEEN: "Q", KING: "K"}.get(card, str(card))


def card_value(card: int) -> int:
    """UA-CDICE-5: what a card adds where its value counts (a failed Edge card, U-COMP-9): its number, and
    10 for a Jack, Queen or King (engine reading: as high as a d10 shows, L2050; the book gives face
    cards no number)."""
    return min(card, 10)


def draw(deck: list[int], n: int, pick: Pick, refill: Callable[[], list[int]] | None = None) -> list[int]:
    """n cards dealt without replacement from `deck` (mutated), each chosen by `pick(len(deck))`; when
    the deck runs out, `refill()` gives a fresh one (the deck reshuffled)."""
    out: list[int] = []
    for _ in range(n):
        if not deck and refill is not None:
            deck.extend(refill())
        out.append(deck.pop(pick(len(deck)) - 1))
    return out


def face_card_payer(card: int, spender: str, seats: Sequence[str], gimmick: dict[str, str] | None = None) -> str:
    """UA-CARDS-4 (the book's example Gimmick, L2052): a revealed Jack makes the player to the
    right pay the Coin, a Queen the player to the left, a King the player across (a table's
    `gimmick` may say otherwise: {"J": "left", ...}). Seats run clockwise; "left" is the next seat
    (core digest). "Across" is half the table round; with an odd count the seat just past half
    (engine choice)."""
    from engine.universalis.addons import FACE_SPEND
    if card not in FACE_CARDS:
        return spender
    where = {**FACE_SPEND, **(gimmick or {})}[card_name(card)]
    i, n = list(seats).index(spender), len(seats)
    if where == "right":
        return seats[(i - 1) % n]
    if where == "left":
        return seats[(i + 1) % n]
    return seats[(i + (n + 1) // 2) % n] if n > 1 else spender


def success_chance(face_cards: bool) -> float:
    """Quirk #1 (L2432): 5 successes in 13 faces with face cards, 5 in 10 without."""
    deck = suit_deck(face_cards)
    return sum(1 for c in deck if c <= 5 and c not in FACE_CARDS) / len(deck)

"""Player Characters and their add-ons (Universalis book, seed L2094-2166).

Player Character (UA-PC-*), PC Endowment Pool (UA-ENDOW-*), PC Plot Protection (UA-PROT-*),
PC Descriptive Paragraph (UA-PARA-*) and PC Story Drivers (UA-DRIVER-*). Pure: the checks take
what they need and raise a RuleViolation naming the add-on; the engine hooks call them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from engine.universalis.addon_complications import refuse

PC = "Player Character"
ENDOW = "PC Endowment Pool"
PROT = "PC Plot Protection"
PARA = "PC Descriptive Paragraph"
DRIVER = "PC Story Drivers"

PC_COST = 5  # L2098
ENDOWMENT = 25  # L2114
Protection = Literal["off", "double", "owner_only"]


def pc_trait(player: str) -> str:
    """The Trait the 5 Coins add: "<Player Name>'s Character" (L2098)."""
    return f"{player}'s Character"


@dataclass
class PcRecord:
    """One player's PC: the character, its Endowment (never refreshed) and its Story Driver."""

    player: str
    component: str
    endowment: int = 0
    driver: str = ""
    driver_sessions: int = 1  # sessions played with this Driver, the current one included
    driver_resolved: bool = False
    scenes_paid: list[int] = field(default_factory=list)  # scenes whose Driver coin was drawn


def adopt_check(pcs: dict[str, PcRecord], player: str, component: str, kind: str, wealth: int,
                cost: int = PC_COST, per_player: int = 1, owner_of: dict[str, str] | None = None) -> None:
    """UA-PC-1: once per player per game, 5 Coins permanently Take Over one character (L2098);
    UA-PC-2: a character already another's PC can't be taken (no Take Overs of a PC, L2100)."""
    if kind != "character":
        raise refuse("UA-PC-1", PC, "only a character can become a Player Character")
    mine = [r for r in pcs.values() if r.player == player]
    if len(mine) >= per_player:
        raise refuse("UA-PC-1", PC, f"{player} already has a Player Character; the book allows one per player per game")
    holder = (owner_of or {}).get(component)
    if holder is not None:
        raise refuse("UA-PC-2", PC, f"that character is already {holder}'s Player Character and cannot be Taken Over")
    if wealth < cost:
        raise refuse("UA-PC-1", PC, f"{player} holds {wealth} coins; a Player Character costs {cost}")


def alteration_check(owner: str, actor: str, label: str, with_bonus_from_pc_complication: bool) -> None:
    """UA-PC-3 (L2100-2102): only the owner alters his PC (Traits, Introduction...), except with
    Coins won in a Complication in which the PC took part."""
    if actor != owner and not with_bonus_from_pc_complication:
        raise refuse("UA-PC-3", PC, f"{label} is {owner}'s Player Character: only {owner} may change it, "
                                    "or someone spending Coins won in a Complication it took part in")


def take_over_check(owner: str, actor: str, label: str) -> None:
    """UA-PC-2 (L2100): the PC can only be Controlled by its owner; no Take Overs."""
    if actor != owner:
        raise refuse("UA-PC-2", PC, f"{label} is {owner}'s Player Character: nobody else may Take it Over")


def endowment_spend_check(rec: PcRecord, amount: int, on_pc_trait: bool, pc_in_complication: bool) -> None:
    """UA-ENDOW-1 (L2114): Endowment Coins buy only the PC's Traits or dice in Complications in
    which the PC is involved, and they are never refreshed."""
    if not (on_pc_trait or pc_in_complication):
        raise refuse("UA-ENDOW-1", ENDOW, "Endowment Coins buy only the PC's Traits, or dice in a Complication "
                                          "the PC is involved in")
    if amount > rec.endowment:
        raise refuse("UA-ENDOW-1", ENDOW, f"the Endowment holds {rec.endowment} coins; {amount} are needed")


def reduce_cost(levels: int, protection: Protection, protected: bool) -> int:
    """UA-PROT-1 (L2124): with Plot Protection, each level of Importance reduced on a PC costs 2."""
    return levels * (2 if protected and protection in ("double", "owner_only") else 1)


def reduce_check(protection: Protection, owner: str, actor: str, label: str) -> None:
    """UA-PROT-2 (L2132 option): only the owner may reduce a PC's Importance (reading: removing
    Traits stays open to others, within the Player Character limits)."""
    if protection == "owner_only" and actor != owner:
        raise refuse("UA-PROT-2", PROT, f"only {owner} may reduce the Importance of {label}, {owner}'s Player Character")


def elimination_cost(importance: int, traits_removed_first: int, protected: bool = True) -> int:
    """Derived (§4): with Plot Protection, eliminating Importance I after removing k Traits (1 Coin
    each, Importance −1 each) costs k + 2·(I − k) (UA-PROT-1)."""
    k = min(traits_removed_first, importance)
    return k + (2 if protected else 1) * (importance - k)


WORD = re.compile(r"[A-Za-z0-9'’-]+")


def paragraph_note(text: str, words: tuple[int, int] | None = (100, 200)) -> str | None:
    """UA-PARA-1 (L2138): a guideline, never a refusal: a note when the paragraph is outside the
    table's word range, else None."""
    if words is None:
        return None
    n = len(WORD.findall(text))
    lo, hi = words
    if n < lo:
        return f"the paragraph has {n} words; the book suggests {lo} to {hi}"
    if n > hi:
        return f"the paragraph has {n} words; the book suggests keeping it to {lo}-{hi}"
    return None


def paragraph_affordable(trait_count: int, rec: PcRecord) -> int:
    """UA-PARA-2 (L2140): Traits drawn from the paragraph are paid from the Endowment, as many as
    it can pay; returns how many of them it pays for."""
    return min(trait_count, rec.endowment)


def driver_scene_coin(rec: PcRecord, scene: int) -> int:
    """UA-DRIVER-1 (L2162): each scene that touches the Driver adds 1 Coin from the Bank to the
    Endowment, once per scene."""
    if not rec.driver:
        raise refuse("UA-DRIVER-1", DRIVER, "this Player Character has no Story Driver")
    if scene in rec.scenes_paid:
        raise refuse("UA-DRIVER-1", DRIVER, f"the Driver's coin for scene {scene} was already drawn")
    rec.scenes_paid.append(scene)
    rec.endowment += 1
    return 1


def driver_resolved(rec: PcRecord) -> int:
    """UA-DRIVER-2 (L2164): resolving the Driver adds as many Coins as sessions played with it."""
    if not rec.driver or rec.driver_resolved:
        raise refuse("UA-DRIVER-2", DRIVER, "there is no unresolved Story Driver to resolve")
    rec.driver_resolved = True
    paid = rec.driver_sessions
    rec.endowment += paid
    return paid

"""Weapons and armour (option; F-20, F-21): the dice they add and the soak they spend.

With the option off, weapons and armour are ordinary gear: the GM rules +-1D for them (F-4).
"""
from __future__ import annotations

from engine.fubar.state import SHIELD_BENEFIT, Armour

WEAPONS = {"sidearm": 2, "shortsword": 3, "battle arm": 4, "hand-and-a-half sword": 5, "heavy arm": 6}


def weapon_die(pc_rating: int, opp_rating: int, exchange: str, cramped: bool = False,
               sprays: bool = False) -> int:
    """+1 to the higher-rated weapon when weapons are compared: close combat or a mutual ranged
    exchange; cramped conditions reverse the ratings (F-20, L254). Against a party taking cover or
    fleeing ("one_sided"), a ranged weapon gives no die unless it sprays an area (@31617)."""
    if exchange == "one_sided":
        return 1 if sprays and pc_rating > 0 else 0
    a, b = (-pc_rating, -opp_rating) if cramped else (pc_rating, opp_rating)
    return (a > b) - (a < b)


def armour_rating(armour: Armour, melee: bool) -> int:
    """The rating compared for the superior-armour die; a shield adds its benefit against melee and
    low-velocity missiles, for that comparison only (F-21, F-AMB-9)."""
    r = armour.rating()
    if armour.shield and not armour.shield_used and melee:
        r += SHIELD_BENEFIT[armour.kind]
    return r


def armour_die(pc_armour: int, opp_weapon: int, opp_armour: int, pc_weapon: int) -> int:
    """The Superior Armour Bonus: armour rated above the weapon it faces gives +1 die to its wearer;
    both sides qualifying cancel (F-21, L282)."""
    pc = 1 if pc_armour > opp_weapon else 0
    opp = 1 if opp_armour > pc_weapon else 0
    return pc - opp


def soak(armour: Armour, points: int) -> bool:
    """Spend `points` of soak (1 normally, 2 against an armour-piercing Yes-and) instead of a Resolve
    loss; at 0 the armour is rated 0 until repaired. A shield soaks 1 and is destroyed (F-21)."""
    if points == 1 and armour.shield and not armour.shield_used and armour.soak_left == 0:
        armour.shield_used = True
        return True
    if armour.soak_left < points:
        return False
    armour.soak_left -= points
    if armour.soak_left == 0:
        armour.broken = True
    return True

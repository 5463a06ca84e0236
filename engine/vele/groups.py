"""Groups and spotlights (V-60, V-61, V-AMB-13, V-AMB-18; L716-737, L927-935), pure.

Why: the act setup's steps 4 and 7 (groups, spotlight cards) are arithmetic and turn-taking a table
can get wrong (how many group dice, who holds which spotlight card); the book's newer rules win.
Spotlight cards: the digest's rule 61 follows the older text (L935, players take each other's cards in
turns, `deal_spotlights`); the newer Additional Rules put a made card "in the middle of the table"
(L737), and play follows that (option spotlight_cards="middle"). The turn-taking deal stays for logs
written before Vele rules version 2 and for a table that picks it.
"""
from __future__ import annotations

from typing import Mapping, Sequence

from engine.core.errors import RuleViolation
from engine.vele.economy import POINTS

GROUP_SETS = 5  # L720: "Each group gets allocated 5 dice sets"
SET = (4, 6, 8, 10)  # a set of dice (L901's 4d4, 4d6... are four sets of four; a set is one of each size)
GROUP_POINTS = GROUP_SETS * sum(POINTS[d] for d in SET)  # 50
GROUP_ASPECTS = {"main": 4, "normal": 3, "minion": 0}  # L725, V-AMB-3


def group_spend(left: int, use: str, trait_sizes: Sequence[int] = ()) -> int:
    """V-60 (L721): group dice stay with the group and pay only for member traits, not power or healing.
    Returns the group points left."""
    if use != "trait":
        raise RuleViolation("V-60", f"group dice pay only for group member traits, not for {use}")
    cost = sum(POINTS[d] for d in trait_sizes)
    if cost > left:
        raise RuleViolation("V-60", f"the group has {left} dice points left; these traits cost {cost}")
    return left - cost


def check_member_aspects(kind: str, aspects: int) -> None:
    """V-60, V-AMB-3 (L725): up to 4 aspects on a main member, 3 on a normal one, none on a minion."""
    cap = GROUP_ASPECTS[kind]
    if aspects > cap:
        raise RuleViolation("V-60", f"a {kind} group member has up to {cap} aspects")


def connection_dice(others: int, traits: int, aspects: int) -> list[int]:
    """V-AMB-18 (L726-727): once for each other player you may add a trait and an aspect connected to
    your PC, and get a d4 story die "for each": one d4 per connected trait and one per aspect."""
    if traits > others or aspects > others:
        raise RuleViolation("V-60", f"one connected trait and one aspect for each other player ({others})")
    return [4] * (traits + aspects)


def hand_out(members: Sequence[str], leader: str, owner: str, others: Sequence[str], pcs_present: bool) -> dict[str, str]:
    """V-60 (L732-733): in a scene without PCs the owner keeps the leader and hands the other members out
    to the other players (in their order, round by round); after the scene the group goes back."""
    if pcs_present:
        return {m: owner for m in members}
    if leader not in members:
        raise RuleViolation("V-60", "the group's leader is one of its members")
    out = {leader: owner}
    rest = [m for m in members if m != leader]
    for i, m in enumerate(rest):
        out[m] = others[i % len(others)] if others else owner
    return out


def spotlight_cards(players: Sequence[str], pc_made: Mapping[str, int], want_pc: Sequence[str],
                    cap: int = 2) -> list[tuple[str, str]]:
    """V-61, V-AMB-13 (L927, L728, L735): at act setup each player makes a card for their group, and one
    for their PC unless the PC already had `cap` spotlights this story. Cards are (maker, 'group'|'pc')."""
    cards = []
    for p in players:
        cards.append((p, "group"))
        if p in want_pc and pc_made.get(p, 0) < cap:
            cards.append((p, "pc"))
    return cards


def deal_spotlights(cards: Sequence[tuple[str, str]], order: Sequence[str]) -> dict[str, list[tuple[str, str]]]:
    """V-61 (L935): the players take turns taking cards made by other players until none are left. Each
    takes from the maker with the most cards left (so no one is left holding only their own), the nearest
    maker after them in the order on a tie (so one card each goes round like a wheel)."""
    left = list(cards)
    held: dict[str, list[tuple[str, str]]] = {p: [] for p in order}
    while left:
        took = False
        for p in order:
            mine = [c for c in left if c[0] != p]
            if not mine:
                continue
            count = {m: sum(1 for c in left if c[0] == m) for m, _ in mine}
            me = order.index(p)
            pick = max(mine, key=lambda c: (count[c[0]], -((order.index(c[0]) - me) % len(order))))
            left.remove(pick)
            held[p].append(pick)
            took = True
            if not left:
                break
        if not took:
            raise RuleViolation("V-61", "the cards left are their makers' own: no one else can take them")
    return held


def spotlight_xp(player: str, narrator: str, achieved: bool) -> dict[str, int]:
    """V-48, V-61 (L566, L736): a spotlight achieved gives 5 XP to its player and 3 to the narrator
    (people do not usually narrate their own: then only the player's 5)."""
    if not achieved:
        return {}
    return {player: 5} if player == narrator else {player: 5, narrator: 3}

"""The table's conventions that the engine can still check (V-4, V-5, V-7, V-62), pure.

Why: the book leaves these to the table's votes (L163-169, L267), but each has a countable core: how
many revisions a claim needs, who may talk out of character, when "The Thing You Need" invites a
challenge, and whether mechanics may touch a non-player Vele.
"""
from __future__ import annotations

from typing import Mapping, Sequence

from engine.core.errors import RuleViolation
from engine.vele.economy import challenge_succeeds


def justify(opposed_per_revision: Sequence[int], voters: int) -> int | None:
    """V-4 (L267): when a majority challenges your fiction "you have to change your story until enough of
    them buy it that there is no longer a majority opposed". Returns the index of the first revision no
    majority opposes (a tie is no majority, V-1), or None if every one offered was refused."""
    for i, opposed in enumerate(opposed_per_revision):
        if not challenge_succeeds(opposed, voters):
            return i
    return None


def may_talk_out_of_character(speaker: str, listener: str, narrator: str, acting: Sequence[str],
                              setup: bool) -> bool:
    """V-5 (L625): "out of character communication" may only happen between players who are neither
    narrating nor acting; story and act creation (setup) allow full communication."""
    if setup:
        return True
    busy = {narrator, *acting}
    return speaker not in busy and listener not in busy


def thing_you_need(uses_this_act: Mapping[str, int], player: str, supporting_traits: bool) -> str:
    """V-62 (L213, L221): any player may create just what they need once per act "without worrying (too
    much) about being challenged"; doing it again in the act without a capability/technique combination
    of traits "should really" be challenged. Returns 'free', 'supported' or 'challenge'."""
    if uses_this_act.get(player, 0) == 0:
        return "free"
    return "supported" if supporting_traits else "challenge"


def mechanics_may_affect(is_vele: bool, is_pc: bool, vele_off_stage: bool) -> None:
    """V-7 (L173): non-player Vele and Verminites are advice by default; with the table option
    `vele_off_stage`, mechanics do not directly affect them. A Vele PC uses the normal mechanics and
    can be taken out ("the character may be overwhelmed and die")."""
    if vele_off_stage and is_vele and not is_pc:
        raise RuleViolation("V-7", "at this table mechanics do not touch a non-player Vele or Verminite: "
                                   "only the evidence it leaves behind")

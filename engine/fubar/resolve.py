"""Resolve: what it costs, what it gains, its cap, and the variants that replace it (F-6..F-9, F-26).

Every change to a character's Resolve goes through `lose`, `spend` or `gain`, so the cap, the
Doom variant and the Split/Replace appendix are enforced in one place.
"""
from __future__ import annotations

from engine.core.errors import RuleViolation
from engine.fubar.state import TIERS, Character, Condition, GameState

DOOM_OUT = 5  # written out once Doom exceeds five (F-9, L148)
# Split (F-26): these reasons move Life; every other one moves FU
LIFE_REASONS = {"high_stakes", "risky", "downtime", "concede", "scenario"}
REPLACE_SLOTS = {"minor": 2, "moderate": 1, "major": 1}


def variant(s: GameState) -> str:
    """single, split, or replace (both Replace appendix variants)."""
    v = s.options.resolve_variant
    return "replace" if v.startswith("replace") else v


def level(s: GameState, ch: Character) -> int:
    """The pool that plot immunity reads: Resolve, Life (Split), cap minus Doom, or FU (Replace)."""
    if s.options.doom:
        return DOOM_OUT - ch.doom
    if variant(s) == "replace":
        return ch.fu
    return ch.resolve


def _uses_fu(s: GameState, reason: str) -> bool:
    return variant(s) == "replace" or (variant(s) == "split" and reason not in LIFE_REASONS)


def can_spend(s: GameState, ch: Character, n: int = 1) -> bool:
    """Voluntary spending needs the pool at 1 or more unless the table allows spending at 0 (F-AMB-2)."""
    if s.options.spend_at_zero:
        return True
    if s.options.doom:
        return ch.doom + n <= DOOM_OUT
    if variant(s) in ("split", "replace"):
        return ch.fu >= n
    return ch.resolve >= n


def spend(s: GameState, ch: Character, n: int, reason: str, rule: str, what: str) -> None:
    """A voluntary cost (a reroll, a fact, a power): refused when the pool cannot pay (F-7, F-AMB-2)."""
    if ch.out:
        raise RuleViolation("F-6", f"{ch.name} is out of the game")
    if not can_spend(s, ch, n):
        raise RuleViolation(rule, f"{ch.name} has no Resolve left to spend on {what}")
    lose(s, ch, n, reason)


def lose(s: GameState, ch: Character, n: int, reason: str) -> None:
    """An involuntary or paid loss. Below 0 (Doom above 5) the character must trade or leave (F-6)."""
    if n <= 0:
        return
    if s.options.doom:
        ch.doom += n
    elif variant(s) == "replace" and reason in LIFE_REASONS:
        pass  # health is Consequences in the Replace appendix: see add_consequence
    elif _uses_fu(s, reason):
        ch.fu -= n
    else:
        ch.resolve -= n
    if fallen(s, ch) and ch.seat not in s.escape:
        s.escape.append(ch.seat)


def gain(s: GameState, ch: Character, n: int, reason: str) -> int:
    """A gain, never past the cap (F-6, F-8). Returns what was actually gained. A character who fell
    below 0 gains nothing until the trade is made: below 0 he is out (L140) unless he trades (L144)."""
    if n <= 0 or ch.out or ch.seat in s.escape:
        return 0
    if s.options.doom:
        before = ch.doom
        ch.doom = max(0, ch.doom - n)  # Doom floors at 0 (F-AMB-15)
        return before - ch.doom
    if variant(s) == "replace" and reason in ("downtime", "scenario", "session"):
        return 0  # Replace: FU comes from Goals, Flaws, concessions and genre only (L703-708)
    if _uses_fu(s, reason):
        ch.fu += n  # FU is uncapped in Split and Replace (F-26, F-AMB-11)
        return n
    before = ch.resolve
    ch.resolve = min(ch.cap, ch.resolve + n)
    if ch.resolve < before:  # above the cap already (a lowered cap): never raised, never cut here
        ch.resolve = before
    return max(0, ch.resolve - before)


def restore(s: GameState, ch: Character, reason: str) -> None:
    """Resolve back to its maximum: a Goal accomplished, the Escape trade, a scenario's end (F-6, F-8, F-11).
    Only the trade lifts a character who fell below 0 (L144)."""
    if ch.seat in s.escape and reason != "escape":
        return
    if s.options.doom:
        ch.doom = 0
    elif variant(s) == "split":
        if reason in ("scenario", "escape"):
            ch.resolve = ch.cap
        if reason == "goal_done":
            ch.fu += 1  # FU is gained from Goal progress (F-26); Life refills only between scenarios
    elif variant(s) == "replace":
        if reason == "escape":  # L720: all Consequence slots immediately clear
            ch.consequences = []
            ch.consequences_full = False
    else:
        ch.resolve = ch.cap
    if ch.seat in s.escape and not fallen(s, ch):
        s.escape.remove(ch.seat)


def fallen(s: GameState, ch: Character) -> bool:
    """Below 0 Resolve (Doom above 5, Life below 0, a full Consequence track): out unless traded (F-6)."""
    if s.options.doom:
        return ch.doom > DOOM_OUT
    if variant(s) == "replace":
        return ch.consequences_full
    return ch.resolve < 0


def session_start(s: GameState, ch: Character) -> None:
    """+2 at a session's start, capped; FU below 2 resets to 2 in the appendix variants (F-8, F-26)."""
    if variant(s) in ("split", "replace"):
        ch.fu = max(ch.fu, 2)
        return
    gain(s, ch, 2, "session")


def start_pools(s: GameState, ch: Character) -> None:
    """A new character's pools: Resolve 5 (cap 5; 4 with the broad-power cost); Split Life 3 + FU 2;
    Replace FU 2 (F-6, F-10, F-26)."""
    if variant(s) == "split":
        ch.cap = 3 - (5 - ch.cap)
        ch.resolve = ch.cap
        ch.fu = 2
    elif variant(s) == "replace":
        ch.fu = 2
        ch.resolve = ch.cap
    else:
        ch.resolve = ch.cap


def add_consequence(s: GameState, ch: Character, cond: Condition) -> Condition:
    """A high-stakes loss in the Replace appendix (F-26, L710-720, F-AMB-14).

    Counted per type (replace): the n-th Consequence of a type is one tier worse than the last
    (Minor, Moderate, Major); a fourth of one type takes the character out unless a Trademark is
    traded. Slots (replace_slots): 2 Minor, 1 Moderate, 1 Major; a filled tier escalates to the next
    free slot; no free slot at or above its tier: out unless traded.
    """
    if s.options.resolve_variant == "replace":
        same = sum(1 for c in ch.consequences if c.scope == cond.scope)
        placed = cond.model_copy(update={"tier": TIERS[min(same, 2)]})
        if same >= 3:
            ch.consequences_full = True
    else:
        placed = None
        for t in range(TIERS.index(cond.tier), len(TIERS)):
            if sum(1 for c in ch.consequences if c.tier == TIERS[t]) < REPLACE_SLOTS[TIERS[t]]:
                placed = cond.model_copy(update={"tier": TIERS[t]})
                break
        if placed is None:
            placed = cond.model_copy(update={"tier": "major"})
            ch.consequences_full = True
    ch.consequences.append(placed)
    if ch.consequences_full and ch.seat not in s.escape:
        s.escape.append(ch.seat)
    return placed


def default_tier(pc_stakes: str, lost: int, remaining: int) -> str:
    """The Condition's default magnitude (F-19, L561-564): low stakes Minor; Resolve lost with more than
    1 left Moderate; down to fewer than 2 Major."""
    if lost <= 0 or pc_stakes == "low":
        return "minor"
    return "moderate" if remaining > 1 else "major"

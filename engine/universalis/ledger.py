"""Coins: payments to the Bank, Refreshment, compensation, bonus coins (U-ECO-*).

Every coin movement goes through these functions, so the ledger can always account for
every coin (U-ECO-2): start + refreshments + bonus + compensation - paid = wealth + stake.
"""
from __future__ import annotations

from engine.core.errors import RuleViolation
from engine.universalis.state import GameState, Player


def coins(n: int) -> str:
    return f"{n} coin" if n == 1 else f"{n} coins"


def narration_bonus(s: GameState, name: str) -> int:
    """Bonus coins `name` may spend now: only while it is his part of the narration."""
    if s.narration is None or s.window is not None:
        return 0
    slot = s.narration.slots[s.narration.current]
    return slot.coins if slot.player == name else 0


def available(s: GameState, name: str) -> int:
    p = s.player(name)
    return p.wealth + p.stake + narration_bonus(s, name)


def holdings(s: GameState, name: str) -> str:
    p = s.player(name)
    parts = [f"{name} holds {coins(p.wealth)}"]
    if p.stake:
        parts.append(f"a stake of {p.stake}")
    bonus = narration_bonus(s, name)
    if bonus:
        parts.append(f"{bonus} bonus")
    return " and ".join(parts)


def costs(what: str) -> str:
    """ "a Trait costs", "2 Trait occurrences cost": the verb agrees with what is bought."""
    first = what.split(" ", 1)[0]
    return f"{what} cost" if first.isdigit() and first != "1" else f"{what} costs"


def require(s: GameState, name: str, cost: int, what: str, rule: str = "U-ECO-3") -> None:
    if cost > available(s, name):
        raise RuleViolation(rule, f"{holdings(s, name)}; {costs(what)} {cost}")


def pay(s: GameState, name: str, cost: int, what: str, rule: str = "U-ECO-3", use_bonus: bool = True) -> None:
    """Pay `cost` to the Bank: bonus coins first, then the stake (U-ECO-4), then wealth.

    `use_bonus=False` pays from stake and wealth only (Challenge bids re-charged after a
    withdrawal were paid that way when they were bid, while the reaction window was open).
    """
    if cost <= 0:
        return
    bonus = narration_bonus(s, name) if use_bonus else 0
    p = s.player(name)
    if cost > bonus + p.wealth + p.stake:
        raise RuleViolation(rule, f"{holdings(s, name)}; {costs(what)} {cost}")
    left = cost
    if bonus:
        use = min(bonus, left)
        s.narration.slots[s.narration.current].coins -= use  # type: ignore[union-attr]
        p.ledger.bonus += use
        s.bank_out += use
        left -= use
    use = min(p.stake, left)
    p.stake -= use
    left -= use
    p.wealth -= left
    p.ledger.paid += cost
    s.bank_in += cost


def take_fine(s: GameState, name: str, amount: int) -> int:
    """A fine takes what there is when it exceeds what the player holds (U-ECO-3)."""
    p = s.player(name)
    amount = min(amount, p.wealth + p.stake)
    pay(s, name, amount, "the fine", use_bonus=False)  # bonus coins are for the Complication (U-COMP-10)
    return amount


def from_bank(p: Player, s: GameState, amount: int, kind: str) -> None:
    """Coins earned from the Bank: Refreshment or kept bonus coins."""
    if amount <= 0:
        return
    p.wealth += amount
    if kind == "refreshment":
        p.ledger.refreshments += amount
    else:
        p.ledger.bonus += amount
    s.bank_out += amount


def pay_player(s: GameState, payer: str, payee: str, amount: int) -> None:
    """The one coin movement between players: framing into the future (U-ECO-5, U-FRAME-3)."""
    p = s.player(payer)
    q = s.player(payee)
    use = min(p.stake, amount)
    p.stake -= use
    p.wealth -= amount - use
    p.ledger.paid += amount
    q.wealth += amount
    q.ledger.compensation += amount


def stake_to_bank(s: GameState, name: str) -> int:
    p = s.player(name)
    left = p.stake
    if left:
        p.stake = 0
        p.ledger.paid += left
        s.bank_in += left
    return left


def accounted(p: Player) -> int:
    """What the ledger says the player should hold (U-ECO-2)."""
    lg = p.ledger
    return lg.start + lg.refreshments + lg.bonus + lg.compensation - lg.paid

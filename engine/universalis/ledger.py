"""Coins: payments to the Bank, Refreshment, compensation, bonus coins (U-ECO-*).

Every coin movement goes through these functions, so the ledger can always account for
every coin (U-ECO-2): start + refreshments + bonus + compensation + refunds - paid = wealth + stake,
and the movements balance: what players paid each other is what they received, what they paid
the Bank is what the Bank took in, and the Bank pays out only Refreshment, bonus coins and the
refund of coins it took for a statement a Challenge made cheaper (`conservation_problems`).
Coins of a PC Endowment, a Plot Pool, a setting or a between-sessions pool stay the Bank's, set aside
(`set_aside`, `spend_set_aside`): what those hold is what was set aside less what was spent or returned.
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
    if s.extra.setting_phase:  # Setting Creation Phase: a separate pool pays (UA-SETTING-1, L1892)
        left = s.extra.setting_pools.get(name, 0)
        if cost > left:
            raise RuleViolation("UA-SETTING-1", f"Setting Creation Phase: {name} has {coins(left)} left in the "
                                                f"setting pool; {costs(what)} {cost} (L1892)")
        s.extra.setting_pools[name] = left - cost
        spend_set_aside(s, cost)
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


def pay_player(s: GameState, payer: str, payee: str, amount: int, stake_first: bool = True) -> None:
    """The coin movement between players: framing into the future (U-ECO-5, U-FRAME-3); a face card spent
    under Cards as Coins (UA-CARDS-4: another player pays the spender's coin, from his Wealth only)."""
    p = s.player(payer)
    q = s.player(payee)
    use = min(p.stake, amount) if stake_first else 0
    p.stake -= use
    p.wealth -= amount - use
    p.ledger.paid += amount
    p.ledger.paid_players += amount
    q.wealth += amount
    q.ledger.compensation += amount


def refund(s: GameState, name: str, amount: int, to_stake: int) -> None:
    """The Bank gives back `amount` of what `name` paid it for a statement made cheaper (U-CHAL-4).

    Coins that came out of the stake go back into the stake, up to `to_stake` (U-ECO-4, line 357:
    the winning bid stays on the table for the scene); the rest go back to wealth.
    """
    if amount <= 0:
        return
    p = s.player(name)
    back = min(amount, max(0, to_stake))
    p.stake += back
    p.wealth += amount - back
    p.ledger.refunds += amount
    s.bank_refunds += amount


def stake_to_bank(s: GameState, name: str) -> int:
    p = s.player(name)
    left = p.stake
    if left:
        p.stake = 0
        p.ledger.paid += left
        s.bank_in += left
    return left


def set_aside(s: GameState, amount: int) -> None:
    """The Bank sets `amount` aside in a pool that is no player's Wealth: a PC Endowment (UA-ENDOW-1,
    UA-DRIVER-*), a Plot Pool (UA-PLOT-1), a setting pool (UA-SETTING-1), a between-sessions pool (UA-BETWEEN-1)."""
    s.addon.set_aside += amount


def spend_set_aside(s: GameState, amount: int) -> None:
    """`amount` of the coins set aside are spent, or returned unspent: back to the Bank either way."""
    s.addon.set_aside_spent += amount


def set_aside_held(s: GameState) -> list[int]:
    """What each pool of set-aside coins holds now."""
    return [*s.addon.endowments.values(), *(pool.coins for pool in s.addon.plot_pools),
            *s.extra.setting_pools.values(), *s.extra.between_pools.values()]


def accounted(p: Player) -> int:
    """What the ledger says the player should hold (U-ECO-2)."""
    lg = p.ledger
    return lg.start + lg.refreshments + lg.bonus + lg.compensation + lg.refunds - lg.paid


def conservation_problems(s: GameState) -> list[str]:
    """Every way the coins fail to add up (U-ECO-2); empty when no coin was created or lost.

    Each player's ledger explains his coins; coins paid between players are coins received; the
    Bank took in what players paid it and paid out only Refreshment, bonus coins and refunds.
    """
    out: list[str] = []
    for p in s.players:
        lg = p.ledger
        if p.wealth < 0 or p.stake < 0:
            out.append(f"{p.name} holds a negative amount ({p.wealth} and a stake of {p.stake})")
        if accounted(p) != p.wealth + p.stake:
            out.append(f"{p.name}'s ledger says {accounted(p)}, he holds {p.wealth + p.stake}")
        if min(lg.start, lg.refreshments, lg.bonus, lg.compensation, lg.refunds, lg.paid, lg.paid_players) < 0:
            out.append(f"{p.name}'s ledger has a negative entry: {lg}")
        if lg.refunds > lg.paid - lg.paid_players:
            out.append(f"{p.name} was refunded {lg.refunds}, more than the {lg.paid - lg.paid_players} he paid the Bank")
    given = sum(p.ledger.paid_players for p in s.players)
    got = sum(p.ledger.compensation for p in s.players)
    if given != got:
        out.append(f"players paid each other {given} but received {got}")
    to_bank = sum(p.ledger.paid - p.ledger.paid_players for p in s.players)
    if to_bank != s.bank_in:
        out.append(f"players paid the Bank {to_bank}, the Bank took in {s.bank_in}")
    from_bank_total = sum(p.ledger.refreshments + p.ledger.bonus for p in s.players)
    if from_bank_total != s.bank_out:
        out.append(f"the Bank paid out {s.bank_out}, players received {from_bank_total} of Refreshment and bonus")
    if sum(p.ledger.refunds for p in s.players) != s.bank_refunds:
        out.append(f"the Bank refunded {s.bank_refunds}, players received {sum(p.ledger.refunds for p in s.players)}")
    held = set_aside_held(s)
    if sum(held) != s.addon.set_aside - s.addon.set_aside_spent or min([0, *held]) < 0:
        out.append(f"Endowments and the add-ons' pools hold {sum(held)}, but the Bank set aside {s.addon.set_aside} "
                   f"and {s.addon.set_aside_spent} of it was spent or returned")
    start = sum(p.ledger.start for p in s.players)
    held = sum(p.wealth + p.stake for p in s.players)
    if held != start + s.bank_out + s.bank_refunds - s.bank_in:
        out.append(f"players hold {held}, but started with {start} and the Bank's movements give "
                   f"{start + s.bank_out + s.bank_refunds - s.bank_in}")
    return out

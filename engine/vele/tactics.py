"""The struggle variants beyond one actor against one opponent, as pure rules: mass struggles (Area),
blocks, stationary terrain, allies, movement, attached/integrated modes and aides, hidden rolls.

Why a module of its own: these are the book's "sometimes" rules (L415-481, L683-690). Each is a
small function a table (or a later action in rules.py) calls with what it knows; none reads a clock
or rolls a die, and each refusal names its rule in a player's words.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal, Mapping, Sequence

from engine.core.errors import RuleViolation
from engine.vele.economy import POINTS
from engine.vele.struggle import Side, decide

# --- mass struggles (V-38, L433-435; Area 8 / Selective Area 10, L667-668) ---------------------------


def mass_targets(zone: Sequence[str], actor: str, ability: Literal["area", "selective_area"] | None,
                 chosen: Sequence[str] | None = None) -> list[str]:
    """V-38: a struggle against several components needs Area: it hits everything in the zone but the
    actor; Selective Area hits the components the actor chooses in the zone."""
    if ability is None:
        raise RuleViolation("V-38", "a struggle against several components at once needs the Area ability")
    others = [c for c in zone if c != actor]
    if ability == "area":
        return others
    picked = list(dict.fromkeys(chosen or []))
    stray = [c for c in picked if c not in others]
    if stray or not picked:
        raise RuleViolation("V-38", "Selective Area picks its targets among the others in the zone"
                            + (f"; {', '.join(stray)} is not there" if stray else ""))
    return picked


def mass_power(offered: Sequence[int], per_target: int, targets: int) -> list[int]:
    """V-38 (L433): other abilities in a mass attack are paid for every target; "if you can't afford it,
    you can't use any other abilities at all in that attack". Returns the power dice used: all that are
    needed, or none (and then the offered dice stay in the pool)."""
    need = per_target * targets
    return list(offered[:need]) if len(offered) >= need else []


@dataclass
class MassFlow:
    """Where a mass struggle's dice go: to players, back to the bowl, and the extra copies the bowl pays
    out for the second and later winning defenders (L435)."""

    to_player: dict[str, list[int]] = field(default_factory=dict)
    to_bowl: list[int] = field(default_factory=list)
    from_bowl: list[int] = field(default_factory=list)
    winners: dict[str, Literal["actor", "opponent"]] = field(default_factory=dict)
    effects: dict[str, int] = field(default_factory=dict)
    results: dict[str, tuple[int, int]] = field(default_factory=dict)  # (actor's result, defender's result)

    def give(self, who: str, dice: Sequence[int]) -> None:
        if dice:
            self.to_player.setdefault(who, []).extend(dice)


def resolve_mass(actor_name: str, actor: Side, own: Sequence[int], bowl_used: Sequence[int],
                 defenders: Mapping[str, tuple[Side, Sequence[int]]],
                 powered: Mapping[str, Side] | None = None) -> MassFlow:
    """V-38 (L433-435): the actor wagers once and rolls once; each defender resolves separately.

    - Against each defender, decide() as an offensive struggle.
    - Losing to any defender loses the whole wager: the first winning defender takes the actor's dice,
      every later one its own copy from the bowl.
    - Each beaten defender's wager goes to the actor, less one die (the highest left) per bowl die the
      actor used: "any bowl dice they used subtract from the winnings for each opponent".
    - Winning defenders keep their own dice; the actor's bowl dice go back to the bowl once.
    `defenders` maps a defender's player to (its roll, its wagered own dice); `powered` gives the actor's roll
    against a defender when power dice were paid for that target (V-EX-18)."""
    f = MassFlow()
    stake = [*own, *bowl_used]
    for name, (side, dice) in defenders.items():
        out = decide("offensive", (powered or {}).get(name, actor), side)
        f.results[name] = (out.actor_result, out.opponent_result)
        f.winners[name] = out.winner or "opponent"
        f.effects[name] = out.effect if out.winner == "actor" else 0
    lost = any(w == "opponent" for w in f.winners.values())
    f.to_bowl += list(bowl_used)
    first = True
    for name, (side, dice) in defenders.items():
        if f.winners[name] == "opponent":
            f.give(name, dice)  # a winner keeps its own
            if first:
                f.give(name, stake)
                first = False
            else:
                f.from_bowl += stake
                f.give(name, stake)
            continue
        pot = sorted(dice, reverse=True)
        fee = pot[:len(bowl_used)]
        f.to_bowl += fee
        f.give(actor_name, pot[len(bowl_used):])
    if not lost:
        f.give(actor_name, own)
    # the bowl's own dice that the actor wagered went to a winner: they leave the bowl's return pile
    if lost:
        for d in bowl_used:
            f.to_bowl.remove(d)
    return f


# --- blocks (V-39, L479-481; Block 6 and Auto-Block 8, V-24) ----------------------------------------
@dataclass(frozen=True)
class Block:
    """A block stands until the blocker's next turn; the blocked component must exceed `value` before it
    may do `prevents`, and repeat attempts meet the same value (no new roll)."""

    blocker: str
    target: str
    prevents: str
    value: int


def block_value(ability: Literal["block", "auto_block"] | None, succeeded: bool, result: int,
                reroll: int | None = None) -> int | None:
    """V-24, V-39: a block struggle that succeeds blocks with its result. Block 6 also blocks on a
    success of another struggle; Auto-Block 8 always blocks, rerolling for the value on a failure."""
    if succeeded:
        return result
    if ability == "auto_block":
        if reroll is None:
            raise RuleViolation("V-24", "Auto-Block after a failed struggle rerolls for the block value")
        return reroll
    return None


def overcome_block(block: Block, component: str, doing: str, result: int) -> bool:
    """V-39 (L479): the blocked component is the actor against the block and must exceed its value; the
    block only stands in the way of what it was stated to prevent."""
    if component != block.target or doing != block.prevents:
        return True
    return result > block.value


def block_stands(block: Block, turn_of: str, turns_since: Sequence[str]) -> bool:
    """V-39: the block lasts "before your next turn": it falls when the blocker's turn comes again.
    `turns_since` are the components whose turns started after the block."""
    return block.blocker not in turns_since and turn_of != block.blocker


# --- stationary terrain and counter-struggles (V-41, L437, L441) ------------------------------------
def may_attack_now(attacker: str, stationary: bool, turn_of: str, victim: str, nearby: bool = True) -> None:
    """V-25, V-41 (L437): a component attacks on its own turn, except stationary terrain (a bridge, a
    patch of ground), which attacks nearby components on *their* turn, "as soon as they walk over it"."""
    if stationary:
        if turn_of != victim:
            raise RuleViolation("V-41", "stationary terrain attacks a component during that component's own turn")
        if not nearby:
            raise RuleViolation("V-41", "stationary terrain attacks only components near it")
        return
    if turn_of != attacker:
        raise RuleViolation("V-25", "a component starts a struggle on its own turn")


def counter_struggle(thing_trait: int, failed: bool, approved: bool) -> int | None:
    """V-41 (L441): failing against a thing may bring a counter-struggle, with approval: the thing
    "attacks" with the trait it defended with (the d6 Wall). None: no counter-struggle."""
    return thing_trait if failed and approved else None


# --- allies (V-43, L445) ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Allies:
    """Who allies whom this round, and who must sit out their next struggle (the forfeit)."""

    helping: Mapping[str, str] = field(default_factory=dict)  # ally -> the component it helps
    forfeit: frozenset[str] = frozenset()

    def join(self, ally: str, helped: str, defending: bool) -> "Allies":
        """V-43: an ally may not already ally a different component; the component it helps may not ally
        back in its ally's defence ("already occupied"); every ally forfeits its next struggle (reading)."""
        if ally == helped:
            raise RuleViolation("V-43", "a component does not ally itself")
        if self.helping.get(ally, helped) != helped:
            raise RuleViolation("V-43", f"{ally} is already allying {self.helping[ally]}")
        if defending and self.helping.get(helped) == ally:
            raise RuleViolation("V-43", f"{helped} is already occupied allying {ally}, so it cannot ally in "
                                        f"{ally}'s defence")
        return replace(self, helping={**self.helping, ally: helped}, forfeit=self.forfeit | {ally})

    def check_act(self, component: str) -> None:
        if component in self.forfeit:
            raise RuleViolation("V-43", f"{component} allied earlier and may do nothing during its next struggle")

    def sat_out(self, component: str) -> "Allies":
        """The component's next struggle has passed (it did nothing): the forfeit is paid."""
        return replace(self, forfeit=self.forfeit - {component})

    def new_round(self) -> "Allies":
        return replace(self, helping={})


# --- movement (V-44, L415) -----------------------------------------------------------------------------
def check_movement(before: int, after: int, as_struggle: int = 0, who: str = "a component") -> int:
    """V-44 (L415): one zone before or after a struggle, and one more zone as the struggle itself.
    Returns the zones moved this turn."""
    if min(before, after, as_struggle) < 0:
        raise RuleViolation("V-44", "zones moved are counted from 0")
    if before + after > 1:
        raise RuleViolation("V-44", f"{who} moves one free zone before or after a struggle, not more: one more zone "
                                    "is a struggle")
    if as_struggle > 1:
        raise RuleViolation("V-44", "moving as a struggle takes you one more zone")
    return before + after + as_struggle


# --- modes, attachment and aides (V-45, L421-427, L683-686; V-EX-14) -----------------------------------
Mode = Literal["autonomous", "integrated"]


def announce_mode(last: Mode, new: Mode, happened: Sequence[Mode]) -> Mode:
    """V-45 (L421): the mode defaults to the last announced one, and a component announces its mode when
    it acts; the mode "can't contradict what has already happened for that round" (`happened`: the modes
    the unit was already treated as this round, e.g. attacked while integrated)."""
    if new != last and any(m != new for m in happened):
        raise RuleViolation("V-45", f"this round the unit was already {happened[0]}: the mode cannot change now")
    return new


def attach_cost(by: Literal["struggle", "fate"], xp: int) -> int:
    """V-45 (L685): attaching or detaching takes at least one struggle, or 1 XP of fate with
    justification. Returns the XP spent."""
    if by == "struggle":
        return 0
    if xp < 1:
        raise RuleViolation("V-45", "attaching at once is a fate use: it costs 1 XP and you have none")
    return 1


def aided_attack_difficulty(target_trait_size: int | None, aided_by_non_minions: bool, attached: bool = False) -> int:
    """V-34, V-45 (L427): a component aided by integrated non-minion components can only be attacked by
    targeting one of its traits (its points are the difficulty); the aides themselves (and components
    with no such aides) take no targeting difficulty unless a trait is targeted."""
    if aided_by_non_minions and not attached and target_trait_size is None:
        raise RuleViolation("V-45", "an aided component is attacked by targeting one of its traits")
    return POINTS[target_trait_size] if target_trait_size is not None else 0


def check_aided_damage(targeted: str, chosen: Sequence[tuple[str, str]], unit: Sequence[str]) -> None:
    """V-45 (L427): after a successful attack on an aided unit, "the first trait disabled must come from
    the targeted component"; the rest may come from any component integrated with it.
    `chosen`: (component, trait) in order."""
    if not chosen:
        return
    if chosen[0][0] != targeted:
        raise RuleViolation("V-45", "the first trait lost comes from the component that was attacked")
    stray = [c for c, _ in chosen if c not in unit]
    if stray:
        raise RuleViolation("V-45", f"{stray[0]} is not integrated with {targeted}")


# --- hidden rolls (V-31, L688-690) --------------------------------------------------------------------
def hidden_roll(actor: Side, opponent: Side, wagered: bool) -> dict[str, int]:
    """V-31 (L690): when failure yields uncertainty, the other side hides its roll and tells only the
    effect. No wagering is possible. With no power and no fate this effect is above 0 exactly when the actor won,
    so the engine keeps its number in the opponent's player's view, who tells it in the story (rules.resolve).
    What a won roll does next is public: a maneuver's new aspect, an attack's damage step. So the table learns
    the result from its consequences, as at a real table where the effect is narrated (L690 tells the effect,
    it does not hide it); only the number and the dice stay hidden."""
    if wagered:
        raise RuleViolation("V-31", "no dice are wagered on a hidden roll")
    out = decide("offensive", actor, opponent)
    return {"effect": max(0, out.effect) if out.winner == "actor" else 0}

"""Block 6 and Auto-Block 8 as abilities (V-24, L663-664), bought like any ability and used in a wager.

The book: "Block 6: On success, do a block struggle in addition to the struggle using the struggle result as
the block value (power works with this)"; "Auto-Block 8: Automatically do a block struggle in addition to the
struggle; as block 6, but if the struggle fails, reroll for the block value". Abilities "always cost dice to
use" (L651).

Readings (the book gives no more):
- the fixed sizes are the ability's: Block is Block 6 and Auto-Block is Auto-Block 8, tied to a d6+ / d8+ trait;
- using it costs one allocated die of that size (a d6 / a d8), paid to the bowl when the actor wagers;
- only the acting side uses it, in a struggle that is not itself a block or an overcome, not hidden (no
  wagering, V-31), not a mass struggle; the block stands against the struggle's target, until the actor's
  player's next turn, and prevents what the struggle names in `prevents` ('' : any struggle), as a block
  struggle's would (V-39);
- the block value is the actor's result plus its best power die ("power works with this");
- Auto-Block's reroll is rolled with the struggle's dice (one more die per stake, keys `actor_block:i`) and read
  only when the struggle fails: the same chance as rolling afterwards, and the dice still come from outside.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.core.errors import RuleViolation
from engine.core.ruleset import Option
from engine.vele import economy as E
from engine.vele.state import Blocking, Component, GameState, SideState, Struggle
from engine.vele.struggle import Side
from engine.vele.tactics import block_value

SIZES = {"block": 6, "auto_block": 8}  # L663-664
NAMES = {"block": "Block 6", "auto_block": "Auto-Block 8"}


def check_purchase(effect: str, size: int) -> None:
    """V-24 (L663-664): Block and Auto-Block come in one size each."""
    if effect in SIZES and size != SIZES[effect]:
        raise RuleViolation("V-24", f"{NAMES[effect]} is a size-{SIZES[effect]} ability, not {size}")


def pay(s: GameState, k: Struggle, side: SideState, cp: Component, effect: str, pushed: set[str],
        alloc: list[int]) -> list[int]:
    """Check a wager's use of `effect` and pay its die out of `alloc` (the sheet's allocated dice, already less
    the power dice); returns the allocated dice left. The paid die goes to the bowl (the caller puts it there)."""
    if side is not k.actor or k.head_to_head:
        raise RuleViolation("V-24", f"{NAMES[effect]} is used by the acting side, in its own struggle")
    if k.goal in ("block", "overcome"):
        raise RuleViolation("V-24", f"{NAMES[effect]} adds a block to another struggle: this one is a block already")
    if k.hidden or k.mass:
        raise RuleViolation("V-24", f"{NAMES[effect]} is not used in a hidden roll (no wagering) or a mass struggle")
    ab = next((x for x in cp.abilities if x.effect == effect and x.trait in pushed), None)
    if ab is None:
        raise RuleViolation("V-24", f"{cp.name} has no {NAMES[effect]} on a trait it pushes now")
    return E.remove_dice(alloc, [SIZES[effect]], "V-24", f"{cp.name}'s allocated dice (it costs a d{SIZES[effect]})")


def reroll_keys(side: SideState, key: str) -> list[tuple[str, int]]:
    """Auto-Block's reroll dice: one per stake, asked with the struggle roll."""
    if side.block != "auto_block":
        return []
    return [(f"{key}_block:{i}", x.die) for i, x in enumerate(side.stakes)]


def read_reroll(side: SideState, faces: dict[str, list[int]], key: str) -> None:
    got = []
    for name, d in reroll_keys(side, key):
        f = faces.get(name, [])
        if len(f) != 1 or not 1 <= f[0] <= d:
            raise RuleViolation("V-24", f"Auto-Block's reroll needs one d{d} face ({name})")
        got.append(f[0])
    side.block_faces = got


def block_after_roll(s: GameState, k: Struggle, winner: Any, actor: Side) -> Blocking | None:
    """The block a Block / Auto-Block ability leaves standing after the roll, or None."""
    side = k.actor
    if not side.block:
        return None
    reroll = Side(tuple(side.block_faces), actor.power, actor.difficulty).result + actor.best_power \
        if side.block == "auto_block" else None
    value = block_value(side.block, winner == "actor", actor.result + actor.best_power, reroll)  # type: ignore[arg-type]
    if value is None:
        return None
    b = Blocking(blocker=side.component, target=k.opponent.component, prevents=k.prevents, value=value,
                 player=side.player)
    s.blocks.append(b)
    return b


def block_note(s: GameState, k: Struggle, option: Option) -> Option:
    """The actor's wager option, telling it (and a model seat) when its Block / Auto-Block may be used now."""
    cp = s.components.get(k.actor.component)
    usable = [x for x in (cp.abilities if cp else []) if x.effect in SIZES and SIZES[x.effect] in cp.allocated]  # type: ignore[union-attr]
    if option.type != "wager" or not usable or k.goal in ("block", "overcome") or k.hidden or k.mass or k.head_to_head:
        return option
    how = "; ".join(f"block={x.effect!r} uses {NAMES[x.effect]} on {x.trait} (push it; a d{SIZES[x.effect]} from the "
                    f"sheet to the bowl)" for x in usable)
    return replace(option, note=f"{option.note + '; ' if option.note else ''}{how}: a block against the target "
                                "on success" + (", or with a reroll on a failure" if any(x.effect == "auto_block"
                                                                                            for x in usable) else ""))

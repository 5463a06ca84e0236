"""A unit pooling its members' traits in its own struggle (V-45; L683, L686, L421, L423), on rules.wager and
rules.resolve.

Why a module: the book's main text says integrated components "operate as a unit" (L421) and that an integrated
bodyguard could "contribute traits to the attack" (L423). Its newer Additional Rules revise this ("12. Attached
Components (revised rules for Integrated Components)", L681, to which L419 points): "Attached components function
as a single component during struggles" (L683) and "Unattached components can still be allies (i.e. only attack
or defense)" (L686). The newer rule wins (digest, section 1), so only attached components pool: a component and
the ones attached with it (the unit's head and the members attached to it) push dice on each other's traits in
their struggle; an integrated but unattached member helps as an ally (V-43), as before. Alternative: the main
text's reading, every integrated member pools (L423).

The book leaves open who pays for a member's dice and how the d4 rule (V-19) reads across members. The digest's
section 6 has no reading for either, so this table chose:

- Which pool pays: each die pushed on a member's trait comes from the pool that member draws on (character dice
  for a PC, story dice for a story component: L181's "your appropriate group of dice"), and if the unit wins it
  goes back there with the lowest winning die left, as the digest's rule 10 has it: "the winners' dice go back
  where they came from (character, story, or bowl dice)". The winnings left over go to the struggling
  component's pool (V-AMB-9). Alternative: the struggling component's pool pays for every member's trait and
  takes every die back (the unit as one component's purse).
- The d4 rule (V-19): the unit struggles as one component, so a d4 trait used on any member bars higher traits on
  every member ("a component may not use higher valued traits", L181). Alternative: each member's d4 bars only
  that member's higher traits.
- Power (V-24): a member's Power Attack or Power Defense on a trait pushed here may power the struggle, paid from
  that member's allocated dice (abilities are tied to traits, rule 24).
- In a mass struggle too (V-38): L433 hits an attached unit as one target ("Mass struggles affect integrated
  components separately, if they are not attached"), so an attached unit pools there as anywhere, the Area actor's
  and each defender's; the Area die is still pushed on the actor's own Area trait. Its dice go back to each
  member's pool the same way (route_mass). Alternative: each component wagers its own there.
- A pooling member is not an ally (V-43): it does not forfeit its next struggle and takes no ally round of damage
  (the unit's damage split is L427's, rules.unit_damage). A member that allies this round, sits out its struggle
  (V-43), is a one-shot (V-21: never "part of another component") or is played by another player this scene
  cannot pool.
"""
from __future__ import annotations

from typing import Sequence

from engine.core.errors import RuleViolation
from engine.vele.components import check_part_of
from engine.vele.rules import player_of, pool_of, unit_mates
from engine.vele.state import Component, GameState, SideState, Stake


def other_pool(s: GameState, side: SideState, x: Stake) -> str | None:
    """The pool a stake's die goes back to when it was pushed on an attached member's trait and that member draws on
    another pool than the side's component (a PC's unit with a story component); else None (the reading above)."""
    if not x.component or x.component in side.allies:
        return None
    pool = pool_of(s, s.components[x.component])
    return pool if pool != pool_of(s, s.components[side.component]) else None


def route_mass(s: GameState, kept: Sequence[SideState], to_player: dict[str, list[int]]) -> None:
    """V-45, V-38: in a mass struggle's flow (keyed by component), a side that keeps its dice (the actor that lost
    to nobody, a defender that held) sends its members' own dice back to the members' pools.

    Rules version 4 (V-27 step 10a, L398: "for each die you wagered, put it back into your set, along with the
    lowest left of the winnings"; L433: a mass struggle resolves "like a normal struggle"; V-9, L489): each of the
    side's own dice, in the order pushed, takes the lowest die left of what the side won (after the bowl's fees),
    as struggle.dice_flow pays a single struggle, so a member's die brings that die back to the member's pool too.
    Before (logs of versions 1-3), the member's die came back alone and the struggling component's pool kept every
    die won."""
    for side in kept:
        mine = to_player.get(side.component, [])
        won = sorted(mine)
        for x in side.stakes:  # what is left once the side's own dice are set apart: its winnings
            if x.source == "own":
                won.remove(x.die)
        for x in side.stakes:
            if x.source != "own":
                continue
            paid = [x.die] + ([won.pop(0)] if won and s.rules_version >= 4 else [])
            if other_pool(s, side, x):
                for die in paid:
                    mine.remove(die)
                to_player.setdefault(x.component, []).extend(paid)


def attached_with(s: GameState, cp: Component) -> list[str]:
    """V-45 (L683): the components in the scene that `cp` functions as one with: its unit's head and the members
    attached to that head, if `cp` is the head or attached itself (an unattached member only allies, L686)."""
    if cp.unit and not cp.attached:
        return []
    head = cp.unit or cp.id
    return [x for x in unit_mates(s, cp) if x == head or s.components[x].attached]


def pooling_members(s: GameState, side: SideState) -> list[Component]:
    """The side's unit members that may push their traits now (for the wager's options and the heuristic)."""
    out = []
    for cid in attached_with(s, s.components[side.component]):
        m = s.components[cid]
        if player_of(s, m) == side.player and cid not in s.forfeit and cid not in s.allying and not m.one_shot \
                and m.healthy():
            out.append(m)
    return out


def unit_member(s: GameState, side: SideState, cp: Component, member: str, calling: Sequence[str]) -> Component:
    """V-45 (L683): the attached component whose trait a stake names, if it may pool into `cp`'s struggle now;
    else a refusal in a player's words."""
    m = s.components.get(member)
    name = m.name if m is not None else repr(member)
    if m is not None and m.id in unit_mates(s, cp) and m.id not in attached_with(s, cp):
        raise RuleViolation("V-45", f"{name} is integrated with {cp.name} but not attached: an unattached component "
                                    "helps as an ally (L686); attached ones function as a single component (L683)")
    if m is None or m.id not in attached_with(s, cp):
        raise RuleViolation("V-45", f"{name} is not attached to {cp.name}: only components attached together "
                                    "function as one in a struggle (L683; attach it first)")
    if player_of(s, m) != side.player:
        raise RuleViolation("V-45", f"{player_of(s, m)} plays {name} this scene: you push the traits of the unit you "
                                    "play")
    if m.id in s.forfeit:
        raise RuleViolation("V-43", f"{name} allied earlier and may do nothing during its next struggle")
    if m.id in calling or m.id in s.allying:
        raise RuleViolation("V-45", f"{name} is allying this round: its traits count as an ally's or as the unit's, "
                                    "not both")
    if m.one_shot:
        check_part_of("one_shot", "part")  # V-21 (L205)
    return m


def flow_key(s: GameState, side: SideState, x: Stake, keys: dict[str, tuple[str, Component]]) -> str:
    """Who a stake's die goes back to in struggle.dice_flow: its player, or, for a member that draws on another
    pool than the struggling component (a PC's unit with a story component), that pool, noted in `keys`."""
    who = x.player or side.player
    pool = other_pool(s, side, x)
    if pool is None:
        return who
    key = f"{who}\x1f{pool}"
    keys[key] = (who, s.components[x.component])
    return key

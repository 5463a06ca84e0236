"""A unit pooling its members' traits in its own struggle (V-45; L421, L423, L683), on rules.wager and rules.resolve.

Why a module: the book says integrated components "operate as a unit" (L421) and that a bodyguard integrated with
its subject can "contribute traits to the attack" (L423; attached ones "function as a single component during
struggles", L683), but it leaves open who pays for a member's dice and how the d4 rule (V-19) reads across
members. The digest's section 6 has no reading for either, so this table chose, and says so here:

- Which pool pays: each die pushed on a member's trait comes from the pool that member draws on (character dice
  for a PC, story dice for a story component: L181's "your appropriate group of dice"), and if the unit wins it
  goes back there with the lowest winning die left, as the digest's rule 10 has it: "the winners' dice go back
  where they came from (character, story, or bowl dice)". The winnings left over go to the struggling
  component's pool (V-AMB-9). Alternative: the struggling component's pool pays for every member's trait and
  takes every die back (the unit as one component's purse).
- The d4 rule (V-19): a unit struggles as one component, so a d4 trait used on any member bars higher traits on
  every member ("a component may not use higher valued traits", L181). Alternative: each member's d4 bars only
  that member's higher traits.
- Power (V-24): a member's Power Attack or Power Defense on a trait pushed here may power the struggle, paid from
  that member's allocated dice (abilities are tied to traits, rule 24).
- Not in a mass struggle (V-38): "Mass struggles affect integrated components separately" (L433), so each
  component there wagers its own traits. Alternative: the Area actor's unit could pool.
- A member pooling is not an ally (V-43): it does not forfeit its next struggle, takes no ally round of damage
  (the unit's own damage split is L427's, rules.unit_damage), and one that allies this round, sits out its
  struggle (V-43), is a one-shot (V-21: never "part of another component") or is played by another player this
  scene cannot pool.
"""
from __future__ import annotations

from typing import Sequence

from engine.core.errors import RuleViolation
from engine.vele.components import check_part_of
from engine.vele.rules import player_of, pool_of, unit_mates
from engine.vele.state import Component, GameState, SideState, Stake, Struggle


def pooling_members(s: GameState, side: SideState) -> list[Component]:
    """The side's unit members that may push their traits now (for the wager's options and the heuristic)."""
    out = []
    for cid in unit_mates(s, s.components[side.component]):
        m = s.components[cid]
        if player_of(s, m) == side.player and cid not in s.forfeit and cid not in s.allying and not m.one_shot \
                and m.healthy():
            out.append(m)
    return out


def unit_member(s: GameState, k: Struggle, side: SideState, cp: Component, member: str,
                calling: Sequence[str]) -> Component:
    """V-45 (L423): the integrated component whose trait a stake names, if it may pool into `cp`'s struggle now;
    else a refusal in a player's words."""
    m = s.components.get(member)
    name = m.name if m is not None else repr(member)
    if k.mass:
        raise RuleViolation("V-45", f"a mass struggle meets integrated components separately (L433): {cp.name} "
                                    f"pushes its own traits, not {name}'s")
    if m is None or m.id not in unit_mates(s, cp):
        raise RuleViolation("V-45", f"{name} is not integrated with {cp.name}: only the members of a unit pool their "
                                    "traits in its struggle (announce the mode first)")
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
    if not x.component or x.component in side.allies:
        return who
    m = s.components[x.component]
    pool = pool_of(s, m)
    if pool == pool_of(s, s.components[side.component]):
        return who
    key = f"{who}\x1f{pool}"
    keys[key] = (who, m)
    return key

"""Mass struggles in play (V-38, V-EX-18; L433-435, Area 8 / Selective Area 10 at L667-668), on tactics'
mass_targets and resolve_mass.

Why a module: a mass struggle is the one struggle with several defenders. It rides the ordinary struggle's
stages (difficulty, wagers, roll, fate, damage): the defender now wagering or absorbing sits in the struggle's
`opponent` seat and the others wait in `others`, so every single-opponent handler works unchanged. Registered
on rules.HANDLERS when engine.vele.rules is imported.
"""
from __future__ import annotations

from pydantic import BaseModel

from engine.core.errors import RuleViolation
from engine.vele import actions as A
from engine.vele import struggle as S
from engine.vele.adjudication import mechanics_may_affect
from engine.vele.components import check_struggle_against
from engine.vele.rules import (Ctx, after_exchange, check_acting, check_blocks, check_told, comp, current_turn,
                               d4_alone_xp, handles, need_phase, next_hit, player_of, pool_of, take_from_bowl, to_bowl)
from engine.vele.state import Component, GameState, Record, SideState, Struggle
from engine.vele.tactics import mass_targets, resolve_mass
from engine.vele.units import route_mass

AREA = ("area", "selective_area")


def area_of(cp: Component) -> tuple[str, str] | None:
    """The component's Area ability as (effect, trait), if it has one (Selective Area first)."""
    ab = sorted((x for x in cp.abilities if x.effect in AREA), key=lambda x: x.effect != "selective_area")
    return (ab[0].effect, ab[0].trait) if ab else None


def zone_targets(s: GameState, actor: Component, chosen: list[str]) -> list[str]:
    """V-38 (L433): "if you are using zones, a mass struggle affects everything in a zone": the actor's zone, but
    the actor; components attached to a unit are hit as part of it, not separately."""
    sc = s.scene
    assert sc is not None
    if not sc.zones:
        raise RuleViolation("V-38", "a mass struggle hits everything in a zone: this scene has no map of zones "
                                    "(the zones option)")
    here = sc.zone_of(actor.id)
    zone = [x for x in sc.present if sc.zone_of(x) == here and not s.components[x].out
            and not (s.components[x].unit and s.components[x].attached)]
    area = area_of(actor)
    targets = mass_targets(zone, actor.id, area[0] if area else None, chosen)  # type: ignore[arg-type]
    if not targets:
        raise RuleViolation("V-38", f"nobody else is in {actor.name}'s zone ({here})")
    return targets


@handles(A.StartMassStruggle)
def start_mass_struggle(c: Ctx) -> None:
    """V-38, V-25: on your turn, a component with Area attacks everything else in its zone (Selective Area:
    the targets you pick there); your own components there would be attacking each other (V-63)."""
    s, a = c.s, c.a
    need_phase(c, "scene")
    check_told(s)  # V-31
    actor = comp(s, a.actor, "V-25")
    if a.player != current_turn(s):
        raise RuleViolation("V-25", f"you may start a struggle on your turn; it is {current_turn(s)}'s")
    check_acting(s, actor, a.player)
    open_mass(c, actor, list(a.targets), a.goal, a.text, a.player)


def open_mass(c: Ctx, actor: Component, chosen: list[str], goal: str, text: str, player: str,
              fight: Component | None = None) -> None:
    """V-38: the mass struggle's checks and its start, on the actor's turn or as its strike in a fight (`fight`:
    the fight's other side, which must be among the targets and sits first, fight_strike)."""
    s = c.s
    sc = s.scene
    assert sc is not None
    if area_of(actor) is None:
        raise RuleViolation("V-38", f"a struggle against several components at once needs the Area ability, and "
                                    f"{actor.name} has none")
    targets = zone_targets(s, actor, chosen)
    if fight is not None:
        if fight.id not in targets:
            raise RuleViolation("V-38", f"the fight goes on against {fight.name}: an Area strike in it hits "
                                        f"{fight.name} too (it must stand in {actor.name}'s zone, and be picked)")
        targets = [fight.id, *(x for x in targets if x != fight.id)]
    mine = [s.components[x].name for x in targets if player_of(s, s.components[x]) == player]
    if mine:
        raise RuleViolation("V-63", f"Area would hit your own {', '.join(mine)} too: pick your targets with Selective "
                                    "Area, or move first")
    as_action = A.StartMassStruggle(player=player, actor=actor.id, goal=goal)  # type: ignore[arg-type]
    for x in targets:
        t = s.components[x]
        mechanics_may_affect(t.vele, t.kind == "pc", s.options.vele_off_stage)  # V-7
        if t.virtual:
            check_struggle_against("virtual")  # V-22
        check_blocks(s, actor, t, as_action)  # V-39: a block on the actor stands in the way of each target it covers
    sides = [SideState(component=x, player=player_of(s, s.components[x])) for x in targets]
    s.struggle = Struggle(goal=goal, text=text, actor=SideState(component=actor.id, player=player),  # type: ignore[arg-type]
                          opponent=sides[0], others=sides[1:], mass=True)
    s.phase = "struggle"
    names = ", ".join(s.components[x].name for x in targets)
    c.emit("struggle", f"{actor.name} ({player}) {goal}s everything in its zone at once: {names}"
           + (f": {text}" if text else ""), player, goal=goal, actor=actor.id, target=targets[0],
           targets=targets, mass=True)


def fight_strike(c: Ctx, me: Component, other: Component, targets: list[str], text: str) -> None:
    """V-38, V-32, V-33 (L433; L453: "An attack normally continues a 'fight' extended struggle"; L445: in a fight
    each component acts on its initiative): a component with Area may strike in its fight with its Area, hitting
    the fight's other side and the rest of its zone (Selective Area: those it picks) with one wager and one roll.
    The fight's tally counts the outcome against the other side only (rules.after_exchange). Reading: the book's
    fight runs on initiative, where an Area attack on your initiative continues the fight; this engine's fight is
    an exchange of strikes, so the Area attack is the strike. Before, the strike could only be a single attack."""
    open_mass(c, me, targets, "attack", text, player_of(c.s, me), fight=other)


def check_mass_wager(k: Struggle, side: SideState, cp: Component, a: BaseModel) -> None:
    """V-38, V-EX-18 (L433): the actor pushes a die on the trait that carries Area, and pays each power die once
    for every target, "if you can't afford it, you can't use any other abilities at all in that attack"; nobody
    calls allies into a mass struggle (this table's reading: the book gives allies one opponent)."""
    if a.allies:  # type: ignore[attr-defined]
        raise RuleViolation("V-38", "no allies in a mass struggle: each defender resolves on its own")
    if side is not k.actor:
        return
    area = area_of(cp)
    if area is None or area[1] not in {x.trait for x in a.stakes if not x.member}:  # type: ignore[attr-defined]
        raise RuleViolation("V-38", f"the mass struggle comes from {cp.name}'s Area ability: push a die on "
                                    f"{area[1] if area else 'its Area trait'}")
    n = 1 + len(k.others)
    if len(a.power) % n:  # type: ignore[attr-defined]
        raise RuleViolation("V-38", f"power is paid for every one of the {n} targets (the same dice, {n} times), "
                                    "or no other ability is used at all")


def fee_from_winnings(d: SideState, stake: list[int], got: list[int], bowl: list[int],
                      copies: list[int] | None) -> None:
    """V-38 (L433: "resolve a mass struggle like a normal struggle, except each opponent resolves their roll
    separately"), V-27 step 10, V-AMB-9 (L330, L489): a winning defender that pushed bowl dice pays the bowl, with
    each, the highest die left of what it won (the actor's set; for a later winner, its copy). A fee paid from a
    copy is never taken from the bowl (it would go straight back), so it leaves `copies`. Rules version 3; before,
    the bowl took back its own dice only."""
    fee = sorted(stake, reverse=True)[:sum(1 for x in d.stakes if x.source == "bowl")]
    for die in fee:
        got.remove(die)
        if copies is None:
            bowl.append(die)
        else:
            copies.remove(die)


def resolve_mass_struggle(c: Ctx) -> None:
    """V-38 (L433-435): one wager and one roll for the actor; each defender resolves separately
    (tactics.resolve_mass); then each defender the actor beat absorbs its own effect, in turn."""
    s = c.s
    k = s.struggle
    assert k is not None
    defs = [*k.others, k.opponent]  # after the wagers, in the zone's order (rules.after_wager)
    m = len(k.actor.power) // len(defs)  # the power dice paid per target (V-EX-18)
    side = lambda x, pf=(): S.Side(tuple(x.faces), tuple(pf), x.difficulty, x.bonus)  # noqa: E731
    actor = side(k.actor)
    powered = {d.component: side(k.actor, k.actor.power_faces[i * m:(i + 1) * m]) for i, d in enumerate(defs)}
    own = [x.die for x in k.actor.stakes if x.source == "own"]
    bowl_used = [x.die for x in k.actor.stakes if x.source == "bowl"]
    f = resolve_mass(k.actor.component, actor, own, bowl_used,
                     {d.component: (side(d, d.power_faces), [x.die for x in d.stakes]) for d in defs}, powered)
    winners = [d for d in defs if f.winners[d.component] == "opponent"]
    stake = [*own, *bowl_used]
    copies: dict[str, list[int]] = {d.component: list(stake) for d in winners[1:]}  # L435: from the bowl, below
    for d in winners:  # a winning defender's bowl dice go back to the bowl, as in any struggle (V-AMB-10)
        for x in d.stakes:
            if x.source == "bowl":
                f.to_player[d.component].remove(x.die)
                f.to_bowl.append(x.die)
        if s.rules_version >= 3:  # V-27 step 10, V-AMB-9: with each, the highest of its winnings (fee_from_winnings)
            fee_from_winnings(d, stake, f.to_player[d.component], f.to_bowl, copies.get(d.component))
    kept = [*([] if winners else [k.actor]), *winners]  # the sides whose own dice come back (V-45: route_mass)
    if s.rules_version < 4:
        route_mass(s, kept, f.to_player)
    power = [*k.actor.power, *(p for d in defs for p in d.power)]  # step 8: power dice go to the bowl
    avg = [6] * sum(int(x.average) for x in (k.actor, *defs))  # V-AMB-7
    to_bowl(s, f.to_bowl + power + avg)
    short: list[int] = []
    for d in winners[1:]:  # L435: later winners' sets come from the bowl, as far as the bowl holds them
        for die in copies[d.component]:
            if s.options.unlimited_bowl or die in s.bowl:
                take_from_bowl(s, [die], "V-38")
            else:
                f.to_player[d.component].remove(die)
                short.append(die)
    if s.rules_version >= 4:  # V-45, L398: with what each side really won, the bowl's shortfall set apart
        route_mass(s, kept, f.to_player)
    for cid, dice in f.to_player.items():
        cp = s.components[cid]
        who, pool = player_of(s, cp), pool_of(s, cp)
        setattr(s.players[who], pool, sorted(getattr(s.players[who], pool) + dice))
    ac = s.components[k.actor.component]
    for x in (k.actor, *defs):  # V-43: a forfeited component has now sat out its next struggle
        if x.component in s.forfeit and not x.stakes:
            s.forfeit.remove(x.component)
    k.winner = "opponent" if winners else "actor"
    if s.rules_version >= 3:
        d4_alone_xp(c, [k.actor, *defs])  # V-19 (L627): the actor's one wager counts once
    parts = []
    for d in defs:
        dc, (ar, dr) = s.components[d.component], f.results[d.component]
        won = f.winners[d.component] == "actor"
        eff = max(0, f.effects[d.component]) if won else 0
        parts.append(f"{dc.name} {list(d.faces)} → {dr}: " + (f"beaten, effect {eff}" if won else "holds"))
        s.records.append(Record(seq=s.seq, scene=s.scene.number if s.scene else 0, actor=ac.id, opponent=dc.id,
                                goal=k.goal, actor_result=ar, opponent_result=dr, winner=f.winners[d.component],
                                effect=eff, text=k.text))
        if eff > 0:
            k.hits.append(dc.id)
            k.hit_effects[dc.id] = eff
    c.emit("roll", f"{ac.name} rolls {list(k.actor.faces)} once against {len(defs)}: " + "; ".join(parts)
           + ("; the actor loses its wager" if winners else "")
           + (f"; the bowl is short of {', '.join(f'd{d}' for d in short)} for a later winner's set" if short else ""),
           ac.owner, mass=True, winners=dict(f.winners), effects=dict(f.effects),
           flow={w: d for w, d in f.to_player.items()}, to_bowl=f.to_bowl)
    ac.used = ac.used or ac.one_shot  # V-21
    if k.hits:
        next_hit(k)
        return
    k.effect = 0
    after_exchange(c)


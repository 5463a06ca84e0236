"""Groups of story characters in play (V-60, V-AMB-18, V-61; L716-737), on engine/vele/groups.py's arithmetic.

Why a module: a group is bought at act setup from its own dice points (not a player's pools), other players
connect their PCs to it for d4 story dice, and in a scene without PCs its members are handed out to the
other players; each step is an action or a scene rule with its own checks. Registered on rules.HANDLERS
when engine.vele.rules is imported.
"""
from __future__ import annotations

from engine.core.errors import RuleViolation
from engine.vele import actions as A
from engine.vele import economy as E
from engine.vele import groups as G
from engine.vele.rules import (COMPONENT_TRAITS, Ctx, check_component, handles, make_component, need_phase,
                               take_from_bowl)
from engine.vele.state import GameState, Group, Spotlight, Trait


def group_of(s: GameState, owner: str) -> Group | None:
    return next((g for g in s.groups if g.owner == owner and g.act == s.act), None)


@handles(A.MakeGroup)
def make_group(c: Ctx) -> None:
    """V-60 (L716-725): one group per player per act, during the purchases: 5 dice sets (50 points) for member
    traits only, members' aspects capped; V-61 (L728): its spotlight card, in the middle of the table (L737)."""
    s, a = c.s, c.a
    need_phase(c, "build")
    if group_of(s, a.player) is not None:
        raise RuleViolation("V-60", "you have made this act's group already")
    cis = [a.leader, *a.members]
    if a.leader.kind not in ("main", "normal"):
        raise RuleViolation("V-60", "the group's leader is a main or normal component")
    sizes: list[int] = []
    for ci in cis:
        if ci.kind == "pc":
            raise RuleViolation("V-60", "a group is made of story characters, not a PC")
        if ci.ability is not None:
            raise RuleViolation("V-60", "group dice pay only for group member traits, not for power or healing")
        G.check_member_aspects(ci.kind, len(ci.aspects))
        sizes += check_component(ci, 1)
    left = G.group_spend(G.GROUP_POINTS, "trait", sizes)
    ids = []
    for ci in cis:
        k = make_component(s, ci, a.player)
        k.group = a.name
        s.components[k.id] = k
        ids.append(k.id)
    s.groups.append(Group(name=a.name, owner=a.player, leader=ids[0], members=ids, points_left=left, act=s.act))
    if a.spotlight:
        s.spotlights.append(Spotlight(maker=a.player, kind="group", text=a.spotlight, act=s.act))
    c.emit("group", f"{a.player} makes the group {a.name}: " + ", ".join(s.components[x].name for x in ids)
           + f" ({left} group dice points left)", a.player)


@handles(A.Connect)
def connect(c: Ctx) -> None:
    """V-60, V-AMB-18 (L726-727): once for each other player's group, after your purchase and before the act's
    first scene, a trait (paid with the group's dice) and/or an aspect connected to your PC on one of its
    characters; a d4 story die from the bowl for each."""
    s, a = c.s, c.a
    need_phase(c, "build", "frame")
    if s.phase == "frame" and any(sc.act == s.act for sc in s.scenes):
        raise RuleViolation("V-60", "connections are made at act setup, before the act's first scene")
    if not s.players[a.player].built:
        raise RuleViolation("V-60", "connect your PC to a group after your purchase")
    k = s.components.get(a.member)
    g = next((x for x in s.groups if x.act == s.act and k is not None and k.id in x.members), None)
    if k is None or g is None:
        raise RuleViolation("V-60", "connect to a character of this act's groups")
    if g.owner == a.player:
        raise RuleViolation("V-60", "connections are made to other players' groups")
    if a.player in g.connected:
        raise RuleViolation("V-60", f"you have connected to {g.name} already: once for each other player")
    if a.trait is None and not a.aspect:
        raise RuleViolation("V-60", "add a trait, an aspect or both")
    traits = [a.trait] if a.trait is not None else []
    dice = G.connection_dice(len(s.seats) - 1, len(traits), int(bool(a.aspect)))
    if traits:
        if len(k.traits) >= COMPONENT_TRAITS[k.kind] or k.trait(traits[0].name) is not None:
            raise RuleViolation("V-14", f"{k.name} has no free trait slot for {traits[0].name}")
        if traits[0].size not in (4, 6, 8, 10):
            raise RuleViolation("V-10", "a trait bought at act setup is a d4 to d10")
        g.points_left = G.group_spend(g.points_left, "trait", [traits[0].size])
        k.traits.append(Trait(name=traits[0].name, size=traits[0].size))
    if a.aspect:
        G.check_member_aspects(k.kind, len(k.aspects) + 1)
        k.aspects.append(a.aspect)
    take_from_bowl(s, dice, "V-9")
    p = s.players[a.player]
    p.story = sorted(p.story + dice)
    g.connected.append(a.player)
    c.emit("connect", f"{a.player} connects their PC to {k.name} of {g.name}"
           + (f": {traits[0].name} d{traits[0].size}" if traits else "") + (f", '{a.aspect}'" if a.aspect else "")
           + f"; {len(dice)} d4 story dice", a.player)


def hand_out(c: Ctx) -> None:
    """V-60 (L732-733): in a scene without PCs each group's owner keeps the leader and hands its other members
    present out to the other players (in the initiative order), until the scene ends (control ends then)."""
    s = c.s
    sc = s.scene
    if sc is None or any(s.components[x].kind == "pc" for x in sc.present):
        return
    for g in (x for x in s.groups if x.act == s.act):
        here = [m for m in g.members if m in sc.present]
        if not here:
            continue
        others = [n for n in s.order if n != g.owner]
        leader = g.leader if g.leader in here else here[0]
        for cid, who in G.hand_out(here, leader, g.owner, others, pcs_present=False).items():
            if who != g.owner:
                s.components[cid].controller = who
                c.emit("hand_out", f"{who} plays {s.components[cid].name} of {g.name} this scene", g.owner)

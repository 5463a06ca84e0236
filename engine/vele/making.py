"""Components made or changed during an act: "The Thing You Need" (V-62, L213, L221), one-shots (V-21, L205),
the narrator's temporary and virtual components (V-22, L187, L249, L523), and modes (V-45, L421-427).

Why a module: making a component mid-act moves dice (the maker's story dice to the bowl, an ability's
dice from the bowl onto the sheet, as at the act's purchase) and may need the table's vote, so it is an
action of its own with its own checks. Registered on rules.HANDLERS when engine.vele.rules is imported.
"""
from __future__ import annotations

from engine.core.errors import RuleViolation
from engine.vele import actions as A
from engine.vele import economy as E
from engine.vele.adjudication import thing_you_need
from engine.vele.components import thing_without_component
from engine.vele.rules import (Ctx, advance_turn, check_component, current_turn, handles, make_component, need_phase,
                               player_of, require_narrator, take_from_bowl, to_bowl)
from engine.vele.tactics import announce_mode, attach_cost
from engine.vele.state import Component, GameState, Trait, Vote


def supported(s: GameState, player: str, traits: list[str]) -> bool:
    """V-62 (L221): a capability and a technique: two healthy traits of the maker's components in the scene."""
    sc = s.scene
    if sc is None or len(set(traits)) < 2:
        return False
    mine = [s.components[x] for x in sc.present if player_of(s, s.components[x]) == player and not s.components[x].out]
    healthy = {name for k in mine for name in k.healthy()}
    return set(traits) <= healthy


@handles(A.MakeComponent)
def make(c: Ctx) -> None:
    """V-62, V-21, V-15 (L213, L221, L205, L181): on your turn, a normal component paid from your story dice with a
    die of the same size as each trait; the first of the act is made at once, a later one needs a supporting
    capability and technique or goes to the table's vote on challenging it."""
    s, a = c.s, c.a
    need_phase(c, "scene")
    if a.player != current_turn(s):
        raise RuleViolation("V-25", f"you make a component on your turn; it is {current_turn(s)}'s")
    ci = a.component
    if ci.kind != "normal":
        raise RuleViolation("V-62", "during an act you make a normal component (or a one-shot), not a PC, a main "
                                    "component or minions")
    dice = check_component(ci, E.level(s.players[a.player].xp_earned))
    if sorted(a.paid) != sorted(dice):
        raise RuleViolation("V-15", f"{ci.name} is paid with a die of each trait's size (and its ability's dice): "
                                    + " ".join(f"d{d}" for d in sorted(dice)) + " (recombine first, V-11)")
    E.remove_dice(s.players[a.player].story, a.paid, "V-15", "your story dice")
    key = f"{a.player}@{s.act}"
    verdict = thing_you_need(s.made, key, supported(s, a.player, a.supported_by))
    if verdict != "challenge":
        create(c, a.player, ci, a.paid)
        return
    voters = [n for n in s.seats if n != a.player]
    c.emit("make_challenged", f"{a.player} makes {ci.name} again this act with no capability and technique to back "
                              "it: the table votes on challenging it (V-62)", a.player)
    s.vote = Vote(kind="challenge", subject=f"{a.player} makes {ci.name}", claimant=a.player, by=a.player,
                  voters=voters, claim={"what": "make", "component": ci.model_dump(), "paid": list(a.paid)})
    s.phase = "vote"


def create(c: Ctx, player: str, ci: A.ComponentIn, paid: list[int]) -> None:
    """The component joins the scene: the paid dice go to the bowl (spent, V-9), the ability's dice come from the
    bowl onto the sheet, as at the purchase; one more made this act (V-62)."""
    s = c.s
    p = s.players[player]
    p.story = E.remove_dice(p.story, paid, "V-15", "your story dice")
    to_bowl(s, paid)
    k = make_component(s, ci, player)
    take_from_bowl(s, list(k.allocated), "V-9")
    s.components[k.id] = k
    if s.scene is not None:
        s.scene.present.append(k.id)
    key = f"{player}@{s.act}"
    s.made[key] = s.made.get(key, 0) + 1
    c.emit("make", f"{player} makes {k.name}" + (" (a one-shot)" if k.one_shot else "") + ": "
           + ", ".join(f"{t.name} d{t.size}" for t in k.traits), player, component=k.id)


def settle_make(c: Ctx, carried: bool, opposed: int, n: int) -> None:
    """V-62, V-1: a challenge that carries stops the making (nothing is paid); otherwise the component is made."""
    s = c.s
    v = s.vote
    assert v is not None
    s.vote = None
    s.phase = "scene"
    if carried:
        c.emit("challenge_carries", f"{opposed} of {n} support the challenge: {v.claimant} must do something else")
        return
    c.emit("challenge_fails", f"{opposed} of {n} support the challenge, no majority: {v.claimant} goes on")
    create(c, v.claimant, A.ComponentIn.model_validate(v.claim["component"]), list(v.claim["paid"]))


@handles(A.MakeTemporary)
def make_temporary(c: Ctx) -> None:
    """V-22 (L187, L249, L523): during a scene the narrator makes a temporary component rated by dice the bowl
    holds (they stay there: it wagers bowl dice only), or, for a thing with no component, one whose default trait
    is a bowl d6 (no traits given), or a virtual one with no traits; present at once."""
    s, a = c.s, c.a
    need_phase(c, "scene", "narrator")
    require_narrator(c, "make a temporary or virtual component")
    sc = s.scene
    assert sc is not None
    if a.virtual and a.traits:
        raise RuleViolation("V-22", "a virtual component has no mechanics: no traits")
    traits = list(a.traits)
    if not a.virtual:
        if not traits:  # L523: the other choice for a thing with no component: a bowl d6 as its default trait
            traits = [A.TraitIn(name="Default", size=thing_without_component("default_trait")["trait"])]
        if len({t.name for t in traits}) != len(traits):
            raise RuleViolation("V-14", f"{a.name}: every trait needs its own name")
        sizes = [t.size for t in traits]
        if any(d not in E.SIZES for d in sizes):
            raise RuleViolation("V-AMB-2", "traits are d4 to d12")
        if not s.options.unlimited_bowl:
            E.remove_dice(s.bowl, sizes, "V-22", "the bowl")  # rated by bowl dice: the bowl must hold them
    s.counter += 1
    k = Component(id=f"c{s.counter}", name=a.name, owner=a.player, kind="normal",
                  traits=[Trait(name=t.name, size=t.size) for t in traits], temporary=not a.virtual,
                  virtual=a.virtual)
    s.components[k.id] = k
    sc.present.append(k.id)
    c.emit("make_temporary", f"{a.player} makes {'virtual' if a.virtual else 'temporary'} {k.name}"
           + (": " + ", ".join(f"{t.name} d{t.size}" for t in k.traits) if k.traits else "")
           + (f" ({a.text})" if a.text else ""), a.player, component=k.id)


@handles(A.SetMode)
def set_mode(c: Ctx) -> None:
    """V-45 (L421-427, L683-686): a component is announced integrated with (aiding) another of yours, or
    autonomous: on your turn, where it may not contradict what the unit already did this round
    (tactics.announce_mode), or by the narrator between rounds. Attaching or detaching takes the turn, or 1 XP
    of fate (tactics.attach_cost; one XP-funded fate use a scene, V-AMB-14)."""
    s, a = c.s, c.a
    need_phase(c, "scene", "narrator")
    between = s.phase == "narrator"
    if between and a.player != s.narrator:
        raise RuleViolation("V-45", f"between rounds only the narrator ({s.narrator}) announces modes")
    if not between and a.player != current_turn(s):
        raise RuleViolation("V-25", f"you change a mode on your turn; it is {current_turn(s)}'s")
    sc = s.scene
    assert sc is not None
    k = s.components.get(a.component)
    if k is None or player_of(s, k) != a.player or k.id not in sc.present or k.out:
        raise RuleViolation("V-45", "announce the mode of one of your components in the scene")
    if a.unit:
        u = s.components.get(a.unit)
        if u is None or player_of(s, u) != a.player or u.id not in sc.present or u.out or u.id == k.id or u.unit:
            raise RuleViolation("V-45", "a component integrates with another of yours in the scene that is not "
                                        "itself aiding another")
        unit = [u, k, *(x for x in s.components.values() if x.unit == u.id and x.id != k.id and not x.out)]
        focused = [x.name for x in unit if any(t.focus for t in x.traits)]
        if len(focused) > 1:  # V-17 (L191): one background for the unit, which may come to act as one (V-45)
            raise RuleViolation("V-17", f"only one component of an integrated unit may have a focus trait: "
                                        f"{' and '.join(focused)} both have one")
    if a.attach and not a.unit:
        raise RuleViolation("V-45", "a component attaches to another: name it")
    # V-44: it moves with it after (movement.attached_to); from version 4 an integrated one too (movement.check_aide)
    if (s.rules_version >= 3 and a.attach or s.rules_version >= 4 and a.unit) and sc.zone_of(k.id) != sc.zone_of(a.unit):
        raise RuleViolation("V-45", f"{k.name} is in {sc.zone_of(k.id)} and {s.components[a.unit].name} in "
                                    f"{sc.zone_of(a.unit)}: a component "
                                    + ("attaches to one beside it (L425)" if a.attach else
                                       "integrates with one beside it, as a close bodyguard with its subject (L421)")
                                    + "; move first")
    last = "integrated" if k.unit else "autonomous"
    new = "integrated" if a.unit else "autonomous"
    if k.unit == a.unit and k.attached == a.attach:
        raise RuleViolation("V-45", f"{k.name} is {last} already" + (" and attached" if k.attached else ""))
    unit = {k.id, k.unit, a.unit} - {""}
    struggled = not between and any(r.seq > s.round_seq and (r.actor in unit or r.opponent in unit) for r in s.records)
    announce_mode(last, new, [last] if struggled else [])  # type: ignore[arg-type]
    p = s.players[a.player]
    spent, takes_turn = 0, False
    if a.attach != k.attached:  # attaching or detaching takes time: a struggle's, or fate
        if between and not a.fate:
            raise RuleViolation("V-45", "between rounds there is no struggle's time to spend: attach with fate")
        if a.fate and p.fate_scene == sc.number:
            raise RuleViolation("V-AMB-14", "one XP-funded fate use per player per scene")
        spent = attach_cost("fate" if a.fate else "struggle", p.xp)
        takes_turn = not a.fate
    k.unit, k.attached = a.unit, a.attach
    c.emit("mode", f"{k.name} is {new}" + (f" with {s.components[a.unit].name}" if a.unit else "")
           + (" (attached)" if a.attach else "") + (" for 1 XP of fate" if spent else "")
           + (f": {a.text}" if a.text else ""), a.player)
    if spent:
        p.xp -= spent
        p.fate_scene = sc.number
    if takes_turn:
        advance_turn(s)  # attaching took the component's struggle

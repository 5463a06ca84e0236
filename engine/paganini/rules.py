"""Paganini's `apply`: one handler per action, each refusing with the rule that forbids it.

The flow (the book has no turn order outside combat, so the engine names one decision at a
time): the GM prepares an adventure and its NPCs; each player creates a character; the GM frames
scenes; in a scene each player with a conscious character takes a turn (an attempt the GM rules
on, or a pass) before the GM's turn (go on, end the scene, start a combat, call a passive check,
pass a day or a week). Combat runs in rounds: the GM's initiative call, the dice, then each slot
of the order acts (attack, another action, or hold); melee attacks wait for the defender's
defence; hits roll damage and then the Fitness roll.
"""
from __future__ import annotations

from typing import Callable, Sequence

from pydantic import BaseModel

from engine.core.errors import RuleViolation
from engine.core.inputs import action_from, registrar, seat_names, table_options
from engine.paganini import actions as A
from engine.paganini import combat as C
from engine.paganini.advancement import INTENSIVE_AP, WEEKLY_AP, Lot, may_buy, raise_cost
from engine.paganini.events import Event
from engine.paganini.ladder import (DIFFICULTY, DIFFICULTY_NAMES, MARGINAL_SUCCESS, TOP, dice_label, kept,
                                    pool_size, rung_name, tier, tier_name)
from engine.paganini.options import PaganiniOptions
from engine.paganini.sheet import check_attributes, check_skills, creation_default, untrained_level
from engine.paganini.state import (Adventure, Attack, Character, Check, Combat, GameState, Mod, Note, Pool, Scene,
                                   Seat, Skill, Weapon)

BARE_HANDS = Weapon(name="bare hands", quality=0, damage=-1, types=["blunt"], skill="Brawling")


class Ctx:
    def __init__(self, s: GameState, action: BaseModel) -> None:
        self.s = s
        self.a = action
        self.events: list[Event] = []

    def emit(self, kind: str, text: str, who: str = "", **data) -> None:
        self.events.append(Event(seq=self.s.seq, kind=kind, player=who, text=text, data=data))


HANDLERS: dict[str, Callable[[Ctx], None]] = {}
handles = registrar(HANDLERS)


# --- entry points ----------------------------------------------------------------------------------------
def new_game(seats: Sequence[tuple[str, str]], options: PaganiniOptions | dict | None = None) -> GameState:
    """A game waiting for the GM's adventure: one GM and at least one player (@1779: at least two people)."""
    names, roles = seat_names(seats, "P-SEAT")
    if roles.count("gm") != 1 or roles.count("player") < 1 or any(r not in ("gm", "player") for r in roles):
        raise RuleViolation("P-SEAT", "Paganini needs exactly one Game Master and at least one player (@1779)")
    opts = table_options(PaganiniOptions, options, "P-OPT")
    return GameState(options=opts, seats=[Seat(name=n, role=r) for n, r in zip(names, roles)])  # type: ignore[arg-type]


def apply(state: GameState, action: BaseModel | dict) -> tuple[GameState, list[Event]]:
    action = action_from(A.parse_action, action, "P-INPUT")
    name = getattr(action, "player", "")
    if not isinstance(action, A.RollDice) and name not in {x.name for x in state.seats}:
        raise RuleViolation("P-SEAT", f"{name!r} is not a seat at this table")
    if state.phase == "over":
        raise RuleViolation("P-END", "the adventure is over")
    s = fork(state)
    s.seq += 1
    c = Ctx(s, action)
    HANDLERS[action.type](c)  # type: ignore[attr-defined]
    return c.s, c.events


def fork(state: GameState) -> GameState:
    """A copy `apply` may change without touching `state`. Why not a deep copy: the log's notes and
    settled rolls only ever grow (their items are never changed once written) and ended scenes stay
    as they were, so sharing them is safe and keeps `apply` from slowing as the story grows; all
    else a handler may change is copied deeply."""
    s = state.model_copy()
    s.characters = {k: v.model_copy(deep=True) for k, v in state.characters.items()}
    s.scenes = list(state.scenes[:-1]) + [x.model_copy(deep=True) for x in state.scenes[-1:]]
    s.notes = list(state.notes)
    s.checks = list(state.checks)
    s.check = state.check.model_copy(deep=True) if state.check is not None else None
    s.combat = state.combat.model_copy(deep=True) if state.combat is not None else None
    s.adventure = state.adventure.model_copy(deep=True) if state.adventure is not None else None
    s.seats = list(state.seats)
    return s


# --- who may act -----------------------------------------------------------------------------------------
def expected(s: GameState) -> tuple[str, str]:
    """(decision kind, seat) the game waits for; the dice are the seat 'dice'."""
    from engine.paganini.decisions import pending
    p = pending(s)
    return p.kind, (p.seats[0] if p.seats else "")


def require(c: Ctx, kinds: tuple[str, ...], doing: str) -> None:
    kind, seat = expected(c.s)
    who = getattr(c.a, "player", "dice")
    if kind not in kinds:
        raise RuleViolation("P-TURN", f"{doing} is not possible now: the game waits for {kind.replace('_', ' ')}"
                                      f"{' by ' + seat if seat and seat != 'dice' else ''}")
    if seat != who:
        raise RuleViolation("P-TURN", f"{doing} is {seat}'s to do now, not {who}'s")


def character(s: GameState, cid: str, rule: str = "P-3") -> Character:
    ch = s.characters.get(cid)
    if ch is None:
        raise RuleViolation(rule, f"there is no character {cid!r}")
    return ch


def new_id(s: GameState, prefix: str) -> str:
    s.counter += 1
    return f"{prefix}{s.counter}"


def adventure_id(s: GameState) -> str | None:
    return s.adventure.id if s.adventure is not None and s.phase == "play" else None


def record_use(s: GameState, ch: Character, skill: str | None) -> None:
    """P-11 (@12842): the skills a character used in this adventure may take its points."""
    adv = adventure_id(s)
    if adv is None or not skill:
        return
    used = ch.used.setdefault(adv, [])
    if skill not in used:
        used.append(skill)


# --- dice pools --------------------------------------------------------------------------------------------
def attribute_mod(s: GameState, ch: Character, attribute: str, rule: str = "P-3") -> Mod:
    if attribute not in s.attribute_names():
        raise RuleViolation(rule, f"{attribute!r} is not an attribute here (the attributes are "
                                  f"{', '.join(s.attribute_names())})")
    return Mod(name=attribute, dice=ch.attributes.get(attribute, 0))


def skill_mod(ch: Character, skill: str | None, kind: str | None = None, rule: str = "P-7") -> Mod | None:
    """The skill's dice; an unlisted skill at its untrained level; a Special skill never untrained (P-7)."""
    if not skill:
        return None
    if skill in ch.skills:
        return Mod(name=skill, dice=ch.skills[skill].level)
    if kind is None:
        raise RuleViolation(rule, f"{skill} is not on {ch.name}'s sheet: the GM must say whether it is a General, "
                                  "Experience or Special skill (@8000)")
    level = untrained_level(kind)
    if level is None:
        raise RuleViolation("P-7", f"{ch.name} has no training in {skill}, a Special skill: it cannot be used "
                                   "untrained (@6966)")
    return Mod(name=f"{skill} (untrained {kind})", dice=level)


def wound_mod(ch: Character) -> list[Mod]:
    """P-17 (@19339): the wound level's penalty on every roll the character makes."""
    pen = C.wound_penalty(ch.wounds)
    return [Mod(name=f"wounds ({C.wound_name(ch.wounds)})", dice=pen)] if pen else []


def pool(key: str, who: str, label: str, parts: list[Mod]) -> Pool:
    return Pool(key=key, who=who, label=label, parts=[m for m in parts if m.dice or m.name])


def awaiting(s: GameState) -> list[Pool]:
    """Every pool that waits for faces now, in the order asked."""
    if s.check is not None and s.check.stage == "roll":
        return [p for p in s.check.pools if not p.faces]
    k = s.combat
    if k is None:
        return []
    if k.stage == "initiative_roll":
        return [p for p in k.init if not p.faces]
    if k.stage == "initiative_extra":
        return [p for p in k.extra if not p.faces]
    a = k.attack
    if a is None:
        return []
    if a.stage == "roll":
        return [p for p in (a.attack, a.defence) if p is not None and not p.faces]
    if a.stage == "damage" and a.damage is not None:
        return [a.damage]
    if a.stage == "fitness" and a.fitness is not None:
        return [a.fitness]
    return []


def settle_pool(s: GameState, p: Pool, faces: list[int], what: str) -> None:
    if len(faces) != pool_size(p.net):
        raise RuleViolation("P-2", f"{p.label} is a {dice_label(p.net)} pool: roll {pool_size(p.net)} d20, "
                                   f"not {len(faces)}")
    for f in faces:
        if not isinstance(f, int) or not 1 <= f <= 20:
            raise RuleViolation("P-2", f"a d20 cannot show {f!r}")
    p.faces = list(faces)
    p.kept = kept(faces, p.net)
    p.tier = tier(p.kept)
    s.checks.append({"what": what, "n": p.net, "kept": p.kept, "tier": p.tier})


def pool_text(p: Pool) -> str:
    return (f"{p.label}: {dice_label(p.net)} -> {p.faces} keeps {p.kept}, {tier_name(p.tier or 0)}"
            if p.kept is not None else f"{p.label}: {dice_label(p.net)}")


# --- set-up ------------------------------------------------------------------------------------------------
def build(s: GameState, sheet: A.SheetIn, cid: str, seat: str, npc: bool) -> Character:
    """A character from a written sheet, checked against creation's budgets (P-9, P-10)."""
    names = s.attribute_names()
    unknown = [n for n in sheet.attributes if n not in names]
    if unknown:
        raise RuleViolation("P-9", f"{', '.join(unknown)} is not an attribute at this table "
                                   f"({', '.join(names)})")
    attrs = {n: sheet.attributes.get(n, 0) for n in names}
    seen: set[str] = set()
    for sk in sheet.skills:
        if sk.name in seen:
            raise RuleViolation("P-10", f"{sk.name} is on the sheet twice")
        seen.add(sk.name)
    for w in sheet.weapons:
        for attr in w.requires:
            if attr not in names:
                raise RuleViolation("P-20", f"the {w.name} requires {attr}, which is not an attribute here")
    for dtype, v in sheet.armour.ratings.items():
        if not 0 <= v <= 4:
            raise RuleViolation("P-19", f"{sheet.armour.name} rated {v} against {dtype}: armour is rated like a trait, "
                                        "0 to +4 HD (@20069)")
    if not s.options.scale and any(sheet.scale.values()):
        raise RuleViolation("P-8", "scale rules are not in use at this table: every scale counts as 0 (@10496)")
    if not (npc and s.options.waive_npc_validation):
        check_attributes(attrs, s.options.free_attribute_levels, names)
        check_skills({sk.name: (sk.kind, sk.level) for sk in sheet.skills}, s.options.extra_free_skill_levels)
    else:
        for sk in sheet.skills:
            if sk.kind != "general" and sk.level < creation_default(sk.kind):
                raise RuleViolation("P-10", f"{sk.name} cannot start below Terrible")
    return Character(id=cid, seat=seat, npc=npc, name=sheet.name.strip(), concept=sheet.concept,
                     description=sheet.description, attributes=attrs,
                     skills={sk.name: Skill(kind=sk.kind, level=sk.level) for sk in sheet.skills},
                     scale=dict(sheet.scale), weapons=list(sheet.weapons), armour=sheet.armour, shield=sheet.shield)


def taken_name(s: GameState, name: str) -> None:
    if any(ch.name.lower() == name.strip().lower() for ch in s.characters.values()):
        raise RuleViolation("P-9", f"there is already a character called {name.strip()}")


@handles(A.PrepareAdventure)
def prepare_adventure(c: Ctx) -> None:
    require(c, ("prepare_adventure",), "preparing the adventure")
    a: A.PrepareAdventure = c.a  # type: ignore[assignment]
    if a.designated_skill and not a.time_consuming:
        raise RuleViolation("P-11", "only a time-consuming adventure has GM-designated points (@14378)")
    c.s.adventure = Adventure(title=a.title, situation=a.situation, places=[p for p in a.places if p.strip()],
                              time_consuming=a.time_consuming, designated=a.designated_skill)
    c.s.phase = "characters"
    c.s.notes.append(Note(id=new_id(c.s, "n"), text=a.situation, by=a.player, seq=c.s.seq, kind="situation"))
    c.emit("adventure", f"The adventure: {a.title}. {a.situation}", a.player)


@handles(A.AddOpponent)
def add_opponent(c: Ctx) -> None:
    require(c, ("prepare_adventure", "frame_scene", "gm_turn"), "adding an NPC")
    a: A.AddOpponent = c.a  # type: ignore[assignment]
    taken_name(c.s, a.sheet.name)
    cid = new_id(c.s, "npc")
    c.s.characters[cid] = build(c.s, a.sheet, cid, a.player, npc=True)
    c.emit("opponent", f"{a.sheet.name} enters the adventure" + (f", {a.sheet.concept}" if a.sheet.concept else ""),
           a.player, id=cid)


@handles(A.CreateCharacter)
def create_character(c: Ctx) -> None:
    require(c, ("create_character",), "creating a character")
    a: A.CreateCharacter = c.a  # type: ignore[assignment]
    if a.player in c.s.characters:
        raise RuleViolation("P-9", "you already have a character")
    taken_name(c.s, a.sheet.name)
    c.s.characters[a.player] = build(c.s, a.sheet, a.player, a.player, npc=False)
    c.emit("character", f"{a.sheet.name}" + (f", {a.sheet.concept}" if a.sheet.concept else "") + ", joins",
           a.player)
    if all(p in c.s.characters for p in c.s.players):
        c.s.phase = "play"


# --- scenes ------------------------------------------------------------------------------------------------
@handles(A.FrameScene)
def frame_scene(c: Ctx) -> None:
    require(c, ("frame_scene",), "framing a scene")
    a: A.FrameScene = c.a  # type: ignore[assignment]
    for cid in a.present:
        ch = character(c.s, cid, "P-SCENE")
        if not ch.npc:
            raise RuleViolation("P-SCENE", f"{ch.name} is a player's character; the players' characters are always "
                                           "in the story")
    sc = Scene(number=len(c.s.scenes) + 1, place=a.place.strip(), text=a.text.strip(), present=list(a.present))
    c.s.scenes.append(sc)
    c.s.notes.append(Note(id=new_id(c.s, "n"), text=f"{sc.place}: {sc.text}", by=a.player, seq=c.s.seq,
                          scene=sc.number, kind="scene"))
    c.emit("scene", f"Scene {sc.number}, {sc.place}: {sc.text}", a.player)


@handles(A.ContinueScene)
def continue_scene(c: Ctx) -> None:
    require(c, ("gm_turn",), "going on with the scene")
    sc = c.s.scene()
    assert sc is not None
    sc.round += 1
    c.emit("continue", c.a.text or "The scene goes on.", c.a.player)  # type: ignore[attr-defined]


@handles(A.EndScene)
def end_scene(c: Ctx) -> None:
    require(c, ("gm_turn",), "ending the scene")
    sc = c.s.scene()
    assert sc is not None
    sc.ended = True
    c.emit("end_scene", c.a.text or f"Scene {sc.number} ends.", c.a.player)  # type: ignore[attr-defined]


@handles(A.PassTurn)
def pass_turn(c: Ctx) -> None:
    require(c, ("turn",), "passing")
    end_turn(c.s, c.a.player)  # type: ignore[attr-defined]
    ch = c.s.characters[c.a.player]  # type: ignore[attr-defined]
    c.emit("pass", c.a.text or f"{ch.name} waits.", c.a.player)  # type: ignore[attr-defined]


def end_turn(s: GameState, seat: str) -> None:
    sc = s.scene()
    if sc is not None:
        sc.turns[seat] = sc.turns.get(seat, 0) + 1


# --- checks ------------------------------------------------------------------------------------------------
@handles(A.Attempt)
def attempt(c: Ctx) -> None:
    a: A.Attempt = c.a  # type: ignore[assignment]
    s = c.s
    if s.combat is not None:
        require(c, ("combat_turn",), "acting")
        actor = current_actor(s)
        if a.actor not in (None, actor):
            raise RuleViolation("P-13", f"it is {character(s, actor or '').name}'s turn in the initiative order")
        cid = actor or ""
        drop_long(c, cid)
    else:
        require(c, ("turn",), "attempting an action")
        cid = a.player
    ch = character(s, cid)
    attribute_mod(s, ch, a.attribute)
    if a.skill and a.skill not in ch.skills and a.skill_kind == "special":
        raise RuleViolation("P-7", f"{ch.name} has no training in {a.skill}, a Special skill: it cannot be used "
                                   "untrained (@6966)")
    if a.against is not None:
        opp = character(s, a.against, "P-6")
        if opp.id == cid:
            raise RuleViolation("P-6", "a character cannot oppose itself")
        if not opp.able():
            raise RuleViolation("P-6", f"{opp.name} is in no state to oppose anything")
    s.check = Check(id=new_id(s, "c"), kind="opposed" if a.against else "check", actor=cid, seat=a.player,
                    intent=a.intent.strip(), attribute=a.attribute, skill=a.skill, skill_kind=a.skill_kind,
                    opponent=a.against, in_combat=s.combat is not None)
    c.emit("attempt", a.intent.strip(), a.player, actor=cid)


@handles(A.CallCheck)
def call_check(c: Ctx) -> None:
    require(c, ("call_check",), "ruling on the check")
    a: A.CallCheck = c.a  # type: ignore[assignment]
    s = c.s
    k = s.check
    assert k is not None
    ch = character(s, k.actor)
    if a.refuse:
        c.emit("refused", a.reason or f"{ch.name} cannot attempt that.", a.player)
        done_check(c, acted=False)
        return
    if not a.roll:
        k.stage, k.success, k.outcome = "narrate", True, "no roll: the outcome is not in doubt"
        k.narrator = k.seat
        c.emit("ruling", f"No roll needed: {k.intent}" + (f" ({a.reason})" if a.reason else ""), a.player)
        return
    kind = a.skill_kind or k.skill_kind
    parts = [attribute_mod(s, ch, k.attribute)]
    sm = skill_mod(ch, k.skill, kind)
    if sm is not None:
        parts.append(sm)
    parts.append(Mod(name=f"difficulty {DIFFICULTY_NAMES[a.difficulty]}", dice=DIFFICULTY[a.difficulty]))
    parts += [Mod(name=m.name, dice=m.dice) for m in a.mods] + wound_mod(ch)
    pools = [pool(ch.id, ch.id, f"{ch.name}'s {k.skill or k.attribute}", parts)]
    if k.opponent is not None:
        opp = character(s, k.opponent)
        oparts = [attribute_mod(s, opp, a.opposed_attribute or k.attribute)]
        osm = skill_mod(opp, a.opposed_skill, a.opposed_skill_kind)
        if osm is not None:
            oparts.append(osm)
        oparts += wound_mod(opp)
        opool = pool(opp.id, opp.id, f"{opp.name}'s {a.opposed_skill or a.opposed_attribute or k.attribute}", oparts)
        if a.scale_ability and s.options.scale:
            scale_part = C.scale_dice(ch.scale.get(a.scale_ability, ch.size()),
                                      opp.scale.get(a.scale_ability, opp.size()), "contest")  # P-8
            if scale_part:
                bigger, smaller = (pools[0], opool) if scale_part > 0 else (opool, pools[0])
                target, dice = (bigger, abs(scale_part)) if a.scale_to == "larger" else (smaller, -abs(scale_part))
                target.parts.append(Mod(name=f"scale ({a.scale_ability})", dice=dice))
        pools.append(opool)
        record_use(s, opp, a.opposed_skill)
    record_use(s, ch, k.skill)
    k.pools, k.stage, k.difficulty = pools, "roll", a.difficulty
    c.emit("ruling", f"{DIFFICULTY_NAMES[a.difficulty]}: " + "; ".join(pool_text(p) for p in pools)
           + (f" ({a.reason})" if a.reason else ""), a.player)
    if a.rounds > 1:
        if not k.in_combat or s.combat is None:
            raise RuleViolation("P-13", "only in combat is a long action kept up over rounds")
        k.rounds_left = a.rounds - 1  # this turn and the next rounds-1 turns of the actor (P-13, @17100)
        s.combat.long[k.actor] = k
        s.check = None
        c.emit("long", f"{ch.name} must keep it up for {a.rounds - 1} more round(s) before it is decided", a.player)
        finish_actor(c, k.actor)


@handles(A.PassiveCheck)
def passive_check(c: Ctx) -> None:
    require(c, ("gm_turn",), "calling a passive check")
    a: A.PassiveCheck = c.a  # type: ignore[assignment]
    s = c.s
    pools = []
    for cid in dict.fromkeys(a.who):
        ch = character(s, cid, "P-6")
        if not ch.able():
            continue
        parts = [attribute_mod(s, ch, a.attribute, "P-6")]
        sm = skill_mod(ch, a.skill, a.skill_kind, "P-6")
        if sm is not None:
            parts.append(sm)
        parts.append(Mod(name=f"difficulty {DIFFICULTY_NAMES[a.difficulty]}", dice=DIFFICULTY[a.difficulty]))
        parts += [Mod(name=m.name, dice=m.dice) for m in a.mods] + wound_mod(ch)
        pools.append(pool(ch.id, ch.id, f"{ch.name}'s {a.skill or a.attribute}", parts))
        record_use(s, ch, a.skill if a.skill in ch.skills else None)
    if not pools:
        raise RuleViolation("P-6", "nobody named is awake to roll")
    s.check = Check(id=new_id(s, "c"), kind="passive", seat=a.player, intent=a.intent, attribute=a.attribute,
                    skill=a.skill, stage="roll", difficulty=a.difficulty, pools=pools)
    c.emit("passive", f"{a.intent} ({DIFFICULTY_NAMES[a.difficulty]})", a.player)


def settle_check(c: Ctx) -> None:
    """After the dice: success (P-5), the higher result favoured (P-6), ties by P-AMB-4."""
    s, k = c.s, c.s.check
    assert k is not None
    lines = [pool_text(p) for p in k.pools]
    if k.kind == "passive":
        k.stage, k.narrator = "narrate", s.gm
        k.outcome = "; ".join(f"{character(s, p.who).name} {'succeeds' if (p.tier or 0) >= MARGINAL_SUCCESS else 'fails'}"
                              for p in k.pools)
        k.success = any((p.tier or 0) >= MARGINAL_SUCCESS for p in k.pools)
    elif k.kind == "opposed":
        mine, theirs = k.pools
        if mine.kept == theirs.kept and s.options.reroll_ties:
            c.emit("roll", "; ".join(lines) + ": a tie, both roll again (re-roll ties option)")
            for p in k.pools:
                p.faces, p.kept, p.tier = [], None, None
            return
        k.success = (mine.kept or 0) > (theirs.kept or 0)
        k.outcome = (f"{tier_name(mine.tier or 0)} against {tier_name(theirs.tier or 0)}: "
                     + ("favoured" if k.success else "a tie: things stay as they were" if mine.kept == theirs.kept
                        else "the other side is favoured"))
        k.stage = "narrate"
        k.narrator = k.seat if k.success else s.gm
    else:
        p = k.pools[0]
        k.success = (p.tier or 0) >= MARGINAL_SUCCESS
        k.outcome = tier_name(p.tier or 0)
        k.stage = "narrate"
        k.narrator = k.seat if k.success else s.gm
    c.emit("roll", "; ".join(lines) + f" -> {k.outcome}", "", tiers=[p.tier for p in k.pools])


def done_check(c: Ctx, acted: bool = True) -> None:
    s, k = c.s, c.s.check
    assert k is not None
    s.check = None
    if k.in_combat:
        if acted:
            finish_actor(c, k.actor)
    elif k.kind != "passive" and acted:
        end_turn(s, k.seat)


@handles(A.Narrate)
def narrate(c: Ctx) -> None:
    require(c, ("narrate", "narrate_attack"), "narrating")
    a: A.Narrate = c.a  # type: ignore[assignment]
    s = c.s
    sc = s.scene()
    if s.check is not None:
        k = s.check
        s.notes.append(Note(id=new_id(s, "n"), text=a.text.strip(), by=a.player, seq=s.seq,
                            scene=sc.number if sc else 0, subject=k.actor or None))
        c.emit("outcome", a.text.strip(), a.player)
        done_check(c)
        return
    assert s.combat is not None and s.combat.attack is not None
    at = s.combat.attack
    s.notes.append(Note(id=new_id(s, "n"), text=a.text.strip(), by=a.player, seq=s.seq, scene=sc.number if sc else 0,
                        subject=at.target, kind="combat"))
    c.emit("outcome", a.text.strip(), a.player)
    s.combat.attack = None
    finish_actor(c, at.attacker)


# --- dice --------------------------------------------------------------------------------------------------
@handles(A.RollDice)
def roll_dice(c: Ctx) -> None:
    s = c.s
    pools = awaiting(s)
    if not pools:
        raise RuleViolation("P-2", "no dice are asked for now")
    a: A.RollDice = c.a  # type: ignore[assignment]
    wanted = {p.key for p in pools}
    if set(a.faces) != wanted:
        raise RuleViolation("P-2", f"the dice asked for are {', '.join(sorted(wanted))}, "
                                   f"not {', '.join(sorted(a.faces)) or 'none'}")
    for p in pools:
        settle_pool(s, p, a.faces[p.key], p.label)
    if s.check is not None:
        settle_check(c)
        return
    k = s.combat
    assert k is not None
    if k.stage in ("initiative_roll", "initiative_extra"):
        settle_initiative(c)
        return
    assert k.attack is not None
    {"roll": settle_attack, "damage": settle_damage, "fitness": settle_fitness}[k.attack.stage](c)


# --- combat ------------------------------------------------------------------------------------------------
def side(ch: Character) -> str:
    return "npc" if ch.npc else "pc"


@handles(A.StartCombat)
def start_combat(c: Ctx) -> None:
    require(c, ("gm_turn",), "starting a combat")
    a: A.StartCombat = c.a  # type: ignore[assignment]
    ids = list(dict.fromkeys(a.combatants))
    chars = [character(c.s, i, "P-13") for i in ids]
    for ch in chars:
        if not ch.able():
            raise RuleViolation("P-13", f"{ch.name} is in no state to fight")
    if len({side(ch) for ch in chars}) < 2:
        raise RuleViolation("P-13", "a combat needs someone on each side")
    c.s.combat = Combat(combatants=ids)
    c.emit("combat", a.text or "Combat begins: " + ", ".join(ch.name for ch in chars), a.player)


@handles(A.Initiative)
def initiative(c: Ctx) -> None:
    require(c, ("initiative",), "calling initiative")
    a: A.Initiative = c.a  # type: ignore[assignment]
    s, k = c.s, c.s.combat
    assert k is not None
    fixed = s.options.initiative_attribute
    if fixed and a.attribute != fixed:
        raise RuleViolation("P-13", f"this campaign rolls initiative with {fixed} (table option)")
    pools = []
    for cid in k.combatants:
        ch = s.characters[cid]
        if not ch.able():
            continue
        parts = [Mod(name=a.attribute, dice=ch.attributes.get(a.attribute, 0))]
        sk = a.skills.get(cid)
        if sk:
            if sk not in ch.skills:
                raise RuleViolation("P-13", f"{ch.name} has no {sk} on the sheet to roll for initiative")
            parts.append(Mod(name=sk, dice=ch.skills[sk].level))
            record_use(s, ch, sk)
        if a.mods.get(cid):
            parts.append(Mod(name="GM's modifier", dice=a.mods[cid]))
        if ch.dazed:
            parts.append(Mod(name="dazed", dice=-1))
            ch.dazed = False
        parts += wound_mod(ch)
        pools.append(pool(cid, cid, f"{ch.name}'s initiative", parts))
    k.attribute, k.init, k.extra, k.stage = a.attribute, pools, [], "initiative_roll"
    c.emit("initiative", f"Round {k.round}: initiative on {a.attribute}", a.player)


def settle_initiative(c: Ctx) -> None:
    s, k = c.s, c.s.combat
    assert k is not None
    if k.stage == "initiative_roll":
        crits = [p for p in k.init if p.kept == 20]
        if crits:  # P-13 (@16446): a Critical Success rolls once more and acts twice; one extra at most (P-AMB-7)
            k.extra = [Pool(key=f"{p.key}+", who=p.who, label=f"{p.label} (extra)", parts=list(p.parts)) for p in crits]
            k.stage = "initiative_extra"
            c.emit("roll", "; ".join(pool_text(p) for p in k.init) + "; a Critical Success rolls again")
            return
    extra = {p.who: p.kept for p in k.extra}
    rolls = [C.InitRoll(p.who, p.kept or 1, extra.get(p.who)) for p in k.init]
    k.slots = C.initiative_slots(rolls)
    k.slot, k.acted, k.defences, k.stage = 0, [], {}, "turns"
    order = " | ".join(" & ".join(s.characters[w].name for w in slot) for slot in k.slots)
    c.emit("order", f"Order: {order}", "", slots=k.slots)
    skip_empty(c)


def slot_members(s: GameState) -> list[str]:
    k = s.combat
    assert k is not None
    return k.slots[k.slot] if k.slot < len(k.slots) else []


def current_actor(s: GameState) -> str | None:
    """The next combatant of the current slot who has not acted. Characters in one slot act
    simultaneously (@16385): one knocked out earlier in the same slot still acts."""
    k = s.combat
    if k is None or k.stage != "turns":
        return None
    members = slot_members(s)
    acted = list(k.acted)
    for who in members:
        if who in acted:
            acted.remove(who)
            continue
        return who
    return None


def finish_actor(c: Ctx, who: str) -> None:
    s, k = c.s, c.s.combat
    assert k is not None
    k.acted.append(who)
    if current_actor(s) is not None:
        return  # the slot acts simultaneously: its members act even if one falls meanwhile (@16385)
    if side_down(c):
        return
    k.slot += 1
    k.acted = []
    skip_empty(c)


def able_at_slot(s: GameState, who: str) -> bool:
    return s.characters[who].able()


def skip_empty(c: Ctx) -> None:
    """Move past slots whose members cannot act (knocked out before their slot began)."""
    s, k = c.s, c.s.combat
    assert k is not None
    while k.slot < len(k.slots):
        members = slot_members(s)
        if not k.acted:  # a slot starts: who is down now does not act in it
            live = [w for w in members if able_at_slot(s, w)]
            k.slots[k.slot] = live
            members = live
        if current_actor(s) is not None:
            return
        k.slot += 1
        k.acted = []
    k.stage = "round_end"


def side_down(c: Ctx) -> bool:
    """A combat ends by itself once one side has nobody able to fight."""
    s, k = c.s, c.s.combat
    assert k is not None
    sides = {"pc": 0, "npc": 0}
    for cid in k.combatants:
        ch = s.characters[cid]
        sides[side(ch)] += ch.able()
    if sides["pc"] and sides["npc"]:
        return False
    winners = "the player characters" if sides["pc"] else "their foes" if sides["npc"] else "nobody"
    s.combat = None
    c.emit("end_combat", f"The fight is over: {winners} still stand.", "")
    return True


@handles(A.Hold)
def hold(c: Ctx) -> None:
    require(c, ("combat_turn",), "holding")
    a: A.Hold = c.a  # type: ignore[assignment]
    who = current_actor(c.s)
    if a.actor != who:
        raise RuleViolation("P-13", f"it is {c.s.characters[who or ''].name}'s turn in the initiative order")
    k = c.s.combat
    assert k is not None
    kept_up = k.long.get(a.actor)
    if kept_up is not None:  # holding keeps a long action up; its last round rolls it (P-13)
        kept_up.rounds_left -= 1
        c.emit("hold", a.text or f"{c.s.characters[a.actor].name} keeps at it.", a.player)
        if kept_up.rounds_left <= 0:
            del k.long[a.actor]
            c.s.check = kept_up
        else:
            finish_actor(c, a.actor)
        return
    c.emit("hold", a.text or f"{c.s.characters[a.actor].name} holds.", a.player)
    finish_actor(c, a.actor)


def drop_long(c: Ctx, actor: str) -> None:
    """Doing anything else breaks off a long action being kept up (P-13)."""
    k = c.s.combat
    if k is not None and actor in k.long:
        del k.long[actor]
        c.emit("long", f"{c.s.characters[actor].name} breaks off what they were keeping up")


@handles(A.NextRound)
def next_round(c: Ctx) -> None:
    require(c, ("round_end",), "starting the next round")
    k = c.s.combat
    assert k is not None
    k.round += 1
    k.stage, k.init, k.extra, k.slots, k.slot, k.acted, k.defences = "initiative", [], [], [], 0, [], {}
    c.emit("round", f"Round {k.round}", c.a.player)  # type: ignore[attr-defined]


@handles(A.EndCombat)
def end_combat(c: Ctx) -> None:
    require(c, ("round_end",), "ending the combat")
    c.s.combat = None
    c.emit("end_combat", c.a.text or "The fight breaks off.", c.a.player)  # type: ignore[attr-defined]


def weapon_of(ch: Character, name: str) -> Weapon:
    for w in ch.weapons:
        if w.name == name:
            return w
    if name == BARE_HANDS.name:
        return BARE_HANDS
    raise RuleViolation("P-16", f"{ch.name} carries no {name}")


def combat_skill(ch: Character, skill: str | None, kind: str = "experience") -> Mod | None:
    """An attack or defence skill; one not on the sheet is used at its untrained level, as an
    Experience skill (Terrible) unless the action says another type (the GM's call, @7600)."""
    if not skill:
        return None
    return skill_mod(ch, skill, kind)


@handles(A.AttackAction)
def attack(c: Ctx) -> None:
    require(c, ("combat_turn",), "attacking")
    a: A.AttackAction = c.a  # type: ignore[assignment]
    s, k = c.s, c.s.combat
    assert k is not None
    who = current_actor(s)
    if a.actor != who:
        raise RuleViolation("P-13", f"it is {s.characters[who or ''].name}'s turn in the initiative order")
    att = s.characters[a.actor]
    drop_long(c, a.actor)
    if a.target not in k.combatants:
        raise RuleViolation("P-14", f"{a.target} is not in this fight")
    tgt = s.characters[a.target]
    if tgt.id == att.id:
        raise RuleViolation("P-14", "a character cannot attack itself")
    if not tgt.able():
        raise RuleViolation("P-14", f"{tgt.name} is already down")
    w = weapon_of(att, a.weapon)
    for attr, need in w.requires.items():
        if att.attributes.get(attr, 0) < need:
            raise RuleViolation("P-20", f"the {w.name} needs {rung_name(need)} {attr}; {att.name} has "
                                        f"{rung_name(att.attributes.get(attr, 0))} (@22431)")
    ranged = w.mode != "melee"
    if ranged and a.range is None:
        raise RuleViolation("P-20", f"a shot with the {w.name} needs a range: short, medium, long or extra long")
    if not ranged and (a.range or a.ranged_mods or a.hard_cover or a.soft_cover):
        raise RuleViolation("P-16", f"the {w.name} is a melee weapon: range and cover belong to ranged attacks")
    if ranged and a.melee_mods:
        raise RuleViolation("P-20", "melee modifiers do not apply to a ranged attack")
    if ranged and a.scale_on == "defender" and s.options.scale:
        raise RuleViolation("P-8", "a ranged attack has no defence roll: its scale dice go on the attacker's roll")
    dtype = a.damage_type or w.types[0]
    if dtype not in w.types:
        raise RuleViolation("P-19", f"the {w.name} deals {', '.join(w.types)} damage, not {dtype}")
    skill = a.skill or w.skill or None
    attribute = a.attribute or ("Focus" if w.mode == "fired" else "Coordination")
    parts = [attribute_mod(s, att, attribute, "P-14")]
    sm = combat_skill(att, skill, a.skill_kind)
    if sm is not None:
        parts.append(sm)
    if w.quality:
        parts.append(Mod(name=f"{w.name} Quality", dice=w.quality))
    for m in a.melee_mods:
        if m == "vulnerable_direction" and s.options.vulnerable_on_defender:
            continue
        parts.append(Mod(name=m.replace("_", " "), dice=C.MELEE_MODS[m]))
    if ranged:
        rng = a.range or "medium"
        parts.append(Mod(name=f"{rng.replace('_', ' ')} range", dice=C.RANGES[rng]))
        parts += [Mod(name=m.replace("_", " "), dice=C.RANGED_MODS[m]) for m in a.ranged_mods]
        cov = C.cover_dice(a.hard_cover, a.soft_cover, s.options.cover_cap)
        if cov:
            parts.append(Mod(name="cover", dice=cov))
    if a.situation:
        parts.append(Mod(name="situation", dice=a.situation))
    if a.manoeuvre:
        parts.append(Mod(name="manoeuvre", dice=a.manoeuvre))
    to_hit = C.scale_dice(att.size(), tgt.size(), "to_hit") if s.options.scale else 0
    if to_hit and a.scale_on == "attacker":
        parts.append(Mod(name="scale", dice=to_hit))
    parts += wound_mod(att)
    record_use(s, att, skill)
    at = Attack(attacker=att.id, target=tgt.id, weapon=w.name, ranged=ranged, damage_type=dtype,
                attack=pool("attack", att.id, f"{att.name}'s attack", parts))
    if to_hit and a.scale_on == "defender":
        at.defence_parts.append(Mod(name="scale", dice=-to_hit))  # one side only, never both (@11567)
    if "vulnerable_direction" in a.melee_mods and s.options.vulnerable_on_defender:
        at.defence_parts.append(Mod(name="vulnerable direction", dice=-1))
    at.stage = "roll" if ranged else "defend"
    k.attack = at
    c.emit("attack", a.intent or f"{att.name} {'shoots at' if w.mode == 'fired' else 'throws at' if ranged else 'attacks'} "
           f"{tgt.name} with the {w.name}", a.player)


def controller(s: GameState, cid: str) -> str:
    return s.characters[cid].seat


@handles(A.Defend)
def defend(c: Ctx) -> None:
    require(c, ("defend",), "defending")
    a: A.Defend = c.a  # type: ignore[assignment]
    s, k = c.s, c.s.combat
    assert k is not None and k.attack is not None
    at = k.attack
    d = s.characters[at.target]
    parts = [attribute_mod(s, d, a.attribute, "P-14")]
    sm = combat_skill(d, a.skill)
    if sm is not None:
        parts.append(sm)
    if a.weapon:
        w = weapon_of(d, a.weapon)
        if w.mode != "melee":
            raise RuleViolation("P-16", f"the {w.name} is not a weapon to parry with")
        if w.quality:
            parts.append(Mod(name=f"{w.name} Quality", dice=w.quality))
    if d.shield != "none":
        parts.append(Mod(name=f"{d.shield} shield", dice=C.SHIELDS[d.shield]))
    if a.dodge and d.armour.heavy:
        parts.append(Mod(name="heavy armour", dice=-1))
    made = k.defences.get(d.id, 0)
    if made:
        parts.append(Mod(name=f"defence {made + 1} this round", dice=C.defence_penalty(made)))
    k.defences[d.id] = made + 1
    if a.situation:
        parts.append(Mod(name="situation", dice=a.situation))
    parts += list(at.defence_parts)
    parts += wound_mod(d)
    record_use(s, d, a.skill)
    at.defence = pool("defence", d.id, f"{d.name}'s defence", parts)
    at.stage = "roll"
    c.emit("defend", f"{d.name} {'dodges' if a.dodge else 'defends'}" + (f" with {a.skill}" if a.skill else ""), a.player)


def settle_attack(c: Ctx) -> None:
    """P-14: the higher result hits (a tie does not, P-AMB-4); ranged: 11 or more (P-20)."""
    s, k = c.s, c.s.combat
    assert k is not None and k.attack is not None
    at = k.attack
    ap = at.attack
    assert ap is not None and ap.kept is not None and ap.tier is not None
    lines = [pool_text(p) for p in (at.attack, at.defence) if p is not None]
    if at.ranged:
        hit = ap.tier >= MARGINAL_SUCCESS
        margin = max(0, ap.tier - MARGINAL_SUCCESS) if s.options.ranged_margin else 0
        why = tier_name(ap.tier)
    else:
        dp = at.defence
        assert dp is not None and dp.kept is not None and dp.tier is not None
        if ap.kept == dp.kept and s.options.reroll_ties:
            for p in (ap, dp):
                p.faces, p.kept, p.tier = [], None, None
            c.emit("roll", "; ".join(lines) + ": a tie, both roll again (re-roll ties option)")
            return
        hit = ap.kept > dp.kept
        why = "the defence holds on a tie" if ap.kept == dp.kept else "higher" if hit else "the defence is higher"
        if hit and s.options.critical_hits_only and ap.tier < 7:
            hit, why = False, "only a Critical Success hits at this table"
        margin = max(0, ap.tier - dp.tier)  # tiers, not faces (P-AMB-5)
    at.hit, at.margin = hit, margin if hit else 0
    c.emit("roll", "; ".join(lines) + f" -> {'hit' if hit else 'no hit'} ({why})", "", hit=hit, margin=at.margin)
    if not hit:
        at.stage, at.outcome = "narrate", "miss"
        return
    at.damage = pool("damage", at.attacker, f"{s.characters[at.attacker].name}'s damage", damage_parts(s, at))
    at.stage = "damage"


def damage_parts(s: GameState, at: Attack) -> list[Mod]:
    """P-19: weapon + strength + margin - defender's Fitness - armour, scale, the attacker's wounds."""
    att, d = s.characters[at.attacker], s.characters[at.target]
    w = weapon_of(att, at.weapon)
    parts = [Mod(name=f"{w.name} damage", dice=w.damage)]
    if s.options.quality_on_damage and w.quality:
        parts.append(Mod(name=f"{w.name} Quality", dice=w.quality))
    factor = "none" if w.mode == "fired" else "full" if w.mode == "thrown" else w.strength
    st = C.strength_dice(att.attributes.get("Fitness", 0), factor, s.options.half_strength_round_away)
    if st:
        parts.append(Mod(name=f"strength ({factor})", dice=st))
    if at.margin:
        parts.append(Mod(name="margin", dice=at.margin))
    if d.attributes.get("Fitness", 0):
        parts.append(Mod(name=f"{d.name}'s Fitness", dice=-d.attributes.get("Fitness", 0)))
    arm = d.armour.ratings.get(at.damage_type, 0)  # type: ignore[call-overload]
    if arm:
        parts.append(Mod(name=f"{d.armour.name} vs {at.damage_type}", dice=-arm))
    if s.options.scale:
        own = w.scale if (w.mode == "fired" and w.scale is not None) else att.scale.get("Fitness", att.size())
        sc = C.scale_dice(own, d.size(), "damage")
        if sc:
            parts.append(Mod(name="scale", dice=sc))
    if not s.options.exempt_damage_from_wounds:
        parts += wound_mod(att)
    return parts


def settle_damage(c: Ctx) -> None:
    s, k = c.s, c.s.combat
    assert k is not None and k.attack is not None
    at = k.attack
    assert at.damage is not None and at.damage.kept is not None
    d = s.characters[at.target]
    boxes = C.damage_boxes(at.damage.kept)
    d.wounds, excess = C.take_boxes(d.wounds, boxes)
    d.excess += excess
    at.boxes, at.excess = boxes, excess
    extra = f"; {excess} boxes past the 25th (the GM says what that means)" if excess else ""
    c.emit("damage", f"{pool_text(at.damage)}: {boxes} boxes; {d.name} is at {d.wounds} "
           f"({C.wound_name(d.wounds)}){extra}", "", boxes=boxes, excess=excess)
    if excess and s.options.death_past_25:
        d.dead, d.conscious, at.stage, at.knocked_out = True, False, "narrate", True
        c.emit("dead", f"{d.name} is dead (more than 25 boxes, table option)")
        return
    if boxes <= 0:  # no damage, no Fitness roll (P-AMB-9)
        at.stage = "narrate"
        return
    at.fitness = pool("fitness", d.id, f"{d.name}'s Fitness roll",
                      [Mod(name="Fitness", dice=d.attributes.get("Fitness", 0))] + wound_mod(d))
    at.stage = "fitness"


def settle_fitness(c: Ctx) -> None:
    """P-18 (@19866): at least a Marginal Success stays conscious."""
    s, k = c.s, c.s.combat
    assert k is not None and k.attack is not None
    at = k.attack
    fp = at.fitness
    assert fp is not None and fp.tier is not None
    d = s.characters[at.target]
    if fp.tier < MARGINAL_SUCCESS:
        d.conscious, at.knocked_out = False, True
        c.emit("unconscious", f"{pool_text(fp)}: {d.name} is knocked unconscious")
    else:
        if s.options.dazed and fp.tier == MARGINAL_SUCCESS:
            d.dazed = True
        c.emit("conscious", f"{pool_text(fp)}: {d.name} stays conscious" + (", dazed" if d.dazed else ""))
    at.stage = "narrate"


# --- time and advancement ----------------------------------------------------------------------------------
def grant(s: GameState, ch: Character, amount: int, source: str, designated: str | None = None) -> Lot:
    adv = s.adventure.id if s.adventure is not None and source in ("adventure_day", "heavy_day") else None
    lot = Lot(id=s.next_lot, amount=amount, source=source, adventure=adv, designated=designated,  # type: ignore[arg-type]
              day=s.adventure.days if s.adventure else 0)
    s.next_lot += 1
    ch.lots.append(lot)
    return lot


def quiet(c: Ctx) -> None:
    require(c, ("frame_scene", "gm_turn"), "passing time")


@handles(A.EndDay)
def end_day(c: Ctx) -> None:
    """P-11: 1 AP a day on an adventure (@12775); 2 in a time-consuming one, one of them
    designated if the GM names a skill (@14121, @14378, P-AMB-15)."""
    quiet(c)
    a: A.EndDay = c.a  # type: ignore[assignment]
    s = c.s
    adv = s.adventure
    assert adv is not None
    adv.days += 1
    got = []
    for ch in s.pcs():
        if ch.studying or ch.dead:
            continue
        ch.days_this_week += 1
        if ch.id in a.withhold:
            continue
        if not adv.time_consuming:
            grant(s, ch, 1, "adventure_day")
        elif adv.designated and not (s.options.one_designated_per_adventure and adv.designated_given):
            grant(s, ch, 1, "heavy_day", adv.designated)
            grant(s, ch, 1, "heavy_day")
        else:
            grant(s, ch, 2, "heavy_day")
        got.append(ch.name)
    if adv.time_consuming and adv.designated:
        adv.designated_given = True
    c.emit("day", f"Day {adv.days} of the adventure ends" + (f"; advancement points for {', '.join(got)}" if got else ""),
           a.player)


@handles(A.EndWeek)
def end_week(c: Ctx) -> None:
    """P-11: 2 AP a week (@13235); none in a time-consuming adventure's week (@14031); 5 for an
    intensive week instead (@13542, P-AMB-11)."""
    quiet(c)
    a: A.EndWeek = c.a  # type: ignore[assignment]
    s = c.s
    adv = s.adventure
    for ch in s.pcs():
        if ch.dead or ch.id in a.withhold:
            pass
        elif ch.studying:
            grant(s, ch, INTENSIVE_AP, "intensive")
        elif not (adv is not None and adv.time_consuming and ch.days_this_week):
            grant(s, ch, WEEKLY_AP, "week")
        ch.days_this_week, ch.studying = 0, ""
    c.emit("week", f"Week {s.week} ends", a.player)
    s.week += 1


@handles(A.StudyIntensively)
def study(c: Ctx) -> None:
    require(c, ("turn",), "studying intensively")
    a: A.StudyIntensively = c.a  # type: ignore[assignment]
    ch = c.s.characters[a.player]
    if ch.days_this_week:
        raise RuleViolation("P-11", f"{ch.name} has adventured this week and cannot study intensively (@13597)")
    ch.studying = a.reason.strip()
    c.emit("study", f"{ch.name} studies intensively this week: {a.reason.strip()}", a.player)


@handles(A.RecordTraining)
def record_training(c: Ctx) -> None:
    quiet(c)
    a: A.RecordTraining = c.a  # type: ignore[assignment]
    ch = character(c.s, a.character, "P-11")
    record_use(c.s, ch, a.skill)
    c.emit("training", f"{ch.name} trained with {a.skill} in this adventure", a.player)


@handles(A.RaiseSkill)
def raise_skill(c: Ctx) -> None:
    require(c, ("turn",), "raising a skill")
    a: A.RaiseSkill = c.a  # type: ignore[assignment]
    s = c.s
    ch = s.characters[a.player]
    if a.skill in ch.skills:
        kind, level = ch.skills[a.skill].kind, ch.skills[a.skill].level
    else:
        if a.kind is None:
            raise RuleViolation("P-12", f"{a.skill} is a new skill: say whether it is General, Experience or Special")
        kind, level = a.kind, creation_default(a.kind) if a.kind != "general" else 0  # from its default (@15200)
    if level >= TOP:
        raise RuleViolation("P-12", f"{a.skill} is Superb already: the top of the ladder")
    if kind == "special":
        if not a.teacher and not a.instruction.strip():
            raise RuleViolation("P-12", f"{a.skill} is a Special skill: learning it needs some instruction, a "
                                        "teacher or books (@15352)")
        if s.options.trainer_required and not a.teacher:
            raise RuleViolation("P-11", f"at this table a Special skill advances only with a trainer (@13371)")
    cost = raise_cost(level, kind, a.teacher)
    lots = []
    for lid in dict.fromkeys(a.lots):
        lot = next((x for x in ch.lots if x.id == lid), None)
        if lot is None:
            raise RuleViolation("P-11", f"{ch.name} has no advancement lot {lid}")
        why = may_buy(lot, a.skill, set(ch.used.get(lot.adventure or "", [])))
        if why:
            raise RuleViolation("P-11", f"lot {lid} cannot pay for {a.skill}: {why}")
        if lot.source == "intensive" and s.options.bar_intensive_good and level >= 2:
            raise RuleViolation("P-11", f"{a.skill} is rated Good or above: the GM bars intensive study of it (@13865)")
        lots.append(lot)
    have = sum(x.amount for x in lots)
    if have < cost:
        raise RuleViolation("P-12", f"raising {a.skill} from {rung_name(level)} costs {cost} AP"
                                    f"{' (double: no teacher for a Special skill)' if kind == 'special' and not a.teacher else ''}"
                                    f"; the lots named hold {have}")
    left = cost
    for lot in lots:
        take = min(lot.amount, left)
        lot.amount -= take
        left -= take
    ch.lots = [x for x in ch.lots if x.amount > 0]
    ch.skills[a.skill] = Skill(kind=kind, level=level + 1)  # type: ignore[arg-type]
    c.emit("advance", f"{ch.name} raises {a.skill} to {rung_name(level + 1)} for {cost} AP", a.player)


@handles(A.Heal)
def heal(c: Ctx) -> None:
    quiet(c)
    a: A.Heal = c.a  # type: ignore[assignment]
    ch = character(c.s, a.character, "P-17")
    if ch.dead:
        raise RuleViolation("P-17", f"{ch.name} is dead")
    ch.wounds = max(0, ch.wounds - a.boxes)
    if a.wake:
        ch.conscious = True
    c.emit("heal", f"{ch.name}: {a.reason} (now {ch.wounds} boxes, {'awake' if ch.conscious else 'unconscious'})",
           a.player)


@handles(A.AlterCharacter)
def alter_character(c: Ctx) -> None:
    """P-11 (@12100): attributes are not bought with AP; the GM changes them for a major change."""
    quiet(c)
    a: A.AlterCharacter = c.a  # type: ignore[assignment]
    s = c.s
    ch = character(s, a.character, "P-11")
    for name, v in a.attributes.items():
        if name not in s.attribute_names():
            raise RuleViolation("P-9", f"{name!r} is not an attribute here")
        if not -4 <= v <= 4:
            raise RuleViolation("P-1", f"{name} at {v} is off the ladder")
    if a.scale and not s.options.scale:
        raise RuleViolation("P-8", "scale rules are not in use at this table (@10496)")
    if not a.attributes and not a.scale:
        raise RuleViolation("P-11", "a major change changes an attribute or a scale")
    ch.attributes.update(a.attributes)
    ch.scale.update(a.scale)
    what = [f"{n} {rung_name(v)}" for n, v in a.attributes.items()] + [f"scale {n} {v}" for n, v in a.scale.items()]
    c.emit("alter", f"{ch.name}: {a.reason} ({', '.join(what)})", a.player)


@handles(A.EndAdventure)
def end_adventure(c: Ctx) -> None:
    quiet(c)
    c.s.phase = "over"
    if c.s.scene() is not None:
        c.s.scenes[-1].ended = True
    c.emit("end_adventure", c.a.text or "The adventure ends.", c.a.player)  # type: ignore[attr-defined]

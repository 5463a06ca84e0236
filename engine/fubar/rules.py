"""`apply(state, action) -> (state, events)`: the FUBAR rules (shared/rules/fubar.md).

Pure: no I/O, no clock, no randomness (dice arrive as a RollDice action). The input state is
never changed; a refused action raises RuleViolation naming the rule (F-<n>) and the reason.
The GM's and the group's judgement calls arrive as fields of actions (digest section 3).
Turn order is a Design choice (the book sets none): the GM frames a scene, the spotlight goes
round the players once, then the GM continues or ends the scene.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

from pydantic import BaseModel

from engine.core.errors import RuleViolation
from engine.core.inputs import action_from, registrar, seat_names, table_options
from engine.fubar import actions as A
from engine.fubar import dice as D
from engine.fubar import gear
from engine.fubar import resolve as R
from engine.fubar.clone import clone
from engine.fubar.events import Event
from engine.fubar.options import FubarOptions
from engine.fubar.state import (
    ARMOUR, STRENGTH_DICE, TIERS, Answer, Armour, Asset, Character, Condition, Conflict, Detail, DieMod,
    GameState, Opposition, PendingFact, Relationship, Roll, Scene, Seat,
)

CREATION = {"trademarks": 4, "flaws": 2, "relationships": 2}  # F-10, @18326
GOALS_ADVISED = 3  # F-11: more is warned, not refused


@dataclass
class Ctx:
    s: GameState
    a: BaseModel
    events: list[Event] = field(default_factory=list)

    def emit(self, kind: str, text: str = "", cost: int = 0, player: str | None = None, **data) -> None:
        who = getattr(self.a, "player", "") if player is None else player
        self.events.append(Event(seq=self.s.seq, kind=kind, player=who, text=text, cost=cost, data=data))


HANDLERS: dict[str, Callable[[Ctx], None]] = {}
handles = registrar(HANDLERS)


# --- entry points --------------------------------------------------------------------------------
def new_game(seats: Sequence[tuple[str, str]], options: FubarOptions | dict | None = None) -> GameState:
    """A game waiting for the GM's scenario. Exactly one GM and at least one player (F-10; L10)."""
    names, roles = seat_names(seats, "F-10")
    if roles.count("gm") != 1:
        raise RuleViolation("F-10", "FUBAR needs exactly one Game Master seat")
    if roles.count("player") < 1 or any(r not in ("gm", "player") for r in roles):
        raise RuleViolation("F-10", "FUBAR needs at least one player besides the GM, and no other roles")
    opts = table_options(FubarOptions, options, "F-OPT")
    if opts.buckets_extra_and and not opts.buckets:
        raise RuleViolation("F-24", "extra 'and's per success belong to the Buckets of Dice option")
    if opts.armour_piercing and not opts.weapons_armour:
        raise RuleViolation("F-21", "armour piercing needs the weapons and armour option")
    if opts.doom and opts.resolve_variant != "single":
        raise RuleViolation("F-9", "Doom replaces the single Resolve pool; it cannot be combined with Split or Replace")
    return GameState(options=opts, seats=[Seat(name=n, role=r) for n, r in zip(names, roles)])


def apply(state: GameState, action: BaseModel | dict) -> tuple[GameState, list[Event]]:
    action = action_from(A.parse_action, action, "F-INPUT")
    name = getattr(action, "player", "")
    if not isinstance(action, A.RollDice) and name not in {x.name for x in state.seats}:
        raise RuleViolation("F-SEAT", f"{name!r} is not a seat at this table")
    s = clone(state)
    s.seq += 1
    c = Ctx(s, action)
    HANDLERS[action.type](c)  # type: ignore[attr-defined]
    return c.s, c.events


# --- shared checks ------------------------------------------------------------------------------
def new_id(s: GameState, prefix: str) -> str:
    s.counter += 1
    return f"{prefix}{s.counter}"


def role(s: GameState, name: str) -> str:
    return next(x.role for x in s.seats if x.name == name)


def require_gm(c: Ctx, doing: str) -> None:
    if role(c.s, c.a.player) != "gm":  # type: ignore[attr-defined]
        raise RuleViolation("F-GM", f"only the GM can {doing}")


def blocker(s: GameState) -> str | None:
    """What must be answered before anything else happens, in words (or None)."""
    if s.escape:
        return f"{s.characters[s.escape[0]].name} has fallen below 0 Resolve: trade or leave first (F-6)"
    if s.advance:
        return "a finished Goal's advancement must be chosen first (F-11)"
    if s.relationships_due:
        return "the scenario's new Relationships must be chosen first (F-12)"
    if s.fact is not None:
        return "the GM must judge the fact just narrated (F-7)"
    if s.conflict is not None:
        return "a conflict is being resolved"
    return None


def require_free(c: Ctx) -> None:
    b = blocker(c.s)
    if b:
        raise RuleViolation("F-TURN", f"not now: {b}")


def require_play(c: Ctx) -> None:
    if c.s.phase != "play":
        raise RuleViolation("F-TURN", "the game is not in play yet" if c.s.phase != "over" else "the game is over")


def spotlight(s: GameState) -> str | None:
    sc = s.scene()
    live = s.live_players()
    if sc is None or s.gm_turn or not live:
        return None
    return live[sc.spotlight % len(live)]


def require_turn(c: Ctx) -> Character:
    require_play(c)
    require_free(c)
    who = c.a.player  # type: ignore[attr-defined]
    if spotlight(c.s) != who:
        holder = spotlight(c.s)
        raise RuleViolation("F-TURN", f"it is {holder}'s turn" if holder else "no player has the spotlight now")
    return c.s.characters[who]


def character(s: GameState, seat: str, rule: str = "F-10") -> Character:
    ch = s.characters.get(seat)
    if ch is None:
        raise RuleViolation(rule, f"{seat} has no character")
    return ch


def end_turn(s: GameState) -> None:
    """The spotlight moves on; after a full round the GM continues or ends the scene (Design)."""
    sc = s.scene()
    if sc is None:
        return
    sc.turns_taken += 1
    sc.spotlight += 1
    if sc.turns_taken >= max(1, len(s.live_players())):
        s.gm_turn = True


def soak_of(kind: str, partial: bool) -> int:
    """Soak = floor(rating / 2), partial armour rated 2 lower (F-21, L268-308)."""
    return max(0, ARMOUR[kind][0] - (2 if partial else 0)) // 2


def text_of_list(xs: list[str]) -> list[str]:
    return [x.strip() for x in xs if x and x.strip()]


# --- set-up --------------------------------------------------------------------------------------------
@handles(A.PrepareScenario)
def prepare_scenario(c: Ctx) -> None:
    s, a = c.s, c.a
    require_gm(c, "prepare the scenario")
    if s.phase != "scenario":
        raise RuleViolation("F-TURN", "a scenario is already under way")
    s.title, s.situation, s.places = a.title.strip(), a.situation.strip(), text_of_list(a.places)
    s.details.append(Detail(id=new_id(s, "d"), text=s.situation, by=a.player, seq=s.seq, scene=0, origin="scenario"))
    s.phase = "characters" if any(p not in s.characters for p in s.players) else "play"
    c.emit("scenario", f"{s.title}: {s.situation}")


@handles(A.AddOpposition)
def add_opposition(c: Ctx) -> None:
    s, a = c.s, c.a
    require_gm(c, "add opposition")
    if s.phase == "over":
        raise RuleViolation("F-TURN", "the game is over")
    if s.conflict is not None:
        raise RuleViolation("F-TURN", "not during a conflict")
    if a.scale and not s.options.scale:
        raise RuleViolation("F-18", "scale is an option this table has not switched on")
    if (a.armour != "none" or a.weapon_rating) and not s.options.weapons_armour:
        raise RuleViolation("F-20", "weapon and armour ratings belong to the weapons and armour option; "
                                    "rule gear as +-1D instead")
    oid = new_id(s, "o")
    s.opposition[oid] = Opposition(id=oid, name=a.name.strip(), kind=a.kind, strength=a.strength, resolve=a.resolve,
                                   trademarks=text_of_list(a.trademarks), flaws=text_of_list(a.flaws), scale=a.scale,
                                   armour=Armour(kind=a.armour, partial=a.partial_armour,
                                                 soak_left=soak_of(a.armour, a.partial_armour)),
                                   weapon_rating=a.weapon_rating)
    c.emit("opposition", f"{a.name} ({a.kind}, {a.strength}, Resolve {a.resolve})", id=oid)


@handles(A.CreateCharacter)
def create_character(c: Ctx) -> None:
    s, a = c.s, c.a
    if role(s, a.player) != "player":
        raise RuleViolation("F-10", "the GM runs the other characters; only players make player characters")
    if s.phase not in ("characters", "play") or a.player in s.characters:
        raise RuleViolation("F-10", "characters are made once, after the GM's scenario is prepared")
    tm, fl = text_of_list(a.trademarks), text_of_list(a.flaws)
    rel = [r for r in a.relationships if r.target.strip()]
    if len(tm) != CREATION["trademarks"] or len(fl) != CREATION["flaws"] or len(rel) != CREATION["relationships"]:
        raise RuleViolation("F-10", "a new character has 8 Descriptors: 4 Trademarks, 2 Flaws and 2 Relationships "
                                    f"(this one has {len(tm)}, {len(fl)} and {len(rel)})")
    if sorted(r.positive for r in rel) != [False, True]:
        raise RuleViolation("F-10", "the two Relationships are one positive and one negative")
    if len(set(x.lower() for x in tm + fl)) != len(tm) + len(fl):
        raise RuleViolation("F-10", "each Descriptor is named once")
    if a.super_descriptor is not None:
        if not s.options.super_descriptors:
            raise RuleViolation("F-23", "'super' Descriptors are a power option this table has not switched on")
        if a.super_descriptor not in tm:
            raise RuleViolation("F-23", "the 'super' Descriptor is one of the character's Trademarks")
    if any(p not in tm and p not in text_of_list(a.concept_abilities) for p in a.powers):
        raise RuleViolation("F-23", "a power is one of the character's Trademarks or Concept abilities")
    if a.broad_power and not s.options.broad_power_cost:
        raise RuleViolation("F-23", "the broad-power cost is an option this table has not switched on")
    if a.scale and not s.options.scale:
        raise RuleViolation("F-18", "scale is an option this table has not switched on")
    if (a.armour != "none" or a.shield or a.weapon_rating) and not s.options.weapons_armour:
        raise RuleViolation("F-20", "weapon and armour ratings belong to the weapons and armour option")
    cap = 4 if a.broad_power else 5  # F-23, @26827 "reducing Resolve to a maximum of four"
    ch = Character(name=a.name.strip(), seat=a.player, concept=a.concept.strip(),
                   concept_abilities=text_of_list(a.concept_abilities), trademarks=tm, flaws=fl,
                   relationships=[Relationship(target=r.target.strip(), positive=r.positive) for r in rel],
                   goals=[a.goal.strip()], cap=cap,
                   armour=Armour(kind=a.armour, partial=a.partial_armour, shield=a.shield,
                                 soak_left=soak_of(a.armour, a.partial_armour)),
                   weapon_rating=a.weapon_rating, scale=a.scale, magic_pool=3 * len(a.powers) if s.options.magic_points else 0,
                   powers=list(a.powers), super_descriptor=a.super_descriptor)
    ch.scale = a.scale
    R.start_pools(s, ch)
    s.characters[a.player] = ch
    powers_note = f"; powers: {', '.join(a.powers)}" if a.powers else ""
    if all(p in s.characters for p in s.players) and s.phase == "characters":
        s.phase = "play"
    c.emit("character", f"{ch.name}, {ch.concept}{powers_note}; Goal: {ch.goals[0]}")


# --- the GM around the scenes ------------------------------------------------------------------------
@handles(A.FrameScene)
def frame_scene(c: Ctx) -> None:
    s, a = c.s, c.a
    require_gm(c, "frame a scene")
    require_play(c)
    require_free(c)
    if s.scene() is not None:
        raise RuleViolation("F-TURN", "a scene is already open: end it first")
    for oid in a.present:
        if oid not in s.opposition:
            raise RuleViolation("F-14", f"there is no opposition {oid!r}")
    s.scenes.append(Scene(number=len(s.scenes) + 1, place=a.place.strip(), text=a.text.strip(),
                          downtime=a.downtime, present=list(a.present)))
    s.gm_turn = False
    if a.place.strip() not in s.places:
        s.places.append(a.place.strip())
    c.emit("scene", f"Scene {len(s.scenes)} at {a.place}: {a.text}".rstrip(": "), downtime=a.downtime)


@handles(A.ContinueScene)
def continue_scene(c: Ctx) -> None:
    s = c.s
    require_gm(c, "continue the scene")
    require_free(c)
    if s.scene() is None or not s.gm_turn:
        raise RuleViolation("F-TURN", "the players still have the spotlight")
    s.gm_turn = False
    s.scene().turns_taken = 0  # type: ignore[union-attr]
    c.emit("continue", c.a.text)


@handles(A.EndScene)
def end_scene(c: Ctx) -> None:
    s = c.s
    require_gm(c, "end the scene")
    require_free(c)
    sc = s.scene()
    if sc is None:
        raise RuleViolation("F-TURN", "no scene is open")
    close_scene(c, sc, c.a.text)


def close_scene(c: Ctx, sc: Scene, text: str) -> None:
    """Minor Conditions, negative or positive, are gone by the scene's end (F-19, L585); a
    cliffhanger's deferred +2 arrives once its scene is resolved (F-8, L136)."""
    s = c.s
    sc.ended = True
    s.gm_turn = False
    for holder in [*s.characters.values(), *s.opposition.values()]:
        holder.conditions = [x for x in holder.conditions if x.tier != "minor"]
    for ch in s.characters.values():
        ch.power_scene_uses = {}
    if s.session_gain_deferred:
        s.session_gain_deferred = False
        for seat in s.live_players():
            R.session_start(s, s.characters[seat])
        c.emit("session_gain", "the cliffhanger is resolved: each character regains 2 Resolve")
    c.emit("end_scene", text or f"Scene {sc.number} ends")


def age(conds: list[Condition]) -> list[Condition]:
    """A Condition shrinks by a tier as it ages, then disappears (F-19, L598)."""
    out = []
    for x in conds:
        i = TIERS.index(x.tier)
        if i > 0:
            out.append(x.model_copy(update={"tier": TIERS[i - 1]}))
    return out


@handles(A.EndSession)
def end_session(c: Ctx) -> None:
    """+2 Resolve at the next session's start, capped; after a cliffhanger, once that scene is over
    (F-8, L136). Conditions age a tier between sessions (Reading of L598: time passes)."""
    s, a = c.s, c.a
    require_gm(c, "end the session")
    require_play(c)
    require_free(c)
    if s.scene() is not None and not a.cliffhanger:
        raise RuleViolation("F-8", "end the scene first, or end the session on a cliffhanger")
    s.session += 1
    for ch in s.characters.values():
        ch.conditions = age(ch.conditions)
        ch.power_session_uses = {}
    if a.cliffhanger:
        s.session_gain_deferred = True
        c.emit("end_session", f"Session {s.session - 1} ends on a cliffhanger")
        return
    for seat in s.live_players():
        R.session_start(s, s.characters[seat])
    c.emit("end_session", f"Session {s.session - 1} ends; session {s.session} starts: +2 Resolve each")


@handles(A.EndScenario)
def end_scenario(c: Ctx) -> None:
    """Resolve resets to full; each character earns a new Relationship (F-8, L112; F-12, @42138)."""
    s, a = c.s, c.a
    require_gm(c, "end the scenario")
    require_play(c)
    require_free(c)
    sc = s.scene()
    if sc is not None:
        close_scene(c, sc, "")
    for seat in s.live_players():
        ch = s.characters[seat]
        R.restore(s, ch, "scenario")
        ch.conditions = age(ch.conditions)
    s.relationships_due = list(s.live_players())
    s.final_scenario = a.final
    s.scenario_closed = True
    c.emit("end_scenario", a.text or f"Scenario {s.scenario} ends: Resolve is restored")
    after_aftermath(s)


def after_aftermath(s: GameState) -> None:
    """Once a scenario's Relationships are chosen, the game ends or waits for the next scenario."""
    if s.relationships_due or s.phase != "play" or s.scene() is not None:
        return
    if s.final_scenario or not s.live_players():
        s.phase = "over"
    elif s.scenario_closed:
        s.scenario += 1
        s.scenario_closed = False
        s.phase = "scenario"


@handles(A.AddDetail)
def add_detail(c: Ctx) -> None:
    s, a = c.s, c.a
    require_gm(c, "add a Detail")
    require_play(c)
    sc = s.scene()
    s.details.append(Detail(id=new_id(s, "d"), text=a.text.strip(), by=a.player, seq=s.seq,
                            scene=sc.number if sc else 0, origin="gm"))
    c.emit("detail", a.text.strip())


def holder_of(s: GameState, target: str, rule: str = "F-19") -> Character | Opposition:
    if target in s.characters:
        return s.characters[target]
    if target in s.opposition:
        return s.opposition[target]
    raise RuleViolation(rule, f"{target!r} is neither a player character nor an opposition")


def put_condition(c: Ctx, cin: A.ConditionIn, tier: str, consequence: bool = False) -> Condition:
    s = c.s
    holder = holder_of(s, cin.target)
    sc = s.scene()
    cond = Condition(id=new_id(s, "c"), name=cin.name.strip(), tier=tier, positive=cin.positive,  # type: ignore[arg-type]
                     scope=cin.scope, since_scene=sc.number if sc else 0)
    if consequence and isinstance(holder, Character):
        cond = R.add_consequence(s, holder, cond)
        c.emit("consequence", f"{holder.name} takes the Consequence '{cond.name}' ({cond.tier})",
               target=cin.target, id=cond.id)
        return cond
    holder.conditions.append(cond)
    c.emit("condition", f"{holder.name} takes the Condition '{cond.name}' ({tier}{', positive' if cond.positive else ''})",
           target=cin.target, id=cond.id)
    return cond


@handles(A.ApplyCondition)
def apply_condition(c: Ctx) -> None:
    require_gm(c, "apply a Condition outside a conflict's outcome")
    require_play(c)
    put_condition(c, c.a.condition, c.a.condition.tier or "minor")


@handles(A.ClearCondition)
def clear_condition(c: Ctx) -> None:
    s, a = c.s, c.a
    require_gm(c, "clear a Condition")
    holder = holder_of(s, a.target)
    before = len(holder.conditions)
    holder.conditions = [x for x in holder.conditions if x.id != a.condition_id]
    if len(holder.conditions) == before:
        raise RuleViolation("F-19", f"{holder.name} has no Condition {a.condition_id!r}")
    c.emit("clear_condition", f"{holder.name} recovers ({a.condition_id})")


@handles(A.AwardResolve)
def award_resolve(c: Ctx) -> None:
    """+1 for a pivotal Flaw complication (often, L120), Goal progress (L104), or genre play when the
    table uses that option (L106); always capped (F-8)."""
    s, a = c.s, c.a
    require_gm(c, "award Resolve")
    require_play(c)
    ch = character(s, a.seat, "F-8")
    if a.reason == "genre" and not s.options.genre_reward:
        raise RuleViolation("F-8", "genre-typical rewards are an option this table has not switched on")
    got = R.gain(s, ch, 1, {"flaw": "flaw", "genre": "genre", "goal_progress": "goal_progress"}[a.reason])
    c.emit("resolve", f"{ch.name} regains {got} Resolve ({a.reason.replace('_', ' ')}){': ' + a.text if a.text else ''}",
           seat=a.seat, gained=got)


@handles(A.GoalSetback)
def goal_setback(c: Ctx) -> None:
    s, a = c.s, c.a
    require_gm(c, "rule a Goal setback")
    require_play(c)
    ch = character(s, a.seat, "F-11")
    R.lose(s, ch, 1, "goal_setback")
    c.emit("resolve", f"{ch.name} suffers a Goal setback: -1 Resolve{': ' + a.text if a.text else ''}", seat=a.seat)


@handles(A.GoalResolved)
def goal_resolved(c: Ctx) -> None:
    s, a = c.s, c.a
    require_gm(c, "rule a Goal finished")
    require_play(c)
    require_free(c)
    ch = character(s, a.seat, "F-11")
    finish_goal(c, ch, a.goal, a.success, charged=False)


def finish_goal(c: Ctx, ch: Character, goal: str, success: bool, charged: bool) -> None:
    """Success: Resolve to its maximum, then a Trademark (or an option) and a new Goal. Failure: -1
    (not again when a high-stakes loss already charged it, F-AMB-3), a Flaw and a new Goal (F-11)."""
    s = c.s
    if goal not in ch.goals:
        raise RuleViolation("F-11", f"{ch.name} has no Goal {goal!r}")
    ch.goals.remove(goal)
    if success:
        R.restore(s, ch, "goal_done")
        c.emit("goal", f"{ch.name} accomplishes the Goal '{goal}': Resolve restored", player=ch.seat)
    else:
        if not charged:
            R.lose(s, ch, 1, "goal_setback")
        c.emit("goal", f"{ch.name} fails the Goal '{goal}'", player=ch.seat)
    s.advance[ch.seat] = "success" if success else "failure"


@handles(A.RechargePowers)
def recharge_powers(c: Ctx) -> None:
    s, a = c.s, c.a
    require_gm(c, "recharge powers")
    ch = character(s, a.seat, "F-23")
    if not ch.powers:
        raise RuleViolation("F-23", f"{ch.name} has no powers")
    if s.options.magic_points:
        ch.magic_pool = max(ch.magic_pool, 3 * len(ch.powers))
    ch.disabled_powers = []
    ch.power_session_uses = {}
    c.emit("recharge", f"{ch.name}'s powers are restored{': ' + a.text if a.text else ''}", seat=a.seat)


@handles(A.LevelUp)
def level_up(c: Ctx) -> None:
    s, a = c.s, c.a
    require_gm(c, "raise a level")
    if not s.options.level_option:
        raise RuleViolation("F-12", "levels are an option this table has not switched on")
    ch = character(s, a.seat, "F-12")
    ch.level += 1
    ch.cap += 1  # @43447 "increase their Resolve pool cap by 1"
    c.emit("level", f"{ch.name} reaches level {ch.level}: Resolve cap {ch.cap}", seat=a.seat)


@handles(A.LoseAsset)
def lose_asset(c: Ctx) -> None:
    """Deprived of invested gear or a helper: +1; lost for good: the invested Trademarks come back;
    a group asset gives nothing back (F-22, F-8, L327)."""
    s, a = c.s, c.a
    require_gm(c, "take an asset away")
    ch = character(s, a.seat, "F-22")
    asset = next((x for x in ch.assets if x.name == a.name and not x.lost), None)
    if asset is None:
        raise RuleViolation("F-22", f"{ch.name} has no asset {a.name!r}")
    if asset.group:
        asset.lost = a.permanent
        c.emit("asset", f"{a.name} (a group asset) is {'lost' if a.permanent else 'out of reach'}")
        return
    if a.permanent:  # L327: the complication's +1, and "also" the invested Descriptors back
        asset.lost = True
        ch.trademarks.extend(asset.invested)
        got = R.gain(s, ch, 1, "deprivation")
        c.emit("asset", f"{a.name} is lost for good; {ch.name} regains {', '.join(asset.invested)} and "
                        f"+{got} Resolve", seat=a.seat)
    else:
        got = R.gain(s, ch, 1, "deprivation")
        c.emit("asset", f"{ch.name} is deprived of {a.name}: +{got} Resolve", seat=a.seat)


# --- a player's turn -----------------------------------------------------------------------------------------
@handles(A.PassTurn)
def pass_turn(c: Ctx) -> None:
    require_turn(c)
    c.emit("pass", c.a.text or "passes")
    end_turn(c.s)


@handles(A.Downtime)
def downtime(c: Ctx) -> None:
    """Once a session, a downtime scene with room to rest: +1, capped, and a Condition eases a tier;
    armour is repaired (F-8, L132; F-21)."""
    s, a = c.s, c.a
    ch = require_turn(c)
    sc = s.scene()
    if sc is None or not sc.downtime:
        raise RuleViolation("F-8", "downtime needs an adequate opportunity: a scene the GM framed for rest")
    if ch.downtime_session == s.session:
        raise RuleViolation("F-8", f"{ch.name} has had this session's downtime already")
    ch.downtime_session = s.session
    got = R.gain(s, ch, 1, "downtime")
    eased = ""
    if a.condition_id:
        cond = next((x for x in ch.conditions if x.id == a.condition_id), None)
        if cond is None:
            raise RuleViolation("F-19", f"{ch.name} has no Condition {a.condition_id!r}")
        ch.conditions = [x for x in ch.conditions if x.id != a.condition_id] + age([cond])
        eased = f"; {cond.name} eases"
    if ch.armour.broken:
        ch.armour.broken = False
        ch.armour.soak_left = ARMOUR[ch.armour.kind][1]
    c.emit("downtime", f"{a.text or 'rests'} (+{got} Resolve{eased})")
    end_turn(s)


@handles(A.AddGoal)
def add_goal(c: Ctx) -> None:
    """More Goals may be added; more than three active is advised against, not refused (F-11, @42735)."""
    s, a = c.s, c.a
    ch = character(s, a.player, "F-11")
    require_free(c)
    ch.goals.append(a.goal.strip())
    warn = len(ch.goals) > GOALS_ADVISED
    c.emit("goal", f"{ch.name} takes the Goal '{a.goal.strip()}'"
           + (f" (warning: {len(ch.goals)} active Goals; three is the book's advice)" if warn else ""), warned=warn)


@handles(A.ReplaceGoal)
def replace_goal(c: Ctx) -> None:
    """An irrelevant Goal is replaced free; rewording between sessions is free; abandoning one between
    sessions costs 1, and no Flaw (F-11, F-7, L186)."""
    s, a = c.s, c.a
    ch = character(s, a.player, "F-11")
    require_free(c)
    if a.old not in ch.goals:
        raise RuleViolation("F-11", f"{ch.name} has no Goal {a.old!r}")
    if a.reason in ("reword", "abandon") and s.scene() is not None:
        raise RuleViolation("F-11", "a Goal is reworded or abandoned between sessions, not mid-scene")
    ch.goals[ch.goals.index(a.old)] = a.new.strip()
    cost = 0
    if a.reason == "abandon":
        R.spend(s, ch, 1, "abandon_goal", "F-7", "abandoning a Goal")
        cost = 1
    c.emit("goal", f"{ch.name}: '{a.old}' becomes '{a.new.strip()}' ({a.reason})", cost=cost)


@handles(A.InvestAsset)
def invest_asset(c: Ctx) -> None:
    """1 Trademark buys a Concept, 2 Trademarks, 1 Flaw and 2 Resolve; a second adds +1 Resolve and
    +1 Trademark (or +2 Trademarks and +1 Flaw). A group asset invests nothing (F-22, L316-351)."""
    s, a = c.s, c.a
    ch = character(s, a.player, "F-22")
    require_free(c)
    n = len(a.invest)
    if any(x not in ch.trademarks for x in a.invest) or len(set(a.invest)) != n:
        raise RuleViolation("F-22", "invest Trademarks the character has, each once")
    tm, fl = len(text_of_list(a.trademarks)), len(text_of_list(a.flaws))
    allowed = {0: [(tm, fl)], 1: [(2, 1)], 2: [(3, 1), (4, 2)]}.get(n)
    if allowed is None:
        raise RuleViolation("F-22", "at most two Trademarks can be invested in one asset")
    if n and (tm, fl) not in allowed:
        shapes = " or ".join(f"{t} Trademarks and {f} Flaw{'s' if f > 1 else ''}" for t, f in allowed)
        raise RuleViolation("F-22", f"investing {n} Trademark{'s' if n > 1 else ''} gives {shapes}")
    for x in a.invest:
        ch.trademarks.remove(x)
    ch.assets.append(Asset(name=a.name.strip(), concept=a.concept.strip(), trademarks=text_of_list(a.trademarks),
                           flaws=text_of_list(a.flaws), resolve={0: 0, 1: 2, 2: 3}[n], invested=list(a.invest),
                           group=n == 0))
    c.emit("asset", f"{ch.name} gains {a.name} ({a.concept})" + (" for the group" if n == 0 else ""))


@handles(A.NarrateFact)
def narrate_fact(c: Ctx) -> None:
    """A plausible fact or coincidence costs exactly 1, judged by the GM (F-7, L124-126)."""
    s, a = c.s, c.a
    ch = require_turn(c)
    if not R.can_spend(s, ch, 1):
        raise RuleViolation("F-7", f"{ch.name} has no Resolve left to spend on a fact (F-AMB-2)")
    if a.descriptor and a.descriptor not in descriptors_of(ch):
        raise RuleViolation("F-7", f"{ch.name} has no Descriptor {a.descriptor!r}")
    s.fact = PendingFact(seat=a.player, text=a.text.strip(), descriptor=a.descriptor)
    c.emit("fact_proposed", a.text.strip())


@handles(A.JudgeFact)
def judge_fact(c: Ctx) -> None:
    """Believable: -1 and it is so. Not believable: refused, and nothing is paid; a bigger fact cannot
    be bought for 2 (F-7, @11910)."""
    s, a = c.s, c.a
    require_gm(c, "judge a fact")
    if s.fact is None:
        raise RuleViolation("F-7", "no fact is waiting to be judged")
    f, s.fact = s.fact, None
    ch = s.characters[f.seat]
    if a.believable:
        R.spend(s, ch, 1, "fact", "F-7", "a fact")
        sc = s.scene()
        s.details.append(Detail(id=new_id(s, "d"), text=f.text, by=f.seat, seq=s.seq,
                                scene=sc.number if sc else 0, origin="fact"))
        c.emit("fact", f.text, cost=1, player=f.seat)
    else:
        c.emit("fact_refused", f"not believable ('{f.text}'){': ' + a.reason if a.reason else ''}", player=s.gm)
    end_turn(s)


def descriptors_of(ch: Character) -> list[str]:
    return [*ch.trademarks, *ch.flaws, *(r.target for r in ch.relationships), *ch.concept_abilities]


# --- a conflict ---------------------------------------------------------------------------------------
CLAIM_SOURCES = {"unfamiliar": (-1,), "applicability": (1,), "concept": (1,), "helper": (1,), "power": (1, 2),
                 "opposing_descriptor": (1, -1), "opposing_condition": (1, -1), "descriptor": (1, -1),
                 "condition": (1, -1), "circumstance": (1, -1), "gear": (1, -1)}


@handles(A.Attempt)
def attempt(c: Ctx) -> None:
    """A player asks a closed yes/no question; the GM rules it next (F-13, F-17, F-25)."""
    s, a = c.s, c.a
    ch = require_turn(c)
    own = [*ch.trademarks, *ch.concept_abilities, *(r.target for r in ch.relationships if r.positive)]
    aid = next((x for x in ch.assets if x.name == a.asset and not x.lost), None) if a.asset else None
    own += aid.trademarks if aid else []  # an aiding asset's Trademarks count (F-22)
    for d in a.descriptors:
        if d not in own:
            raise RuleViolation("F-4", f"{ch.name} has no Trademark, positive Relationship or Concept ability {d!r}")
    if len(set(a.descriptors)) != len(a.descriptors):
        raise RuleViolation("F-4", "each Descriptor adds one die, once")
    live = set(s.live_players())
    if a.against is not None:
        if a.against in s.opposition:
            if s.opposition[a.against].defeated:
                raise RuleViolation("F-14", f"{s.opposition[a.against].name} is already defeated")
        elif a.against not in live or a.against == a.player:
            raise RuleViolation("F-17", f"{a.against!r} is neither an opposition nor another player's character")
    for seat in [*a.aligned, *a.helpers]:
        if seat not in live or seat == a.player or seat == a.against:
            raise RuleViolation("F-25" if seat in a.aligned else "F-17",
                                f"{seat!r} cannot join: not another player's character in play")
    other_seats = [x.seat for x in a.others]
    for seat in other_seats:
        if seat not in live or seat == a.player or seat in a.aligned or seat in a.helpers or seat == a.against:
            raise RuleViolation("F-25", f"{seat!r} cannot roll for a different outcome here")
        mine = s.characters[seat]
        ok = [*mine.trademarks, *mine.concept_abilities, *(r.target for r in mine.relationships if r.positive)]
        bad = [d for x in a.others if x.seat == seat for d in x.descriptors if d not in ok]
        if bad:
            raise RuleViolation("F-4", f"{mine.name} has no Descriptor {bad[0]!r}")
    if len(set(other_seats)) != len(other_seats):
        raise RuleViolation("F-25", "each character rolls once in a conflict")
    if set(a.aligned) & set(a.helpers):
        raise RuleViolation("F-17", "a character either rolls alongside or joins the roll, not both")
    helper_own = {d for h in a.helpers for d in descriptors_of(s.characters[h])}
    for d in a.helper_descriptors:
        if d not in helper_own:
            raise RuleViolation("F-17", f"no helper has the Descriptor {d!r}")
    if a.asset is not None and not any(x.name == a.asset and not x.lost for x in ch.assets):
        raise RuleViolation("F-22", f"{ch.name} has no asset {a.asset!r} to aid")
    if (a.goal is None) != (a.goal_step is None):
        raise RuleViolation("F-11", "a Goal conflict names the Goal and whether it is a milestone or the final one")
    if a.goal is not None and a.goal not in ch.goals:
        raise RuleViolation("F-11", f"{ch.name} has no Goal {a.goal!r}")
    if a.power_cost and a.power is None:
        raise RuleViolation("F-7", "only a power's extremely powerful use costs Resolve")
    if a.risky and a.against is None:
        raise RuleViolation("F-14", "the risky approach is taken against an opponent")
    if a.power is not None:
        if a.power not in ch.powers:
            raise RuleViolation("F-23", f"{a.power!r} is not one of {ch.name}'s powers")
        if a.power in ch.disabled_powers:
            raise RuleViolation("F-23", f"{a.power} is disabled after a No-and")
        if a.power_cost:
            R.spend(s, ch, 1, "power", "F-7", f"an extremely powerful use of {a.power}")
        ch.power_scene_uses[a.power] = ch.power_scene_uses.get(a.power, 0) + 1
        ch.power_session_uses[a.power] = ch.power_session_uses.get(a.power, 0) + 1
        if s.options.magic_points:
            if ch.magic_pool > 0:
                ch.magic_pool -= 1
            else:
                R.spend(s, ch, 1, "power", "F-23", f"using {a.power} with no magic points left")
    target_name = s.opposition[a.against].name if a.against in s.opposition else a.against
    s.conflict = Conflict(id=new_id(s, "k"), actor=a.player, question=a.question.strip(), intent=a.intent,
                          aligned=list(a.aligned), helpers=list(a.helpers), target_pc=a.against if a.against in live else None,
                          opposition=a.against if a.against in s.opposition else None,
                          claimed=[DieMod(source="descriptor", name=d, dice=1) for d in a.descriptors]
                          + ([DieMod(source="concept", name=ch.concept, dice=1)] if a.use_concept else [])
                          + [DieMod(source="helper", name=d, dice=1) for d in a.helper_descriptors],
                          others={x.seat: x.question.strip() for x in a.others},
                          risky_asked=a.risky, goal=a.goal, goal_step=a.goal_step, power=a.power, asset=a.asset)
    c.emit("attempt", f"{a.question.strip()}" + (f" (against {target_name})" if target_name else ""),
           question=a.question.strip())
    s.conflict.claimed += [DieMod(source="other:" + x.seat, name=d, dice=1) for x in a.others for d in x.descriptors]


def require_conflict(c: Ctx, stage: str | tuple[str, ...]) -> Conflict:
    k = c.s.conflict
    stages = (stage,) if isinstance(stage, str) else stage
    if k is None or k.stage not in stages:
        raise RuleViolation("F-TURN", "no conflict is waiting for that")
    return k


@handles(A.RuleConflict)
def rule_conflict(c: Ctx) -> None:
    """The GM rules stakes per side, strength and every die source; the engine nets them (F-2, F-4,
    F-13, F-16, F-20, F-21, F-25)."""
    s, a = c.s, c.a
    require_gm(c, "rule a conflict")
    k = require_conflict(c, "ruling")
    ch = s.characters[k.actor]
    o = s.options
    if a.risky and not k.risky_asked:
        raise RuleViolation("F-14", "the risky approach is the player's to ask for")
    if a.combat and not o.weapons_armour and (a.exchange != "melee" or a.cramped or a.sprays):
        raise RuleViolation("F-20", "exchanges, cramped quarters and spraying belong to the weapons and armour option")
    for m in a.mods:
        if m.dice not in CLAIM_SOURCES[m.source] or (m.source == "power" and m.dice == 2 and not o.super_descriptors):
            raise RuleViolation("F-4", f"a {m.source.replace('_', ' ')} gives "
                                       f"{' or '.join(f'{d:+d}D' for d in CLAIM_SOURCES[m.source])}, one die each")
    if a.asset_covers and k.asset is None:
        raise RuleViolation("F-22", "only gear or a helper aiding in this conflict spares the Unfamiliarity penalty")
    if a.level_bump and not (o.level_option and o.scale and ch.level > 0):
        raise RuleViolation("F-12", "the level bump needs the level and scale options and a character with a level")
    if (a.pc_range_disadvantage or a.opposition_range_disadvantage or a.pc_auto_fire or a.opposition_auto_fire) \
            and not (o.weapons_armour and a.combat):
        raise RuleViolation("F-20", "range and automatic fire change weapon ratings in combat with the weapons option")
    k.level_bump = a.level_bump
    k.pc_stakes, k.opposition_stakes = a.pc_stakes, a.opposition_stakes
    k.risky, k.combat, k.asset_covers = a.risky, a.combat, a.asset_covers
    if a.risky:  # @53546: 2 Resolve at stake for the PC and 2 for the target
        k.pc_stakes = k.opposition_stakes = "high"
    if a.no_roll:
        k.result, k.stage, k.narrator = D.YES, "narrate", k.actor
        c.emit("ruling", f"no roll needed: Yes{': ' + a.reason if a.reason else ''}")
        return
    every_claim = [m for m in k.claimed if m.name not in a.disallow]
    claimed = [m for m in every_claim if not m.source.startswith("other:")]
    if o.super_descriptors and ch.super_descriptor:
        claimed = [m.model_copy(update={"dice": 2}) if m.source == "descriptor" and m.name == ch.super_descriptor
                   else m for m in claimed]
    if not a.concept_applies:
        claimed = [m for m in claimed if m.source != "concept"]
    mods = [DieMod(source=m.source, name=m.name, dice=m.dice) for m in a.mods]
    if a.asset_covers:
        mods = [m for m in mods if m.source != "unfamiliar"]
    strength = a.strength or (s.opposition[k.opposition].strength if k.opposition else "average")
    if STRENGTH_DICE[strength]:
        mods.append(DieMod(source="strength", name=strength, dice=STRENGTH_DICE[strength]))
    if k.aligned:  # F-25: aligned actors each get +1 die
        mods.append(DieMod(source="aligned", name="aligned actors", dice=1))
    if o.weapons_armour and a.combat and (k.opposition or k.target_pc):
        mods += combat_dice(s, k, a)
    k.mods = claimed + mods
    shared = [m for m in mods if m.source in ("opposing_descriptor", "opposing_condition", "circumstance",
                                               "strength", "aligned")]
    unaligned = [m for m in shared if m.source != "aligned"]
    k.rolls = [make_roll(s, k.actor, k.mods)] + [make_roll(s, seat, shared) for seat in k.aligned] + [
        make_roll(s, seat, [m.model_copy(update={"source": "descriptor"}) for m in every_claim
                            if m.source == "other:" + seat] + unaligned) for seat in k.others]
    k.stage = "roll"
    stakes = f"stakes: {k.pc_stakes} for the PC side, {k.opposition_stakes} for the opposition"
    c.emit("ruling", f"{stakes}; " + ", ".join(f"{m.name or m.source} {m.dice:+d}D" for m in k.mods)
           + (" (risky)" if k.risky else ""), nets={r.key: r.net for r in k.rolls})


def combat_dice(s: GameState, k: Conflict, a: A.RuleConflict) -> list[DieMod]:
    """Weapon comparison and the Superior Armour Bonus, from the ratings (F-20, F-21)."""
    ch = s.characters[k.actor]
    foe: Character | Opposition = s.opposition[k.opposition] if k.opposition else s.characters[k.target_pc]  # type: ignore[index]
    out = []
    pc_w = ch.weapon_rating - (2 if a.pc_range_disadvantage else 0) + (1 if a.pc_auto_fire else 0)
    foe_w = foe.weapon_rating - (2 if a.opposition_range_disadvantage else 0) + (1 if a.opposition_auto_fire else 0)
    w = gear.weapon_die(pc_w, foe_w, a.exchange, a.cramped, a.sprays)
    if w:
        out.append(DieMod(source="weapon", name="weapon rating", dice=w))
    if a.exchange != "one_sided":
        melee = a.exchange == "melee"
        ar = gear.armour_die(gear.armour_rating(ch.armour, melee), foe_w, gear.armour_rating(foe.armour, melee), pc_w)
        if ar:
            out.append(DieMod(source="armour", name="superior armour", dice=ar))
    return out


def make_roll(s: GameState, key: str, mods: list[DieMod]) -> Roll:
    net = sum(m.dice for m in mods)
    if s.options.buckets:  # F-24: positives add d10s to the actor's pool, negatives to the GM's
        pos = sum(m.dice for m in mods if m.dice > 0)
        neg = -sum(m.dice for m in mods if m.dice < 0)
        return Roll(key=key, net=pos, gm_size=D.BUCKETS_BASE + neg)
    return Roll(key=key, net=net)


def roll_size(s: GameState, r: Roll) -> int:
    return D.BUCKETS_BASE + r.net if s.options.buckets else D.pool_size(r.net)


def die_sides(s: GameState) -> int:
    return D.BUCKETS_DIE if s.options.buckets else D.REDUX_DIE


def check_faces(s: GameState, faces: list[int], n: int, what: str) -> list[int]:
    sides = die_sides(s)
    if len(faces) != n:
        raise RuleViolation("F-2", f"{what} rolls {n} dice, {len(faces)} faces were given")
    for f in faces:
        if not 1 <= f <= sides:
            raise RuleViolation("F-2", f"a d{sides} cannot show {f}")
    return list(faces)


def own_result(s: GameState, k: Conflict, r: Roll) -> int | None:
    """One roller's ladder index, after scale (F-2, F-18, F-24)."""
    if s.options.buckets:
        idx, _ = D.buckets_result(r.faces, r.gm_faces, s.options.buckets_extra_and)
    else:
        idx = D.redux_result(r.faces, r.net)
    if idx is not None and s.options.scale:
        ch = s.characters[r.key]
        foe_scale = (s.opposition[k.opposition].scale if k.opposition
                     else s.characters[k.target_pc].scale if k.target_pc else 0)
        bump = 1 if k.level_bump and r.key == k.actor else 0  # F-12, L382: a free bump against lesser foes
        idx = D.scale_shift(idx, ch.scale + bump, foe_scale)
    return idx


@handles(A.RollDice)
def roll_dice(c: Ctx) -> None:
    s, a = c.s, c.a
    k = require_conflict(c, ("roll", "reroll"))
    if k.stage == "roll":
        for r in k.rolls:
            r.faces = check_faces(s, a.faces.get(r.key, []), roll_size(s, r), f"{r.key}'s pool")
            if s.options.buckets:
                r.gm_faces = check_faces(s, a.faces.get(r.key + ":gm", []), r.gm_size, "the GM's pool")
    else:
        r = next(x for x in k.rolls if x.key == k.rerolling)
        new = check_faces(s, a.faces.get(k.rerolling or "", []), len(k.reroll_indices), "the reroll")
        for i, f in zip(k.reroll_indices, new):
            r.faces[i] = f
        k.rerolling, k.reroll_indices = None, []
    for r in k.rolls:
        r.result = own_result(s, k, r)
    k.stage = "after_roll"
    c.emit("roll", "; ".join(f"{r.key}: {r.faces}" + (f" vs GM {r.gm_faces}" if s.options.buckets else "")
                             + f" -> {D.ladder_name(r.result) if r.result is not None else 'impasse'}"
                             for r in k.rolls), player="dice",
           rolls={r.key: {"faces": r.faces, "gm": r.gm_faces, "net": r.net, "result": r.result} for r in k.rolls})


def after_roll_seat(s: GameState, k: Conflict) -> str | None:
    """Who may reroll or keep now: each roller in turn, then a PC opponent (F-17, @59270)."""
    for r in k.rolls:
        if not r.kept:
            return r.key
    if k.target_pc and not k.opponent_done:
        return k.target_pc
    return None


@handles(A.Reroll)
def reroll(c: Ctx) -> None:
    """1 Resolve per reroll of any subset of the dice just rolled, repeats allowed (F-7, L116, F-AMB-5);
    a PC opponent may pay to reroll the roller's dice in his own favour (F-17)."""
    s, a = c.s, c.a
    k = require_conflict(c, "after_roll")
    if after_roll_seat(s, k) != a.player:
        raise RuleViolation("F-TURN", f"it is {after_roll_seat(s, k)}'s choice to reroll or keep")
    mine = a.player if a.player != k.target_pc else k.actor
    if a.key != mine:
        raise RuleViolation("F-7", f"{a.player} can reroll only {mine}'s dice")
    r = next(x for x in k.rolls if x.key == mine)
    pool = r.faces
    if len(set(a.indices)) != len(a.indices) or any(not 0 <= i < len(pool) for i in a.indices):
        raise RuleViolation("F-7", f"choose dice by position, each once, from 0 to {len(pool) - 1}")
    R.spend(s, s.characters[a.player], 1, "reroll", "F-7", "a reroll")
    r.rerolls += 1
    k.rerolling, k.reroll_indices, k.stage = a.key, list(a.indices), "reroll"
    c.emit("reroll", f"rerolls {len(a.indices)} dice", cost=1)


@handles(A.KeepRoll)
def keep_roll(c: Ctx) -> None:
    s, a = c.s, c.a
    k = require_conflict(c, "after_roll")
    if after_roll_seat(s, k) != a.player:
        raise RuleViolation("F-TURN", f"it is {after_roll_seat(s, k)}'s choice to reroll or keep")
    k.soak[a.player] = a.soak
    if a.player == k.target_pc and all(r.kept for r in k.rolls):
        k.opponent_done = True
    else:
        next(x for x in k.rolls if x.key == a.player).kept = True
    c.emit("keep", "keeps the roll")
    if after_roll_seat(s, k) is None:
        settle(c, k)


@handles(A.Concede)
def concede(c: Ctx) -> None:
    """A character on the losing side may concede: he loses on his own terms, +1 if the conflict was
    high stakes for him, 0 if low (F-15, L482-484). Not a way to bank Resolve when winning."""
    s, a = c.s, c.a
    k = require_conflict(c, "after_roll")
    best = max((r.result for r in k.rolls if r.result is not None), default=None)
    if a.player == k.target_pc:
        losing, stakes = best is not None and D.is_yes(best), k.opposition_stakes
    elif a.player in (k.actor, *k.aligned):
        losing, stakes = best is not None and not D.is_yes(best), k.pc_stakes
    else:
        raise RuleViolation("F-15", f"{a.player} has no character in this conflict")
    if not losing:
        raise RuleViolation("F-15", "only a character on the losing side of a conflict can concede")
    ch = s.characters[a.player]
    got = R.gain(s, ch, 1, "concede") if stakes == "high" else 0
    k.conceded_by, k.stage = a.player, "narrate"
    k.result = best
    k.narrator = s.gm if a.player != k.target_pc else k.actor
    c.emit("concede", f"{ch.name} concedes: {a.terms}" + (f" (+{got} Resolve)" if got else ""), gained=got)


def settle(c: Ctx, k: Conflict) -> None:
    """Resolve and its losses from the kept rolls (F-7, F-13, F-14, F-21, F-23, F-25, F-11)."""
    s, o = c.s, c.s.options
    results = [r.result for r in k.rolls if r.result is not None]
    best = max(results) if results else None
    k.result = best
    yes = best is not None and D.is_yes(best)
    for r in k.rolls:
        ch = s.characters[r.key]
        if r.result is None or D.is_yes(r.result):
            continue
        if k.pc_stakes == "high":
            n = 2 if k.risky else 1
            if o.weapons_armour and k.combat and k.soak.get(r.key, True) and n and gear.soak(ch.armour, 1):
                n -= 1
                k.soaked.append(r.key)
                c.emit("soak", f"{ch.name}'s armour soaks a point", player=r.key)
            charge_loss(c, k, ch, n)
        if k.power and r.key == k.actor and o.unreliable_powers and power_fails(ch, k.power, r.result):
            ch.disabled_powers.append(k.power)
            c.emit("power", f"{k.power} fails and stops working ({D.ladder_name(r.result)})", player=r.key)
    if k.target_pc and yes and k.opposition_stakes == "high":
        charge_loss(c, k, s.characters[k.target_pc], 2 if k.risky else 1)
    if k.opposition and yes and k.opposition_stakes == "high":
        opp = s.opposition[k.opposition]
        dmg = 2 if k.risky or (o.yes_and_two and best == D.YES_AND) else 1
        if o.weapons_armour and k.combat:
            piercing = o.armour_piercing and best == D.YES_AND
            if gear.soak(opp.armour, 2 if piercing else 1):
                dmg -= 1
                c.emit("soak", f"{opp.name}'s armour soaks a point", player=s.gm)
        opp.resolve -= dmg
        if opp.resolve < 0:
            opp.defeated = True
        c.emit("opposition_resolve", f"{opp.name}: Resolve {opp.resolve}" + (" - defeated" if opp.defeated else ""),
               player=s.gm, lost=dmg)
    if k.goal and k.goal_step:
        ch = s.characters[k.actor]
        charged = k.pc_stakes == "high" and not o.milestone_stacking
        if k.goal_step == "milestone":
            if yes:
                R.gain(s, ch, 1, "goal_progress")
            elif not charged:
                R.lose(s, ch, 1, "goal_setback")
                k.losses[k.actor] = k.losses.get(k.actor, 0) + 1
        else:
            finish_goal(c, ch, k.goal, yes, charged)
    k.stage = "narrate"
    k.narrator = (max(k.rolls, key=lambda r: -1 if r.result is None else r.result).key if yes else s.gm)
    c.emit("outcome", f"{k.question} -> {D.ladder_name(best) if best is not None else 'Impasse'}",
           player="", result=best)


def power_fails(ch: Character, power: str, result: int) -> bool:
    """Unreliable powers: a No-and disables the power; overused (more than once a scene, or more uses
    in a session than the Resolve cap) it stops on any No or No-and (F-23, L223)."""
    overused = ch.power_scene_uses.get(power, 0) > 1 or ch.power_session_uses.get(power, 0) > ch.cap
    return result == D.NO_AND or (overused and result <= D.NO)


def charge_loss(c: Ctx, k: Conflict, ch: Character, n: int) -> None:
    s = c.s
    if n <= 0:
        return
    R.lose(s, ch, n, "risky" if k.risky else "high_stakes")
    k.losses[ch.seat] = k.losses.get(ch.seat, 0) + n
    c.emit("resolve", f"{ch.name} loses {n} Resolve", player=ch.seat, lost=n)


@handles(A.NarrateOutcome)
def narrate_outcome(c: Ctx) -> None:
    """The narrator tells the answer; an 'and' or 'but' brings a Condition or Detail, by default of the
    tier the Resolve effect gives (F-5, F-19). A GM Yes-and for 2 Resolve, or an armour-piercing
    Yes-and, takes the place of the 'and' (F-14, F-21)."""
    s, a = c.s, c.a
    k = require_conflict(c, "narrate")
    if a.player != k.narrator:
        raise RuleViolation("F-25", f"{k.narrator} narrates this outcome")
    r = k.result
    and_but = r in (D.NO_AND, D.NO_BUT, D.YES_BUT, D.YES_AND) and k.conceded_by is None
    replaced = r == D.YES_AND and ((s.options.yes_and_two and k.opposition and k.opposition_stakes == "high")
                                   or (s.options.armour_piercing and k.combat))
    if and_but and not replaced and not (a.conditions or a.details):
        raise RuleViolation("F-5", f"a '{D.ladder_name(r)}' brings a Condition or a Detail: name one")  # type: ignore[arg-type]
    hurt = [seat for seat, n in k.losses.items() if n > 0] if R.variant(s) == "replace" else []
    for seat in hurt:
        if not any(x.target == seat and not x.positive for x in a.conditions):
            raise RuleViolation("F-26", f"{s.characters[seat].name} lost a high-stakes conflict: in the Replace "
                                        "variant that is a Consequence; name it")
    taken: set[str] = set()
    for cin in a.conditions:
        as_consequence = cin.target in hurt and not cin.positive and cin.target not in taken
        if as_consequence:
            taken.add(cin.target)
        put_condition(c, cin, cin.tier or suggested_tier(s, k, cin.target), consequence=as_consequence)
    sc = s.scene()
    for text in text_of_list(a.details):
        s.details.append(Detail(id=new_id(s, "d"), text=text, by=a.player, seq=s.seq,
                                scene=sc.number if sc else 0, origin="outcome"))
        c.emit("detail", text)
    own = [x.result for x in k.rolls if x.key in (k.actor, *k.aligned) and x.result is not None]
    mine = r if k.conceded_by or not own else max(own)
    s.answers.append(Answer(id=new_id(s, "a"), question=k.question, actor=k.actor, result=-1 if mine is None else mine,
                            text=a.text.strip(), seq=s.seq, scene=sc.number if sc else 0))
    for seat, question in k.others.items():
        res = next((x.result for x in k.rolls if x.key == seat), None)
        s.answers.append(Answer(id=new_id(s, "a"), question=question, actor=seat, result=-1 if res is None else res,
                                text=a.text.strip(), seq=s.seq, scene=sc.number if sc else 0))
    c.emit("narration", a.text.strip(), result=r)
    s.conflict = None
    end_turn(s)


def suggested_tier(s: GameState, k: Conflict, target: str) -> str:
    """F-19's default magnitude from how Resolve was affected (L559-564)."""
    if target in s.characters:
        stakes = k.opposition_stakes if target == k.target_pc else k.pc_stakes
        tier = R.default_tier(stakes, k.losses.get(target, 0), R.level(s, s.characters[target]))
        if target in k.soaked:  # F-21, L286: soaking may also lower the Condition a tier
            tier = TIERS[max(0, TIERS.index(tier) - 1)]
            if stakes == "high" and k.losses.get(target, 0) == 0:
                tier = "minor"
        return tier
    if target in s.opposition and k.opposition == target and k.opposition_stakes == "high":
        opp = s.opposition[target]
        return "moderate" if opp.resolve > 1 else "major"
    return "minor"


# --- after a fall, a Goal, a scenario -----------------------------------------------------------------
@handles(A.EscapeTrade)
def escape_trade(c: Ctx) -> None:
    """Below 0, trade a Trademark for a new permanent Flaw: stay, at full Resolve (F-6, L144; F-AMB-13)."""
    s, a = c.s, c.a
    if a.player not in s.escape:
        raise RuleViolation("F-6", "the trade is offered only when Resolve falls below 0 (F-AMB-13)")
    ch = s.characters[a.player]
    if a.trademark not in ch.trademarks:
        raise RuleViolation("F-6", f"{ch.name} has no Trademark {a.trademark!r} to trade")
    ch.trademarks.remove(a.trademark)
    ch.flaws.append(a.flaw.strip())
    R.restore(s, ch, "escape")
    if a.player in s.escape:
        s.escape.remove(a.player)
    c.emit("escape", f"{ch.name} trades '{a.trademark}' for the Flaw '{a.flaw.strip()}' and stays")


@handles(A.WriteOut)
def write_out(c: Ctx) -> None:
    """Below 0 the character is out; the player narrates the exit (F-6, L140-142)."""
    s, a = c.s, c.a
    if a.player not in s.escape:
        raise RuleViolation("F-6", "only a character below 0 Resolve is written out")
    ch = s.characters[a.player]
    ch.out, ch.out_text = True, a.text.strip()
    s.escape.remove(a.player)
    s.advance.pop(a.player, None)
    c.emit("write_out", f"{ch.name} is out of the game: {a.text.strip()}")
    if not s.live_players():
        sc = s.scene()
        if sc is not None:
            close_scene(c, sc, "no character is left")
        s.phase = "over"


@handles(A.Advance)
def advance(c: Ctx) -> None:
    s, a = c.s, c.a
    kind = s.advance.get(a.player)
    if kind is None:
        raise RuleViolation("F-12", "no finished Goal is waiting for an advancement")
    if s.escape:
        raise RuleViolation("F-6", blocker(s) or "")
    ch = s.characters[a.player]
    o = s.options
    text = a.text.strip()
    ok = {"success": ("trademark", "remove_flaw", "concept", "magic"), "failure": ("flaw", "remove_trademark")}[kind]
    if a.kind not in ok:
        raise RuleViolation("F-12", f"after a Goal's {kind}, choose one of: {', '.join(ok)}")
    if a.kind == "trademark" or a.kind == "flaw":
        if not text:
            raise RuleViolation("F-12", f"name the new {a.kind.title()}")
        (ch.trademarks if a.kind == "trademark" else ch.flaws).append(text)
    elif a.kind == "remove_flaw" or a.kind == "remove_trademark":
        pool = ch.flaws if a.kind == "remove_flaw" else ch.trademarks
        if text not in pool:
            raise RuleViolation("F-12", f"{ch.name} has no such Descriptor {text!r}")
        pool.remove(text)
    elif a.kind == "concept":
        if not o.concept_option:
            raise RuleViolation("F-12", "the Concept option is not switched on at this table")
        if len(text_of_list(a.abilities)) != 3:
            raise RuleViolation("F-12", "the Concept option adds three new abilities")
        ch.concept_abilities.extend(text_of_list(a.abilities))
    elif a.kind == "magic":
        if not o.magic_points:
            raise RuleViolation("F-12", "magic points are not switched on at this table")
        ch.magic_pool += 2
    ch.goals.append(a.new_goal.strip())
    del s.advance[a.player]
    c.emit("advance", f"{ch.name}: {a.kind.replace('_', ' ')} {text}; new Goal '{a.new_goal.strip()}'")


@handles(A.AddRelationship)
def add_relationship(c: Ctx) -> None:
    """A new Relationship at each scenario's end, positive or negative as the player chooses (F-12)."""
    s, a = c.s, c.a
    if a.player not in s.relationships_due:
        raise RuleViolation("F-12", "a new Relationship comes at the end of a scenario")
    ch = s.characters[a.player]
    ch.relationships.append(Relationship(target=a.target.strip(), positive=a.positive))
    s.relationships_due.remove(a.player)
    c.emit("relationship", f"{ch.name} gains a {'positive' if a.positive else 'negative'} Relationship: {a.target}")
    after_aftermath(s)


@handles(A.RenameDescriptor)
def rename_descriptor(c: Ctx) -> None:
    """At the end of a session a Descriptor may be renamed; Flaws stay Flaws, Trademarks stay
    Trademarks; Relationships may be rewritten (F-12, L378)."""
    s, a = c.s, c.a
    ch = character(s, a.player, "F-12")
    require_free(c)
    if s.scene() is not None:
        raise RuleViolation("F-12", "Descriptors are renamed at the end of a session, not mid-scene")
    new = a.new.strip()
    if a.kind == "concept":
        if a.old != ch.concept:
            raise RuleViolation("F-12", f"{ch.name}'s Concept is {ch.concept!r}")
        ch.concept = new
    elif a.kind == "relationship":
        rel = next((r for r in ch.relationships if r.target == a.old), None)
        if rel is None:
            raise RuleViolation("F-12", f"{ch.name} has no Relationship with {a.old!r}")
        i = ch.relationships.index(rel)
        ch.relationships[i] = Relationship(target=new, positive=rel.positive if a.positive is None else a.positive)
    else:
        pool = ch.trademarks if a.kind == "trademark" else ch.flaws
        if a.old not in pool:
            raise RuleViolation("F-12", f"{ch.name} has no {a.kind.title()} {a.old!r}")
        pool[pool.index(a.old)] = new
    c.emit("rename", f"{ch.name}: '{a.old}' is now '{new}' ({a.kind})")

"""Vele's `apply`: one handler per action, each refusing with the rule it breaks.

The flow per act: bids (V-57) → roll-offs → each player's purchase (V-10) → scenes framed by the
narrator (V-52) with turns in initiative order (V-42) → struggles (V-27) → the narrator rotates
after each extended struggle (V-55, V-AMB-12) → the narrator ends the act (V-56) → the next act,
with fresh dice; after the last act the story ends.
"""
from __future__ import annotations

from typing import Callable

from pydantic import BaseModel, ValidationError

from engine.core.errors import RuleViolation
from engine.vele import actions as A
from engine.vele import block_abilities as BA
from engine.vele import economy as E
from engine.vele import groups as G
from engine.vele.adjudication import mechanics_may_affect
from engine.vele.awards import d4_alone, non_attack_win
from engine.vele.components import check_part_of, check_struggle_against, check_temporary_stakes, use_one_shot
from engine.vele.tactics import (aided_attack_difficulty, block_value, check_aided_damage, hidden_roll,
                                  may_attack_now)
from engine.vele import struggle as S
from engine.vele.copying import state_copy
from engine.vele.events import Event
from engine.vele.options import VeleOptions
from engine.vele.state import (Ability, Blocking, Component, Exclusion, Extended, GameState, Player, Record, Scene,
                               SideState, Spotlight, Stake, Struggle, TempAspect, Trait)

HANDLERS: dict[str, Callable[["Ctx"], None]] = {}
COMPONENT_TRAITS = {"minion": 1, "normal": 4, "main": 6}  # V-14
COMPONENT_ASPECTS = {"minion": 0, "normal": 3, "main": 4}  # V-14, V-AMB-3


class Ctx:
    def __init__(self, s: GameState, a: BaseModel) -> None:
        self.s, self.a, self.events = s, a, []

    def emit(self, kind: str, text: str, player: str = "", **data) -> None:
        self.events.append(Event(seq=self.s.seq, kind=kind, player=player, text=text, data=data))


def handles(model: type[BaseModel]):
    def deco(fn: Callable[[Ctx], None]) -> Callable[[Ctx], None]:
        HANDLERS[model.model_fields["type"].default] = fn
        return fn
    return deco


def new_game(seats: list[str], options: VeleOptions | dict | None = None) -> GameState:
    """A story at its first act's bids; the bowl holds the table's dice (V-9)."""
    opts = options if isinstance(options, VeleOptions) else VeleOptions(**(options or {}))
    if not 2 <= len(seats) <= 12:
        raise RuleViolation("V-SEATS", "Death of the Vele needs 2 to 12 players")
    if len(set(seats)) != len(seats):
        raise RuleViolation("V-SEATS", "every seat needs its own name")
    n = len(seats)
    bowl = sorted([4, 6, 8, 10] * (opts.bowl_sets * n) + [12] * n)
    s = GameState(seats=list(seats), options=opts, players={x: Player(name=x) for x in seats}, bowl=bowl,
                  acts=opts.acts or n)  # V-58: one act per player by default
    s.total_points = E.points(bowl)
    return s


def apply(state: GameState, action: BaseModel | dict) -> tuple[GameState, list[Event]]:
    if isinstance(action, dict):
        try:
            action = A.parse_action(action)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(x) for x in first.get("loc", ()))
            raise RuleViolation("V-INPUT", f"the action is malformed: {where}: {first.get('msg')}") from None
    if not isinstance(action, A.RollDice) and getattr(action, "player", "") not in state.players:
        raise RuleViolation("V-SEAT", f"{getattr(action, 'player', '')!r} is not a seat at this table")
    s = state_copy(state)  # apply never mutates its input: replays and undo keep every state
    s.seq += 1
    c = Ctx(s, action)
    HANDLERS[action.type](c)  # type: ignore[attr-defined]
    return c.s, c.events


# --- shared helpers -----------------------------------------------------------------------------
def need_phase(c: Ctx, *phases: str) -> None:
    if c.s.phase not in phases:
        raise RuleViolation("V-FLOW", f"that is not done now: the game is at '{c.s.phase}'")


def untold(s: GameState) -> str | None:
    """V-31 (L690), rules version 4: the player who still owes the table the last hidden roll's effect, if any.
    The book: "the other side hides their roll and tells you the effect": the telling is the roll's end, so it
    comes before play goes on (decisions.pending waits for it; check_told refuses what would go past it). Before
    version 4 the tell was offered while the roll was the last one, and a new struggle could bury it untold."""
    r = s.records[-1] if s.records else None
    if s.rules_version < 4 or r is None or not r.hidden_from or r.told:
        return None
    return next((n for n in s.seats if n not in r.hidden_from), None)


def check_told(s: GameState) -> None:
    """V-31 (L690), rules version 4: no new struggle, and no end of the scene (ending it, the act, or passing the
    narration), before the hidden roll is told."""
    teller = untold(s)
    if teller is not None:
        raise RuleViolation("V-31", f"{teller} first tells in the story how the last hidden roll went (L690: the other "
                                    "side \"tells you the effect\"); then play goes on")


def take_from_bowl(s: GameState, dice: list[int], rule: str) -> None:
    if s.options.unlimited_bowl:
        s.total_points += E.points(dice)
        return
    s.bowl = E.remove_dice(s.bowl, dice, rule, "the bowl")


def to_bowl(s: GameState, dice: list[int]) -> None:
    s.bowl = sorted(s.bowl + list(dice))


def bowl_take_points(s: GameState, pts: int) -> list[int]:
    """Dice from the bowl worth `pts` points, largest first and never a d12 (V-13 top-ups)."""
    out: list[int] = []
    for size in (10, 8, 6, 4):
        while pts >= E.POINTS[size] and (s.options.unlimited_bowl or size in s.bowl):
            take_from_bowl(s, [size], "V-9")
            out.append(size)
            pts -= E.POINTS[size]
    return out


def player_of(s: GameState, comp: Component) -> str:
    return comp.controller or comp.owner


def pool_of(s: GameState, comp: Component) -> str:
    return "character" if comp.kind == "pc" else "story"


def comp(s: GameState, cid: str, rule: str = "V-FLOW") -> Component:
    if cid not in s.components:
        raise RuleViolation(rule, f"there is no component {cid!r}")
    return s.components[cid]


def d4_alone_xp(c: Ctx, sides: list[SideState]) -> None:
    """V-19 (L627): after the roll, 1 XP to each side's player who used a d4 trait by itself (awards.d4_alone)."""
    for side in sides:
        sizes = [c.s.components[x.component or side.component].trait(x.trait).size  # type: ignore[union-attr]
                 for x in side.stakes]
        if d4_alone(sizes, side.average, bool(side.allies) or any(x.player for x in side.stakes)):
            gain_xp(c, side.player, 1, f"a d4 trait used by itself: {side.stakes[0].trait} (V-19)")


def gain_xp(c: Ctx, name: str, n: int, why: str) -> None:
    """XP earned never goes down; levels and their dice arrive at once (V-50)."""
    p = c.s.players[name]
    before = p.xp_earned
    p.xp += n
    p.xp_earned += n
    c.emit("xp", f"{name} gains {n} XP ({why})", name, xp=n)
    dice = E.xp_dice(before, p.xp_earned)
    if dice:
        got = [d for d in dice if c.s.options.unlimited_bowl or d in c.s.bowl]
        take_from_bowl(c.s, got, "V-50")
        p.character += got
        c.emit("xp_dice", f"{name} reaches {p.xp_earned} XP and gains {', '.join(f'd{d}' for d in got) or 'no die (the bowl is empty)'}",
               name, dice=got)
    for lv in E.levels_gained(before, p.xp_earned):
        c.emit("level", f"{name} reaches level {lv['level']}: " + ", ".join(
            x for x, on in (("may replace bought-off aspects", True), ("a new aspect", lv["aspect"]),
                            ("a new PC trait slot", lv["trait_slot"])) if on), name, level=lv["level"])


# --- bids (V-57) ----------------------------------------------------------------------------------
@handles(A.Bid)
def bid(c: Ctx) -> None:
    s, a = c.s, c.a
    need_phase(c, "bid")
    p = s.players[a.player]
    if p.bid is not None:
        raise RuleViolation("V-57", "you have bid already this act")
    if a.bid > p.xp + 6:
        raise RuleViolation("V-57", f"you have {p.xp + 6} XP to bid with")
    p.bid = a.bid
    c.emit("bid", f"{a.player} sets a secret bid", a.player)
    if all(x.bid is not None for x in s.players.values()):
        settle_bids(c)


def settle_bids(c: Ctx) -> None:
    s = c.s
    bids = {n: p.bid for n, p in s.players.items()}
    order = E.bid_order(bids, {n: p.rolloff for n, p in s.players.items()})  # type: ignore[arg-type]
    if order is None:
        s.phase = "rolloff"
        return
    for n, p in s.players.items():  # V-57: +6 XP, everyone pays their bid
        p.xp = p.xp + 6 - (p.bid or 0)
    c.emit("bids", "bids revealed: " + ", ".join(f"{n} {bids[n]}" for n in order) + f"; initiative {', '.join(order)}",
           bids=bids, order=order)
    s.order = order
    if s.act == 1:
        s.priority = list(order)
    # the act's first narrator: the players take turns by story priority (V-58, simplified to rotation)
    s.narrator = s.priority[(s.act - 1) % len(s.priority)]
    s.narrators.append(s.narrator)
    for p in s.players.values():
        p.bid, p.rolloff, p.built = None, [], False
    s.phase = "build"


@handles(A.RollDice)
def roll_dice(c: Ctx) -> None:
    s, a = c.s, c.a
    if s.phase == "rolloff":
        tied = E.tied_bidders({n: p.bid for n, p in s.players.items()},  # type: ignore[misc]
                              {n: p.rolloff for n, p in s.players.items()})
        for n in tied:
            f = a.faces.get(f"rolloff:{n}")
            if not f or len(f) != 1 or not 1 <= f[0] <= 6:
                raise RuleViolation("V-57", f"a d6 roll-off face for {n} is needed")
            s.players[n].rolloff.append(f[0])
        c.emit("rolloff", "roll-off: " + ", ".join(f"{n} {s.players[n].rolloff[-1]}" for n in tied))
        settle_bids(c)
        return
    if s.phase == "exclusion_roll":
        exclusion_roll(c)
        return
    if s.phase == "vote_roll":
        from engine.vele.votes import vote_roll
        vote_roll(c)
        return
    if s.phase == "heal_roll":
        from engine.vele.mending import heal_roll
        heal_roll(c)
        return
    if s.phase == "struggle" and s.struggle and s.struggle.stage == "roll":
        struggle_roll(c)
        return
    raise RuleViolation("V-FLOW", "no dice are asked for now")


# --- the purchase (V-10, V-14..V-18, V-21, V-23) --------------------------------------------------
def check_component(ci: A.ComponentIn, pc_level: int, rule_prefix: str = "") -> list[int]:
    """The dice paying for a component's traits (one die per trait, V-15), after its limits."""
    sizes = [t.size for t in ci.traits]
    for t in ci.traits:
        if t.size not in E.SIZES:
            raise RuleViolation("V-AMB-2", f"{t.name}: traits are d4 to d12")
    if len({t.name for t in ci.traits}) != len(ci.traits):
        raise RuleViolation("V-14", f"{ci.name}: every trait needs its own name")
    if ci.kind == "pc":
        slots, aspects = E.pc_trait_slots(pc_level), E.pc_aspects(pc_level)
        if not {4, 6, 8} <= set(sizes):
            raise RuleViolation("V-18", f"{ci.name}: a PC needs at least one d4, one d6 and one d8 trait")
    else:
        slots, aspects = COMPONENT_TRAITS[ci.kind], COMPONENT_ASPECTS[ci.kind]
    if not ci.traits:
        raise RuleViolation("V-14", f"{ci.name}: a component has at least one trait")
    if len(ci.traits) > slots:
        raise RuleViolation("V-14", f"{ci.name}: a {ci.kind} component has {slots} trait slots")
    if len(ci.aspects) > aspects:
        raise RuleViolation("V-14", f"{ci.name}: a {ci.kind} component has up to {aspects} aspects")
    if sum(1 for t in ci.traits if t.focus) > 1:
        raise RuleViolation("V-17", f"{ci.name}: at most one focus trait per component")
    if 12 in sizes:
        raise RuleViolation("V-10", f"{ci.name}: no d12s at the start of an act, so no d12 trait can be bought now")
    dice = list(sizes)
    if ci.ability is not None:
        ab = ci.ability
        tr = next((t for t in ci.traits if t.name == ab.trait), None)
        if tr is None:
            raise RuleViolation("V-24", f"{ci.name}: an ability is tied to one of its traits")
        if ab.size > tr.size:
            raise RuleViolation("V-24", f"{ci.name}: {ab.effect} {ab.size} is larger than its trait d{tr.size}")
        BA.check_purchase(ab.effect, ab.size)
        dice += [ab.size]  # V-AMB-17: the ability costs the points of its dN
        dice += list(ab.dice)
    return dice


def make_component(s: GameState, ci: A.ComponentIn, owner: str) -> Component:
    s.counter += 1
    cid = f"c{s.counter}"
    ab = ci.ability
    return Component(id=cid, name=ci.name, owner=owner, kind=ci.kind,
                     traits=[Trait(name=t.name, size=t.size, focus=t.focus) for t in ci.traits],
                     aspects=list(ci.aspects),
                     abilities=[Ability(trait=ab.trait, effect=ab.effect, size=ab.size)] if ab else [],
                     allocated=list(ab.dice) if ab else [], original_allocated=E.points(ab.dice) if ab else 0,
                     vele=ci.vele, stationary=ci.stationary, one_shot=ci.one_shot)


@handles(A.Build)
def build(c: Ctx) -> None:
    s, a = c.s, c.a
    need_phase(c, "build")
    p = s.players[a.player]
    if p.built:
        raise RuleViolation("V-10", "you have bought this act's PC already")
    if a.pc.kind != "pc":
        raise RuleViolation("V-14", "the first component you buy is your PC")
    lvl = E.level(p.xp_earned)
    pc_dice = check_component(a.pc, lvl)
    if a.xp_spent > p.xp:
        raise RuleViolation("V-AMB-1", f"you have {p.xp} XP to spend")
    budget = s.options.character_points + a.xp_spent * s.options.xp_purchase_rate
    char_cost = E.points(pc_dice) + E.points(a.character_dice)
    if char_cost > budget:
        raise RuleViolation("V-10", f"the PC and character dice cost {char_cost} points; you have {budget}")
    kinds = [x.kind for x in a.story]
    if kinds.count("main") != 1 or kinds.count("normal") < 3 or "pc" in kinds:
        raise RuleViolation("V-23", "each act you make one main and at least 3 normal story components")
    story_dice: list[int] = []
    for ci in a.story:
        story_dice += check_component(ci, lvl)
    story_cost = E.points(story_dice) + E.points(a.story_dice)
    if story_cost > s.options.story_points:
        raise RuleViolation("V-10", f"the story components and story dice cost {story_cost} points; "
                                    f"you have {s.options.story_points}")
    if 12 in a.character_dice or 12 in a.story_dice:
        raise RuleViolation("V-10", "you get no d12s at the start of an act")
    # the purchase: dice come from the bowl; trait and ability dice go straight back (they are spent),
    # allocated dice stay on the sheet, the rest are the player's pools
    take_from_bowl(s, pc_dice + story_dice + a.character_dice + a.story_dice, "V-9")
    spent = [d for d in pc_dice] + story_dice
    pc = make_component(s, a.pc, a.player)
    for d in pc.allocated:
        spent.remove(d)
    comps = [pc]
    for ci in a.story:
        k = make_component(s, ci, a.player)
        for d in k.allocated:
            spent.remove(d)
        comps.append(k)
        if ci.kind == "minion":  # V-16: a dN minion brings a second minion one size smaller
            s.counter += 1
            t = ci.traits[0]
            comps.append(Component(id=f"c{s.counter}", name=f"{ci.name} (second)", owner=a.player, kind="minion",
                                   traits=[Trait(name=t.name, size=E.smaller(t.size))]))
    to_bowl(s, spent)
    for k in comps:
        s.components[k.id] = k
    p.xp -= a.xp_spent
    p.character = sorted(a.character_dice)
    p.story = sorted(a.story_dice)
    p.built = True
    if a.objective and s.act == 1 and not s.objective and a.player == s.priority[0]:
        s.objective = a.objective  # V-58: the story objective is written by the first player
    c.emit("build", f"{a.player} buys {pc.name} ({', '.join(f'{t.name} d{t.size}' for t in pc.traits)}) and "
           f"{len(comps) - 1} story components", a.player, pc=pc.id)
    if a.spotlight:
        if p.pc_spotlights >= s.options.pc_spotlights_per_story:
            raise RuleViolation("V-61", f"your PC has had its {s.options.pc_spotlights_per_story} spotlights this "
                                        "story (V-AMB-13): make none this act")
        p.pc_spotlights += 1
        s.spotlights.append(Spotlight(maker=a.player, text=a.spotlight, act=s.act))
    if all(x.built for x in s.players.values()):
        deal_spotlights(c)
        s.phase = "frame"


def deal_spotlights(c: Ctx) -> None:
    """V-61: by the newer rule (L737) the act's cards lie in the middle of the table, for whoever narrates to
    bring about; by the older text (L935, logs before version 2) players other than the makers take them in turns."""
    s = c.s
    cards = [x for x in s.spotlights if x.act == s.act]
    if not cards:
        return
    if s.options.spotlight_cards == "middle":
        c.emit("spotlights", "spotlight cards in the middle of the table: "
               + "; ".join(f"{x.maker}'s: {x.text}" for x in cards))
        return
    if len(s.seats) < 2:
        return
    held = G.deal_spotlights([(x.maker, x.text) for x in cards], s.order)
    for holder, got in held.items():
        for maker, text in got:
            card = next(x for x in cards if x.maker == maker and x.text == text and not x.holder)
            card.holder = holder
    c.emit("spotlights", "spotlight cards: " + "; ".join(f"{x.holder} holds {x.maker}'s" for x in cards))


@handles(A.AddGuideline)
def add_guideline(c: Ctx) -> None:
    s, a = c.s, c.a
    need_phase(c, "build", "frame", "scene", "narrator")
    if s.phase != "build" and a.player != s.narrator:
        raise RuleViolation("V-54", f"during an act only the narrator ({s.narrator}) adds guidelines")
    s.guidelines.append(a.text)
    c.emit("guideline", f"guideline: {a.text}", a.player)


# --- scenes (V-52) --------------------------------------------------------------------------------
def require_narrator(c: Ctx, doing: str) -> None:
    if c.a.player != c.s.narrator:  # type: ignore[attr-defined]
        raise RuleViolation("V-52", f"only the narrator ({c.s.narrator}) can {doing}")


@handles(A.FrameScene)
def frame_scene(c: Ctx) -> None:
    s, a = c.s, c.a
    need_phase(c, "frame")
    require_narrator(c, "frame a scene")
    for cid in a.present:
        k = comp(s, cid, "V-52")
        if k.out:
            raise RuleViolation("V-36", f"{k.name} is taken out and cannot be present")
    sc = Scene(number=len(s.scenes) + 1, act=s.act, narrator=s.narrator, place=a.place, text=a.text,
               present=list(dict.fromkeys(a.present)))
    s.scenes.append(sc)
    if a.zones is not None or a.placed:
        from engine.vele.movement import lay_zones
        lay_zones(s, sc, a)
    c.emit("scene", f"Scene {sc.number} ({s.narrator} narrating): {a.place}. {a.text}".strip(), a.player)
    if s.groups:  # V-60 (L732): with no PC present, group members are handed out to the other players
        from engine.vele.group_play import hand_out
        hand_out(c)
    if a.exclude is not None:
        k = comp(s, a.exclude.component, "V-52")
        if k.owner == s.narrator:
            raise RuleViolation("V-52", "you keep your own components out without a roll")
        if a.exclude.die not in s.players[s.narrator].story:
            raise RuleViolation("V-52", f"you have no story d{a.exclude.die} to offer")
        s.players[s.narrator].story = E.remove_dice(s.players[s.narrator].story, [a.exclude.die], "V-52", "you")
        s.exclusion = Exclusion(component=k.id, owner=k.owner, narrator_die=a.exclude.die)
        if k.id in sc.present:
            sc.present.remove(k.id)
        s.phase = "exclusion"
        c.emit("exclude", f"{s.narrator} offers a d{a.exclude.die} to keep {k.name} out of the scene", a.player)
        return
    start_turns(s)


def start_turns(s: GameState) -> None:
    """V-42: each player with a component present acts in initiative order; the narrator plays the
    story side's turn last."""
    sc = s.scene
    assert sc is not None
    owners = {player_of(s, s.components[x]) for x in sc.present if not s.components[x].out}
    sc.turns = [n for n in s.order if n in owners and n != s.narrator] + [s.narrator]
    sc.turn = 0
    if sc.moved:
        sc.moved = {}
    s.allying = {}  # V-43: allying is for the round
    s.round_seq = s.seq  # V-45: what happens from here on is this round's
    s.phase = "scene"
    fall_blocks(s)


def fall_blocks(s: GameState) -> None:
    """V-39 (L479): a block stands "before your next turn": it falls when its player's turn comes again."""
    if s.blocks:
        s.blocks = [b for b in s.blocks if b.player != current_turn(s)]


@handles(A.AnswerExclusion)
def answer_exclusion(c: Ctx) -> None:
    s, a = c.s, c.a
    need_phase(c, "exclusion")
    ex = s.exclusion
    assert ex is not None
    if a.player != ex.owner:
        raise RuleViolation("V-52", f"{ex.owner} answers for their own component")
    p = s.players[a.player]
    if a.accept:
        p.story.append(ex.narrator_die)
        c.emit("exclude", f"{a.player} accepts the d{ex.narrator_die} and stays out", a.player)
        s.exclusion = None
        start_turns(s)
        return
    if a.die is not None:
        p.character = E.remove_dice(p.character, [a.die], "V-52", "you")
    ex.owner_die = a.die
    ex.accepted = False
    s.phase = "exclusion_roll"


def exclusion_roll(c: Ctx) -> None:
    """V-52, V-AMB-16: PC die against story die; a missing die counts 0; a tie goes to the owner;
    the loser gets both dice."""
    s, ex, f = c.s, c.s.exclusion, c.a.faces
    assert ex is not None
    nf = f.get("narrator", [])
    of = f.get("owner", []) if ex.owner_die else [0]
    if len(nf) != 1 or not 1 <= nf[0] <= ex.narrator_die or len(of) != 1 or \
            (ex.owner_die and not 1 <= of[0] <= ex.owner_die):
        raise RuleViolation("V-52", "the exclusion roll needs the narrator's and the owner's faces")
    dice = [ex.narrator_die] + ([ex.owner_die] if ex.owner_die else [])
    sc = s.scene
    assert sc is not None
    k = s.components[ex.component]
    if nf[0] > of[0]:
        s.players[ex.owner].character.extend(dice)
        c.emit("exclude", f"exclusion roll {nf[0]} against {of[0]}: {k.name} stays out; {ex.owner} gets the dice",
               s.narrator, narrator=nf[0], owner=of[0])
    else:
        s.players[s.narrator].story.extend(dice)
        sc.present.append(k.id)
        c.emit("exclude", f"exclusion roll {nf[0]} against {of[0]}: {k.name} is in the scene; {s.narrator} gets the dice",
               ex.owner, narrator=nf[0], owner=of[0])
    s.exclusion = None
    start_turns(s)


def current_turn(s: GameState) -> str | None:
    sc = s.scene
    if sc is None or sc.turn >= len(sc.turns):
        return None
    return sc.turns[sc.turn]


def advance_turn(s: GameState) -> None:
    sc = s.scene
    assert sc is not None
    sc.turn += 1
    if sc.moved:
        sc.moved = {}  # V-44: moves are counted per turn
    s.phase = "scene" if sc.turn < len(sc.turns) else "narrator"
    fall_blocks(s)


@handles(A.PassTurn)
def pass_turn(c: Ctx) -> None:
    need_phase(c, "scene")
    if c.a.player != current_turn(c.s):
        raise RuleViolation("V-25", f"it is {current_turn(c.s)}'s turn")
    c.emit("pass", f"{c.a.player} passes", c.a.player)
    advance_turn(c.s)


@handles(A.NextRound)
def next_round(c: Ctx) -> None:
    need_phase(c, "narrator")
    require_narrator(c, "start a new round")
    start_turns(c.s)
    c.emit("round", "a new round of turns", c.a.player)


# --- struggles (V-25..V-37) -----------------------------------------------------------------------
@handles(A.StartStruggle)
def start_struggle(c: Ctx) -> None:
    s, a = c.s, c.a
    need_phase(c, "scene")
    check_told(s)  # V-31
    sc = s.scene
    assert sc is not None
    actor, target = comp(s, a.actor, "V-25"), comp(s, a.target, "V-26")
    turn = current_turn(s) or ""
    # V-25, V-41 (L437): a component acts on its player's turn; stationary terrain attacks a nearby component
    # on that component's turn instead ("as soon as they walk over it"), and the turn stays theirs
    interrupt = actor.stationary and a.player != turn
    if interrupt:
        may_attack_now(actor.id, True, target.id if player_of(s, target) == turn else "", target.id,
                       nearby=not sc.zones or sc.zone_of(actor.id) == sc.zone_of(target.id))  # V-44: its zone
    elif a.player != turn:
        raise RuleViolation("V-25", f"you may start a struggle on your turn; it is {turn}'s")
    if interrupt and (a.goal != "attack" or a.extended or a.head_to_head):
        raise RuleViolation("V-41", "terrain strikes its victim with a single attack on the victim's turn")
    check_acting(s, actor, a.player)
    if target.id not in sc.present:
        raise RuleViolation("V-35", f"{target.name} is not present in the scene")
    if target.out:
        raise RuleViolation("V-36", "a component that is taken out cannot struggle")
    if actor.id == target.id:
        raise RuleViolation("V-26", "a component struggles against another")
    mechanics_may_affect(target.vele, target.kind == "pc", s.options.vele_off_stage)  # V-7
    if target.virtual:  # V-22 (L249)
        check_struggle_against("virtual")
    if player_of(s, target) == a.player:
        raise RuleViolation("V-63", "your own components acting against each other: give one to another player first")
    if a.target_trait is not None:
        tr = target.trait(a.target_trait)
        if tr is None or not tr.healthy:
            raise RuleViolation("V-34", f"{target.name} has no healthy trait {a.target_trait!r}")
    if a.head_to_head and (a.goal != "maneuver" or a.extended or a.target_trait):
        raise RuleViolation("V-26", "a head-to-head struggle is a contest of two actors: a maneuver, not an attack")
    if a.hidden and (a.extended or a.head_to_head or interrupt):
        raise RuleViolation("V-31", "a hidden roll is one exchange, the other side hiding its roll: not an extended "
                                    "fight, a race or a terrain strike")
    if a.hidden and a.goal in ("block", "overcome"):  # V-31, V-39: the block's value is what the other must beat
        raise RuleViolation("V-31", "a block, or overcoming one, cannot be a hidden roll: whether it stands, and the "
                                    "result to beat, must be told")
    aides = [x for x in s.components.values() if x.unit == target.id and not x.attached and x.kind != "minion"
             and not x.out and x.id in sc.present]
    if aides and a.goal in ("attack", "control"):  # V-45, V-EX-14 (L427): an aided component is hit by targeting
        aided_attack_difficulty(target.trait(a.target_trait).size if a.target_trait else None, True)  # a trait
    block = check_blocks(s, actor, target, a)
    start_exchange(c, actor, target, a.goal, a.target_trait, a.text)
    if block is not None:  # V-39: the blocker does not roll again: its result stands, it wagers nothing
        s.struggle.opponent.wagered = True  # type: ignore[union-attr]
        s.struggle.opponent.difficulty = 0  # type: ignore[union-attr]
    s.struggle.hidden = a.hidden  # type: ignore[union-attr]
    # V-39: what a block prevents; V-24: also what a Block / Auto-Block ability's block would
    s.struggle.prevents = a.prevents  # type: ignore[union-attr]
    s.struggle.head_to_head = a.head_to_head  # type: ignore[union-attr]
    s.struggle.interrupt = interrupt  # type: ignore[union-attr]
    if a.extended:
        s.extended = Extended(a=actor.id, b=target.id, failures={actor.id: 0, target.id: 0})
        c.emit("extended", f"an extended struggle begins: {actor.name} against {target.name}", a.player)


def check_acting(s: GameState, actor: Component, player: str) -> None:
    """The component that starts a struggle (start_struggle, and mass.start_mass_struggle's Area actor): the player's
    to play (V-53), present and not taken out (V-35, V-36), touched by mechanics (V-7, L173: not a non-player Vele
    under vele_off_stage) and not virtual (V-22, L249), not sitting out its next struggle after allying (V-43), and
    not a one-shot already used (V-21, L205: "only usable once")."""
    sc = s.scene
    if player_of(s, actor) != player:
        raise RuleViolation("V-53", f"{actor.name} is not yours to play")
    if sc is None or actor.id not in sc.present:
        raise RuleViolation("V-35", f"{actor.name} is not present in the scene")
    if actor.out:
        raise RuleViolation("V-36", "a component that is taken out cannot struggle")
    mechanics_may_affect(actor.vele, actor.kind == "pc", s.options.vele_off_stage)
    if actor.virtual:
        check_struggle_against("virtual")
    if actor.id in s.forfeit:
        raise RuleViolation("V-43", f"{actor.name} allied earlier and may do nothing during its next struggle: "
                                    "act with another component or pass")
    if actor.one_shot:
        use_one_shot(actor.used)


def check_blocks(s: GameState, actor: Component, target: Component, a: BaseModel) -> Blocking | None:
    """V-39 (L479-481): a block is one exchange with a stated aim; a blocked component must first overcome the
    block (goal 'overcome' against the blocker) before the struggle it prevents. Returns the block overcome."""
    goal = a.goal  # type: ignore[attr-defined]
    if goal in ("block", "overcome") and (a.extended or a.head_to_head):  # type: ignore[attr-defined]
        raise RuleViolation("V-39", "a block, and overcoming one, is a single exchange")
    prevents = getattr(a, "prevents", "")  # V-39, V-24: a block's aim, or a Block ability's (a mass struggle: none)
    if prevents and prevents not in s.components:
        raise RuleViolation("V-39", "state what the block prevents: a component the target may not act against")
    standing = [b for b in s.blocks if b.target == actor.id]
    if goal == "overcome":
        block = next((b for b in standing if b.blocker == target.id), None)
        if block is None:
            raise RuleViolation("V-39", f"{target.name} has no block standing against {actor.name}")
        return block
    stops = next((b for b in standing if not b.prevents or b.prevents == target.id), None)
    if stops is not None:
        raise RuleViolation("V-39", f"{s.components[stops.blocker].name} blocks {actor.name}: overcome the block "
                                    f"first (exceed its result, {stops.value})")
    return None


def block_after(c: Ctx, k: Struggle, result: int) -> None:
    """V-39, V-24 (L479): a block that succeeds stands with its result; an overcome block falls."""
    s = c.s
    if k.goal == "block":
        value = block_value(None, k.winner == "actor", result)
        if value is not None:
            b = Blocking(blocker=k.actor.component, target=k.opponent.component, value=value, player=k.actor.player,
                         prevents=k.prevents)
            s.blocks.append(b)
            what = s.components[b.prevents].name if b.prevents else "any struggle"
            c.emit("block", f"{s.components[b.blocker].name} blocks {s.components[b.target].name} ({what}) "
                            f"until {b.player}'s next turn: {value} to beat", k.actor.player)
    elif k.goal == "overcome":
        if k.winner == "actor":
            s.blocks = [b for b in s.blocks
                        if not (b.target == k.actor.component and b.blocker == k.opponent.component)]
            k.interrupt = True  # the turn goes on: now it may do what it was blocked from
            c.emit("unblock", f"{s.components[k.actor.component].name} overcomes the block", k.actor.player)
        else:
            c.emit("blocked", f"{s.components[k.actor.component].name} does not overcome the block: it may not do "
                              "that now", k.actor.player)


def counter_target(s: GameState, thing_id: str) -> Record | None:
    """V-41 (L441): the scene's last struggle, if its actor failed against the stationary thing `thing_id`, both
    are still in the scene and no counter-struggle was asked for yet; else None."""
    sc = s.scene
    r = s.records[-1] if s.records else None
    thing = s.components.get(thing_id)
    if r is None or sc is None or r.scene != sc.number or r.opponent != thing_id or r.winner != "opponent" or \
            r.countered or thing is None or not thing.stationary or s.extended is not None:
        return None
    victim = s.components[r.actor]
    if thing.out or victim.out or thing.id not in sc.present or victim.id not in sc.present:
        return None
    return r


def start_exchange(c: Ctx, actor: Component, target: Component, goal: str, target_trait: str | None, text: str) -> None:
    s = c.s
    diff = E.POINTS[target.trait(target_trait).size] if target_trait else 0  # V-27 step 4, V-34
    s.struggle = Struggle(goal=goal, text=text, target_trait=target_trait,  # type: ignore[arg-type]
                          actor=SideState(component=actor.id, player=player_of(s, actor), difficulty=diff),
                          opponent=SideState(component=target.id, player=player_of(s, target)))
    s.phase = "struggle"
    c.emit("struggle", f"{actor.name} ({player_of(s, actor)}) {goal}s {target.name}"
           + (f"'s {target_trait} (-{diff})" if target_trait else "") + (f": {text}" if text else ""),
           player_of(s, actor), goal=goal, actor=actor.id, target=target.id)


@handles(A.NarratorNo)
def narrator_no(c: Ctx) -> None:
    s, a = c.s, c.a
    need_phase(c, "struggle")
    require_narrator(c, "say no")
    k = s.struggle
    if k is None or k.stage != "difficulty" or s.extended is not None and s.extended.exchanges > 0:
        raise RuleViolation("V-3", "the narrator says no before any die is pushed, not in the middle of a fight")
    if k.actor.player == a.player:
        raise RuleViolation("V-3", "the narrator's no is said to another player's struggle")
    s.struggle = None
    s.extended = None
    s.phase = "scene"  # V-1: the player must do something else; the turn is still theirs
    c.emit("narrator_no", f"{a.player} says no" + (f": {a.reason}" if a.reason else "") +
           f"; {k.actor.player} must do something else", a.player)


@handles(A.StateDifficulty)
def state_difficulty(c: Ctx) -> None:
    """V-27 step 4, V-AMB-5: the narrator states the situational difficulty before traits are chosen."""
    s, a = c.s, c.a
    need_phase(c, "struggle")
    k = s.struggle
    assert k is not None
    if k.stage != "difficulty":
        raise RuleViolation("V-AMB-5", "difficulties are stated before traits are chosen")
    require_narrator(c, "state this difficulty")
    k.situational = a.value
    k.actor.difficulty += a.value
    k.stage = first_wager(s, k)
    c.emit("difficulty", f"difficulty -{a.value}" + (f": {a.reason}" if a.reason else "") if a.value else
           "no situational difficulty", a.player, value=a.value)


@handles(A.Wager)
def wager(c: Ctx) -> None:
    s, a = c.s, c.a
    need_phase(c, "struggle")
    k = s.struggle
    assert k is not None
    if k.stage not in ("wager_actor", "wager_opponent"):
        raise RuleViolation("V-27", "this is not the time to push dice")
    side = k.actor if k.stage == "wager_actor" else k.opponent
    if a.player != side.player:
        raise RuleViolation("V-27", f"{side.player} pushes dice now (the actor's side pushes first)")
    cp = s.components[side.component]
    if not a.stakes and cp.id not in s.forfeit:
        raise RuleViolation("V-27", "push at least one die on one trait")
    if a.stakes and cp.id in s.forfeit:
        raise RuleViolation("V-43", f"{cp.name} allied earlier and may do nothing during this struggle")
    if len({(x.member, x.trait) for x in a.stakes}) != len(a.stakes):
        raise RuleViolation("V-27", "one die per trait used")
    if k.mass:  # V-38 (L433): the Area trait is used; power is paid for every target or not at all
        from engine.vele.mass import check_mass_wager
        check_mass_wager(k, side, cp, a)
    if k.hidden and (any(x.source != "bowl" for x in a.stakes) or a.power or a.allies or a.average):
        raise RuleViolation("V-31", "no wagering on a hidden roll: roll bowl dice for your traits, with no power, "
                                    "average die or allies; they all go back to the bowl")
    p = s.players[a.player]
    pools: dict[str, list[int]] = {pool_of(s, cp): list(getattr(p, pool_of(s, cp)))}
    bowl_dice: list[int] = []
    owners: list[Component] = []  # whose trait each stake is: cp's, or a unit member's (V-45)
    for st in a.stakes:
        if st.member:  # V-45 (L683): a component attached with cp pools its trait
            from engine.vele.units import unit_member
            owner = unit_member(s, side, cp, st.member, a.allies)
        else:
            owner = cp
        owners.append(owner)
        tr = owner.trait(st.trait)
        if tr is None:
            raise RuleViolation("V-27", f"{owner.name} has no trait {st.trait!r}")
        if not tr.healthy:
            raise RuleViolation("V-27", f"{st.trait} is disabled")
        if st.die > tr.size:
            raise RuleViolation("V-27", f"a d{st.die} is larger than the d{tr.size} trait {st.trait}")
        if owner.temporary:  # V-22 (L187)
            check_temporary_stakes([st.source])
        if st.source == "own":  # V-45 reading: a member's die comes from the pool that member draws on
            name = pool_of(s, owner)
            pools[name] = E.remove_dice(pools.get(name, list(getattr(p, name))), [st.die], "V-27", f"your {name} pool")
        else:
            bowl_dice.append(st.die)
    # V-19: with an applicable d4 trait, no higher trait may be used (the d4 trait is read as applicable
    # when it is used at all); a unit struggles as one component, so across its members (V-45 reading)
    sizes = [o.trait(st.trait).size for o, st in zip(owners, a.stakes)]  # type: ignore[union-attr]
    if 4 in sizes and max(sizes) > 4:
        raise RuleViolation("V-19", "with an applicable d4 trait, higher traits cannot be used"
                            + ("; a unit struggles as one component, so this holds across its members (V-45)"
                               if any(o is not cp for o in owners) else ""))
    allocs: dict[str, list[int]] = {}
    goal_effect = "power_attack" if side is k.actor or k.head_to_head else "power_defense"
    staked = {(o.id, st.trait) for o, st in zip(owners, a.stakes)}
    for d in a.power:  # V-24: an ability on a trait pushed (a member's too, V-45), paid from its sheet's dice
        fits = [o for o in {o.id: o for o in owners}.values() for x in o.abilities
                if x.effect == goal_effect and (o.id, x.trait) in staked and d <= x.size]
        if not fits:
            raise RuleViolation("V-24", f"no {goal_effect.replace('_', ' ')} ability on a trait used can take a d{d}")
        o = next((o for o in fits if d in allocs.get(o.id, o.allocated)), fits[0])
        allocs[o.id] = E.remove_dice(allocs.get(o.id, list(o.allocated)), [d], "V-27", "the ability's allocated dice")
    if len(a.power) > len(a.stakes) * (1 + len(k.others) if side is k.actor else 1):
        raise RuleViolation("V-27", "one power die per powered trait")
    if a.block is not None:  # V-24 (L663-664): its die is paid to the bowl now, from the actor's own sheet
        allocs[cp.id] = BA.pay(s, k, side, cp, a.block, {st.trait for o, st in zip(owners, a.stakes) if o is cp},
                               allocs.get(cp.id, list(cp.allocated)))
    if not s.options.unlimited_bowl:
        need = bowl_dice + ([6] if a.average else [])
        E.remove_dice(s.bowl, need, "V-9", "the bowl")
    take_from_bowl(s, bowl_dice + ([6] if a.average else []), "V-9")
    for name, dice in pools.items():
        setattr(p, name, dice)
    for cid, dice in allocs.items():
        s.components[cid].allocated = dice
    if a.block is not None:
        to_bowl(s, [BA.SIZES[a.block]])
        side.block = a.block
    side.stakes = [Stake(trait=x.trait, die=x.die, source=x.source, component=x.member) for x in a.stakes]
    side.power = list(a.power)
    side.average = a.average
    side.wagered = True
    side.called = check_called(s, k, a.allies)
    if side is k.opponent and k.goal == "attack" and any(s.components[x].one_shot for x in a.allies):
        check_part_of("one_shot", "absorb")  # V-21 (L205): a defending ally would take damage for it (V-35)
    c.emit("wager", f"{cp.name} pushes " + ", ".join(f"d{x.die} on " + (f"{o.name}'s " if o is not cp else "") + x.trait
                                                     + (" (bowl)" if x.source == "bowl" else "")
                                                     for o, x in zip(owners, a.stakes))
           + (f" with power {', '.join(f'd{d}' for d in a.power)}" if a.power else "")
           + (" and the average d6" if a.average else "")
           + (f", using {BA.NAMES[a.block]} (a d{BA.SIZES[a.block]} to the bowl)" if a.block else "")
           + (f"; calls {', '.join(s.components[x].name for x in a.allies)} as allies" if a.allies else ""), a.player)
    after_wager(k, side)


def after_wager(k: Struggle, side: SideState) -> None:
    """The side's called allies answer first (V-43), then the other side pushes, then the roll. In a mass
    struggle (V-38) each defender pushes in turn: the next one takes the `opponent` seat."""
    if side.called:
        k.stage = "ally"
        return
    waiting = [o for o in k.others if not o.wagered]
    if side is k.opponent and waiting:  # the defender who pushed goes to the back: the zone's order is kept
        k.others = [o for o in k.others if o is not waiting[0]] + [k.opponent]
        k.opponent = waiting[0]
        k.stage = "wager_opponent"
        return
    other = k.opponent if side is k.actor else k.actor
    k.stage = "roll" if other.wagered else ("wager_opponent" if side is k.actor else "wager_actor")


def check_called(s: GameState, k: Struggle, called: list[str]) -> list[str]:
    """V-43 (L445): both parties may call for allies: components present in the scene, not taken out, not
    already in this struggle or in an extended fight."""
    sc = s.scene
    busy = {k.actor.component, k.opponent.component, *k.actor.allies, *k.opponent.allies}
    if s.extended is not None:
        busy |= {s.extended.a, s.extended.b}
    for cid in called:
        x = comp(s, cid, "V-43")
        if sc is None or cid not in sc.present or x.out:
            raise RuleViolation("V-43", f"{x.name} is not in the scene to ally")
        if cid in busy:
            raise RuleViolation("V-43", f"{x.name} is already occupied in this struggle")
        mechanics_may_affect(x.vele, x.kind == "pc", s.options.vele_off_stage)  # V-7
    if len(set(called)) != len(called):
        raise RuleViolation("V-43", "call each ally once")
    return list(called)


def first_wager(s: GameState, k: Struggle) -> str:
    """Offensive/defensive: the actor's side pushes first (L383). Head-to-head: sides take turns from the
    lowest initiative (L385, V-AMB-6), dice hidden until both are in."""
    if not k.head_to_head:
        return "wager_actor"
    rank = {n: i for i, n in enumerate(s.order)}
    return "wager_opponent" if rank.get(k.opponent.player, 0) > rank.get(k.actor.player, 0) else "wager_actor"


def struggle_roll(c: Ctx) -> None:
    s, f = c.s, c.a.faces
    k = s.struggle
    assert k is not None
    for side, key in roll_sides(k):
        dice = [x.die for x in side.stakes] + ([6] if side.average else [])
        faces = [f.get(f"{key}:{i}", [0])[0] if len(f.get(f"{key}:{i}", [])) == 1 else 0 for i in range(len(dice))]
        pf = [f.get(f"{key}_power:{i}", [0])[0] if len(f.get(f"{key}_power:{i}", [])) == 1 else 0
              for i in range(len(side.power))]
        for face, d in [*zip(faces, dice), *zip(pf, side.power)]:
            if not 1 <= face <= d:
                raise RuleViolation("V-27", f"a d{d} cannot show {face}")
        side.faces, side.power_faces = faces, pf
        BA.read_reroll(side, f, key)
    if k.goal == "overcome":  # V-39: "don't roll again; reuse your result"
        k.opponent.faces = [next(b.value for b in s.blocks if b.target == k.actor.component
                                 and b.blocker == k.opponent.component)]
    if k.hidden:  # V-31: the actor cannot tell its result, so there is no fate to weigh; the effect is told
        c.emit("rolled", "a hidden roll: only the other side sees it, and tells the effect in the story")
        resolve(c)
        return
    k.fate_queue = fate_order(s, k)
    k.stage = "fate"
    c.emit("rolled", f"rolled: {s.components[k.actor.component].name} {faces_of(k.actor)}, "
           + ", ".join(f"{s.components[x.component].name} {faces_of(x)}" for x in (k.opponent, *k.others))
           + "; fate may be spent now")


def roll_sides(k: Struggle) -> list[tuple[SideState, str]]:
    """The sides that roll and the keys of their dice: a mass struggle's further defenders are other0, other1..."""
    return [(k.actor, "actor"), (k.opponent, "opponent"), *((o, f"other{j}") for j, o in enumerate(k.others))]


def faces_of(side: SideState) -> list[int]:
    return list(side.faces)


def fate_order(s: GameState, k: Struggle) -> list[str]:
    """V-30 (L696-701): everyone rolls, then one side spends fate, then the other. Pulpy: actor first;
    gritty: opponent first; heroic: story characters first; doomed: PCs first; PC v PC and story v story
    under heroic or doomed use the table's pulpy-or-gritty choice."""
    a, o = k.actor.player, k.opponent.player
    tone = s.options.tone
    a_pc, o_pc = s.components[k.actor.component].kind == "pc", s.components[k.opponent.component].kind == "pc"
    if tone in ("heroic", "doomed") and a_pc != o_pc:
        story_first = tone == "heroic"
        actor_first = (not a_pc) == story_first
    else:
        actor_first = (tone if tone in ("pulpy", "gritty") else s.options.tone_fallback) == "pulpy"
    if k.others:  # V-38: every defending player once, on the defenders' side of the order
        d = [x for x in dict.fromkeys(x.player for x in (k.opponent, *k.others)) if x != a]
        return [a, *d] if actor_first else [*d, a]
    return [a, o] if actor_first else [o, a]


@handles(A.SpendFate)
def spend_fate(c: Ctx) -> None:
    """V-46, V-AMB-14: 1 XP-funded fate use per player per scene; a scene aspect's free tag costs no XP
    and does not count. +2 with an aspect, +1 without."""
    s, a = c.s, c.a
    need_phase(c, "struggle")
    k = s.struggle
    if k is None or k.stage != "fate" or not k.fate_queue or k.fate_queue[0] != a.player:
        who = k.fate_queue[0] if k is not None and k.stage == "fate" and k.fate_queue else None
        raise RuleViolation("V-30", f"fate is spent after the roll, one side then the other" +
                            (f": {who} decides now" if who else ""))
    k.fate_queue.pop(0)
    side = k.actor if a.player == k.actor.player else k.opponent
    sides = [side] if side is k.actor else [x for x in (k.opponent, *k.others) if x.player == a.player]
    if not a.skip:
        comp_ = s.components[side.component if side.player == a.player else sides[0].component]
        p = s.players[a.player]
        scene_no = s.scene.number if s.scene else 0
        tag = next((x for x in s.aspects if x.text == a.aspect and x.free_tags > 0), None) if a.aspect else None
        if a.aspect and tag is None and a.aspect not in comp_.aspects:
            raise RuleViolation("V-46", f"{a.aspect!r} is neither {comp_.name}'s aspect nor a scene aspect with a free tag")
        if tag is not None:
            tag.free_tags -= 1
            how = "a free tag"
        else:
            if p.xp < 1:
                raise RuleViolation("V-46", "fate costs 1 XP and you have none")
            if p.fate_scene == scene_no:
                raise RuleViolation("V-AMB-14", "one XP-funded fate use per player per scene")
            p.xp -= 1
            p.fate_scene = scene_no
            how = "1 XP"
        for x in sides:  # V-38: a defending player's fate counts for each of its components hit (reading)
            x.bonus += 2 if a.aspect else 1
        c.emit("fate", f"{a.player} spends {how}" + (f" on '{a.aspect}'" if a.aspect else "") +
               f": +{2 if a.aspect else 1}", a.player)
    if not k.fate_queue:
        resolve(c)


def resolve(c: Ctx) -> None:
    """V-27 steps 6-11 with the dice flow of V-AMB-8/9/10 and the XP of V-35, V-48."""
    s = c.s
    k = s.struggle
    assert k is not None
    if k.mass:
        from engine.vele.mass import resolve_mass_struggle
        resolve_mass_struggle(c)
        return
    act = S.Side(tuple(k.actor.faces), tuple(k.actor.power_faces), k.actor.difficulty, k.actor.bonus)
    opp = S.Side(tuple(k.opponent.faces), tuple(k.opponent.power_faces), k.opponent.difficulty, k.opponent.bonus)
    out = S.decide("head_to_head" if k.head_to_head else "offensive", act, opp)
    win, lose = (k.actor, k.opponent) if out.winner == "actor" else (k.opponent, k.actor)
    from engine.vele.units import flow_key
    keys: dict[str, tuple[str, Component]] = {}  # V-45: a unit member's die goes back to the pool it came from
    stakes = lambda side: [S.Stake(x.die, x.source, flow_key(s, side, x, keys)) for x in side.stakes]  # noqa: E731
    ally_players = list(dict.fromkeys(x.player for x in win.stakes if x.component and x.player != win.player))
    flow = S.dice_flow(stakes(win), stakes(lose), [*k.actor.power, *k.opponent.power],
                       None if out.winner is None else win.player, tie_no_winner=out.winner is None,
                       allies_first=ally_players)
    if k.hidden:  # V-31: nothing was wagered: every die (all bowl dice) goes back to the bowl
        flow = S.Flow(to_player={}, to_bowl=[x.die for x in [*k.actor.stakes, *k.opponent.stakes]])
    avg = [6] * (int(k.actor.average) + int(k.opponent.average))  # V-AMB-7: back to the bowl
    to_bowl(s, flow.to_bowl + avg)
    told: dict[str, list[int]] = {}
    for key, dice in flow.to_player.items():
        who = keys[key][0] if key in keys else key
        told.setdefault(who, []).extend(dice)
        if key in keys:
            cp = keys[key][1]
        elif who in (win.player, lose.player):
            cp = s.components[win.component] if who == win.player else s.components[lose.component]
        else:  # an ally's player: paid into the pool its component draws on (V-43, V-AMB-9)
            cp = s.components[next(x.component for x in [*win.stakes, *lose.stakes] if x.player == who)]
        pool = pool_of(s, cp)
        setattr(s.players[who], pool, sorted(getattr(s.players[who], pool) + dice))
    ac, oc = s.components[k.actor.component], s.components[k.opponent.component]
    for side in (k.actor, k.opponent):  # V-43: a forfeited component has now sat out its next struggle
        if side.component in s.forfeit and not side.stakes:
            s.forfeit.remove(side.component)
    k.winner = out.winner
    k.effect = max(0, out.effect) if out.winner == "actor" or (k.head_to_head and out.winner) else 0
    if k.goal in ("block", "overcome"):
        block_after(c, k, out.actor_result)
    made = BA.block_after_roll(s, k, out.winner, act)
    if made is not None:  # V-24 (L663-664): a Block / Auto-Block ability's block
        what = s.components[made.prevents].name if made.prevents else "any struggle"
        c.emit("block", f"{s.components[made.blocker].name} also blocks {s.components[made.target].name} ({what}) "
                        f"until {made.player}'s next turn: {made.value} to beat ({BA.NAMES[k.actor.block]})",
               made.player)
    if k.hidden:  # V-31 (L690): "tells you the effect so that you don't know whether you failed": with no power
        # and no fate the effect is above 0 exactly when the actor won, so its number would tell; the other side's
        # player, who alone sees the roll, tells it in the story, and the number stays in that player's view
        hidden_roll(act, opp, wagered=False)
        c.emit("roll", f"{ac.name}'s hidden roll against {oc.name}: {oc.owner} tells the effect in the story",
               ac.owner, flow={}, to_bowl=flow.to_bowl)
    else:
        c.emit("roll", f"{ac.name} rolls {list(k.actor.faces)} → {out.actor_result}; {oc.name} rolls "
               f"{list(k.opponent.faces)} → {out.opponent_result}; "
               + (f"{(ac if out.winner == 'actor' else oc).name} wins" if out.winner
                  else "a tie with no winner: every die goes home")
               + (f", effect {k.effect}" if k.effect else ""),
               ac.owner, actor=out.actor_result, opponent=out.opponent_result, winner=out.winner, effect=k.effect,
               flow=told, to_bowl=flow.to_bowl)
    # V-48 (L562); V-31 (L690): a hidden roll's winner is never told, so no XP follows from it (the award, in
    # the public log and the owner's XP, would tell the actor's player what the hidden roll keeps from them)
    if s.rules_version >= 3:
        d4_alone_xp(c, [k.actor, k.opponent])
        wc = ac if out.winner == "actor" else oc if out.winner else None
        if wc is not None and non_attack_win(k.goal, wc.kind, k.hidden):
            gain_xp(c, wc.owner, 1, f"{wc.name}, a story component, wins a struggle that is not an attack (V-48)")
    elif out.winner == "actor" and ac.kind != "pc" and k.goal == "maneuver" and not k.hidden:  # logs before v3
        gain_xp(c, ac.owner, 1, "a story component wins a struggle that is not an attack (V-48)")
    ac.used = ac.used or ac.one_shot  # V-21: a one-shot that has acted is spent
    s.records.append(Record(seq=s.seq, scene=s.scene.number if s.scene else 0, actor=ac.id, opponent=oc.id,
                            goal=k.goal, actor_result=out.actor_result, opponent_result=out.opponent_result,
                            winner=out.winner, effect=k.effect, text=k.text,
                            hidden_from=[n for n in s.seats if n != k.opponent.player] if k.hidden else []))
    if k.goal == "maneuver" and (out.winner == "actor" or (k.head_to_head and out.winner)):
        wc, lc = (ac, oc) if out.winner == "actor" else (oc, ac)  # head-to-head: the winner is the "actor" (L394)
        m = S.maneuver(k.effect)
        if m["aspect"]:
            s.aspects.append(TempAspect(text=k.text or f"{wc.name} has the upper hand", on=lc.id, kind=m["aspect"],
                                        by=wc.owner))
            c.emit("aspect", f"{m['aspect']} aspect on {lc.name}" + (f", {m['spin']} spin" if m["spin"] else ""),
                   wc.owner)
    if k.effect > 0 and k.goal in ("attack", "control"):
        k.stage = "damage"
        return
    after_exchange(c)


@handles(A.TakeDamage)
def take_damage(c: Ctx) -> None:
    s, a = c.s, c.a
    need_phase(c, "struggle")
    k = s.struggle
    assert k is not None
    if k.stage != "damage":
        raise RuleViolation("V-35", "there is no effect to absorb now")
    oc, ac = s.components[k.opponent.component], s.components[k.actor.component]
    if a.player != k.opponent.player:
        raise RuleViolation("V-35", f"{k.opponent.player} chooses which traits {oc.name} loses")
    ally_comps = [x for x in k.opponent.allies if k.goal == "attack"]  # V-37: never for control
    if set(a.allies) - set(ally_comps):
        raise RuleViolation("V-35", "only the defending side's allies lose traits in the ally rounds"
                            + (" (control attacks fall on the target alone, V-37)" if k.goal == "control" else ""))
    from engine.vele.units import attached_with
    if k.mass and (a.allies or a.unit and not set(a.unit) <= set(attached_with(s, oc))):
        raise RuleViolation("V-38", "each component a mass struggle beats absorbs its own effect: no allies or "
                                    "unattached components take it for it (L433: an attached unit is hit as one)")
    if a.unit:
        unit_damage(s, k, oc, a)
    elif ally_comps:
        S.check_ally_damage(k.effect, oc.healthy(), a.traits, k.target_trait,
                            [(x, sum(1 for st in k.opponent.stakes if st.component == x), s.components[x].healthy(),
                              a.allies.get(x, [])) for x in ally_comps])
    else:
        S.check_damage(k.effect, oc.healthy(), a.traits, k.target_trait)
    unit = a.unit or {}
    for x, names in (*a.allies.items(), *unit.items()):
        xc = s.components[x]
        for name in names:
            xc.trait(name).damage = "S" if a.scene_only else "X"  # type: ignore[union-attr]
        if names:
            c.emit("damage", f"{xc.name} ({'ally' if x in a.allies else 'integrated'}) loses {', '.join(names)}",
                   a.player, traits=list(names))
        if not xc.healthy():
            xc.out = True
            c.emit("out", f"{xc.name} is taken out ({s.options.taken_out_meaning})", a.player)
    for name in a.traits:
        tr = oc.trait(name)
        assert tr is not None
        if k.goal == "control":  # V-37: marked with the attacker's initial, recovers at scene end
            tr.control.append(k.actor.player[:1].upper())
        else:
            tr.damage = "S" if a.scene_only else "X"
    if ac.kind != "pc" and k.goal == "attack":  # V-35: the story owner gets 1 XP a trait, +1 if targeted
        n = len(a.traits) + sum(len(x) for x in (*a.allies.values(), *unit.values())) + \
            (1 if k.target_trait in a.traits else 0)
        gain_xp(c, ac.owner, n, "traits disabled by a story component (V-35)")
    rec = next((r for r in reversed(s.records) if r.opponent == oc.id), None)  # V-38: one record per defender
    if rec is not None:
        rec.disabled = list(a.traits)
    c.emit("damage", f"{oc.name} loses {', '.join(a.traits)}" + (" (control)" if k.goal == "control" else ""),
           a.player, traits=list(a.traits))
    if not oc.healthy():
        if k.goal == "control":
            oc.controller = k.actor.player
            c.emit("control", f"{k.actor.player} controls {oc.name} until the scene ends", k.actor.player)
        else:
            oc.out = True
            c.emit("out", f"{oc.name} is taken out ({s.options.taken_out_meaning})", a.player)
    after_exchange(c)


def unit_mates(s: GameState, oc: Component) -> list[str]:
    """V-45: the components integrated with `oc` in the scene (the one it aids, and those aiding either)."""
    sc = s.scene
    head = oc.unit or oc.id
    return [x.id for x in s.components.values() if x.id != oc.id and not x.out and sc is not None
            and x.id in sc.present and (x.id == head or x.unit == head)]


def unit_damage(s: GameState, k: Struggle, oc: Component, a: BaseModel) -> None:
    """V-45 (L427): after a successful attack on a component of a unit, "the first trait disabled must come from
    the targeted component, but for the rest of the effect, the owner can freely choose to use traits from other
    components integrated with it" (tactics.check_aided_damage); the traits together absorb the effect (V-35)."""
    if k.goal != "attack" or a.allies:  # type: ignore[attr-defined]
        raise RuleViolation("V-45", "traits of the unit absorb an attack's effect only: not a control attack's, "
                                    "nor alongside allies' rounds")
    mates = unit_mates(s, oc)
    unit = a.unit or {}  # type: ignore[attr-defined]
    stray = [x for x in unit if x not in mates]
    if stray:
        raise RuleViolation("V-45", f"{s.components[stray[0]].name if stray[0] in s.components else stray[0]} "
                                    f"is not integrated with {oc.name}")
    chosen = [(oc.id, t) for t in a.traits] + [(x, t) for x, ts in unit.items() for t in ts]
    check_aided_damage(oc.id, chosen, [oc.id, *mates])
    healthy = {f"{cid}/{t}": n for cid in (oc.id, *mates) for t, n in s.components[cid].healthy().items()}
    S.check_damage(k.effect, healthy, [f"{cid}/{t}" for cid, t in chosen],
                   f"{oc.id}/{k.target_trait}" if k.target_trait else None)


def after_exchange(c: Ctx) -> None:
    """Close the exchange; an extended struggle goes on until a side cannot continue or surrenders."""
    s = c.s
    k = s.struggle
    assert k is not None
    if k.hits:  # V-38: the next defender the mass struggle beat absorbs its effect
        next_hit(k)
        return
    s.struggle = None
    ex = s.extended
    if ex is None:
        s.phase = "scene"
        if not k.interrupt:  # V-41: after terrain strikes, the victim's turn goes on
            advance_turn(s)
        elif s.scene is not None and s.scene.turn >= len(s.scene.turns):
            s.phase = "narrator"  # a counter-struggle after the round's last turn: the round is still over
        return
    ex.exchanges += 1
    other, won = k.opponent.component, k.winner
    if k.mass:  # V-38: an Area strike in the fight (mass.fight_strike): its outcome against the fight's other side
        other = ex.b if k.actor.component == ex.a else ex.a
        won = next(r.winner for r in reversed(s.records) if r.actor == k.actor.component and r.opponent == other)
    loser = other if won == "actor" else k.actor.component
    if k.goal != "maneuver":
        ex.failures[loser] = ex.failures.get(loser, 0) + 1
        lc, wc = s.components[loser], s.components[k.actor.component if loser == other else other]
        if lc.kind == "pc" and wc.kind != "pc" and ex.failures[loser] == 1:
            gain_xp(c, wc.owner, 1, "a PC's first failure in an extended struggle (V-51)")
    a, b = s.components[ex.a], s.components[ex.b]
    if a.out or b.out or a.controller == player_of(s, b) or b.controller == player_of(s, a):
        loser_c = a if (a.out or a.controller) else b
        end_extended(c, loser_c)
        return
    ex.next_actor = other  # the other side strikes back
    s.phase = "struggle"
    s.struggle = None


def next_hit(k: Struggle) -> None:
    """V-38: seat the next beaten defender of a mass struggle as `opponent` to absorb its own effect."""
    cid = k.hits.pop(0)
    i = next(j for j, o in enumerate(k.others) if o.component == cid) if k.opponent.component != cid else -1
    if i >= 0:
        k.others[i], k.opponent = k.opponent, k.others[i]
    k.effect = k.hit_effects[cid]
    k.stage = "damage"


def end_extended(c: Ctx, loser: Component) -> None:
    """V-32, V-55: the extended struggle is over; the narrator role moves on (V-AMB-12)."""
    s = c.s
    ex = s.extended
    assert ex is not None
    winner = s.components[ex.b if loser.id == ex.a else ex.a]
    if loser.kind == "pc" and winner.kind != "pc":
        gain_xp(c, winner.owner, 3, "a PC's ultimate failure in an extended struggle (V-51)")
    c.emit("extended_end", f"the extended struggle ends: {winner.name} prevails over {loser.name}", winner.owner)
    s.extended = None
    s.extended_done += 1
    rotate(c, [])


def rotate(c: Ctx, volunteers: list[str]) -> None:
    s = c.s
    old = s.narrator
    s.narrator = E.next_narrator(s.order, old, volunteers)
    s.narrators.append(s.narrator)
    s.rotations += 1
    c.emit("narrator", f"the narrator role passes from {old} to {s.narrator}", s.narrator)
    end_scene_now(c)


@handles(A.ContinueFight)
def continue_fight(c: Ctx) -> None:
    s, a = c.s, c.a
    ex = s.extended
    if ex is None or s.struggle is not None or s.phase != "struggle":
        raise RuleViolation("V-32", "there is no extended struggle waiting to go on")
    me = s.components[ex.next_actor]
    other = s.components[ex.b if me.id == ex.a else ex.a]
    if a.player != player_of(s, me):
        raise RuleViolation("V-32", f"{player_of(s, me)} decides whether {me.name} goes on")
    if a.surrender:
        c.emit("surrender", f"{me.name} gives up the struggle", a.player)
        end_extended(c, me)
        return
    if a.area or a.targets:  # V-38 (L433, L453): an Area strike in the fight
        if s.rules_version < 4:
            raise RuleViolation("V-38", "in this game (Vele rules version 3 or older) an Area strikes only as a turn's "
                                        "mass struggle, not in a fight")
        if a.target_trait:
            raise RuleViolation("V-38", "an Area strike hits whole components, not one trait")
        from engine.vele.mass import fight_strike
        fight_strike(c, me, other, list(a.targets), a.text)
        return
    start_exchange(c, me, other, "attack", a.target_trait, a.text)


def end_scene_now(c: Ctx) -> None:
    """V-13, V-35, V-37, V-47: at scene end S damage and control marks clear, control ends, sticky and
    fragile aspects go, and each PC tops up its allocated dice."""
    s = c.s
    sc = s.scenes[-1] if s.scenes else None
    if sc is not None:
        sc.ended = True
    for k in s.components.values():
        for t in k.traits:
            t.control = []
            if t.damage == "S":
                t.damage = ""
        k.controller = None
        if k.kind == "pc" and k.original_allocated and not k.out:
            p = s.players[k.owner]
            gain = E.top_up(k.original_allocated, E.points(k.allocated), p.character)
            if gain:
                got = bowl_take_points(s, gain)
                k.allocated += got
                c.emit("top_up", f"{k.name} tops up {E.points(got)} allocated points", k.owner, points=E.points(got))
    for k in [x for x in s.components.values() if x.temporary or x.virtual]:
        del s.components[k.id]  # V-22 (L523): the scene's temporary and virtual components are gone
        c.emit("gone", f"{k.name} is gone with the scene", k.owner)
    s.aspects = []
    s.blocks = []  # V-39: blocks do not outlast the scene
    s.struggle = None
    s.extended = None
    s.allying, s.forfeit = {}, []  # V-43: the scene's allies and their forfeits end with it
    s.healed = {}  # V-40: a scene's end stands for "after each conflict": a new healing attempt is possible
    s.phase = "frame"
    c.emit("end_scene", f"Scene {sc.number if sc else 0} ends")


@handles(A.EndScene)
def end_scene(c: Ctx) -> None:
    need_phase(c, "narrator", "scene")
    require_narrator(c, "end the scene")
    check_told(c.s)  # V-31
    end_scene_now(c)


@handles(A.PassNarration)
def pass_narration(c: Ctx) -> None:
    need_phase(c, "frame", "narrator")
    require_narrator(c, "pass the narration")
    check_told(c.s)  # V-31: the scene would end with the hidden roll untold
    rotate(c, [])


@handles(A.Recombine)
def recombine(c: Ctx) -> None:
    s, a = c.s, c.a
    if s.struggle is not None and s.struggle.stage in ("roll", "fate", "damage"):
        raise RuleViolation("V-15", "not during a struggle's resolution")
    p = s.players[a.player]
    pool = getattr(p, a.pool)
    left = E.remove_dice(pool, a.give, "V-11", f"your {a.pool} pool")
    (E.check_upgrade if a.upgrade else E.check_downgrade)(a.give, a.take)
    if any(d not in E.SIZES for d in a.take):
        raise RuleViolation("V-8", "dice are d4 to d12")
    if not s.options.unlimited_bowl:
        # the new dice come from the bowl and the old ones go back: the bowl must hold them
        s.bowl = E.remove_dice(s.bowl + list(a.give), a.take, "V-9", "the bowl")
    setattr(p, a.pool, sorted(left + a.take))
    c.emit("recombine", f"{a.player} recombines {a.give} into {a.take}", a.player)


@handles(A.EndAct)
def end_act(c: Ctx) -> None:
    """V-56: the narrator ends the act; V-49: an achieved objective buys it off and every player gets
    XP; V-10: all dice go back to the bowl for the next act's fresh purchase."""
    s, a = c.s, c.a
    need_phase(c, "frame", "narrator")
    require_narrator(c, "end the act")
    check_told(s)  # V-31
    if s.scene is not None:
        end_scene_now(c)
    if a.objective_achieved and s.objective and not s.objective_done:
        s.objective_done = True
        for n in s.players:
            gain_xp(c, n, 10, "the story objective is bought off (V-49)")
        gain_xp(c, s.narrator, 3, "narrator for the bought-off objective (V-48)")
    c.emit("end_act", f"Act {s.act} ends" + (f": {a.text}" if a.text else ""), a.player)
    for p in s.players.values():
        to_bowl(s, p.character + p.story)
        p.character, p.story = [], []
    for k in s.components.values():
        to_bowl(s, k.allocated)
    s.components = {}
    s.groups = []  # V-60: groups are the act's, like its story components
    if s.act >= s.acts:
        s.phase = "over"
        c.emit("end_story", "the story ends")
        return
    s.act += 1
    s.phase = "bid"


def dice_in_play(s: GameState) -> int:
    """Points the table holds anywhere: pools, sheets, the bowl, a struggle's stake, an exclusion."""
    total = E.points(s.bowl)
    for p in s.players.values():
        total += E.points(p.character) + E.points(p.story)
    for k in s.components.values():
        total += E.points(k.allocated)
    if s.struggle is not None and s.struggle.stage != "damage":  # at "damage" the dice have moved already
        for side in (s.struggle.actor, s.struggle.opponent, *s.struggle.others):
            total += E.points([x.die for x in side.stakes]) + E.points(side.power) + (2 if side.average else 0)
    if s.exclusion is not None:
        total += E.points([s.exclusion.narrator_die] + ([s.exclusion.owner_die] if s.exclusion.owner_die else []))
    return total


from engine.vele import allying as _allying  # noqa: E402,F401  (registers join_ally on HANDLERS)
from engine.vele import mending as _mending  # noqa: E402,F401  (registers heal on HANDLERS)
from engine.vele import votes as _votes  # noqa: E402,F401  (registers the vote handlers on HANDLERS)
from engine.vele import making as _making  # noqa: E402,F401  (registers make_component on HANDLERS)
from engine.vele import group_play as _group_play  # noqa: E402,F401  (registers make_group, connect on HANDLERS)
from engine.vele import movement as _movement  # noqa: E402,F401  (registers move on HANDLERS)
from engine.vele import mass as _mass  # noqa: E402,F401  (registers start_mass_struggle on HANDLERS)

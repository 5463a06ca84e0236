"""HeuristicPlayer: the offline co-player. A real strategy, no model, no network.

It follows the rulebook's advice (rules/universalis-addons.md section 3): specific Tenets,
no duplicates; bids sized by what it wants to frame and what it holds; scenes framed on its
own cast, a Tenet made concrete and a first Event; components with personality, goal, limit
and relationship Traits; Complications when coins run low or a scene stalls; every applicable
Trait drawn; contradictions of established Facts challenged; bonus coins spent on the
Complication's outcome; a reserve kept. A persona (data) shifts each of these choices.
Every candidate action is checked with the engine before it is returned, so it never asks the
table for an illegal move.
"""
from __future__ import annotations

import random
from typing import Callable, Iterable

from pydantic import BaseModel

from agents import heuristic_addons
from agents.base import Decision, Observation
from agents.presend import presend_clash
from agents.narration import Words
from agents.personas import Persona, persona as persona_named
from agents.table import QUIET_EVENTS
from engine.universalis import actions as A
from engine.universalis import addon_judgment as judgment
from engine.universalis.components import importance, own_importance, trait_ids_drawable
from engine.universalis.ledger import available
from engine.universalis.state import Complication, Component, GameState, Scene

Plan = tuple[BaseModel, str]
SOLO_DEEDS = 4  # Events a character does alone in one scene before its player stops narrating more
MAX_WOUNDS = 3  # wounds a component carries before bonus coins go to other outcomes
# Above this many coins a seat spends harder (bigger bids, more bought this turn, bonus coins
# spent or cancelled rather than kept): the sane range is 25-40 coins per seat over ten
# scenes at four seats and Refreshment 5, and kept bonus coins are what let wealth run away
# (winning Pools pay about 1.5 coins a die, so drawn and bought dice pay for themselves).
RICH = 26
POOR = 24  # below this many coins (wealth and the bonus in hand) a seat keeps most of its bonus


def complication_sides(s: GameState, comp: Complication) -> dict[str, list[str]]:
    """Who the story sets against whom in a Complication: side "C" (the Originator's) and "T" (the Targets').

    Each side's principals come first: the Targets; the performer of the Event that started it when
    that was not a Target (an Obstacle has none: what opposes the Targets is the Obstacle itself).
    Then the components a side's own player drew on for that side's Pool. A component that a
    bystander drew on lent a die; it is nobody's opponent, and it does not win or lose the fight.
    A side without a principal (trouble raised against a lone deed, or an Obstacle) opposes with
    the trouble itself: what its player draws on lends it dice, and no one there is set against
    the Targets ("Ivy Pell is outmatched by Rose Tilney" when Rose was only listening at a door).
    """
    t = list(dict.fromkeys(comp.targets))
    c: list[str] = []
    fact = next((f for f in s.facts if f.id == comp.source_fact), None) if comp.source_fact else None
    if fact is not None:
        c += [x for x in dict.fromkeys(fact.components) if x not in t and s.controller(x) == comp.originator]
    owners = {p.key: p.owner for p in comp.pools}
    principal_c = bool(c)
    for ch in comp.changes:
        if ch.how != "draw" or not ch.component or ch.by != owners.get(ch.pool):
            continue
        if ch.pool == "C" and not principal_c:
            continue  # it lent the trouble a die; the trouble, not it, stands against the Targets
        if ch.component not in c and ch.component not in t:
            (c if ch.pool == "C" else t).append(ch.component)
    return {"C": c, "T": t}


def state_clash(s: GameState, action: BaseModel) -> str | None:
    """Why a statement contradicts the engine's state, or None: an eliminated component acting,
    speaking or being acted on as if present, or named as the subject of new words.

    Checked before a statement is sent (issue 23: "an eliminated component acts in a later
    scene"); the words of its own elimination (ReduceImportance) and a return (RestoreImportance)
    are about it by nature and pass.
    """
    if isinstance(action, (A.ReduceImportance,)) or type(action).__name__ == "RestoreImportance":
        return None
    for field in ("performer", "receiver", "speaker", "listener"):
        cid = getattr(action, field, None)
        comp = s.components.get(cid) if cid else None
        if comp is not None and comp.eliminated:
            return f"{comp.label} was eliminated and cannot act"
    text = (getattr(action, "text", None) or "").strip().lower()
    if not text:
        return None
    for comp in s.components.values():
        if comp.eliminated and comp.kind != "location":
            label = comp.label.lower()
            if text.startswith(label) or text.startswith(f"the {label}"):
                return f"{comp.label} was eliminated: it does not act in the story any more"
    return None


# statements the engine opens a reaction window for so that people may challenge them (a die
# drawn or bought, a Fade to Black, a Take Over on one's own turn; issue 17): this player lets
# them stand without a thought, so its games play as they did before those windows opened
QUIET_KINDS = frozenset({"draw", "buy_die", "fade", "take_over"})


class HeuristicPlayer:
    kind = "heuristic"

    def __init__(self, name: str, persona: Persona | str | None = None, seed: int = 0, seat_index: int = 0) -> None:
        self.name = name
        self.persona = persona if isinstance(persona, Persona) else persona_named(persona, seat_index)
        self.rng = random.Random(f"{seed}:{name}")
        self._declined: set[int] = set()
        self._cancelled: set[tuple[int, str]] = set()
        self._bonus_start: dict[tuple[int, str, bool, int], int] = {}
        self._told: set[tuple[int, str, bool, int]] = set()  # narrations in which it told the outcome
        self._changed: set[tuple[int, int, int, str]] = set()  # (scene, Complication, roll, hero) that changed its hero
        self._spend_all: dict[tuple[int, str, bool, int], bool] = {}  # narrations in which it spends its whole bonus
        self._took_over: set[int] = set()  # scenes in which it already took a component over
        self._seen_complications: dict[int, set[int]] = {}  # scene -> Complications seen there
        self._withdrawn: set[str] = set()  # its own words a Challenge took back: not said again
        self._waited: set[int] = set()
        self._nested_from: set[int] = set()  # Complications it started a nested one in (UA-NEST-1)
        self._own_sides: dict[tuple[int, str], str | None] = {}  # Own Pool per Participant: the side it backs
        self._dropped: list[str] = []  # this decision's statements dropped for contradicting the table  # Complications in which it held back its call for the roll once

    # -- entry point ---------------------------------------------------------------------------
    def decide(self, obs: Observation) -> Decision:
        self._remember(obs)
        self._dropped = []
        words = Words(obs.state, self.rng, obs.premise)
        handler: Callable[[Observation, Words], Plan] = getattr(self, f"_{obs.pending.kind}", self._fallback)
        action, why = handler(obs, words)
        if isinstance(action, A.ChallengeStatement) and judgment.on(obs.state):
            action, why = heuristic_addons.as_judgment(obs.state, action, why)  # Judgment add-on (UA-JUDGE-1)
        if self._dropped:
            why = f"{why} (dropped a statement: {self._dropped[0]})"
        if obs.check is not None and obs.check(action) is not None:
            action, why = self._safe(obs), f"safe choice ({why} was refused)"
        sc = obs.state.scene()
        if isinstance(action, A.TakeOver) and sc is not None:
            self._took_over.add(sc.number)
        return Decision(action=action, kind="heuristic", rationale=why)

    def _remember(self, obs: Observation) -> None:
        s = obs.state
        if s.complication is not None:
            self._seen_complications.setdefault(s.complication.scene, set()).add(s.complication.id)
        for e in obs.recent:
            if e.kind == "statement_withdrawn" and e.player == self.name and "“" in e.text:
                said = e.text.split("“", 1)[1].rsplit("”", 1)[0]
                self._withdrawn.add(said.split(": ", 1)[-1])

    def _ok(self, obs: Observation, action: BaseModel | None) -> bool:
        if action is None:
            return False
        text = getattr(action, "text", None)
        if text and text in self._withdrawn:
            return False
        clash = state_clash(obs.state, action) or presend_clash(obs.state, obs.facts, action, self.name)
        if clash is not None:  # checked before sending (issue 23): the seat says something else, or nothing
            self._dropped.append(clash)
            return False
        return obs.check is None or obs.check(action) is None

    def _first(self, obs: Observation, cands: Iterable[Plan | None]) -> Plan | None:
        for c in cands:
            if c is not None and self._ok(obs, c[0]):
                return c
        return None

    def _safe(self, obs: Observation) -> BaseModel:
        """An action that is always legal for the pending decision."""
        k, me, s = obs.pending.kind, self.name, obs.state
        simple = {
            "prep_turn": A.PassPrep(player=me), "bid": A.Bid(player=me, amount=0),
            "reaction": A.Pass(player=me), "negotiation": A.ConcedeChallenge(player=me),
            "fact_vote": A.FactVote(player=me, applies=True), "challenge_bid": A.ChallengePass(player=me),
            "fine_vote": A.FineVote(player=me, fine=False), "consent": A.AnswerResolution(player=me, agree=True),
            "dialog_answer": A.AnswerDialog(player=me, accept=True, line="So be it."),
            "narration": A.EndNarration(player=me), "session_break": A.StartSession(player=me),
            "frame_turn": A.FrameScene(player=me), "judgment": A.JudgeRuling(player=me, stands=True), "overrule_vote": A.OverruleVote(player=me, overrule=False),
        }
        if k == "allocate":  # Split Allocation (UA-MT-4)
            return heuristic_addons.allocate_plan(s, me)[0]
        if k == "extend":  # Extended Complications (UA-EXT-1)
            return A.DeclineExtend(player=me)
        if k == "declare_side":  # Own Pool per Participant (UA-OWN-1)
            return A.DeclarePool(player=me, side=heuristic_addons.own_side(self, s) or "T")
        if k == "prep_turn" and s.config.addons.seed_component is not None and not s.extra.seed_presented:
            return A.PresentSeed(player=me)
        if k in simple:
            return simple[k]
        sc = s.scene()
        if s.turn and s.turn.framing and sc is not None and sc.location is None and available(s, me) > 0:
            return A.EstablishLocation(player=me, new_role=f"A place of {me}'s choosing ({sc.number})")
        if s.complication is not None and s.complication.pools:
            return A.CallResolution(player=me)
        if sc is not None and sc.framer == me and s.turn and s.turn.mini_scene is None:
            end = A.CloseScene(player=me) if s.config.addons.open_scene_framing else A.EndScene(player=me)
            if self._ok(obs, end):
                return end
        return A.EndTurn(player=me)

    def _allocate(self, obs: Observation, words: Words) -> Plan:  # Split Allocation (UA-MT-4)
        return heuristic_addons.allocate_plan(obs.state, self.name)

    def _declare_side(self, obs: Observation, words: Words) -> Plan:
        return heuristic_addons.declare_plan(self, obs)

    def _extend(self, obs: Observation, words: Words) -> Plan:
        return heuristic_addons.extend_plan(self, obs)

    def _fallback(self, obs: Observation, words: Words) -> Plan:
        return self._safe(obs), "no special plan"

    # -- looking at the table ------------------------------------------------------------------------
    def _present(self, s: GameState) -> list[Component]:
        sc = s.scene()
        return [s.components[x] for x in (sc.present if sc else []) if x in s.components
                and s.components[x].kind != "location" and not s.components[x].eliminated]

    def _place(self, s: GameState) -> Component | None:
        sc = s.scene()
        return s.components.get(sc.location) if sc is not None and sc.location else None

    def _mine(self, s: GameState) -> list[Component]:
        return [c for c in self._present(s) if s.controller(c.id) == self.name]

    def _theirs(self, s: GameState) -> list[Component]:
        return [c for c in self._present(s) if s.controller(c.id) not in (None, self.name)]

    def _offstage(self, s: GameState, sc: Scene, by: str | None = None, absent_ok: bool = False) -> list[Component]:
        return [c for c in s.components.values() if c.kind != "location" and not c.eliminated and not c.is_master
                and c.owner is None and c.id not in sc.present and (absent_ok or c.id not in sc.absent)
                and (by is None or c.created_by == by)]

    def _events_here(self, s: GameState, sc: Scene) -> int:
        return sum(1 for f in s.facts if f.scene == sc.number and f.kind == "event")

    def _complications_here(self, obs: Observation, sc: Scene) -> int:
        return len(self._seen_complications.get(sc.number, ()))

    # -- preparation and bids ---------------------------------------------------------------------
    def _session_break(self, obs: Observation, words: Words) -> Plan:
        return A.StartSession(player=self.name), "ready for the next session"

    def _addon_prep(self, obs: Observation) -> Plan | None:
        """Add-on play in Game Prep (digest section 3 applied to issue 22's add-ons): present the seed;
        mark its own lead character as the Main Protagonist when the protagonist add-ons reward it;
        protect its own lead with a Control Trait under Greater Control."""
        s, me = obs.state, self.name
        ad = s.config.addons
        if ad.seed_component is not None and not s.extra.seed_presented:
            return A.PresentSeed(player=me), "presents the seed Component as the first Tenet"
        wealth = s.player(me).wealth
        made = [c for c in s.components.values() if c.created_by == me and c.kind == "character"]
        if not made or wealth <= 18:
            return None
        lead = made[0]
        texts = {t.text.strip().lower() for t in lead.live_traits()}
        wants_hero = ad.protagonist_refresh is not None or ad.importance_cap == "protagonist"
        if wants_hero and not any(t.text.strip().lower() == "main protagonist" for c in s.components.values()
                                  for t in c.live_traits()):
            plan = A.AddTrait(player=me, component=lead.id, text="Main Protagonist")
            if self._ok(obs, plan):
                return plan, f"makes {lead.label} the Main Protagonist: the Refresh is richer with the hero on stage"
        if ad.control_traits and f"controlled by {me.lower()}" not in texts and not any(
                t.text.lower().startswith("controlled by") for t in lead.live_traits()):
            plan = A.AddTrait(player=me, component=lead.id, text=f"Controlled by {me}")
            if self._ok(obs, plan):
                return plan, f"keeps a hand on {lead.label}: its Coins count double for its Control"
        return None

    def _prep_turn(self, obs: Observation, words: Words) -> Plan:
        s, me, p = obs.state, self.name, self.persona
        if s.config.addons.any:
            plan = self._addon_prep(obs)
            if plan is not None:
                return plan
        wealth = s.player(me).wealth
        mine = sum(1 for t in s.tenets if t.by == me)
        if mine < p.tenets and wealth > 15:
            text = words.tenet()
            if text:
                kind = "story"
                return A.ProposeTenet(player=me, text=text, kind=kind), "a specific Tenet to shape the story"
        made = [c for c in s.components.values() if c.created_by == me]
        if len(made) < p.prep_components and wealth > 18:
            new = words.new_character()
            if new:
                return A.CreateComponent(player=me, role=new[0]), "a character the story can return to"
        for c in made:
            if len(c.traits) < 4 and wealth > 18:
                text = words.trait_for(c)
                if text:
                    return A.AddTrait(player=me, component=c.id, text=text), f"gives {c.label} a purpose"
        return A.PassPrep(player=me), "has invested in the world"

    def _bid(self, obs: Observation, words: Words) -> Plan:
        s, me, p, r = obs.state, self.name, self.persona, self.rng
        if s.config.addons.alternate_realities:  # replay a scene that cost it dearly (agents/heuristic_addons.py)
            plan = heuristic_addons.fork_plan(self, obs)
            if plan is not None:
                return plan
        wealth = s.player(me).wealth
        if wealth < 5:
            return A.Bid(player=me, amount=0), "too poor to frame; lets others lead"
        # what it wants to frame: its own cast waiting off-stage, a story of its own to push on
        waiting = sum(1 for c in s.components.values() if c.created_by == me and not c.eliminated
                      and c.kind != "location")
        desire = 0.6 + 0.15 * min(waiting, 3) + (0.3 if waiting == 0 else 0.0)
        eager = p.bid_eagerness + (0.25 if wealth > RICH else 0.0)  # a rich seat buys the frame
        amount = int(wealth * eager * desire * r.uniform(0.5, 1.0))
        if s.scenes_ended == 0:
            amount = min(amount, 4)  # first-game bids stay low (L1486)
        rivals = [x.wealth for x in s.players if x.name != me]
        if rivals and max(rivals) > wealth + 8 and r.random() < p.conflict * 0.3:
            amount = max(amount, min(wealth // 2, max(rivals) // 3))  # deny the rich rival the frame (L1796)
        if wealth > RICH:
            # the winning bid is the stake, lost if unspent (U-ECO-4, U-BID-3): a rich seat bids
            # its surplus for the frame instead of sitting on it
            amount = max(amount, (wealth - 25) * 3 // 4 + r.randint(0, 3))
        amount = max(0, min(amount, wealth - 4))
        return A.Bid(player=me, amount=amount), f"bids {amount} of {wealth}: {waiting} of its characters wait"

    # -- turns --------------------------------------------------------------------------------------
    def _turn(self, obs: Observation, words: Words) -> Plan:
        s, me, p = obs.state, self.name, self.persona
        sc = s.scene()
        assert s.turn is not None and sc is not None
        money = available(s, me)
        if s.turn.framing:
            return self._frame(obs, words, sc, money)
        if s.complication is not None:
            return self._complication_turn(obs, words)
        if s.config.addons.any:  # Player Characters, Plot Pools (agents/heuristic_addons.py)
            plan = heuristic_addons.turn_plan(self, obs, words)
            if plan is not None:
                return plan
        events_here = self._events_here(s, sc)
        place = self._place(s)
        if sc.framer == me and s.turn.mini_scene is None and obs.turn_actions == 0:
            if events_here >= p.scene_events or money <= 1 or self._round_passed_quietly(obs):
                fade = money > p.reserve and self.rng.random() < p.fade
                end = A.EndScene(player=me, fade=fade, text=words.closing(place, fade))
                if s.config.addons.open_scene_framing:  # the framer closes by Fade to Black (UA-OPEN-3)
                    end = A.CloseScene(player=me, text=words.closing(place, True))
                if self._ok(obs, end):
                    return end, "the scene has done its work" + (": fade to black" if fade else "")
        if money <= 0 or obs.turn_actions >= p.spend_per_turn + max(0, money - 25) // 5:
            return A.EndTurn(player=me), "spent what it meant to this turn"
        mine, theirs = self._mine(s), self._theirs(s)
        spare = money - p.reserve
        fights = self._complications_here(obs, sc)
        stalled = events_here >= 2 and fights == 0
        if theirs and mine and fights < 3 and (spare < 3 or (stalled and self.rng.random() < p.conflict)
                                               or self.rng.random() < p.conflict * 0.15):
            plan = self._start_complication(obs, words, mine, theirs, place)
            if plan is not None:
                return plan
        if spare <= 0:
            return A.EndTurn(player=me), "keeps a reserve"
        plan = self._first(obs, self._building_moves(obs, words, sc, mine, theirs, place, money))
        return plan or (A.EndTurn(player=me), "nothing worth buying")

    @staticmethod
    def _round_passed_quietly(obs: Observation) -> bool:
        """Everyone else just ended a turn without buying anything: the scene has stalled, end it.

        Without this a long game can stall for good once nobody finds anything worth buying.
        """
        others = len(obs.state.players) - 1
        acts = [e for e in obs.recent if e.kind not in QUIET_EVENTS]
        return len(acts) >= others and all(e.kind == "end_turn" and e.player != obs.player for e in acts[-others:])

    def _start_complication(self, obs: Observation, words: Words, mine: list[Component], theirs: list[Component],
                            place: Component | None) -> Plan | None:
        s, me = obs.state, self.name
        perf = max(mine, key=lambda c: (importance(s, c.id), c.id))
        theirs = [c for c in theirs if words.pair_verbs(perf, c, hostile=True)]
        if not theirs:
            return None
        recv = max(theirs, key=lambda c: (importance(s, c.id) + self.rng.random() * 6, c.id))
        if self.rng.random() < 0.15:
            line = words.dialog_line(perf, recv)
            act: BaseModel = A.Dialog(player=me, speaker=perf.id, listener=recv.id, line=line)
            if self._ok(obs, act):
                return act, f"opens a Dialog with {recv.label}"
        act = A.NarrateEvent(player=me, text=words.event(perf, recv, place, hostile=True), performer=perf.id,
                             receiver=recv.id)
        if self._ok(obs, act):
            return act, f"a Complication against {recv.label}: conflict drives the scene and pays"
        return None

    def _frame(self, obs: Observation, words: Words, sc: Scene, money: int) -> Plan:
        """Location, a time, the cast, a Tenet made concrete, then the first Event."""
        s, me, r, p = obs.state, self.name, self.rng, self.persona
        if sc.location is None:
            returnable = [x for x in s.scenes if x.ended and not x.faded and not x.mini and x.number != sc.number]
            if returnable and r.random() < 0.1:
                act = A.EstablishLocation(player=me, return_to_scene=returnable[-1].number,
                                          text="We cut back to where we left off.")
                if self._ok(obs, act):
                    return act, "cuts back to an unfinished scene"
            old = [c for c in s.components.values() if c.kind == "location" and not c.eliminated and not c.is_master]
            name = words.new_place()
            if old and (name is None or r.random() < 0.4):
                loc = r.choice(old)
                return A.EstablishLocation(player=me, location=loc.id, text=f"Back to {loc.label}."), \
                    f"returns to {loc.label}"
            if name is None:
                name = f"a place only {me} knows"
            return A.EstablishLocation(player=me, new_role=name, text=f"We open on {name}."), "a new place"
        place = self._place(s)
        cast = self._present(s)
        has_time = any(f.kind == "time" and f.scene == sc.number for f in s.facts)
        if not has_time and sc.time_kind == "after" and money > p.reserve and obs.turn_actions <= 1:
            if s.scenes_ended == 0 and r.random() < 0.4:
                act = A.SetTime(player=me, when="explicit", text=words.scene_time())
                if self._ok(obs, act):
                    return act, "sets the story's starting time"
            elif s.scenes_ended >= 2 and r.random() < 0.08:
                act = A.SetTime(player=me, when="past", text=words.scene_time(past=True))
                if self._ok(obs, act):
                    return act, "a flashback"
        if len(cast) < 2 and money > 2 and obs.turn_actions < 6:
            plan = self._bring_in(obs, words, sc, money)
            if plan is not None:
                return plan
        # the winning bid is lost to the Bank if the scene ends with it unspent (U-BID-3): the book's
        # advice is to frame with part of it and "use the rest of those coins to create Facts that
        # complement and supplement each other" while nobody may interrupt (L1780)
        stake = s.player(me).stake
        if cast and money > p.reserve and (obs.turn_actions < 6 or (stake > 0 and obs.turn_actions < 12)):
            # lay supporting Facts while nobody may interrupt (L1780): a Trait, a Tenet made concrete
            plan = self._premise_goal_plan(obs, words, cast)
            if plan is not None:
                return plan
            fresh = [c for c in cast if len(c.live_traits()) < (self.persona.max_traits if stake > 2 else 3)]
            if fresh and (stake > 2 or r.random() < p.build):
                plan = self._trait_plan(obs, words, fresh[0], cast)
                if plan is not None:
                    return plan
            detail = words.detail(place)
            if detail and (stake > 2 or not any(f.kind == "detail" and f.scene == sc.number for f in s.facts)
                           and r.random() < 0.5):
                act = A.BuyFact(player=me, text=detail)
                if self._ok(obs, act):
                    return act, "makes a Tenet concrete in the scene"
        mine = [c for c in cast if s.controller(c.id) == me]
        perf = r.choice(mine) if mine else None
        hostile = r.random() < p.conflict
        others = [c for c in mine if perf is not None and c.id != perf.id and words.pair_verbs(perf, c, hostile)]
        recv = r.choice(others) if others and r.random() < 0.7 else None
        if perf is not None and recv is None and not words.fresh_deeds(perf):
            # it has done every deed it has alone: it acts on someone here instead of repeating one
            fresh = [c for c in mine if c.id != perf.id and words.fresh_deeds(c)]
            anyone = [c for c in cast if c.id != perf.id and words.pair_verbs(perf, c, hostile)]
            if fresh:
                perf = r.choice(fresh)
            elif anyone:
                recv = r.choice(anyone)
        text = words.event(perf, recv, place, hostile=hostile)
        return (A.NarrateEvent(player=me, text=text, performer=perf.id if perf else None,
                               receiver=recv.id if recv else None), "the scene's first Event")

    def _bring_in(self, obs: Observation, words: Words, sc: Scene, money: int) -> Plan | None:
        """Introduce one of its own characters waiting off-stage, someone important, or a new one."""
        s, me, r = obs.state, self.name, self.rng
        careless = r.random() < self.persona.careless
        own = self._offstage(s, sc, by=me, absent_ok=careless)
        anyone = self._offstage(s, sc, absent_ok=careless)
        if careless:
            back = [c for c in anyone if c.id in sc.absent]
            if back:
                return A.IntroduceComponent(player=me, component=back[0].id,
                                            text=f"{words.who(back[0], True)} turns up after all."), \
                    "the story needs this character here, absent or not"
        forgotten = self._forgotten(s, anyone)
        if forgotten and r.random() < 0.6:
            for comp in forgotten:  # one the rules let it bring in (not another player's PC, UA-PC)
                act = A.IntroduceComponent(player=me, component=comp.id, text=words.arrival(comp, self._place(s)))
                if self._ok(obs, act):
                    return act, f"brings back {comp.label}: named and not seen since"
        pool = own if own and r.random() < 0.7 else anyone
        new = words.new_character()
        if pool and (new is None or r.random() < 0.55):
            comp = max(pool, key=lambda c: (importance(s, c.id) + r.random() * 3, c.id))
            return A.IntroduceComponent(player=me, component=comp.id, text=words.arrival(comp, self._place(s))), \
                f"brings back {comp.label}"
        if new is None:
            return None
        role, name = new
        named = money > 3 and r.random() < 0.8
        return (A.CreateComponent(player=me, kind="character", role=role, proper_name=name if named else None,
                                  introduce=True), f"a new {role.lower()} for the story")

    @staticmethod
    def _forgotten(s: GameState, offstage: list[Component]) -> list[Component]:
        """Named characters the story has left behind: seen in one scene at most, whoever made them
        (a person's too), the longest unseen first. Without this a character named late in a
        scene that is then cut never comes back (issue 23: seed 0 had one)."""
        def seen(c: Component) -> list[int]:
            return [x.number for x in s.scenes if c.id in x.present]

        named = [c for c in offstage if c.kind == "character" and any(t.kind == "name" and not t.removed
                                                                      for t in c.traits)]
        left = [c for c in named if len(seen(c)) <= 1]
        return sorted(left, key=lambda c: (max(seen(c), default=0), c.id))

    def _premise_goal_plan(self, obs: Observation, words: Words, cast: list[Component]) -> Plan | None:
        """The goal the premise's conflict gives one of its own people here, before anything else it
        could say about them: the sheriff at war with the mine owner wants to win that war."""
        for c in cast:
            goal = words.premise_goal(c) if obs.state.controller(c.id) == self.name else None
            if goal:
                act = A.AddTrait(player=self.name, component=c.id, text=goal)
                if self._ok(obs, act):
                    return act, f"gives {c.label} the premise's stake"
        return None

    def _trait_plan(self, obs: Observation, words: Words, comp: Component, cast: list[Component]) -> Plan | None:
        """A Trait that says who the component is: a goal, a personality, a limit or a relationship."""
        s, me = obs.state, self.name
        if len(comp.live_traits()) >= self.persona.max_traits:
            return None
        others = [c for c in cast if c.id != comp.id and c.kind == "character" and s.controller(c.id) == me]
        related = {t.other for t in comp.traits if t.other}
        others = [c for c in others if c.id not in related]
        if others and self.rng.random() < 0.3:
            other = self.rng.choice(others)
            text, back = words.relation(comp, other)
            act = A.AddTrait(player=me, component=comp.id, text=text, kind="relationship", other=other.id,
                             corollary=back)
            if self._ok(obs, act):
                return act, f"ties {comp.label} to {other.label}"
        text = words.trait_for(comp)
        if text is None:
            return None
        return A.AddTrait(player=me, component=comp.id, text=text), f"says who {comp.label} is"

    def _building_moves(self, obs: Observation, words: Words, sc: Scene, mine: list[Component],
                        theirs: list[Component], place: Component | None, money: int) -> list[Plan | None]:
        s, me, r, p = obs.state, self.name, self.rng, self.persona
        moves: list[tuple[float, Plan | None]] = []
        if not mine:
            moves.append((3.0, self._bring_in(obs, words, sc, money)))
        if mine:
            moves.append((3.0, self._premise_goal_plan(obs, words, mine)))
            comp = min(mine, key=lambda c: (len(c.live_traits()), c.id))
            moves.append((p.build * 2, self._trait_plan(obs, words, comp, self._present(s))))
            perf = r.choice(mine)
            recv = r.choice([c for c in mine if c.id != perf.id and words.pair_verbs(perf, c)]
                            or [None])  # type: ignore[list-item]
            # a character who has already done SOLO_DEEDS things alone this scene has little left to show
            done = sum(1 for f in s.facts if f.scene == sc.number and f.kind == "event" and f.origin is None
                       and f.components[:1] == (perf.id,) and len(f.components) == 1)
            if recv is not None or (done < SOLO_DEEDS and words.fresh_deeds(perf)):
                moves.append((1.2, (A.NarrateEvent(player=me, text=words.event(perf, recv, place), performer=perf.id,
                                                   receiver=recv.id if recv else None), "moves its story on")))
        if place is not None and s.controller(place.id) == me and len(place.live_traits()) < 4:
            text = words.trait_for(place)
            if text:
                moves.append((p.build * 0.5, (A.AddTrait(player=me, component=place.id, text=text),
                                              f"colours {place.label}")))
        if len(self._present(s)) < 4:
            moves.append((p.build * 0.6, self._bring_in(obs, words, sc, money)))
        if theirs and p.takeover and sc.number not in self._took_over:
            tgt = max(theirs, key=lambda c: (importance(s, c.id), c.id))
            weight = p.takeover * (3 if not mine else 1)
            moves.append((weight, (A.TakeOver(player=me, component=tgt.id), f"takes {tgt.label} in hand")))
        weak = [c for c in mine if c.created_by != me and importance(s, c.id) <= 2]
        if weak:
            c = weak[0]
            moves.append((p.eliminate, (A.ReduceImportance(player=me, component=c.id, coins=max(1, importance(s, c.id)),
                                                          text=words.fate(c, None)), f"writes {c.label} out")))
        rivals = [c for c in self._offstage(s, sc) if c.created_by not in (me, "") and importance(s, c.id) >= 3]
        if rivals:
            c = max(rivals, key=lambda x: importance(s, x.id))
            moves.append((p.absent, (A.DeclareAbsent(player=me, component=c.id,
                                                     text=f"{words.who(c, True)} is far from here tonight."),
                                     f"keeps {c.label} out of this scene")))
        if s.turn is not None and not s.turn.tenet_used:
            text = words.tenet()
            if text:
                moves.append((0.1, (A.ProposeTenet(player=me, text=text), "a new truth about the world")))
        detail = words.detail(place)
        if detail:
            moves.append((0.3, (A.BuyFact(player=me, text=detail), "a detail of the scene")))
        # weighted order: a random draw per move scaled by its weight
        keyed = [(r.random() * w, i, m) for i, (w, m) in enumerate(moves) if m is not None and w > 0]
        keyed.sort(key=lambda x: (-x[0], x[1]))
        return [m for _, _, m in keyed]

    # -- complications -----------------------------------------------------------------------------
    def _my_pool(self, s: GameState) -> str | None:
        comp = s.complication
        if comp is None:
            return None
        if comp.originator == self.name and s.config.addons.multi_target_mode == "individual":
            return heuristic_addons.weakest_c_pool(s)  # UA-MT-5: the Complication Pool furthest behind
        for p in comp.pools:
            if p.owner == self.name:
                # Own Pool per Participant: a bystander's Pool only once it has a side to back
                if p.key != "C" and s.config.addons.pool_per_participant and heuristic_addons.own_side(self, s) is None:
                    return None
                return p.key
        return None

    def _side_sizes(self, s: GameState, pool: str) -> tuple[int, int]:
        comp = s.complication
        assert comp is not None
        if s.config.addons.pool_per_participant:
            return heuristic_addons.own_side_sizes(self, s, pool)
        if s.config.addons.multi_target_mode == "independent":
            return heuristic_addons.match_sizes(s, pool)
        if s.config.addons.multi_target_mode == "individual":
            return heuristic_addons.pair_sizes(s, pool)
        ours = sum(p.size for p in comp.pools if (p.key == "C") == (pool == "C"))
        other = sum(p.size for p in comp.pools if (p.key == "C") != (pool == "C"))
        return ours, other

    def _favoured_pool(self, s: GameState) -> str | None:
        """The pool a bystander helps: the side of a component it created, else none."""
        comp = s.complication
        assert comp is not None
        if s.config.addons.pool_per_participant:  # it backs a side with its own Pool (UA-OWN-1)
            return None
        mine_targeted = [t for t in comp.targets if s.components[t].created_by == self.name]
        if mine_targeted:
            ctrl = s.controller(mine_targeted[0])
            return ctrl if ctrl and any(p.key == ctrl for p in comp.pools) else None
        if comp.originator != self.name and self.rng.random() < self.persona.conflict * 0.5:
            return "C"
        return None

    def _complication_turn(self, obs: Observation, words: Words) -> Plan:
        s, me, p = obs.state, self.name, self.persona
        comp = s.complication
        assert comp is not None
        if s.config.addons.player_characters:  # protect its own PC (agents/heuristic_addons.py)
            plan = heuristic_addons.complication_plan(self, obs)
            if plan is not None:
                return plan
        pool = self._my_pool(s) or self._favoured_pool(s)
        if pool is not None:
            # draw on every applicable Trait: its own components in the scene, then the location's
            sources = [c for c in self._present(s) if s.controller(c.id) == me]
            place = self._place(s)
            if place is not None and s.controller(place.id) == me and self._my_pool(s):
                sources.append(place)
            ours, other = self._side_sizes(s, pool)
            # a side well ahead draws no more once the coins it would win (about a die each) would
            # make its player rich: every die rolled is a bonus coin, and one side of twenty dice
            # against two minted ~30 coins a fight that sat unspent (issue 23); a player's wealth
            # is clout to balance, not hoard (L1550). A poor seat still draws all it can (L1153).
            ahead = ours >= 2 * other + 3 and s.player(me).wealth + ours > RICH
            for c in [] if ahead else sources:
                for trait, key in trait_ids_drawable(s, c):
                    if key in comp.drawn:
                        continue
                    act = A.DrawTrait(player=me, trait=trait.id, component=c.id, pool=pool,
                                      text=words.justify(trait.text, c, trait.kind))
                    if self._ok(obs, act):
                        return act, f"draws on {c.label}'s “{trait.text}”"
            ours, other = self._side_sizes(s, pool)
            if ours < other and s.config.addons.nested_complications:  # behind: a nested one (UA-NEST-1)
                plan = heuristic_addons.nested_plan(self, obs, words, ours, other)
                if plan is not None:
                    return plan
            spare = available(s, me) - p.reserve
            # a bought die pays back about 1.5 coins when its Pool wins: a rich seat that buys wins
            # more and gets richer still (one seat reached 174 coins), so a rich seat stops buying
            if ours <= other and spare > 0 and self._my_pool(s) is not None and s.player(me).wealth <= RICH:
                n = max(1, min(spare, other - ours + 1, 4))
                act = A.BuyDie(player=me, pool=pool, count=n, text=words.stake(sources[0] if sources else None))
                if self._ok(obs, act):
                    return act, f"buys {n} {'die' if n == 1 else 'dice'} to close the gap"
        if self._my_pool(s) is None:
            return A.EndTurn(player=me), "leaves the Complication to those in it"
        if self._others_still_to_build(s, comp) and comp.id not in self._waited:
            # a call now would only be declined by a side that has not gathered its dice yet: one
            # "calls for resolution" per Complication, not three (issue 23)
            self._waited.add(comp.id)
            return A.EndTurn(player=me), "lets the other side gather its dice before calling for the roll"
        act = A.CallResolution(player=me)
        if self._ok(obs, act):
            return act, "ready to roll"
        return A.EndTurn(player=me), "waits"

    def _others_still_to_build(self, s: GameState, comp: Complication) -> bool:
        """Another Pool's owner has added nothing to the Complication yet."""
        built = {ch.by for ch in comp.changes}
        return any(p.owner != self.name and p.owner not in built for p in comp.pools)

    def _drawable(self, s: GameState, comp) -> int:
        """Trait occurrences it could still draw on for its side, free."""
        n = 0
        for c in self._present(s):
            if s.controller(c.id) == self.name:
                n += sum(1 for _, key in trait_ids_drawable(s, c) if key not in comp.drawn)
        return n

    def _consent(self, obs: Observation, words: Words) -> Plan:
        s, me = obs.state, self.name
        comp = s.complication
        pool = self._my_pool(s)
        # it declines only before it has added anything itself: once its side has had its turn to
        # gather dice it agrees, so a Complication is called for once or twice, not "calls for
        # resolution" / "declines" back and forth as each side tops up in turn (issue 23)
        acted = comp is not None and any(ch.by == me for ch in comp.changes)
        if comp is not None and pool is not None and comp.id not in self._declined and not acted:
            ours, other = self._side_sizes(s, pool)
            free = self._drawable(s, comp)
            can_buy = available(s, me) > self.persona.reserve + 1
            if ours <= other and (free > 0 or can_buy) and (free + ours > other or can_buy):
                self._declined.add(comp.id)
                return A.AnswerResolution(player=me, agree=False), "behind on dice: wants a turn to catch up"
        return A.AnswerResolution(player=me, agree=True), "agrees to roll"

    def _narration(self, obs: Observation, words: Words) -> Plan:
        s, me = obs.state, self.name
        nar, comp = s.narration, s.complication
        assert nar is not None and comp is not None
        slot = nar.slots[nar.current]
        key = (comp.id, slot.pool, slot.won, len(comp.rolls))  # the won and lost parts of a split (UA-MT-4)
        start = self._bonus_start.setdefault(key, slot.coins)
        losers = [x for x in nar.slots if not x.won and not x.done and x.coins > 0]
        rich = s.player(me).wealth + slot.coins > RICH
        poor = s.player(me).wealth + slot.coins < POOR
        if slot.won and losers and (comp.id, slot.pool) not in self._cancelled and slot.coins > 3:
            losers.sort(key=lambda x: -x.coins)
            if not rich or len(losers) == 1:
                self._cancelled.add((comp.id, slot.pool))
            # a rich winner cancels every loser's bonus in full: coins out of the game on both sides
            share = 1.0 if rich else self.persona.cancel_share
            n = min(int(slot.coins * share), losers[0].coins)
            if n >= 1:
                return (A.CancelBonus(player=me, pool=losers[0].pool, coins=n),
                        f"cancels {n} of {losers[0].player}'s bonus coins")
        # a rich seat, and every other narration, spends its whole bonus on the story (issue 23: bonus
        # kept as wealth made the table rich, and "keeps N coins of bonus" a line in thirty)
        spend_all = rich or (not poor and self._spend_all.setdefault(key, self.rng.random() < 0.5))
        # a poor seat tells the outcome and keeps the rest: the book's way for a player short of coins
        # to earn a few (L1153), and what keeps a table from running dry under 25 coins a seat
        budget = start if spend_all else max(2, int(start * (0.3 if poor else self.persona.bonus_spend)))
        spent = start - slot.coins
        if slot.coins > 0 and spent < budget:
            first = key not in self._told
            plan = self._spend_bonus(obs, words, slot.won, slot.coins, budget - spent, first=first)
            if first:
                self._told.add(key)
            if plan is not None:
                return plan
        return A.EndNarration(player=me), f"keeps {slot.coins} coins"

    def _spend_bonus(self, obs: Observation, words: Words, won: bool, coins: int, budget: int,
                     first: bool) -> Plan | None:
        """The outcome first, then what it did to the losers and to its own side."""
        s, me, r = obs.state, self.name, self.rng
        comp = s.complication
        assert comp is not None
        originator_won = comp.winner_side == "C"
        if comp.split is not None and s.narration is not None:  # Split Allocation (UA-MT-4): this match's side
            slot = s.narration.slots[s.narration.current]
            originator_won = slot.won == (slot.pool == "C")
        sides = complication_sides(s, comp)
        ours_key = "C" if comp.originator == me else "T"
        theirs_key = "T" if ours_key == "C" else "C"

        def side(ids: list[str], mine: bool) -> list[Component]:
            return [s.components[x] for x in ids if x in s.components and not s.components[x].eliminated
                    and s.components[x].kind != "location" and (s.controller(x) == me) == mine
                    and s.controller(x) is not None]

        mine_side, against = side(sides[ours_key], True), side(sides[theirs_key], False)
        hero = mine_side[0] if mine_side else None
        victim = against[0] if against else None
        if first:
            fallen = [s.components[x] for x in sides[ours_key] if x in s.components and s.components[x].eliminated
                      and s.controller(x) == me]
            text = words.outcome(hero, victim, originator_won, comp.source) if won else \
                words.loser_outcome(hero, fallen[0] if fallen else None)
            if text:
                act = A.NarrateEvent(player=me, text=text, performer=hero.id if hero else None,
                                     receiver=victim.id if victim and won else None)
                if self._ok(obs, act):
                    return act, "narrates the Complication's outcome"
                act = A.BuyFact(player=me, text=text)
                if self._ok(obs, act):
                    return act, "narrates the Complication's outcome"
        if won and victim is not None:
            imp = importance(s, victim.id)
            late = min(1.0, 0.3 + s.scenes_ended / 8)
            if 0 < imp <= min(coins, budget + 2) and own_importance(victim) >= imp \
                    and r.random() < self.persona.eliminate * late:
                act = A.ReduceImportance(player=me, component=victim.id, coins=imp, text=words.fate(victim, hero))
                if self._ok(obs, act):
                    return act, f"eliminates {victim.label} with bonus coins"
            # a rich winner spends its bonus wearing the loser down (U-ELIM-1: coins against
            # Importance short of elimination) rather than keeping it: one statement, many coins
            if s.player(me).wealth + coins > RICH and coins >= 3:
                n = min(coins - 1, budget, own_importance(victim) - 1, importance(s, victim.id) - 1)
                if n >= 2:
                    act = A.ReduceImportance(player=me, component=victim.id, coins=n, text=words.setback(victim, hero))
                    if self._ok(obs, act):
                        return act, f"wears {victim.label} down with {n} bonus coins"
            wounds = [t for t in victim.live_traits() if t.text in words.all_of("injuries") or t.text == "Scarred"]
            wound = words.injury(victim)
            if wound and len(wounds) < MAX_WOUNDS and not any(
                    t.scene == s.scene().number for t in wounds):  # type: ignore[union-attr]
                act = A.AddTrait(player=me, component=victim.id, text=wound)
                if self._ok(obs, act):
                    return act, f"marks {victim.label} with the defeat"
        # one Complication changes its hero once: a Trait, not five at a stroke
        changed = (comp.scene, comp.id, len(comp.rolls), hero.id if hero is not None else "")
        if hero is not None and len(hero.live_traits()) < self.persona.max_traits + 2 and changed not in self._changed:
            text = words.lesson(hero, victim) if r.random() < 0.6 else (words.trait_for(hero) or words.lesson(hero))
            if text:
                act = A.AddTrait(player=me, component=hero.id, text=text)
                if victim is not None and words.who(victim) in text:  # "Knows what Vane is capable of" (U-TRAIT-2)
                    act = A.AddTrait(player=me, component=hero.id, text=text, kind="relationship", other=victim.id)
                if self._ok(obs, act):
                    self._changed.add(changed)
                    return act, f"{hero.label} comes out of it changed"
        return self._aftermath(obs, words, comp, mine_side, hero, won)

    def _aftermath(self, obs: Observation, words: Words, comp: Complication, mine_side: list[Component],
                   hero: Component | None, won: bool) -> Plan | None:
        """Bonus coins spent on the story rather than kept (the book: buy Traits, fight; issue 23's wealth
        grew from 25 to 66 per seat while bonus sat in purses): a Trait for another of its side and a
        detail of the place, once each per roll (an aftermath Event made characters repeat deeds)."""
        s, me = obs.state, self.name
        sc = s.scene()
        if sc is None:
            return None
        roll = (comp.scene, comp.id, len(comp.rolls))
        for c in mine_side[1:3]:
            key = (*roll, c.id)
            if key in self._changed or len(c.live_traits()) >= self.persona.max_traits + 2:
                continue
            self._changed.add(key)
            text = words.trait_for(c)
            if text:
                act = A.AddTrait(player=me, component=c.id, text=text)
                if self._ok(obs, act):
                    return act, f"{c.label} is marked by the fight too"
        key = (*roll, "detail")
        if key not in self._changed:
            self._changed.add(key)
            text = words.detail(self._place(s))
            if text:
                act = A.BuyFact(player=me, text=text)
                if self._ok(obs, act):
                    return act, "the fight leaves its mark on the place"
        return None

    def _frame_turn(self, obs: Observation, words: Words) -> Plan:
        return A.FrameScene(player=self.name), "no scene is active: it frames the next one (Open Scene Framing)"

    # -- Judgment (agents/heuristic_addons.py) --------------------------------------------------------------
    def _judgment(self, obs: Observation, words: Words) -> Plan:
        return heuristic_addons.judge(obs.state, self.name)

    def _overrule_vote(self, obs: Observation, words: Words) -> Plan:
        return heuristic_addons.overrule(obs.state, self.name)

    # -- reactions ------------------------------------------------------------------------------------
    def _reaction(self, obs: Observation, words: Words) -> Plan:
        s, me, p, r = obs.state, self.name, self.persona, self.rng
        w = s.window
        assert w is not None
        st = w.statement
        if st.kind in QUIET_KINDS:
            return A.Pass(player=me), "lets it stand"
        money = available(s, me)
        if (w.allow_challenge and st.kind in ("event", "fact", "trait", "introduce", "component", "complication")
                and r.random() < 0.55 + p.challenge):
            found = self._contradiction(obs, st.text, [x for x in st.components if x])
            if found is not None:
                fid, text, why = found
                return (A.ChallengeStatement(player=me, reason=words.challenge_reason(text, why), fact=fid,
                                             withdraw=True), f"it contradicts an established Fact: {why}")
        made_by_me = [x for x in st.components if x and x in s.components and s.components[x].created_by == me
                      and s.controller(x) not in (None, me)]
        mine_dying = [x for x in st.components if x and x in s.components and s.components[x].created_by == me]
        if w.allow_challenge and st.kind == "reduce" and mine_dying and r.random() < p.challenge + 0.3:
            return (A.ChallengeStatement(player=me, reason="That comes too cheap for a character this important.",
                                         withdraw=True), "protects a component it created")
        if money <= 1:
            return A.Pass(player=me), "no coins to react with"
        sc = s.scene()
        if made_by_me and st.is_event and not st.complication_started and money > p.reserve \
                and sc is not None and sc.number not in self._took_over and r.random() < p.takeover * 2:
            act = A.TakeOver(player=me, component=made_by_me[0])
            if self._ok(obs, act):
                return act, f"takes back {s.components[made_by_me[0]].label}: the Event becomes a Complication"
        if (w.allow_interrupt and st.is_event and s.complication is None and not st.complication_started
                and money > p.reserve + 3 and r.random() < p.conflict * 0.2):
            n = max(1, min(2, money - p.reserve - 2))
            act = A.Obstacle(player=me, dice=n, text=words.obstacle([s.components[x] for x in st.components
                                                                      if x in s.components]))
            if self._ok(obs, act):
                return act, "makes the Event an Obstacle"
        if w.allow_interrupt and money > p.reserve + 2 and r.random() < p.interrupt * 0.1:
            act = A.Interrupt(player=me, text="cuts in: the scene needs something else now.")
            if self._ok(obs, act):
                return act, "interrupts: it has an idea of its own"
        return A.Pass(player=me), "lets it stand"

    def _contradiction(self, obs: Observation, text: str, comps: list[str]) -> tuple[str, str, str] | None:
        """An established Fact the statement contradicts: an explicit absence, or (offline judge)
        a Trait, Event or Tenet about the same components with the opposite sense."""
        s = obs.state
        sc = s.scene()
        if sc is None:
            return None
        for cid in comps:
            if cid in sc.absent and cid in sc.present:
                fact = next((f for f in reversed(s.facts) if f.kind == "absence" and cid in f.components
                             and f.scene == sc.number and not f.removed), None)
                if fact is not None:
                    return fact.id, fact.text, f"{s.components[cid].label} was declared absent from this scene"
        if not comps:
            return None
        from agents.memory.contradiction import HeuristicJudge
        from agents.memory.records import FactRecord

        judge = HeuristicJudge()
        # the Facts the table judged relevant (the memory index when one is plugged in): the
        # components' own Traits and the Tenets, then the latest Events about the same components
        plain = {t.id for cid in comps if cid in s.components for t in s.components[cid].live_traits()
                 if t.kind == "plain"}
        cands: list[tuple[str, str, str | None]] = [
            (f.id, f.text, f.component_name) for f in obs.facts
            if not f.removed and f.text != text and f.seq < s.seq
            and ((f.kind == "trait" and f.id in plain) or f.kind == "tenet")]
        cands += [(f.id, f.text, None) for f in s.facts[-12:] if f.kind == "event" and not f.removed
                  and f.text != text and set(f.components) & set(comps)]
        for fid, ftext, cname in cands:
            rec = FactRecord(id=fid, text=ftext, kind="trait", game_id="", scene=None, component_id=None,
                             component_name=cname, paid_by=None, seq=0)
            verdict = judge.judge(text, rec)
            # a clash of opposites ("loyal" / "betrayed") or numbers; a bare negation is too often
            # the offline judge misreading "no" or "never" in ordinary prose, so it is not fought over
            if verdict.contradicts and not verdict.reason.startswith("one says not"):
                return fid, ftext, verdict.reason
        return None

    def _negotiation(self, obs: Observation, words: Words) -> Plan:
        """Straw poll (L1706): concede unless the point is worth paying for and it would win."""
        s, me = obs.state, self.name
        ch = s.challenge
        assert ch is not None
        mine = available(s, me)
        theirs = available(s, ch.challenger)
        if ch.fact_id and self.rng.random() < 0.5 and ch.statement.cost <= 2:
            return A.ConcedeChallenge(player=me), "the Fact stands against it; concedes"
        if ch.statement.cost <= 1 and self.rng.random() < 0.5:
            return A.ConcedeChallenge(player=me), "not worth a fight"
        if mine < 4 or mine + 2 < theirs:
            return A.ConcedeChallenge(player=me), "would lose the bidding"
        if ch.fact_id and self.rng.random() < 0.3:
            act = A.DisputeFact(player=me)
            if self._ok(obs, act):
                return act, "disputes that the Fact applies"
        return A.ContestChallenge(player=me), "stands by the statement"

    def _challenge_bid(self, obs: Observation, words: Words) -> Plan:
        s, me, p = obs.state, self.name, self.persona
        ch = s.challenge
        assert ch is not None
        money = available(s, me)
        if me == ch.challenger:
            side = 1
        elif me == ch.challenged:
            side = 0
        else:
            side = 1 if ch.fact_id and p.challenge >= 0.3 else -1
        if side < 0 or money <= 1:
            return A.ChallengePass(player=me), "stays out"
        doubled = [t * (2 if i == 1 and ch.fact_id and ch.fact_applies is not False else 1)
                   for i, t in enumerate(ch.totals)]
        mine, best_other = doubled[side], max((t for i, t in enumerate(doubled) if i != side), default=0)
        opening = not ch.bids and me == ch.challenger
        if mine > best_other and not opening:
            return A.ChallengePass(player=me), "already ahead"
        limit = max(1, min(money - p.reserve // 2, 5))
        per = 2 if side == 1 and ch.fact_id and ch.fact_applies is not False else 1
        need = max(1, (best_other - mine) // per + 1)
        # every coin bid goes to the Bank whoever wins (U-CHAL-3): a player sinks no more into one
        # challenge than the point is worth, or two stubborn players trade 2-coin raises for ages
        spent = sum(c for who, _opt, c in ch.bids if who == me)
        if not opening and spent + need > self._challenge_worth(ch):
            return A.ChallengePass(player=me), "not worth more coins"
        if opening or need <= limit:
            coins = max(1, min(need, limit))
            return A.ChallengeBid(player=me, option=side, coins=coins), f"bids {coins} for its side"
        return A.ChallengePass(player=me), "not worth more coins"

    def _challenge_worth(self, ch) -> int:
        """Coins this player will sink into one challenge in all: the statement's price and a margin,
        more for a keeper of the Facts defending one."""
        worth = max(4, ch.statement.cost + 3)
        if ch.fact_id and self.name != ch.challenged:
            worth += round(8 * self.persona.challenge)
        return worth

    def _fact_vote(self, obs: Observation, words: Words) -> Plan:
        ch = obs.state.challenge
        applies = ch is None or self.name != ch.challenged
        return A.FactVote(player=self.name, applies=applies), "votes on whether the Fact applies"

    def _fine_vote(self, obs: Observation, words: Words) -> Plan:
        f = obs.state.fine
        return A.FineVote(player=self.name, fine=f is not None and f.accuser == self.name), "votes on the Fine"

    def _dialog_answer(self, obs: Observation, words: Words) -> Plan:
        s = obs.state
        d = s.dialog
        if self.rng.random() < self.persona.conflict * 0.5 or d is None:
            return A.AnswerDialog(player=self.name, accept=False), "refuses: it becomes a Complication"
        speaker = s.components.get(d.speaker)
        to = f", {words.who(speaker)}" if speaker is not None else ""
        return A.AnswerDialog(player=self.name, accept=True, line=f"I hear you{to}. Say the rest."), "answers"

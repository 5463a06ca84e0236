"""HeuristicPlayer: the offline co-player. A real strategy, no model, no network.

It bids for scenes by what it wants to frame and what it holds, builds scenes on the Tenets,
creates components with meaningful Traits, starts Complications when coins run low, draws on
every applicable Trait, challenges statements that contradict Facts, spends bonus coins on the
Complication's outcome and keeps a reserve. A persona (data) shifts each of these choices.
Every candidate action is checked with the engine before it is returned, so it never asks the
table for an illegal move.
"""
from __future__ import annotations

import random
from typing import Callable

from pydantic import BaseModel

from agents.base import Decision, Observation
from agents.narration import Words
from agents.personas import Persona, persona as persona_named
from engine.universalis import actions as A
from engine.universalis.components import importance, trait_ids_drawable
from engine.universalis.ledger import available
from engine.universalis.state import Component, GameState

SCENE_EVENTS = 6  # Events after which a framer starts to think of ending his scene


class HeuristicPlayer:
    kind = "heuristic"

    def __init__(self, name: str, persona: Persona | str | None = None, seed: int = 0, seat_index: int = 0) -> None:
        self.name = name
        self.persona = persona if isinstance(persona, Persona) else persona_named(persona, seat_index)
        self.rng = random.Random(f"{seed}:{name}")
        self._declined: set[int] = set()

    # -- entry point ---------------------------------------------------------------------------
    def decide(self, obs: Observation) -> Decision:
        s = obs.state
        words = Words(s, self.rng, obs.premise)
        handler: Callable[[Observation, Words], tuple[BaseModel, str]] = getattr(
            self, f"_{obs.pending.kind}", self._fallback)
        action, why = handler(obs, words)
        if obs.check is not None and obs.check(action) is not None:
            action, why = self._safe(obs), f"safe choice ({why} was refused)"
        return Decision(action=action, kind="heuristic", rationale=why)

    def _ok(self, obs: Observation, action: BaseModel) -> bool:
        return obs.check is None or obs.check(action) is None

    def _first_ok(self, obs: Observation, *cands: BaseModel | None) -> BaseModel | None:
        for c in cands:
            if c is not None and self._ok(obs, c):
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
            "narration": A.EndNarration(player=me),
        }
        if k in simple:
            return simple[k]
        sc = s.scene()
        if s.turn and s.turn.framing and sc is not None and sc.location is None and available(s, me) > 0:
            return A.EstablishLocation(player=me, new_role=Words(s, self.rng).new_place())
        if s.complication is not None and s.complication.pools:
            return A.CallResolution(player=me)
        if sc is not None and sc.framer == me and s.turn and s.turn.mini_scene is None:
            end = A.EndScene(player=me)
            if self._ok(obs, end):
                return end
        return A.EndTurn(player=me)

    def _fallback(self, obs: Observation, words: Words) -> tuple[BaseModel, str]:
        return self._safe(obs), "no special plan"

    # -- preparation and bids ---------------------------------------------------------------------
    def _prep_turn(self, obs: Observation, words: Words) -> tuple[BaseModel, str]:
        s, me = obs.state, self.name
        mine = sum(1 for t in s.tenets if t.by == me)
        if mine < self.persona.tenets and s.player(me).wealth > 15:
            return A.ProposeTenet(player=me, text=words.tenet(), kind="story"), "a Tenet to shape the story"
        if mine < self.persona.tenets + 1 and self.rng.random() < self.persona.build * 0.5 and s.player(me).wealth > 18:
            role, _ = words.new_character()
            return A.CreateComponent(player=me, role=role.capitalize()), "a character for later scenes"
        return A.PassPrep(player=me), "enough Tenets"

    def _bid(self, obs: Observation, words: Words) -> tuple[BaseModel, str]:
        s, me = obs.state, self.name
        wealth = s.player(me).wealth
        if wealth < 6:
            return A.Bid(player=me, amount=0), "too poor to frame"
        want = self.persona.bid_eagerness * wealth
        # a player whose components wait off-stage wants the next scene more
        mine = [c for c in s.components.values() if c.created_by == me and not c.eliminated]
        want *= 1.0 + 0.1 * min(len(mine), 4)
        amount = max(0, min(wealth - 2, int(want * self.rng.uniform(0.4, 1.0))))
        return A.Bid(player=me, amount=amount), f"bids {amount} of {wealth}"

    # -- turns --------------------------------------------------------------------------------------
    def _turn(self, obs: Observation, words: Words) -> tuple[BaseModel, str]:
        s, me = obs.state, self.name
        sc = s.scene()
        assert s.turn is not None and sc is not None
        money = available(s, me)
        place = s.components.get(sc.location) if sc.location else None
        if s.turn.framing:
            return self._frame(obs, words, sc, money)
        if s.complication is not None:
            return self._complication_turn(obs, words)
        budget = self.persona.spend_per_turn
        rich = money - self.persona.reserve
        events_here = sum(1 for f in s.facts if f.scene == sc.number and f.kind == "event")
        # the framer ends a scene that has done its work
        if sc.framer == me and s.turn.mini_scene is None:
            if events_here >= SCENE_EVENTS or money <= 1 or (events_here >= 3 and self.rng.random() < 0.25):
                fade = money > self.persona.reserve + 2 and self.rng.random() < 0.3
                end = A.EndScene(player=me, fade=fade, text=self._closing_line(s, words, place))
                if self._ok(obs, end):
                    return end, "the scene has done its work"
        if money <= 0 or obs.turn_actions >= budget:
            return A.EndTurn(player=me), "spent what it meant to this turn"
        mine = [c for c in self._present(s) if s.controller(c.id) == me and c.kind != "location"]
        theirs = [c for c in self._present(s) if s.controller(c.id) not in (None, me) and c.kind != "location"]
        # low on coins: start a Complication, which pays bonus coins to both sides
        if theirs and mine and (rich < 3 or self.rng.random() < self.persona.conflict * 0.5):
            perf, recv = self.rng.choice(mine), self._best_target(s, theirs)
            act = A.NarrateEvent(player=me, text=words.event(perf, recv, place), performer=perf.id, receiver=recv.id)
            if self._ok(obs, act):
                return act, f"a Complication against {recv.label}: coins are low and conflict pays"
        if rich <= 0:
            return A.EndTurn(player=me), "keeping a reserve"
        cands = self._building_moves(obs, words, mine, theirs, place)
        for act, why, cost in cands:
            if cost <= money and self._ok(obs, act):
                return act, why
        return A.EndTurn(player=me), "nothing worth buying"

    def _closing_line(self, s: GameState, words: Words, place: Component | None) -> str:
        flavour = words.tenet_flavour()
        where = place.label if place else "the scene"
        return f"The lights go down on {where}." + (f" ({flavour})" if flavour and self.rng.random() < 0.3 else "")

    def _present(self, s: GameState) -> list[Component]:
        sc = s.scene()
        return [s.components[x] for x in (sc.present if sc else []) if x in s.components]

    def _best_target(self, s: GameState, comps: list[Component]) -> Component:
        return max(comps, key=lambda c: (importance(s, c.id), c.id))

    def _frame(self, obs: Observation, words: Words, sc, money: int) -> tuple[BaseModel, str]:
        s, me = obs.state, self.name
        if sc.location is None:
            old = [c for c in s.components.values() if c.kind == "location" and not c.eliminated and not c.is_master]
            returnable = [x for x in s.scenes if x.ended and not x.faded and not x.mini and x.number != sc.number]
            if returnable and self.rng.random() < 0.15:
                act = A.EstablishLocation(player=me, return_to_scene=returnable[-1].number)
                if self._ok(obs, act):
                    return act, "cuts back to an unfinished scene"
            if old and self.rng.random() < 0.45:
                loc = self.rng.choice(old)
                return A.EstablishLocation(player=me, location=loc.id), f"returns to {loc.label}"
            name = words.new_place()
            return A.EstablishLocation(player=me, new_role=name), "a new place for the story"
        if self.rng.random() < 0.12 and sc.time_kind == "after" and money > 4:
            act = A.SetTime(player=me, when="past", text="Years earlier.")
            if self._ok(obs, act):
                return act, "a flashback"
        present = [c for c in self._present(s) if c.kind != "location"]
        if len(present) < 2 and money > 2:
            offstage = [c for c in s.components.values() if c.kind != "location" and not c.eliminated
                        and not c.is_master and c.id not in sc.present and c.id not in sc.absent]
            if offstage and self.rng.random() < 0.6:
                comp = max(offstage, key=lambda c: (importance(s, c.id) + self.rng.random() * 3, c.id))
                return A.IntroduceComponent(player=me, component=comp.id), f"brings back {comp.label}"
            role, name = words.new_character()
            named = self.rng.random() < 0.6 and money > 3
            return (A.CreateComponent(player=me, kind="character", role=role.capitalize(),
                                      proper_name=name if named else None, introduce=True),
                    f"a new {role} for the scene")
        perf = self.rng.choice(present) if present else None
        recv = None
        mine = [c for c in present if s.controller(c.id) == me]
        if mine:
            perf = self.rng.choice(mine)
            others = [c for c in mine if c.id != perf.id]
            recv = self.rng.choice(others) if others and self.rng.random() < 0.5 else None
        elif perf is not None and s.controller(perf.id) != me:
            perf = None
        place = s.components.get(sc.location)
        return (A.NarrateEvent(player=me, text=words.event(perf, recv, place), performer=perf.id if perf else None,
                               receiver=recv.id if recv else None), "the scene's first Event")

    def _building_moves(self, obs: Observation, words: Words, mine: list[Component], theirs: list[Component],
                        place: Component | None) -> list[tuple[BaseModel, str, int]]:
        s, me, r, p = obs.state, self.name, self.rng, self.persona
        moves: list[tuple[BaseModel, str, int]] = []
        if mine and r.random() < p.build:
            comp = r.choice(mine)
            moves.append((A.AddTrait(player=me, component=comp.id, text=words.trait_for(comp)),
                          f"deepens {comp.label}", 1))
        if place is not None and r.random() < p.build * 0.3 and s.controller(place.id) == me:
            moves.append((A.AddTrait(player=me, component=place.id, text=words.trait_for(place)),
                          f"colours {place.label}", 1))
        weak = [c for c in mine if importance(s, c.id) <= 2 and c.created_by != me]
        if weak and r.random() < p.eliminate:
            comp = weak[0]
            moves.append((A.ReduceImportance(player=me, component=comp.id, coins=importance(s, comp.id) or 1,
                                             text=words.fate(comp, None)), f"writes {comp.label} out", 2))
        if len(self._present(s)) < 4 and r.random() < p.build * 0.6:
            role, name = words.new_character()
            moves.append((A.CreateComponent(player=me, role=role.capitalize(), proper_name=name if r.random() < 0.5 else None,
                                            introduce=True), f"a new {role} enters", 2))
        if mine:
            perf = r.choice(mine)
            recv = r.choice([c for c in mine if c.id != perf.id] or [None])  # type: ignore[list-item]
            moves.append((A.NarrateEvent(player=me, text=words.event(perf, recv, place), performer=perf.id,
                                         receiver=recv.id if recv else None), "moves the story on", 1))
        if r.random() < 0.2 and s.turn is not None and not s.turn.tenet_used:
            moves.append((A.ProposeTenet(player=me, text=words.tenet()), "a new truth about the world", 1))
        if r.random() < 0.3:
            moves.append((A.BuyFact(player=me, text=words.detail(place)), "a detail of the scene", 1))
        if theirs and r.random() < p.takeover:
            tgt = self._best_target(s, theirs)
            moves.append((A.TakeOver(player=me, component=tgt.id), f"takes {tgt.label} in hand", 1))
        if not mine:
            role, name = words.new_character()
            moves.append((A.CreateComponent(player=me, role=role.capitalize(), proper_name=name, introduce=True),
                          "someone to act through", 2))
        r.shuffle(moves)
        return moves

    # -- complications -----------------------------------------------------------------------------
    def _my_pool(self, s: GameState) -> str | None:
        comp = s.complication
        if comp is None:
            return None
        for p in comp.pools:
            if p.owner == self.name:
                return p.key
        return None

    def _complication_turn(self, obs: Observation, words: Words) -> tuple[BaseModel, str]:
        s, me = obs.state, self.name
        comp = s.complication
        assert comp is not None
        pool = self._my_pool(s)
        sc = s.scene()
        assert sc is not None
        if pool is not None:
            # draw on every applicable Trait of the components I control, and of the location
            sources = [c for c in self._present(s) if s.controller(c.id) == me]
            if sc.location:
                sources.append(s.components[sc.location])
            for c in sources:
                for trait, key in trait_ids_drawable(s, c):
                    if key in comp.drawn:
                        continue
                    act = A.DrawTrait(player=me, trait=trait.id, component=c.id, pool=pool, text=trait.text)
                    if self._ok(obs, act):
                        return act, f"draws on {c.label}'s “{trait.text}”"
            mine_dice = comp.pool(pool).size
            other = sum(p.size for p in comp.pools if (p.key == "C") != (pool == "C"))
            spare = available(s, me) - self.persona.reserve
            if mine_dice <= other and spare > 0:
                n = min(spare, other - mine_dice + 1, 4)
                act = A.BuyDie(player=me, pool=pool, count=n, text="pressing the advantage")
                if self._ok(obs, act):
                    return act, f"buys {n} dice to close the gap"
        act = A.CallResolution(player=me)
        if self._ok(obs, act):
            return act, "ready to roll"
        return A.EndTurn(player=me), "waits"

    def _consent(self, obs: Observation, words: Words) -> tuple[BaseModel, str]:
        s, me = obs.state, self.name
        comp = s.complication
        pool = self._my_pool(s)
        if comp is not None and pool is not None and comp.id not in self._declined:
            mine = comp.pool(pool).size
            other = sum(p.size for p in comp.pools if (p.key == "C") != (pool == "C"))
            if mine + 2 <= other and available(s, me) > self.persona.reserve + 2:
                self._declined.add(comp.id)
                return A.AnswerResolution(player=me, agree=False), "behind on dice: wants a turn to catch up"
        return A.AnswerResolution(player=me, agree=True), "agrees to roll"

    def _narration(self, obs: Observation, words: Words) -> tuple[BaseModel, str]:
        s, me = obs.state, self.name
        nar, comp = s.narration, s.complication
        assert nar is not None and comp is not None
        slot = nar.slots[nar.current]
        losers = [x for x in nar.slots if not x.won and not x.done and x.coins > 0]
        spent_cancel = getattr(self, "_cancelled_for", None) == (comp.id, slot.pool)
        if slot.won and losers and not spent_cancel and slot.coins > 2:
            self._cancelled_for = (comp.id, slot.pool)
            n = min(int(slot.coins * self.persona.cancel_share), losers[0].coins)
            if n >= 1:
                return A.CancelBonus(player=me, pool=losers[0].pool, coins=n), f"cancels {n} of {losers[0].player}'s coins"
        keep = max(1, slot.coins // 3)
        if slot.coins > keep:
            act = self._spend_bonus(obs, words, slot.won)
            if act is not None:
                return act
        return A.EndNarration(player=me), f"keeps {slot.coins} coins"

    def _spend_bonus(self, obs: Observation, words: Words, won: bool) -> tuple[BaseModel, str] | None:
        s, me = obs.state, self.name
        comp = s.complication
        assert comp is not None
        slot = s.narration.slots[s.narration.current]  # type: ignore[union-attr]
        sc = s.scene()
        place = s.components.get(sc.location) if sc and sc.location else None
        mine_side = {x for x in comp.committed if s.controller(x) == me}
        against = [s.components[x] for x in dict.fromkeys(comp.targets + comp.committed)
                   if x in s.components and s.controller(x) not in (None, me) and not s.components[x].eliminated
                   and s.components[x].kind != "location"]
        ours = [s.components[x] for x in sorted(mine_side) if not s.components[x].eliminated
                and s.components[x].kind != "location"]
        if won and against:
            victim = max(against, key=lambda c: importance(s, c.id))
            imp = importance(s, victim.id)
            own = max(0, len(victim.live_traits()) - victim.reduced)
            if 0 < imp <= slot.coins - 1 and own >= imp and self.rng.random() < self.persona.eliminate + 0.3:
                killer = ours[0] if ours else None
                act = A.ReduceImportance(player=me, component=victim.id, coins=imp, text=words.fate(victim, killer))
                if self._ok(obs, act):
                    return act, f"eliminates {victim.label} with bonus coins"
            act = A.AddTrait(player=me, component=victim.id, text=words.injury(victim))
            if self._ok(obs, act):
                return act, f"marks {victim.label} with the defeat"
        if ours:
            hero = self.rng.choice(ours)
            text = words.trait_for(hero) if won else f"Learned from the defeat: {words.trait_for(hero).lower()}"
            act = A.AddTrait(player=me, component=hero.id, text=text)
            if self._ok(obs, act):
                return act, f"{hero.label} comes out of it changed"
        if obs.turn_actions == 0:
            verdict = "it comes to pass" if won == (slot.pool == "C") else "it does not come to pass"
            act = A.NarrateEvent(player=me, text=f"{comp.source.rstrip('.')}: {verdict}.")
            if self._ok(obs, act):
                return act, "narrates the outcome"
        return None

    # -- reactions ------------------------------------------------------------------------------------
    def _reaction(self, obs: Observation, words: Words) -> tuple[BaseModel, str]:
        s, me, p, r = obs.state, self.name, self.persona, self.rng
        w = s.window
        assert w is not None
        st = w.statement
        money = available(s, me)
        # challenge what contradicts an established Fact
        contradiction = self._contradiction(s, st.components, st.kind)
        if contradiction is not None and w.allow_challenge and r.random() < 0.5 + p.challenge:
            fid, why = contradiction
            return (A.ChallengeStatement(player=me, reason=why, fact=fid, withdraw=True),
                    f"it contradicts an established Fact: {why}")
        # defend what I made from someone else's hand
        mine_touched = [x for x in st.components if x in s.components and s.components[x].created_by == me
                        and s.controller(x) not in (None, me)]
        if mine_touched and st.is_event and money > p.reserve and r.random() < p.takeover * 2:
            act = A.TakeOver(player=me, component=mine_touched[0])
            if self._ok(obs, act):
                return act, f"takes back {s.components[mine_touched[0]].label}"
        if w.allow_challenge and st.kind == "reduce" and mine_touched and r.random() < p.challenge:
            return (A.ChallengeStatement(player=me, reason="That death comes too cheap for a character this important.",
                                         withdraw=True), "protects a component it created")
        if (w.allow_interrupt and st.is_event and s.complication is None and money > p.reserve + 3
                and r.random() < p.conflict * 0.25):
            n = min(3, money - p.reserve - 1)
            act = A.Obstacle(player=me, dice=max(1, n), text=f"But it is not so easy: {words.pick('deeds')}")
            if self._ok(obs, act):
                return act, "makes the Event an Obstacle"
        if w.allow_interrupt and money > p.reserve + 2 and r.random() < p.interrupt * 0.5:
            act = A.Interrupt(player=me, text="interrupts with an idea.")
            if self._ok(obs, act):
                return act, "has an idea of its own"
        return A.Pass(player=me), "lets it stand"

    def _contradiction(self, s: GameState, comps: list[str], kind: str) -> tuple[str, str] | None:
        """Offline check: a component placed in a scene where it was declared absent."""
        sc = s.scene()
        if sc is None:
            return None
        for cid in comps:
            if cid in sc.absent and cid in sc.present:
                fact = next((f for f in reversed(s.facts) if f.kind == "absence" and cid in f.components
                             and f.scene == sc.number), None)
                if fact is not None:
                    return fact.id, f"{s.components[cid].label} was declared absent from this scene"
        return None

    def _negotiation(self, obs: Observation, words: Words) -> tuple[BaseModel, str]:
        s, me = obs.state, self.name
        ch = s.challenge
        assert ch is not None
        if ch.statement.cost <= 1 or available(s, me) < 4:
            return A.ConcedeChallenge(player=me), "not worth a fight"
        return A.ContestChallenge(player=me), "stands by the statement"

    def _challenge_bid(self, obs: Observation, words: Words) -> tuple[BaseModel, str]:
        s, me, p = obs.state, self.name, self.persona
        ch = s.challenge
        assert ch is not None
        money = available(s, me)
        if me == ch.challenger:
            side = 1
        elif me == ch.challenged:
            side = 0
        else:
            side = 1 if ch.fact_id else (0 if self.rng.random() < 0.5 else -1)
        if side < 0 or money <= p.reserve // 2:
            return A.ChallengePass(player=me), "stays out"
        totals = [t * (2 if i == 1 and ch.fact_id and ch.fact_applies is not False else 1) for i, t in enumerate(ch.totals)]
        mine, best_other = totals[side], max(t for i, t in enumerate(totals) if i != side)
        if mine > best_other and not (not ch.bids and me == ch.challenger):
            return A.ChallengePass(player=me), "already ahead"
        coins = max(1, min(money - p.reserve // 2, best_other - mine + 1, 4))
        if (not ch.bids and me == ch.challenger) or coins <= money - p.reserve // 2:
            return A.ChallengeBid(player=me, option=side, coins=max(1, coins)), f"bids {coins} for its side"
        return A.ChallengePass(player=me), "cannot afford more"

    def _fact_vote(self, obs: Observation, words: Words) -> tuple[BaseModel, str]:
        ch = obs.state.challenge
        applies = ch is None or self.name != ch.challenged
        return A.FactVote(player=self.name, applies=applies), "votes on the Fact"

    def _fine_vote(self, obs: Observation, words: Words) -> tuple[BaseModel, str]:
        f = obs.state.fine
        return A.FineVote(player=self.name, fine=f is not None and f.accuser == self.name), "votes on the Fine"

    def _dialog_answer(self, obs: Observation, words: Words) -> tuple[BaseModel, str]:
        if self.rng.random() < self.persona.conflict * 0.3:
            return A.AnswerDialog(player=self.name, accept=False), "refuses: it becomes a Complication"
        return A.AnswerDialog(player=self.name, accept=True, line="Then we understand each other."), "answers"

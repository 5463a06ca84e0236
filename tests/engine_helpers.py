"""Helpers that drive a Universalis game quickly in tests.

Every helper goes through `engine.universalis.apply`, so nothing here bypasses the rules:
it only saves typing the reaction windows and the bids that a test does not care about.
"""
from __future__ import annotations

import json
import os
from typing import Callable, Iterable

import pytest

from engine.core.errors import RuleViolation
from engine.universalis import actions as A
from engine.universalis import apply, new_game, pending
from engine.universalis.components import importance
from engine.universalis.ledger import accounted, conservation_problems
from engine.universalis.state import GameState

P3 = ["Ann", "Ben", "Cat"]
BOOK = ["Albert", "Bob", "Christine", "Dave", "Ed"]


class Game:
    """A game being played in a test: the current state, every event, every accepted action."""

    def __init__(self, state: GameState) -> None:
        self.s = state
        self.events: list = []
        self.actions: list = []

    # -- applying ---------------------------------------------------------------------------
    def do(self, action) -> list:
        """Apply one action (refused actions raise RuleViolation and change nothing)."""
        self.s, evs = apply(self.s, action)
        self.events.extend(evs)
        self.actions.append(action)
        return evs

    def act(self, action) -> list:
        """Apply one action, then let every other player pass any reaction window it opened."""
        evs = list(self.do(action))
        evs += self.passes()
        return evs

    def passes(self) -> list:
        evs: list = []
        while pending(self.s).kind == "reaction":
            for p in pending(self.s).players:
                evs += self.do(A.Pass(player=p))
        return evs

    def refused(self, action, rule: str, words: str | None = None) -> RuleViolation:
        """Assert `action` is refused by `rule`, with the rule ID in the message, state unchanged."""
        before = self.s.model_dump_json()
        with pytest.raises(RuleViolation) as exc:
            apply(self.s, action)
        assert exc.value.rule == rule, f"refused by {exc.value.rule} ({exc.value}), expected {rule}"
        assert f"({rule})" in str(exc.value)
        if words is not None:
            assert words.lower() in str(exc.value).lower(), str(exc.value)
        assert self.s.model_dump_json() == before
        observed(rule, "refusal")
        return exc.value

    def effect(self, rule: str, action, check: Callable[[GameState, GameState], bool], react: bool = True) -> list:
        """Apply `action` and assert the change `rule` makes: `check(before, after)` holds, and it
        does not hold of the state before (`check(before, before)`), so it sees what the action did.

        This is how a test shows it exercises a rule's effect (tests/test_rules_coverage.py).
        """
        before = self.s
        assert not check(before, before), f"the check for {rule} holds before the action: it tests nothing"
        evs = self.act(action) if react else self.do(action)
        assert check(before, self.s), f"{rule}: the expected change did not happen after {action!r}"
        observed(rule, "effect")
        return evs

    # -- reading ----------------------------------------------------------------------------
    def wealth(self, name: str) -> int:
        return self.s.player(name).wealth

    def spendable(self, name: str) -> int:
        p = self.s.player(name)
        return p.wealth + p.stake

    def imp(self, cid: str) -> int:
        return importance(self.s, cid)

    @property
    def pend(self):
        return pending(self.s)

    @property
    def turn(self) -> str | None:
        return self.s.turn.player if self.s.turn else None

    def last(self, kind: str):
        for e in reversed(self.events):
            if e.kind == kind:
                return e
        raise AssertionError(f"no {kind} event")

    def new_component(self) -> str:
        """The id of the component created last."""
        return f"c{self.s.counters['c']}"

    def trait(self, cid: str, text: str, nth: int = 0) -> str:
        ts = [t.id for t in self.s.components[cid].traits if t.text == text]
        return ts[nth]

    # -- common moves -----------------------------------------------------------------------
    def create(self, player: str, role: str, introduce: bool = True, **kw) -> str:
        self.act(A.CreateComponent(player=player, role=role, introduce=introduce, **kw))
        return self.new_component()

    def add(self, player: str, cid: str, text: str, times: int = 1, **kw) -> str:
        self.act(A.AddTrait(player=player, component=cid, text=text, times=times, **kw))
        return self.s.components[cid].traits[-1].id if kw.get("kind") not in ("possession",) else \
            [t.id for t in self.s.components[cid].traits if t.kind == "possession"][-1]

    def event(self, player: str, text: str = "Something happens.", performer=None, receiver=None) -> list:
        return self.act(A.NarrateEvent(player=player, text=text, performer=performer, receiver=receiver))

    def end_turn(self, player: str | None = None) -> None:
        self.act(A.EndTurn(player=player or self.turn))

    def bids(self, amounts: dict[str, int]) -> None:
        for name in self.s.seat_names:
            self.do(A.Bid(player=name, amount=amounts.get(name, 0)))

    def interrupt(self, who: str) -> None:
        """Answer the open window: `who` interrupts, everyone else passes."""
        for p in list(self.pend.players):
            self.do(A.Interrupt(player=p) if p == who else A.Pass(player=p))

    def react(self, answers: dict) -> None:
        """Answer the open window with the given actions by player; the rest pass."""
        for p in list(self.pend.players):
            self.do(answers.get(p) or A.Pass(player=p))

    def call_and_agree(self, caller: str | None = None) -> None:
        caller = caller or self.turn
        self.do(A.CallResolution(player=caller))
        for p in list(self.pend.players):
            self.do(A.AnswerResolution(player=p, agree=True))

    def roll(self, **faces: list[int]) -> list:
        return self.act(A.Roll(faces=faces))

    def narrate_out(self) -> None:
        """Every narrator keeps what is left of his bonus coins."""
        while self.pend.kind == "narration":
            self.act(A.EndNarration(player=self.pend.players[0]))

    # -- invariants -------------------------------------------------------------------------
    def check(self) -> None:
        check_invariants(self.s)


def check_invariants(s: GameState) -> None:
    """U-ECO-2 coin accounting, no negative wealth, control consistency."""
    for p in s.players:
        assert p.wealth >= 0 and p.stake >= 0, p
        assert accounted(p) == p.wealth + p.stake, (p.name, p.ledger, p.wealth, p.stake)
    start = sum(p.ledger.start for p in s.players)
    assert sum(p.wealth + p.stake for p in s.players) == start + s.bank_out + s.bank_refunds - s.bank_in
    assert conservation_problems(s) == [], conservation_problems(s)  # the coins the Bank set aside too
    for sc in s.scenes:
        if sc.ended:
            assert not sc.control, f"control survives the end of scene {sc.number}"
        for cid in sc.control:
            assert cid in sc.present or cid == sc.location, (sc.number, cid)
        if not sc.ended:  # an ended scene's list of who was present is history
            for cid in list(sc.control) + list(sc.present):
                assert not s.components[cid].eliminated or sc.past, (sc.number, cid)


def game(players: Iterable[str] = P3, **kw) -> Game:
    return Game(new_game(list(players), **kw))


def all_pass_prep(g: Game) -> None:
    while g.s.phase == "prep":
        g.do(A.PassPrep(player=g.pend.players[0]))


def to_scene(players: Iterable[str] = P3, bids: dict[str, int] | None = None, **kw) -> Game:
    """A new game, preparation passed, bids placed: the winner is framing scene 1."""
    g = game(players, **kw)
    all_pass_prep(g)
    g.bids(bids or {})
    return g


def framed(players: Iterable[str] = P3, bids: dict[str, int] | None = None, location: str = "Tavern",
           **kw) -> Game:
    """Scene 1 framed at a new location and its first Event narrated (framing over)."""
    g = to_scene(players, bids, **kw)
    framer = g.turn
    g.act(A.EstablishLocation(player=framer, new_role=location))
    g.event(framer, "The lamps are lit.")
    return g


def everyone_passes(state: GameState) -> GameState:
    """Answer every open reaction window with Pass."""
    while pending(state).kind == "reaction":
        for p in pending(state).players:
            state, _ = apply(state, A.Pass(player=p))
    return state


def fact_vote_open() -> Game:
    """Ann's Event "Sunlight." is challenged by Ben citing her Fact "It is night."; she disputes that the Fact
    applies and votes first (U-FACT-2): Ben's and Cat's votes are awaited."""
    g = framed(P3, {"Ann": 1})
    g.act(A.BuyFact(player="Ann", text="It is night."))
    fact = g.s.facts[-1].id
    g.do(A.NarrateEvent(player="Ann", text="Sunlight."))
    g.react({"Ben": A.ChallengeStatement(player="Ben", reason="night", fact=fact)})
    g.do(A.DisputeFact(player="Ann"))
    g.do(A.FactVote(player="Ann", applies=False))
    return g


def rival_called(complication_dice: int = 4, hero_dice: int = 3) -> tuple[Game, str]:
    """Ann's Hero; Ben narrates a rival's challenge, buys dice for both pools and the call is agreed."""
    g = framed(P3, {"Ann": 1})
    hero = g.create("Ann", "Hero")
    g.end_turn("Ann")
    g.event("Ben", "A rival challenges the hero.", receiver=hero)
    g.act(A.BuyDie(player="Ben", pool="C", count=complication_dice))
    g.act(A.BuyDie(player="Ben", pool="Ann", count=hero_dice))
    g.call_and_agree("Ben")
    return g, hero


# --- evidence that a test exercised a rule (tests/test_rules_coverage.py) ---------------------
# `Game.refused` (the engine refused under the rule) and `Game.effect` (the rule's change was seen)
# note the rule; when pytest loads this module as a plugin (`-p engine_helpers`) with
# STORYTABLE_RULE_EVIDENCE set to a file, each *passing* test's rules are written there.
EVIDENCE_ENV = "STORYTABLE_RULE_EVIDENCE"
_OBSERVED: list[tuple[str, str]] = []


def observed(rule: str, how: str) -> None:
    _OBSERVED.append((rule, how))


def pytest_runtest_setup(item) -> None:  # pytest hook, active only as a plugin
    _OBSERVED.clear()


def pytest_runtest_logreport(report) -> None:  # pytest hook, active only as a plugin
    path = os.environ.get(EVIDENCE_ENV)
    if path and report.when == "call" and report.passed and _OBSERVED:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps({"test": report.nodeid, "seen": sorted(set(_OBSERVED))}) + "\n")


def replayed_game(addons, seed: int, path, steps: int = 300, players: Iterable[str] = P3,
                  check: Callable[[GameState], None] | None = None):
    """Heuristic seats play `steps` decisions under `addons` (seeded dice), with the invariants (and
    `check`) after every one; the log must replay to the same state, byte for byte. Returns the Table."""
    from agents.table import Table, heuristic_seats
    from engine.core.dice import SeededDice
    t = Table.new(heuristic_seats(list(players), seed), dice=SeededDice(seed), addons=addons, log_path=path)
    for _ in range(steps):
        if not t.step().acted:
            break
        check_invariants(t.state)
        if check is not None:
            check(t.state)
    again = Table.load_file(path)
    assert again.damage is None and again.state.model_dump_json() == t.state.model_dump_json()
    return t

"""Property tests: random legal games keep the invariants of DESIGN.md after every action.

Each example plays one game of up to MAX_STEPS accepted actions. At every step the pending
player's candidate actions are built from the state (a wide, partly silly mix: the engine
must refuse what is illegal), one is picked, refused ones are skipped. Checked:

- a refused action (RuleViolation) leaves its input state unchanged; an accepted one does not
  mutate its input either (apply is pure);
- U-ECO-2: for every player start + refreshments + bonus + compensation - paid == wealth + stake,
  and the Bank balances: sum(wealth + stake) == sum(start) + bank_out - bank_in;
- U-ECO-3: wealth and stake never negative;
- U-IMP-1: Importance, recomputed here from the Traits, equals the engine's;
- control: controlled components are present (or the location), nothing eliminated is present
  outside a flashback, no control survives a scene's end;
- the pending decision always names someone with something to do, and every accepted action's
  type was among `legal_options` for its player (the engine can say what each player may do);
- replaying the accepted actions from new_game gives a byte-identical state.
"""
from __future__ import annotations

import contextlib
import importlib
import pkgutil
import random
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine

from engine.core.errors import RuleViolation
from engine.universalis import actions as A
from engine.universalis import apply, legal_options, new_game, pending
from engine.universalis.components import importance
from engine.universalis.ledger import accounted, conservation_problems
from engine.universalis.state import GameState

MAX_STEPS = 150
NAMES = ["Ann", "Ben", "Cat", "Dan"]
WORDS = ["storm", "sword", "lantern", "ghost", "crown", "river", "spy"]


# --- independent definitions ------------------------------------------------------------------
def expected_importance(s: GameState, cid: str, seen: frozenset = frozenset()) -> int:
    """U-IMP-1 from the book's count, written independently of the engine's."""
    if cid in seen:
        return 0
    comp = s.components[cid]
    live = sum(1 for t in comp.traits if not t.removed)
    total = max(0, live - comp.reduced)
    for other in s.components.values():
        if other.eliminated:
            continue
        if other.owner == cid or cid in other.masters:
            total += expected_importance(s, other.id, seen | {cid})
    return total


def check(s: GameState) -> None:
    start = 0
    for p in s.players:
        assert p.wealth >= 0 and p.stake >= 0, p
        assert accounted(p) == p.wealth + p.stake, (p.name, p.ledger, p.wealth, p.stake)
        start += p.ledger.start
    assert sum(p.wealth + p.stake for p in s.players) == start + s.bank_out + s.bank_refunds - s.bank_in
    assert conservation_problems(s) == []
    for cid in s.components:
        assert importance(s, cid) == expected_importance(s, cid), cid
    for sc in s.scenes:
        if sc.ended:
            assert not sc.control, f"control survives the end of scene {sc.number}"
        for cid in sc.control:
            assert cid in sc.present or cid == sc.location, (sc.number, cid)
        if not sc.ended:  # an ended scene's list of who was present is history
            for cid in list(sc.control) + list(sc.present):
                assert not s.components[cid].eliminated or sc.past, (sc.number, cid)
    if s.phase == "scene":
        assert s.turn is not None and s.scene() is not None and not s.scene().ended
    pend = pending(s)
    assert pend.players, pend
    if pend.kind != "roll":
        assert legal_options(s, pend.players[0]), pend


# --- the same examples whatever ran before -----------------------------------------------------
@contextlib.contextmanager
def engine_constants_only() -> Iterator[None]:
    """While inside, Hypothesis's pool of "local constants" is the engine's own, whatever is loaded.

    Why: Hypothesis (since 6.131) now and then (p=0.05 a draw) draws a number from constants it
    reads in the source of every non-test module loaded in the process. `derandomize` fixes the
    seed, but not that pool: in a full suite run the tests before this one have loaded agents,
    app and eval (hundreds of floats in [0, 1] such as retrieval weights), so `rnd.random()` in
    `candidates` drew other values and the suite played other games than this file alone. The
    engine is what these tests exercise, so its constants stay in the pool.
    """
    try:
        from hypothesis.internal.conjecture import providers
        from hypothesis.internal.constants_ast import Constants, constants_from_module
        from hypothesis.internal.floats import float_to_int
        from sortedcontainers import SortedSet
    except ImportError:  # a Hypothesis without local constants: nothing depends on what is loaded
        yield
        return
    pool = Constants(integers=SortedSet(), floats=SortedSet(key=float_to_int), bytes=SortedSet(),
                     strings=SortedSet())
    for info in sorted(pkgutil.walk_packages(engine.__path__, "engine."), key=lambda i: i.name):
        pool = pool | constants_from_module(importlib.import_module(info.name))
    pool = pool | constants_from_module(engine)
    saved = providers._get_local_constants
    providers._get_local_constants = lambda: pool
    providers.CONSTANTS_CACHE.cache.clear()  # allowed constants per draw, computed from the old pool
    try:
        yield
    finally:
        providers._get_local_constants = saved
        providers.CONSTANTS_CACHE.cache.clear()


@pytest.fixture(autouse=True)
def _same_examples_whatever_ran_before() -> Iterator[None]:
    with engine_constants_only():
        yield


# --- candidate actions ------------------------------------------------------------------------
def comps(s: GameState, rnd: random.Random, present_only: bool = False) -> list[str]:
    sc = s.scene()
    if present_only and sc is not None:
        ids = list(sc.present) + ([sc.location] if sc.location else [])
    else:
        ids = list(s.components)
    return ids


def pick(rnd: random.Random, xs: list, default=None):
    return rnd.choice(xs) if xs else default


def some_trait(s: GameState, rnd: random.Random, cid: str | None) -> str | None:
    if cid is None:
        return None
    ts = s.components[cid].traits
    return rnd.choice(ts).id if ts else None


def candidates(s: GameState, rnd: random.Random, faces_for) -> list:
    """Concrete actions for the pending player; `faces_for(pool_key, n)` gives a Roll's faces."""
    pend = pending(s)
    who = pend.players[0]
    k = pend.kind
    word = rnd.choice(WORDS)
    anyc = pick(rnd, comps(s, rnd))
    here = pick(rnd, comps(s, rnd, present_only=True))
    here2 = pick(rnd, comps(s, rnd, present_only=True))
    if k == "prep_turn":
        out = [A.PassPrep(player=who)] * 4 + [
            A.ProposeTenet(player=who, text=f"A world of {word}.", kind=rnd.choice(["story", "world", "gimmick"])),
            A.CreateComponent(player=who, role=word.title(), kind=rnd.choice(["character", "prop", "location"]))]
        if anyc:
            out.append(A.AddTrait(player=who, component=anyc, text=f"Has a {word}"))
        return out
    if k == "bid":
        w = s.player(who).wealth
        return [A.Bid(player=who, amount=rnd.choice([0, 1, 2, 3, w])), A.Bid(player=who, amount=0)]
    if k == "reaction":
        st_ = s.window.statement
        out = [A.Pass(player=who)] * 6 + [
            A.Interrupt(player=who),
            A.Obstacle(player=who, dice=rnd.randint(1, 2), text=f"A {word} gets in the way."),
            A.ChallengeStatement(player=who, reason="I prefer otherwise", withdraw=rnd.random() < 0.5,
                                 alternative=f"Instead, a {word}.", alternative_cost=rnd.randint(0, 2),
                                 fact=pick(rnd, [f.id for f in s.facts if f.id != st_.fact_id]) if rnd.random() < 0.3 else None),
            A.CallFine(player=who, accused=st_.actor, reason="table manners"),
        ]
        if here:
            out.append(A.TakeOver(player=who, component=here))
        return out
    if k == "negotiation":
        ch = s.challenge
        return [A.ConcedeChallenge(player=who), A.ContestChallenge(player=who), A.ContestChallenge(player=who),
                A.DisputeFact(player=who), A.WithdrawChallenge(player=ch.challenger)]
    if k == "fact_vote":
        return [A.FactVote(player=who, applies=rnd.random() < 0.5)]
    if k == "challenge_bid":
        ch = s.challenge
        return [A.ChallengePass(player=who)] * 2 + [
            A.ChallengeBid(player=who, option=rnd.randrange(len(ch.options)), coins=rnd.randint(1, 2)),
            A.ChallengeBid(player=who, option=1, coins=1),
            A.ChallengeBid(player=who, coins=1, new_option=f"A third way: {word}.", new_option_cost=rnd.randint(0, 1))]
    if k == "fine_vote":
        return [A.FineVote(player=who, fine=rnd.random() < 0.5)]
    if k == "consent":
        return [A.AnswerResolution(player=who, agree=rnd.random() < 0.8)]
    if k == "dialog_answer":
        return [A.AnswerDialog(player=who, accept=rnd.random() < 0.5, line="Indeed.")]
    if k == "roll":
        faces = {key: faces_for(key, n) for key, n in pend.dice.items()}
        return [A.Roll(faces=faces)]
    comp = s.complication
    tied = list(dict.fromkeys((comp.targets + comp.committed) if comp else []))
    if k == "narration":
        slot = s.narration.slots[s.narration.current]
        target = pick(rnd, tied)
        out = [A.EndNarration(player=who)] * 2 + [
            A.NarrateEvent(player=who, text=f"The {word} settles it.", receiver=target),
            A.BuyFact(player=who, text=f"The {word} is gone."),
            A.CreateComponent(player=who, role=word.title(), introduce=True),
            A.ProposeTenet(player=who, text=f"The {word} remembers.")]
        if target:
            out += [A.AddTrait(player=who, component=target, text=f"Scarred by the {word}"),
                    A.ReduceImportance(player=who, component=target, coins=rnd.randint(1, 3)),
                    A.RemoveTrait(player=who, trait=some_trait(s, rnd, target) or "t0")]
        losers = [x.pool for x in s.narration.slots if not x.won and not x.done and x.coins]
        if slot.won and losers:
            out.append(A.CancelBonus(player=who, pool=rnd.choice(losers), coins=rnd.randint(1, 3)))
        return out
    # a turn
    sc = s.scene()
    out = [A.EndTurn(player=who)] * 3 + [
        A.EndScene(player=who, fade=rnd.random() < 0.3),
        A.EstablishLocation(player=who, new_role=f"{word.title()} Hall"),
        A.NarrateEvent(player=who, text=f"The {word} moves.", performer=here, receiver=here2 if rnd.random() < 0.5 else None),
        A.NarrateEvent(player=who, text=f"A {word} falls."),
        A.CreateComponent(player=who, role=word.title(), introduce=rnd.random() < 0.7,
                          proper_name=word.upper() if rnd.random() < 0.2 else None),
        A.BuyFact(player=who, text=f"There is a {word} here."),
    ]
    if sc is not None and sc.location is not None:
        out += [A.EndScene(player=who, fade=rnd.random() < 0.3)] * 2  # scenes must end for games to be real
    if sc is not None and sc.location is None:
        out += [A.EstablishLocation(player=who, new_role=f"{word.title()} Hall")] * 3
        if s.scenes and rnd.random() < 0.3:
            out.append(A.EstablishLocation(player=who, return_to_scene=rnd.randint(1, len(s.scenes))))
        locs = [c for c, x in s.components.items() if x.kind == "location"]
        if locs:
            out.append(A.EstablishLocation(player=who, location=rnd.choice(locs)))
    if s.turn.framing:
        out.append(A.SetTime(player=who, when=rnd.choice(["after", "concurrent", "past", "future", "explicit"])))
    if anyc:
        tr = some_trait(s, rnd, anyc)
        other = pick(rnd, [c for c in s.components if c != anyc])
        out += [A.IntroduceComponent(player=who, component=anyc),
                A.AddTrait(player=who, component=anyc, text=f"Loves the {word}", times=rnd.randint(1, 2)),
                A.ReduceImportance(player=who, component=anyc, coins=rnd.randint(1, 2)),
                A.ReturnComponent(player=who, component=anyc),
                A.RestoreImportance(player=who, component=anyc),
                A.DeclareAbsent(player=who, component=anyc),
                A.AddTrait(player=who, component=anyc, text="Master of its kind", kind="master")]
        if tr:
            out += [A.RemoveTrait(player=who, trait=tr), A.RestoreTrait(player=who, trait=tr)]
        if other:
            out += [A.AddTrait(player=who, component=anyc, text=f"Owns the {word}", kind="possession", other=other),
                    A.AddTrait(player=who, component=anyc, text=f"Sibling of {word}", kind="relationship",
                               other=other, corollary=f"Sibling of the {word}" if rnd.random() < 0.5 else None),
                    A.AddTrait(player=who, component=anyc, text=f"A kind of {word}", kind="sub", other=other),
                    A.CreateComponent(player=who, role=f"{word} #{rnd.randint(1, 9)}", sub_of=other,
                                      introduce=rnd.random() < 0.5)]
    if here:
        out += [A.ExitComponent(player=who, component=here), A.TakeOver(player=who, component=here),
                A.Speak(player=who, component=here, line="Well then.")]
        if here2:
            out.append(A.Dialog(player=who, speaker=here, listener=here2, line="A word with you."))
    if comp is not None:
        pools = [p.key for p in comp.pools]
        dc = pick(rnd, comps(s, rnd, present_only=True))
        tr = some_trait(s, rnd, dc)
        out += [A.BuyDie(player=who, pool=rnd.choice(pools), count=rnd.randint(1, 2), remove=rnd.random() < 0.2),
                A.CallResolution(player=who), A.CallResolution(player=who)]
        if dc and tr:
            out += [A.DrawTrait(player=who, trait=tr, component=dc, pool=rnd.choice(pools),
                                remove=rnd.random() < 0.2)] * 3
    else:
        out.append(A.FrameMiniScene(player=who))
    if s.turn.mini_scene is not None:
        out.append(A.FadeMiniScene(player=who))
    out += [A.ProposeTenet(player=who, text=f"No {word}s.", replaces=pick(rnd, [t.id for t in s.tenets])
                           if rnd.random() < 0.3 else None),
            A.CallFine(player=who, accused=rnd.choice([n for n in s.seat_names if n != who]), reason="rude")]
    return out


# --- the property -----------------------------------------------------------------------------
GAMES: list[dict] = []  # one line per game played by `random_game`, for the test to count


# derandomize + no example database: every CI run plays the same 200 games, nothing carried over
@settings(max_examples=200, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(data=st.data(), n_players=st.integers(2, 4), coins=st.integers(0, 30), refresh=st.integers(0, 6),
       first=st.integers(0, 3), seed=st.randoms(use_true_random=False))
def random_game(data, n_players, coins, refresh, first, seed):
    players = NAMES[:n_players]
    s = new_game(players, starting_coins=coins, refreshment=refresh, starting_player=first % n_players)
    start = s
    accepted = []
    check(s)
    def faces_for(key: str, n: int) -> list[int]:
        return data.draw(st.lists(st.integers(0, 10), min_size=n, max_size=n), label=f"roll {key}")

    for _ in range(MAX_STEPS):
        cands = candidates(s, seed, faces_for)
        i = seed.randrange(len(cands))
        order = cands[i:] + cands[:i]
        before = s.model_dump_json()
        for action in order:
            try:
                new, _events = apply(s, action)
            except RuleViolation as exc:
                assert f"({exc.rule})" in str(exc) and exc.rule.startswith("U-")
                assert s.model_dump_json() == before, f"refused {action!r} changed the state"
                continue
            assert s.model_dump_json() == before, f"accepted {action!r} mutated its input"
            if not isinstance(action, A.Roll):  # what the engine accepts, it offered (decisions.py)
                offered = {o.type for o in legal_options(s, action.player)}
                assert action.type in offered, (action, pending(s), offered)
            s = new
            accepted.append(action)
            break
        else:
            raise AssertionError(f"no candidate accepted at {pending(s)}: {order}")
        check(s)
    replayed = start
    for action in accepted:
        replayed, _ = apply(replayed, action)
    assert replayed.model_dump_json() == s.model_dump_json()
    GAMES.append({"steps": len(accepted), "scenes": len(s.scenes), "ended": s.scenes_ended,
                  "rolls": sum(isinstance(a, A.Roll) for a in accepted),
                  "challenges": sum(isinstance(a, A.ContestChallenge) for a in accepted),
                  "fines": sum(isinstance(a, A.CallFine) for a in accepted)})


@pytest.mark.slow  # hundreds of random games: CI runs it with -m slow
def test_random_games_keep_the_invariants_U_ECO_2_U_ECO_3_U_IMP_1_U_CTRL_1():
    """At least 200 random legal games of MAX_STEPS accepted actions each, and they are real
    games: most reach a scene, many end one, roll for a Complication, bid on a Challenge."""
    GAMES.clear()
    random_game()
    games = list(GAMES)
    assert len(games) >= 200
    assert all(g["steps"] == MAX_STEPS for g in games)
    reached = {k: sum(g[k] > 0 for g in games) for k in games[0]}
    # measured with hypothesis 6.170 (this file alone, with or without `engine_constants_only`): scenes 181,
    # ended 67, rolls 43, challenges 183 of 200. A full suite run played other games then (Hypothesis
    # drew floats from the constants of every module the earlier tests had loaded); the autouse
    # fixture above makes both play the same ones. The floors stay below what is measured so that
    # rule changes in the engine do not trip them.
    assert reached["scenes"] >= 150 and reached["ended"] >= 40, reached
    assert reached["rolls"] >= 25 and reached["challenges"] >= 100 and reached["fines"] >= 100, reached


@settings(max_examples=30, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(data=st.data(), seed=st.randoms(use_true_random=False))
def test_random_games_through_json_dicts_replay_identically(data, seed):
    """Actions serialised to dicts (as the log stores them) replay to the same state (DESIGN.md)."""
    s = new_game(NAMES[:3], starting_coins=15)
    start = s
    log = []
    def faces_for(key: str, n: int) -> list[int]:
        return data.draw(st.lists(st.integers(0, 10), min_size=n, max_size=n))

    for _ in range(60):
        cands = candidates(s, seed, faces_for)
        i = seed.randrange(len(cands))
        for action in cands[i:] + cands[:i]:
            try:
                s, _ = apply(s, action)
            except RuleViolation:
                continue
            log.append(action.model_dump(mode="json"))
            break
    replayed = start
    for raw in log:
        replayed, _ = apply(replayed, raw)
    assert replayed.model_dump_json() == s.model_dump_json()


def test_the_examples_do_not_depend_on_the_modules_other_tests_loaded(tmp_path, monkeypatch):
    """A derandomized test draws the same values before and after a module full of numbers is
    imported (as a full suite run imports agents, app and eval before this file)."""
    seen: list = []

    @settings(max_examples=40, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(n=st.integers(0, 30), rnd=st.randoms(use_true_random=False))
    def draws(n, rnd):
        seen.append((n, [rnd.random() for _ in range(20)], rnd.randrange(1000)))

    draws()
    first, seen[:] = list(seen), []
    numbers = [round(0.0137 * k, 4) for k in range(1, 73)] + [100 + 7 * k for k in range(60)]
    (tmp_path / "weights_elsewhere_xq.py").write_text(f"WEIGHTS = {numbers!r}\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.import_module("weights_elsewhere_xq")
    draws()
    assert len(first) == 40 and seen == first

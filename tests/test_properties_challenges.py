"""Property: no coin is created or lost when statements are challenged (U-ECO-2, U-CHAL-1..4).

Random games in which most paid statements of every kind (Tenets, locations, times, components,
Traits, Events, Facts, eliminations, draws, bought dice, Fades, Take Overs, Dialog replies) are
challenged, with every kind of alternative (nothing, the statement reworded and repriced, or another
action in its place), and the challenge is conceded, contested, withdrawn or fought over a Fact.
After every accepted action:

- `conservation_problems` is empty: every player's ledger explains his coins, what players paid
  each other they received, the Bank took in what was paid to it, and paid out only Refreshment,
  bonus coins and refunds that never exceed what a player paid the Bank;
- when a Challenge ends with the statement replaced or withdrawn, the table as a whole holds no
  more than it held just before the statement, plus what the Bank paid out in between as
  Refreshment or bonus coins (the future-time sequence of issue 17 gave the table 2 coins);
- when it ends withdrawn, every player who neither made the statement nor bid holds exactly what he
  held before the statement (coins it paid him go back), less any Fine he paid in between: a Fine
  stands whatever becomes of the statement (U-FINE-1, book lines 597-601).

Run time: 60 games of up to 120 actions, about 15-25 s on one core.
"""
from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.errors import RuleViolation
from engine.universalis import actions as A
from engine.universalis import apply, pending
from engine.universalis.ledger import conservation_problems
from engine.universalis.state import GameState

import test_properties as tp

STEPS = 120
WORDS = ["storm", "sword", "lantern", "ghost", "crown", "river", "spy"]


def held(s: GameState, name: str) -> int:
    p = s.player(name)
    return p.wealth + p.stake


def paid_out(s: GameState) -> int:
    """What the Bank has paid as Refreshment and bonus coins (the only coins it may give)."""
    return sum(p.ledger.refreshments + p.ledger.bonus for p in s.players)


def alternatives(s: GameState, rnd: random.Random) -> list[dict]:
    """Challenge keyword arguments of every kind: nothing, reworded and repriced, another action."""
    w = s.window
    word = rnd.choice(WORDS)
    comps = list(s.components)
    traits = [t.id for c in s.components.values() for t in c.traits]
    out: list[dict] = [
        {"withdraw": True},
        {"withdraw": False, "alternative": f"Rather, the {word}.", "alternative_cost": rnd.randint(0, 3)},
        {"withdraw": False, "alternative": "", "alternative_cost": rnd.randint(0, 2)},
        {"withdraw": False, "alternative": "Later that same night.", "alternative_cost": 0},
        {"instead": {"type": "narrate_event", "text": f"Instead the {word} stirs."}},
        {"instead": {"type": "buy_fact", "text": f"The {word} was here before."}},
        {"instead": {"type": "create_component", "role": word.title(), "introduce": rnd.random() < 0.5}},
        {"instead": {"type": "set_time", "when": rnd.choice(["after", "concurrent", "past"])}},
        {"instead": {"type": "end_scene", "fade": rnd.random() < 0.3}},
        {"instead": {"type": "propose_tenet", "text": f"No {word}s, ever."}},
    ]
    if comps:
        out.append({"instead": {"type": "add_trait", "component": rnd.choice(comps), "text": f"Marked by the {word}",
                                "times": rnd.randint(1, 3)}})
    if traits:
        out.append({"instead": {"type": "remove_trait", "trait": rnd.choice(traits)}})
    if w is not None and w.statement.fact_id is not None:
        facts = [f.id for f in s.facts if f.id != w.statement.fact_id]
        if facts:
            out.append({"withdraw": True, "fact": rnd.choice(facts)})
    return out


def candidates(s: GameState, rnd: random.Random, faces_for) -> list:
    pend = pending(s)
    who = pend.players[0]
    if pend.kind == "turn" and s.turn.framing and rnd.random() < 0.3:
        return [A.SetTime(player=who, when="future")] + tp.candidates(s, rnd, faces_for)
    if pend.kind == "reaction":
        if rnd.random() < 0.7 and s.window.allow_challenge:
            return [A.ChallengeStatement(player=who, reason="I see it otherwise", **kw) for kw in
                    rnd.sample(alternatives(s, rnd), 3)] + [A.Pass(player=who)]
        return [A.Pass(player=who)] * 3 + tp.candidates(s, rnd, faces_for)
    if pend.kind == "negotiation":
        ch = s.challenge
        return rnd.sample([A.ConcedeChallenge(player=who), A.ContestChallenge(player=who),
                           A.WithdrawChallenge(player=ch.challenger), A.DisputeFact(player=who)], 4)
    if pend.kind == "dialog_answer":
        return [A.AnswerDialog(player=who, accept=True, line="Indeed.",
                               facts=[f"The {rnd.choice(WORDS)} is real."] * rnd.randint(0, 2)),
                A.AnswerDialog(player=who, accept=rnd.random() < 0.5)]
    if pend.kind in ("bid", "challenge_bid") and rnd.random() < 0.05:
        other = rnd.choice([n for n in s.seat_names if n != who])
        return [A.CallFine(player=who, accused=other, reason="manners")] + tp.candidates(s, rnd, faces_for)
    out = tp.candidates(s, rnd, faces_for)
    if pend.kind == "turn":
        sc = s.scene()
        here = list(sc.present) if sc is not None else []
        if here and rnd.random() < 0.3:
            out.append(A.Dialog(player=who, speaker=rnd.choice(here), listener=rnd.choice(here), line="Listen."))
    return out


@settings(max_examples=60, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(data=st.data(), n_players=st.integers(2, 4), coins=st.integers(0, 30), seed=st.randoms(use_true_random=False))
def challenged_game(data, n_players, coins, seed):
    s = tp.new_game(tp.NAMES[:n_players], starting_coins=coins, refreshment=seed.randint(0, 6))
    stmt_before: GameState | None = None
    fined: dict[str, int] = {}  # coins each player paid in Fines since the statement

    def faces_for(key: str, n: int) -> list[int]:
        return data.draw(st.lists(st.integers(0, 10), min_size=n, max_size=n), label=f"roll {key}")

    for _ in range(STEPS):
        cands = candidates(s, seed, faces_for)
        for action in cands[seed.randrange(len(cands)):] + cands:
            try:
                new, events = apply(s, action)
            except RuleViolation:
                continue
            break
        else:
            raise AssertionError(f"nothing accepted at {pending(s)}")
        assert conservation_problems(new) == [], (action, conservation_problems(new))
        kinds = {e.kind for e in events}
        if new.window is not None and (s.window is None or new.window.statement != s.window.statement) \
                and s.challenge is None:
            stmt_before, fined = s, {}  # a new statement: the state just before it
        for e in events:
            if e.kind == "fine" and e.player:
                fined[e.player] = fined.get(e.player, 0) + e.cost
        if kinds & {"statement_withdrawn", "statement_changed"} and stmt_before is not None:
            ch = s.challenge
            assert ch is not None
            bidders = {b[0] for b in ch.bids}
            gained = sum(held(new, n) for n in new.seat_names) - sum(held(stmt_before, n) for n in new.seat_names)
            assert gained <= paid_out(new) - paid_out(stmt_before), (action, gained)
            if "statement_withdrawn" in kinds:
                for n in new.seat_names:
                    if n not in bidders:  # a Fine takes what there is (U-ECO-3)
                        expected = max(held(stmt_before, n) - fined.get(n, 0), 0)
                        assert held(new, n) == expected, (n, action, ch.statement, fined)
            OUTCOMES.append("withdrawn" if "statement_withdrawn" in kinds else "changed")
            KINDS.add(ch.statement.kind)
        if isinstance(action, (A.ConcedeChallenge, A.ContestChallenge, A.WithdrawChallenge)):
            OUTCOMES.append(action.type)
        s = new


OUTCOMES: list[str] = []
KINDS: set[str] = set()


def test_challenged_statements_of_every_kind_create_and_lose_no_coin_U_ECO_2_U_CHAL_4():
    """Many statements challenged, conceded, contested and withdrawn; no coin created or lost."""
    OUTCOMES.clear()
    KINDS.clear()
    with tp.engine_constants_only():
        challenged_game()
    counts = {k: OUTCOMES.count(k) for k in set(OUTCOMES)}
    for k in ("withdrawn", "changed", "concede_challenge", "contest_challenge", "withdraw_challenge"):
        assert counts.get(k, 0) >= 10, counts
    assert {"tenet", "location", "component", "trait", "event", "fact"} <= KINDS, KINDS

"""Malformed actions of every type at every kind of pending decision are refused cleanly.

For a state at each pending decision (prep_turn, bid, turn, reaction, negotiation, fact_vote,
challenge_bid, fine_vote, consent, roll, narration, dialog_answer), every action type of the
engine is sent in many broken shapes: fields missing, of the wrong type, negative or huge numbers,
blank or overlong text, unknown keys, unknown or reserved player names, and plausible-looking
values naming things that do not exist. Each must either be refused with a RuleViolation that
names a rule ID (never another exception, never a traceback) and leaves the state as it was, or be
accepted without changing its input state.
"""
from __future__ import annotations

import random

import pytest

from engine.core.errors import RuleViolation
from engine.universalis import ACTION_TYPES, apply, pending
from engine.universalis import actions as A
from engine.universalis.rules import MAX_TEXT

from engine_helpers import P3, framed, game, rival_called

KINDS = ("prep_turn", "bid", "turn", "reaction", "negotiation", "fact_vote", "challenge_bid", "fine_vote",
         "consent", "roll", "narration", "dialog_answer")


def states() -> dict:
    """One state for every kind of pending decision."""
    out = {}
    g = game(P3)
    out["prep_turn"] = g.s
    while g.s.phase == "prep":
        g.do(A.PassPrep(player=g.pend.players[0]))
    out["bid"] = g.s
    g = framed(P3, {"Ann": 1})
    out["turn"] = g.s
    g.act(A.BuyFact(player="Ann", text="It is night."))
    fact = g.s.facts[-1].id
    g.do(A.NarrateEvent(player="Ann", text="Sunlight."))
    out["reaction"] = g.s
    g.react({"Ben": A.ChallengeStatement(player="Ben", reason="night", fact=fact)})
    out["negotiation"] = g.s
    g2 = framed(P3, {"Ann": 1})
    g2.do(A.CallFine(player="Ben", accused="Ann", reason="slow"))
    out["fine_vote"] = g2.s
    g.do(A.DisputeFact(player="Ann"))
    out["fact_vote"] = g.s
    for p in P3:
        g.do(A.FactVote(player=p, applies=True))
    out["challenge_bid"] = g.s
    g3, _hero = rival_called(2, 1)
    out["roll"] = g3.s
    g3.roll(C=[1, 2], Ann=[9])
    out["narration"] = g3.s
    g4 = framed(P3, {"Ann": 1})
    hero = g4.create("Ann", "Hero")
    g4.end_turn("Ann")
    g4.end_turn("Ben")
    g4.event("Cat", "A storm rises against the hero.", receiver=hero)
    g4.do(A.CallResolution(player="Cat"))
    out["consent"] = g4.s
    g5 = framed(P3, {"Ann": 1})
    queen = g5.create("Ann", "Queen")
    g5.end_turn("Ann")
    scout = g5.create("Ben", "Scout")
    g5.end_turn("Ben")
    g5.end_turn("Cat")
    g5.do(A.Dialog(player="Ann", speaker=queen, listener=scout, line="Report."))
    out["dialog_answer"] = g5.s
    for kind, s in out.items():
        assert pending(s).kind == kind, (kind, pending(s))
    return out


STATES = states()
BAD_VALUES = [None, -1, -10 ** 30, 10 ** 30, 2.5, "", "   ", "x" * (MAX_TEXT + 1), [], {}, {"x": [1]}, True,
              "c999", "t999", "C", "dice", "\u0000"]


def variants(kind: str, rnd: random.Random, s) -> list[dict]:
    """Broken and plausible shapes of one action type."""
    cls = ACTION_TYPES[kind]
    fields = [f for f in cls.model_fields if f not in ("type",)]
    comps = list(s.components) or ["c1"]
    base = {"type": kind, "player": rnd.choice(P3)}
    out = [{"type": kind}, dict(base), {**base, "unknown_key": 1}, {**base, "player": "Zed"},
           {**base, "player": ""}, {**base, "player": "dice"}, {**base, "type": kind + "x"}]
    for f in fields:
        for v in rnd.sample(BAD_VALUES, 6):
            out.append({**base, f: v})
    plausible = dict(base)
    for f, info in cls.model_fields.items():
        if f in ("type", "player"):
            continue
        ann = str(info.annotation)
        if "int" in ann:
            plausible[f] = rnd.choice([0, 1, 2, 3])
        elif "bool" in ann:
            plausible[f] = rnd.random() < 0.5
        elif "dict" in ann and f == "faces":
            plausible[f] = {"C": [rnd.randint(0, 10)], "Ann": [rnd.randint(0, 10)]}
        elif "dict" in ann:
            plausible[f] = {"type": "narrate_event", "text": "Instead."}
        elif "list" in ann:
            plausible[f] = ["A thing said."]
        elif f in ("component", "speaker", "listener", "about", "other", "location", "sub_of", "performer", "receiver"):
            plausible[f] = rnd.choice(comps + ["c999"])
        elif f in ("trait", "negates"):
            plausible[f] = rnd.choice(["t1", "t2", "t999"])
        elif f in ("accused",):
            plausible[f] = rnd.choice(P3 + ["Zed"])
        elif f in ("pool",):
            plausible[f] = rnd.choice(["C", "Ann", "Ben", "Zed"])
        else:
            plausible[f] = "Something happens."
    out.append(plausible)
    return out


@pytest.mark.parametrize("kind", KINDS)
def test_every_action_type_malformed_at_every_pending_decision_is_refused_cleanly_U_INPUT(kind):
    s = STATES[kind]
    before = s.model_dump_json()
    rnd = random.Random(kind)
    tried = refused = 0
    for action_type in sorted(ACTION_TYPES):
        for raw in variants(action_type, rnd, s):
            tried += 1
            try:
                apply(s, raw)
            except RuleViolation as exc:
                refused += 1
                assert exc.rule.startswith(("U-", "UA-")) and f"({exc.rule})" in str(exc), (raw, exc)  # UA-: add-ons
                assert len(str(exc)) < 600, (raw, str(exc)[:200])  # a player's sentence, not a dump
            assert s.model_dump_json() == before, f"{raw!r} changed the state"
    assert tried > 20 * len(ACTION_TYPES) and refused > 0.9 * tried

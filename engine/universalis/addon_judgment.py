"""Judgment, Challenge Variant (Kirt Dankmyer, book L1980-1994), played through `apply`.

Why its own module: Judgment replaces the Challenge's bidding with a person's decision, so it needs
its own pending decisions (the Judge's ruling, the vote on overruling him, the draw of a new Judge)
while reusing what a won Challenge does to a statement (U-CHAL-4). The flow:
- a player answers a statement's reaction window with `invoke_judgment` (free: the book names no
  price); when the window resolves it comes first, as a Challenge would (U-TURN-3);
- the Judge is the player who spent coins before the current player's turn (UA-JUDGE-2);
- he rules that the statement stands, or that the disputing player's version replaces it;
- at once, before any coin is spent, the others vote on overruling him (UA-JUDGE-3): only a
  unanimous vote overrules; then a new Judge is drawn at random (the table's dice: a die with one
  face per candidate) among those who were neither Judge nor judged; when nobody is left, the
  judged player goes on without further Judgment and his statement stands;
- while the case is open nobody Interrupts or passes the turn (UA-JUDGE-4: the book allows it with
  a majority's consent; the engine asks for no such consent yet, so it refuses both until the case
  is settled).
Ruled against, the statement is withdrawn or replaced exactly as by a won Challenge without bids.
"""
from __future__ import annotations

from typing import Callable

from engine.core.errors import RuleViolation
from engine.core.seats import seats_left_of
from engine.universalis import actions as A
from engine.universalis.rules import Ctx, Handler, challenge_case, challenge_outcome, handles
from engine.universalis.state import GameState, JudgmentCase, Window

JUDGE = "Judgment"
MAX_SPENDERS = 12  # enough history to find who spent before the turn began
# what may be done while a Judgment is open: the case's own decisions, and a Fine (at any time, U-FINE-1)
DURING_CASE = frozenset({"judge_ruling", "overrule_vote", "call_fine", "fine_vote"})


def on(s: GameState) -> bool:
    return s.config.addons.dispute_mode == "judgment"


def replaces_challenges(s: GameState) -> bool:
    """UA-JUDGE-1 (reading): Judgment replaces the Challenge altogether; the alternative reading keeps
    Challenges for what Judgment does not name."""
    return on(s) and s.config.addons.judgment_scope == "replaces_challenges"


def case_line(s: GameState, esc: Callable[[str], str] = str, strong: Callable[[str], str] = str) -> str | None:
    """The open Judgment in one line, or None: who invoked it on what and why, the Judge (and those
    overruled), the ruling and where the case stands. One wording for the app's panel (`esc` escapes what
    players wrote, `strong` marks emphasis) and the model's state text (both plain)."""
    jd = s.extra.judgment
    if jd is None:
        return None
    case = jd.case
    line = (f"{strong('Judgment')} invoked by {esc(case.challenger)} on {esc(case.challenged)}'s "
            f"“{esc(case.statement.text)}”: {esc(case.reason)} · Judge: {strong(esc(jd.judge))}")
    if len(jd.judges) > 1:
        line += f" (overruled: {', '.join(esc(j) for j in jd.judges[:-1])})"
    if jd.stands is not None:
        line += f" · ruled: it {'stands' if jd.stands else 'does not stand'}"
        line += f" ({esc(jd.ruling)})" if jd.ruling else ""
    if jd.stage == "overrule":
        line += f" · votes to overrule: {len(jd.votes)}"
    if jd.stage == "draw":
        line += f" · a new Judge is drawn from {', '.join(esc(p) for p in jd.candidates)}"
    return line


# --- who the Judge is (UA-JUDGE-2) ---------------------------------------------------------------------
def track(c: Ctx) -> None:
    """After every action: who spent coins (latest last), and, when the turn passes to a new player,
    the Judge of that turn: the last other player who spent coins before it began."""
    s = c.s
    if not on(s):
        return
    paid = {p.name: p.ledger.paid for p in c.orig.players}
    for p in s.players:
        if p.ledger.paid > paid.get(p.name, p.ledger.paid) and (not s.extra.spenders or s.extra.spenders[-1] != p.name):
            s.extra.spenders.append(p.name)
    del s.extra.spenders[:-MAX_SPENDERS]
    now = s.turn.player if s.turn is not None else None
    if now != s.extra.turn_player:
        s.extra.turn_player = now
        s.extra.turn_judge = last_other_spender(s.extra.spenders, {now}) if now else None


def last_other_spender(spenders: list[str], excluded: set[str | None]) -> str | None:
    return next((p for p in reversed(spenders) if p not in excluded), None)


def judge_for(s: GameState, judged: str) -> str:
    """UA-JUDGE-2: the player who spent coins before the current player's turn. Engine choices where
    the book is silent: the Judge never judges his own statement (then the spender before him);
    in Game Prep (no turns) the current player is the one proposing; when nobody else has spent yet,
    the player to the judged player's right, who played just before him."""
    current = s.turn.player if s.turn is not None else judged
    excluded = {judged, current}
    if s.extra.turn_player == current and s.extra.turn_judge not in excluded and s.extra.turn_judge in s.seat_names:
        return s.extra.turn_judge  # type: ignore[return-value]
    found = last_other_spender([p for p in s.extra.spenders if p in s.seat_names], excluded)
    if found is not None:
        return found
    seats = s.seat_names
    return seats[(seats.index(judged) - 1) % len(seats)]


def voters(s: GameState, jd: JudgmentCase) -> list[str]:
    """UA-JUDGE-3: the other players: everyone but the Judge, the judged player included (the digest's
    reading; `judged_player_votes=False` leaves him out)."""
    judged = jd.case.challenged
    return [p for p in s.seat_names if p != jd.judge and (s.config.addons.judged_player_votes or p != judged)]


# --- opening a case (UA-JUDGE-1) -----------------------------------------------------------------------
def check_invocation(s: GameState, w: Window) -> None:
    if not on(s):
        raise RuleViolation("UA-JUDGE-1", "this table settles disagreements by Challenge: Judgment is an add-on "
                                          "it has not adopted (L1980)")
    if not w.allow_challenge and not (w.statement.action or {}).get("royalty"):  # Royalty: UA-ROY-2 refuses
        raise RuleViolation("UA-JUDGE-3", "Judgment: this statement has already been judged; its player goes on "
                                          "without further Judgment on it (L1990)")


def open_case(c: Ctx, invoker: str, ans: dict, w: Window) -> None:
    """The window resolves with a Judgment invoked: the case opens, naming its Judge."""
    s = c.s
    a = A.InvokeJudgment.model_validate(ans)
    case = challenge_case(invoker, a, w)
    judge = judge_for(s, case.challenged)
    s.extra.judgment = JudgmentCase(case=case, judges=[judge])
    c.emit("judgment", f"invokes Judgment on “{case.statement.text}”: {a.reason} {judge} is the Judge.",
           player=invoker, judge=judge, fact=a.fact, rule="UA-JUDGE-1")


def require_case(c: Ctx, stage: str) -> JudgmentCase:
    jd = c.s.extra.judgment
    if jd is None:
        raise RuleViolation("UA-JUDGE-1", "Judgment: no question is waiting for a Judge")
    if c.s.fine is not None:
        raise RuleViolation("U-FINE-1", "not now: a Fine is being voted on")
    if jd.stage != stage:
        doing = {"ruling": f"{jd.judge} is deciding the question", "overrule": "the players are voting on "
                 "overruling the Judge", "draw": "a new Judge is being drawn"}[jd.stage]
        raise RuleViolation("UA-JUDGE-2" if jd.stage == "ruling" else "UA-JUDGE-3", f"Judgment: not now: {doing}")
    return jd


# --- the ruling, the vote, the draw ------------------------------------------------------------------
@handles(A.JudgeRuling)
def judge_ruling(c: Ctx) -> None:
    """UA-JUDGE-2: the Judge decides; the others then vote at once on overruling him (UA-JUDGE-3)."""
    s, a = c.s, c.a
    assert isinstance(a, A.JudgeRuling)
    jd = require_case(c, "ruling")
    if a.player != jd.judge:
        raise RuleViolation("UA-JUDGE-2", f"Judgment: {jd.judge} is the Judge of this question, not {a.player}")
    jd.stands, jd.ruling, jd.stage, jd.votes = a.stands, a.text.strip(), "overrule", {}
    case = jd.case
    verdict = "stands" if a.stands else f"does not stand; instead: “{case.options[1].text}”"
    because = f" ({jd.ruling})" if jd.ruling else ""
    c.emit("judge_ruling", f"rules that “{case.statement.text}” {verdict}{because}.", stands=a.stands,
           rule="UA-JUDGE-2")
    if not voters(s, jd):
        settle(c, jd)


@handles(A.OverruleVote)
def overrule_vote(c: Ctx) -> None:
    """UA-JUDGE-3: one vote against overruling and the ruling holds; a unanimous vote overrules."""
    s, a = c.s, c.a
    assert isinstance(a, A.OverruleVote)
    jd = require_case(c, "overrule")
    who = voters(s, jd)
    if a.player not in who:
        why = "the Judge does not vote on his own ruling" if a.player == jd.judge else "the judged player does not vote"
        raise RuleViolation("UA-JUDGE-3", f"Judgment: {why}")
    if a.player in jd.votes:
        raise RuleViolation("UA-JUDGE-3", f"Judgment: {a.player} has already voted")
    jd.votes[a.player] = a.overrule
    if not a.overrule:
        c.emit("overrule_vote", f"upholds {jd.judge}'s ruling: it holds (overruling needs every other player).",
               overrule=False)
        settle(c, jd)
        return
    c.emit("overrule_vote", f"votes to overrule {jd.judge}.", overrule=True)
    if len(jd.votes) < len(who):
        return
    left = [p for p in seats_left_of(s.seat_names, jd.case.challenged, include_self_last=False)
            if p not in jd.judges]
    if not left:
        s.extra.judgment = None
        c.emit("judgment_free", f"Every Judge was overruled: {jd.case.challenged} goes on without further Judgment "
               "and the statement stands.", player="", rule="UA-JUDGE-3")
        return
    c.emit("judge_overruled", f"{jd.judge} is overruled unanimously; a new Judge is drawn from "
           f"{', '.join(left)}.", player="", candidates=left, rule="UA-JUDGE-3")
    if len(left) == 1:
        seat_judge(c, jd, left[0])
        return
    jd.stage, jd.candidates = "draw", left


def seat_judge(c: Ctx, jd: JudgmentCase, judge: str) -> None:
    """UA-JUDGE-3: the new Judge is not bound by the old one's decision and rules afresh."""
    jd.judges.append(judge)
    jd.stage, jd.stands, jd.ruling, jd.votes, jd.candidates = "ruling", None, "", {}, []
    c.emit("judgment", f"{judge} is the new Judge.", player="", judge=judge, rule="UA-JUDGE-3")


def draw_judge(c: Ctx) -> None:
    """UA-JUDGE-3: the table's dice draw the new Judge: one die with a face per candidate, the faces in
    seat order from the judged player's left (1 = the first)."""
    s, a = c.s, c.a
    assert isinstance(a, A.Roll)
    jd = require_case(c, "draw")
    n = len(jd.candidates)
    got = a.faces.get("judge")
    if set(a.faces) != {"judge"} or got is None or len(got) != 1:
        raise RuleViolation("UA-JUDGE-3", f"Judgment: one d{n} is rolled for the new Judge (key 'judge')")
    face = got[0]
    if not 1 <= face <= n:
        raise RuleViolation("UA-JUDGE-3", f"Judgment: a d{n} cannot show {face}")
    c.emit("roll", f"Roll for the new Judge: {face} of {n}.", player="", faces={"judge": [face]})
    seat_judge(c, jd, jd.candidates[face - 1])


def settle(c: Ctx, jd: JudgmentCase) -> None:
    """The ruling holds: the statement stands (its reaction window goes on, no Judgment on it again),
    or it is replaced as a won Challenge replaces it, no bids paid (U-CHAL-4)."""
    s = c.s
    s.extra.judgment = None
    if jd.stands:
        c.emit("judgment_settled", f"The ruling holds: “{jd.case.statement.text}” stands.", player="",
               stands=True, rule="UA-JUDGE-2")
        return
    c.emit("judgment_settled", f"The ruling holds: “{jd.case.statement.text}” does not stand.", player="",
           stands=False, rule="UA-JUDGE-2")
    s.challenge = jd.case
    challenge_outcome(c, 1)


# --- what the engine allows while a case is open -------------------------------------------------------
def during_case(kind: str, handler: Handler) -> Handler:
    """The handler for `kind` while a Judgment is open: the case's own decisions (and a Fine), the
    dice's draw of a new Judge; anything else waits (Interrupts and passing the turn: UA-JUDGE-4)."""
    if kind in DURING_CASE:
        return handler
    if kind == "roll":
        return draw_judge
    return _refuser(kind)


def _refuser(kind: str) -> Callable[[Ctx], None]:
    def refuse(c: Ctx) -> None:
        jd = c.s.extra.judgment
        assert jd is not None
        if kind in ("interrupt", "obstacle", "end_turn"):
            what = "passing the turn" if kind == "end_turn" else "Interrupting"
            raise RuleViolation("UA-JUDGE-4", f"Judgment is invoked: {what} waits until the question is settled "
                                              "(the book asks a majority's consent, L1988)")
        raise RuleViolation("UA-JUDGE-1", f"not now: Judgment is invoked on “{jd.case.statement.text[:80]}” "
                                          f"and {jd.judge} is the Judge")
    return refuse


def pending_case(s: GameState):
    """The decision an open case waits for (decisions.pending)."""
    from engine.universalis.decisions import Pending

    jd = s.extra.judgment
    assert jd is not None
    text = jd.case.statement.text
    if jd.stage == "ruling":
        return Pending("judgment", (jd.judge,), note=f"{jd.case.challenger} disputes “{text}”: {jd.case.reason}")
    if jd.stage == "overrule":
        verdict = "stands" if jd.stands else "does not stand"
        return Pending("overrule_vote", tuple(p for p in voters(s, jd) if p not in jd.votes),
                       note=f"{jd.judge} ruled that “{text}” {verdict}")
    return Pending("roll", ("dice",), dice={"judge": 1}, sides=len(jd.candidates),
                   note=f"a new Judge is drawn: {', '.join(jd.candidates)}")

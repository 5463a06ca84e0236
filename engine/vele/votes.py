"""Challenges and approvals as votes at the table (V-1, V-2, V-3, V-AMB-4), and the approval-gated
claim of hitting an aspect (V-48, V-AMB-20).

Why a module: the book's oversight (L163-169) is a vote of everyone but the player whose claim it is;
a challenge needs a majority and is never rolled, an approval is blocked by a majority and an exact
tie is rolled. Registered on rules.HANDLERS when engine.vele.rules is imported.
"""
from __future__ import annotations

from engine.core.errors import RuleViolation
from engine.vele import actions as A
from engine.vele import economy as E
from engine.vele.adjudication import justify as first_accepted
from engine.vele.adjudication import may_talk_out_of_character
from engine.vele.awards import hit_aspect_xp, objective_bought_off, objective_xp
from engine.vele.groups import spotlight_xp
from engine.vele.rules import (Ctx, check_told, counter_target, current_turn, gain_xp, handles, need_phase, player_of,
                               start_exchange)
from engine.vele.state import GameState, Revising, Vote


def open_vote(c: Ctx, vote: Vote) -> None:
    c.s.vote = vote
    c.s.phase = "vote"
    if all(v in vote.opposed for v in vote.voters):
        settle(c)


@handles(A.Challenge)
def challenge(c: Ctx) -> None:
    """V-1 (L163): a struggle's claim is challenged before any die is pushed."""
    s, a = c.s, c.a
    need_phase(c, "struggle")
    k = s.struggle
    if k is None or k.stage != "difficulty" or (s.extended is not None and s.extended.exchanges > 0):
        raise RuleViolation("V-1", "a struggle is challenged when it is claimed, before any die is pushed")
    if a.player == k.actor.player:
        raise RuleViolation("V-1", "you cannot challenge your own claim")
    ac, oc = s.components[k.actor.component], s.components[k.opponent.component]
    subject = k.text or f"{ac.name} {k.goal}s {oc.name}"
    voters = [n for n in s.seats if n != k.actor.player]  # V-AMB-4: everyone but the actor
    c.emit("challenge", f"{a.player} challenges: {subject}" + (f" ({a.reason})" if a.reason else ""), a.player)
    open_vote(c, Vote(kind="challenge", subject=subject, claimant=k.actor.player, by=a.player, voters=voters,
                      opposed={a.player: True}))


@handles(A.Justify)
def justify(c: Ctx) -> None:
    """V-4 (L267): the actor whose claim the table turned down revises it; the same electorate votes again."""
    s, a = c.s, c.a
    rev = s.revising
    if s.phase != "scene" or rev is None or rev.at != s.seq - 1:
        raise RuleViolation("V-4", "you justify a claim right after the table's challenge turned it down")
    if a.player != rev.struggle.actor.player:
        raise RuleViolation("V-4", f"it is {rev.struggle.actor.player}'s claim to justify")
    voters = [n for n in s.seats if n != a.player]
    c.emit("justify", f"{a.player} justifies the claim: {a.text}", a.player)
    open_vote(c, Vote(kind="challenge", subject=a.text, claimant=a.player, by=a.player, voters=voters,
                      claim={"what": "justify"}))


def acting(s: GameState) -> list[str]:
    """V-5: the players acting now: whose turn it is, and the players of a struggle's sides and called allies."""
    out = [t] if s.phase == "scene" and (t := current_turn(s)) else []
    k = s.struggle
    if k is not None:
        out += [k.actor.player, k.opponent.player]
        out += [player_of(s, s.components[x]) for x in (*k.actor.allies, *k.opponent.allies, *k.actor.called,
                                                          *k.opponent.called) if x in s.components]
    if s.extended is not None:
        out += [player_of(s, s.components[x]) for x in (s.extended.a, s.extended.b) if x in s.components]
    return out


@handles(A.TableTalk)
def table_talk(c: Ctx) -> None:
    """V-5 (L625): "No Advice During Play": out of character only between players neither narrating nor acting;
    story and act creation (bids, purchases) allow full communication."""
    s, a = c.s, c.a
    setup = s.phase in ("bid", "rolloff", "build")
    busy = acting(s)
    for who in dict.fromkeys(a.to):
        if who not in s.players or who == a.player:
            raise RuleViolation("V-5", f"{who!r} is not another player at this table")
        if not may_talk_out_of_character(a.player, who, s.narrator, busy, setup):
            held = a.player if a.player in (s.narrator, *busy) else who
            raise RuleViolation("V-5", "no advice during play: out-of-character talk is only between players who "
                                       f"are neither narrating nor acting, and {held} is "
                                       + ("narrating" if held == s.narrator else "acting") + " now")
    c.emit("table_talk", f"{a.player} to {', '.join(dict.fromkeys(a.to))} (out of character): {a.text}", a.player)


@handles(A.TellEffect)
def tell_effect(c: Ctx) -> None:
    """V-31 (L690): the player who alone saw a hidden roll tells its effect in the story, once, while it is the
    latest struggle's record (before another struggle buries it); in character, so V-5's limits do not apply."""
    s, a = c.s, c.a
    r = s.records[-1] if s.records else None
    if r is None or not r.hidden_from:
        raise RuleViolation("V-31", "the last struggle was not a hidden roll: there is no hidden effect to tell")
    if a.player not in s.seats or a.player in r.hidden_from:
        raise RuleViolation("V-31", "only the player who saw the hidden roll (its opponent's) tells its effect")
    if r.told:
        raise RuleViolation("V-31", "this hidden roll's effect has been told already")
    r.told = a.text
    c.emit("told", f"{a.player} tells how it went: {a.text}", a.player)


@handles(A.ClaimAspect)
def claim_aspect(c: Ctx) -> None:
    """V-48, V-AMB-20 (L563-564): on your turn, claim a hit on your component's aspect; the table approves."""
    s, a = c.s, c.a
    need_phase(c, "scene")
    if a.player != current_turn(s):
        raise RuleViolation("V-25", f"you claim on your turn; it is {current_turn(s)}'s")
    comp = s.components.get(a.component)
    sc = s.scene
    if comp is None or player_of(s, comp) != a.player or sc is None or comp.id not in sc.present:
        raise RuleViolation("V-48", "you claim a hit on an aspect of your own component in this scene")
    if a.aspect not in comp.aspects:
        raise RuleViolation("V-48", f"{comp.name} has no aspect {a.aspect!r}")
    voters = [n for n in s.seats if n != a.player]
    c.emit("claim_aspect", f"{a.player} claims {comp.name}'s aspect '{a.aspect}' was hit"
           + (" with danger" if a.danger else "") + (f": {a.text}" if a.text else ""), a.player)
    open_vote(c, Vote(kind="approval", subject=f"'{a.aspect}' was hit" + (" with danger" if a.danger else ""),
                      claimant=a.player, by=a.player, voters=voters,
                      claim={"what": "hit_aspect", "component": comp.id, "aspect": a.aspect, "danger": a.danger}))


@handles(A.BuyOffObjective)
def buy_off_objective(c: Ctx) -> None:
    """V-49, V-EX-16 (L551): a failed story objective is bought off only with approval, and only if the PCs
    fought for it: some struggle of this act involved a PC (the act's components are new each act).
    Between scenes, by any player."""
    s, a = c.s, c.a
    need_phase(c, "frame", "narrator")
    if not s.objective or s.objective_done:
        raise RuleViolation("V-49", "there is no open story objective to buy off")
    pcs = {k.id for k in s.components.values() if k.kind == "pc"}
    fought = any(r.actor in pcs or r.opponent in pcs for r in s.records)
    if not objective_bought_off("failed" if fought else "lost_without_pcs", pcs_involved=fought, approved=True):
        raise RuleViolation("V-49", "the PCs never struggled for the objective this act: an objective lost "
                                    "without them is not bought off")
    voters = [n for n in s.seats if n != a.player]
    c.emit("claim_objective", f"{a.player} asks to buy off the failed objective '{s.objective}'"
           + (f": {a.text}" if a.text else ""), a.player)
    open_vote(c, Vote(kind="approval", subject=f"buying off the failed objective '{s.objective}'", claimant=a.player,
                      by=a.player, voters=voters, claim={"what": "objective", "resume": s.phase}))


@handles(A.ClaimSpotlight)
def claim_spotlight(c: Ctx) -> None:
    """V-61, V-48 (L931, L566, L736-737): between scenes its maker or the narrator claims the spotlight achieved;
    the table approves. The card lies in the middle of the table (L737), so whoever narrates may bring it about
    and earns the narrator's 3 XP; by the older text (L935, logs before version 2) only its holder, narrating."""
    s, a = c.s, c.a
    need_phase(c, "frame", "narrator")
    middle = s.options.spotlight_cards == "middle"
    card = next((x for x in s.spotlights if x.maker == a.maker and x.kind == a.kind and x.act == s.act and not x.done
                 and (middle or x.holder)), None)
    if card is None:
        raise RuleViolation("V-61", f"{a.maker} has no open {'group ' if a.kind == 'group' else ''}spotlight card "
                                    "this act")
    narrator = s.narrator if middle else card.holder
    if s.narrator != narrator:
        raise RuleViolation("V-61", f"{card.holder} holds that card and claims it while narrating")
    if a.player not in (card.maker, narrator):
        raise RuleViolation("V-61", "the spotlight's player or the narrator " + ("" if middle else "holding it ")
                            + "claims it")
    voters = [n for n in s.seats if n != card.maker]
    c.emit("claim_spotlight", f"{a.player} claims {card.maker}'s spotlight achieved: {card.text}"
           + (f" ({a.text})" if a.text else ""), a.player)
    claim = {"what": "spotlight", "maker": card.maker, "resume": s.phase} | ({"narrator": narrator} if middle else {}) \
        | ({"kind": "group"} if card.kind == "group" else {})
    open_vote(c, Vote(kind="approval", subject=f"{card.maker}'s spotlight '{card.text}' achieved", claimant=card.maker,
                      by=a.player, voters=voters, claim=claim))


@handles(A.CounterStruggle)
def counter_struggle(c: Ctx) -> None:
    """V-41, V-2 (L441): after a component fails against a thing, the thing's player asks for a counter-struggle:
    the thing attacks it, if the table approves (everyone but the thing's player votes)."""
    s, a = c.s, c.a
    need_phase(c, "scene", "narrator")
    check_told(s)  # V-31: the hidden roll's effect is told first
    thing = s.components.get(a.thing)
    if thing is not None and not thing.stationary:
        raise RuleViolation("V-41", f"{thing.name} is not a thing but someone: it strikes back on its own turn")
    r = counter_target(s, a.thing)
    if thing is None or r is None:
        raise RuleViolation("V-41", "a counter-struggle follows a struggle lost against that thing, the scene's "
                                    "last one, while both are still in the scene, and only once")
    if player_of(s, thing) != a.player:
        raise RuleViolation("V-41", f"{thing.name} is {player_of(s, thing)}'s to play")
    victim = s.components[r.actor]
    if player_of(s, victim) == a.player:
        raise RuleViolation("V-63", "your own components acting against each other: give one to another player first")
    r.countered = True
    voters = [n for n in s.seats if n != a.player]
    subject = a.text or f"{thing.name} strikes back at {victim.name}"
    c.emit("claim_counter", f"{a.player} asks for a counter-struggle: {subject}", a.player)
    open_vote(c, Vote(kind="approval", subject=f"a counter-struggle: {subject}", claimant=a.player, by=a.player,
                      voters=voters, claim={"what": "counter", "thing": thing.id, "victim": victim.id,
                                            "text": subject, "resume": s.phase}))


@handles(A.CastVote)
def cast_vote(c: Ctx) -> None:
    s, a = c.s, c.a
    need_phase(c, "vote")
    v = s.vote
    assert v is not None
    if a.player not in v.voters:
        raise RuleViolation("V-AMB-4", f"{a.player} does not vote on their own claim")
    if a.player in v.opposed:
        raise RuleViolation("V-AMB-4", "you have voted already")
    v.opposed[a.player] = a.oppose
    c.emit("vote", f"{a.player} {'opposes' if a.oppose else 'accepts'} {v.subject}"
           + (f" ({a.reason})" if a.reason else ""), a.player)
    if all(x in v.opposed for x in v.voters):
        settle(c)


def settle(c: Ctx) -> None:
    """V-1: a challenge carries only with a majority (a tie fails, no roll). V-2: an approval is blocked by
    a majority opposed; an exact tie waits for a d6 (V-AMB-4: 1-3 blocks, 4-6 passes)."""
    s = c.s
    v = s.vote
    assert v is not None
    opposed, n = sum(v.opposed.values()), len(v.voters)
    if v.claim.get("what") == "make":  # V-62: a second thing made this act, unsupported, put to the table
        from engine.vele.making import settle_make
        settle_make(c, E.challenge_succeeds(opposed, n), opposed, n)
        return
    if v.kind == "challenge" and v.claim.get("what") == "justify":
        settle_justified(c, opposed, n)
        return
    if v.kind == "challenge":
        s.vote = None
        if E.challenge_succeeds(opposed, n):
            assert s.struggle is not None
            s.revising = Revising(struggle=s.struggle, extended=s.extended, opposed=[opposed], voters=n, at=s.seq)
            s.struggle = None
            s.extended = None
            s.phase = "scene"  # the turn is still the actor's: they must do something else (or justify, V-4)
            c.emit("challenge_carries", f"{opposed} of {n} support the challenge: {v.claimant} must do something else"
                                        " or justify the claim with fiction")
        else:
            s.phase = "struggle"
            c.emit("challenge_fails", f"{opposed} of {n} support the challenge, no majority: {v.claimant} goes on")
        return
    ok = E.approval(opposed, n)
    if ok is None:
        v.tie = True
        s.phase = "vote_roll"
        c.emit("approval_tie", f"{opposed} of {n} oppose: a tie, decided by a d6")
        return
    finish_approval(c, ok)


def settle_justified(c: Ctx, opposed: int, n: int) -> None:
    """V-4, V-1 (L267, L163): the revised claim stands once no majority opposes it (a tie is no majority); then the
    struggle goes on, told as revised, from where the challenge stopped it (before any die was pushed)."""
    s = c.s
    v, rev = s.vote, s.revising
    assert v is not None and rev is not None
    s.vote = None
    rev.opposed.append(opposed)
    if first_accepted(rev.opposed, n) == len(rev.opposed) - 1:
        s.struggle = rev.struggle.model_copy(update={"text": v.subject})
        s.extended = rev.extended
        s.revising = None
        s.phase = "struggle"
        c.emit("justified", f"{opposed} of {n} still oppose, no majority: {v.claimant} goes on: {v.subject}")
        return
    rev.at = s.seq
    s.phase = "scene"
    c.emit("challenge_carries", f"{opposed} of {n} still oppose the revised claim: {v.claimant} revises it again "
                                "or does something else")


def vote_roll(c: Ctx) -> None:
    s, f = c.s, c.a.faces.get("approval", [])
    v = s.vote
    assert v is not None
    if len(f) != 1 or not 1 <= f[0] <= 6:
        raise RuleViolation("V-AMB-4", "the approval tie roll is one d6")
    c.emit("approval_roll", f"the tie roll shows {f[0]}: " + ("passes" if f[0] >= 4 else "blocked"))
    finish_approval(c, E.approval(sum(v.opposed.values()), len(v.voters), f[0]) is True)


def finish_approval(c: Ctx, ok: bool) -> None:
    s = c.s
    v = s.vote
    assert v is not None
    s.vote = None
    s.phase = v.claim.get("resume", "scene")  # type: ignore[assignment]
    if not ok:
        c.emit("approval_blocked", f"the table does not approve: {v.subject}")
        return
    c.emit("approved", f"approved: {v.subject}")
    if v.claim.get("what") == "objective":
        s.objective_done = True
        for who, n in objective_xp(s.seats, s.narrator, True).items():
            gain_xp(c, who, n, "the failed objective is bought off (V-49)")
    if v.claim.get("what") == "spotlight":
        card = next(x for x in s.spotlights if x.maker == v.claim["maker"] and x.act == s.act and not x.done
                    and x.kind == v.claim.get("kind", "pc"))
        card.done = True
        card.holder = v.claim.get("narrator", card.holder)  # L737: the narrator who brought it about
        for who, n in spotlight_xp(card.maker, card.holder, True).items():
            gain_xp(c, who, n, "a spotlight achieved (V-61)")
    if v.claim.get("what") == "counter":  # V-41: the thing attacks on its victim's time; the turn order stays
        start_exchange(c, s.components[v.claim["thing"]], s.components[v.claim["victim"]], "attack", None,
                       v.claim["text"])
        s.struggle.interrupt = True  # type: ignore[union-attr]
    if v.claim.get("what") == "hit_aspect":
        for who, n in hit_aspect_xp(v.claimant, s.narrator, bool(v.claim.get("danger"))).items():
            gain_xp(c, who, n, "an aspect hit" + (" with danger" if v.claim.get("danger") else "") + " (V-48)")

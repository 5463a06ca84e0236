"""FUBAR behind the ruleset protocol (engine/core/ruleset.py): views, Facts, invariants (the rest: GameRuleset)."""
from __future__ import annotations

from typing import Any

from engine.core.ruleset import GameRules, GameRuleset, MemoryFact
from engine.fubar import actions as A
from engine.fubar import dice as D
from engine.fubar import resolve as R
from engine.fubar.decisions import legal_options, pending
from engine.fubar.options import FubarOptions
from engine.fubar.rules import apply, new_game
from engine.fubar.state import Character, GameState, Opposition

VERSION = "1"


def sheet(s: GameState, ch: Character) -> dict[str, Any]:
    """A character sheet: everything on it is the player's and the table's to see."""
    return {
        "seat": ch.seat, "name": ch.name, "concept": ch.concept, "concept_abilities": list(ch.concept_abilities),
        "trademarks": list(ch.trademarks), "flaws": list(ch.flaws),
        "relationships": [{"target": r.target, "positive": r.positive} for r in ch.relationships],
        "goals": list(ch.goals), "resolve": ch.resolve, "cap": ch.cap,
        **({"doom": ch.doom} if s.options.doom else {}),
        **({"fu": ch.fu} if s.options.resolve_variant != "single" else {}),
        "conditions": [c.model_dump() for c in ch.conditions],
        **({"consequences": [c.model_dump() for c in ch.consequences]} if ch.consequences else {}),
        "assets": [a.model_dump() for a in ch.assets if not a.lost],
        **({"armour": ch.armour.model_dump(), "weapon_rating": ch.weapon_rating} if s.options.weapons_armour else {}),
        **({"powers": list(ch.powers), "magic_pool": ch.magic_pool} if ch.powers else {}),
        "out": ch.out,
    }


def opposition_view(o: Opposition, gm: bool) -> dict[str, Any]:
    """Players see who opposes them and their Conditions; Resolve and Descriptors are the GM's notes."""
    out: dict[str, Any] = {"id": o.id, "name": o.name, "kind": o.kind, "defeated": o.defeated,
                           "conditions": [c.model_dump() for c in o.conditions]}
    if gm:
        out.update(strength=o.strength, resolve=o.resolve, trademarks=list(o.trademarks), flaws=list(o.flaws),
                   scale=o.scale, armour=o.armour.model_dump(), weapon_rating=o.weapon_rating)
    return out


def conflict_view(s: GameState) -> dict[str, Any] | None:
    k = s.conflict
    if k is None:
        return None
    return {
        "question": k.question, "intent": k.intent, "actor": k.actor, "aligned": list(k.aligned), "stage": k.stage,
        "against": k.opposition or k.target_pc,
        "stakes": {"pc_side": k.pc_stakes, "opposition_side": k.opposition_stakes}, "risky": k.risky,
        "dice": [m.model_dump() for m in k.mods] if k.stage != "ruling" else [m.model_dump() for m in k.claimed],
        "rolls": [{"key": r.key, "net": r.net, "faces": list(r.faces),
                   "evens": [f % 2 == 0 for f in r.faces], "kept": D.kept_dice(r.faces, r.net) if r.faces
                   and not s.options.buckets else [], "gm_faces": list(r.gm_faces),
                   "result": None if r.result is None else D.ladder_name(r.result)} for r in k.rolls],
        "answer": None if k.result is None else D.ladder_name(k.result),
        "narrator": k.narrator, "conceded_by": k.conceded_by, "risky_asked": k.risky_asked,
        "goal": k.goal, "goal_step": k.goal_step, "losses": dict(k.losses),
    }


def summary(s: GameState, seat: str | None = None) -> dict[str, Any]:
    gm_eyes = seat is None or (seat in {x.name for x in s.seats} and s.gm == seat)
    pend = pending(s)
    return {
        "ruleset": "fubar", "phase": s.phase, "actions": s.seq,
        "pending": {"kind": pend.kind, "seats": list(pend.seats)},
        "seats": [{"name": x.name, "role": x.role} for x in s.seats],
        "scenario": {"number": s.scenario, "title": s.title, "situation": s.situation, "places": list(s.places)},
        "session": s.session,
        "characters": [sheet(s, ch) for ch in s.characters.values()],
        "opposition": [opposition_view(o, gm_eyes) for o in s.opposition.values()],
        "scenes": [{"number": sc.number, "place": sc.place, "text": sc.text, "downtime": sc.downtime,
                    "present": list(sc.present), "ended": sc.ended} for sc in s.scenes],
        "details": [{"id": d.id, "text": d.text, "by": d.by, "scene": d.scene} for d in s.details],
        "answers": [{"question": a.question, "actor": a.actor,
                     "answer": "Impasse" if a.result < 0 else D.ladder_name(a.result), "text": a.text}
                    for a in s.answers],
        "conflict": conflict_view(s),
        "options": s.options.model_dump(),
    }


class FubarRuleset(GameRuleset):
    """FUBAR: one GM seat, the rest players; a five-d6 ladder (or the d10 Buckets appendix)."""

    name = "fubar"
    version = VERSION
    roles = ("gm", "player")
    die_sizes = (D.REDUX_DIE, D.BUCKETS_DIE)
    options_model = FubarOptions
    # view (GameRuleset.view): the GM sees the opposition's Resolve and Descriptors; players and watchers do not
    rules = GameRules(new_game=new_game, parse_action=A.parse_action, action_schema=A.ACTION_ADAPTER.json_schema,
                      apply=apply, pending=pending, legal_options=legal_options, summary=summary,
                      roll_dice=A.RollDice)

    def facts(self, state: GameState) -> list[MemoryFact]:
        """Details, Conditions, Descriptors and answered questions, for memory and the contradiction check."""
        s = state
        out: list[MemoryFact] = []
        place = {sc.number: sc.place for sc in s.scenes}
        for d in s.details:
            out.append(MemoryFact(d.id, "detail", d.text, d.by, d.seq, d.scene or None, None, False, place.get(d.scene)))
        for ch in s.characters.values():
            for i, t in enumerate(ch.trademarks):
                out.append(MemoryFact(f"{ch.seat}-t{i}", "trademark", f"{ch.name}: {t}", ch.seat, 0, None, ch.name))
            for i, t in enumerate(ch.flaws):
                out.append(MemoryFact(f"{ch.seat}-f{i}", "flaw", f"{ch.name}: {t}", ch.seat, 0, None, ch.name))
            for i, r in enumerate(ch.relationships):
                out.append(MemoryFact(f"{ch.seat}-r{i}", "relationship",
                                      f"{ch.name} {'trusts' if r.positive else 'is at odds with'} {r.target}",
                                      ch.seat, 0, None, ch.name))
        for holder in [*s.characters.values(), *s.opposition.values()]:
            for cnd in holder.conditions:
                out.append(MemoryFact(cnd.id, "condition", f"{holder.name} is {cnd.name} ({cnd.tier})", s.gm, 0,
                                      cnd.since_scene or None, holder.name, False, place.get(cnd.since_scene)))
        for a in s.answers:
            ans = "Impasse" if a.result < 0 else D.ladder_name(a.result)
            out.append(MemoryFact(a.id, "answer", f"{a.question} {ans}. {a.text}".strip(), a.actor, a.seq,
                                  a.scene or None, s.characters[a.actor].name if a.actor in s.characters else None,
                                  False, place.get(a.scene)))
        return out

    def invariants(self, state: GameState) -> list[str]:
        """Resolve within its cap (F-6), Doom at 0 or more (F-9), a fallen character awaited (F-6),
        defeated opposition below 0 (F-14), someone asked unless the game is over."""
        s, bad = state, []
        for ch in s.characters.values():
            if s.options.resolve_variant == "single" and not s.options.doom and ch.resolve > ch.cap:
                bad.append(f"F-6: {ch.name} has Resolve {ch.resolve} above the cap {ch.cap}")
            if ch.doom < 0:
                bad.append(f"F-9: {ch.name} has Doom {ch.doom}")
            fallen = R.fallen(s, ch)
            if fallen and not ch.out and ch.seat not in s.escape:
                bad.append(f"F-6: {ch.name} is below 0 and nobody asks the player to trade or leave")
            if not fallen and ch.seat in s.escape:
                bad.append(f"F-6: {ch.name} is asked to trade without having fallen")
            if len(ch.flaws) < 0 or any(c.tier not in ("minor", "moderate", "major") for c in ch.conditions):
                bad.append(f"F-19: {ch.name} holds a Condition of no tier")
        for o in s.opposition.values():
            if o.defeated != (o.resolve < 0):
                bad.append(f"F-14: {o.name} at Resolve {o.resolve} is {'not ' if not o.defeated else ''}defeated")
        pend = pending(s)
        if s.phase != "over" and not pend.seats:
            bad.append("the game waits for nobody")
        if s.conflict is not None:
            for r in s.conflict.rolls:
                if r.result is not None and not 0 <= r.result <= 5:
                    bad.append(f"F-1: a result off the ladder ({r.result})")
        return bad

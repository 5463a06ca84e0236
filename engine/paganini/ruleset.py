"""Paganini behind the ruleset protocol (engine/core/ruleset.py): views, Facts, invariants (the rest: GameRuleset)."""
from __future__ import annotations

from typing import Any

from engine.core.ruleset import GameRules, GameRuleset, MemoryFact
from engine.paganini import actions as A
from engine.paganini import combat as C
from engine.paganini.decisions import legal_options, pending
from engine.paganini.ladder import LADDER, TIERS, dice_label, kept_index
from engine.paganini.options import PaganiniOptions
from engine.paganini.rules import apply, new_game
from engine.paganini.state import Character, GameState, Pool

VERSION = "1"


def pool_view(p: Pool | None) -> dict[str, Any] | None:
    """A pool as the check panel shows it: HD/LD, the dice, the kept one marked, the tier."""
    if p is None:
        return None
    return {"key": p.key, "who": p.who, "label": p.label, "net": p.net, "dice": dice_label(p.net),
            "parts": [m.model_dump() for m in p.parts], "faces": list(p.faces),
            "kept_index": kept_index(p.faces, p.net) if p.faces else None, "kept": p.kept,
            "tier": None if p.tier is None else TIERS[p.tier]}


def sheet(ch: Character, full: bool) -> dict[str, Any]:
    """A character sheet; an NPC's traits are the GM's notes (players see its name and wounds)."""
    out: dict[str, Any] = {"id": ch.id, "seat": ch.seat, "npc": ch.npc, "name": ch.name, "concept": ch.concept,
                           "wounds": ch.wounds, "wound_level": C.wound_name(ch.wounds),
                           "wound_penalty": C.wound_penalty(ch.wounds), "conscious": ch.conscious,
                           "dead": ch.dead}
    if full:
        out.update(
            description=ch.description,
            attributes={k: {"level": v, "rung": LADDER[v]} for k, v in ch.attributes.items()},
            skills={k: {"kind": v.kind, "level": v.level, "rung": LADDER[v.level]} for k, v in ch.skills.items()},
            weapons=[w.model_dump() for w in ch.weapons], armour=ch.armour.model_dump(), shield=ch.shield,
            scale=dict(ch.scale), excess=ch.excess, dazed=ch.dazed,
            ap=sum(x.amount for x in ch.lots), lots=[x.model_dump() for x in ch.lots],
            used={k: list(v) for k, v in ch.used.items()}, studying=ch.studying)
    return out


def summary(s: GameState, seat: str | None = None) -> dict[str, Any]:
    gm_eyes = seat is None or seat == s.gm
    pend = pending(s)
    k, cb = s.check, s.combat
    return {
        "ruleset": "paganini", "phase": s.phase, "actions": s.seq,
        "pending": {"kind": pend.kind, "seats": list(pend.seats), "note": pend.note},
        "seats": [{"name": x.name, "role": x.role} for x in s.seats],
        "adventure": s.adventure.model_dump() if s.adventure else None,
        "week": s.week,
        "characters": [sheet(ch, gm_eyes or not ch.npc) for ch in s.characters.values()],
        "scenes": [{"number": sc.number, "place": sc.place, "text": sc.text, "present": list(sc.present),
                    "round": sc.round, "ended": sc.ended} for sc in s.scenes],
        "notes": [n.model_dump() for n in s.notes],
        "check": None if k is None else {
            "kind": k.kind, "actor": k.actor, "seat": k.seat, "intent": k.intent, "attribute": k.attribute,
            "skill": k.skill, "opponent": k.opponent, "stage": k.stage, "difficulty": k.difficulty,
            "pools": [pool_view(p) for p in k.pools], "outcome": k.outcome, "success": k.success,
            "narrator": k.narrator},
        "combat": None if cb is None else {
            "round": cb.round, "stage": cb.stage, "combatants": list(cb.combatants), "attribute": cb.attribute,
            "initiative": [pool_view(p) for p in cb.init + cb.extra], "order": [list(x) for x in cb.slots],
            "slot": cb.slot, "defences": dict(cb.defences),
            "attack": None if cb.attack is None else {
                "attacker": cb.attack.attacker, "target": cb.attack.target, "weapon": cb.attack.weapon,
                "ranged": cb.attack.ranged, "stage": cb.attack.stage, "attack": pool_view(cb.attack.attack),
                "defence": pool_view(cb.attack.defence), "hit": cb.attack.hit, "margin": cb.attack.margin,
                "damage": pool_view(cb.attack.damage), "boxes": cb.attack.boxes,
                "fitness": pool_view(cb.attack.fitness), "knocked_out": cb.attack.knocked_out}},
        "options": s.options.model_dump(),
    }


class PaganiniRuleset(GameRuleset):
    """Paganini: one GM seat, the rest players; d20 pools keeping the highest or the lowest."""

    name = "paganini"
    version = VERSION
    roles = ("gm", "player")
    options_model = PaganiniOptions
    die_sizes = (20,)  # d20s only (@2600)
    # view (GameRuleset.view): the GM sees NPC sheets; players and watchers see NPCs' names and wounds only
    rules = GameRules(new_game=new_game, parse_action=A.parse_action, action_schema=A.ACTION_ADAPTER.json_schema,
                      apply=apply, pending=pending, legal_options=legal_options, summary=summary,
                      roll_dice=A.RollDice)

    def facts(self, state: GameState) -> list[MemoryFact]:
        """Narrated outcomes, scene framings, the situation, and who each character is."""
        s = state
        place = {sc.number: sc.place for sc in s.scenes}
        out = [MemoryFact(n.id, n.kind, n.text, n.by, n.seq, n.scene or None,
                          s.characters[n.subject].name if n.subject in s.characters else None, False,
                          place.get(n.scene)) for n in s.notes]
        for ch in s.characters.values():
            if ch.concept:
                out.append(MemoryFact(f"{ch.id}-concept", "character", f"{ch.name}: {ch.concept}", ch.seat, 0,
                                      None, ch.name))
            if ch.dead or not ch.conscious or ch.wounds:
                state_text = "dead" if ch.dead else f"{C.wound_name(ch.wounds)}" + ("" if ch.conscious else
                                                                                    ", unconscious")
                out.append(MemoryFact(f"{ch.id}-wounds", "condition", f"{ch.name} is {state_text}", s.gm, s.seq,
                                      None, ch.name))
        return out

    def invariants(self, state: GameState) -> list[str]:
        """Wounds on the 25-box track (P-17), traits on the ladder (P-1), lots not negative (P-11),
        kept dice the highest or lowest (P-2), someone asked unless the game is over."""
        s, bad = state, []
        for ch in s.characters.values():
            if not 0 <= ch.wounds <= C.TRACK:
                bad.append(f"P-17: {ch.name} has {ch.wounds} boxes")
            if any(v not in LADDER for v in ch.attributes.values()) or \
                    any(sk.level not in LADDER for sk in ch.skills.values()):
                bad.append(f"P-1: {ch.name} has a trait off the ladder")
            if any(x.amount <= 0 for x in ch.lots):
                bad.append(f"P-11: {ch.name} holds an empty or negative lot")
            if ch.dead and ch.conscious:
                bad.append(f"P-17: {ch.name} is dead yet conscious")
        for rec in s.checks:
            if not 0 <= rec["tier"] <= 7:
                bad.append(f"P-5: a tier off the chart ({rec['tier']})")
        pend = pending(s)
        if s.phase != "over" and not pend.seats:
            bad.append("the game waits for nobody")
        return bad

"""Whose decision Paganini waits for, and what each seat may do now (the book sets no order
outside combat, so the engine names one decision at a time; combat follows initiative, P-13)."""
from __future__ import annotations

from engine.core.ruleset import DICE_SEAT, DiceRequest, Option, Pending
from engine.paganini.ladder import DIFFICULTY, pool_size
from engine.paganini.state import GameState


def _dice(s: GameState) -> Pending:
    from engine.paganini.rules import awaiting
    return Pending("roll", (DICE_SEAT,), dice=tuple(DiceRequest(p.key, pool_size(p.net), 20) for p in awaiting(s)))


def pending(s: GameState) -> Pending:
    from engine.paganini.rules import current_actor
    if s.phase == "over":
        return Pending("over", ())
    if s.phase == "adventure":
        return Pending("prepare_adventure", (s.gm,), note="the GM prepares an adventure and its NPCs")
    if s.phase == "characters":
        return Pending("create_character", tuple(p for p in s.players if p not in s.characters))
    k = s.check
    if k is not None:
        if k.stage == "ruling":
            return Pending("call_check", (s.gm,), note=k.intent)
        if k.stage == "roll":
            return _dice(s)
        return Pending("narrate", (k.narrator,), note=f"{k.intent} -> {k.outcome}")
    cb = s.combat
    if cb is not None:
        if cb.stage == "initiative":
            return Pending("initiative", (s.gm,), note=f"round {cb.round}")
        if cb.stage in ("initiative_roll", "initiative_extra"):
            return _dice(s)
        if cb.stage == "round_end":
            return Pending("round_end", (s.gm,), note=f"round {cb.round} is over")
        at = cb.attack
        if at is not None:
            if at.stage == "defend":
                return Pending("defend", (s.characters[at.target].seat,), note=at.target)
            if at.stage == "narrate":
                return Pending("narrate_attack", (s.characters[at.attacker].seat,),
                               note=f"{'hit' if at.hit else 'miss'}")
            return _dice(s)
        who = current_actor(s)
        assert who is not None
        return Pending("combat_turn", (s.characters[who].seat,), note=who)
    sc = s.scene()
    if sc is None:
        return Pending("frame_scene", (s.gm,))
    for p in s.players:
        ch = s.characters.get(p)
        if ch is not None and ch.able() and sc.turns.get(p, 0) < sc.round:
            return Pending("turn", (p,))
    return Pending("gm_turn", (s.gm,))


def legal_options(s: GameState, seat: str) -> list[Option]:
    """Action types `seat` may take now; the concrete checks stay in `apply`."""
    pend = pending(s)
    if seat not in pend.seats:
        return []
    k = pend.kind
    diffs = tuple(DIFFICULTY)
    if k == "prepare_adventure":
        return [Option("add_opponent", "0", "an NPC with a valid sheet"), Option("prepare_adventure")]
    if k == "create_character":
        return [Option("create_character", "0", "3 free attribute levels; half the skills (rounded up) in free "
                                                "skill levels; trades at most 2 levels per trait")]
    if k == "call_check":
        return [Option("call_check", "0", "roll or not, difficulty, modifiers", choices=diffs)]
    if k in ("narrate", "narrate_attack"):
        return [Option("narrate")]
    if k == "initiative":
        fixed = s.options.initiative_attribute
        return [Option("initiative", "0", choices=(fixed,) if fixed else ("Quickness", "Focus"))]
    if k == "defend":
        return [Option("defend")]
    if k == "combat_turn":
        cb = s.combat
        assert cb is not None
        targets = tuple(c for c in cb.combatants if s.characters[c].able())
        who = pend.note
        if who in cb.long:
            return [Option("hold", "0", f"keep up: {cb.long[who].intent}"), Option("attack", "0", "breaks it off",
                                                                                  choices=targets),
                    Option("attempt", "0", "breaks it off")]
        return [Option("attack", "0", choices=targets), Option("attempt"), Option("hold")]
    if k == "round_end":
        return [Option("next_round"), Option("end_combat")]
    gm_any = [Option("add_opponent"), Option("end_day", "0", "AP for the day"), Option("end_week", "0", "weekly AP"),
              Option("record_training"), Option("heal", "0", "the GM's word: the book has no healing rule"),
              Option("alter_character", "0", "a major change: aging, a lost limb, magic"),
              Option("end_adventure")]
    if k == "frame_scene":
        return [Option("frame_scene"), *gm_any]
    if k == "gm_turn":
        return [Option("continue_scene"), Option("end_scene"), Option("start_combat"), Option("passive_check",
                                                                                                choices=diffs),
                *gm_any]
    if k == "turn":
        ch = s.characters[seat]
        out = [Option("attempt", "0", choices=tuple(ch.skills)), Option("pass_turn")]
        if ch.lots:
            out.append(Option("raise_skill", f"AP ({sum(x.amount for x in ch.lots)} banked)"))
        if not ch.days_this_week and not ch.studying:
            out.append(Option("study_intensively", "0", "5 AP this week instead of 2; no adventuring"))
        return out
    return []

"""Whose decision FUBAR waits for, and what each seat may do now with its cost (Design: the book
sets no turn order, so the engine names one pending decision at a time)."""
from __future__ import annotations

from engine.core.ruleset import DICE_SEAT, DiceRequest, Option, Pending
from engine.fubar import dice as D
from engine.fubar import resolve as R
from engine.fubar.rules import after_roll_seat, die_sides, roll_size, spotlight
from engine.fubar.state import GameState


def pending(s: GameState) -> Pending:
    if s.phase == "over":
        return Pending("over", ())
    if s.phase == "scenario":
        return Pending("prepare_scenario", (s.gm,), note="the GM prepares a scenario")
    if s.phase == "characters":
        return Pending("create_character", tuple(p for p in s.players if p not in s.characters))
    k = s.conflict
    if k is not None:
        if k.stage == "ruling":
            return Pending("rule_conflict", (s.gm,), note=k.question)
        if k.stage == "roll":
            reqs = []
            for r in k.rolls:
                reqs.append(DiceRequest(r.key, roll_size(s, r), die_sides(s)))
                if s.options.buckets:
                    reqs.append(DiceRequest(r.key + ":gm", r.gm_size, die_sides(s)))
            return Pending("roll", (DICE_SEAT,), dice=tuple(reqs))
        if k.stage == "reroll":
            return Pending("roll", (DICE_SEAT,), dice=(DiceRequest(k.rerolling or "", len(k.reroll_indices),
                                                                    die_sides(s)),))
        if k.stage == "after_roll":
            return Pending("after_roll", (after_roll_seat(s, k) or s.gm,), note=k.question)
        return Pending("narrate_outcome", (k.narrator,), note=f"{k.question} -> "
                       + (D.ladder_name(k.result) if k.result is not None else "Impasse"))
    if s.escape:
        return Pending("escape", (s.escape[0],), note="below 0 Resolve: trade a Trademark for a Flaw, or leave")
    if s.advance:
        seat = next(iter(s.advance))
        return Pending("advance", (seat,), note=f"Goal {s.advance[seat]}: choose the advancement and a new Goal")
    if s.relationships_due:
        return Pending("add_relationship", tuple(s.relationships_due))
    if s.fact is not None:
        return Pending("judge_fact", (s.gm,), note=s.fact.text)
    if s.scene() is None:
        return Pending("frame_scene", (s.gm,))
    if s.gm_turn:
        return Pending("gm_turn", (s.gm,))
    who = spotlight(s)
    return Pending("turn", (who,) if who else (s.gm,))


GM_ANYTIME = [Option("add_opposition", "0"), Option("add_detail", "0"), Option("apply_condition", "0"),
              Option("clear_condition", "0"), Option("award_resolve", "+1 to a character"),
              Option("goal_setback", "-1 to a character"), Option("goal_resolved", "0"), Option("lose_asset", "0")]


def gm_anytime(s: GameState) -> list[Option]:
    return GM_ANYTIME + ([Option("level_up", "0", "Resolve cap +1")] if s.options.level_option else [])


def legal_options(s: GameState, seat: str) -> list[Option]:
    """Action types `seat` may take now, with costs; concrete checks stay in `apply`."""
    pend = pending(s)
    if seat not in pend.seats:
        return []
    k, ch = pend.kind, s.characters.get(seat)
    if k == "prepare_scenario":
        return [Option("prepare_scenario"), Option("add_opposition")]
    if k == "create_character":
        return [Option("create_character", "0", "Concept, 4 Trademarks, 2 Flaws, 2 Relationships, a Goal")]
    if k == "escape":
        tms = tuple(ch.trademarks) if ch else ()
        return [Option("escape_trade", "a Trademark becomes a permanent Flaw", choices=tms),
                Option("write_out", "the character leaves the game")]
    if k == "advance":
        kinds = (("trademark", "remove_flaw") + (("concept",) if s.options.concept_option else ())
                 + (("magic",) if s.options.magic_points else ())) if s.advance[seat] == "success" \
            else ("flaw", "remove_trademark")
        return [Option("advance", "0", choices=kinds)]
    if k == "add_relationship":
        return [Option("add_relationship", "0")]
    if k == "judge_fact":
        return [Option("judge_fact", "0", "believable: it costs the player 1; not: refused, free")]
    if k == "rule_conflict":
        return [Option("rule_conflict", "0", choices=("low", "high"))]
    if k == "after_roll":
        conflict = s.conflict
        assert conflict is not None
        out = [Option("keep_roll", "0")]
        if ch is not None and R.can_spend(s, ch, 1):
            out.append(Option("reroll", "1 Resolve per reroll"))
        best = max((r.result for r in conflict.rolls if r.result is not None), default=None)
        losing = best is not None and (D.is_yes(best) if seat == conflict.target_pc else not D.is_yes(best))
        if losing:
            out.append(Option("concede", "+1 Resolve if high stakes for you"))
        return out
    if k == "narrate_outcome":
        return [Option("narrate_outcome", "0")]
    if k == "frame_scene":
        return [Option("frame_scene"), Option("end_session"), Option("end_scenario"), *gm_anytime(s)]
    if k == "gm_turn":
        return [Option("continue_scene"), Option("end_scene"), Option("end_session", "0", "on a cliffhanger"),
                Option("end_scenario"), *gm_anytime(s)]
    if k == "turn" and ch is not None:
        out = [Option("attempt", "0"), Option("pass_turn", "0"), Option("add_goal", "0"),
               Option("replace_goal", "0; 1 to abandon one between sessions"),
               Option("invest_asset", "1 or 2 Trademarks (none for a group asset)")]

        if R.can_spend(s, ch, 1):
            out.append(Option("narrate_fact", "1 Resolve if believable"))
        sc = s.scene()
        if sc is not None and sc.downtime and ch.downtime_session != s.session:
            out.append(Option("downtime", "+1 Resolve, once a session"))
        return out
    return []

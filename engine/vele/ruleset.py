"""Death of the Vele behind the ruleset protocol (engine/core/ruleset.py)."""
from __future__ import annotations

from typing import Any, Sequence

from pydantic import BaseModel

from engine.core.errors import LogError, RuleViolation
from engine.core.ruleset import MemoryFact, Option, Pending, SeatSpec
from engine.vele import actions as A
from engine.vele import economy as E
from engine.vele.decisions import legal_options, pending
from engine.vele.options import VeleOptions
from engine.vele.rules import apply, dice_in_play, new_game
from engine.vele.state import RULES_VERSION, Component, GameState

VERSION = str(RULES_VERSION)  # what each version changed: state.RULES_VERSION; see game_from_header


def sheet(k: Component) -> dict[str, Any]:
    return {"id": k.id, "name": k.name, "owner": k.owner, "kind": k.kind, "out": k.out, "controller": k.controller,
            "stationary": k.stationary, "one_shot": k.one_shot, "used": k.used,
            "temporary": k.temporary, "virtual": k.virtual, "group": k.group, "unit": k.unit, "attached": k.attached,
            "traits": [{"name": t.name, "size": t.size, "focus": t.focus, "damage": t.damage, "control": list(t.control),
                        "healthy": t.healthy} for t in k.traits],
            "aspects": list(k.aspects), "abilities": [a.model_dump() for a in k.abilities],
            "allocated": list(k.allocated)}


def side_view(k: Any, side: Any, seat: str | None) -> dict[str, Any]:
    """A head-to-head side's dice stay hidden from the other players until both sides have pushed (V-AMB-6); a
    hidden roll's faces are seen by the opponent's player alone (V-31)."""
    out = side.model_dump()
    hidden = k.head_to_head and k.stage in ("wager_actor", "wager_opponent") and seat is not None and seat != side.player
    if hidden and side.wagered:
        out.update(stakes="hidden", power="hidden", average="hidden")
    if k.hidden and seat is not None and seat != k.opponent.player:
        out.update(faces="hidden", power_faces="hidden", bonus="hidden")
    return out


def record_view(r: Any, seat: str | None) -> dict[str, Any]:
    """V-31 (L690): a hidden roll's results, winner and effect are the opponent's player's to see (the effect is
    above 0 exactly when the actor won, so its number would tell whether he failed); he tells it in the story."""
    out = r.model_dump()
    if r.hidden_from and seat is not None and (seat == "" or seat in r.hidden_from):
        out.update(actor_result="hidden", opponent_result="hidden", winner="hidden", effect="hidden")
    return out


def log_secrets(s: GameState, seats: Sequence[str]) -> list[str]:
    """What the log (the table's record: every action as taken) holds that the views keep from a browser
    holding `seats`: a hidden roll's dice whose result only its opponent's player sees (V-31, L690), another
    player's bid not yet revealed (V-57), another side's head-to-head dice before both are in (V-AMB-6).
    Empty once the story is over. Why: the views hide these; a log download must not give them away."""
    if s.phase == "over":
        return []
    mine = set(seats)
    out = []
    if any(r.hidden_from and mine <= set(r.hidden_from) for r in s.records):
        out.append("the dice of a hidden roll whose result is kept from you (V-31)")
    if s.phase == "bid" and any(p.bid is not None and n not in mine for n, p in s.players.items()):
        out.append("another player's secret bid (V-57)")
    k = s.struggle
    if k is not None and k.head_to_head and k.stage in ("wager_actor", "wager_opponent") and any(
            side.wagered and side.player not in mine for side in (k.actor, k.opponent)):
        out.append("the other side's hidden head-to-head dice (V-AMB-6)")
    return out


def revising_view(s: GameState) -> dict[str, Any] | None:
    """V-4: the challenged claim its actor may justify now, or whose justification is under vote."""
    rev = s.revising
    if rev is None or (rev.at != s.seq and not (s.vote is not None and s.vote.claim.get("what") == "justify")):
        return None
    return {"actor": rev.struggle.actor.player, "target": rev.struggle.opponent.component, "text": rev.struggle.text,
            "opposed": list(rev.opposed), "voters": rev.voters}


def summary(s: GameState, seat: str | None = None) -> dict[str, Any]:
    """Everything on the table; another player's secret bid is hidden until revealed (V-57)."""
    pend = pending(s)
    k = s.struggle
    return {
        "ruleset": "vele", "phase": s.phase, "actions": s.seq, "act": s.act, "acts": s.acts,
        "pending": {"kind": pend.kind, "seats": list(pend.seats)},
        "narrator": s.narrator, "narrators": list(s.narrators), "order": list(s.order), "objective": s.objective, "objective_done": s.objective_done, "guidelines": list(s.guidelines),
        "players": [{"name": p.name, "xp": p.xp, "xp_earned": p.xp_earned, "fate_scene": p.fate_scene, "pc_spotlights": p.pc_spotlights, "level": E.level(p.xp_earned),
                     "character_dice": list(p.character), "story_dice": list(p.story),
                     "bid": p.bid if seat is None or seat == p.name else (None if p.bid is None else "hidden")}
                    for p in s.players.values()],
        "bowl": {str(d): s.bowl.count(d) for d in E.SIZES},
        "components": [sheet(c) for c in s.components.values()],
        "aspects": [a.model_dump() for a in s.aspects],
        "scenes": [{"number": sc.number, "act": sc.act, "narrator": sc.narrator, "place": sc.place, "text": sc.text,
                    "present": list(sc.present), "ended": sc.ended,
                    **({"zones": list(sc.zones), "where": {x: sc.zone_of(x) for x in sc.present},
                        "moved": dict(sc.moved)} if sc.zones else {})} for sc in s.scenes],
        "struggle": None if k is None else {"goal": k.goal, "stage": k.stage, "target_trait": k.target_trait,
                                            "text": k.text, "situational": k.situational,
                                            "head_to_head": k.head_to_head, "hidden": k.hidden,
                                            "actor": side_view(k, k.actor, seat), "opponent": side_view(k, k.opponent, seat),
                                            **({"mass": True, "others": [side_view(k, x, seat) for x in k.others]}
                                               if k.mass else {})},
        "extended": None if s.extended is None else s.extended.model_dump(),
        "vote": None if s.vote is None else s.vote.model_dump(),
        "revising": revising_view(s),
        "allying": dict(s.allying), "forfeit": list(s.forfeit),
        "spotlights": [x.model_dump() for x in s.spotlights],
        "groups": [g.model_dump() for g in s.groups if g.act == s.act],
        "blocks": [b.model_dump() for b in s.blocks], "round_seq": s.round_seq,
        "healed": {k: list(v) for k, v in s.healed.items()},
        "healing": None if s.healing is None else s.healing.model_dump(),
        "struggles": [record_view(r, seat) for r in s.records],
        "rotations": s.rotations, "extended_done": s.extended_done,
        "options": s.options.model_dump(), "rules_version": s.rules_version,
    }


def header_rules(header: dict[str, Any]) -> int:
    """The rules version a log was written by: its header's `ruleset_version` (a log without one predates it:
    version 1). A newer one than this engine's is refused before this (core.ruleset_for_header)."""
    digits = "".join(ch for ch in str(header.get("ruleset_version") or "1").split(".")[0] if ch.isdigit())
    return min(int(digits or 1), RULES_VERSION)


def old_reading(options: dict[str, Any]) -> dict[str, Any]:
    """A log written before version 2 has no `spotlight_cards` option: its cards were taken in turns (L935),
    so it replays that way, byte for byte; new games follow the newer rule (L737)."""
    if isinstance(options, dict) and "spotlight_cards" not in options:
        return {**options, "spotlight_cards": "taken_in_turns"}
    return options


class VeleRuleset:
    """Death of the Vele: no GM; a narrator role that rotates; d4-d12 dice as currency."""

    name = "vele"
    version = VERSION
    roles = ("player",)
    die_sizes = E.SIZES
    options_model = VeleOptions

    def new_game(self, seats: Sequence[SeatSpec | str], options: BaseModel | dict | None = None) -> GameState:
        names = [x.name if isinstance(x, SeatSpec) else str(x) for x in seats]
        if isinstance(options, BaseModel) and not isinstance(options, VeleOptions):
            options = options.model_dump()
        return new_game(names, options)  # type: ignore[arg-type]

    def parse_action(self, data: dict) -> BaseModel:
        return A.parse_action(data)

    def action_schema(self) -> dict[str, Any]:
        return A.ACTION_ADAPTER.json_schema()

    def apply(self, state: GameState, action: BaseModel | dict):
        return apply(state, action)

    def pending(self, state: GameState) -> Pending:
        return pending(state)

    def legal_options(self, state: GameState, seat: str) -> list[Option]:
        return legal_options(state, seat)

    def view(self, state: GameState, seat: str | None) -> dict[str, Any]:
        return summary(state, seat if seat is not None else "")

    def log_secrets(self, state: GameState, seats: Sequence[str]) -> list[str]:
        return log_secrets(state, seats)

    def dice_action(self, state: GameState, faces: dict[str, list[int]]) -> BaseModel:
        return A.RollDice(faces=faces)

    def facts(self, state: GameState) -> list[MemoryFact]:
        """Scenes, traits and aspects of the components in play, and each struggle's outcome."""
        s = state
        out: list[MemoryFact] = []
        for sc in s.scenes:
            out.append(MemoryFact(f"scene{sc.number}", "scene", f"{sc.place}. {sc.text}".strip(), sc.narrator, 0,
                                  sc.number, None, False, sc.place))
        for i, g in enumerate(s.guidelines):
            out.append(MemoryFact(f"guideline{i}", "guideline", g, "", 0))
        for k in s.components.values():
            for t in k.traits:
                out.append(MemoryFact(f"{k.id}-{t.name}", "trait", f"{k.name}: {t.name} d{t.size}", k.owner, 0,
                                      None, k.name, bool(t.damage)))
            for i, a in enumerate(k.aspects):
                out.append(MemoryFact(f"{k.id}-a{i}", "aspect", f"{k.name}: {a}", k.owner, 0, None, k.name))
        for r in s.records:
            if r.text:
                out.append(MemoryFact(f"st{r.seq}", "struggle", r.text, s.components[r.actor].owner
                                      if r.actor in s.components else "", r.seq, r.scene))
        return out

    def invariants(self, state: GameState) -> list[str]:
        """Dice conserved (V-9): every die is in a pool, on a sheet, in the bowl, in a struggle's stake or
        an exclusion's offer (spent dice go back to the bowl, so nothing leaves the table), and with a finite
        bowl the points in play are the bowl's at the start; dice are d4-d12 (V-8); traits d4-d12; somebody
        asked unless over."""
        s, bad = state, []
        try:
            held = dice_in_play(s)
        except RuleViolation as exc:  # a die of no size the game knows
            return [f"V-8: {exc}"]
        if held != s.total_points:
            bad.append(f"V-9: the table holds {held} dice points, {s.total_points} were in play")
        start = len(s.seats) * (s.options.bowl_sets * E.points([4, 6, 8, 10]) + E.points([12]))  # new_game's bowl
        if not s.options.unlimited_bowl and s.total_points != start:
            bad.append(f"V-9: {s.total_points} dice points are in play, but the finite bowl began with {start}")
        for k in s.components.values():
            for t in k.traits:
                if t.size not in E.SIZES:
                    bad.append(f"V-AMB-2: {k.name}'s {t.name} is a d{t.size}")
            if k.out and k.healthy() and k.controller is None:
                bad.append(f"V-36: {k.name} is out with healthy traits")
        for p in s.players.values():
            if p.xp < 0:
                bad.append(f"V-50: {p.name} has {p.xp} XP")
        if s.phase != "over" and not pending(s).seats:
            bad.append("the game waits for nobody")
        return bad

    def header_config(self, state: GameState) -> dict[str, Any]:
        return {"seats": [{"name": x, "role": "player"} for x in state.seats], "options": state.options.model_dump()}

    def game_from_header(self, header: dict[str, Any]) -> GameState:
        cfg = header.get("config")
        try:
            seats = [SeatSpec(x["name"], x.get("role", "player")) for x in cfg["seats"]]  # type: ignore[index]
            state = self.new_game(seats, old_reading(cfg.get("options") or {}))  # type: ignore[union-attr]
        except (KeyError, TypeError, AttributeError, ValueError) as exc:
            raise LogError(1, f"the header's config is incomplete ({exc})") from None
        except RuleViolation as exc:
            raise LogError(1, f"the header's config is refused: {exc}") from None
        state.rules_version = header_rules(header)
        return state

    def summary(self, state: GameState) -> dict[str, Any]:
        return summary(state)

    def is_over(self, state: GameState) -> bool:
        return state.phase == "over"

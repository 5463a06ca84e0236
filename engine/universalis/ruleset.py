"""Universalis behind the ruleset protocol (engine/core/ruleset.py), by delegation only.

Why a separate adapter: the table, the CLI and the app can reach Universalis through the same
interface as any other game while the Universalis engine itself stays exactly as it is (the
same seed still gives the same log). Nothing here changes a rule; it translates shapes.
"""
from __future__ import annotations

from typing import Any, Sequence

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine.core.errors import LogError, RuleViolation
from engine.core.ruleset import DICE_SEAT, DiceRequest, MemoryFact, Option, Pending, SeatSpec
from engine.universalis import actions as A
from engine.universalis.addons import Addons
from engine.universalis.components import importance
from engine.universalis.decisions import legal_options, pending
from engine.universalis.facts import facts_seen_by
from engine.universalis.ledger import conservation_problems
from engine.universalis.replay import game_from_header
from engine.universalis.rules import apply, new_game
from engine.universalis.state import GameState
from engine.universalis.views import summary

UNIVERSALIS_DIE = 10


class UniversalisOptions(BaseModel):
    """The table options of a Universalis game (U-ECO-1, U-PREP-1)."""

    model_config = ConfigDict(extra="forbid")
    starting_coins: int = Field(default=25, ge=0, description="coins each player starts with")
    refreshment: int = Field(default=5, ge=0, description="coins each player earns at every scene end")
    starting_player: int = Field(default=0, ge=0, description="index of the seat that starts preparation")
    addons: Addons = Field(default_factory=Addons, description="the add-ons in play (book L1866-2505)")


class UniversalisRuleset:
    """Universalis: GM-less, every seat a player; d10 Complication pools."""

    name = "universalis"
    version = "1"
    roles = ("player",)
    die_sizes = (UNIVERSALIS_DIE,)  # the d6 add-on asks for d6 through `pending` (UA-SIX-1)
    options_model = UniversalisOptions

    def new_game(self, seats: Sequence[SeatSpec | str], options: BaseModel | dict | None = None) -> GameState:
        specs = [s if isinstance(s, SeatSpec) else SeatSpec(str(s)) for s in seats]
        gm = [s.name for s in specs if s.role != "player"]
        if gm:
            raise RuleViolation("U-PREP-1", f"Universalis has no Game Master: {gm[0]} must be a player")
        opts = self._options(options)
        return new_game([s.name for s in specs], opts.starting_coins, opts.refreshment, opts.starting_player,
                        opts.addons)

    def _options(self, options: BaseModel | dict | None) -> UniversalisOptions:
        if isinstance(options, UniversalisOptions):
            return options
        try:
            return UniversalisOptions.model_validate(
                options.model_dump() if isinstance(options, BaseModel) else (options or {}))
        except ValidationError as exc:
            first = exc.errors()[0]
            raise RuleViolation("U-ECO-1", f"bad table option {'.'.join(map(str, first['loc']))}: "
                                           f"{first['msg']}") from None

    def parse_action(self, data: dict) -> BaseModel:
        return A.parse_action(data)

    def action_schema(self) -> dict[str, Any]:
        return A.ACTION_ADAPTER.json_schema()

    def apply(self, state: GameState, action: BaseModel | dict):
        return apply(state, action)

    def pending(self, state: GameState) -> Pending:
        p = pending(state)
        sides = 6 if state.config.addons.die == "d6" else UNIVERSALIS_DIE  # UA-SIX-1
        dice = tuple(DiceRequest(k, n, sides) for k, n in p.dice.items())
        seats = (DICE_SEAT,) if p.kind == "roll" else tuple(p.players)
        return Pending(p.kind, seats, p.secret, p.note, dice)

    def legal_options(self, state: GameState, seat: str) -> list[Option]:
        return [Option(o.type, o.cost, o.note) for o in legal_options(state, seat)]

    def view(self, state: GameState, seat: str | None) -> dict[str, Any]:
        """The summary, with sealed scene bids hidden except the seat's own (U-BID-1)."""
        out = summary(state)
        out["bids"] = {k: v for k, v in state.bids.items() if k == seat}
        for comp in out["components"]:  # an Enigma Trait is seen by its buyer only (UA-ENIGMA-1)
            for t in comp["traits"]:
                if t.get("secret") and t.get("by") == seat:
                    t["text"] = next(x.text for x in state.components[comp["id"]].traits if x.id == t["id"])
        hands = state.extra.hands  # Cards instead of Dice: a hand is seen by its holder only (UA-CDICE-1)
        if hands:
            out["hands"] = {n: (sorted(h.hand) if n == seat else len(h.hand)) for n, h in hands.items()}
        return out

    def dice_action(self, state: GameState, faces: dict[str, list[int]]) -> BaseModel:
        return A.Roll(faces=faces)

    def facts(self, state: GameState) -> list[MemoryFact]:
        return [MemoryFact(f.id, f.kind, f.text, f.by, f.seq, f.scene, f.component_name, f.removed, f.place)
                for f in facts_seen_by(state)]  # no seat: the shared memory never holds a secret (UA-ENIGMA-1)

    def invariants(self, state: GameState) -> list[str]:
        """U-ECO-2 (the ledgers, the Bank and the coins it set aside balance) and U-ECO-3 (no negative
        coins), as `ledger.conservation_problems` reckons them, and a pending decision with someone to ask."""
        bad = [f"U-ECO-2: {m}" for m in conservation_problems(state)]
        for cid in state.components:
            if importance(state, cid) < 0:
                bad.append(f"U-IMP-1: {cid} has negative Importance")
        if not pending(state).players:
            bad.append("the game waits for nobody")
        if state.suspended and state.complication is None:  # Nested Complications (UA-NEST-1)
            bad.append("UA-NEST-1: a Complication waits under a nested one, but none is open")
        return bad

    def header_config(self, state: GameState) -> dict[str, Any]:
        c = state.config
        out = {"players": list(c.players), "starting_coins": c.starting_coins, "refreshment": c.refreshment,
               "starting_player": c.starting_player}
        if c.addons.any:  # only a game with add-ons says so: a core game's header is as it always was
            out["addons"] = c.addons.changed()
        return out

    def game_from_header(self, header: dict[str, Any]) -> GameState:
        if not isinstance(header.get("config"), dict):
            raise LogError(1, "the header has no config")
        return game_from_header(header)

    def summary(self, state: GameState) -> dict[str, Any]:
        return summary(state)

    def is_over(self, state: GameState) -> bool:
        return False  # a Universalis game ends when the table says so (DESIGN.md)

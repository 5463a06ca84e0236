"""`apply(state, action) -> (state, events)`: the Universalis rules.

Pure: no I/O, no clock, no randomness (dice arrive as a `Roll` action). The input state is
never changed; a refused action raises `RuleViolation` naming the rule and the reason.
Handlers are grouped by the part of the book they enforce; scene building and complications
live in their own modules and register their handlers here.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from pydantic import BaseModel, ValidationError

from engine.core.errors import RuleViolation
from engine.core.seats import closest_left, seats_left_of
from engine.universalis import actions as A
from engine.universalis.addons import CORE, Addons, check_addons, parse_addons
from engine.universalis.clone import clone
from engine.universalis.events import Event
from engine.universalis.ledger import (
    available, coins, from_bank, pay, refund, require, stake_to_bank, take_fine,
)
from engine.universalis.state import (
    Challenge, ChallengeOption, Config, Fine, GameState, Ledger, Player, Scene, Statement, Tenet,
    Turn, Window,
)


@dataclass
class Ctx:
    """The state being built by one action, the action, and what it reports."""

    s: GameState
    a: BaseModel
    orig: GameState
    events: list[Event] = field(default_factory=list)

    def emit(self, kind: str, text: str = "", cost: int = 0, player: str | None = None, **data) -> None:
        who = self.a.player if player is None else player  # type: ignore[attr-defined]
        self.events.append(Event(seq=self.s.seq, kind=kind, player=who, text=text, cost=cost, data=data))

    def say(self, *forms: str) -> str:
        """One of several wordings of a fixed engine line, chosen by the action's sequence number.

        Why: lines such as "calls for resolution." recur once or twice per Complication and read
        as one sentence said over and over (issue 23). The choice is pure (no clock, no
        randomness), and logs hold actions, not these words: replaying a log gives the same state
        and the same lines every time.
        """
        return forms[self.s.seq % len(forms)]


Handler = Callable[[Ctx], None]
HANDLERS: dict[str, Handler] = {}


def handles(*types: type[BaseModel]) -> Callable[[Handler], Handler]:
    def deco(fn: Handler) -> Handler:
        for t in types:
            HANDLERS[t.model_fields["type"].default] = fn
        return fn
    return deco


# --- the entry points -----------------------------------------------------------------------
MAX_PLAYERS = 20  # seats at one table
MAX_NAME = 60  # characters in a player's name
MAX_SETTING = 10_000  # starting coins or Refreshment: the book suggests 25 and 5 (U-ECO-1)

def new_game(players: list[str] | tuple[str, ...], starting_coins: int = 25, refreshment: int = 5,
             starting_player: int = 0, addons: Addons | dict | None = None) -> GameState:
    """A game at the start of preparation (U-ECO-1), under the add-ons (UA-SETUP-*)."""
    names = [str(p).strip() for p in players]
    if len(names) < 2:
        raise RuleViolation("U-PREP-1", "Universalis needs at least two players")
    if len(set(names)) != len(names) or any(not n for n in names):
        raise RuleViolation("U-PREP-1", "every player needs a distinct, non-empty name")
    # "C" keys the Complication Pool (a Target player's Pool is keyed by his name) and "dice"
    # is who hands in a Roll: a player with either name would be confused with them.
    reserved = [n for n in names if n in ("C", "dice") or n.startswith("C:")]  # "C:k": UA-MT-5
    if reserved:
        raise RuleViolation("U-PREP-1", f"{reserved[0]!r} is reserved by the engine; choose another name")
    if len(names) > MAX_PLAYERS:
        raise RuleViolation("U-PREP-1", f"{len(names)} players: at most {MAX_PLAYERS} can sit at one table")
    if any(len(n) > MAX_NAME for n in names):
        raise RuleViolation("U-PREP-1", f"a player's name is at most {MAX_NAME} characters long")
    for what, value in (("starting coins", starting_coins), ("refreshment", refreshment)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise RuleViolation("U-ECO-1", f"the {what} must be a whole number of coins, not {str(value)[:20]!r}")
        if value < 0:
            raise RuleViolation("U-ECO-1", "starting coins and refreshment cannot be negative")
        if value > MAX_SETTING:
            raise RuleViolation("U-ECO-1", f"{value:,} {what} is more than any table plays with: at most "
                                           f"{MAX_SETTING:,} (the book suggests 25 and 5)")
    if isinstance(starting_player, bool) or not isinstance(starting_player, int):
        raise RuleViolation("U-PREP-1", "the starting player is a seat number")
    if not 0 <= starting_player < len(names):
        raise RuleViolation("U-PREP-1", "the starting player must be one of the seats")
    adds = parse_addons(addons)
    check_addons(adds, names, starting_coins)
    config = Config(players=tuple(names), starting_coins=starting_coins, refreshment=refreshment,
                    starting_player=starting_player, addons=adds)
    state = GameState(config=config, prep_index=starting_player, players=[
        Player(name=n, wealth=starting_coins, ledger=Ledger(start=starting_coins)) for n in names])
    if adds.jobs:
        state.extra.jobs = list(adds.jobs)  # Metagame Jobs adopted in setup (UA-JOB-1)
    if adds.currency in ("cards_bank", "cards_stack"):  # each player's deck, his Wealth drawn from it (UA-CARDS-1)
        _addon_cards_play.new_decks(state)
    if adds.currency == "cards_hand":  # Cards instead of Dice: starting Wealth drawn into hand (UA-CDICE-1)
        _addon_cards_hand.new_hands(state)
    return state


def apply(state: GameState, action: BaseModel | dict) -> tuple[GameState, list[Event]]:
    """Apply one action. Returns the new state and its events; refuses with RuleViolation."""
    if isinstance(action, dict):
        try:
            action = A.parse_action(action)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(x) for x in first.get("loc", ()))
            kind = action.get("type") if isinstance(action.get("type"), str) else ""
            if first.get("type") == "string_too_short" and kind in WORDS_RULE:
                # blank words are refused under the rule that would have them paid for
                what = WORDS_NAMES.get(str(first.get("loc", ("",))[-1]), where)
                raise RuleViolation(WORDS_RULE[kind], f"the {what} is empty: there is nothing to pay for") from None
            if first.get("type") in ("union_tag_invalid", "union_tag_not_found"):
                raise RuleViolation("U-INPUT", f"there is no action {str(action.get('type'))[:40]!r}") from None
            raise RuleViolation("U-INPUT", f"the action is malformed: {where[:60]}: {str(first.get('msg'))[:160]}") from None
    if not isinstance(action, BaseModel) or getattr(action, "type", None) not in HANDLERS:
        raise RuleViolation("U-INPUT", "the action is malformed: not an action")
    check_words(action)
    name = getattr(action, "player", "")
    if isinstance(action, A.Roll):
        if name != DICE_SOURCE:
            raise RuleViolation("U-COMP-7", f"the dice are handed in by the dice source ({DICE_SOURCE!r}), "
                                            f"not by {name[:40]!r}: no player chooses the faces")
    elif name not in state.seat_names:
        raise RuleViolation("U-TURN-1", f"{name[:40]!r} is not a player at this table")
    s = clone(state)
    s.seq += 1
    ctx = Ctx(s=s, a=action, orig=state)
    w = s.window
    turning = bool(s.extra.cards) and bool(_addon_cards_play.revealing(s))  # spent cards first (UA-CARDS-4)
    if (w is not None and w.lapses and s.challenge is None and s.fine is None and s.extra.judgment is None
            and action.type not in WINDOW_ANSWERS and not turning):  # type: ignore[attr-defined]
        # the game went on past a window that lapses: whoever had not answered let it stand
        resolve_window(ctx)
        ctx.orig = clone(ctx.s)  # a Challenge of what follows goes back to here, the window closed
    addons_on = s.config.addons is not CORE or not s.extra.session_open
    if addons_on:
        _addon_rules.before_action(ctx)
    handler = HANDLERS[action.type]  # type: ignore[attr-defined]
    if s.extra.judgment is not None:  # an open Judgment waits for its own decisions (UA-JUDGE-*)
        handler = _addon_judgment.during_case(action.type, handler)  # type: ignore[attr-defined]
    if s.extra.hands and _addon_cards_hand.owed(s):  # cards to deal first (UA-CDICE-1)
        handler = _addon_cards_hand.while_owed(action.type)  # type: ignore[attr-defined]
    if turning:  # Cards as Coins with face cards kept: spent cards are turned over first (UA-CARDS-4)
        handler = _addon_cards_play.while_revealing(action.type)  # type: ignore[attr-defined]
    handler(ctx)
    if addons_on:
        _addon_rules.after_action(ctx)
    return ctx.s, ctx.events


# --- words (every action) ------------------------------------------------------------------------
MAX_TEXT = 4000  # characters in any one piece of text: about a printed page, far more than a Tenet needs
DICE_SOURCE = "dice"  # who hands in a Roll (the table's dice source, never a player)
# the rule whose words each action pays for: a blank or overlong text is refused under it
WORDS_RULE = {
    "propose_tenet": "U-PREP-3", "establish_location": "U-FRAME-1", "set_time": "U-FRAME-2",
    "frame_mini_scene": "U-TURN-4", "create_component": "U-ACT-4", "introduce_component": "U-ACT-3",
    "exit_component": "U-ACT-3", "declare_absent": "U-ACT-3", "narrate_event": "U-ACT-1", "buy_fact": "U-ACT-2",
    "add_trait": "U-ACT-5", "remove_trait": "U-ACT-5", "restore_trait": "U-ACT-5", "reduce_importance": "U-ELIM-1",
    "restore_importance": "U-ELIM-4", "return_component": "U-ELIM-3", "dialog": "U-ACT-8", "answer_dialog": "U-ACT-8",
    "speak": "U-ACT-8", "end_scene": "U-TURN-5", "call_fine": "U-FINE-1", "interrupt": "U-TURN-2",
    "obstacle": "U-COMP-1a", "challenge": "U-CHAL-1", "challenge_bid": "U-CHAL-2", "draw_trait": "U-COMP-3",
    "buy_die": "U-COMP-5",
}
WORDS_NAMES = {"text": "text", "role": "Role", "line": "line", "reason": "reason", "proper_name": "proper name",
               "new_role": "Role", "new_option": "option", "alternative": "alternative", "facts": "Fact"}


def check_words(action: BaseModel) -> None:
    """Refuse text that says nothing or too much (U-FACT-1: a Fact is a paid piece of information).

    Words a player must give (a Tenet, an Event, a Role...) may not be empty or only whitespace;
    optional words may be left empty (the engine then words it); no text, id or name is longer
    than MAX_TEXT characters. Refused under the rule of the action, before anything changes.
    """
    kind = getattr(action, "type", "")
    rule = WORDS_RULE.get(kind, "U-FACT-1")
    for name, info in type(action).model_fields.items():
        value = getattr(action, name)
        what = WORDS_NAMES.get(name, name)
        for v in _strings(value):
            if len(v) > MAX_TEXT:
                raise RuleViolation(rule, f"the {what} is {len(v):,} characters long; at most {MAX_TEXT:,} "
                                          "are accepted")
        # words that must be given, or that were given, may not be blank
        given = [value] if isinstance(value, str) else value if name == "facts" else []
        must = info.is_required() or name == "facts" or (name in ("new_option", "proper_name", "new_role")
                                                         and isinstance(value, str) and value != "")
        if must and any(isinstance(v, str) and not v.strip() for v in given):
            if name == "player":
                raise RuleViolation("U-TURN-1", "the action names no player")
            raise RuleViolation(rule, f"the {what} is empty or only whitespace: there is nothing to pay for")


def _strings(d: object, depth: int = 0) -> list[str]:
    """Every string (keys too) in a nested dict or list: an alternative action's words are checked as well."""
    if depth > 4:
        return []
    if isinstance(d, str):
        return [d]
    if isinstance(d, dict):
        return [k for k in d if isinstance(k, str)] + [x for v in d.values() for x in _strings(v, depth + 1)]
    if isinstance(d, list):
        return [x for v in d for x in _strings(v, depth + 1)]
    return []


# --- shared checks ----------------------------------------------------------------------------
def blocking(s: GameState) -> tuple[str, str] | None:
    """What must be answered before anyone takes a turn action: (rule, description)."""
    if s.fine is not None:  # first: a Fine may be called at any time, a Challenge's included (line 1361)
        return "U-FINE-1", "a Fine is being voted on"
    if s.challenge is not None:
        return "U-CHAL-2", "a Challenge is being settled"
    if s.extra.judgment is not None:
        return "UA-JUDGE-1", "a Judge is deciding a question (Judgment)"
    if s.window is not None:
        return "U-TURN-3", "the players are answering the last statement"
    if s.roll_pending:
        return "U-COMP-7", "the Pools must be rolled"
    if s.complication is not None and s.complication.split is not None and not s.complication.split.matches:
        from engine.universalis.addon_split import allocator, one_key
        whose = "the Complication's" if one_key(s.complication) == "C" else f"{one_key(s.complication)}'s"
        return "UA-MT-4", f"{allocator(s.complication)} is allocating {whose} Successes (Split Allocation)"
    if s.consent is not None:
        return "U-COMP-6", "the players are answering a call for resolution"
    if s.dialog is not None:
        return "U-ACT-8", f"{s.dialog.other} must answer the Dialog"
    return None


def narrator(s: GameState) -> str | None:
    if s.narration is None:
        return None
    return s.narration.slots[s.narration.current].player


def require_turn(c: Ctx, narration_ok: bool = False) -> None:
    s, who = c.s, c.a.player  # type: ignore[attr-defined]
    if s.phase != "scene" or s.turn is None:
        raise RuleViolation("U-TURN-1", "no scene is being played: that can only be done on a turn in a scene")
    b = blocking(s)
    if b:
        raise RuleViolation(b[0], f"not now: {b[1]}")
    if s.narration is not None:
        n = narrator(s)
        if not narration_ok:
            raise RuleViolation("U-COMP-11", f"not now: {n} is narrating with bonus coins")
        if who != n:
            raise RuleViolation("U-COMP-11", f"it is {n}'s part of the narration, not {who}'s")
        return
    if who != s.turn.player:
        raise RuleViolation("U-TURN-1", f"it is {s.turn.player}'s turn, not {who}'s "
                                        "(interrupting is done after a statement, U-TURN-2)")


def require_location(s: GameState) -> Scene:
    sc = s.scene()
    if sc is None or sc.location is None:
        raise RuleViolation("U-FRAME-1", "the scene has no location yet: establish the location first")
    return sc


def must_establish_location(s: GameState, player: str) -> bool:
    """A framer who can pay may not leave framing before the scene has a location (U-FRAME-1, line 359)."""
    sc = s.scene()
    return (s.turn is not None and s.turn.framing and sc is not None and sc.location is None
            and s.turn.player == player and available(s, player) >= 1)


def refuse_without_location(s: GameState, player: str, doing: str) -> None:
    if must_establish_location(s, player):
        raise RuleViolation("U-FRAME-1", f"the framer must establish the scene's location (1 coin) before {doing}")


def in_narration(s: GameState) -> bool:
    return s.narration is not None


def statement(c: Ctx, kind: str, text: str, cost: int, fact_id: str | None = None,
              components: list[str] | None = None, is_event: bool = False,
              complication_started: bool = False, lapses: bool = False) -> None:
    """Open a reaction window after a paid statement (U-TURN-3, U-CHAL-1, U-CTRL-3)."""
    s = c.s
    st = Statement(actor=c.a.player, kind=kind, text=text, cost=cost, fact_id=fact_id,  # type: ignore[attr-defined]
                   components=[x for x in (components or []) if x], is_event=is_event,
                   complication_started=complication_started,
                   action=c.a.model_dump(mode="json", exclude={"player"}))
    framing = s.turn is not None and s.turn.framing
    s.window = Window(statement=st, before=c.orig, lapses=lapses,
                      allow_interrupt=s.phase == "scene" and not framing and not in_narration(s))


def next_seat(s: GameState, name: str) -> str:
    return seats_left_of(s.seat_names, name)[0]


def finish_turn(c: Ctx, next_player: str) -> None:
    """End the current turn and hand it on; a mini scene ends with its turn (U-TURN-4)."""
    s = c.s
    assert s.turn is not None
    if s.turn.mini_scene is not None:
        comp = s.complication
        if comp is not None and comp.scene == s.turn.mini_scene:
            comp.turn_player_at_call = next_player
            comp.called_by = s.turn.player
            s.close_mini_after_complication = True
            s.roll_pending = True
            c.emit("resolution", "The mini scene ends with its Complication open: the Pools roll as they stand.")
            return
        close_mini(c)
    s.turn = Turn(player=next_player)
    c.emit("turn", f"{next_player}'s turn.", player=next_player)


def close_mini(c: Ctx) -> None:
    s = c.s
    assert s.turn is not None and s.turn.mini_scene is not None
    sc = s.scenes[s.turn.mini_scene - 1]
    sc.ended = True
    sc.faded = sc.fade_requested
    sc.control = {}
    s.turn.mini_scene = None
    s.turn.framing = False
    s.close_mini_after_complication = False
    c.emit("mini_scene_end", "The mini scene ends" + (" and fades to black." if sc.faded else "."),
           player=sc.framer)


# --- preparation (U-PREP) ---------------------------------------------------------------------
def prep_player(s: GameState) -> str:
    return s.seat_names[s.prep_index % len(s.players)]


def require_prep_turn(c: Ctx) -> None:
    s = c.s
    if s.phase != "prep":
        raise RuleViolation("U-PREP-1", "preparation is over")
    b = blocking(s)
    if b:
        raise RuleViolation(b[0], f"not now: {b[1]}")
    if c.a.player != prep_player(s):  # type: ignore[attr-defined]
        raise RuleViolation("U-PREP-1", f"it is {prep_player(s)}'s turn to propose a Tenet or pass")


def advance_prep(s: GameState, passed: bool) -> None:
    s.prep_passes = s.prep_passes + 1 if passed else 0
    s.prep_index = (s.prep_index + 1) % len(s.players)
    if s.config.addons is not CORE and _addon_rules.setting_phase_turn(s):
        return  # the Setting Creation Phase begins or goes on (UA-SETTING-1)
    if s.prep_passes >= len(s.players):
        s.phase = "bidding"


def prep_or_turn(c: Ctx, narration_ok: bool = True) -> bool:
    """Check whose move it is for an action allowed both in preparation and on a turn."""
    if c.s.phase == "prep":
        require_prep_turn(c)
        return True
    require_turn(c, narration_ok=narration_ok)
    return False


@handles(A.ProposeTenet)
def propose_tenet(c: Ctx) -> None:
    s, a = c.s, c.a
    assert isinstance(a, A.ProposeTenet)
    prep = prep_or_turn(c, narration_ok=True)
    if not prep:
        # bonus coins may propose Tenets too (line 1151); one per narration part, as per turn
        assert s.turn is not None
        slot = s.narration.slots[s.narration.current] if s.narration is not None else None
        if (slot.tenet_used if slot is not None else s.turn.tenet_used):
            raise RuleViolation("U-PREP-2", "only one Tenet may be proposed or modified per turn")
        if slot is not None:
            slot.tenet_used = True
        else:
            s.turn.tenet_used = True
    if a.replaces is not None:
        idx = next((i for i, t in enumerate(s.tenets) if t.id == a.replaces and not t.removed), None)
        if idx is None:
            raise RuleViolation("U-PREP-3", f"there is no standing Tenet {a.replaces!r} to modify")
        pay(s, a.player, 1, "modifying a Tenet")
        s.tenets[idx] = s.tenets[idx].model_copy(update={"removed": True})
    else:
        pay(s, a.player, 1, "a Tenet")
    from engine.universalis.components import new_id
    t = Tenet(id=new_id(s, "T"), kind=a.kind, text=a.text.strip(), by=a.player, seq=s.seq,
              replaces=a.replaces)
    s.tenets.append(t)
    c.emit("tenet", t.text, 1, tenet=t.id, tenet_kind=t.kind, replaces=a.replaces)
    if prep:
        advance_prep(s, passed=False)
    statement(c, "tenet", t.text, 1, fact_id=t.id)


@handles(A.PassPrep)
def pass_prep(c: Ctx) -> None:
    require_prep_turn(c)
    was_setting = c.s.extra.setting_phase
    advance_prep(c.s, passed=True)
    c.emit("pass_prep", "passes.")
    if c.s.extra.setting_phase and not was_setting:
        c.emit("setting_phase", f"Game Prep ends; the Setting Creation Phase begins: each player has a separate "
                                f"pool of {coins(c.s.config.addons.setting_phase_pool or 0)} for setting only.",
               player="", rule="UA-SETTING-1")
    if c.s.phase == "bidding":
        then = "Bid for the first scene."
        if c.s.config.addons.open_scene_framing:  # no bidding (UA-OPEN-1)
            then = f"{_addon_open.next_framer(c.s)} frames the first scene (Open Scene Framing: no bidding)."
        c.emit("prep_end", f"Preparation ends: every player passed in a row. {then}", player="")
        if c.s.config.addons is not CORE:
            _addon_rules.prep_ended(c)


# --- bids (U-BID) -------------------------------------------------------------------------------
@handles(A.Bid)
def bid(c: Ctx) -> None:
    s, a = c.s, c.a
    assert isinstance(a, A.Bid)
    if s.phase != "bidding":
        raise RuleViolation("U-BID-1", "there is no bid for a scene going on now")
    if s.window is not None or s.challenge is not None or s.fine is not None:
        b = blocking(s)
        raise RuleViolation(b[0], f"not now: {b[1]}")  # type: ignore[index]
    if a.player in s.bids:
        raise RuleViolation("U-BID-1", f"{a.player} has already bid for this scene")
    p = s.player(a.player)
    if a.amount > p.wealth:
        raise RuleViolation("U-ECO-3", f"{a.player} holds {coins(p.wealth)}; a bid of {a.amount} is more than that")
    s.bids[a.player] = a.amount
    c.emit("bid_placed", "bids in secret.")
    if len(s.bids) == len(s.players):
        reveal_bids(c)


def bid_reference(s: GameState) -> str:
    """The last framer, or for the first scene the seat before the starting player (U-BID-2)."""
    if s.last_framer is not None:
        return s.last_framer
    return s.seat_names[(s.config.starting_player - 1) % len(s.players)]


def reveal_bids(c: Ctx) -> None:
    s = c.s
    ref = bid_reference(s)
    # a Fine voted during the bid (U-FINE-1) may have taken coins a secret bid counted on: a bid
    # is the coins in the bidder's hand, so it is at most what he holds now (engine choice)
    bids = {n: min(v, s.player(n).wealth) for n, v in s.bids.items()}
    top = max(bids.values())
    order = seats_left_of(s.seat_names, ref)
    if top > 0:
        winner = closest_left(s.seat_names, ref, [n for n, v in bids.items() if v == top])
        amount = top
        how = "wins the bid" if list(bids.values()).count(top) == 1 else "wins the tie, sitting closest to the left of the last framer (U-BID-2)"
    else:
        with_coins = [n for n in order if s.player(n).wealth >= 1]
        if with_coins:
            winner, amount = with_coins[0], 1
            how = "frames: nobody bid, so he must bid 1 coin (U-BID-4)"
        else:
            winner, amount = order[0], 0
            how = "frames with an empty stake: nobody has a coin (U-BID-4)"
    p = s.player(winner)
    p.wealth -= amount
    p.stake = amount
    s.bids = {}
    s.last_framer = winner
    number = len(s.scenes) + 1
    s.scenes.append(Scene(number=number, framer=winner))
    s.current_scene = number
    s.phase = "scene"
    s.turn = Turn(player=winner, framing=True)
    shown = ", ".join(f"{n} {v}" for n, v in bids.items())
    c.emit("bids_revealed", f"Bids: {shown}. {winner} {how} and frames scene {number} with a stake of {amount}.",
           player="", bids=bids, winner=winner, stake=amount, scene=number)


# --- turns and scenes (U-TURN) ---------------------------------------------------------------------
@handles(A.EndTurn)
def end_turn(c: Ctx) -> None:
    require_turn(c)
    refuse_without_location(c.s, c.a.player, "ending the turn")  # type: ignore[attr-defined]
    c.emit("end_turn", "ends the turn.")
    finish_turn(c, next_seat(c.s, c.a.player))  # type: ignore[attr-defined]


@handles(A.EndScene)
def end_scene(c: Ctx) -> None:
    s, a = c.s, c.a
    assert isinstance(a, A.EndScene)
    require_turn(c)
    assert s.turn is not None
    if s.turn.mini_scene is not None:
        raise RuleViolation("U-TURN-4", "a mini scene ends with the turn; pay to fade it instead")
    sc = s.scene()
    assert sc is not None
    if a.player != sc.framer:
        raise RuleViolation("U-TURN-5", f"only the framer, {sc.framer}, may end the scene")
    if s.complication is not None:
        raise RuleViolation("U-TURN-5", "the scene cannot end while a Complication in it is unresolved")
    refuse_without_location(s, a.player, "ending the scene")
    if a.fade:
        pay(s, a.player, 1, "Fade to Black")
    end_main_scene(c, a.fade, a.text)
    if a.fade:
        # "Like anything else in the game, Fade to Black can be Challenged" (U-CHAL-1, line 375)
        statement(c, "fade", a.text.strip() or "The scene fades to black.", 1, lapses=True)


def refresh_after(c: Ctx, scene_no: int | None, why: str = "", rule: str | None = None) -> None:
    """Refreshment after scene `scene_no` (U-ECO-1), 7 when Protagonist Refresh Boost applies (UA-PREF-1).

    Why one function: a scene's end pays it, and so does a new frame under Open Scene Framing's on-frame
    reading (UA-OPEN-4); both must pay the same amount. `why` and `rule` only add to the log line."""
    s = c.s
    amount = s.config.refreshment
    if s.config.addons is not CORE and scene_no is not None:
        amount = _addon_rules.refresh_amount(s, scene_no)
    refresh_all(c, amount, f"Every player receives {coins(amount)} of Refreshment" + (f" ({why})." if why else "."),
                rule)


def refresh_all(c: Ctx, amount: int, text: str, rule: str | None = None) -> None:
    """The Bank pays every player `amount` of Refreshment and the log says so: the one loop for a scene's
    Refresh (U-ECO-1) and the add-ons' extra ones (UA-FIRST-1, UA-COIN-1)."""
    for p in c.s.players:
        from_bank(p, c.s, amount, "refreshment")
    c.emit("refresh", text, player="", **({"rule": rule} if rule else {}))


def end_main_scene(c: Ctx, fade: bool, text: str, refresh: bool = True) -> None:
    """The scene in play ends: the framer's stake goes to the Bank, then Refreshment (U-ECO-1); with
    Open Scene Framing's on-frame reading Refreshment comes with the next frame instead (UA-OPEN-4)."""
    s = c.s
    sc = s.scenes[s.current_scene - 1]  # type: ignore[operator]
    sc.ended = True
    sc.faded = fade
    sc.control = {}
    lost = stake_to_bank(s, sc.framer)
    s.scenes_ended += 1
    words = text or ("The scene fades to black." if fade else "The scene ends.")
    c.emit("end_scene", words, 1 if fade else 0, player=sc.framer, scene=sc.number, fade=fade, stake_lost=lost)
    if s.config.addons is not CORE:
        _addon_rules.pay_jobs(c, "scene")
    if s.config.addons.plot_threads == "bradley":  # UA-THREAD-2: threads gain Weight each scene
        from engine.universalis.addon_hooks import threads_scene_end
        threads_scene_end(s, sc.number)
    if refresh:
        refresh_after(c, sc.number)
    s.turn = None
    s.phase = "bidding"


# --- the reaction window ----------------------------------------------------------------------------
REACTIONS = (A.Pass, A.Interrupt, A.Obstacle, A.ChallengeStatement, A.InvokeJudgment)
WINDOW_ANSWERS = frozenset({"pass", "interrupt", "obstacle", "challenge", "call_fine", "take_over", "fine_vote",
                            "invoke_judgment"})
DISPUTES = ("challenge", "invoke_judgment")  # a window's answers that dispute the statement itself


def window_answer_check(c: Ctx) -> Window:
    s, who = c.s, c.a.player  # type: ignore[attr-defined]
    w = s.window
    if w is None or s.challenge is not None or s.fine is not None or s.extra.judgment is not None:
        raise RuleViolation("U-TURN-3", "there is no statement to react to now")
    if who == w.statement.actor:
        raise RuleViolation("U-TURN-3", "a player does not react to his own statement")
    if who in w.answers:
        raise RuleViolation("U-TURN-3", f"{who} has already answered this statement")
    return w


@handles(*REACTIONS)
def react(c: Ctx) -> None:
    s, a = c.s, c.a
    w = window_answer_check(c)
    if isinstance(a, (A.Interrupt, A.Obstacle)):
        if not w.allow_interrupt:
            if s.phase != "scene":
                raise RuleViolation("U-TURN-2", "Interrupts take turns in a scene; there is none yet")
            if in_narration(s):
                raise RuleViolation("U-COMP-11", "nobody may interrupt while the bonus coins are narrated")
            raise RuleViolation("U-FRAME-4", "nobody may interrupt the framer before his first Event")
        if isinstance(a, A.Obstacle):
            if not w.statement.is_event:
                raise RuleViolation("U-COMP-1a", "an Obstacle opposes an Event; the last statement is not one")
            if s.complication is not None and not _nest.obstacle_nests(s, w):  # nested: UA-NEST-1
                raise RuleViolation("U-COMP-1a", "a Complication is already open (one at a time)")
            require(s, a.player, 1 + a.dice, f"interrupting and {a.dice} dice")
        else:
            require(s, a.player, 1, "an Interrupt")
    if isinstance(a, A.InvokeJudgment):
        _addon_judgment.check_invocation(s, w)  # UA-JUDGE-1 (L1980)
    if isinstance(a, (A.ChallengeStatement, A.InvokeJudgment)):
        ad = s.config.addons
        if isinstance(a, A.ChallengeStatement) and _addon_judgment.replaces_challenges(s):
            from engine.universalis.addon_scenes import no_challenges
            no_challenges()  # UA-JUDGE-1: Judgment replaces the Challenge (L1984)
        if not w.allow_challenge:
            if (w.statement.action or {}).get("royalty"):
                raise RuleViolation("UA-ROY-2", "Royalty: a Take Over that paid Royalty is made without fear of "
                                                "Challenge (L2088)")
            raise RuleViolation("U-CHAL-4", "this statement has already survived a Challenge")
        if a.fact is not None:
            from engine.universalis.facts import find_fact
            if find_fact(s, a.fact) is None:
                raise RuleViolation("U-FACT-2", f"there is no established Fact {a.fact!r}")
            if a.fact == w.statement.fact_id:
                raise RuleViolation("U-FACT-2", "the Fact being challenged cannot defend itself")
            if s.config.addons is not CORE:
                _addon_rules.check_cited(s, a.fact)
        if a.instead is not None:
            check_instead(w, a.instead)
    w.answers[a.player] = a.model_dump()
    if not isinstance(a, A.Pass):
        c.emit("reaction", f"declares {a.type.replace('_', ' ')}.", data_type=a.type)
    if len(w.answers) == len(s.players) - 1:
        resolve_window(c)


def resolve_window(c: Ctx) -> None:
    """Settle every answer by priority: closest to the actor's left first (U-TURN-3)."""
    s = c.s
    w = s.window
    assert w is not None
    order = seats_left_of(s.seat_names, w.statement.actor, include_self_last=False)
    answers = [(n, w.answers[n]) for n in order if n in w.answers]
    w.answers = {}
    for n, ans in answers:
        if ans["type"] in DISPUTES:
            w.allow_challenge = False  # one dispute per statement: it is not challenged or judged again
            if ans["type"] == "invoke_judgment":
                _addon_judgment.open_case(c, n, ans, w)
            else:
                open_challenge(c, n, A.ChallengeStatement.model_validate(ans), w)
            return
    for n, ans in answers:
        if ans["type"] == "call_fine":
            w.allow_fine = False
            open_fine(c, n, ans["accused"], ans["reason"])
            return
    from engine.universalis.complications import take_over_effect, take_over_problem, originate
    taken: set[str] = set()
    for n, ans in answers:
        # two Take Overs of one component in one window: priority decides, as for Interrupts
        # (U-TURN-3); the later declaration lapses unpaid (engine choice)
        if ans["type"] == "take_over" and ans["component"] not in taken:
            problem = take_over_problem(s, n, ans["component"])
            if problem is None:
                take_over_effect(c, n, ans["component"], w.statement)
                taken.add(ans["component"])
    st = w.statement
    s.window = None
    for n, ans in answers:
        if ans["type"] in ("interrupt", "obstacle"):
            extra = ans.get("dice", 0) if ans["type"] == "obstacle" else 0
            if available(s, n) < 1 + extra or (extra and s.complication is not None
                                                and not _nest.obstacle_nests(s, w)):  # nested: UA-NEST-1
                continue
            pay(s, n, 1, "an Interrupt")
            c.emit("interrupt", ans.get("text") or f"interrupts {s.turn.player if s.turn else ''}.", 1, player=n)
            if extra:
                targets = [x for x in st.components if s.controller(x) == st.actor]
                originate(c, n, targets, [st.actor], st.text, st.fact_id)
                pay(s, n, extra, "Obstacle dice")
                assert s.complication is not None
                s.complication.pool("C").dice += extra
                c.emit("obstacle", ans["text"], extra, player=n, dice=extra)
            finish_turn(c, n)
            return


# --- challenges (U-CHAL, U-FACT-2) ---------------------------------------------------------------------
def challenge_case(challenger: str, a: A.ChallengeStatement | A.InvokeJudgment, w: Window) -> Challenge:
    """The dispute over the window's statement: its two sides, the statement and the disputer's version
    (a Challenge's, or a Judgment's, UA-JUDGE-1)."""
    st = w.statement
    withdraw = a.withdraw and a.instead is None
    alt = a.alternative.strip() or ("that it does not happen" if withdraw else
                                    instead_words(a.instead) if a.instead is not None else st.text)
    options = [ChallengeOption(text=st.text, cost=st.cost, opened_by=st.actor),
               ChallengeOption(text=alt, cost=0 if withdraw else a.alternative_cost,
                               withdraw=withdraw, opened_by=challenger, instead=a.instead)]
    return Challenge(challenger=challenger, challenged=st.actor, statement=st.model_copy(deep=True),
                     reason=a.reason, fact_id=a.fact, options=options, totals=[0, 0], before=w.before,
                     fines=list(w.fines))


def open_challenge(c: Ctx, challenger: str, a: A.ChallengeStatement, w: Window) -> None:
    st = w.statement
    c.s.challenge = challenge_case(challenger, a, w)
    c.emit("challenge", f"challenges “{st.text}”: {a.reason}", player=challenger, fact=a.fact)


def require_challenge(c: Ctx, stage: str) -> Challenge:
    ch = c.s.challenge
    if ch is None:
        raise RuleViolation("U-CHAL-1", "there is no Challenge going on")
    if c.s.fine is not None:
        raise RuleViolation("U-FINE-1", "not now: a Fine is being voted on")
    if ch.stage != stage:
        raise RuleViolation("U-CHAL-2", f"the Challenge is at its {ch.stage.replace('_', ' ')}, not {stage}")
    return ch


@handles(A.ConcedeChallenge, A.ContestChallenge, A.DisputeFact)
def negotiate(c: Ctx) -> None:
    a = c.a
    from engine.universalis import addon_challenges  # UA-LOSEBID-1: a concession during the bidding
    if addon_challenges.concedes_in_bidding(c):
        addon_challenges.concede_in_bidding(c)
        return
    ch = require_challenge(c, "negotiation")
    if a.player != ch.challenged:  # type: ignore[attr-defined]
        raise RuleViolation("U-CHAL-1", f"{ch.challenged}, who was challenged, answers the Challenge")
    if isinstance(a, A.ConcedeChallenge):
        c.emit("challenge_conceded", c.say("accepts the challenger's version.", "gives way: the challenger's version stands.",
                                           "lets the challenger's version stand."))
        challenge_outcome(c, 1)
    elif isinstance(a, A.DisputeFact):
        if ch.fact_id is None:
            raise RuleViolation("U-FACT-2", "the Challenge names no Fact to dispute")
        ch.stage = "fact_vote"
        c.emit("fact_disputed", "disputes that the Fact applies; everyone votes.")
    else:
        start_bidding(c, ch)


def start_bidding(c: Ctx, ch: Challenge) -> None:
    seats = c.s.seat_names
    rest = [p for p in seats_left_of(seats, ch.challenger, include_self_last=False) if p != ch.challenged]
    ch.order = [ch.challenger] + rest + [ch.challenged]
    ch.stage = "bidding"
    ch.next_index = 0
    ch.passes_in_row = 0
    c.emit("challenge_bidding", "Bidding on the Challenge begins; the challenger bids first.", player="")


@handles(A.WithdrawChallenge)
def withdraw_challenge(c: Ctx) -> None:
    ch = c.s.challenge
    if ch is None or ch.stage != "negotiation":
        stage = "" if ch is None else (" (the players are voting on whether the Fact applies)" if
                                       ch.stage == "fact_vote" else " (the bidding has begun)")
        raise RuleViolation("U-CHAL-1", "a Challenge can be withdrawn only while it is negotiated" + stage
                            + ("; the challenger ends it by not bidding when the bidding opens" if ch else ""))
    if c.s.fine is not None:
        raise RuleViolation("U-FINE-1", "not now: a Fine is being voted on")
    if c.a.player != ch.challenger:  # type: ignore[attr-defined]
        raise RuleViolation("U-CHAL-1", "only the challenger may withdraw his Challenge")
    c.emit("challenge_withdrawn", "withdraws the Challenge.")
    challenge_outcome(c, 0)


@handles(A.FactVote)
def fact_vote(c: Ctx) -> None:
    a = c.a
    assert isinstance(a, A.FactVote)
    ch = require_challenge(c, "fact_vote")
    if a.player in ch.votes:
        raise RuleViolation("U-FACT-2", f"{a.player} has already voted")
    ch.votes[a.player] = a.applies
    if len(ch.votes) == len(c.s.players):
        yes = sum(ch.votes.values())
        ch.fact_applies = yes > len(ch.votes) - yes
        c.emit("fact_vote", f"The Fact {'applies' if ch.fact_applies else 'does not apply'} ({yes} of {len(ch.votes)}).",
               player="", applies=ch.fact_applies)
        start_bidding(c, ch)


def challenge_turn(c: Ctx) -> Challenge:
    ch = require_challenge(c, "bidding")
    who = ch.order[ch.next_index]
    if c.a.player != who:  # type: ignore[attr-defined]
        raise RuleViolation("U-CHAL-2", f"it is {who}'s turn to bid on the Challenge")
    return ch


@handles(A.ChallengeBid)
def challenge_bid(c: Ctx) -> None:
    s, a = c.s, c.a
    assert isinstance(a, A.ChallengeBid)
    ch = challenge_turn(c)
    opening = not ch.bids and ch.next_index == 0
    option = a.option
    if a.new_option:
        option = len(ch.options)
    elif option >= len(ch.options):
        raise RuleViolation("U-CHAL-2", f"there is no option {option}; open a new one with its words")
    if opening and option != 1:
        raise RuleViolation("U-CHAL-2", "the challenger opens the bidding for his own option")
    if a.new_option_instead is not None:
        if not a.new_option:
            raise RuleViolation("U-CHAL-2", "an option's action comes with the new option's words")
        assert ch.before is not None
        check_instead(Window(statement=ch.statement, before=ch.before), a.new_option_instead)
    pay(s, a.player, a.coins, "that Challenge bid", rule="U-ECO-3")
    if a.new_option:
        ch.options.append(ChallengeOption(text=a.new_option.strip(), cost=a.new_option_cost, opened_by=a.player,
                                          instead=a.new_option_instead))
        ch.totals.append(0)
    ch.totals[option] += a.coins
    ch.bids.append((a.player, option, a.coins))
    ch.passes_in_row = 0
    n, what = coins(a.coins), ch.options[option].text
    c.emit("challenge_bid", c.say(f"bids {n} for “{what}”.", f"puts {n} behind “{what}”.",
                                  f"backs “{what}” with {n}.", f"adds {n} for “{what}”."), a.coins, option=option)
    ch.next_index = (ch.next_index + 1) % len(ch.order)


@handles(A.ChallengePass)
def challenge_pass(c: Ctx) -> None:
    ch = challenge_turn(c)
    if not ch.bids and ch.next_index == 0:
        c.emit("challenge_dropped", "does not bid; the Challenge ends and the statement stands.")
        challenge_outcome(c, 0)
        return
    ch.passes_in_row += 1
    ch.next_index = (ch.next_index + 1) % len(ch.order)
    if ch.passes_in_row >= len(ch.order):
        settle_challenge(c, ch)


def effective_totals(ch: Challenge) -> list[int]:
    """Coins bid in defence of a Fact the statement contradicts count double (U-FACT-2)."""
    totals = list(ch.totals)
    if ch.fact_id is not None and ch.fact_applies is not False:
        totals[1] *= 2
    elif ch.before is not None and ch.before.config.addons is not CORE and len(totals) > 1:
        if _addon_rules.owner_defends_control(ch):
            totals[1] *= 2
    return totals


def settle_challenge(c: Ctx, ch: Challenge) -> None:
    totals = effective_totals(ch)
    top = max(totals)
    tied = [i for i, t in enumerate(totals) if t == top]
    winner = 0 if 0 in tied else tied[0]
    c.emit("challenge_result", f"“{ch.options[winner].text}” wins the Challenge ({top} against "
           f"{', '.join(str(t) for i, t in enumerate(totals) if i != winner) or 'nothing'}).",
           player="", totals=totals, winner=winner)
    challenge_outcome(c, winner)


def challenge_outcome(c: Ctx, winner: int) -> None:
    """Keep the challenged statement, or replace it by the winning option (U-CHAL-4, U-CHAL-1).

    The winning alternative *replaces* the statement (lines 541-543, 553, 570): the game goes
    back to just before the statement, the Challenge bids stay paid, and the alternative's own
    effect is applied as the acting player's (nothing, another action, or the statement redone
    with other words and count). If he cannot pay for it, or it cannot be done, nothing happens
    instead: the statement is withdrawn and refunded.
    """
    s = c.s
    ch = s.challenge
    assert ch is not None
    s.challenge = None
    if winner == 0:
        return
    opt = ch.options[winner]
    base = restored(c, ch)
    effect = option_effect(ch, opt)
    if effect is None:
        c.s = base
        c.emit("statement_withdrawn", f"“{ch.statement.text}” is withdrawn and its {coins(ch.statement.cost)} refunded.",
               -ch.statement.cost, player=ch.statement.actor)
        return
    actor = ch.statement.actor
    try:
        new, events, paid = redo(base, actor, effect)
        if opt.instead is None:
            reprice(new, actor, opt.cost - paid, base)
    except RuleViolation as exc:
        c.s = base
        c.emit("statement_withdrawn", f"“{ch.statement.text}” is withdrawn and its {coins(ch.statement.cost)} "
               f"refunded: “{opt.text}” cannot be done ({exc.reason}).", -ch.statement.cost, player=actor)
        return
    if new.window is not None:
        new.window.allow_challenge = False  # the winning option may not be challenged again (PA 51)
    c.s = new
    c.events.extend(events)
    cost = spent(new, actor) - spent(base, actor)
    c.emit("statement_changed", f"The statement now reads: “{opt.text}” ({coins(cost)} in all).",
           cost - ch.statement.cost, player=actor, replaced=ch.statement.text, cost_now=cost)
    from engine.universalis import addon_challenges  # UA-USEBID-1: the loser's bid pays the change
    addon_challenges.reuse_losers_bid(c, ch, actor, cost)


def spent(s: GameState, name: str) -> int:
    lg = s.player(name).ledger
    return lg.paid - lg.refunds


INSTEAD_TYPES = (
    "propose_tenet", "establish_location", "set_time", "create_component", "introduce_component",
    "exit_component", "declare_absent", "narrate_event", "buy_fact", "add_trait", "remove_trait",
    "restore_trait", "reduce_importance", "restore_importance", "return_component", "end_scene",
    "take_over", "draw_trait", "buy_die", "fade_mini_scene",
)
# where each kind of statement keeps its words, and the count its price buys
WORDS_FIELD = {
    "propose_tenet": "text", "narrate_event": "text", "buy_fact": "text", "add_trait": "text",
    "create_component": "role", "introduce_component": "text", "exit_component": "text",
    "declare_absent": "text", "remove_trait": "text", "restore_trait": "text", "reduce_importance": "text",
    "restore_importance": "text", "return_component": "text", "establish_location": "text", "set_time": "text",
    "end_scene": "text", "draw_trait": "text", "buy_die": "text", "dialog": "line",
}
COUNT_FIELD = {"reduce_importance": "coins", "buy_die": "count"}
MAX_TIMES = 20  # AddTrait.times


def instead_words(instead: dict) -> str:
    for key in ("text", "role", "line"):
        value = instead.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return str(instead.get("type", "another action")).replace("_", " ")


def check_instead(w: Window, instead: dict) -> None:
    """An alternative action must be one a player does on his turn and possible where the statement
    was made (its price aside: bids may change what he holds); else the Challenge is refused."""
    kind = instead.get("type")
    if kind not in INSTEAD_TYPES:
        raise RuleViolation("U-CHAL-1", f"an alternative is something the acting player could have done instead "
                                        f"(one of: {', '.join(INSTEAD_TYPES)}), not {str(kind)[:40]!r}")
    assert w.before is not None
    base = w.before.model_copy(deep=True)
    rich = base.player(w.statement.actor)
    rich.wealth += 10 ** 6  # the price is settled when it wins; here only whether it can be done
    try:
        redo(base, w.statement.actor, instead)
    except RuleViolation as exc:
        raise RuleViolation(exc.rule, f"the alternative cannot be done there: {exc.reason}") from None


def option_effect(ch: Challenge, opt: ChallengeOption) -> dict | None:
    """The action the winning option stands for, or None: nothing happens (U-CHAL-4)."""
    if opt.withdraw:
        return None
    actor = ch.statement.actor
    if opt.instead is not None:
        return {**opt.instead, "player": actor}
    action = dict(ch.statement.action or {})
    if not action:
        return None
    kind = action.get("type")
    words = WORDS_FIELD.get(kind or "")
    if words and opt.text != ch.statement.text:
        action[words] = opt.text
    if kind in COUNT_FIELD:
        if opt.cost <= 0:
            return None
        action[COUNT_FIELD[kind]] = opt.cost
    if kind == "add_trait" and action.get("kind", "plain") == "plain":
        if opt.cost <= 0:
            return None
        action["times"] = min(opt.cost, MAX_TIMES)  # "Haunted x3" repriced to 1 is bought once
    if kind == "answer_dialog":  # the Facts bought in a Dialog reply: the alternative's words, its count
        if opt.cost <= 0:
            action["facts"] = []
        elif opt.text != ch.statement.text:
            action["facts"] = [opt.text]
    if kind == "set_time" and opt.cost == 0 and action.get("when") not in ("after", "concurrent"):
        action["when"] = "after"  # a time that costs nothing is straight after the last scene
    action["player"] = actor
    return action


def redo(base: GameState, actor: str, effect: dict) -> tuple[GameState, list[Event], int]:
    """Apply `effect` as `actor`'s on a copy of `base`: the state, its events, and what it cost him."""
    try:
        action = A.parse_action({**effect, "player": actor})
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first.get("loc", ()))
        raise RuleViolation("U-CHAL-1", f"the alternative is malformed: {where}: {first.get('msg')}") from None
    check_words(action)
    sub = Ctx(s=clone(base), a=action, orig=base)
    HANDLERS[action.type](sub)  # type: ignore[attr-defined]
    paid = sub.s.player(actor).ledger.paid - base.player(actor).ledger.paid
    return sub.s, sub.events, paid


def reprice(s: GameState, actor: str, diff: int, base: GameState) -> None:
    """A reworded statement priced above or below what its redoing cost (an Event's scope, line 970):
    pay the difference, or have the Bank refund it, into the stake first as far as the stake paid
    (U-ECO-4), and never more than the Bank was paid for it (no coin from nowhere, U-ECO-2)."""
    if diff > 0:
        pay(s, actor, diff, "the changed statement")
    elif diff < 0:
        p, q = s.player(actor), base.player(actor)
        to_bank = (p.ledger.paid - p.ledger.paid_players) - (q.ledger.paid - q.ledger.paid_players)
        refund(s, actor, min(-diff, to_bank), to_stake=q.stake - p.stake)


def restored(c: Ctx, ch: Challenge) -> GameState:
    """The game just before the challenged statement, with the Challenge bids still paid (U-CHAL-3)
    and the Fines voted since the statement still paid (U-FINE-1, lines 597-601: the loser pays
    when the table votes; withdrawing the statement does not undo the vote).

    A bidder may have bid coins the statement gave him (framing into the future pays 1 coin to
    each other player, U-FRAME-3); back before the statement he may hold less than his bids, and
    then, like a fine, they take what there is (U-ECO-3, engine choice). Bids are charged first,
    then Fines (engine choice: it only matters when that happens).
    """
    s = c.s
    before = ch.before
    assert before is not None
    new = before.model_copy(deep=True)
    new.seq = s.seq
    new.counters = dict(s.counters)
    owed: dict[str, int] = {}
    for player, _opt, amount in ch.bids:
        owed[player] = owed.get(player, 0) + amount
    for player, amount in owed.items():
        p = new.player(player)
        pay(new, player, min(amount, p.wealth + p.stake), "that Challenge bid", use_bonus=False)
    for player, amount in ch.fines:
        take_fine(new, player, amount)
    return new


# --- fines (U-FINE) -----------------------------------------------------------------------------------
@handles(A.CallFine)
def call_fine(c: Ctx) -> None:
    """Any player may call for a Fine at any time (U-FINE-1, line 1361): in preparation, during a
    bid for a scene, on anyone's turn, during a Challenge. Answering a statement's reaction window,
    it is that player's answer and is voted on when the window closes; otherwise the vote starts
    at once and whatever was pending waits for it."""
    s, a = c.s, c.a
    assert isinstance(a, A.CallFine)
    if a.accused not in s.seat_names:
        raise RuleViolation("U-FINE-1", f"{a.accused[:40]!r} is not a player at this table")
    if a.accused == a.player:
        raise RuleViolation("U-FINE-1", "a player cannot call for a Fine against himself")
    if s.fine is not None:
        raise RuleViolation("U-FINE-1", "not now: a Fine is already being voted on")
    w = s.window
    if (w is not None and s.challenge is None and s.extra.judgment is None and w.allow_fine and a.player != w.statement.actor
            and a.player not in w.answers):
        w.answers[a.player] = a.model_dump()
        c.emit("reaction", "calls for a Fine.")
        if len(w.answers) == len(s.players) - 1:
            resolve_window(c)
        return
    open_fine(c, a.player, a.accused, a.reason)


def open_fine(c: Ctx, accuser: str, accused: str, reason: str) -> None:
    c.s.fine = Fine(accuser=accuser, accused=accused, reason=reason)
    c.emit("fine_called", f"calls for a Fine against {accused}: {reason}", player=accuser)


@handles(A.FineVote)
def fine_vote(c: Ctx) -> None:
    s, a = c.s, c.a
    assert isinstance(a, A.FineVote)
    f = s.fine
    if f is None:
        raise RuleViolation("U-FINE-1", "there is no Fine being voted on")
    if a.player in f.votes:
        raise RuleViolation("U-FINE-1", f"{a.player} has already voted")
    f.votes[a.player] = a.fine
    if len(f.votes) < len(s.players):
        return
    ups = sum(f.votes.values())
    downs = len(f.votes) - ups
    s.fine = None
    if ups > downs:
        paid = take_fine(s, f.accused, ups)
        note_fine(s, f.accused, paid)
        c.emit("fine", f"{f.accused} is fined {coins(paid)} ({ups} up, {downs} down).", paid, player=f.accused)
    elif downs > ups:
        paid = take_fine(s, f.accuser, downs)
        note_fine(s, f.accuser, paid)
        c.emit("fine", f"The accuser {f.accuser} pays {coins(paid)} ({ups} up, {downs} down).", paid, player=f.accuser)
    else:
        c.emit("fine", f"A tie ({ups} up, {downs} down): nobody pays.", player="")


def note_fine(s: GameState, name: str, paid: int) -> None:
    """Remember a Fine paid while a statement may still be withdrawn, so `restored` keeps it paid."""
    if paid <= 0:
        return
    if s.challenge is not None:
        s.challenge.fines.append((name, paid))
    elif s.extra.judgment is not None:  # a Judgment's case is a Challenge settled by a Judge (UA-JUDGE-1)
        s.extra.judgment.case.fines.append((name, paid))
    elif s.window is not None:
        s.window.fines.append((name, paid))


# register the other handler modules
from engine.universalis import complications as _complications  # noqa: E402,F401
from engine.universalis import scene_actions as _scene_actions  # noqa: E402,F401
from engine.universalis import addon_actions as _addon_actions  # noqa: E402,F401
from engine.universalis import addon_own_pools as _addon_own_pools  # noqa: E402,F401
from engine.universalis import addon_rules as _addon_rules  # noqa: E402
from engine.universalis import addon_judgment as _addon_judgment  # noqa: E402
from engine.universalis import addon_open as _addon_open  # noqa: E402
from engine.universalis import addon_alt as _addon_alt  # noqa: E402,F401
from engine.universalis import addon_cards_play as _addon_cards_play  # noqa: E402
from engine.universalis import addon_cards_hand as _addon_cards_hand  # noqa: E402
from engine.universalis import addon_nested as _nest  # noqa: E402
from engine.universalis import addon_nested_order as _nest_order  # noqa: E402,F401

"""Complications, Take Overs and the roll (U-CTRL-2, U-CTRL-3, U-COMP-1..11)."""
from __future__ import annotations

from engine.core.dice import normalize_face
from engine.core.errors import RuleViolation
from engine.universalis import actions as A
from engine.universalis import addon_hooks as hooks
from engine.universalis.addon_cards import card_value
from engine.universalis.addon_complications import edge_pool, is_success, narration_order, pool_coins
from engine.universalis.components import component, trait_ids_drawable
from engine.universalis.ledger import coins, from_bank, pay, require
from engine.universalis.rules import (
    Ctx, blocking, close_mini, finish_turn, handles, next_seat, require_turn, resolve_window, statement,
    window_answer_check,
)
from engine.universalis.state import (
    Complication, Component, Consent, DieChange, GameState, Narration, NarrationSlot, Pool, RollRecord, Statement,
    Trait, Turn,
)


def tied(s: GameState) -> set[str]:
    comp = s.complication
    return set() if comp is None else set(comp.targets) | set(comp.committed)


def touch(c: Ctx, cids: list[str], text: str, fact_id: str | None = None, open_window: bool = True) -> bool:
    """Doing something to another controller's components originates a Complication (U-CTRL-2).

    Returns True when it did: the action's coin is spent on declaring it, and its outcome is
    left to the Complication (the winner's bonus coins buy it). During the narration after a
    roll, components tied to the Complication may be changed freely (U-COMP-10).
    """
    s = c.s
    actor = c.a.player  # type: ignore[attr-defined]
    problem = touch_problem(s, actor, cids)
    if problem is not None:
        raise problem
    targets = [x for x in dict.fromkeys(cids) if s.controller(x) not in (None, actor)]
    if not targets or s.narration is not None:
        return False
    players = list(dict.fromkeys(s.controller(x) for x in targets))
    sources = [x for x in dict.fromkeys(cids) if s.controller(x) == actor]
    originate(c, actor, targets, players, text, fact_id, sources)  # type: ignore[arg-type]
    if open_window:
        statement(c, "complication", text, 1, fact_id=fact_id, components=targets, complication_started=True)
    return True


def touch_problem(s: GameState, actor: str, cids: list[str]) -> RuleViolation | None:
    """Why `actor` may not do something to these components now, or None (what `touch` refuses).

    Served to every caller that offers choices, so a list never holds what the engine refuses:
    another player's component is changed during a roll's narration only if tied to the
    Complication (U-COMP-10), and not at all while one is open (it would start a second, U-COMP-1),
    unless the table plays Nested Complications and the open one's Pools are being built (UA-NEST-1).
    None also where doing it starts a Complication (U-CTRL-2): that is allowed.
    """
    targets = [x for x in dict.fromkeys(cids) if s.controller(x) not in (None, actor)]
    if not targets:
        return None
    if s.narration is not None:
        if all(x in tied(s) or nest.reachable(s, x) for x in targets):  # UA-NEST-1: to one it interrupted
            return None
        return RuleViolation("U-COMP-10", "bonus coins are spent on what is tied to the Complication; "
                                          f"{s.components[targets[0]].label} is not")
    if s.complication is not None and not nest.may_nest(s):  # nested, with the add-on (UA-NEST-1)
        return RuleViolation("U-COMP-1", "a Complication is already open: resolve it before starting another "
                                         f"(doing this to {s.components[targets[0]].label}, controlled by "
                                         f"{s.controller(targets[0])}, would start one)")
    return None


def dialog_problem(s: GameState, player: str, listener: str) -> RuleViolation | None:
    """Why `player` may not open a Dialog with `listener` now, or None (U-ACT-8 with U-COMP-1).

    The other controller may refuse a Dialog, which forces it into a Complication (L477). While one
    is open that would be a second, refused by U-COMP-1 (touch_problem): the Dialog itself is refused
    up front, so the listener keeps his right to refuse and the open Complication is never replaced.
    With Nested Complications the refusal starts a nested one instead (UA-NEST-1).
    """
    other = s.controller(listener)
    if other in (None, player) or s.complication is None or nest.may_nest(s):
        return None
    return RuleViolation("U-COMP-1", f"a Complication is already open: a Dialog with "
                                     f"{s.components[listener].label} becomes a Complication if {other} "
                                     "refuses it (U-ACT-8), and a second one cannot start until this one is "
                                     "resolved; speak for your own characters, or open the Dialog after it")


def originate(c: Ctx, originator: str, targets: list[str], players: list[str], source: str,
              fact_id: str | None, sources: list[str] | None = None) -> None:
    """Start a Complication: one Pool for the Originator, one per Target player (U-COMP-1, U-COMP-2).

    Its Targets and its source (the Originator's components whose action started it) are
    committed to it until it ends (U-COMP-4, lines 1044-1046).
    """
    s = c.s
    sc = s.scene()
    committed = list(dict.fromkeys(list(targets) + [x for x in (sources or []) if x not in targets]))
    nest.suspend(s)  # UA-NEST-1: an open one waits under the new one
    comp = Complication(id=nest.next_id(s), originator=originator, source=source,
                        source_fact=fact_id, targets=list(targets), scene=sc.number if sc else 0,
                        committed=committed)
    comp.pools.append(Pool(key="C", owner=originator))
    for p in players:
        comp.pools.append(Pool(key=p, owner=p))
    own.add_pools(s, comp)  # UA-OWN-1: every other player's own Pool
    indiv.add_pools(s, comp)  # UA-MT-5: a Complication Pool facing each further Target Pool
    s.complication = comp
    names = ", ".join(s.components[t].label for t in targets) or "the narrator's Event"
    c.emit("complication", f"A Complication begins: {source} (Targets: {names}; against {', '.join(players)}).",
           player=originator, targets=targets, target_players=players)
    nest.started(c, comp)


def add_target(c: Ctx, cid: str, player: str) -> None:
    comp = c.s.complication
    assert comp is not None
    if cid not in comp.targets:
        comp.targets.append(cid)
        comp.committed.append(cid)
    if all(p.key != player for p in comp.pools) and player != comp.originator:
        comp.pools.append(Pool(key=player, owner=player))
        indiv.add_pools(c.s, comp)  # UA-MT-5


# --- take overs (U-CTRL-3, U-COMP-1b, U-COMP-4) ------------------------------------------------------
def take_over_problem(s: GameState, who: str, cid: str) -> RuleViolation | None:
    sc = s.scene()
    if sc is None or s.phase != "scene":
        return RuleViolation("U-CTRL-3", "only a component in the current scene can be taken over")
    if cid not in s.components:
        return RuleViolation("U-CTRL-3", f"there is no component {cid!r} in this game")
    label = s.components[cid].label
    if cid not in sc.present and cid != sc.location:
        return RuleViolation("U-CTRL-3", f"{label} is not in the current scene")
    holder = sc.control.get(cid)
    if holder is None or holder == who:
        return RuleViolation("U-CTRL-3", f"{label} is not controlled by another player")
    if s.complication is not None and cid in tied(s):
        return RuleViolation("U-COMP-4", f"{label} is committed to the open Complication until it ends")
    if s.suspended and nest.held(s, cid) is not None:  # UA-NEST-1: committed to a suspended one
        return nest.held_problem(s, cid, "Take Over")
    try:
        hooks.pc_take_over(s, who, cid)
    except RuleViolation as exc:
        return exc
    owner = s.components[cid].owner
    if owner is not None and owner in sc.present:
        return RuleViolation("U-CTRL-3", f"{label} belongs to {s.components[owner].label}; take over the owner")
    cost = _addon_rules.takeover_cost(s, who, cid) if s.config.addons is not CORE else 1
    if s.player(who).wealth + s.player(who).stake < cost:
        return RuleViolation("U-ECO-3", f"{who} holds no coin; a Take Over costs 1")
    return None


def take_over_effect(c: Ctx, who: str, cid: str, st: Statement | None, royalty: bool = False) -> int:
    s = c.s
    sc = s.scene()
    assert sc is not None
    if s.config.addons is CORE and not royalty:
        paid = 1
        pay(s, who, 1, "a Take Over")
    else:
        paid = _addon_rules.pay_takeover(s, who, cid, royalty)
    from engine.universalis.components import possessions
    for x in [cid] + [p.id for p in possessions(s, cid)]:
        if x in sc.present or x == sc.location:
            sc.control[x] = who
    royal = " paying Royalty" if royalty else ""
    m = s.components[cid].mention
    c.emit("take_over", c.say(f"takes over {m}{royal}.", f"takes control of {m}{royal}.",
                              f"takes {m} in hand{royal}.", f"now speaks for {m}{royal}."),
           paid + (1 if royalty else 0), player=who, component=cid)
    if st is not None and st.is_event and cid in st.components and who != st.actor:
        if s.complication is None:
            sources = [x for x in st.components if x != cid and s.controller(x) == st.actor]
            originate(c, st.actor, [cid], [who], st.text, st.fact_id, sources)
        elif st.complication_started:
            add_target(c, cid, who)
    return paid


@handles(A.TakeOver)
def take_over(c: Ctx) -> None:
    s, a = c.s, c.a
    assert isinstance(a, A.TakeOver)
    problem = take_over_problem(s, a.player, a.component)
    if problem is not None:
        raise problem
    if s.window is not None and s.challenge is None and s.fine is None:
        if a.royalty:
            raise RuleViolation("UA-ROY-1", "Royalty: pay the Royalty Take Over on your own turn")
        w = window_answer_check(c)
        w.answers[a.player] = a.model_dump()
        c.emit("reaction", "declares a Take Over.")
        if len(w.answers) == len(s.players) - 1:
            resolve_window(c)
        return
    require_turn(c)
    paid = take_over_effect(c, a.player, a.component, None, a.royalty)
    # a Take Over on one's own turn may be challenged like anything a player does (U-CHAL-1, line 521)
    label = s.components[a.component].label
    statement(c, "take_over", f"{a.player} takes over {label}.", paid, components=[a.component], lapses=True)
    if a.royalty and s.window is not None:  # Royalty: "without fear of Challenge" (UA-ROY-2, L2088)
        s.window.allow_challenge = False


# --- building Pools (U-COMP-2, U-COMP-3, U-COMP-5) -------------------------------------------------------
def open_complication(c: Ctx) -> Complication:
    comp = c.s.complication
    if comp is None:
        raise RuleViolation("U-COMP-2", "there is no open Complication")
    return comp


def pool_of(comp: Complication, key: str) -> Pool:
    try:
        return comp.pool(key)
    except KeyError:
        keys = ", ".join(p.key for p in comp.pools)
        raise RuleViolation("U-COMP-2", f"there is no Pool {key!r}; the Pools are {keys}") from None


@handles(A.DrawTrait)
def draw_trait(c: Ctx) -> None:
    s, a = c.s, c.a
    assert isinstance(a, A.DrawTrait)
    require_turn(c)
    comp = open_complication(c)
    holder = component(s, a.component, "U-COMP-3")
    problem = draw_problem(s, holder, a.trait)
    if problem is not None:
        raise problem
    trait, key = {t.id: (t, key) for t, key in trait_ids_drawable(s, holder)}[a.trait]
    pool = pool_of(comp, a.pool)
    key_to, delta = hooks.redirect_removal(s, comp, pool.key, -1 if a.remove else 1)  # UA-ADD-1
    pool = pool_of(comp, key_to)
    if delta < 0 and pool.dice < 1:
        raise RuleViolation("U-COMP-3", f"{pool_name(pool)} holds no die to remove")
    pool.dice += delta
    comp.drawn.append(key)
    if holder.id not in comp.committed:
        comp.committed.append(holder.id)
    why = a.text or trait.text
    comp.changes.append(DieChange(pool=pool.key, delta=delta, by=a.player, how="draw", why=why,
                                  trait=trait.id, component=holder.id))
    sign = "removes a die from" if delta < 0 else "adds a die to"
    words = f"draws on {holder.mention}'s “{trait.text}” and {sign} {pool_name(pool)}: {why}"
    c.emit("draw", words, trait=trait.id, component=holder.id, pool=pool.key)
    # the use of a Trait must be justified and may be challenged (U-CHAL-1, lines 1080, 1189)
    statement(c, "draw", words, 0, components=[holder.id], lapses=True)


def draw_problem(s: GameState, holder: Component, trait_id: str) -> RuleViolation | None:
    """Why `trait_id` cannot be drawn on through `holder` now, or None (what `draw_trait` refuses).

    U-COMP-3: a standing Trait of a component in the scene (or of its Master, U-TRAIT-4), once
    per Complication; UA-ENIGMA-2: not a secret Trait.
    """
    comp, sc = s.complication, s.scene()
    if comp is None or sc is None:
        return RuleViolation("U-COMP-2", "there is no open Complication")
    if holder.id not in sc.present and holder.id != sc.location:
        return RuleViolation("U-COMP-3", f"{holder.label} is not in the scene; only components in it can be drawn on")
    options = {t.id: (t, key) for t, key in trait_ids_drawable(s, holder)}
    if trait_id not in options:
        return RuleViolation("U-COMP-3", f"{holder.label} has no standing Trait {trait_id!r} to draw on")
    trait, key = options[trait_id]
    if trait.secret:
        try:
            _addon_rules.check_draw(s, trait)
        except RuleViolation as exc:
            return exc
    if key in comp.drawn:
        return RuleViolation("U-COMP-3", f"“{trait.text}” of {holder.label} was already drawn on in this Complication")
    return None


def drawable(s: GameState) -> list[tuple[str, Trait]]:
    """(component id, Trait) for every draw the engine accepts now, the scene's location first.

    Why: the app's form and the model's schema offer exactly these (draw_problem decides).
    """
    sc = s.scene()
    if s.complication is None or sc is None:
        return []
    out: list[tuple[str, Trait]] = []
    for cid in dict.fromkeys([*([sc.location] if sc.location else []), *sc.present]):
        holder = s.components.get(cid)
        if holder is not None and not holder.eliminated:
            out += [(cid, t) for t, _ in trait_ids_drawable(s, holder) if draw_problem(s, holder, t.id) is None]
    return out


def dice(n: int) -> str:
    return f"{n} die" if n == 1 else f"{n} dice"


def pool_name(pool: Pool) -> str:
    """How a player names a Pool: "the Complication Pool", "Ann's Pool"."""
    if pool.key.startswith(indiv.PREFIX):  # UA-MT-5: a Complication Pool facing one Target Pool
        return f"the Complication Pool facing {pool.key[len(indiv.PREFIX):]}"
    return "the Complication Pool" if pool.key == "C" else f"{pool.key}'s Pool"


@handles(A.BuyDie)
def buy_die(c: Ctx) -> None:
    s, a = c.s, c.a
    assert isinstance(a, A.BuyDie)
    require_turn(c)
    comp = open_complication(c)
    pool = pool_of(comp, a.pool)
    key_to, delta = hooks.redirect_removal(s, comp, pool.key, -a.count if a.remove else a.count)  # UA-ADD-1
    pool = pool_of(comp, key_to)
    removing = delta < 0
    if removing and pool.dice < a.count:
        raise RuleViolation("U-COMP-3", f"{pool_name(pool)} holds {dice(pool.dice)}; {a.count} cannot be removed")
    pay(s, a.player, a.count, dice(a.count))
    pool.dice += delta
    why = a.text or "bought"
    comp.changes.append(DieChange(pool=pool.key, delta=delta, by=a.player, how="buy", why=why))
    verb = "removes" if removing else "buys"
    words = f"{verb} {a.count} {'die' if a.count == 1 else 'dice'} {'from' if removing else 'for'} {pool_name(pool)}: {why}"
    c.emit("buy_die", words, a.count, pool=pool.key)
    # bought dice must be justified and may be challenged (U-CHAL-1, line 1088)
    statement(c, "buy_die", words, a.count, lapses=True)


# --- calling for resolution (U-COMP-6) -----------------------------------------------------------
@handles(A.CallResolution)
def call_resolution(c: Ctx) -> None:
    s, a = c.s, c.a
    require_turn(c)
    comp = open_complication(c)
    s.consent = Consent(caller=a.player)  # type: ignore[attr-defined]
    comp.called_by = a.player  # type: ignore[attr-defined]
    c.emit("call_resolution", c.say("calls for resolution.", "is ready to roll the dice.", "calls for the roll.",
                                    "asks the table to roll.", "wants the dice to decide it now."))


@handles(A.AnswerResolution)
def answer_resolution(c: Ctx) -> None:
    s, a = c.s, c.a
    assert isinstance(a, A.AnswerResolution)
    con = s.consent
    if con is None or s.window is not None or s.challenge is not None or s.fine is not None:
        raise RuleViolation("U-COMP-6", "nobody has called for resolution")
    if a.player == con.caller:
        raise RuleViolation("U-COMP-6", "the caller does not answer his own call")
    if a.player in con.answers:
        raise RuleViolation("U-COMP-6", f"{a.player} has already answered")
    con.answers[a.player] = a.agree
    if not a.agree:
        s.consent = None
        c.emit("resolution_declined", c.say("declines: the Complication stays open and play goes on.",
                                            "is not ready to roll: the Complication stays open.",
                                            "says not yet; play goes on with the Complication open."))
        assert s.turn is not None
        finish_turn(c, next_seat(s, con.caller))
        return
    if len(con.answers) == len(s.players) - 1:
        s.consent = None
        comp = s.complication
        assert comp is not None and s.turn is not None
        comp.turn_player_at_call = s.turn.player
        s.roll_pending = True
        c.emit("resolution_agreed", "Everyone agrees: all Pools roll.", player="")


# --- the roll (U-COMP-7, U-COMP-8, U-COMP-9) ------------------------------------------------------------
def roll_request(s: GameState) -> dict[str, int]:
    """How many dice each Pool rolls now (normal dice, then Edge dice)."""
    comp = s.complication
    if comp is None or not s.roll_pending:
        return {}
    c_keys, t_keys = own.side_keys(s, comp)
    if comp.split is not None:  # UA-MT-4: a tied match of a Split Allocation rolls alone
        return split.roll_request(s, comp) or {}
    match = indep.current_match(s, comp, t_keys)
    if match is not None:  # UA-MT-3: the Complication side against one Target Pool (UA-MT-5: its own)
        return {k: comp.pool(k).size for k in indiv.facing(s, comp, match, c_keys) + [match]}
    return ext.request(comp) or {p.key: p.size for p in comp.pools}  # UA-EXT-3: this stage's dice


@handles(A.Roll)
def roll(c: Ctx) -> None:
    s, a = c.s, c.a
    assert isinstance(a, A.Roll)
    if not s.roll_pending or s.complication is None:
        raise RuleViolation("U-COMP-7", "no Pools are waiting to be rolled")
    if s.window is not None or s.challenge is not None or s.fine is not None:
        b = blocking(s)
        raise RuleViolation(b[0], f"not now: {b[1]}")  # type: ignore[index]
    comp = s.complication
    own.check_declared(s, comp)  # UA-OWN-1: every Pool with dice has taken a side
    ext.check_roll(s)  # UA-EXT-1: nobody may still extend it
    wanted = roll_request(s)
    if set(a.faces) != set(wanted):
        raise RuleViolation("U-COMP-7", f"dice are needed for the Pools {sorted(wanted)}, got {sorted(a.faces)}")
    faces: dict[str, tuple[int, ...]] = {}
    for key, n in wanted.items():
        got = a.faces[key]
        if len(got) != n:
            raise RuleViolation("U-COMP-7", f"the Pool {key} rolls {n} dice, {len(got)} faces were given")
        if hooks.die(s) != "d10":  # UA-SIX-3: faces read for the die in play
            faces[key] = tuple(hooks.face(s, f) for f in got)
            continue
        try:
            faces[key] = tuple(normalize_face(int(f)) for f in got)
        except ValueError as exc:
            raise RuleViolation("U-COMP-7", f"the Pool {key}: {exc}") from None
    succ = {k: hooks.successes(s, v) for k, v in faces.items()}  # UA-CARDS-4: Jacks cancel, Kings add
    comp.rolls.append(RollRecord(faces=faces, edge={p.key: p.edge for p in comp.pools}, successes=succ))
    # the sides: C against every Target Pool (core); declared Pools (UA-OWN-1)
    c_keys, t_keys = ext.stage_sides(comp, *own.side_keys(s, comp))  # UA-EXT-3: the Pools of this stage
    sides = split.form(s, c_keys, t_keys)
    if sides is not None:  # UA-MT-4: the Originator (mirrored: the one Target) allocates; a tied match rolls alone
        return split.rolled(c, comp, faces, succ, *sides)
    match = indep.current_match(s, comp, t_keys)
    if match is not None:  # UA-MT-3: this match is the Complication side against one Target Pool
        t_keys = [match]
        c_keys = indiv.facing(s, comp, match, c_keys)  # UA-MT-5: the Pool facing it
    c_succ = sum(succ[k] for k in c_keys)
    # the Target Pools that count: all (core, Standard); the worst or the best one (UA-MT-6/7)
    verdict = hooks.judge(s, comp, c_succ, succ, t_keys, match)
    target_keys, t_succ = list(verdict.compared), verdict.successes
    shown = "; ".join(f"{k}: {' '.join(str(f) for f in v) or '-'}" for k, v in faces.items())
    tie_to_c = verdict.result == "tie" and hooks.tie_to_complication(s, t_keys)
    note = " A tie goes to the Complication at this table (UA-MT-8)." if tie_to_c else ""
    c.emit("roll", f"Roll: {shown}. Successes: Complication {c_succ}, Targets {t_succ}.{note}", player="",
           faces={k: list(v) for k, v in faces.items()}, successes=succ)
    if verdict.result == "tie" and not tie_to_c:
        award_edge(c, comp, faces, succ, target_keys, c_keys)
        return
    s.roll_pending = False
    comp.winner_side = "T" if verdict.result == "won" else "C"
    start_narration(c, comp, faces)


def success_sum(v: tuple[int, ...], die: str = "d10") -> int:
    return sum(f for f in v if is_success(f, die))


def award_edge(c: Ctx, comp: Complication, faces: dict[str, tuple[int, ...]], succ: dict[str, int],
               target_keys: list[str], c_keys: list[str] | None = None) -> None:
    """A tie on Successes: the higher sum of Success dice gets an Edge die; equal sums, both (U-COMP-8)."""
    s = c.s
    c_keys = c_keys or ["C"]
    c_sum = sum(success_sum(faces[k], hooks.die(s)) for k in c_keys)
    t_sum = sum(success_sum(faces[k], hooks.die(s)) for k in target_keys)
    owners = {k: comp.pool(k).owner for k in [*c_keys, *target_keys]}
    gets = []
    if c_sum >= t_sum:  # the Complication Pool first on its own side (UA-OWN-1's declared Pools after it)
        c_best = edge_pool({k: succ[k] for k in c_keys}, owners, s.seat_names, comp.originator, ahead="C")
        comp.pool(c_best).edge += 1
        gets.append(c_best)
    if t_sum >= c_sum and target_keys:  # UA-MT-2: the Target Pool with most Successes, then nearest the left
        best = edge_pool({k: succ[k] for k in target_keys}, owners, s.seat_names, comp.originator)
        comp.pool(best).edge += 1
        gets.append(best)
    names = " and ".join(pool_name(comp.pool(k)) for k in gets)
    c.emit("edge", f"A tie. Sums of Successes: Complication {c_sum}, Targets {t_sum}: an Edge die for {names}. "
           "Every Pool rolls again.", player="", gets=gets)


def bonus_for(pool: Pool, faces: tuple[int, ...], won: bool, die: str = "d10", face_gimmick: bool = False) -> int:
    """U-COMP-9: winners earn their Success dice plus failed Edge dice; losers 1 per die plus Edge
    values (UA-SIX-2: the same on a d6, a failed Edge die adding its face; UA-CDICE-5: a face card's
    value is 10; UA-CARDS-4: a Queen is 1 free coin, a King and a Jack earn nothing)."""
    if face_gimmick:
        return pool_coins(faces, pool.dice, won, "cards", True)
    if die == "cards":
        faces = tuple(card_value(f) for f in faces)
    return pool_coins(faces, pool.dice, won, die)  # type: ignore[arg-type]


def start_narration(c: Ctx, comp: Complication, faces: dict[str, tuple[int, ...]]) -> None:
    s = c.s
    slots = []
    for p in comp.pools:
        if p.key not in faces:  # UA-MT-3: a Target Pool whose match is not this one
            continue
        won = own.side_of(s, comp, p) == comp.winner_side
        slots.append(NarrationSlot(pool=p.key, player=p.owner, coins=bonus_for(p, faces[p.key], won, hooks.die(s),
                                                                            hooks.face_gimmick(s)), won=won))
    s.narration = Narration(slots=slots, resume_player=comp.turn_player_at_call or comp.originator)
    side = "The Complication wins" if comp.winner_side == "C" else "The Targets win"
    c_keys, t_keys = own.side_keys(s, comp)
    match = indep.current_match(s, comp, t_keys)
    if match is not None:
        side = f"Against {pool_name(comp.pool(match))}: " + side[0].lower() + side[1:]
    side = ext.label(comp, side)  # UA-EXT-4: "Stage 2 of 3: ..."
    earned = ", ".join(f"{sl.player} {sl.coins}" for sl in slots)
    c.emit("complication_result", f"{side}. Bonus coins: {earned}.", player="",
           winner=comp.winner_side, bonus={sl.pool: sl.coins for sl in slots})
    advance_narration(c)


def advance_narration(c: Ctx) -> None:
    """Winners narrate from most to fewest coins, then losers by coins left, equal coins clockwise from
    the Originator (U-COMP-11, UA-MT-2 L2332: `narration_order`, taken afresh as cancelled coins change it)."""
    s = c.s
    nar = s.narration
    comp = s.complication
    assert nar is not None and comp is not None
    left = [i for i, sl in enumerate(nar.slots) if not sl.done]
    if left:
        i = narration_order({i: nar.slots[i].coins for i in left}, {i: nar.slots[i].won for i in left},
                            {i: nar.slots[i].player for i in left}, s.seat_names, comp.originator)[0]
        if nar.slots[i].coins == 0:
            nar.slots[i].done = True
            advance_narration(c)
            return
        nar.current = i
        sl = nar.slots[i]
        c.emit("narration_turn", f"{sl.player} narrates with {coins(sl.coins)} of bonus.", player=sl.player)
        return
    finish_complication(c)


def finish_complication(c: Ctx) -> None:
    s = c.s
    comp = s.complication
    nar = s.narration
    assert comp is not None and nar is not None
    c_keys, t_keys = own.side_keys(s, comp)
    match = indep.current_match(s, comp, t_keys)
    if match is not None and indep.next_match(s, comp, match, c_keys, t_keys) is not None:
        s.narration = None  # UA-MT-3: the next Target Pool's match; the roll was agreed for all of them
        s.roll_pending = True
        nxt = indep.current_match(s, comp, t_keys)
        c.emit("next_match", f"Next match: the Complication side rolls again, against {pool_name(comp.pool(nxt))}.",
               player="", pool=nxt)
        return
    if ext.next_stage(c):  # UA-EXT-4: the next pair of sub-pools rolls
        return
    s.complication = None
    s.narration = None
    s.complications_resolved += 1
    c.emit("complication_end", "The Complication is over; play resumes.", player="")
    if nest.resume(c, nar.resume_player):  # UA-NEST-1: the Complication it interrupted is active again
        return
    if s.close_mini_after_complication and s.turn is not None and s.turn.mini_scene is not None:
        close_mini(c)
        s.turn = Turn(player=nar.resume_player)
        c.emit("turn", f"{nar.resume_player}'s turn.", player=nar.resume_player)
    elif s.turn is not None:
        s.turn.player = nar.resume_player


def require_narrator(c: Ctx) -> NarrationSlot:
    s = c.s
    b = blocking(s)
    if b:
        raise RuleViolation(b[0], f"not now: {b[1]}")
    if s.narration is None:
        raise RuleViolation("U-COMP-11", "nobody is narrating bonus coins now")
    sl = s.narration.slots[s.narration.current]
    if c.a.player != sl.player:  # type: ignore[attr-defined]
        raise RuleViolation("U-COMP-11", f"it is {sl.player}'s part of the narration")
    return sl


@handles(A.CancelBonus)
def cancel_bonus(c: Ctx) -> None:
    s, a = c.s, c.a
    assert isinstance(a, A.CancelBonus)
    sl = require_narrator(c)
    if not sl.won:
        raise RuleViolation("U-COMP-10", "only a winner may cancel bonus coins")
    assert s.narration is not None
    target = next((x for x in s.narration.slots if x.pool == a.pool), None)
    if target is None or target.won or target.done:
        raise RuleViolation("U-COMP-10", f"{a.pool!r} is not a losing Pool still to narrate")
    if a.coins > sl.coins:
        raise RuleViolation("U-ECO-3", f"{a.player} has {coins(sl.coins)} of bonus; cancelling {a.coins} costs {a.coins}")
    if a.coins > target.coins:
        raise RuleViolation("U-COMP-10", f"{target.player} has only {coins(target.coins)} of bonus to cancel")
    pay(s, a.player, a.coins, "cancelling bonus coins")
    target.coins -= a.coins
    n, who = coins(a.coins), target.player
    c.emit("cancel_bonus", c.say(f"spends {n} to cancel as many of {who}'s bonus coins.",
                                 f"pays {n} to take as many bonus coins away from {who}.",
                                 f"cancels {n} of {who}'s bonus at a cost of as many.",
                                 f"gives up {n} of bonus to cut {who}'s by as much."), a.coins,
           pool=a.pool)


@handles(A.EndNarration)
def end_narration(c: Ctx) -> None:
    s = c.s
    sl = require_narrator(c)
    kept = sl.coins
    sl.coins = 0
    sl.done = True
    from_bank(s.player(sl.player), s, kept, "bonus")
    k = coins(kept)
    words = c.say(f"keeps {k} of bonus as wealth.", f"puts {k} of bonus away for later.",
                  f"saves {k} of bonus for another day.", f"banks the remaining {k} of bonus.",
                  f"holds on to {k} of bonus.") if kept else \
        c.say("ends the narration.", "has said all there is to say.", "is done narrating.", "leaves it there.")
    c.emit("end_narration", words, kept=kept)
    advance_narration(c)


from engine.universalis import addon_rules as _addon_rules  # noqa: E402
from engine.universalis import addon_own_pools as own  # noqa: E402
from engine.universalis import addon_independent as indep  # noqa: E402
from engine.universalis import addon_individual as indiv  # noqa: E402
from engine.universalis import addon_split as split  # noqa: E402
from engine.universalis import addon_extended as ext  # noqa: E402
from engine.universalis import addon_nested as nest  # noqa: E402
from engine.universalis.addons import CORE  # noqa: E402

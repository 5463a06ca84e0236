"""Where the add-ons touch the core handlers: one small function per hook.

Why a module of hooks: the core handlers (scene_actions.py, complications.py) call these at one
line each, and every hook returns at once when its add-on is off, so a game without add-ons
plays exactly as before (same seed, same log). The rules themselves live in addon_pcs.py,
addon_scenes.py and addon_complications.py.
"""
from __future__ import annotations

from engine.core.errors import RuleViolation
from engine.universalis.addon_nested import freeze_note, freeze_open
from engine.universalis.addon_complications import DieKind, Verdict, is_success, only_added, read_face, refuse, verdicts
from engine.universalis.addon_pcs import PC, PROT, alteration_check, reduce_check, take_over_check
from engine.universalis.addon_scenes import CLIMACTIC, PLOT_POOL_COST, freeze_check
from engine.universalis.addons import Addons
from engine.universalis.state import Complication, Component, GameState, Scene

DICE_ONLY = "Dice Only Added"


def opts(s: GameState) -> Addons:
    return s.config.addons


# --- dice (UA-SIX-*) ----------------------------------------------------------------------------
def die(s: GameState) -> DieKind:
    """The die in use: the table's (d10, d6), or cards with Jacks, Queens and Kings kept (UA-CDICE-5: Cards
    instead of Dice with face cards, whose rolls read Ace to King)."""
    a = opts(s)
    if (a.cards_with_face_cards and a.currency in ("cards_hand", "cards_stack")) or face_gimmick(s):
        return "cards"
    return a.die  # type: ignore[return-value]


def face_gimmick(s: GameState) -> bool:
    """UA-CARDS-4: Cards as Coins with face cards kept (52-card decks, L2052)."""
    a = opts(s)
    return a.currency == "cards_bank" and a.face_card_gimmick is not None


def successes(s: GameState, faces) -> int:
    """A Pool's Successes that decide the winner: Ace to 5 (U-COMP-7); with Cards as Coins' face cards kept
    each Jack cancels one and each King adds one (UA-CARDS-4, L2052 "for purposes of determining the winner")."""
    if face_gimmick(s):
        from engine.universalis.addon_complications import score
        return score(faces, "cards", True).successes
    return sum(1 for f in faces if success(s, f))


def face(s: GameState, f: int) -> int:
    """A face handed in for a roll, read for the die in play (d10: 0 is 10; d6: 1-6, UA-SIX-3)."""
    return read_face(f, die(s))


def success(s: GameState, f: int) -> bool:
    return is_success(f, die(s))


# --- Multiple Targets (UA-MT-2..7) ----------------------------------------------------------
def judge(s: GameState, comp: Complication, c_succ: int, succ: dict[str, int], t_keys: list[str],
          match: str | None = None) -> Verdict:
    """The roll's result through the tested `verdicts` (§2.1), one implementation for the table's method:
    Standard (the core rule: every Target Pool summed), All or None / Best Efforts (UA-MT-6/7, L2372,
    L2380: only the worst or best Target Pool, equal ones nearest the Originator's left), or one match of
    Independent / Individual (UA-MT-3/5: `match` against this roll of the Complication side). Every Target
    Pool shares the result; a tie is a core tie between the Complication and the compared Pools (U-COMP-8)."""
    mode = opts(s).multi_target_mode
    if not t_keys:  # no Pool on the Targets' side (an Obstacle on a statement with no Target, UA-OWN-1's sides)
        return Verdict("", "lost" if c_succ else "tie", c_succ)  # the Complication needs one Success to win
    if match is not None:
        return verdicts(mode, c_succ, {match: succ[match]}, {match: c_succ})[0]
    if mode not in ("all_or_none", "best_efforts"):
        mode = "standard"  # Split Allocation's one Target Pool, or an Extended stage, sums as the core rule
    from engine.core.seats import seats_left_of
    order = seats_left_of(s.seat_names, comp.originator)
    rank = {k: order.index(comp.pool(k).owner) for k in t_keys}
    return verdicts(mode, c_succ, {k: succ[k] for k in t_keys}, rank=rank)[0]


def tie_to_complication(s: GameState, t_keys: list[str]) -> bool:
    """UA-MT-8: under All or None or Best Efforts with two Target Pools or more, a table that chose
    `worst_best_tie = "complication"` gives a tie to the Complication side (no Edge die). The book
    is silent on ties (L2372-2384) and invites variations (L2326); the default is the core tie."""
    a = opts(s)
    return (a.worst_best_tie == "complication" and a.multi_target_mode in ("all_or_none", "best_efforts")
            and len(t_keys) >= 2)


# --- Dice Only Added (UA-ADD-1) ----------------------------------------------------------------
def opposing_pool(comp: Complication, key: str) -> str:
    """The Pool opposing `key`: the Complication Pool for a Target Pool; for the Complication Pool
    the first Target Pool (engine choice: the book says only "an opposing pool", L2312)."""
    if key != "C":
        return "C"
    targets = [p.key for p in comp.pools if p.key != "C"]
    return targets[0] if targets else "C"


def redirect_removal(s: GameState, comp: Complication, pool: str, delta: int) -> tuple[str, int]:
    """UA-ADD-1: with Dice Only Added a die that would come off `pool` goes onto the opposing Pool."""
    if opts(s).allow_dice_subtraction or delta >= 0:
        return pool, delta
    opposing = opposing_pool(comp, pool)
    if opts(s).multi_target_mode == "individual" and len(comp.pools) > 2:  # UA-MT-5: the Pool across its match
        from engine.universalis.addon_individual import paired
        opposing = paired(s, comp, pool)
    if opts(s).pool_per_participant:  # UA-OWN-1: a declared Pool's opposing side is the other one
        from engine.universalis.addon_own_pools import side_keys, side_of
        side = side_of(s, comp, comp.pool(pool))
        c_keys, t_keys = side_keys(s, comp)
        others = t_keys if side == "C" else c_keys if side == "T" else []
        opposing = others[0] if others else opposing
    return only_added(pool, delta, opposing)


# --- No New Traits in Complications (UA-FREEZE-*) ---------------------------------------------
def climactic(s: GameState) -> bool:
    """A scene is Climactic when its framer bought the Trait "Climactic Scene" for it (on its location, L2230)."""
    sc = s.scene()
    if sc is None or sc.location is None:
        return False
    loc = s.components.get(sc.location)
    return loc is not None and any(t.text.strip().casefold() == CLIMACTIC.casefold() and t.by == sc.framer
                                   for t in loc.live_traits())


def trait_freeze(s: GameState, what: str, creating: bool = False) -> None:
    """UA-FREEZE-1/2: no Trait bought from Origination until the dice are tallied (the narration
    after the roll is past the tally); creating a Component too, by the digest's reading."""
    a = opts(s)
    if a.complication_trait_freeze == "off" or (creating and not a.freeze_bars_creation):
        return
    open_ = freeze_open(s, a.freeze_scope == "own")  # UA-NEST-1: an outer one still open keeps the ban
    what = freeze_note(s, what)
    freeze_check(a.complication_trait_freeze, open_, climactic(s), what)  # type: ignore[arg-type]


# --- Player Characters (UA-PC-*, UA-PROT-*) ---------------------------------------------------
def pc_owner(s: GameState, cid: str) -> str | None:
    return s.addon.pcs.get(cid)


def with_pc_bonus(s: GameState, cid: str) -> bool:
    """Spending Coins won in a Complication the PC took part in (its bonus narration)."""
    comp = s.complication
    return s.narration is not None and comp is not None and (cid in comp.targets or cid in comp.committed)


def pc_guard(s: GameState, actor: str, comp: Component) -> None:
    """UA-PC-3: only the owner alters or Introduces his PC, except with Coins won in a Complication
    it took part in."""
    owner = pc_owner(s, comp.id)
    if owner is None or owner == actor:
        return
    alteration_check(owner, actor, comp.label, with_pc_bonus(s, comp.id))


def pc_entry_scene(s: GameState, actor: str, comp: Component, sc: Scene) -> Scene:
    """UA-PC-3 (L2106 "frame a Mini-Scene in which the PC is involved in a relevant Complication and use Coins
    won in the Complication to Introduce the PC into the main scene"): another player spending those Coins in
    the mini scene, where the PC already is, Introduces it into the main scene; else the scene in play."""
    owner = pc_owner(s, comp.id)
    if owner is None or owner == actor or not sc.mini or comp.id not in sc.present or not with_pc_bonus(s, comp.id):
        return sc
    main = s.scenes[s.current_scene - 1] if s.current_scene else None
    if main is None or main.ended or main.location is None or comp.id in main.present or comp.id == main.location:
        return sc
    return main


def pc_introduce_guard(s: GameState, actor: str, comp: Component, scene_no: int) -> None:
    """UA-PC-3 (L2104): a PC is Introduced by another player only with its owner's agreement for this scene
    (used up by this Introduction), or with Coins won in a Complication it took part in (L2106)."""
    owner = pc_owner(s, comp.id)
    if owner is None or owner == actor:
        return
    if s.addon.welcome.get(comp.id) == scene_no:
        del s.addon.welcome[comp.id]
        return
    if not with_pc_bonus(s, comp.id):
        raise refuse("UA-PC-3", PC, f"{comp.label} is {owner}'s Player Character: it is Introduced into a scene only "
                                    f"with {owner}'s agreement (agree_introduction), or with Coins won in a "
                                    "Complication it took part in, e.g. in a Mini-Scene (L2104-2106)")


def pc_take_over(s: GameState, who: str, cid: str) -> None:
    """UA-PC-2: no Take Overs of a Player Character."""
    owner = pc_owner(s, cid)
    if owner is not None:
        take_over_check(owner, who, s.components[cid].label)


def pc_controller(s: GameState, cid: str, player: str) -> str:
    """UA-PC-2: a PC is only ever Controlled by its owner, whoever Introduced it."""
    return pc_owner(s, cid) or player


def protection_multiplier(s: GameState, actor: str, comp: Component) -> int:
    """UA-PROT-1/2: 2 when Plot Protection doubles the coins per level of this Component's Importance,
    else 1; owner-only protection refuses anyone but the owner (UA-PROT-2)."""
    a = opts(s)
    owner = pc_owner(s, comp.id)
    if a.pc_protection != "off" and owner is None and comp.id in s.addon.protected:
        owner = ""  # protected for its price (UA-PROT-3): double cost; no owner to reserve it for
        if a.pc_protection == "owner_only":
            a = a.model_copy(update={"pc_protection": "double"})
    if a.pc_protection == "off" or owner is None:
        return 1
    reduce_check(a.pc_protection, owner, actor, comp.label)  # type: ignore[arg-type]
    return 2


def per_level_refusal(label: str, coins: int, durable: int, protection: int) -> RuleViolation:
    """The refusal of a payment that is not a whole number of levels, naming what sets the price: Durable
    (UA-DUR-3) and Plot Protection (UA-PROT-1) each multiply it, so a protected Durable PC's level is 4."""
    each = durable * protection
    why = " and ".join(w for w, m in ((f"Durable Components ×{durable}", durable),
                                     (f"{PROT} ×{protection}", protection)) if m > 1)
    rule = "UA-PROT-1" if protection > 1 else "UA-DUR-3"
    return RuleViolation(rule, f"{why}: each level of {label}'s Importance costs {each} coins; pay a multiple of "
                               f"{each} ({coins} was offered; L2124, L2172)")


def pcs_enabled(s: GameState) -> None:
    if not opts(s).player_characters:
        raise refuse("UA-PC-1", PC, "this table does not play with Player Characters")


# --- what a player may do on his turn with these add-ons (decisions.legal_options) ------------------
def turn_options(s: GameState, player: str, money: int) -> list[tuple[str, str, str]]:
    """(type, cost, note) of the add-on actions open to `player` on his turn."""
    a = opts(s)
    out: list[tuple[str, str, str]] = []
    if a.player_characters:
        mine = [cid for cid, p in s.addon.pcs.items() if p == player]
        cost = a.pc_cost + a.pc_trait_extra_cost
        if len(mine) < a.pcs_per_player and money >= cost and s.complication is None:
            out.append(("adopt_character", str(cost), "make a character your Player Character (once per game)"))
        left = s.addon.endowments.get(player, 0)
        if mine and left > 0:
            out.append(("endow_trait", f"1 per Trait from the Endowment ({left} left)", "a Trait for your PC"))
            comp = s.complication
            if comp is not None and any(x in comp.targets or x in comp.committed for x in mine):
                out.append(("endow_dice", f"1 per die from the Endowment ({left} left)", "dice for your PC's side"))
        sc = s.scene()
        if sc is not None and sc.location is not None and any(
                x not in sc.present and s.addon.welcome.get(x) != sc.number for x in mine):
            out.append(("agree_introduction", "0", "let another player Introduce your PC into this scene (L2104)"))
    if a.plot_pools and s.phase == "scene":
        if s.complication is None and money >= PLOT_POOL_COST:
            out.append(("create_plot_pool", f"{PLOT_POOL_COST} (a Rules Gimmick; the Bank gives the plot "
                        f"{a.plot_pool_min}-{a.plot_pool_max} coins)", "give a plot its own pool"))
        for pool in s.addon.plot_pools:
            if pool.coins > 0:
                out.append(("plot_pool_fact", f"1 from “{pool.name}” ({pool.coins} left)",
                            f"at most {a.plot_pool_spend_per_scene} per scene"))
    return out


# --- add-ons the engine does not play yet (checked at setup, engine/universalis/addons.check_addons) ------
UNPLAYED: tuple[tuple[str, str, str], ...] = (
    # (rule, add-on, why) — each needs decisions at the table the engine does not ask for yet; their
    # arithmetic is in addon_complications.py / addon_scenes.py / addon_cards.py, tested on its own
    ("UA-CDICE-6", "Cards instead of Dice (Mazza's Wealth stack), bonus cards from the Trait Deck", "the stack "
     "shuffles its kept cards in (L2440), so whether a later spend takes a card of one's own deck or of the Trait "
     "Deck is a chance the counted stack does not follow; the Trait Deck reading is played with a hand of cards"),
    ("UA-MT-4", "Multiple Targets (Split Allocation), the Complication's whole roll scored once",
     "split_c_coins=\"whole_roll\": with mixed results the Complication has no one result to score its "
     "whole roll by (it won some matches and lost others; a majority says nothing on an even split), and a "
     "tied match rolls its assigned dice again, so its whole roll is not one roll; the book is silent "
     "(L2352); the played reading pays the Complication match by match"),
    # Cards as Coins with face cards kept (UA-CARDS-4) is played: engine/universalis/addon_cards_play.py
    # Mazza's Wealth stack with face cards kept (UA-CDICE-5) is played: engine/universalis/addon_cards_play.py
    # Own Pool per Participant (UA-OWN-1) is played: engine/universalis/addon_own_pools.py
    # Extended Complications (UA-EXT-1) are played: engine/universalis/addon_extended.py
    # Independent Target Pools (UA-MT-3) are played: engine/universalis/addon_independent.py
    # Individual Pools (UA-MT-5) are played: engine/universalis/addon_individual.py
    # Split Allocation (UA-MT-4) is played: engine/universalis/addon_split.py
    # Nested Complications (UA-NEST-1) are played: engine/universalis/addon_nested.py
)


def unplayed(a: Addons) -> list[int]:
    """Indexes into UNPLAYED of the add-ons `a` turns on that the engine cannot enforce yet."""
    on = [a.bonus_cards_from == "bank_deck" and a.currency != "cards_hand",
          a.split_c_coins == "whole_roll"]
    return [i for i, x in enumerate(on) if x]


def refuse_unplayed(a: Addons) -> None:
    """A table may not adopt an add-on the engine would silently ignore: refused at setup, in one line,
    naming the add-on (the table can still play it by hand under the core rules' Challenge)."""
    for i in unplayed(a):
        rule, name, what = UNPLAYED[i]
        raise refuse(rule, name, f"Storytable does not enforce it yet ({what}); play it by hand as a "
                                 "Rules Gimmick, or choose another add-on")


# --- Plot Threads (UA-THREAD-2) -------------------------------------------------------------------
def thread_of(s: GameState, cid: str):
    return next((t for t in s.addon.threads if t.component == cid), None)


def thread_introduced(s: GameState, cid: str) -> None:
    """UA-THREAD-2: Holter: each Introduction of a Plot Thread adds 1 Weight (L2288); Bradley's threads
    are never Introduced (L2296); Mazza's are Introduced like any Component (L2302), with no Weight."""
    th = thread_of(s, cid)
    if th is None or th.resolved:
        return
    from engine.universalis.addon_scenes import THREAD
    variant = opts(s).plot_threads
    if variant == "bradley":
        raise refuse("UA-THREAD-2", THREAD, "in this variant Plot Threads are not Introduced; they gain Weight each scene")
    if variant == "holter":
        th.weight += 1


def threads_scene_end(s: GameState, scene: int) -> None:
    """UA-THREAD-2: Bradley: every unresolved Plot Thread gains 1 Weight at each scene end after the
    scene it was Created in (the digest's reading; the alternative counts that scene too)."""
    a = opts(s)
    if a.plot_threads != "bradley":
        return
    for th in s.addon.threads:
        if th.resolved:
            continue
        if th.scene_created is None or scene > th.scene_created or a.bradley_counts_creation_scene:
            th.weight += 1

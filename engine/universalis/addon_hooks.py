"""Where the add-ons touch the core handlers: one small function per hook.

Why a module of hooks: the core handlers (scene_actions.py, complications.py) call these at one
line each, and every hook returns at once when its add-on is off, so a game without add-ons
plays exactly as before (same seed, same log). The rules themselves live in addon_pcs.py,
addon_scenes.py and addon_complications.py.
"""
from __future__ import annotations

from engine.universalis.addon_nested import freeze_note, freeze_open
from engine.universalis.addon_complications import DieKind, is_success, only_added, read_face, refuse
from engine.universalis.addon_pcs import PC, PROT, alteration_check, reduce_check, take_over_check
from engine.universalis.addon_scenes import CLIMACTIC, freeze_check
from engine.universalis.addons import Addons
from engine.universalis.state import Complication, Component, GameState

DICE_ONLY = "Dice Only Added"


def opts(s: GameState) -> Addons:
    return s.config.addons


# --- dice (UA-SIX-*) ----------------------------------------------------------------------------
def die(s: GameState) -> DieKind:
    return opts(s).die  # type: ignore[return-value]


def face(s: GameState, f: int) -> int:
    """A face handed in for a roll, read for the die in play (d10: 0 is 10; d6: 1-6, UA-SIX-3)."""
    return read_face(f, die(s))


def success(s: GameState, f: int) -> bool:
    return is_success(f, die(s))


# --- Multiple Targets (UA-MT-6, UA-MT-7) ------------------------------------------------------
def compared_targets(s: GameState, comp: Complication, succ: dict[str, int], keys: list[str]) -> list[str]:
    """The Target Pools whose Successes meet the Complication side: all of them (Standard, the core
    rule), or only the worst (All or None, UA-MT-6, L2372) or the best (Best Efforts, UA-MT-7,
    L2380); equal ones: the Pool closest to the Originator's left. Every Target Pool then shares
    the result, and a tie is a core tie between the Complication and that one Pool (U-COMP-8)."""
    mode = opts(s).multi_target_mode
    if mode not in ("all_or_none", "best_efforts") or len(keys) < 2:
        return keys
    from engine.core.seats import seats_left_of
    order = seats_left_of(s.seat_names, comp.originator)
    sign = 1 if mode == "all_or_none" else -1
    return [min(keys, key=lambda k: (sign * succ[k], order.index(comp.pool(k).owner)))]


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


def pc_take_over(s: GameState, who: str, cid: str) -> None:
    """UA-PC-2: no Take Overs of a Player Character."""
    owner = pc_owner(s, cid)
    if owner is not None:
        take_over_check(owner, who, s.components[cid].label)


def pc_controller(s: GameState, cid: str, player: str) -> str:
    """UA-PC-2: a PC is only ever Controlled by its owner, whoever Introduced it."""
    return pc_owner(s, cid) or player


def reduce_price(s: GameState, actor: str, comp: Component, coins: int) -> int:
    """UA-PROT-1/2: the Importance levels `coins` buy down on this Component. With Plot Protection a
    PC's level costs 2 (`coins` must be even); owner-only protection refuses anyone else."""
    a = opts(s)
    owner = pc_owner(s, comp.id)
    if a.pc_protection != "off" and owner is None and comp.id in s.addon.protected:
        owner = ""  # protected for its price (UA-PROT-3): double cost; no owner to reserve it for
        if a.pc_protection == "owner_only":
            a = a.model_copy(update={"pc_protection": "double"})
    if a.pc_protection == "off" or owner is None:
        return coins
    reduce_check(a.pc_protection, owner, actor, comp.label)  # type: ignore[arg-type]
    if coins % 2:
        raise refuse("UA-PROT-1", PROT, f"{comp.label} is a protected Player Character: each level of Importance "
                                        f"costs 2 coins, so pay an even number ({coins} was offered)")
    return coins // 2


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
    if a.plot_pools and s.phase == "scene":
        if s.complication is None:
            out.append(("create_plot_pool", "0 (the Bank gives the plot "
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
    ("UA-CDICE-1", "Cards instead of Dice, bonus cards from the Trait Deck", "the reading's alternative: kept "
     "bonus cards drawn from the shared deck into the hand"),
    ("UA-CDICE-1", "Cards instead of Dice with face cards kept", "Jacks, Queens and Kings in the decks (5 in 13 "
     "succeed): the rolls read Ace to 10"),
    ("UA-CARDS-4", "Cards as Coins with face cards kept", "the table's Gimmick for a face card spent or revealed"),
    ("UA-MT-4", "Multiple Targets (Split Allocation)", "the Originator's allocation of Successes"),
    ("UA-EXT-1", "Extended Complications", "rolling a Complication in stages"),
    # Own Pool per Participant (UA-OWN-1) is played: engine/universalis/addon_own_pools.py
    # Independent Target Pools (UA-MT-3) are played: engine/universalis/addon_independent.py
    # Individual Pools (UA-MT-5) are played: engine/universalis/addon_individual.py
    # Nested Complications (UA-NEST-1) are played: engine/universalis/addon_nested.py
)


def unplayed(a: Addons) -> list[int]:
    """Indexes into UNPLAYED of the add-ons `a` turns on that the engine cannot enforce yet."""
    on = [a.bonus_cards_from == "bank_deck", a.cards_with_face_cards, a.face_card_gimmick is not None,
          a.multi_target_mode == "split", a.allow_extended]
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

"""The handlers of the add-ons' own actions: Player Characters, PC Endowment, Plot Pools.

Each is refused, naming its add-on, unless the table plays that add-on; the core game never
reaches them. Coins of an Endowment or a Plot Pool are the Bank's until spent and go back to
it when spent, so they never enter a player's ledger (U-ECO-2 still balances).
"""
from __future__ import annotations

from engine.core.errors import RuleViolation
from engine.universalis import actions as A
from engine.universalis import addon_hooks as hooks
from engine.universalis.addon_complications import refuse
from engine.universalis.addon_pcs import ENDOW, PcRecord, adopt_check, endowment_spend_check, pc_trait
from engine.universalis.addon_scenes import PLOT, PLOT_POOL_COST, PlotPool, create_plot_pool, plot_spend
from engine.universalis import complications as cx  # a module: rules.py imports us while it loads
from engine.universalis.components import add_trait, component
from engine.universalis.ledger import available, pay, set_aside, spend_set_aside
from engine.universalis.rules import Ctx, handles, require_location, require_turn, statement
from engine.universalis import scene_actions as sx
from engine.universalis.state import DieChange, PlotPoolState


def own_pc(c: Ctx) -> str:
    s, player = c.s, c.a.player  # type: ignore[attr-defined]
    mine = [cid for cid, p in s.addon.pcs.items() if p == player]
    if not mine:
        raise refuse("UA-ENDOW-1", ENDOW, f"{player} has no Player Character to endow")
    return mine[0]


@handles(A.AdoptCharacter)
def adopt_character(c: Ctx) -> None:
    """UA-PC-1: once per player per game, 5 Coins permanently Take Over a character and add the
    Trait "<Player>'s Character" (L2098); UA-ENDOW-1: the PC gets its Endowment (L2114)."""
    s, a = c.s, c.a
    assert isinstance(a, A.AdoptCharacter)
    hooks.pcs_enabled(s)
    require_turn(c)
    o = hooks.opts(s)
    comp = component(s, a.component, "UA-PC-1")
    cost = o.pc_cost + o.pc_trait_extra_cost
    records = {cid: PcRecord(player=p, component=cid) for cid, p in s.addon.pcs.items()}
    adopt_check(records, a.player, comp.id, comp.kind, available(s, a.player), cost, o.pcs_per_player, s.addon.pcs)
    if comp.eliminated:
        raise refuse("UA-PC-1", "Player Character", f"{comp.label} was eliminated")
    if s.complication is not None and comp.id in cx.tied(s):
        raise RuleViolation("U-COMP-4", f"{comp.label} is committed to the open Complication until it ends")
    pay(s, a.player, cost, "a Player Character", rule="UA-PC-1")
    s.addon.pcs[comp.id] = a.player
    add_trait(s, comp, pc_trait(a.player), "plain", a.player)
    sc = s.scene()
    if sc is not None and (comp.id in sc.present or comp.id == sc.location):
        sc.control[comp.id] = a.player
    if o.pc_endowment:
        s.addon.endowments[a.player] = s.addon.endowments.get(a.player, 0) + o.pc_endowment
        set_aside(s, o.pc_endowment)
    text = f"{comp.label} becomes {pc_trait(a.player)}."
    c.emit("adopt_character", text, cost, component=comp.id, endowment=o.pc_endowment)
    statement(c, "adopt_character", text, cost, components=[comp.id])


@handles(A.AgreeIntroduction)
def agree_introduction(c: Ctx) -> None:
    """UA-PC-3 (L2104 "The PC can only be Introduced to a scene with the agreement of the owning player"):
    the owner agrees, free and at any time, that another player may Introduce it into the scene in play."""
    s, a = c.s, c.a
    assert isinstance(a, A.AgreeIntroduction)
    hooks.pcs_enabled(s)
    comp = component(s, a.component, "UA-PC-3")
    owner = hooks.pc_owner(s, comp.id)
    if owner != a.player:
        raise refuse("UA-PC-3", "Player Character", f"only the owner of a Player Character agrees to its "
                                                    f"Introduction; {comp.label} is not {a.player}'s")
    sc = require_location(s)
    if comp.id in sc.present:
        raise RuleViolation("U-ACT-3", f"{comp.label} is already in the scene")
    s.addon.welcome[comp.id] = sc.number
    c.emit("agree_introduction", f"agrees that {comp.label} may be Introduced into this scene.", component=comp.id,
           rule="UA-PC-3")


@handles(A.EndowTrait)
def endow_trait(c: Ctx) -> None:
    """UA-ENDOW-1: Endowment Coins buy the PC's Traits (L2114); they are never refreshed."""
    s, a = c.s, c.a
    assert isinstance(a, A.EndowTrait)
    hooks.pcs_enabled(s)
    require_turn(c, narration_ok=True)
    cid = own_pc(c)
    hooks.trait_freeze(s, "buying a Trait")
    left = s.addon.endowments.get(a.player, 0)
    endowment_spend_check(PcRecord(player=a.player, component=cid, endowment=left), a.times, True, False)
    s.addon.endowments[a.player] = left - a.times
    spend_set_aside(s, a.times)
    comp = s.components[cid]
    first = None
    for _ in range(a.times):
        t = add_trait(s, comp, a.text.strip(), "plain", a.player)
        first = first or t
    times = f" x{a.times}" if a.times > 1 else ""
    text = f"{comp.label}: {a.text.strip()}{times} (from the Endowment)"
    c.emit("endow_trait", text, 0, component=cid, trait=first.id if first else None, endowment=left - a.times)
    statement(c, "endow_trait", text, 0, fact_id=first.id if first else None, components=[cid], lapses=True)


@handles(A.EndowDice)
def endow_dice(c: Ctx) -> None:
    """UA-ENDOW-1: Endowment Coins buy dice in a Complication the PC is involved in (L2114)."""
    s, a = c.s, c.a
    assert isinstance(a, A.EndowDice)
    hooks.pcs_enabled(s)
    require_turn(c)
    cid = own_pc(c)
    comp = cx.open_complication(c)
    pool = cx.pool_of(comp, a.pool)
    left = s.addon.endowments.get(a.player, 0)
    involved = cid in comp.targets or cid in comp.committed
    endowment_spend_check(PcRecord(player=a.player, component=cid, endowment=left), a.count, False, involved)
    s.addon.endowments[a.player] = left - a.count
    spend_set_aside(s, a.count)
    pool.dice += a.count
    why = a.text or "from the Endowment"
    comp.changes.append(DieChange(pool=pool.key, delta=a.count, by=a.player, how="buy", why=why))
    words = f"buys {cx.dice(a.count)} for {cx.pool_name(pool)} from the Endowment: {why}"
    c.emit("endow_dice", words, 0, pool=pool.key, endowment=left - a.count)
    statement(c, "endow_dice", words, 0, lapses=True)


def plot_pool(s, name: str) -> PlotPoolState:
    for p in s.addon.plot_pools:
        if p.name.casefold() == name.strip().casefold():
            return p
    raise refuse("UA-PLOT-2", PLOT, f"there is no Plot Pool called {name[:60]!r}")


@handles(A.CreatePlotPool)
def create_plot_pool_action(c: Ctx) -> None:
    """UA-PLOT-1: a plot gets 10-50 Coins from the Bank (L2274). Giving it one is a Rules Gimmick for that
    plot: its proposer pays 1 Coin and it may be Challenged (L315, L1311; the add-on names no other price)."""
    s, a = c.s, c.a
    assert isinstance(a, A.CreatePlotPool)
    o = hooks.opts(s)
    if not o.plot_pools:
        raise refuse("UA-PLOT-1", PLOT, "this table does not play with Plot Pools")
    require_turn(c)
    name = a.name.strip()
    if any(p.name.casefold() == name.casefold() for p in s.addon.plot_pools):
        raise refuse("UA-PLOT-1", PLOT, f"there is already a Plot Pool called “{name}”")
    pp = create_plot_pool(name, a.coins, o.plot_pool_min, o.plot_pool_max)
    pay(s, a.player, PLOT_POOL_COST, "a Rules Gimmick (a Plot Pool)", rule="UA-PLOT-1")
    s.addon.plot_pools.append(PlotPoolState(name=pp.name, coins=pp.coins, by=a.player))
    set_aside(s, pp.coins)
    text = f"The plot “{name}” gets a Plot Pool of {a.coins} coins."
    c.emit("plot_pool", text, PLOT_POOL_COST, plot=name, coins=a.coins)
    statement(c, "plot_pool", text, PLOT_POOL_COST)


@handles(A.PlotPoolFact)
def plot_pool_fact(c: Ctx) -> None:
    """UA-PLOT-2: any player, on his turn, spends up to 2 of a plot's Coins per scene on Facts that
    develop that plot (L2274)."""
    s, a = c.s, c.a
    assert isinstance(a, A.PlotPoolFact)
    o = hooks.opts(s)
    if not o.plot_pools:
        raise refuse("UA-PLOT-1", PLOT, "this table does not play with Plot Pools")
    require_turn(c, narration_ok=True)
    sc = require_location(s)
    st = plot_pool(s, a.plot)
    pp = PlotPool(name=st.name, coins=st.coins,
                  spent={(int(k.split(":", 1)[0]), k.split(":", 1)[1]): v for k, v in st.spent.items()})
    plot_spend(pp, a.player, sc.number, 1, o.plot_pool_spend_per_scene, o.plot_pool_cap_scope)  # type: ignore[arg-type]
    spend_set_aside(s, st.coins - pp.coins)
    st.coins = pp.coins
    st.spent = {f"{k[0]}:{k[1]}": v for k, v in pp.spent.items()}
    f = sx.add_fact(c, "detail", a.text.strip())
    c.emit("plot_pool_fact", f.text, 0, fact=f.id, plot=st.name, left=st.coins)
    statement(c, "fact", f.text, 0, fact_id=f.id, lapses=True)


@handles(A.ProtectComponent)
def protect_component(c: Ctx) -> None:
    """UA-PROT-3 (L2132 option): PC Plot Protection bought for any important Component, at the
    price the table set (the book names none); then lowering its Importance costs double."""
    s, a = c.s, c.a
    assert isinstance(a, A.ProtectComponent)
    o = hooks.opts(s)
    if o.pc_protection == "off" or o.protection_any_component is None:
        raise refuse("UA-PROT-3", "PC Plot Protection", "this table protects Player Characters only")
    require_turn(c)
    comp = component(s, a.component, "UA-PROT-3")
    if comp.eliminated:
        raise refuse("UA-PROT-3", "PC Plot Protection", f"{comp.label} was eliminated")
    if comp.id in s.addon.pcs or comp.id in s.addon.protected:
        raise refuse("UA-PROT-3", "PC Plot Protection", f"{comp.label} is already protected")
    cost = o.protection_any_component
    pay(s, a.player, cost, f"protecting {comp.label}", rule="UA-PROT-3")
    s.addon.protected.append(comp.id)
    text = f"{comp.label} has Plot Protection."
    c.emit("protect_component", text, cost, component=comp.id)
    statement(c, "protect_component", text, cost, components=[comp.id])


def require_drivers(c: Ctx) -> str:
    s = c.s
    if not hooks.opts(s).pc_story_drivers:
        raise refuse("UA-DRIVER-3", "PC Story Drivers", "this table does not play with Story Drivers")
    require_turn(c)
    return own_pc(c)


@handles(A.SetDriver)
def set_driver(c: Ctx) -> None:
    """UA-DRIVER-3 (L2150-2160): the owner writes his PC's Story Driver; it may be rewritten as the
    character evolves (the same Driver, so its sessions keep counting); it is not a Fact."""
    s, a = c.s, c.a
    assert isinstance(a, A.SetDriver)
    cid = require_drivers(c)
    if a.player not in s.addon.drivers:
        s.addon.driver_since[a.player] = s.extra.session
    s.addon.drivers[a.player] = a.text.strip()
    text = f"{s.components[cid].label}'s Story Driver: {a.text.strip()}"
    c.emit("set_driver", text, 0, component=cid)
    statement(c, "set_driver", text, 0, components=[cid], lapses=True)


@handles(A.DriverScene)
def driver_scene(c: Ctx) -> None:
    """UA-DRIVER-1 (L2162): a scene that addresses the Driver adds 1 coin from the Bank to the
    Endowment, once per scene; the others may Challenge the claim."""
    s, a = c.s, c.a
    assert isinstance(a, A.DriverScene)
    cid = require_drivers(c)
    if a.player not in s.addon.drivers:
        raise refuse("UA-DRIVER-1", "PC Story Drivers", f"{s.components[cid].label} has no Story Driver yet")
    sc = s.scene()
    key = f"{a.player}:{sc.number if sc else 0}"
    if key in s.addon.driver_scenes:
        raise refuse("UA-DRIVER-1", "PC Story Drivers", "this scene's Driver coin was already drawn")
    s.addon.driver_scenes.append(key)
    s.addon.endowments[a.player] = s.addon.endowments.get(a.player, 0) + 1
    set_aside(s, 1)
    c.emit("driver_scene", a.text.strip(), 0, component=cid, endowment=s.addon.endowments[a.player])
    statement(c, "driver_scene", a.text.strip(), 0, components=[cid], lapses=True)


@handles(A.ResolveDriver)
def resolve_driver(c: Ctx) -> None:
    """UA-DRIVER-2 (L2164): resolving the Driver adds as many coins as sessions the PC played with it
    (the current one included) to the Endowment; the Driver is then spent."""
    s, a = c.s, c.a
    assert isinstance(a, A.ResolveDriver)
    cid = require_drivers(c)
    if a.player not in s.addon.drivers:
        raise refuse("UA-DRIVER-2", "PC Story Drivers", "there is no Story Driver to resolve")
    sessions = s.extra.session - s.addon.driver_since.get(a.player, s.extra.session) + 1
    del s.addon.drivers[a.player]
    s.addon.endowments[a.player] = s.addon.endowments.get(a.player, 0) + sessions
    set_aside(s, sessions)
    c.emit("resolve_driver", a.text.strip(), 0, component=cid, coins=sessions)
    statement(c, "resolve_driver", a.text.strip(), 0, components=[cid], lapses=True)


@handles(A.CreatePlotThread)
def create_plot_thread(c: Ctx) -> None:
    """UA-THREAD-1 (L2286): a Component "an unresolved conflict", named: 1 coin, plus 1 per Component
    tied to it in Holter's rule; 1 in Bradley's and Mazza's (L2296, L2302). Its name is its Role."""
    from engine.universalis.addon_scenes import THREAD, thread_cost
    from engine.universalis.components import new_id
    from engine.universalis.state import Component, PlotThreadState
    s, a = c.s, c.a
    assert isinstance(a, A.CreatePlotThread)
    variant = hooks.opts(s).plot_threads
    cost = thread_cost(variant, len(a.tied))  # type: ignore[arg-type]
    require_turn(c)
    tied = list(dict.fromkeys(a.tied))
    if len(tied) != len(a.tied):
        raise refuse("UA-THREAD-1", THREAD, "a Component is named twice")
    for cid in tied:
        component(s, cid, "UA-THREAD-1")
    if variant != "holter" and tied:
        raise refuse("UA-THREAD-1", THREAD, "only Holter's Plot Threads name tied Components")
    pay(s, a.player, cost, "a Plot Thread", rule="UA-THREAD-1")
    comp = Component(id=new_id(s, "c"), kind="prop", created_by=a.player)
    s.components[comp.id] = comp
    role = add_trait(s, comp, a.name.strip(), "role", a.player)
    sc = s.scene()
    s.addon.threads.append(PlotThreadState(component=comp.id, creator=a.player, tied=tied,
                                           scene_created=sc.number if sc else None))
    text = f"A Plot Thread: {a.name.strip()} (an unresolved conflict)"
    c.emit("plot_thread", text, cost, component=comp.id, tied=tied)
    statement(c, "component", text, cost, fact_id=role.id, components=[comp.id] + tied)


@handles(A.ResolvePlotThread)
def resolve_plot_thread(c: Ctx) -> None:
    """UA-THREAD-3 (L2290 "the player resolving it gets its Weight in coins. Declaring a Thread
    resolved can be challenged as usual"): the Bank pays the Weight to the resolver; Mazza's
    variant has no reward (it ends when its Importance is bought off, engine default)."""
    from engine.universalis.addon_scenes import THREAD, PlotThread, thread_resolve
    from engine.universalis.ledger import from_bank
    s, a = c.s, c.a
    assert isinstance(a, A.ResolvePlotThread)
    variant = hooks.opts(s).plot_threads
    if variant == "off":
        raise refuse("UA-THREAD-1", THREAD, "this table does not play with Plot Threads")
    require_turn(c)
    th = hooks.thread_of(s, a.thread)
    if th is None:
        raise refuse("UA-THREAD-3", THREAD, f"{a.thread[:40]!r} is not a Plot Thread")
    pure = PlotThread(name=s.components[th.component].label, creator=th.creator, scene_created=th.scene_created,
                      weight=th.weight, resolved=th.resolved)
    paid = thread_resolve(variant, pure)  # type: ignore[arg-type]
    th.resolved = True
    from_bank(s.player(a.player), s, paid, "bonus")
    c.emit("resolve_plot_thread", a.text.strip(), 0, component=th.component, coins=paid)
    statement(c, "resolve_plot_thread", a.text.strip(), 0, components=[th.component])

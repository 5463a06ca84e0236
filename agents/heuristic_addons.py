"""How the heuristic co-player plays the Complication, Player Character and plot add-ons.

Digest section 3 applied to issue 22's add-ons (project design, not book rules): with Player
Characters it buys one of its own characters and protects it (Endowment Traits that say who the
PC is; Endowment dice when its PC is in a Complication that goes against it); with Plot Pools it
gives its plot a modest pool and spends from it at the book's rate. Every plan is checked with the
engine (`HeuristicPlayer._ok`) before it is returned, so a refused add-on move is simply skipped.
With Judgment it disputes what it would have challenged, and judges by the Facts in effect (L1994).
With Alternate Reality it splits off a mirror of a scene that eliminated one of its own Components,
while the fork is cheap. With Open Scene Framing it frames a second scene beside one that has done its work, goes back to a
scene it framed once the one in play has had its share, and closes its own scenes when they are done.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from engine.universalis import actions as A
from engine.universalis.addon_nested import may_nest
from engine.universalis.ledger import available

if TYPE_CHECKING:  # pragma: no cover
    from agents.base import Observation
    from agents.heuristic import HeuristicPlayer, Plan
    from agents.narration import Words
    from engine.universalis.state import Challenge, GameState

ENDOW_PER_TURN = 2  # pay as you narrate (L1506): a few Traits a turn, not the whole Endowment at once
ENDOW_RESERVE = 10  # kept for dice when the PC is in trouble: that is what protects it
PLOT_POOL_SIZE = 20  # within the book's 10-50 (L2274); a subplot, not the main plot


def plot_name(premise: str) -> str:
    """A short name for the plot: the premise's first words, cut at a word boundary."""
    words = (premise or "the main plot").replace("\n", " ").split()
    out = ""
    for w in words:
        if len(out) + len(w) + 1 > 40:
            break
        out = f"{out} {w}".strip()
    return out.rstrip(",.;:") or "the main plot"


def my_pc(s, me: str) -> str | None:
    return next((cid for cid, p in s.addon.pcs.items() if p == me), None)


def turn_plan(hp: "HeuristicPlayer", obs: "Observation", words: "Words") -> "Plan | None":
    """A move an add-on makes worth it on this turn (outside Complications), or None."""
    s, me = obs.state, hp.name
    ad = s.config.addons
    money = available(s, me)
    if ad.player_characters:
        pc = my_pc(s, me)
        if pc is None and money >= ad.pc_cost + ad.pc_trait_extra_cost + hp.persona.reserve:
            mine = [c for c in hp._mine(s) if c.kind == "character" and not c.eliminated
                    and c.id not in s.addon.pcs]
            mine.sort(key=lambda c: (c.created_by != me, -len(c.live_traits())))
            if mine:
                act = A.AdoptCharacter(player=me, component=mine[0].id)
                if hp._ok(obs, act):
                    return act, f"makes {mine[0].label} its Player Character: the hero it will protect"
        left = s.addon.endowments.get(me, 0)
        if pc is not None and left > ENDOW_RESERVE and obs.turn_actions < ENDOW_PER_TURN:
            comp = s.components[pc]
            text = words.trait_for(comp)
            if text is not None:
                act = A.EndowTrait(player=me, text=text)
                if hp._ok(obs, act):
                    return act, f"gives its PC {comp.label} “{text}” from the Endowment"
    if ad.open_scene_framing and obs.turn_actions == 0:
        plan = open_scene_plan(hp, obs)
        if plan is not None:
            return plan
    if ad.plot_pools and obs.turn_actions == 0:
        sc = s.scene()
        if not s.addon.plot_pools and sc is not None and sc.number >= 2:
            name = plot_name(words.premise_tenet() or obs.premise)
            size = max(ad.plot_pool_min, min(ad.plot_pool_max, PLOT_POOL_SIZE))
            act = A.CreatePlotPool(player=me, name=name, coins=size)
            if hp._ok(obs, act):
                return act, "gives the plot a pool of its own so it keeps moving"
        for pool in s.addon.plot_pools:
            if pool.coins <= 0 or sc is None:
                continue
            key = f"{sc.number}:{me}" if ad.plot_pool_cap_scope == "per_player" else f"{sc.number}:*"
            if pool.spent.get(key, 0) >= ad.plot_pool_spend_per_scene:
                continue
            text = words.detail(hp._place(s))
            if text:
                act = A.PlotPoolFact(player=me, plot=pool.name, text=text)
                if hp._ok(obs, act):
                    return act, f"moves the plot “{pool.name}” on with its pool's coin"
    return None


def complication_plan(hp: "HeuristicPlayer", obs: "Observation") -> "Plan | None":
    """Protect its own PC: Endowment dice for its Pool when the PC is in the Complication and its
    side has no more dice than the other (the Endowment buys nothing else in a fight)."""
    s, me = obs.state, hp.name
    comp = s.complication
    pc = my_pc(s, me)
    left = s.addon.endowments.get(me, 0)
    if comp is None or pc is None or left <= 0 or (pc not in comp.targets and pc not in comp.committed):
        return None
    pool = hp._my_pool(s)
    if pool is None:
        return None
    ours, other = hp._side_sizes(s, pool)
    if ours > other:
        return None
    n = max(1, min(left, other - ours + 1, 4))
    act = A.EndowDice(player=me, pool=pool, count=n, text=f"{s.components[pc].label} will not go down easily")
    if hp._ok(obs, act):
        return act, f"spends {n} of its PC's Endowment on dice to protect {s.components[pc].label}"
    return None


# --- Nested Complications (UA-NEST-1) -----------------------------------------------------------------
NEST_MIN_SPARE = 3  # coins above its reserve: the nested Event (1) and a die or two for it
NEST_MAX_DEPTH = 2  # Complications open under the active one; deeper chains need "careful organization" (L2396)


def nested_plan(hp: "HeuristicPlayer", obs: "Observation", words: "Words", ours: int, other: int) -> "Plan | None":
    """Behind by 2 dice or more in the open Complication, with its free Draws spent and coins to spare, it
    sometimes (by its persona's taste for conflict) starts a nested one against another player's
    Component instead of buying dice: the nested one resolves first and its bonus coins (about 1.5 a die
    won) buy a Trait or a Fact to Draw upon when the open one resumes (L2398). Once per open Complication."""
    s, me = obs.state, hp.name
    comp = s.complication
    if comp is None or not may_nest(s) or len(s.suspended) >= NEST_MAX_DEPTH or hp._my_pool(s) is None:
        return None
    if other - ours < 2 or available(s, me) - hp.persona.reserve < NEST_MIN_SPARE or comp.id in hp._nested_from:
        return None
    mine, theirs = hp._mine(s), hp._theirs(s)
    if not mine or not theirs or hp.rng.random() >= hp.persona.conflict:
        return None
    hp._nested_from.add(comp.id)
    plan = hp._start_complication(obs, words, mine, theirs, hp._place(s))
    if plan is None:
        return None
    return plan[0], f"behind {ours} dice to {other}: a nested Complication first (UA-NEST-1), then back to this one"


# --- Judgment (UA-JUDGE-*) --------------------------------------------------------------------------------
def as_judgment(s: "GameState", action: A.ChallengeStatement, why: str) -> "Plan":
    """What it would have challenged goes to the Judge instead (UA-JUDGE-1): the same dispute, free; with
    the 'named disputes' reading only a contradicted Fact (a dispute over a Fact's reading) is judged."""
    if s.config.addons.judgment_scope != "replaces_challenges" and action.fact is None:
        return action, why
    data = action.model_dump(exclude={"type"})
    return A.InvokeJudgment(**data), f"invokes Judgment: {why}"


def ruling_for(s: "GameState", case: "Challenge") -> bool:
    """Whether the statement should stand, judged "in accordance with all the Facts and Gimmicks then in
    effect" (L1994): it falls when it goes against an established Fact the dispute names, else the acting
    player's call stands (game custom: what is paid for is said)."""
    from engine.universalis.facts import find_fact
    return case.fact_id is None or find_fact(s, case.fact_id) is None


def judge(s: "GameState", me: str) -> "Plan":
    jd = s.extra.judgment
    stands = ruling_for(s, jd.case)
    text = ("nothing established says otherwise" if stands else
            "it goes against an established Fact")
    return A.JudgeRuling(player=me, stands=stands, text=text), f"judges by the Facts in effect: {text}"


def overrule(s: "GameState", me: str) -> "Plan":
    """Votes to overrule only a ruling it would have made the other way."""
    jd = s.extra.judgment
    against = ruling_for(s, jd.case) != jd.stands
    return (A.OverruleVote(player=me, overrule=against),
            "the ruling goes against the Facts" if against else "the ruling follows the Facts")


# --- Open Scene Framing (UA-OPEN-*) ------------------------------------------------------------------------
SHARE = 4  # Events in the scene in play before it goes back to a scene of its own


def open_scene_plan(hp: "HeuristicPlayer", obs: "Observation") -> "Plan | None":
    """At the start of its turn: close a scene of its own that has done its work (even one not in play:
    closing needs no switch); else go back to its own scene once the one in play has had its share;
    else, when the scene in play (not its own) has done its work and it is the only one, frame a second."""
    from engine.universalis.addon_open import active
    s, me, p = obs.state, hp.name, hp.persona
    sc = s.scene()
    if sc is None or s.turn is None or s.turn.mini_scene is not None or s.complication is not None:
        return None
    money = available(s, me)
    scenes = active(s)
    mine = [n for n in scenes if s.scenes[n - 1].framer == me and n != sc.number]
    for n in mine:
        if hp._events_here(s, s.scenes[n - 1]) >= p.scene_events:
            act = A.CloseScene(player=me, scene=n, text=f"Scene {n} fades to black.")
            if hp._ok(obs, act):
                return act, f"scene {n} has done its work: it fades to black"
    here = hp._events_here(s, sc)
    if mine and here >= SHARE and money > p.reserve + 1:
        act = A.SwitchScene(player=me, scene=mine[-1])
        if hp._ok(obs, act):
            return act, f"goes back to scene {mine[-1]}, which it framed"
    ad = s.config.addons
    if (len(scenes) < min(2, ad.max_active_scenes) and sc.framer != me and here >= p.scene_events
            and money > p.reserve + 3):
        act = A.FrameScene(player=me)
        if hp._ok(obs, act):
            return act, "frames a second scene beside this one"
    return None


# --- Alternate Reality (UA-ALT-*) --------------------------------------------------------------------------
FORK_MAX = 2  # the price grows with every fork back to scene 1: it forks only while it is cheap


def fork_plan(hp: "HeuristicPlayer", obs: "Observation") -> "Plan | None":
    """Before bidding: mirror the scene just ended when it eliminated a Component this seat created
    (the other reality where it survives), if the fork costs at most 2 and leaves it a reserve."""
    from engine.universalis.addon_alt import fork_now
    s, me = obs.state, hp.name
    fork = fork_now(s, me)
    sc, cost = fork.scene, fork.cost
    if sc is None or fork.problem is not None:
        return None
    lost = [c for c in s.components.values() if c.created_by == me and c.eliminated and c.eliminated_scene == sc.number]
    if not lost or cost > FORK_MAX or available(s, me) < cost + hp.persona.reserve + 5:
        return None
    act = A.ForkScene(player=me)
    if hp._ok(obs, act):
        return act, f"splits off a reality where {lost[0].label} survives scene {sc.number}"
    return None


# --- Own Pool per Participant (UA-OWN-1, L1040) ------------------------------------------------------
def own_side(hp: "HeuristicPlayer", s) -> str | None:
    """The side its own Pool backs: the engine's answer for the Originator and a Target's Controller
    and for a declared Pool; else a bystander's choice made once per Complication, like the core
    bystander's (it backs the Targets when one of them is its own creation, sometimes the
    Complication for the conflict, else it stays out)."""
    from engine.universalis.addon_own_pools import side_of
    comp = s.complication
    if comp is None:
        return None
    pool = next((p for p in comp.pools if p.owner == hp.name), None)
    if pool is None:
        return None
    side = side_of(s, comp, pool)
    if side is not None:
        return side
    key = (comp.id, "own")
    if key not in hp._own_sides:
        if any(s.components[t].created_by == hp.name for t in comp.targets):
            hp._own_sides[key] = "T"
        elif hp.rng.random() < hp.persona.conflict * 0.5:
            hp._own_sides[key] = "C"
        else:
            hp._own_sides[key] = None
    return hp._own_sides[key]


def own_side_sizes(hp: "HeuristicPlayer", s, pool: str) -> tuple[int, int]:
    """Dice on its side and on the other, counting declared Pools (its own by its intent)."""
    from engine.universalis.addon_own_pools import side_of
    comp = s.complication
    sides = {}
    for p in comp.pools:
        sides[p.key] = own_side(hp, s) if p.owner == hp.name else side_of(s, comp, p)
    mine = sides.get(pool)
    ours = sum(p.size for p in comp.pools if mine is not None and sides[p.key] == mine)
    other = sum(p.size for p in comp.pools if sides[p.key] not in (None, mine))
    return ours, other


def declare_plan(hp: "HeuristicPlayer", obs: "Observation") -> "Plan":
    """Declare its own Pool for the side its dice were gathered for (@128224: "whichever side makes
    sense"); a Pool built without a plan goes to the side with fewer dice, for suspense (L1728-1748)."""
    s, me = obs.state, hp.name
    side = own_side(hp, s)
    why = "the side its dice were gathered for"
    if side is None:
        from engine.universalis.addon_own_pools import side_keys
        comp = s.complication
        c_keys, t_keys = side_keys(s, comp)
        c = sum(comp.pool(k).size for k in c_keys)
        t = sum(comp.pool(k).size for k in t_keys)
        side, why = ("C" if c < t else "T"), "the side that is behind: it keeps the outcome in doubt"
    return A.DeclarePool(player=me, side=side, text=why), f"declares its Pool for {side}: {why}"


def match_sizes(s, pool: str) -> tuple[int, int]:
    """Independent Target Pools (UA-MT-3): each Target Pool meets the Complication side alone, so a
    Target's Pool is sized against C, and C against the largest Target Pool it must beat (digest
    section 3: size a Pool to what it must beat, no more)."""
    from engine.universalis.addon_own_pools import side_keys
    comp = s.complication
    c_keys, t_keys = side_keys(s, comp)
    c = sum(comp.pool(k).size for k in c_keys)
    if pool in c_keys:
        return c, max((comp.pool(k).size for k in t_keys), default=0)
    return comp.pool(pool).size, c


def pair_sizes(s, pool: str) -> tuple[int, int]:
    """Individual Pools (UA-MT-5): every Pool is sized against the one Pool across its own match."""
    from engine.universalis.addon_individual import paired
    comp = s.complication
    return comp.pool(pool).size, comp.pool(paired(s, comp, pool)).size


def weakest_c_pool(s) -> str:
    """Individual Pools (UA-MT-5): the Originator builds the Complication Pool furthest behind the
    Target Pool it faces (digest section 3: size a Pool to what it must beat)."""
    from engine.universalis.addon_individual import is_c_key
    keys = [p.key for p in s.complication.pools if is_c_key(p.key)]
    return min(keys, key=lambda k: pair_sizes(s, k)[0] - pair_sizes(s, k)[1])


def split_counts(s) -> list[int]:
    """Split Allocation (UA-MT-4): the allocator (the Originator; mirrored, L2356, the one Target) beats the
    weakest faced Pools it can (each needs one Success more than it rolled), then sets what is left to tie
    a Pool it could not beat (a tie is a reroll with an Edge die to win), else on a Pool it beats (there it
    earns the dice's sum, U-COMP-9), else on the weakest. Counts in Pool order, every Success once."""
    from engine.universalis.addon_split import faced_successes, to_allocate
    comp = s.complication
    t = faced_successes(s, comp)
    keys = list(t)
    left = len(to_allocate(s, comp))
    counts = dict.fromkeys(keys, 0)
    for k in sorted(keys, key=lambda k: (t[k], keys.index(k))):
        if t[k] + 1 <= left:
            counts[k], left = t[k] + 1, left - t[k] - 1
    unbeaten = [k for k in keys if counts[k] == 0]
    tie = next((k for k in unbeaten if t[k] == left), None)
    beaten = [k for k in keys if counts[k] > 0]
    spot = tie or (beaten[0] if beaten else min(keys, key=lambda k: (t[k], keys.index(k))))
    counts[spot] += left
    return [counts[k] for k in keys]


def allocate_plan(s, me: str) -> "Plan":
    counts = split_counts(s)
    return A.AllocateSuccesses(player=me, counts=counts), f"allocates its side's Successes {counts}"


EXTEND_STAGES = 3  # a few stages: enough to trade blows (L2422), few enough to narrate each
EXTEND_RESERVE = 2  # coins kept after paying, for the narration that follows
EXTEND_GAP = 2  # "behind": at least this many dice fewer; a nearly even fight keeps its single roll


def extend_plan(hp: "HeuristicPlayer", obs: "Observation") -> "Plan":
    """Extended Complications (UA-EXT-1): extend when its own side is behind by EXTEND_GAP dice or more.

    Why this rule: one roll of a smaller side against a larger one mostly loses everything; in stages
    the smaller side wins some of them, and the fight trades back and forth as the book wants (L2422).
    Measured with the engine's coin arithmetic (addon_complications.pool_coins; 40,000 seeded trials
    each, core ties with Edge dice): 7 dice against 10 win at least one stage 66% of the time in 3
    stages against 20% in one roll, and earn 14.4 coins on average instead of 9.1; 3 against 5: 71%
    against 19%; 2 against 4 in 2 stages: 42% against 16%. A nearly even fight (fewer than EXTEND_GAP
    dice apart), a side that is ahead, a player with no Pool in it and a player short of coins keep
    the single roll; so in seeded heuristic games about one Complication in five is extended (5 of
    27 over 8 seeds). The stages are 3, or fewer when a side cannot be split so far."""
    from engine.universalis.addon_extended import most_stages
    from engine.universalis.addon_own_pools import side_keys, side_of
    s, me = obs.state, hp.name
    comp = s.complication
    decline = A.DeclineExtend(player=me), "lets the Complication roll whole"
    if comp is None:
        return decline
    mine = [p for p in comp.pools if p.owner == me and p.dice > 0]
    side = side_of(s, comp, mine[0]) if mine else None
    if side is None:
        return decline
    c_keys, t_keys = side_keys(s, comp)
    ours, theirs = (c_keys, t_keys) if side == "C" else (t_keys, c_keys)
    n_ours, n_theirs = (sum(comp.pool(k).dice for k in keys) for keys in (ours, theirs))
    cost = s.config.addons.extend_cost
    if n_ours + EXTEND_GAP > n_theirs or n_ours < 2 or available(s, me) < cost + EXTEND_RESERVE:
        return decline
    stages = min(EXTEND_STAGES, most_stages(s, comp))
    act = A.ExtendComplication(player=me, stages=stages, text="the weaker side trades blows, stage by stage")
    if stages < 2 or not hp._ok(obs, act):
        return decline
    return act, f"its side is behind ({n_ours} dice against {n_theirs}): {stages} stages spread the risk"

"""Extended Complications (UA-EXT-1..4; book L2412-2422, Christopher Bradley; digest §2.3).

Why a module: an Extended Complication rolls in stages, each a Standard roll of its own between
one sub-pool of each side, narrated before the next (L2420). The core handlers (complications.py)
ask this module at a few lines: which dice roll now (`request`), which Pools take part in this
stage (`stage_sides`), how the result is named (`label`), and whether another stage follows
(`next_stage`). At a table without the add-on, or before anyone extends, every answer is the core
one, so a core game rolls and logs exactly as before.

How a stage is played: each Pool's `dice` is set to its share of the current stage, so the core
roll, Edge dice (U-COMP-8), bonus coins (U-COMP-9) and narration (U-COMP-10/11) run unchanged on
the stage. Each die earns its coins for the roller of the Pool it came from; an Edge die is won by
one Pool of the stage's sub-pool and stays in that stage (L2420 "Edge dice are accumulated in the
sub-pool that rolled them").

Readings and engine defaults (digest §2.3): the price is `extend_cost` (1 Coin, as a Rules Gimmick;
the book names none, L2418 "The person who pays"); the offer is made once everyone has agreed to roll
(the Pools are then "assembled", L2416), to each player in turn from the Originator, and closes when
one pays or all decline; a side's Pools are divided as one pool (L2418 "each side's pool"; the
table option `extended_divide="pool"` divides each Pool on its own), dealt to the sub-pools in Pool
order; the sub-pools are fixed once divided, so a stage's bonus coins buy narration, not dice for
later stages. Extending is a statement like any other and may be Challenged (@16365); a Challenge
won against it puts the Complication back as it was, unextended, with its price unpaid.
Not with another multi-target method on two Target Pools or more (it already rolls in matches).
"""
from __future__ import annotations

from engine.core.errors import RuleViolation
from engine.core.seats import seats_left_of
from engine.universalis import actions as A
from engine.universalis.addon_complications import refuse, split_evenly
from engine.universalis.addon_own_pools import side_keys, undeclared
from engine.universalis.ledger import available, coins, pay
from engine.universalis.rules import Ctx, blocking, handles, statement
from engine.universalis.state import Complication, Extension, GameState

EXT = "Extended Complications"
SIDE_WORDS = {"C": "the Complication's side", "T": "the Targets' side"}


def on(s: GameState) -> bool:
    return s.config.addons.allow_extended


def staged(comp: Complication | None) -> bool:
    """Whether this Complication rolls in stages (someone paid to extend it)."""
    return comp is not None and comp.extension is not None and comp.extension.by is not None


def side_dice(s: GameState, comp: Complication) -> dict[str, int]:
    """The dice of each side, {"C": ..., "T": ...} (the Pools declared for it, UA-OWN-1)."""
    c_keys, t_keys = side_keys(s, comp)
    return {"C": sum(comp.pool(k).dice for k in c_keys), "T": sum(comp.pool(k).dice for k in t_keys)}


def most_stages(s: GameState, comp: Complication) -> int:
    """The most stages this Complication can be divided into: the dice of its smaller side (side
    division), or the most that leave every stage a die on each side: each side's largest Pool (Pool
    division)."""
    if s.config.addons.extended_divide == "pool":
        return min(max((comp.pool(k).dice for k in keys), default=0) for keys in side_keys(s, comp))
    return min(side_dice(s, comp).values())


def problem(s: GameState, player: str, stages: int | None = None) -> RuleViolation | None:
    """Why `player` may not extend the open Complication now (into `stages`), in a player's words."""
    if not on(s):
        return refuse("UA-EXT-1", EXT, "this table does not play Extended Complications")
    comp = s.complication
    if comp is None:
        return refuse("UA-EXT-1", EXT, "there is no open Complication to extend")
    if comp.rolls or s.narration is not None:
        return refuse("UA-EXT-1", EXT, "the dice have been rolled; a Complication is extended after its Pools "
                                       "are built and before the roll (L2416)")
    if not s.roll_pending:
        return refuse("UA-EXT-1", EXT, "the Pools are still being built; extend it once everyone has agreed "
                                       "to roll, before the dice are rolled (L2416)")
    if staged(comp):
        assert comp.extension is not None
        return refuse("UA-EXT-1", EXT, f"{comp.extension.by} has already extended it into "
                                       f"{len(comp.extension.stages)} stages")
    b = blocking(s)
    if b and b[0] != "U-COMP-7":
        return RuleViolation(b[0], f"not now: {b[1]}")
    mode = s.config.addons.multi_target_mode
    t_keys = side_keys(s, comp)[1]
    if mode != "standard" and len(t_keys) >= 2:
        return refuse("UA-EXT-1", EXT, f"this Complication has {len(t_keys)} Target Pools and the table's "
                                       f"Multiple Targets method ({mode.replace('_', ' ')}) decides them; "
                                       "only a Standard roll can be extended")
    if undeclared(s, comp):
        return refuse("UA-EXT-1", EXT, "every Pool with dice must take a side before the Complication is extended")
    most = most_stages(s, comp)
    if most < 2:
        what = "a side has fewer than 2 dice" if s.config.addons.extended_divide == "side" else \
            "no Pool of one side has 2 dice (each Pool is divided on its own)"
        return refuse("UA-EXT-2", EXT, f"{what}: there is nothing to divide into stages")
    if stages is not None and stages > most:
        dice = side_dice(s, comp)
        small = min(dice, key=lambda x: dice[x])
        how = (f"{SIDE_WORDS[small]} has only {dice[small]} dice" if s.config.addons.extended_divide == "side"
               else f"with each Pool divided on its own, at most {most} stages leave a die on each side")
        return refuse("UA-EXT-2", EXT, f"{how}: it cannot be divided into {stages} stages (at most {most})")
    cost = s.config.addons.extend_cost
    if available(s, player) < cost:
        return refuse("UA-EXT-1", EXT, f"extending costs {coins(cost)} and {player} holds "
                                       f"{coins(available(s, player))}")
    return None


def to_ask(s: GameState) -> list[str]:
    """Players still to be offered the extension, from the Originator clockwise (engine choice): only
    before the first roll, until one pays; those who cannot pay are not asked."""
    comp = s.complication
    if not on(s) or comp is None or not s.roll_pending or comp.rolls or staged(comp) or s.narration is not None:
        return []
    passed = comp.extension.passed if comp.extension is not None else []
    order = [comp.originator] + seats_left_of(s.seat_names, comp.originator, include_self_last=False)
    return [p for p in order if p not in passed and problem(s, p) is None]


def offer_note(s: GameState) -> str:
    comp = s.complication
    assert comp is not None
    dice = side_dice(s, comp)
    return (f"extend the Complication ({dice['C']} dice against {dice['T']}) into 2 to {most_stages(s, comp)} stages for "
            f"{coins(s.config.addons.extend_cost)}, or let it roll whole")


def divide(s: GameState, comp: Complication, stages: int) -> list[dict[str, int]]:
    """UA-EXT-2 / UA-EXT-3: every Pool's dice in each stage, smallest stage first (L2418-2420).

    Side division (default): a side's dice are divided as one pool as evenly as possible (7 in 3:
    2, 2, 3), dealt to the sub-pools in Pool order; stage i pairs the i-th smallest sub-pool of
    each side (the pairing of the rest in ascending size is inferred, §2.3). Pool division: each
    Pool is divided on its own (a Pool smaller than the stage count has none in the first ones)."""
    out: list[dict[str, int]] = [{} for _ in range(stages)]
    for keys in side_keys(s, comp):
        pools = [(k, comp.pool(k).dice) for k in keys if comp.pool(k).dice > 0]
        if s.config.addons.extended_divide == "pool":
            for k, n in pools:
                base, extra = divmod(n, stages)
                for i, part in enumerate([base] * (stages - extra) + [base + 1] * extra):
                    if part:
                        out[i][k] = part
            continue
        queue = [k for k, n in pools for _ in range(n)]
        start = 0
        for i, size in enumerate(split_evenly(len(queue), stages)):
            for k in queue[start:start + size]:
                out[i][k] = out[i].get(k, 0) + 1
            start += size
    return out


def _set_stage(comp: Complication) -> None:
    """Each Pool holds its share of the current stage, with no Edge die (U-COMP-8 starts afresh)."""
    ext = comp.extension
    assert ext is not None
    for p in comp.pools:
        p.dice = ext.stages[ext.stage].get(p.key, 0)
        p.edge = 0


def _stage_words(s: GameState, comp: Complication, i: int) -> str:
    ext = comp.extension
    assert ext is not None
    parts = []
    for keys in side_keys(s, comp):
        dice = {k: n for k, n in ext.stages[i].items() if k in keys}
        who = ", ".join(f"{k} {n}" for k, n in dice.items())
        parts.append(f"{sum(dice.values())} ({who})")
    return f"{parts[0]} against {parts[1]}"


@handles(A.ExtendComplication)
def extend_complication(c: Ctx) -> None:
    """UA-EXT-1: a player pays to roll the Complication in `stages` stages (L2416-2418)."""
    s, a = c.s, c.a
    assert isinstance(a, A.ExtendComplication)
    why = problem(s, a.player, a.stages)
    if why is not None:
        raise why
    comp = s.complication
    assert comp is not None
    ext = comp.extension or Extension()
    comp.extension = ext
    cost = s.config.addons.extend_cost
    pay(s, a.player, cost, "extending a Complication", rule="UA-EXT-1")
    ext.by = a.player
    ext.whole = {p.key: p.dice for p in comp.pools}
    ext.stages = divide(s, comp, a.stages)
    ext.stage = 0
    _set_stage(comp)
    split = [", ".join(str(sum(n for k, n in st.items() if k in keys)) for st in ext.stages) for keys in side_keys(s, comp)]
    text = a.text.strip()
    words = (f"extends the Complication into {a.stages} stages: the Complication's dice in sub-pools of "
             f"{split[0]}, the Targets' of {split[1]}; stage 1 rolls {_stage_words(s, comp, 0)}"
             + (f": {text}" if text else ""))
    c.emit("extend_complication", words, cost, stages=[dict(st) for st in ext.stages])
    statement(c, "extend_complication", words, cost, lapses=True)  # a Rules Gimmick: may be Challenged
    if s.window is not None:  # no Interrupt: it would hand on the turn while the Pools wait to roll
        s.window.allow_interrupt = False


@handles(A.DeclineExtend)
def decline_extend(c: Ctx) -> None:
    """UA-EXT-1: a player lets the Complication roll whole; once all have, the dice roll."""
    s, a = c.s, c.a
    asked = to_ask(s)
    if a.player not in asked:
        why = problem(s, a.player)
        if why is not None:
            raise why
        raise refuse("UA-EXT-1", EXT, f"{a.player} has already let this Complication roll whole")
    comp = s.complication
    assert comp is not None
    comp.extension = comp.extension or Extension()
    comp.extension.passed.append(a.player)
    c.emit("decline_extend", "lets the Complication roll whole.")


def check_roll(s: GameState) -> None:
    """No roll while a player may still extend the Complication (UA-EXT-1: before the dice are rolled)."""
    left = to_ask(s)
    if left:
        raise refuse("UA-EXT-1", EXT, f"{left[0]} may still extend the Complication before the dice are rolled")


def request(comp: Complication) -> dict[str, int] | None:
    """The dice of this stage, Pool by Pool (None: not an Extended Complication)."""
    if not staged(comp):
        return None
    assert comp.extension is not None
    return {k: comp.pool(k).size for k in comp.extension.stages[comp.extension.stage]}


def stage_sides(comp: Complication, c_keys: list[str], t_keys: list[str]) -> tuple[list[str], list[str]]:
    """The Pools of each side with dice in this stage (all of them when not extended)."""
    if not staged(comp):
        return c_keys, t_keys
    assert comp.extension is not None
    here = comp.extension.stages[comp.extension.stage]
    return [k for k in c_keys if k in here], [k for k in t_keys if k in here]


def label(comp: Complication, side: str) -> str:
    """The result's words with the stage named: "Stage 2 of 3: the Targets win"."""
    if not staged(comp):
        return side
    assert comp.extension is not None
    return f"Stage {comp.extension.stage + 1} of {len(comp.extension.stages)}: " + side[0].lower() + side[1:]


def next_stage(c: Ctx) -> bool:
    """UA-EXT-4: after a stage is narrated, the next pair of sub-pools rolls (L2420 "Then proceed to
    roll and narrate each of the other sub-pool pairs in the same way"); False after the last."""
    s = c.s
    comp = s.complication
    if comp is None or not staged(comp):
        return False
    ext = comp.extension
    assert ext is not None
    if ext.stage + 1 >= len(ext.stages):
        return False
    ext.stage += 1
    _set_stage(comp)
    comp.winner_side = None
    s.narration = None
    s.roll_pending = True
    c.emit("next_stage", f"Stage {ext.stage + 1} of {len(ext.stages)}: {_stage_words(s, comp, ext.stage)} "
           "roll next.", player="", stage=ext.stage + 1)
    return True


def in_play_line(s: GameState) -> str:
    """For a player's view: the open Complication's stages, '' when it is not extended."""
    comp = s.complication
    if comp is None or not staged(comp):
        return ""
    ext = comp.extension
    assert ext is not None
    now = "is being narrated" if s.narration is not None else "rolls now"
    left = len(ext.stages) - ext.stage - 1
    return (f"Extended by {ext.by} into {len(ext.stages)} stages: stage {ext.stage + 1} "
            f"({_stage_words(s, comp, ext.stage)}) {now}; {left} more after it. Bonus coins of a stage buy "
            "narration, not dice for later stages")

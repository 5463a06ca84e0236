"""Scene, plot and dispute add-ons of the Universalis book (seed L1962-2038, L2218-2302).

Open Scene Framing (UA-OPEN-*), Judgment (UA-JUDGE-*), Alternate Reality (UA-ALT-*), Losing and
Using Challenge Bids (UA-LOSEBID-*, UA-USEBID-*), No New Traits in Complications (UA-FREEZE-*),
Plot Pools (UA-PLOT-*) and Plot Threads in their three variants (UA-THREAD-*). Pure: small
records and checks; randomness (a new Judge) is handed in as a seeded choice.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Literal, Mapping, Sequence

from engine.universalis.addon_complications import refuse

OPEN = "Open Scene Framing"
JUDGE = "Judgment"
ALT = "Alternate Reality"
LOSEBID = "Losing Challenge Bids"
USEBID = "Using Challenge Bids"
FREEZE = "No New Traits in Complications"
PLOT = "Plot Pools"
# a Plot Pool is a rule written in play for one plot (the Bank funds it), i.e. a Rules Gimmick: "Pay 1 Coin to
# define the Gimmick and if no one Challenges successfully, it's the rule" (L315); add-ons are "pre-designed
# Rules Gimmicks" (L1311). L2274 names no other price.
PLOT_POOL_COST = 1
THREAD = "Plot Thread"

FreezeMode = Literal["off", "always", "climactic_only"]
ThreadVariant = Literal["off", "holter", "bradley", "mazza"]
CLIMACTIC = "Climactic Scene"


# --- Open Scene Framing (L1970-1976) -------------------------------------------------------------
@dataclass
class OpenScenes:
    """Which scenes are active, who framed each, and which is being played."""

    framers: dict[int, str] = field(default_factory=dict)
    active: list[int] = field(default_factory=list)
    closed: list[int] = field(default_factory=list)
    current: int | None = None

    def frame(self, number: int, player: str, wealth: int, cost: int = 1, max_active: int = 3) -> str | None:
        """UA-OPEN-1: on his turn a player pays 1 Coin to Frame a New Scene; no bidding. Returns a
        note when more scenes are active than the book advises (2-3: advice, never a refusal)."""
        if wealth < cost:
            raise refuse("UA-OPEN-1", OPEN, f"{player} holds {wealth} coins; framing a new scene costs {cost}")
        self.framers[number] = player
        self.active.append(number)
        self.current = number
        if len(self.active) > max_active:
            return f"{len(self.active)} scenes are active; the book advises no more than {max_active}"
        return None

    def switch(self, number: int, player: str, wealth: int, cost: int = 1) -> None:
        """UA-OPEN-2: 1 Coin switches to another active scene; a closed scene can't be switched to."""
        if number in self.closed:
            raise refuse("UA-OPEN-2", OPEN, f"scene {number} faded to black and is closed: it cannot be switched to")
        if number not in self.active:
            raise refuse("UA-OPEN-2", OPEN, f"scene {number} is not an active scene")
        if number == self.current:
            raise refuse("UA-OPEN-2", OPEN, f"scene {number} is already the scene in play")
        if wealth < cost:
            raise refuse("UA-OPEN-2", OPEN, f"{player} holds {wealth} coins; switching scenes costs {cost}")
        self.current = number

    def fade(self, number: int, player: str, wealth: int, cost: int = 1) -> None:
        """UA-OPEN-3: only a scene's framer closes it, on his turn, for 1 Coin (Fade to Black).
        UA-OPEN-4 (engine default, the add-on is silent): Refresh is paid when a scene is closed."""
        if number not in self.active:
            raise refuse("UA-OPEN-3", OPEN, f"scene {number} is not an active scene")
        if self.framers.get(number) != player:
            raise refuse("UA-OPEN-3", OPEN, f"only {self.framers.get(number)}, who framed scene {number}, may close it")
        if wealth < cost:
            raise refuse("UA-OPEN-3", OPEN, f"{player} holds {wealth} coins; Fade to Black costs {cost}")
        self.active.remove(number)
        self.closed.append(number)
        if self.current == number:
            self.current = self.active[-1] if self.active else None


def no_bidding() -> None:
    """UA-OPEN-1: with Open Scene Framing there is no Bidding for Scene (L1970)."""
    raise refuse("UA-OPEN-1", OPEN, "there is no bidding for scenes: frame a new scene on your turn for 1 Coin")


# --- Judgment (L1984-1994) -----------------------------------------------------------------------
def first_judge(spenders: Sequence[str], current: str) -> str | None:
    """UA-JUDGE-2: the Judge is the player who spent Coins before the current player's turn:
    the last spender, in order, who is not the current player (None: nobody has spent yet)."""
    for p in reversed(list(spenders)):
        if p != current:
            return p
    return None


@dataclass
class Judgment:
    """One invocation of Judgment on the `judged` player's action."""

    judged: str
    question: str
    judges: list[str] = field(default_factory=list)
    ruling: str | None = None
    free: bool = False  # every Judge was overruled: the player goes on without further Judgment

    @property
    def judge(self) -> str | None:
        return None if self.free else self.judges[-1]

    def rule(self, player: str, ruling: str) -> None:
        if player != self.judge:
            raise refuse("UA-JUDGE-2", JUDGE, f"{self.judge} is the Judge of this question, not {player}")
        self.ruling = ruling

    def overrule(self, votes: Mapping[str, bool], seats: Sequence[str], choose: Callable[[list[str]], str]) -> bool:
        """UA-JUDGE-3: only a unanimous vote of the other players (everyone but the Judge, the
        judged player included: the digest's reading) overrules; then a new Judge is chosen at
        random among those who were neither Judge nor judged; if none is left, the player goes on
        without Judgment. Returns True if overruled."""
        voters = [p for p in seats if p != self.judge]
        missing = [p for p in voters if p not in votes]
        if missing:
            raise refuse("UA-JUDGE-3", JUDGE, f"{missing[0]} has not voted on overruling the Judge")
        if not all(votes[p] for p in voters):
            return False
        left = [p for p in seats if p not in self.judges and p != self.judged]
        self.ruling = None
        if not left:
            self.free = True
        else:
            self.judges.append(choose(left))
        return True


def judgment_consent(votes: Mapping[str, bool], seats: Sequence[str], actor: str, what: str) -> None:
    """UA-JUDGE-4: while Judgment is invoked, Interrupting or passing the turn needs the consent of a
    majority of the other players."""
    others = [p for p in seats if p != actor]
    yes = sum(1 for p in others if votes.get(p))
    if yes * 2 <= len(others):
        raise refuse("UA-JUDGE-4", JUDGE, f"while Judgment is invoked, {what} needs a majority of the other players "
                                          f"({yes} of {len(others)} agreed)")


def no_challenges() -> None:
    """UA-JUDGE-1: Judgment replaces the Challenge (reading: altogether, L1984)."""
    raise refuse("UA-JUDGE-1", JUDGE, "this table settles disagreements by Judgment, not by Challenge: invoke Judgment")


# --- Alternate Reality (L2002-2008) --------------------------------------------------------------
@dataclass
class Timeline:
    """Scenes on a branching number line: each scene's predecessor and whether it is a mirror."""

    before: dict[int, int | None] = field(default_factory=dict)
    mirror: dict[int, bool] = field(default_factory=dict)
    branch: dict[int, str] = field(default_factory=dict)

    def add(self, number: int, after: int | None, branch: str = "A") -> None:
        self.before[number] = after
        self.mirror[number] = False
        self.branch[number] = branch

    def forks_back(self, number: int | None) -> int:
        n = 0
        while number is not None:
            n += 1 if self.mirror[number] else 0
            number = self.before[number]
        return n

    def fork_cost(self, finished: int) -> int:
        """UA-ALT-1: 1 Coin per fork between the mirror scene and scene 1, the new one included."""
        return 1 + self.forks_back(self.before.get(finished))

    def fork(self, finished: int, new_number: int, player: str, wealth: int, branch: str) -> int:
        """UA-ALT-1/2: mirror the scene just finished: same time, place and Components, no framing
        cost, a fork placed just before it; scene 1 cannot be forked (L2004). Returns the cost."""
        if finished not in self.before:
            raise refuse("UA-ALT-2", ALT, f"there is no scene {finished} to mirror")
        if self.before[finished] is None:
            raise refuse("UA-ALT-2", ALT, "the first scene of the game is the starting point and cannot be forked")
        cost = self.fork_cost(finished)
        if wealth < cost:
            raise refuse("UA-ALT-1", ALT, f"{player} holds {wealth} coins; this mirror scene costs {cost} "
                                          "(1 per fork back to the first scene)")
        self.before[new_number] = self.before[finished]
        self.mirror[new_number] = True
        self.branch[new_number] = branch
        return cost


# --- Challenge bids (L2032-2038) -----------------------------------------------------------------
def concede_refund(bids: Sequence[tuple[str, int, int]], conceder: str, option: int,
                   supporters: bool = False) -> dict[str, int]:
    """UA-LOSEBID-1: a party that concedes gets its bid back; by default only the conceding
    player's own bids on his option, supporters' bids stay with the Bank (digest default)."""
    out: dict[str, int] = {}
    for player, opt, coins in bids:
        if opt == option and (player == conceder or supporters):
            out[player] = out.get(player, 0) + coins
    if conceder not in out:
        raise refuse("UA-LOSEBID-1", LOSEBID, f"{conceder} has bid nothing on that side: there is nothing to recover")
    return out


def reuse_bid(own_bid: int, change_cost: int) -> tuple[int, int, int]:
    """UA-USEBID-1: a challenged player who loses pays the demanded change from his own bid; the
    surplus goes to the Bank as normal. Returns (paid from the bid, surplus lost, still owed)."""
    used = min(own_bid, change_cost)
    return used, own_bid - used, change_cost - used


# --- No New Traits in Complications (L2222-2230) ------------------------------------------------
def freeze_check(mode: FreezeMode, complication_open: bool, climactic: bool, what: str) -> None:
    """UA-FREEZE-1: from Origination until the dice are tallied no Trait may be bought for any
    Component, in play or not (creating a Component included, by the digest's reading).
    UA-FREEZE-2: with the option, only in scenes whose framer bought "Climactic Scene"."""
    if mode == "off" or not complication_open:
        return
    if mode == "climactic_only" and not climactic:
        return
    where = " in a Climactic Scene" if mode == "climactic_only" else ""
    raise refuse("UA-FREEZE-2" if mode == "climactic_only" else "UA-FREEZE-1", FREEZE,
                 f"no new Traits during a Complication{where}: {what} must wait until the dice are tallied")


# --- Plot Pools (L2274-2278) ---------------------------------------------------------------------
@dataclass
class PlotPool:
    name: str
    coins: int
    spent: dict[tuple[int, str], int] = field(default_factory=dict)  # (scene, player or "*") -> coins


def create_plot_pool(name: str, size: int, low: int = 10, high: int = 50) -> PlotPool:
    """UA-PLOT-1: a plot gets 10-50 Coins from the Bank (L2274)."""
    if not low <= size <= high:
        raise refuse("UA-PLOT-1", PLOT, f"a Plot Pool holds {low} to {high} coins, not {size}")
    return PlotPool(name=name, coins=size)


def plot_spend(pool: PlotPool, player: str, scene: int, amount: int, per_scene: int = 2,
               scope: Literal["per_player", "total"] = "per_player") -> None:
    """UA-PLOT-2: any player, on his turn, spends at most 2 of its Coins per scene on that plot
    (per player by default; `scope="total"` caps all players together)."""
    key = (scene, player if scope == "per_player" else "*")
    used = pool.spent.get(key, 0)
    if amount < 1:
        raise refuse("UA-PLOT-2", PLOT, "spend at least 1 coin")
    if used + amount > per_scene:
        who = f"{player} has" if scope == "per_player" else "the table has"
        raise refuse("UA-PLOT-2", PLOT, f"{who} spent {used} of “{pool.name}” this scene; at most {per_scene} per scene")
    if amount > pool.coins:
        raise refuse("UA-PLOT-2", PLOT, f"“{pool.name}” holds {pool.coins} coins; {amount} were asked for")
    pool.coins -= amount
    pool.spent[key] = used + amount


# --- Plot Threads (L2286-2302) -------------------------------------------------------------------
@dataclass
class PlotThread:
    name: str
    creator: str
    scene_created: int | None
    tied: list[str] = field(default_factory=list)
    weight: int = 0
    resolved: bool = False


def thread_cost(variant: ThreadVariant, tied: int) -> int:
    """UA-THREAD-1: Holter: 1 Coin plus 1 per Component tied to it (L2286); Bradley and Mazza: 1 (L2296, L2302)."""
    if variant == "off":
        raise refuse("UA-THREAD-1", THREAD, "this table does not play with Plot Threads")
    return 1 + (tied if variant == "holter" else 0)


def thread_introduced(variant: ThreadVariant, th: PlotThread) -> None:
    """UA-THREAD-2: Holter: each Introduction (1 Coin, as any) adds 1 Weight (L2288); Bradley's
    threads are never Introduced (L2296); Mazza's are Introduced like a Component, with no Weight."""
    if variant == "bradley":
        raise refuse("UA-THREAD-2", THREAD, "in this variant Plot Threads are not Introduced; they gain Weight each scene")
    if variant == "holter":
        th.weight += 1


def thread_scene_end(variant: ThreadVariant, th: PlotThread, scene: int) -> None:
    """UA-THREAD-2: Bradley: +1 Weight at each scene end after the thread was Created (reading)."""
    if variant == "bradley" and not th.resolved and th.scene_created is not None and scene > th.scene_created:
        th.weight += 1
    elif variant == "bradley" and not th.resolved and th.scene_created is None:
        th.weight += 1


def thread_resolve(variant: ThreadVariant, th: PlotThread) -> int:
    """UA-THREAD-3: whoever resolves it gets its Weight in Coins (Challengeable, L2290, L2296);
    Mazza's variant has no reward: it ends by Elimination (L2302; engine default)."""
    if th.resolved:
        raise refuse("UA-THREAD-3", THREAD, f"“{th.name}” is already resolved")
    if variant == "mazza":
        raise refuse("UA-THREAD-3", THREAD, "in this variant a Plot Thread pays nothing on resolution: "
                                            "it ends when its Importance is bought off")
    th.resolved = True
    return th.weight

"""The Universalis add-ons (book L1866-2505) as one typed table option, `Addons`.

Why one flat model: every add-on of the digest's section 1 and 2 (`shared/rules/universalis-addons.md`)
becomes fields here whose defaults are the core rules, so a game without add-ons is the core game and
its log is byte-for-byte what it was before. The model rides in `Config.addons`, is written into the
log header (only the fields that differ from the core), and a replay rebuilds it from there.

`check_addons` refuses, at setup, combinations the book says need each other or exclude each other,
naming the add-on that refuses. The registry (`engine.universalis.addon_registry`) lists them for the
CLI and the app as the book groups them.
"""
from __future__ import annotations

from typing import Any, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine.core.errors import RuleViolation


class _Opt(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    def __deepcopy__(self, memo: dict | None = None) -> "_Opt":  # immutable: share, never copy
        return self


class Job(_Opt):
    """A Metagame Job (L1914): the Bank pays `player` `coins` on `schedule` for the duties of `title`."""

    player: str = Field(min_length=1, max_length=60)
    title: str = Field(min_length=1, max_length=120)
    coins: int = Field(default=1, ge=0, le=100)
    # "scene" (each scene end), "session_start", "session_end", "item" (per item produced, paid by
    # the table's say-so), or any other words: a schedule the table keeps by hand (@253316)
    schedule: str = Field(default="scene", min_length=1, max_length=120)


class ComponentSpec(_Opt):
    """A Seed Element (L1946): a pre-made Component, an ambiguous name/role plus a call to action."""

    kind: Literal["character", "location", "prop"] = "character"
    role: str = Field(min_length=1, max_length=200, description="the ambiguous name/role Trait, e.g. 'Orion'")
    call_to_action: str = Field(min_length=1, max_length=200, description="e.g. 'needs to be rescued'")
    by: Optional[str] = Field(default=None, description="who brings it; default the starting player")


FirstSceneCoins = Literal["none", "refresh", "reset_to_start"]
MultiTargetMode = Literal["standard", "independent", "split", "individual", "all_or_none", "best_efforts"]


class Addons(_Opt):
    """Every add-on's table option; each default is the core rule (the add-on is off)."""

    # --- Game Preparation add-ons (L1872-1960) -----------------------------------------------
    first_scene_coins: FirstSceneCoins = "none"  # Extra Refresh Before First Scene (L1874)
    setting_phase_pool: Optional[int] = Field(default=None, ge=1, le=1000)  # Setting Creation Phase (L1890)
    extra_prep_phases: tuple[Literal["characters", "situation", "premise"], ...] = ()
    serial_require_open_thread: bool = False  # Serial Game Structure (L1904): a reminder
    jobs: tuple[Job, ...] = ()  # Metagame Jobs (L1914)
    max_tenets_per_turn: Optional[int] = Field(default=1, ge=1, le=100)  # Multiple Tenets (L1940): None
    tenets_same_idea: bool = False
    seed_component: Optional[ComponentSpec] = None  # Seed Element (L1946)

    # --- Game Play add-ons (L1960-2056) --------------------------------------------------------
    open_scene_framing: bool = False  # Open Scene Framing (L1962)
    frame_scene_cost: int = Field(default=1, ge=0, le=100)
    switch_scene_cost: int = Field(default=1, ge=0, le=100)
    fade_to_black_cost: int = Field(default=1, ge=0, le=100)
    max_active_scenes: int = Field(default=3, ge=1, le=20)  # book advice, soft
    open_scene_refresh: Literal["on_fade", "on_frame"] = "on_fade"
    dispute_mode: Literal["challenge", "judgment"] = "challenge"  # Judgment (L1980)
    judgment_scope: Literal["replaces_challenges", "named_disputes"] = "replaces_challenges"  # reading
    judged_player_votes: bool = True  # reading: the judged player votes to overrule
    alternate_realities: bool = False  # Alternate Reality (L1996)
    friendly_control: Literal["off", "cede", "free_takeover"] = "off"  # Friendly Control (L2010)
    challenge_concede_refund: bool = False  # Losing Challenge Bids (L2026)
    concede_refund_supporters: bool = False
    challenge_loser_bid_reuse: bool = False  # Using Challenge Bids (L2034)
    # Cards as Coins (L2040, cards_bank) and Cards instead of Dice (L2428: cards_hand; Mazza: cards_stack)
    currency: Literal["coins", "cards_bank", "cards_hand", "cards_stack"] = "coins"
    # None = face cards removed (§2.5a); a dict keeps them (UA-CARDS-4): who pays when a "J", "Q" or "K" is spent
    # ("right", "left", "across"); a face it leaves out plays the book's example (FACE_SPEND), so {} is the book's
    face_card_gimmick: Optional[dict[str, str]] = None
    cards_with_face_cards: bool = False  # §2.5b quirk: 5/13 success with face cards kept
    bonus_cards_from: Literal["own_deck", "bank_deck"] = "own_deck"  # §2.5b reading

    # --- Component Creation add-ons (L2056-2268) ----------------------------------------------
    control_traits: bool = False  # Greater Control (L2058)
    control_traits_characters_only: bool = False
    control_traits_per_player: Optional[int] = Field(default=None, ge=1, le=100)
    control_traits_any_creator: bool = False
    control_traits_immutable: bool = False
    public_domain_traits: bool = False  # Public Domain Trait (L2072)
    royalty: bool = False  # Royalty (L2084); needs Greater Control
    player_characters: bool = False  # Player Character (L2094)
    pc_cost: int = Field(default=5, ge=0, le=100)
    pcs_per_player: int = Field(default=1, ge=1, le=20)
    pc_trait_extra_cost: int = Field(default=0, ge=0, le=100)  # reading alternative: 1 (6 in all)
    pc_endowment: int = Field(default=0, ge=0, le=1000)  # PC Endowment Pool (L2110): 25 when adopted
    pc_protection: Literal["off", "double", "owner_only"] = "off"  # PC Plot Protection (L2120)
    protection_any_component: Optional[int] = Field(default=None, ge=0, le=100)  # its price
    owner_only_bars_trait_removal: bool = False  # reading alternative
    pc_paragraph_words: Optional[tuple[int, int]] = None  # PC Descriptive Paragraph (L2134): (100, 200)
    pc_story_drivers: bool = False  # PC Story Drivers (L2144)
    durable_cost: Optional[int] = Field(default=None, ge=0, le=100)  # Durable Components (L2168): 5
    durable_multiplier: int = Field(default=2, ge=1, le=10)
    durable_counts_importance: bool = True
    enigma_trait_cost: Optional[int] = Field(default=None, ge=0, le=100)  # Enigma Traits (L2180): 2
    enigma_secret_counts_importance: bool = True
    protagonist_refresh: Optional[int] = Field(default=None, ge=0, le=1000)  # Protagonist Refresh Boost (L2206): 7
    protagonist_refresh_antagonist: bool = False
    protagonist_refresh_relative: bool = False  # reading alternative: the group's rate + 2
    complication_trait_freeze: Literal["off", "always", "climactic_only"] = "off"  # L2218
    freeze_bars_creation: bool = True  # reading
    freeze_scope: Literal["outermost", "own"] = "outermost"  # reading, with Nested Complications
    named_characters_locked: bool = False  # Named Character Limit (L2232)
    named_lock_includes_naming: bool = True  # reading: naming an unnamed character counts
    max_positive_traits: Optional[int] = Field(default=None, ge=1, le=100)  # Only 1 Trait per Turn (L2242): 1
    positive_traits_window: Literal["turn", "scene"] = "turn"
    allow_trait_multiples: bool = True  # No Same Trait Multiple Times (L2248): False
    importance_cap: Literal["off", "protagonist", "ensemble_max", "ensemble_min"] = "off"  # L2258

    # --- Narration add-ons (L2268-2306) ---------------------------------------------------------
    plot_pools: bool = False  # Plot Pools (L2270)
    plot_pool_min: int = Field(default=10, ge=0, le=1000)
    plot_pool_max: int = Field(default=50, ge=0, le=1000)
    plot_pool_spend_per_scene: int = Field(default=2, ge=1, le=100)
    plot_pool_cap_scope: Literal["per_player", "total"] = "per_player"
    plot_threads: Literal["off", "holter", "bradley", "mazza"] = "off"  # Plot Thread (L2280)
    bradley_counts_creation_scene: bool = False  # reading alternative

    # --- Complication add-ons (L2306-2442) ---------------------------------------------------------
    allow_dice_subtraction: bool = True  # Dice Only Added (L2308): False
    multi_target_mode: MultiTargetMode = "standard"  # §2.1 (Standard = core)
    split_tie: Literal["core", "complication"] = "core"  # §2.1 Split Allocation, unspec
    split_c_coins: Literal["per_assigned", "whole_roll"] = "per_assigned"
    worst_best_tie: Literal["core", "complication"] = "core"  # §2.1 All or None / Best Efforts
    nested_complications: bool = False  # §2.2
    die: Literal["d10", "d6"] = "d10"  # §2.4
    allow_extended: bool = False  # §2.3
    extend_cost: int = Field(default=1, ge=0, le=100)
    extended_divide: Literal["side", "pool"] = "side"
    pool_per_participant: bool = False  # §2.6 (core Chapter Six optional rule, L1040)

    # --- Intersession add-ons (L2442-2505) ---------------------------------------------------------
    carry_over_sessions: bool = False  # Standard Intersession Rules (L2446)
    require_original_players: bool = False  # Players Present Limit (L2456)
    revisit_tenets_each_session: bool = False  # Revisit Game Tenets (L2462)
    new_player_admission: Literal["off", "gimmick", "open"] = "off"  # Introduce New Players (L2468)
    max_players_per_story: Optional[int] = Field(default=None, ge=2, le=20)
    max_players_per_session: Optional[int] = Field(default=None, ge=2, le=20)
    new_player_wealth: Union[Literal["start", "max", "min", "mean"], int] = "start"
    new_player_wealth_scope: Literal["once", "policy"] = "policy"
    session_end_refresh: bool = False  # Coin Option Gimmicks (L2484)
    session_start_wealth: Optional[int] = Field(default=None, ge=0, le=10_000)
    intersession_creation_pool: int = Field(default=0, ge=0, le=1000)  # Create Components Between Sessions (L2496)
    intersession_use_or_lose: bool = False

    # --- helpers ---------------------------------------------------------------------------------------
    def changed(self) -> dict[str, Any]:
        """Only the fields that differ from the core rules: what the log header records."""
        return self.model_dump(mode="json", exclude_defaults=True)

    @property
    def any(self) -> bool:
        return bool(self.changed())


CORE = Addons()

# UA-CARDS-4 (L2052): a face card spent makes another player pay the coin; the book's example, which a table
# may change: a Jack the player to the right, a Queen the player to the left, a King the player across
FACE_SPEND = {"J": "right", "Q": "left", "K": "across"}
FACE_PAYERS = ("right", "left", "across")


def face_payers(gimmick: dict[str, str]) -> dict[str, str]:
    """Who pays when each face card is spent, in words ("the player to the right", "the player across")."""
    return {k: "the player across" if v == "across" else f"the player to the {v}" for k, v in {**FACE_SPEND, **gimmick}.items()}


def _need(cond: bool, rule: str, why: str) -> None:
    if not cond:
        raise RuleViolation(rule, why)


def check_addons(a: Addons, players: tuple[str, ...] | list[str] | None = None,
                 starting_coins: int = 25) -> None:
    """Refuse add-on combinations the book says need or exclude each other (UA-SETUP-1..)."""
    r = "UA-SETUP-1"
    _need(not a.royalty or a.control_traits, r,
          "Royalty refuses: it needs Greater Control Over Created Components (L2088: 'Must first be playing with Bob's Control Add-on above')")
    subs = [f for f in ("control_traits_characters_only", "control_traits_any_creator", "control_traits_immutable")
            if getattr(a, f)] + (["control_traits_per_player"] if a.control_traits_per_player is not None else [])
    _need(a.control_traits or not subs, r,
          f"Greater Control's option {subs[0] if subs else ''} needs Greater Control itself (L2058)")
    pc = a.player_characters
    _need(a.pc_endowment == 0 or pc, "UA-SETUP-2",
          "PC Endowment Pool refuses: it endows a Player Character, so it needs the Player Character add-on (L2110)")
    _need(a.pc_paragraph_words is None or a.pc_endowment > 0, "UA-SETUP-2",
          "PC Descriptive Paragraph refuses: it is meant for use with the PC Endowment Pool (L2134)")
    if a.pc_paragraph_words is not None:
        lo, hi = a.pc_paragraph_words
        _need(0 < lo <= hi, "UA-SETUP-2", "PC Descriptive Paragraph: the word guideline is (fewest, most), fewest first")
    _need(not a.pc_story_drivers or a.pc_endowment > 0, "UA-SETUP-2",
          "PC Story Drivers refuses: Driver Coins go to the PC Endowment Pool, so it needs that add-on (L2144)")
    _need(a.pc_protection == "off" or pc or a.protection_any_component is not None, "UA-SETUP-2",
          "PC Plot Protection refuses: it protects Player Characters; without the Player Character add-on "
          "set a price for protecting any important Component (L2120 option)")
    _need(a.protection_any_component is None or a.pc_protection != "off", "UA-SETUP-2",
          "PC Plot Protection's any-Component option needs PC Plot Protection itself (L2120)")
    _need(not a.owner_only_bars_trait_removal or a.pc_protection == "owner_only", "UA-SETUP-2",
          "PC Plot Protection: barring Trait removal is a reading of the owner-only option, which is off")
    _need(pc or (a.pc_cost, a.pcs_per_player, a.pc_trait_extra_cost) == (5, 1, 0), "UA-SETUP-2",
          "Player Character settings need the Player Character add-on (L2094)")
    # Judgment replaces the Challenge variant (L1980): Challenge-bid add-ons have nothing to act on
    if a.dispute_mode == "judgment" and a.judgment_scope == "replaces_challenges":
        for f, name in (("challenge_concede_refund", "Losing Challenge Bids"),
                        ("challenge_loser_bid_reuse", "Using Challenge Bids")):
            _need(not getattr(a, f), "UA-SETUP-3",
                  f"{name} refuses: Judgment replaces Challenges (L1980), so there are no Challenge bids to "
                  f"{'return' if f == 'challenge_concede_refund' else 'reuse'}")
    _need(a.dispute_mode == "judgment" or (a.judgment_scope, a.judged_player_votes) == ("replaces_challenges", True),
          "UA-SETUP-3", "Judgment settings need the Judgment add-on (L1980)")
    _need(not a.concede_refund_supporters or a.challenge_concede_refund, "UA-SETUP-3",
          "Losing Challenge Bids: returning supporters' bids needs the add-on itself (L2026)")
    _need(a.max_tenets_per_turn != 1 or not a.tenets_same_idea, "UA-SETUP-4",
          "Multiple Tenets: 'all related to the same basic idea' only matters when more than 1 Tenet a turn is allowed (L1940)")
    _need(not a.extra_prep_phases or a.setting_phase_pool is not None, "UA-SETUP-4",
          "Setting Creation Phase: extra phases for characters, situation or premise are options of that add-on (L1890)")
    _need(a.protagonist_refresh is not None or not (a.protagonist_refresh_antagonist or a.protagonist_refresh_relative),
          "UA-SETUP-5", "Protagonist Refresh Boost: its options need the add-on itself (L2206)")
    _need(a.max_positive_traits is not None or a.positive_traits_window == "turn", "UA-SETUP-5",
          "Only 1 Trait per Turn: the per-scene window needs the add-on itself (L2242)")
    _need(a.durable_cost is not None or (a.durable_multiplier, a.durable_counts_importance) == (2, True),
          "UA-SETUP-5", "Durable Components: its settings need the add-on itself (L2168)")
    _need(a.enigma_trait_cost is not None or a.enigma_secret_counts_importance, "UA-SETUP-5",
          "Enigma Traits: its settings need the add-on itself (L2180)")
    _need(a.complication_trait_freeze != "off" or (a.freeze_bars_creation, a.freeze_scope) == (True, "outermost"),
          "UA-SETUP-5", "No New Traits in Complications: its readings need the add-on itself (L2218)")
    _need(a.named_characters_locked or a.named_lock_includes_naming, "UA-SETUP-5",
          "Named Character Limit: its reading needs the add-on itself (L2232)")
    _need(a.plot_pool_min <= a.plot_pool_max, "UA-SETUP-6", "Plot Pools: the smallest pool exceeds the largest (L2270)")
    _need(a.plot_threads == "bradley" or not a.bradley_counts_creation_scene, "UA-SETUP-6",
          "Plot Thread: counting the scene of Creation is a reading of the Bradley variant (L2280)")
    _need(a.face_card_gimmick is None or a.currency == "cards_bank", "UA-SETUP-7",
          "Cards as Coins: a face-card Gimmick needs the Cards as Coins add-on (L2040)")
    gimmick = a.face_card_gimmick or {}
    _need(all(k in FACE_SPEND and v in FACE_PAYERS for k, v in gimmick.items()), "UA-SETUP-7",
          "Cards as Coins with face cards kept: the Gimmick names who pays when a J, Q or K is spent: "
          "\"right\", \"left\" or \"across\" (L2052); the effects in a Pool are the book's")
    _need(a.face_card_gimmick is None or a.multi_target_mode != "split", "UA-SETUP-7",
          "Cards as Coins with face cards kept refuses Split Allocation: the Originator hands out success cards, "
          "and a Jack's cancelled or a King's extra Success is no card to hand out (L2052, L2350)")
    _need(not a.cards_with_face_cards or a.currency in ("cards_hand", "cards_stack"), "UA-SETUP-7",
          "Cards instead of Dice: keeping face cards needs that add-on (L2428)")
    _need(a.bonus_cards_from == "own_deck" or a.currency in ("cards_hand", "cards_stack"), "UA-SETUP-7",
          "Cards instead of Dice: where bonus cards come from needs that add-on (L2428)")
    _need(a.die == "d10" or a.currency not in ("cards_hand", "cards_stack"), "UA-SETUP-7",
          "Using d6s refuses: Cards instead of Dice replaces the dice altogether (L2402, L2428)")
    _need(a.multi_target_mode in ("all_or_none", "best_efforts") or a.worst_best_tie == "core", "UA-SETUP-7",
          "Multiple Targets: giving ties to the Complication is an option of All or None and Best Efforts (L2370-2384)")
    split_set = (a.split_tie, a.split_c_coins) != ("core", "per_assigned")
    _need(a.multi_target_mode != "individual" or not split_set, "UA-SETUP-7",
          "Multiple Targets: Individual Pools is not mixed with Split Allocation here (L2362 \"some Targets are "
          "faced with a separate Complication Pool and some gang up on another\"): the book does not say who "
          "groups the Targets onto the Complication Pools, nor whether a group rolls at once while the pairs "
          "roll one at a time, narrated in between (L2364); choose one method")
    _need(a.multi_target_mode in ("split", "individual") or not split_set, "UA-SETUP-7",
          "Multiple Targets: the tie and coin settings of Split Allocation need that method (L2350)")
    _need(a.multi_target_mode != "individual" or not a.pool_per_participant, "UA-SETUP-7",
          "Multiple Targets: Individual Pools give each Target player's Pool a Complication Pool; "
          "Own Pool per Participant's declared Pools have none (L2360, L1040)")
    _need(a.allow_extended or (a.extend_cost, a.extended_divide) == (1, "side"), "UA-SETUP-7",
          "Extended Complications: its settings need the add-on itself (L2412)")
    _need(a.open_scene_framing or (a.frame_scene_cost, a.switch_scene_cost, a.fade_to_black_cost, a.max_active_scenes,
                                   a.open_scene_refresh) == (1, 1, 1, 3, "on_fade"), "UA-SETUP-8",
          "Open Scene Framing: its settings need the add-on itself (L1962)")
    faces = ((a.currency in ("cards_hand", "cards_stack") and a.cards_with_face_cards)  # UA-CDICE-5: 52-card decks
             or (a.currency == "cards_bank" and a.face_card_gimmick is not None))  # UA-CARDS-4
    _need(a.currency == "coins" or starting_coins <= (52 if faces else 40), "UA-SETUP-7",
          f"Cards as Coins / Cards instead of Dice refuses: a deck "
          + ("of 52 cards" if faces else "without face cards holds 40 cards")
          + f", so nobody starts with {starting_coins} coins (L2046, L2428)")
    _need(not (a.open_scene_framing and a.alternate_realities), "UA-SETUP-8",
          "Alternate Reality refuses to be played with Open Scene Framing: it forks one scene on a single number "
          "line, and with several scenes active at once the engine cannot tell which came before (L1996)")
    _need(a.new_player_admission != "off" or (a.max_players_per_story, a.max_players_per_session,
                                              a.new_player_wealth, a.new_player_wealth_scope) == (None, None, "start", "policy"),
          "UA-SETUP-9", "Introduce New Players: caps and newcomers' Coins need the add-on itself (L2468)")
    _need(a.intersession_creation_pool > 0 or not a.intersession_use_or_lose, "UA-SETUP-9",
          "Create Components Between Sessions: use-or-lose needs a pool (L2496)")
    if players is not None:
        names = set(players)
        if a.max_players_per_story is not None and len(names) > a.max_players_per_story:
            raise RuleViolation("UA-SETUP-9", f"Introduce New Players refuses: {len(names)} players is more than "
                                              f"the story's cap of {a.max_players_per_story} (L2468)")
        for j in a.jobs:
            _need(j.player in names, "UA-SETUP-10",
                  f"Metagame Jobs refuses: {j.player[:40]!r} holds the job {j.title[:40]!r} but is not at this table (L1914)")
        if a.seed_component is not None and a.seed_component.by is not None:
            _need(a.seed_component.by in names, "UA-SETUP-10",
                  f"Seed Element refuses: {a.seed_component.by[:40]!r} brings it but is not at this table (L1946)")
    # an add-on the engine would silently ignore is refused (addons-comp, engine/universalis/addon_hooks.py)
    from engine.universalis.addon_hooks import refuse_unplayed
    refuse_unplayed(a)


def parse_addons(data: Addons | dict | None) -> Addons:
    """The add-ons from a header or the table's options; a bad one is a one-line RuleViolation."""
    if data is None:
        return CORE
    if isinstance(data, Addons):
        return CORE if data == CORE else data
    if not isinstance(data, dict):
        raise RuleViolation("UA-SETUP-0", "the add-ons must be a table of option names and values")
    try:
        out = Addons.model_validate(data)
        return CORE if out == CORE else out
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(map(str, first["loc"])) or "add-ons"
        if first.get("type") == "extra_forbidden":
            raise RuleViolation("UA-SETUP-0", f"there is no add-on option {where[:40]!r}") from None
        raise RuleViolation("UA-SETUP-0", f"bad add-on option {where[:40]}: {str(first['msg'])[:120]}") from None

"""The catalogue of Universalis add-ons for people: name, book group, one line, book line, fields.

Why separate from `addons.py`: the option model is what the rules read; this is what the CLI
(`storytable addons`, `--addon NAME[=VALUE]`) and the app's setup page show and parse. Each entry
says what adopting the add-on sets (`adopt`) and which field a `=VALUE` sets (`value_field`).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from engine.core.errors import RuleViolation
from engine.universalis.addons import Addons, check_addons, parse_addons

# the book's own groups, in its order (L1866-2505)
GROUPS = ("Game Preparation", "Game Play", "Component Creation", "Making Protagonists Special", "Narration",
          "Complication", "Intersession")


@dataclass(frozen=True)
class AddonInfo:
    key: str  # what --addon takes
    name: str  # the book's title
    group: str
    line: int  # the rulebook seed line where it starts
    summary: str  # one line, a player's words
    fields: tuple[str, ...]  # the Addons fields it owns
    adopt: dict[str, Any] = field(default_factory=dict)  # what adopting it sets
    value_field: str | None = None  # what NAME=VALUE sets
    social: bool = False  # no engine rule: the table keeps it


REGISTRY: tuple[AddonInfo, ...] = (
    AddonInfo("extra-refresh", "Additional Coin Refreshment Before First Scene", "Game Preparation", 1874,
              "Everyone gets a normal Refresh before the first scene (variant: reset Wealth to the start value).",
              ("first_scene_coins",), {"first_scene_coins": "refresh"}, "first_scene_coins"),
    AddonInfo("setting-phase", "Setting Creation Phase", "Game Preparation", 1890,
              "Before the first scene each player spends a separate 25-Coin pool on setting only; leftovers are lost.",
              ("setting_phase_pool", "extra_prep_phases"), {"setting_phase_pool": 25}, "setting_phase_pool"),
    AddonInfo("serial-game", "Serial Game Structure", "Game Preparation", 1904,
              "Leave at least one plot thread dangling at the end of each session (a reminder).",
              ("serial_require_open_thread",), {"serial_require_open_thread": True}),
    AddonInfo("metagame-jobs", "Metagame Jobs", "Game Preparation", 1914,
              "A 1-Coin Gimmick gives a player a job (record keeper, host...) the Bank pays Coins for.",
              ("jobs",), {}, "jobs"),
    AddonInfo("multiple-tenets", "Multiple Tenets", "Game Preparation", 1940,
              "Several Tenets a turn, 1 Coin each, as long as they share one basic idea.",
              ("max_tenets_per_turn", "tenets_same_idea"), {"max_tenets_per_turn": None, "tenets_same_idea": True}),
    AddonInfo("seed-element", "Seed Element", "Game Preparation", 1946,
              "One pre-made Component (a name and a call to action) is the first Tenet of Game Prep.",
              ("seed_component",), {}, "seed_component"),
    AddonInfo("open-scene-framing", "Open Scene Framing", "Game Play", 1962,
              "No scene bids: on your turn pay 1 to frame a new scene or 1 to switch between open scenes.",
              ("open_scene_framing", "frame_scene_cost", "switch_scene_cost", "fade_to_black_cost", "max_active_scenes",
               "open_scene_refresh"),
              {"open_scene_framing": True}),
    AddonInfo("judgment", "Judgment, Challenge Variant", "Game Play", 1980,
              "Disputes go to a Judge (who spent Coins before this turn) instead of Challenge bidding.",
              ("dispute_mode", "judgment_scope", "judged_player_votes"), {"dispute_mode": "judgment"}),
    AddonInfo("alternate-reality", "Alternate Reality Variant", "Game Play", 1996,
              "At a scene's end, fork a mirror of it (same place, time, Components); 1 per fork back to scene 1.",
              ("alternate_realities",), {"alternate_realities": True}),
    AddonInfo("friendly-control", "Friendly Control", "Game Play", 2010,
              "A Controller may hand Control to anyone for free (variant: take Control for 0 on your turn).",
              ("friendly_control",), {"friendly_control": "cede"}, "friendly_control"),
    AddonInfo("free-dialog", "Free Dialog", "Game Play", 2018,
              "The book's text repeats Friendly Control word for word; no rule can be recovered.", (), social=True),
    AddonInfo("losing-challenge-bids", "Losing Challenge Bids", "Game Play", 2026,
              "A side that concedes a Challenge gets its own bid back.",
              ("challenge_concede_refund", "concede_refund_supporters"), {"challenge_concede_refund": True}),
    AddonInfo("using-challenge-bids", "Using Challenge Bids", "Game Play", 2034,
              "A Challenged player who loses pays for the Challenger's changes out of his own bid.",
              ("challenge_loser_bid_reuse",), {"challenge_loser_bid_reuse": True}),
    AddonInfo("cards-as-coins", "Using Cards as Coins", "Game Play", 2040,
              "Each player's deck is the Bank; Coins are face-down cards, dice come from cards.",
              ("currency", "face_card_gimmick"), {"currency": "cards_bank"}, "currency"),
    AddonInfo("greater-control", "Greater Control Over Created Components", "Component Creation", 2058,
              "A 'Controlled by <player>' Trait on your Component: your Coins count double in Control Challenges.",
              ("control_traits", "control_traits_characters_only", "control_traits_per_player",
               "control_traits_any_creator", "control_traits_immutable"), {"control_traits": True}),
    AddonInfo("public-domain", "Public Domain Trait", "Component Creation", 2072,
              "Taking Over a Component with this Trait costs 0 (it can still be Challenged).",
              ("public_domain_traits",), {"public_domain_traits": True}),
    AddonInfo("royalty", "Royalty Add-on", "Component Creation", 2084,
              "Pay +1 to the Control Trait's player on a Take Over and it can't be Challenged (needs Greater Control).",
              ("royalty",), {"royalty": True}),
    AddonInfo("player-character", "Player Character Add-on", "Component Creation", 2094,
              "Once per game, 5 Coins make a character yours for good: only you Control it.",
              ("player_characters", "pc_cost", "pcs_per_player", "pc_trait_extra_cost"), {"player_characters": True},
              "pc_cost"),
    AddonInfo("pc-endowment", "The PC Endowment Pool", "Component Creation", 2110,
              "A separate 25-Coin pool, never refreshed, only for your PC's Traits and dice.",
              ("pc_endowment",), {"pc_endowment": 25}, "pc_endowment"),
    AddonInfo("pc-protection", "PC Plot Protection", "Component Creation", 2120,
              "Eliminating a PC by reducing Importance costs double.",
              ("pc_protection", "protection_any_component", "owner_only_bars_trait_removal"),
              {"pc_protection": "double"}, "pc_protection"),
    AddonInfo("pc-paragraph", "PC Descriptive Paragraph Add-on", "Component Creation", 2134,
              "Describe your PC in 100-200 words; its Traits are drawn from it and paid from the Endowment.",
              ("pc_paragraph_words",), {"pc_paragraph_words": (100, 200)}),
    AddonInfo("pc-drivers", "PC Story Drivers", "Component Creation", 2144,
              "Your PC's motivation: +1 Endowment Coin per scene that touches it, more when resolved.",
              ("pc_story_drivers",), {"pc_story_drivers": True}),
    AddonInfo("durable", "Durable Components", "Component Creation", 2168,
              "A 5-Coin 'Durable' Trait: removing its Traits or lowering its Importance costs double.",
              ("durable_cost", "durable_multiplier", "durable_counts_importance"), {"durable_cost": 5}, "durable_cost"),
    AddonInfo("enigma", "Enigma Traits", "Component Creation", 2180,
              "A secret Trait for 2 Coins: useless until revealed, then a Fact even against earlier contradictions.",
              ("enigma_trait_cost", "enigma_secret_counts_importance"), {"enigma_trait_cost": 2}, "enigma_trait_cost"),
    AddonInfo("protagonist-refresh", "Protagonist Refresh Boost", "Making Protagonists Special", 2206,
              "After a scene with the main character in it, Refresh is 7 instead of 5.",
              ("protagonist_refresh", "protagonist_refresh_antagonist", "protagonist_refresh_relative"),
              {"protagonist_refresh": 7}, "protagonist_refresh"),
    AddonInfo("no-new-traits-in-complications", "No New Traits During Complications", "Making Protagonists Special",
              2218, "From Origination until the dice are tallied, nobody buys Traits.",
              ("complication_trait_freeze", "freeze_bars_creation", "freeze_scope"),
              {"complication_trait_freeze": "always"}, "complication_trait_freeze"),
    AddonInfo("named-character-limit", "Named Character Limit", "Making Protagonists Special", 2232,
              "No new named characters may be Created.",
              ("named_characters_locked", "named_lock_includes_naming"), {"named_characters_locked": True}),
    AddonInfo("one-trait-per-turn", "Only 1 Trait per Turn", "Making Protagonists Special", 2242,
              "No character gains more than 1 neutral or positive Trait a turn; negative ones are unlimited.",
              ("max_positive_traits", "positive_traits_window"), {"max_positive_traits": 1}, "max_positive_traits"),
    AddonInfo("no-trait-multiples", "No Purchasing the Same Trait Multiple Times", "Making Protagonists Special", 2248,
              "No 'x2' Traits, except Group (number) Traits.",
              ("allow_trait_multiples",), {"allow_trait_multiples": False}),
    AddonInfo("protagonist-most-important", "Protagonists Must be Most Important Character",
              "Making Protagonists Special", 2258,
              "No character may be more Important than the 'Main Protagonist' (the Main Antagonist excepted).",
              ("importance_cap",), {"importance_cap": "protagonist"}, "importance_cap"),
    AddonInfo("plot-pools", "Plot Pools", "Narration", 2270,
              "A plot gets 10-50 Bank Coins; on your turn spend up to 2 of them a scene on it.",
              ("plot_pools", "plot_pool_min", "plot_pool_max", "plot_pool_spend_per_scene", "plot_pool_cap_scope"),
              {"plot_pools": True}),
    AddonInfo("plot-thread", "Plot Thread", "Narration", 2280,
              "An unresolved conflict as a Component; it gains Weight and pays it to whoever resolves it.",
              ("plot_threads", "bradley_counts_creation_scene"), {"plot_threads": "holter"}, "plot_threads"),
    AddonInfo("dice-only-added", "Dice Can Only be Added to Dice Pools", "Complication", 2308,
              "No subtracting dice: each would-be subtraction adds a die to the other side.",
              ("allow_dice_subtraction",), {"allow_dice_subtraction": False}),
    AddonInfo("multiple-targets", "Multiple Targets to a Complication", "Complication", 2320,
              "How a Complication with several Targets resolves (standard, independent, split, ...).",
              ("multi_target_mode", "split_tie", "split_c_coins", "worst_best_tie"), {}, "multi_target_mode"),
    AddonInfo("nested-complications", "Nested Complications", "Complication", 2386,
              "A new Complication may start while another's Pools are built; the new one resolves first.",
              ("nested_complications",), {"nested_complications": True}),
    AddonInfo("d6", "Using d6s Instead of d10s", "Complication", 2402,
              "Roll d6s: odd results succeed.", ("die",), {"die": "d6"}),
    AddonInfo("extended-complications", "Extended Complications", "Complication", 2412,
              "Pay 1 to split each side into N sub-pools that roll in stages.",
              ("allow_extended", "extend_cost", "extended_divide"), {"allow_extended": True}),
    AddonInfo("cards-instead-of-dice", "Using Cards Instead of Dice", "Complication", 2428,
              "Your own deck is your Coins and your dice; Trait dice come from a shared Trait Deck.",
              ("currency", "cards_with_face_cards", "bonus_cards_from"), {"currency": "cards_hand"}, "currency"),
    AddonInfo("pool-per-participant", "Own Pool for Every Participant (Chapter Six option)", "Complication", 1040,
              "Every participating player keeps his own Pool and declares its side before the roll.",
              ("pool_per_participant",), {"pool_per_participant": True}),
    AddonInfo("standard-intersession", "Standard Intersession Rules", "Intersession", 2446,
              "The next session picks up right after the last scene; open scenes stay open; Wealth carries over.",
              ("carry_over_sessions",), {"carry_over_sessions": True}),
    AddonInfo("players-present-limit", "Players Present Limit", "Intersession", 2456,
              "A later session is played only if every original player is present.",
              ("require_original_players",), {"require_original_players": True}),
    AddonInfo("revisit-tenets", "Revisit Game Tenets", "Intersession", 2462,
              "Each session starts with a new Game Prep phase to change Tenets (players may pass).",
              ("revisit_tenets_each_session",), {"revisit_tenets_each_session": True}),
    AddonInfo("new-players", "Introduce New Players", "Intersession", 2468,
              "New players join by a Rules Gimmick (or an open door), with a rule for their Coins.",
              ("new_player_admission", "max_players_per_story", "max_players_per_session", "new_player_wealth",
               "new_player_wealth_scope"), {"new_player_admission": "gimmick"}, "new_player_admission"),
    AddonInfo("coin-options", "Coin Option Gimmicks", "Intersession", 2484,
              "Adjust Coins between sessions: a session end is a Refresh, or Wealth resets at session start.",
              ("session_end_refresh", "session_start_wealth"), {"session_end_refresh": True}),
    AddonInfo("between-sessions", "Create Components Between Sessions", "Intersession", 2496,
              "A small pool for creating Components between sessions, shown at the next Game Prep.",
              ("intersession_creation_pool", "intersession_use_or_lose"), {"intersession_creation_pool": 5},
              "intersession_creation_pool"),
)

BY_KEY = {a.key: a for a in REGISTRY}
FIELD_OWNER = {f: a for a in REGISTRY for f in a.fields}


def grouped() -> list[tuple[str, list[AddonInfo]]]:
    """The add-ons as the book groups them, in the book's order."""
    return [(g, [a for a in REGISTRY if a.group == g]) for g in GROUPS]


# add-ons that share a field with another: which of its values each one stands for
SHARED = {"cards-as-coins": ("currency", ("cards_bank",)),
          "cards-instead-of-dice": ("currency", ("cards_hand", "cards_stack"))}


def active(addons: Addons) -> list[AddonInfo]:
    """The add-ons a table has on: any of their fields differs from the core rules (for two add-ons
    sharing a field, the one its value stands for)."""
    changed = addons.changed()
    return [a for a in REGISTRY if any(f in changed for f in a.fields)
            and (a.key not in SHARED or changed.get(SHARED[a.key][0]) in SHARED[a.key][1])]


# the moves an add-on gives a player, one line each (the prompt names them only when the add-on is on)
ACTIONS: dict[str, str] = {
    "metagame-jobs": "start_job / end_job (1 coin, a Rules Gimmick); job_item: the Bank pays a per-item job",
    "multiple-tenets": "propose_tenets: several Tenets on one idea, 1 coin each",
    "seed-element": "present_seed: the seed Component is the first Tenet",
    "friendly-control": "cede_control: hand Control of your component to another player, free",
    "player-character": "adopt_character: once, make a character your PC (Take Over for good); agree_introduction: let "
                        "others Introduce your PC into the scene in play",
    "pc-endowment": "endow_trait / endow_dice: Traits for your PC, dice when it is in a Complication, from its Endowment",
    "pc-protection": "protect_component: buy protection for an important Component",
    "pc-drivers": "set_driver; driver_scene (1 coin to the Endowment); resolve_driver",
    "enigma": "add_trait with enigma=true: a secret Trait for 2; reveal_trait shows it",
    "plot-pools": "create_plot_pool (1 coin, a Rules Gimmick; the Bank gives 10-50 coins); plot_pool_fact: a plot "
                  "Fact paid by its pool",
    "plot-thread": "create_plot_thread; resolve_plot_thread takes its Weight in coins",
    "extended-complications": "extend_complication (stages=N): before the roll, pay to roll the Complication in "
                              "N stages, smallest sub-pools first; decline_extend: let it roll whole",
    "nested-complications": "while a Complication's Pools are built, narrate_event (add_trait, remove_trait, "
                            "reduce_importance, exit_component) on another player's Component, or an obstacle, starts "
                            "a nested one: it resolves first, the open one waits with its Pools and its draws; "
                            "order_nested (first=interrupted): its Originator puts the waiting one first instead",
    "pool-per-participant": "declare_pool: before the roll, your own Pool joins side C (Complication) or T (Targets)",
}


# the multi-target methods that give the players a move of their own
MULTI_TARGET_MOVES: dict[str, str] = {
    "split": "allocate_successes: after the roll the Originator gives one count per Target Pool, in Pool order "
             "(mirrored, one Target Pool against several Complication Pools: that Target's player, one count per "
             "Complication Pool)",
}


# which multi-target method is in play, in a player's words (the summary names them all, §2.1)
MULTI_TARGET_WORDS: dict[str, str] = {
    "independent": "Independent: each Target Pool rolls its own match against the Complication side, "
                   "most dice first; each match is narrated before the next",
    "individual": "Individual: each Target Pool rolls its own match against a Complication Pool of its own "
                  "(C, C:B, ...), most dice first; each match is narrated before the next",
    "split": "Split Allocation: every Pool rolls once; then the Originator assigns each Complication Success "
             "to a Target Pool (allocate_successes: one count per Target Pool, every Success once); a Target "
             "Pool wins if it rolled more Successes than it faces; mirrored (L2356), one Target Pool against "
             "several Complication Pools (Own Pool per Participant): that Target's player allocates his Successes; "
             "several Complication Pools against several Target Pools: the Originator allocates all their Successes, "
             "each die paying its own Pool's owner",
    "all_or_none": "All or None: only the worst Target Pool is compared; every Target shares its result",
    "best_efforts": "Best Efforts: only the best Target Pool is compared; every Target shares its result",
}


def _in_play(a: AddonInfo, addons: Addons) -> str:
    if a.key != "multiple-targets" or addons.multi_target_mode not in MULTI_TARGET_WORDS:
        return ""
    tie = " A tie goes to the Complication." if "complication" in (addons.worst_best_tie, addons.split_tie) else \
        " A tie rolls that match again, with an Edge die." if addons.multi_target_mode == "split" else ""
    return f" In play: {MULTI_TARGET_WORDS[addons.multi_target_mode]}.{tie}"


def describe(addons: Addons, with_actions: bool = False) -> str:
    """A short description of the active add-ons (for prompts and the log); '' without any.
    `with_actions`: each line also names the moves the add-on gives (for the model's prompt)."""
    on = active(addons)
    return "\n".join(f"- {a.name}: {a.summary}" + _in_play(a, addons)
                     + (f" Moves: {_moves(a, addons)}." if with_actions and _moves(a, addons) else "") for a in on)


def _moves(a: AddonInfo, addons: Addons) -> str:
    """The moves an add-on gives: ACTIONS, or the multi-target method's own (Split Allocation, UA-MT-4)."""
    if a.key == "multiple-targets":
        return MULTI_TARGET_MOVES.get(addons.multi_target_mode, "")
    return ACTIONS.get(a.key, "")


def _value(raw: str) -> Any:
    """A command-line value: JSON when it parses (numbers, true, null, lists), else the words."""
    low = raw.strip().lower()
    if low in ("on", "yes"):
        return True
    if low in ("off", "no", "none"):
        return None if low == "none" else False
    try:
        return json.loads(raw)
    except ValueError:
        return raw


def addons_from_args(items: list[str] | tuple[str, ...] | None, players: list[str] | None = None,
                     base: dict[str, Any] | None = None) -> Addons:
    """`--addon NAME[=VALUE]` items to checked Addons: NAME is an add-on key (from `storytable
    addons`) or an option field; VALUE sets the add-on's main field. A bad one is a RuleViolation."""
    data: dict[str, Any] = dict(base or {})
    for item in items or ():
        name, eq, raw = str(item).partition("=")
        key = name.strip().lower().replace("_", "-")
        fieldname = name.strip().replace("-", "_")
        if key in BY_KEY:
            info = BY_KEY[key]
            if info.social:
                raise RuleViolation("UA-SETUP-0", f"{info.name} has no engine rule (L{info.line}); the table keeps it")
            data.update(info.adopt)
            if eq:
                if info.value_field is None:
                    raise RuleViolation("UA-SETUP-0", f"{info.name} takes no value; use --addon {key}")
                data[info.value_field] = _value(raw)
        elif fieldname in Addons.model_fields:
            data[fieldname] = _value(raw) if eq else True
        else:
            raise RuleViolation("UA-SETUP-0", f"there is no add-on {name[:40]!r}: `storytable addons` lists them")
    a = parse_addons(data)
    check_addons(a, players)
    return a


# one line of help for each setting the setup page shows under a checked add-on (the CLI's FIELD=VALUE)
FIELD_HELP: dict[str, str] = {
    "first_scene_coins": "refresh: a normal Refresh before the first scene; reset to start: Wealth goes back to the "
                         "starting Coins (L1874)",
    "setting_phase_pool": "The separate pool each player spends on setting only before the first scene (L1890: 25)",
    "extra_prep_phases": "Further phases like the setting one, for characters, situation or premise "
                         "(L1890 options)",
    "max_tenets_per_turn": "Most Tenets one player proposes in a turn (empty: no limit, the add-on's own rule; L1940)",
    "pc_paragraph_words": "The PC paragraph's word guideline, fewest and most (L2134: 100 to 200)",
    "new_player_wealth": "A newcomer's Coins: the standard start, the current most, fewest or average, or a number "
                         "(L2468)",
    "tenets_same_idea": "Several Tenets in one turn must all share one basic idea (L1940)",
    "frame_scene_cost": "Coins to frame a new scene on your turn (L1962: 1)",
    "switch_scene_cost": "Coins to switch to another open scene (L1962: 1)",
    "fade_to_black_cost": "Coins to end (fade to black) an open scene (L1962: 1)",
    "max_active_scenes": "Most scenes open at once (the book's advice, L1962)",
    "open_scene_refresh": "When the Refresh comes: when a scene fades to black, or when one is framed (a reading)",
    "judgment_scope": "Judgment replaces the Challenge altogether, or (the other reading) only what it names",
    "judged_player_votes": "The judged player may vote to overrule the Judge (a reading of L1980)",
    "friendly_control": "cede: a Controller hands Control to anyone for free; free takeover: take Control for 0 on "
                        "your turn (L2010)",
    "concede_refund_supporters": "Players who supported the conceding side get their bids back too",
    "currency": "cards hand: your deck is your Coins and dice; cards stack: Mazza's face-down Wealth stack (L2428)",
    "face_card_gimmick": "Face cards kept in the deck: who pays the Coin when a J, Q or K is spent (L2052; the book's "
                         "example: J right, Q left, K across)",
    "control_traits_characters_only": "The 'Controlled by' Trait goes only on characters (a reading of L2058)",
    "control_traits_per_player": "Most 'Controlled by' Traits one player may hold (empty: no limit)",
    "control_traits_any_creator": "Anyone, not only the Component's creator, may buy its 'Controlled by' Trait",
    "control_traits_immutable": "A 'Controlled by' Trait can't be removed",
    "pc_cost": "Coins to make a character your PC (L2094: 5)",
    "pcs_per_player": "PCs each player may have (L2094: 1)",
    "pc_trait_extra_cost": "Extra Coins per Trait on a PC (a reading; 1 makes it 6 in all)",
    "pc_endowment": "Coins in each PC's Endowment Pool, never refreshed (L2110: 25)",
    "pc_protection": "double: eliminating a PC by lowering Importance costs double; owner only: only its owner may "
                     "(L2120)",
    "protection_any_component": "Price to protect any important Component, not only PCs (L2120 option; empty: off)",
    "owner_only_bars_trait_removal": "Owner only also bars others from removing a PC's Traits (a reading)",
    "durable_cost": "Coins for the 'Durable' Trait (L2168: 5)",
    "durable_multiplier": "How many times the cost of removing a Durable Component's Traits (L2168: 2)",
    "durable_counts_importance": "The Durable Trait counts toward Importance",
    "enigma_trait_cost": "Coins for a secret Enigma Trait (L2180: 2)",
    "enigma_secret_counts_importance": "An unrevealed Enigma Trait counts toward Importance",
    "protagonist_refresh": "Refresh after a scene with the main character in it (L2206: 7)",
    "protagonist_refresh_antagonist": "The main antagonist's scenes boost the Refresh too",
    "protagonist_refresh_relative": "The boost is the table's Refresh + 2 instead of a fixed number (a reading)",
    "complication_trait_freeze": "always: no Traits bought in any Complication; climactic only: only in scenes "
                                 "whose framer bought the 'Climactic Scene' Trait (L2218)",
    "freeze_bars_creation": "The freeze also bars creating new Components (a reading)",
    "freeze_scope": "With Nested Complications: the freeze lasts the outermost Complication, or each its own",
    "named_lock_includes_naming": "Naming an unnamed character counts as creating a named one (a reading)",
    "max_positive_traits": "Most neutral or positive Traits a character gains per window (L2242: 1)",
    "positive_traits_window": "The window: each turn (the book) or each scene",
    "importance_cap": "protagonist: no one outdoes the Main Protagonist; ensemble max/min: each player picks a main "
                      "character, the cap is the highest/lowest of theirs (L2258)",
    "plot_pool_min": "Fewest Bank Coins a Plot Pool gets (L2270: 10)",
    "plot_pool_max": "Most Bank Coins a Plot Pool gets (L2270: 50)",
    "plot_pool_spend_per_scene": "Coins of a Plot Pool you may spend each scene (L2270: 2)",
    "plot_pool_cap_scope": "The per-scene cap counts per player, or for the whole table",
    "plot_threads": "holter: Weight on each Introduction; bradley: Weight each scene end; mazza: no Weight (L2280)",
    "bradley_counts_creation_scene": "Bradley: the scene a Plot Thread is Created in counts too (a reading)",
    "multi_target_mode": "How several Targets resolve: standard (core), independent, split, individual, all or none, "
                         "best efforts (L2320-2384)",
    "split_tie": "Split Allocation: a tie rolls again with an Edge die (core), or goes to the Complication",
    "split_c_coins": "Split Allocation: the Complication side earns match by match (played), or once for its whole "
                     "roll (refused: the book is silent, L2352)",
    "worst_best_tie": "All or None / Best Efforts: a tie follows the core rule, or goes to the Complication",
    "extend_cost": "Coins to split a Complication into stages (L2412: 1)",
    "extended_divide": "Split each side into sub-pools, or each Pool (a reading of L2412)",
    "cards_with_face_cards": "Keep J, Q, K in the decks: 52 cards, 5 in 13 succeed (L2428)",
    "bonus_cards_from": "Bonus cards come from your own deck, or the Bank's (a reading of L2428)",
    "new_player_admission": "gimmick: a newcomer joins by a Rules Gimmick; open: the door is open (L2468)",
    "max_players_per_story": "Most players a story may have (empty: no cap)",
    "max_players_per_session": "Most players at one session (empty: no cap)",
    "new_player_wealth_scope": "The newcomers' Coins rule is set once, or is the table's standing policy",
    "session_start_wealth": "Wealth each player resets to at a session's start (L2484; empty: off)",
    "intersession_creation_pool": "Coins each player may spend creating Components between sessions (L2496: 5)",
    "intersession_use_or_lose": "Coins of that pool not spent are lost",
}


def field_help(a: AddonInfo, name: str) -> str:
    """One line of help for one of an add-on's settings (the setup page): FIELD_HELP, the field's own
    description, or the add-on's line with its book line."""
    desc = Addons.model_fields[name].description if name in Addons.model_fields else None
    return FIELD_HELP.get(name) or desc or f"{a.name} (book line {a.line}): {a.summary}"

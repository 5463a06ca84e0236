"""Add-ons as table options (issue 22): setup refusals naming the add-on, the log header, replay,
the CLI's --addon parsing, and the core game left exactly as it was."""
from __future__ import annotations

import json

import pytest

from agents.table import Table, heuristic_seats
from engine.core.errors import RuleViolation
from engine.universalis import actions as A
from engine.universalis import new_game
from engine.universalis.addon_registry import BY_KEY, GROUPS, REGISTRY, addons_from_args, describe, grouped
from engine.universalis.addons import CORE, Addons
from engine.universalis.ruleset import UniversalisRuleset
from engine_helpers import framed, observed

P3 = ["Ann", "Ben", "Cat"]


def refused(rule: str, words: str, **fields) -> None:
    with pytest.raises(RuleViolation) as exc:
        new_game(P3, addons=fields)
    assert exc.value.rule == rule and words.lower() in str(exc.value).lower(), str(exc.value)
    observed(rule, "refusal")


def test_ua_setup_1_royalty_needs_greater_control():
    """UA-SETUP-1 (L2088 'Must first be playing with Bob's Control Add-on above')."""
    refused("UA-SETUP-1", "Royalty refuses", royalty=True)
    refused("UA-SETUP-1", "needs Greater Control itself", control_traits_immutable=True)
    assert new_game(P3, addons={"royalty": True, "control_traits": True}).config.addons.royalty


def test_ua_setup_2_player_character_family():
    """UA-SETUP-2 (L2110, L2120, L2134, L2144): Endowment needs Player Characters, Paragraph and Drivers the
    Endowment, Plot Protection a PC or a price for any Component."""
    refused("UA-SETUP-2", "PC Endowment Pool refuses", pc_endowment=25)
    refused("UA-SETUP-2", "PC Descriptive Paragraph refuses", player_characters=True, pc_paragraph_words=(100, 200))
    refused("UA-SETUP-2", "PC Story Drivers refuses", player_characters=True, pc_story_drivers=True)
    refused("UA-SETUP-2", "PC Plot Protection refuses", pc_protection="double")
    new_game(P3, addons={"pc_protection": "double", "protection_any_component": 3})
    new_game(P3, addons={"player_characters": True, "pc_endowment": 25, "pc_paragraph_words": (100, 200),
                         "pc_story_drivers": True, "pc_protection": "owner_only"})


def test_ua_setup_3_judgment_replaces_challenge_bids():
    """UA-SETUP-3 (L1980 'This Add-on replaces the normal Challenge Variant'): no Challenge bids to refund or reuse."""
    refused("UA-SETUP-3", "Losing Challenge Bids refuses", dispute_mode="judgment", challenge_concede_refund=True)
    refused("UA-SETUP-3", "Using Challenge Bids refuses", dispute_mode="judgment", challenge_loser_bid_reuse=True)
    new_game(P3, addons={"dispute_mode": "judgment", "judgment_scope": "named_disputes",
                         "challenge_concede_refund": True})


def test_ua_setup_4_to_9_options_need_their_addon():
    """UA-SETUP-4, UA-SETUP-5, UA-SETUP-6, UA-SETUP-7, UA-SETUP-8, UA-SETUP-9 (L1940, L2206-2242, L2270,
    L2402-2428, L1962, L2468): an add-on's options without the add-on are refused, naming it."""
    refused("UA-SETUP-4", "Multiple Tenets", tenets_same_idea=True)
    refused("UA-SETUP-5", "Protagonist Refresh Boost", protagonist_refresh_antagonist=True)
    refused("UA-SETUP-5", "Only 1 Trait per Turn", positive_traits_window="scene")
    refused("UA-SETUP-6", "Plot Pools", plot_pool_min=60)
    refused("UA-SETUP-7", "Using d6s refuses", die="d6", currency="cards_hand")
    refused("UA-SETUP-7", "an option of All or None and Best Efforts", worst_best_tie="complication")
    refused("UA-SETUP-7", "settings of Split Allocation need that method", split_tie="complication")
    new_game(P3, addons={"multi_target_mode": "best_efforts", "worst_best_tie": "complication"})
    refused("UA-SETUP-8", "Open Scene Framing", frame_scene_cost=2)
    refused("UA-SETUP-9", "Introduce New Players", max_players_per_session=4)


def test_ua_setup_10_jobs_and_seeds_name_players_at_the_table():
    """UA-SETUP-10 (L1914, L1946): a job holder or a seed's bringer must sit at the table."""
    refused("UA-SETUP-10", "Metagame Jobs refuses", jobs=[{"player": "Zed", "title": "DJ"}])
    refused("UA-SETUP-10", "Seed Element refuses", seed_component={"role": "Orion", "call_to_action": "x", "by": "Zed"})


def test_ua_setup_0_bad_options_are_one_line():
    """UA-SETUP-0: an unknown option or a bad value is one line, never a traceback."""
    refused("UA-SETUP-0", "no add-on option 'bogus'", bogus=True)
    refused("UA-SETUP-0", "durable_cost", durable_cost=-1)
    with pytest.raises(RuleViolation) as exc:
        addons_from_args(["nonsense"])
    assert "storytable addons" in str(exc.value)
    with pytest.raises(RuleViolation):
        addons_from_args(["free-dialog"])  # no engine rule


def test_cli_addon_names_and_values():
    """--addon NAME sets what adopting it means; NAME=VALUE sets its main field; a field name works too."""
    a = addons_from_args(["durable", "protagonist-refresh=8", "greater-control", "royalty", "durable_multiplier=3"])
    assert a.changed() == {"durable_cost": 5, "durable_multiplier": 3, "protagonist_refresh": 8,
                           "control_traits": True, "royalty": True}
    assert addons_from_args([]) is CORE
    assert addons_from_args(["multiple-tenets"]).max_tenets_per_turn is None


def test_registry_groups_follow_the_book_and_cover_every_field():
    """Every Addons field belongs to one add-on; groups are the book's, in its order."""
    assert [g for g, _ in grouped()] == list(GROUPS)
    owned = [f for a in REGISTRY for f in a.fields]
    shared = {"currency"}  # Cards as Coins and Cards instead of Dice both set the currency
    assert sorted(set(owned)) == sorted(Addons.model_fields)
    assert all(owned.count(f) == 1 or f in shared for f in owned)
    for a in REGISTRY:
        assert Addons.model_validate(a.adopt) is not None
        assert 1040 <= a.line <= 2505
    assert BY_KEY["royalty"].group == "Component Creation"
    assert BY_KEY["protagonist-refresh"].group == "Making Protagonists Special"


def test_core_header_is_unchanged_and_addons_are_recorded_and_replayed(tmp_path):
    """No add-ons: the header has no 'addons' key (a core game's log is as before). With add-ons the
    header holds the changed fields and a replay plays under the same ones."""
    core = Table.new(heuristic_seats(["Ann", "Bob", "Cat"], 3), log_path=tmp_path / "core.jsonl")
    assert "addons" not in core.header["config"]
    adds = addons_from_args(["durable", "protagonist-refresh", "enigma", "one-trait-per-turn", "extra-refresh"])
    t = Table.new(heuristic_seats(["Ann", "Bob", "Cat"], 3), log_path=tmp_path / "a.jsonl", addons=adds)
    t.run(max_steps=400)
    head = json.loads((tmp_path / "a.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert head["config"]["addons"] == adds.changed()
    again = Table.load_file(tmp_path / "a.jsonl")
    assert again.state.config.addons == adds
    assert again.state.model_dump_json() == t.state.model_dump_json()
    rs = UniversalisRuleset()
    assert rs.header_config(t.state)["addons"] == adds.changed()
    assert "addons" not in rs.header_config(core.state)


def test_same_seed_same_log_with_and_without_the_hooks():
    """A core game: the same seed gives the same log whether add-ons were ever imported or not, and the
    add-on actions' quiet fields never appear in it."""
    from engine.core.dice import SeededDice
    a = Table.new(heuristic_seats(["Ann", "Bob", "Cat"], 5), dice=SeededDice(5))
    a.run(max_steps=300)
    b = Table.new(heuristic_seats(["Ann", "Bob", "Cat"], 5), dice=SeededDice(5), addons=Addons())
    b.run(max_steps=300)
    strip = lambda t: [r.to_json() for r in t.records]
    assert strip(a) == strip(b)
    text = "\n".join(strip(a))
    for quiet in ('"durable"', '"enigma"', '"negative"', '"royalty"'):
        assert quiet not in text


def test_ua_gim_1_adopting_an_addon_mid_game_is_a_one_coin_gimmick():
    """UA-GIM-1 (L2444 'paid for with a single Coin after play has begun'; L2236 bought halfway through)."""
    g = framed()
    p = g.turn
    g.effect("UA-GIM-1", A.AdoptAddon(player=p, addon="named-character-limit"),
             lambda b, a: a.config.addons.named_characters_locked and a.player(p).spendable == b.player(p).spendable - 1
             and a.tenets[-1].kind == "gimmick")
    g.refused(A.CreateComponent(player=p, role="Sheriff", proper_name="Wyatt"), "UA-NAMED-1")
    g.refused(A.AdoptAddon(player=p, addon="one-trait-per-turn"), "U-PREP-2")
    g.end_turn()
    q = g.turn
    g.refused(A.AdoptAddon(player=q, addon="royalty"), "UA-SETUP-1", "Royalty refuses")
    g.effect("UA-GIM-1", A.AdoptAddon(player=q, addon="named-character-limit", drop=True),
             lambda b, a: a.config.addons is CORE)
    g.refused(A.AdoptAddon(player=q, addon="nope"), "UA-GIM-1")


def test_describe_lists_the_active_addons_for_prompts():
    assert describe(CORE) == ""
    text = describe(addons_from_args(["durable", "enigma"]))
    assert "Durable Components" in text and "Enigma Traits" in text and "Royalty" not in text


def test_ua_gim_1_standard_intersession_adopted_after_play_began_costs_one():
    """UA-GIM-1 (digest §4: 'Standard Intersession Rules adopted after play has begun ... cost the proposer
    1 Coin'; L2444): then an open scene stays open over the session break (UA-SESS-3)."""
    g = framed()
    p = g.turn
    g.refused(A.EndSession(player=p), "UA-SESS-3")
    g.effect("UA-GIM-1", A.AdoptAddon(player=p, addon="standard-intersession"),
             lambda b, a: a.config.addons.carry_over_sessions and a.player(p).spendable == b.player(p).spendable - 1)
    g.do(A.EndSession(player=p))
    assert not g.s.extra.session_open and g.s.phase == "scene"

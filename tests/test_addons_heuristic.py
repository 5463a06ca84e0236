"""The heuristic co-player under the Complication, PC and plot add-ons (digest section 3 applied),
and random add-on games that keep every coin accounted for and replay from their log."""
from __future__ import annotations

import random

import pytest

from agents.simulation import simulate_game
from engine.universalis.addons import Addons
from engine.universalis.ledger import conservation_problems
from engine.universalis.replay import replay_records

PCS = Addons(player_characters=True, pc_endowment=25, pc_protection="double", plot_pools=True)


@pytest.fixture(scope="module")
def pc_game():
    return simulate_game(seats=4, scenes=6, seed=1, addons=PCS)


def test_UA_PC_1_the_heuristic_buys_a_player_character_of_its_own(pc_game):
    """UA-PC-1 in play: with Player Characters on, every heuristic seat that could afford it made
    one of the characters it brought into play its PC, paying 5, and no seat has two."""
    s = pc_game.table.state
    owners = list(s.addon.pcs.values())
    assert len(owners) >= 3 and len(set(owners)) == len(owners)
    for cid, owner in s.addon.pcs.items():
        comp = s.components[cid]
        assert comp.kind == "character"
        assert any(t.text == f"{owner}'s Character" for t in comp.traits)
    adopted = [r for r in pc_game.table.records if r.action["type"] == "adopt_character"]
    assert len(adopted) == len(owners)


def test_UA_ENDOW_1_the_heuristic_spends_its_endowment_on_its_own_pc(pc_game):
    """UA-ENDOW-1 in play: seats spend Endowment on their own PC's Traits, no Endowment grows past
    25 (never refreshed), and after adoption nobody else changed a PC except with bonus coins won
    in a Complication it took part in (UA-PC-3)."""
    s = pc_game.table.state
    endowed = [r for r in pc_game.table.records if r.action["type"] == "endow_trait"]
    assert endowed
    for r in endowed:
        assert r.action["player"] in s.addon.endowments
    assert all(0 <= v <= 25 for v in s.addon.endowments.values())
    for cid, owner in s.addon.pcs.items():
        others = [t for t in s.components[cid].traits if t.by != owner and t.seq > next(
            r.seq for r in pc_game.table.records if r.action["type"] == "adopt_character" and r.action["component"] == cid)]
        assert all(t.origin == "outcome" for t in others), (cid, [(t.text, t.by, t.origin) for t in others])


def test_UA_PLOT_2_the_heuristic_uses_a_plot_pool_at_the_books_rate(pc_game):
    """UA-PLOT-1/2 in play: one pool of 10-50 coins, spent at most 2 per player per scene."""
    s = pc_game.table.state
    assert len(s.addon.plot_pools) == 1
    pool = s.addon.plot_pools[0]
    spent = sum(pool.spent.values())
    assert 10 <= pool.coins + spent <= 50 and spent > 0
    assert max(pool.spent.values()) <= 2


def test_UA_SIX_1_UA_ADD_1_UA_FREEZE_1_random_addon_games_conserve_coins_and_replay():
    """Property: games under random combinations of these add-ons keep every coin accounted for
    (U-ECO-2) and their log replays to the same state."""
    rng = random.Random(22)
    for seed in range(3):
        ad = Addons(die=rng.choice(["d10", "d6"]), allow_dice_subtraction=rng.random() < 0.5,
                    complication_trait_freeze=rng.choice(["off", "always", "climactic_only"]),
                    player_characters=(pc := rng.random() < 0.7), pc_endowment=25 if pc else 0,
                    pc_protection=rng.choice(["off", "double", "owner_only"]) if pc else "off",
                    plot_pools=rng.random() < 0.5, challenge_concede_refund=rng.random() < 0.5,
                    challenge_loser_bid_reuse=rng.random() < 0.5)
        r = simulate_game(seats=3, scenes=3, seed=seed, addons=ad)
        s = r.table.state
        assert conservation_problems(s) == [], ad.changed()
        rep = replay_records(r.table.header, r.table.records)
        assert rep.error is None
        assert rep.state.model_dump_json() == s.model_dump_json()


def test_UA_OWN_1_heuristic_bystanders_keep_and_declare_their_own_pools():
    """UA-OWN-1 in play (L1040): at a four-seat table with Own Pool per Participant, heuristic seats
    that Control no Target build Pools of their own and declare them before the roll (never the
    Originator or a Target's Controller); coins stay accounted for and the log replays."""
    r = simulate_game(seats=4, scenes=3, seed=2, addons=Addons(pool_per_participant=True))
    s = r.table.state
    declared = [x for x in r.table.records if x.action["type"] == "declare_pool"]
    assert declared, "no heuristic seat declared a Pool"
    assert {x.action["side"] for x in declared} <= {"C", "T"}
    assert conservation_problems(s) == []
    rep = replay_records(r.table.header, r.table.records)
    assert rep.error is None and rep.state.model_dump_json() == s.model_dump_json()


def test_UA_MT_5_the_heuristic_originator_builds_the_complication_pool_furthest_behind():
    """UA-MT-5 in play (digest section 3: size a Pool to what it must beat): under Individual Pools
    the Originator's Pool is the Complication Pool furthest behind the Target Pool it faces, and it
    buys dice there. A has 3 dice against C's 0, B none against C:B's 0: D builds C; once C has 4
    (one ahead) and B has 2, C:B is furthest behind."""
    from agents.base import Observation
    from agents.heuristic import HeuristicPlayer
    from agents.heuristic_addons import pair_sizes
    from engine.core.errors import RuleViolation
    from engine.universalis import actions as A
    from engine.universalis import apply
    from engine.universalis.decisions import legal_options
    from test_addons_engine import knight_and_monk_open
    g = knight_and_monk_open({"multi_target_mode": "individual"})
    g.act(A.BuyDie(player="D", pool="A", count=3))
    d = HeuristicPlayer("D", seed=1)
    assert d._my_pool(g.s) == "C" and pair_sizes(g.s, "C") == (0, 3) and pair_sizes(g.s, "B") == (0, 0)

    def check(action) -> str | None:
        try:
            apply(g.s, action)
        except RuleViolation as exc:
            return str(exc)
        return None

    choice = d.decide(Observation(player="D", state=g.s, pending=g.pend, options=legal_options(g.s, "D"), check=check))
    assert choice.action.type in ("buy_die", "draw_trait") and choice.action.pool == "C"
    g.act(A.BuyDie(player="D", pool="C", count=4))
    g.act(A.BuyDie(player="D", pool="B", count=2))
    assert d._my_pool(g.s) == "C:B" and pair_sizes(g.s, "C:B") == (0, 2)
    choice = d.decide(Observation(player="D", state=g.s, pending=g.pend, options=legal_options(g.s, "D"), check=check))
    assert choice.action.type in ("buy_die", "draw_trait") and choice.action.pool == "C:B"
    g.act(choice.action)
    g.check()

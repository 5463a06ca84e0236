"""Split Allocation (UA-MT-4, book L2350-2356) played through `apply` with fixed dice: every Pool rolls
once, the Originator allocates the Complication's Successes to the Target Pools, each Target Pool
wins or loses against its count; ties and the Complication's coins by the digest's suggested reading
(§2.1: a core tie per match; the sum of the assigned dice where C won, 1 per assigned die where it lost)."""
from __future__ import annotations

import pytest

from engine.core.errors import RuleViolation
from engine.universalis import actions as A
from engine.universalis import legal_options, new_game

from engine_helpers import framed
from test_addons_engine import P4, knight_and_monk, knight_and_monk_open, seen

SPLIT = {"multi_target_mode": "split"}


def narrators(g) -> list[tuple[str, int]]:
    """Who narrated, in order, with the coins each narration began with."""
    out = []
    while g.pend.kind == "narration":
        sl = g.s.narration.slots[g.s.narration.current]
        out.append((sl.player, sl.coins))
        g.act(A.EndNarration(player=sl.player))
    return out


def test_UA_MT_2_the_roll_gives_the_edge_die_and_the_narration_order_by_the_tested_functions_L2332():
    """UA-MT-2 (L2332) through `apply`: the roll judges by `verdicts`, gives the Edge die by `edge_pool`
    and orders the narration by `narration_order` (the functions tested on their own above run in play).
    Standard: C [1,2,9] 2 Successes (sum 3) against A [9] 0 and B [4,5] 2: a tie, 2 = 2; the Targets'
    sum 9 beats 3, so the Edge die goes to B, the Target Pool with most Successes, though A sits nearest
    D's left. Again: C [9,9,9] 0 against A [1] 1 and B [2,9,9] 1 (the last is B's Edge die): the Targets
    win 2 > 0. A earns 1, B 2 + the failed Edge 9 = 11, D's losing 3 dice 3. B (11) narrates before A (1),
    then D (3)."""
    g = knight_and_monk({}, {"C": 3, "A": 1, "B": 2})
    g.roll(C=[1, 2, 9], A=[9], B=[4, 5])
    assert g.last("edge").data["gets"] == ["B"]
    assert dict(g.pend.dice) == {"C": 3, "A": 1, "B": 3}
    g.roll(C=[9, 9, 9], A=[1], B=[2, 9, 9])
    res = g.last("complication_result")
    assert (res.data["winner"], res.data["bonus"]) == ("T", {"C": 3, "A": 1, "B": 11})
    assert narrators(g) == [("B", 11), ("A", 1), ("D", 3)]
    g.check()
    seen("UA-MT-2")


def test_UA_MT_4_split_allocation_mixed_results_exact_coins_L2352():
    """UA-MT-4 (L2352 "all of the Pools are rolled at the same time. The Originator then takes the
    Successes ... and allocates them against each of the Target Pools in whatever manner he chooses"):
    C [1,2,5,9] rolls 3 Successes, A [1,2,9] 2, B [3,9] 1. D sets 1 against A and 2 against B: A wins
    (2 > 1), B loses (1 < 2). The engine gives D's highest dice to the match he wins: 5+2 = 7 against B,
    and the 1 against A, where he lost, earns 1 (digest §2.1's reading). A won 1+2 = 3; B lost 2 dice
    = 2. Winners narrate first, most coins first (D's 7, then A's 3), then the losers (B 2, D 1)."""
    g = knight_and_monk(SPLIT, {"C": 4, "A": 3, "B": 2})
    assert g.pend.kind == "roll" and dict(g.pend.dice) == {"C": 4, "A": 3, "B": 2}  # all roll at once
    before = {p: g.wealth(p) for p in P4}
    g.roll(C=[1, 2, 5, 9], A=[1, 2, 9], B=[3, 9])
    assert g.pend.kind == "allocate" and g.pend.players == ("D",)
    assert "in this order: A (2 rolled), B (1 rolled)" in g.pend.note
    assert [o.type for o in legal_options(g.s, "D")] == ["allocate_successes"]
    assert legal_options(g.s, "A") == []
    g.act(A.AllocateSuccesses(player="D", counts=[1, 2]))
    assert "1 against A's Pool (2 rolled: wins); 2 against B's Pool (1 rolled: loses)" in g.last("allocate_successes").text
    res = g.last("complication_result")
    assert res.data["results"] == {"A": "won", "B": "lost"}
    assert res.data["bonus"] == {"C": 8, "A": 3, "B": 2}
    assert [(sl.pool, sl.coins, sl.won) for sl in g.s.narration.slots] == [
        ("C", 1, False), ("C", 7, True), ("A", 3, True), ("B", 2, False)]
    assert narrators(g) == [("D", 7), ("A", 3), ("B", 2), ("D", 1)]
    assert g.s.complication is None
    assert {p: g.wealth(p) - before[p] for p in P4} == {"A": 3, "B": 2, "Cy": 0, "D": 8}
    g.check()
    seen("UA-MT-4")


def test_UA_MT_4_a_winner_cancels_the_complications_losing_coins_U_COMP_10():
    """Mixed results: A, who beat the Complication, may cancel D's coins from the match D lost (U-COMP-10),
    and D's winning part may cancel B's; each C part is its own narration."""
    g = knight_and_monk(SPLIT, {"C": 4, "A": 4, "B": 2})
    g.roll(C=[1, 2, 5, 9], A=[1, 2, 3, 9], B=[3, 9])  # C 3, A 3, B 1
    g.act(A.AllocateSuccesses(player="D", counts=[1, 2]))  # A wins, B loses; C: 7 won, 1 lost
    assert [(sl.pool, sl.coins, sl.won) for sl in g.s.narration.slots] == [
        ("C", 1, False), ("C", 7, True), ("A", 6, True), ("B", 2, False)]
    g.act(A.CancelBonus(player="D", pool="B", coins=2))  # D's 7 (won) narrates first
    g.act(A.EndNarration(player="D"))
    g.act(A.CancelBonus(player="A", pool="C", coins=1))  # A's 6: cancels D's losing coin
    assert [sl.coins for sl in g.s.narration.slots] == [0, 0, 5, 0]
    g.narrate_out()
    g.check()


def test_UA_MT_4_a_tie_is_a_core_tie_in_its_own_match_U_COMP_8():
    """Ties (the book is silent; the digest suggests a core tie per match, U-COMP-8): C [1,4,9,9] rolls
    2 Successes, A [2,9,9] 1, B [3,9] 1; D sets 1 against each: both tie. Against A the Complication's
    4 beats A's 2 (an Edge die for C); against B, B's 3 beats C's 1 (an Edge die for B). The tied matches
    roll one at a time, the Target Pool with most dice first, then nearest D's left (A, 3 dice, before
    B's 2+1). A's match: C [9,9] (1 assigned + Edge) 0, A [2,9,9] 1: A wins 2; C lost 2 dice plus its
    Edge die's 9 = 11 (U-COMP-9). B's match: C [3] against B [1,9,9] ties again; C's 3 beats 1: an Edge
    die for C; then C [1,2] 2 beats B [9,9,4] 0: C won 1+2 = 3; B lost 3 dice plus its Edge 4 = 7."""
    g = knight_and_monk(SPLIT, {"C": 4, "A": 3, "B": 2})
    before = {p: g.wealth(p) for p in P4}
    g.roll(C=[1, 4, 9, 9], A=[2, 9, 9], B=[3, 9])
    g.act(A.AllocateSuccesses(player="D", counts=[1, 1]))
    edges = [e.text for e in g.events if e.kind == "edge"]
    assert edges == ["A tie against A's Pool. Sums of Successes: Complication 4, A 2: an Edge die for the "
                     "Complication Pool.",
                     "A tie against B's Pool. Sums of Successes: Complication 1, B 3: an Edge die for B's Pool."]
    assert g.pend.kind == "roll" and dict(g.pend.dice) == {"C": 2, "A": 3}
    g.refused(A.Roll(faces={"C": [9, 9], "A": [2, 9, 9], "B": [1, 9, 9]}), "U-COMP-7", "dice are needed")
    g.roll(C=[9, 9], A=[2, 9, 9])
    assert g.s.narration is None and dict(g.pend.dice) == {"C": 1, "B": 3}
    g.roll(C=[3], B=[1, 9, 9])
    assert g.last("edge").data["gets"] == ["C"] and dict(g.pend.dice) == {"C": 2, "B": 3}
    g.roll(C=[1, 2], B=[9, 9, 4])
    res = g.last("complication_result")
    assert res.data["results"] == {"A": "won", "B": "lost"} and res.data["bonus"] == {"C": 14, "A": 2, "B": 7}
    assert narrators(g) == [("D", 3), ("A", 2), ("D", 11), ("B", 7)]
    assert {p: g.wealth(p) - before[p] for p in P4} == {"A": 2, "B": 7, "Cy": 0, "D": 14}
    g.check()


def test_UA_MT_4_split_tie_complication_gives_a_tie_to_the_complication():
    """With `split_tie = "complication"` (the digest's alternative) the same roll needs no reroll: both
    ties are the Complication's. D's dice: 4 against A, 1 against B, C won both: 4+1 = 5; A lost 3 dice
    = 3, B 2."""
    g = knight_and_monk({**SPLIT, "split_tie": "complication"}, {"C": 4, "A": 3, "B": 2})
    g.roll(C=[1, 4, 9, 9], A=[2, 9, 9], B=[3, 9])
    g.act(A.AllocateSuccesses(player="D", counts=[1, 1]))
    assert "A tie goes to the Complication at this table." in g.last("allocate_successes").text
    res = g.last("complication_result")
    assert res.data["results"] == {"A": "lost", "B": "lost"} and res.data["bonus"] == {"C": 5, "A": 3, "B": 2}
    assert res.data["winner"] == "C" and not any(e.kind == "edge" for e in g.events)
    g.narrate_out()
    g.check()


def test_UA_MT_4_no_successes_to_allocate_and_one_target_pool_play_as_before():
    """A Complication that rolled no Success has nothing to allocate: every Target Pool faces 0 (A with
    1 Success wins; B with none ties 0-0, equal sums, an Edge die for both). With one Target Pool the
    method changes nothing: the core roll."""
    g = knight_and_monk(SPLIT, {"C": 2, "A": 2, "B": 1})
    g.roll(C=[9, 9], A=[1, 9], B=[9])
    assert g.pend.kind == "roll" and dict(g.pend.dice) == {"C": 1, "B": 2}
    assert g.last("allocate_successes").data["counts"] == {"A": 0, "B": 0}
    g.roll(C=[9], B=[4, 9])
    assert g.last("complication_result").data["results"] == {"A": "won", "B": "won"}
    g.narrate_out()
    g.check()
    one = framed(P4, {"A": 1}, addons=SPLIT)
    knight = one.create("A", "Knight")
    one.end_turn("A"), one.end_turn("B"), one.end_turn("Cy")
    one.event("D", "The knight falls.", receiver=knight)
    one.act(A.BuyDie(player="D", pool="C", count=1))
    one.call_and_agree("D")
    one.roll(C=[1], A=[])
    assert one.last("complication_result").data["winner"] == "C" and one.s.complication.split is None


def test_UA_MT_4_split_allocation_refusals_name_the_addon_and_rule():
    """Only the Originator allocates, once the dice are rolled, one count per Target Pool, every Success
    once, none below 0; nothing else is done while he allocates. (With Own Pool per Participant the method
    is played since split-7: the mirrored form, test_UA_MT_4_mirrored_*.)"""
    g = knight_and_monk(SPLIT, {"C": 4, "A": 3, "B": 2})
    g.refused(A.AllocateSuccesses(player="D", counts=[1, 2]), "UA-MT-4", "no Complication Successes waiting")
    g.roll(C=[1, 2, 5, 9], A=[1, 2, 9], B=[3, 9])
    g.refused(A.AllocateSuccesses(player="A", counts=[1, 2]), "UA-MT-4", "only D, who Originated")
    g.refused(A.AllocateSuccesses(player="D", counts=[3]), "UA-MT-4", "one count per Target Pool, in this order: A, B")
    g.refused(A.AllocateSuccesses(player="D", counts=[2, 0]), "UA-MT-4", "rolled 3 and 2 were assigned")
    g.refused(A.AllocateSuccesses(player="D", counts=[3, 1]), "UA-MT-4", "rolled only 3")
    g.refused(A.AllocateSuccesses(player="D", counts=[4, -1]), "UA-MT-4", "fewer than 0")
    err = g.refused(A.EndTurn(player="D"), "UA-MT-4", "D is allocating")
    assert "Split Allocation" in str(err)
    g.refused(A.Roll(faces={"C": [1], "A": [1], "B": [1]}), "U-COMP-7")
    with pytest.raises(RuleViolation) as exc:
        new_game(P4, addons={"split_tie": "complication"})
    assert exc.value.rule == "UA-SETUP-7"


def test_UA_MT_4_UA_MT_5_the_unplayed_forms_are_refused_at_setup_with_their_reason_L2356_L2362():
    """What the Split Allocation helper leaves out is refused at setup, naming the rule and saying why:
    the mix with Individual Pools (L2362: who groups the Targets onto Complication Pools, and how a group
    rolled at once fits pairs rolled one at a time, the book does not say), and C's whole roll scored once
    (with mixed results C has no one result; a tied match rolls part of it again)."""
    cases = [
        ({"multi_target_mode": "individual", "split_tie": "complication"}, "UA-SETUP-7",
         ["Individual Pools is not mixed with Split Allocation", "L2362", "who groups the Targets"]),
        ({"multi_target_mode": "individual", "split_c_coins": "whole_roll"}, "UA-SETUP-7",
         ["Individual Pools is not mixed with Split Allocation"]),
        ({**SPLIT, "split_c_coins": "whole_roll"}, "UA-MT-4",
         ["no one result to score its whole roll by", "tied match rolls its assigned dice again", "L2352"]),
    ]
    for addons, rule, words in cases:
        with pytest.raises(RuleViolation) as exc:
            new_game(P4, addons=addons)
        assert exc.value.rule == rule, addons
        for w in words:
            assert w in str(exc.value), (addons, w)
    new_game(P4, addons={**SPLIT, "split_tie": "complication"})  # Split's own settings stay open to it
    seen("UA-MT-4", "UA-MT-5")


def test_UA_MT_4_the_heuristic_beats_the_weakest_targets_it_can():
    """Digest section 3 for Split Allocation: beat the weakest Target Pools first (each needs one Success
    more than it rolled), then use what is left to tie a Pool it could not beat, else pile it where it
    wins (there its dice pay their sum)."""
    from agents.heuristic_addons import split_counts
    cases = [  # (C faces, A faces, B faces) -> counts for A, B
        (([1, 2, 3, 4, 5], [1, 9], [1, 2, 3]), [2, 3]),  # 5: beat A (2), tie B (3)
        (([1, 2, 3], [1, 2], [1, 2]), [3, 0]),  # 3: beat A (3); B keeps its 2
        (([1, 9], [1, 2], [1]), [0, 1]),  # 1: beats nobody; ties B
        (([1, 2, 3, 4], [1], [9]), [3, 1]),  # 4: beat B with 1, A with 2, the last where it wins (A)
    ]
    for (c, a, b), want in cases:
        g = knight_and_monk(SPLIT, {"C": len(c), "A": len(a), "B": len(b)})
        g.roll(C=c, A=a, B=b)
        assert split_counts(g.s) == want, (c, a, b)
        g.act(A.AllocateSuccesses(player="D", counts=want))  # always a legal allocation
    from agents.base import Observation
    from agents.heuristic import HeuristicPlayer
    from engine.universalis import pending
    g = knight_and_monk(SPLIT, {"C": 3, "A": 2, "B": 2})
    g.roll(C=[1, 2, 3], A=[1, 9], B=[1, 2])  # 3 against A's 1 and B's 2: beat A with 2, the last on A
    obs = Observation(player="D", state=g.s, pending=pending(g.s), options=legal_options(g.s, "D"))
    assert HeuristicPlayer("D", seed=1).decide(obs).action == A.AllocateSuccesses(player="D", counts=[3, 0])


def test_UA_MT_4_the_models_prompt_describes_the_allocation():
    """The model's state text names the method, its move and, once rolled, what to allocate and in
    which order; after the allocation, each match."""
    from agents.llm.state_text import addon_lines, describe_state
    g = knight_and_monk(SPLIT, {"C": 4, "A": 3, "B": 2})
    head = "\n".join(addon_lines(g.s))
    assert "In play: Split Allocation: every Pool rolls once" in head
    assert "Moves: allocate_successes: after the roll the Originator gives one count per Target Pool" in head
    assert "A tie rolls that match again, with an Edge die." in head
    g.roll(C=[1, 2, 5, 9], A=[1, 2, 9], B=[3, 9])
    text = describe_state(g.s, "D")
    assert ("Split Allocation (UA-MT-4): assign the Complication's 3 Successes with allocate_successes, one count "
            "per Target Pool in this order: A (2 rolled), B (1 rolled)") in text
    g.act(A.AllocateSuccesses(player="D", counts=[1, 2]))
    assert "A's Pool faces 1 Success (won); B's Pool faces 2 Successes (lost)" in describe_state(g.s, "A")


def test_UA_MT_4_heuristic_players_play_a_split_complication_to_its_end():
    """Heuristic players answer every decision of a Split Allocation under random dice (the allocation,
    rerolled ties, the won and lost parts of the Complication's narration, cancelled coins): coins stay
    accounted for after every action and the Complication ends. Random heuristic games seldom give a
    Complication two Target Pools (test_addons_properties plays split with random allocations)."""
    import random

    from agents.base import Observation
    from agents.heuristic import HeuristicPlayer
    from engine.universalis import apply
    seats = {p: HeuristicPlayer(p, seed=i) for i, p in enumerate(P4)}
    allocated = mixed = 0
    for seed in range(6):
        rng = random.Random(seed)
        g = knight_and_monk(SPLIT, {"C": rng.randint(2, 5), "A": rng.randint(1, 4), "B": rng.randint(1, 4)})
        kinds = set()
        for _ in range(80):
            if g.s.complication is None:
                break
            pend = g.pend
            kinds.add(pend.kind)
            if pend.kind == "roll":
                g.roll(**{k: [rng.randint(1, 10) for _ in range(n)] for k, n in pend.dice.items()})
                continue
            who = pend.players[0]

            def check(action, s=g.s) -> str | None:
                try:
                    apply(s, action)
                except RuleViolation as exc:
                    return str(exc)
                return None
            obs = Observation(player=who, state=g.s, pending=pend, options=legal_options(g.s, who), check=check)
            g.act(seats[who].decide(obs).action)
            g.check()
        assert g.s.complication is None and "narration" in kinds, (seed, kinds)
        allocated += "allocate" in kinds  # a roll with no Complication Success has nothing to allocate
        results = {r for e in g.events if e.kind == "complication_result" for r in e.data["results"].values()}
        mixed += results == {"won", "lost"}
    assert allocated >= 4 and mixed >= 1, (allocated, mixed)


@pytest.mark.parametrize("seed", [0, 4])
def test_UA_MT_4_a_table_plays_split_with_its_dice_source_and_the_log_replays(seed, tmp_path):
    """The Complication of knight_and_monk played on by a Table of heuristic seats with seeded dice (seed
    4 ties a match: its reroll comes from the dice source too): coins accounted for after every step, and
    the log, reloaded, gives the same state byte for byte."""
    from agents.table import Table, heuristic_seats
    from engine.core.dice import SeededDice
    from engine.universalis.addons import Addons
    from engine_helpers import check_invariants
    g = knight_and_monk(SPLIT, {"C": 3, "A": 2, "B": 2})
    t = Table.new(heuristic_seats(P4, seed), dice=SeededDice(seed), addons=Addons(**SPLIT), log_path=tmp_path / "g.jsonl")
    for a in g.actions:
        t.submit(a)
    for _ in range(60):
        if t.state.complication is None:
            break
        t.step()
        check_invariants(t.state)
    kinds = [e.kind for e in t.events]
    assert t.state.complication is None and "allocate_successes" in kinds and ("edge" in kinds) == (seed == 4)
    again = Table.load_file(tmp_path / "g.jsonl")
    assert again.damage is None and again.state.model_dump_json() == t.state.model_dump_json()


# --- the mirrored form (L2356): one Target Pool against several Complication Pools -----------------------
MIRROR = {**SPLIT, "pool_per_participant": True}


def _mirrored(cat_dice: int = 2):
    """Ben's Event against Ann's Hero (Ben: 4 dice for C, 3 for Ann's Pool); Cat buys `cat_dice` for her own
    Pool, declares it for the Complication (Own Pool per Participant, L1040) and calls for the roll."""
    from test_addons_complications import _own_pools
    g = _own_pools(MIRROR)
    g.act(A.BuyDie(player="Cat", pool="Cat", count=cat_dice))
    g.act(A.DeclarePool(player="Cat", side="C", text="her blades are the rival's"))
    g.call_and_agree("Cat")
    return g


def test_UA_MT_4_mirrored_one_target_allocates_against_several_complication_pools_L2356():
    """UA-MT-4 mirrored (L2356 "a single Target faced with multiple opponents run by different players"):
    Ann's one Target Pool against Ben's Complication Pool and Cat's, declared for the Complication. All
    roll once: C [1,2,7,8] 2 Successes, Ann [1,2,3] 3, Cat [5,6] 1. Ann allocates: 1 against C (2 > 1: C
    wins), 2 against Cat (1 < 2: Cat loses). Ann's highest dice go where she wins: 3+2 = 5 against Cat;
    her 1 against C, where she lost, earns 1. Ben's C won 1+2 = 3; Cat lost 2 dice = 2. Winners narrate
    first by coins (Ann 5, Ben 3), then the losers (Cat 2, Ann 1)."""
    g = _mirrored()
    assert dict(g.pend.dice) == {"C": 4, "Ann": 3, "Cat": 2}
    before = {p: g.wealth(p) for p in ("Ann", "Ben", "Cat")}
    g.roll(C=[1, 2, 7, 8], Ann=[1, 2, 3], Cat=[5, 6])
    assert (g.pend.kind, g.pend.players) == ("allocate", ("Ann",))
    assert "assign Ann's 3 Successes" in g.pend.note and "one count per Complication Pool in this order: " \
        "C (2 rolled), Cat (1 rolled)" in g.pend.note
    assert [o.type for o in legal_options(g.s, "Ann")] == ["allocate_successes"] and legal_options(g.s, "Ben") == []
    err = g.refused(A.AllocateSuccesses(player="Ben", counts=[1, 2]), "UA-MT-4", "only Ann")
    assert "L2356" in str(err)
    g.refused(A.AllocateSuccesses(player="Ann", counts=[1, 1]), "UA-MT-4", "rolled 3 and 2 were assigned")
    g.act(A.AllocateSuccesses(player="Ann", counts=[1, 2]))
    assert "allocates Ann's Successes: 1 against the Complication Pool (2 rolled: wins); 2 against Cat's Pool " \
           "(1 rolled: loses)" in g.last("allocate_successes").text
    res = g.last("complication_result")
    assert res.data["results"] == {"C": "won", "Cat": "lost"} and res.data["winner"] == "T"
    assert res.data["bonus"] == {"Ann": 6, "C": 3, "Cat": 2}
    assert narrators(g) == [("Ann", 5), ("Ben", 3), ("Cat", 2), ("Ann", 1)]
    assert {p: g.wealth(p) - before[p] for p in before} == {"Ann": 6, "Ben": 3, "Cat": 2}
    assert g.s.complication is None
    g.check()
    seen("UA-MT-4", "UA-OWN-1")


def test_UA_MT_4_mirrored_tie_rolls_the_match_again_and_the_heuristic_allocates():
    """A tie in the mirrored form is a core tie in its match (U-COMP-8): C [1,8,9,9] 1 Success, Ann [1,9,9] 1,
    Cat [4,9] 1. The heuristic (split_counts: beat the weakest it can, else tie) would set Ann's 1 against C;
    Ann sets it against Cat: C (1 > 0) wins; Cat ties, and Cat's 4 beats Ann's 1: an Edge die for Cat's Pool.
    The match rolls again, Ann's 1 die against Cat's 3: Ann [2] 1 > Cat [9,9,9] 0. Ann won 2; her part
    against C, no die, earns nothing; Ben's C won 1; Cat lost 3 dice plus her Edge die's 9 = 12 (U-COMP-9)."""
    from agents.heuristic_addons import split_counts
    g = _mirrored()
    g.roll(C=[1, 8, 9, 9], Ann=[1, 9, 9], Cat=[4, 9])
    assert split_counts(g.s) == [1, 0]
    g.act(A.AllocateSuccesses(player="Ann", counts=[0, 1]))
    assert g.last("edge").data["gets"] == ["Cat"]
    assert "Sums of Successes: Ann 1, Cat 4" in g.last("edge").text
    assert g.pend.kind == "roll" and dict(g.pend.dice) == {"Ann": 1, "Cat": 3}
    g.roll(Ann=[2], Cat=[9, 9, 9])
    res = g.last("complication_result")
    assert res.data["results"] == {"C": "won", "Cat": "lost"} and res.data["bonus"] == {"Ann": 2, "C": 1, "Cat": 12}
    assert narrators(g) == [("Ann", 2), ("Ben", 1), ("Cat", 12)]
    g.check()
    seen("UA-MT-4")


@pytest.mark.parametrize("seed", range(8))
def test_UA_MT_4_mirrored_random_rolls_conserve_coins_and_replay(seed):
    """The mirrored form under random dice (Cat's Pool 1-3 dice, every roll random, Ann allocating at
    random, every Success once): coins accounted for after every action, one result naming C and Cat,
    and the actions replay to the same state."""
    import random
    rng = random.Random(seed)
    g = _mirrored(rng.randint(1, 3))
    _random_split_out(g, rng, ["Ann", "Ben", "Cat"])
    results = [e for e in g.events if e.kind == "complication_result"]
    assert len(results) == 1 and sorted(results[0].data["results"]) == ["C", "Cat"]


def _random_split_out(g, rng, players: list[str]) -> None:
    """Random faces for every roll, a random allocation of every Success (two faced Pools), every narrator
    keeping his bonus, until the Complication is over; coins accounted for after each step; then the actions
    replay to the same state."""
    from engine.universalis import apply
    from engine.universalis.addon_split import allocator, to_allocate
    for _ in range(40):
        if g.s.complication is None:
            break
        if g.pend.kind == "roll":
            g.roll(**{k: [rng.randint(1, 10) for _ in range(n)] for k, n in g.pend.dice.items()})
        elif g.pend.kind == "allocate":
            total = len(to_allocate(g.s, g.s.complication))
            first = rng.randint(0, total)
            g.act(A.AllocateSuccesses(player=allocator(g.s.complication), counts=[first, total - first]))
        else:
            g.narrate_out()
        g.check()
    assert g.s.complication is None
    state = new_game(players, addons=MIRROR)
    for action in g.actions:
        state, _ = apply(state, action)
    assert state.model_dump_json() == g.s.model_dump_json()


def test_UA_MT_4_the_originator_allocates_successes_from_several_complication_pools_L2352():
    """UA-MT-4 (L2352 "takes the Successes rolled from each of the Complication Pools (from any player)"):
    Cy's own Pool declared for the Complication joins D's against A's and B's Target Pools. C [1,9] 1
    Success, Cy [4,3] 2, A [2,9] 1, B [1] 1: D allocates 3, 2 against A (loses), 1 against B (ties). His
    highest dice go where he wins: Cy's 4 and 3 against A; C's 1 against B (engine choice: equal faces, the
    Complication Pool's first). B's tie: 1 against 1, equal sums: an Edge die each; C rolls its 1 die and
    the Edge [2,9] (1) against B [9,9] (0): B loses. Each die pays its own Pool's owner (U-COMP-9): Cy 4+3 = 7,
    D 2 + his failed Edge 9 = 11; A lost 2 dice = 2; B 2 dice + the Edge 9 = 11."""
    g = knight_and_monk_open(MIRROR)
    for pool, n in (("C", 2), ("A", 2), ("B", 1), ("Cy", 2)):
        g.act(A.BuyDie(player="D", pool=pool, count=n))
    for p in ("D", "A", "B"):
        g.end_turn(p)
    g.act(A.DeclarePool(player="Cy", side="C"))
    g.call_and_agree("Cy")
    before = {p: g.wealth(p) for p in P4}
    g.roll(C=[1, 9], A=[2, 9], B=[1], Cy=[4, 3])
    assert (g.pend.kind, g.pend.players) == ("allocate", ("D",))
    assert "assign the Complication's 3 Successes" in g.pend.note
    g.act(A.AllocateSuccesses(player="D", counts=[2, 1]))
    assert g.last("edge").data["gets"] == ["C", "B"]
    assert g.pend.kind == "roll" and dict(g.pend.dice) == {"C": 2, "B": 2}
    g.roll(C=[2, 9], B=[9, 9])
    res = g.last("complication_result")
    assert res.data["results"] == {"A": "lost", "B": "lost"} and res.data["winner"] == "C"
    assert res.data["bonus"] == {"C": 11, "Cy": 7, "A": 2, "B": 11}
    assert narrators(g) == [("D", 11), ("Cy", 7), ("B", 11), ("A", 2)]
    assert {p: g.wealth(p) - before[p] for p in P4} == {"A": 2, "B": 11, "Cy": 7, "D": 11}
    g.check()
    seen("UA-MT-4", "UA-OWN-1")


@pytest.mark.parametrize("seed", [*range(8), 15, 18, 22])
def test_UA_MT_4_several_complication_pools_random_rolls_conserve_coins_and_replay(seed):
    """Successes from several Complication Pools (D's and Cy's) allocated against A's and B's under random
    dice and random allocations, every roll random (seeds 15, 18 and 22 reroll a tied match holding dice of
    both Complication Pools): coins accounted for after every action, one result
    naming A and B, each allocating Pool's coins to its owner, and the actions replay to the same state."""
    import random
    rng = random.Random(seed)
    g = knight_and_monk_open(MIRROR)
    for pool in ("C", "A", "B", "Cy"):
        g.act(A.BuyDie(player="D", pool=pool, count=rng.randint(1, 3)))
    for p in ("D", "A", "B"):
        g.end_turn(p)
    g.act(A.DeclarePool(player="Cy", side="C"))
    g.call_and_agree("Cy")
    _random_split_out(g, rng, P4)
    results = [e for e in g.events if e.kind == "complication_result"]
    assert len(results) == 1 and sorted(results[0].data["results"]) == ["A", "B"]
    assert sorted(results[0].data["bonus"]) == ["A", "B", "C", "Cy"]

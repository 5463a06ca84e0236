"""Block 6 and Auto-Block 8 are abilities (V-24, L663-664; blocks V-39, L479-481): bought on a trait at the
purchase, used in the actor's wager for one allocated die of their size (paid to the bowl, L651: abilities
"always cost dice to use"), and on success (Auto-Block: on a failure too, with a reroll) a block stands against
the struggle's target with the result, power included."""
from __future__ import annotations

from engine.core.ruleset import get_ruleset
from engine.vele import actions as A
from engine.vele.economy import points
from engine.vele.rules import apply, dice_in_play, new_game
from tests.vele_helpers import SEATS, build_action, comp_of, pc, play, refuses, roll


def pc_with(name: str, effect: str, size: int, dice: list[int]) -> A.ComponentIn:
    hero = pc(f"{name}'s hero")
    hero.ability = A.AbilityIn(trait="Blade", effect=effect, size=size, dice=dice)
    return hero


def blockers():
    """Ben's hero has Block 6 and Cy's Auto-Block 8, both on Blade (d8); Ann narrates the first scene, where Ben's
    and Cy's heroes face her villain and first gang; turns Ben, Cy, Ann."""
    s = play(new_game(SEATS), *[A.Bid(player=n, bid=b) for n, b in zip(SEATS, (6, 4, 3, 2))])
    heroes = {"Ben": pc_with("Ben", "block", 6, [6]), "Cy": pc_with("Cy", "auto_block", 8, [8])}
    s = play(s, *[build_action(n, pc=heroes[n]) if n in heroes else build_action(n) for n in s.order])
    present = [comp_of(s, "Ben", "pc").id, comp_of(s, "Cy", "pc").id, comp_of(s, "Ann", "main").id,
               comp_of(s, "Ann", "normal").id]
    return play(s, A.FrameScene(player="Ann", place="the ford", present=present))


def test_V_24_block_6_and_auto_block_8_are_bought_as_abilities_of_their_size():
    """V-24 (L663: "Block 6", L664: "Auto-Block 8"; L649-672): each is tied to a trait of at least its size and
    costs its points at the purchase (V-AMB-17); another size, or a smaller trait, is refused."""
    s = blockers()
    ben, cy = comp_of(s, "Ben", "pc"), comp_of(s, "Cy", "pc")
    assert [(a.effect, a.size, a.trait) for a in ben.abilities] == [("block", 6, "Blade")] and ben.allocated == [6]
    assert [(a.effect, a.size) for a in cy.abilities] == [("auto_block", 8)] and cy.allocated == [8]
    s0 = play(new_game(SEATS), *[A.Bid(player=n, bid=b) for n, b in zip(SEATS, (6, 4, 3, 2))])
    refuses(s0, build_action("Ann", pc=pc_with("Ann", "block", 8, [8])), "V-24")
    refuses(s0, build_action("Ann", pc=pc_with("Ann", "auto_block", 6, [6])), "V-24")
    low = pc_with("Ann", "block", 6, [6])
    low.ability.trait = "Sneak"  # a d4 trait
    refuses(s0, build_action("Ann", pc=low), "V-24")


def _ben_attacks(s, block: str | None = "block", prevents: str = ""):
    villain = comp_of(s, "Ann", "main")
    return play(s, A.StartStruggle(player="Ben", actor=comp_of(s, "Ben", "pc").id, target=villain.id,
                                   goal="attack", prevents=prevents, text="Ben's hero drives the villain back"),
                A.StateDifficulty(player="Ann", value=0),
                A.Wager(player="Ben", stakes=[A.StakeIn(trait="Blade", die=8)], block=block),
                A.Wager(player="Ann", stakes=[A.StakeIn(trait="Connected", die=6)]))


def test_V_24_V_39_block_6_on_success_also_blocks_with_the_result():
    """V-24 (L663: "On success, do a block struggle in addition to the struggle using the struggle result as the
    block value"), V-39 (L479-481): Ben pays Block 6's d6 from his hero's sheet to the bowl as he wagers, wins 7 to
    3, and a block stands: Ann's villain must beat 7 before acting against Ben's hero (what the struggle names in
    `prevents`) until Ben's next turn. Every die is still on the table (V-9)."""
    s = blockers()
    hero, villain = comp_of(s, "Ben", "pc"), comp_of(s, "Ann", "main")
    bowl6 = s.bowl.count(6)
    s = _ben_attacks(s, prevents=hero.id)
    assert s.components[hero.id].allocated == [] and s.bowl.count(6) == bowl6 + 1  # Ann pushed her own d6
    assert dice_in_play(s) == s.total_points
    s, events = apply(s, roll(actor__0=7, opponent__0=3))
    while s.struggle is not None and s.struggle.stage == "fate":  # both pass on fate; the roll resolves
        s, more = apply(s, A.SpendFate(player=s.struggle.fate_queue[0], skip=True))
        events += more
    assert [(b.blocker, b.target, b.value, b.prevents, b.player) for b in s.blocks] == \
        [(hero.id, villain.id, 7, hero.id, "Ben")]
    assert any(e.kind == "block" and "Block 6" in e.text and "7 to beat" in e.text for e in events)
    assert dice_in_play(s) == s.total_points
    shown = get_ruleset("vele").view(s, "Cy")["blocks"]
    assert shown == [{"blocker": hero.id, "target": villain.id, "prevents": hero.id, "value": 7, "player": "Ben"}]


def test_V_24_block_6_does_nothing_on_a_failure_but_its_die_is_spent():
    """V-24 (L663: "On success"): Ben loses 2 to 5: no block, and the d6 he paid stays spent (in the bowl)."""
    s = blockers()
    hero = comp_of(s, "Ben", "pc")
    s = play(_ben_attacks(s), roll(actor__0=2, opponent__0=5))
    assert s.blocks == [] and s.components[hero.id].allocated == [] and dice_in_play(s) == s.total_points


def test_V_24_auto_block_8_rerolls_for_the_block_value_when_the_struggle_fails():
    """V-24 (L664: "as block 6, but if the struggle fails, reroll for the block value"): on Cy's turn her hero
    maneuvers past Ann's gang using Auto-Block 8 (a d8 paid to the bowl); the roll asks one more d8 for Blade's
    reroll; she fails 2 to 5, and the reroll (6) is the block's value."""
    s = play(blockers(), A.PassTurn(player="Ben"))
    hero, gang = comp_of(s, "Cy", "pc"), comp_of(s, "Ann", "normal")
    bowl8 = s.bowl.count(8)
    s = play(s, A.StartStruggle(player="Cy", actor=hero.id, target=gang.id, goal="maneuver", text="past the gang"),
             A.StateDifficulty(player="Ann", value=0),
             A.Wager(player="Cy", stakes=[A.StakeIn(trait="Blade", die=8)], block="auto_block"),
             A.Wager(player="Ann", stakes=[A.StakeIn(trait="Numbers", die=6)]))
    assert s.bowl.count(8) == bowl8 + 1 and s.components[hero.id].allocated == []
    asked = {d.key: d.sides for d in get_ruleset("vele").pending(s).dice}
    assert asked == {"actor:0": 8, "opponent:0": 6, "actor_block:0": 8}
    refuses(s, roll(actor__0=2, opponent__0=5), "V-24")  # the reroll's face is needed
    s = play(s, roll(actor__0=2, opponent__0=5, actor_block__0=6))
    assert [(b.blocker, b.target, b.value) for b in s.blocks] == [(hero.id, gang.id, 6)]
    assert dice_in_play(s) == s.total_points


def test_V_24_block_abilities_are_refused_where_they_do_not_apply():
    """V-24 (L663-664), V-31 (L690), V-39: not without the ability on a trait pushed, not by the defending side,
    not in a block struggle (it is one already), not in a hidden roll (no wagering)."""
    s = blockers()
    hero, villain = comp_of(s, "Ben", "pc"), comp_of(s, "Ann", "main")
    start = A.StartStruggle(player="Ben", actor=hero.id, target=villain.id, goal="attack")
    s1 = play(s, start, A.StateDifficulty(player="Ann", value=0))
    from engine.vele.decisions import legal_options
    wager = next(o for o in legal_options(s1, "Ben") if o.type == "wager")
    assert "block='block' uses Block 6 on Blade" in wager.note  # the option tells the seat (and a model) how
    refuses(s1, A.Wager(player="Ben", stakes=[A.StakeIn(trait="Wits", die=6)], block="block"), "V-24")
    refuses(s1, A.Wager(player="Ben", stakes=[A.StakeIn(trait="Blade", die=8)], block="auto_block"), "V-24")
    s2 = play(s1, A.Wager(player="Ben", stakes=[A.StakeIn(trait="Blade", die=8)]))
    refuses(s2, A.Wager(player="Ann", stakes=[A.StakeIn(trait="Ruthless", die=8)], block="block"), "V-24")
    s3 = play(s, start.model_copy(update={"goal": "block"}), A.StateDifficulty(player="Ann", value=0))
    refuses(s3, A.Wager(player="Ben", stakes=[A.StakeIn(trait="Blade", die=8)], block="block"), "V-24")
    s4 = play(s, start.model_copy(update={"goal": "maneuver", "hidden": True}), A.StateDifficulty(player="Ann", value=0))
    refuses(s4, A.Wager(player="Ben", stakes=[A.StakeIn(trait="Blade", die=8, source="bowl")], block="block"), "V-24")
    assert points([6]) == 2  # the d6 Block 6 costs


def test_V_24_heuristic_seats_buy_block_6_and_use_it_when_they_act():
    """V-24 (L663): the third heuristic seat's PC buys Block 6 on its focus trait with a d6 on the sheet and
    pushes it when it acts; on a success the block stands (seed 5, one act); every die is accounted for, and the
    log replays to the same bytes."""
    from agents.game_loop import GameTable
    from agents.game_sim import simulate
    sim = simulate("vele", seats=4, seed=5, options={"acts": 1})
    t = sim.table
    third = t.state.seats[2]
    bought = [r.action["pc"]["ability"] for r in t.records if r.action.get("type") == "build"
              and r.action["player"] == third]
    assert bought and all(a["effect"] == "block" and a["size"] == 6 and a["dice"] == [6] for a in bought)
    used = [r for r in t.records if r.action.get("type") == "wager" and r.action.get("block") == "block"]
    assert used and all(r.action["player"] == third for r in used)
    assert any(e.kind == "block" and "Block 6" in e.text for e in t.events)
    assert dice_in_play(t.state) == t.state.total_points
    assert GameTable.load(t.log_text()).log_text() == t.log_text()

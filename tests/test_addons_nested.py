"""Nested Complications (UA-NEST-1, UA-NEST-2; book L2386-2400, digest §2.2) played through `apply`,
with fixed dice and exact coins. The engine resolves the new Complication first (a stack: the book's
"Almost always it will be the new Complication being resolved first", L2396)."""
from __future__ import annotations

import pytest

from engine.core.errors import RuleViolation
from engine.universalis import actions as A
from engine.universalis import apply, legal_options, new_game, pending
from engine_helpers import P3, Game, framed, observed

NEST = {"nested_complications": True}


def seen(*rules: str) -> None:
    for rule in rules:
        observed(rule, "effect")


def wealth(g: Game) -> dict[str, int]:
    return {p.name: p.wealth + p.stake for p in g.s.players}


def rival_fight(addons: dict | None = None, attack: str = "The rival attacks the hero.",
                ben_also: str = "") -> tuple[Game, str, str, str]:
    """Ann's Hero, Ben's Rival, Cat's Demon, a turn each. Ben's rival attacks the hero (Complication 1,
    Ben against Ann), Ben buys 3 dice for it; on Ann's turn she draws her Hero's role into her Pool (1 die
    to 3)."""
    g = framed(P3, {"Ann": 1}, addons=addons if addons is not None else NEST)
    hero = g.create("Ann", "Hero")
    g.end_turn("Ann")
    rival = g.create("Ben", "Rival")
    if ben_also:
        g.create("Ben", ben_also)
    g.end_turn("Ben")
    demon = g.create("Cat", "Demon")
    g.end_turn("Cat")
    g.end_turn("Ann")
    g.event("Ben", attack, performer=rival, receiver=hero)
    g.act(A.BuyDie(player="Ben", pool="C", count=3))
    g.end_turn("Ben")
    g.end_turn("Cat")
    g.act(A.DrawTrait(player="Ann", trait=g.trait(hero, "Hero"), component=hero, pool="Ann"))
    return g, hero, rival, demon


def replays(g: Game) -> None:
    """The same actions from the same setup give the same state, byte for byte."""
    s = new_game(P3, addons=g.s.config.addons)
    for a in g.actions:
        s, _ = apply(s, a)
    assert s.model_dump_json() == g.s.model_dump_json()


def test_UA_NEST_1_UA_NEST_2_nested_one_resolves_first_and_its_bonus_Trait_is_drawn_in_the_parent_L2396_L2398():
    """L2390: a new Complication Originated before the open one is resolved; L2396: the new one resolves
    first; L2398: each has its own Pools and is a separate Complication for Drawing upon Traits, and its
    bonus coins may buy "a new Trait ... which can then be Drawn upon to provide dice to another
    Complication". Coins: 25 each; Ann's bid 1, location 1, Event 1, Hero 1: 22. Ben: Rival 1, the
    attack 1, 3 dice: 20. Cat: Demon 1: 24."""
    g, hero, rival, demon = rival_fight()
    assert wealth(g) == {"Ann": 22, "Ben": 20, "Cat": 24}
    assert g.s.complication is not None and g.s.complication.id == 1
    assert [(p.key, p.dice) for p in g.s.complication.pools] == [("C", 3), ("Ann", 1)]
    hero_key = f"{g.trait(hero, 'Hero')}@{hero}"
    # Ann, behind 1 die to 3, Originates a second Complication against Cat's Demon (1 coin): nested
    g.effect("UA-NEST-1", A.NarrateEvent(player="Ann", text="The hero commands the demon.", performer=hero,
                                         receiver=demon),
             lambda b, a: [x.id for x in a.suspended] == [1] and a.complication is not None and a.complication.id == 2)
    assert wealth(g) == {"Ann": 21, "Ben": 20, "Cat": 24}
    parent = g.s.suspended[0]
    assert [(p.key, p.dice) for p in parent.pools] == [("C", 3), ("Ann", 1)] and parent.drawn == [hero_key]
    assert [(p.key, p.owner) for p in g.s.complication.pools] == [("C", "Ann"), ("Cat", "Cat")]
    assert "nested in Complication 1" in g.last("complication_nested").text
    # the Hero's role, drawn in Complication 1, is drawn again in this one (its own draw record)
    g.effect("UA-NEST-2", A.DrawTrait(player="Ann", trait=g.trait(hero, "Hero"), component=hero, pool="C"),
             lambda b, a: a.complication is not None and a.complication.drawn == [hero_key])
    g.refused(A.DrawTrait(player="Ann", trait=g.trait(hero, "Hero"), component=hero, pool="C"), "U-COMP-3",
              "already drawn on in this Complication")
    assert g.s.suspended[0].pools[0].dice == 3  # dice go to the active Complication only
    g.call_and_agree("Ann")
    g.roll(C=[2], Cat=[])  # 1 Success to 0: Ann's Complication Pool wins 2 bonus coins; Cat's empty Pool 0
    assert g.pend.kind == "narration" and g.s.narration.slots[0].coins == 2
    # the bonus buys a Trait on the Hero (tied to this Complication) before Complication 1 resumes
    g.act(A.AddTrait(player="Ann", component=hero, text="Bound demon's strength"))
    g.narrate_out()  # she keeps the other coin
    assert wealth(g) == {"Ann": 22, "Ben": 20, "Cat": 24}
    assert g.s.suspended == [] and g.s.complication is not None and g.s.complication.id == 1
    assert g.s.complications_resolved == 1 and g.turn == "Ann"
    assert "Complication 1" in g.last("complication_resumed").text
    # ... and Drawn upon in Complication 1: Ann's Pool 2 dice against 3
    g.act(A.DrawTrait(player="Ann", trait=g.trait(hero, "Bound demon's strength"), component=hero, pool="Ann"))
    assert [(p.key, p.dice) for p in g.s.complication.pools] == [("C", 3), ("Ann", 2)]
    g.call_and_agree("Ann")
    g.roll(C=[6, 7, 8], Ann=[1, 3])  # 0 Successes to 2: Ann wins 1+3 = 4; Ben loses, 1 per die = 3
    g.narrate_out()
    assert wealth(g) == {"Ann": 26, "Ben": 23, "Cat": 24}
    assert g.s.complication is None and g.s.complications_resolved == 2 and g.turn == "Ann"
    g.check()
    replays(g)


def test_UA_NEST_1_a_Component_committed_to_the_suspended_Complication_stays_committed_L2396():
    """U-COMP-4 (L1044) holds for the waiting Complication too: Cat may not take over Ben's Rival, its
    source, nor may Ann's Hero leave the scene, while Complication 2 is resolved; the refusal names the
    add-on. Both are free again once everything is over."""
    g, hero, rival, demon = rival_fight()
    g.event("Ann", "The hero commands the demon.", performer=hero, receiver=demon)
    g.refused(A.TakeOver(player="Cat", component=rival), "UA-NEST-1", "Nested Complications add-on")
    g.refused(A.ExitComponent(player="Ann", component=rival), "UA-NEST-1", "committed to Complication 1")
    assert g.s.suspended[0].id == 1


def test_UA_NEST_1_a_daisy_chain_resolves_innermost_first_L2396():
    """L2396: "they may all impact the next Complication up daisy-chain style": a third Complication
    inside the second; ids 1, 2, 3; each resolves in turn, innermost first, and the turn comes back to
    the player whose turn it was when it was called. Complication 3's bonus coin buys a Trait on the
    scene's location, Ann's (L2398, the engine's reading of U-COMP-10 for a nested one)."""
    g, hero, rival, demon = rival_fight()
    g.event("Ann", "The hero commands the demon.", performer=hero, receiver=demon)
    g.end_turn("Ann")
    g.end_turn("Ben")
    g.event("Cat", "The demon turns on the rival.", performer=demon, receiver=rival)  # Cat's own, nested in 2
    assert [x.id for x in g.s.suspended] == [1, 2] and g.s.complication.id == 3
    assert [(p.key, p.owner) for p in g.s.complication.pools] == [("C", "Cat"), ("Ben", "Ben")]
    assert wealth(g) == {"Ann": 21, "Ben": 20, "Cat": 23}
    g.act(A.BuyDie(player="Cat", pool="C", count=1))
    g.call_and_agree("Cat")
    g.roll(C=[1], Ben=[])  # Complication 3: Cat wins 1
    # L2398: "a new Trait attached to the scene": Cat's bonus coin buys one on Ann's Tavern
    tavern = g.s.scene().location
    assert g.s.controller(tavern) == "Ann"
    g.act(A.AddTrait(player="Cat", component=tavern, text="Smoke fills the room"))
    g.narrate_out()
    assert [x.id for x in g.s.suspended] == [1] and g.s.complication.id == 2 and g.turn == "Cat"
    g.act(A.BuyDie(player="Cat", pool="Cat", count=1))
    g.call_and_agree("Cat")
    g.roll(C=[], Cat=[4])  # Complication 2: Cat's Target Pool wins 4
    g.narrate_out()
    assert g.s.suspended == [] and g.s.complication.id == 1 and g.turn == "Cat"
    g.call_and_agree("Cat")
    g.roll(C=[9, 9, 9], Ann=[5])  # Complication 1: Ann wins 5, Ben loses 3
    g.narrate_out()
    assert g.s.complication is None and g.s.complications_resolved == 3
    assert wealth(g) == {"Ann": 26, "Ben": 23, "Cat": 23 - 1 + 0 - 1 + 4}
    g.check()
    replays(g)


def test_UA_NEST_1_off_the_core_rule_one_Complication_at_a_time():
    """Without the add-on a second Complication is refused (U-COMP-1), as before."""
    g, hero, rival, demon = rival_fight({})
    g.refused(A.NarrateEvent(player="Ann", text="The hero commands the demon.", performer=hero, receiver=demon),
              "U-COMP-1", "already open")


def test_UA_NEST_1_UA_FREEZE_1_the_outer_ban_holds_in_the_nested_narration_L2222_L2398():
    """No New Traits in Complications with Nested (the digest's reading): the ban holds while any outer
    Complication is open, so the nested one's bonus coins cannot buy a Trait; `freeze_scope="own"`
    lifts it once the nested one's own dice are tallied (L2222)."""
    for scope, bars in (("outermost", True), ("own", False)):
        g, hero, rival, demon = rival_fight({**NEST, "complication_trait_freeze": "always", "freeze_scope": scope})
        g.event("Ann", "The hero commands the demon.", performer=hero, receiver=demon)
        g.act(A.DrawTrait(player="Ann", trait=g.trait(hero, "Hero"), component=hero, pool="C"))
        g.call_and_agree("Ann")
        g.roll(C=[2], Cat=[])
        buy = A.AddTrait(player="Ann", component=hero, text="Bound demon's strength")
        if bars:
            g.refused(buy, "UA-FREEZE-1", "UA-NEST-1")
        else:
            g.act(buy)
            assert g.s.components[hero].traits[-1].text == "Bound demon's strength"
        g.check()


def test_UA_NEST_1_legal_options_say_a_turn_action_on_another_players_Component_nests():
    g, hero, rival, demon = rival_fight()
    notes = {o.type: o.note for o in legal_options(g.s, "Ann")}
    assert "nested Complication" in notes["narrate_event"] and "UA-NEST-1" in notes["narrate_event"]
    core, *_ = rival_fight({})
    assert {o.type: o.note for o in legal_options(core.s, "Ann")}["narrate_event"] == ""
    # a model's schema offers Cat's Demon as the receiver only where nesting is possible
    from agents.llm.legal_now import action_choices
    assert demon in dict(action_choices(g.s, "Ann"))["narrate_event.receiver"]
    assert demon not in dict(action_choices(core.s, "Ann"))["narrate_event.receiver"]


def test_UA_NEST_1_an_Obstacle_against_an_Event_nests_while_a_Complication_is_open_L2390():
    """U-COMP-1a: an Obstacle (1 coin and its dice) against an Event starts a Complication; with the
    add-on, also while one is open: Cat's Obstacle of 2 dice against Ann's Event on her own Hero."""
    g, hero, rival, demon = rival_fight()
    g.act(A.AddTrait(player="Ann", component=hero, text="Strong"))  # not an Event: no Obstacle
    g.do(A.NarrateEvent(player="Ann", text="The hero lifts the gate.", performer=hero))
    assert any(o.type == "obstacle" for o in legal_options(g.s, "Cat"))
    g.react({"Cat": A.Obstacle(player="Cat", dice=2, text="The gate is rusted shut.")})
    assert [x.id for x in g.s.suspended] == [1] and g.s.complication.id == 2
    assert [(p.key, p.owner, p.dice) for p in g.s.complication.pools] == [("C", "Cat", 2), ("Ann", "Ann", 0)]
    assert wealth(g)["Cat"] == 24 - 3 and g.turn == "Cat"
    g.check()


def test_UA_NEST_1_UA_CDICE_2_a_hands_cards_played_into_a_suspended_Complication_wait_under_it_L2396_L2430():
    """L2396 (the interrupted Complication waits, "Almost always it will be the new Complication being resolved
    first") with Cards instead of Dice (L2430: bought dice are cards chosen from the hand, played face down):
    Ben plays two 5s into Complication 1's C Pool. Ann's Event against Cat's Demon nests Complication 2, whose
    Pools are named C and Cat too: Ben's two cards wait under Complication 1 ("#1:C") while Ann plays a 5 into
    the new C, rolls it (5: 5 bonus coins, kept: 5 cards dealt from her deck) and Complication 1 resumes with
    Ben's two 5s in its C Pool; they must show in its roll (C 5 5: 10 coins, 10 cards dealt to Ben). Every
    hand holds its player's coins (cards in hand or owed) after every action; the actions replay."""
    from test_addons_cards_hand import dealt, rival_with
    g, hero = rival_with({"currency": "cards_hand", **NEST})

    def hands() -> None:
        for p in g.s.players:
            h = g.s.extra.hands[p.name]
            assert len(h.hand) + h.owed == p.wealth + p.stake, (p.name, h)
    g.act(A.BuyDie(player="Ben", pool="C", count=2))
    assert g.s.extra.hands["Ben"].played == {"C": [5, 5]}
    g.end_turn("Ben")
    demon = g.create("Cat", "Demon")
    g.end_turn("Cat")
    before = {p: g.wealth(p) for p in P3}
    g.event("Ann", "The hero commands the demon.", performer=hero, receiver=demon)
    assert [x.id for x in g.s.suspended] == [1] and g.s.complication.id == 2
    assert g.s.extra.hands["Ben"].played == {"#1:C": [5, 5]}
    g.act(A.BuyDie(player="Ann", pool="C", count=1))
    assert g.s.extra.hands["Ann"].played == {"C": [5]} and g.s.extra.hands["Ben"].played == {"#1:C": [5, 5]}
    hands()
    g.call_and_agree("Ann")
    assert pending(g.s).dice == {"C": 1, "Cat": 0}
    g.roll(C=[5], Cat=[])
    assert g.s.extra.hands["Ann"].played == {} and g.s.extra.hands["Ben"].played == {"#1:C": [5, 5]}
    g.narrate_out()
    dealt(g, Ann=[1, 2, 3, 4, 6])
    assert g.s.complication.id == 1 and g.s.extra.hands["Ben"].played == {"C": [5, 5]}
    hands()
    g.call_and_agree(g.turn)
    g.refused(A.Roll(faces={"C": [5, 4], "Ann": []}), "UA-CDICE-2", "holds a 5 played from a hand")
    g.roll(C=[5, 5], Ann=[])
    g.narrate_out()
    dealt(g, Ben=[1, 2, 3, 4, 5, 6, 6, 7, 7, 8])
    assert g.s.complication is None and all(h.played == {} for h in g.s.extra.hands.values())
    hands()
    assert {p: g.wealth(p) - before[p] for p in P3} == {"Ann": 5 - 2, "Ben": 10, "Cat": 0}
    g.check()
    replays(g)
    seen("UA-NEST-1", "UA-CDICE-2")


@pytest.mark.parametrize("currency", ["cards_bank", "cards_stack"])
def test_UA_NEST_1_UA_CARDS_3_a_suspended_Complication_keeps_its_cards_face_down_L2396_L2050(currency):
    """L2396 (the Pools of the Complication interrupted wait, "Almost always it will be the new Complication
    being resolved first") with Cards as Coins (L2050: a Pool's cards are discarded once it is resolved) or
    Mazza's stack: Ben's 3 bought cards and Ann's Trait card stay in Complication 1's Pools while Ann's nested
    Complication 2 is built, rolled (C 2: 2 bonus coins, kept) and narrated; only its cards are discarded.
    Complication 1 then rolls C 6 7 8 against Ann 1: Ann keeps 1, Ben 3. Ben's deck: Bank 12, discards 5,
    Pools 0, Wealth 23; every deck holds 40 cards and its Wealth cards equal its player's coins throughout."""
    g, hero, rival, demon = rival_fight({**NEST, "currency": currency})

    def decks() -> dict[str, int]:
        for p in g.s.players:
            d = g.s.extra.cards[p.name]
            assert d.bank + d.discards + d.pool + d.held == 40 and d.held == p.wealth + p.stake, (p.name, d)
        return {n: d.pool for n, d in g.s.extra.cards.items()}
    ann_trait = 0 if currency == "cards_stack" else 1  # with the stack a Trait's card is the Trait Deck's
    assert decks() == {"Ann": ann_trait, "Ben": 3, "Cat": 0}
    g.event("Ann", "The hero commands the demon.", performer=hero, receiver=demon)
    assert [x.id for x in g.s.suspended] == [1] and decks() == {"Ann": ann_trait, "Ben": 3, "Cat": 0}
    g.act(A.DrawTrait(player="Ann", trait=g.trait(hero, "Hero"), component=hero, pool="C"))
    assert decks() == {"Ann": 2 * ann_trait, "Ben": 3, "Cat": 0}
    g.call_and_agree("Ann")
    g.roll(C=[2], Cat=[])
    g.narrate_out()
    assert g.s.complication.id == 1 and decks() == {"Ann": ann_trait, "Ben": 3, "Cat": 0}
    g.call_and_agree("Ann")
    g.roll(C=[6, 7, 8], Ann=[1])
    g.narrate_out()
    assert wealth(g) == {"Ann": 24, "Ben": 23, "Cat": 24} and decks() == {"Ann": 0, "Ben": 0, "Cat": 0}
    ben = g.s.extra.cards["Ben"]
    assert (ben.bank, ben.discards, ben.pool, ben.held) == (12, 5, 0, 23)
    g.check()
    replays(g)
    seen("UA-NEST-1", "UA-CARDS-3")


def test_UA_NEST_1_the_heuristic_nests_when_behind_and_plays_the_resumed_Complication(tmp_path):
    """Heuristic seats with the add-on on: a seat behind in an open Complication sometimes starts a nested
    one (in about a third of 400-decision games); it resolves, the first resumes and is rolled. Coins are
    accounted for after every decision and each log replays to the same state (replayed_game)."""
    from engine.universalis.ruleset import UniversalisRuleset
    from engine_helpers import replayed_game
    rs = UniversalisRuleset()
    nested = 0

    def watch(s) -> None:
        depth.append(len(s.suspended))
        assert rs.invariants(s) == []
        for x in [*s.suspended, *([s.complication] if s.complication else [])]:  # one number, one Complication
            assert numbers.setdefault(x.id, (x.originator, x.source)) == (x.originator, x.source)

    for seed in (8, 11, 13):
        depth: list[int] = []
        numbers: dict[int, tuple[str, str]] = {}
        t = replayed_game(NEST, seed, tmp_path / f"g{seed}.jsonl", steps=400, check=watch)
        kinds = [e.kind for e in t.events]
        if "complication_nested" not in kinds:
            continue
        nested += 1
        first = kinds.index("complication_nested")
        resumed = kinds.index("complication_resumed", first)
        assert "roll" in kinds[resumed:] and max(depth) >= 1
        assert "UA-NEST-1" in t.events[first].text and t.events[first].player in P3
        assert "order_nested" not in kinds  # UA-NEST-3: the heuristic keeps the book's usual order, new first
    assert nested >= 1


def test_UA_NEST_1_a_mini_scene_that_ends_with_both_open_rolls_both_innermost_first():
    """A mini scene ends with its turn; a Complication still open rolls as it stands (U-TURN-4). With a
    nested one open too, the nested one rolls, is narrated, then the resumed one rolls as it stands, and
    only then does the mini scene close and the turn pass."""
    g = framed(P3, {"Ann": 1}, addons=NEST)
    g.act(A.FrameMiniScene(player="Ann"))
    g.act(A.EstablishLocation(player="Ann", new_role="Crypt"))
    hero = g.create("Ann", "Hero")
    g.do(A.CreateComponent(player="Ann", role="Guard", introduce=True))
    guard = g.new_component()
    g.react({"Ben": A.TakeOver(player="Ben", component=guard)})
    g.do(A.CreateComponent(player="Ann", role="Demon", introduce=True))
    demon = g.new_component()
    g.react({"Cat": A.TakeOver(player="Cat", component=demon)})
    assert g.s.scene().control[guard] == "Ben" and g.s.scene().control[demon] == "Cat" and g.turn == "Ann"
    g.event("Ann", "The hero strikes the guard.", performer=hero, receiver=guard)
    g.act(A.BuyDie(player="Ann", pool="C", count=1))
    g.event("Ann", "The hero binds the demon.", performer=hero, receiver=demon)
    assert [x.id for x in g.s.suspended] == [1] and g.s.complication.id == 2
    g.act(A.BuyDie(player="Ann", pool="C", count=2))
    g.end_turn("Ann")  # the mini scene ends: Complication 2 rolls as it stands
    assert g.pend.kind == "roll" and g.pend.dice == {"C": 2, "Cat": 0}
    g.roll(C=[1, 2], Cat=[])
    g.narrate_out()
    assert g.s.complication.id == 1 and g.pend.kind == "roll" and g.pend.dice == {"C": 1, "Ben": 0}
    assert g.s.turn.mini_scene is not None
    g.roll(C=[3], Ben=[])
    g.narrate_out()
    assert g.s.complication is None and g.s.turn.mini_scene is None and g.turn == "Ben"
    g.check()
    replays(g)


def test_UA_NEST_1_the_app_the_CLI_and_the_model_see_the_suspended_Complication():
    """The Complication panel lists each Complication waiting under the open one, with its Pools; what a
    player wrote is escaped; a game without nesting shows nothing more."""
    from app.ui.conflict import suspended_lines
    g, hero, rival, demon = rival_fight(attack="The rival <b>attacks</b> the *hero*.")
    assert suspended_lines(g.s) == []
    g.event("Ann", "The hero commands the demon.", performer=hero, receiver=demon)
    lines = suspended_lines(g.s)
    assert len(lines) == 1 and "Complication 1 by Ben" in lines[0] and "attacks" in lines[0]
    assert "<b>" not in lines[0] and "*hero*" not in lines[0]  # escaped
    assert "Complication Pool 3, Ann's Pool 1" in lines[0]
    from agents.llm.state_text import describe_state
    text = describe_state(g.s, "Cat")
    assert "Complication 1 by Ben" in text and "suspended" in text and "Complication 2 started by Ann" in text
    from types import SimpleNamespace
    from app.commands.play import situation
    cli = "\n".join(situation(SimpleNamespace(state=g.s), "Cat"))
    assert "Complication: The hero commands the demon." in cli and "Complication 1 by Ben" in cli


def test_UA_NEST_1_UA_GIM_1_adopted_mid_game_and_not_dropped_while_one_waits_L2444():
    """Adopted after play has begun as a 1-coin Rules Gimmick (UA-GIM-1), Nested Complications plays at
    once; dropping it while a Complication waits under a nested one is refused (it would leave that one
    stranded), and allowed again once every Complication is over."""
    g, hero, rival, demon = rival_fight({})
    g.act(A.AdoptAddon(player="Ann", addon="nested-complications"))
    assert wealth(g)["Ann"] == 21 and g.s.config.addons.nested_complications
    g.event("Ann", "The hero commands the demon.", performer=hero, receiver=demon)
    assert [x.id for x in g.s.suspended] == [1]
    g.end_turn("Ann")
    g.refused(A.AdoptAddon(player="Ben", addon="nested-complications", drop=True), "UA-NEST-1", "waits under")
    g.check()


def test_UA_NEST_1_an_Obstacle_after_a_Take_Over_that_started_one_does_not_nest_U_COMP_1b():
    """U-COMP-1b: a Take Over of a Component in another's Event starts a Complication; an Obstacle in the
    same window then adds nothing, as in the core rule (the Take Over's Complication opposes the Event):
    with the add-on on, it does not nest a second one either."""
    for addons in ({}, NEST):
        g = framed(P3, {"Ann": 1}, addons=addons)
        hero = g.create("Ann", "Hero")
        guard = g.create("Ann", "Guard")
        g.do(A.NarrateEvent(player="Ann", text="The hero shoves the guard.", performer=hero, receiver=guard))
        g.react({"Ben": A.TakeOver(player="Ben", component=guard),
                 "Cat": A.Obstacle(player="Cat", dice=2, text="The floor gives way.")})
        assert g.s.complication is not None and g.s.complication.id == 1 and g.s.suspended == []
        assert [(p.key, p.dice) for p in g.s.complication.pools] == [("C", 0), ("Ben", 0)]
        g.check()


def test_UA_NEST_1_a_nesting_Event_withdrawn_by_a_Challenge_leaves_the_first_Complication_as_it_was():
    """U-CHAL-4: a conceded Challenge takes the statement back. Taken back, the Event that nested
    Complication 2 leaves Complication 1 open and active again, with its Pools and draws, nothing
    suspended, and Ann's coin for the Event back (U-CHAL-4's refund)."""
    g, hero, rival, demon = rival_fight()
    before = g.s.complication.model_dump_json()
    g.do(A.NarrateEvent(player="Ann", text="The hero commands the demon.", performer=hero, receiver=demon))
    assert [x.id for x in g.s.suspended] == [1]
    g.react({"Cat": A.ChallengeStatement(player="Cat", reason="the demon answers to no one")})
    g.do(A.ConcedeChallenge(player="Ann"))
    g.passes()
    assert g.s.suspended == [] and g.s.complication.model_dump_json() == before
    assert wealth(g) == {"Ann": 22, "Ben": 20, "Cat": 24}
    g.check()
    replays(g)


def test_UA_NEST_1_two_nested_Complications_feed_one_primary_in_turn_L2396():
    """L2396: "they all might impact the same primary Complication": once the first nested one is over
    and Complication 1 is active again, a second nested one (number 3) can start in it, and Complication
    1 resumes again after it."""
    g, hero, rival, demon = rival_fight()
    for number, text in ((2, "The hero commands the demon."), (3, "The hero binds the demon again.")):
        g.event("Ann", text, performer=hero, receiver=demon)
        assert [x.id for x in g.s.suspended] == [1] and g.s.complication.id == number
        g.act(A.BuyDie(player="Ann", pool="C", count=1))
        g.call_and_agree("Ann")
        g.roll(C=[5], Cat=[])  # Ann wins 5
        g.narrate_out()
        assert g.s.suspended == [] and g.s.complication.id == 1 and g.turn == "Ann"
    assert wealth(g) == {"Ann": 22 - 2 * (1 + 1) + 2 * 5, "Ben": 20, "Cat": 24}
    assert g.s.complications_resolved == 2
    assert [(p.key, p.dice) for p in g.s.complication.pools] == [("C", 3), ("Ann", 1)]
    g.check()


def test_UA_NEST_1_the_page_shows_the_nested_Complication_and_the_one_waiting(tmp_path, monkeypatch):
    """The Streamlit table (AppTest): the Complication panel numbers the active one, marks it nested and
    lists the one waiting under it with its Pools, the players' words escaped."""
    pytest.importorskip("streamlit")
    monkeypatch.setenv("STORYTABLE_HOME", str(tmp_path / "games"))
    monkeypatch.setenv("STORYTABLE_APP_POLL", "0")
    from test_addons_app_play import NAMES, passes, people, submit
    from test_app_streamlit import seated
    from engine.universalis import pending
    from engine.universalis.addons import Addons
    lv = people(Addons(nested_complications=True))
    t = lv.table
    while t.state.phase == "prep":
        submit(lv, A.PassPrep(player=pending(t.state).players[0]))
    for n in NAMES:
        submit(lv, A.Bid(player=n, amount=1 if n == "A" else 0))

    def cid(label: str) -> str:
        return next(c.id for c in t.state.components.values() if c.label == label)

    for a in (A.EstablishLocation(player="A", new_role="Tavern"), A.NarrateEvent(player="A", text="Lamps are lit."),
              A.CreateComponent(player="A", role="Hero", introduce=True), A.EndTurn(player="A"),
              A.CreateComponent(player="B", role="Rival", introduce=True)):
        submit(lv, a)
        passes(lv)
    submit(lv, A.NarrateEvent(player="B", text="The rival <b>ambushes</b> the hero.", performer=cid("Rival"),
                              receiver=cid("Hero")))
    passes(lv)
    for a in (A.EndTurn(player="B"), A.CreateComponent(player="Cy", role="Demon", introduce=True)):
        submit(lv, a)
        passes(lv)
    submit(lv, A.NarrateEvent(player="Cy", text="The demon turns on the rival.", performer=cid("Demon"),
                              receiver=cid("Rival")))
    passes(lv)
    assert [x.id for x in t.state.suspended] == [1] and t.state.complication.id == 2
    lv.synced()
    at = seated(lv)
    md = " ".join(m.value for m in at.markdown)
    captions = " ".join(c.value for c in at.caption)
    assert "**Complication 2** (nested) started by **Cy**" in md
    assert "Waiting under it (Nested Complications): Complication 1 by B" in captions
    assert "ambushes" in captions and "<b>" not in captions


def test_UA_NEST_1_the_nested_ones_bonus_may_damage_what_is_tied_to_the_one_it_interrupted_L2400():
    """L2400: the nested one's bonus coins may "damage or even eliminate Components that could be useful
    to another Complication". Engine reading: what is tied to a Complication it interrupted counts as
    tied for its bonus coins (U-COMP-10): Ann, winning Complication 2 against Cat's Demon, marks Ben's
    Rival (the source of Complication 1) with 1 bonus coin; a Component of Ben's tied to no open
    Complication stays out of reach (U-COMP-10)."""
    g, hero, rival, demon = rival_fight(ben_also="Crate")
    crate = next(c.id for c in g.s.components.values() if c.label == "Crate")
    g.event("Ann", "The hero commands the demon.", performer=hero, receiver=demon)
    g.act(A.BuyDie(player="Ann", pool="C", count=1))
    g.call_and_agree("Ann")
    g.roll(C=[4], Cat=[])  # Ann wins 4
    g.refused(A.AddTrait(player="Ann", component=crate, text="Splintered"), "U-COMP-10", "not")
    g.act(A.AddTrait(player="Ann", component=rival, text="Clawed by the demon"))
    assert g.s.components[rival].traits[-1].text == "Clawed by the demon" and g.s.narration.slots[0].coins == 3
    g.narrate_out()
    assert g.s.complication.id == 1 and g.turn == "Ann" and wealth(g)["Ann"] == 22 - 2 + 3
    g.check()


def test_U_ACT_8_U_COMP_1_a_Dialog_that_could_become_a_second_Complication_is_refused_L477():
    """L477: the other player "can force the Event into Complication" by refusing a Dialog; without
    Nested Complications only one is open at a time (U-COMP-1), so on Ann's turn in Complication 1 a
    Dialog with Cat's Demon is refused before it opens (it used to open, and Cat's refusal replaced
    Complication 1, lost with its Pools). Speaking for her own character stays free; with the add-on
    the refused Dialog nests (UA-NEST-1), Complication 1 waiting under it."""
    g, hero, rival, demon = rival_fight({})
    before = wealth(g)
    g.refused(A.Dialog(player="Ann", speaker=hero, listener=demon, line="Obey me."), "U-COMP-1",
              "if cat refuses it")
    opts = [o.type for o in legal_options(g.s, "Ann")]
    assert "dialog" in opts  # still offered: between characters she controls both of, it is free speech
    g.act(A.Speak(player="Ann", component=hero, line="Obey me."))
    assert wealth(g) == before and g.s.complication.id == 1
    assert [(p.key, p.dice) for p in g.s.complication.pools] == [("C", 3), ("Ann", 1)]
    from agents.llm.legal_now import action_choices
    assert demon not in dict(action_choices(g.s, "Ann"))["dialog.listener"]
    # with the add-on: the refusal starts Complication 2, nested; Complication 1 waits intact
    g, hero, rival, demon = rival_fight()
    g.act(A.Dialog(player="Ann", speaker=hero, listener=demon, line="Obey me."))
    g.act(A.AnswerDialog(player="Cat", accept=False))
    assert g.s.complication.id == 2 and g.s.complication.originator == "Ann"
    assert [x.id for x in g.s.suspended] == [1]
    assert [(p.key, p.dice) for p in g.s.suspended[0].pools] == [("C", 3), ("Ann", 1)]
    g.check()
    replays(g)


def test_UA_NEST_3_the_new_ones_Originator_puts_the_interrupted_one_first_L2396():
    """L2396: "Which Complication is resolved first is up to the player Originating the new Complication.
    Almost always it will be the new Complication": new first is the default; Ann, who Originated
    Complication 2, puts Complication 1 first (free), may change her mind while the Pools are built, and
    nobody else may choose. Coins: Ann 22 - 1 (the Event) + 5 (wins Complication 1) - 1 (a die) + 5
    (wins Complication 2) = 30; Ben 20 + 3 (loses Complication 1, 1 per die); Cat 24 (an empty Pool)."""
    g, hero, rival, demon = rival_fight()
    g.event("Ann", "The hero commands the demon.", performer=hero, receiver=demon)
    assert g.s.complication.id == 2 and [x.id for x in g.s.suspended] == [1]
    assert [o.note for o in legal_options(g.s, "Ann") if o.type == "order_nested"] == [
        "first=interrupted: the Complication it interrupted resolves first"]
    g.refused(A.OrderNested(player="Cat", first="interrupted"), "UA-NEST-3",
              "the choice of which resolves first is his")
    g.refused(A.OrderNested(player="Ann", first="new"), "UA-NEST-3", "already resolves first")
    g.effect("UA-NEST-3", A.OrderNested(player="Ann", first="interrupted"),
             lambda b, a: a.complication.id == 1 and [x.id for x in a.suspended] == [2])
    assert "Complication 1" in g.last("order_nested").text and wealth(g) == {"Ann": 21, "Ben": 20, "Cat": 24}
    # she may change her mind while both build their Pools, and back again
    g.act(A.OrderNested(player="Ann", first="new"))
    assert g.s.complication.id == 2
    g.act(A.OrderNested(player="Ann", first="interrupted"))
    assert [(p.key, p.dice) for p in g.s.complication.pools] == [("C", 3), ("Ann", 1)]
    g.call_and_agree("Ann")
    g.roll(C=[9, 9, 9], Ann=[5])  # Complication 1: Ann wins 5, Ben loses 3
    g.narrate_out()
    assert g.s.complication.id == 2 and g.s.suspended == [] and g.turn == "Ann"
    assert g.s.complications_resolved == 1
    g.refused(A.OrderNested(player="Ann", first="new"), "UA-NEST-3", "no nested Complication is open")
    g.act(A.BuyDie(player="Ann", pool="C", count=1))
    g.call_and_agree("Ann")
    g.roll(C=[5], Cat=[])  # Complication 2: Ann wins 5; Cat's empty Pool earns nothing
    g.narrate_out()
    assert g.s.complication is None and g.s.complications_resolved == 2
    assert wealth(g) == {"Ann": 30, "Ben": 23, "Cat": 24}
    g.check()
    replays(g)


def test_UA_NEST_3_core_tables_have_no_order_to_choose():
    """Without the add-on there is never a nested Complication: the move is refused, naming the add-on."""
    g, hero, rival, demon = rival_fight({})
    g.refused(A.OrderNested(player="Ben", first="interrupted"), "UA-NEST-3", "Nested Complications")
    assert "order_nested" not in [o.type for o in legal_options(g.s, "Ann")]


def test_UA_NEST_1_two_nested_Complications_open_at_once_both_feed_the_primary_L2396_L2398():
    """L2396: "In the case of multiple Nested Complications going on simultaneously, they all might impact
    the same primary Complication": Complications 2 and 3 are open at once above Complication 1, resolved
    one at a time ("One of the Complications must be resolved first"), and the bonus coins of each buy a
    Trait (L2398: "a new Trait ... which can then be Drawn upon to provide dice to another Complication")
    that Cat then Draws upon in Complication 1: 3 buys one on the scene's Tavern, 2 one on Ann's Hero,
    committed to 1. Coins: Ann 22 - 1 (the Event) + 1 (loses 1, one die) = 22; Ben 20 + 3 (wins 1 + 2);
    Cat 24 - 1 (the Event) - 2 (dice) + 1 + 4 (wins 3 and 2) - 2 (the two Traits) = 24."""
    g, hero, rival, demon = rival_fight()
    g.event("Ann", "The hero commands the demon.", performer=hero, receiver=demon)
    g.end_turn("Ann")
    g.end_turn("Ben")
    g.event("Cat", "The demon turns on the rival.", performer=demon, receiver=rival)
    assert [x.id for x in g.s.suspended] == [1, 2] and g.s.complication.id == 3
    g.act(A.BuyDie(player="Cat", pool="C", count=1))
    g.call_and_agree("Cat")
    g.roll(C=[1], Ben=[])  # Complication 3: Cat wins 1
    tavern = g.s.scene().location
    g.act(A.AddTrait(player="Cat", component=tavern, text="Smoke fills the room"))
    g.narrate_out()
    assert g.s.complication.id == 2
    g.act(A.BuyDie(player="Cat", pool="Cat", count=1))
    g.call_and_agree("Cat")
    g.roll(C=[], Cat=[4])  # Complication 2: Cat's Target Pool wins 4
    g.act(A.AddTrait(player="Cat", component=hero, text="Shaken by the demon"))
    g.narrate_out()
    assert g.s.suspended == [] and g.s.complication.id == 1 and g.turn == "Cat"
    for cid, text in ((tavern, "Smoke fills the room"), (hero, "Shaken by the demon")):
        g.act(A.DrawTrait(player="Cat", trait=g.trait(cid, text), component=cid, pool="C"))
    assert [(p.key, p.dice) for p in g.s.complication.pools] == [("C", 5), ("Ann", 1)]
    g.call_and_agree("Cat")
    g.roll(C=[1, 2, 9, 9, 9], Ann=[5])  # 2 Successes to 1: Ben wins 1 + 2 = 3, Ann loses 1 (one die)
    g.narrate_out()
    assert g.s.complication is None and g.s.complications_resolved == 3
    assert wealth(g) == {"Ann": 22, "Ben": 23, "Cat": 24}
    g.check()
    replays(g)

"""The worked examples of the rulebook (seeds/000_980e818fe18fd30d.txt), replayed with the book's
dice and checked against the book's numbers through the engine's state.

Where the rules digest (shared/rules/universalis.md) gives the line numbers, the docstring
repeats them. Costs are measured as the difference in what the player holds (or in his ledger's
`paid`), Importance through `engine.universalis.components.importance`, bonus coins through the
`complication_result` event and the ledger.
"""
from __future__ import annotations

from engine.universalis import actions as A
from engine.universalis import pending

from engine_helpers import BOOK, P3, Game, framed, game, to_scene


def prep_do(g: Game, action) -> None:
    """During preparation: everyone else passes until it is `action.player`'s turn, then act."""
    while g.pend.players[0] != action.player:
        g.do(A.PassPrep(player=g.pend.players[0]))
    g.act(action)


def end_prep(g: Game) -> None:
    while g.s.phase == "prep":
        g.do(A.PassPrep(player=g.pend.players[0]))


def turn_to(g: Game, player: str) -> None:
    """Everyone ends his turn until it is `player`'s."""
    while g.turn != player:
        g.end_turn()


def paid(g: Game, name: str) -> int:
    return g.s.player(name).ledger.paid


# --- dice ----------------------------------------------------------------------------------
def test_book_6v6_edge_dice_meadow_earn_13_slytheran_16_U_COMP_8_U_COMP_9():
    """Lines 1124-1134: two ties, an Edge die each way, Meadow win 4 v 3."""
    g = framed(P3, {"Ann": 1})
    meadow = g.create("Ann", "Meadow Soldiers")
    g.end_turn("Ann")
    troopers = g.create("Ben", "Slytheran Shock Troopers")
    g.event("Ben", "The troopers open fire on the soldiers.", performer=troopers, receiver=meadow)
    g.act(A.BuyDie(player="Ben", pool="C", count=6))
    turn_to(g, "Ann")
    g.act(A.BuyDie(player="Ann", pool="Ann", count=6))
    g.call_and_agree("Ann")
    g.roll(C=[1, 3, 5, 6, 6, 9], Ann=[2, 2, 3, 7, 8, 9])
    edge = g.last("edge")
    assert edge.data["gets"] == ["C"] and "Complication 9, Targets 7" in edge.text
    g.roll(C=[2, 3, 4, 6, 7, 7, 10], Ann=[4, 5, 5, 8, 8, 9])
    assert g.last("edge").data["gets"] == ["Ann"] and "Complication 9, Targets 14" in g.last("edge").text
    g.roll(C=[1, 4, 5, 7, 7, 0, 9], Ann=[2, 4, 4, 8, 8, 9, 3])
    assert g.s.complication.winner_side == "T"
    assert g.last("complication_result").data["bonus"] == {"Ann": 13, "C": 16}
    before = {n: g.wealth(n) for n in P3}
    g.narrate_out()
    assert g.wealth("Ann") - before["Ann"] == 13 and g.wealth("Ben") - before["Ben"] == 16


def test_book_17_v_12_the_losing_complication_earns_12_U_COMP_9():
    """Lines 1285-1291: Targets 17 dice, 11 Successes summing to 38, beat 12 dice with 4."""
    g = framed(P3, {"Ann": 1}, starting_coins=40)
    heroes = g.create("Ann", "Heroes")
    g.end_turn("Ann")
    buzzers = g.create("Ben", "Buzzers")
    g.event("Ben", "The buzzers descend on the heroes.", performer=buzzers, receiver=heroes)
    g.act(A.BuyDie(player="Ben", pool="C", count=12))
    turn_to(g, "Ann")
    g.act(A.BuyDie(player="Ann", pool="Ann", count=17))
    g.call_and_agree("Ann")
    g.roll(Ann=[1, 2, 2, 3, 3, 4, 4, 4, 5, 5, 5, 6, 7, 8, 8, 9, 0], C=[1, 3, 5, 5, 6, 6, 6, 8, 8, 8, 9, 0])
    assert g.s.complication.rolls[-1].successes == {"C": 4, "Ann": 11}
    assert g.last("complication_result").data["bonus"] == {"Ann": 38, "C": 12}


# --- the big Complication: Fritz and the boat ------------------------------------------------
def test_book_fritz_and_the_boat_U_COMP_1_U_COMP_3_U_COMP_10_U_ELIM_1_U_TRAIT_2_U_TRAIT_4():
    """Lines 1157-1239 (Fritz: 763; the Master: 792-796).

    Bob interrupts Albert's boat crossing with two Sub Component squads of his Master
    "Slytheran Shock Troopers" (4 coins each) and draws 16 dice; Albert, Christine and Ed draw
    10 for the Targets. The Complication rolls 9 Successes summing to 31 against 4: it earns 31,
    the Targets 10. Bob spends 18 (Fritz, Importance 6, paid off 2 + 4; the boat, 5, paid off
    2 + 3), cancels 5 of Albert's coins and keeps 8; Albert spends his 5.
    """
    g = game(BOOK, starting_coins=60)
    # preparation: Bob's Master, 1 coin per Tenet action (U-PREP-3)
    prep_do(g, A.CreateComponent(player="Bob", role="Slytheran Shock Troopers"))
    master = g.new_component()
    for text in ["Acute viper-like sensing pits", "Venomous Fangs", "Fierce Fighters",
                 "Single Mindedly Aggressive", "Blindly Loyal", "High Power Assault Rifle", "Body Armor"]:
        prep_do(g, A.AddTrait(player="Bob", component=master, text=text))
    prep_do(g, A.AddTrait(player="Bob", component=master, text="Master Component", kind="master"))
    assert 60 - g.wealth("Bob") == 9 and g.imp(master) == 9
    end_prep(g)
    g.bids({"Albert": 1})
    # Albert frames the river crossing; Ed's Skylars and Fritz exist already (created by Albert here)
    g.act(A.EstablishLocation(player="Albert", new_role="River"))
    g.act(A.CreateComponent(player="Albert", role="Skylars"))
    skylars = g.new_component()
    g.act(A.AddTrait(player="Albert", component=skylars, text="Master Component", kind="master"))
    g.act(A.AddTrait(player="Albert", component=skylars, text="Flys"))
    g.act(A.CreateComponent(player="Albert", role="Skylar Pet", proper_name="Fritz", sub_of=skylars))
    fritz = g.new_component()
    for text in ["Devoted to Kevin", "Highly Trained", "Embedded Control Chip"]:
        g.act(A.AddTrait(player="Albert", component=fritz, text=text))
    g.act(A.CreateComponent(player="Albert", role="Team Technician", proper_name="Kevin McCrae"))
    kevin = g.new_component()
    g.act(A.AddTrait(player="Albert", component=kevin, text="Owns Fritz", kind="possession", other=fritz,
                     corollary="Owned by Kevin"))
    assert g.imp(fritz) == 6  # 5 bought Traits and the corollary (line 1215)
    marissa = g.create("Albert", "Trained Killer", proper_name="Marissa Tournou")
    g.act(A.AddTrait(player="Albert", component=marissa, text="Fiercely Determined"))
    turk = g.create("Albert", "Special Forces", proper_name="Turk Reigns")
    g.act(A.AddTrait(player="Albert", component=turk, text="Small Boat Handling"))
    g.act(A.IntroduceComponent(player="Albert", component=kevin))
    assert fritz in g.s.scene().present  # the possession comes along free (U-TRAIT-3)
    boat = g.create("Albert", "Pontoon Boat", kind="prop")
    for text in ["Sturdy", "Tent Cloth Sail", "Bark Chip Paddles", "Big Enough for 3 plus Gear"]:
        g.act(A.AddTrait(player="Albert", component=boat, text=text))
    assert g.imp(boat) == 5
    g.do(A.NarrateEvent(player="Albert", text="The boat is in the water, crossing the stream.", performer=boat))
    g.interrupt("Bob")
    # Bob: two squads, 4 coins each (U-ACT-6), and the hail of fire that makes a Complication
    before = g.spendable("Bob")
    squads = []
    for _ in range(2):
        squad = g.create("Bob", "Slytheran Shock Troops", sub_of=master)
        g.act(A.AddTrait(player="Bob", component=squad, text="Shock Squad", times=3))
        squads.append(squad)
    assert before - g.spendable("Bob") == 8 and g.imp(squads[0]) == 4
    g.event("Bob", "A hail of fire from the opposite bank meets the crossing.", performer=squads[0], receiver=boat)
    comp = g.s.complication
    assert comp.originator == "Bob" and [p.key for p in comp.pools] == ["C", "Albert"]
    master_traits = {t.text: t.id for t in g.s.components[master].traits}
    for squad in squads:
        own = g.s.components[squad].traits
        for tid in [own[0].id, master_traits["Slytheran Shock Troopers"], master_traits["Fierce Fighters"],
                    master_traits["Single Mindedly Aggressive"], master_traits["High Power Assault Rifle"]]:
            g.act(A.DrawTrait(player="Bob", trait=tid, component=squad, pool="C"))
        for t in own[1:]:
            g.act(A.DrawTrait(player="Bob", trait=t.id, component=squad, pool="C", text="numbers"))
    assert g.s.complication.pool("C").dice == 16
    g.end_turn("Bob")
    for p in ["Christine", "Dave", "Ed"]:
        g.end_turn(p)
    # Albert: three names, Special Forces, Small Boat Handling, Sturdy, Tent Cloth Sail
    for cid, text in [(marissa, "Marissa Tournou"), (turk, "Turk Reigns"), (kevin, "Kevin McCrae"),
                      (turk, "Special Forces"), (turk, "Small Boat Handling"), (boat, "Sturdy"),
                      (boat, "Tent Cloth Sail")]:
        g.act(A.DrawTrait(player="Albert", trait=g.trait(cid, text), component=cid, pool="Albert"))
    g.end_turn("Albert")
    g.end_turn("Bob")
    g.act(A.DrawTrait(player="Christine", trait=g.trait(marissa, "Fiercely Determined"), component=marissa,
                     pool="Albert"))
    g.end_turn("Christine")
    g.end_turn("Dave")
    for text in ["Highly Trained", "Fritz"]:
        g.act(A.DrawTrait(player="Ed", trait=g.trait(fritz, text), component=fritz, pool="Albert"))
    g.end_turn("Ed")
    assert g.s.complication.pool("Albert").dice == 10
    g.call_and_agree("Albert")
    g.roll(Albert=[1, 1, 3, 5, 7, 9, 9, 0, 0, 0], C=[1, 2, 2, 3, 4, 4, 5, 5, 5, 7, 7, 8, 8, 8, 9, 0])
    assert g.s.complication.rolls[-1].successes == {"C": 9, "Albert": 4}
    assert g.last("complication_result").data["bonus"] == {"C": 31, "Albert": 10}
    # Bob narrates first and spends 18 bonus coins
    assert pending(g.s).kind == "narration" and pending(g.s).players == ("Bob",)
    bob_wealth, bob_bonus = g.wealth("Bob"), g.s.player("Bob").ledger.bonus
    albert_wealth = g.wealth("Albert")
    g.event("Bob", "Blazing fire from the shore strikes the small craft.", receiver=boat)
    g.event("Bob", "Turk attempts to get the boat turned down stream.", performer=turk)
    g.act(A.ReduceImportance(player="Bob", component=boat, coins=2, text="fire rips through the sail"))
    assert g.imp(boat) == 3
    g.event("Bob", "Troopers spot the Skylar providing aerial recon.", performer=squads[1], receiver=fritz)
    g.act(A.ReduceImportance(player="Bob", component=fritz, coins=1, text="They open fire on it."))
    g.act(A.ReduceImportance(player="Bob", component=fritz, coins=1, text="Fritz dodges, but it is futile."))
    assert g.imp(fritz) == 4 and not g.s.components[fritz].eliminated
    g.act(A.ReduceImportance(player="Bob", component=fritz, coins=4, text="Fritz is incinerated."))
    assert g.s.components[fritz].eliminated and fritz not in g.s.scene().present
    g.event("Bob", "The boat starts to outdistance the troopers.", performer=boat)
    g.act(A.ReduceImportance(player="Bob", component=boat, coins=3, text="The boat breaks apart and capsizes."))
    assert g.s.components[boat].eliminated
    for who in (marissa, turk, kevin):
        g.event("Bob", "Carried far downstream.", receiver=who)
    slot = g.s.narration.slots[g.s.narration.current]
    assert 31 - slot.coins == 18
    g.do(A.CancelBonus(player="Bob", pool="Albert", coins=5))
    g.do(A.EndNarration(player="Bob"))
    assert g.wealth("Bob") - bob_wealth == 8
    assert g.s.player("Bob").ledger.bonus - bob_bonus == 31
    # Albert narrates his remaining 5
    assert pending(g.s).players == ("Albert",) and g.s.narration.slots[g.s.narration.current].coins == 5
    for who in (marissa, turk, kevin):
        g.event("Albert", "Makes it safely to the desired shore.", performer=who)
    g.act(A.BuyFact(player="Albert", text="Turk recognizes where they are."))
    g.act(A.BuyFact(player="Albert", text="None of their gear was lost in the dunking."))
    g.do(A.EndNarration(player="Albert"))
    assert g.wealth("Albert") == albert_wealth
    assert g.s.complication is None and g.turn == "Albert"
    g.check()


# --- bids and fines -----------------------------------------------------------------------------
def test_book_bids_dave_wins_the_tie_after_christine_U_BID_2_U_BID_3():
    """Lines 349-353: Albert 0, Bob 4, Christine 0 (last framer), Dave 4, Ed 3."""
    g = to_scene(BOOK, {"Christine": 1})
    g.act(A.EstablishLocation(player="Christine", new_role="Forest"))
    g.act(A.EndScene(player="Christine"))
    before = {n: g.wealth(n) for n in BOOK}
    g.bids({"Albert": 0, "Bob": 4, "Christine": 0, "Dave": 4, "Ed": 3})
    assert g.turn == "Dave" and g.s.player("Dave").stake == 4
    assert before["Dave"] - g.wealth("Dave") == 4
    assert all(g.wealth(n) == before[n] for n in BOOK if n != "Dave")


def test_book_fine_four_ups_cost_the_accused_four_U_FINE_1():
    """Lines 605-609: Ed calls a Fine on Dave's Monty Python joke; 4 thumbs up."""
    g = framed(BOOK, {"Dave": 1})
    g.do(A.NarrateEvent(player="Dave", text="What is the airspeed velocity of an unladen swallow?"))
    before = g.wealth("Dave")
    g.react({"Ed": A.CallFine(player="Ed", accused="Dave", reason="Monty Python violation!")})
    for p in BOOK:
        g.do(A.FineVote(player=p, fine=p != "Dave"))
    assert before - g.wealth("Dave") == 4 and g.wealth("Ed") == 25


# --- Importance ----------------------------------------------------------------------------------
def test_book_master_costs_9_sub_squad_costs_4_with_importance_4_U_ACT_6_U_IMP_1():
    """Lines 792-796."""
    g = framed(BOOK, {"Bob": 1})
    before = g.spendable("Bob")
    g.act(A.CreateComponent(player="Bob", role="Slytheran Shock Troopers"))
    master = g.new_component()
    for text in ["Acute viper-like sensing pits", "Venomous Fangs", "Fierce Fighters",
                 "Single Mindedly Aggressive", "Blindly Loyal", "High Power Assault Rifle", "Body Armor"]:
        g.act(A.AddTrait(player="Bob", component=master, text=text))
    g.act(A.AddTrait(player="Bob", component=master, text="Master Component", kind="master"))
    assert before - g.spendable("Bob") == 9
    before = g.spendable("Bob")
    g.act(A.CreateComponent(player="Bob", role="Slytheran Shock Troops", sub_of=master))
    squad = g.new_component()
    g.act(A.AddTrait(player="Bob", component=squad, text="Shock Squad", times=3))
    assert before - g.spendable("Bob") == 4
    assert g.imp(squad) == 4 and g.imp(master) == 9 + 4


def test_book_meadow_importance_2_12_13_14_and_dave_spends_19_framing_U_FRAME_1_U_FRAME_2():
    """Lines 925-935: the first scene of the game."""
    g = to_scene(BOOK, {"Dave": 5})
    start = paid(g, "Dave")
    g.act(A.EstablishLocation(player="Dave", new_role="Town", proper_name="Meadow"))
    meadow = g.s.scene().location
    assert g.imp(meadow) == 2
    for text in ["Quiet little community", "Small cottages", "Red tile roofs", "Set in the middle of a small meadow",
                 "Surrounded by grasses the height of the buildings", "Bright wildflowers towering like trees",
                 "Streets paved with pebbles like cobblestones", "Old style water tower", "Satellite dish",
                 "Antennae for cell phones"]:
        g.act(A.AddTrait(player="Dave", component=meadow, text=text))
    assert g.imp(meadow) == 12
    g.act(A.SetTime(player="Dave", when="explicit", text="Early summer."))
    g.act(A.AddTrait(player="Dave", component=meadow, text="Oak and beech trees surrounding the meadow"))
    assert g.imp(meadow) == 13
    g.act(A.AddTrait(player="Dave", component=meadow, text="Square"))
    assert g.imp(meadow) == 14
    for _ in range(3):
        g.act(A.CreateComponent(player="Dave", role="Figure", introduce=True))
    g.event("Dave", "Three figures stand about in the square, waiting for something.")
    assert paid(g, "Dave") - start == 19
    g.end_turn("Dave")
    assert g.turn == "Ed"


def test_book_doom_cannons_importance_10_then_12_U_COMP_0():
    """Lines 682-684, 734."""
    g = framed(BOOK, {"Albert": 1})
    before = g.spendable("Albert")
    g.act(A.CreateComponent(player="Albert", role="Doom Cannon"))
    cannon = g.new_component()
    for text, n in [("Chameleon Lizards", 1), ("Thick Scaled Hides", 1), ("Armor Plating", 1),
                    ("Eyes can Swivel", 1), ("Pin Point Accuracy", 1), ("Assault Laser Cannon for a Tongue", 3),
                    ("Chip Embedded in their Brain", 1)]:
        g.act(A.AddTrait(player="Albert", component=cannon, text=text, times=n))
    assert before - g.spendable("Albert") == 1 + 9 and g.imp(cannon) == 10
    g.act(A.AddTrait(player="Albert", component=cannon, text="Lance", times=2))
    assert before - g.spendable("Albert") == 12 and g.imp(cannon) == 12


def test_book_marissa_11_13_15_14_U_IMP_1_U_COMP_10_U_ACT_5():
    """Lines 808, 843, 853: wounds bought by Dave with 2 bonus coins, one healed by Christine."""
    g = framed(BOOK, {"Christine": 1}, starting_coins=40)
    marissa = g.create("Christine", "Trained Killer", proper_name="Marissa Tournou")
    g.act(A.AddTrait(player="Christine", component=marissa, text="Trained Killer"))
    for text in ["Physically Rugged", "Fiercely Determined", "Command Ability", "Impatient", "Hard Cold-Demeanor",
                 "Flame Retardant Jump Suit", "IR Goggles", "Type VII Laser Pistol"]:
        g.act(A.AddTrait(player="Christine", component=marissa, text=text))
    assert g.imp(marissa) == 11
    g.act(A.CreateComponent(player="Christine", role="Sparrow Rider", proper_name="Jerek"))
    jerek = g.new_component()
    for text in ["Torrid affair with Jerek", "Feels betrayed by Jerek"]:
        g.act(A.AddTrait(player="Christine", component=marissa, text=text, kind="relationship", other=jerek))
    assert g.imp(marissa) == 13 and g.imp(jerek) == 2  # one-sided: nothing added to Jerek
    g.end_turn("Christine")
    squad = g.create("Dave", "Slytheran Shock Squad")
    g.event("Dave", "The squad ambushes Marissa.", performer=squad, receiver=marissa)
    g.act(A.BuyDie(player="Dave", pool="C", count=2))
    turn_to(g, "Christine")
    g.act(A.DrawTrait(player="Christine", trait=g.trait(marissa, "Physically Rugged"), component=marissa,
                     pool="Christine"))
    g.call_and_agree("Christine")
    g.roll(C=[7, 8], Christine=[3])
    assert g.last("complication_result").data["bonus"] == {"C": 2, "Christine": 3}
    g.do(A.EndNarration(player="Christine"))
    dave = g.spendable("Dave")
    g.act(A.AddTrait(player="Dave", component=marissa, text="Severe Blaster Injury to Leg", times=2))
    assert g.imp(marissa) == 15 and g.spendable("Dave") == dave  # paid with bonus coins
    g.do(A.EndNarration(player="Dave"))
    assert g.turn == "Christine"
    g.act(A.RemoveTrait(player="Christine", trait=g.trait(marissa, "Severe Blaster Injury to Leg")))
    assert g.imp(marissa) == 14


def test_book_jack_eliminated_for_3_then_importance_5_and_still_eliminated_U_ELIM_1():
    """Lines 814-816."""
    g = framed(BOOK, {"Albert": 1})
    jack = g.create("Albert", "Bartender", proper_name="Jack")
    g.act(A.AddTrait(player="Albert", component=jack, text="Alcoholic"))
    assert g.imp(jack) == 3
    before = g.spendable("Albert")
    g.act(A.ReduceImportance(player="Albert", component=jack, coins=3, text="Jack gets whacked in the hit."))
    assert before - g.spendable("Albert") == 3 and g.s.components[jack].eliminated
    g.end_turn("Albert")
    g.do(A.FrameMiniScene(player="Bob", text="A flashback to Jack's bar."))
    g.act(A.EstablishLocation(player="Bob", new_role="Jack's Bar"))
    g.act(A.SetTime(player="Bob", when="past"))
    g.act(A.IntroduceComponent(player="Bob", component=jack))
    g.act(A.AddTrait(player="Bob", component=jack, text="College Graduate"))
    g.act(A.AddTrait(player="Bob", component=jack, text="Has a young son"))
    assert g.imp(jack) == 5 and g.s.components[jack].eliminated
    g.end_turn("Bob")
    g.refused(A.IntroduceComponent(player="Christine", component=jack), "U-ELIM-1")


# --- the costed turns: Dave's framing, Ed's interruption, Albert's mini scene --------------------
def test_book_dave_frames_for_6_ed_interrupts_for_4_albert_mini_scene_for_7_U_FRAME_4_U_TURN_2_U_TURN_4():
    """Lines 363-367, 409-415, 429-435."""
    g = game(BOOK)
    prep_do(g, A.CreateComponent(player="Dave", role="Slytheran Queen"))
    queen = g.new_component()
    prep_do(g, A.CreateComponent(player="Albert", role="Sparrow Rider"))
    jerek = g.new_component()
    prep_do(g, A.AddTrait(player="Albert", component=jerek, text="Jerek", kind="name"))
    prep_do(g, A.AddTrait(player="Albert", component=jerek, text="Exiled by the Meadow People"))
    prep_do(g, A.CreateComponent(player="Albert", role="Sparrow"))
    fright = g.new_component()
    prep_do(g, A.AddTrait(player="Albert", component=jerek, text="Possession of the sparrow Fright",
                          kind="possession", other=fright))
    end_prep(g)
    g.bids({"Dave": 4})
    # Dave's framing: location 1, time straight after 0, the Queen 1, three new Generals 3, an Event 1
    start = paid(g, "Dave")
    g.act(A.EstablishLocation(player="Dave", new_role="Central throne room of the Slytheran Queen"))
    g.act(A.SetTime(player="Dave", when="after", text="Shortly after the heroes escaped the fire."))
    g.act(A.IntroduceComponent(player="Dave", component=queen))
    for _ in range(3):
        g.do(A.CreateComponent(player="Dave", role="General", introduce=True))
        g.refused(A.Interrupt(player="Ed"), "U-FRAME-4")
        g.passes()
    g.do(A.NarrateEvent(player="Dave", text="The Queen and her Generals discuss plans to invade the Meadow."))
    assert paid(g, "Dave") - start == 6
    # the first Event ended the framing: Ed interrupts
    start = paid(g, "Ed")
    g.interrupt("Ed")
    assert g.turn == "Ed"
    scout = g.create("Ed", "Scout")
    g.event("Ed", "The scout rushes in and gives his report to the Queen.", performer=scout)
    g.act(A.BuyFact(player="Ed", text="The fire was set by the Slytheran, as per the Queen's orders."))
    assert paid(g, "Ed") - start == 4
    assert g.s.scene().control[scout] == "Ed" and g.s.scene().control[queen] == "Dave"
    g.end_turn("Ed")
    # Albert's mini scene: location 1, the past 1, the Slytheran team 1, Jerek 1 (Fright free),
    # an Event 1, the scouts 1, following them 1
    assert g.turn == "Albert"
    start = paid(g, "Albert")
    g.do(A.FrameMiniScene(player="Albert", text="Flashing back to the origin of the forest fire."))
    g.act(A.EstablishLocation(player="Albert", new_role="Where the fire began"))
    g.act(A.SetTime(player="Albert", when="past"))
    team = g.create("Albert", "Team of Slytheran")
    g.act(A.IntroduceComponent(player="Albert", component=jerek))
    assert fright in g.s.scene().present and g.s.scene().control[fright] == "Albert"
    g.event("Albert", "Jerek observes the Slytheran start the fire.", performer=jerek, receiver=team)
    g.act(A.IntroduceComponent(player="Albert", component=scout))
    g.event("Albert", "Jerek trails the scouts as they follow the heroes.", performer=jerek)
    assert paid(g, "Albert") - start == 7
    refresh = [p.ledger.refreshments for p in g.s.players]
    g.end_turn("Albert")
    assert g.s.scene().number == 1 and g.turn == "Bob"
    assert [p.ledger.refreshments for p in g.s.players] == refresh
    assert g.s.scene().control[scout] == "Ed"

"""Framing, turns, paid actions and control: U-FRAME-*, U-TURN-*, U-ACT-*, U-CTRL-*."""
from __future__ import annotations

from engine.universalis import actions as A
from engine.universalis import legal_options, pending

from engine_helpers import P3, framed, to_scene


# --- U-FRAME -------------------------------------------------------------------------------
def test_U_FRAME_1_a_framer_who_can_pay_must_establish_a_location_before_ending_turn_or_scene():
    """Line 359: the framing player *must* establish a location; ending framing without one is refused."""
    g = to_scene(P3, {"Ann": 5})
    g.refused(A.EndTurn(player="Ann"), "U-FRAME-1", "location")
    g.refused(A.EndScene(player="Ann"), "U-FRAME-1", "location")
    kinds = {o.type for o in legal_options(g.s, "Ann")}
    assert "end_turn" not in kinds and "end_scene" not in kinds
    g.act(A.EstablishLocation(player="Ann", new_role="Lighthouse"))
    assert "end_turn" in {o.type for o in legal_options(g.s, "Ann")}
    g.end_turn("Ann")
    assert g.turn != "Ann"


def test_U_FRAME_1_a_framer_with_no_coin_at_all_may_still_end_his_turn():
    """U-TURN-1 wins when he cannot pay for a location (U-BID-4's empty stake)."""
    g = to_scene(P3, {}, starting_coins=0)
    assert g.spendable(g.turn) == 0
    g.end_turn(g.turn)


def test_U_FRAME_1_location_first_one_coin_and_a_new_location_buys_its_role_with_that_coin():
    g = to_scene(P3, {"Ann": 5})
    g.refused(A.CreateComponent(player="Ann", role="Guard", introduce=True), "U-FRAME-1")
    g.refused(A.NarrateEvent(player="Ann", text="Rain."), "U-FRAME-1")
    g.act(A.EstablishLocation(player="Ann", new_role="Lighthouse", proper_name="Pharos"))
    loc = g.s.scene().location
    assert g.s.player("Ann").stake == 3  # role + proper name: 2 coins, the role's coin establishes it
    assert [t.kind for t in g.s.components[loc].traits] == ["role", "name"]
    assert g.s.scene().control[loc] == "Ann"
    # components are optional: the framer may go straight to an Event
    g.event("Ann", "The lamp turns.")
    assert g.s.turn.framing is False
    # an existing location must be a location
    g2 = to_scene(P3, {"Ann": 5})
    g2.s = g2.s  # noqa
    g2.act(A.CreateComponent(player="Ann", role="Lamp", kind="prop"))
    g2.refused(A.EstablishLocation(player="Ann", location=g2.new_component()), "U-FRAME-1")
    g2.refused(A.EstablishLocation(player="Ann", new_role="X", location="c1"), "U-FRAME-1")


def test_U_FRAME_2_time_after_or_concurrent_free_past_and_explicit_cost_one():
    for when, cost in (("after", 0), ("concurrent", 0), ("past", 1), ("explicit", 1)):
        g = to_scene(P3, {"Ann": 3})
        g.act(A.EstablishLocation(player="Ann", new_role="Quay"))
        g.act(A.SetTime(player="Ann", when=when, text="Early summer." if when == "explicit" else ""))
        assert g.spendable("Ann") == 25 - 1 - cost, when
        if cost:
            assert any(f.kind == "time" for f in g.s.facts)  # a paid Time is a Fact
    g.refused(A.SetTime(player="Ann", when="past"), "U-FRAME-2")  # already set
    g.event("Ann")
    g3 = framed(P3, {"Ann": 1})
    g3.refused(A.SetTime(player="Ann", when="past"), "U-FRAME-2")  # framing is over


def test_U_FRAME_3_future_costs_one_coin_to_each_other_player():
    g = to_scene(["A", "B", "Cy", "D"], {"A": 1})
    g.act(A.EstablishLocation(player="A", new_role="Moonbase"))
    g.act(A.SetTime(player="A", when="future"))
    assert [g.spendable(p) for p in ["A", "B", "Cy", "D"]] == [25 - 1 - 3, 26, 26, 26]
    g2 = to_scene(["A", "B", "Cy", "D"], {"A": 1}, starting_coins=3)
    g2.act(A.EstablishLocation(player="A", new_role="Moonbase"))
    g2.refused(A.SetTime(player="A", when="future"), "U-FRAME-3")  # 2 coins, 3 needed


def test_U_FRAME_4_framer_cannot_be_interrupted_before_first_event_but_can_be_challenged_or_taken_over():
    g = to_scene(P3, {"Ann": 3})
    g.do(A.EstablishLocation(player="Ann", new_role="Palace"))
    g.refused(A.Interrupt(player="Ben"), "U-FRAME-4")
    g.refused(A.Obstacle(player="Ben", dice=1, text="no"), "U-FRAME-4")
    assert all(o.type != "interrupt" for o in legal_options(g.s, "Ben"))
    g.passes()
    g.do(A.CreateComponent(player="Ann", role="Queen", introduce=True))
    queen = g.new_component()
    g.refused(A.Interrupt(player="Ben"), "U-FRAME-4")
    # a Take Over during framing is allowed
    g.react({"Ben": A.TakeOver(player="Ben", component=queen)})
    assert g.s.scene().control[queen] == "Ben" and g.turn == "Ann"
    # so is a Challenge
    g.do(A.CreateComponent(player="Ann", role="General", introduce=True))
    g.react({"Cat": A.ChallengeStatement(player="Cat", reason="too many generals")})
    assert pending(g.s).kind == "negotiation"
    g.do(A.ConcedeChallenge(player="Ann"))
    # the first Event ends framing: now Interrupts are possible
    g.do(A.NarrateEvent(player="Ann", text="The court gathers."))
    g.interrupt("Cat")
    assert g.turn == "Cat"


def test_U_FRAME_5_cut_back_to_an_unfaded_scene_keeps_its_components_under_the_new_framer():
    g = framed(P3, {"Ann": 3})
    bar = g.s.scene().location
    guard = g.create("Ann", "Guard")
    g.act(A.EndScene(player="Ann"))
    g.bids({"Ben": 2})
    g.act(A.EstablishLocation(player="Ben", return_to_scene=1))
    sc = g.s.scene()
    assert sc.location == bar and guard in sc.present
    assert sc.control == {bar: "Ben", guard: "Ben"}
    assert g.spendable("Ben") == 25 + 5 - 1
    # a faded scene can never be returned to
    g.event("Ben")
    g.act(A.EndScene(player="Ben", fade=True))
    g.bids({"Cat": 1})
    g.refused(A.EstablishLocation(player="Cat", return_to_scene=2), "U-FRAME-5")
    g.refused(A.EstablishLocation(player="Cat", return_to_scene=3), "U-FRAME-5")


# --- U-TURN --------------------------------------------------------------------------------
def test_U_TURN_1_framer_first_then_clockwise_and_broke_player_only_has_free_actions():
    g = framed(P3, {"Ben": 1}, starting_coins=2)
    assert g.s.scenes[0].framer == "Ben"
    g.end_turn("Ben")
    assert g.turn == "Cat"
    g.refused(A.EndTurn(player="Ann"), "U-TURN-1")
    g.end_turn("Cat")
    assert g.turn == "Ann"
    g.end_turn("Ann")
    assert g.turn == "Ben" and g.spendable("Ben") == 0
    types = {o.type for o in legal_options(g.s, "Ben")}
    assert types <= {"end_turn", "end_scene", "call_fine", "speak", "dialog", "draw_trait", "call_resolution"}
    assert "end_turn" in types
    g.refused(A.NarrateEvent(player="Ben", text="x"), "U-ECO-3")
    # a mini scene's framing is free, but its location is not: no coin, no mini scene
    g.refused(A.FrameMiniScene(player="Ben"), "U-ECO-3", "Ben holds 0 coins")


def test_U_TURN_2_interrupt_costs_one_turn_passes_to_interrupter_then_clockwise_from_him():
    g = framed(["A", "B", "Cy", "D"], {"A": 1})
    g.do(A.NarrateEvent(player="A", text="A speaks."))
    g.interrupt("Cy")
    assert g.turn == "Cy" and g.spendable("Cy") == 24
    g.refused(A.EndScene(player="A"), "U-TURN-1")  # the interrupted framer cannot end the scene now
    g.end_turn("Cy")
    assert g.turn == "D"


def test_U_TURN_3_closest_to_the_interrupted_players_left_wins_and_only_he_pays():
    g = framed(["A", "B", "Cy", "D"], {"A": 1})
    g.do(A.NarrateEvent(player="A", text="A speaks."))
    assert pending(g.s).players == ("B", "Cy", "D")  # priority order
    g.do(A.Interrupt(player="D"))  # declared first
    g.do(A.Interrupt(player="Cy"))
    g.do(A.Pass(player="B"))
    assert g.turn == "Cy"
    assert (g.spendable("Cy"), g.spendable("D")) == (24, 25)
    g.refused(A.Interrupt(player="B"), "U-TURN-3")  # no window open any more


def test_U_TURN_4_mini_scene_framing_immunity_fade_and_end_with_turn():
    g = framed(P3, {"Ann": 1})
    main = g.s.current_scene
    pirate = g.create("Ann", "Pirate")
    g.end_turn("Ann")
    # Ben frames a mini scene in the past, elsewhere
    g.do(A.FrameMiniScene(player="Ben", text="Meanwhile, years ago..."))
    g.act(A.EstablishLocation(player="Ben", new_role="Shipyard"))
    g.do(A.SetTime(player="Ben", when="past"))
    g.refused(A.Interrupt(player="Cat"), "U-FRAME-4")
    g.passes()
    g.act(A.IntroduceComponent(player="Ben", component=pirate))
    mini = g.s.scene()
    assert mini.mini and mini.control[pirate] == "Ben"
    assert g.s.scenes[main - 1].control[pirate] == "Ann"  # the main scene's control is unchanged
    g.act(A.FadeMiniScene(player="Ben"))
    g.refused(A.FadeMiniScene(player="Ben"), "U-TURN-4")
    g.refused(A.EndScene(player="Ben"), "U-TURN-4")
    g.event("Ben", "The pirate steals a ship.", performer=pirate)
    spent = 25 - g.spendable("Ben")
    assert spent == 1 + 1 + 1 + 1 + 1  # location, past, introduce, fade, Event
    wealth = [g.spendable(p) for p in P3]
    g.end_turn("Ben")
    assert g.s.scenes[mini.number - 1].ended and g.s.scenes[mini.number - 1].faded
    assert g.s.scenes[mini.number - 1].control == {}
    assert g.s.scene().number == main and g.turn == "Cat"
    assert [g.spendable(p) for p in P3] == wealth  # no Refreshment
    assert g.s.last_framer == "Ann" and g.s.phase == "scene"
    # a faded mini scene can never be cut back to
    g.end_turn("Cat")
    g.act(A.EndScene(player="Ann"))
    g.bids({"Cat": 1})
    g.refused(A.EstablishLocation(player="Cat", return_to_scene=mini.number), "U-FRAME-5")


def test_U_TURN_4_mini_scene_ended_by_interrupt_and_open_complication_rolls_as_it_stands():
    g = framed(P3, {"Ann": 1})
    g.end_turn("Ann")
    g.do(A.FrameMiniScene(player="Ben"))
    g.act(A.EstablishLocation(player="Ben", new_role="Alley"))
    thief = g.create("Ben", "Thief")
    g.event("Ben", "The thief lurks.", performer=thief)
    g.do(A.NarrateEvent(player="Ben", text="The thief picks a lock.", performer=thief))
    g.interrupt("Cat")
    assert g.s.scenes[1].ended and g.turn == "Cat" and g.s.turn.mini_scene is None
    # a mini scene with a Complication left open: it rolls as it stands when the turn ends
    g.do(A.FrameMiniScene(player="Cat"))
    g.act(A.EstablishLocation(player="Cat", new_role="Roof"))
    g.act(A.SetTime(player="Cat", when="concurrent"))
    g.act(A.IntroduceComponent(player="Cat", component=thief))
    g.end_turn("Cat")
    assert g.s.scenes[2].ended and g.turn == "Ann"
    g.do(A.FrameMiniScene(player="Ann"))
    g.act(A.EstablishLocation(player="Ann", return_to_scene=3))  # cut back to Cat's unfaded mini scene
    assert g.s.scene().control[thief] == "Ann"
    g.event("Ann", "Something.", performer=thief)
    g.end_turn("Ann")
    assert g.s.scenes[3].ended and g.s.scene().number == 1 and g.turn == "Ben"


def test_U_TURN_4_mini_scene_complication_rolls_when_the_turn_ends():
    g = framed(P3, {"Ann": 1})
    g.end_turn("Ann")
    g.do(A.FrameMiniScene(player="Ben"))
    g.act(A.EstablishLocation(player="Ben", new_role="Alley"))
    thief = g.create("Ben", "Thief")
    g.event("Ben", "The thief lurks.", performer=thief)
    g.do(A.NarrateEvent(player="Ben", text="The thief picks a lock.", performer=thief))
    g.react({"Cat": A.TakeOver(player="Cat", component=thief)})  # U-COMP-1b: a Complication
    assert g.s.complication is not None
    g.act(A.BuyDie(player="Ben", pool="C", count=1))
    g.end_turn("Ben")
    assert pending(g.s).kind == "roll" and pending(g.s).dice == {"C": 1, "Cat": 0}
    g.roll(C=[3], Cat=[])
    g.narrate_out()
    assert g.s.scenes[1].ended and g.s.turn.mini_scene is None and g.turn == "Cat"
    g.check()


def test_U_TURN_5_only_the_framer_on_his_turn_ends_the_scene_not_with_an_open_complication():
    g = framed(P3, {"Ann": 1})
    knight = g.create("Ann", "Knight")
    g.end_turn("Ann")
    g.refused(A.EndScene(player="Ben"), "U-TURN-5")
    g.event("Ben", "A dragon attacks the knight.", receiver=knight)
    assert g.s.complication is not None
    g.act(A.BuyDie(player="Ben", pool="C"))
    g.end_turn("Ben")
    g.end_turn("Cat")
    g.refused(A.EndScene(player="Ann"), "U-TURN-5")
    g.call_and_agree("Ann")
    g.roll(C=[3], Ann=[])
    g.narrate_out()
    before = [g.spendable(p) for p in P3]
    g.act(A.EndScene(player="Ann", fade=True))
    assert g.s.scenes[0].faded and g.s.scenes[0].control == {}
    assert [g.spendable(p) for p in P3] == [before[0] - 1 + 5, before[1] + 5, before[2] + 5]
    assert pending(g.s).kind == "bid"


# --- U-ACT ---------------------------------------------------------------------------------
def test_U_ACT_1_event_costs_one_one_performer_one_receiver_present_in_the_scene_and_is_a_fact():
    g = framed(P3, {"Ann": 1})
    hero = g.create("Ann", "Hero")
    g.act(A.CreateComponent(player="Ann", role="Villain"))  # not introduced
    villain = g.new_component()
    g.refused(A.NarrateEvent(player="Ann", text="x", performer=villain), "U-ACT-1")
    g.refused(A.NarrateEvent(player="Ann", text="x", receiver="c99"), "U-ACT-1")
    before = g.spendable("Ann")
    g.event("Ann", "The hero draws a sword.", performer=hero)
    assert g.spendable("Ann") == before - 1
    f = g.s.facts[-1]
    assert f.kind == "event" and f.components == (hero,) and f.text == "The hero draws a sword."


def test_U_ACT_2_other_details_are_bought_as_facts():
    g = framed(P3, {"Ann": 1})
    before = g.spendable("Ann")
    g.act(A.BuyFact(player="Ann", text="It is raining.", about=g.s.scene().location))
    assert g.spendable("Ann") == before - 1 and g.s.facts[-1].kind == "detail"
    g.refused(A.BuyFact(player="Ann", text="x", about="c42"), "U-ACT-2")


def test_U_ACT_3_change_location_introduce_exit_and_explicit_absence():
    g = framed(P3, {"Ann": 1})
    old = g.s.scene().location
    hero = g.create("Ann", "Hero")
    g.act(A.CreateComponent(player="Ann", role="Cat burglar"))
    burglar = g.new_component()
    g.act(A.DeclareAbsent(player="Ann", component=burglar, text="The burglar is not here."))
    assert g.s.facts[-1].kind == "absence" and burglar in g.s.scene().absent
    g.refused(A.DeclareAbsent(player="Ann", component=hero), "U-ACT-3")
    g.refused(A.DeclareAbsent(player="Ann", component=old), "U-ACT-3")  # the location itself
    g.refused(A.DeclareAbsent(player="Ann", component=burglar), "U-ACT-3")  # already declared
    # change location: components present travel free, the old location leaves the scene
    before = g.spendable("Ann")
    g.act(A.EstablishLocation(player="Ann", new_role="Rooftops"))
    sc = g.s.scene()
    assert g.spendable("Ann") == before - 1 and hero in sc.present and sc.location != old
    assert old not in sc.present and old not in sc.control
    g.refused(A.EstablishLocation(player="Ann", location=sc.location), "U-ACT-3")
    # introducing an existing component and exiting one you control cost 1 each
    g.act(A.IntroduceComponent(player="Ann", component=burglar))
    g.refused(A.IntroduceComponent(player="Ann", component=burglar), "U-ACT-3")
    before = g.spendable("Ann")
    g.act(A.ExitComponent(player="Ann", component=hero))
    assert hero not in g.s.scene().present and hero not in g.s.scene().control
    assert g.spendable("Ann") == before - 1
    g.refused(A.ExitComponent(player="Ann", component=hero), "U-ACT-3")
    # after the move only the new location's Traits may be drawn on
    g.event("Ann", "The burglar trips.", performer=burglar)
    g.end_turn("Ann")
    g.event("Ben", "A cop grabs the burglar.", receiver=burglar)
    assert g.s.complication is not None
    g.refused(A.DrawTrait(player="Ben", trait=g.s.components[old].traits[0].id, component=old, pool="C"),
              "U-COMP-3")


def test_U_ACT_4_create_component_buys_its_role_introduced_or_not():
    g = framed(P3, {"Ann": 1})
    before = g.spendable("Ann")
    g.act(A.CreateComponent(player="Ann", role="Sword", kind="prop"))
    sword = g.new_component()
    assert sword not in g.s.scene().present and g.spendable("Ann") == before - 1
    g.act(A.CreateComponent(player="Ann", role="Duke", proper_name="Orsino", introduce=True))
    duke = g.new_component()
    assert g.spendable("Ann") == before - 3 and g.s.scene().control[duke] == "Ann"
    assert [t.kind for t in g.s.components[duke].traits] == ["role", "name"]
    g.refused(A.CreateComponent(player="Ann", role="Harbour", kind="location", introduce=True), "U-ACT-3")


def test_U_ACT_5_add_remove_restore_traits_one_coin_per_occurrence():
    g = framed(P3, {"Ann": 1})
    hero = g.create("Ann", "Hero")
    before = g.spendable("Ann")
    g.act(A.AddTrait(player="Ann", component=hero, text="Strong", times=3))
    assert g.spendable("Ann") == before - 3 and g.imp(hero) == 4
    strong = g.trait(hero, "Strong", 1)
    g.act(A.RemoveTrait(player="Ann", trait=strong))
    assert g.imp(hero) == 3 and g.spendable("Ann") == before - 4
    g.refused(A.RemoveTrait(player="Ann", trait=strong), "U-ACT-5")
    g.act(A.RestoreTrait(player="Ann", trait=strong))
    assert g.imp(hero) == 4 and g.spendable("Ann") == before - 5
    g.refused(A.RestoreTrait(player="Ann", trait=strong), "U-ACT-5")
    g.refused(A.RemoveTrait(player="Ann", trait="t999"), "U-ACT-5")


def test_U_ACT_6_master_and_sub_components_cost_one_each_and_links_may_not_cycle():
    g = framed(P3, {"Ann": 1})
    g.act(A.CreateComponent(player="Ann", role="Elves"))
    elves = g.new_component()
    before = g.spendable("Ann")
    g.act(A.AddTrait(player="Ann", component=elves, text="Elf kind", kind="master"))
    assert g.s.components[elves].is_master and g.spendable("Ann") == before - 1
    g.act(A.AddTrait(player="Ann", component=elves, text="At home in the woods"))
    g.act(A.CreateComponent(player="Ann", role="Elf", sub_of=elves, introduce=True))
    legolas = g.new_component()
    assert g.spendable("Ann") == before - 3 and g.s.components[legolas].masters == [elves]
    assert g.imp(legolas) == 1 and g.imp(elves) == 3 + 1
    # link an existing component: 1 coin for the Trait that makes it a Sub
    g.act(A.CreateComponent(player="Ann", role="Woodland folk"))
    folk = g.new_component()
    g.act(A.AddTrait(player="Ann", component=folk, text="Woodland kind", kind="master"))
    g.act(A.AddTrait(player="Ann", component=elves, text="Of the woodland folk", kind="sub", other=folk))
    assert folk in g.s.components[elves].masters
    g.refused(A.AddTrait(player="Ann", component=folk, text="Elvish", kind="sub", other=elves), "U-ACT-6")
    g.refused(A.AddTrait(player="Ann", component=legolas, text="x", kind="sub", other=legolas), "U-TRAIT-2")
    g.refused(A.AddTrait(player="Ann", component=legolas, text="Elf", kind="sub", other=elves), "U-ACT-6")
    g.refused(A.CreateComponent(player="Ann", role="x", sub_of=legolas), "U-ACT-6")
    g.refused(A.AddTrait(player="Ann", component=elves, text="Elf kind", kind="master"), "U-ACT-6")


def test_U_ACT_6_ownership_may_not_cycle():
    g = framed(P3, {"Ann": 1})
    a = g.create("Ann", "Box")
    b = g.create("Ann", "Key")
    g.act(A.AddTrait(player="Ann", component=a, text="Holds the key", kind="possession", other=b))
    g.refused(A.AddTrait(player="Ann", component=b, text="Holds the box", kind="possession", other=a), "U-ACT-6")


def test_U_ACT_7_tenet_on_a_turn_costs_one():
    g = framed(P3, {"Ann": 1})
    before = g.spendable("Ann")
    g.act(A.ProposeTenet(player="Ann", text="Magic is rare.", kind="gimmick"))
    assert g.spendable("Ann") == before - 1 and g.s.tenets[-1].kind == "gimmick"


def test_U_ACT_8_dialog_initiator_pays_one_other_controller_accepts_free_or_refuses_into_complication():
    g = framed(P3, {"Ann": 1})
    queen = g.create("Ann", "Queen")
    g.end_turn("Ann")
    scout = g.create("Ben", "Scout")
    # own characters on both sides: free speech, no coin
    before = g.spendable("Ben")
    g.do(A.Dialog(player="Ben", speaker=scout, listener=scout, line="Hm."))
    assert g.spendable("Ben") == before
    g.refused(A.Dialog(player="Ben", speaker=queen, listener=scout, line="x"), "U-ACT-8")
    g.do(A.Dialog(player="Ben", speaker=scout, listener=queen, line="My Queen, the fire was set."))
    assert g.spendable("Ben") == before - 1 and g.s.facts[-1].kind == "dialog"
    assert pending(g.s).kind == "dialog_answer" and pending(g.s).players == ("Ann",)
    g.refused(A.AnswerDialog(player="Cat", accept=True, line="x"), "U-ACT-8")
    g.refused(A.NarrateEvent(player="Ben", text="x"), "U-ACT-8")
    queen_before = g.spendable("Ann")
    g.do(A.AnswerDialog(player="Ann", accept=True, line="Good."))
    assert g.spendable("Ann") == queen_before and g.s.complication is None
    g.do(A.Dialog(player="Ben", speaker=scout, listener=queen, line="And another thing."))
    g.do(A.AnswerDialog(player="Ann", accept=False))
    comp = g.s.complication
    assert comp is not None and comp.originator == "Ben" and comp.targets == [queen]
    assert [p.key for p in comp.pools] == ["C", "Ann"]


# --- U-CTRL --------------------------------------------------------------------------------
def test_U_CTRL_1_introducer_controls_and_control_ends_with_the_scene():
    g = framed(P3, {"Ann": 1})
    hero = g.create("Ann", "Hero")
    g.end_turn("Ann")
    g.act(A.CreateComponent(player="Ben", role="Rogue"))
    rogue = g.new_component()
    assert rogue not in g.s.scene().control  # creating gives no claim
    g.act(A.IntroduceComponent(player="Ben", component=rogue))
    assert g.s.scene().control[rogue] == "Ben" and g.s.scene().control[hero] == "Ann"
    g.end_turn("Ben")
    g.end_turn("Cat")
    g.act(A.EndScene(player="Ann"))
    assert g.s.scenes[0].control == {}
    g.bids({"Cat": 1})
    g.act(A.EstablishLocation(player="Cat", new_role="Road"))
    g.act(A.IntroduceComponent(player="Cat", component=hero))
    assert g.s.scene().control[hero] == "Cat"


def test_U_CTRL_2_acting_on_anothers_component_originates_a_complication_and_withholds_the_effect():
    g = framed(P3, {"Ann": 1})
    hero = g.create("Ann", "Hero")
    strong = g.add("Ann", hero, "Strong")
    g.end_turn("Ann")
    before = g.spendable("Ben")
    g.act(A.RemoveTrait(player="Ben", trait=strong, text="Ben's curse saps the hero."))
    comp = g.s.complication
    assert comp is not None and comp.originator == "Ben" and comp.targets == [hero]
    assert not g.s.components[hero].traits[1].removed  # the effect is withheld
    assert g.spendable("Ben") == before - 1  # the coin is spent on declaring it
    # the controller himself acts freely
    g.end_turn("Ben")
    g.end_turn("Cat")
    g.act(A.AddTrait(player="Ann", component=hero, text="Brave"))
    assert g.s.components[hero].traits[-1].text == "Brave"


def test_U_CTRL_3_take_over_costs_one_does_not_give_the_turn_and_follows_possession():
    g = framed(P3, {"Ann": 1})
    rider = g.create("Ann", "Rider")
    g.act(A.CreateComponent(player="Ann", role="Sparrow"))
    bird = g.new_component()
    g.act(A.AddTrait(player="Ann", component=rider, text="Owns the sparrow", kind="possession", other=bird))
    g.act(A.ExitComponent(player="Ann", component=rider))
    g.act(A.IntroduceComponent(player="Ann", component=rider))
    assert bird in g.s.scene().present and g.s.scene().control[bird] == "Ann"
    g.end_turn("Ann")
    g.refused(A.TakeOver(player="Ben", component=bird), "U-CTRL-3")  # not on its own
    g.refused(A.TakeOver(player="Ben", component="c77"), "U-CTRL-3")
    before = g.spendable("Cat")
    g.do(A.BuyFact(player="Ben", text="Wind rises."))
    g.react({"Cat": A.TakeOver(player="Cat", component=rider)})
    assert g.s.scene().control[rider] == "Cat" and g.s.scene().control[bird] == "Cat"
    assert g.spendable("Cat") == before - 1 and g.turn == "Ben"
    # on his own turn a player takes over directly
    g.act(A.TakeOver(player="Ben", component=rider))
    assert g.s.scene().control[rider] == "Ben"
    g.refused(A.TakeOver(player="Ben", component=rider), "U-CTRL-3")  # already his
    g.act(A.CreateComponent(player="Ben", role="Ghost"))
    g.refused(A.TakeOver(player="Ben", component=g.new_component()), "U-CTRL-3")  # not in the scene


def test_U_CTRL_3_two_take_overs_in_one_window_the_one_closest_to_the_left_wins_U_TURN_3():
    """Both Ben and Cat declare a Take Over of Ann's knight after her statement: Ben, closest to
    Ann's left, takes it and pays; Cat's declaration lapses unpaid (engine choice: the window's
    priority, line 391, decides, rather than the later declaration silently winning)."""
    g = framed(P3, {"Ann": 1})
    knight = g.create("Ann", "Knight")
    coins = {p: g.spendable(p) for p in P3}
    g.do(A.BuyFact(player="Ann", text="The banners are green."))
    g.do(A.TakeOver(player="Cat", component=knight))  # Cat declares first: no priority for that
    g.do(A.TakeOver(player="Ben", component=knight))
    assert g.s.scene().control[knight] == "Ben"
    assert g.spendable("Ben") == coins["Ben"] - 1 and g.spendable("Cat") == coins["Cat"]
    g.check()


def test_U_CTRL_4_uncontrolled_component_traits_added_by_anyone_removal_needs_introduction():
    g = framed(P3, {"Ann": 1})
    g.act(A.CreateComponent(player="Ann", role="King"))
    king = g.new_component()
    g.act(A.AddTrait(player="Ann", component=king, text="Old"))
    old = g.s.components[king].traits[-1].id
    g.end_turn("Ann")
    g.act(A.AddTrait(player="Ben", component=king, text="Paranoid"))
    assert g.s.complication is None and g.s.components[king].traits[-1].text == "Paranoid"
    g.refused(A.RemoveTrait(player="Ben", trait=old), "U-CTRL-4")
    g.refused(A.ReduceImportance(player="Ben", component=king, coins=1), "U-CTRL-4")
    g.act(A.IntroduceComponent(player="Ben", component=king))
    g.act(A.RemoveTrait(player="Ben", trait=old))
    assert g.s.components[king].traits[1].removed and g.s.complication is None

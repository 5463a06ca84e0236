"""Components, Traits, Importance, elimination and Facts: U-COMP-0, U-IMP-1, U-TRAIT-*, U-ELIM-*, U-FACT-1."""
from __future__ import annotations

from engine.universalis import actions as A
from engine.universalis.facts import all_facts

from engine_helpers import P3, framed


def _complication_against(g, target: str, by: str = "Ben"):
    """`by` (not on turn yet) gets the turn and narrates an Event against `target`."""
    while g.turn != by:
        g.end_turn()
    g.event(by, "An attack.", receiver=target)
    assert g.s.complication is not None
    return g.s.complication


def test_U_COMP_0_first_trait_is_the_role_and_each_occurrence_is_a_die_and_a_point():
    g = framed(P3, {"Ann": 1})
    ogre = g.create("Ann", "Ogre")
    assert g.s.components[ogre].traits[0].kind == "role"
    g.act(A.AddTrait(player="Ann", component=ogre, text="Strong", times=2))
    strong = [t.id for t in g.s.components[ogre].traits if t.text == "Strong"]
    assert len(strong) == 2 and g.imp(ogre) == 3
    g.refused(A.AddTrait(player="Ann", component=ogre, text="x", kind="name", times=2), "U-COMP-0")
    comp = _complication_against(g, ogre)
    for tid in strong:
        g.act(A.DrawTrait(player="Ben", trait=tid, component=ogre, pool="Ann"))
    assert comp.pool("Ann").dice == 0 and g.s.complication.pool("Ann").dice == 2
    g.refused(A.DrawTrait(player="Ben", trait=strong[0], component=ogre, pool="Ann"), "U-COMP-3")


def test_U_IMP_1_importance_counts_live_traits_reductions_possessions_and_subs():
    g = framed(P3, {"Ann": 1})
    knight = g.create("Ann", "Knight")
    g.act(A.AddTrait(player="Ann", component=knight, text="Brave", times=2))
    g.act(A.CreateComponent(player="Ann", role="Horse", kind="prop"))
    horse = g.new_component()
    g.act(A.AddTrait(player="Ann", component=horse, text="Swift"))
    g.act(A.AddTrait(player="Ann", component=knight, text="Owns the horse", kind="possession", other=horse))
    g.act(A.IntroduceComponent(player="Ann", component=horse))
    # knight: Knight, Brave x2, Owns = 4; horse: Horse, Swift, Owned by = 3
    assert g.imp(horse) == 3 and g.imp(knight) == 4 + 3
    brave = g.trait(knight, "Brave")
    g.act(A.RemoveTrait(player="Ann", trait=brave))
    assert g.imp(knight) == 3 + 3
    g.act(A.ReduceImportance(player="Ann", component=knight, coins=2))
    assert g.imp(knight) == 1 + 3
    # Master and Sub: the Sub does not count the Master's Traits, the Master counts its Subs
    g.act(A.CreateComponent(player="Ann", role="Ninja clan"))
    clan = g.new_component()
    g.act(A.AddTrait(player="Ann", component=clan, text="Ninja kind", kind="master"))
    g.act(A.AddTrait(player="Ann", component=clan, text="Stealthy", times=3))
    g.act(A.CreateComponent(player="Ann", role="Ninja #12", sub_of=clan, introduce=True))
    ninja = g.new_component()
    assert g.imp(ninja) == 1 and g.imp(clan) == 5 + 1
    # an eliminated Sub or possession stops counting
    g.act(A.ReduceImportance(player="Ann", component=ninja, coins=1))
    assert g.s.components[ninja].eliminated and g.imp(clan) == 5
    g.act(A.ReduceImportance(player="Ann", component=horse, coins=3))
    assert g.s.components[horse].eliminated and g.imp(knight) == 1


def test_U_TRAIT_1_a_named_characters_name_draws_once_per_complication_and_costs_one():
    g = framed(P3, {"Ann": 1})
    before = g.spendable("Ann")
    g.act(A.CreateComponent(player="Ann", role="Accountant", proper_name="John Oswald", introduce=True))
    john = g.new_component()
    assert g.spendable("Ann") == before - 2 and g.s.components[john].label == "John Oswald"
    name = g.trait(john, "John Oswald")
    _complication_against(g, john)
    g.act(A.DrawTrait(player="Ben", trait=name, component=john, pool="Ann", text="he is named"))
    g.refused(A.DrawTrait(player="Ben", trait=name, component=john, pool="Ann"), "U-COMP-3")
    g.act(A.BuyDie(player="Ben", pool="C", count=2))
    g.call_and_agree("Ben")
    g.roll(C=[1, 1], Ann=[8])
    g.narrate_out()
    # a new Complication: the name can be drawn again
    g.end_turn("Ben")
    g.event("Cat", "Cat's thug shoves John.", receiver=john)
    g.act(A.DrawTrait(player="Cat", trait=name, component=john, pool="Ann"))
    assert g.s.complication.pool("Ann").dice == 1


def test_U_TRAIT_2_reciprocal_relationship_adds_corollary_for_same_coin_one_sided_does_not():
    g = framed(P3, {"Ann": 1})
    jack = g.create("Ann", "Jack")
    jill = g.create("Ann", "Jill")
    before = g.spendable("Ann")
    g.act(A.AddTrait(player="Ann", component=jill, text="Jack's sister", kind="relationship", other=jack,
                     corollary="Jill's brother"))
    assert g.spendable("Ann") == before - 1
    assert g.s.components[jack].traits[-1].text == "Jill's brother"
    assert g.s.components[jack].traits[-1].kind == "corollary"
    assert g.imp(jack) == 2 and g.imp(jill) == 2
    g.act(A.AddTrait(player="Ann", component=jack, text="Obsessive lust for Turk", kind="relationship",
                     other=jill))
    assert g.imp(jill) == 2 and g.imp(jack) == 3
    g.refused(A.AddTrait(player="Ann", component=jack, text="Knows", kind="relationship"), "U-TRAIT-2")
    # the corollary is a full Trait: it may be drawn on
    _complication_against(g, jack)
    cor = g.trait(jack, "Jill's brother")
    g.act(A.DrawTrait(player="Ben", trait=cor, component=jack, pool="Ann"))
    assert g.s.complication.pool("Ann").dice == 1


def test_U_TRAIT_3_possession_enters_with_owner_follows_its_control_and_separation_costs_one():
    g = framed(P3, {"Ann": 1})
    g.act(A.CreateComponent(player="Ann", role="Rider", proper_name="Jerek"))
    jerek = g.new_component()
    g.act(A.CreateComponent(player="Ann", role="Sparrow", proper_name="Fright"))
    fright = g.new_component()
    g.act(A.AddTrait(player="Ann", component=jerek, text="Owns Fright", kind="possession", other=fright,
                     corollary="Ridden by Jerek"))
    assert g.s.components[fright].owner == jerek
    assert g.s.components[fright].traits[-1].text == "Ridden by Jerek"
    g.end_turn("Ann")
    before = g.spendable("Ben")
    g.act(A.IntroduceComponent(player="Ben", component=jerek))
    sc = g.s.scene()
    assert fright in sc.present and sc.control[fright] == "Ben" and g.spendable("Ben") == before - 1
    g.refused(A.ExitComponent(player="Ben", component=fright), "U-TRAIT-3")
    own = g.trait(jerek, "Owns Fright")
    g.act(A.RemoveTrait(player="Ben", trait=own, text="Fright flies free."))
    assert g.spendable("Ben") == before - 2
    assert g.s.components[fright].owner is None
    assert all(t.removed for t in g.s.components[fright].traits if t.kind == "owned")
    # separated: the sparrow can now be taken over on its own
    g.end_turn("Ben")
    g.act(A.TakeOver(player="Cat", component=fright))
    assert g.s.scene().control[fright] == "Cat" and g.s.scene().control[jerek] == "Ben"
    g.refused(A.AddTrait(player="Cat", component=fright, text="x", kind="possession", other=fright),
              "U-TRAIT-2")


def test_U_TRAIT_4_master_no_name_not_introduced_subs_draw_its_traits_separately_negation():
    g = framed(P3, {"Ann": 1})
    g.act(A.CreateComponent(player="Ann", role="Elf"))
    elf = g.new_component()
    g.act(A.AddTrait(player="Ann", component=elf, text="Elf kind", kind="master"))
    g.act(A.AddTrait(player="Ann", component=elf, text="At home in the woods"))
    woods = g.trait(elf, "At home in the woods")
    g.refused(A.AddTrait(player="Ann", component=elf, text="Elrond", kind="name"), "U-TRAIT-4")
    g.refused(A.IntroduceComponent(player="Ann", component=elf), "U-TRAIT-4")
    g.act(A.CreateComponent(player="Ann", role="Elf warrior", sub_of=elf, introduce=True))
    e1 = g.new_component()
    g.act(A.CreateComponent(player="Ann", role="Elf scout", sub_of=elf, introduce=True))
    e2 = g.new_component()
    g.act(A.AddTrait(player="Ann", component=e2, text="Not at home in the woods", kind="negates", negates=woods))
    assert g.imp(e2) == 2
    g.refused(A.AddTrait(player="Ann", component=e1, text="x", kind="negates", negates="t1"), "U-TRAIT-4")
    # a named component cannot become a Master; a component in the scene cannot either
    g.refused(A.AddTrait(player="Ann", component=e1, text="Elf lords", kind="master"), "U-TRAIT-4")
    _complication_against(g, e1)
    g.act(A.DrawTrait(player="Ben", trait=woods, component=e1, pool="Ann"))
    g.refused(A.DrawTrait(player="Ben", trait=woods, component=e1, pool="Ann"), "U-COMP-3")
    g.refused(A.DrawTrait(player="Ben", trait=woods, component=e2, pool="Ann"), "U-COMP-3")  # negated
    g.refused(A.DrawTrait(player="Ben", trait=woods, component=elf, pool="Ann"), "U-COMP-3")  # not in scene


def test_U_TRAIT_4_second_sub_draws_the_same_master_trait_separately():
    g = framed(P3, {"Ann": 1})
    g.act(A.CreateComponent(player="Ann", role="Troopers"))
    m = g.new_component()
    g.act(A.AddTrait(player="Ann", component=m, text="Trooper kind", kind="master"))
    g.act(A.AddTrait(player="Ann", component=m, text="Fierce"))
    fierce = g.trait(m, "Fierce")
    g.end_turn("Ann")
    s1 = g.create("Ben", "Squad A", sub_of=m)
    s2 = g.create("Ben", "Squad B", sub_of=m)
    g.end_turn("Ben")
    g.end_turn("Cat")
    g.event("Ann", "A rockslide falls on the first squad.", receiver=s1)
    g.act(A.DrawTrait(player="Ann", trait=fierce, component=s1, pool="Ben"))
    g.act(A.DrawTrait(player="Ann", trait=fierce, component=s2, pool="Ben"))
    assert g.s.complication.pool("Ben").dice == 2


def test_U_ELIM_1_coins_lower_importance_and_stay_applied_elimination_at_zero():
    g = framed(P3, {"Ann": 1})
    henchman = g.create("Ann", "Henchman")
    g.act(A.AddTrait(player="Ann", component=henchman, text="Tough", times=4))
    assert g.imp(henchman) == 5
    g.act(A.ReduceImportance(player="Ann", component=henchman, coins=2, text="a kick to the knee"))
    assert g.imp(henchman) == 3 and not g.s.components[henchman].eliminated
    assert len(g.s.components[henchman].traits) == 5  # injuries while killing are not Traits
    g.refused(A.ReduceImportance(player="Ann", component=henchman, coins=4), "U-ELIM-1")
    g.act(A.ReduceImportance(player="Ann", component=henchman, coins=3, text="a chop to the throat"))
    comp = g.s.components[henchman]
    assert comp.eliminated and henchman not in g.s.scene().present and henchman not in g.s.scene().control
    g.refused(A.ReduceImportance(player="Ann", component=henchman, coins=1), "U-ELIM-1")
    g.refused(A.IntroduceComponent(player="Ann", component=henchman), "U-ELIM-1")
    # a component whose Traits are all crossed off is removed for 1 coin
    mook = g.create("Ann", "Mook")
    g.act(A.RemoveTrait(player="Ann", trait=g.s.components[mook].traits[0].id))
    assert g.imp(mook) == 0
    g.refused(A.ReduceImportance(player="Ann", component=mook, coins=2), "U-ELIM-1")
    g.act(A.ReduceImportance(player="Ann", component=mook, coins=1))
    assert g.s.components[mook].eliminated


def test_U_ELIM_1_flashback_may_use_an_eliminated_component():
    g = framed(P3, {"Ann": 1})
    jack = g.create("Ann", "Bartender")
    g.act(A.ReduceImportance(player="Ann", component=jack, coins=1))
    g.end_turn("Ann")
    g.do(A.FrameMiniScene(player="Ben"))
    g.act(A.EstablishLocation(player="Ben", new_role="Old bar"))
    g.refused(A.IntroduceComponent(player="Ben", component=jack), "U-ELIM-1")
    g.act(A.SetTime(player="Ben", when="past"))
    g.act(A.IntroduceComponent(player="Ben", component=jack))
    assert jack in g.s.scene().present and g.s.components[jack].eliminated


def test_U_ELIM_2_master_cannot_be_eliminated_while_a_sub_is_not():
    g = framed(P3, {"Ann": 1})
    g.act(A.CreateComponent(player="Ann", role="Orcs"))
    m = g.new_component()
    g.act(A.AddTrait(player="Ann", component=m, text="Orc kind", kind="master"))
    g.act(A.CreateComponent(player="Ann", role="Orc #1", sub_of=m, introduce=True))
    orc = g.new_component()
    assert g.imp(m) == 3
    # nobody controls a Master: its own Importance can be paid down (engine choice), but the
    # Sub Component's share cannot: the Master is not eliminated while the Sub is not
    g.act(A.ReduceImportance(player="Ann", component=m, coins=2))
    assert g.imp(m) == 1 and not g.s.components[m].eliminated
    g.refused(A.ReduceImportance(player="Ann", component=m, coins=1), "U-ELIM-2")
    g.act(A.ReduceImportance(player="Ann", component=orc, coins=1))
    assert g.s.components[orc].eliminated and g.imp(m) == 0
    g.act(A.ReduceImportance(player="Ann", component=m, coins=1))
    assert g.s.components[m].eliminated


def test_U_ELIM_3_an_eliminated_component_returns_for_its_current_importance():
    g = framed(P3, {"Ann": 1})
    villain = g.create("Ann", "Villain")
    g.act(A.AddTrait(player="Ann", component=villain, text="Cunning", times=2))
    g.act(A.ReduceImportance(player="Ann", component=villain, coins=3))
    assert g.s.components[villain].eliminated
    g.act(A.AddTrait(player="Ann", component=villain, text="Vengeful"))  # nobody controls it
    assert g.imp(villain) == 4
    g.refused(A.ReturnComponent(player="Ann", component=hero_id(g)), "U-ELIM-3")
    before = g.spendable("Ann")
    g.act(A.ReturnComponent(player="Ann", component=villain))
    assert g.spendable("Ann") == before - 4 and not g.s.components[villain].eliminated
    g.act(A.IntroduceComponent(player="Ann", component=villain))


def hero_id(g) -> str:
    return g.s.scene().location  # a component that is not eliminated


def test_U_ELIM_4_reduce_and_restore_one_level_per_coin_needs_control():
    g = framed(P3, {"Ann": 1})
    knight = g.create("Ann", "Knight")
    g.act(A.AddTrait(player="Ann", component=knight, text="Armoured", times=3))
    g.act(A.ReduceImportance(player="Ann", component=knight, coins=1))
    assert g.s.components[knight].reduced == 1 and g.imp(knight) == 3
    g.act(A.RestoreImportance(player="Ann", component=knight))
    assert g.imp(knight) == 4
    g.refused(A.RestoreImportance(player="Ann", component=knight), "U-ELIM-4")
    g.act(A.ReduceImportance(player="Ann", component=knight, coins=2))
    g.end_turn("Ann")
    # Ben does not control the knight: restoring it starts a Complication instead
    g.act(A.RestoreImportance(player="Ben", component=knight))
    assert g.s.complication is not None and g.s.components[knight].reduced == 2
    # the reduction persists across scenes
    g.act(A.BuyDie(player="Ben", pool="C"))
    g.call_and_agree("Ben")
    g.roll(C=[3], Ann=[])
    g.narrate_out()
    g.end_turn("Ben")
    g.end_turn("Cat")
    g.act(A.EndScene(player="Ann"))
    assert g.s.components[knight].reduced == 2 and g.imp(knight) == 2


def test_U_FACT_1_paid_information_is_a_fact_interrupts_bids_dice_and_colour_are_not():
    from engine_helpers import to_scene
    g = to_scene(P3, {"Ann": 2})
    g.act(A.EstablishLocation(player="Ann", new_role="Office"))
    g.act(A.SetTime(player="Ann", when="concurrent"))  # free: not a Fact
    assert not any(f.kind == "time" for f in g.s.facts)
    g.act(A.ProposeTenet(player="Ann", text="Noir.", kind="story"))
    hero = g.create("Ann", "Detective")
    g.act(A.BuyFact(player="Ann", text="It rains.", about=None))
    g.do(A.Speak(player="Ann", component=hero, line="Another rainy night."))
    g.do(A.NarrateEvent(player="Ann", text="The detective lights a cigarette.", performer=hero))
    g.interrupt("Ben")
    kinds = [f.kind for f in all_facts(g.s)]
    texts = [f.text for f in all_facts(g.s)]
    assert "tenet" in kinds and "trait" in kinds and "event" in kinds and "detail" in kinds
    assert "Another rainy night." not in " ".join(texts)
    assert not any("interrupt" in t.lower() for t in texts)
    n = len(all_facts(g.s))
    g.act(A.TakeOver(player="Ben", component=hero))
    assert len(all_facts(g.s)) == n


def test_U_ACT_6_owner_and_master_links_may_not_form_a_mixed_cycle():
    g = framed(P3, {"Ann": 1})
    g.act(A.CreateComponent(player="Ann", role="Guild"))
    guild = g.new_component()
    g.act(A.AddTrait(player="Ann", component=guild, text="Guild kind", kind="master"))
    g.act(A.CreateComponent(player="Ann", role="Guildsman", sub_of=guild))
    member = g.new_component()
    # the member would own his own Master: Importance would flow round in a circle
    g.refused(A.AddTrait(player="Ann", component=member, text="Owns the guild", kind="possession", other=guild),
              "U-TRAIT-4")
    g.act(A.CreateComponent(player="Ann", role="Charter", kind="prop"))
    charter = g.new_component()
    g.act(A.AddTrait(player="Ann", component=charter, text="Charter kind", kind="master"))
    g.act(A.AddTrait(player="Ann", component=member, text="Keeps the charter", kind="sub", other=charter))
    g.refused(A.AddTrait(player="Ann", component=charter, text="Of the guildsman", kind="sub", other=member),
              "U-ACT-6")


def test_U_TRAIT_4_a_master_cannot_be_owned_nor_a_possession_become_a_master():
    g = framed(P3, {"Ann": 1})
    g.act(A.CreateComponent(player="Ann", role="Lord"))
    lord = g.new_component()
    g.act(A.CreateComponent(player="Ann", role="Hounds"))
    hounds = g.new_component()
    g.act(A.AddTrait(player="Ann", component=lord, text="Owns the hounds", kind="possession", other=hounds))
    g.refused(A.AddTrait(player="Ann", component=hounds, text="Hound kind", kind="master"), "U-TRAIT-4")
    g.act(A.CreateComponent(player="Ann", role="Dragons"))
    dragons = g.new_component()
    g.act(A.AddTrait(player="Ann", component=dragons, text="Dragon kind", kind="master"))
    g.refused(A.AddTrait(player="Ann", component=lord, text="Owns the dragons", kind="possession", other=dragons),
              "U-TRAIT-4")


def test_U_IMP_1_a_component_both_owned_by_and_sub_of_another_counts_once():
    g = framed(P3, {"Ann": 1})
    g.act(A.CreateComponent(player="Ann", role="Order"))
    order = g.new_component()
    g.act(A.AddTrait(player="Ann", component=order, text="Order kind", kind="master"))
    g.act(A.CreateComponent(player="Ann", role="Knight of the order", sub_of=order))
    knight = g.new_component()
    assert g.imp(order) == 3
    g.act(A.AddTrait(player="Ann", component=order, text="Commands the knight", kind="possession", other=knight,
                     corollary="Sworn to the order"))
    # order: Order, Order kind, Commands = 3; knight: its Role and the corollary = 2, counted once
    assert g.imp(knight) == 2 and g.imp(order) == 3 + 2


def test_U_CTRL_2_a_possession_or_corollary_written_on_anothers_component_is_a_complication():
    g = framed(P3, {"Ann": 1})
    sword = g.create("Ann", "Sword", kind="prop")
    g.end_turn("Ann")
    thief = g.create("Ben", "Thief")
    g.act(A.AddTrait(player="Ben", component=thief, text="Owns the sword", kind="possession", other=sword))
    comp = g.s.complication
    assert comp is not None and comp.targets == [sword] and g.s.components[sword].owner is None
    # a one-sided relationship writes only on the buyer's own component: no Complication
    g2 = framed(P3, {"Ann": 1})
    queen = g2.create("Ann", "Queen")
    g2.end_turn("Ann")
    spy = g2.create("Ben", "Spy")
    g2.act(A.AddTrait(player="Ben", component=spy, text="Hates the Queen", kind="relationship", other=queen))
    assert g2.s.complication is None
    g2.act(A.AddTrait(player="Ben", component=spy, text="Loves the Queen", kind="relationship", other=queen,
                      corollary="Loved by the spy"))
    assert g2.s.complication is not None and g2.s.complication.targets == [queen]

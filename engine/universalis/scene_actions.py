"""Framing and the paid narration of a turn (U-FRAME, U-ACT, U-CTRL-4, U-TRAIT, U-ELIM)."""
from __future__ import annotations

from engine.core.errors import RuleViolation
from engine.universalis import actions as A
from engine.universalis import addon_hooks as hooks
from engine.universalis import complications as complication_rules
from engine.universalis.components import (
    add_trait, bought_origin, component, find_trait, importance, new_id, own_importance, possessions, replace_trait,
    trait_kind_problem,
)
from engine.universalis.ledger import coins, pay, pay_player, require
from engine.universalis.rules import (
    Ctx, advance_prep, handles, prep_or_turn, require_location, require_turn, statement,
)
from engine.universalis.addons import CORE
from engine.universalis.addon_nested import held_problem as nest_held
from engine.universalis.state import Component, Fact, GameState, Scene


def add_fact(c: Ctx, kind: str, text: str, components: list[str | None] | None = None,
             origin: str | None = None) -> Fact:
    """Record a paid Fact; its origin is the one given, else its `bought_origin`."""
    s = c.s
    sc = s.scene()
    f = Fact(id=new_id(s, "f"), kind=kind, text=text, by=c.a.player, scene=sc.number if sc else None,  # type: ignore[attr-defined]
             seq=s.seq, components=tuple(x for x in (components or []) if x),
             origin=origin or bought_origin(s))
    s.facts.append(f)
    return f


def introduce(s: GameState, sc: Scene, cid: str, player: str) -> list[str]:
    """Put a component and its unseparated possessions in the scene under `player`'s control."""
    done = []
    for x in [cid] + [p.id for p in possessions(s, cid)]:
        if x not in sc.present:
            sc.present.append(x)
        if x not in sc.seen:
            sc.seen.append(x)
        sc.control[x] = hooks.pc_controller(s, x, player)
        done.append(x)
        if x != cid:
            done += introduce(s, sc, x, player)[1:]
    return done


def end_framing(s: GameState) -> None:
    if s.turn is not None:
        s.turn.framing = False


# --- framing (U-FRAME) -----------------------------------------------------------------------------
@handles(A.EstablishLocation)
def establish_location(c: Ctx) -> None:
    s, a = c.s, c.a
    assert isinstance(a, A.EstablishLocation)
    require_turn(c, narration_ok=True)
    sc = s.scene()
    assert sc is not None
    framing = s.turn is not None and s.turn.framing and sc.location is None
    chosen = [x for x in (a.location, a.new_role, a.return_to_scene) if x not in (None, "")]
    if len(chosen) != 1:
        raise RuleViolation("U-FRAME-1", "name one location: an existing one, a new Role, or a scene to cut back to")
    if a.return_to_scene is not None:
        if not framing:
            raise RuleViolation("U-FRAME-5", "cutting back to a scene is done while framing a new one")
        if not 1 <= a.return_to_scene <= len(s.scenes) or a.return_to_scene == sc.number:
            raise RuleViolation("U-FRAME-5", f"there is no earlier scene {a.return_to_scene}")
        old = s.scenes[a.return_to_scene - 1]
        if old.faded:
            raise RuleViolation("U-FRAME-5", f"scene {old.number} faded to black and can never be returned to")
        if not old.ended:
            raise RuleViolation("U-FRAME-5", f"scene {old.number} is still being played")
        pay(s, a.player, 1, "establishing the location")
        sc.location = old.location
        sc.time = f"back in scene {old.number}"
        sc.time_kind = "return"
        kept = [x for x in old.present if not s.components[x].eliminated]
        for x in kept:
            introduce(s, sc, x, a.player)
        if old.location:
            sc.control[old.location] = a.player
        text = a.text or f"The story cuts back to scene {old.number}."
        f = add_fact(c, "detail", text, [old.location])
        c.emit("location", text, 1, location=old.location, returned_to=old.number, present=kept)
        statement(c, "location", text, 1, fact_id=f.id, components=[old.location])
        return
    cost = 1
    if a.new_role:
        cost += 1 if a.proper_name else 0
        require(s, a.player, cost, "creating and establishing a location" + (" with a proper name" if a.proper_name else ""))
        loc = Component(id=new_id(s, "c"), kind="location", created_by=a.player)
        s.components[loc.id] = loc
        add_trait(s, loc, a.new_role.strip(), "role", a.player)
        if a.proper_name:
            add_trait(s, loc, a.proper_name.strip(), "name", a.player)
    else:
        loc = component(s, a.location, "U-FRAME-1")
        if loc.kind != "location":
            raise RuleViolation("U-FRAME-1", f"{loc.label} is a {loc.kind}, not a location")
        if loc.is_master:
            raise RuleViolation("U-TRAIT-4", f"{loc.label} is a Master Component and cannot be in a scene")
        if loc.eliminated and not sc.past:
            raise RuleViolation("U-ELIM-1", f"{loc.label} was eliminated and can only appear in scenes set before that")
        if sc.location == loc.id:
            raise RuleViolation("U-ACT-3", f"the scene is already at {loc.label}")
    what = "establishing the location" if framing else "changing the location"
    pay(s, a.player, cost, what)
    if sc.location:
        # the old location leaves the scene: nobody controls it here any more (U-ACT-3, U-CTRL-1)
        if sc.location in sc.present:
            sc.present.remove(sc.location)
        sc.control.pop(sc.location, None)
    sc.location = loc.id
    sc.control[loc.id] = a.player
    text = a.text or (f"The scene is set at {loc.label}." if framing else f"The scene moves to {loc.label}.")
    f = add_fact(c, "detail", text, [loc.id])
    c.emit("location", text, cost, location=loc.id, framing=framing)
    statement(c, "location", text, cost, fact_id=f.id, components=[loc.id])


@handles(A.SetTime)
def set_time(c: Ctx) -> None:
    s, a = c.s, c.a
    assert isinstance(a, A.SetTime)
    require_turn(c)
    sc = s.scene()
    assert s.turn is not None and sc is not None
    if not s.turn.framing:
        raise RuleViolation("U-FRAME-2", "the time is set while framing, before the first Event")
    if sc.time_kind != "after" or any(f.kind == "time" and f.scene == sc.number for f in s.facts):
        raise RuleViolation("U-FRAME-2", "the time of this scene is already set")
    others = [p.name for p in s.players if p.name != a.player]
    text = a.text or {"after": "Straight after the last scene.", "concurrent": "At the same time as the last scene.",
                      "past": "Earlier, in the past.", "future": "Later, in the future.",
                      "explicit": "At a time of the framer's choosing."}[a.when]
    sc.time = text
    sc.time_kind = a.when
    if a.when in ("after", "concurrent"):
        c.emit("time", text, 0)
        return
    if a.when == "future":
        require(s, a.player, len(others), f"framing into the future (1 coin to each of {len(others)} other players)",
                rule="U-FRAME-3")
        for o in others:
            pay_player(s, a.player, o, 1)
        cost = len(others)
    else:
        pay(s, a.player, 1, "setting the scene in the past" if a.when == "past" else "an explicit time")
        cost = 1
    sc.past = a.when == "past"
    f = add_fact(c, "time", text)
    c.emit("time", text, cost, when=a.when, to_players=a.when == "future")
    statement(c, "time", text, cost, fact_id=f.id)


@handles(A.FrameMiniScene)
def frame_mini_scene(c: Ctx) -> None:
    s, a = c.s, c.a
    require_turn(c)
    assert s.turn is not None
    if s.turn.framing:
        raise RuleViolation("U-TURN-4", "finish framing this scene before framing a mini scene")
    if s.turn.mini_scene is not None:
        raise RuleViolation("U-TURN-4", "a mini scene is already open on this turn")
    if s.complication is not None:
        raise RuleViolation("U-TURN-4", "resolve the open Complication before framing a mini scene")
    # framing is free, but a mini scene without a location is no scene: its location costs 1
    require(s, a.player, 1, "a mini scene needs a location, and establishing it")  # type: ignore[attr-defined]
    number = len(s.scenes) + 1
    s.scenes.append(Scene(number=number, framer=a.player, mini=True))  # type: ignore[attr-defined]
    s.turn.mini_scene = number
    s.turn.framing = True
    c.emit("mini_scene", getattr(a, "text", "") or "frames a mini scene.", scene=number)


@handles(A.FadeMiniScene)
def fade_mini_scene(c: Ctx) -> None:
    s, a = c.s, c.a
    require_turn(c)
    assert s.turn is not None
    if s.turn.mini_scene is None:
        raise RuleViolation("U-TURN-4", "there is no mini scene open to fade")
    sc = s.scenes[s.turn.mini_scene - 1]
    if sc.fade_requested:
        raise RuleViolation("U-TURN-4", "this mini scene will already fade to black")
    pay(s, a.player, 1, "fading the mini scene to black")  # type: ignore[attr-defined]
    sc.fade_requested = True
    c.emit("fade_mini_scene", "The mini scene will fade to black when it ends.", 1)
    # like anything else, a Fade to Black may be challenged (U-CHAL-1, line 375)
    statement(c, "fade", "The mini scene will fade to black when it ends.", 1, lapses=True)


# --- components (U-ACT-3, U-ACT-4, U-ACT-6) ---------------------------------------------------------
@handles(A.CreateComponent)
def create_component(c: Ctx) -> None:
    s, a = c.s, c.a
    assert isinstance(a, A.CreateComponent)
    between = not s.extra.session_open  # Create Components Between Sessions (UA-BETWEEN-1)
    prep = False if between else prep_or_turn(c)
    cost = 1 + (1 if a.proper_name else 0)
    if s.config.addons is not CORE or a.durable:
        cost = addon_rules.create_price(c, a, cost)
    if prep and (a.introduce or a.proper_name):
        raise RuleViolation("U-PREP-3", "in preparation one coin buys one Tenet action: a component's Role, not more")
    if a.introduce:
        if a.kind == "location":
            raise RuleViolation("U-ACT-3", "a location enters a scene by being established as its location")
        sc = require_location(s)
    master = None
    if a.sub_of is not None:
        master = component(s, a.sub_of, "U-ACT-6")
        if not master.is_master:
            raise RuleViolation("U-ACT-6", f"{master.label} is not a Master Component")
    what = "creating a component" + (" with a proper name" if a.proper_name else "")
    hooks.trait_freeze(s, what, creating=True)
    if not (between and addon_rules.between_sessions_pay(c, a, cost)):
        pay(s, a.player, cost, what)
    comp = Component(id=new_id(s, "c"), kind=a.kind, created_by=a.player)
    s.components[comp.id] = comp
    role = add_trait(s, comp, a.role.strip(), "sub" if master else "role", a.player,
                     other=master.id if master else None)
    if master:
        comp.masters.append(master.id)
    if a.proper_name:
        add_trait(s, comp, a.proper_name.strip(), "name", a.player)
    addon_rules.created(c, comp, a)
    if a.introduce:
        introduce(s, sc, comp.id, a.player)
    words = f"{comp.label} ({a.role})" if a.proper_name else a.role
    c.emit("component", f"creates {words if a.proper_name else comp.mention}" + (" in the scene." if a.introduce else "."),
           cost, component=comp.id, introduced=a.introduce)
    if between:  # shown and open to Challenge at the next Game Prep (L2500)
        return
    if prep:
        advance_prep(s, passed=False)
    statement(c, "component", words, cost, fact_id=role.id, components=[comp.id])


@handles(A.IntroduceComponent)
def introduce_component(c: Ctx) -> None:
    s, a = c.s, c.a
    assert isinstance(a, A.IntroduceComponent)
    require_turn(c, narration_ok=True)
    sc = require_location(s)
    comp = component(s, a.component, "U-ACT-3")
    if s.addon.pcs:  # a PC won in a mini scene's Complication enters the main scene (UA-PC-3, L2106)
        sc = hooks.pc_entry_scene(s, a.player, comp, sc)
    if comp.is_master:
        raise RuleViolation("U-TRAIT-4", f"{comp.label} is a Master Component and cannot be introduced into a scene")
    if comp.eliminated and not sc.past:
        raise RuleViolation("U-ELIM-1", f"{comp.label} was eliminated; it can only appear in scenes set before that")
    if comp.id in sc.present or comp.id == sc.location:
        raise RuleViolation("U-ACT-3", f"{comp.label} is already in the scene")
    hooks.pc_introduce_guard(s, a.player, comp, sc.number)
    if s.addon.threads:
        hooks.thread_introduced(s, comp.id)  # UA-THREAD-2
    pay(s, a.player, 1, f"introducing {comp.label}")
    brought = introduce(s, sc, comp.id, a.player)
    text = a.text or f"{comp.label} enters the scene."
    c.emit("introduce", text, 1, component=comp.id, with_possessions=brought[1:])
    end_framing_if_mini_ready(s)
    statement(c, "introduce", text, 1, components=[comp.id])


def end_framing_if_mini_ready(s: GameState) -> None:
    """Framing ends at the first Event; introductions keep it going (U-FRAME-4)."""
    return None


@handles(A.ExitComponent)
def exit_component(c: Ctx) -> None:
    s, a = c.s, c.a
    assert isinstance(a, A.ExitComponent)
    require_turn(c, narration_ok=True)
    sc = require_location(s)
    comp = component(s, a.component, "U-ACT-3")
    if comp.id not in sc.present:
        raise RuleViolation("U-ACT-3", f"{comp.label} is not in the scene")
    if comp.owner and comp.owner in sc.present:
        raise RuleViolation("U-TRAIT-3", f"{comp.label} goes where its owner goes until they are separated")
    if s.complication is not None and comp.id in complication_rules.tied(s):
        raise RuleViolation("U-COMP-4", f"{comp.label} is committed to the open Complication (a Target, its source "
                                        "or drawn on) and stays in it until it ends")
    if s.suspended and (held := nest_held(s, comp.id, "leaving the scene")):  # UA-NEST-1
        raise held
    text = a.text or f"{comp.label} leaves the scene."
    pay(s, a.player, 1, f"exiting {comp.label}")
    if complication_rules.touch(c, [comp.id], text):
        return
    gone = [comp.id] + [p.id for p in possessions(s, comp.id)]
    for x in gone:
        if x in sc.present:
            sc.present.remove(x)
        sc.control.pop(x, None)
    c.emit("exit", text, 1, component=comp.id)
    statement(c, "exit", text, 1, components=[comp.id])


@handles(A.DeclareAbsent)
def declare_absent(c: Ctx) -> None:
    s, a = c.s, c.a
    assert isinstance(a, A.DeclareAbsent)
    require_turn(c, narration_ok=True)
    sc = require_location(s)
    comp = component(s, a.component, "U-ACT-3")
    if comp.id in sc.present or comp.id == sc.location:
        raise RuleViolation("U-ACT-3", f"{comp.label} is in the scene; exit it instead")
    if comp.id in sc.absent:
        raise RuleViolation("U-ACT-3", f"{comp.label} is already declared absent from this scene")
    pay(s, a.player, 1, "declaring a component absent")
    sc.absent.append(comp.id)
    text = a.text or f"{comp.label} is not here."
    f = add_fact(c, "absence", text, [comp.id])
    c.emit("absent", text, 1, component=comp.id)
    statement(c, "absent", text, 1, fact_id=f.id, components=[comp.id])


# --- narration (U-ACT-1, U-ACT-2, U-ACT-8) ----------------------------------------------------------
def present_or_refuse(s: GameState, cid: str | None, rule: str) -> None:
    if cid is None:
        return
    comp = component(s, cid, rule)
    sc = s.scene()
    assert sc is not None
    if comp.id not in sc.present and comp.id != sc.location:
        raise RuleViolation(rule, f"{comp.label} is not in the scene; introduce it first")


@handles(A.NarrateEvent)
def narrate_event(c: Ctx) -> None:
    s, a = c.s, c.a
    assert isinstance(a, A.NarrateEvent)
    require_turn(c, narration_ok=True)
    require_location(s)
    for x in (a.performer, a.receiver):
        present_or_refuse(s, x, "U-ACT-1")
    pay(s, a.player, 1, "an Event")
    f = add_fact(c, "event", a.text.strip(), [a.performer, a.receiver])
    end_framing(s)
    c.emit("event", f.text, 1, fact=f.id, performer=a.performer, receiver=a.receiver)
    started = complication_rules.touch(c, [x for x in (a.performer, a.receiver) if x], f.text, f.id, open_window=False)
    statement(c, "event", f.text, 1, fact_id=f.id, components=[a.performer, a.receiver], is_event=True,
              complication_started=started)


@handles(A.BuyFact)
def buy_fact(c: Ctx) -> None:
    s, a = c.s, c.a
    assert isinstance(a, A.BuyFact)
    require_turn(c, narration_ok=True)
    require_location(s)
    if a.about is not None:
        component(s, a.about, "U-ACT-2")
    pay(s, a.player, 1, "a Fact")
    f = add_fact(c, a.kind, a.text.strip(), [a.about])
    c.emit("fact", f.text, 1, fact=f.id, about=a.about)
    statement(c, "fact", f.text, 1, fact_id=f.id, components=[a.about])


@handles(A.Dialog)
def dialog(c: Ctx) -> None:
    s, a = c.s, c.a
    assert isinstance(a, A.Dialog)
    require_turn(c)
    require_location(s)
    present_or_refuse(s, a.speaker, "U-ACT-8")
    present_or_refuse(s, a.listener, "U-ACT-8")
    if s.controller(a.speaker) != a.player:
        raise RuleViolation("U-ACT-8", f"{a.player} does not control {s.components[a.speaker].label}")
    other = s.controller(a.listener)
    line = a.line.strip()
    problem = complication_rules.dialog_problem(s, a.player, a.listener)
    if problem is not None:  # its refusal would start a second Complication (U-COMP-1)
        raise problem
    if other == a.player or other is None:
        c.emit("speak", f"{s.components[a.speaker].label}: “{line}”", component=a.speaker)
        return
    pay(s, a.player, 1, "opening a Dialog")
    add_fact(c, "dialog", f"{s.components[a.speaker].label} to {s.components[a.listener].label}: “{line}”",
             [a.speaker, a.listener])
    end_framing(s)
    from engine.universalis.state import DialogOffer
    s.dialog = DialogOffer(speaker=a.speaker, listener=a.listener, initiator=a.player, other=other, line=line)
    c.emit("dialog", f"{s.components[a.speaker].label}: “{line}”", 1, speaker=a.speaker, listener=a.listener)


@handles(A.AnswerDialog)
def answer_dialog(c: Ctx) -> None:
    s, a = c.s, c.a
    assert isinstance(a, A.AnswerDialog)
    d = s.dialog
    if d is None or s.window is not None or s.challenge is not None or s.fine is not None:
        raise RuleViolation("U-ACT-8", "there is no Dialog waiting for an answer")
    if a.player != d.other:
        raise RuleViolation("U-ACT-8", f"{d.other}, who controls {s.components[d.listener].label}, answers")
    if not a.accept and a.facts:
        raise RuleViolation("U-ACT-8", "Facts are bought in a reply; refusing the Dialog makes it a Complication")
    s.dialog = None
    if a.accept:
        reply = a.line.strip() or "…"
        c.emit("speak", f"{s.components[d.listener].label}: “{reply}”", component=d.listener)
        if a.facts:
            # whoever is speaking may buy what is said as Facts, 1 coin each (U-ACT-8, lines 481, 501)
            require(s, a.player, len(a.facts), "a Fact" if len(a.facts) == 1 else f"{len(a.facts)} Facts")
            bought = []
            for words in a.facts:
                pay(s, a.player, 1, "a Fact")
                f = add_fact(c, "dialog", words.strip(), [d.listener])
                bought.append(f)
                c.emit("fact", f.text, 1, fact=f.id, about=d.listener)
            text = " ".join(f.text for f in bought)
            statement(c, "fact", text, len(bought), fact_id=bought[0].id, components=[d.listener])
        return
    c.emit("dialog_refused", c.say("refuses the Dialog; it becomes a Complication.",
                                   "will not have it: the Dialog becomes a Complication.",
                                   "answers no, and the Dialog turns into a Complication."))
    complication_rules.originate(c, d.initiator, [d.listener], [d.other], f"Dialog: {d.line}", None, [d.speaker])


@handles(A.Speak)
def speak(c: Ctx) -> None:
    s, a = c.s, c.a
    assert isinstance(a, A.Speak)
    require_turn(c, narration_ok=True)
    present_or_refuse(s, a.component, "U-ACT-8")
    if s.controller(a.component) != a.player:
        raise RuleViolation("U-ACT-8", f"{a.player} does not control {s.components[a.component].label}")
    c.emit("speak", f"{s.components[a.component].label}: “{a.line.strip()}”", component=a.component)


# --- traits (U-ACT-5, U-ACT-6, U-TRAIT-*) ------------------------------------------------------------
def needs_presence(s: GameState, comp: Component, what: str) -> None:
    problem = presence_problem(s, comp, what)
    if problem is not None:
        raise problem


def presence_problem(s: GameState, comp: Component, what: str = "Doing this to") -> RuleViolation | None:
    """Removing, restoring or paying Importance needs the component in the scene (U-CTRL-4).

    A Master Component can never be introduced (U-TRAIT-4) nor be a Target, so it could never
    be paid down and U-ELIM-2's "then eliminate the Master itself" (line 806) would be
    impossible. Engine choice: nobody ever controls a Master, so, as for adding its Traits,
    any player may remove or restore its Traits or pay its Importance on his turn.
    During a roll's narration, what is tied to the Complication may be changed (U-COMP-10).
    """
    if comp.is_master:
        return None
    sc = s.scene()
    if s.narration is not None and comp.id in complication_rules.tied(s):
        return None
    if sc is None or (comp.id not in sc.present and comp.id != sc.location):
        return RuleViolation("U-CTRL-4", f"{what} {comp.label} needs it introduced into the scene first")
    return None


@handles(A.AddTrait)
def add_trait_action(c: Ctx) -> None:
    s, a = c.s, c.a
    assert isinstance(a, A.AddTrait)
    prep = prep_or_turn(c)
    comp = component(s, a.component, "U-ACT-5")
    if prep and a.times != 1:
        raise RuleViolation("U-PREP-3", "in preparation one coin buys one Tenet action: a single Trait")
    if a.kind != "plain" and a.times != 1:
        raise RuleViolation("U-COMP-0", "only an ordinary Trait can be bought several times")
    other = component(s, a.other, "U-TRAIT-2") if a.other else None
    problem = trait_kind_problem(s, comp, a.kind, other, a.negates)
    if problem is not None:
        raise problem
    hooks.trait_freeze(s, "buying a Trait")
    hooks.pc_guard(s, a.player, comp)
    price = addon_rules.check_trait(c, comp, a) if s.config.addons is not CORE or a.enigma else 1
    pay(s, a.player, a.times * price, "a Trait" if a.times == 1 else f"{a.times} Trait occurrences")
    words = a.text.strip()
    # a possession or a reciprocal relationship also writes on the other component (U-TRAIT-2/3):
    # if another player controls it, that too is doing something to his component (U-CTRL-2)
    touched = [comp.id]
    if other is not None and (a.kind == "possession" or (a.kind == "relationship" and a.corollary)):
        touched.append(other.id)
    if complication_rules.touch(c, touched, f"{words} ({comp.label})"):
        return
    first = None
    for _ in range(a.times):
        extra: dict = {}
        if a.kind in ("relationship", "possession", "sub"):
            extra["other"] = other.id  # type: ignore[union-attr]
        if a.kind == "negates":
            extra["negates"] = a.negates
        t = add_trait(s, comp, words, a.kind, a.player, **extra)
        if a.enigma:
            t = addon_rules.trait_added(c, t, comp, a)
        first = first or t
    assert first is not None
    if a.kind == "master":
        comp.is_master = True
    if a.kind == "sub":
        comp.masters.append(other.id)  # type: ignore[union-attr]
    if a.kind == "possession":
        assert other is not None
        other.owner = comp.id
        cor = add_trait(s, other, a.corollary or f"Owned by {comp.label}", "owned", a.player,
                        other=comp.id, corollary_of=first.id)
        replace_trait(comp, comp.traits.index(first), corollary_of=cor.id)
        sc = s.scene()
        if sc is not None and comp.id in sc.control and other.id not in sc.present:
            pass  # the possession enters with its owner next time it is introduced
    elif a.kind == "relationship" and a.corollary:
        assert other is not None
        cor = add_trait(s, other, a.corollary.strip(), "corollary", a.player, other=comp.id, corollary_of=first.id)
        replace_trait(comp, comp.traits.index(first), corollary_of=cor.id)
    times = f" x{a.times}" if a.times > 1 else ""
    if a.enigma:  # the others see only that a secret Trait was bought (UA-ENIGMA-1)
        c.emit("trait", f"{comp.label}: an Enigma Trait (secret)", a.times * price, component=comp.id, trait=first.id,
               trait_kind=a.kind, secret=True)
    else:
        c.emit("trait", f"{comp.label}: {words}{times}", a.times * price, component=comp.id, trait=first.id,
               trait_kind=a.kind)
    if prep:
        advance_prep(s, passed=False)
    shown = f"{comp.label}: an Enigma Trait" if a.enigma else f"{comp.label}: {words}{times}"
    statement(c, "trait", shown, a.times * price, fact_id=first.id, components=[comp.id])


def corollary_pair(s: GameState, comp: Component, idx: int) -> tuple[Component, int] | None:
    t = comp.traits[idx]
    if t.corollary_of is None:
        return None
    try:
        return find_trait(s, t.corollary_of)
    except RuleViolation:
        return None


@handles(A.RemoveTrait, A.RestoreTrait)
def remove_or_restore_trait(c: Ctx) -> None:
    s, a = c.s, c.a
    removing = isinstance(a, A.RemoveTrait)
    require_turn(c, narration_ok=True)
    comp, idx = find_trait(s, a.trait)  # type: ignore[attr-defined]
    t = comp.traits[idx]
    if removing and t.removed:
        raise RuleViolation("U-ACT-5", f"“{t.text}” is already crossed off")
    if not removing and not t.removed:
        raise RuleViolation("U-ACT-5", f"“{t.text}” has not been removed")
    needs_presence(s, comp, "Removing a Trait of" if removing else "Restoring a Trait of")
    hooks.pc_guard(s, a.player, comp)  # type: ignore[attr-defined]
    verb = "removes" if removing else "restores"
    price = addon_rules.removal_price(c, comp, t, removing) if s.config.addons is not CORE else 1
    pay(s, a.player, price, "removing a Trait" if removing else "restoring a Trait")  # type: ignore[attr-defined]
    text = getattr(a, "text", "") or f"{comp.label}: “{t.text}” {'is crossed off' if removing else 'is restored'}."
    if complication_rules.touch(c, [comp.id], text):
        return
    replace_trait(comp, idx, removed=removing)
    pair = corollary_pair(s, comp, idx)
    if t.kind in ("possession", "owned") and pair is not None:
        other, j = pair
        replace_trait(other, j, removed=removing)
        owned = other if t.kind == "possession" else comp
        owner = comp if t.kind == "possession" else other
        owned.owner = None if removing else owner.id
    c.emit("remove_trait" if removing else "restore_trait", text, price, component=comp.id, trait=t.id, verb=verb)
    statement(c, "trait_change", text, price, fact_id=t.id, components=[comp.id])


# --- Importance and elimination (U-ELIM) -----------------------------------------------------------
@handles(A.ReduceImportance)
def reduce_importance(c: Ctx) -> None:
    s, a = c.s, c.a
    assert isinstance(a, A.ReduceImportance)
    require_turn(c, narration_ok=True)
    comp = component(s, a.component, "U-ELIM-1")
    if comp.eliminated:
        raise RuleViolation("U-ELIM-1", f"{comp.label} is already eliminated")
    needs_presence(s, comp, "Paying the Importance of")
    paid = a.coins
    total = importance(s, comp.id)
    # coins per level: Durable (UA-DUR-3) and Plot Protection (UA-PROT-1) each double it, and both may
    # hold: "double the normal number of Coins" (L2124) of a Durable Component's 2 (L2172) is 4
    mult = addon_rules.importance_multiplier(c, comp) if s.config.addons is not CORE else 1
    prot = hooks.protection_multiplier(s, a.player, comp) if total else 1
    if a.coins % (mult * prot):
        raise hooks.per_level_refusal(comp.label, a.coins, mult, prot)
    if mult != 1:
        a = a.model_copy(update={"coins": a.coins // mult})  # levels, as the core rules count them
    own = own_importance(comp)
    levels = a.coins // prot  # the levels the coins buy down
    if total == 0:
        if a.coins != 1:
            raise RuleViolation("U-ELIM-1", f"{comp.label} has no Traits left: 1 coin removes it")
    elif levels > own:
        rest = total - own
        if any(not x.eliminated for x in s.components.values() if comp.id in x.masters):
            raise RuleViolation("U-ELIM-2", f"{comp.label} is a Master with Sub Components still in play: at most "
                                            f"{own} of its Importance {total} can be paid against it now")
        if levels != total:
            # an owner is eliminated by paying its whole Importance, its possessions' included
            # (lines 755, 812-814, 1353); coins towards it beyond its own Traits are paid in one go
            raise RuleViolation("U-ELIM-1", f"{comp.label} has Importance {total}, of which {rest} is its "
                                            f"possessions'; pay at most {own} against it, or all {total} to "
                                            "eliminate it")
    if total - levels <= 0 and any(not x.eliminated for x in s.components.values() if comp.id in x.masters):
        raise RuleViolation("U-ELIM-2", f"{comp.label} is a Master with Sub Components still in play")
    pay(s, a.player, paid, f"paying {paid} against {comp.label}'s Importance")
    text = a.text or f"{comp.label} is worn down ({a.coins})."
    if complication_rules.touch(c, [comp.id], text):
        return
    gone = total == 0 or levels >= total
    comp.reduced += min(levels, own) if total and not gone else 0
    f = add_fact(c, "event", text, [comp.id], origin="elimination" if gone else None)
    if gone:
        eliminate(s, comp)
        c.emit("eliminate", text, paid, component=comp.id)
    else:
        c.emit("reduce", text, paid, component=comp.id, importance=importance(s, comp.id))
    statement(c, "reduce", text, paid, fact_id=f.id, components=[comp.id])


def eliminate(s: GameState, comp: Component) -> None:
    comp.eliminated = True
    comp.reduced = 0
    sc = s.scene()
    comp.eliminated_scene = sc.number if sc else None
    for scene in s.scenes:
        if not scene.ended:
            if comp.id in scene.present:
                scene.present.remove(comp.id)
            scene.control.pop(comp.id, None)


@handles(A.RestoreImportance)
def restore_importance(c: Ctx) -> None:
    s, a = c.s, c.a
    assert isinstance(a, A.RestoreImportance)
    require_turn(c, narration_ok=True)
    comp = component(s, a.component, "U-ELIM-4")
    if comp.reduced <= 0:
        raise RuleViolation("U-ELIM-4", f"{comp.label}'s Importance has not been reduced")
    needs_presence(s, comp, "Restoring the Importance of")
    pay(s, a.player, 1, "restoring a level of Importance")
    text = a.text or f"{comp.label} recovers."
    if complication_rules.touch(c, [comp.id], text):
        return
    comp.reduced -= 1
    c.emit("restore_importance", text, 1, component=comp.id, importance=importance(s, comp.id))
    statement(c, "restore_importance", text, 1, components=[comp.id])


@handles(A.ReturnComponent)
def return_component(c: Ctx) -> None:
    s, a = c.s, c.a
    assert isinstance(a, A.ReturnComponent)
    require_turn(c, narration_ok=True)
    comp = component(s, a.component, "U-ELIM-3")
    if not comp.eliminated:
        raise RuleViolation("U-ELIM-3", f"{comp.label} is not eliminated")
    cost = max(1, importance(s, comp.id))
    pay(s, a.player, cost, f"bringing {comp.label} back (its Importance)")
    comp.eliminated = False
    comp.eliminated_scene = None
    text = a.text or f"{comp.label} returns to the story."
    f = add_fact(c, "event", text, [comp.id])
    c.emit("return", text, cost, component=comp.id)
    statement(c, "return", text, cost, fact_id=f.id, components=[comp.id])


from engine.universalis import addon_rules  # noqa: E402  (it imports the handlers' helpers above)

"""A heuristic Vele seat: a player who narrates when the role comes round.

As a player it makes a small group of story characters, ties its PC to the others' groups, buys a PC
(every other seat a Heal 6 medic; at zone tables the first seat's villain has Selective Area 10 on a d10) and story components from the premise's words (one of them
treacherous ground, a thing) with a spotlight card, bids, pushes its best dice,
spends power when it has it, calls and joins allies, heals wounded PCs, recombines a d4 and a d6 into
a d8, pushes a d4 trait alone for the V-19 XP when defending a maneuver it would lose anyway, tells a
hidden roll's effect in the story when it alone saw it (V-31), tries now and then to cross another's ground (a
maneuver, half the time a hidden roll), makes
a one-shot now and then once an act (the thing it needs) and sets it off, claims aspect hits after a
lost struggle, votes on every challenge and claim with a reason, justifies a claim the table turned
down with revised fiction once a scene, challenges out of turn (through the table's interjection) a
claim that names a component already out or piles onto its own wounded or beaten component, absorbs
damage smallest-trait-first (the ally rounds first), strikes in a fight with its component's Area when the
fight's other side and another of the others' stand in its zone (V-38, L453), and surrenders a fight it is
losing. As narrator
it frames scenes with the other PCs against its own story components, sometimes tries to keep a PC
out, states difficulties, challenges or says no now and then, blocks the strongest PC from its main
component now and then (players overcome a block first) or has a lesser component guard it (players
then aim at a trait), makes a temporary rockslide from bowl
dice when its own components in the scene are out or worn down, lets its ground strike back at a PC
that failed against it (a counter-struggle, with approval), claims the spotlight cards whose PCs
came through, asks to buy off a failed objective, and ends the act after a few scenes.
Seeded: the same seed gives the same story. Every decision says why.
"""
from __future__ import annotations

import random
from typing import Any

from pydantic import BaseModel

from agents.base import Decision
from agents.fubar.words import lex, premise_places
from agents.game_loop import GameObservation
from engine.vele import actions as A
from engine.vele.economy import POINTS
from engine.vele.struggle import auto_ally_damage, auto_damage

SCENES_PER_ACT = 2
MAX_EXCHANGES = 8


def _d(action: BaseModel, why: str) -> Decision:
    return Decision(action=action, kind="heuristic", rationale=why)


def _comp(view: dict, cid: str) -> dict:
    return next(c for c in view["components"] if c["id"] == cid)


def _healthy(c: dict) -> dict[str, int]:
    return {t["name"]: t["size"] for t in c["traits"] if t["healthy"]}


def _me(view: dict, name: str) -> dict:
    return next(p for p in view["players"] if p["name"] == name)


class VeleSeat:
    kind = "heuristic"
    # agents/game_loop.Interjector: out of turn, a struggle's claim to challenge, a thing of mine to strike back
    interject_on = frozenset({"challenge", "counter_struggle", "connect", "tell_effect"})
    # when those can be offered: a claim waits for its difficulty; a turn, the narrator's call or the next frame
    # follows a struggle lost against a thing; purchases and the first frame are act setup
    interject_when = frozenset({"difficulty", "turn", "narrator", "frame_scene", "build"})

    def __init__(self, name: str, seed: int = 0, seat_index: int = 0, scenes_per_act: int = SCENES_PER_ACT) -> None:
        self.name = name
        self.rng = random.Random(f"vele-{seed}-{seat_index}-{name}")
        self.scenes_per_act = scenes_per_act
        self.rounds = 0
        self.seat_index = seat_index

    def pick(self, xs: list[Any], default: Any = None) -> Any:
        return self.rng.choice(xs) if xs else default

    def decide(self, obs: GameObservation) -> Decision:
        told = self._tell(obs)
        if told is not None:
            return told
        handler = getattr(self, f"_{obs.pending.kind}", None)
        if handler is None:
            return _d(self.fallback(obs), f"nothing planned for {obs.pending.kind}")
        return handler(obs)

    # -- setup ----------------------------------------------------------------------------------------
    def _bid(self, obs: GameObservation) -> Decision:
        me = _me(obs.view, self.name)
        bid = min(6, max(1, self.rng.randint(1, 5)), me["xp"] + 6)
        return _d(A.Bid(player=self.name, bid=bid), f"bid {bid} of the 6 XP: going first matters, the rest buys fate")

    def _build(self, obs: GameObservation) -> Decision:
        group = self._group(obs)
        if group is not None:
            return group
        words = lex(obs.premise)
        traits = list(dict.fromkeys(words["traits"] + words["habits"]))
        self.rng.shuffle(traits)
        role = self.pick(words["roles"], "Wanderer")
        names = [w for w in words["names"]]
        self.rng.shuffle(names)
        pc_name = f"{names[0] if names else self.name}, {role.lower()}"
        sizes = [8, 8, 6, 6, 4, 4]
        pc_traits = [A.TraitIn(name=traits[i % len(traits)] if i < len(traits) else f"Knack {i}", size=sz,
                               focus=(i == 0)) for i, sz in enumerate(sizes)]
        medic = self.seat_index % 2 == 1  # every other seat plays a healer: Heal 6 on a d6 trait (V-40, L669)
        me = _me(obs.view, self.name)
        rate = obs.view["options"].get("xp_purchase_rate", 1)
        # the third seat's PC guards the others: Block 6 on its focus (V-24, L663), a d6 on the sheet to use it;
        # Auto-Block 8 (L664) when it has the XP to pay its 2 more points (V-AMB-1), one XP left for fate
        xp_spent = -(-2 // rate) if rate and me["xp"] >= -(-2 // rate) + 1 else 0
        guard = self.seat_index % 4 == 2
        ability = A.AbilityIn(trait=pc_traits[2].name, effect="heal", size=6) if medic else \
            A.AbilityIn(trait=pc_traits[0].name, effect="auto_block", size=8, dice=[8]) if guard and xp_spent else \
            A.AbilityIn(trait=pc_traits[0].name, effect="block", size=6, dice=[6]) if guard else \
            A.AbilityIn(trait=pc_traits[0].name, effect="power_attack", size=6, dice=[6, 4])
        xp_spent = xp_spent if ability.effect == "auto_block" else 0
        pc = A.ComponentIn(name=pc_name, kind="pc", traits=pc_traits,
                           aspects=[self.pick(words["goals"], "Wants more"), self.pick(words["limits"], "Haunted")],
                           ability=ability)
        hostile = list(words["roles"])
        self.rng.shuffle(hostile)
        villain = f"{names[1] if len(names) > 1 else 'The rival'}, the {hostile[0].lower()}"
        # V-38 (L433, L667): with a map of zones, every other seat's villain strikes everyone in its zone at once
        # (Area 8 on its d8 Ruthless, 3 points), as the threat that faces the whole party; without zones Area does
        # nothing (a mass struggle needs a zone), so it keeps Power Defense 4
        # Selective Area 10 (L668) needs a d10 trait: the first seat's villain has a d10 Ruthless and picks whom it
        # hits, so its own side may share the zone (plain Area would hit them too, V-63); 4 + 4 points instead of
        # 3 + 3, two fewer story dice points, when the bowl still holds the two d10s
        area = obs.view["options"].get("zones") and self.seat_index % 2 == 0
        selective = area and self.seat_index % 4 == 0 and obs.view["bowl"].get("10", 0) >= 2
        main = A.ComponentIn(name=villain, kind="main",
                             traits=[A.TraitIn(name="Ruthless", size=10 if selective else 8),
                                     A.TraitIn(name="Connected", size=6), A.TraitIn(name="Cunning", size=6)],
                             aspects=[self.pick(words["limits"], "Proud")],
                             ability=A.AbilityIn(trait="Ruthless", effect="selective_area", size=10) if selective else
                             A.AbilityIn(trait="Ruthless", effect="area", size=8) if area else
                             A.AbilityIn(trait="Ruthless", effect="power_defense", size=4, dice=[4]))
        places = premise_places(obs.premise) + list(words["places"])
        normals = [A.ComponentIn(name=f"{h}s of {places[i % len(places)]}" if places else f"{h}s", kind="normal",
                                 traits=[A.TraitIn(name="Numbers", size=6), A.TraitIn(name="Menace", size=4)])
                   for i, h in enumerate((hostile * 3)[1:3])]
        # a thing, not a person: terrain that strikes whoever walks over it (V-41, L437) and strikes back at
        # whoever fails against it (the counter-struggle, L441); it costs what a normal component does
        normals.append(A.ComponentIn(name=f"The treacherous ground of {places[2 % len(places)]}" if places
                                     else "The treacherous ground", kind="normal", stationary=True,
                                     traits=[A.TraitIn(name="Treacherous", size=6), A.TraitIn(name="Hidden", size=4)]))
        # PC: 12 for traits, 2 for the ability, 3 allocated = 17; 12 in character dice -> 29 of 30
        # story: 7 + 1 + 1 for the main, 3 x 3 for the normals = 18; 12 in story dice -> 30
        bowl = {int(d): n for d, n in obs.view["bowl"].items()}
        for comp in (pc, main, *normals):
            for size in [t.size for t in comp.traits] + ([comp.ability.size, *comp.ability.dice] if comp.ability else []):
                bowl[size] = bowl.get(size, 0) - 1
        char, story = _fill(bowl, 15 if medic else 12), _fill(bowl, 9 if selective else 11 if area else 12)
        card = f"{pc_name} {self.pick(words['goals'], 'wants more').lower()}" \
            if me.get("pc_spotlights", 0) < obs.view["options"].get("pc_spotlights_per_story", 2) else ""
        return _d(A.Build(player=self.name, pc=pc, story=[main, *normals], character_dice=char, spotlight=card,
                          story_dice=story, xp_spent=xp_spent, objective=self.pick(words["goals"], "Survive").replace("Wants", "The heroes want")),
                  f"a rounded PC (a d4, d6 and d8 trait at least), {ability.effect.replace('_', ' ')} on a trait"
                  + (f" ({xp_spent} XP for its 2 extra points)" if xp_spent else "") + ", the rest in dice; "
                  "one main" + (" (Selective Area 10 on a d10 trait: the map has zones)" if selective else
                                " (Area 8: the map has zones)" if area else "") + " and three normal story "
                  "components, one of them treacherous ground")

    def _group(self, obs: GameObservation) -> Decision | None:
        """V-60, V-61: before my purchase, once an act, a small group of story characters (a leader and two
        minions, 8 of its 50 points) with its spotlight card."""
        v = obs.view
        if not any(o.type == "make_group" for o in obs.options) or any(g["owner"] == self.name for g in v["groups"]):
            return None
        words = lex(obs.premise)
        place = self.pick(premise_places(obs.premise) + list(words["places"]), "the road")
        role = self.pick(words["roles"], "Captain")
        boss = A.ComponentIn(name=f"The {role.lower()} of {place}"[:80], kind="normal",
                             aspects=[self.pick(words["limits"], "Proud")],
                             traits=[A.TraitIn(name="Command", size=8), A.TraitIn(name="Cunning", size=6)])
        hands = [A.ComponentIn(name=f"{n} of {place}"[:80], kind="minion", traits=[A.TraitIn(name=t, size=d)])
                 for n, t, d in (("A lookout", "Sharp eyes", 6), ("A bruiser", "Fists", 4))]
        name = f"The {place.removeprefix('the ').removeprefix('The ')} crew"[:80]
        return _d(A.MakeGroup(player=self.name, name=name, leader=boss, members=hands,
                              spotlight=f"{name} turns on its {role.lower()}"[:300]),
                  "a group for the act (V-60): a leader and two minions on the group's own dice, and its spotlight "
                  "card (V-61)")

    def _connect(self, obs: GameObservation) -> Decision | None:
        """V-AMB-18: at act setup, once every purchase is made, tie my PC to another player's group: an aspect
        and a d4 trait on one of its characters, a d4 story die for each."""
        v = obs.view
        if not any(o.type == "connect" for o in obs.options) or v["phase"] != "frame" or v["bowl"].get("4", 0) < 2:
            return None  # after every purchase (act setup step 4), so the d4s do not leave a purchase short
        g = next((g for g in v["groups"] if g["owner"] != self.name and self.name not in g["connected"]), None)
        pc = next((c for c in v["components"] if c["kind"] == "pc" and c["owner"] == self.name), None)
        if g is None or pc is None:
            return None
        who = pc["name"].split(",")[0]
        room = {"main": (6, 4), "normal": (4, 3), "minion": (1, 0)}  # trait slots, aspects (V-14, V-AMB-3)
        for m in (_comp(v, x) for x in g["members"]):
            slots, aspects = room.get(m["kind"], (0, 0))
            trait = A.TraitIn(name=f"Knows {who}"[:60], size=4) \
                if len(m["traits"]) < slots and g["points_left"] >= 1 and f"Knows {who}" not in _healthy(m) else None
            aspect = f"Owes {who} a debt"[:200] if len(m["aspects"]) < aspects else ""
            if trait is not None or aspect:
                return _d(A.Connect(player=self.name, member=m["id"], trait=trait, aspect=aspect),
                          f"my PC tied to {m['name']} of {g['name']}: a d4 story die for each tie (V-AMB-18)")
        return None

    # -- narrating ------------------------------------------------------------------------------------
    def _frame_scene(self, obs: GameObservation) -> Decision:
        v = obs.view
        in_act = [sc for sc in v["scenes"] if sc["act"] == v["act"]]
        tie = self._connect(obs)
        if tie is not None:
            return tie
        spot = self._spotlight(v)
        if spot is not None:
            return spot
        if len(in_act) >= self.scenes_per_act:
            pcs_now = {c["id"] for c in v["components"] if c["kind"] == "pc"}
            fought = any(r["actor"] in pcs_now or r["opponent"] in pcs_now for r in v["struggles"])
            if v["objective"] and not v["objective_done"] and fought and getattr(self, "bought_off", 0) != v["act"] \
                    and v["act"] < v["acts"] and self.rng.random() < 0.5:
                self.bought_off = v["act"]
                return _d(A.BuyOffObjective(player=self.name, text="the heroes fought for it and fell short"),
                          "the PCs fought for the objective and failed: failing may buy it off, if the table "
                          "approves (V-49)")
            done = bool(v["struggles"]) and self.rng.random() < 0.5
            return _d(A.EndAct(player=self.name, objective_achieved=done and v["act"] == v["acts"],
                               text="the act closes"),
                      f"{len(in_act)} scenes this act: time to end it (V-56)")
        pcs = [c for c in v["components"] if c["kind"] == "pc" and not c["out"] and c["owner"] != self.name]
        mine = [c for c in v["components"] if c["owner"] == self.name and c["kind"] in ("main", "normal") and not c["out"]]
        if not pcs or not mine:
            return _d(A.PassNarration(player=self.name), "no PC or story component left to set a scene with")
        words = lex(obs.premise)
        tenets = [x for x in words.get("tenets", []) if x not in v["guidelines"]]
        if not in_act and tenets and v["act"] > len(v["guidelines"]):
            tenet = self.pick(tenets)
            return _d(A.AddGuideline(player=self.name, text=tenet),
                      "one guideline for the act, from the premise's genre (V-54)")
        place = self.pick(premise_places(obs.premise) + list(words["places"]), "the road")
        foes = [c for c in mine if c["kind"] == "main"][:1] + \
            [c for c in mine if c["kind"] == "normal" and not c.get("stationary") and not c.get("group")][:1] + \
            [c for c in mine if c.get("stationary")][:1] + \
            [c for c in mine if any(g["leader"] == c["id"] for g in v["groups"])][:1]
        present = [c["id"] for c in pcs] + [c["id"] for c in foes]
        exclude = None
        me = _me(v, self.name)
        if len(pcs) > 2 and 4 in me["story_dice"] and self.rng.random() < 0.4:
            exclude = A.ExcludeIn(component=pcs[-1]["id"], die=4)
        text = f"{self.pick(words['times'], 'Night')}. {foes[0]['name']} is here."
        zones = placed = None
        if v["options"].get("zones"):  # V-44: a row of zones, the PCs at one end, my story side at the other
            zones = [f"{place} (near)", f"{place} (middle)", f"{place} (far)"]
            placed = {c["id"]: zones[1 if c.get("stationary") else 2] for c in foes}
            for c in foes:  # V-38: a foe with Area waits among the PCs, with none of mine: its one roll hits them all
                if any(ab["effect"] in ("area", "selective_area") for ab in c["abilities"]):
                    placed[c["id"]] = zones[0]
        return _d(A.FrameScene(player=self.name, place=place, text=text, present=present, exclude=exclude,
                               zones=zones, placed=placed),
                  "the other PCs against my own story components"
                  + (", offering a d4 to keep one PC out" if exclude else "")
                  + (": the PCs at the near end of the map, my side at the far end (V-44)" if zones else ""))

    def _spotlight(self, v: dict) -> Decision | None:
        """V-61: narrating, I claim another player's spotlight card once its PC has won a struggle this act: a
        card in the middle of the table (L737), or one I hold by the older text (L935)."""
        middle = v["options"].get("spotlight_cards", "taken_in_turns") == "middle"
        for card in v["spotlights"]:
            if card["act"] != v["act"] or card["done"] or card["maker"] == self.name or \
                    (not middle and card["holder"] != self.name):
                continue
            pc = next((c for c in v["components"] if c["kind"] == "pc" and c["owner"] == card["maker"]), None)
            won = pc is not None and any(r["actor"] == pc["id"] and r["winner"] == "actor" or
                                         r["opponent"] == pc["id"] and r["winner"] == "opponent" for r in v["struggles"])
            if won:
                return _d(A.ClaimSpotlight(player=self.name, maker=card["maker"], kind=card.get("kind", "pc"),
                                           text=f"{pc['name']} came through"),
                          f"{pc['name']} won a struggle this act: the spotlight card for it is achieved (V-61)")
        return None

    def _counter(self, obs: GameObservation) -> Decision | None:
        """V-41 (L441): my thing (treacherous ground) strikes back, with the table's approval, at the component that
        just failed against it; three times in five, weighed once per failure (in turn or out of turn)."""
        if not any(o.type == "counter_struggle" for o in obs.options):
            return None
        r = obs.view["struggles"][-1]
        if getattr(self, "weighed_counter", None) == r["seq"]:
            return None  # weighed already (the option stays open until the scene's next struggle)
        self.weighed_counter = r["seq"]
        thing, victim = _comp(obs.view, r["opponent"]), _comp(obs.view, r["actor"])
        if self.rng.random() >= 0.6:
            return None
        return _d(A.CounterStruggle(player=self.name, thing=thing["id"],
                                    text=f"{thing['name']} gives way under {victim['name']}"),
                  f"{victim['name']} failed against {thing['name']}, a thing: it may strike back if the table "
                  "approves (V-41)")

    def _narrator(self, obs: GameObservation) -> Decision:
        counter = self._counter(obs)
        if counter is not None:
            return counter
        if self.rounds < 2 and any(o.type == "set_mode" for o in obs.options):
            guard = self._guard(obs.view)
            if guard is not None:
                return guard
        self.rounds += 1
        if self.rounds <= 2:
            return _d(A.NextRound(player=self.name), "another round while the scene has life in it")
        self.rounds = 0
        return _d(A.EndScene(player=self.name, text="the scene fades"), "the scene has run its course")

    def _difficulty(self, obs: GameObservation) -> Decision:
        v = obs.view
        scene = v["scenes"][-1]["number"] if v["scenes"] else 0
        k = v["struggle"]
        if k["actor"]["player"] != self.name and getattr(self, "challenged", 0) != scene and not v["extended"] \
                and self.rng.random() < 0.12:
            self.challenged = scene
            return _d(A.Challenge(player=self.name, reason=f"does '{k['text']}' fit what we know of this place?"),
                      "a challenge put to the table's vote (V-1), once a scene at most: a majority makes them "
                      "try something else, a tie lets them go on")
        if k["actor"]["player"] != self.name and getattr(self, "said_no", 0) != scene and not v["extended"] \
                and self.rng.random() < 0.1:
            self.said_no = scene
            return _d(A.NarratorNo(player=self.name, reason="that cannot happen here"),
                      "the narrator's 'no' (V-3), once a scene at most: the player tries something else")
        n = self.pick([0, 0, 1, 1, 2])
        return _d(A.StateDifficulty(player=self.name, value=n, reason="the ground is against them" if n else ""),
                  f"difficulty {n}: the book's scale runs -1 difficult to -5 the most (V-27)")

    def _tell(self, obs: GameObservation) -> Decision | None:
        """V-31 (L690): the other side of a hidden roll "tells you the effect so that you don't know whether you
        failed": as its opponent's player I saw the roll, so I say in the story how it went, in words, no number."""
        if not any(o.type == "tell_effect" for o in obs.options):
            return None
        v = obs.view
        r = v["struggles"][-1]
        actor, mine = _comp(v, r["actor"])["name"], _comp(v, r["opponent"])["name"]
        who = actor.split(",")[0]
        if r["winner"] == "actor":
            how = "sure-footed" if isinstance(r["effect"], int) and r["effect"] >= 3 else "barely"
            text = f"{who} finds a way across {mine}, {how}; the ground holds, this time" if r["goal"] == "maneuver" \
                else f"{who} gets the better of {mine}"
        else:
            text = f"{mine} shifts and groans under {who}; whether it will hold, nobody can say" \
                if r["goal"] == "maneuver" else f"{mine} gives {who} nothing to go on"
        return _d(A.TellEffect(player=self.name, text=text[:300]),
                  "I alone saw the hidden roll: I tell its effect in the story, without the number (V-31, L690)")

    def interject(self, obs: GameObservation) -> Decision | None:
        """V-31: out of turn, as a hidden roll's opponent I tell its effect in the story (see _tell).
        V-41: out of turn, my thing may strike back at one that just failed against it (see _counter).
        V-AMB-18: at act setup, my PC is tied to another's group (see _connect).
        V-1 (L163, L165): out of turn, while the narrator weighs a struggle's claim, challenge it when it breaks
        an established fact (it names a component already out of the story) or is plainly unfair (the narrator's
        side piles onto my component while it is wounded, or after beating it this scene), three times in ten.
        Once a scene at most, and each claim is weighed once, so a table waiting on a person is not asked again
        and again."""
        v = obs.view
        k = v.get("struggle")
        if any(o.type == "tell_effect" for o in obs.options):
            return self._tell(obs)
        if any(o.type == "counter_struggle" for o in obs.options):
            return self._counter(obs)
        if any(o.type == "connect" for o in obs.options):
            return self._connect(obs)
        if k is None or getattr(self, "weighed", None) == v["actions"] or \
                not any(o.type == "challenge" for o in obs.options):
            return None
        self.weighed = v["actions"]
        scene = v["scenes"][-1]["number"] if v["scenes"] else 0
        if getattr(self, "challenged", 0) == scene or k["actor"]["player"] == self.name:
            return None
        named_out = [c["name"] for c in v["components"] if c["out"] and c["name"] and c["name"] in (k["text"] or "")]
        if named_out and self.rng.random() < 0.8:
            self.challenged = scene
            return _d(A.Challenge(player=self.name, reason=f"{named_out[0]} is already out of the story"),
                      f"the claim names {named_out[0]}, taken out already: it breaks an established fact (V-1, L163)")
        target = _comp(v, k["opponent"]["component"])
        if (target["controller"] or target["owner"]) != self.name or k["actor"]["player"] != v["narrator"]:
            return None
        wounded = any(not t["healthy"] for t in target["traits"])
        lost = any(r["scene"] == scene and (r["opponent"] == target["id"] and r["winner"] == "actor" or
                                            r["actor"] == target["id"] and r["winner"] == "opponent")
                   for r in v["struggles"])
        if (wounded or lost) and self.rng.random() < 0.3:
            self.challenged = scene
            return _d(A.Challenge(player=self.name, reason=f"{target['name']} is down already; "
                                                           "striking it again is piling on"),
                      f"the narrator's side strikes {target['name']} again while it is down: plainly unfair, so "
                      "I put it to the table (V-1); a majority makes them do something else")
        return None

    def _vote(self, obs: GameObservation) -> Decision:
        """V-1, V-2: back a challenge against a struggle aimed at my own component, or one in three at
        random; approve an aspect hit unless the claimant's component is fresh (no trait lost, no fight lost)."""
        v = obs.view
        vote = v["vote"]
        if vote["claim"].get("what") == "justify":
            rev = v.get("revising") or {}
            mine = rev.get("target") and _comp(v, rev["target"])["owner"] == self.name
            oppose = self.rng.random() < (0.5 if mine else 0.2)
            return _d(A.CastVote(player=self.name, oppose=oppose),
                      "I still oppose: the revised claim does not fix it" if oppose
                      else "the revised claim fits what we know: I let it stand (V-4)")
        if vote["kind"] == "challenge":
            k = v["struggle"]
            target = _comp(v, k["opponent"]["component"]) if k else None
            if target is not None and target["owner"] == self.name:
                return _d(A.CastVote(player=self.name, oppose=True, reason="it is my component they act against"),
                          "I back the challenge: the struggle targets my own component")
            oppose = self.rng.random() < 0.33
            return _d(A.CastVote(player=self.name, oppose=oppose),
                      "I back the challenge: the claim stretches the fiction" if oppose
                      else "I let the claim stand: it fits the scene")
        if vote["claim"].get("what") == "spotlight":
            return _d(A.CastVote(player=self.name, oppose=False),
                      "I approve: their PC won through this act, as the card asked")
        if vote["claim"].get("what") == "counter":
            victim = _comp(v, vote["claim"]["victim"])
            if victim["owner"] == self.name:
                return _d(A.CastVote(player=self.name, oppose=True, reason="my component already paid for failing"),
                          "I oppose the counter-struggle against my own component")
            return _d(A.CastVote(player=self.name, oppose=False),
                      "I approve: failing against the ground should cost something (V-41)")
        if vote["claim"].get("what") == "objective":
            oppose = self.rng.random() < 0.25
            return _d(A.CastVote(player=self.name, oppose=oppose),
                      "I oppose: the objective can still be won in a later act" if oppose
                      else "I approve: they fought for it, and failing is character development too (V-49)")
        comp = _comp(v, vote["claim"]["component"])
        hurt = any(not t["healthy"] for t in comp["traits"]) or any(
            r["opponent"] == comp["id"] and r["winner"] == "actor" or r["actor"] == comp["id"] and r["winner"] == "opponent"
            for r in v["struggles"])
        oppose = not hurt and self.rng.random() < 0.5
        return _d(A.CastVote(player=self.name, oppose=oppose),
                  "I oppose: nothing in play has pressed on that aspect yet" if oppose
                  else "I approve: the aspect has plainly cost them something")

    def _answer_exclusion(self, obs: GameObservation) -> Decision:
        me = _me(obs.view, self.name)
        best = max(me["character_dice"], default=None)
        if best is None or best < 6:
            return _d(A.AnswerExclusion(player=self.name, accept=True), "no die worth rolling: take the offered die")
        return _d(A.AnswerExclusion(player=self.name, accept=False, die=best), f"a d{best} against the narrator's die")

    # -- playing --------------------------------------------------------------------------------------
    def _turn(self, obs: GameObservation) -> Decision:
        v = obs.view
        scene = v["scenes"][-1]
        present = [_comp(v, cid) for cid in scene["present"]]
        mine = [c for c in present if (c["controller"] or c["owner"]) == self.name and not c["out"]]
        foes = [c for c in present if (c["controller"] or c["owner"]) != self.name and not c["out"]]
        strong = [c for c in mine if not c.get("stationary") and sum(POINTS[d] for d in _healthy(c).values()) > 3]
        if not strong and foes and self.name == v["narrator"] and getattr(self, "temp_scene", 0) != scene["number"]:
            bowl = {int(d): n for d, n in v["bowl"].items()}
            sizes = [d for d in (8, 6) if bowl.get(d, 0) > 0]
            if sizes:
                self.temp_scene = scene["number"]
                traits = [A.TraitIn(name=n, size=d) for n, d in zip(("Crushing", "Everywhere"), sizes)]
                return _d(A.MakeTemporary(player=self.name, name="A sudden rockslide", traits=traits,
                                          text="the slope gives way"),
                          "my story components here are out or worn down: a temporary component from bowl dice "
                          "keeps the scene dangerous (V-22); it wagers bowl dice only")
        if not mine or not foes:
            return _d(A.PassTurn(player=self.name), "nothing of mine to act with, or nobody to act against")
        me = _me(v, self.name)
        pool = me["character_dice"]
        pc8 = any(c["kind"] == "pc" and 8 in _healthy(c).values() for c in mine)
        if 4 in pool and 6 in pool and 8 not in pool and pc8 and v["bowl"].get("8", 0) > 0:
            return _d(A.Recombine(player=self.name, pool="character", give=[4, 6], take=[8]),
                      "a d4 and a d6 become a d8 at equal points (V-11): the die my d8 trait wants and I lack")
        counter = self._counter(obs)
        if counter is not None:
            return counter
        rev = v.get("revising")
        if rev and any(o.type == "justify" for o in obs.options) and getattr(self, "justified", 0) != scene["number"] \
                and self.rng.random() < 0.6:
            self.justified = scene["number"]
            text = f"{rev['text'] or 'I act'}, the way this scene has set it up"
            return _d(A.Justify(player=self.name, text=text[:1000]),
                      "the table turned my claim down: I tell it again, closer to what is established (V-4)")
        mass = self._mass(scene, [c for c in mine if c["id"] not in v["forfeit"]], present)
        if mass is not None:
            return mass
        lock = self._attach(scene, mine)
        if lock is not None:
            return lock
        mend = self._heal(v, scene, mine)
        if mend is not None:
            return mend
        claim = self._claim(v, scene, mine)
        if claim is not None:
            return claim
        made = self._make(v, scene, mine)
        if made is not None:
            return made
        free = [c for c in mine if c["id"] not in v["forfeit"] and not (c.get("one_shot") and c.get("used"))]
        if not free:
            return _d(A.PassTurn(player=self.name), "my components allied earlier and sit this struggle out (V-43)")
        shot = next((c for c in free if c.get("one_shot") and _healthy(c)), None)
        if shot is not None and self.name != v["narrator"]:
            target = next((c for c in foes if c["kind"] == "main"), foes[0])
            return _d(A.StartStruggle(player=self.name, actor=shot["id"], target=target["id"], goal="attack",
                                      target_trait=_aim(present, target),
                                      text=f"{shot['name']} goes off in {target['name']}'s face"),
                      f"{shot['name']} works once (V-21): now, against {target['name']}")
        me_c = max(free, key=lambda c: sum(POINTS[s] for s in _healthy(c).values()))
        step = self._step(scene, me_c, [c for c in foes if (c["kind"] == "pc") == (self.name == v["narrator"])])
        if step is not None:
            return step
        if self.name == v["narrator"]:
            foes = [c for c in foes if c["kind"] == "pc"] or foes
            block = self._block(v, free, foes)
            if block is not None:
                return block
            target = min(foes, key=lambda c: sum(POINTS[s] for s in _healthy(c).values()))
            past = self._overcome(v, me_c, target)  # a PC's block (Block 6 or Auto-Block 8) stands in the way
            if past is not None:
                return past
            return _d(A.StartStruggle(player=self.name, actor=me_c["id"], target=target["id"], goal="attack",
                                      target_trait=_aim(present, target),
                                      text=f"{me_c['name']} strikes at {target['name']}"),
                      "the story side presses the weakest PC")
        target = next((c for c in foes if c["kind"] == "main"), foes[0])
        fights = [r for r in v["struggles"] if r["scene"] == scene["number"]]
        past = self._overcome(v, me_c, target)
        if past is not None:
            return past
        ground = [c for c in foes if c.get("stationary") and _healthy(c)
                  and not any(r["opponent"] == c["id"] for r in fights)]
        if ground and me_c["kind"] == "pc" and self.rng.random() < 0.35:
            hidden = self.rng.random() < 0.5
            return _d(A.StartStruggle(player=self.name, actor=me_c["id"], target=ground[0]["id"], goal="maneuver",
                                      hidden=hidden, text=f"{me_c['name']} picks a way across {ground[0]['name']}"),
                      "a maneuver against the ground itself: the high ground for the fight to come (V-47), at the "
                      "risk of its striking back if I fail (V-41)" + ("; a hidden roll, as I cannot tell whether "
                                                                      "the ground gave (V-31)" if hidden else ""))
        if not fights and len([c for c in present if c["kind"] == "pc"]) > 1:
            race = self.rng.random() < 0.5
            return _d(A.StartStruggle(player=self.name, actor=me_c["id"], target=target["id"], goal="maneuver",
                                      head_to_head=race, text=(f"{me_c['name']} gets there before {target['name']}"
                                                               if race else f"{target['name']} is off balance")),
                      ("a head-to-head race" if race else "a maneuver") + " first: an aspect for the fight to come (V-47)")
        healthy = _healthy(target)
        weak = _aim(present, target) or \
            (min(healthy, key=lambda t: healthy[t]) if healthy and self.rng.random() < 0.3 else None)
        return _d(A.StartStruggle(player=self.name, actor=me_c["id"], target=target["id"], goal="attack",
                                  target_trait=weak, extended=True, text=f"{me_c['name']} takes on {target['name']}"),
                  "an extended fight against the main story component" + (f", aimed at its {weak}" if weak else ""))

    def _overcome(self, v: dict, me_c: dict, target: dict) -> Decision | None:
        """V-39: a block standing on my component against this target (or anything) is overcome first."""
        stop = next((b for b in v.get("blocks", []) if b["target"] == me_c["id"]
                     and b["prevents"] in ("", target["id"])), None)
        if stop is None:
            return None
        blocker = _comp(v, stop["blocker"])
        return _d(A.StartStruggle(player=self.name, actor=me_c["id"], target=blocker["id"], goal="overcome",
                                  text=f"{me_c['name']} forces a way past {blocker['name']}"),
                  f"{blocker['name']} blocks me: I must beat its {stop['value']} first (V-39)")

    def _mass(self, scene: dict, free: list[dict], present: list[dict]) -> Decision | None:
        """V-38: a component of mine with Area, in a zone with two or more others and none of mine, hits them all
        at once (Selective Area picks the others' components there). No die is drawn unless one has Area."""
        for c in free:
            hit = self._area_targets(scene, c, present)
            if hit is not None:
                selective, theirs = hit
                return _d(A.StartMassStruggle(player=self.name, actor=c["id"],
                                              targets=[x["id"] for x in theirs] if selective else [],
                                              text=f"{c['name']} lets loose on everyone around it"),
                          f"{c['name']}'s Area hits all {len(theirs)} of them in its zone with one wager and one "
                          "roll (V-38)")
        return None

    def _area_targets(self, scene: dict, c: dict, present: list[dict]) -> tuple[bool, list[dict]] | None:
        """V-38 (L433, L667-668): (Selective Area?, the others' components it would hit) when `c` has a healthy Area
        trait and two or more of the others' components share its zone, none of mine (Area hits them all;
        Selective Area picks the others'); else None."""
        area = next((ab for ab in c["abilities"] if ab["effect"] in ("area", "selective_area")), None)
        if area is None or not scene.get("zones") or area["trait"] not in _healthy(c):
            return None
        here = [x for x in present if x["id"] != c["id"] and not x["out"]
                and scene["where"].get(x["id"]) == scene["where"].get(c["id"])
                and not (x.get("unit") and x.get("attached"))]
        theirs = [x for x in here if (x["controller"] or x["owner"]) != self.name]
        selective = area["effect"] == "selective_area"
        if len(theirs) >= 2 and (selective or len(theirs) == len(here)):
            return selective, theirs
        return None

    def _step(self, scene: dict, me_c: dict, foes: list[dict]) -> Decision | None:
        """V-44: with a map, my component closes in: one free zone toward the nearest foe before it struggles,
        when no foe stands in its zone (`foes`: the PCs when I narrate, the story side's components otherwise)."""
        zones = scene.get("zones")
        if not zones or me_c.get("stationary") or scene["moved"].get(me_c["id"]) or not foes \
                or me_c.get("unit"):  # V-45 (L683; L421, L423): attached or integrated, it goes where its unit goes
            return None
        where = scene["where"]
        here = zones.index(where[me_c["id"]])
        gaps = [zones.index(where[c["id"]]) - here for c in foes if c["id"] in where]
        if not gaps or 0 in gaps:
            return None
        gap = min(gaps, key=abs)
        to = zones[here + (1 if gap > 0 else -1)]
        return _d(A.Move(player=self.name, component=me_c["id"], to=to, text=f"{me_c['name']} closes in"),
                  f"no foe in {zones[here]}: one zone toward the nearest, free before the struggle (V-44)")

    def _make(self, v: dict, scene: dict, mine: list[dict]) -> Decision | None:
        """V-62, V-21: once an act, now and then, a player whose PC is in the scene makes the thing it needs: a
        one-shot (flash powder, a d8 trait paid with a d8 of my story dice, V-15)."""
        pc = next((c for c in mine if c["kind"] == "pc"), None)
        if self.name == v["narrator"] or pc is None or getattr(self, "made_act", 0) == v["act"]:
            return None
        if 8 not in _me(v, self.name)["story_dice"] or self.rng.random() >= 0.25:
            return None
        self.made_act = v["act"]
        name = f"{pc['name'].split(',')[0]}'s flash powder"
        return _d(A.MakeComponent(player=self.name, paid=[8], component=A.ComponentIn(
            name=name[:80], kind="normal", one_shot=True, traits=[A.TraitIn(name="Blinding flash", size=8)])),
                  "the thing I need, once this act (V-62): a one-shot that works once (V-21), for a d8 of my "
                  "story dice")

    def _block(self, v: dict, free: list[dict], pcs: list[dict]) -> Decision | None:
        """V-39: narrating, now and then a lesser story component of mine bars the strongest PC from my main one
        until my next turn, instead of an attack."""
        main = next((c for c in free if c["kind"] == "main"), None)
        guard = next((c for c in free if c["kind"] == "normal" and not c.get("stationary") and _healthy(c)), None)
        pcs = [c for c in pcs if c["kind"] == "pc" and not any(b["target"] == c["id"] for b in v.get("blocks", []))]
        if main is None or guard is None or not pcs or self.rng.random() >= 0.2:
            return None
        pc = max(pcs, key=lambda c: sum(POINTS[s] for s in _healthy(c).values()))
        return _d(A.StartStruggle(player=self.name, actor=guard["id"], target=pc["id"], goal="block",
                                  prevents=main["id"],
                                  text=f"{guard['name']} bars {pc['name']}'s way to {main['name']}"),
                  f"a block (V-39): {pc['name']} must beat {guard['name']}'s result before reaching {main['name']}")

    def _guard(self, v: dict) -> Decision | None:
        """V-45: narrating, between rounds, now and then (once a scene) a lesser story component of mine closes
        ranks around my main one (integrated, aiding it): attacks on the main one must then target a trait."""
        scene = v["scenes"][-1]
        here = [_comp(v, x) for x in scene["present"]]
        mine = [c for c in here if c["owner"] == self.name and not c["out"] and c["id"] not in v["forfeit"]]
        main = next((c for c in mine if c["kind"] == "main"), None)
        where = scene.get("where") or {}  # V-45 (L421): a close bodyguard, at its subject's side (same zone)
        guard = next((c for c in mine if c["kind"] == "normal" and not c.get("stationary") and not c.get("unit")
                      and _healthy(c) and main is not None and where.get(c["id"]) == where.get(main["id"])), None)
        if main is None or guard is None or getattr(self, "guarded", 0) == scene["number"] or \
                self.rng.random() >= 0.3:
            return None
        self.guarded = scene["number"]
        return _d(A.SetMode(player=self.name, component=guard["id"], unit=main["id"],
                            text=f"{guard['name']} closes ranks around {main['name']}"),
                  f"{guard['name']} aids {main['name']} (V-45): attacks on it must now aim at a trait")

    def _attach(self, scene: dict, mine: list[dict]) -> Decision | None:
        """V-45 (L683, L685): once a scene, a component of mine integrated with (aiding) another of mine here but not
        attached to it is attached on my turn (it takes the turn): attached, they function as one component, so
        the one it guards fights with its traits too."""
        if getattr(self, "attached_scene", 0) == scene["number"]:
            return None
        ids = {c["id"] for c in mine}
        where = scene.get("where") or {}  # V-45 (L425): it attaches to one beside it, in the same zone
        guard = next((c for c in mine if c.get("unit") in ids and not c.get("attached") and _healthy(c)
                      and where.get(c["id"]) == where.get(c["unit"])), None)
        if guard is None:
            return None
        self.attached_scene = scene["number"]
        head = next(c for c in mine if c["id"] == guard["unit"])
        return _d(A.SetMode(player=self.name, component=guard["id"], unit=head["id"], attach=True,
                            text=f"{guard['name']} locks in at {head['name']}'s side"),
                  f"{guard['name']} attaches to {head['name']} (V-45): it takes my turn, and from now on they fight as "
                  "one, pooling their traits")

    def _heal(self, v: dict, scene: dict, mine: list[dict]) -> Decision | None:
        """V-40: my healer mends a wounded PC in the scene (smallest traits first), paying from my dice."""
        healer = next((c for c in mine if c["id"] not in v["forfeit"] and any(
            a["effect"] == "heal" and a["trait"] in _healthy(c) for a in c["abilities"])), None)
        if healer is None:
            return None
        ab = next(a for a in healer["abilities"] if a["effect"] == "heal" and a["trait"] in _healthy(healer))
        pool = _me(v, self.name)["character_dice" if healer["kind"] == "pc" else "story_dice"]
        for cid in scene["present"]:
            x = _comp(v, cid)
            wounded = [t for t in x["traits"] if t["damage"]]
            if x["kind"] != healer["kind"] or not wounded or cid in v["healed"]:
                continue
            for count in range(min(POINTS[ab["size"]], len(wounded)), 0, -1):
                paid = _pay(pool, count)
                if paid:
                    return _d(A.Heal(player=self.name, healer=healer["id"], trait=ab["trait"], patient=cid,
                                     count=count, paid=paid),
                              f"{healer['name']} tends {x['name']}: {count} trait(s), smallest first, for {count} dice points")
        return None

    def _claim(self, v: dict, scene: dict, mine: list[dict]) -> Decision | None:
        """Once a scene, when my PC has lost a struggle this act (its id is the act's), claim that one of its
        aspects was hit (V-48): with danger if a trait is gone. The table votes (V-2)."""
        if getattr(self, "claimed", None) == (v["act"], scene["number"]):
            return None
        pc = next((c for c in mine if c["kind"] == "pc" and c["aspects"]), None)
        if pc is None:
            return None
        lost = [r for r in v["struggles"] if (r["opponent"] == pc["id"] and r["winner"] == "actor" or r["actor"] == pc["id"] and r["winner"] == "opponent")]
        if not lost:
            return None
        self.claimed = (v["act"], scene["number"])
        danger = any(not t["healthy"] for t in pc["traits"])
        aspect = pc["aspects"][-1]
        return _d(A.ClaimAspect(player=self.name, component=pc["id"], aspect=aspect, danger=danger,
                                text=f"{pc['name']} lost ground because of it"),
                  f"'{aspect}' cost {pc['name']} a struggle this scene: a hit" + (" with danger" if danger else ""))

    def _wager(self, obs: GameObservation) -> Decision:
        low = self._d4_alone(obs.view)
        if low is not None:
            return _d(low, f"V-19 (L627): a d4 trait used by itself, with no borrowed d6, earns 1 XP win or lose; "
                           f"{_comp(obs.view, obs.view['struggle']['actor']['component'])['name']}'s dice outclass "
                           "every trait I have and a lost maneuver costs an aspect, not a trait: I would lose anyway, "
                           "so I risk only a bowl d4 and take the XP")
        w = self._stake(obs, cautious=False)
        pooled = [x for x in w.stakes if x.member]
        return _d(w, "my two best traits, own dice on the best, a bowl die on the next"
                  + (f"; my unit's {_comp(obs.view, pooled[0].member)['name']} adds its {pooled[0].trait} (V-45)"
                     if pooled else ""))

    def _d4_alone(self, v: dict) -> A.Wager | None:
        """V-19 (L627): "if you have a d4 trait that applies to a struggle, you may take 1 XP if you use it by
        itself". Sound only where losing is cheap and likely: defending a maneuver (the loser gets an aspect on it,
        no trait is hurt, V-47) against a pushed die bigger than any trait I have. Not head-to-head (their dice
        are hidden), not a mass struggle; a bowl d4, so no die of mine is at stake (an own d4 if the bowl has
        none and the roll is not hidden)."""
        k = v["struggle"]
        if k["stage"] != "wager_opponent" or k["goal"] != "maneuver" or k.get("head_to_head") or k.get("mass"):
            return None
        theirs = k["actor"]
        c = _comp(v, k["opponent"]["component"])
        healthy = _healthy(c)
        d4 = sorted(t for t, n in healthy.items() if n == 4)
        if not d4 or c["id"] in v["forfeit"] or isinstance(theirs["stakes"], str):
            return None
        best = max([x["die"] for x in theirs["stakes"]] + list(theirs["power"]) + ([6] if theirs["average"] else []),
                   default=0)
        if best <= max(healthy.values()):
            return None
        pool = _me(v, self.name)["character_dice" if c["kind"] == "pc" else "story_dice"]
        if v["bowl"].get("4", 0) > 0:
            return A.Wager(player=self.name, stakes=[A.StakeIn(trait=d4[0], die=4, source="bowl")])
        if 4 in pool and not c.get("temporary") and not k.get("hidden"):
            return A.Wager(player=self.name, stakes=[A.StakeIn(trait=d4[0], die=4, source="own")])
        return None

    def _stake(self, obs: GameObservation, cautious: bool) -> A.Wager:
        v = obs.view
        k = v["struggle"]
        side = k["actor"] if k["stage"] == "wager_actor" else k["opponent"]
        c = _comp(v, side["component"])
        if c["id"] in v["forfeit"]:
            return A.Wager(player=self.name, stakes=[])  # V-43: it allied earlier and does nothing now
        me = _me(v, self.name)
        pool = list(me["character_dice"] if c["kind"] == "pc" else me["story_dice"])
        healthy = _healthy(c)
        names = sorted(healthy, key=lambda t: -healthy[t])
        big = [t for t in names if healthy[t] > 4]
        names = (big or names)[:1 if cautious else 2]
        mass = k.get("mass") and k["stage"] == "wager_actor"
        area = next((ab["trait"] for ab in c["abilities"] if ab["effect"] in ("area", "selective_area")), None)
        if mass and area in healthy:  # V-38: the mass struggle comes from the Area trait: it is pushed first
            names = [area, *[t for t in names if t != area]][:1 if cautious else 2]
        bowl = {int(d): n for d, n in v["bowl"].items()}
        stakes = []
        for i, t in enumerate(names):
            size = healthy[t]
            own = [] if c.get("temporary") or k.get("hidden") else [d for d in pool if d <= size]  # V-22, V-31
            if own and (i == 0 or cautious):
                d = max(own)
                pool.remove(d)
                stakes.append(A.StakeIn(trait=t, die=d, source="own"))
            else:
                fit = [d for d in bowl if d <= size and bowl[d] > 0]
                if fit:
                    d = max(fit)
                    bowl[d] -= 1
                    stakes.append(A.StakeIn(trait=t, die=d, source="bowl"))
        effect = "power_attack" if k["stage"] == "wager_actor" or k.get("head_to_head") else "power_defense"
        power = []
        used = {s.trait for s in stakes}
        for ab in c["abilities"]:
            if ab["effect"] == effect and ab["trait"] in used:
                fit = [d for d in c["allocated"] if d <= ab["size"]]
                n = 1 + len(k["others"]) if mass else 1  # V-EX-18: power for every target, or none
                if len(fit) >= n:
                    power += sorted(fit, reverse=True)[:n]
                    break
        if stakes:  # V-45 (L683): an attached member adds its best trait (in a mass struggle too, L433)
            stakes += self._pooled(v, k, c, [healthy[x.trait] for x in stakes], pool, bowl)
        best = max((s.die for s in stakes), default=0)
        if k.get("hidden"):  # V-31: nothing is wagered on a hidden roll: bowl dice only, no power, no allies
            return A.Wager(player=self.name, stakes=stakes)
        allies = [] if cautious or k.get("mass") else self._allies(v, k, c)  # V-38: no allies in a mass struggle
        allies = [x for x in allies if x not in {s.member for s in stakes}]  # a pooling member is not an ally too
        return A.Wager(player=self.name, stakes=stakes, power=power, average=best < 6 and bowl.get(6, 0) > 0,
                       allies=allies, block=self._block_ability(k, c, used, power))

    @staticmethod
    def _block_ability(k: dict, c: dict, used: set[str], power: list[int]) -> str | None:
        """V-24 (L663-664): acting, use Block 6 / Auto-Block 8 on a trait pushed when its die is on the sheet: on
        success (Auto-Block: always) the target must beat my result before acting against what I name."""
        if k["stage"] != "wager_actor" or k["goal"] in ("block", "overcome") or k.get("mass") or k.get("head_to_head"):
            return None
        left = list(c["allocated"])
        for d in power:
            left.remove(d)
        sizes = {"block": 6, "auto_block": 8}
        return next((ab["effect"] for ab in c["abilities"] if ab["effect"] in sizes and ab["trait"] in used
                     and sizes[ab["effect"]] in left), None)

    def _pooled(self, v: dict, k: dict, c: dict, sizes: list[int], pool: list[int], bowl: dict[int, int]) -> list[A.StakeIn]:
        """V-45 (L683): when my component fights attached to others, one of them I play (present, free, not a
        one-shot) pushes a die on its best trait: a bowl die when one fits (losing it costs nothing), else one from
        the pool it draws on. The d4 rule holds across the unit (V-19): d4s with d4s, bigger traits otherwise."""
        here = v["scenes"][-1]["present"] if v["scenes"] else []
        head = c.get("unit") or c["id"]
        busy = {k["actor"]["component"], k["opponent"]["component"]}
        if c.get("unit") and not c.get("attached"):  # an unattached member only allies (L686)
            return []
        for x in v["components"]:
            if x["id"] in busy or x["id"] not in here or x["out"] \
                    or not (x["id"] == head or (x.get("unit") == head and x.get("attached"))) \
                    or (x.get("controller") or x["owner"]) != self.name or x["id"] in v["forfeit"] \
                    or x["id"] in v["allying"] or x.get("one_shot"):
                continue
            fit = {t: n for t, n in _healthy(x).items() if (n == 4) == (4 in sizes)}
            if not fit:
                continue
            trait = max(fit, key=lambda t: (fit[t], t))
            size = fit[trait]
            free = [d for d in bowl if d <= size and bowl[d] > 0]
            if free:
                bowl[max(free)] -= 1
                return [A.StakeIn(trait=trait, die=max(free), source="bowl", member=x["id"])]
            if k.get("hidden") or x.get("temporary"):  # V-31, V-22: bowl dice only
                return []
            me = _me(v, self.name)
            same = (x["kind"] == "pc") == (c["kind"] == "pc")
            mine = pool if same else list(me["character_dice"] if x["kind"] == "pc" else me["story_dice"])
            own = [d for d in mine if d <= size]
            if own:
                mine.remove(max(own))
                return [A.StakeIn(trait=trait, die=max(own), source="own", member=x["id"])]
            return []
        return []

    def _allies(self, v: dict, k: dict, c: dict) -> list[str]:
        """V-43: now and then call one friend present and free: another PC for a PC, another of my story
        components for a story component."""
        if self.rng.random() >= 0.3:
            return []
        scene = v["scenes"][-1]
        busy = {k["actor"]["component"], k["opponent"]["component"]}
        if v["extended"]:
            busy |= {v["extended"]["a"], v["extended"]["b"]}
        friends = [x for x in (_comp(v, cid) for cid in scene["present"])
                   if x["id"] not in busy and not x["out"] and x["id"] not in v["forfeit"]
                   and x["id"] not in v["allying"] and _healthy(x)
                   and ((x["kind"] == "pc") == (c["kind"] == "pc")) and (c["kind"] == "pc" or x["owner"] == c["owner"])]
        return [friends[0]["id"]] if friends else []

    def _join_ally(self, obs: GameObservation) -> Decision:
        """Join a friend's side with my best trait (own die if one fits, else a bowl die); decline when the
        ally would be refused (already allying another, or owing its next struggle)."""
        v = obs.view
        k = v["struggle"]
        side = k["actor"] if k["actor"]["called"] else k["opponent"]
        cid = side["called"][0]
        c = _comp(v, cid)
        helped = side["component"]
        if cid in v["forfeit"] or v["allying"].get(cid, helped) != helped or \
                (side is k["opponent"] and v["allying"].get(helped) == cid):
            return _d(A.JoinAlly(player=self.name, component=cid, decline=True),
                      f"{c['name']} is already occupied as an ally this round (V-43)")
        healthy = _healthy(c)
        if not healthy:
            return _d(A.JoinAlly(player=self.name, component=cid, decline=True), f"{c['name']} has nothing left to give")
        trait = max(healthy, key=lambda t: healthy[t])
        me = _me(v, self.name)
        pool = me["character_dice"] if c["kind"] == "pc" else me["story_dice"]
        own = [] if c.get("temporary") else [d for d in pool if d <= healthy[trait]]  # V-22: bowl dice only
        bowl = [int(d) for d, n in v["bowl"].items() if n > 0 and int(d) <= healthy[trait]]
        if own:
            stake = A.StakeIn(trait=trait, die=max(own), source="own")
        elif bowl:
            stake = A.StakeIn(trait=trait, die=max(bowl), source="bowl")
        else:
            return _d(A.JoinAlly(player=self.name, component=cid, decline=True), "no die fits my trait")
        return _d(A.JoinAlly(player=self.name, component=cid, stakes=[stake]),
                  f"{c['name']} stands with a friend, its {trait} behind them; it will sit out its next struggle")

    def _fate(self, obs: GameObservation) -> Decision:
        """Spend fate only where it turns the roll: a free tag first, else 1 XP on my own aspect."""
        v = obs.view
        k = v["struggle"]
        mine, theirs = (k["actor"], k["opponent"]) if k["actor"]["player"] == self.name else (k["opponent"], k["actor"])
        if mine is not k["actor"] and k.get("others"):  # V-38: in a mass struggle, my first defending component
            mine = next((x for x in (k["opponent"], *k["others"]) if x["player"] == self.name), mine)
        res = lambda side: (max(side["faces"]) if side["faces"] else 0) - side["difficulty"] + side["bonus"]  # noqa: E731
        gap = res(theirs) - res(mine)
        i_am_actor = mine is k["actor"]
        need = gap + (0 if i_am_actor and mine["power"] and not theirs["power"] else 1) if i_am_actor else gap
        me = _me(v, self.name)
        comp = _comp(v, mine["component"])
        if need <= 0 or need > 2:
            return _d(A.SpendFate(player=self.name, skip=True), "fate would not change this roll")
        tag = next((a for a in v["aspects"] if a["free_tags"] > 0), None)
        if tag is not None:
            return _d(A.SpendFate(player=self.name, aspect=tag["text"]), f"a free tag on '{tag['text']}' turns the roll")
        scene_no = v["scenes"][-1]["number"] if v["scenes"] else 0
        if me["xp"] >= 1 and me.get("fate_scene") != scene_no and (comp["aspects"] or need == 1):
            aspect = comp["aspects"][0] if comp["aspects"] else ""
            return _d(A.SpendFate(player=self.name, aspect=aspect),
                      f"1 XP of fate{' on ' + repr(aspect) if aspect else ''} turns a {gap}-point gap")
        return _d(A.SpendFate(player=self.name, skip=True), "no XP or fate left this scene")

    def _take_damage(self, obs: GameObservation) -> Decision:
        k = obs.view["struggle"]
        c = _comp(obs.view, k["opponent"]["component"])
        allies = k["opponent"]["allies"] if k["goal"] == "attack" else []
        if allies:
            contributed = [(x, sum(1 for st in k["opponent"]["stakes"] if st["component"] == x),
                            _healthy(_comp(obs.view, x))) for x in allies]
            mine, theirs = auto_ally_damage(k_effect(obs.view), _healthy(c), k["target_trait"], contributed)
            return _d(A.TakeDamage(player=self.name, traits=mine, allies=theirs),
                      "the ally rounds first (one trait per trait each ally gave, V-35), smallest traits first")
        chosen = auto_damage(k_effect(obs.view), _healthy(c), k["target_trait"])
        shield = self._shield(obs.view, k, c, chosen)
        if shield is not None:
            return shield
        return _d(A.TakeDamage(player=self.name, traits=chosen), "the attacked trait first, then my smallest traits")

    def _shield(self, v: dict, k: dict, c: dict, chosen: list[str]) -> Decision | None:
        """V-45 (L427): the components aiding mine take the rest of an attack's effect after its first trait,
        their smallest traits first, when they can absorb all of it: the one they guard keeps its traits."""
        here = v["scenes"][-1]["present"] if v["scenes"] else []
        aides = [x for x in v["components"] if x.get("unit") == c["id"] and not x["out"] and x["id"] in here
                 and (x.get("attached") or not k.get("mass"))]  # V-38 (L433): in a mass struggle, attached ones only
        if k["goal"] != "attack" or not aides or len(chosen) < 2:
            return None
        left = k_effect(v) - POINTS[_healthy(c)[chosen[0]]]
        pool = {f"{x['id']}/{t}": n for x in aides for t, n in _healthy(x).items()}
        rest = auto_damage(left, pool)
        if sum(POINTS[pool[r]] for r in rest) < left:
            return None
        unit: dict[str, list[str]] = {}
        for r in rest:
            cid, trait = r.split("/", 1)
            unit.setdefault(cid, []).append(trait)
        return _d(A.TakeDamage(player=self.name, traits=chosen[:1], unit=unit),
                  f"the first trait is {c['name']}'s; its aides take the rest (V-45), so it stays on its feet")

    def _continue_fight(self, obs: GameObservation) -> Decision:
        v = obs.view
        ex = v["extended"]
        me_c = _comp(v, ex["next_actor"])
        pts = sum(POINTS[s] for s in _healthy(me_c).values())
        if pts <= 2 or ex["exchanges"] >= MAX_EXCHANGES:
            return _d(A.ContinueFight(player=self.name, surrender=True),
                      "surrender before being taken out" if pts <= 2 else "the fight has gone on long enough")
        scene = v["scenes"][-1]
        hit = self._area_targets(scene, me_c, [_comp(v, x) for x in scene["present"]])
        other = ex["b"] if ex["next_actor"] == ex["a"] else ex["a"]
        blocked = any(b["target"] == me_c["id"] and (not b["prevents"] or any(x["id"] == b["prevents"] for x in hit[1]))
                      for b in v.get("blocks", [])) if hit is not None else False  # V-39: a block stands in the way
        if hit is not None and not blocked and any(x["id"] == other for x in hit[1]):  # V-38 (L433, L453): Area
            selective, theirs = hit
            return _d(A.ContinueFight(player=self.name, area=True,
                                      targets=[x["id"] for x in theirs] if selective else [],
                                      text=f"{me_c['name']} turns on all of them at once"),
                      f"strike back with {me_c['name']}'s Area: the fight goes on against {_comp(v, other)['name']}, "
                      f"and the same wager and roll hit all {len(theirs)} in its zone (V-38)")
        return _d(A.ContinueFight(player=self.name, text=f"{me_c['name']} strikes back"), "strike back")

    def fallback(self, obs: GameObservation) -> BaseModel:
        kind, v = obs.pending.kind, obs.view
        if kind == "bid":
            return A.Bid(player=self.name, bid=1)
        if kind == "build":
            return self._build(obs).action
        if kind == "frame_scene":
            return A.EndAct(player=self.name)
        if kind == "answer_exclusion":
            return A.AnswerExclusion(player=self.name, accept=True)
        if kind == "turn":
            return A.PassTurn(player=self.name)
        if kind == "narrator":
            return A.EndScene(player=self.name)
        if kind == "difficulty":
            return A.StateDifficulty(player=self.name, value=0)
        if kind == "wager":
            return self._stake(obs, cautious=True)
        if kind == "take_damage":
            return self._take_damage(obs).action
        if kind == "fate":
            return A.SpendFate(player=self.name, skip=True)
        if kind == "vote":
            return A.CastVote(player=self.name, oppose=False)
        if kind == "join_ally":
            k = v["struggle"]
            side = k["actor"] if k["actor"]["called"] else k["opponent"]
            return A.JoinAlly(player=self.name, component=side["called"][0], decline=True)
        if kind == "continue_fight":
            return A.ContinueFight(player=self.name, surrender=True)
        if kind == "tell_effect":  # V-31 (L690): the game waits for the hidden roll's effect, told without a number
            return A.TellEffect(player=self.name, text="how it went shows in what happens next")
        return A.PassTurn(player=self.name)


def _aim(present: list[dict], target: dict) -> str | None:
    """V-45 (L427): a component aided by integrated non-minion components is attacked by targeting a trait: its
    smallest healthy one; None when nothing aids it."""
    healthy = _healthy(target)
    aided = any(c.get("unit") == target["id"] and not c.get("attached") and c["kind"] != "minion" and not c["out"]
                for c in present)
    return min(healthy, key=lambda t: healthy[t]) if aided and healthy else None


def _pay(pool: list[int], pts: int) -> list[int]:
    """Dice from `pool` worth exactly `pts` points, fewest dice first; [] if none."""
    for d in sorted(pool):
        if POINTS[d] == pts:
            return [d]
    small = sorted(d for d in pool if POINTS[d] < pts)
    for i, a in enumerate(small):
        for b in small[i + 1:]:
            if POINTS[a] + POINTS[b] == pts:
                return [a, b]
    return []


def _fill(bowl: dict[int, int], pts: int) -> list[int]:
    """Dice worth up to `pts` points that the bowl still holds: a spread (d10, d8, d6, d6, d4) so there is a
    die to push on every trait size, smaller dice where the bowl has run short (never a d12, V-10)."""
    out: list[int] = []
    for want in (10, 8, 6, 6, 4, 4, 4):
        for size in [s for s in (10, 8, 6, 4) if s <= want]:
            if POINTS[size] <= pts and bowl.get(size, 0) > 0:
                out.append(size)
                bowl[size] -= 1
                pts -= POINTS[size]
                break
    return out


def k_effect(view: dict) -> int:
    """The effect waiting to be absorbed: the last struggle record's (a mass struggle's: the defender's now
    absorbing, V-38). A hidden roll's effect is "hidden" to all but its opponent's player (V-31): none to weigh."""
    k = view.get("struggle")
    if k and k.get("mass"):
        told = next((r["effect"] for r in reversed(view["struggles"]) if r["opponent"] == k["opponent"]["component"]), 0)
    else:
        told = view["struggles"][-1]["effect"] if view["struggles"] else 0
    return told if isinstance(told, int) else 0


def heuristic_seat(name: str, role: str = "player", seed: int = 0, seat_index: int = 0, scenes: int = 6) -> VeleSeat:
    return VeleSeat(name, seed=seed, seat_index=seat_index)

"""Heuristic Paganini seats: a Game Master and players that decide from what their seat may see.

The GM builds a short adventure from the premise (a villain and a henchman with valid sheets, the
premise's places, a plan of scenes: clues, a fight, a way past the villain's guard, the villain),
rules on every attempt (roll or not, difficulty with a reason, the opposing traits), calls
passive checks, runs combat (initiative each round, its NPCs' attacks and defences), narrates
failures from the tier, passes days and weeks for advancement points, and ends the adventure.
Players build valid characters of four archetypes, act by their strengths in and out of combat,
spend advancement points where the lots allow, and narrate their successes and their blows.
Every decision says why. Seeded: the same seed gives the same game.
"""
from __future__ import annotations

import random
from typing import Any

from pydantic import BaseModel

from agents.base import Decision
from agents.fubar.heuristic import base_form
from agents.game_loop import GameObservation
from agents.paganini.sheets import ARCHETYPES, npc_sheet, player_sheet
from agents.paganini.words import TIER_WORDS, lex, lower_first, premise_people, premise_places, skills_for
from engine.paganini import actions as A
from engine.paganini.advancement import Lot, may_buy, raise_cost

BLOWS = ["strikes at", "lunges at", "swings at", "presses", "goes for"]
PLANS = {1: ["boss"], 2: ["clues", "boss"], 3: ["clues", "fight", "boss"], 4: ["clues", "fight", "sneak", "boss"]}


def plan_for(scenes: int) -> list[str]:
    return PLANS.get(scenes, PLANS[4] + ["aftermath"]) if scenes <= 5 else PLANS[4] + ["aftermath"]


def _decision(action: BaseModel, why: str) -> Decision:
    return Decision(action=action, kind="heuristic", rationale=why)


def _chars(view: dict) -> dict[str, dict]:
    return {c["id"]: c for c in view["characters"]}


def _able(c: dict) -> bool:
    return c["conscious"] and not c["dead"]


def _best_skill(c: dict, names: list[str]) -> str | None:
    have = [(c["skills"][n]["level"], n) for n in names if n in c.get("skills", {})]
    return max(have)[1] if have else None


class _Seat:
    kind = "heuristic"

    def __init__(self, name: str, seed: int = 0, seat_index: int = 0, scenes: int = 4) -> None:
        self.name = name
        self.seat_index = seat_index
        self.rng = random.Random(f"paganini-{seed}-{seat_index}-{name}")
        self.scenes = scenes

    def pick(self, xs: list[Any], default: Any = None) -> Any:
        return self.rng.choice(xs) if xs else default

    def decide(self, obs: GameObservation) -> Decision:
        handler = getattr(self, f"_{obs.pending.kind}", None)
        if handler is None:
            return _decision(self.fallback(obs), f"nothing planned for {obs.pending.kind}")
        return handler(obs)

    def fallback(self, obs: GameObservation) -> BaseModel:
        raise NotImplementedError

    # shared by both roles --------------------------------------------------------------------------
    def _defend(self, obs: GameObservation) -> Decision:
        """Parry with the weapon skill or dodge, whichever rolls more dice."""
        v = obs.view
        at = v["combat"]["attack"]
        me = _chars(v)[at["target"]]
        options = []
        for w in me.get("weapons", []):
            if w.get("mode", "melee") == "melee" and w.get("skill") in me["skills"]:
                options.append((me["skills"][w["skill"]]["level"] + w.get("quality", 0), w["skill"], w["name"], False))
        if "Dodge" in me.get("skills", {}):
            heavy = -1 if me.get("armour", {}).get("heavy") else 0
            options.append((me["skills"]["Dodge"]["level"] + heavy, "Dodge", None, True))
        if not options:
            return _decision(A.Defend(player=self.name, attribute="Coordination"), "no defence skill: Coordination alone")
        dice, skill, weapon, dodge = max(options, key=lambda o: (o[0], o[1]))
        return _decision(A.Defend(player=self.name, skill=skill, attribute="Coordination", weapon=weapon, dodge=dodge),
                         f"{'dodge' if dodge else 'parry with the ' + str(weapon)}: the best defence ({dice:+d} dice)")

    def _attack_of(self, v: dict, me: dict, target: dict, premise: str) -> Decision:
        """The attack this combatant does best against `target`: a shot if it carries a ranged weapon it
        is trained with and aims better than it fights, else its melee weapon."""
        melee = [w for w in me.get("weapons", []) if w.get("mode", "melee") == "melee"]
        ranged = [w for w in me.get("weapons", []) if w.get("mode") in ("fired", "thrown")]

        def score(w: dict, attr: str) -> int:
            return me["attributes"][attr]["level"] + me["skills"].get(w.get("skill", ""), {"level": -4})["level"] \
                + w.get("quality", 0)

        best_m = max(melee, key=lambda w: score(w, "Coordination"), default=None)
        best_r = max(ranged, key=lambda w: score(w, "Focus"), default=None)
        name, tname = me["name"], target["name"]
        if best_r is not None and (best_m is None or score(best_r, "Focus") + 1 >= score(best_m, "Coordination")):
            braced = self.rng.random() < 0.4
            rng = "short" if self.rng.random() < 0.3 else "medium"
            return _decision(A.AttackAction(player=self.name, actor=me["id"], target=target["id"], weapon=best_r["name"],
                                            range=rng, ranged_mods=["attacker_braced"] if braced else [],
                                            intent=f"{name} {'braces and ' if braced else ''}fires the "
                                                   f"{best_r['name']} at {tname}"),
                             f"shoot {tname} at {rng} range{', braced (+1HD)' if braced else ''}: aims better than "
                             "it fights")
        weapon = best_m["name"] if best_m else "bare hands"
        return _decision(A.AttackAction(player=self.name, actor=me["id"], target=target["id"], weapon=weapon,
                                        intent=f"{name} {self.pick(BLOWS)} {tname} with the {weapon}"),
                         f"attack {tname} with the {weapon}")

    def _narrate_attack(self, obs: GameObservation) -> Decision:
        """Tell the blow as the engine settled it: a miss, the boxes and wound level, a fall."""
        v = obs.view
        at = v["combat"]["attack"]
        cs = _chars(v)
        a, t = cs[at["attacker"]], cs[at["target"]]
        if not at["hit"]:
            d = at["defence"]
            text = (f"{t['name']} turns the {at['weapon']} aside" if d else
                    f"The shot from {a['name']}'s {at['weapon']} goes wide of {t['name']}")
            why = "a miss"
        elif at["boxes"] == 0:
            text, why = f"{a['name']} connects, but {t['name']} shrugs it off", "a hit for no damage"
        else:
            text = (f"{a['name']}'s {at['weapon']} finds its mark: {t['name']} takes {at['boxes']} "
                    f"box{'es' if at['boxes'] > 1 else ''} and is {t['wound_level'].lower()}")
            if at["knocked_out"]:
                text += f"; {t['name']} drops senseless" if not t["dead"] else f"; {t['name']} does not get up again"
            why = f"{at['boxes']} boxes" + (", knocked out" if at["knocked_out"] else "")
        return _decision(A.Narrate(player=self.name, text=text + "."), f"narrate the blow: {why}")


class PaganiniGM(_Seat):
    """The heuristic Game Master."""

    def __init__(self, name: str, seed: int = 0, seat_index: int = 0, scenes: int = 4) -> None:
        super().__init__(name, seed, seat_index, scenes)
        self.plan = plan_for(scenes)
        self.days = 0
        self.passive_done: set[int] = set()
        self.fought: set[int] = set()
        self.days_ended: set[int] = set()

    def fallback(self, obs: GameObservation) -> BaseModel:
        """The simplest legal answer for each decision the GM can be asked."""
        kind, v = obs.pending.kind, obs.view
        if kind == "prepare_adventure":
            return A.PrepareAdventure(player=self.name, title="An adventure", situation=obs.premise or "Trouble comes")
        if kind == "call_check":
            return A.CallCheck(player=self.name, roll=False, reason="the outcome is not in doubt")
        if kind == "initiative":
            return A.Initiative(player=self.name, attribute=v["options"]["initiative_attribute"] or "Quickness")
        if kind == "round_end":
            return A.EndCombat(player=self.name, text="The fight breaks off.")
        if kind == "combat_turn":
            return A.Hold(player=self.name, actor=obs.pending.note, text="waits")
        if kind == "defend":
            return A.Defend(player=self.name, attribute="Coordination")
        if kind in ("narrate", "narrate_attack"):
            return A.Narrate(player=self.name, text="It goes as the dice say.")
        if kind == "frame_scene":
            return A.EndAdventure(player=self.name, text="The adventure ends.")
        return A.EndScene(player=self.name)

    # -- the adventure -----------------------------------------------------------------------------------
    def _prepare_adventure(self, obs: GameObservation) -> Decision:
        words = lex(obs.premise)
        npcs = [c for c in obs.view["characters"] if c["npc"]]
        people = premise_people(obs.premise)
        if not npcs:
            raw = (people[0] if people else self.pick(words["names"])).strip()
            name = raw[:1].upper() + raw[1:]
            role = self.pick(words["roles"])
            return _decision(A.AddOpponent(player=self.name, sheet=npc_sheet(name, role, "boss", obs.premise)),
                             f"the villain, {name}: Richaz's build with a trained weapon and armour")
        if len(npcs) == 1:
            name = self.pick([n for n in words["names"] if n != npcs[0]["name"]])
            return _decision(A.AddOpponent(player=self.name, sheet=npc_sheet(name, f"{npcs[0]['name']}'s henchman",
                                                                             "minion", obs.premise)),
                             f"a henchman for the fight before the villain: {name}")
        places = list(dict.fromkeys(premise_places(obs.premise) + list(words["places"])))[:4]
        boss, minion = npcs[0]["name"], npcs[1]["name"]
        prop = lower_first(self.pick(words["props"]))
        situation = (f"{boss} has taken the {prop} and holds out at {places[-1]}; {minion} watches "
                     f"{places[1 % len(places)]} for trouble.")
        return _decision(A.PrepareAdventure(player=self.name, title=obs.premise or "An adventure", situation=situation,
                                            places=places),
                         f"a short adventure of {len(self.plan)} scenes from the premise: {', '.join(self.plan)}")

    def _frame_scene(self, obs: GameObservation) -> Decision:
        v = obs.view
        framed = len(v["scenes"])
        cs = _chars(v)
        down = [c for c in cs.values() if not c["npc"] and not c["conscious"] and not c["dead"]]
        if down:
            c = down[0]
            return _decision(A.Heal(player=self.name, character=c["id"], boxes=5, wake=True,
                                    reason=f"{c['name']} comes to, patched up between scenes"),
                             "a player character is out cold: the GM's word wakes them (the book has no healing rule)")
        if framed and framed not in self.days_ended:
            self.days_ended.add(framed)
            self.days += 1
            return _decision(A.EndDay(player=self.name), "a scene ends the day: one advancement point each (@12775)")
        if self.days and self.days % 2 == 0 and f"w{self.days}" not in self.days_ended:
            self.days_ended.add(f"w{self.days}")  # type: ignore[arg-type]
            return _decision(A.EndWeek(player=self.name), "two days on, a week has gone by: the weekly points")
        if framed >= len(self.plan):
            return _decision(A.EndAdventure(player=self.name, text=self._ending(v)), "the planned scenes are played")
        kind = self.plan[framed]
        places = v["adventure"]["places"] or ["the road"]
        npcs = [c for c in cs.values() if c["npc"] and _able(c)]
        boss = next((c for c in v["characters"] if c["npc"]), None)
        minions = [c for c in npcs if boss is None or c["id"] != boss["id"]]
        words = lex(obs.premise)
        colour = lower_first(self.pick(words["place_traits"]))
        if kind == "fight" and minions:
            present, text = [minions[0]["id"]], f"{minions[0]['name']} blocks the way; {colour}"
        elif kind == "sneak" and boss is not None and _able(boss):
            present, text = [], f"{boss['name']}'s lookout post, {colour}; getting past unseen is the trick"
        elif kind in ("boss", "fight") and npcs:
            present = [c["id"] for c in npcs]
            text = f"{' and '.join(c['name'] for c in npcs)} wait{'s' if len(npcs) == 1 else ''} here; {colour}"
        else:
            present, text = [], colour
        place = places[-1] if kind == "boss" else places[framed % len(places)]
        return _decision(A.FrameScene(player=self.name, place=place, text=text, present=present),
                         f"scene {framed + 1} of the plan: {kind}")

    def _ending(self, v: dict) -> str:
        npcs = [c for c in v["characters"] if c["npc"]]
        beaten = [c["name"] for c in npcs if not _able(c)]
        return (f"The adventure ends: {', '.join(beaten)} {'is' if len(beaten) == 1 else 'are'} beaten."
                if beaten else "The adventure ends with the villain still at large.")

    def _gm_turn(self, obs: GameObservation) -> Decision:
        v = obs.view
        sc = v["scenes"][-1]
        n = sc["number"]
        kind = self.plan[n - 1] if n - 1 < len(self.plan) else "aftermath"
        cs = _chars(v)
        pcs = [c for c in cs.values() if not c["npc"] and _able(c)]
        foes = [cs[i] for i in sc["present"] if _able(cs[i])]
        if foes and pcs and n not in self.fought:
            self.fought.add(n)
            return _decision(A.StartCombat(player=self.name, combatants=[c["id"] for c in pcs + foes],
                                           text=f"{foes[0]['name']} goes for {pcs[0]['name']}: the fight is on"),
                             f"{', '.join(f['name'] for f in foes)} will not let them pass: combat")
        if kind in ("clues", "sneak") and n not in self.passive_done and pcs:
            self.passive_done.add(n)
            what = "notice the tripwire across the path" if kind == "clues" else "spot the lookout before he spots them"
            return _decision(A.PassiveCheck(player=self.name, who=[c["id"] for c in pcs], intent=what,
                                            attribute="Wits", skill="Alertness", skill_kind="general",
                                            difficulty="above_average"),
                             "a danger nobody chose to look for: a passive Alertness check (@10312)")
        if n == len(self.plan) and (kind == "boss" or sc["round"] >= 2):
            return _decision(A.EndAdventure(player=self.name, text=self._ending(v)), "the last planned scene is played")
        if sc["round"] < 2 and pcs:
            return _decision(A.ContinueScene(player=self.name, text="The scene goes on."),
                             "everyone has had one turn; one more round before moving on")
        return _decision(A.EndScene(player=self.name, text=f"Scene {n} ends."), "the scene has done its work")

    # -- rulings ------------------------------------------------------------------------------------------
    def _call_check(self, obs: GameObservation) -> Decision:
        v = obs.view
        k = v["check"]
        cs = _chars(v)
        actor = cs[k["actor"]]
        scene = v["scenes"][-1]["number"] if v["scenes"] else 1
        skill = k["skill"]
        kind = None
        if skill and skill not in actor.get("skills", {}):
            kind = "experience" if skill in ("Climbing", "Riding", "Lockpicking", "Stealth") else "general"
        base = ["below_average", "average", "average", "above_average", "hard"]
        diff = base[min(len(base) - 1, scene - 1 + self.rng.randrange(2))]
        why = {"below_average": "the odds favour it", "average": "an ordinary risk",
               "above_average": "the place works against it", "hard": "late, tired and watched"}[diff]
        if k["opponent"]:
            opp = cs[k["opponent"]]
            oskill = "Alertness" if "Alertness" in opp.get("skills", {}) else None
            return _decision(A.CallCheck(player=self.name, difficulty="average", skill_kind=kind,
                                         opposed_attribute="Wits", opposed_skill=oskill,
                                         reason=f"{opp['name']} watches: Wits and Alertness against it"),
                             f"opposed by {opp['name']}'s Wits + {oskill or 'nothing'}; the higher result is favoured")
        if self.rng.random() < 0.1 and not k["skill"]:
            return _decision(A.CallCheck(player=self.name, roll=False, reason="nothing stands in the way"),
                             "the outcome is not in doubt: no roll (@4317)")
        return _decision(A.CallCheck(player=self.name, difficulty=diff, skill_kind=kind, reason=why),
                         f"{diff.replace('_', ' ')}: {why}")

    def _narrate(self, obs: GameObservation) -> Decision:
        """The GM tells failures and passive checks from the tier (section 3)."""
        v = obs.view
        k = v["check"]
        cs = _chars(v)
        words = lex(obs.premise)
        if k["kind"] == "passive":
            seen = [cs[p["who"]]["name"] for p in k["pools"] if p["tier"] and "Success" in p["tier"]]
            text = (f"{' and '.join(seen)} manage{'s' if len(seen) == 1 else ''} to {k['intent']}"
                    if seen else f"Nobody manages to {k['intent']}; trouble is waiting")
            return _decision(A.Narrate(player=self.name, text=text + "."), f"the passive check: {len(seen)} noticed")
        actor = cs[k["actor"]]
        tier = k["pools"][0]["tier"] if k["pools"] else "Marginal Failure"
        how = TIER_WORDS.get(tier or "", "plainly")
        if k["kind"] == "opposed":
            opp = cs[k["opponent"]]
            text = f"{opp['name']} has the better of it, and {actor['name']} fails {how}"
        else:
            deed = k["intent"][len(actor["name"]):].strip() if k["intent"].startswith(actor["name"]) else k["intent"]
            place = v["scenes"][-1]["place"] if v["scenes"] else "the place"
            text = (f"{actor['name']} tries to {base_form(deed)} and fails {how} "
                    f"({place}: {lower_first(self.pick(words['place_traits']))})")
            if tier in ("Great Failure", "Critical Failure"):
                text += f", and {lower_first(self.pick(words['props']))} is lost in the confusion"
        return _decision(A.Narrate(player=self.name, text=text + "."), f"tell a {tier or 'failure'}")

    # -- combat ------------------------------------------------------------------------------------------
    def _initiative(self, obs: GameObservation) -> Decision:
        v = obs.view
        cs = _chars(v)
        fixed = v["options"]["initiative_attribute"]
        attr = fixed or ("Quickness" if v["combat"]["round"] % 2 else "Focus")
        skills = {}
        for cid in v["combat"]["combatants"]:
            c = cs[cid]
            sk = _best_skill(c, ["Alertness", "Dodge"]) if c.get("skills") else None
            if sk:
                skills[cid] = sk
        return _decision(A.Initiative(player=self.name, attribute=attr, skills=skills),
                         f"round {v['combat']['round']}: {attr} + an awareness skill"
                         + (" (fixed for the campaign)" if fixed else " (the GM's preference this round)"))

    def _round_end(self, obs: GameObservation) -> Decision:
        cb = obs.view["combat"]
        if cb["round"] >= 6:
            return _decision(A.EndCombat(player=self.name, text="Both sides fall back, spent."),
                             "six rounds without a decision: the fight breaks off")
        return _decision(A.NextRound(player=self.name), "both sides still stand: another round")

    def _combat_turn(self, obs: GameObservation) -> Decision:
        v = obs.view
        cs = _chars(v)
        me = cs[obs.pending.note]
        targets = [cs[c] for c in v["combat"]["combatants"] if not cs[c]["npc"] and _able(cs[c])]
        if not targets:
            return _decision(A.Hold(player=self.name, actor=me["id"], text=f"{me['name']} looks for an opening"),
                             "nobody to attack")
        target = min(targets, key=lambda c: (-c["wounds"], c["name"])) if self.rng.random() < 0.6 else \
            self.pick(targets)
        return self._attack_of(v, me, target, obs.premise)


class PaganiniPlayer(_Seat):
    """A heuristic player character."""

    def __init__(self, name: str, seed: int = 0, seat_index: int = 0, scenes: int = 4) -> None:
        super().__init__(name, seed, seat_index, scenes)
        self.archetype = ARCHETYPES[(seat_index - 1) % len(ARCHETYPES)]
        self.last = ""

    def fallback(self, obs: GameObservation) -> BaseModel:
        kind = obs.pending.kind
        if kind == "create_character":
            return self._create_character(obs).action
        if kind == "defend":
            return A.Defend(player=self.name, attribute="Coordination")
        if kind in ("narrate", "narrate_attack"):
            return A.Narrate(player=self.name, text="It goes as the dice say.")
        if kind == "combat_turn":
            return A.Hold(player=self.name, actor=obs.pending.note, text="holds back")
        return A.PassTurn(player=self.name)

    def _create_character(self, obs: GameObservation) -> Decision:
        words = lex(obs.premise)
        taken = {c["name"] for c in obs.view["characters"]}
        names = [n for n in words["names"] if n not in taken] or [f"{self.name}'s hero"]
        name = names[(self.seat_index * 3 + self.rng.randrange(3)) % len(names)]
        role = words["roles"][(self.seat_index * 2 + self.rng.randrange(2)) % len(words["roles"])]
        trait, habit = self.pick(words["traits"]), self.pick(words["habits"])
        desc = f"{name}, {lower_first(role)}. {trait}; {lower_first(habit)}."
        sheet = player_sheet(name, role, self.archetype, obs.premise, desc)
        return _decision(A.CreateCharacter(player=self.name, sheet=A.SheetIn.model_validate(sheet)),
                         f"a {self.archetype} ({lower_first(role)}): three free attribute levels and one traded, "
                         "half the skills in free levels and one traded from a weak General skill")

    # -- out of combat -------------------------------------------------------------------------------------
    def _raise(self, me: dict) -> A.RaiseSkill | None:
        """The cheapest raise the banked lots can pay for, honouring what each lot may buy."""
        lots = [Lot.model_validate(x) for x in me.get("lots", [])]
        best = None
        for skill, info in me["skills"].items():
            if info["level"] >= 4:
                continue
            cost = raise_cost(info["level"], info["kind"], teacher=False)
            if info["kind"] == "special":
                continue  # needs instruction: not in the middle of an adventure
            usable = [x for x in lots if may_buy(x, skill, set(me["used"].get(x.adventure or "", []))) is None]
            if sum(x.amount for x in usable) >= cost and (best is None or cost < best[0]):
                best = (cost, skill, [x.id for x in usable])
        if best is None:
            return None
        return A.RaiseSkill(player=self.name, skill=best[1], lots=best[2])

    def _turn(self, obs: GameObservation) -> Decision:
        v = obs.view
        me = _chars(v)[self.name]
        up = self._raise(me)
        if up is not None:
            return _decision(up, f"the banked points pay for {up.skill}: spend them now")
        sc = v["scenes"][-1]
        cs = _chars(v)
        words = lex(obs.premise)
        sk = skills_for(obs.premise)
        watchers = [cs[i] for i in sc["present"] if _able(cs[i])]
        if sc["round"] >= 2 and self.rng.random() < 0.4:
            return _decision(A.PassTurn(player=self.name, text=f"{me['name']} {self.pick(words['deeds'])}"),
                             "nothing more to gain here: wait")
        if "sneak" in sc["text"] or (watchers and self.rng.random() < 0.5):
            foe = watchers[0] if watchers else None
            skill = "Stealth"
            return _decision(A.Attempt(player=self.name, intent=f"{me['name']} slips past "
                                                                 f"{foe['name'] if foe else 'the lookout'} unseen",
                                       attribute="Coordination", skill=skill,
                                       skill_kind=None if skill in me["skills"] else "experience",
                                       against=foe["id"] if foe else None),
                             "get past unseen" + (f": opposed by {foe['name']}" if foe else ""))
        choices = {
            "fighter": [("Fitness", None, "forces the rusted door"), ("Wits", "Alertness", "keeps watch for an ambush"),
                        ("Fitness", None, "hauls the wreckage out of the way")],
            "shooter": [("Wits", "Alertness", f"searches {sc['place']} for tracks"),
                        ("Focus", sk["ranged"], "shoots the lamp out to cover the others")],
            "talker": [("Wits", "Persuasion", "talks a frightened witness into speaking"),
                       ("Wits", "Streetwise", "asks around for who has been seen here")],
            "scholar": [("Intellect", sk["lore"], "reads the signs nobody else understands"),
                        ("Wits", "Alertness", "notices what does not belong")],
        }[self.archetype]
        fresh = [c for c in choices if c[2] != self.last] or choices
        attr, skill, deed = self.pick(fresh)
        self.last = deed
        return _decision(A.Attempt(player=self.name, intent=f"{me['name']} {deed}", attribute=attr, skill=skill,
                                   skill_kind=None if skill is None or skill in me["skills"] else "experience"),
                         f"play to strength: {attr}" + (f" + {skill}" if skill else " alone") + ", not the same deed twice")

    def _narrate(self, obs: GameObservation) -> Decision:
        """A success, told from the tier (a Critical Success more than a Marginal one)."""
        k = obs.view["check"]
        me = _chars(obs.view)[self.name]
        tier = k["pools"][0]["tier"] if k["pools"] else None
        how = TIER_WORDS.get(tier or "", "as planned")
        deed = k["intent"][len(me["name"]):].strip() if k["intent"].startswith(me["name"]) else k["intent"]
        text = f"{me['name']} {lower_first(deed)}, {how}" if tier else f"{me['name']} {lower_first(deed)}, no trouble"
        if tier in ("Great Success", "Critical Success"):
            text += f", and finds {lower_first(self.pick(lex(obs.premise)['props']))} on the way"
        return _decision(A.Narrate(player=self.name, text=text + "."), f"narrate my {tier or 'sure thing'}")

    # -- combat ------------------------------------------------------------------------------------------
    def _combat_turn(self, obs: GameObservation) -> Decision:
        v = obs.view
        cs = _chars(v)
        me = cs[self.name]
        foes = [cs[c] for c in v["combat"]["combatants"] if cs[c]["npc"] and _able(cs[c])]
        if not foes:
            return _decision(A.Hold(player=self.name, actor=self.name, text=f"{me['name']} catches a breath"),
                             "no foe left standing")
        target = min(foes, key=lambda c: (-c["wounds"], c["name"]))
        return self._attack_of(v, me, target, obs.premise)


def heuristic_seat(name: str, role: str, seed: int = 0, seat_index: int = 0,
                   scenes: int = 4) -> PaganiniGM | PaganiniPlayer:
    return (PaganiniGM if role == "gm" else PaganiniPlayer)(name, seed=seed, seat_index=seat_index, scenes=scenes)

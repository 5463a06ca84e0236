"""Heuristic FUBAR seats: a Game Master and players that decide from what their seat may see.

The GM prepares a short scenario from the premise (a situation, places, opposition with Resolve),
frames scenes, rules stakes and dice, judges facts and narrates the No answers with their
Conditions and Details; players make characters from the premise, ask yes/no questions, spend
Resolve on rerolls when it matters and narrate their Yes answers. Every decision says why.
Seeded: the same seed gives the same game.
"""
from __future__ import annotations

import random
import re
from typing import Any

from pydantic import BaseModel

from agents.base import Decision
from agents.fubar.words import (a_an, goal_text, hero_traits, lex, lower_first, premise_people, premise_places,
                                villain_traits)
from agents.game_loop import GameObservation
from agents.narration import name_fits
from engine.fubar import actions as A

NO_RESULTS = {"No, and", "No", "No, but"}


def _base(verb: str) -> str:
    if verb.endswith("ies"):
        return verb[:-3] + "y"
    if verb.endswith(("sses", "shes", "ches", "xes", "oes")):
        return verb[:-2]
    if verb.endswith("s") and not verb.endswith("ss"):
        return verb[:-1]
    return verb


def base_form(deed: str) -> str:
    """'lights a cigarette and waits' -> 'light a cigarette and wait', for a yes/no question."""
    verb, _, rest = deed.partition(" ")
    rest = re.sub(r"\band (\w+)\b", lambda m: f"and {_base(m.group(1))}", rest)
    return f"{_base(verb)} {rest}".strip()


def _decision(action: BaseModel, why: str) -> Decision:
    return Decision(action=action, kind="heuristic", rationale=why)


def _me(view: dict, seat: str) -> dict | None:
    return next((c for c in view["characters"] if c["seat"] == seat), None)


def _live_opposition(view: dict) -> list[dict]:
    return [o for o in view["opposition"] if not o["defeated"]]


class _Seat:
    kind = "heuristic"

    def __init__(self, name: str, seed: int = 0, seat_index: int = 0, scenes: int = 6) -> None:
        self.name = name
        self.seat_index = seat_index
        self.rng = random.Random(f"fubar-{seed}-{seat_index}-{name}")
        self.scenes = scenes

    def pick(self, xs: list[Any], default: Any = None) -> Any:
        return self.rng.choice(xs) if xs else default


class FubarGM(_Seat):
    """The heuristic Game Master."""

    def __init__(self, name: str, seed: int = 0, seat_index: int = 0, scenes: int = 6) -> None:
        super().__init__(name, seed, seat_index, scenes)
        self.rounds: dict[int, int] = {}

    # -- the protocol ----------------------------------------------------------------------------------
    def decide(self, obs: GameObservation) -> Decision:
        kind = obs.pending.kind
        handler = getattr(self, f"_{kind}", None)
        if handler is None:
            return _decision(self.fallback(obs), f"nothing planned for {kind}")
        return handler(obs)

    def fallback(self, obs: GameObservation) -> BaseModel:
        """The simplest legal answer for each decision the GM can be asked."""
        v, kind = obs.view, obs.pending.kind
        if kind == "prepare_scenario":
            return A.PrepareScenario(player=self.name, title="The job", situation=obs.premise or "Trouble comes")
        if kind == "frame_scene":
            return A.EndScenario(player=self.name, final=True) if len(v["scenes"]) >= self.scenes else \
                A.FrameScene(player=self.name, place=(v["scenario"]["places"] or ["somewhere"])[0])
        if kind == "gm_turn":
            return A.EndScene(player=self.name)
        if kind == "rule_conflict":
            return A.RuleConflict(player=self.name)
        if kind == "judge_fact":
            return A.JudgeFact(player=self.name, believable=False, reason="the table is unsure")
        if kind == "narrate_outcome":
            losses = (v.get("conflict") or {}).get("losses") or {}
            return A.NarrateOutcome(player=self.name, text="It goes badly.", details=["things get worse"],
                                    conditions=[A.ConditionIn(target=seat, name="Battered") for seat, n in
                                                losses.items() if n > 0])
        return A.EndScene(player=self.name)

    # -- the scenario -------------------------------------------------------------------------------------
    def _prepare_scenario(self, obs: GameObservation) -> Decision:
        words = lex(obs.premise)
        foes = obs.view["opposition"]
        people = premise_people(obs.premise)
        if len(foes) == 0:
            name = (people[0] if people else self.pick(words["names"])).strip()
            villain = name[:1].upper() + name[1:]
            # a mini-character: its Descriptors stand in for a strength rating (L411), so strength stays Average
            return _decision(A.AddOpposition(player=self.name, name=villain, kind="character", strength="average",
                                             resolve=5, trademarks=[self.pick(villain_traits(words))],
                                             flaws=[self.pick(words["limits"])]),
                             "a recurring villain with 5 Resolve, like a player character (L460): an opponent to wear down")
        if len(foes) == 1:
            role = self.pick(words["roles"])
            kept = [x for x in villain_traits(words) if x not in foes[0].get("trademarks", [])]
            return _decision(A.AddOpposition(player=self.name, name=f"the {lower_first(role)}'s gang", strength="average",
                                             resolve=1, trademarks=kept[:1]),
                             "a lieutenant's crew, Resolve 1: it takes two hard-won Yeses")
        if len(foes) == 2:
            place = self.pick(premise_places(obs.premise) or words["places"])
            return _decision(A.AddOpposition(player=self.name, name=f"the way into {place}", kind="obstacle",
                                             strength="challenging", resolve=0),
                             "a static obstacle that falls to one Yes at high stakes")
        places = list(dict.fromkeys(premise_places(obs.premise) + list(words["places"])))[:4]
        villain = foes[0]["name"]
        situation = (f"{villain} holds {places[0]} in a tight grip; "
                     f"{foes[1]['name']} do the dirty work, and {foes[2]['name']} is "
                     f"{lower_first(self.pick(words['place_traits']))}.")
        return _decision(A.PrepareScenario(player=self.name, title=obs.premise or "A scenario",
                                           situation=situation, places=places),
                         "a short scenario from the premise: its places first, the villain named")

    def _frame_scene(self, obs: GameObservation) -> Decision:
        v = obs.view
        framed = len(v["scenes"])
        live = _live_opposition(v)
        villain = next((o for o in v["opposition"] if o["kind"] == "character"), None)
        if framed >= self.scenes or (villain is not None and villain["defeated"]) or not live:
            why = ("the villain is defeated" if villain is not None and villain["defeated"] else
                   "the planned scenes are played" if framed >= self.scenes else "no opposition is left")
            return _decision(A.EndScenario(player=self.name, final=True, text=f"The scenario ends: {why}."),
                             f"end the scenario: {why}")
        if framed and v["session"] < framed // 3 + 1:
            return _decision(A.EndSession(player=self.name), "three scenes make a session; +2 Resolve each")
        words = lex(obs.premise)
        places = v["scenario"]["places"] or ["the road"]
        place = places[framed % len(places)]
        downtime = framed % 4 == 3 and any(c["resolve"] < c["cap"] for c in v["characters"] if not c["out"])
        minions = [o for o in live if villain is None or o["id"] != villain["id"]]
        late = framed >= max(1, self.scenes - 2)
        if not minions and not late and villain is not None and not villain["defeated"] and len(v["opposition"]) < 8:
            role = self.pick(words["roles"])
            kind = "obstacle" if self.rng.random() < 0.4 else "character"
            name = (f"the road to {self.pick(v['scenario']['places'] or ['the end'])}" if kind == "obstacle"
                    else f"the {lower_first(role)}'s people")
            if name in {o["name"] for o in v["opposition"]}:
                name = f"{name}, again"
            return _decision(A.AddOpposition(player=self.name, name=name, kind=kind, strength="average",
                                             resolve=1 if kind == "character" else 0),
                             f"{villain['name']} sends new trouble before the showdown")
        present = [] if downtime else [minions[framed % len(minions)]["id"]] if minions and not late else \
            [villain["id"]] if villain is not None and not villain["defeated"] else []
        foe = next((o["name"] for o in live if o["id"] in present), "")
        text = (f"a quiet hour to rest at {place}" if downtime else
                f"{foe} is here; {lower_first(self.pick(words['place_traits']))}" if foe else
                lower_first(self.pick(words["place_traits"])))
        return _decision(A.FrameScene(player=self.name, place=place, text=text, downtime=downtime, present=present),
                         "a downtime scene: the characters are worn" if downtime else
                         f"frame the next place with {foe or 'trouble'} in it")

    def _gm_turn(self, obs: GameObservation) -> Decision:
        sc = obs.view["scenes"][-1]["number"]
        self.rounds[sc] = self.rounds.get(sc, 0) + 1
        if self.rounds[sc] >= 2:
            return _decision(A.EndScene(player=self.name), "every player has had two turns in this scene")
        return _decision(A.ContinueScene(player=self.name, text="The pressure mounts."),
                         "one more round: the scene's trouble is not settled")

    # -- rulings ------------------------------------------------------------------------------------------
    def _rule_conflict(self, obs: GameObservation) -> Decision:
        v = obs.view
        k = v["conflict"]
        actor = _me(v, k["actor"])
        foe = next((o for o in v["opposition"] if o["id"] == k["against"]), None)
        claimed = [d["name"] for d in k["dice"] if d["source"] == "descriptor"]
        disallow = claimed[2:]  # two Descriptors apply at most in this GM's reading of a question
        mods: list[dict] = []
        reasons = []
        if actor and actor["flaws"] and self.rng.random() < 0.3:
            mods.append({"source": "descriptor", "name": actor["flaws"][0], "dice": -1})
            reasons.append(f"the Flaw '{actor['flaws'][0]}' gets in the way")
        neg = [c for c in (actor or {}).get("conditions", []) if not c["positive"]]
        if neg:
            mods.append({"source": "condition", "name": neg[-1]["name"], "dice": -1})
            reasons.append(f"{neg[-1]['name']} hampers")
        pos = [c for c in (actor or {}).get("conditions", []) if c["positive"]]
        if pos:
            mods.append({"source": "condition", "name": pos[-1]["name"], "dice": 1})
        if foe is not None:
            if foe.get("trademarks"):
                mods.append({"source": "opposing_descriptor", "name": foe["trademarks"][0], "dice": -1})
                reasons.append(f"{foe['name']} is {lower_first(foe['trademarks'][0])}")
            if foe.get("flaws") and self.rng.random() < 0.4:
                mods.append({"source": "opposing_descriptor", "name": foe["flaws"][0], "dice": 1})
                reasons.append(f"{foe['name']}'s Flaw can be exploited")
            bad = [c for c in foe["conditions"] if not c["positive"]]
            if bad:
                mods.append({"source": "opposing_condition", "name": bad[-1]["name"], "dice": 1})
        threat = foe is not None and foe["kind"] == "character" and foe.get("resolve", 0) >= 1
        pc_high = threat or bool(k.get("goal_step"))
        opp_high = foe is not None and foe.get("resolve", 0) >= 0
        risky_ok = bool(v["conflict"].get("risky_asked")) and foe is not None and foe.get("resolve", 0) >= 2
        stakes = f"{'high' if pc_high else 'low'} stakes for {actor['name'] if actor else 'the PC'}"
        why = stakes + ("; " + "; ".join(reasons) if reasons else "")
        return _decision(A.RuleConflict(player=self.name, pc_stakes="high" if pc_high else "low",
                                        opposition_stakes="high" if opp_high else "low", mods=mods,
                                        disallow=disallow, risky=risky_ok, reason=why), why)

    def _judge_fact(self, obs: GameObservation) -> Decision:
        fact = obs.pending.note
        ok = len(fact) < 90 and self.rng.random() < 0.75
        return _decision(A.JudgeFact(player=self.name, believable=ok,
                                     reason="" if ok else "too much of a stretch for one Resolve"),
                         "believable: small and fitting" if ok else "the group would balk: refused, no cost")

    def _narrate_outcome(self, obs: GameObservation) -> Decision:
        """The GM narrates a No (or a concession): the 'and' hurts, the 'but' leaves a silver lining."""
        v = obs.view
        k = v["conflict"]
        words = lex(obs.premise)
        actor = _me(v, k["actor"])
        name = actor["name"] if actor else k["actor"]
        foe = next((o for o in v["opposition"] if o["id"] == k["against"]), None)
        answer = k["answer"] or "Impasse"
        conds: list[dict] = []
        details: list[str] = []
        hurt = [seat for seat, n in (k.get("losses") or {}).items() if n > 0 and seat != k["actor"]]
        if k["actor"] in (k.get("losses") or {}) and answer != "No, and":
            hurt.insert(0, k["actor"])
        for seat in hurt:  # Resolve lost: a Condition of the book's default tier (L559-564)
            conds.append({"target": seat, "name": self.pick(words["injuries"]), "scope": "physical"})
        if k.get("conceded_by"):
            text = f"{name} gives ground and lives to try again."
        elif answer == "No, and":
            injury = self.pick(words["injuries"])
            conds.append({"target": k["actor"], "name": injury, "scope": "physical"})
            place = v["scenes"][-1]["place"] if v["scenes"] else "here"
            details.append(f"{foe['name']} gains the upper hand" if foe else
                           f"things take a turn for the worse at {place}")
            text = f"No, and worse: {name} fails and pays for it ({injury})."
        elif answer == "No, but":
            details.append(f"{name} spots {a_an(lower_first(self.pick(words['props'])))} in the confusion")
            text = f"No, but {name} comes away with something."
        elif answer in ("Yes, but", "Yes, and"):  # only after a concession would the GM narrate these
            details.append("the price is paid later")
            text = f"{answer}: {k['question']}"
        else:
            text = f"No: {name} does not get what they wanted." if answer != "Impasse" else "Nothing is settled."
        return _decision(A.NarrateOutcome(player=self.name, text=text, conditions=conds, details=details),
                         f"the GM narrates a {answer}")


class FubarPlayer(_Seat):
    """A heuristic player character."""

    def __init__(self, name: str, seed: int = 0, seat_index: int = 0, scenes: int = 6) -> None:
        super().__init__(name, seed, seat_index, scenes)
        self.milestones = 0

    def decide(self, obs: GameObservation) -> Decision:
        handler = getattr(self, f"_{obs.pending.kind}", None)
        if handler is None:
            return _decision(self.fallback(obs), f"nothing planned for {obs.pending.kind}")
        return handler(obs)

    def fallback(self, obs: GameObservation) -> BaseModel:
        kind, me = obs.pending.kind, _me(obs.view, self.name)
        if kind == "create_character":
            return self._character(obs).action
        if kind == "after_roll":
            return A.KeepRoll(player=self.name)
        if kind == "narrate_outcome":
            losses = (obs.view.get("conflict") or {}).get("losses") or {}
            return A.NarrateOutcome(player=self.name, text="It works, at a cost.", details=["a loose end remains"],
                                    conditions=[A.ConditionIn(target=seat, name="Battered") for seat, n in
                                                losses.items() if n > 0])
        if kind == "escape":
            return A.WriteOut(player=self.name, text="They walk away from it all.")
        if kind == "advance":
            ok = obs.options[0].choices[0] if obs.options and obs.options[0].choices else "trademark"
            return A.Advance(player=self.name, kind=ok, text="Seasoned" if ok in ("trademark", "flaw") else "",
                             new_goal="See it through")
        if kind == "add_relationship":
            return A.AddRelationship(player=self.name, target="an old friend", positive=True)
        del me
        return A.PassTurn(player=self.name)

    # -- making a character ------------------------------------------------------------------------------
    def _character(self, obs: GameObservation) -> Decision:
        words = lex(obs.premise)
        taken = {o["name"] for o in obs.view["opposition"]} | {c["name"] for c in obs.view["characters"]}
        role = words["roles"][(self.seat_index * 2 + self.rng.randrange(2)) % len(words["roles"])]
        names = [n for n in words["names"] if n not in taken and name_fits(n, role)] or \
            [n for n in words["names"] if n not in taken] or list(words["names"])
        name = names[(self.seat_index * 3 + self.rng.randrange(3)) % len(names)]
        pool = hero_traits(words)
        self.rng.shuffle(pool)
        flaws = self.rng.sample(words["limits"], 2)
        foes = [o["name"] for o in obs.view["opposition"]]
        friends = [c["name"] for c in obs.view["characters"]] + premise_people(obs.premise)[1:] + words["names"]
        friend = next((f for f in friends if f != name and f not in foes), "an old friend")
        goal = goal_text(words["goals"][(self.seat_index * 2 + self.rng.randrange(2)) % len(words["goals"])])
        action = A.CreateCharacter(player=self.name, name=name, concept=role, trademarks=pool[:4], flaws=flaws,
                                   concept_abilities=self.rng.sample(words["habits"], 3),
                                   relationships=[A.RelationshipIn(target=friend, positive=True),
                                                  A.RelationshipIn(target=foes[0] if foes else "the law",
                                                                   positive=False)],
                                   goal=goal)
        return _decision(action, f"a {role.lower()} from the premise's genre, set against "
                                 f"{foes[0] if foes else 'the law'}, who wants to {lower_first(goal)}")

    _create_character = _character

    # -- a turn -------------------------------------------------------------------------------------------
    def _turn(self, obs: GameObservation) -> Decision:
        v, me = obs.view, _me(obs.view, self.name)
        assert me is not None
        words = lex(obs.premise)
        opts = {o.type for o in obs.options}
        if "downtime" in opts and me["resolve"] < me["cap"]:
            worst = next((c for c in reversed(me["conditions"]) if not c["positive"]), None)
            return _decision(A.Downtime(player=self.name, text=f"{me['name']} rests and {self.pick(words['friendly'])} "
                                        f"{me['relationships'][0]['target']}",
                                        condition_id=worst["id"] if worst else None),
                             "downtime: Resolve below the cap, once a session")
        scene = v["scenes"][-1]
        foes = [o for o in _live_opposition(v) if o["id"] in scene["present"]]
        if not foes:
            deed = self.pick(words["deeds"])
            if self.rng.random() < 0.3:
                return _decision(A.PassTurn(player=self.name, text=f"{me['name']} keeps watch"),
                                 "no opposition in the scene: watch and wait")
            return _decision(A.Attempt(player=self.name, question=f"Does {me['name']} {base_form(deed)}?",
                                       intent=f"{me['name']} {deed}", descriptors=me["trademarks"][:1]),
                             f"no opposition here: {me['name']} {deed}")
        foe = foes[0]
        if "narrate_fact" in opts and me["resolve"] >= 4 and self.rng.random() < 0.2:
            prop = self.pick(words["props"])
            return _decision(A.NarrateFact(player=self.name, descriptor=me["trademarks"][0],
                                           text=f"{me['name']} stashed {a_an(lower_first(prop))} at "
                                                f"{scene['place']} earlier"),
                             f"a small fact for 1 Resolve, backed by '{me['trademarks'][0]}'")
        verb = self.pick(words["hostile"])
        question = f"Does {me['name']} get the better of {foe['name']}?"
        if foe["kind"] == "obstacle":
            question = f"Does {me['name']} get through {foe['name'].removeprefix('the way into ')}?"
        descriptors = me["trademarks"][:1] + ([me["trademarks"][1]] if self.rng.random() < 0.5 else [])
        goal = me["goals"][0] if me["goals"] else None
        step = None
        if goal and foe["kind"] == "character" and self.rng.random() < 0.35:
            step = "final" if self.milestones >= 2 else "milestone"
        risky = foe["kind"] == "character" and me["resolve"] >= 4 and self.rng.random() < 0.25
        others = [c["seat"] for c in v["characters"] if c["seat"] != self.name and not c["out"]]
        aligned = [others[0]] if others and foe["kind"] == "character" and self.rng.random() < 0.2 else []
        why = (f"act against {foe['name']} ({verb})" + (", a Goal milestone" if step == "milestone" else "")
               + (", the Goal's decisive conflict" if step == "final" else "") + (", risky" if risky else "")
               + (f", with {aligned[0]} alongside" if aligned else ""))
        return _decision(A.Attempt(player=self.name, question=question, intent=f"{me['name']} {verb} {foe['name']}",
                                   descriptors=descriptors, use_concept=self.rng.random() < 0.5, against=foe["id"],
                                   risky=risky, aligned=aligned, goal=goal if step else None, goal_step=step), why)

    # -- dice ---------------------------------------------------------------------------------------------
    def _after_roll(self, obs: GameObservation) -> Decision:
        v, me = obs.view, _me(obs.view, self.name)
        k = v["conflict"]
        mine = next((r for r in k["rolls"] if r["key"] == self.name), None)
        opts = {o.type for o in obs.options}
        high = k["stakes"]["pc_side"] == "high"
        if mine is None:
            return _decision(A.KeepRoll(player=self.name), "not my roll")
        if mine["result"] in NO_RESULTS and "concede" in opts and high and me and me["resolve"] <= 1:
            return _decision(A.Concede(player=self.name, terms=f"{me['name']} backs off before it turns deadly"),
                             "losing at high stakes with Resolve low: concede for +1")
        odd = [i for i, f in enumerate(mine["faces"]) if f % 2]
        worth = high or bool(k.get("goal_step"))
        if mine["result"] in NO_RESULTS and "reroll" in opts and odd and worth and me and me["resolve"] >= 3:
            return _decision(A.Reroll(player=self.name, key=self.name, indices=odd),
                             f"a {mine['result']} with Resolve at stake: reroll the {len(odd)} odd dice for 1")
        return _decision(A.KeepRoll(player=self.name), f"keep the {mine['result']}")

    def _narrate_outcome(self, obs: GameObservation) -> Decision:
        v = obs.view
        k = v["conflict"]
        words = lex(obs.premise)
        me = _me(v, self.name)
        foe = next((o for o in v["opposition"] if o["id"] == k["against"]), None)
        answer = k["answer"] or "Yes"
        name = me["name"] if me else self.name
        conds: list[dict] = []
        details: list[str] = []
        if answer == "Yes, and":
            if foe is not None:
                conds.append({"target": foe["id"], "name": "Off Balance", "tier": "minor", "scope": "physical"})
            else:
                details.append(f"{name} finds {a_an(lower_first(self.pick(words['props'])))}")
        elif answer == "Yes, but":
            conds.append({"target": self.name, "name": self.pick(words["injuries"])})
        for seat, n in (k.get("losses") or {}).items():  # an aligned friend who lost pays for it (L654)
            if n > 0 and not any(c["target"] == seat for c in conds):
                conds.append({"target": seat, "name": self.pick(words["injuries"]), "scope": "physical"})
        if k.get("goal_step"):
            self.milestones += 1
        if foe is not None:
            text = f"{name} {self.pick(words['hostile'])} {foe['name']} and comes out on top"
        else:
            text = k.get("intent") or f"{name} manages it"
        text += {"Yes, and": ", and more besides.", "Yes, but": ", but not without a cost."}.get(answer, ".")
        if answer == "Impasse":
            text = f"{name} and {foe['name'] if foe else 'the trouble'} are at a standstill."
        return _decision(A.NarrateOutcome(player=self.name, text=text, conditions=conds, details=details),
                         f"narrate my {answer}")

    # -- after a fall, a Goal, a scenario -------------------------------------------------------------------
    def _escape(self, obs: GameObservation) -> Decision:
        me = _me(obs.view, self.name)
        words = lex(obs.premise)
        if me and len(me["trademarks"]) >= 3:
            flaw = self.pick(words["limits"])
            return _decision(A.EscapeTrade(player=self.name, trademark=me["trademarks"][-1], flaw=flaw),
                             "trade a Trademark for a permanent Flaw rather than leave the story")
        return _decision(A.WriteOut(player=self.name, text=f"{me['name'] if me else self.name} leaves the story, spent."),
                         "too little left to trade: the character bows out")

    def _advance(self, obs: GameObservation) -> Decision:
        words = lex(obs.premise)
        success = "trademark" in (obs.options[0].choices if obs.options else ())
        goal = goal_text(self.pick(words["goals"]))
        self.milestones = 0
        if success:
            return _decision(A.Advance(player=self.name, kind="trademark", text=self.pick(words["lessons"]),
                                       new_goal=goal), "a Goal won: a new Trademark and a new Goal")
        return _decision(A.Advance(player=self.name, kind="flaw", text=self.pick(words["limits"]), new_goal=goal),
                         "a Goal lost: a new Flaw and a new Goal")

    def _add_relationship(self, obs: GameObservation) -> Decision:
        others = [c["name"] for c in obs.view["characters"] if c["seat"] != self.name]
        target = self.pick(others) or self.pick(lex(obs.premise)["names"])
        return _decision(A.AddRelationship(player=self.name, target=target, positive=True),
                         "the scenario bound us: a positive Relationship")


def heuristic_seat(name: str, role: str, seed: int = 0, seat_index: int = 0, scenes: int = 6) -> FubarGM | FubarPlayer:
    return (FubarGM if role == "gm" else FubarPlayer)(name, seed=seed, seat_index=seat_index, scenes=scenes)

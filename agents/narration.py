"""Words for the heuristic player, built from the game's own Tenets, components and Traits.

A small grammar per genre supplies fresh material (names, roles, places, traits); sentences
about the story re-use what the table has already paid for, so an all-heuristic transcript
reads as one story rather than as placeholders.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from engine.universalis.state import Component, GameState

GENRES: dict[str, dict[str, list[str]]] = {
    "space opera": {
        "tenets": ["Faster-than-light travel costs a year of the traveller's life",
                   "The Empire is dying and everyone knows it", "Machines may not lie to humans",
                   "No one returns from the Rim unchanged", "Every station has a hidden lower deck"],
        "names": ["Vex Adaro", "Ilsa Marn", "Corin Thale", "Jun Okafor", "Mira Quell", "Dace Holloway",
                  "Tarek Voss", "Nyla Serrat", "Brannoc", "Sefa Lune"],
        "roles": ["smuggler captain", "imperial envoy", "rogue pilot", "station medic", "bounty hunter",
                  "android archivist", "rebel courier", "dockmaster"],
        "places": ["Orbital Station Kessa", "the derelict freighter Anvil", "the throne world of Ys",
                   "a mining colony on Tarsis", "the smugglers' moon", "the Rim beacon"],
        "props": ["stolen star chart", "ion pistol", "encrypted data core", "battered shuttle", "imperial seal"],
        "traits": ["Haunted by the war", "Owes a debt to the Syndicate", "Quick on the trigger",
                   "Speaks every trade tongue", "Trusts no machine", "Carries a forged identity",
                   "Loyal to a dead captain", "Reckless under fire", "Knows the hidden lanes", "Cold and precise"],
        "place_traits": ["Flickering lights", "Crowded with refugees", "Patrolled by drones",
                         "Smells of ozone", "Echoing empty corridors"],
        "verbs": ["confronts", "bargains with", "betrays", "rescues", "ambushes", "confides in",
                  "chases", "warns", "threatens", "shields"],
        "deeds": ["slips past the patrol", "repairs the failing drive", "decodes a fragment of the message",
                  "hides the evidence", "signals the fleet", "studies the star chart"],
        "injuries": ["Burned hand", "Cracked ribs", "Shaken nerve", "Blaster wound"],
    },
    "fantasy": {
        "tenets": ["Magic always exacts a price in memory", "The old gods are awake but weak",
                   "All true love affairs must end tragically", "The dead cannot cross running water",
                   "Every crown in the realm is cursed"],
        "names": ["Aldric Vane", "Seren of the Marsh", "Tamsin Hale", "Orrin Blackwood", "Lysa Thorne",
                  "Gareth Morrow", "Wenna", "Edric the Grey", "Isolde Fenn", "Brother Cal"],
        "roles": ["exiled knight", "hedge witch", "thief", "royal heir", "wandering priest", "mercenary captain",
                  "sparrow rider", "court spy"],
        "places": ["the Drowned Abbey", "Castle Ravensmoor", "the Meadow village", "a smoky tavern",
                   "the Whispering Forest", "the queen's throne room"],
        "props": ["cursed blade", "sealed letter", "crown of thorns", "healing draught", "map of the old roads"],
        "traits": ["Sworn to vengeance", "Touched by the old gods", "Master swordsman", "Cannot tell a lie",
                   "Fears deep water", "Beloved by the common folk", "Carries a secret name",
                   "Quick tongue", "Bears a royal birthmark", "Hunted by the Order"],
        "place_traits": ["Crumbling walls", "Thick with fog", "Guarded by wolves", "Full of whispers",
                         "Lit by witch-fire"],
        "verbs": ["duels", "swears fealty to", "deceives", "heals", "ambushes", "confesses to", "pursues",
                  "warns", "curses", "protects"],
        "deeds": ["reads the omens", "sharpens the blade by the fire", "prays at the broken altar",
                  "hides the letter", "rides through the night", "studies the old map"],
        "injuries": ["Deep gash", "Cursed wound", "Broken arm", "Fevered"],
    },
    "noir": {
        "tenets": ["Everyone in this city is on someone's payroll", "It always rains after midnight",
                   "No good deed goes unpunished", "The past never stays buried", "Cops and crooks drink at the same bar"],
        "names": ["Jack Malone", "Vera Lisle", "Sal Benedetti", "Ruby Kane", "Detective Hart", "Mickey Flynn",
                  "Lorna Vance", "Eddie 'the Knife' Russo", "Dr. Grayson", "Nell Shaw"],
        "roles": ["private eye", "torch singer", "crooked cop", "mob accountant", "bartender", "reporter",
                  "femme fatale", "bootlegger"],
        "places": ["the Blue Note club", "a rain-soaked alley", "the precinct house", "the docks at night",
                   "a cheap hotel room", "the mayor's mansion"],
        "props": ["snub-nosed revolver", "ledger of payoffs", "photograph", "getaway car", "key to a locker"],
        "traits": ["Drinks too much", "Owes the mob", "Never forgets a face", "Honest to a fault",
                   "Lies as easily as breathing", "Knows where the bodies are buried", "Tough as nails",
                   "Carries a torch for an old flame", "Quick with a gun", "Paid off by the mayor"],
        "place_traits": ["Smoke-filled", "Neon-lit", "Watched by goons", "Stinking of fish", "Quiet as a grave"],
        "verbs": ["interrogates", "double-crosses", "tails", "bribes", "threatens", "kisses", "shoots at",
                  "tips off", "blackmails", "covers for"],
        "deeds": ["lights a cigarette and waits", "searches the office", "pockets the evidence",
                  "makes a phone call", "pours another drink", "reads the ledger"],
        "injuries": ["Black eye", "Bullet in the shoulder", "Cracked knuckles", "Concussion"],
    },
}


def genre_of(s: GameState, premise: str = "") -> str:
    """The genre the Tenets or the premise speak of; space opera when nothing says."""
    text = (premise + " " + " ".join(t.text for t in s.tenets)).lower()
    for key, words in {"fantasy": ["magic", "knight", "fantasy", "gods", "crown", "witch", "dragon"],
                       "noir": ["noir", "detective", "city", "mob", "rain", "cop"],
                       "space opera": ["space", "star", "empire", "station", "ship", "planet"]}.items():
        if any(w in text for w in words):
            return key
    return "space opera"


@dataclass
class Words:
    """Sentence-making for one game, seeded so a simulation is reproducible."""

    s: GameState
    rng: random.Random
    premise: str = ""

    @property
    def lex(self) -> dict[str, list[str]]:
        return GENRES[genre_of(self.s, self.premise)]

    def pick(self, key: str, avoid: set[str] | None = None) -> str:
        items = [x for x in self.lex[key] if not avoid or x not in avoid]
        return self.rng.choice(items or self.lex[key])

    def used_texts(self) -> set[str]:
        out = {t.text for c in self.s.components.values() for t in c.traits}
        return out | {t.text for t in self.s.tenets}

    def tenet(self) -> str:
        return self.pick("tenets", self.used_texts())

    def new_character(self) -> tuple[str, str]:
        return self.pick("roles"), self.pick("names", self.used_texts())

    def new_place(self) -> str:
        return self.pick("places", self.used_texts())

    def trait_for(self, comp: Component) -> str:
        have = {t.text for t in comp.traits}
        key = "place_traits" if comp.kind == "location" else "traits"
        return self.pick(key, have)

    def injury(self, comp: Component) -> str:
        return self.pick("injuries", {t.text for t in comp.traits})

    def describe(self, comp: Component) -> str:
        """"Vex Adaro, the smuggler captain" with a Trait when there is one."""
        label = comp.label
        roles = [t.text for t in comp.traits if t.kind in ("role", "sub") and not t.removed and t.text != label]
        return f"{label}, the {roles[0].lower()}" if roles else label

    def tenet_flavour(self) -> str:
        live = [t.text for t in self.s.tenets if not t.removed]
        return self.rng.choice(live) if live else ""

    def event(self, performer: Component | None, receiver: Component | None, place: Component | None) -> str:
        where = f" in {place.label}" if place is not None else ""
        if performer is not None and receiver is not None:
            verb = self.pick("verbs")
            trait = [t.text for t in performer.live_traits() if t.kind == "plain"]
            how = f", {trait[-1].lower()}," if trait and self.rng.random() < 0.5 else ""
            return f"{performer.label}{how} {verb} {receiver.label}{where}."
        actor = performer or receiver
        if actor is not None:
            return f"{actor.label} {self.pick('deeds')}{where}."
        return f"Something stirs{where}."

    def detail(self, place: Component | None) -> str:
        flavour = self.tenet_flavour()
        if flavour and self.rng.random() < 0.5:
            return f"As everyone here knows, {flavour[0].lower() + flavour[1:]}."
        return f"{place.label if place else 'The place'} is {self.pick('place_traits').lower()}."

    def fate(self, comp: Component, killer: Component | None) -> str:
        by = f" at the hands of {killer.label}" if killer is not None else ""
        return f"{comp.label} falls{by} and is gone from the story."

"""A long Universalis-style game world for the memory probe, built deterministically.

Why a generator: the probe needs hundreds of Facts with realistic distractors
(minor characters, near-duplicate details). The hand-written core below carries
every Fact a query needs; seeded filler adds the noise of a long game. Run
`python -m eval.memory.probe_world` to rewrite eval/data/memory_probe.json.
Later the team replaces the JSON with Facts from a real played game; the
loader (eval.memory.probe.load_probe) only needs records + queries.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

GAME_ID = "drowned-marches"
OUT = Path(__file__).resolve().parents[1] / "data" / "memory_probe.json"
PLAYERS = ["ana", "ben", "cleo", "dev"]

COMPONENTS: dict[str, str] = {
    "marissa": "Marissa Tournou",
    "slytheran": "The Slytheran",
    "aldric": "Aldric Vane",
    "beatrix": "Beatrix Vane",
    "hollowmere": "Hollowmere",
    "ashwood": "The Ashwood",
    "tower": "The Lantern Tower",
    "ilse": "Sister Ilse",
    "knife": "The Glass Knife",
    "odo": "Odo Fenwick",
    "council": "The Tallow Council",
    "mere": "The Mere",
    "hounds": "The Grey Hounds",
    "kestrel": "Kestrel",
    "abbey": "St. Corwen's Abbey",
    "ship": "The Merrow's Debt",
    "mathis": "Mathis Crane",
    "lenore": "Lenore Ashby",
}

# (fact key, component key or None, kind, scene, text). Tenets have scene None.
CORE: list[tuple[str, str | None, str, int | None, str]] = [
    ("t1", None, "tenet", None, "All true love affairs end tragically."),
    ("t2", None, "tenet", None, "Magic always exacts a price in blood."),
    ("t3", None, "tenet", None, "The dead do not stay buried in the Marches."),
    ("t4", None, "tenet", None, "An oath sworn over running water can never be broken."),
    ("t5", None, "tenet", None, "Nobody in Hollowmere trusts the nobility."),
    ("t6", None, "tenet", None, "Every bell in the Marches tolls by itself when a saint dies."),
    # Marissa
    ("m1", "marissa", "trait", 1, "Marissa Tournou is a trained killer."),
    ("m2", "marissa", "trait", 1, "Marissa Tournou was raised by the Guild of Knives in the port of Velm."),
    ("m3", "marissa", "trait", 2, "Marissa has a burn scar across her left hand."),
    ("m4", "marissa", "trait", 4, "Marissa cannot swim."),
    ("m5", "marissa", "trait", 7, "Marissa is secretly in love with Beatrix Vane."),
    ("m6", "marissa", "event", 9, "Marissa poisoned the reeve of Hollowmere at the midsummer feast."),
    ("m7", "marissa", "trait", 12, "Marissa owes a life-debt to Odo Fenwick."),
    ("m8", "marissa", "detail", 15, "Marissa keeps her coins sewn into the hem of her cloak."),
    ("m9", "marissa", "trait", 18, "Marissa speaks the Slytheran tongue."),
    # Slytheran
    ("s1", "slytheran", "trait", 2, "The Slytheran are a serpent-worshipping cult hidden in the fens."),
    ("s2", "slytheran", "event", 3, "The Slytheran set the forest fire."),
    ("s3", "slytheran", "trait", 5, "The Slytheran mark their initiates with a tattoo of a coiled eel."),
    ("s4", "slytheran", "trait", 11, "The Slytheran worship a drowned god called Ysh."),
    ("s5", "slytheran", "event", 16, "The Slytheran kidnapped the abbot of St. Corwen's."),
    ("s6", "slytheran", "detail", 20, "The Slytheran meet under the fourth arch of the old causeway."),
    ("s7", "slytheran", "trait", 22, "The Slytheran fear iron bells."),
    # Aldric
    ("a1", "aldric", "trait", 1, "Aldric Vane is an exiled duke."),
    ("a2", "aldric", "trait", 3, "Aldric Vane lost his right eye in the siege of Carrow."),
    ("a3", "aldric", "event", 6, "Aldric sold his ancestral sword to pay the Grey Hounds."),
    ("a4", "aldric", "trait", 8, "Aldric drinks heavily since his wife drowned."),
    ("a5", "aldric", "event", 14, "Aldric signed a secret treaty with the Tallow Council."),
    ("a6", "aldric", "trait", 19, "Aldric Vane is terrified of deep water."),
    ("a7", "aldric", "detail", 21, "Aldric's signet ring bears a heron."),
    # Beatrix
    ("b1", "beatrix", "trait", 1, "Beatrix Vane is Aldric's only daughter."),
    ("b2", "beatrix", "trait", 2, "Beatrix is betrothed to Mathis Crane."),
    ("b3", "beatrix", "trait", 5, "Beatrix is a gifted cartographer."),
    ("b4", "beatrix", "event", 10, "Beatrix ran away from the Lantern Tower during the storm."),
    ("b5", "beatrix", "trait", 13, "Beatrix has the sight: she sees the recently dead."),
    ("b6", "beatrix", "detail", 17, "Beatrix wears her mother's pearl earrings."),
    ("b7", "beatrix", "event", 23, "Beatrix burned the map of the causeway."),
    # Hollowmere
    ("h1", "hollowmere", "trait", 1, "Hollowmere is a fen-town built on stilts."),
    ("h2", "hollowmere", "trait", 2, "Hollowmere floods every spring."),
    ("h3", "hollowmere", "detail", 4, "The market of Hollowmere smells of eel smoke."),
    ("h4", "hollowmere", "trait", 6, "Hollowmere is ruled by the Tallow Council."),
    ("h5", "hollowmere", "event", 9, "The reeve of Hollowmere died at the midsummer feast."),
    ("h6", "hollowmere", "trait", 20, "Hollowmere has no walls, only a palisade of black reeds."),
    # Ashwood
    ("w1", "ashwood", "trait", 3, "The Ashwood is a forest of pale birches east of Hollowmere."),
    ("w2", "ashwood", "event", 3, "Half of the Ashwood burned to the ground in a single night."),
    ("w3", "ashwood", "trait", 8, "Wolves with white eyes hunt in the Ashwood."),
    ("w4", "ashwood", "detail", 15, "Charcoal burners camp at the edge of the Ashwood."),
    # Tower
    ("tw1", "tower", "trait", 1, "The Lantern Tower is the Vane family's last holding."),
    ("tw2", "tower", "trait", 4, "The Lantern Tower's beacon has been dark for ten years."),
    ("tw3", "tower", "event", 10, "Lightning struck the Lantern Tower during the storm."),
    ("tw4", "tower", "detail", 12, "The Lantern Tower has one hundred and twelve steps."),
    ("tw5", "tower", "trait", 24, "A ghost walks the top floor of the Lantern Tower."),
    # Ilse
    ("i1", "ilse", "trait", 2, "Sister Ilse is a plague nun from St. Corwen's Abbey."),
    ("i2", "ilse", "trait", 5, "Sister Ilse is immune to the grey rot."),
    ("i3", "ilse", "event", 7, "Sister Ilse healed Kestrel's broken leg."),
    ("i4", "ilse", "trait", 11, "Sister Ilse was once a Slytheran initiate."),
    ("i5", "ilse", "detail", 14, "Sister Ilse carries a lantern that never goes out."),
    ("i6", "ilse", "event", 25, "Sister Ilse died defending the abbey gate."),
    # Knife
    ("k1", "knife", "trait", 4, "The Glass Knife can cut a shadow from its owner."),
    ("k2", "knife", "trait", 8, "The Glass Knife was forged from a frozen tear of the drowned god."),
    ("k3", "knife", "event", 12, "Marissa stole the Glass Knife from the abbey reliquary."),
    ("k4", "knife", "trait", 19, "The Glass Knife shatters if it touches iron."),
    # Odo
    ("o1", "odo", "trait", 2, "Odo Fenwick is the ferryman of the Mere."),
    ("o2", "odo", "trait", 3, "Odo Fenwick is blind but knows every channel by sound."),
    ("o3", "odo", "event", 12, "Odo pulled Marissa out of the river when she nearly drowned."),
    ("o4", "odo", "trait", 16, "Odo Fenwick charges one silver penny per crossing."),
    ("o5", "odo", "detail", 21, "Odo's boat is painted the colour of dried blood."),
    # Council
    ("c1", "council", "trait", 2, "The Tallow Council is a guild of candle-makers who govern Hollowmere."),
    ("c2", "council", "trait", 6, "The Tallow Council has seven members."),
    ("c3", "council", "event", 13, "The Tallow Council banned all boats from the Mere after dark."),
    ("c4", "council", "trait", 17, "The Tallow Council secretly pays tribute to the Slytheran."),
    ("c5", "council", "event", 22, "The Tallow Council hanged three smugglers at the causeway."),
    # Mere
    ("r1", "mere", "trait", 2, "The Mere is a slow black river that feeds the fens."),
    ("r2", "mere", "trait", 9, "Eels the size of a man live in the deepest pools of the Mere."),
    ("r3", "mere", "event", 18, "The Mere froze solid for the first time in a century."),
    # Hounds
    ("g1", "hounds", "trait", 5, "The Grey Hounds are a mercenary company of forty riders."),
    ("g2", "hounds", "trait", 6, "The Grey Hounds fight for whoever pays in gold."),
    ("g3", "hounds", "event", 14, "The Grey Hounds deserted Aldric on the eve of battle."),
    ("g4", "hounds", "detail", 20, "The Grey Hounds' captain is a woman called Morwen Ash."),
    # Kestrel
    ("ke1", "kestrel", "trait", 3, "Kestrel is a twelve-year-old pickpocket."),
    ("ke2", "kestrel", "trait", 7, "Kestrel is an orphan of the grey rot."),
    ("ke3", "kestrel", "event", 16, "Kestrel witnessed the abbot's kidnapping."),
    ("ke4", "kestrel", "trait", 21, "Kestrel can climb any wall in Hollowmere."),
    # Abbey
    ("ab1", "abbey", "trait", 2, "St. Corwen's Abbey stands on an island in the middle of the Mere."),
    ("ab2", "abbey", "trait", 8, "St. Corwen's Abbey keeps a library of forbidden charts."),
    ("ab3", "abbey", "event", 25, "St. Corwen's Abbey was besieged by the walking dead."),
    # Ship
    ("sh1", "ship", "trait", 6, "The Merrow's Debt is a smuggling barge."),
    ("sh2", "ship", "trait", 11, "The Merrow's Debt is captained by Lenore Ashby."),
    ("sh3", "ship", "event", 22, "The Merrow's Debt sank near the causeway with all its cargo."),
    # Mathis
    ("mc1", "mathis", "trait", 2, "Mathis Crane is the son of the richest candle-maker in Hollowmere."),
    ("mc2", "mathis", "trait", 9, "Mathis Crane is a coward who hides behind his father's money."),
    ("mc3", "mathis", "event", 17, "Mathis Crane challenged Marissa to a duel and lost."),
    ("mc4", "mathis", "trait", 23, "Mathis Crane is allergic to horses."),
    # Lenore
    ("l1", "lenore", "trait", 11, "Lenore Ashby is a one-armed smuggler."),
    ("l2", "lenore", "trait", 14, "Lenore Ashby is Morwen Ash's estranged sister."),
    ("l3", "lenore", "event", 22, "Lenore Ashby escaped the sinking barge by swimming to the causeway."),
    # scene facts without a component
    ("e1", None, "time", 1, "It is the last week of autumn."),
    ("e2", None, "event", 10, "A storm cut Hollowmere off from the coast for three days."),
    ("e3", None, "detail", 10, "Rain fell so hard the lanterns of the market drowned."),
    ("e4", None, "event", 13, "The grey rot returned to the fens."),
    ("e5", None, "time", 18, "Winter came early and hard."),
    ("e6", None, "absence", 19, "No birds sing in the fens since the fire."),
    ("e7", None, "event", 24, "The dead rose from the flooded graveyard of Hollowmere."),
    ("e8", None, "dialog", 9, "'The reeve was not the first, and he will not be the last,' whispered the hooded stranger."),
    ("e9", None, "dialog", 16, "'Ysh hungers for the abbot's bones,' the cultist said."),
    ("e10", None, "detail", 20, "The old causeway has twelve arches, three of them broken."),
    ("e11", None, "event", 26, "The bells of every chapel rang at once at dawn."),
    ("e12", None, "detail", 26, "A heron with a broken wing circles the Lantern Tower."),
]

# Paraphrased questions: different words from the Facts they need.
QUERIES: list[tuple[str, list[str]]] = [
    ("Who is responsible for burning the woods?", ["s2"]),
    ("What happens to couples who really care for each other?", ["t1"]),
    ("What does sorcery cost the one who uses it?", ["t2"]),
    ("Can corpses come back in this land?", ["t3", "e7"]),
    ("Is there a promise that cannot be taken back?", ["t4"]),
    ("How do the townsfolk feel about lords and ladies?", ["t5"]),
    ("Is Marissa dangerous in a fight?", ["m1"]),
    ("Where did Marissa grow up and who brought her up?", ["m2"]),
    ("Does Marissa have any old injuries on her body?", ["m3"]),
    ("What happens if Marissa falls into deep water?", ["m4", "o3"]),
    ("Who does Marissa have feelings for?", ["m5"]),
    ("Who murdered the town's magistrate during the summer celebration?", ["m6", "h5"]),
    ("Why is Marissa indebted to the boatman?", ["m7", "o3"]),
    ("Where does Marissa hide her money?", ["m8"]),
    ("Which languages does Marissa know?", ["m9"]),
    ("What kind of group are the snake people?", ["s1"]),
    ("How can you recognise a member of the cult?", ["s3"]),
    ("Which deity do the cultists pray to?", ["s4"]),
    ("Who abducted the head of the monastery?", ["s5", "ke3"]),
    ("Where does the cult gather in secret?", ["s6"]),
    ("What frightens the serpent worshippers?", ["s7"]),
    ("Why is Aldric no longer at his court?", ["a1"]),
    ("How was Aldric wounded in the war?", ["a2"]),
    ("What did the old duke give up to hire soldiers?", ["a3"]),
    ("Why does Aldric hit the bottle?", ["a4"]),
    ("What hidden agreement did the duke make with the town's rulers?", ["a5"]),
    ("Is Aldric afraid of anything?", ["a6"]),
    ("What emblem is on Aldric's jewellery?", ["a7"]),
    ("Does Aldric have children?", ["b1"]),
    ("Who is Beatrix supposed to marry?", ["b2"]),
    ("What is Beatrix skilled at?", ["b3"]),
    ("When did Beatrix flee her father's home?", ["b4"]),
    ("Does Beatrix have any supernatural gift?", ["b5"]),
    ("What jewellery does Beatrix wear?", ["b6"]),
    ("What did Beatrix destroy?", ["b7"]),
    ("How are the houses of the marsh town built?", ["h1"]),
    ("Does the town get flooded?", ["h2"]),
    ("What is the market like?", ["h3"]),
    ("Who governs Hollowmere?", ["h4", "c1"]),
    ("What defences does the town have?", ["h6"]),
    ("What kind of trees grow in the woods near town?", ["w1"]),
    ("How much of the forest was lost?", ["w2"]),
    ("What predators roam the forest?", ["w3"]),
    ("Who lives at the edge of the birch wood?", ["w4"]),
    ("What property does the Vane family still own?", ["tw1"]),
    ("Is the light at the top of the tower still lit?", ["tw2"]),
    ("What damage did the tempest do to the tower?", ["tw3"]),
    ("How tall is the Lantern Tower?", ["tw4"]),
    ("Is the tower haunted?", ["tw5"]),
    ("Where does the nun come from?", ["i1"]),
    ("Can Sister Ilse catch the disease?", ["i2"]),
    ("Who mended the child thief's injury?", ["i3"]),
    ("Did Ilse ever belong to the cult?", ["i4"]),
    ("How did Sister Ilse meet her end?", ["i6"]),
    ("What can the glass blade do?", ["k1"]),
    ("What is the magic dagger made of?", ["k2"]),
    ("Who took the blade from the monks?", ["k3"]),
    ("Is the dagger fragile against any metal?", ["k4"]),
    ("Can the boatman see?", ["o2"]),
    ("How much does it cost to cross the river?", ["o4"]),
    ("What colour is the ferry?", ["o5"]),
    ("How many people sit on the council?", ["c2"]),
    ("What curfew did the rulers impose on the water?", ["c3"]),
    ("Is the council in league with the cult?", ["c4"]),
    ("Who was executed at the bridge?", ["c5"]),
    ("What lives at the bottom of the river?", ["r2"]),
    ("Did the river ever turn to ice?", ["r3"]),
    ("How big is the mercenary band?", ["g1"]),
    ("Who leads the sellswords?", ["g4"]),
    ("Did the mercenaries betray anyone?", ["g3"]),
    ("How old is the little pickpocket?", ["ke1"]),
    ("What happened to Kestrel's parents?", ["ke2"]),
    ("Where is the monastery located?", ["ab1"]),
    ("What happened to the smugglers' boat?", ["sh3", "l3"]),
    ("Who commands the barge?", ["sh2"]),
    ("Is Mathis brave?", ["mc2"]),
    ("Who won the fight between Mathis and Marissa?", ["mc3"]),
    ("How is Lenore related to the mercenary captain?", ["l2"]),
    ("What season is it when the story begins?", ["e1"]),
    ("Why is the marsh silent?", ["e6"]),
    ("How many spans of the bridge are ruined?", ["e10"]),
    ("What disease came back?", ["e4"]),
]

# Filler: the minor cast and background of a long game (seeded, so stable).
_FIRST = ["Joss", "Wenna", "Piers", "Maud", "Tobin", "Elsbeth", "Garrick", "Nell", "Hal", "Orla", "Crispin",
          "Agnes", "Bram", "Sabine", "Tam", "Ivo", "Rosalind", "Silas", "Gwen", "Aldo"]
_LAST = ["Merrin", "Colt", "Harrow", "Dunne", "Wick", "Fallow", "Reed", "Tanner", "Moss", "Pike", "Gale", "Thorne"]
_TRADES = ["tanner", "eel-catcher", "tavern keeper", "gravedigger", "candle-maker", "net-weaver", "peat-cutter",
           "bell-ringer", "herbalist", "toll-keeper", "boat-builder", "fishwife"]
_TRAITS = ["has a limp", "owes money to the Tallow Council", "sings to the eels at night", "is afraid of the dark",
           "keeps three black cats", "lost a brother to the grey rot", "drinks at the Drowned Lamb every evening",
           "cannot read", "is devoted to St. Corwen", "hates the Grey Hounds", "has a gambling habit",
           "was born during a flood", "wears a copper ring on every finger", "speaks with a northern accent",
           "trades gossip for bread", "has never left Hollowmere", "keeps a ledger of every debt in town",
           "is missing two fingers", "sleeps in a boat under the causeway", "collects old coins"]
_PLACES = ["the Drowned Lamb tavern", "the peat yards", "the chapel of the Nine Reeds", "the salt pans",
           "the eel weirs", "the north sluice", "the gibbet hill", "the candle market", "the old mill",
           "the toll bridge", "the reed beds", "the charnel house"]
_PLACE_DETAILS = ["smells of wet ash", "is lit by tallow lamps", "floods at high tide", "is guarded at night",
                  "has a crooked chimney", "is crowded on market day", "is said to be haunted",
                  "was rebuilt after the fire", "is closed by order of the council", "echoes with frog song"]
_EVENTS = ["{a} quarrelled with {b} over a debt", "{a} found a drowned sheep in the reeds",
           "{a} sold a basket of eels to {b}", "{a} saw lights moving over the fens",
           "{a} lost a wager to {b}", "{a} repaired the roof of {p}", "{a} was robbed near {p}",
           "{a} prayed all night at {p}", "{a} married {b} in a quiet ceremony", "{a} fell ill with a fever"]


def _filler(rng: random.Random, n: int) -> list[tuple[str | None, str, int, str, str | None]]:
    """(component name or None, kind, scene, text, new component name) rows of background noise."""
    people = [f"{f} {l}" for f in _FIRST for l in _LAST]
    rng.shuffle(people)
    cast = people[:30]
    rows: list[tuple[str | None, str, int, str, str | None]] = []
    for i, person in enumerate(cast):
        rows.append((person, "trait", 1 + i % 26, f"{person} is a {rng.choice(_TRADES)} in Hollowmere.", person))
    while len(rows) < n:
        roll = rng.random()
        scene = rng.randint(1, 26)
        if roll < 0.45:
            person = rng.choice(cast)
            rows.append((person, "trait", scene, f"{person} {rng.choice(_TRAITS)}.", None))
        elif roll < 0.7:
            place = rng.choice(_PLACES)
            rows.append((None, "detail", scene, f"{place[0].upper()}{place[1:]} {rng.choice(_PLACE_DETAILS)}.", None))
        else:
            a, b = rng.sample(cast, 2)
            text = rng.choice(_EVENTS).format(a=a, b=b, p=rng.choice(_PLACES))
            rows.append((a, "event", scene, text + ".", None))
    return rows


def build(n_filler: int = 200, seed: int = 7) -> dict[str, Any]:
    """The probe as JSON-able data: {"game_id", "facts": [FactRecord dicts], "queries": [...]}."""
    rng = random.Random(seed)
    rows: list[dict[str, Any]] = []
    for key, comp, kind, scene, text in CORE:
        rows.append({"id": key, "text": text, "kind": kind, "scene": scene,
                     "component_id": f"comp-{comp}" if comp else None,
                     "component_name": COMPONENTS[comp] if comp else None})
    comp_ids: dict[str, str] = {}
    for i, (comp_name, kind, scene, text, _new) in enumerate(_filler(rng, n_filler)):
        cid = None
        if comp_name:
            cid = comp_ids.setdefault(comp_name, f"comp-x{len(comp_ids)}")
        rows.append({"id": f"x{i}", "text": text, "kind": kind, "scene": scene, "component_id": cid,
                     "component_name": comp_name})
    # log order: by scene (tenets first), stable within a scene; a player pays for each
    rows.sort(key=lambda r: (r["scene"] or 0))
    facts = []
    for seq, row in enumerate(rows, start=1):
        facts.append(row | {"game_id": GAME_ID, "paid_by": PLAYERS[seq % len(PLAYERS)], "seq": seq * 3,
                            "removed": False})
    queries = [{"id": f"q{i + 1}", "text": text, "relevant": rel} for i, (text, rel) in enumerate(QUERIES)]
    return {"game_id": GAME_ID, "source": "synthetic (eval/memory/probe_world.py)", "facts": facts,
            "queries": queries}


def main() -> None:
    data = build()
    ids = {f["id"] for f in data["facts"]}
    for q in data["queries"]:
        missing = [r for r in q["relevant"] if r not in ids]
        assert not missing, f"{q['id']} needs unknown facts {missing}"
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {len(data['facts'])} facts and {len(data['queries'])} queries to {OUT}")


if __name__ == "__main__":
    main()

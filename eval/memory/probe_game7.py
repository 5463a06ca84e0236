"""A seventh memory probe from a played game, written blind: eval/data/probe_game7.jsonl plus questions.

Why a seventh game: probe_game6 (the horror) was the held-out test, and its results
have been read since. This one is a fresh held-out test, a space opera played with
the heuristic narrator as it now stands (solo deeds capped per scene), another seed
and its own cast: questions written without looking at the retrieval code, its
results or any search over these Facts; only by reading the game's Facts and its
log (to know who won which conflict, who was hurt and who died) and asking what a
player at the table would ask. Nobody tunes on it.

The log was played with (seed 71, space opera, 4 heuristic seats, 14 scenes):

    simulate_game(seats=4, scenes=14, seed=71,
                  premise="A space opera about a dying empire's last fleet and the smugglers who shelter its heir",
                  log_path="eval/data/probe_game7.jsonl")

It holds 355 Facts (the first seed tried, at the usual 14 scenes). The premise's
heir never appears: the Tenets and cast are the stock space opera ones (the
Syndicate's docks, machines that may not lie, a dying Empire), and many deeds are
the same few stock ones ("signals the fleet", "hides the evidence in a cargo
crate") done by everyone in every scene.

What the game holds: three deaths among eleven characters. Nyla Serrat (the bounty
hunter) kills the smuggler captain at the Rim beacon (scene 3); Brannoc (the
Syndicate broker) kills the station medic on the throne world of Ys (scene 8);
Tarek Voss (the android archivist) kills Jun Okafor (the rebel courier) there too
(scene 12). An earlier death of the smuggler captain, at Jun Okafor's hand in
scene 2, was challenged and withdrawn (so there is no Fact f53). The long feud is
Brannoc against Nyla Serrat (won and lost on both sides at the Rim beacon,
Orbital Station Kessa, the derelict freighter Anvil and the Envoy's yacht) and
Brannoc against Jun Okafor; Sefa Lune (the imperial envoy) shelters, patches up
and drinks with Brannoc, sabotages his ship once, and wins the last clash of the
game against Nyla Serrat on Orbital Station Kessa.

How the questions were written, as for probe_game6: characters are asked about by
name and, about as often, only by their role or description ("the bounty hunter",
"the Syndicate broker", "the imperial envoy", "the android archivist", "the rebel
courier", "the deserter", "the dockmaster"; the station medic and the smuggler
captain have no other name). Places are asked about by name and by description
("the outlaws' moon", "the abandoned cargo hauler", "the imperial capital world",
"the ore-mining settlement", "the ambassador's pleasure ship", "the signal station
on the frontier"), and so is what happened in a scene at a place whose events do
not name it (who died at the Rim beacon, who hid evidence on Orbital Station
Kessa). Some are worded close to the Facts, some moderately, some heavily (about
a third each). `relevant` lists what a full answer needs; an inner list is a group
of Facts saying the same thing (a Trait restated in events, the same deed done
twice, a defeat told once from each side), any one of which counts as that item
recalled; each group was completed by grepping the whole Fact list for every
wording of it. Questions whose true answer would be more than six items were made
more specific. Tags use probe_game2's vocabulary. All questions are asked at the
end of the game (scene 14).

    python -m eval.memory.probe_game7    # replay the log, rewrite eval/data/memory_probe_game7.json
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .probe_game import ASKED_IN_SCENE, DATA, Relevant, build_probe, flat_ids
from .probe_game2 import LEVELS, REFERENTS, check_tags, tag_counts, write_probe

LOG = DATA / "probe_game7.jsonl"
OUT = DATA / "memory_probe_game7.json"
__all__ = ["ASKED_IN_SCENE", "LEVELS", "QUERIES", "REFERENTS", "build", "check_tags", "flat_ids", "tag_counts"]

# Tenets restated later as a detail of a place
TENET_FTL = ["T2", "f197"]
TENET_SYNDICATE = ["T3", "f31", "f101"]
TENET_RIM = ["T5", "f131"]
TENET_MACHINES = ["T6", "f39", "f84", "f143", "f177"]
TENET_DYING = ["T7", "f85"]
# Traits restated in events ("Brannoc, loyal to a dead captain, ...")
MEDIC_NAME = ["t3", "f3", "f92", "f132", "f161"]
MEDIC_COLD = ["t4", "f91"]
HALE_COLD = ["t60", "f67"]
SEFA_COLD = ["t79", "f150", "f236"]
BRANNOC_LOYAL = ["t13", "f22", "f41", "f76", "f78", "f88", "f114", "f120", "f121", "f123", "f124", "f127", "f149",
                 "f217", "f243", "f246", "f248"]
NYLA_LOYAL = ["t67", "f99", "f113", "f165", "f193", "f207"]
MEDIC_LOYAL = ["t77", "f134"]
SEFA_SHIP = ["t32", "f20", "f62", "f147", "f185", "f234", "f247"]
SEFA_LANES = ["t31", "f61", "f64", "f147", "f148"]
TAREK_FLEET = ["t39", "f28", "f89", "f138", "f188"]
JUN_RIM = ["t46", "f106", "f173", "f227"]
CAPTAIN_EMPIRE = ["t20", "f16"]
NYLA_LIAR = ["t66", "f80", "f102", "f198", "f221"]
MEDIC_HIDES = ["f3", "f45", "f91", "f139", "f160"]
# Deaths told once from each side (the winner's line and the loser's)
NYLA_KILLS_CAPTAIN = ["f70", "f71"]
BRANNOC_KILLS_MEDIC = ["f169", "f170"]
TAREK_KILLS_JUN = ["f228", "f229"]
# The same defeat told twice in one scene
NYLA_BEATS_BRANNOC_BEACON = ["f79", "f81"]
BRANNOC_BEATS_JUN_TARSIS = ["f174", "f182"]
BRANNOC_BEATS_JUN_ANVIL = ["f115", "f118"]
SEFA_BEATS_NYLA_KESSA = ["f253", "f254"]

# (question, relevant, tags)
QUERIES: list[tuple[str, Relevant, str]] = [
    # Tenets (some restated later as a place detail: either counts)
    ("How do people pay what they owe out here?", ["T1"], "none tenet heavy"),
    ("What does a hyperspace jump take out of a person?", [TENET_FTL], "none tenet heavy"),
    ("Which outfit controls every berth on the frontier?", [TENET_SYNDICATE], "none tenet heavy"),
    ("Is there a secret level below every space station?", ["T4"], "none tenet moderate"),
    ("Does anyone come home from the frontier the same as they left?", [TENET_RIM], "none tenet heavy"),
    ("Can a machine lie to a human?", [TENET_MACHINES], "none tenet light"),
    ("Are robots allowed to deceive people?", [TENET_MACHINES], "none tenet heavy"),
    ("Does anybody still believe the Empire has a future?", [TENET_DYING], "none tenet moderate"),
    # The station medic (no other name)
    ("What does the station medic want to do about their name?", [MEDIC_NAME], "role trait light"),
    ("Who is trying to win back an identity someone stole from them?", [MEDIC_NAME], "none trait heavy"),
    ("In how many systems is the station medic wanted?", ["t2"], "role trait light"),
    ("Who has a price on their head in three star systems?", ["t2"], "none trait moderate"),
    ("How would you describe the station doctor's manner?", [MEDIC_COLD], "role trait heavy"),
    ("Who is cold and precise?", [MEDIC_COLD, HALE_COLD, SEFA_COLD], "none trait light"),
    ("What wounds did the station medic take before dying?", ["t11", "t76"], "role wound light"),
    ("Who killed the station medic?", [BRANNOC_KILLS_MEDIC], "role outcome light"),
    ("How did the ship's doctor meet their end on the Emperor's home world?", [BRANNOC_KILLS_MEDIC],
     "role outcome scene placedesc heavy"),
    ("Who shot the station medic aboard the derelict freighter Anvil?", ["f129", "t76"],
     "role wound outcome scene place moderate"),
    ("Who made the station medic back down on the smugglers' moon?", ["f6", "f13"],
     "role outcome scene place moderate"),
    ("Whom did the station medic beat on the throne world of Ys?", ["f162"], "role outcome scene place light"),
    ("Whom will the station medic never trust again?", ["t28"], "role trait light"),
    ("Where did the medic keep stashing the proof?", [MEDIC_HIDES], "role deed heavy"),
    ("Who had a drink with the station medic on the derelict freighter?", [["f127", "f128"]],
     "role deed scene place light"),
    ("Whom did the station medic haggle with on Ys before dying?", ["f168"], "role deed scene place moderate"),
    ("Who is short of money to pay for air?", ["t16", "t35", "t69"], "none trait heavy"),
    # Brannoc, the Syndicate broker
    ("What does Brannoc do?", ["t8"], "name trait moderate"),
    ("Who brokers deals for the Syndicate?", ["t8"], "none trait light"),
    ("What is Brannoc afraid of?", ["t10"], "name trait light"),
    ("Who is frightened of empty space?", ["t10"], "none trait heavy"),
    ("To whom is Brannoc still loyal?", [BRANNOC_LOYAL], "name trait light"),
    ("Who keeps faith with a commander who is gone?", [BRANNOC_LOYAL, NYLA_LOYAL, MEDIC_LOYAL], "none trait heavy"),
    ("Whom did Brannoc swear to settle things with?", ["t15"], "name trait light"),
    ("Who has vowed to get even with the station medic?", ["t15", "t21"], "role trait moderate"),
    ("What injuries has Brannoc suffered?", ["t41", "t65", "t72"], "name wound light"),
    ("How did the Syndicate's middleman burn his hand?", ["f42", "t41"], "role wound outcome heavy"),
    ("Who wounded the Syndicate broker with a blaster on Orbital Station Kessa?", ["f97", "t72"],
     "role wound outcome scene place moderate"),
    ("Who rattled Brannoc's nerve at the Rim beacon?", [NYLA_BEATS_BRANNOC_BEACON, "t65"],
     "name wound outcome scene place moderate"),
    ("Whom did Brannoc kill?", [BRANNOC_KILLS_MEDIC], "name outcome light"),
    ("Whom did Brannoc beat on the mining colony on Tarsis?", [BRANNOC_BEATS_JUN_TARSIS],
     "name outcome scene place light"),
    ("Who beat Brannoc aboard the derelict freighter Anvil?", [["f108", "f109"], "f125"],
     "name outcome scene place light"),
    ("Whom did Brannoc get the better of on the abandoned cargo hauler?", [BRANNOC_BEATS_JUN_ANVIL, "f129"],
     "name outcome scene placedesc heavy"),
    ("Whom did Brannoc confide in on the throne world of Ys?", [["f149", "f151", "f152"]],
     "name deed scene place light"),
    ("Whom did Brannoc confide in aboard the Envoy's yacht?", ["f200"], "name deed scene place light"),
    ("Who wrecked Brannoc's ship on purpose?", ["f232"], "name deed moderate"),
    ("Who outbid the android archivist on the imperial capital world?", ["f217"], "role deed scene placedesc heavy"),
    ("Whom did the Syndicate broker threaten at the very start?", ["f5"], "role deed scene moderate"),
    # Sefa Lune, the imperial envoy
    ("What is Sefa Lune's position?", ["t17"], "name trait moderate"),
    ("Who speaks for the Emperor?", ["t17"], "none trait heavy"),
    ("What does the imperial envoy want to buy back?", [SEFA_SHIP], "role trait light"),
    ("Who hopes to get their relatives' vessel back?", [SEFA_SHIP], "none trait heavy"),
    ("Who knows the secret routes between the stars?", [SEFA_LANES], "none trait heavy"),
    ("What secrets does Sefa Lune know?", [SEFA_LANES, "t86"], "name trait moderate"),
    ("Who knows who betrayed them?", ["t53", "t86"], "none trait moderate"),
    ("Who owes the crew a life?", ["t26", "t87"], "none trait light"),
    ("How was the imperial envoy hurt aboard the ambassador's pleasure ship?", [["f238", "f239"], "t91"],
     "role wound scene placedesc heavy"),
    ("What has Sefa Lune lost or suffered?", ["t90", "t91"], "name wound moderate"),
    ("What went wrong for Sefa Lune at the Rim beacon?", [["f205", "f206"], "t90"],
     "name outcome scene place moderate"),
    ("Whom did Sefa Lune beat on Orbital Station Kessa?", [SEFA_BEATS_NYLA_KESSA], "name outcome scene place light"),
    ("Who tended the envoy's wounds in the final scene?", ["f248"], "role deed scene heavy"),
    ("Whom did Sefa Lune shield on the smugglers' moon?", [["f19", "f20"]], "name deed scene place light"),
    ("Who threatened Brannoc on the Envoy's yacht?", ["f185"], "name deed scene place light"),
    ("Who warned the envoy aboard the Envoy's yacht?", ["f235"], "role deed scene place moderate"),
    # The smuggler captain (no other name)
    ("What does the smuggler captain want for the Empire?", [CAPTAIN_EMPIRE], "role trait light"),
    ("Who wishes the imperial regime would collapse?", [CAPTAIN_EMPIRE], "none trait heavy"),
    ("What can't the smuggler captain do without the implant?", ["t24"], "role trait light"),
    ("Who needs a cybernetic augmentation to pilot?", ["t24"], "none trait heavy"),
    ("What has the smuggler captain seen of the Envoy?", ["t27"], "role trait light"),
    ("Who knows what the ambassador really looks like?", ["t27"], "none trait heavy"),
    ("Who killed the smuggler captain?", [NYLA_KILLS_CAPTAIN], "role outcome light"),
    ("How did the smuggling skipper die at the signal station on the frontier?", [NYLA_KILLS_CAPTAIN, "f69"],
     "role outcome scene placedesc heavy"),
    ("Who cracked the smuggler captain's ribs?", ["f52", "t49"], "role wound outcome moderate"),
    ("How did the smuggler captain lose the ship's codes?", [["f17", "f18"], "t29"], "role outcome light"),
    ("Whom did the smuggler captain beat in the first two scenes?", ["f13", "f42", "f48"],
     "role outcome scene moderate"),
    ("Who patched up the smuggler captain at the Rim beacon?", ["f67"], "role deed scene place light"),
    # Tarek Voss, the android archivist
    ("What is Tarek Voss?", ["t33"], "name trait moderate"),
    ("Which character is a synthetic keeper of records?", ["t33"], "none trait heavy"),
    ("What is the android archivist searching for?", [TAREK_FLEET], "role trait light"),
    ("Who wants to track down the missing armada?", [TAREK_FLEET], "none trait heavy"),
    ("Whom will Tarek Voss not trust again?", ["t40"], "name trait light"),
    ("Who has come to trust the synthetic record-keeper?", ["t52"], "role trait heavy"),
    ("Whom did Tarek Voss kill?", [TAREK_KILLS_JUN], "name outcome light"),
    ("What wounds has Tarek Voss taken?", ["t81", "t88"], "name wound light"),
    ("How did the android archivist get shot on the throne world of Ys?", [["f158", "f159"], "t81"],
     "role wound scene place moderate"),
    ("What went wrong for Tarek Voss aboard the Envoy's yacht?", [["f190", "f191"], "t88"],
     "name wound scene place light"),
    ("Who ambushed the android on the throne world of Ys?", ["f167"], "role deed scene place moderate"),
    ("Who forced the android archivist to give way on the smugglers' moon, and at what cost?", ["f26", "t36"],
     "role outcome scene place light"),
    # Jun Okafor, the rebel courier
    ("What is Jun Okafor's job?", ["t6"], "name trait moderate"),
    ("Who carries messages for the insurgents?", ["t6"], "none trait heavy"),
    ("What does Jun Okafor want?", [JUN_RIM], "name trait moderate"),
    ("Who wants to leave the frontier behind forever?", [JUN_RIM], "none trait heavy"),
    ("How did the rebel courier die?", [TAREK_KILLS_JUN], "role outcome moderate"),
    ("Who burned Jun Okafor's hand?", [["f48", "f49"], "t42"], "name wound outcome light"),
    ("Whose hand got scorched?", ["t41", "t42"], "none wound heavy"),
    ("How did the rebel courier lose the ship's codes on Tarsis?", [["f174", "f175"], "t83"],
     "role outcome scene place moderate"),
    ("Who patched up Jun Okafor at the Rim beacon?", ["f211"], "name deed scene place light"),
    ("Whom did the rebel courier warn on the mining colony?", ["f173"], "role deed scene place light"),
    ("Whom did Jun Okafor beat aboard the derelict freighter Anvil?", [["f108", "f109"]],
     "name outcome scene place light"),
    ("Who opened up to the messenger aboard the wrecked freighter?", [["f112", "f113"]],
     "role deed scene placedesc heavy"),
    ("Whom did the courier get the better of on the outlaws' moon?", [["f52", "f54"]],
     "role outcome scene placedesc moderate"),
    ("What did Jun Okafor do on the throne world before he died?", ["f224", "f225", "f226", "f227"],
     "name deed scene place moderate"),
    # Oren Kask, the dockmaster
    ("Who runs the harbour berths?", ["t47"], "none trait heavy"),
    ("What is Oren Kask's ambition?", ["t51"], "name trait moderate"),
    ("Who craves a political office?", ["t51"], "none trait heavy"),
    ("What did the dockmaster lose on the smugglers' moon?", [["f56", "f57"], "t50"],
     "role outcome scene place moderate"),
    ("Whom did Oren Kask bargain with?", ["f55"], "name deed light"),
    # Ilsa Marn, the rogue pilot
    ("What is Ilsa Marn known for?", ["t54", "t56"], "name trait moderate"),
    ("Who shoots first and asks later?", ["t56", "t92"], "none trait heavy"),
    ("What did the rogue pilot do on the smugglers' moon?", ["f65"], "role deed scene place moderate"),
    # Hale Ditmar, the deserter marine
    ("Who ran away from the military?", ["t58"], "none trait heavy"),
    ("What is Hale Ditmar's past?", ["t58", "t95"], "name trait moderate"),
    ("Who can't put the war behind them?", ["t95"], "none trait heavy"),
    ("Who turns careless when the shooting starts?", ["t93"], "none trait heavy"),
    ("Who tells pleasant lies?", [NYLA_LIAR, "t61"], "none trait heavy"),
    ("Whom does the deserter refuse to trust?", ["t64"], "role trait moderate"),
    ("How did Hale Ditmar crack his ribs?", [["f241", "f242"], "t94"], "name wound light"),
    ("Whom did the runaway soldier bandage at the signal station on the frontier?", ["f67"],
     "role deed scene placedesc heavy"),
    # Nyla Serrat, the bounty hunter
    ("What does Nyla Serrat do for a living?", ["t62"], "name trait moderate"),
    ("Who tracks people down for the reward on them?", ["t62"], "none trait heavy"),
    ("Whom has the bounty hunter sworn to settle things with?", ["t70"], "role trait light"),
    ("Who has vowed revenge on the Syndicate broker?", ["t70"], "role trait moderate"),
    ("What injuries has Nyla Serrat suffered?", ["t73", "t80", "t89"], "name wound light"),
    ("Who cracked the bounty hunter's ribs on the Envoy's yacht?", [["f194", "f195"], "t89"],
     "role wound outcome scene place moderate"),
    ("How did Nyla Serrat get shot on the throne world of Ys?", [["f155", "f156"], "t80"],
     "name wound scene place light"),
    ("Whom did the bounty hunter kill?", [NYLA_KILLS_CAPTAIN], "role outcome light"),
    ("Whom did Nyla Serrat beat at the Rim beacon?", [NYLA_KILLS_CAPTAIN, NYLA_BEATS_BRANNOC_BEACON + ["f209"]],
     "name outcome scene place light"),
    ("What does the bounty hunter keep telling Brannoc?", [["f153", "f208"]], "role deed moderate"),
    ("Who turned the crew against Brannoc?", ["f96"], "name deed light"),
    ("Who turned the crew against the bounty hunter?", ["f124"], "role deed light"),
    ("Who lost to the envoy in the final scene?", [SEFA_BEATS_NYLA_KESSA], "role outcome scene moderate"),
    # Places, by name and by description
    ("What is the smugglers' moon like?", ["f30", "f32", "f33", "f34", "f35", "f40"], "none place light"),
    ("What is the derelict freighter Anvil like?", ["f140", "f142", "f144", "f145"], "none place light"),
    ("What is it like aboard the abandoned cargo hauler?", ["f140", "f142", "f144", "f145"], "none placedesc heavy"),
    ("Where do the lights keep flickering?", ["f30", "f95", "f145", "f215"], "none place moderate"),
    ("Where does the air smell like a lightning strike?", ["f40", "f144"], "none place heavy"),
    ("Where does the gravity give out on the lower levels?", ["f32", "f142", "t84"], "none place moderate"),
    ("Which places are packed with people fleeing?", ["f34", "f140"], "none place heavy"),
    ("Where do drones keep watch?", ["f33", "f201"], "none place moderate"),
    ("Where do the empty passageways echo?", ["f35"], "none place moderate"),
    ("What is the Envoy's yacht like?", ["f201", "f197"], "none place light"),
    ("What is the ore-mining settlement like?", ["t84", "f177"], "none placedesc heavy"),
    ("Is the outlaws' moon under the Syndicate's thumb too?", [["f31", "T3"]], "none tenet placedesc heavy"),
    ("Where did the story begin, and on what night?", [["f1", "t5"], "f2"], "none scene place moderate"),
    ("Is this the last night before the ships get bottled up?", ["f2"], "none scene heavy"),
    ("Where did the final scene take place?", ["f245"], "none scene place moderate"),
    # What happened in a scene at a place whose events do not name it
    ("Who died at the Rim beacon?", [NYLA_KILLS_CAPTAIN], "none outcome scene place light"),
    ("Who was killed on the throne world of Ys?", [BRANNOC_KILLS_MEDIC, TAREK_KILLS_JUN],
     "none outcome scene place light"),
    ("Who lost their lives on the imperial capital world?", [BRANNOC_KILLS_MEDIC, TAREK_KILLS_JUN],
     "none outcome scene placedesc heavy"),
    ("What happened at the ore-mining settlement?", ["f173", BRANNOC_BEATS_JUN_TARSIS, "t83", "f176"],
     "none scene placedesc heavy"),
    ("Who was ambushed on the throne world of Ys?", ["f167"], "none deed scene place light"),
    ("Who shared a drink aboard the Envoy's yacht?", ["f236"], "none deed scene place light"),
    ("Who studied the star chart at the Rim beacon?", ["f73", "f204"], "none deed scene place light"),
    ("Who slipped past the patrol on the derelict freighter Anvil?", ["f120", "f133"], "none deed scene place light"),
    ("Who signalled the fleet from the Rim beacon?", [["f76", "f83"]], "none deed scene place light"),
    ("Who fixed the failing drive on Orbital Station Kessa?", ["f89", "f100"], "none deed scene place moderate"),
    ("Who tallied the remaining money on the mining colony on Tarsis?", ["f180"], "none deed scene place moderate"),
    ("Who hid evidence in a crate on Orbital Station Kessa?", ["f91"], "none deed scene place light"),
    ("Who tucked evidence into cargo on the Emperor's planet?", ["f160", "f221"], "none deed scene placedesc heavy"),
    ("Who shielded whom on Orbital Station Kessa?", ["f249"], "none deed scene place moderate"),
    ("Who won the fights on Orbital Station Kessa when the story first went there?", ["f97", "f103"],
     "none outcome scene place moderate"),
    ("Who came off worst when the story went back to the Rim beacon?", [["f205", "f206"], ["f209", "f210"]],
     "none outcome scene place moderate"),
    ("Who stayed away from the ambassador's pleasure ship the first time we were there?", ["f202"],
     "none scene placedesc heavy"),
    ("Who was missing when we returned to the frontier signal station?", ["f213"], "none scene placedesc heavy"),
    # Wounds and deaths across the game
    ("Who was hit by blaster fire?", ["t72", "t76", "t80", "t81", "t91"], "none wound moderate"),
    ("Who has lost their nerve?", ["t11", "t65", "t73", "t75", "t88"], "none wound moderate"),
    ("Who has broken ribs?", ["t49", "t89", "t94"], "none wound moderate"),
    ("Who can no longer get into their own ship's systems?", ["t29", "t36", "t50", "t83", "t90"], "none wound heavy"),
    ("Who died in the first eight scenes?", [NYLA_KILLS_CAPTAIN, BRANNOC_KILLS_MEDIC], "none outcome moderate"),
    ("Who has been killed so far?", ["f71", "f170", "f229"], "none outcome light"),
    ("Who won the final clash of the story?", [SEFA_BEATS_NYLA_KESSA], "none outcome scene heavy"),
    ("Who got through a scrape without a scratch?", ["f186", "f222", "f250"], "none outcome heavy"),
]


def build(log: Path = LOG) -> dict[str, Any]:
    """This probe's questions on its log (ids y1, y2, ...), each with its checked tags."""
    return build_probe(log, [(text, relevant, check_tags(tags)) for text, relevant, tags in QUERIES], "y",
                       "eval/memory/probe_game7.py")


def main() -> int:
    return write_probe(build(), OUT)


if __name__ == "__main__":
    raise SystemExit(main())

"""A fifth memory probe from a played game, written blind: eval/data/probe_game5.jsonl plus questions.

Why a fifth game: probe_game4 (fantasy) was the held-out test, but once its results
are read while tuning it is no longer untouched either. This one is a fresh held-out
test in a genre none of the others used (a western, which the heuristic narrator
has only just learned to tell), another seed and its own cast: questions written
without looking at the retrieval code, its results or any search over these Facts;
only by reading the game's Facts and its log (to know who won which conflict, who
was hurt and who died) and asking what a player at the table would ask. Nobody
tunes on it.

The log was played with (seed 51, western, 4 heuristic seats, 14 scenes):

    simulate_game(seats=4, scenes=14, seed=51,
                  premise="A western about a railroad town at the end of the line",
                  log_path="eval/data/probe_game5.jsonl")

It holds 437 Facts (the first seed tried; scene 8 alone, a long return to the
railroad depot, holds over a hundred of them, mostly the same few deeds repeated).

What the game holds: seven deaths. The cattle rustler kills Jonah Two Rivers (the
circuit preacher) and Marshal Tate at the railroad depot; the railroad agent kills
Widow Harlan on the stagecoach road; Preacher Moss kills Silas Reed (the card
sharp) and the railroad agent at the depot and Billy Coyle (the gunslinger) at the
old mission, where the frontier doctor kills Preacher Moss in the last scene. (The
frontier doctor's own death in the first scene was challenged and withdrawn, so it
is not a Fact.) The long feuds are Preacher Moss against Widow Harlan, Silas Reed
against the frontier doctor, and everybody against the cattle rustler. Only the
cattle rustler, the frontier doctor and Cora Lindqvist (the scout) are left.

How the questions were written, as for probe_game4: characters are asked about by
name and, about as often, only by their role or description. The heuristic players
gave several characters a title in their name that their role Trait contradicts,
and the questions follow the Traits, as a player who watched them introduced
would: "the town marshal" is Preacher Moss, "the saloon keeper" is Widow Harlan,
"the rancher's widow" is Marshal Tate, "the card sharp" or "the gambler" is Silas
Reed, "the gunslinger" is Billy Coyle, "the scout" is Cora Lindqvist and "the
circuit preacher" is Jonah Two Rivers; the cattle rustler, the railroad agent and
the frontier doctor have no other name. Places are asked about by name and by
description ("the train station", "the bar", "the ranch house", "the old church",
"the dried-up creek"), and so is what happened in a scene at a place whose events
do not name it (who died at the depot, what the card sharp did at the Harlan
ranch). Some are worded close to the Facts, some moderately, some heavily (about a
third each). `relevant` lists what a full answer needs; an inner list is a group of
Facts saying the same thing (a Trait restated in events, the same deed done twice,
a defeat told once from each side), any one of which counts as that item
recalled; each group was completed by grepping the whole Fact list for every
wording of it. Questions whose true answer would be more than six items were made
more specific. Tags use probe_game2's vocabulary. All questions are asked at the
end of the game (scene 14).

    python -m eval.memory.probe_game5    # replay the log, rewrite eval/data/memory_probe_game5.json
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .probe_game import ASKED_IN_SCENE, DATA, Relevant, build_probe, flat_ids
from .probe_game2 import LEVELS, REFERENTS, check_tags, tag_counts, write_probe

LOG = DATA / "probe_game5.jsonl"
OUT = DATA / "memory_probe_game5.json"
__all__ = ["ASKED_IN_SCENE", "LEVELS", "QUERIES", "REFERENTS", "build", "check_tags", "flat_ids", "tag_counts"]

# Traits restated in events ("The cattle rustler, trusted by the ranchers, ...")
RUSTLER_PAST = ["t3", "f11", "f71", "f94", "f264", "f275", "f299"]
RUSTLER_TRUSTED = ["t4", "f2", "f277", "f294", "f301"]
RUSTLER_NOTCH = ["t14", "f10", "f12", "f300"]
JONAH_NOTCH = ["t50", "f53"]
AGENT_RICH = ["t13", "f9", "f225", "f250", "f258", "f286"]
AGENT_NO_DRAW = ["t25", "f223", "f228", "f249", "f259", "f290"]
MOSS_NO_DRAW = ["t35", "f314"]
CORA_NO_DRAW = ["t86", "f303", "f323"]
AGENT_FAST = ["t59", "f215", "f252", "f256"]
TATE_FAST = ["t77", "f244", "f247", "f268"]
TATE_JUSTICE = ["t76", "f245", "f269", "f282"]
TATE_CARDS = ["t9", "f5", "f8", "f221", "f235"]
DOCTOR_CARDS = ["t21", "f77", "f79", "f110", "f121", "f122", "f143", "f150", "f151", "f152", "f153", "f154",
                "f155", "f156", "f173", "f180", "f181", "f183", "f199", "f211", "f232", "f267", "f310", "f311"]
MOSS_RANCH = ["t34", "f36", "f59", "f279", "f296", "f314"]
MOSS_DRINK = ["t28", "f35", "f297"]
MOSS_NERVE = ["t36", "f41", "f60", "f83", "f93"]
SILAS_NERVE = ["t54", "f87", "f117", "f118", "f131", "f132", "f135", "f140", "f160", "f161", "f164", "f165",
               "f166", "f168", "f169", "f170", "f171", "f188", "f198", "f202"]
BILLY_NERVE = ["t92", "f318"]
SILAS_BADGE = ["t65", "f87", "f108", "f128", "f141", "f162", "f187", "f200"]
CORA_SOFT = ["t94", "f322", "f327"]
# Defeats told once from each side (the winner's line and the loser's), and the same line said twice
RUSTLER_BEATS_DOCTOR_OFFICE = ["f14", "f16", "f18", "f19"]
SILAS_LOSES_TO_DOCTOR_DEPOT = ["f119", "f120", "f129", "f130", "f148", "f149"]
DOCTOR_LOSES_TO_SILAS_DEPOT = ["f145", "f146", "f158", "f159", "f185", "f186"]
MOSS_BEATS_HARLAN_DEPOT = ["f32", "f33", "f38", "f39"]
MOSS_BEATS_AGENT_DEPOT = ["f287", "f288", "f291", "f292"]
AGENT_BEATS_DOCTOR_CREEK = ["f216", "f217", "f230", "f231"]
MOSS_BEATS_DOCTOR_MISSION = ["f312", "f313", "f316"]

# (question, relevant, tags)
QUERIES: list[tuple[str, Relevant, str]] = [
    # Tenets (most restated later as a place detail: either counts)
    ("What happens to a man who hasn't paid his debt by sundown?", ["T1"], "none tenet light"),
    ("Which counts for more in this country, a claim on the water or a sack of gold?", [["T2", "f97", "f233"]],
     "none tenet heavy"),
    ("Does anybody here ask a newcomer about his past?", [["T3", "f43"]], "none tenet moderate"),
    ("Is there a member of the posse with nothing to conceal?", [["T4", "f107"]], "none tenet moderate"),
    ("Who pulls the strings of the law around here?", [["T5", "f134"]], "none tenet heavy"),
    ("When does the bell at the old church toll?", [["T6", "f126", "f271"]], "none tenet placedesc heavy"),
    # The cattle rustler (no other name)
    ("What does the cattle rustler want to do about his past?", [RUSTLER_PAST], "role trait light"),
    ("Which character is trying to put his old life behind him once and for all?", [RUSTLER_PAST],
     "none trait heavy"),
    ("Whom do the cattlemen rely on?", [RUSTLER_TRUSTED, "t40"], "none trait heavy"),
    ("Who keeps a tally of the men they've killed?", [RUSTLER_NOTCH, JONAH_NOTCH], "none trait moderate"),
    ("Who can't get on a horse any more since a fall?", ["t2", "t95"], "none trait moderate"),
    ("What injuries has the cattle rustler taken?", ["t8", "t56", "t97"], "role wound light"),
    ("Who shot the cattle rustler in the marshal's office?", [["f3", "f4"], "t8"],
     "role wound outcome scene place moderate"),
    ("Who left the cattle thief with a snakebite?", [["f61", "f62"], "t56"], "role wound outcome heavy"),
    ("What happened to the cattle rustler in the final fight at the old mission?", ["t97", "f335"],
     "role wound outcome scene place moderate"),
    ("Whom has the cattle rustler killed?", ["f55", "f284"], "role outcome light"),
    ("Whom did the rustler get the better of at the lawman's office in the first scene?",
     [RUSTLER_BEATS_DOCTOR_OFFICE], "role outcome scene placedesc heavy"),
    ("Who got the better of the cattle thief on the road the coaches use?", [["f61", "f62"]],
     "role outcome scene placedesc heavy"),
    ("Whose wounds has the cattle thief tended?", ["f71", "f264"], "role deed heavy"),
    ("Whose barn did the cattle rustler set alight?", ["f309"], "role deed moderate"),
    ("Who set fire to the livestock thief's barn, and what came of it?", ["f282", ["f283", "f284"]],
     "role deed outcome heavy"),
    ("Who sat by a campfire with the cattle rustler?", ["f297"], "role deed light"),
    ("Whom did the cattle rustler make a deputy?", ["f277"], "role deed moderate"),
    ("Who keeps telling the cattle rustler to watch his back?", [["f93", "f279", "f296", "f315"]],
     "role deed moderate"),
    ("Who made the cattle rustler a deputy?", ["f302"], "role deed moderate"),
    # The railroad agent (no other name)
    ("What does the railroad agent hope to do?", [AGENT_RICH], "role trait light"),
    ("Who wants to make a fortune and get out of town?", [AGENT_RICH], "none trait heavy"),
    ("Who always lets the other fellow go for his gun before them?", [AGENT_NO_DRAW, MOSS_NO_DRAW, CORA_NO_DRAW],
     "none trait heavy"),
    ("Who is the quickest gun in the territory?", [AGENT_FAST, TATE_FAST], "none trait moderate"),
    ("Who could name the sheriff's killer?", ["t60", "t64"], "none trait moderate"),
    ("To whom does the railroad agent owe his life?", ["t61"], "role trait moderate"),
    ("What wounds has the railroad agent suffered?", ["t57", "t81", "t83"], "role wound light"),
    ("Who left the railroad agent with a busted leg at the Silver Spur saloon?", [["f261", "f262"], "t83"],
     "role wound outcome scene place light"),
    ("Who left the railway company's man with burns from a rope in the dried-up riverbed?",
     [["f253", "f254"], "t81"], "role wound outcome scene placedesc heavy"),
    ("How did the railroad agent die?", ["f292"], "role outcome moderate"),
    ("Whom did the railroad agent set the townsfolk against?", ["f286"], "role deed moderate"),
    ("Whom did the railroad agent ambush in the bar?", ["f256"], "role deed scene placedesc moderate"),
    ("Who vouched for the cattle rustler on the stagecoach road?", ["f58", ["f295", "f298"]],
     "none deed scene place light"),
    # The frontier doctor (no other name)
    ("Which characters can tell what cards a man is holding?", [DOCTOR_CARDS, TATE_CARDS], "none trait heavy"),
    ("What injuries does the frontier doctor carry?", ["t16", "t71"], "role wound light"),
    ("Who left the sawbones snake-bitten?", [["f14", "f18"], "t16"], "role wound outcome heavy"),
    ("Who beat the frontier doctor at the old mission?", [MOSS_BEATS_DOCTOR_MISSION, ["f329", "f330"]],
     "role outcome scene place light"),
    ("Who died at the doctor's hands?", ["f334"], "role outcome moderate"),
    ("Who lost to the frontier doctor at the railroad depot?", [SILAS_LOSES_TO_DOCTOR_DEPOT, ["f177", "f178"]],
     "role outcome scene place light"),
    ("Who got the upper hand over the doc at the train station?", [DOCTOR_LOSES_TO_SILAS_DEPOT],
     "role outcome scene placedesc heavy"),
    ("Who beat the frontier doctor in the dry creek bed?", [AGENT_BEATS_DOCTOR_CREEK, ["f238", "f239"]],
     "role outcome scene place light"),
    ("Whose injuries did the physician bandage?", ["f175"], "role deed heavy"),
    ("What did the frontier doctor say to Preacher Moss?", ["f102"], "role dialog light"),
    ("Who tended the doctor's wounds at the old mission?", ["f327"], "role deed scene place moderate"),
    ("Whom did the frontier doctor swindle over a hand of poker?", [["f13", "f79"]], "role deed heavy"),
    ("Whom did the medicine man lie in wait for?", ["f311"], "role deed heavy"),
    ("Who has lost the deed to their land?", ["t33", "t62", "t67"], "none trait outcome moderate"),
    ("Who has sworn to settle things with the frontier doctor?", ["t18", "t75", "t78", "t96"], "role trait light"),
    # Preacher Moss, the town marshal
    ("What is Preacher Moss trying to save from the railroad?", [MOSS_RANCH], "name trait light"),
    ("Which character is fighting to keep his spread out of the railway's hands?", [MOSS_RANCH],
     "none trait heavy"),
    ("Who serves as the town's marshal?", ["t26"], "none trait light"),
    ("Who is a heavy drinker?", [MOSS_DRINK], "none trait moderate"),
    ("Who has given their word to the railroad?", ["t29", "t85"], "none trait light"),
    ("Which characters have the nerve of a gambler?", [MOSS_NERVE, SILAS_NERVE, BILLY_NERVE], "none trait moderate"),
    ("Whom has Preacher Moss killed?", ["f205", "f292", "f320"], "name outcome moderate"),
    ("Who killed Preacher Moss?", ["f334"], "name outcome light"),
    ("What wounds has the town marshal taken?", ["t72", "t74"], "role wound light"),
    ("Who gave Preacher Moss rope burns?", [["f177", "f178"], "t72"], "name wound outcome moderate"),
    ("Who got bitten by a snake in the dried-up arroyo?", ["t74"], "none wound scene placedesc heavy"),
    ("Who has had their barn set on fire?", ["f27", "f282", "f309"], "none deed moderate"),
    ("Who has dressed Preacher Moss's wounds?", ["f72", "f175", "f258", "f264", "f278"], "name deed moderate"),
    ("Who rode with Preacher Moss in the Silver Spur saloon?", ["f259"], "name deed scene place light"),
    ("Who warned Preacher Moss?", ["f174", "f260", ["f94", "f300"]], "name deed light"),
    ("Who cautioned the lawman in the saloon?", ["f260"], "role deed scene placedesc heavy"),
    ("Who stood up for Preacher Moss?", ["f84", "f176", ["f276", "f299"]], "name deed moderate"),
    ("Who beat Preacher Moss at the Harlan ranch?", [["f88", "f89"]], "name outcome scene place light"),
    ("Whom did Preacher Moss beat at the railroad depot?",
     [MOSS_BEATS_HARLAN_DEPOT, ["f204", "f205"], MOSS_BEATS_AGENT_DEPOT], "name outcome scene place light"),
    ("Who got the better of Preacher Moss at the railroad depot?", [["f28", "f29"], ["f177", "f178"]],
     "name outcome scene place moderate"),
    ("Who won when Widow Harlan called out Preacher Moss?", [MOSS_BEATS_HARLAN_DEPOT], "name outcome moderate"),
    # Widow Harlan, the saloon keeper
    ("What does Widow Harlan do for a living?", ["t30"], "name trait moderate"),
    ("How much does the saloon keeper owe the bank?", ["t39"], "role trait moderate"),
    ("Whom will Widow Harlan never trust again?", ["t38"], "name trait moderate"),
    ("Who broke Widow Harlan's leg?", [["f68", "f69"], "t58"], "name wound outcome moderate"),
    ("What became of Widow Harlan?", ["f74"], "name outcome moderate"),
    ("Who gunned down the woman who ran the bar?", ["f74"], "role outcome heavy"),
    ("What did Widow Harlan say to Preacher Moss?", ["f30"], "name dialog light"),
    ("Whom did Widow Harlan nurse?", ["f72"], "name deed moderate"),
    ("Who nursed the saloon keeper on the stagecoach road?", ["f71"], "role deed scene place moderate"),
    ("What did Widow Harlan do to Preacher Moss at the railroad depot?", ["f27", "f30", "f31", "f37"],
     "name deed scene place moderate"),
    ("Who ran the cattle rustler off the stagecoach road?", ["f67", "f77"], "role deed scene place light"),
    # Silas Reed, the card sharp
    ("What is Silas Reed after?", [SILAS_BADGE], "name trait light"),
    ("Who wants to pin on the lawman's star?", [SILAS_BADGE], "none trait heavy"),
    ("Who makes his living fleecing people at the poker table?", ["t44"], "none trait heavy"),
    ("Who is Silas Reed's brother?", [["t46", "t47"]], "name trait moderate"),
    ("Who killed Silas Reed?", ["f205"], "name outcome light"),
    ("Whom did the gambler track down at the old mission?", ["f82"], "role deed scene place moderate"),
    ("Who broke Silas Reed's leg?", [["f119", "f120"], "t68"], "name wound outcome light"),
    ("Whom did the cardplayer defeat out at the ranch house?", [["f88", "f89"]],
     "role outcome scene placedesc heavy"),
    ("What did Silas Reed do at the old mission?", ["f82", "f83", "f84", "f85"], "name scene place light"),
    ("Who turned the town against the frontier doctor?", ["f128"], "role deed light"),
    ("Whom did Silas Reed swear in as a deputy?", ["f52"], "name deed moderate"),
    ("Who vouched for Silas Reed?", ["f49"], "name deed light"),
    ("Who was far away when the story first came to the stagecoach road?", ["f66"], "none scene place moderate"),
    # Jonah Two Rivers, the circuit preacher
    ("Which character travels from town to town preaching?", ["t42"], "none trait heavy"),
    ("Who killed Jonah Two Rivers?", ["f55"], "name outcome light"),
    ("Whom did Jonah Two Rivers go after?", ["f53"], "name deed moderate"),
    ("What wound did the travelling minister take before he died?", ["t51"], "role wound heavy"),
    # Billy Coyle, the gunslinger
    ("What does Billy Coyle want?", ["t88"], "name trait light"),
    ("Which character is out for revenge for a slain sibling?", ["t88"], "none trait heavy"),
    ("Whom is the gunslinger secretly in love with?", ["t91", "t93"], "role trait moderate"),
    ("Who put an end to Billy Coyle?", ["f320"], "name outcome heavy"),
    ("Whom did Billy Coyle cheat at cards?", ["f318"], "name deed light"),
    ("Whom did Billy Coyle bandage?", ["f278"], "name deed moderate"),
    ("Who is a hired gun by trade?", ["t48"], "none trait heavy"),
    # Cora Lindqvist, the scout
    ("What is Cora Lindqvist's trade?", ["t23"], "name trait moderate"),
    ("Who is quiet-voiced but deadly?", [CORA_SOFT], "none trait moderate"),
    ("Who is the most pig-headed person in the story?", ["t84"], "none trait heavy"),
    ("Can the scout still ride a horse?", ["t95"], "role trait moderate"),
    ("Whom did Cora Lindqvist beat at the old mission?", [["f329", "f330"]], "name outcome scene place light"),
    ("Whom did Cora Lindqvist ride with at the railroad depot?", ["f25"], "name deed scene place light"),
    ("What did Cora Lindqvist do on the stagecoach road?", ["f272", "f273", "f303", "f304", "f305"],
     "name scene place light"),
    ("Who shared a fire under the stars with the doc?", ["f326"], "role deed heavy"),
    # Marshal Tate, the rancher's widow
    ("What is Marshal Tate trying to do?", [TATE_JUSTICE], "name trait light"),
    ("Who wants the cattle thieves made to answer for it?", [TATE_JUSTICE], "none trait heavy"),
    ("What is Marshal Tate, if not a lawman?", ["t6"], "name trait heavy"),
    ("Who killed Marshal Tate?", ["f284"], "name outcome light"),
    ("Where did the rancher's widow die?", ["f284"], "role outcome scene place moderate"),
    ("Who broke Marshal Tate's leg in the dry creek bed?", [["f242", "f243"], "t80"],
     "name wound outcome scene place light"),
    ("Whom did Marshal Tate beat in the dry creek bed?", [["f238", "f239"]], "name outcome scene place light"),
    ("Whom did Marshal Tate beat in the first scene?", [["f3", "f4"]], "name outcome scene moderate"),
    ("What did Marshal Tate do on the stagecoach road?", ["f268", "f269", "f270"], "name scene place light"),
    ("Who no longer trusts the frontier doctor?", ["t79"], "role trait light"),
    # Wounds across the cast
    ("Who has a busted leg?", ["t58", "t68", "t80", "t83", "t97"], "none wound light"),
    ("Who has been bitten by a snake?", ["t16", "t56", "t74"], "none wound moderate"),
    ("Whose skin has been rubbed raw by a lariat?", ["t51", "t71", "t72", "t81"], "none wound heavy"),
    ("Who took a bullet?", ["t8", "t57"], "none wound heavy"),
    ("Who broke a leg out on the coach trail?", ["t58"], "none wound scene placedesc heavy"),
    # Places and scene structure
    ("Where did the story begin?", [["f1", "t5"]], "none place scene moderate"),
    ("Where was the last scene set?", ["f308"], "none place scene moderate"),
    ("What happened at the Silver Spur saloon?", ["f256", "f258", "f259", "f260", ["f261", "f262"], "t83"],
     "none scene place light"),
    ("What marks are left on the walls of the bar?", ["f257"], "none placedesc heavy"),
    ("Where are the walls full of bullet holes?", ["f21", ["f136", "t87"], "t90", "f257"], "none place light"),
    ("Which places are being watched from the high ground?", ["f45", "f227"], "none place moderate"),
    ("Where is it so still you can hear a man breathing?", ["f127", "f222", "t89"], "none place heavy"),
    ("Which places swelter under the midday sun?", ["f100", "f306"], "none place heavy"),
    ("Which place is thick with dust?", ["f124"], "none place moderate"),
    ("Where do you hear a tinny piano behind swinging doors?", ["f50", "f307"], "none place moderate"),
    ("Where are water rights said to matter more than gold?", ["f97", "f233"], "none place tenet moderate"),
    ("What happened at the Harlan ranch?", ["f87", ["f88", "f89"], "t67", "f90", "f91"], "none scene place light"),
    ("Who cleaned a pistol at the ranch house?", ["f90"], "none deed scene placedesc heavy"),
    ("Who was killed at the train station?", ["f55", "f205", "f284", "f292"], "none outcome scene placedesc heavy"),
    ("Who lost their lives at the old church?", ["f320", "f334"], "none outcome scene placedesc heavy"),
    ("Who was killed out on the road the stage runs along?", ["f74"], "none outcome scene placedesc heavy"),
    ("Who took a head count of the herd in the dry creek bed?", [["f218", "f232", "f234"], "f246", "f248"],
     "none deed scene place moderate"),
    ("Who hid a box of valuables in the ground at the old church?", ["f332"], "none deed scene placedesc heavy"),
    ("Who buried a strongbox in the marshal's office?", ["f8", "f11"], "none deed scene place light"),
    ("Who read the wanted poster at the lawman's office?", ["f6", "f22"], "none deed scene placedesc moderate"),
    ("Who waited for the noon train at the dry creek bed?", [["f235", "f247"], ["f223", "f252"]],
     "none deed scene place light"),
    ("Who waited on the twelve o'clock train out on the coach trail?", ["f268"], "none deed scene placedesc heavy"),
    ("Who studied the survey map on the stagecoach road?", ["f267", "f304"], "none deed scene place light"),
    ("Who pored over the surveyor's chart at the old church?", ["f322"], "none deed scene placedesc heavy"),
    ("Who got a horse ready before sunrise at the dry creek bed?", ["f240", ["f221", "f245"], "f208", ["f226", "f251"]],
     "none deed scene place moderate"),
    ("Who oiled a six-shooter in the lawman's office?", ["f5", "f20"], "none deed scene placedesc heavy"),
    ("Who was missing from the railroad depot when the doctor and the card sharp fought there?", ["f105"],
     "none scene place moderate"),
    ("What did the railroad agent do at the Silver Spur saloon?", ["f256", "f258", "f259"],
     "role scene place light"),
]


def build(log: Path = LOG) -> dict[str, Any]:
    """This probe's questions on its log (ids w1, w2, ...), each with its checked tags."""
    return build_probe(log, [(text, relevant, check_tags(tags)) for text, relevant, tags in QUERIES], "w",
                       "eval/memory/probe_game5.py")


def main() -> int:
    return write_probe(build(), OUT)


if __name__ == "__main__":
    raise SystemExit(main())

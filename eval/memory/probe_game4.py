"""A fourth memory probe from a played game, written blind: eval/data/probe_game4.jsonl plus questions.

Why a fourth game: probe_game3 (noir) was the held-out test, but once its results
are read while tuning it is no longer untouched either. This one is a fresh
held-out test on a fantasy game with a premise none of the others used, another
seed and its own cast: questions written without looking at the retrieval code,
its results or any search over these Facts; only by reading the game's Facts and
its log (to know who won which conflict and who died) and asking what a player at
the table would ask. Nobody tunes on it.

The log was played with (seed 43, fantasy, 4 heuristic seats, 14 scenes):

    simulate_game(seats=4, scenes=14, seed=43,
                  premise="A fantasy of a river kingdom ruled by a drowned queen's court",
                  log_path="eval/data/probe_game4.jsonl")

It holds 319 Facts. (The premise says "fantasy" because the heuristic narrator
picks its genre from words such as "fantasy" or "crown"; "a river kingdom ruled by
a drowned queen's court" alone would have been told as a space opera. Seed 41 gave
only 250 Facts, so seed 43.)

What the game holds: two deaths (Seren of the Marsh falls at the Meadow village
with no killer named; Edric the Grey kills the steward of the keep at Castle
Ravensmoor; two other deaths were challenged and withdrawn, so they are not Facts),
and a long feud between Edric the Grey and Maud Ashby, Aldric Vane and the
mercenary captain.

How the questions were written, as for probe_game3: characters are asked about by
name and, about as often, only by their role or description ("the ferryman" for
Aldric Vane, "the exiled knight" for Edric the Grey, "the thief" for Maud Ashby,
"the royal heir" for Wenna; the steward, the mercenary captain and the hedge witch
have no other name); places by name and by description ("the river crossing", "the
sunken abbey", "the inn", "the fortress"), and what happened in a scene at a place
whose events do not name it (who died at the castle, what the bone-reader did in
the forest). Some are worded close to the Facts, some moderately, some heavily
(about a third each). `relevant` lists what a full answer needs; an inner list is a
group of Facts saying the same thing (a Trait restated in events, the same deed
done twice, a defeat told once from each side), any one of which counts as that
item recalled; each group was completed by grepping the whole Fact list for every
wording of it. Questions whose true answer would be more than six items were made
more specific. Tags use probe_game2's vocabulary. All questions are asked at the
end of the game (scene 14).

    python -m eval.memory.probe_game4    # replay the log, rewrite eval/data/memory_probe_game4.json
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .probe_game import ASKED_IN_SCENE, DATA, Relevant, build_probe, flat_ids
from .probe_game2 import LEVELS, REFERENTS, check_tags, tag_counts, write_probe

LOG = DATA / "probe_game4.jsonl"
OUT = DATA / "memory_probe_game4.json"
__all__ = ["ASKED_IN_SCENE", "LEVELS", "QUERIES", "REFERENTS", "build", "check_tags", "flat_ids", "tag_counts"]

# Traits restated in events ("Aldric Vane, who bears a royal birthmark, ...")
CROWN_CURSE = ["t45", "f30", "f54", "f72", "f105", "f131", "f152", "f166"]
ALDRIC_MARK = ["t8", "f14", "f72", "f77", "f79", "f81", "f110", "f111", "f165", "f169"]
CAPTAIN_MARK = ["t28", "f160", "f174", "f197"]
BROTHER = ["t14", "f16", "f41", "f59", "f97", "f120", "f136", "f149", "f189", "f202", "f213"]
THRONE = ["t40", "f78", "f114"]
HUNTED = ["t41", "f86", "f212"]
PROUD_WENNA = ["t20", "f15", "f87", "f88"]
PROUD_CAPTAIN = ["t27", "f186", "f192", "f199"]
ORDER = ["t22", "f35", "f157", "f174", "f187", "f206", "f218"]
NO_PAST = ["t29", "f158", "f162", "f196", "f208"]
# Maud Ashby's defeats at Edric the Grey's hands (throne room, tavern twice, ford twice, abbey)
EDRIC_BEATS_MAUD = ["f61", "f123", "f128", "f134", "f138", "f215"]

# (question, relevant, tags)
QUERIES: list[tuple[str, Relevant, str]] = [
    # Tenets (three restated later as a place detail: either counts)
    ("Is any crown in this kingdom free of a curse?", ["T1"], "none tenet moderate"),
    ("What state are the ancient deities in?", [["T2", "f44", "f85"]], "none tenet heavy"),
    ("What does spellcasting cost the one who casts?", [["T3", "t56"]], "none tenet heavy"),
    ("Can a vow made on iron ever be broken?", [["T4", "f155"]], "none tenet light"),
    ("Can the dead get across a river?", ["T5"], "none tenet moderate"),
    ("How do real romances end in this land?", [["T6", "f198"]], "none tenet heavy"),
    # The steward of the keep (no other name)
    ("What is the steward of the keep searching for?", ["t2"], "role trait moderate"),
    ("Which character had her memories stolen by a witch?", ["t2"], "none trait heavy"),
    ("Who is forbidden from setting foot on consecrated ground?", ["t4"], "none trait heavy"),
    ("Who is bound by an oath on iron?", ["t3", "t25", "t54"], "none trait light"),
    ("Whom has the steward of the keep stopped trusting?", ["t12", "t78"], "role trait moderate"),
    ("Who killed the steward of the keep?", ["f99"], "role outcome light"),
    ("Where did the steward of the keep meet her end?", ["f99"], "role outcome scene place moderate"),
    ("Who got the better of Edric the Grey at the Crooked Lantern?", ["f5"], "name outcome scene place light"),
    ("What wound did the steward carry?", ["t76"], "role wound light"),
    ("Who tricked the steward in the flooded abbey?", ["f69"], "role deed placedesc heavy"),
    ("Whom did the steward nurse back to health at the fortress?", ["f95"], "role deed scene placedesc heavy"),
    ("Who put a curse on the steward of the keep in the first scene?", ["f2"], "role deed scene light"),
    # Aldric Vane, the ferryman
    ("What does Aldric Vane hope to do about the crown?", [CROWN_CURSE], "name trait light"),
    ("Which character is trying to lift the curse on the crown?", [CROWN_CURSE], "none trait moderate"),
    ("Who has a mark of royal blood on their skin?", [ALDRIC_MARK, CAPTAIN_MARK], "none trait moderate"),
    ("Who carries people across the river for a living?", ["t6"], "none trait heavy"),
    ("To whom did the ferryman pledge his loyalty?", ["f14"], "role deed heavy"),
    ("Whom did Aldric Vane trick?", ["f69", "f72"], "name deed moderate"),
    ("Who set a trap for Edric the Grey at the ford at Greywater?", ["f27"], "name deed place light"),
    ("What injuries has the ferryman suffered?", ["t42", "t52", "t82"], "role wound moderate"),
    ("Who broke Aldric Vane's arm?", ["f21", "t42"], "name wound outcome moderate"),
    ("Who left the ferryman with a deep cut at the river crossing?", ["f31", "t52"],
     "role wound outcome placedesc heavy"),
    ("Who is secretly in love with the ferryman?", ["t69"], "role trait moderate"),
    ("How did Aldric Vane fare against the mercenary captain?", [["f31", "f32"], ["f163", "f164"], ["f229", "f230"]],
     "name outcome moderate"),
    ("Whom did the ferryman beat at the Drowned Abbey?", ["f70", "f73"], "role outcome place light"),
    ("Whom did Aldric Vane warn?", [["f54", "f169"]], "name deed light"),
    ("Who chased Edric the Grey through the Meadow village?", ["f106"], "name deed place moderate"),
    # Edric the Grey, the exiled knight
    ("What does Edric the Grey want to do for his brother?", [BROTHER], "name trait light"),
    ("Who is trying to give a dead sibling a decent burial?", [BROTHER], "none trait heavy"),
    ("What harm has the exiled knight suffered?", ["t11", "t26", "t35"], "role wound moderate"),
    ("Whose memories have gone missing?", ["t2", "t26", "t83", NO_PAST, "t56"], "none trait moderate"),
    ("Who beat Edric the Grey at Castle Ravensmoor?", ["f17", "f91"], "name outcome scene place light"),
    ("Whom did the wandering priest defeat?", ["f17"], "role outcome moderate"),
    ("Who publicly condemned the wandering priest?", ["f16"], "role deed heavy"),
    ("Who swore allegiance to Seren of the Marsh at the ford?", ["f24"], "name deed place moderate"),
    ("Whom did Edric the Grey kill?", ["f99"], "name outcome light"),
    ("Whom has the exiled knight stood guard over?", [["f20", "f203"]], "role deed heavy"),
    ("To whom has Edric the Grey confessed?", [["f19", "f214"]], "name deed light"),
    ("Who got the better of Edric the Grey at the ford at Greywater?", ["f28"], "name outcome scene place light"),
    ("Who won when the exiled knight ambushed the thief at the river crossing?",
     ["f133", ["f134", "f135", "f138", "f139"]], "role deed outcome scene placedesc heavy"),
    ("Who tended to the exiled knight's injuries?", ["f15", "f95", "f218"], "role deed moderate"),
    ("Who beat the exiled knight in the hamlet among the fields?", [["f107", "f153"]],
     "role outcome scene placedesc heavy"),
    ("Who defeated Edric the Grey in the Drowned Abbey?", [["f193", "f210"]], "name outcome scene place light"),
    ("Who is the knight living in exile?", ["t9"], "none trait light"),
    # Wenna, the royal heir
    ("What does Wenna want?", [THRONE], "name trait light"),
    ("Which character means to reclaim the throne?", [THRONE], "none trait moderate"),
    ("Who is hunted by the Order?", [HUNTED], "none trait light"),
    ("Which characters carry themselves with a prince's pride?", [PROUD_WENNA, PROUD_CAPTAIN, "t65"],
     "none trait moderate"),
    ("Who can't turn away someone begging for help?", ["t24", "t51", "t80"], "none trait heavy"),
    ("What was the royal heir praying for at the Drowned Abbey?", ["f78"], "role deed place moderate"),
    ("Who protected Edric the Grey in the woods?", ["f9"], "name deed scene placedesc moderate"),
    ("Which character is next in line for the throne?", ["t18"], "none trait heavy"),
    ("To whom did the royal heir swear fealty?", ["f212"], "role deed light"),
    # The mercenary captain (no other name)
    ("What does the mercenary captain want done to the Order?", [ORDER], "role trait light"),
    ("Which character wants to wipe out the Order?", [ORDER], "none trait moderate"),
    ("Who has no memory of anything before the river?", [NO_PAST], "none trait light"),
    ("What wounds did the mercenary captain collect?", ["t53", "t84", "t85"], "role wound light"),
    ("Who gave the mercenary captain a cursed wound?", [["f38", "f39"], "t53"], "role wound outcome moderate"),
    ("Who broke the sellsword commander's arm?", [["f163", "f164"], "t84"], "role wound outcome heavy"),
    ("Who stirred up the villagers against the thief?", ["f174"], "role deed heavy"),
    ("To whom did the mercenary captain pledge loyalty?", ["f190"], "role deed moderate"),
    ("Who won when Maud Ashby fought the mercenary captain in the Drowned Abbey?",
     [["f175", "f176"], ["f184", "f185"]], "name outcome scene place light"),
    ("Whom did the hired soldiers' leader beat in the woods at the very end?", [["f229", "f230"]],
     "role outcome scene placedesc heavy"),
    ("Who tended Edric the Grey in the Whispering Forest?", ["f218"], "name deed place light"),
    ("Whom did the mercenary captain beat at the ford at Greywater?", ["f28", ["f31", "f32"]],
     "role outcome scene place light"),
    # The hedge witch (no other name)
    ("What binds the hedge witch?", ["t25"], "role trait moderate"),
    ("What can the hedge witch never say no to?", ["t24"], "role trait moderate"),
    # Lysa Thorne, the wandering priest
    ("What is Lysa Thorne's calling?", ["t33"], "name trait heavy"),
    ("Who has sworn to settle a score with Edric the Grey?", ["t13", "t37", "t44", "t73"], "name trait light"),
    ("Who no longer trusts Edric the Grey?", ["t12", "t30", "t39", "t71"], "name trait moderate"),
    ("Who knows first-hand what Edric the Grey can do?", ["t38", "t43", "t50", "t72"], "name trait moderate"),
    ("Who has come face to face with Edric the Grey?", ["t36", "t70"], "name trait heavy"),
    ("Whom does the wandering priest refuse to trust?", ["t39"], "role trait moderate"),
    # Seren of the Marsh, the court spy
    ("What became of Seren of the Marsh?", ["f47"], "name outcome moderate"),
    ("Which character died with nobody named as the killer?", ["f47"], "none outcome heavy"),
    ("What does the court spy hope to win?", ["t49"], "role trait heavy"),
    ("Whose every spell costs them a memory?", ["t56"], "none trait moderate"),
    ("Who has vowed to get even with the mercenary captain?", ["t58"], "none trait moderate"),
    ("Who beat the mercenary captain at the ford at Greywater?", [["f38", "f39"]], "role outcome scene place light"),
    ("What illness struck the court spy?", ["t60"], "role wound heavy"),
    ("Who spies for the court?", ["t47"], "none trait light"),
    ("What happened to the court spy in the Meadow village?", ["f45", "f46", "t60", "f47"],
     "role outcome scene place moderate"),
    # Gareth Morrow, the bone-reader
    ("What is Gareth Morrow's trade?", ["t61"], "name trait moderate"),
    ("Who is the finest blade in the story?", ["t63"], "none trait heavy"),
    ("Whom do the ordinary people adore?", [["t64", "f225"]], "none trait heavy"),
    ("What did the bone-reader do in the Whispering Forest?", ["f225", "f226", "f227"], "role scene place light"),
    # Maud Ashby, the thief
    ("How does Maud Ashby make her living?", ["t67"], "name trait heavy"),
    ("Whom does the thief secretly love?", ["t69"], "role trait light"),
    ("What injuries has Maud Ashby got?", ["t74", "t79", "t83"], "name wound light"),
    ("Who snapped the thief's arm?", ["f73", "t79"], "role wound outcome heavy"),
    ("Who healed Aldric Vane?", [["f119", "f168", "f171"]], "name deed light"),
    ("With whom did Maud Ashby share bread?", [["f118", "f172"]], "name deed light"),
    ("Who buried something in the royal audience chamber?", ["f53"], "none deed scene placedesc heavy"),
    ("Who shielded Aldric Vane in the queen's throne room?", ["f55"], "name deed scene place light"),
    ("Whom did Maud Ashby beat in the queen's throne room?", ["f56"], "name outcome scene place light"),
    ("Whom has the thief beaten in a fight?", [["f56", "f91"], ["f175", "f176"]], "role outcome moderate"),
    ("Who has got the better of Maud Ashby?", [EDRIC_BEATS_MAUD, "f73", "f184"], "name outcome moderate"),
    ("Whom did Maud Ashby tell a secret in the Meadow village?", ["f167"], "name deed place heavy"),
    ("Whom did the thief lie to?", ["f183"], "role deed heavy"),
    # Places and scene structure
    ("Where do bells ring at midnight?", ["f34", "f188"], "none place time light"),
    ("At what hour do bells sound at the river crossing?", ["f34"], "none placedesc time heavy"),
    ("Which place is wrapped in fog?", ["t81"], "none place moderate"),
    ("Where does witch-light burn?", ["f109", "f200"], "none place moderate"),
    ("What keeps watch over the Meadow village?", ["f49"], "none place moderate"),
    ("Which place has walls that are falling apart?", ["f146"], "none place heavy"),
    ("Which building is full of murmuring voices?", ["f68"], "none place heavy"),
    ("Where did the story begin?", [["f1", "t5"]], "none place scene moderate"),
    ("Where did the last scene take place?", ["f217"], "none place scene moderate"),
    ("In which places are the old gods said to be stirring?", ["f44", "f85"], "none place tenet heavy"),
    # Scenes at a place whose events do not name it
    ("Who died at Castle Ravensmoor?", ["f99"], "none outcome scene place light"),
    ("Who lost their life in the farming hamlet?", ["f47"], "none outcome scene placedesc heavy"),
    ("Which characters have died?", ["f47", "f99"], "none outcome light"),
    ("What passed between Edric the Grey and the steward at the fortress before she fell?",
     ["f95", "f96", "f97", ["f98", "f99"]], "name scene placedesc moderate"),
    ("Who read the omens in the hamlet among the fields?", [["f102", "f149"], "f159", "f166"],
     "none deed scene placedesc heavy"),
    ("Who studied the old map at the ford at Greywater?", ["f33", "f131"], "none deed scene place light"),
    ("Who hid the letter at the inn?", [["f3", "f125"]], "none deed scene placedesc moderate"),
    ("Who prayed at the broken altar in the Crooked Lantern tavern?", [["f4", "f126"]], "none deed scene place light"),
    ("Who rode through the night in the woods?", ["f8", "f228"], "none deed scene placedesc moderate"),
    ("Who healed Edric the Grey at Castle Ravensmoor?", ["f15", "f95"], "name deed scene place light"),
    ("Who swore fealty at Castle Ravensmoor?", ["f14"], "none deed scene place light"),
    ("Who stayed away from the Meadow village the first time the story went there?", ["f50", "f51"],
     "none scene place moderate"),
    ("Who was missing from the Drowned Abbey?", ["f75", "f207"], "none scene place light"),
    ("Who pledged themselves to whom in the sunken monastery?", ["f190", "f212", "f213"],
     "none deed scene placedesc heavy"),
    ("Who made a confession at the river crossing?", ["f132"], "none deed scene placedesc heavy"),
    ("Who read the omens in the Whispering Forest?", ["f222"], "none deed scene place light"),
    ("Who lost to Edric the Grey at Castle Ravensmoor?", [["f21", "f22"], ["f98", "f99"]],
     "name outcome scene place light"),
    ("Who was hurt in the royal hall?", ["f56", ["f61", "t74"]], "none wound scene placedesc moderate"),
    ("Who buried something in the village among the fields?", ["f147", "f160"], "none deed scene placedesc heavy"),
    ("Who sharpened a blade in the Meadow village?", ["f114", ["f152", "f165"]], "none deed scene place light"),
    ("Who has a broken arm?", ["t35", "t42", "t79", "t84"], "none wound light"),
    ("Who bears a wound with a curse on it?", ["t11", "t53", "t74", "t76", "t82"], "none wound moderate"),
    ("Who has taken a nasty cut?", ["t52", "t85"], "none wound heavy"),
]


def build(log: Path = LOG) -> dict[str, Any]:
    """This probe's questions on its log (ids m1, m2, ...), each with its checked tags."""
    return build_probe(log, [(text, relevant, check_tags(tags)) for text, relevant, tags in QUERIES], "m",
                       "eval/memory/probe_game4.py")


def main() -> int:
    return write_probe(build(), OUT)


if __name__ == "__main__":
    raise SystemExit(main())

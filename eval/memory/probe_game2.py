"""A second memory probe from a played game, written blind: eval/data/probe_game2.jsonl plus questions.

Why a second game: the first probe (probe_game.py, a space opera) is what the
retrieval method is being tuned on, so its recall flatters the method. This one
is another genre and seed, and its questions were written without looking at
the retrieval code or running any search: only by reading the game's Facts (and
its transcript, to know who won which conflict) and asking what a player at the
table would ask. Nobody tunes on it; it measures whether gains carry over.

The log was played with (seed 7, dark fantasy, 4 heuristic seats, 14 scenes):

    simulate_game(seats=4, scenes=14, seed=7, premise="A dark fantasy of a realm under a dying crown",
                  log_path="eval/data/probe_game2.jsonl")

(seed 7 without a premise picks the same fantasy premise). It holds 322 Facts.

How the questions were written: characters are asked about by name and, about
as often, only by their role or description ("the ferryman" for Orrin Blackwood,
whose Trait says "Ferryman"); places by name and by description ("the inn", "the
woods"), and what happened in a scene at a place whose events do not name it.
Some are worded close to the Facts, some moderately, some heavily (about a third
each): "Who killed Seren of the Marsh?" next to "Who slew the travelling holy
man?". `relevant` lists what a full answer needs; an inner list is a group of
Facts saying the same thing (a Trait restated in events, the same deed done
twice), any one of which counts as that item recalled. Each question carries
tags: who it refers to (name, role, none), what it asks (tenet, trait, wound,
deed, outcome, place, scene, dialog, time), whether it names a place (place) or
only describes it (placedesc), and how far it is reworded (light, moderate,
heavy). All questions are asked at the end of the game (scene 14).

    python -m eval.memory.probe_game2    # replay the log, rewrite eval/data/memory_probe_game2.json
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from .probe_game import ASKED_IN_SCENE, DATA, Relevant, build_probe, flat_ids

LOG = DATA / "probe_game2.jsonl"
OUT = DATA / "memory_probe_game2.json"
__all__ = ["ASKED_IN_SCENE", "QUERIES", "build", "flat_ids", "tag_counts", "write_probe"]

REFERENTS = ("name", "role", "none")
LEVELS = ("light", "moderate", "heavy")

# (question, relevant, tags)
QUERIES: list[tuple[str, Relevant, str]] = [
    # Tenets (some restated later as a place detail: either counts)
    ("What does working magic cost the person who works it?", ["T1"], "none tenet moderate"),
    ("Can the dead cross running water?", [["T2", "f64", "f213"]], "none tenet light"),
    ("Is there any way to break an oath sworn on iron?", [["T3", "f201"]], "none tenet light"),
    ("Can lovers in this realm hope for a happy ending?", [["T4", "f200"]], "none tenet heavy"),
    ("What hangs over every crown in the land?", ["T5"], "none tenet heavy"),
    ("How strong are the ancient gods these days?", [["T6", "f54", "f211"]], "none tenet moderate"),
    # The thief
    ("What does the thief want to do for his brother?", [["t2", "f2"]], "role trait light"),
    ("Which character has been touched by the old gods?", ["t3"], "none trait light"),
    ("Where was the thief poring over an old map?", ["f2"], "role deed moderate"),
    ("Who got the upper hand over Brother Cal in the opening scene?", ["f8", "f17"], "name outcome scene moderate"),
    ("Who stood guard over the thief in the woods at the end?", ["f178", "f183"],
     "role deed scene placedesc heavy"),
    ("Which characters are out for revenge?", ["t4", ["t89", "f172", "f178"], "t22", "t58"], "none trait heavy"),
    # Gareth Morrow, the court spy
    ("Who spies for the royal court?", ["t6"], "role trait light"),
    ("Which characters are incapable of lying?",
     [["t54", "f131", "f144", "f160", "f194"], ["t67", "f105"]], "none trait moderate"),
    ("Who laid a curse on the ferryman?", ["f187"], "role deed heavy"),
    ("Who came out on top when Gareth Morrow cursed Orrin Blackwood?", [["f188", "f189"]], "name outcome light"),
    ("Who pledged their loyalty to the court spy?", [["f206", "f209", "f212"]], "role deed heavy"),
    ("To whom did Gareth Morrow bend the knee?", ["f216"], "name deed heavy"),
    ("Who healed Orrin Blackwood's injuries?", [["f210", "f215"]], "name deed light"),
    ("Which character goes by a name they keep hidden?", [["t98", "f208"]], "none trait heavy"),
    ("Where did Gareth Morrow stash the message?", ["f31", "f144", "f194"], "name deed heavy"),
    ("What did the court spy do at the Crooked Lantern tavern?", ["f31", ["f32", "f160"], "f131", "f159"],
     "role scene place moderate"),
    ("What did Gareth Morrow do at Castle Ravensmoor?", ["f37"], "name scene place light"),
    ("Who is bound by an oath sworn on iron?", ["t23", "t26", "t33"], "none trait light"),
    # Brother Cal, the mercenary captain
    ("Who is the mercenary captain looking for?",
     [["t19", "f11", "f51", "f85", "f92", "f135", "f150", "f163"]], "role trait moderate"),
    ("Who wears a ring taken from a dead man?",
     [["t10", "f3", "f10", "f14", "f51", "f52", "f53", "f85", "f88", "f92", "f95", "f108", "f150"],
      ["t15", "f7", "f162", "f209", "f212"]], "none trait moderate"),
    ("What injuries has Brother Cal taken?", ["t16", "t66", "t73"], "name wound light"),
    ("Whom does the mercenary captain refuse to rely on anymore?", ["t17"], "role trait heavy"),
    ("Who ambushed Brother Cal in the village?", ["f7"], "name deed scene placedesc light"),
    ("Whom did Brother Cal ambush at the Crooked Lantern?", ["f85"], "name deed place light"),
    ("Which of the two won the duel, Brother Cal or Orrin Blackwood?", [["f12", "f13"]], "name outcome moderate"),
    ("Who made confessions to the steward of the keep?", [["f50", "f52"]], "role deed moderate"),
    ("Who swore fealty to Brother Cal?", [["f89", "f110", "f136", "f148", "f151"]], "name deed light"),
    ("Whom did the mercenary captain swear allegiance to?", ["f51"], "role deed moderate"),
    ("Who nursed Brother Cal back to health?", [["f86", "f87", "f149"]], "name deed moderate"),
    ("Who turned the crowd against Brother Cal?", ["f39", "f117"], "name deed moderate"),
    ("Who publicly accused Brother Cal at the castle?", ["f34"], "name deed scene placedesc moderate"),
    ("Who tried to trick the mercenary captain, and how did that end?", ["f41", ["f42", "f43"]],
     "role deed outcome heavy"),
    ("Who stood up for the bone-reader at the inn?", ["f114"], "role deed placedesc heavy"),
    ("Who told Brother Cal they both knew the reason for the visit?", ["f115"], "name dialog heavy"),
    ("Which characters came down with a fever?", ["t55", "t64", "t66"], "none wound moderate"),
    # Isolde Fenn, the royal heir
    ("Which characters might have royal blood?", ["t11", ["t88", "f165", "f167"]], "none trait heavy"),
    ("What does each spell cost Isolde Fenn?", ["t81"], "name trait light"),
    ("Who defeated the royal heir in the Whispering Forest?", ["f169"], "role outcome scene place moderate"),
    ("Who is an expert with the sword?", [["t47", "f140"], ["t83", "f120", "f168"]], "none trait moderate"),
    ("Who tended the royal heir's wounds at the inn?", ["f121"], "role deed placedesc heavy"),
    ("What wounds does Isolde Fenn carry?", ["t85", "t91", "t96"], "name wound light"),
    ("Where did Isolde Fenn bury something?", ["f75"], "name deed light"),
    # Orrin Blackwood, the ferryman
    ("What curse is the ferryman hoping to break?", [["t18", "f127", "f195", "f209"]], "role trait light"),
    ("Who carries travellers across the river for a living?", ["t13"], "none trait heavy"),
    ("Who has beaten Lysa Thorne in a fight?", [["f28", "f173", "f174"], "f42", "f102"], "name outcome moderate"),
    ("Who shielded the hedge witch in the forest?", ["f162"], "role deed place moderate"),
    ("Who broke bread with Maud Ashby?", ["f182"], "name deed moderate"),
    ("Who swore to settle the score with Orrin Blackwood?", ["t22"], "name trait moderate"),
    ("Whom did Orrin Blackwood confess to?", ["f214"], "name deed light"),
    # Seren of the Marsh, the steward of the keep
    ("Who killed Seren of the Marsh?", ["f81"], "name outcome light"),
    ("Who slew the travelling holy man?", ["f71"], "role outcome heavy"),
    ("Which characters know the true name of the witch?", ["t51", "t70"], "none trait light"),
    ("Who has lost faith in the Order?", ["t50", "t72"], "none trait moderate"),
    ("Who cannot remember anything from before the river?",
     ["t53", ["t48", "f65", "f78", "f156"], ["t71", "f112", "f151"]], "none trait moderate"),
    ("Who owes the steward their life?", ["t52", "t61", "t68"], "role trait light"),
    ("What is the steward of the keep trying to win back?", [["t32", "f39", "f67"]], "role trait moderate"),
    ("Who got the better of Seren of the Marsh in the Meadow village?", ["f57", ["f80", "f81"]],
     "name outcome scene place light"),
    ("What wound did Seren take in the Whispering Forest?", ["t31"], "name wound scene place moderate"),
    ("Who shared a meal with Brother Cal in the woods?", ["f20"], "name deed placedesc moderate"),
    # Tamsin Hale, the bone-reader
    ("Who set a trap for the exiled knight?", ["f25"], "role deed moderate"),
    ("What became of the bone-reader in the end?", ["f153"], "role outcome heavy"),
    ("Who warned Brother Cal at the Crooked Lantern?", [["f106", "f112"]], "name deed place light"),
    ("Who got the better of Brother Cal at the tavern?", ["f93", "f118"], "name outcome scene placedesc light"),
    ("Which characters do the common folk love?",
     [["t69", "f107", "f110", "f133"], ["t76", "f116"], ["t90", "f171", "f181", "f182"], ["t97", "f190"]],
     "none trait moderate"),
    # Maud Ashby, the exiled knight
    ("Who finished off the hedge witch?", ["f174"], "role outcome heavy"),
    ("Who is frightened of drowning?", ["t45", "t93"], "none trait heavy"),
    ("Whom did the exiled knight protect?", ["f178", "f179", "f181"], "role deed moderate"),
    ("Whom does Maud Ashby no longer trust?", ["t92"], "name trait light"),
    ("Whom did Lysa Thorne set the townsfolk against?", ["f27"], "name deed moderate"),
    # The wandering priest
    ("What does the wandering priest want done to the Order?", [["t40", "f44", "f56", "f69"]], "role trait light"),
    ("Who has the Order on their trail?", [["t63", "f68"]], "none trait heavy"),
    ("Who publicly condemned the steward?", ["f56"], "role deed heavy"),
    ("Who did the wandering priest warn?", ["f44"], "role deed light"),
    ("Who won when the wandering priest and Seren clashed at the inn?", [["f45", "f47"]],
     "role outcome scene placedesc moderate"),
    # Lysa Thorne, the hedge witch
    ("What honour does the hedge witch long to earn?", [["t46", "f40", "f79", "f121", "f141", "f155"]],
     "role trait heavy"),
    ("Who poured out their secrets to Isolde Fenn?", ["f100"], "name deed heavy"),
    ("What wounds did Lysa Thorne suffer before she died?", ["t43", "t55", "t77"], "name wound light"),
    ("Who once double-crossed the hedge witch?", [["t74", "t75"]], "role trait heavy"),
    # Wounds across the cast
    ("Who has a broken arm?", ["t43", "t56", "t85", "t94", "t100"], "none wound light"),
    ("Who has been badly cut?", ["t16", "t62", "t96"], "none wound heavy"),
    ("Who bears a wound that carries a curse?", ["t20", "t31", "t73"], "none wound moderate"),
    ("Whose memories were taken from them in a fight?", ["t77", "t86", "t87", "t91"], "none wound heavy"),
    # Places and scene structure
    ("Where do the bells toll at midnight?", ["f60", ["t80", "f97"], "f203"], "none place moderate"),
    ("Which places burn with witch-fire?", ["f109", ["t95", "f202", "f218"]], "none place moderate"),
    ("Where does the fog lie thick?", ["f122", "f199"], "none place moderate"),
    ("Where do wolves keep watch?", ["f130", "f204"], "none place moderate"),
    ("Where do you hear voices murmuring all around?", [["f205", "t28"]], "none place heavy"),
    ("Where did the story begin?", [["f1", "t5"]], "none place scene moderate"),
    ("What happened at Castle Ravensmoor?", ["f34", "f35", "f37"], "none scene place light"),
    ("Who prayed at the broken altar in the woods?", ["f168", "f191", "f196"], "none deed scene placedesc moderate"),
    ("Who was sharpening a blade by the fire in the village?", ["f6", ["f65", "f78"], "f133"],
     "none deed scene placedesc light"),
    ("Who looked for signs and portents in the Meadow village?", [["f5", "f76"], "f55", "f140"],
     "none deed scene place heavy"),
    ("Who pored over the old map at the inn?", ["f159"], "none deed scene placedesc heavy"),
    ("Who hid a letter in the Whispering Forest?", ["f166", "f194"], "none deed scene place light"),
    ("Who buried things by the river crossing?",
     [["f10", "f146"], ["f26", "f59"], "f75", ["f131", "f186"], "f167"], "none deed heavy"),
    ("What happened to the abbey?", ["f84"], "none time moderate"),
    # Conflicts
    ("Which characters have died so far?", ["f71", "f81", "f153", "f174"], "none outcome moderate"),
    ("Who came out ahead when the ferryman ambushed Brother Cal?", [["f8", "f9"]], "role outcome moderate"),
]


def check_tags(tags: str) -> list[str]:
    """The tags as a list; a question must say whom it refers to and how far it is reworded."""
    words = tags.split()
    if sum(w in REFERENTS for w in words) != 1 or sum(w in LEVELS for w in words) != 1:
        raise ValueError(f"tags {tags!r} need one of {REFERENTS} and one of {LEVELS}")
    return words


def build(log: Path = LOG) -> dict[str, Any]:
    """This probe's questions on its log (ids h1, h2, ...), each with its checked tags."""
    return build_probe(log, [(text, relevant, check_tags(tags)) for text, relevant, tags in QUERIES], "h",
                       "eval/memory/probe_game2.py")


def tag_counts(data: dict[str, Any]) -> dict[str, int]:
    """How many questions carry each tag (for the report)."""
    return dict(sorted(Counter(t for q in data["queries"] for t in q["tags"]).items()))


def write_probe(data: dict[str, Any], out: Path) -> int:
    """Write a tagged probe's JSON and say what it holds (the `main` of each tagged probe module)."""
    out.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {out}: {len(data['facts'])} facts, {len(data['queries'])} queries")
    print(", ".join(f"{k} {v}" for k, v in tag_counts(data).items()))
    return 0


def main() -> int:
    return write_probe(build(), OUT)


if __name__ == "__main__":
    raise SystemExit(main())

"""The memory probe from a real played game: eval/data/probe_game.jsonl plus hand-written questions.

Why a second probe: the synthetic world (probe_world.py) has tidy, varied Facts;
a game the heuristic players actually played has what memory must cope with in
practice: templated events that repeat ("X signals the fleet"), bare Traits
("Burned hand") that only make sense with their component's name, and places
that events only name through the scene they happened in.

The log was played with (seed 3, space opera, 4 heuristic seats, 14 scenes):

    simulate_game(seats=4, scenes=14, seed=3, log_path="eval/data/probe_game.jsonl")

The questions below were written by reading the Facts and asking what a player
would ask, in other words than the Facts' text. `relevant` lists what must come
back; an inner list is a group of Facts that say the same thing (the same
Trait restated in events, or the same deed done twice), and any one of them
counts as that item recalled. All questions are asked at the end of the game
(scene 14), as GameMemory.recall would ask them.

    python -m eval.memory.probe_game    # replay the log, rewrite eval/data/memory_probe_game.json
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Sequence

DATA = Path(__file__).resolve().parents[1] / "data"
LOG = DATA / "probe_game.jsonl"
OUT = DATA / "memory_probe_game.json"
ASKED_IN_SCENE = 14

Relevant = list[str | list[str]]

QUERIES: list[tuple[str, Relevant]] = [
    # Tenets (each restated later as a scene detail: either counts)
    ("Is there a concealed floor beneath each orbital habitat?", ["T1"]),
    ("Does anybody believe the imperial regime will survive?", [["T2", "f147", "f212"]]),
    ("Who controls the spaceports out on the frontier?", [["T3", "f146"]]),
    ("Can a robot deceive a person?", [["T4", "f114", "f214"]]),
    ("What is the price of jumping through hyperspace?", [["T5", "f148", "f232"]]),
    ("How are obligations settled out here?", [["T6", "f132", "f198"]]),
    ("Does anyone come back from the border worlds unaltered?", [["T7", "f138"]]),
    # The imperial envoy
    ("What is the Emperor's ambassador searching for?",
     [["t2", "f2", "f40", "f55", "f69", "f86", "f104", "f120"]]),
    ("Which people are short of money for breathable atmosphere?", ["t3", "t70"]),
    ("How does the ambassador behave when being shot at?",
     [["t4", "f2", "f43", "f60", "f64", "f67", "f68", "f75", "f79", "f91", "f92", "f107", "f118", "f126"]]),
    ("Who double-crossed the ambassador in the past?", [["t15", "t16"]]),
    ("Which characters have prices on their heads in several star systems?", ["t26", "t55", "t59"]),
    ("What has the ambassador found out about who the Envoy really is?", ["t29"]),
    ("Who murdered the ambassador?", ["f129"]),
    ("What harm has been done to the ambassador's body and nerves?", ["t19", "t43", "t60"]),
    ("Whom did the ambassador kill aboard the wrecked cargo ship at the start?", ["f7", "f11"]),
    ("Who slew the station's doctor?", ["f29"]),
    ("What became of the runaway soldier?", ["f35"]),
    ("Who tampered with the ambassador's vessel?", ["f9", "f14", "f49"]),
    ("Who stashed proof in a crate aboard the ambassador's private craft?", ["f41"]),
    # Jun Okafor
    ("What is the rebel messenger trying to recover for their kin?", [["t54", "f83", "f97", "f160", "f175"]]),
    ("How did Jun Okafor die?", ["f191"]),
    ("What does Okafor do for the insurgents?", ["t6"]),
    ("Who no longer has the access codes for their vessel?", ["t58", "t65", "t77", "t80"]),
    ("Who has broken bones in the chest?", ["t63", "t76", "t87"]),
    ("Who drank with the ambassador on the mining world?", ["f13"]),
    ("Who protected the bounty hunter at the Tarsis mines?", ["f32"]),
    ("Who threatened the rebel messenger on the outlaws' moon?", ["f189"]),
    # Corin Thale
    ("How does Thale earn a living?", ["t17"]),
    ("What political ambition drives the bounty hunter?",
     [["t20", "f17", "f18", "f62", "f166", "f185", "f227", "f235"]]),
    ("What did Thale tell the ambassador to their face, in so many words?", ["f18"]),
    ("Who jumped the ambassador by surprise at the mining settlement?", ["f19"]),
    ("Who vowed to get even with the ambassador?", ["t24", "t47", "t62"]),
    ("Who tended the bounty hunter's wounds?", ["f61", "f156"]),
    ("Who got the sailors to mutiny against Thale?", ["f43"]),
    ("Did Thale open up to the ambassador about secrets at the frontier lighthouse?", [["f62", "f63"]]),
    ("What wounds has the bounty hunter accumulated?",
     ["t33", "t53", "t76", ["t81", "t82", "t83", "t84", "t85", "t86"]]),
    ("Who guarded the robot historian aboard the abandoned hulk?", ["f194"]),
    ("Who wrecked Corin Thale's own spacecraft?", ["f206"]),
    ("Who beat the bounty hunter in the very last scene?", [["f241", "f242"]]),
    # Minor characters
    ("Who brokered deals for the organised crime ring?", ["t8"]),
    ("Who was in charge of the harbour berths?", ["t11"]),
    ("What did the doctor say when confronting the ambassador?", ["f26"]),
    ("Who offered more money than the ambassador did?", ["f27"]),
    ("Who abandoned their post in the military?", ["t30"]),
    # Sefa Lune and Hale Ditmar
    ("Who is unable to steer a ship without their cybernetic enhancement?", ["t41", "t68"]),
    ("Who was the rogue pilot's teacher?", [["t49", "t50"]]),
    ("Who refuses to abandon a shipmate?", [["t44", "f54"]]),
    ("How did the rogue pilot meet her end?", ["f57"]),
    ("Who bandaged the smuggler captain?", ["f47"]),
    ("Who is familiar with secret routes between the stars?",
     [["t51", "f76", "f88", "f113", "f115", "f150", "f151", "f154"]]),
    ("What is the smuggler captain hoping to do about his reputation?", [["t52", "f116", "f142", "f156"]]),
    ("What happened to the smuggler captain in the end?", ["f158"]),
    ("Who intimidated the rogue pilot at the beacon?", ["f53"]),
    # The android archivist
    ("What outcome does the synthetic record-keeper wish for the imperial regime?",
     [["t57", "f163", "f181", "f189", "f209", "f245"]]),
    ("To whom does the machine historian owe allegiance?", ["t66"]),
    ("Who craves fame and honour?", [["t69", "f201", "f215"]]),
    ("Who vowed to take revenge on the rebel messenger?", ["t71"]),
    ("Who cautioned Thale about danger?", ["f236"]),
    ("Who beat the robot historian at the orbital habitat?", [["f182", "f186"]]),
    ("Who has a scorched hand?", ["t43", "t53", "t67", "t75"]),
    # Places and scene structure
    ("What odour fills the ambassador's luxury vessel?", ["t34"]),
    ("Are the lamps unreliable on the outlaws' moon?", ["t40"]),
    ("Where does weightlessness strike the bottom levels?", ["f42", "f140"]),
    ("Where are homeless evacuees packed in?", ["f141", "f213"]),
    ("Is the imperial capital watched by flying surveillance machines?", ["f137"]),
    ("Which place has hollow, deserted hallways?", ["f85", "f174"]),
    ("Where did the very first scene of the story take place?", [["f1", "t5"]]),
    ("Who fixed the broken engine on the capital planet?", [["f79", "f92", "f120"], ["f95", "f134"], ["f110", "f153"]]),
    ("Who sneaked past the guards on the capital planet?", [["f84", "f97"], ["f106", "f119"], ["f152"]]),
]


def flat_ids(relevant: Relevant) -> list[str]:
    """Every Fact id a `relevant` list names, groups flattened."""
    return [r for item in relevant for r in ([item] if isinstance(item, str) else item)]


def build_probe(log: Path, questions: Sequence[tuple[str, Relevant, list[str]]], prefix: str,
                module: str) -> dict[str, Any]:
    """Replay a played game's log into FactRecords and attach (question, relevant, tags); unknown ids raise."""
    from agents.memory.game import records_from_state, replay_log

    rep = replay_log(log)
    game_id = str(rep.header.get("game_id") or log.stem)
    facts = records_from_state(rep.state, game_id)
    ids = {f.id for f in facts}
    queries = []
    for i, (text, relevant, tags) in enumerate(questions, 1):
        unknown = [r for r in flat_ids(relevant) if r not in ids]
        if unknown:
            raise ValueError(f"query {prefix}{i} ({text!r}) names unknown facts {unknown}")
        query: dict[str, Any] = {"id": f"{prefix}{i}", "text": text, "relevant": relevant, "scene": ASKED_IN_SCENE}
        if tags:
            query["tags"] = tags
        queries.append(query)
    return {"game_id": game_id, "source": f"played game {log.name} ({module})",
            "facts": [f.to_dict() for f in facts], "queries": queries}


def build(log: Path = LOG) -> dict[str, Any]:
    """This probe's questions on its log (ids g1, g2, ...)."""
    return build_probe(log, [(text, relevant, []) for text, relevant in QUERIES], "g", "eval/memory/probe_game.py")


def main() -> int:
    data = build()
    OUT.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {OUT}: {len(data['facts'])} facts, {len(data['queries'])} queries")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

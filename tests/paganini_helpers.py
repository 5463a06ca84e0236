"""Building Paganini games for tests: a table, valid sheets, checks and attacks with fixed d20s."""
from __future__ import annotations

from engine.paganini import apply, new_game, pending
from engine.paganini.state import GameState

GM, P1, P2, P3 = "Gina", "Ann", "Bob", "Cat"
AVERAGE = {"Fitness": 0, "Coordination": 0, "Quickness": 0, "Intellect": 0, "Focus": 0, "Wits": 0}
SWORD = {"name": "sword", "quality": 0, "damage": 1, "types": ["cutting", "piercing"], "skill": "Sword"}
KNIFE = {"name": "belt knife", "quality": 0, "damage": 0, "types": ["cutting", "piercing"], "skill": "Melee: Knife"}
BOW = {"name": "bow", "quality": 0, "damage": 1, "types": ["piercing"], "mode": "fired", "skill": "Bow"}
SPEAR = {"name": "spear", "quality": 0, "damage": 1, "types": ["piercing"], "mode": "thrown", "skill": "Spear"}


def act(s: GameState, **kw) -> GameState:
    s2, _ = apply(s, kw)
    return s2


def sheet(name: str, attrs: dict | None = None, skills: list | None = None, **extra) -> dict:
    a = dict(AVERAGE)
    a.update(attrs or {})
    return {"name": name, "attributes": a, "skills": skills if skills is not None else [], **extra}


def fighter(name: str, **extra) -> dict:
    """A valid sheet: Fitness Good and Coordination Above Avg. (3 free); Sword +2 and Alertness +0."""
    return sheet(name, {"Fitness": 2, "Coordination": 1},
                 [{"name": "Sword", "kind": "experience", "level": -2},
                  {"name": "Alertness", "kind": "general", "level": 0},
                  {"name": "Dodge", "kind": "general", "level": 0}],
                 weapons=[SWORD], **extra)


def table(players: int = 1, options: dict | None = None, scene: bool = True, sheets: dict | None = None,
          npcs: list | None = None, time_consuming: bool = False, designated: str | None = None) -> GameState:
    seats = [(GM, "gm")] + [(p, "player") for p in (P1, P2, P3)[:players]]
    s = new_game(seats, options or {})
    for n in npcs or []:
        s = act(s, type="add_opponent", player=GM, sheet=n)
    s = act(s, type="prepare_adventure", player=GM, title="The Alley", situation="A thug waits behind the inn",
            places=["the inn", "the alley"], time_consuming=time_consuming, designated_skill=designated)
    for p in (P1, P2, P3)[:players]:
        s = act(s, type="create_character", player=p, sheet=(sheets or {}).get(p) or fighter(f"{p}'s hero"))
    if scene:
        s = act(s, type="frame_scene", player=GM, place="the alley", text="Dark and wet",
                present=[c for c in s.characters if c.startswith("npc")])
    return s


def npc_id(s: GameState, name: str) -> str:
    return next(c.id for c in s.characters.values() if c.name == name)


def fight(s: GameState, combatants: list[str], init_faces: dict, attribute: str = "Quickness",
          skills: dict | None = None, mods: dict | None = None) -> GameState:
    """Start a combat (from the GM's turn) and roll the first round's initiative."""
    while pending(s).kind == "turn":
        s = act(s, type="pass_turn", player=pending(s).seats[0])
    s = act(s, type="start_combat", player=GM, combatants=combatants)
    s = act(s, type="initiative", player=GM, attribute=attribute, skills=skills or {}, mods=mods or {})
    return act(s, type="roll_dice", faces=init_faces)

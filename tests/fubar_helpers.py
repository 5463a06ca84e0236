"""Building FUBAR games for tests: a table, characters, and conflicts with fixed dice."""
from __future__ import annotations

from engine.fubar import apply, new_game, pending
from engine.fubar.state import GameState

GM, P1, P2, P3 = "Gina", "Ann", "Bob", "Cat"


def act(s: GameState, **kw) -> GameState:
    s2, _ = apply(s, kw)
    return s2


def make_char(s: GameState, seat: str, name: str | None = None, concept: str = "Intelligence Agent",
              trademarks=None, flaws=None, goal: str = "Find the Macron Device", **extra) -> GameState:
    return act(s, type="create_character", player=seat, name=name or f"{seat}'s hero", concept=concept,
               trademarks=trademarks or ["Shrewd judge of character", "Crack shot", "Fast talker", "Alchemist"],
               flaws=flaws or ["Keen Sense of Vengeance", "Drinks on duty"],
               relationships=[{"target": "Moneypenny", "positive": True}, {"target": "Blofeld", "positive": False}],
               goal=goal, **extra)


def table(players: int = 1, options: dict | None = None, scene: bool = True, downtime: bool = False) -> GameState:
    seats = [(GM, "gm")] + [(p, "player") for p in (P1, P2, P3)[:players]]
    s = new_game(seats, options or {})
    s = act(s, type="prepare_scenario", player=GM, title="Cold Front", situation="A spy ring in Vienna",
            places=["the embassy", "the Prater"])
    for p in (P1, P2, P3)[:players]:
        s = make_char(s, p)
    if scene:
        s = act(s, type="frame_scene", player=GM, place="the embassy", text="A reception", downtime=downtime)
    return s


def opposition(s: GameState, name: str = "Soviet agent", **kw) -> tuple[GameState, str]:
    s = act(s, type="add_opposition", player=GM, name=name, **kw)
    return s, max(s.opposition, key=lambda k: int(k[1:]))


def conflict(s: GameState, *, seat: str = P1, faces: dict | list, ruling: dict | None = None,
             keep: bool = True, **attempt) -> GameState:
    """Attempt, the GM's ruling, the dice; then every roller keeps (unless keep=False)."""
    attempt.setdefault("question", "Does she let something slip?")
    s = act(s, type="attempt", player=seat, **attempt)
    s = act(s, type="rule_conflict", player=GM, **(ruling or {}))
    if isinstance(faces, list):
        faces = {seat: faces}
    s = act(s, type="roll_dice", faces=faces)
    while keep and pending(s).kind == "after_roll":
        s = act(s, type="keep_roll", player=pending(s).seats[0])
    return s


def narrate(s: GameState, text: str = "So it goes.", **kw) -> GameState:
    who = pending(s).seats[0]
    return act(s, type="narrate_outcome", player=who, text=text, **kw)

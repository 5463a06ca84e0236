"""Shared set-up for Vele tests: a table brought to its first scene by fixed actions and dice."""
from __future__ import annotations

import pytest

from engine.core.errors import RuleViolation
from engine.vele import actions as A
from engine.vele.rules import apply, new_game, roll_sides
from engine.vele.state import GameState

SEATS = ["Ann", "Ben", "Cy", "Dee"]


def pc(name: str = "Hero", ability: bool = True, aspects: int = 2) -> A.ComponentIn:
    return A.ComponentIn(name=name, kind="pc", traits=[
        A.TraitIn(name="Blade", size=8, focus=True), A.TraitIn(name="Wits", size=6), A.TraitIn(name="Sneak", size=4),
        A.TraitIn(name="Grit", size=10)], aspects=[f"aspect {i}" for i in range(aspects)],
        ability=A.AbilityIn(trait="Blade", effect="power_attack", size=6, dice=[6]) if ability else None)


def story(owner: str) -> list[A.ComponentIn]:
    main = A.ComponentIn(name=f"{owner}'s villain", kind="main", traits=[
        A.TraitIn(name="Ruthless", size=8), A.TraitIn(name="Connected", size=6), A.TraitIn(name="Cunning", size=4)],
        ability=A.AbilityIn(trait="Ruthless", effect="power_defense", size=6, dice=[6]))
    normals = [A.ComponentIn(name=f"{owner}'s gang {i}", kind="normal",
                             traits=[A.TraitIn(name="Numbers", size=6), A.TraitIn(name="Menace", size=4)])
               for i in range(3)]
    return [main, *normals]


def build_action(name: str, **kw) -> A.Build:
    # PC: 3+2+1+4 = 10, ability 2 + allocated 2 -> 14; dice 4+3+2+1 = 10 -> 24 of 30
    # story: main 3+2+1 + ability 2 + 2 = 10, normals 3 x 3 = 9 -> 19; dice 4+3+2+1 = 10 -> 29 of 30
    args = dict(player=name, pc=pc(f"{name}'s hero"), story=story(name), character_dice=[10, 8, 6, 4],
                story_dice=[10, 8, 6, 4], objective="Find the dark emerald")
    args.update(kw)
    return A.Build(**args)


def play(s: GameState, *actions, pass_fate: bool = True) -> GameState:
    """Apply the actions in turn. Unless `pass_fate` is off, both sides pass on fate (V-46) whenever a roll
    waits for it, so struggle tests read as the book's steps without the fate step in every one."""
    for a in actions:
        s, _ = apply(s, a)
        while pass_fate and s.struggle is not None and s.struggle.stage == "fate":
            s, _ = apply(s, A.SpendFate(player=s.struggle.fate_queue[0], skip=True))
    return s


def built(seats=SEATS, bids=(6, 4, 3, 2), options=None) -> GameState:
    """Bids give the initiative order seats[0..]; every player has bought the default build."""
    s = new_game(list(seats), options)
    s = play(s, *[A.Bid(player=n, bid=b) for n, b in zip(seats, bids)])
    assert s.phase == "build", s.phase
    return play(s, *[build_action(n) for n in s.order])


def comp_of(s: GameState, owner: str, kind: str, index: int = 0):
    return [c for c in s.components.values() if c.owner == owner and c.kind == kind][index]


def in_scene(s: GameState | None = None) -> GameState:
    """Ann narrates; Ben's and Cy's PCs face Ann's villain and first gang; turns Ben, Cy, then Ann."""
    s = s or built()
    present = [comp_of(s, "Ben", "pc").id, comp_of(s, "Cy", "pc").id, comp_of(s, "Ann", "main").id,
               comp_of(s, "Ann", "normal").id]
    return play(s, A.FrameScene(player="Ann", place="the ford", text="Rain.", present=present))


def roll(**faces) -> A.RollDice:
    return A.RollDice(faces={k.replace("__", ":"): [v] for k, v in faces.items()})


def refuses(s: GameState, action, rule: str) -> str:
    """`action` is refused at `s` by `rule`; returns the refusal's words."""
    with pytest.raises(RuleViolation) as exc:
        apply(s, action)
    assert exc.value.rule == rule, str(exc.value)
    return str(exc.value)


AREA_PC = A.ComponentIn(name="Ben's shocker", kind="pc", traits=[
    A.TraitIn(name="Blade", size=8, focus=True), A.TraitIn(name="Wits", size=6), A.TraitIn(name="Sneak", size=4),
    A.TraitIn(name="Grit", size=10)], aspects=["aspect 0", "aspect 1"],
    ability=A.AbilityIn(trait="Grit", effect="area", size=8))


def area_scene():
    """Ben's PC has Area 8 on its d10 Grit; it stands in the bank's zone with Ann's villain and two gangs; Cy's
    PC waits on the far shore. Ben's turn."""
    s = play(new_game(SEATS, {"zones": True}), *[A.Bid(player=n, bid=b) for n, b in zip(SEATS, (6, 4, 3, 2))])
    s = play(s, *[build_action(n, **({"pc": AREA_PC} if n == "Ben" else {})) for n in s.order])
    ben, cy, main = comp_of(s, "Ben", "pc"), comp_of(s, "Cy", "pc"), comp_of(s, "Ann", "main")
    g0, g1 = comp_of(s, "Ann", "normal", 0), comp_of(s, "Ann", "normal", 1)
    s = play(s, A.FrameScene(player="Ann", place="the ford", present=[ben.id, cy.id, main.id, g0.id, g1.id],
                             zones=["the bank", "the far shore"], placed={cy.id: "the far shore"}))
    assert s.scene.turns[s.scene.turn] == "Ben"
    return s, ben, main, g0, g1


def roll_by(s, faces: dict[str, list[int]]) -> A.RollDice:
    """Faces by component id, whichever seat (opponent or other0..) its side sits in at the roll."""
    out = {}
    for side, key in roll_sides(s.struggle):
        for i, f in enumerate(faces[side.component]):
            out[f"{key}:{i}"] = [f]
    return A.RollDice(faces=out)

"""Open Scene Framing (Ralph Mazza, book L1962-1978), played through `apply`.

Why its own module: the add-on replaces the bid for the scene with two turn options and lets several
scenes be active at once, which the core's one-scene-at-a-time flow does not know. Every active scene
is a main scene not yet ended (`Scene.ended`), so no other record is needed; `current_scene` is the
one being played.
- UA-OPEN-1: no Bidding for Scene; on his turn a player pays 1 to Frame a New Scene and frames it as
  in Chapter Five (location, time, Components), then goes on with his turn. When no scene is active
  (the start of play, or after the last one closed), the player to the left of the last framer (the
  starting player for the first scene) frames; with no coin he frames for free (engine choice, as a
  bid with no coins, U-BID-4).
- UA-OPEN-2: on his turn a player pays 1 to switch to another active scene; a closed one cannot be
  switched to.
- UA-OPEN-3: a scene's framer closes it on his turn by paying 1 (`fade_to_black_cost`) to Fade to Black
  (short of it, what he holds: engine choice, or a broke framer's scene could never end).
- UA-OPEN-4: Refresh follows each scene that is closed (the engine default; the add-on is silent), or,
  with `open_scene_refresh="on_frame"`, each new scene framed; then it follows the scene play leaves (the
  last one closed when none is active), so Protagonist Refresh Boost (UA-PREF-1) reads that scene
  (engine choice); the first frame follows no scene and pays the plain Refresh.
The book advises no more than 2 or 3 active scenes: a note when more are, never a refusal.
"""
from __future__ import annotations

from engine.core.errors import RuleViolation
from engine.core.seats import seats_left_of
from engine.universalis import actions as A
from engine.universalis.ledger import available, coins, pay
from engine.universalis.rules import (
    Ctx, bid_reference, end_main_scene, handles, refresh_after, refuse_without_location, require_turn, statement,
)
from engine.universalis.addon_scenes import OPEN
from engine.universalis.state import GameState, Scene, Turn


def on(s: GameState) -> bool:
    return s.config.addons.open_scene_framing


def active(s: GameState) -> list[int]:
    """The scenes in play: main scenes not yet closed, in the order they were framed."""
    return [sc.number for sc in s.scenes if not sc.ended and not sc.mini]


def next_framer(s: GameState) -> str:
    """Who frames when no scene is active: the player to the left of the last framer (for the first
    scene, the starting player)."""
    return seats_left_of(s.seat_names, bid_reference(s))[0]


def check_turn_move(c: Ctx, doing: str) -> None:
    """Framing or switching mid-turn: on one's own turn, outside a mini scene and a Complication, and not
    while the scene being framed still lacks its location."""
    s = c.s
    require_turn(c)
    assert s.turn is not None
    if s.turn.mini_scene is not None:
        raise RuleViolation("UA-OPEN-2", f"{OPEN}: fade the mini scene before {doing}")
    if s.complication is not None:
        raise RuleViolation("UA-OPEN-2", f"{OPEN}: the Complication in this scene is resolved before {doing} "
                                         "(engine choice)")
    refuse_without_location(s, c.a.player, doing)  # type: ignore[attr-defined]


@handles(A.FrameScene)
def frame_scene(c: Ctx) -> None:
    """UA-OPEN-1 (L1970-1972): pay 1, frame a new scene as in Chapter Five, go on with the turn."""
    s, a = c.s, c.a
    assert isinstance(a, A.FrameScene)
    if not on(s):
        raise RuleViolation("UA-OPEN-1", f"{OPEN} is not in play: scenes are framed by bidding (U-BID-1)")
    cost = s.config.addons.frame_scene_cost
    if s.phase == "bidding":  # no scene is active: the next framer frames
        who = next_framer(s)
        if a.player != who:
            raise RuleViolation("UA-OPEN-1", f"{OPEN}: no scene is active and it is {who}'s turn to frame one")
        if s.window is not None or s.challenge is not None or s.fine is not None:
            raise RuleViolation("U-TURN-3", "not now: the last statement is being answered")
        cost = min(cost, available(s, a.player))  # no coin: he frames for free (engine choice, as U-BID-4)
    elif s.phase == "scene":
        check_turn_move(c, "framing a new scene")
        if available(s, a.player) < cost:
            raise RuleViolation("UA-OPEN-1", f"{OPEN}: {a.player} holds {coins(available(s, a.player))}; "
                                             f"framing a new scene costs {cost}")
    else:
        raise RuleViolation("UA-OPEN-1", f"{OPEN}: scenes are framed after Game Prep")
    pay(s, a.player, cost, "framing a new scene", rule="UA-OPEN-1")
    left_scene = s.current_scene  # the scene play leaves (or the last one closed); None before the first
    number = len(s.scenes) + 1
    s.scenes.append(Scene(number=number, framer=a.player))
    s.current_scene = number
    s.last_framer = a.player
    s.phase = "scene"
    s.turn = Turn(player=a.player, framing=True)
    n = len(active(s))
    note = (f" {n} scenes are active; the book advises no more than 2 or 3 (L1976)."
            if n > s.config.addons.max_active_scenes else "")
    c.emit("frame_scene", f"pays {coins(cost)} and frames scene {number}." + note, cost, scene=number,
           active=active(s), rule="UA-OPEN-1")
    if s.config.addons.open_scene_refresh == "on_frame":  # after the scene left: 7 if the protagonist was in it
        refresh_after(c, left_scene, "a new scene is framed", rule="UA-OPEN-4")


@handles(A.SwitchScene)
def switch_scene(c: Ctx) -> None:
    """UA-OPEN-2 (L1974): pay 1 to go on in another active scene where it was left off."""
    s, a = c.s, c.a
    assert isinstance(a, A.SwitchScene)
    if not on(s):
        raise RuleViolation("UA-OPEN-2", f"{OPEN} is not in play: only one scene is active at a time")
    check_turn_move(c, "switching scenes")
    if not 1 <= a.scene <= len(s.scenes) or s.scenes[a.scene - 1].mini:
        raise RuleViolation("UA-OPEN-2", f"{OPEN}: there is no scene {a.scene}")
    if s.scenes[a.scene - 1].ended:
        raise RuleViolation("UA-OPEN-2", f"{OPEN}: scene {a.scene} faded to black and is closed: it cannot be "
                                         "switched to (L1974)")
    if a.scene == s.current_scene:
        raise RuleViolation("UA-OPEN-2", f"{OPEN}: scene {a.scene} is already the scene in play")
    cost = s.config.addons.switch_scene_cost
    pay(s, a.player, cost, "switching scenes", rule="UA-OPEN-2")
    s.current_scene = a.scene
    assert s.turn is not None
    s.turn.framing = False
    sc = s.scenes[a.scene - 1]
    c.emit("switch_scene", f"pays {coins(cost)} and switches to scene {a.scene}, framed by {sc.framer}.", cost,
           scene=a.scene, rule="UA-OPEN-2")


@handles(A.CloseScene)
def close_scene(c: Ctx) -> None:
    """UA-OPEN-3 (L1974): a scene's framer closes it on his turn by paying 1 to Fade to Black; then
    Refresh (UA-OPEN-4). His turn goes on in the last active scene; with none left, the next framer frames."""
    s, a = c.s, c.a
    assert isinstance(a, A.CloseScene)
    if not on(s):
        raise RuleViolation("UA-OPEN-3", f"{OPEN} is not in play: the framer ends the scene (U-TURN-5)")
    require_turn(c)
    assert s.turn is not None
    number = s.current_scene if a.scene is None else a.scene
    if number is None or not 1 <= number <= len(s.scenes) or s.scenes[number - 1].mini:
        raise RuleViolation("UA-OPEN-3", f"{OPEN}: there is no scene {number}")
    sc = s.scenes[number - 1]
    if sc.ended:
        raise RuleViolation("UA-OPEN-3", f"{OPEN}: scene {number} is already closed")
    if sc.framer != a.player:
        raise RuleViolation("UA-OPEN-3", f"{OPEN}: only {sc.framer}, who framed scene {number}, may close it (L1974)")
    if s.turn.mini_scene is not None:
        raise RuleViolation("UA-OPEN-3", f"{OPEN}: fade the mini scene first")
    comp = s.complication
    if comp is not None and comp.scene == number:
        raise RuleViolation("U-TURN-5", "the scene cannot end while a Complication in it is unresolved")
    if number == s.current_scene:
        refuse_without_location(s, a.player, "closing the scene")
    # the book's Fade to Black: 1 coin (L1974), `fade_to_black_cost`; a framer who cannot pay it pays what he
    # has (engine choice, as he frames free): else a broke framer's scene could never end, and no Refresh came
    cost = min(s.config.addons.fade_to_black_cost, available(s, a.player))
    pay(s, a.player, cost, "Fade to Black", rule="UA-OPEN-3")
    playing = s.current_scene
    s.current_scene = number
    player = s.turn.player
    end_main_scene(c, True, a.text, refresh=s.config.addons.open_scene_refresh == "on_fade")
    left = active(s)
    if left:
        s.current_scene = playing if playing in left else left[-1]
        s.phase = "scene"
        s.turn = Turn(player=player)
        c.emit("switch_scene", f"Play goes on in scene {s.current_scene}.", player="", scene=s.current_scene,
               rule="UA-OPEN-3")
    else:
        c.emit("frame_next", f"No scene is active: {next_framer(s)} frames the next one.", player="",
               rule="UA-OPEN-1")
    statement(c, "fade", a.text.strip() or f"Scene {number} fades to black.", cost, lapses=True)


def turn_options(s: GameState, player: str, money: int) -> list[tuple[str, str, str]]:
    """(type, cost, note) of this add-on's moves open to `player` on his turn (decisions.legal_options)."""
    ad = s.config.addons
    out: list[tuple[str, str, str]] = []
    if s.turn is None or s.turn.mini_scene is not None:
        return out
    if s.complication is None:
        if money >= ad.frame_scene_cost:
            out.append(("frame_scene", str(ad.frame_scene_cost), "frame a new scene; this one stays active"))
        if money >= ad.switch_scene_cost and len(active(s)) > 1:
            others = ", ".join(str(n) for n in active(s) if n != s.current_scene)
            out.append(("switch_scene", str(ad.switch_scene_cost), f"go on in scene {others}"))
    mine = [n for n in active(s) if s.scenes[n - 1].framer == player
            and not (s.complication is not None and s.complication.scene == n)]
    if mine:
        out.append(("close_scene", str(min(ad.fade_to_black_cost, money)),
                    f"Fade to Black: close scene {', '.join(map(str, mine))}"))
    return out

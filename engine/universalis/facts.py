"""Facts: every paid piece of story information (U-FACT-1), in one list for memory and views."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable

from engine.universalis.state import GameState, Trait


@dataclass(frozen=True)
class FactView:
    """A Fact with where it stands, independent of how the state stores it."""

    id: str
    kind: str  # trait | event | detail | time | absence | dialog | tenet
    text: str
    by: str
    seq: int
    scene: int | None
    component_id: str | None
    component_name: str | None
    removed: bool
    place: str | None = None  # the name of the scene's location, when the scene has one
    mentions: tuple[str, ...] = ()  # ids of every component the Fact is about: its own first, then a relationship's other
    origin: str | None = None  # "outcome" or "elimination": see state.Fact and state.Trait


def scene_place(s: GameState, scene: int | None) -> str | None:
    """The location's name of scene number `scene`: where its Facts happened (None if not set)."""
    if scene is None or not 1 <= scene <= len(s.scenes):
        return None
    loc = s.scenes[scene - 1].location
    return s.components[loc].label if loc and loc in s.components else None


def all_facts(s: GameState) -> list[FactView]:
    """Tenets, Traits and scene Facts, in the order they were bought."""
    out: list[FactView] = []
    for t in s.tenets:
        out.append(FactView(t.id, "tenet", t.text, t.by, t.seq, None, None, None, t.removed))
    for comp in s.components.values():
        for tr in comp.traits:
            other = (tr.other,) if tr.other and tr.other in s.components and tr.other != comp.id else ()
            out.append(FactView(tr.id, "trait", tr.text, tr.by, tr.seq, tr.scene, comp.id, comp.label,
                                tr.removed, scene_place(s, tr.scene), (comp.id, *other), tr.origin))
    for f in s.facts:
        cid = f.components[0] if f.components else None
        name = s.components[cid].label if cid and cid in s.components else None
        out.append(FactView(f.id, f.kind, f.text, f.by, f.seq, f.scene, cid, name, f.removed,
                            scene_place(s, f.scene), tuple(f.components), f.origin))
    out.sort(key=lambda f: (f.seq, f.id))
    return out


SECRET_TRAIT = "(a secret Enigma Trait)"  # what others see of an unrevealed Enigma Trait (UA-ENIGMA-1)


def hidden_from(t: Trait, seats: Iterable[str]) -> bool:
    """An Enigma Trait not yet revealed is "written down secretly" (L2182): only its buyer's seats read it."""
    return t.secret and t.by not in set(seats)


def facts_seen_by(s: GameState, seats: Iterable[str] = ()) -> list[FactView]:
    """`all_facts` as `seats` may read them: another player's secret Enigma Trait shows as SECRET_TRAIT.

    Why: the log keeps the words (it is the table's record and replays the game); every view for a
    seat (the app's pages and export, an AI seat's Facts, the shared Fact memory with no seat) reads this."""
    seats = set(seats)
    secret = {t.id for c in s.components.values() for t in c.traits if hidden_from(t, seats)}
    return [replace(f, text=SECRET_TRAIT) if f.id in secret else f for f in all_facts(s)]


def find_fact(s: GameState, fact_id: str) -> FactView | None:
    for f in all_facts(s):
        if f.id == fact_id and not f.removed:
            return f
    return None


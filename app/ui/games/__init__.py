"""Per-game panels for the play page: each module draws one game's sheets and its dice panel
from the ruleset's view (what the seat may see), never from the raw state.

`PANELS[name]` is (sheets, dice panel); a panel gets the view and the table's recent events (what
the rules reported, e.g. where Vele's dice went); the generic module serves any game without panels.
"""
from __future__ import annotations

from typing import Any, Callable

from app.ui.games import fubar, generic, paganini, vele

Panel = Callable[[dict[str, Any], list[Any]], None]

PANELS: dict[str, tuple[Panel, Panel]] = {
    "fubar": (fubar.sheets, fubar.conflict),
    "paganini": (paganini.sheets, paganini.check),
    "vele": (vele.sheets, vele.struggle),
}


def panels(ruleset: str) -> tuple[Panel, Panel]:
    return PANELS.get(ruleset, (generic.sheets, generic.dice))

"""The transcript as Markdown with a canon sheet (components, Traits, Tenets). No Streamlit here."""
from __future__ import annotations

from agents.table import Table
from engine.universalis.components import importance


def markdown(table: Table, title: str = "") -> str:
    s = table.state
    out = [f"# {title or 'Storytable game ' + table.game_id}", ""]
    if table.premise:
        out += [f"*Premise:* {table.premise}", ""]
    out += ["## Transcript", ""]
    scene = None
    for e in table.transcript():
        if e.kind == "bids_revealed" and e.data.get("scene") != scene:
            scene = e.data.get("scene")
            out += ["", f"### Scene {scene}", ""]
        who = f"**{e.player}**: " if e.player else ""
        price = f" [{e.cost}]" if e.cost else ""
        out.append(f"- {who}{e.text}{price}")
    out += ["", "## Canon sheet", "", "### Tenets", ""]
    tenets = [t for t in s.tenets if not t.removed]
    out += [f"- {t.text} ({t.kind}, by {t.by})" for t in tenets] or ["- none"]
    out += ["", "### Components", ""]
    for c in s.components.values():
        status = " — eliminated" if c.eliminated else ""
        out.append(f"#### {c.label} ({c.kind}, Importance {importance(s, c.id)}){status}")
        for t in c.traits:
            text = f"~~{t.text}~~" if t.removed else t.text
            out.append(f"- {text} ({t.kind}, by {t.by or '—'})")
        out.append("")
    out += ["### Wealth", ""]
    out += [f"- {p.name}: {p.wealth} coins" for p in s.players]
    return "\n".join(out) + "\n"

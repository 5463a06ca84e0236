"""Text is text: the one escape for anything a player or a model wrote.

Why one helper: Tenets, component names, Traits, player names, narration and model rationales
reach the page through st.markdown (often with the app's own little HTML allowed), captions,
labels, alerts and the Markdown export. Each of those reads Markdown, and some read HTML, so a
Tenet `<img src=x onerror=alert(1)>` would run in every browser at the table and `**x**` or
`[a](javascript:...)` would restyle or link. `text()` turns any string into Markdown source that
shows exactly those characters, whether or not HTML is allowed where it lands; the app keeps
writing its own markup around the escaped pieces.
"""
from __future__ import annotations

import json
from typing import Any

# every ASCII punctuation mark that Markdown, GitHub Markdown or Streamlit's extensions give a
# meaning to (emphasis, links, headings, lists, tables, strikethrough, :colour[...] directives,
# $maths$); CommonMark lets a backslash make any of them plain
_MD_PUNCT = set("\\`*_{}[]()#+-.!|~:$=^")
_HTML = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}


def text(value: Any) -> str:
    """Markdown source that shows `value` literally: no HTML, no emphasis, no links, one line.

    Line breaks become spaces so that nothing a player wrote can start a heading, a list or a
    code block on a line of its own.
    """
    s = "" if value is None else str(value)
    s = " ".join(s.replace("\r", "\n").split("\n"))
    out = []
    for ch in s:
        if ch in _HTML:
            out.append(_HTML[ch])
        elif ch in _MD_PUNCT:
            out.append("\\" + ch)
        elif ch == "\x00":
            out.append("\ufffd")
        else:
            out.append(ch)
    return "".join(out)


def plain(value: Any) -> str:
    """For places that show text as it is (option lists, tables, chart legends): only control
    characters go, so a name cannot break the layout; nothing there reads Markdown or HTML."""
    s = "" if value is None else str(value)
    return "".join(ch if ch >= " " or ch == "\t" else " " for ch in s)


def json_text(text_in: str) -> str:
    """JSON (or JSON Lines) text with <, > and & written as \\u escapes: the same values when
    parsed, and nothing that an HTML page or Markdown viewer showing the file would run."""
    return text_in.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def json_dumps(value: Any, **kw: Any) -> str:
    """json.dumps with the same escapes as json_text."""
    return json_text(json.dumps(value, **kw))

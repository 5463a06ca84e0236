"""The add-ons on the setup page: grouped as the book groups them, each with its one line (issue 22).

Why its own module: the setup page is shared with other work; it makes one call here and passes the
result to the table. Nothing here decides a rule: the choices become `Addons`, which the engine checks
(a combination the book refuses comes back as one line naming the add-on).
"""
from __future__ import annotations

import streamlit as st

from app.ui import addon_settings, safe
from engine.core.errors import RuleViolation
from engine.universalis.addon_registry import AddonInfo, addons_from_args, grouped
from engine.universalis.addons import Addons


def _key(a: AddonInfo) -> str:
    return f"setup:addon:{a.key}"


def choose(names: list[str] | None = None) -> tuple[Addons | None, str | None]:
    """The add-on checkboxes, and under each checked one its settings (`addon_settings`); returns
    (the chosen add-ons, None) or (None, why they are refused)."""
    picked: list[str] = []
    values: list[str] = []
    with st.expander("Add-ons (optional rules from the book's second half)", expanded=False):
        st.caption("Each add-on changes the core rules; off means the core rule. The log records them, so a "
                   "replay plays under the same ones.")
        for group, items in grouped():
            st.markdown(f"**{group} add-ons**")
            for a in items:
                on = st.checkbox(safe.text(a.name), key=_key(a), disabled=a.social,
                                 help=safe.text(f"{a.summary} (book line {a.line})"))
                st.caption(safe.text(a.summary) + (" — no engine rule; the table keeps it" if a.social else ""))
                if on and not a.social:
                    picked.append(a.key)
                    values += addon_settings.settings(a, _key(a))
    if not picked:
        return Addons(), None
    try:
        # the settings after the add-ons: a `field=VALUE` overrides what checking its add-on set
        return addons_from_args(picked + values, names), None
    except RuleViolation as exc:
        return None, str(exc)


def active_lines(addons: Addons) -> list[str]:
    """One line per active add-on, for the table page's sidebar or header."""
    from engine.universalis.addon_registry import active

    return [f"{a.name}: {a.summary}" for a in active(addons)]

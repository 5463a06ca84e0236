"""What the active Universalis add-ons add to the board: Player Characters and their Endowment
pools, Story Drivers, Plot Pools and Plot Threads, Enigma Traits (shown only to their buyer), card hands, the dice in use,
and an open Judgment (its Judge, ruling and votes).

Why a module of its own: the play page draws it with one call and a core game (no add-on) draws
nothing, so the page looks as it always did. `panel_lines` is plain data (already escaped for
Markdown with `safe.text`), so it is tested without a browser; `panel` only renders it.
"""
from __future__ import annotations

from typing import Sequence

import streamlit as st

from app.ui import safe, store
from engine.universalis import addon_judgment as judgment
from engine.universalis.addon_cards_hand import hand_line
from engine.universalis.addon_registry import active
from engine.universalis.state import GameState

CURRENCY_WORDS = {
    "cards_bank": "Cards as Coins: each coin is a face-down card on the Wealth pile",
    "cards_hand": "Cards instead of Dice: each coin is a card in hand",
    "cards_stack": "Cards instead of Dice (Mazza): each coin is a card in the face-down Wealth stack",
}


def panel_lines(s: GameState, mine: Sequence[str]) -> list[str]:
    """Markdown lines for the add-on panel, as seen by a browser holding the seats `mine`.

    An Enigma Trait's words appear only to its buyer's seats; the others see that a secret Trait
    exists (the book: written down secretly, L2180). Every name and word a player wrote is escaped.
    """
    a = s.config.addons
    if not a.any:
        return []
    out: list[str] = []
    names = ", ".join(safe.text(x.name) for x in active(a))
    if names:
        out.append(f"**Add-ons in play:** {names}")
    if a.die == "d6":
        out.append("Dice: **d6** Pools — odd faces (1, 3, 5) succeed.")
    if a.currency in CURRENCY_WORDS:
        decks = s.extra.cards  # Cards as Coins: each deck's Bank and discards (UA-CARDS-1)
        hands = " · ".join(f"{safe.text(p.name)} {p.wealth + p.stake} cards" + (
            f" (Bank {decks[p.name].bank}, discards {decks[p.name].discards})" if p.name in decks else "")
            for p in s.players)
        faces = " With face cards kept: J, Q, K never succeed (5 in 13 do)." if a.cards_with_face_cards else ""
        if a.face_card_gimmick is not None and a.currency == "cards_bank":  # UA-CARDS-4
            from engine.universalis.addons import face_payers
            who = face_payers(a.face_card_gimmick)
            faces = (f" Face cards kept (52-card decks): a spent J makes {who['J']} pay the coin, a Q {who['Q']}, "
                     f"a K {who['K']}; in a Pool a J cancels a Success, a K is a Success that earns nothing, "
                     "a Q a free coin.")
        if a.bonus_cards_from == "bank_deck" and a.currency == "cards_hand":  # UA-CDICE-6
            faces += " Kept bonus cards are drawn from the shared Trait Deck."
        out.append(f"{CURRENCY_WORDS[a.currency]}. {hands}{faces}")
    for cid, owner in s.addon.pcs.items():
        comp = s.components.get(cid)
        if comp is None:
            continue
        line = f"**{safe.text(comp.label)}** is {safe.text(owner)}'s Player Character"
        if a.pc_endowment:
            line += f" · Endowment **{s.addon.endowments.get(owner, 0)}** of {a.pc_endowment}"
        if a.pc_protection != "off":
            line += " · plot protection" + (" (only its owner lowers its Importance)"
                                            if a.pc_protection == "owner_only" else " (Importance costs double)")
        out.append(line)
    for pool in s.addon.plot_pools:
        out.append(f"Plot Pool **{safe.text(pool.name)}**: {pool.coins} coins left "
                   f"(at most {a.plot_pool_spend_per_scene} a scene)")
    for th in s.addon.threads:
        comp = s.components.get(th.component)
        if comp is None:
            continue
        state = "resolved" if th.resolved else f"Weight {th.weight}" if a.plot_threads != "mazza" else "open"
        out.append(f"Plot Thread **{safe.text(comp.label)}**: {state}")
    if a.pc_story_drivers:
        for owner, driver in s.addon.drivers.items():
            out.append(f"{safe.text(owner)}'s Story Driver: {safe.text(driver)}")
    out += judgment_lines(s)
    out += open_scene_lines(s)
    out += alt_lines(s)
    held = set(mine)
    for name in (p.name for p in s.players if p.name in s.extra.hands):  # Cards instead of Dice (UA-CDICE-1)
        h = s.extra.hands[name]
        if name in held:  # a hand is seen only by the browser holding its seat
            out.append(f"Your hand ({safe.text(name)}): **{hand_line(s, name)}**"
                       + (f" · played face down: {sum(len(v) for v in h.played.values())}" if h.played else ""))
        else:
            out.append(f"{safe.text(name)} holds {len(h.hand)} cards in hand")
    for comp in s.components.values():
        for t in comp.traits:
            if not getattr(t, "secret", False) or t.removed:
                continue
            if t.by in held:
                out.append(f"Your Enigma Trait on **{safe.text(comp.label)}**: “{safe.text(t.text)}” (secret)")
            else:
                out.append(f"**{safe.text(comp.label)}** has a secret Enigma Trait (bought by {safe.text(t.by)})")
    return out


def alt_lines(s: GameState) -> list[str]:
    """Alternate Reality (UA-ALT-*): the branch in play, its record keeper, the other branches' records."""
    if not s.config.addons.alternate_realities:
        return []
    keeper = f", kept by {safe.text(s.extra.alt_keeper)}" if s.extra.alt_keeper else ""
    out = [f"Alternate Reality: branch **{safe.text(s.extra.alt_branch)}** in play{keeper}"]
    for b in s.extra.alt_records:
        names = ", ".join(safe.text(c.label) for c in b.components.values() if not c.eliminated)
        out.append(f"Branch {safe.text(b.label)} (left after scene {', '.join(map(str, b.scenes))}): "
                   f"{len(b.facts)} Facts of its own; Components: {names or 'none'}")
    return out


def open_scene_lines(s: GameState) -> list[str]:
    """Open Scene Framing (UA-OPEN-*): the active scenes, the one in play first."""
    if not s.config.addons.open_scene_framing:
        return []
    from engine.universalis.addon_open import active
    shown = []
    for n in active(s):
        sc = s.scenes[n - 1]
        loc = s.components[sc.location].label if sc.location and sc.location in s.components else "no location yet"
        mark = " (in play)" if n == s.current_scene else ""
        shown.append(f"scene {n}{mark} at {safe.text(loc)}, framed by {safe.text(sc.framer)}")
    if not shown:
        return ["Open Scene Framing: no scene is active; the next framer frames one."]
    return ["Active scenes: " + " · ".join(shown)]


def judgment_lines(s: GameState) -> list[str]:
    """Judgment (UA-JUDGE-*): who judges the table's turn, and the open question with its ruling."""
    if not judgment.on(s):
        return []
    line = judgment.case_line(s, safe.text, lambda x: f"**{x}**")
    if line is None:
        judge = s.extra.turn_judge
        return [f"Judgment: disputes go to the Judge{f' — this turn, **{safe.text(judge)}**' if judge else ''} "
                "(who spent coins before the current turn)."]
    return [line]


def panel(live: store.Live, mine: Sequence[str]) -> None:
    """Draw the panel on the play page; nothing at all for a core game."""
    lines = panel_lines(live.table.state, mine)
    if not lines:
        return
    with st.container(border=True):
        for line in lines:
            st.markdown(line)

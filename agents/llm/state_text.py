"""The game as a player may see it, written as compact text for a prompt.

Why: a model needs ids (components, Traits, Facts) to name in its action, the coins that
bound what it can pay, and the scene it is in; it does not need the whole state. Text is
bounded (components, Traits and Facts are capped) so prompts stay cheap in long games.

Order matters for speed: what changes least comes first (Tenets, then the components, then the
scene and the coins), so a server that keeps the previous prompt's computation (llama.cpp's
prefix cache) recomputes only the tail. On a small CPU model the prompt, not the answer, is most
of a decision's time. Facts leave out the Traits the component list already shows.
"""
from __future__ import annotations

from typing import Any, Iterable

from engine.universalis import addon_judgment as judgment
from engine.universalis.addon_cards_hand import hand_line
from engine.universalis.components import importance
from engine.universalis.facts import SECRET_TRAIT, hidden_from
from engine.universalis.ledger import available
from engine.universalis.state import GameState

MAX_COMPONENTS = 24
MAX_TRAITS = 8
MAX_FACTS = 12  # the newest relevant ones; a small model reads every token of them
MAX_FACT_CHARS = 160
MAX_RECENT = 8
MAX_TENETS = 12


def listed_components(s: GameState) -> list[Any]:
    """The components the state text lists: those in the scene first, then by Importance, up to
    MAX_COMPONENTS; listed in the order they were made, so a change to one leaves the lines
    before it (and the prefix a server has cached) as they were."""
    comps = [c for c in s.components.values() if not c.eliminated]
    here = _here(s)
    order = {cid: i for i, cid in enumerate(s.components)}
    chosen = sorted(comps, key=lambda c: (c.id not in here, -importance(s, c.id), order[c.id]))[:MAX_COMPONENTS]
    return sorted(chosen, key=lambda c: order[c.id])


def _window(items: list[Any], limit: int, step: int) -> list[Any]:
    """The newest items, at least `limit - step + 1` and at most `limit`, whose first item moves
    `step` at a time: the text starts the same for several decisions in a row (prefix cache)."""
    if len(items) <= limit:
        return items
    start = ((len(items) - limit + step - 1) // step) * step
    return items[start:]


def _here(s: GameState) -> set[str]:
    sc = s.scene()
    if sc is None:
        return set()
    return set(sc.present) | ({sc.location} if sc.location else set())


def _traits_shown(s: GameState, c: Any, here: set[str]) -> list[Any]:
    """A component's Traits as listed: all (up to MAX_TRAITS) in the scene or before any scene;
    off the scene only its name and role, which is what a player needs to bring it in."""
    live = c.live_traits()
    if s.scene() is not None and c.id not in here:
        live = [t for t in live if t.kind in ("name", "role", "sub")]
    return live[:MAX_TRAITS]


def shown_trait_ids(s: GameState) -> set[str]:
    """Ids of the Traits `describe_state` lists beside their components."""
    here = _here(s)
    return {t.id for c in listed_components(s) for t in _traits_shown(s, c, here)}


def addon_lines(s: GameState) -> list[str]:
    """The active Universalis add-ons, one line each, for the prompt (engine/universalis/addon_registry.py)."""
    from engine.universalis.addon_registry import describe

    text = describe(s.config.addons, with_actions=True) if s.config.addons.any else ""
    return ["Add-ons in play (they change the core rules):\n" + text] if text else []


def _side(s: GameState, comp, pool) -> str:
    """Own Pool per Participant (UA-OWN-1): the side a Pool is declared for; Individual Pools
    (UA-MT-5): the Pool across its match; '' at a core table."""
    from engine.universalis.addon_individual import facing_label
    from engine.universalis.addon_own_pools import side_label
    labels = [x for x in (side_label(s, comp, pool), facing_label(s, comp, pool)) if x]
    return "".join(f", {x}" for x in labels)


def describe_state(s: GameState, me: str | None) -> str:
    """Tenets, components with ids and Traits, the scene, coins, then whatever is open now.

    Most stable first (see the module's docstring): the prefix a server can reuse is longest.
    """
    lines: list[str] = addon_lines(s)  # the add-ons in play, if any (issue 22)
    tenets = [t for t in s.tenets if not t.removed]
    if tenets:
        shown = tenets[:MAX_TENETS]
        more = f" (+{len(tenets) - len(shown)} more)" if len(tenets) > len(shown) else ""
        lines.append("Tenets: " + " | ".join(f"[{t.id}] {t.text}" for t in shown) + more)
    sc = s.scene()
    here = _here(s)
    comps = [c for c in s.components.values() if not c.eliminated]
    if comps:
        lines.append("Components (id: name, kind, Importance, where, controller; Traits with ids; "
                     "off scene only name and role):")
    listed = listed_components(s)
    for c in listed:
        where = "in scene" if c.id in here else "off scene"
        ctrl = s.controller(c.id) if c.id in here else None
        traits = [f"{t.id} “{SECRET_TRAIT if hidden_from(t, (me,)) else t.text}”"
                  for t in _traits_shown(s, c, here)]
        extra = " master" if c.is_master else ""
        lines.append(f"- {c.id}: {c.label}, {c.kind}{extra}, Importance {importance(s, c.id)}, {where}"
                     + (f", controlled by {ctrl}" if ctrl else "") + (f"; Traits: {', '.join(traits)}" if traits else ""))
    if len(comps) > len(listed):
        lines.append(f"  (+{len(comps) - len(listed)} more components off scene)")
    if sc is not None:
        loc = s.components[sc.location].label if sc.location and sc.location in s.components else "not set yet"
        lines.append(f"Scene {sc.number}{' (mini scene)' if sc.mini else ''}, framed by {sc.framer}; "
                     f"location: {loc}; time: {sc.time}.")
        if s.config.addons.alternate_realities and (s.extra.alt_records or s.extra.alt_mirrors):  # UA-ALT-1
            lines.append(f"Alternate Reality: this is branch {s.extra.alt_branch}"
                         + (f", kept by {s.extra.alt_keeper}" if s.extra.alt_keeper else "")
                         + f"; other branches: {', '.join(b.label for b in s.extra.alt_records)}.")
        if s.config.addons.open_scene_framing:  # several active scenes (UA-OPEN-1..3)
            from engine.universalis.addon_open import active
            others = [f"scene {n} (framed by {s.scenes[n - 1].framer})" for n in active(s) if n != sc.number]
            if others:
                lines.append("Other active scenes (switch to one for 1 coin; its framer closes it for 1): "
                             + ", ".join(others) + ".")
        if s.turn is not None:
            lines.append(f"Turn: {s.turn.player}" + (" (framing the scene)" if s.turn.framing else ""))
    coins = []
    for p in s.players:
        mark = " (you)" if p.name == me else ""
        coins.append(f"{p.name}{mark}: {p.wealth} coins" + (f", {p.stake} staked" if p.stake else ""))
    lines.append("Players: " + "; ".join(coins))
    hand = s.extra.hands.get(me or "")
    if hand is not None:  # Cards instead of Dice (UA-CDICE-1): only the player's own hand
        lines.append(f"Your hand of cards (your coins): {hand_line(s, me or '')}. "
                     "Spending plays your highest card; a die you buy plays your best card (5, 4... succeed).")
        if s.config.addons.bonus_cards_from == "bank_deck":  # UA-CDICE-6
            lines.append("Bonus coins you keep after a Complication are drawn from the shared Trait Deck, not your "
                         f"own deck ({len(hand.trait_cards)} of your cards are the Trait Deck's).")
        if s.config.addons.cards_with_face_cards:  # UA-CDICE-5
            lines.append("Face cards are kept (52-card decks): J, Q and K never succeed, so only 5 in 13 of the "
                         "Trait Deck's cards do; cards you buy from your hand are the sure successes.")
    deck = s.extra.cards.get(me or "")
    if deck is not None:  # Cards as Coins (UA-CARDS-1): coins are cards of a 40-card deck (52 with face cards)
        lines.append(f"Cards as Coins: your deck's Bank holds {deck.bank} cards and its discards {deck.discards}; "
                     "you can never hold more coins than your deck has cards.")
        gimmick = s.config.addons.face_card_gimmick
        if s.config.addons.cards_with_face_cards:  # Mazza's stack with face cards kept (UA-CDICE-5)
            lines.append("Face cards are kept (52-card decks): J, Q and K never succeed, so only 5 in 13 of the "
                         "cards in a Pool do.")
        if gimmick is not None:  # UA-CARDS-4: face cards kept
            from engine.universalis.addons import face_payers
            who = face_payers(gimmick)
            lines.append("Face cards are kept (52-card decks). A coin you spend is turned over: a Jack makes "
                         f"{who['J']} pay it, a Queen {who['Q']}, a King {who['K']}"
                         + ". In a Pool a Jack cancels a Success, a King counts as a Success for the winner but "
                         "earns nothing, a Queen is a free coin but no Success.")
    if me is not None and me in s.seat_names:
        lines.append(f"You may spend now: {available(s, me)} coins.")
    comp = s.complication
    if comp is not None:
        pools = ", ".join(f"pool {p.key} ({p.owner}{_side(s, comp, p)}): {p.dice} dice + {p.edge} edge"
                          for p in comp.pools)
        lines.append(f"Complication {comp.id} started by {comp.originator}: “{comp.source}”. {pools}.")
        if comp.drawn:
            lines.append("Traits already drawn (trait@component): " + ", ".join(comp.drawn))
        if comp.split is not None:  # Split Allocation (UA-MT-4): the Successes to allocate, or the matches
            from engine.universalis.addon_split import state_line
            lines.append(state_line(s, comp))
        if comp.extension is not None and comp.extension.by:  # Extended Complications (UA-EXT-1)
            from engine.universalis.addon_extended import in_play_line
            lines.append(in_play_line(s) + ".")
        if s.suspended:  # Nested Complications (UA-NEST-1): resolved after the active one
            from engine.universalis.addon_nested import describe as nested
            lines += nested(s)
    if s.window is not None:
        st = s.window.statement
        lines.append(f"Open statement by {st.actor} ({st.kind}, cost {st.cost}): “{st.text}”"
                     + (f" touching {', '.join(st.components)}" if st.components else ""))
    if s.challenge is not None:
        ch = s.challenge
        opts = "; ".join(f"option {i}: “{o.text}” ({ch.totals[i] if i < len(ch.totals) else 0} coins bid)"
                         for i, o in enumerate(ch.options))
        lines.append(f"Challenge by {ch.challenger} against {ch.challenged}: {ch.reason}. "
                     + (f"Fact cited: {ch.fact_id}. " if ch.fact_id else "") + opts)
    case = judgment.case_line(s)  # the Judgment add-on (UA-JUDGE-*)
    if case is not None:
        lines.append(case)
    if s.fine is not None:
        lines.append(f"Fine called by {s.fine.accuser} against {s.fine.accused}: {s.fine.reason}")
    if s.narration is not None and s.narration.slots:
        slot = s.narration.slots[s.narration.current]
        lines.append(f"Narration after the roll: {slot.player} {'won' if slot.won else 'lost'} with pool "
                     f"{slot.pool} and has {slot.coins} bonus coins to spend.")
    if s.dialog is not None:
        lines.append(f"Dialog offered: {s.dialog.speaker} to {s.dialog.listener}: “{s.dialog.line}”")
    return "\n".join(lines)


def describe_facts(facts: Iterable[Any], limit: int = MAX_FACTS, state: GameState | None = None) -> str:
    """Relevant Facts with ids, newest last, so a Challenge can cite one (U-FACT-2).

    Tenets are left out (the state text lists them), and so, given the `state`, are the Traits
    the component list already shows; each Fact is cut at MAX_FACT_CHARS.
    """
    skip = shown_trait_ids(state) if state is not None else set()
    items = _window([f for f in facts if getattr(f, "kind", "") != "tenet" and getattr(f, "id", None) not in skip],
                    limit, max(1, limit // 3))
    if not items:
        return "(only the Traits listed above)" if skip else "(none yet)"
    out = []
    for f in items:
        about = f" about {f.component_name}" if getattr(f, "component_name", None) else ""
        text = " ".join(str(f.text).split())
        if len(text) > MAX_FACT_CHARS:
            text = text[:MAX_FACT_CHARS - 1].rstrip() + "…"
        out.append(f"- [{f.id}] {f.kind}{about}: {text}")
    return "\n".join(out)


def describe_recent(events: Iterable[Any], limit: int = MAX_RECENT) -> str:
    quiet = {"reaction", "bid_placed", "turn", "narration_turn"}
    lines = _window([e.line() for e in events if e.kind not in quiet and e.text], limit, max(1, limit // 2))
    return "\n".join(f"- {x}" for x in lines) or "(nothing yet)"

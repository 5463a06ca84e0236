"""Whose decision is pending, and what each player may do now with its cost.

This is how "at any time" becomes a turn-based engine (DESIGN.md, Decisions): the state always
names the pending decision, and the table asks exactly those players.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from engine.core.seats import seats_left_of
from engine.universalis.addon_split import allocator, awaiting as awaiting_allocation, note as allocation_note
from engine.universalis import addon_judgment as judgment
from engine.universalis.addon_nested import obstacle_nests, option_note
from engine.universalis.complications import roll_request
from engine.universalis.ledger import available
from engine.universalis.rules import must_establish_location, narrator, prep_player
from engine.universalis.state import GameState


@dataclass(frozen=True)
class Pending:
    """A decision the game waits for.

    kind: prep_turn | bid | turn | reaction | negotiation | fact_vote | challenge_bid |
    fine_vote | consent | declare_side | extend | roll | allocate | narration | dialog_answer (and, with Judgment, judgment |
    overrule_vote).
    `players` are the players asked, in the order they should be asked (priority order for
    reaction windows); `secret` means answers are hidden until all are in.
    """

    kind: str
    players: tuple[str, ...]
    secret: bool = False
    note: str = ""
    dice: dict[str, int] = field(default_factory=dict)
    sides: int = 0  # the die a roll asks for when not the game's own (a new Judge: one face per candidate)


@dataclass(frozen=True)
class Option:
    type: str
    cost: str  # "0", "1", "1 per Trait", "Importance", ...
    note: str = ""


def pending(s: GameState) -> Pending:
    if not s.extra.session_open:  # between sessions (UA-SESS-1): whoever is here reopens the table
        return Pending("session_break", tuple(s.seat_names), note=f"session {s.extra.session} has ended")
    if s.extra.cards:  # Cards as Coins with face cards kept: spent cards are turned over first (UA-CARDS-4)
        from engine.universalis.addon_cards_play import pending_reveal, revealing
        if revealing(s):
            return pending_reveal(s)
    if s.extra.hands:  # Cards instead of Dice: cards owed are dealt before anything else (UA-CDICE-1)
        from engine.universalis.addon_cards_hand import owed, pending_deal
        if owed(s):
            return pending_deal(s)
    if s.fine is not None:  # a Fine may be called during a Challenge (U-FINE-1): its vote comes first
        return Pending("fine_vote", tuple(p for p in s.seat_names if p not in s.fine.votes), secret=True,
                       note=f"{s.fine.accuser} calls for a Fine against {s.fine.accused}: {s.fine.reason}")
    if s.extra.judgment is not None:  # the Judgment add-on (UA-JUDGE-*)
        from engine.universalis.addon_judgment import pending_case
        return pending_case(s)
    if s.challenge is not None:
        ch = s.challenge
        if ch.stage == "negotiation":
            return Pending("negotiation", (ch.challenged,), note=f"{ch.challenger} challenges “{ch.statement.text}”")
        if ch.stage == "fact_vote":
            return Pending("fact_vote", tuple(p for p in s.seat_names if p not in ch.votes), secret=True)
        return Pending("challenge_bid", (ch.order[ch.next_index],))
    if s.window is not None:
        actor = s.window.statement.actor
        order = seats_left_of(s.seat_names, actor, include_self_last=False)
        return Pending("reaction", tuple(p for p in order if p not in s.window.answers),
                       note=f"{actor}: {s.window.statement.text}")
    if s.phase == "prep":
        if s.config.addons.seed_component is not None and not s.extra.seed_presented:
            from engine.universalis.addon_rules import seed_bringer
            return Pending("prep_turn", (seed_bringer(s),), note="present the seed Component (Seed Element)")
        return Pending("prep_turn", (prep_player(s),))
    if s.phase == "bidding" and s.config.addons.open_scene_framing:  # no bids: the next framer frames (UA-OPEN-1)
        from engine.universalis.addon_open import next_framer
        return Pending("frame_turn", (next_framer(s),), note="no scene is active: frame the next one")
    if s.phase == "bidding":
        return Pending("bid", tuple(p for p in s.seat_names if p not in s.bids), secret=True)
    if awaiting_allocation(s):  # Split Allocation (UA-MT-4): the Originator assigns the Successes rolled
        return Pending("allocate", (allocator(s.complication),), note=allocation_note(s))  # type: ignore[arg-type]
    if s.roll_pending and s.config.addons.pool_per_participant:  # UA-OWN-1: sides before the roll
        from engine.universalis.addon_own_pools import undeclared
        who = undeclared(s)
        if who:
            return Pending("declare_side", (who[0],), note="declare your Pool for the Complication or the Targets")
    if s.roll_pending and s.config.addons.allow_extended:  # UA-EXT-1: extend it before the roll?
        from engine.universalis.addon_extended import offer_note, to_ask
        who = to_ask(s)
        if who:
            return Pending("extend", (who[0],), note=offer_note(s))
    if s.roll_pending:
        return Pending("roll", ("dice",), dice=roll_request(s))
    if s.consent is not None:
        others = [p for p in seats_left_of(s.seat_names, s.consent.caller, include_self_last=False)
                  if p not in s.consent.answers]
        return Pending("consent", tuple(others), secret=True)
    if s.dialog is not None:
        return Pending("dialog_answer", (s.dialog.other,), note=s.dialog.line)
    if s.narration is not None:
        return Pending("narration", (narrator(s) or "",))
    assert s.turn is not None
    return Pending("turn", (s.turn.player,))


def any_time_options(s: GameState, player: str) -> list[Option]:
    """What `player` may do now whoever's decision is pending: call for a Fine (U-FINE-1, line 1361).

    `legal_options` lists the pending decision's own choices (what the table asks an AI player);
    a front end offers these besides, to everyone, at every moment.
    """
    if player not in s.seat_names or s.fine is not None:
        return []
    out = [Option("call_fine", "0", "at any time")]
    # a table playing add-ons offers to close the session (UA-SESS-1); a core table is as it was
    if (s.config.addons.any and s.extra.session_open and s.phase != "prep" and s.window is None and s.challenge is None
            and s.complication is None and s.narration is None and not s.bids):
        out.append(Option("end_session", "0", "close the table at the end of this session"))
    return out


def legal_options(s: GameState, player: str) -> list[Option]:
    """Action types `player` may take now, with their costs. Concrete checks stay in `apply`."""
    pend = pending(s)
    if pend.kind == "negotiation" and s.challenge is not None and player == s.challenge.challenger:
        # the challenged player is the one asked; the challenger may let his statement stand
        return [Option("withdraw_challenge", "0", "let the statement stand")]
    if player not in pend.players:
        return []
    k = pend.kind
    money = available(s, player)
    paid = (lambda opt: opt) if money > 0 else (lambda opt: None)
    ad = s.config.addons
    if k == "session_break":
        opts = [Option("start_session", "0", "open the next session")]
        if s.extra.between_pools.get(player, 0) > 0:
            opts.append(Option("create_component", "1 from the between-sessions pool"))
        return opts
    if k == "prep_turn" and ad.seed_component is not None and not s.extra.seed_presented:
        return [Option("present_seed", "1", "the seed Component is the first Tenet")]
    if k == "prep_turn":
        return [o for o in (paid(Option("propose_tenet", "1")), paid(Option("create_component", "1")),
                            paid(Option("add_trait", "1")), Option("pass_prep", "0")) if o]
    if k == "bid":
        opts = [Option("bid", f"0 to {s.player(player).wealth}")]
        if ad.alternate_realities:  # a mirror of the scene just ended (UA-ALT-1)
            from engine.universalis.addon_alt import bid_option
            fork = bid_option(s, player)
            opts += [Option(*fork)] if fork else []
        return opts
    if k == "frame_turn":  # Open Scene Framing (UA-OPEN-1)
        return [Option("frame_scene", str(min(ad.frame_scene_cost, money)), "frame the next scene")]
    if k == "reaction":
        w = s.window
        assert w is not None
        opts = [Option("pass", "0")]
        if w.allow_challenge and judgment.on(s):
            opts.append(Option("invoke_judgment", "0", "the Judge decides whether it stands (Judgment)"))
        if w.allow_challenge and not judgment.replaces_challenges(s):
            opts.append(Option("challenge", "0 now; bids later"))
        opts.append(Option("call_fine", "0"))  # at any time (U-FINE-1), also after one was voted on
        if money >= 1 and s.phase == "scene":
            opts.append(Option("take_over", "1"))
            if w.allow_interrupt:
                opts.append(Option("interrupt", "1"))
                nests = s.complication is not None and obstacle_nests(s, w)  # UA-NEST-1
                if w.statement.is_event and (s.complication is None or nests) and money >= 2:
                    opts.append(Option("obstacle", "1 + 1 per die"))
        return opts
    if k == "negotiation":
        opts = [Option("concede_challenge", "0"), Option("contest_challenge", "0")]
        if s.challenge is not None and s.challenge.fact_id:
            opts.append(Option("dispute_fact", "0"))
        return opts
    if k == "fact_vote":
        return [Option("fact_vote", "0")]
    if k == "judgment":
        return [Option("judge_ruling", "0", "decide: the statement stands, or the disputed version replaces it")]
    if k == "overrule_vote":
        return [Option("overrule_vote", "0", "only a unanimous vote of the others overrules the Judge")]
    if k == "challenge_bid":
        return [o for o in (paid(Option("challenge_bid", "1+")), Option("challenge_pass", "0")) if o]
    if k == "fine_vote":
        return [Option("fine_vote", "0")]
    if k == "consent":
        return [Option("answer_resolution", "0")]
    if k == "allocate":
        return [Option("allocate_successes", "0", "one count per faced Pool, in order: the Successes it faces")]
    if k == "declare_side":
        return [Option("declare_pool", "0", "side C (the Complication) or T (the Targets) for your Pool")]
    if k == "extend":  # Extended Complications (UA-EXT-1)
        return [Option("extend_complication", str(ad.extend_cost), pend.note), Option("decline_extend", "0", "roll it whole")]
    if k == "dialog_answer":
        return [Option("answer_dialog", "0; 1 per Fact bought in the reply")]
    if k == "narration":
        opts = [Option("end_narration", "0", "keep the rest as wealth")]
        slot = s.narration.slots[s.narration.current] if s.narration else None
        if slot and slot.won and any(not x.won and not x.done and x.coins for x in s.narration.slots):  # type: ignore[union-attr]
            opts.append(Option("cancel_bonus", "1 per coin cancelled"))
        if s.controller_any(player):
            opts.append(Option("speak", "0"))
        if money > 0:
            opts += [Option(t, c) for t, c in NARRATION_PAID]
            if slot is not None and not slot.tenet_used:
                opts.append(Option("propose_tenet", "1"))
        return opts
    # a turn: free options first, then (if he holds a coin) the paid ones
    assert s.turn is not None
    sc = s.scene()
    no_location = must_establish_location(s, player)
    opts = [] if no_location else [Option("end_turn", "0")]
    if (sc is not None and sc.framer == player and s.turn.mini_scene is None and s.complication is None
            and not no_location and not ad.open_scene_framing):
        opts.append(Option("end_scene", "0; 1 to fade to black"))
    opts.append(Option("call_fine", "0"))
    if sc is not None and s.controller_any(player):
        opts.append(Option("speak", "0"))
        opts.append(Option("dialog", "1; free between characters you control both of" if money > 0
                           else "0: only between characters you control both of"))
    if s.complication is not None:
        opts.append(Option("draw_trait", "0"))
        opts.append(Option("call_resolution", "0"))
        if ad.pool_per_participant:
            from engine.universalis.addon_own_pools import may_declare
            if may_declare(s, player):
                opts.append(Option("declare_pool", "0", "declare your own Pool for a side (C or T)"))
        if money > 0:
            opts.append(Option("buy_die", "1 per die"))
        if ad.nested_complications:  # the new one's Originator picks which resolves first (UA-NEST-3)
            from engine.universalis.addon_nested_order import FIRST_WORDS, order_problem
            opts += [Option("order_nested", "0", f"first={k}: {w} resolves first") for k, w in FIRST_WORDS.items()
                     if order_problem(s, player, k) is None]
    if s.turn.framing and sc is not None and sc.time_kind == "after" and not any(
            f.kind == "time" and f.scene == sc.number for f in s.facts):
        opts.append(Option("set_time", "0 after/concurrent; 1 past/explicit; 1 to each other player for the future"))
    if ad.open_scene_framing and not no_location:  # frame, switch, close (UA-OPEN-1..3)
        from engine.universalis.addon_open import turn_options as open_options
        opts += [Option(*o) for o in open_options(s, player, money)]
    if ad.player_characters or ad.plot_pools:  # Player Characters, Endowment, Plot Pools
        from engine.universalis.addon_hooks import turn_options
        opts += [Option(*o) for o in turn_options(s, player, money)]
    if money <= 0:
        return opts
    if not s.turn.framing and s.turn.mini_scene is None and s.complication is None:
        opts.append(Option("frame_mini_scene", "0; its location (1) and time at the usual costs"))
    if s.turn.framing and sc is not None and sc.location is None:
        opts.append(Option("establish_location", "1 (a new one with a proper name: 2)"))
    opts += [Option(t, c, option_note(s, t, "")) for t, c in TURN_PAID if not (  # UA-NEST-1: its note
        t == "establish_location" and sc is not None and s.turn.framing and sc.location is None)]
    if not s.turn.tenet_used:
        opts.append(Option("propose_tenet", "1"))
        if ad.max_tenets_per_turn != 1:
            opts.append(Option("propose_tenets", "1 per Tenet", "several Tenets on one idea (Multiple Tenets)"))
    if s.turn.mini_scene is not None:
        opts.append(Option("fade_mini_scene", "1"))
    if ad.friendly_control != "off" and s.controller_any(player):
        opts.append(Option("cede_control", "0", "hand Control to another player (Friendly Control)"))
    if any(t.secret and t.by == player for c in s.components.values() for t in c.traits):
        opts.append(Option("reveal_trait", "0", "reveal your Enigma Trait"))
    return opts


NARRATION_PAID = [
    ("narrate_event", "1"), ("buy_fact", "1"), ("add_trait", "1 per Trait"), ("remove_trait", "1"),
    ("restore_trait", "1"), ("reduce_importance", "1 per level"), ("restore_importance", "1"),
    ("create_component", "1 (+1 for a proper name)"), ("introduce_component", "1"), ("exit_component", "1"),
    ("establish_location", "1"), ("declare_absent", "1"), ("return_component", "its Importance"),
]
TURN_PAID = NARRATION_PAID + [("take_over", "1")]

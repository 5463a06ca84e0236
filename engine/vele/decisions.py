"""Who Vele waits for, and what they may do: the ruleset's `pending` and `legal_options`."""
from __future__ import annotations

from engine.core.ruleset import DICE_SEAT, DiceRequest, Option, Pending
from engine.vele.block_abilities import block_note, reroll_keys
from engine.vele import economy as E
from engine.vele.rules import counter_target, current_turn, player_of, roll_sides, untold
from engine.vele.state import GameState


def pending(s: GameState) -> Pending:
    ph = s.phase
    if ph == "over":
        return Pending("over", ())
    if ph == "bid":
        return Pending("bid", tuple(n for n in s.seats if s.players[n].bid is None), secret=True,
                       note="a secret d6 bid of your 6 XP (V-57)")
    if ph == "rolloff":
        tied = E.tied_bidders({n: p.bid for n, p in s.players.items()},  # type: ignore[misc]
                              {n: p.rolloff for n, p in s.players.items()})
        return Pending("roll", (DICE_SEAT,), note="bid roll-off", dice=tuple(DiceRequest(f"rolloff:{n}", 1, 6) for n in tied))
    if ph == "build":
        return Pending("build", tuple(n for n in s.order if not s.players[n].built),
                       note="buy your PC and this act's story components (V-10)")
    if ph == "frame":
        return Pending("frame_scene", (s.narrator,), note="frame a scene, pass the narration, or end the act")
    if ph == "exclusion":
        assert s.exclusion is not None
        return Pending("answer_exclusion", (s.exclusion.owner,), note="accept the die or roll a PC die (V-52)")
    if ph == "exclusion_roll":
        ex = s.exclusion
        assert ex is not None
        dice = [DiceRequest("narrator", 1, ex.narrator_die)] + ([DiceRequest("owner", 1, ex.owner_die)] if ex.owner_die else [])
        return Pending("roll", (DICE_SEAT,), note="exclusion roll", dice=tuple(dice))
    teller = untold(s) if ph in ("scene", "narrator") else None
    if teller is not None:  # V-31 (L690), rules version 4: the hidden roll ends with its effect told
        return Pending("tell_effect", (teller,), note="tell the hidden roll's effect in the story, without the number "
                                                      "(V-31)")
    if ph == "scene":
        return Pending("turn", (current_turn(s) or s.narrator,), note="start a struggle or pass (V-25)")
    if ph == "vote":
        v = s.vote
        assert v is not None
        return Pending("vote", tuple(n for n in v.voters if n not in v.opposed),
                       note=f"{v.kind}: {v.subject} (V-1, V-2)")
    if ph == "vote_roll":
        return Pending("roll", (DICE_SEAT,), note="approval tie roll", dice=(DiceRequest("approval", 1, 6),))
    if ph == "heal_roll":
        h = s.healing
        assert h is not None
        size = s.components[h.healer].trait(h.trait).size  # type: ignore[union-attr]
        dice = [DiceRequest("healer", 1, size)] + [DiceRequest(f"wound:{i}", 1, h.wounded[n])
                                                   for i, n in enumerate(sorted(h.wounded))]
        return Pending("roll", (DICE_SEAT,), note="heal roll", dice=tuple(dice))
    if ph == "narrator":
        return Pending("narrator", (s.narrator,), note="another round, end the scene or the act")
    if ph == "struggle":
        k = s.struggle
        if k is None:
            ex = s.extended
            assert ex is not None
            return Pending("continue_fight", (player_of(s, s.components[ex.next_actor]),),
                           note="strike back or surrender (V-32)")
        if k.stage == "difficulty":
            return Pending("difficulty", (s.narrator,), note="state a difficulty before traits are chosen (V-27)")
        if k.stage == "wager_actor":
            return Pending("wager", (k.actor.player,), secret=k.head_to_head,
                           note="push dice on your traits" + ("" if k.head_to_head else " (actor first)"))
        if k.stage == "wager_opponent":
            return Pending("wager", (k.opponent.player,), secret=k.head_to_head, note="push dice on your traits")
        if k.stage == "ally":
            side = k.actor if k.actor.called else k.opponent
            return Pending("join_ally", (player_of(s, s.components[side.called[0]]),),
                           note="join the struggle as an ally or decline (V-43)")
        if k.stage == "roll":
            reqs = []
            for side, key in roll_sides(k):
                dice = [x.die for x in side.stakes] + ([6] if side.average else [])
                reqs += [DiceRequest(f"{key}:{i}", 1, d) for i, d in enumerate(dice)]
                reqs += [DiceRequest(f"{key}_power:{i}", 1, d) for i, d in enumerate(side.power)]
                reqs += [DiceRequest(name, 1, d) for name, d in reroll_keys(side, key)]  # V-24 Auto-Block
            return Pending("roll", (DICE_SEAT,), note="the struggle roll", dice=tuple(reqs))
        if k.stage == "fate":
            return Pending("fate", (k.fate_queue[0],), note="spend fate (+2 with an aspect, +1 without) or pass (V-46)")
        return Pending("take_damage", (k.opponent.player,), note=f"absorb an effect of {k.effect} (V-35)")
    return Pending(ph, ())


KIND_OPTIONS = {
    "bid": [Option("bid", "bid XP", "1 to 6")],
    "build": [Option("build", "30 character and 30 story points"), Option("add_guideline"),
              Option("make_group", "the group's own 50 dice points",
                     "a group of story characters, once an act (V-60)")],
    "frame_scene": [Option("frame_scene"), Option("add_guideline"), Option("pass_narration"), Option("end_act"),
                    Option("buy_off_objective")],
    "answer_exclusion": [Option("answer_exclusion")],
    "turn": [Option("start_struggle"), Option("claim_aspect"), Option("heal"), Option("pass_turn"), Option("recombine"),
             Option("set_mode", "free; attaching: your turn or 1 XP",
                    "integrate a component with another of yours, or not (V-45)"),
             Option("make_component", "a story die of each trait's size",
                    "the thing you need, once an act (V-62); one_shot for a thing that works once (V-21)")],
    "vote": [Option("cast_vote", "oppose or accept the claim")],
    "narrator": [Option("next_round"), Option("end_scene"), Option("pass_narration"), Option("end_act"),
                 Option("buy_off_objective"), Option("set_mode", note="between rounds, your components' modes (V-45)"),
                 Option("make_temporary", note="a temporary component from bowl dice, or a virtual one (V-22)")],
    "continue_fight": [Option("continue_fight")],
    "difficulty": [Option("state_difficulty"), Option("narrator_no"), Option("challenge")],
    "wager": [Option("wager", "dice from your pool or the bowl")],
    "take_damage": [Option("take_damage")],
    "join_ally": [Option("join_ally", "push dice as an ally, or decline")],
    "fate": [Option("spend_fate", "1 XP or a free tag")],
    "tell_effect": [Option("tell_effect", "a line of story, no number",
                           "tell the hidden roll's effect in the story, without the number (V-31)")],
}


# side moves the awaited seat is offered too: a spotlight to claim, its thing's counter-struggle, its turned-down
# claim to justify, a temporary component while narrating, a connection to another's group at act setup
ONWARD = ("claim_spotlight", "counter_struggle", "justify", "make_temporary", "connect", "tell_effect")


def legal_options(s: GameState, seat: str) -> list[Option]:
    """What `seat` may do now: the pending decision's options; a seat the game is not waiting for may also act
    out of turn: challenge a struggle's claim before dice are pushed (V-1), ask to buy off a failed objective
    between scenes (V-49), claim a spotlight (V-61), ask for a thing's counter-struggle (V-41), justify a claim
    the table turned down (V-4), recombine or downgrade dice outside a struggle's
    resolution (V-11, V-12). The waiting seat's list stays its decision's, so a model seat is not offered
    side moves that do not move the game on."""
    pend = pending(s)
    out = list(KIND_OPTIONS.get(pend.kind, [])) if seat in pend.seats else []
    if out and pend.kind == "turn" and s.scene is not None and s.scene.zones:
        out.append(Option("move", "free; one more zone takes the turn",
                          "a component of yours to a neighbouring zone, before its struggle or as it (V-44)"))
    if out and pend.kind == "turn" and s.scene is not None and s.scene.zones and any(
            player_of(s, s.components[x]) == seat and not s.components[x].out
            and any(ab.effect in ("area", "selective_area") for ab in s.components[x].abilities)
            for x in s.scene.present):
        out.append(Option("start_mass_struggle", "wager and roll once",
                          "your component's Area hits everything else in its zone at once (V-38)"))
    ex = s.extended
    if out and pend.kind == "continue_fight" and ex is not None and s.scene is not None and s.scene.zones and \
            s.rules_version >= 4 and any(
            ab.effect in ("area", "selective_area") for ab in s.components[ex.next_actor].abilities):
        out = [Option("continue_fight", "0", "strike back, or surrender; with area on, the strike is its Area: the "
                                             "fight's other side and the rest of its zone at once (Selective Area: "
                                             "the targets you pick there, V-38)")]
    k = s.struggle
    if out and pend.kind == "wager" and k is not None:  # V-45 (L683): attached members pool
        from engine.vele.units import pooling_members
        members = pooling_members(s, k.actor if k.stage == "wager_actor" else k.opponent)
        if members:
            out = [Option("wager", "dice from your pool or the bowl",
                          "attached with " + ", ".join(f"{m.name} ({m.id})" for m in members) + ": a stake may name "
                          "one as its member to push a die on its trait, from the pool it draws on (V-45)")
                   if o.type == "wager" else o for o in out]
    if seat not in s.players or s.phase == "over":
        return out
    if out and pend.kind == "wager" and k is not None and k.stage == "wager_actor":
        out = [block_note(s, k, o) for o in out]
    extra: list[Option] = []
    if s.phase == "struggle" and k is not None and k.stage == "difficulty" and seat != k.actor.player and \
            not (s.extended is not None and s.extended.exchanges > 0):
        extra.append(Option("challenge", note="put the claim to a vote (V-1)"))
    if s.phase in ("frame", "narrator") and s.objective and not s.objective_done:
        extra.append(Option("buy_off_objective", note="the PCs fought for it and failed (V-49)"))
    middle = s.options.spotlight_cards == "middle"  # L737: any narrator may bring a card about; L935: its holder
    if s.phase in ("frame", "narrator") and any(x.act == s.act and not x.done and (middle or x.holder == s.narrator)
                                                 and seat in (x.maker, s.narrator) for x in s.spotlights):
        extra.append(Option("claim_spotlight", note="a spotlight achieved: 5 XP to its player, 3 to the narrator (V-61)"))
    if s.phase in ("scene", "narrator") and s.records and counter_target(s, s.records[-1].opponent) is not None \
            and player_of(s, s.components[s.records[-1].opponent]) == seat:
        extra.append(Option("counter_struggle", note="your thing strikes back at the one who failed against it, "
                                                     "if the table approves (V-41)"))
    last = s.records[-1] if s.records else None
    if last is not None and last.hidden_from and not last.told and seat not in last.hidden_from and seat in s.seats:
        extra.append(Option("tell_effect", note="tell the hidden roll's effect in the story, without the number "
                                                "(V-31)"))
    rev = s.revising
    if s.phase == "scene" and rev is not None and rev.at == s.seq and seat == rev.struggle.actor.player:
        extra.append(Option("justify", note="tell the challenged claim again with revised fiction; the table votes "
                                            "again (V-4)"))
    if s.phase not in ("bid", "rolloff", "build", "vote", "vote_roll", "heal_roll") and not (k is not None and k.stage in ("roll", "fate", "damage")):
        extra.append(Option("recombine", note="equal points, same pool (V-11, V-12)"))
    sc = s.scene
    if s.phase == "scene" and sc is not None and any(
            s.components[x].stationary and player_of(s, s.components[x]) == seat and not s.components[x].out
            for x in sc.present):
        extra.append(Option("start_struggle", note="your terrain strikes a component on its own turn (V-41)"))
    setup = s.phase == "build" or (s.phase == "frame" and not any(sc.act == s.act for sc in s.scenes))
    if setup and s.players[seat].built and any(g.act == s.act and g.owner != seat and seat not in g.connected
                                               for g in s.groups):
        extra.append(Option("connect", note="a trait or aspect tied to your PC on another's group: a d4 story die "
                                            "for each (V-60, V-AMB-18)"))
    if seat != s.narrator or s.phase in ("bid", "rolloff", "build"):  # V-5: setup talk is free
        extra.append(Option("table_talk", note="out of character, to players neither narrating nor acting (V-5)"))
    if s.phase == "scene" and seat == s.narrator:
        extra.append(Option("make_temporary", note="a temporary component from bowl dice, or a virtual one (V-22)"))
    if seat in pend.seats:  # the seat the game waits for keeps its decision's list, and the side moves that are its
        extra = [o for o in extra if o.type in ONWARD]  # own decision too
    if untold(s) is not None:  # V-31 (L690): nothing that would start a struggle before the hidden roll is told
        extra = [o for o in extra if o.type not in ("start_struggle", "counter_struggle")]
    have = {o.type for o in out}
    return out + [o for o in extra if o.type not in have]

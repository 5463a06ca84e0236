"""The add-ons' rules (issue 22): hooks the core handlers call, and the add-on actions.

Why hooks: each core handler stays as it was; where an add-on changes a price or forbids a move,
the handler asks this module (`trait_price`, `check_trait`, `takeover_cost`...). Every hook returns
the core answer when its add-on is off, so a core game plays exactly as before.

Rule IDs are UA-<short>-N (the digest `universalis-addons.md`); refusals name the add-on.
"""
from __future__ import annotations

import re

from engine.core.errors import RuleViolation
from engine.universalis import actions as A
from engine.universalis.addons import Addons, Job
from engine.universalis.components import add_trait, component, find_trait, importance, new_id, replace_trait
from engine.universalis.ledger import coins, from_bank, pay, pay_player, set_aside, spend_set_aside
from engine.universalis.rules import Ctx, advance_prep, handles, prep_or_turn, refresh_all, statement
from engine.universalis.state import Component, GameState, Tenet, Trait

DURABLE = "durable"
PUBLIC_DOMAIN = "public domain"
PROTAGONIST = "main protagonist"
ANTAGONIST = "main antagonist"
MAIN_CHARACTER = "main character"
CLIMACTIC = "climactic scene"
CONTROL_RE = re.compile(r"^\s*controlled by\s+(.+?)\s*$", re.IGNORECASE)
# UA-MULT-1 (L2252): "except to represent numbers" — any Trait that stands for how many there are: the
# core Group Trait (L1367), the book's own "Shock Squad x3" (L1165) and "Numbers x3" (L1247), a count
# ("10 men", "a dozen riders") or a collective noun. Reading: the book names no list; these words are ours.
NUMBER_TRAIT_RE = re.compile(
    r"\d|\b(group|groups|numbers?|squad|squads|crowd|gang|horde|mob|army|armies|troops?|platoon|"
    r"battalion|regiment|legion|fleet|swarm|herd|flock|throng|many|several|dozens?|"
    r"scores?|hundreds?|thousands?|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty)\b",
    re.IGNORECASE)


def stands_for_number(text: str) -> bool:
    """UA-MULT-1 (L2252): a Trait that represents numbers may still be bought several times."""
    return NUMBER_TRAIT_RE.search(text) is not None


def adds(s: GameState) -> Addons:
    return s.config.addons


def _is(t: Trait, words: str) -> bool:
    return not t.removed and t.text.strip().lower() == words


def has_trait(comp: Component, words: str) -> bool:
    return any(_is(t, words) for t in comp.traits)


def control_holder(comp: Component) -> str | None:
    """The player a live "Controlled by <player>" Trait names (Greater Control, L2058)."""
    for t in comp.traits:
        m = CONTROL_RE.match(t.text) if not t.removed else None
        if m:
            return m.group(1)
    return None


# --- every action ------------------------------------------------------------------------------------------
SESSION_FREE = ("start_session", "create_component")  # what may be done while the table is closed


def before_action(c: Ctx) -> None:
    """Refusals that hold whatever the action: a closed table (UA-SESS-1), an unpresented seed (UA-SEED-1)."""
    s, a, ad = c.s, c.a, adds(c.s)
    kind = a.type  # type: ignore[attr-defined]
    if not s.extra.session_open and kind not in SESSION_FREE:
        raise RuleViolation("UA-SESS-1", f"the table is closed between sessions {s.extra.session} and "
                                         f"{s.extra.session + 1}: start the next session first")
    if not s.extra.session_open and kind == "create_component" and not ad.intersession_creation_pool:
        raise RuleViolation("UA-SESS-1", "the table is closed between sessions; Creating Components between "
                                         "sessions needs the Create Components Between Sessions add-on (L2496)")
    if ad.currency in ("cards_bank", "cards_stack") and kind == "roll" and s.roll_pending:  # revealed (UA-CARDS-5)
        from engine.universalis.addon_cards_play import check_roll
        check_roll(s, a.faces)  # type: ignore[attr-defined]
    if ad.currency == "cards_hand" and kind == "roll" and s.roll_pending and not any(h.owed or h.trait_owed for h in s.extra.hands.values()):
        from engine.universalis.addon_cards_hand import check_roll as check_hand_roll
        check_hand_roll(s, a.faces)  # type: ignore[attr-defined]
    if ad.open_scene_framing and kind in ("bid", "end_scene"):  # UA-OPEN-1, UA-OPEN-3
        from engine.universalis.addon_scenes import OPEN, no_bidding
        if kind == "bid":
            no_bidding()
        raise RuleViolation("UA-OPEN-3", f"{OPEN}: the framer closes a scene by paying 1 to Fade to Black "
                                         "(close_scene, L1974)")
    if ad.seed_component is not None and not s.extra.seed_presented and kind in (
            "propose_tenet", "propose_tenets", "pass_prep", "create_component", "add_trait"):
        raise RuleViolation("UA-SEED-1", f"Seed Element: {seed_bringer(s)} first presents the seed Component "
                                         "as the first Tenet of Game Prep (L1946)")


def after_action(c: Ctx) -> None:
    """Refusals checked on the result: Protagonists Must be Most Important (UA-PMI-1); what Judgment
    keeps track of (UA-JUDGE-2)."""
    s, ad = c.s, adds(c.s)
    if ad.importance_cap != "off":
        check_importance_cap(s, ad)
    if ad.currency in ("cards_bank", "cards_stack"):  # each deck follows the coins and Pools (UA-CARDS-1..3)
        from engine.universalis.addon_cards_play import reconcile
        reconcile(c)
    if ad.currency == "cards_hand":  # hands follow the coins, played cards the Pools (UA-CDICE-1..3)
        from engine.universalis.addon_cards_hand import reconcile as reconcile_hands
        reconcile_hands(c)
    if ad.alternate_realities:  # the number line and the world before each scene (UA-ALT-1)
        from engine.universalis.addon_alt import track as alt_track
        alt_track(c)
    from engine.universalis import addon_judgment as judgment
    if judgment.on(c.s):  # who spent coins before each turn: its Judge (UA-JUDGE-2)
        judgment.track(c)


def check_importance_cap(s: GameState, ad: Addons) -> None:
    chars = [x for x in s.components.values() if x.kind == "character" and not x.eliminated]
    if ad.importance_cap == "protagonist":
        mains = [x for x in chars if has_trait(x, PROTAGONIST)]
    else:
        mains = [x for x in chars if has_trait(x, MAIN_CHARACTER) or has_trait(x, PROTAGONIST)]
    if not mains:
        return
    levels = [importance(s, x.id) for x in mains]
    cap = min(levels) if ad.importance_cap == "ensemble_min" else max(levels)
    for x in chars:
        if x in mains or has_trait(x, ANTAGONIST):
            continue
        imp = importance(s, x.id)
        if imp > cap:
            who = mains[levels.index(max(levels))].label if ad.importance_cap != "ensemble_min" else "the least important main character"
            raise RuleViolation("UA-PMI-1", f"Protagonists Must be Most Important refuses: {x.label} would reach "
                                            f"Importance {imp}, above {who}'s {cap}; only the Main Antagonist may (L2258)")


# --- preparation -----------------------------------------------------------------------------------------
def seed_bringer(s: GameState) -> str:
    seed = adds(s).seed_component
    return (seed.by if seed is not None and seed.by else None) or s.seat_names[s.config.starting_player]


def prep_ended(c: Ctx) -> None:
    """Extra Refresh Before First Scene (UA-FIRST-1, L1874; variant UA-FIRST-2, L1882-1886)."""
    s, ad = c.s, adds(c.s)
    if s.scenes or s.extra.session != 1 or ad.first_scene_coins == "none":
        return
    if ad.first_scene_coins == "refresh":
        refresh_all(c, s.config.refreshment, f"Extra Refresh before the first scene: every player receives "
                                             f"{coins(s.config.refreshment)}.", "UA-FIRST-1")
        return
    start = s.config.starting_coins
    for p in s.players:
        if p.wealth < start:
            from_bank(p, s, start - p.wealth, "refreshment")
        elif p.wealth > start:
            pay(s, p.name, p.wealth - start, "the Wealth reset", use_bonus=False)
    c.emit("refresh", f"Wealth reset: every player starts the first scene with {coins(start)}.", player="",
           rule="UA-FIRST-2")


def setting_phase_turn(s: GameState) -> bool:
    """Setting Creation Phase (UA-SETTING-1, L1890-1896): after Game Prep, before the first frame, each player
    spends a separate pool on setting only; it ends when all pass in a row or every pool is spent, and what is
    left goes back to the Bank. Returns True while preparation goes on because of it."""
    ad = adds(s)
    if ad.setting_phase_pool is None or s.extra.setting_done or s.scenes or s.extra.session != 1:
        return False
    if not s.extra.setting_phase:
        if s.prep_passes < len(s.players):
            return False
        s.extra.setting_phase = True
        s.extra.setting_pools = {p.name: ad.setting_phase_pool for p in s.players}
        set_aside(s, ad.setting_phase_pool * len(s.players))
        s.prep_passes = 0
        return True
    if s.prep_passes >= len(s.players):  # a player whose pool is spent can only pass
        s.extra.setting_phase = False
        s.extra.setting_done = True
        spend_set_aside(s, sum(s.extra.setting_pools.values()))
        s.extra.setting_pools = {}  # unspent Coins return to the Bank (L1894)
        return False
    return True


@handles(A.PresentSeed)
def present_seed(c: Ctx) -> None:
    """UA-SEED-1: the seed Component, Created before play, is presented as the first Tenet (1 coin)."""
    s, a, ad = c.s, c.a, adds(c.s)
    seed = ad.seed_component
    if seed is None:
        raise RuleViolation("UA-SEED-1", "Seed Element is not in play: there is no seed Component to present")
    if s.extra.seed_presented:
        raise RuleViolation("UA-SEED-1", "Seed Element: the seed Component was already presented")
    if s.phase != "prep":
        raise RuleViolation("UA-SEED-1", "Seed Element: the seed is presented at the start of Game Prep")
    if a.player != seed_bringer(s):  # type: ignore[attr-defined]
        raise RuleViolation("UA-SEED-1", f"Seed Element: {seed_bringer(s)} brought the seed and presents it")
    pay(s, a.player, 1, "presenting the seed as a Tenet")  # type: ignore[attr-defined]
    comp = Component(id=new_id(s, "c"), kind=seed.kind, created_by=a.player)  # type: ignore[attr-defined]
    s.components[comp.id] = comp
    role = add_trait(s, comp, seed.role.strip(), "role", a.player)  # type: ignore[attr-defined]
    add_trait(s, comp, seed.call_to_action.strip(), "plain", a.player)  # type: ignore[attr-defined]
    text = f"Seed Element: {seed.role} — {seed.call_to_action}"
    t = Tenet(id=new_id(s, "T"), kind="story", text=text, by=a.player, seq=s.seq)  # type: ignore[attr-defined]
    s.tenets.append(t)
    s.extra.seed_presented = True
    c.emit("tenet", text, 1, tenet=t.id, tenet_kind="story", component=comp.id, rule="UA-SEED-1")
    statement(c, "tenet", text, 1, fact_id=role.id, components=[comp.id])


@handles(A.ProposeTenets)
def propose_tenets(c: Ctx) -> None:
    """UA-TENET-1: several Tenets at once, 1 coin each, on one named idea (Multiple Tenets, L1940)."""
    s, a, ad = c.s, c.a, adds(c.s)
    assert isinstance(a, A.ProposeTenets)
    texts = [t.strip() for t in a.texts if t.strip()]
    if not texts:
        raise RuleViolation("UA-TENET-1", "there is no Tenet to pay for")
    limit = ad.max_tenets_per_turn
    if limit is not None and len(texts) > limit:
        raise RuleViolation("UA-TENET-1", f"only {limit} Tenet{'s' if limit != 1 else ''} may be proposed on a turn"
                            + ("; several at once need the Multiple Tenets add-on (L1940)" if limit == 1 else ""))
    if ad.tenets_same_idea and len(texts) > 1 and not (a.idea or "").strip():
        raise RuleViolation("UA-TENET-2", "Multiple Tenets: name the basic idea they all relate to (L1940); "
                                          "an unrelated Tenet waits for another turn")
    prep = prep_or_turn(c, narration_ok=True)
    if not prep:
        assert s.turn is not None
        slot = s.narration.slots[s.narration.current] if s.narration is not None else None
        if (slot.tenet_used if slot is not None else s.turn.tenet_used):
            raise RuleViolation("U-PREP-2", "Tenets were already proposed this turn")
        if slot is not None:
            slot.tenet_used = True
        else:
            s.turn.tenet_used = True
    pay(s, a.player, len(texts), f"{len(texts)} Tenets")
    ids = []
    for text in texts:
        t = Tenet(id=new_id(s, "T"), kind=a.kind, text=text, by=a.player, seq=s.seq)
        s.tenets.append(t)
        ids.append(t.id)
        c.emit("tenet", text, 1, tenet=t.id, tenet_kind=a.kind, idea=a.idea, rule="UA-TENET-1")
    if prep:
        advance_prep(s, passed=False)
    statement(c, "tenet", " / ".join(texts), len(texts), fact_id=ids[0])


# --- components and Traits --------------------------------------------------------------------------------
def create_price(c: Ctx, a: A.CreateComponent, cost: int) -> int:
    """Named Character Limit (UA-NAMED-1) and Durable Components (UA-DUR-1) on Creating a component."""
    ad = adds(c.s)
    if ad.named_characters_locked and a.kind == "character" and a.proper_name:
        raise RuleViolation("UA-NAMED-1", "Named Character Limit refuses: no more named characters may be Created "
                                          "(L2232); a Rules Gimmick can make an exception")
    if a.durable:
        if ad.durable_cost is None:
            raise RuleViolation("UA-DUR-1", "Durable Components is not in play: nothing can be made Durable")
        cost += ad.durable_cost
    return cost


def between_sessions_pay(c: Ctx, a: A.CreateComponent, cost: int) -> bool:
    """Create Components Between Sessions (UA-BETWEEN-1): paid from the player's between-sessions pool."""
    s = c.s
    if s.extra.session_open:
        return False
    if a.introduce:
        raise RuleViolation("UA-BETWEEN-1", "Create Components Between Sessions: nothing enters a scene between "
                                            "sessions; present it at the next Game Prep")
    left = s.extra.between_pools.get(a.player, 0)
    if cost > left:
        raise RuleViolation("UA-BETWEEN-1", f"Create Components Between Sessions: {a.player} has {coins(left)} left "
                                            f"in the between-sessions pool; this costs {cost} (L2496)")
    s.extra.between_pools[a.player] = left - cost
    spend_set_aside(s, cost)
    return True


def created(c: Ctx, comp: Component, a: A.CreateComponent) -> None:
    if not c.s.extra.session_open:
        c.s.extra.between_made.append(comp.id)
    if a.durable:
        add_trait(c.s, comp, "Durable", "plain", a.player)


def check_trait(c: Ctx, comp: Component, a: A.AddTrait) -> int:
    """The add-ons' refusals for adding a Trait, and its price per occurrence."""
    s, ad = c.s, adds(c.s)
    words = a.text.strip().lower()
    if ad.named_characters_locked and ad.named_lock_includes_naming and a.kind == "name" and comp.kind == "character":
        raise RuleViolation("UA-NAMED-1", "Named Character Limit refuses: naming a character Creates a named "
                                          "character (L2232)")
    if ad.durable_cost is not None and words == DURABLE:
        raise RuleViolation("UA-DUR-2", f"Durable Components: 'Durable' is bought when a component is Created, "
                                        f"for {ad.durable_cost} (L2172)")
    holder = CONTROL_RE.match(a.text)
    if ad.control_traits and holder:
        name = holder.group(1)
        if name != a.player:
            raise RuleViolation("UA-GCTRL-1", f"Greater Control: a Control Trait names its buyer ({a.player}), not {name}")
        if comp.created_by != a.player and not ad.control_traits_any_creator:
            raise RuleViolation("UA-GCTRL-1", f"Greater Control refuses: {a.player} did not Create {comp.label} "
                                              "(the option to apply it to others' Components is off, L2062)")
        if ad.control_traits_characters_only and comp.kind != "character":
            raise RuleViolation("UA-GCTRL-1", "Greater Control: in this game only characters can have a Control Trait")
        if control_holder(comp) is not None:
            raise RuleViolation("UA-GCTRL-1", f"Greater Control: {comp.label} already has a Control Trait; remove it first")
        if ad.control_traits_per_player is not None:
            mine = sum(1 for x in s.components.values() for t in x.traits
                       if not t.removed and (m := CONTROL_RE.match(t.text)) and m.group(1) == a.player)
            if mine >= ad.control_traits_per_player:
                raise RuleViolation("UA-GCTRL-1", f"Greater Control: {a.player} already holds "
                                                  f"{ad.control_traits_per_player} Control Trait(s)")
        if a.times != 1:
            raise RuleViolation("UA-GCTRL-1", "Greater Control: one Control Trait, once")
    if not ad.allow_trait_multiples and not stands_for_number(words):
        same = [t for t in comp.traits if not t.removed and t.text.strip().lower() == words]
        if a.times > 1 or same:
            raise RuleViolation("UA-MULT-1", f"No Purchasing the Same Trait Multiple Times refuses: {comp.label} "
                                             f"{'already has' if same else 'would get'} “{a.text.strip()}” more than once; "
                                             "only a Trait that stands for a number (a Group, a squad, "
                                             "“10 men”) repeats (L2252)")
    if ad.max_positive_traits is not None and comp.kind == "character" and not a.negative:
        # in Game Prep one Tenet action buys one Trait a turn anyway; an ended scene is never written to
        # (its record is shared between states)
        box = None
        if s.turn is not None and s.phase == "scene":
            sc = s.scene()
            if ad.positive_traits_window == "turn":
                box = s.turn.positive
            elif sc is not None and not sc.ended:
                box = sc.positive
        if box is not None:
            had = box.get(comp.id, 0)
            if had + a.times > ad.max_positive_traits:
                raise RuleViolation("UA-ONE-1", f"Only 1 Trait per Turn refuses: {comp.label} already gained {had} "
                                                f"neutral or advantageous Trait(s) this {ad.positive_traits_window}; "
                                                "drawbacks are unlimited (L2242)")
            box[comp.id] = had + a.times
    if a.enigma:
        if ad.enigma_trait_cost is None:
            raise RuleViolation("UA-ENIGMA-1", "Enigma Traits is not in play: every Trait is bought openly")
        if a.kind != "plain" or a.times != 1:
            raise RuleViolation("UA-ENIGMA-1", "Enigma Traits: one plain Trait at a time is bought in secret")
        return ad.enigma_trait_cost
    return 1


def trait_added(c: Ctx, t: Trait, comp: Component, a: A.AddTrait) -> Trait:
    if a.enigma:
        return replace_trait(comp, comp.traits.index(t), secret=True)
    return t


def removal_price(c: Ctx, comp: Component, t: Trait, removing: bool) -> int:
    """Durable Components (UA-DUR-2) and immutable Control Traits (UA-GCTRL-2) on removing a Trait."""
    ad = adds(c.s)
    if not removing:
        return 1
    if ad.durable_cost is not None and has_trait(comp, DURABLE):
        if t.text.strip().lower() == DURABLE:
            raise RuleViolation("UA-DUR-2", f"Durable Components: the Durable Trait of {comp.label} cannot be Removed (L2172)")
        return ad.durable_multiplier
    if ad.control_traits and ad.control_traits_immutable and CONTROL_RE.match(t.text):
        raise RuleViolation("UA-GCTRL-2", "Greater Control: in this game Control Traits can never be removed (L2066)")
    return 1


def importance_multiplier(c: Ctx, comp: Component) -> int:
    """Coins per level of Importance: 2 on a Durable component (UA-DUR-3, L2172)."""
    ad = adds(c.s)
    if ad.durable_cost is not None and has_trait(comp, DURABLE):
        return ad.durable_multiplier
    return 1


def check_draw(s: GameState, t: Trait) -> None:
    if t.secret:
        raise RuleViolation("UA-ENIGMA-2", "Enigma Traits: a secret Trait cannot be used in a Complication until "
                                           "it is revealed (L2184)")


def check_cited(s: GameState, fact_id: str) -> None:
    """UA-ENIGMA-2: a secret Enigma Trait cannot be cited in a Challenge until revealed (L2182)."""
    for comp in s.components.values():
        for t in comp.traits:
            if t.id == fact_id and t.secret:
                raise RuleViolation("UA-ENIGMA-2", "Enigma Traits: a secret Trait cannot be used in a Challenge "
                                                   "until it is revealed (L2182)")


@handles(A.RevealTrait)
def reveal_trait(c: Ctx) -> None:
    """UA-ENIGMA-3: the buyer reveals an Enigma Trait at any time, free; it is a Fact from then on."""
    s, a = c.s, c.a
    assert isinstance(a, A.RevealTrait)
    comp, idx = find_trait(s, a.trait)
    t = comp.traits[idx]
    if not t.secret:
        raise RuleViolation("UA-ENIGMA-3", f"“{t.text}” is not a secret Trait")
    if t.by != a.player:
        raise RuleViolation("UA-ENIGMA-3", "Enigma Traits: only the player who bought a secret Trait reveals it")
    replace_trait(comp, idx, secret=False)
    c.emit("reveal", f"reveals an Enigma Trait of {comp.label}: “{t.text}”.", component=comp.id, trait=t.id,
           rule="UA-ENIGMA-3")


# --- Control ------------------------------------------------------------------------------------------------
def takeover_cost(s: GameState, who: str, cid: str, royalty: bool = False) -> int:
    """The coins a Take Over costs: 0 under Public Domain (UA-PD-1) and Friendly Control's
    free-take-over variant on one's own turn (UA-FRIEND-2); Royalty adds 1 (UA-ROY-1)."""
    ad = adds(s)
    comp = s.components.get(cid)
    base = 1
    if comp is not None and ad.public_domain_traits and has_trait(comp, PUBLIC_DOMAIN):
        base = 0
    if ad.friendly_control == "free_takeover" and s.turn is not None and s.turn.player == who and s.window is None:
        base = 0
    return base + (1 if royalty else 0)


def royalty_payee(s: GameState, who: str, cid: str) -> str:
    ad = adds(s)
    if not ad.royalty:
        raise RuleViolation("UA-ROY-1", "Royalty is not in play")
    comp = s.components[cid]
    holder = control_holder(comp)
    if holder is None or holder not in s.seat_names:
        raise RuleViolation("UA-ROY-1", f"Royalty: {comp.label} has no Control Trait naming a player to pay")
    if holder == who:
        raise RuleViolation("UA-ROY-1", f"Royalty: {who} would pay himself; his own Control Trait is his already")
    return holder


def pay_takeover(s: GameState, who: str, cid: str, royalty: bool) -> int:
    """Pay for a Take Over; returns the coins paid to the Bank."""
    cost = takeover_cost(s, who, cid, False)
    if royalty:
        payee = royalty_payee(s, who, cid)
        if s.player(who).wealth < 1:
            raise RuleViolation("UA-ROY-1", f"Royalty: {who} pays the extra coin from Wealth and holds none")
        pay(s, who, cost, "a Take Over")
        pay_player(s, who, payee, 1)
        return cost
    pay(s, who, cost, "a Take Over")
    return cost


def owner_defends_control(ch) -> bool:
    """UA-FRIEND-3 (L2014): under the free-take-over variant, the Component's Controller challenges a Take Over
    'with the weight of Fact behind him': his coins count double."""
    before = ch.before
    if adds(before).friendly_control != "free_takeover" or ch.statement.kind != "take_over":
        return False
    cid = (ch.statement.action or {}).get("component")
    return bool(cid) and before.controller(cid) == ch.challenger


@handles(A.CedeControl)
def cede_control(c: Ctx) -> None:
    """UA-FRIEND-1: a Controller hands Control to another player at any time, free (L2012)."""
    s, a = c.s, c.a
    assert isinstance(a, A.CedeControl)
    if adds(s).friendly_control == "off":
        raise RuleViolation("UA-FRIEND-1", "Friendly Control is not in play: Control changes hands by a Take Over")
    if a.to not in s.seat_names or a.to == a.player:
        raise RuleViolation("UA-FRIEND-1", "Friendly Control: hand Control to another player at this table")
    comp = component(s, a.component, "UA-FRIEND-1")
    if s.controller(comp.id) != a.player:
        raise RuleViolation("UA-FRIEND-1", f"Friendly Control: {a.player} does not Control {comp.label}")
    sc = s.scene()
    assert sc is not None
    sc.control[comp.id] = a.to
    c.emit("cede_control", f"hands Control of {comp.mention} to {a.to}.", component=comp.id, to=a.to,
           rule="UA-FRIEND-1")


# --- scene ends ---------------------------------------------------------------------------------------------
def refresh_amount(s: GameState, scene_no: int) -> int:
    """Protagonist Refresh Boost (UA-PREF-1, L2206): 7 after a scene the main character was Introduced in."""
    ad = adds(s)
    base = s.config.refreshment
    if ad.protagonist_refresh is None:
        return base
    sc = s.scenes[scene_no - 1]
    names = (PROTAGONIST, ANTAGONIST) if ad.protagonist_refresh_antagonist else (PROTAGONIST,)
    present = [s.components[x] for x in sc.seen + ([sc.location] if sc.location else []) if x in s.components]
    if any(has_trait(x, n) for x in present for n in names):
        return base + 2 if ad.protagonist_refresh_relative else ad.protagonist_refresh
    return base


def pay_jobs(c: Ctx, schedule: str) -> None:
    """Metagame Jobs (UA-JOB-1, L1914): the Bank pays each job on its schedule."""
    s = c.s
    for j in s.extra.jobs:
        if j.schedule == schedule and j.coins and j.player in s.seat_names:
            from_bank(s.player(j.player), s, j.coins, "refreshment")
            c.emit("job_pay", f"The Bank pays {j.player} {coins(j.coins)} as {j.title}.", player="", job=j.title,
                   rule="UA-JOB-1")


@handles(A.StartJob)
def start_job(c: Ctx) -> None:
    """UA-JOB-2: starting a job is a Rules Gimmick, 1 coin, open to Challenge (L1914, @252819)."""
    s, a = c.s, c.a
    assert isinstance(a, A.StartJob)
    if a.holder not in s.seat_names:
        raise RuleViolation("UA-JOB-2", f"Metagame Jobs: {a.holder[:40]!r} is not a player at this table")
    if any(j.title == a.title for j in s.extra.jobs):
        raise RuleViolation("UA-JOB-2", f"Metagame Jobs: there is already a job {a.title!r}")
    prep = prep_or_turn(c, narration_ok=True)
    pay(s, a.player, 1, "a Rules Gimmick (a Metagame Job)")
    text = f"Metagame Job: {a.holder} is {a.title}, paid {coins(a.coins)} per {a.schedule}"
    t = Tenet(id=new_id(s, "T"), kind="gimmick", text=text, by=a.player, seq=s.seq)
    s.tenets.append(t)
    s.extra.jobs.append(Job(player=a.holder, title=a.title, coins=a.coins, schedule=a.schedule))
    c.emit("tenet", text, 1, tenet=t.id, tenet_kind="gimmick", rule="UA-JOB-2")
    if prep:
        advance_prep(s, passed=False)
    statement(c, "tenet", text, 1, fact_id=t.id)


@handles(A.EndJob)
def end_job(c: Ctx) -> None:
    """UA-JOB-3: another Gimmick (1 coin) ends a job (L1922)."""
    s, a = c.s, c.a
    assert isinstance(a, A.EndJob)
    jobs = [j for j in s.extra.jobs if j.title == a.title]
    if not jobs:
        raise RuleViolation("UA-JOB-3", f"Metagame Jobs: there is no job {a.title[:60]!r}")
    prep = prep_or_turn(c, narration_ok=True)
    pay(s, a.player, 1, "a Rules Gimmick (ending a Metagame Job)")
    s.extra.jobs = [j for j in s.extra.jobs if j.title != a.title]
    text = f"Metagame Job ended: {a.title}"
    t = Tenet(id=new_id(s, "T"), kind="gimmick", text=text, by=a.player, seq=s.seq)
    s.tenets.append(t)
    c.emit("tenet", text, 1, tenet=t.id, tenet_kind="gimmick", rule="UA-JOB-3")
    if prep:
        advance_prep(s, passed=False)
    statement(c, "tenet", text, 1, fact_id=t.id)


@handles(A.JobItem)
def job_item(c: Ctx) -> None:
    """UA-JOB-4: a per-item job is paid when another player records the item produced."""
    s, a = c.s, c.a
    assert isinstance(a, A.JobItem)
    job = next((j for j in s.extra.jobs if j.title == a.title), None)
    if job is None or job.schedule != "item":
        raise RuleViolation("UA-JOB-4", f"Metagame Jobs: there is no per-item job {a.title[:60]!r}")
    if job.player == a.player:
        raise RuleViolation("UA-JOB-4", "Metagame Jobs: another player records the item produced, not its maker")
    from_bank(s.player(job.player), s, job.coins, "refreshment")
    c.emit("job_pay", f"The Bank pays {job.player} {coins(job.coins)} for an item as {job.title}: {a.text[:200]}",
           player="", job=job.title, rule="UA-JOB-4")


# --- sessions -------------------------------------------------------------------------------------------------
def newcomer_wealth(s: GameState) -> int:
    """Introduce New Players (UA-NEW-2, L2476-2480): the standard start, the most or least Coins at the
    table, their mean, or a set number; a one-time level applies to the first admission only."""
    ad = adds(s)
    rule = ad.new_player_wealth
    if ad.new_player_wealth_scope == "once" and s.extra.newcomer_rule_used:
        rule = "start"
    have = [p.wealth for p in s.players]
    if rule == "start":
        return s.config.starting_coins
    if rule == "max":
        return max(have)
    if rule == "min":
        return min(have)
    if rule == "mean":
        return sum(have) // len(have)
    return int(rule)


def admit_players(c: Ctx, a: A.StartSession) -> list[str]:
    """UA-NEW-1 (L2468-2474): new players join at a session start by a special Rules Gimmick (1 coin each,
    paid by the player who opens the session) or, under an open door, free; the story's cap holds."""
    from engine.universalis.rules import MAX_NAME
    from engine.universalis.state import Ledger, Player

    s, ad = c.s, adds(c.s)
    names = [n.strip() for n in a.new_players if n.strip()]
    if not names:
        return []
    if ad.new_player_admission == "off":
        raise RuleViolation("UA-NEW-1", "new players join only under the Introduce New Players add-on (L2468)")
    bad = [n for n in names if n in s.seat_names or n in ("C", "dice") or n.startswith("C:") or len(n) > MAX_NAME]
    if bad or len(set(names)) != len(names):
        raise RuleViolation("UA-NEW-1", f"Introduce New Players: {(bad or names)[0][:40]!r} cannot join under that name")
    if ad.max_players_per_story is not None and len(s.players) + len(names) > ad.max_players_per_story:
        raise RuleViolation("UA-NEW-1", f"Introduce New Players refuses: the story is capped at "
                                        f"{ad.max_players_per_story} players (L2472)")
    amount = newcomer_wealth(s)  # the table's level as the session opens, before the Gimmicks are paid
    if ad.new_player_admission == "gimmick":
        pay(s, a.player, len(names), "a Rules Gimmick admitting a new player" if len(names) == 1
            else f"{len(names)} Rules Gimmicks admitting new players")
    for n in names:
        s.players.append(Player(name=n, wealth=amount, ledger=Ledger(start=amount)))
        if ad.new_player_admission == "gimmick":
            t = Tenet(id=new_id(s, "T"), kind="gimmick", text=f"Rules Gimmick: {n} joins the game", by=a.player,
                      seq=s.seq)
            s.tenets.append(t)
        c.emit("player_joined", f"{n} joins the game with {coins(amount)}.", player=n, wealth=amount,
               rule="UA-NEW-1")
    s.extra.newcomer_rule_used = True
    return names


def scene_in_progress(s: GameState) -> bool:
    if adds(s).open_scene_framing:  # every active scene counts (UA-OPEN-1)
        from engine.universalis.addon_open import active
        return bool(active(s))
    return s.phase == "scene" and s.current_scene is not None and not s.scenes[s.current_scene - 1].ended


@handles(A.EndSession)
def end_session(c: Ctx) -> None:
    """UA-SESS-1: close the table at a session's end (Serial Game Structure, Coin Options, Jobs)."""
    s, a, ad = c.s, c.a, adds(c.s)
    assert isinstance(a, A.EndSession)
    from engine.universalis.rules import blocking
    b = blocking(s)
    if b or s.complication is not None or s.window is not None or s.narration is not None:
        raise RuleViolation("UA-SESS-1", "a session ends between moves: finish what is open first")
    if s.phase == "prep":
        raise RuleViolation("UA-SESS-1", "a session ends after play, not during Game Prep")
    if scene_in_progress(s) and not ad.carry_over_sessions:
        raise RuleViolation("UA-SESS-3", "an open scene stays open over the break only under Standard "
                                         "Intersession Rules (L2446); end the scene first")
    if scene_in_progress(s) and ad.revisit_tenets_each_session:
        raise RuleViolation("UA-REVISIT-1", "Revisit Game Tenets: the next session starts with Game Prep and a new "
                                            "scene (L2462); end the scene first")
    if s.phase == "bidding" and s.bids:
        raise RuleViolation("UA-SESS-1", "the bids for the next scene are being made; finish them first")
    pay_jobs(c, "session_end")
    if ad.session_end_refresh:
        refresh_all(c, s.config.refreshment, f"Session end counts as a scene end: every player receives "
                                             f"{coins(s.config.refreshment)}.", "UA-COIN-1")
    if ad.serial_require_open_thread:
        c.emit("reminder", "Serial Game Structure: leave at least one plot thread dangling for next session (L1904).",
               player="", rule="UA-SERIAL-1")
    if ad.intersession_creation_pool:
        if ad.intersession_use_or_lose:  # what is left returns to the Bank
            spend_set_aside(s, sum(s.extra.between_pools.values()))
        for p in s.players:
            s.extra.between_pools[p.name] = (0 if ad.intersession_use_or_lose else s.extra.between_pools.get(p.name, 0)) \
                + ad.intersession_creation_pool
        set_aside(s, ad.intersession_creation_pool * len(s.players))
    s.extra.session_open = False
    c.emit("session_end", a.text or f"Session {s.extra.session} ends.", session=s.extra.session, rule="UA-SESS-1")


@handles(A.StartSession)
def start_session(c: Ctx) -> None:
    """UA-SESS-2: reopen the table; the log says where session N starts."""
    s, a, ad = c.s, c.a, adds(c.s)
    assert isinstance(a, A.StartSession)
    if s.extra.session_open:
        raise RuleViolation("UA-SESS-2", f"session {s.extra.session} is still being played; end it first")
    joining = admit_players(c, a)
    present = list(dict.fromkeys(a.present + joining)) if a.present else list(s.seat_names)
    unknown = [p for p in present if p not in s.seat_names]
    if unknown:
        raise RuleViolation("UA-SESS-2", f"{unknown[0][:40]!r} is not a player of this game"
                            + ("" if ad.new_player_admission != "off" else
                               "; new players need the Introduce New Players add-on (L2468)"))
    if a.player not in present:
        raise RuleViolation("UA-SESS-2", "the player who opens the session must be present")
    missing = [p for p in s.seat_names if p not in present]
    if ad.require_original_players and missing:
        raise RuleViolation("UA-PRESENT-1", f"Players Present Limit refuses: {', '.join(missing)} from the first "
                                            "session must be present to play on (L2456)")
    if ad.max_players_per_session is not None and len(present) > ad.max_players_per_session:
        raise RuleViolation("UA-NEW-1", f"Introduce New Players: at most {ad.max_players_per_session} may play this "
                                        "session; bid round-robin, the lowest sit out (L2478)")
    s.extra.session += 1
    s.extra.session_open = True
    c.emit("session_start", f"Session {s.extra.session} starts.", session=s.extra.session, present=present,
           rule="UA-SESS-2")
    if ad.intersession_use_or_lose:
        spend_set_aside(s, sum(s.extra.between_pools.values()))
        s.extra.between_pools = {}
    if ad.session_start_wealth is not None:
        level = ad.session_start_wealth
        for p in s.players:
            if p.wealth < level:
                from_bank(p, s, level - p.wealth, "refreshment")
            elif p.wealth > level:
                pay(s, p.name, p.wealth - level, "the session's Wealth reset", use_bonus=False)
        c.emit("refresh", f"Coin Option: every player starts the session with {coins(level)}.", player="",
               rule="UA-COIN-2")
    pay_jobs(c, "session_start")
    for cid in s.extra.between_made:  # shown as the session opens (L2500), each open to Challenge in play
        comp = s.components[cid]
        c.emit("component", f"presents {comp.mention}, made between sessions.", player=comp.created_by,
               component=cid, rule="UA-BETWEEN-1")
    s.extra.between_made = []
    if ad.revisit_tenets_each_session and not scene_in_progress(s):
        s.phase = "prep"
        s.prep_passes = 0
        s.prep_index = s.seat_names.index(a.player)
        c.emit("prep_start", "Revisit Game Tenets: a new Game Prep phase; pass to go straight to the first scene.",
               player="", rule="UA-REVISIT-1")


# --- adopting an add-on mid-game ----------------------------------------------------------------------------
@handles(A.AdoptAddon)
def adopt_addon(c: Ctx) -> None:
    """UA-GIM-1: an add-on adopted (or dropped) after play has begun is a Rules Gimmick: 1 coin, a Tenet,
    open to Challenge (@23964 "Gimmicks are introduced like any other Tenet, Pay 1 Coin"; L2444
    "paid for with a single Coin after play has begun"; L2236 a Named Character Limit bought halfway)."""
    s, a = c.s, c.a
    assert isinstance(a, A.AdoptAddon)
    from engine.universalis.addon_registry import BY_KEY, addons_from_args
    from engine.universalis.addons import CORE, parse_addons, check_addons

    key = a.addon.strip().lower()
    info = BY_KEY.get(key)
    if info is None:
        raise RuleViolation("UA-GIM-1", f"there is no add-on {a.addon[:40]!r}: `storytable addons` lists them")
    if info.key == "pool-per-participant" and s.complication is not None:
        raise RuleViolation("UA-OWN-1", "Own Pool per Participant: not while a Complication is open; its Pools "
                                        "were built under the other rule (adopt or drop it after the roll)")
    if info.key == "nested-complications" and a.drop and s.suspended:
        raise RuleViolation("UA-NEST-1", "Nested Complications: not while a Complication waits under a nested one "
                                         "(drop it once they are resolved)")
    base = s.config.addons.changed()
    if a.drop:
        if a.value is not None:
            raise RuleViolation("UA-GIM-1", "dropping an add-on takes no value")
        data = {k: v for k, v in base.items() if k not in info.fields}
        if data == base:
            raise RuleViolation("UA-GIM-1", f"{info.name} is not in play")
        new = parse_addons(data)
        check_addons(new, s.seat_names, s.config.starting_coins)
        if s.config.addons.open_scene_framing and not new.open_scene_framing:  # back to one scene at a time
            from engine.universalis.addon_open import active
            if len(active(s)) > 1:
                raise RuleViolation("UA-GIM-1", "Open Scene Framing can be dropped only with one scene active "
                                                "(L1978 'When that sequence of scenes is over'): close the others first")
    else:
        new = addons_from_args([key + ("=" + a.value if a.value is not None else "")], s.seat_names, base)
        if new == s.config.addons:
            raise RuleViolation("UA-GIM-1", f"{info.name} is already in play as asked")
    switches = (new.multi_target_mode == "individual") != (s.config.addons.multi_target_mode == "individual")
    if s.complication is not None and switches:
        raise RuleViolation("UA-MT-5", "Individual Pools: not while a Complication is open; its Complication Pools "
                                       "were built under the other method (adopt or drop it after the roll)")
    prep = prep_or_turn(c, narration_ok=True)
    if not prep:
        assert s.turn is not None
        if s.turn.tenet_used:
            raise RuleViolation("U-PREP-2", "only one Tenet may be proposed or modified per turn")
        s.turn.tenet_used = True
    pay(s, a.player, 1, "a Rules Gimmick (an add-on)")
    s.config = s.config.model_copy(update={"addons": CORE if new == CORE else new})
    text = f"Rules Gimmick: {'drop' if a.drop else 'adopt'} {info.name}" + (f" ({a.value})" if a.value else "")
    t = Tenet(id=new_id(s, "T"), kind="gimmick", text=text, by=a.player, seq=s.seq)
    s.tenets.append(t)
    c.emit("tenet", text, 1, tenet=t.id, tenet_kind="gimmick", addon=info.key, rule="UA-GIM-1")
    if prep:
        advance_prep(s, passed=False)
    statement(c, "tenet", text, 1, fact_id=t.id)

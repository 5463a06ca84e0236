"""The app's add-on panel (app/ui/addon_panels.py): what an active add-on adds to the board."""
from __future__ import annotations

from engine.universalis import actions as A

from engine_helpers import P3, framed, observed


def seen(*rules: str) -> None:
    """Record for the add-on coverage test that this passing test saw these rules take effect or refuse."""
    for rule in rules:
        observed(rule, "effect")


def test_UA_PC_1_UA_ENDOW_1_UA_PLOT_1_panel_shows_pcs_endowments_and_plot_pools():
    """The panel names the add-ons in play, each PC with its Endowment left, and each Plot Pool;
    a core game shows no panel at all; what players wrote is escaped."""
    from app.ui.addon_panels import panel_lines
    assert panel_lines(framed(P3, {"Ann": 1}).s, ["Ann"]) == []
    g = framed(P3, {"Ann": 1}, addons={"player_characters": True, "pc_endowment": 25, "plot_pools": True,
                                       "die": "d6"})
    hero = g.create("Ann", "Hero", proper_name="*Rook*")
    g.act(A.AdoptCharacter(player="Ann", component=hero))
    g.act(A.EndowTrait(player="Ann", text="Brave", times=2))
    g.act(A.CreatePlotPool(player="Ann", name="The <b>heist</b>", coins=20))
    lines = panel_lines(g.s, ["Ben"])
    text = "\n".join(lines)
    assert "Player Character" in lines[0] and "d6" in text
    assert "is Ann's Player Character · Endowment **23** of 25" in text
    assert "20 coins left" in text
    assert "<b>" not in text and "*Rook*" not in text  # escaped
    seen('UA-ENDOW-1', 'UA-PC-1', 'UA-PLOT-1')


def test_UA_PC_1_panel_shows_enigma_traits_only_to_their_buyer():
    """An Enigma Trait's words appear on the buyer's panel; others see only that one exists."""
    from app.ui.addon_panels import panel_lines
    g = framed(P3, {"Ann": 1}, addons={"enigma_trait_cost": 2})
    hero = g.create("Ann", "Hero")
    g.act(A.AddTrait(player="Ann", component=hero, text="Secretly a prince", enigma=True))
    mine = "\n".join(panel_lines(g.s, ["Ann"]))
    theirs = "\n".join(panel_lines(g.s, ["Ben", "Cat"]))
    assert "Secretly a prince" in mine
    assert "Secretly a prince" not in theirs and "secret Enigma Trait" in theirs
    seen('UA-PC-1')


def test_UA_THREAD_2_panel_shows_plot_threads_with_their_weight():
    """A Holter Plot Thread shows its Weight on the panel."""
    from app.ui.addon_panels import panel_lines
    g = framed(P3, {"Ann": 1}, addons={"plot_threads": "holter"})
    g.act(A.CreatePlotThread(player="Ann", name="Who took the crown?"))
    g.act(A.IntroduceComponent(player="Ann", component=g.new_component()))
    assert "Plot Thread **Who took the crown?**: Weight 1" in panel_lines(g.s, ["Ann"])


def test_UA_ENIGMA_1_the_log_keeps_a_secret_trait_every_view_for_another_seat_hides_it_L2182():
    """UA-ENIGMA-1 (L2182 "written down secretly"): the log is the table's record and keeps the words (the
    game replays from it); every view for a seat hides another's secret: the Facts (the app's Facts page and
    an AI seat's Facts), the shared Fact memory (no seat), the LLM's state text, the Markdown export, an
    AI's why in the transcript, and the log download (withheld while another's secret is unrevealed).
    Once revealed, everyone reads it."""
    from agents.llm.state_text import describe_state
    from agents.table import Table, default_facts, heuristic_seats
    from app.ui import export
    from app.ui.transcript import private_why
    from engine.universalis.facts import facts_seen_by
    from engine.universalis.ruleset import UniversalisRuleset
    adds = {"enigma_trait_cost": 2}
    g = framed(P3, {"Ann": 1}, addons=adds)
    hero = g.create("Ann", "Hero")
    g.act(A.AddTrait(player="Ann", component=hero, text="Werewolf", enigma=True))
    t = Table.new(heuristic_seats(P3, 0), addons=adds)
    for a in g.actions:
        secret = getattr(a, "enigma", False)
        t.submit(a, meta={"decided_by": "llm", "rationale": "Werewolf, revealed at the full moon"} if secret else {})
    assert "Werewolf" in t.log_text()

    def texts(facts) -> str:
        return " ".join(f.text for f in facts)
    assert "Werewolf" not in texts(facts_seen_by(t.state, ["Ben"]))
    assert "Werewolf" in texts(facts_seen_by(t.state, ["Ann"]))
    assert "Werewolf" not in " ".join(f.text for f in UniversalisRuleset().facts(t.state))
    assert "Werewolf" not in texts(default_facts(t.state, seat="Ben"))
    assert "Werewolf" not in describe_state(t.state, "Ben") and "Werewolf" in describe_state(t.state, "Ann")
    assert "Werewolf" not in export.markdown(t, seats=["Ben"]) and "Werewolf" in export.markdown(t, seats=["Ann"])
    assert export.others_secrets(t, ["Ben"]) == 1 and export.others_secrets(t, ["Ann"]) == 0
    buy = [r.seq for r in t.records if r.action.get("enigma")]
    bought = next(r for r in t.records if r.seq in buy)
    assert private_why(t, bought.action, "heuristic", ["Ben"]) and not private_why(t, bought.action, "llm", ["Ann"])
    assert not any(private_why(t, r.action, "heuristic", ["Ben"]) for r in t.records
                   if r.seq not in buy and r.action.get("type") != "bid")
    t.submit(A.RevealTrait(player="Ann", trait=g.s.components[hero].traits[-1].id))
    assert "Werewolf" in texts(facts_seen_by(t.state, ["Ben"])) and export.others_secrets(t, ["Ben"]) == 0
    seen("UA-ENIGMA-1")


def test_UA_ENIGMA_1_UA_ENIGMA_2_the_app_s_pick_lists_do_not_show_another_s_secret_trait_L2182():
    """UA-ENIGMA-1/2 (L2182-2184): in the forms' pick lists another player's secret Trait is labelled as a
    secret (its buyer reads it), and it is not offered to Draw on or to cite until revealed."""
    from app.ui import choices as C
    g = framed(P3, {"Ann": 1}, addons={"enigma_trait_cost": 2})
    hero = g.create("Ann", "Hero")
    g.act(A.AddTrait(player="Ann", component=hero, text="Werewolf", enigma=True))
    ben = " ".join(label for _, label in C.for_field(g.s, "remove_trait", "trait", "Ben"))
    ann = " ".join(label for _, label in C.for_field(g.s, "reveal_trait", "trait", "Ann"))
    assert "Werewolf" not in ben and "secret Enigma Trait" in ben and "Werewolf" in ann
    assert "Werewolf" not in " ".join(label for _, label in C.for_field(g.s, "challenge", "fact", "Ben"))
    seen("UA-ENIGMA-1")


def test_UA_CDICE_1_UA_ENIGMA_1_an_ai_s_why_is_kept_from_a_browser_it_could_tell_a_hand_or_a_secret():
    """UA-CDICE-1 (L2428), UA-ENIGMA-1 (L2182): the transcript and the AI progress lines show an AI decision's
    why to a browser unless it may tell what that browser must not see: another player's Enigma buy (any AI),
    or at a Cards instead of Dice table a model's decision for a seat not held there (the model reads its own
    hand and may name its cards; the heuristic never does)."""
    from agents.table import Table, heuristic_seats
    from app.ui.transcript import private_why
    cards = Table.new(heuristic_seats(P3, 0), addons={"currency": "cards_hand"})
    plain = Table.new(heuristic_seats(P3, 0))
    event = {"type": "narrate_event", "player": "Ann", "text": "x"}
    assert private_why(cards, event, "llm", ["Ben"]) and private_why(cards, event, "llm", [])
    assert not private_why(cards, event, "llm", ["Ann"]) and not private_why(cards, event, "heuristic", ["Ben"])
    assert not private_why(plain, event, "llm", ["Ben"])
    buy = {"type": "add_trait", "player": "Ann", "enigma": True}
    assert private_why(plain, buy, "heuristic", ["Ben"]) and not private_why(plain, buy, "llm", ["Ann"])
    seen("UA-CDICE-1", "UA-ENIGMA-1")

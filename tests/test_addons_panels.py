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

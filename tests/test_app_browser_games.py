"""A FUBAR table in a real browser: Debian's headless Chromium (Playwright) against `streamlit run`.

Sets up FUBAR on the setup page (the person a player, an AI GM), makes a character through the
decision form, plays a few decisions with the mouse, and checks the sheet, the conflict panel and
the log on disk. The server is the browser tests' one (tests/conftest.py, `app_server`).
"""
from __future__ import annotations

import time
from pathlib import Path

import pytest
from browser_helpers import AppServer, launch, quiet_log, settle, table_code, wait_for

pytestmark = pytest.mark.browser


def test_fubar_a_few_steps_in_chromium(app_server: AppServer, tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = launch(pw)
        page = browser.new_page(viewport={"width": 1400, "height": 2000})
        page.set_default_timeout(30_000)
        try:
            _play(page, app_server, tmp_path)
        except Exception:
            page.screenshot(path=str(tmp_path / "failure.png"), full_page=True)
            raise
        finally:
            browser.close()
    assert (tmp_path / "fubar-2.png").stat().st_size > 10_000


def _one_form(page):
    """The decision form's button once the rerun has settled: a rerun can show the old form beside
    the new one for a moment (and may keep it in the page, hidden), so wait until one visible is
    left (or none: the game waits for no one here)."""
    settle(page)
    visible = page.locator("button:visible", has_text="Decide")
    wait_for("one decision form on the page", lambda: visible.count() <= 1, page)
    return visible


def _play(page, server: AppServer, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=30_000)
    page.goto(server.url)
    expect(page.get_by_text("Set up a table")).to_be_visible()
    settle(page)
    page.locator('[data-testid="stSelectbox"]').filter(has_text="Ruleset").first.click()  # the game picker
    page.get_by_role("option", name="FUBAR").click()
    settle(page)
    expect(page.get_by_text("One seat is the Game Master")).to_be_visible()
    page.get_by_role("button", name="Start the table").click()
    settle(page)
    expect(page.get_by_text("You: create character")).to_be_visible()
    code = table_code(page)
    name = page.get_by_label("name", exact=True)
    name.fill("Vera <b>Kade</b>")
    _one_form(page).click()
    settle(page)
    expect(page.get_by_text("Vera <b>Kade</b>").first).to_be_visible()  # shown as text, not HTML
    page.screenshot(path=str(tmp_path / "fubar-1.png"), full_page=True)
    t0 = time.monotonic()
    for _ in range(6):  # a few decisions: the AI GM frames, the person attempts, rolls, keeps, narrates
        button = _one_form(page)
        if button.count() == 0 or time.monotonic() - t0 > 120:
            break
        button.click()
        settle(page)

    def human_moves() -> list[str]:  # the person's decisions as the server has logged them so far
        return [r["action"]["type"] for r in server.records(code) if r["meta"].get("decided_by") == "human"]

    wait_for("four of the person's decisions in the server's log", lambda: len(human_moves()) >= 4, page)
    recs, mine = server.records(code), human_moves()
    assert mine[0] == "create_character" and len(mine) >= 4, mine
    assert recs[[r["action"]["type"] for r in recs].index("create_character")]["action"]["name"] == "Vera <b>Kade</b>"
    assert any(r["action"]["type"] == "roll_dice" for r in recs)
    expect(page.get_by_text("Resolve").first).to_be_visible()
    page.reload()  # the table survives a reload
    settle(page)
    expect(page.get_by_text("Vera <b>Kade</b>").first).to_be_visible()
    page.screenshot(path=str(tmp_path / "fubar-2.png"), full_page=True)
    quiet_log(server)

"""The table in a real browser: Debian's headless Chromium (Playwright) against `streamlit run`.

Starts the app on a free 127.0.0.1 port, waits for /_stcore/health, sets up the default table,
plays a few steps with the mouse and keyboard, and leaves screenshots in the test's tmp dir.
"""
from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parents[1]
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync"]

pytestmark = pytest.mark.browser


def _need_browser() -> None:
    if Path(CHROMIUM).exists():
        return
    why = f"{CHROMIUM} is missing (apt-get install chromium)"
    if os.environ.get("STORYTABLE_REQUIRE_BROWSER") == "1":
        pytest.fail(f"the browser test is required here but {why}")
    pytest.skip(f"no browser: {why}")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def server(tmp_path, monkeypatch):
    """`streamlit run` on a free port, up when /_stcore/health answers."""
    _need_browser()
    pytest.importorskip("playwright.sync_api")
    monkeypatch.setenv("STORYTABLE_HOME", str(tmp_path / "games"))
    port = _free_port()
    env = {**os.environ, "STORYTABLE_HOME": str(tmp_path / "games")}
    log = open(tmp_path / "streamlit.log", "w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "app" / "streamlit_app.py"), "--server.port", str(port),
         "--server.address", "127.0.0.1", "--server.headless", "true", "--browser.gatherUsageStats", "false",
         "--server.fileWatcherType", "none"], cwd=tmp_path, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                log.flush()
                pytest.fail("streamlit did not come up:\n" + (tmp_path / "streamlit.log").read_text()[-2000:])
            time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def settle(page) -> None:
    """Wait for Streamlit to finish the rerun a click started (its status widget goes away)."""
    page.wait_for_timeout(200)
    page.wait_for_selector('[data-testid="stStatusWidget"]', state="detached", timeout=60_000)
    page.wait_for_timeout(100)


def test_play_a_few_steps_in_chromium(server, tmp_path):
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        page = browser.new_page(viewport={"width": 1400, "height": 1800})
        page.set_default_timeout(30_000)
        try:
            _play(page, server, tmp_path)
        except Exception:
            page.screenshot(path=str(tmp_path / "failure.png"), full_page=True)
            raise
        finally:
            browser.close()
    assert (tmp_path / "3-complication.png").stat().st_size > 10_000


def _play(page, server: str, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    t0 = time.monotonic()

    def mark(what: str) -> None:
        print(f"{time.monotonic() - t0:6.1f}s {what}")

    expect.set_options(timeout=30_000)
    page.goto(server)
    expect(page.get_by_text("Set up a table")).to_be_visible()
    settle(page)
    expect(page.get_by_role("button", name="Start the table")).to_be_visible()
    expect(page.get_by_label("Starting coins")).to_have_value("25")
    mark("setup page")
    page.screenshot(path=str(tmp_path / "1-setup.png"), full_page=True)
    page.get_by_role("button", name="Start the table").click()
    settle(page)
    expect(page.get_by_text("You, it is your decision").first).to_be_visible()
    assert "table=" in page.url
    # propose a Tenet through its form
    box = page.get_by_label("the Tenet")  # the first form of a preparation turn is open
    expect(box).to_be_visible()
    box.fill("The lighthouse keeper never sleeps")
    box.press("Control+Enter")
    page.get_by_role("button", name="Propose a Tenet", exact=True).click()
    expect(page.get_by_text("The lighthouse keeper never sleeps").first).to_be_visible()
    settle(page)
    expect(page.get_by_text("You, it is your decision").first).to_be_visible()
    # let the next statement stand
    page.get_by_role("button", name=re.compile(r"^Pass")).first.click()
    settle(page)
    mark("tenet and pass")
    # the game survives a reload: same table, same Tenet, the chart of coins
    page.reload()
    settle(page)
    expect(page.get_by_text("The lighthouse keeper never sleeps").first).to_be_visible()
    expect(page.get_by_text("Coins over the game")).to_be_visible()
    expect(page.locator('[data-testid="stVegaLiteChart"]').first).to_be_visible()
    page.screenshot(path=str(tmp_path / "2-after-reload.png"), full_page=True)
    # a game in the middle of a Complication, joined through its seat link
    mark("reloaded")
    code = complication_table()
    mark("complication table built")
    page.goto(f"{server}/?table={code}&seat=You")
    settle(page)
    expect(page.get_by_text("Complication").first).to_be_visible()
    expect(page.locator("span.die").first).to_be_visible()
    expect(page.get_by_text("Importance").first).to_be_visible()
    expect(page.get_by_text("You, it is your decision").first).to_be_visible()
    page.wait_for_timeout(500)
    page.screenshot(path=str(tmp_path / "3-complication.png"), full_page=True)
    mark("complication shown")


def complication_table() -> str:
    """AI seats play until a Complication has rolled and the person's seat is asked; then the
    seat 'You' is a person's. Written to disk for the server to load."""
    from agents.seating import SeatSpec
    from app.ui import store
    from engine.universalis import pending

    lv = store.create(store.TableConfig([SeatSpec(n) for n in ("You", "Ada", "Bo", "Cy")], seed=3))
    t = lv.table
    for _ in range(3000):
        s = t.state
        if s.complication is not None and s.complication.rolls and "You" in pending(s).players:
            break
        t.step()
    else:
        raise AssertionError("no Complication with a roll came up")
    lv.set_seat_kind("You", "human")
    return lv.code

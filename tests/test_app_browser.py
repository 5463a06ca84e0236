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
def server(tmp_path):
    _need_browser()
    pytest.importorskip("playwright.sync_api")
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
    page.wait_for_timeout(300)
    page.wait_for_selector('[data-testid="stStatusWidget"]', state="detached", timeout=60_000)
    page.wait_for_timeout(200)


def test_play_a_few_steps_in_chromium(server, tmp_path):
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(30_000)
        try:
            _play(page, server, tmp_path)
        except Exception:
            page.screenshot(path=str(tmp_path / "failure.png"), full_page=True)
            raise
        finally:
            browser.close()
    assert (tmp_path / "3-scene.png").stat().st_size > 10_000


def _play(page, server: str, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=30_000)
    if True:
        page.goto(server)
        expect(page.get_by_text("Set up a table")).to_be_visible()
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
        # pass until the scene bids, then bid
        for _ in range(30):
            settle(page)
            if page.get_by_text("Waiting for You: secret scene bid").count():
                break
            try:  # a preparation pass or a reaction window's pass
                page.get_by_role("button", name=re.compile(r"^Pass")).first.click(timeout=5_000)
            except Exception:
                continue
        expect(page.get_by_text("You, it is your decision").first).to_be_visible()
        page.screenshot(path=str(tmp_path / "2-bidding.png"), full_page=True)
        assert page.get_by_text("Bid for the scene").count(), "preparation ended and the bids are open"
        # the game survives a reload: same table, same Tenet
        page.reload()
        settle(page)
        expect(page.get_by_text("The lighthouse keeper never sleeps").first).to_be_visible()
        expect(page.get_by_text("Coins over the game")).to_be_visible()
        expect(page.locator('[data-testid="stVegaLiteChart"]').first).to_be_visible()
        # bid high enough to frame the scene, then set its location
        amount = page.get_by_label("coins (secret)")
        amount.fill("20")
        amount.press("Enter")
        settle(page)
        page.get_by_role("button", name="Bid for the scene", exact=True).click()
        settle(page)
        expect(page.get_by_text("You wins the bid").first).to_be_visible()
        place = page.get_by_label("or a new place")
        expect(place).to_be_visible()
        place.fill("The lighthouse")
        place.press("Enter")
        settle(page)
        page.get_by_role("button", name="Establish the location", exact=True).click()
        settle(page)
        expect(page.get_by_text("The scene is set at The lighthouse").first).to_be_visible()
        expect(page.get_by_text("Importance").first).to_be_visible()
        page.wait_for_timeout(800)
        page.screenshot(path=str(tmp_path / "3-scene.png"), full_page=True)

"""The table in a real browser: Debian's headless Chromium (Playwright) against `streamlit run`.

Starts the app on a free 127.0.0.1 port, waits for /_stcore/health, sets up the default table,
plays a few steps with the mouse and keyboard, and leaves screenshots in the test's tmp dir.
"""
from __future__ import annotations

import json
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
    page.get_by_role("button", name="Propose a Tenet", exact=True).dblclick()  # a double click pays once
    expect(page.get_by_text("The lighthouse keeper never sleeps").first).to_be_visible()
    settle(page)
    page.wait_for_timeout(1000)
    settle(page)
    code = re.search(r"table=([^&]+)", page.url).group(1)  # read the log itself: the server owns the table
    import json
    lines = (tmp_path / "games" / code / "game.jsonl").read_text().splitlines()[1:]
    proposed = [r for r in map(json.loads, lines) if r["action"].get("type") == "propose_tenet"
                and r["action"].get("text") == "The lighthouse keeper never sleeps"]
    assert len(proposed) == 1, f"the double click applied {len(proposed)} times"
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
    code, token = complication_table()
    mark("complication table built")
    page.goto(f"{server}/?table={code}&seat={token}")
    settle(page)
    expect(page.get_by_text("Complication").first).to_be_visible()
    expect(page.locator("span.die").first).to_be_visible()
    expect(page.get_by_text("Importance").first).to_be_visible()
    expect(page.get_by_text("You, it is your decision").first).to_be_visible()
    page.wait_for_timeout(500)
    page.screenshot(path=str(tmp_path / "3-complication.png"), full_page=True)
    mark("complication shown")
    # the Facts table (numbers and blanks in one column), then the server's log says nothing wrong
    page.get_by_text("Facts", exact=True).first.click()
    settle(page)
    expect(page.locator('[data-testid="stDataFrame"]').first).to_be_visible()
    page.wait_for_timeout(500)
    quiet_log(tmp_path)


def quiet_log(tmp_path: Path) -> None:
    """No Arrow type errors, deprecation warnings or tracebacks in the server's log."""
    text = (tmp_path / "streamlit.log").read_text(errors="replace")
    for bad in ("Arrow", "deprecat", "Traceback", "Error"):
        assert bad.lower() not in text.lower(), f"{bad!r} in the server log:\n{text[-3000:]}"


def complication_table() -> tuple[str, str]:
    """AI seats play until a Complication has rolled and the person's seat is asked; then the
    seat 'You' is a person's, held by the returned secret. Written to disk for the server to load."""
    from agents.seating import SeatSpec
    from app.ui import seats, store
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
    token = seats.start(lv)
    store.close(lv.code)  # the server process plays it from here: it must be the table's writer
    return lv.code, token


# -- a table safe to share: two browsers (two Chromium contexts) --------------------------------------------

INJECTIONS = ["<img src=x onerror=\"window.__pwned=1;alert(1)\">",
              "**x** [a](javascript:window.__pwned=2) :red[red] $x^2$"]


def _two_contexts(pw):
    browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
    a = browser.new_context(viewport={"width": 1400, "height": 1600})
    b = browser.new_context(viewport={"width": 1400, "height": 1600})
    pages = [a.new_page(), b.new_page()]
    dialogs: list[str] = []
    for p in pages:
        p.set_default_timeout(30_000)
        p.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    return browser, pages, dialogs


def _wait_for_empty_form(page, label: str) -> None:
    """After an action the page reruns (AI turns in between): wait until only the next decision's
    form is on the page, empty (a form for an answered decision is never reused)."""
    from playwright.sync_api import Error

    deadline = time.monotonic() + 60
    calm = 0
    while time.monotonic() < deadline:
        settle(page)
        boxes = page.get_by_label(label)
        try:
            single = boxes.count() == 1 and boxes.first.input_value() == ""
        except Error:  # the page changed under the look
            single = False
        calm = calm + 1 if single else 0
        if calm >= 3:  # the same single empty form three looks in a row
            return
        page.wait_for_timeout(300)
    raise AssertionError(f"no single empty {label!r} form after the action")


def test_what_players_write_is_shown_as_text_in_every_browser(server, tmp_path):
    """A Tenet with a script and one with Markdown show as those characters, in the host's browser
    and in a watcher's; nothing runs, nothing becomes a link, an image or bold."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=30_000)
    with sync_playwright() as pw:
        browser, (host, watcher), dialogs = _two_contexts(pw)
        try:
            host.goto(server)
            settle(host)
            host.get_by_role("button", name="Start the table").click()
            settle(host)
            for text in INJECTIONS:
                expect(host.get_by_text("You, it is your decision").first).to_be_visible()
                _wait_for_empty_form(host, "the Tenet")
                box = host.get_by_label("the Tenet")
                box.fill(text)
                box.press("Control+Enter")
                host.get_by_role("button", name="Propose a Tenet", exact=True).click()
                expect(host.get_by_text(text, exact=True).first).to_be_visible()
                settle(host)
                _wait_for_empty_form(host, "the Tenet")
                # the AI seats answer; the person's next prep turn comes round after three AI turns
                for _ in range(20):
                    if host.get_by_text("You, it is your decision").count():
                        break
                    pass_btn = host.get_by_role("button", name=re.compile(r"^Pass"))
                    if pass_btn.count():
                        pass_btn.first.click()
                    settle(host)
            code = re.search(r"table=([^&]+)", host.url).group(1)
            watcher.goto(f"{server}/?table={code}")
            settle(watcher)
            for page in (host, watcher):
                for text in INJECTIONS:
                    expect(page.get_by_text(text, exact=False).first).to_be_visible()
                assert page.locator('img[src="x"]').count() == 0
                assert page.locator('a[href^="javascript"]').count() == 0
                assert page.evaluate("window.__pwned === undefined")
                assert not page.locator("strong", has_text=re.compile(r"^x$")).count()
            host.screenshot(path=str(tmp_path / "text-is-text.png"), full_page=True)
            assert dialogs == []
            quiet_log(tmp_path)
        except Exception:
            host.screenshot(path=str(tmp_path / "failure-host.png"), full_page=True)
            watcher.screenshot(path=str(tmp_path / "failure-watcher.png"), full_page=True)
            raise
        finally:
            browser.close()


def test_a_seat_belongs_to_the_browser_that_took_it(server, tmp_path):
    """Two people's seats; the host's browser and a second browser with only the table's link.
    The second watches until it takes the free seat; each then acts for its own seat only, and a
    refresh keeps the seat (its secret is in the address)."""
    from playwright.sync_api import expect, sync_playwright

    from agents.seating import SeatSpec
    from app.ui import seats, store

    lv = store.create(store.TableConfig([SeatSpec("You", "human"), SeatSpec("Ada", "human"),
                                         SeatSpec("Bo"), SeatSpec("Cy")], seed=5))
    host_token = seats.start(lv)
    seats.free(lv, host_token, "Ada")
    store.close(lv.code)  # set up here, played by the server process: it must be the table's writer
    expect.set_options(timeout=30_000)
    with sync_playwright() as pw:
        browser, (host, other), dialogs = _two_contexts(pw)
        try:
            host.goto(f"{server}/?table={lv.code}&seat={host_token}")
            settle(host)
            expect(host.get_by_text("You, it is your decision").first).to_be_visible()
            # the second browser: the table's link only, and an old-style seat link: it watches
            for url in (f"{server}/?table={lv.code}", f"{server}/?table={lv.code}&seat=You"):
                other.goto(url)
                settle(other)
                expect(other.get_by_text("watching").first).to_be_visible()
                assert other.get_by_text("it is your decision").count() == 0
                assert other.get_by_role("button", name=re.compile(r"^(Pass|Propose a Tenet)")).count() == 0
            # it takes Ada's seat: a secret in its address, kept over a refresh
            other.get_by_role("button", name="Take Ada's seat").click()
            other.wait_for_url(re.compile(r"[?&]seat=[A-Za-z0-9_-]{20,}"), timeout=30_000)
            settle(other)
            other.reload()
            settle(other)
            expect(other.get_by_text("This browser plays Ada").first).to_be_visible()
            assert other.get_by_text("You, it is your decision").count() == 0
            # the host passes his preparation turn; now Ada is asked, in her browser only
            host.get_by_role("button", name=re.compile(r"^Pass")).first.click()
            settle(host)
            other.reload()
            settle(other)
            expect(other.get_by_text("Ada, it is your decision").first).to_be_visible()
            host.reload()
            settle(host)
            assert host.get_by_text("Ada, it is your decision").count() == 0
            expect(host.get_by_text("Waiting for Ada").first).to_be_visible()
            other.get_by_role("button", name=re.compile(r"^Pass")).first.click()
            settle(other)
            passes: list = []
            for _ in range(60):  # the click's rerun writes the log on the server: wait for it, under load too
                lines = (tmp_path / "games" / lv.code / "game.jsonl").read_text().splitlines()[1:]
                passes = [r["action"] for r in map(json.loads, lines) if r["action"].get("type") == "pass_prep"]
                if len(passes) >= 2:
                    break
                other.wait_for_timeout(500)
            assert passes[:2] == [{"type": "pass_prep", "player": "You"}, {"type": "pass_prep", "player": "Ada"}]
            other.screenshot(path=str(tmp_path / "seat-ada.png"), full_page=True)
            assert dialogs == []
        except Exception:
            host.screenshot(path=str(tmp_path / "failure-host.png"), full_page=True)
            other.screenshot(path=str(tmp_path / "failure-other.png"), full_page=True)
            raise
        finally:
            browser.close()

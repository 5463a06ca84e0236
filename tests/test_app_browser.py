"""The table in a real browser: Debian's headless Chromium (Playwright) against `streamlit run`.

One server for the browser tests (tests/conftest.py, `app_server`); each test sets up its own table,
plays a few steps with the mouse and keyboard, and leaves screenshots in the test's tmp dir.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from browser_helpers import AppServer, launch, quiet_log, settle, table_code, the_one, wait_for

pytestmark = pytest.mark.browser


def test_play_a_few_steps_in_chromium(app_server: AppServer, tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = launch(pw)
        page = browser.new_page(viewport={"width": 1400, "height": 1800})
        page.set_default_timeout(30_000)
        try:
            _play(page, app_server, tmp_path)
        except Exception:
            page.screenshot(path=str(tmp_path / "failure.png"), full_page=True)
            raise
        finally:
            browser.close()
    assert (tmp_path / "3-complication.png").stat().st_size > 10_000


def _play(page, server: AppServer, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=30_000)
    page.goto(server.url)
    expect(page.get_by_text("Set up a table")).to_be_visible()
    settle(page)
    expect(page.get_by_role("button", name="Start the table")).to_be_visible()
    expect(page.get_by_label("Starting coins")).to_have_value("25")
    page.screenshot(path=str(tmp_path / "1-setup.png"), full_page=True)
    page.get_by_role("button", name="Start the table").click()
    settle(page)
    expect(page.get_by_text("You, it is your decision").first).to_be_visible()
    code = table_code(page)
    # propose a Tenet through its form
    box = page.get_by_label("the Tenet")  # the first form of a preparation turn is open
    expect(box).to_be_visible()
    box.fill("The lighthouse keeper never sleeps")
    box.press("Control+Enter")
    settle(page)  # Control+Enter commits the box and starts a rerun: its form is redrawn beside the old one
    the_one(page, "button", "Propose a Tenet").dblclick()  # a double click pays once
    expect(page.get_by_text("The lighthouse keeper never sleeps").first).to_be_visible()

    def proposed() -> list[dict]:  # read the log itself: the server owns the table
        return [r for r in server.records(code) if r["action"].get("type") == "propose_tenet"
                and r["action"].get("text") == "The lighthouse keeper never sleeps"]

    wait_for("the Tenet in the server's log", proposed, page)
    settle(page)  # both clicks' reruns are over: a second Tenet would be in the log by now
    assert len(proposed()) == 1, f"the double click applied {len(proposed())} times"
    expect(page.get_by_text("You, it is your decision").first).to_be_visible()
    # let the next statement stand
    page.get_by_role("button", name=re.compile(r"^Pass")).first.click()
    settle(page)
    # the game survives a reload: same table, same Tenet, the chart of coins
    page.reload()
    settle(page)
    expect(page.get_by_text("The lighthouse keeper never sleeps").first).to_be_visible()
    expect(page.get_by_text("Coins over the game")).to_be_visible()
    expect(page.locator('[data-testid="stVegaLiteChart"]').first).to_be_visible()
    page.screenshot(path=str(tmp_path / "2-after-reload.png"), full_page=True)
    # a game in the middle of a Complication, joined through its seat link
    code, token = complication_table()
    page.goto(f"{server.url}/?table={code}&seat={token}")
    settle(page)
    expect(page.get_by_text("Complication").first).to_be_visible()
    expect(page.locator("span.die").first).to_be_visible()
    expect(page.get_by_text("Importance").first).to_be_visible()
    expect(page.get_by_text("You, it is your decision").first).to_be_visible()
    page.screenshot(path=str(tmp_path / "3-complication.png"), full_page=True)
    # the Facts table (numbers and blanks in one column), then the server's log says nothing wrong
    page.get_by_text("Facts", exact=True).first.click()
    settle(page)
    expect(page.locator('[data-testid="stDataFrame"]').first).to_be_visible()
    quiet_log(server)


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
    browser = launch(pw)
    a = browser.new_context(viewport={"width": 1400, "height": 1600})
    b = browser.new_context(viewport={"width": 1400, "height": 1600})
    pages = [a.new_page(), b.new_page()]
    dialogs: list[str] = []
    for p in pages:
        p.set_default_timeout(30_000)
        p.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    return browser, pages, dialogs


def _empty_form(page, label: str) -> None:
    """After an action the page reruns (AI turns in between): wait until only the next decision's
    form is on the page, empty (a form for an answered decision is never reused)."""
    def single_empty() -> bool:
        settle(page)
        boxes = page.get_by_label(label)
        return boxes.count() == 1 and boxes.first.input_value() == ""

    wait_for(f"a single empty {label!r} form after the action", single_empty, page)


def test_what_players_write_is_shown_as_text_in_every_browser(app_server: AppServer, tmp_path: Path) -> None:
    """A Tenet with a script and one with Markdown show as those characters, in the host's browser
    and in a watcher's; nothing runs, nothing becomes a link, an image or bold."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=30_000)
    with sync_playwright() as pw:
        browser, (host, watcher), dialogs = _two_contexts(pw)
        try:
            host.goto(app_server.url)
            settle(host)
            host.get_by_role("button", name="Start the table").click()
            settle(host)
            for text in INJECTIONS:
                expect(host.get_by_text("You, it is your decision").first).to_be_visible()
                _empty_form(host, "the Tenet")
                box = host.get_by_label("the Tenet")
                box.fill(text)
                box.press("Control+Enter")
                settle(host)  # the rerun Control+Enter starts would otherwise show the button twice for a moment
                the_one(host, "button", "Propose a Tenet").click()
                expect(host.get_by_text(text, exact=True).first).to_be_visible()
                settle(host)
                _empty_form(host, "the Tenet")
                # the AI seats answer; the person's next prep turn comes round after three AI turns
                for _ in range(20):
                    if host.get_by_text("You, it is your decision").count():
                        break
                    pass_btn = host.get_by_role("button", name=re.compile(r"^Pass"))
                    if pass_btn.count():
                        pass_btn.first.click()
                    settle(host)
            watcher.goto(f"{app_server.url}/?table={table_code(host)}")
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
            quiet_log(app_server)
        except Exception:
            host.screenshot(path=str(tmp_path / "failure-host.png"), full_page=True)
            watcher.screenshot(path=str(tmp_path / "failure-watcher.png"), full_page=True)
            raise
        finally:
            browser.close()


def test_a_seat_belongs_to_the_browser_that_took_it(app_server: AppServer, tmp_path: Path) -> None:
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
    server = app_server.url
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

            def passes() -> list[dict]:  # the click's rerun writes the log on the server
                return [r["action"] for r in app_server.records(lv.code) if r["action"].get("type") == "pass_prep"]

            wait_for("Ada's pass in the server's log", lambda: len(passes()) >= 2, other)
            assert passes()[:2] == [{"type": "pass_prep", "player": "You"}, {"type": "pass_prep", "player": "Ada"}]
            other.screenshot(path=str(tmp_path / "seat-ada.png"), full_page=True)
            assert dialogs == []
        except Exception:
            host.screenshot(path=str(tmp_path / "failure-host.png"), full_page=True)
            other.screenshot(path=str(tmp_path / "failure-other.png"), full_page=True)
            raise
        finally:
            browser.close()

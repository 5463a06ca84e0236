"""What the Chromium tests share: one `streamlit run` per test process, and waits that end when the
page and the server's log are ready, not after a guessed number of seconds.

Why: each browser test file started its own server per test and slept between clicks; under two
test processes on two cores those sleeps were sometimes too short (a stale form clicked after a
rerun, a log read before the server wrote it). The fixtures are in tests/conftest.py.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from eval.processes import free_port, stop

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parents[1]
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync"]
WAIT_S = 60  # the longest any wait here lasts: a rerun with AI turns on a loaded 2-core machine


@dataclass(frozen=True)
class AppServer:
    """A running `streamlit run`: its address, its STORYTABLE_HOME and the file its output goes to."""

    url: str
    home: Path
    log: Path

    def records(self, code: str) -> list[dict[str, Any]]:
        """The table's log records as the server has written them so far (the header left out)."""
        lines = (self.home / code / "game.jsonl").read_text().splitlines()[1:]
        return [json.loads(x) for x in lines]


def need_browser() -> None:
    """Skip without Chromium, unless this run requires it (CI sets STORYTABLE_REQUIRE_BROWSER=1)."""
    if Path(CHROMIUM).exists():
        return
    why = f"{CHROMIUM} is missing (apt-get install chromium)"
    if os.environ.get("STORYTABLE_REQUIRE_BROWSER") == "1":
        pytest.fail(f"the browser test is required here but {why}")
    pytest.skip(f"no browser: {why}")


@contextmanager
def streamlit_app(folder: Path) -> Iterator[AppServer]:
    """`streamlit run` of the app on a free 127.0.0.1 port, games under `folder`/games; up when
    /_stcore/health answers; stopped (and its output file closed) on exit."""
    home, log_path = folder / "games", folder / "streamlit.log"
    port = free_port()
    env = {**os.environ, "STORYTABLE_HOME": str(home)}
    with open(log_path, "w") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", str(ROOT / "app" / "streamlit_app.py"),
             "--server.port", str(port), "--server.address", "127.0.0.1", "--server.headless", "true",
             "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"],
            cwd=folder, env=env, stdout=log, stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + WAIT_S
            while True:
                try:
                    with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                        if r.status == 200:
                            break
                except OSError:
                    pass
                if proc.poll() is not None or time.monotonic() > deadline:
                    log.flush()
                    pytest.fail("streamlit did not come up:\n" + log_path.read_text()[-2000:])
                time.sleep(0.3)
            yield AppServer(url, home, log_path)
        finally:
            stop(proc)


def launch(pw: Any) -> Any:
    """Debian's headless Chromium (Playwright cannot download its own browser here)."""
    return pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)


_PAGE_STATE = """() => {
  const busy = document.querySelector('[data-testid="stStatusWidget"]') !== null;
  const stale = document.querySelectorAll('[data-testid="stElementContainer"][data-stale="true"]').length;
  const main = document.querySelector('[data-testid="stMain"]') || document.body;
  return [busy, stale, main ? main.innerText : ""];
}"""


def settle(page: Any, calm_looks: int = 3, every_ms: int = 200) -> None:
    """Wait until the rerun a click started (and any it chained, AI turns included) is over:
    Streamlit's status widget gone, no element left over from the previous run (a stale form),
    and the page's text the same `calm_looks` looks in a row after that (so a rerun a click has
    not started yet, under load, is not mistaken for calm). The one wait every browser test uses
    after an action; it lasts as long as the rerun, not a guessed time."""
    from playwright.sync_api import Error

    deadline = time.monotonic() + WAIT_S
    last, calm = None, 0
    while time.monotonic() < deadline:
        page.wait_for_timeout(every_ms)
        try:
            busy, stale, text = page.evaluate(_PAGE_STATE)
        except Error:  # the page navigated under the look
            last, calm = None, 0
            continue
        if busy or stale:
            last, calm = None, 0
            continue
        calm = calm + 1 if text == last else 0
        last = text
        if calm >= calm_looks:
            return
    raise AssertionError(f"the page did not settle within {WAIT_S} s")


def wait_for(what: str, check: Callable[[], Any], page: Any | None = None) -> Any:
    """Look until `check()` gives something true (the server's log written, a form replaced), then
    return it; fail naming `what` after WAIT_S. A look that raises counts as not yet."""
    deadline = time.monotonic() + WAIT_S
    while True:
        try:
            got = check()
        except Exception:  # noqa: BLE001 - the page or file changed under the look: look again
            got = None
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {WAIT_S} s for {what}")
        if page is not None:
            page.wait_for_timeout(250)
        else:
            time.sleep(0.25)


def the_one(page: Any, role: str, name: str) -> Any:
    """The one `role` named `name` on the page, once there is one: a rerun can leave the previous
    decision's form beside the new one for a moment, and a page-wide lookup then finds two."""
    found = page.get_by_role(role, name=name, exact=True)
    wait_for(f"one {role} {name!r} on the page", lambda: found.count() == 1, page)
    return found


def table_code(page: Any) -> str:
    """The table's code from the page's address (?table=CODE)."""
    found = re.search(r"table=([^&]+)", page.url)
    assert found, f"no table in the address {page.url}"
    return found.group(1)


def quiet_log(server: AppServer) -> None:
    """No Arrow type errors, deprecation warnings or tracebacks in the server's log (all of it:
    every test of the module so far)."""
    text = server.log.read_text(errors="replace")
    for bad in ("Arrow", "deprecat", "Traceback", "Error"):
        assert bad.lower() not in text.lower(), f"{bad!r} in the server log:\n{text[-3000:]}"

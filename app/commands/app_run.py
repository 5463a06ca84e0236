"""`storytable app [streamlit options...]`: start the table in the browser.

Streamlit's own options pass through (e.g. --server.port 8601). Defaults make a fresh machine
start without questions: headless (no e-mail prompt), usage statistics off, and the URL printed.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

HELP = "start the table in the browser (Streamlit); Streamlit options pass through, e.g. --server.port 8601"

APP = Path(__file__).resolve().parents[1] / "streamlit_app.py"
DEFAULTS = {"server.headless": "true", "browser.gatherUsageStats": "false", "client.toolbarMode": "viewer"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("streamlit_args", nargs=argparse.REMAINDER, help="options for streamlit run")


def given(argv: list[str], name: str) -> str | None:
    """The value of `--name value` or `--name=value` in argv, if given."""
    flag = f"--{name}"
    for i, a in enumerate(argv):
        if a == flag and i + 1 < len(argv):
            return argv[i + 1]
        if a.startswith(flag + "="):
            return a.split("=", 1)[1]
    return None


def streamlit_argv(argv: list[str]) -> list[str]:
    """The full `streamlit run` command line: our defaults unless the user chose otherwise."""
    extra = [f"--{k}={v}" for k, v in DEFAULTS.items() if given(argv, k) is None]
    return ["streamlit", "run", str(APP), *extra, *argv]


def run_passthrough(argv: list[str]) -> int:
    if any(a in ("-h", "--help") for a in argv):
        print(f"usage: storytable app [streamlit options]\n\n{HELP}\n"
              "Games are kept in $STORYTABLE_HOME or ./games. See `streamlit run --help` for the options.")
        return 0
    from streamlit.web import cli as stcli

    port = given(argv, "server.port") or "8501"
    address = given(argv, "server.address") or "localhost"
    print(f"Storytable: open http://{address}:{port} in your browser (Ctrl+C stops the table).", flush=True)
    sys.argv = streamlit_argv(argv)
    try:
        stcli.main(prog_name="streamlit")
    except SystemExit as exc:
        return int(exc.code or 0) if not isinstance(exc.code, str) else 1
    return 0


def run(args: argparse.Namespace) -> int:
    return run_passthrough(list(getattr(args, "streamlit_args", []) or []))

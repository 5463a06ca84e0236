"""The `storytable` console script: a thin dispatcher over `app.commands.*`.

Errors a user can cause (a damaged log, bad configuration, a refused action) are printed as one
clear message and exit code 2, never as a traceback.
"""
from __future__ import annotations

import argparse
import importlib
import sys
from types import ModuleType

from app.errors import UserError

# name -> module under app.commands; the order is the order of `storytable --help`
COMMANDS: dict[str, str] = {
    "app": "app_run",
    "play": "play",
    "simulate": "simulate",
    "addons": "addons",
    "brainstorm": "brainstorm",
    "replay": "replay",
    "facts": "facts",
    "reindex": "reindex",
    "eval": "eval_run",
    "check-endpoint": "check_endpoint",
}


def _load(module: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"app.commands.{module}")
    except ModuleNotFoundError as exc:
        if exc.name == f"app.commands.{module}":
            return None  # not built yet
        raise


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="storytable",
        description="AI co-players at the table of GM-less story games (Universalis).")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module in COMMANDS.items():
        mod = _load(module)
        if mod is None:
            continue
        p = sub.add_parser(name, help=mod.HELP, description=mod.HELP)
        mod.add_arguments(p)
        p.set_defaults(_run=mod.run)
    return parser


def user_errors() -> tuple[type[BaseException], ...]:
    """The exception types that are a user's problem, not a bug."""
    from engine.core.errors import LogError, RuleViolation

    kinds: list[type[BaseException]] = [UserError, LogError, RuleViolation, FileNotFoundError,
                                        IsADirectoryError, PermissionError]
    try:
        from agents.llm.config import ConfigError
        from agents.memory.config import MemoryConfigError
        from agents.memory.index import MemoryIndexError  # e.g. the index is in use by another process
        kinds += [ConfigError, MemoryConfigError, MemoryIndexError]
    except ImportError:  # pragma: no cover - agents always installed with the package
        pass
    return tuple(kinds)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    # `storytable app` passes everything after it to Streamlit untouched
    if argv[:1] == ["app"]:
        mod = _load(COMMANDS["app"])
        if mod is not None:
            return int(mod.run_passthrough(argv[1:]) or 0)
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "_run", None):
        parser.print_help()
        return 0
    try:
        return int(args._run(args) or 0)
    except KeyboardInterrupt:
        print("\nstopped.", file=sys.stderr)
        return 130
    except user_errors() as exc:
        print(f"storytable {args.command}: {_describe(exc)}", file=sys.stderr)
        return 2


def _describe(exc: BaseException) -> str:
    from engine.core.errors import LogError

    if isinstance(exc, LogError):
        return f"the game log is damaged at {exc}"
    if isinstance(exc, (FileNotFoundError, IsADirectoryError, PermissionError)):
        return f"{exc.strerror or 'cannot open'}: {exc.filename}"
    return str(exc)


if __name__ == "__main__":  # pragma: no cover
    from app import cli as _cli  # the importable module, so UserError is the same class everywhere

    sys.exit(_cli.main())

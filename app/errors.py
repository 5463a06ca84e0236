"""The error a user can fix: shown by the console script as one line, without a traceback.

It lives apart from `app.cli` so that `python -m app.cli` (where cli runs as `__main__`) and the
commands importing `app.cli.UserError` still share one class.
"""


class UserError(Exception):
    """A problem the user can fix (bad input, bad file, bad configuration)."""


def public(message: object) -> str:
    """A message fit for a shared page: every absolute server path shown relative to the games
    folder or by its file name (an exception may carry one: a config file, an index folder)."""
    from agents.storage.paths import scrub

    return scrub(str(message))

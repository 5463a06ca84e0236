"""The error a user can fix: shown by the console script as one line, without a traceback.

It lives apart from `app.cli` so that `python -m app.cli` (where cli runs as `__main__`) and the
commands importing `app.cli.UserError` still share one class.
"""


class UserError(Exception):
    """A problem the user can fix (bad input, bad file, bad configuration)."""

"""One writer per file across processes: an advisory `fcntl.flock` on a lock file.

Why flock: the kernel drops it when the holding process dies (a crash, kill -9), so a table
or an index is never left locked by a dead server, and nothing has to clean a stale lock up.
Why one lock object per path per process: flock belongs to an open file, so a second open of
the same lock file in the same process would conflict with the first. Threads of one process
share the process's lock (they serialise through their own in-process locks).
The lock file is never deleted: deleting a lock file lets two processes lock two different files.
"""
from __future__ import annotations

import fcntl
import os
import threading
from pathlib import Path

_HELD: dict[str, "FileLock"] = {}
_GUARD = threading.Lock()


class FileLock:
    """An exclusive, non-blocking flock on `path`, held until `release` or the process ends."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def try_acquire(self) -> bool:
        """Take the lock if no other process holds it; never waits."""
        if self._fd is not None:
            return True
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return False
        try:  # who holds it, for the other processes' messages (the file holds nothing else)
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
        except OSError:
            pass
        self._fd = fd
        return True

    def release(self) -> None:
        if self._fd is not None:
            try:
                fcntl.flock(self._fd, fcntl.LOCK_UN)
            finally:
                os.close(self._fd)
                self._fd = None

    def holder(self) -> str:
        """Who holds the lock, in words ("process 1234"), as far as the lock file says."""
        try:
            pid = self.path.read_text(encoding="ascii").strip()
        except (OSError, UnicodeDecodeError):
            pid = ""
        return f"process {pid}" if pid.isdigit() else "another process"


def acquire(path: Path) -> FileLock | None:
    """This process's lock on `path` (taken now, or already held), or None if another process holds it."""
    key = str(Path(path).resolve())
    with _GUARD:
        lock = _HELD.get(key)
        if lock is None:
            lock = FileLock(Path(key))
        if not lock.try_acquire():
            return None
        _HELD[key] = lock
        return lock


def holder(path: Path) -> str:
    """Who holds the lock on `path`, in words."""
    return FileLock(Path(path)).holder()


def release(path: Path) -> None:
    """Let go of this process's lock on `path` (tests, and a table closed for good)."""
    key = str(Path(path).resolve())
    with _GUARD:
        lock = _HELD.pop(key, None)
    if lock is not None:
        lock.release()

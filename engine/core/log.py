"""The append-only game log in JSON Lines.

Line 1 is a header (ruleset, config); every further line is one accepted action with the
metadata of the decision that produced it. Saving is writing these lines; loading is replaying
them. A damaged log is refused with the line where the damage starts, and the records before
it are still returned, so the valid part of a game is never lost.

Logs are read from their bytes (`parse_log_bytes`): a file cut inside a UTF-8 character, or
holding bytes that are not text, loads up to the line where the bad bytes start, like any cut.
Nothing here writes: keeping the damaged file's bytes is the caller's job (agents/logfile.py).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

FORMAT = "storytable-log"
VERSION = 1


@dataclass
class LogRecord:
    seq: int
    action: dict[str, Any]
    meta: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> str:
        return json.dumps({"seq": self.seq, "action": self.action, "meta": self.meta},
                          sort_keys=True, ensure_ascii=False)


@dataclass
class ParsedLog:
    header: dict[str, Any]
    records: list[LogRecord]
    error: "LogProblem | None" = None


@dataclass
class LogProblem:
    line: int
    reason: str


def header_line(ruleset: str, config: dict[str, Any], game_id: str) -> str:
    return json.dumps({"format": FORMAT, "version": VERSION, "ruleset": ruleset,
                       "game_id": game_id, "config": config}, sort_keys=True, ensure_ascii=False)


def decode_log(data: bytes) -> tuple[str, LogProblem | None]:
    """The UTF-8 text of a log's bytes up to the line holding the first byte that is not UTF-8.

    Why by line: a cut inside a character leaves the rest of its line unreadable anyway, and
    the lines before it are whole. The problem names the damaged line (1-based), or is None.
    """
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        start = data.rfind(b"\n", 0, exc.start) + 1  # the damaged line starts here
        line = data.count(b"\n", 0, start) + 1
        rest = data[exc.start:]
        if line == 1:
            reason = "the file is not text (not a Storytable game log)"
        elif b"\n" not in rest and len(rest) < 4:
            reason = "the line is truncated inside a character (the file was cut while being written)"
        else:
            reason = "the line holds bytes that are not UTF-8 text"
        return data[:start].decode("utf-8"), LogProblem(line, reason)


def parse_log_bytes(data: bytes) -> ParsedLog:
    """Read a log file's bytes; never raises. Bad bytes stop the log at their line, like a bad line."""
    text, problem = decode_log(data)
    parsed = parse_log(text)
    if problem is None:
        return parsed
    if problem.line == 1 or not parsed.header:
        return ParsedLog({}, [], LogProblem(1, problem.reason) if problem.line == 1 else parsed.error)
    if parsed.error is None or parsed.error.line >= problem.line:
        parsed.error = problem
    return parsed


def parse_log(text: str) -> ParsedLog:
    """Read a log's text; never raises. Stops at the first damaged line and reports it."""
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        return ParsedLog({}, [], LogProblem(1, "the file is empty: no game header"))
    try:
        header = json.loads(lines[0])
    except json.JSONDecodeError as exc:
        return ParsedLog({}, [], LogProblem(1, f"the header is not valid JSON ({exc.msg})"))
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        return ParsedLog({}, [], LogProblem(1, "this is not a Storytable game log (no header)"))
    if header.get("version") != VERSION:
        return ParsedLog({}, [], LogProblem(1, f"unsupported log version {header.get('version')!r}"))
    records: list[LogRecord] = []
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as exc:
            what = "truncated" if number == len(lines) else "not valid JSON"
            return ParsedLog(header, records, LogProblem(number, f"the line is {what} ({exc.msg})"))
        if not isinstance(raw, dict) or not isinstance(raw.get("action"), dict):
            return ParsedLog(header, records, LogProblem(number, "the line holds no action"))
        seq = raw.get("seq")
        if seq != len(records) + 1:
            return ParsedLog(header, records,
                             LogProblem(number, f"expected action number {len(records) + 1}, found {seq!r}"))
        records.append(LogRecord(seq, raw["action"], raw.get("meta") or {}))
    return ParsedLog(header, records)

"""`storytable eval --compare OLD.json NEW.json`: every numeric figure side by side, worse ones flagged.

Which way is better is read from the figure's name (speeds per second up; seconds, bytes,
retries, fallbacks down; rates of legal answers and recall up). Economy figures have no better
direction: a change beyond the threshold is shown as changed, not as worse.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

HIGHER = ("per_s", "legal_rate", "accepted_rate", "recall", "precision", "detection_rate", "agreement")
LOWER = ("seconds", "bytes", "_ms", "ms_", "over_reference", "retries", "fallbacks", "failed_games",
         "errors", "disagreements", "mismatches", "tokens", "false_alarm", "latency")
SKIP = ("meta.", "seed", ".budget", "games_requested", ".jobs", "expected_", "server_requests")


def flatten(obj: Any, prefix: str = "") -> dict[str, float]:
    """Numeric leaves as dotted paths (lists of numbers get their index)."""
    out: dict[str, float] = {}
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.update(flatten(v, f"{prefix}{k}."))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            named = isinstance(v, dict) and "seats" in v and "scenes" in v
            tag = f"{v['seats']}x{v['scenes']}" if named else str(i)
            out.update(flatten(v, f"{prefix}{tag}."))
    elif isinstance(obj, bool):
        return out
    elif isinstance(obj, (int, float)):
        out[prefix.rstrip(".")] = float(obj)
    return out


def direction(path: str) -> int:
    """+1 higher is better, -1 lower is better, 0 neither (economy and counts)."""
    if path.startswith("economy.") and "failed" not in path and "disagree" not in path and "mismatch" not in path \
            and "seconds" not in path:
        return 0
    if any(h in path for h in HIGHER):
        return 1
    if any(h in path for h in LOWER) or path.endswith("_s") or "latency_s." in path:
        return -1
    return 0


@dataclass
class Row:
    path: str
    old: float
    new: float
    change: float | None  # relative
    verdict: str  # "worse" | "better" | "changed" | ""


def compare(old: dict[str, Any], new: dict[str, Any], threshold: float = 0.10) -> list[Row]:
    a, b = flatten(old), flatten(new)
    rows = []
    for path in sorted(set(a) & set(b)):
        if any(s in path for s in SKIP):
            continue
        x, y = a[path], b[path]
        change = (y - x) / abs(x) if x else (None if y == x else float("inf"))
        verdict = ""
        if change is not None and abs(change) > threshold:
            d = direction(path)
            verdict = "changed" if d == 0 else ("better" if change * d > 0 else "worse")
        rows.append(Row(path, x, y, change, verdict))
    return rows


def render(rows: list[Row], only_changes: bool = False) -> str:
    lines = [f"{'figure':<70} {'old':>12} {'new':>12} {'change':>9}"]
    for r in rows:
        if only_changes and not r.verdict:
            continue
        ch = "n/a" if r.change is None else ("new" if r.change == float("inf") else f"{100 * r.change:+.1f}%")
        flag = {"worse": "  WORSE", "better": "  better", "changed": "  changed"}.get(r.verdict, "")
        lines.append(f"{r.path[:70]:<70} {r.old:>12.4g} {r.new:>12.4g} {ch:>9}{flag}")
    worse = [r for r in rows if r.verdict == "worse"]
    lines.append(f"{len(rows)} figures compared; {len(worse)} worse, "
                 f"{sum(r.verdict == 'better' for r in rows)} better, {sum(r.verdict == 'changed' for r in rows)} "
                 "changed (economy) beyond the threshold")
    return "\n".join(lines)

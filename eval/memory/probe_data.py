"""One loader for the played-game memory probes, whose questions are data (eval/data/probes/*.json).

Why data, not code: a probe is a game log plus questions a person wrote about
it; holding the questions as Python made them look like logic and invited
edits next to the retrieval code. Each questions file is
{"about", "log", "asked_in_scene", "prefix", "queries": [{"text", "relevant", "tags"?}]};
`relevant` is a list of Fact ids or groups of equivalent ids (any one counts).
`build(name)` replays the log into FactRecords and attaches the questions
(ids prefix1, prefix2, ...), refusing any id the log does not hold.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import lru_cache
from pathlib import Path
from typing import Any, Sequence

DATA = Path(__file__).resolve().parents[1] / "data"
PROBES = DATA / "probes"

Relevant = list[str | list[str]]
REFERENTS = ("name", "role", "none")
LEVELS = ("light", "moderate", "heavy")

__all__ = ["DATA", "LEVELS", "PROBES", "REFERENTS", "Relevant", "build", "build_probe", "check_tags", "flat_ids",
           "load_questions", "tag_counts", "write_probe"]


def flat_ids(relevant: Relevant) -> list[str]:
    """Every Fact id a `relevant` list names, groups flattened."""
    return [r for item in relevant for r in ([item] if isinstance(item, str) else item)]


def check_tags(tags: str) -> list[str]:
    """A tagged question names exactly one referent (name, role, none) and one rewording level."""
    words = tags.split()
    if sum(w in REFERENTS for w in words) != 1 or sum(w in LEVELS for w in words) != 1:
        raise ValueError(f"tags {tags!r} need one of {REFERENTS} and one of {LEVELS}")
    return words


def load_questions(name: str | Path) -> dict[str, Any]:
    """The questions file `name` (a stem under eval/data/probes/, or a path); a one-line error when malformed."""
    path = Path(name) if isinstance(name, Path) or str(name).endswith(".json") else PROBES / f"{name}.json"
    try:
        data = json.loads(path.read_text())
        for key in ("log", "asked_in_scene", "prefix", "queries"):
            if key not in data:
                raise ValueError(f"lacks {key!r}")
    except (OSError, ValueError) as exc:
        raise ValueError(f"probe questions {path.name}: {exc}") from None
    return data


@lru_cache(maxsize=16)
def _replayed(log: Path, mtime_ns: int, size: int) -> tuple[str, tuple[Any, ...]]:
    """A log's game id and FactRecords (frozen), replayed once per version of the file: the tests
    build each probe again with other questions, and a replay is most of a build's time."""
    from agents.memory.game import records_from_state, replay_log

    rep = replay_log(log)
    game_id = str(rep.header.get("game_id") or log.stem)
    return game_id, tuple(records_from_state(rep.state, game_id))


def build_probe(log: Path, questions: Sequence[tuple[str, Relevant, list[str]]], prefix: str, source: str,
                asked_in_scene: int = 14) -> dict[str, Any]:
    """Replay a played game's log into FactRecords and attach (question, relevant, tags); unknown ids raise."""
    stat = log.stat()
    game_id, facts = _replayed(log.resolve(), stat.st_mtime_ns, stat.st_size)
    ids = {f.id for f in facts}
    queries = []
    for i, (text, relevant, tags) in enumerate(questions, 1):
        unknown = [r for r in flat_ids(relevant) if r not in ids]
        if unknown:
            raise ValueError(f"query {prefix}{i} ({text!r}) names unknown facts {unknown}")
        query: dict[str, Any] = {"id": f"{prefix}{i}", "text": text, "relevant": relevant, "scene": asked_in_scene}
        if tags:
            query["tags"] = tags
        queries.append(query)
    return {"game_id": game_id, "source": f"played game {log.name} ({source})",
            "facts": [f.to_dict() for f in facts], "queries": queries}


def build(name: str | Path, questions: Sequence[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The probe `name` built from its log; `questions` replaces the file's (tests use it to check refusals)."""
    spec = load_questions(name)
    qs = spec["queries"] if questions is None else questions
    tagged = []
    for q in qs:
        tags = q.get("tags")
        tagged.append((q["text"], q["relevant"], check_tags(tags) if tags is not None else []))
    src = f"eval/data/probes/{Path(str(name)).stem}.json"
    return build_probe(DATA / spec["log"], tagged, spec["prefix"], src, int(spec["asked_in_scene"]))


def tag_counts(data: dict[str, Any]) -> dict[str, int]:
    """How many questions carry each tag."""
    return dict(Counter(t for q in data["queries"] for t in q.get("tags", [])))


def write_probe(data: dict[str, Any], out: Path) -> int:
    out.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {out.name}: {len(data['facts'])} facts, {len(data['queries'])} queries")
    return 0


def out_path(name: str) -> Path:
    """The built probe file a questions file names ("out"), e.g. eval/data/memory_probe_game2.json."""
    spec = load_questions(name)
    return DATA / str(spec.get("out") or f"memory_probe_{Path(str(name)).stem}.json")


def main(argv: Sequence[str] | None = None) -> int:
    """python -m eval.memory.probe_data game2 [game3 ...]: replay each log and rewrite its built probe file."""
    import sys

    names = list(argv if argv is not None else sys.argv[1:])
    if not names:
        print("name one or more probes: " + " ".join(sorted(p.stem for p in PROBES.glob("*.json"))))
        return 2
    for name in names:
        try:
            write_probe(build(name), out_path(name))
        except ValueError as exc:
            print(exc)
            return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""`storytable facts LOG "query"`: what the fact memory recalls for a question, with scores and provenance."""
from __future__ import annotations

import argparse
import json

HELP = "show the Facts the memory recalls for a question (scores, scene, kind, component, who paid)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    from app.commands.reindex import add_memory_options

    p.add_argument("log", help="a game log (JSON Lines) written by Storytable")
    p.add_argument("query", help="a question or situation in your own words")
    p.add_argument("-k", type=int, default=10, help="how many Facts to show (default 10)")
    p.add_argument("--include-removed", action="store_true", help="also show removed Facts (marked)")
    p.add_argument("--check", action="store_true",
                   help="treat the text as a proposed statement: which Facts does it contradict?")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    add_memory_options(p)


def _row(rank: int, sf) -> dict:
    r = sf.record
    return {"rank": rank, "score": round(sf.score, 4), "id": r.id, "kind": r.kind, "scene": r.scene,
            "place": r.place, "component": r.component_name, "paid_by": r.paid_by, "event": r.seq, "removed": r.removed,
            "eliminated": r.eliminated, "text": r.text,
            "signals": {k: round(v, 3) for k, v in sf.sources.items() if v}}


def _print_rows(rows: list[dict]) -> None:
    for row in rows:
        flags = "".join([" [removed]" if row["removed"] else "", " [eliminated]" if row["eliminated"] else ""])
        scene = "-" if row["scene"] is None else row["scene"]
        signals = " ".join(f"{k}={v}" for k, v in row["signals"].items())
        print(f"{row['rank']:>3}. {row['score']:.3f}  {row['id']:<6} {row['kind']:<7} scene {scene:<3} "
              f"event {row['event']:<5} paid by {row['paid_by'] or '-'}"
              f"{'  | ' + row['component'] if row['component'] else ''}{flags}")
        print(f"     {row['text']}")
        if row["place"]:
            print(f"     at {row['place']}")
        print(f"     ({signals})")


def run(args: argparse.Namespace) -> int:
    from app.cli import UserError
    from app.commands.reindex import open_memory, where

    if not args.query.strip():
        raise UserError("the query is empty: say what you want to recall, e.g. \"who burned the woods?\"")
    if args.k < 1:
        raise UserError(f"-k {args.k}: must be at least 1")
    memory, rep = open_memory(args)
    note = {"rebuilt": "the index was missing or unreadable and was rebuilt from the log",
            "updated": "the index was behind the log and was brought up to date"}.get(memory.status)
    if memory.index.replaced_embedder:
        note = (f"the index was built by {memory.index.replaced_embedder} and was rebuilt from the log "
                f"with {memory.index.embedding_function.name()}")
    if args.check:
        report = memory.check(args.query, rep.state)
        if args.json:
            print(json.dumps({"statement": args.query, "contradicts": report.contradicts, "checked": report.checked,
                              "facts": [{"id": f.id, "kind": f.kind, "scene": f.scene, "component": f.component_name,
                                         "paid_by": f.paid_by, "event": f.seq, "text": f.text, "reason": why}
                                        for f, why in report.facts]}, indent=2, ensure_ascii=False))
        else:
            print(report.summary())
        return 0
    results = memory.recall(args.query, args.k, state=rep.state, include_removed=args.include_removed)
    rows = [_row(i, sf) for i, sf in enumerate(results, 1)]
    if args.json:
        print(json.dumps({"game": memory.game_id, "query": args.query, "index": where(memory), "note": note,
                          "results": rows}, indent=2, ensure_ascii=False))
        return 0
    if note:
        print(f"({note})")
    print(f"game {memory.game_id}, {memory.index.count()} facts indexed in {where(memory)}; "
          f"top {len(rows)} for {args.query!r}:")
    if not rows:
        print("  nothing recalled (the game has no Facts yet)")
    _print_rows(rows)
    return 0

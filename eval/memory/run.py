"""Memory eval: retrieval recall, query latency and contradiction precision/recall.

    python -m eval.memory.run --quick     # a few minutes: the default setup's recall on every probe, 1k latency, contradictions
    python -m eval.memory.run             # ~15 minutes: adds e5 and WordLlama beside the default, 10k and 100k latency
    python -m eval.memory.run --latency   # only the latency at 1k, 10k and 100k Facts, and 10k on a Chroma server

Latency is measured with one BLAS thread (threadpoolctl), next to brute force in the same run.

`run(quick)` returns the figures as a dict so a top-level `storytable eval`
can include them; the CLI also writes them to JSON.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from pathlib import Path
from typing import Any, Sequence

from .contradictions import run_end_to_end, run_pairs
from .latency import run_latency
from .probe import (DATA, GAME2_PROBE_FILE, GAME3_PROBE_FILE, GAME4_PROBE_FILE, GAME5_PROBE_FILE, GAME6_PROBE_FILE,
                    GAME7_PROBE_FILE, GAME8_PROBE_FILE, GAME9_PROBE_FILE, GAME10_PROBE_FILE, GAME11_PROBE_FILE,
                    GAME_PROBE_FILE,
                    PROBE_FILE, run_probe)

PROBES = (("retrieval", PROBE_FILE, "synthetic world"), ("retrieval_game", GAME_PROBE_FILE, "played game"),
          ("retrieval_game2", GAME2_PROBE_FILE, "played game 2, written blind"),
          ("retrieval_game3", GAME3_PROBE_FILE, "played game 3, written blind"),
          ("retrieval_game4", GAME4_PROBE_FILE, "played game 4, written blind"),
          ("retrieval_game5", GAME5_PROBE_FILE, "played game 5 (western), written blind"),
          ("retrieval_game6", GAME6_PROBE_FILE, "played game 6 (horror), written blind"),
          ("retrieval_game7", GAME7_PROBE_FILE, "played game 7 (space opera), written blind"),
          ("retrieval_game8", GAME8_PROBE_FILE, "played game 8 (noir), written blind"),
          ("retrieval_game9", GAME9_PROBE_FILE, "played game 9 (western), written blind"),
          ("retrieval_game10", GAME10_PROBE_FILE, "played game 10 (fantasy), written blind"),
          ("retrieval_game11", GAME11_PROBE_FILE, "played game 11 (horror), written blind, not fitted on"))
#: Probes the weights are never fitted on (eval/memory/fit.py leaves them out): the held-out test.
UNFITTED = frozenset({"retrieval_game11"})

QUICK_SIZES = (1000,)
FULL_SIZES = (1000, 10_000, 100_000)
SERVER_SIZES = (10_000,)  # on a real Chroma server process (`chroma run`), started and stopped by the eval


def run(quick: bool = True, only: Sequence[str] | None = None) -> dict[str, Any]:
    """All memory figures. Quick mode measures the default setup only (no e5 or WordLlama comparison:
    e5 alone indexes every probe for minutes) and keeps latency to 1k Facts. `only`: the keys of the
    probes to run (all of them when None), for a CI-sized run."""
    started = time.perf_counter()
    chosen = [(key, path, label) for key, path, label in PROBES if only is None or key in only]
    probes = {key: {"label": label, **run_probe(path)} for key, path, label in chosen}  # the defaults: MiniLM alone
    from agents.memory.e5 import e5_available
    from agents.memory.embeddings import WordLlamaEmbeddingFunction

    # the same retrieval with e5 as a second embedder (the option), and on the lighter WordLlama
    with_e5 = {key: run_probe(path, second="e5") for key, path, _ in chosen} if e5_available() and not quick else {}
    wordllama = {} if quick else {key: run_probe(path, embedding_function=WordLlamaEmbeddingFunction())
                                  for key, path, _ in chosen}
    contradiction = {"pairs": run_pairs(), "end_to_end": run_end_to_end()}
    latency = run_latency(QUICK_SIZES if quick else FULL_SIZES, () if quick else SERVER_SIZES)
    return {
        "suite": "memory", "quick": quick,
        **probes,
        "with_e5": with_e5,
        "wordllama": wordllama,
        "latency": latency,
        "contradiction": contradiction,
        "targets": {**{f"{key}: hybrid recall@10 >= 0.85": probes[key]["hybrid"]["recall@10"] >= 0.85
                       for key in probes}, **latency_targets(latency)},
        "seconds": round(time.perf_counter() - started, 1),
    }


def latency_targets(latency: dict[str, Any]) -> dict[str, bool]:
    """Issue 26's checks at every size measured, embedded and on the server."""
    out = {}
    for where, rows in (("embedded", latency["sizes"]), ("server", latency.get("server", []))):
        for row in rows:
            out.update({f"latency {row['facts']:,} facts {where}: {name}": ok for name, ok in row["targets"].items()})
    return out


def latency_lines(latency: dict[str, Any]) -> list[str]:
    """The latency figures next to brute force, one line per size (what `storytable eval` prints)."""
    lines = [f"memory latency ({latency['embedder']}, {latency['blas_threads']} BLAS thread, "
             f"{latency['queries']} questions; brute force = embed the question + exact products over every Fact):"]
    for where, rows in (("embedded", latency["sizes"]), ("chroma server", latency.get("server", []))):
        for row in rows:
            h, b, a = row["hybrid"], row["brute"], row["after_write"]
            missed = [name for name, ok in row["targets"].items() if not ok]
            load = row.get("load_average_1min") or {}
            cpu = f" ({row['first_query_cpu_s']:.2f} s CPU)" if "first_query_cpu_s" in row else ""
            lines.append(f"  {row['facts']:>7,} facts, {where}: first query {row['first_query_s']:.2f} s{cpu}; hybrid "
                         f"median {h['median_ms']:.1f} ms, p95 {h['p95_ms']:.1f} ms; brute force {b['median_ms']:.1f} "
                         f"ms, p95 {b['p95_ms']:.1f} ms ({row['hybrid_over_brute']:.2f}x); after a write at most "
                         f"{a['max_ms']:.1f} ms; load average {load.get('start')} -> {load.get('end')}; "
                         + ("targets met" if not missed else "missed: " + "; ".join(missed)))
            c = row.get("cpu")
            if c:
                lines.append(f"           in CPU time: hybrid median {c['hybrid']['median_ms']:.1f} ms, p95 "
                             f"{c['hybrid']['p95_ms']:.1f} ms ({c['p95_over_median']:.2f}x); brute force "
                             f"{c['brute']['median_ms']:.1f} ms ({c['hybrid_over_brute']:.2f}x); after a write at most "
                             f"{c['after_write']['max_ms']:.1f} ms ({c['after_write_over_median']:.2f}x the median)")
    return lines


def _summary(res: dict[str, Any]) -> str:
    lines = []
    for key, _, label in PROBES:
        if key not in res:
            continue
        for r in (res[key], res["with_e5"].get(key), res["wordllama"].get(key)):
            if r is None:
                continue
            lines.append(f"retrieval, {label} ({r['facts']} facts, {r['queries']} paraphrased queries), "
                         f"{r['embedder']}{' + ' + r['second_embedder'] if r.get('second_embedder') else ''}:")
            for name in ("dense", "hybrid"):
                halves = "  ".join(f"{h} {v[name]['recall@5']:.3f}/{v[name]['recall@10']:.3f}"
                                   for h, v in r["halves"].items())
                lines.append(f"  {name:<6} recall@5 {r[name]['recall@5']:.3f}  recall@10 {r[name]['recall@10']:.3f}"
                             f"   (@5/@10 by half: {halves})")
        tags = res[key]["hybrid"].get("recall@10_by_tag")
        if tags:
            lines.append("  hybrid recall@10 by kind of question: " + ", ".join(
                f"{t} {v['recall@10']:.2f} ({v['queries']})" for t, v in tags.items()))
    lines += latency_lines(res["latency"])
    p, e = res["contradiction"]["pairs"], res["contradiction"]["end_to_end"]
    lines.append(f"contradiction (heuristic, {p['pairs']} pairs): precision {p['precision']:.3f} "
                 f"recall {p['recall']:.3f}; end-to-end detection {e['detection_rate']:.3f} "
                 f"false alarms {e['false_alarm_rate']:.3f}")
    lines.append(f"took {res['seconds']} s")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m eval.memory.run", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="default setup only, 1k-fact latency (a few minutes)")
    parser.add_argument("--latency", action="store_true",
                        help="only query latency at 1k, 10k and 100k Facts and 10k on a Chroma server, to "
                             "memory_latency.json")
    parser.add_argument("--out", type=Path, default=None, help="JSON file for the results")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    if args.latency:
        out = args.out or DATA / "memory_latency.json"
        latency = run_latency(FULL_SIZES, SERVER_SIZES)
        out.write_text(json.dumps(latency, indent=1) + "\n")
        print("\n".join(latency_lines(latency)))
        print(f"wrote {out}")
        return 0
    res = run(quick=args.quick)
    out = args.out or DATA / ("memory_results_quick.json" if args.quick else "memory_results.json")
    out.write_text(json.dumps(res, indent=1) + "\n")
    print(_summary(res))
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

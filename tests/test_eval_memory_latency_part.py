"""`storytable eval --only memory-latency`: the memory latency figures alone, printed like the memory part's."""

from __future__ import annotations

from eval import harness
from eval.memory import latency


def _row(n: int) -> dict:
    ms = {"median_ms": 8.0, "p95_ms": 9.0, "max_ms": 10.0}
    return {"facts": n, "first_query_s": 0.1, "first_query_cpu_s": 0.1, "hybrid": ms, "brute": ms, "after_write": ms,
            "hybrid_over_brute": 1.0, "p95_over_median": 1.1, "after_write_over_median": 1.2,
            "targets": {"hybrid within 2.0x brute force": True}, "load_average_1min": {"start": 1.0, "end": 1.0}}


def test_memory_latency_part_runs_the_latency_alone(monkeypatch) -> None:
    asked = []

    def fake(sizes, server_sizes, **_kw):
        asked.append((tuple(sizes), tuple(server_sizes)))
        return {"embedder": "storytable_minilm", "blas_threads": 1, "queries": 82,
                "sizes": [_row(n) for n in sizes], "server": [_row(n) for n in server_sizes]}

    monkeypatch.setattr(latency, "run_latency", fake)
    res = harness.run_all(harness.QUICK, ("memory-latency",))
    assert asked == [((1000,), ())]  # quick: 1k only, no server
    assert "memory" not in res and res["memory-latency"]["targets"] == {
        "latency 1,000 facts embedded: hybrid within 2.0x brute force": True}
    from app.commands.eval_run import headline
    assert "1,000 facts, embedded: first query 0.10 s" in headline(res)
    full = harness.run_all(harness.FULL, ("memory-latency",))
    assert asked[-1] == ((1000, 10_000, 100_000), (10_000,)) and len(full["memory-latency"]["latency"]["server"]) == 1

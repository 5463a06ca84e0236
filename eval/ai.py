"""AI decisions: how often the model's first answer is legal, retries, fallbacks, tokens, latency split.

With a configured model (storytable.toml or OPENAI_* env) the game runs against it; otherwise
against the fake OpenAI-compatible server of the test suite (tests/fakeserver.py, loaded by
path: tests/ is not an installed package). Latency is split into engine (`apply` alone, timed by
replaying the log), memory (retrieval and indexing, timed around the table's retriever and
listener) and model (the players' own count of time waiting for the endpoint).
"""
from __future__ import annotations

import importlib.util
import os
import random
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

from eval.games import NAMES, ProgressFn, parsed_actions, time_apply

REPO = Path(__file__).resolve().parents[1]


@contextmanager
def fake_server(lifetime_s: float) -> Iterator[Any]:
    """The test suite's fake server, started on 127.0.0.1; raises RuntimeError when unavailable."""
    path = REPO / "tests" / "fakeserver.py"
    if not path.is_file():
        raise RuntimeError(f"no fake model server at {path} (an installed copy has no tests/)")
    spec = importlib.util.spec_from_file_location("storytable_eval_fakeserver", path)
    assert spec is not None and spec.loader is not None
    module = sys.modules.get(spec.name)
    if module is None:
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # dataclasses look their module up while the file runs
        try:
            spec.loader.exec_module(module)
        except ImportError as exc:  # it needs pytest, a test dependency
            del sys.modules[spec.name]
            raise RuntimeError(f"the fake model server cannot be loaded: {exc}") from None
    old = {k: os.environ.get(k) for k in ("NO_PROXY", "no_proxy")}
    os.environ["NO_PROXY"] = os.environ["no_proxy"] = "127.0.0.1,localhost"
    rng = random.Random(0)

    def varied(body: dict[str, Any]) -> Any:
        """A random branch of the requested schema: the server's default (always the first option)
        never gets a game past preparation, and a game must reach its scenes to be measured."""
        schema = module.requested_schema(body)
        if schema is None:
            return module.prose("Nothing was asked of me in a structured way.")
        return module.valid(random_instance(schema, schema, rng))

    server = module.FakeOpenAIServer(default=varied).start(max_lifetime_s=lifetime_s)
    try:
        yield server
    finally:
        server.stop()
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _resolve(node: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        target: Any = root
        for part in ref[2:].split("/"):
            target = target[part]
        return _resolve(target, root)
    return node


def random_instance(schema: dict[str, Any], root: dict[str, Any], rng: random.Random) -> Any:
    """A minimal instance of a JSON schema, choosing union branches and enum values at random."""
    node = _resolve(schema, root)
    if "const" in node:
        return node["const"]
    if node.get("enum"):
        return rng.choice(node["enum"])
    for key in ("anyOf", "oneOf"):
        if node.get(key):
            branches = [b for b in node[key] if _resolve(b, root).get("type") != "null"] or node[key]
            return random_instance(rng.choice(branches), root, rng)
    if node.get("allOf"):
        return random_instance(node["allOf"][0], root, rng)
    if "default" in node:
        return node["default"]
    kind = node.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "object" or "properties" in node:
        props: dict[str, Any] = node.get("properties", {})
        required = set(node.get("required", list(props)))
        wanted = [n for n, p in props.items() if n in required or "const" in _resolve(p, root)]
        return {name: random_instance(props[name], root, rng) for name in wanted}
    if kind == "array":
        if node.get("prefixItems"):
            return [random_instance(sub, root, rng) for sub in node["prefixItems"]]
        return [random_instance(node.get("items", {}), root, rng) for _ in range(node.get("minItems", 0))]
    if kind == "integer":
        low = int(node.get("minimum", 0))
        return rng.randint(low, max(low, min(int(node.get("maximum", low + 2)), low + 2)))
    if kind == "number":
        return float(node.get("minimum", 0))
    if kind == "boolean":
        return rng.random() < 0.5
    if kind == "string":
        return "the story goes on" if int(node.get("minLength", 1)) <= 17 else "x" * int(node["minLength"])
    return None


class Timer:
    """Wraps callables and adds up the seconds spent inside them."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.calls = 0

    def wrap(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.seconds += time.perf_counter() - started
                self.calls += 1
        return timed


def attach_memory(table: Any, game_dir: Path, timer: Timer) -> str:
    """The memory index the app uses, when it opens; else the table's default Facts. Both timed."""
    from agents.table import default_facts
    try:
        from agents.memory.game import GameMemory
        memory = GameMemory.attach(table, game_dir=game_dir)
        how = f"memory index (Chroma + {memory.index.embedding_function.name().removeprefix('storytable_')})"
    except Exception as exc:  # noqa: BLE001 - measured either way; the report says which
        table.retriever = lambda s, name, situation: default_facts(s, seat=name)
        how = f"default Facts (memory index unavailable: {type(exc).__name__})"
    table.retriever = timer.wrap(table.retriever)
    table.listeners = [timer.wrap(fn) for fn in table.listeners]
    return how


def run_ai(seats: int = 4, scenes: int = 2, seed: int = 0, budget_s: float = 120.0,
           progress: ProgressFn | None = None) -> dict[str, Any]:
    """One game with every seat an LLMPlayer; stops when `scenes` end or `budget_s` runs out."""
    try:
        from agents.llm.config import LLMSettings, is_configured, load_settings
        from agents.llm.player import LLMPlayer  # noqa: F401 - present only once the LLM player is built
    except ImportError as exc:
        return {"available": False, "reason": f"LLM player not importable: {exc}"}
    settings = load_settings()
    if is_configured(settings):
        return _run(settings, f"configured model {settings.model}", seats, scenes, seed, budget_s, progress)
    try:
        with fake_server(budget_s + 120) as server:
            fake = LLMSettings(base_url=server.base_url, api_key="fake-key-for-eval", model="fake-model",
                               timeout_s=10.0)
            out = _run(fake, "fake model server (no model configured)", seats, scenes, seed, budget_s, progress)
            out["server_requests"] = len(server.chat_requests)
            return out
    except RuntimeError as exc:
        return {"available": False, "reason": str(exc)}


def _run(settings: Any, source: str, seats: int, scenes: int, seed: int, budget_s: float,
         progress: ProgressFn | None, chat_model: Any = None, max_asked: int | None = None) -> dict[str, Any]:
    from agents.seating import SeatSpec, make_seats
    from agents.table import Table
    from engine.core.dice import SeededDice
    from eval.decisions import DecisionLog

    specs = [SeatSpec(n, "llm") for n in NAMES[:seats]]
    memory_timer = Timer()
    decisions = DecisionLog()
    with tempfile.TemporaryDirectory(prefix="storytable-eval-") as tmp:
        table = Table.new(make_seats(specs, seed=seed, settings=settings, chat_model=chat_model),
                          dice=SeededDice(seed), log_path=Path(tmp) / "game.jsonl", game_id=f"eval-ai-{seed}")
        for seat in table.seats.values():
            if seat.player is not None and hasattr(seat.player, "stats"):
                decisions.watch(seat.player)
        memory_how = attach_memory(table, Path(tmp), memory_timer)
        started = time.perf_counter()
        stopped = False
        last_report = started
        while table.state.scenes_ended < scenes:
            if time.perf_counter() - started > budget_s or (max_asked and len(decisions.asked()) >= max_asked):
                stopped = True
                break
            if not table.step().acted:
                break
            if progress and time.perf_counter() - last_report > 10:
                last_report = time.perf_counter()
                progress(f"ai: {len(table.records)} actions, {table.state.scenes_ended}/{scenes} scenes, "
                         f"{len(decisions.asked())} model decisions")
        wall = time.perf_counter() - started
        mem = getattr(table, "memory", None)
        if mem is not None and hasattr(mem, "close"):
            try:
                mem.close()
            except Exception:  # noqa: BLE001
                pass
    engine_s = time_apply(table.header, parsed_actions(table.records))
    out = summarize(table, source, memory_how, wall, engine_s, memory_timer, stopped, budget_s)
    out["model"] = decisions.summary()
    return out


def summarize(table: Any, source: str, memory_how: str, wall: float, engine_s: float, memory_timer: Timer,
              stopped: bool, budget_s: float) -> dict[str, Any]:
    from agents.llm.player import LLMStats

    total = LLMStats()
    for seat in table.seats.values():
        st = getattr(seat.player, "stats", None)
        if st is not None:
            total = total.add(st)
    records = table.records
    ai_records = [r for r in records if r.meta.get("decided_by") not in ("dice", "human")]
    by = {}
    for r in ai_records:
        key = str(r.meta.get("decided_by"))
        by[key] = by.get(key, 0) + 1
    asked = max(1, total.model_decisions)
    scenes = table.state.scenes_ended
    per_scene = max(1, scenes)
    model_s = total.latency_s
    decisions = max(1, len(ai_records))
    return {
        "available": True, "source": source, "memory": memory_how,
        "scenes": scenes, "actions": len(records), "stopped_by_budget": stopped, "budget_s": budget_s,
        "decisions": len(ai_records), "decided_by": by,
        "model_decisions": total.model_decisions,
        # decisions needing a choice (reaction windows passed without a call excluded) made by the model
        "model_share": total.model_share, "model_share_by_kind": total.share_by_kind(),
        "skipped_reactions": total.skipped,
        "first_try_legal_rate": total.first_try_legal / asked if total.model_decisions else None,
        "accepted_rate": total.accepted / asked if total.model_decisions else None,
        "retries": total.retries, "retries_per_model_decision": total.retries / asked,
        "fallbacks": total.fallbacks, "fallbacks_in_log": sum(1 for r in records if r.meta.get("fallback")),
        "fallback_reasons": dict(total.fallback_reasons),
        "tokens_in_per_model_decision": total.tokens_in / asked,
        "tokens_out_per_model_decision": total.tokens_out / asked,
        # no scene finished inside the budget: a per-scene figure would be made up
        "tokens_in_per_scene": total.tokens_in / per_scene if scenes else None,
        "tokens_out_per_scene": total.tokens_out / per_scene if scenes else None,
        "tokens_in_total": total.tokens_in, "tokens_out_total": total.tokens_out,
        "latency_s": {
            "wall": wall, "engine": engine_s, "memory": memory_timer.seconds, "model": model_s,
            "players_and_table": max(0.0, wall - engine_s - memory_timer.seconds - model_s),
        },
        "latency_ms": {
            "engine_per_action": 1000 * engine_s / max(1, len(records)),
            "memory_per_decision": 1000 * memory_timer.seconds / decisions,
            "model_per_model_decision": 1000 * model_s / asked,
        },
        "memory_calls": memory_timer.calls,
    }


def run_local(model: str, seats: int = 2, scenes: int = 1, seed: int = 0, budget_s: float = 300.0,
              max_asked: int | None = None, progress: ProgressFn | None = None,
              server_log: Path | None = None) -> dict[str, Any]:
    """One game of LLM seats against a real model on this machine, with per-decision figures.

    `model` is a registry model key (`smollm2`, `gemma3`: served by llama-cpp-python's server on
    127.0.0.1, as a person would run it) or a GGUF file (loaded in this process, as `--ai local`).
    Raises eval.local_server.Unavailable (one line) when the local-model extra is missing.
    """
    from agents.llm.config import LLMSettings
    from eval.local_server import MODELS, serve

    if model in MODELS:
        log_path = server_log or Path(tempfile.gettempdir()) / f"storytable-{model}-server.log"
        with serve(model, log_path) as url:
            settings = LLMSettings(base_url=url, model=model)
            out = _run(settings, f"{MODELS[model].label} via llama-cpp-python's server", seats, scenes, seed,
                       budget_s, progress, max_asked=max_asked)
    else:
        from agents.llm.local import load_local_model, local_settings
        chat = load_local_model(model)
        out = _run(local_settings(chat), f"{Path(model).name} in process (llama-cpp-python)", seats, scenes, seed,
                   budget_s, progress, chat_model=chat, max_asked=max_asked)
    out["real_model"] = model if model in MODELS else Path(model).name
    try:
        out["load_average_at_end"] = os.getloadavg()
    except OSError:
        pass
    return out

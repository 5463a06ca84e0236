"""`storytable check-endpoint`: is the configured model endpoint ready for LLM seats?

Sends one small structured request per structured-output method worth knowing about and
reports the model, the server family, whether tool calling and JSON-schema output work, the
latency and the method the seats will use; a misconfiguration is explained in one line.
"""
from __future__ import annotations

import argparse
import json

HELP = "check the configured model endpoint: model, tool calling, JSON schema, latency, the method seats use"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--timeout", type=float, default=20.0, help="seconds to wait for each answer (default 20)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")


def run(args: argparse.Namespace) -> int:
    from agents.llm.config import load_settings
    from agents.llm.readiness import check

    result = check(load_settings(), timeout_s=args.timeout)
    if args.json:
        data = {k: v for k, v in result.__dict__.items() if k != "probes"}
        data["probes"] = [p.__dict__ for p in result.probes]
        print(json.dumps(data, indent=2))
    else:
        print("\n".join(result.lines()))
    return 0 if result.ready else 1

"""`storytable addons`: the Universalis add-ons, grouped as the book groups them (issue 22)."""
from __future__ import annotations

import argparse

HELP = "list the Universalis add-ons (book L1866-2505) that --addon NAME[=VALUE] turns on"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--fields", action="store_true", help="also list each add-on's option fields and what adopting it sets")


def run(args: argparse.Namespace) -> int:
    from engine.universalis.addon_registry import grouped

    for group, items in grouped():
        print(f"{group} add-ons")
        for a in items:
            tag = " (no engine rule)" if a.social else ""
            value = f"[={a.value_field}]" if a.value_field else ""
            print(f"  {a.key + value:<44} {a.summary}{tag}  [book L{a.line}]")
            if args.fields and a.fields:
                sets = ", ".join(f"{k}={v}" for k, v in a.adopt.items()) or "nothing until a value is given"
                print(f"  {'':<44} fields: {', '.join(a.fields)}; adopting sets {sets}")
        print()
    print("Use: storytable simulate --addon durable --addon protagonist-refresh=7 ...  (NAME may also be a field)")
    return 0

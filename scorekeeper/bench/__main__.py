"""`python -m scorekeeper.bench store|engine|ui|play|table|host|sync|static|all [--json]`: benchmarks that print figures.

Each part returns `{"<part>": {...figures...}}`; ratios are always taken against a baseline measured in the
same run, so the figures compare across machines.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from typing import Any

PARTS = ("store", "engine", "ui", "play", "table")
SEPARATE = ("host", "sync", "static")
"""Parts that `all` leaves out: `host` starts Caddy and hundreds of sessions (minutes, see host.py); `sync`
syncs 10,000 matches through a WebDAV server (minutes, and WsgiDAV from the dev extra, see sync.py); `static`
builds the static web app and loads it in Chromium, Python in the browser (minutes, see static.py)."""


def run_part(name: str, as_json: bool) -> dict[str, Any]:
    module = importlib.import_module(f"scorekeeper.bench.{name}")
    return module.run(as_json)


def print_plain(figures: dict[str, Any]) -> None:
    for part, values in figures.items():
        print(f"[{part}]")
        for key, value in values.items():
            print(f"  {key}: {json.dumps(value) if isinstance(value, dict | list) else value}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scorekeeper.bench", description=__doc__.splitlines()[0])
    parser.add_argument("part", choices=[*PARTS, *SEPARATE, "all"])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    figures: dict[str, Any] = {}
    for name in PARTS if args.part == "all" else (args.part,):
        figures.update(run_part(name, args.json))
    if args.json:
        print(json.dumps(figures))
    else:
        print_plain(figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Write docs/protocol.schema.json from the protocol models (``shared.protocol.json_schema``).

Usage: python tools/gen_protocol_schema.py [--check] [--output PATH]
With --check nothing is written: the exit status is 1 when the file differs from the models.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from shared.protocol import json_schema

__all__ = ["SCHEMA_PATH", "render", "main"]

SCHEMA_PATH = Path(__file__).resolve().parents[1] / "docs" / "protocol.schema.json"
"""Where the committed schema lives."""


def render() -> str:
    """The schema file's text: sorted keys, two-space indent, a final newline (stable diffs)."""
    return json.dumps(json_schema(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write (or with ``--check`` compare) the schema file; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is out of date; write nothing")
    parser.add_argument("--output", type=Path, default=SCHEMA_PATH, help="the schema file (default: %(default)s)")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        current = args.output.read_text(encoding="utf-8") if args.output.exists() else None
        if current != text:
            state = "is missing" if current is None else "differs from the protocol models"
            print(f"{args.output} {state}: run python tools/gen_protocol_schema.py", file=sys.stderr)
            return 1
        print(f"{args.output} is up to date")
        return 0
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(text, encoding="utf-8")
    print(f"wrote {args.output} ({len(text)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

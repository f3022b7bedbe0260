"""Benchmark XSB parsing on ``../shared/data/sokoban`` (not a test: it prints figures and PASS/FAIL marks).

1. Every level of every file parsed and validated (split, map, metadata, flood fill, checks): total
   and per level. soukoban (Rust) reports 3,371 levels in 23.7 ms (7.03 us per level); target:
   within 2x of its per-level time.
2. The last level of all the files joined in one text, alone, via the lazy path (split without
   parsing, then parse one). soukoban: 3.27 ms for its 3,371st; target: within 3.27 ms.

    .venv/bin/python bench/sokoban_parse.py [--repeat 20]

Timings are the best of ``--repeat`` runs (the machine's other work only ever slows a run down).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from shared.sokoban import Collection, Level  # noqa: E402
from timing import best_of  # noqa: E402  (bench/, beside this script)

DATA = ROOT / ".." / "shared" / "data" / "sokoban"
SOUKOBAN_PER_LEVEL_US = 23.7e3 / 3371
SOUKOBAN_LAST_MS = 3.27


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20, help="runs per figure; the best is shown (default 20)")
    args = parser.parse_args(argv)
    files = sorted(DATA.glob("*.xsb"))
    if not files:
        print(f"no level files in {DATA}: the data lives beside the repository in ../shared/data", file=sys.stderr)
        return 1
    texts = [path.read_text(encoding="utf-8", errors="replace") for path in files]

    def parse_all() -> tuple[int, int]:
        good = bad = 0
        for text in texts:
            for result in Collection(text).results():
                if isinstance(result, Level):
                    good += 1
                else:
                    bad += 1
        return good, bad

    seconds, (good, bad) = best_of(args.repeat, parse_all)
    per_level_us = seconds * 1e6 / (good + bad)
    ok = per_level_us <= 2 * SOUKOBAN_PER_LEVEL_US
    print(f"all levels: {good + bad} levels in {len(files)} files parsed and validated in {seconds * 1e3:.1f} ms "
          f"({per_level_us:.2f} us per level; {bad} invalid)")
    print(f"  soukoban: {SOUKOBAN_PER_LEVEL_US:.2f} us per level; target <= {2 * SOUKOBAN_PER_LEVEL_US:.2f} us: "
          f"{'PASS' if ok else 'FAIL'} ({per_level_us / SOUKOBAN_PER_LEVEL_US:.1f}x soukoban)")

    joined = "\n\n".join(texts)
    last = good + bad - 1
    seconds_last, level = best_of(args.repeat, lambda: Collection(joined).level(last))
    ok_last = seconds_last * 1e3 <= SOUKOBAN_LAST_MS
    print(f"last level alone (lazy, {last + 1} levels in one {len(joined) // 1024} KiB text): "
          f"{seconds_last * 1e3:.2f} ms ({getattr(level, 'title', None)!r})")
    print(f"  soukoban: {SOUKOBAN_LAST_MS} ms; target <= {SOUKOBAN_LAST_MS} ms: {'PASS' if ok_last else 'FAIL'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

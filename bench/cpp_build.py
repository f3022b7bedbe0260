"""The C++ build of a hand-in in the sandbox (``server.sandbox.cppbuild``): a cold build and a cached one.

A benchmark, not a test. Run from the repository root (as root or not; bubblewrap, g++ and
nlohmann-json3-dev installed)::

    .venv/bin/python bench/cpp_build.py                 # 3 cold builds, 20 cached lookups of the handout bot
    .venv/bin/python bench/cpp_build.py --cold 5 --cached 100 --bot path/to/bot-folder

A cold build starts with an empty cache: bubblewrap, the build process, g++ -std=c++17 -O2 on the
bot's files, the arena's QuoridorUtils.cpp and its main (nlohmann::json). A cached build hashes the
files and finds the executable. Targets (issue 32): cold <= ``TARGET_COLD_S``, cached <= ``TARGET_CACHED_MS``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server.sandbox.cppbuild import sandboxed_cpp_build  # noqa: E402
from server.sandbox.status import sandbox_status  # noqa: E402

HANDOUT_BOT = Path(__file__).resolve().parent.parent / "tests" / "client" / "cpp" / "handout_bot"
TARGET_COLD_S = 10.0
TARGET_CACHED_MS = 50.0


def main() -> int:
    """Time cold and cached builds of a C++ bot in the sandbox; print them against the targets."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--bot", type=Path, default=HANDOUT_BOT, help="the bot's folder (default: the handout bot)")
    parser.add_argument("--cold", type=int, default=3, help="cold builds (each with an empty cache)")
    parser.add_argument("--cached", type=int, default=20, help="cached lookups")
    args = parser.parse_args()
    problem = sandbox_status()
    if problem is not None:
        print(f"cpp_build: no sandbox here: {problem}", file=sys.stderr)
        return 2
    if not args.bot.is_dir():
        print(f"cpp_build: {args.bot} is not a folder", file=sys.stderr)
        return 2
    lines = sum(p.read_text(errors="replace").count("\n") for p in args.bot.rglob("*") if p.suffix in (".cpp", ".h"))
    with tempfile.TemporaryDirectory(prefix="cpp-build-bench-") as scratch:
        cold: list[float] = []
        for run in range(args.cold):
            started = time.perf_counter()
            built = sandboxed_cpp_build(args.bot, Path(scratch) / f"cold{run}")
            cold.append(time.perf_counter() - started)
            if built.executable is None:
                print(f"cpp_build: the build failed: {built.reason}", file=sys.stderr)
                return 1
        cached: list[float] = []
        for _ in range(args.cached):
            started = time.perf_counter()
            built = sandboxed_cpp_build(args.bot, Path(scratch) / "cold0")
            cached.append(time.perf_counter() - started)
            assert built.cached
    cold_s, cached_ms = statistics.median(cold), statistics.median(cached) * 1000
    print(f"bot: {args.bot} ({lines} lines of .cpp/.h)")
    print(f"cold build:   median {cold_s:.2f} s of {len(cold)} (max {max(cold):.2f} s)   target <= {TARGET_COLD_S:g} s"
          f"   {'ok' if cold_s <= TARGET_COLD_S else 'MISSED'}")
    print(f"cached build: median {cached_ms:.1f} ms of {len(cached)} (max {max(cached) * 1000:.1f} ms)   "
          f"target <= {TARGET_CACHED_MS:g} ms   {'ok' if cached_ms <= TARGET_CACHED_MS else 'MISSED'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

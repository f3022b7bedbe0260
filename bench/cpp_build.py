"""The C++ build of a hand-in in the sandbox (``server.sandbox.cppbuild``): cold builds and cached ones.

A benchmark, not a test. Run from the repository root (as root or not; bubblewrap, g++ and
nlohmann-json3-dev installed)::

    .venv/bin/python bench/cpp_build.py                 # the handout bot and examples/cpp: 3 cold builds each, 20 cached
    .venv/bin/python bench/cpp_build.py --cold 5 --cached 100 --bot path/to/bot-folder

Three figures a bot:

* first build: an empty cache, as on a new server or after the arena's C++ files or g++ changed:
  bubblewrap and ``python -m client.cppbuild`` twice, once compiling the arena's own objects
  (``QuoridorUtils.cpp`` and its ``main`` with nlohmann::json), once the bot's files and the link;
* cold build: a bot not built before, the arena's objects built already (every new hand-in): the bot's
  files compiled and linked with them (a copy of the bot with one changed comment a run);
* cached build: the same files again: they are hashed and the executable found.

Targets (issue 32): cold <= ``TARGET_COLD_S``, cached <= ``TARGET_CACHED_MS``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server.sandbox.cppbuild import compiler_version, sandboxed_cpp_build  # noqa: E402
from server.sandbox.status import sandbox_status  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
BOTS = (ROOT / "tests" / "client" / "cpp" / "handout_bot", ROOT / "examples" / "cpp")
TARGET_COLD_S = 10.0
TARGET_CACHED_MS = 50.0


def changed_copy(bot: Path, where: Path, run: int) -> Path:
    """A copy of ``bot`` in ``where`` whose first ``.cpp`` file ends with a comment naming ``run``: a new build."""
    copy = where / f"{bot.name}-{run}"
    shutil.copytree(bot, copy)
    source = min(copy.rglob("*.cpp"))
    source.write_text(source.read_text(encoding="utf-8") + f"\n// bench run {run}\n", encoding="utf-8")
    return copy


def timed(bot: Path, cache: Path) -> float:
    """Seconds one ``sandboxed_cpp_build`` of ``bot`` into ``cache`` took; exits when it fails."""
    started = time.perf_counter()
    built = sandboxed_cpp_build(bot, cache)
    took = time.perf_counter() - started
    if built.executable is None:
        raise SystemExit(f"cpp_build: the build of {bot} failed: {built.reason}")
    return took


def line(label: str, times: list[float], target: float | None, unit: str) -> str:
    """One printed figure: the median and max of ``times`` (seconds) in ``unit``, against ``target``."""
    scale = 1000.0 if unit == "ms" else 1.0
    median, worst = statistics.median(times) * scale, max(times) * scale
    text = f"  {label:<14} median {median:7.{1 if unit == 'ms' else 2}f} {unit} of {len(times)} (max {worst:.2f} {unit})"
    if target is not None:
        text += f"   target <= {target:g} {unit}   {'ok' if median <= target else 'MISSED'}"
    return text


def main() -> int:
    """Time first, cold and cached builds of C++ bots in the sandbox; print them against the targets."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--bot", type=Path, action="append",
                        help="a bot's folder (repeatable; default: the handout bot and examples/cpp)")
    parser.add_argument("--cold", type=int, default=3, help="first and cold builds of each bot")
    parser.add_argument("--cached", type=int, default=20, help="cached lookups of each bot")
    args = parser.parse_args()
    problem = sandbox_status()
    if problem is not None:
        print(f"cpp_build: no sandbox here: {problem}", file=sys.stderr)
        return 2
    bots = args.bot or list(BOTS)
    for bot in bots:
        if not bot.is_dir():
            print(f"cpp_build: {bot} is not a folder", file=sys.stderr)
            return 2
    print(f"{compiler_version()}; load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory(prefix="cpp-build-bench-") as scratch_dir:
        scratch = Path(scratch_dir)
        for bot in bots:
            lines = sum(p.read_text(errors="replace").count("\n") for p in bot.rglob("*") if p.suffix in (".cpp", ".h"))
            first = [timed(bot, scratch / f"{bot.name}-first{run}") for run in range(args.cold)]
            cache = scratch / f"{bot.name}-first0"                # holds the arena's objects now
            cold = [timed(changed_copy(bot, scratch, run), cache) for run in range(args.cold)]
            cached = [timed(bot, cache) for _ in range(args.cached)]
            print(f"{bot} ({lines} lines of .cpp/.h)")
            print(line("first build", first, None, "s") + "   (the arena's objects too)")
            print(line("cold build", cold, TARGET_COLD_S, "s"))
            print(line("cached build", cached, TARGET_CACHED_MS, "ms"))
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

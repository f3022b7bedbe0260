"""``quoridor-worker``: play games of handed-in bots for a server, on this machine (``--queue redis://HOST:PORT/N``)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import shutil
import sys
import time
from pathlib import Path

__all__ = ["build_parser", "main"]

EXIT_USAGE = 2
_STALE_GAMES_S = 24 * 3600


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``quoridor-worker``."""
    from server.sandbox.buildcache import DEFAULT_KEEP
    p = argparse.ArgumentParser(
        prog="quoridor-worker",
        description="Play games of handed-in bots for a quoridor-server started with --queue URL. Start any number, "
                    "on any machine that reaches the engine: each takes a pairing, fetches both bots by content hash, "
                    "plays its games in the bubblewrap sandbox with the server's own referee, streams every step to "
                    "the server's spectators and answers with the logs and results. Ctrl-C (or SIGTERM) hands the "
                    "pairing in progress back to the queue.",
        epilog="example: quoridor-worker --queue redis://arena.example.org:6379/0 -c 3 "
               "(docs/queue.md: what happens when a worker, the engine or the server dies)")
    p.add_argument("--queue", metavar="URL",
                   help="the job engine, as the server's --queue: redis://HOST:PORT/N (rediss:// for TLS; a password "
                        "as redis://:PASSWORD@HOST:PORT/N); required unless --self-test")
    p.add_argument("--self-test", action="store_true", dest="self_test",
                   help="check this machine's sandbox and exit: hostile probes (network, the host's files, a fork "
                        "bomb, threads between turns, ptrace, user namespaces, the environment, /proc/1/cmdline) "
                        "play one short game in it, a line each says contained or NOT contained; exit code 0 only "
                        "when all are contained (run it on every new worker machine before it plays)")
    p.add_argument("-c", "--concurrency", type=int, default=1, metavar="N",
                   help="pairings this process plays at once (default 1; each runs two bot processes, so about one "
                        "per core, or start one worker process per core)")
    p.add_argument("--cache", type=Path, default=Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
                   / "quoridor-worker", metavar="DIR",
                   help="where fetched bots (checked against their content hash), their C++ builds and games in "
                        "progress are kept (default ~/.cache/quoridor-worker)")
    p.add_argument("--cpp-builds", type=Path, dest="cpp_builds", metavar="DIR",
                   help="where the C++ builds of the bots it plays are cached, by the hash of their files and the "
                        "compiler's version (default CACHE/cpp-builds)")
    p.add_argument("--cpp-builds-keep", type=int, default=DEFAULT_KEEP, dest="cpp_builds_keep", metavar="N",
                   help=f"C++ builds the cache keeps, the most recently used (about 240 KB each; default "
                        f"{DEFAULT_KEEP}): older ones are removed after a new build, never one a bot runs")
    p.add_argument("--sweep", type=int, default=5, metavar="S",
                   help="seconds between two looks for pairings of workers that died (default 5)")
    p.add_argument("--name", metavar="NAME", help="this worker's name in logs and answers (default HOST-PID)")
    p.add_argument("--unsafe-no-sandbox", action="store_true", dest="unsafe",
                   help="run handed-in bots WITHOUT bubblewrap, under rlimits only (they can reach the network and "
                        "read what this user can): only on a machine of no value")
    p.add_argument("--analysis-kit", dest="analysis_kit", default="server.analysis.kit", help=argparse.SUPPRESS)
    p.add_argument("-v", "--verbose", action="store_true", help="also log the job engine's own lines (saq)")
    return p


def _clear_stale_games(cache: Path) -> None:
    """Remove game folders that workers killed long ago left behind."""
    games = cache / "games"
    if not games.is_dir():
        return
    for folder in games.glob("pairing-*"):
        try:
            if time.time() - folder.stat().st_mtime > _STALE_GAMES_S:
                shutil.rmtree(folder, ignore_errors=True)
        except OSError:
            pass


def main(argv: list[str] | None = None) -> int:
    """Run a worker until Ctrl-C or SIGTERM, or its sandbox's self-test; the exit code (1: a self-test probe was not
    contained, 2: bad arguments, 3: refused by the server's protocol, 4: no sandbox, 5: the job engine is not
    installed)."""
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s",
                        stream=sys.stderr)
    logging.getLogger("saq").setLevel(logging.INFO if args.verbose else logging.WARNING)
    if args.self_test:
        from server.sandbox.limits import SandboxLimits
        from server.sandbox.selftest import self_test_main
        return self_test_main(SandboxLimits(unsafe=args.unsafe), program="quoridor-worker")
    if args.queue is None:
        print("quoridor-worker: --queue URL is required (or --self-test to check this machine's sandbox)",
              file=sys.stderr)
        return EXIT_USAGE
    if args.concurrency < 1 or args.sweep < 1 or args.cpp_builds_keep < 1:
        print("quoridor-worker: -c, --sweep and --cpp-builds-keep must be at least 1", file=sys.stderr)
        return EXIT_USAGE
    try:
        from server.queue.engine import EngineUrlError, check_url
        from server.queue.worker import GameWorker, WorkerSettings, default_name
    except ImportError as exc:
        print(f"quoridor-worker: the job engine's client is not installed ({exc}); "
              "pip install 'quoridor-arena[queue]'", file=sys.stderr)
        return 5
    try:
        check_url(args.queue)
    except EngineUrlError as exc:
        print(f"quoridor-worker: {exc}", file=sys.stderr)
        return EXIT_USAGE
    try:
        args.cache.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        print(f"quoridor-worker: cannot use --cache {args.cache}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE
    _clear_stale_games(args.cache)
    settings = WorkerSettings(url=args.queue, cache=args.cache.resolve(), concurrency=args.concurrency,
                              sweep_s=args.sweep, unsafe=args.unsafe, name=args.name or default_name(),
                              cpp_builds=None if args.cpp_builds is None else args.cpp_builds.resolve(),
                              cpp_builds_keep=args.cpp_builds_keep, analysis_kit=args.analysis_kit)
    try:
        return asyncio.run(GameWorker(settings).run())
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())

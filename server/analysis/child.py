"""The analysis process: one per server, at the lowest CPU priority, analysing one game at a time.

``python -m server.analysis.child --kit MODULE [--nodes N]`` reads one request a line on its standard input
and answers each with one line of JSON on its standard output:

* ``{"op": "analyse", "log": PATH}``: the log's analysis is stored beside it (``server.analysis.store``)
  unless a current one is there already: ``{"ok": true, "done": "analysed" | "current"}``; a log that is gone
  (a forfeited game has none) ``{"ok": false, "missing": true, ...}``; any other failure ``{"ok": false,
  "error": "one line"}``.
* ``{"op": "scan", "root": PATH, "limit": N}``: ``{"ok": true, "stale": [PATH, ...]}``, the newest finished
  logs there with no current analysis (``store.stale_logs``), oldest first.

It lowers its own priority first (``lowest_priority``: nice 19, and ``SCHED_IDLE`` where the system has it, so
it runs only on a core nothing else wants), and it never outlives the server: the server ends it with SIGTERM
(a file being written is removed), the end of its input (a server that died) ends it between games, and a server
that died during a game is noticed after the ply being analysed.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import IO, Any

from shared.gamelog import LogFormatError

from server.analysis.store import read_log_bytes, stale_logs, store, stored

__all__ = ["lowest_priority", "serve", "main"]


def lowest_priority() -> list[str]:
    """Lower this process's CPU priority as far as it goes: nice 19, and ``SCHED_IDLE`` where the system has it.

    Returns what was set (``["nice 19", "SCHED_IDLE"]``); what the system refuses is left out.
    """
    done = []
    try:
        os.setpriority(os.PRIO_PROCESS, 0, 19)
        done.append("nice 19")
    except (AttributeError, OSError):
        pass
    idle = getattr(os, "SCHED_IDLE", None)
    if idle is not None:
        try:
            os.sched_setscheduler(0, idle, os.sched_param(0))
            done.append("SCHED_IDLE")
        except OSError:
            pass
    return done


def _orphan_check(parent: int | None) -> Callable[[int, int], None] | None:
    """A progress callback that ends this process at once when its parent ``parent`` (the server) is gone; None
    when there is no parent to watch."""
    if parent is None:
        return None

    def progress(done: int, total: int) -> None:
        if os.getppid() != parent:
            os._exit(0)
    return progress


def _analyse(kit: ModuleType, log: Path, nodes: int | None, parent: int | None) -> dict[str, Any]:
    try:
        data = read_log_bytes(log)
    except FileNotFoundError:
        return {"ok": False, "missing": True, "error": f"{log}: no such log"}
    key = kit.analysis_key(data)
    if stored(log, key, nodes) is not None:
        return {"ok": True, "done": "current"}
    try:
        analysis = kit.analyse(data, log.name, nodes, _orphan_check(parent))
    except LogFormatError as exc:
        return {"ok": False, "error": str(exc)}
    store(log, analysis, key)
    return {"ok": True, "done": "analysed"}


def answer(kit: ModuleType, request: dict[str, Any], nodes: int | None = None,
           parent: int | None = None) -> dict[str, Any]:
    """The answer to one request (see the module doc); a failure is one line of ``error``. Given ``parent``, the
    process ends at once if that process (its server) is gone while it analyses."""
    try:
        if request.get("op") == "analyse":
            return _analyse(kit, Path(request["log"]), nodes, parent)
        if request.get("op") == "scan":
            stale = stale_logs(Path(request["root"]), kit.analysis_key, int(request["limit"]), nodes)
            return {"ok": True, "stale": [str(path) for path in stale]}
        return {"ok": False, "error": f"unknown request {request.get('op')!r}"}
    except OSError as exc:
        return {"ok": False, "error": f"{exc.filename or ''}: {exc.strerror or exc}".lstrip(": ")}
    except Exception as exc:        # noqa: BLE001 - the engine failed on one game: said, and the next one goes on
        return {"ok": False, "error": f"the analysis failed: {type(exc).__name__}: {exc}"}


def serve(kit: ModuleType, nodes: int | None, source: IO[str], sink: IO[str], parent: int) -> None:
    """Answer each request line of ``source`` on ``sink`` until ``source`` ends."""
    for line in source:
        try:
            request = json.loads(line)
        except ValueError:
            request = {"op": None}
        sink.write(json.dumps(answer(kit, request, nodes, parent)) + "\n")
        sink.flush()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the analysis process (started by ``server.analysis.process.AnalysisProcess``, not by hand)."""
    parser = argparse.ArgumentParser(prog="python -m server.analysis.child",
                                     description="the server's analysis process: JSON requests on stdin")
    parser.add_argument("--kit", required=True, help="the module of analysis_key and analyse")
    parser.add_argument("--nodes", type=int, help="nodes a position (default: the engine's)")
    args = parser.parse_args(argv)
    parent = os.getppid()
    # the server ends it with SIGTERM: exit through Python, so that a file being written is removed, not left
    signal.signal(signal.SIGTERM, lambda number, frame: sys.exit(0))
    lowest_priority()
    try:
        serve(importlib.import_module(args.kit), args.nodes, sys.stdin, sys.stdout, parent)
    except (KeyboardInterrupt, BrokenPipeError, SystemExit):     # Ctrl-C reaches the server's group; it says it
        pass
    finally:
        # Nothing is written past serving: a SIGTERM that comes while the interpreter shuts down just ends it (raised
        # as SystemExit there, Python printed 'Exception ignored ... SystemExit: 0' on the organiser's terminal).
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
    return 0


if __name__ == "__main__":
    sys.exit(main())

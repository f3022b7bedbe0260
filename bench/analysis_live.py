"""Live games' added delay with the server's background analysis running vs without, in one run. A benchmark.

Run from the repository root::

    .venv/bin/python bench/analysis_live.py            # 3 runs of each, interleaved (about 3 minutes)
    .venv/bin/python bench/analysis_live.py --quick    # 1 run of each, shorter games (about a minute)

Each run is a run of ``bench/server_load.py``'s fairness section (``load_run.run_once``: the real server
in its own process, ``bench/load_launcher.py``, and the scripted load clients in another): M games at once,
the bots think ``--think`` ms a step, the added delay of each step is the thinking time the server charged
minus the client's own. The runs alternate between ``--analysis off`` and ``--analysis local``. So that the
analysis works during the live games (not only after them, when every game of the round has ended), each
run's data directory gets a backlog first: ``--backlog`` finished game logs between the built-in bots,
played once by the local match (``client.match.play_match``) and copied under distinct game ids, each asked
for at ``GET /analysis/backlog/NAME.json`` as a page would, before the bots connect. With the analysis on,
the analysis process (nice 19, SCHED_IDLE) works on them for the whole run; the figure printed is the
difference of the added delay's p99 (all steps of the runs of each kind pooled), target within +2 ms, and
how many analyses the runs wrote (proof that the analysis ran).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path

from load_report import OTHER_LOAD_WARNING, diagnostics, mark, row        # bench/, beside this script
from load_run import BENCH, Scenario, RunResult, percentile, run_once

from client.match import play_match
from shared.gamelog import format_log, read_log_data
from shared.referee import RefereeSettings
from shared.quoridor import find_ruleset

TARGET_MS = 2.0
#: The pairings the backlog's games are played between (varied games of varied lengths).
PAIRINGS = (("runner", "blocker"), ("defender", "runner"), ("blocker", "defender"), ("strong", "runner"))


def backlog_logs(folder: Path, count: int) -> list[Path]:
    """``count`` finished logs in ``folder``: games between the built-in bots, copied under distinct game ids (a
    log's analysis is keyed by its bytes, so each copy is analysed on its own)."""
    played = folder / "played"
    played.mkdir(parents=True)
    settings = RefereeSettings(find_ruleset("course"), None)
    for pairing in PAIRINGS:
        play_match(pairing, 2, settings, log_dir=played, say=lambda *_: None)
    sources = sorted(played.glob("*.csv"))
    logs = []
    for number in range(count):
        log = read_log_data(sources[number % len(sources)].read_bytes(), "backlog")
        copy = dataclasses.replace(log, header=dataclasses.replace(log.header, game=f"backlog-{number}"))
        path = folder / f"backlog-{number:04d}.csv"
        path.write_text(format_log(copy), encoding="utf-8")
        logs.append(path)
    return logs


class WithBacklog(Scenario):
    """The fairness load, on a server whose data directory holds a backlog of logs its pages asked to analyse."""

    def __init__(self, analysis: str, logs: list[Path]) -> None:
        self.analysis = analysis
        self.logs = logs
        self.launcher_args = ("--analysis", analysis)

    def before_clients(self, port: int, work: Path, deadline: float) -> list:
        folder = work / "data" / "backlog"
        folder.mkdir(parents=True, exist_ok=True)
        for log in self.logs:
            (folder / log.name).write_bytes(log.read_bytes())
        statuses: dict[int, int] = {}
        for log in self.logs:                # asked for as the game page asks: queued ahead of any backlog
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/analysis/backlog/{log.name}.json",
                                            timeout=10) as answer:
                    status = answer.status
            except urllib.error.HTTPError as exc:
                status = exc.code
            statuses[status] = statuses.get(status, 0) + 1
        self.statuses = statuses
        return []

    def finish(self, result: RunResult, work: Path, backend: object, others: list) -> None:
        result.extra["analysed"] = len(list((work / "data").glob("*/*.analysis.json")))
        result.extra["asked"] = self.statuses


def main(argv: Sequence[str] | None = None) -> int:
    """Run the comparison and print the figure; exit status 0 when the target is met."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="1 run of each, 60-step games")
    parser.add_argument("--games", type=int, default=20, metavar="M", help="games at once (default 20)")
    parser.add_argument("--think", type=float, default=50.0, metavar="MS", help="bots' thinking per step (50)")
    parser.add_argument("--step-cap", type=int, default=100, metavar="N", help="steps per player a game (100)")
    parser.add_argument("--repeats", type=int, default=3, metavar="N", help="runs of each kind (default 3)")
    parser.add_argument("--backlog", type=int, default=100, metavar="N", help="logs waiting for analysis (100)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folders")
    args = parser.parse_args(argv)
    if args.quick:
        args.repeats, args.step_cap = 1, 30
    # what run_once reads of server_load.py's options
    args.launcher, args.profile, args.client_procs, args.compression, args.leave_after_game = (
        BENCH / "load_launcher.py", None, 1, "deflate", False)
    think_s = args.think / 1000
    with tempfile.TemporaryDirectory(prefix="analysis_live-") as scratch:
        started = time.monotonic()
        logs = backlog_logs(Path(scratch), args.backlog)
        print(f"backlog: {len(logs)} logs ({time.monotonic() - started:.1f} s to play); M = {args.games} games, "
              f"bots think {args.think:.0f} ms, step cap {args.step_cap}, {args.repeats} run(s) of each")
        runs: dict[str, list[RunResult]] = {"off": [], "local": []}
        for repeat in range(args.repeats):
            for analysis in ("off", "local"):
                result = run_once("server", args.games, args.step_cap, think_s, args, f"{analysis}-{repeat}",
                                  WithBacklog(analysis, logs))
                runs[analysis].append(result)
                added = result.added_all_ms
                print(f"  run {repeat + 1}, analysis {analysis:>5}: added delay p50 / p99 "
                      f"{percentile(added, 50):.2f} / {percentile(added, 99):.2f} ms (n={len(added):,}), "
                      f"analyses written {result.extra.get('analysed', '?')}, pages' asks {result.extra.get('asked')}, "
                      f"other CPU {result.other_cpu:.2f}")
                if not result.ok:
                    diagnostics(result, "    ")
    pooled = {kind: [ms for r in results for ms in r.added_all_ms] for kind, results in runs.items()}
    p99 = {kind: percentile(values, 99) for kind, values in pooled.items()}
    difference = p99["local"] - p99["off"]
    ok = all(r.ok for results in runs.values() for r in results) and difference <= TARGET_MS
    analysed = sum(r.extra.get("analysed", 0) for r in runs["local"])
    busy = max((r.other_cpu for r in runs["off"]), default=float("nan"))
    print()
    for kind in ("off", "local"):
        row(f"added delay p50 / p99, analysis {kind} (pooled, n={len(pooled[kind]):,})",
            f"{percentile(pooled[kind], 50):.2f} / {p99[kind]:.2f} ms")
    row("difference (local - off)", f"{difference:+.2f} ms", f"<= +{TARGET_MS:.0f} ms", mark(ok))
    row("analyses written during the local runs", f"{analysed}")
    row("other processes' CPU in the runs without the analysis (2.0 = two cores)", f"{busy:.2f}")
    if not busy <= OTHER_LOAD_WARNING:
        print("    !! the machine was busy with other work: the figures are disturbed; run again on a quiet machine")
    if analysed == 0:
        print("    !! no analysis was written: the analysis did not run (the figure says nothing)")
        ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

"""``quoridor-analyse FOLDER -j N``: analyse every game log in a folder (and the folders in it), N at a time.

Each log (a file ``shared.gamelog.is_log_name`` accepts; unfinished ``.csv.part`` logs are skipped) is analysed by
the engine (``shared.analysis``) in one of N worker processes, under a progress bar; its analysis is written beside
it as ``<log>.analysis.json`` (``client.replay.analysed``: the server keeps its games' analyses so too). A log whose
analysis there is up to date (same log, same engine, same budget) is not analysed again. A file that is no game log
gets one line and the run goes on. At the end, a table per player: games, mean accuracy, blunders, mistakes,
inaccuracies and violations.

Exit codes: 0 every log analysed (or up to date), 1 some could not be (each said in one line), 2 a usage error,
130 interrupted (what was written stays).
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from shared.analysis import DEFAULT_NODES, GameAnalysis, analysis_key
from shared.gamelog import PART_SUFFIX, LogFormatError, is_log_name

from .replay.analysed import analyse_log_file, analysis_path, read_stored
from .replay.sources import read_log_bytes

__all__ = ["main", "build_parser", "FileAnalysis", "find_logs", "analyse_files", "summary_table"]

_PROG = "quoridor-analyse"


@dataclass(frozen=True)
class FileAnalysis:
    """One log's outcome: its analysis (``reused`` when it was up to date beside the log), or why there is none."""

    path: Path
    analysis: GameAnalysis | None = None
    error: str | None = None
    reused: bool = False


def find_logs(folder: Path) -> tuple[list[Path], int]:
    """The finished game logs under ``folder`` (hidden files and folders left out), in name order, and how many
    unfinished ones (``.csv.part``) were left."""
    logs, unfinished = [], 0
    folder = Path(folder)
    for path in sorted(folder.rglob("*")):
        hidden = any(part.startswith(".") for part in path.relative_to(folder).parts)
        if hidden or not is_log_name(path.name) or not path.is_file():
            continue
        if path.name.lower().endswith(PART_SUFFIX):
            unfinished += 1
        else:
            logs.append(path)
    return logs, unfinished


def _up_to_date(path: Path, nodes: int) -> FileAnalysis | None:
    """The analysis kept beside ``path`` when it is up to date; None when the log must be analysed."""
    try:
        stored = read_stored(path, analysis_key(read_log_bytes(path)), nodes)
    except LogFormatError:
        return None           # the worker says why, in its one line
    return None if stored is None else FileAnalysis(path, stored, reused=True)


def _analyse_one(path: Path, nodes: int) -> FileAnalysis:
    """Analyse one log and keep the analysis beside it (in a worker process); never raises for a bad log."""
    try:
        done = analyse_log_file(path, nodes=nodes, reuse=False, store=True)
    except LogFormatError as exc:
        return FileAnalysis(path, error=str(exc))
    except OSError as exc:
        return FileAnalysis(path, error=f"{path}: cannot write its analysis: {exc.strerror or exc}")
    except Exception as exc:  # noqa: BLE001 - one log the engine cannot take must not stop the run
        return FileAnalysis(path, error=f"{path}: cannot be analysed: {type(exc).__name__}: {exc}")
    return FileAnalysis(path, done.analysis)


def analyse_files(paths: Sequence[Path], *, jobs: int = 1, nodes: int = DEFAULT_NODES, console: Console | None = None,
                  on_error: Callable[[str], None] | None = None) -> list[FileAnalysis]:
    """Analyse ``paths`` (those not up to date), ``jobs`` at a time in worker processes (1: in this process), under
    a progress bar on ``console``; each bad log is told to ``on_error`` as it comes. Results in ``paths``' order."""
    results: dict[Path, FileAnalysis] = {}
    todo = []
    for path in paths:
        kept = _up_to_date(path, nodes)
        if kept is not None:
            results[path] = kept
        else:
            todo.append(path)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True, disable=console is None) as bar:
        task = bar.add_task(escape(f"analysing {len(todo)} of {len(paths)} games"), total=len(todo))

        def take(result: FileAnalysis) -> None:
            results[result.path] = result
            if result.error is not None and on_error is not None:
                on_error(result.error)
            bar.advance(task)

        if jobs <= 1 or len(todo) <= 1:
            for path in todo:
                take(_analyse_one(path, nodes))
        else:
            # "spawn": fresh interpreters, never a fork of this process and its threads (the progress bar's).
            with ProcessPoolExecutor(min(jobs, len(todo)), mp_context=multiprocessing.get_context("spawn")) as pool:
                pending: set[Future[FileAnalysis]] = {pool.submit(_analyse_one, path, nodes) for path in todo}
                try:
                    while pending:
                        done, pending = wait(pending, return_when=FIRST_COMPLETED)
                        for future in done:
                            take(future.result())
                except BaseException:
                    for future in pending:
                        future.cancel()
                    raise
    return [results[path] for path in paths if path in results]


@dataclass
class _PlayerRow:
    games: int = 0
    accuracy: float = 0.0
    blunders: int = 0
    mistakes: int = 0
    inaccuracies: int = 0
    violations: int = 0


def summary_table(results: Sequence[FileAnalysis], title: str = "") -> Table:
    """Per player over the analysed games: games, mean accuracy, blunders, mistakes, inaccuracies, violations; the
    least accurate first."""
    rows: dict[str, _PlayerRow] = {}
    for result in results:
        if result.analysis is None:
            continue
        for player in result.analysis.players:
            row = rows.setdefault(player.name, _PlayerRow())
            row.games += 1
            row.accuracy += player.accuracy
            row.blunders += player.counts.get("blunder", 0)
            row.mistakes += player.counts.get("mistake", 0)
            row.inaccuracies += player.counts.get("inaccuracy", 0)
            row.violations += player.counts.get("violation", 0)
    table = Table(title=title or None, title_justify="left", box=box.SIMPLE_HEAD, show_edge=False,
                  collapse_padding=True)
    for column in ("player", "games", "accuracy", "blunders", "mistakes", "inaccuracies", "violations"):
        table.add_column(column, justify="left" if column == "player" else "right", no_wrap=column == "player")
    for name, row in sorted(rows.items(), key=lambda item: (item[1].accuracy / item[1].games, item[0])):
        table.add_row(name, str(row.games), f"{row.accuracy / row.games:.1f}%", str(row.blunders), str(row.mistakes),
                      str(row.inaccuracies), str(row.violations))
    return table


def build_parser() -> argparse.ArgumentParser:
    """The argument parser."""
    p = argparse.ArgumentParser(
        prog=_PROG,
        description="Analyse every game log in a folder (and the folders in it) with the engine: each step's winning "
                    "chance, label (inaccuracy, mistake, blunder) and the best step, written beside each log as "
                    "<log>.analysis.json (a log whose analysis is up to date is skipped); then each player's accuracy "
                    "and blunders in a table. Open one game's analysis with: quoridor-replay GAME.csv --analyse",
        epilog="examples: quoridor-analyse replays/tournament-20240501-120000/ -j 2   |   "
               "quoridor-analyse replays/ -j 4 --nodes 2000")
    p.add_argument("folder", type=Path, help="a folder of game logs (.csv), searched with the folders in it")
    p.add_argument("-j", "--jobs", type=int, default=1, metavar="N",
                   help="games analysed at once, each in its own process (default 1)")
    p.add_argument("--nodes", type=int, default=DEFAULT_NODES, metavar="N",
                   help=f"the engine's budget in nodes per position (default {DEFAULT_NODES}: the same result on "
                        "every machine)")
    p.add_argument("--force", action="store_true", help="analyse every log again, even those analysed already")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; the exit code as the module doc says."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.jobs < 1 or args.nodes < 1:
        parser.error("--jobs and --nodes must be 1 or more")
    if not args.folder.is_dir():
        parser.error(f"{args.folder} is not a folder" + (" (give the folder of a log: quoridor-replay "
                                                          f"{args.folder} --analyse analyses one game)"
                                                          if args.folder.is_file() else ""))
    console = Console(highlight=False)
    err = Console(stderr=True, highlight=False)
    logs, unfinished = find_logs(args.folder)
    if not logs:
        console.print(Text(f"no game logs in {args.folder}"))
        return 0
    if args.force:
        for path in logs:
            analysis_path(path).unlink(missing_ok=True)

    def bad(message: str) -> None:
        err.print(Text(f"{_PROG}: {message}"), soft_wrap=True)

    try:
        results = analyse_files(logs, jobs=args.jobs, nodes=args.nodes, console=err, on_error=bad)
    except KeyboardInterrupt:
        err.print(Text("interrupted: the analyses written so far stay beside their logs"))
        return 130
    done = [r for r in results if r.analysis is not None]
    reused = sum(r.reused for r in done)
    failed = len(results) - len(done)
    console.print(summary_table(results, f"{len(done)} games analysed in {args.folder}"))
    line = f"{len(done) - reused} analysed now, {reused} up to date already"
    if failed:
        line += f", {failed} could not be (said above)"
    if unfinished:
        line += f", {unfinished} unfinished (.csv.part) skipped"
    console.print(Text(line + f"; each beside its log as <log>.analysis.json (engine budget {args.nodes:,} nodes)"),
                  soft_wrap=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""``quoridor-server --ladder --report BOT``: a bot's ladder report from ``ladder.db``, printed with rich.

The CPU time of each step of a bot the server hosts is read from the games' logs (their ``cpu_ms``
rows, ``DATA_DIR/ladder/GAME_..._vs_....csv``) and shown beside its wall thinking time.

Where the version stands (issue 35): its rating on the published table placed among the built-in bots' reference
ratings (``shared.ladder.reference``): "beats defender (+1,785), not yet strong (+2,389)".

The analysis (issue 33): each version's accuracy and the worst steps of the games it lost, each with its log, ply
and page (``/game?game=ID&step=N``), from the analyses the server keeps beside the logs (``server.analysis.store``:
its background analysis makes them as games finish). The report reads those only, since it is printed often;
``--analyse`` also analyses the games that have none yet (about a second a game) and keeps them so.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any
from urllib.parse import quote

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.text import Text

from shared.gamelog import LogFormatError, read_log_data
from shared.ladder import BotReport, GameFact, PublishedRow, build_report
from shared.ladder.reference import standing
from shared.ladder.report import cpu_summary
from shared.tournament.bot_analysis import AnalysedGame, BotAnalysis, bot_analyses

from server.analysis.store import read_log_bytes, store, stored
from server.ladder.store import LadderStore, Track
from server.ladder.view import render_report, render_table
from server.logs.logfile import read_log
from server.settings import ServerSettings

__all__ = ["print_report", "report_json", "standing_json", "on_random_scale", "with_cpu_times", "analysed_games", "analysis_lines"]


def _logs_of(facts: Sequence[GameFact], folder: Path) -> dict[str, Path]:
    """The log in ``folder`` of each game of ``facts`` that has one, by game id (the name up to its first ``_``)."""
    wanted = {fact.game_id for fact in facts}
    logs: dict[str, Path] = {}
    if folder.is_dir():
        for path in folder.iterdir():
            game = path.name.split("_", 1)[0]
            if game in wanted and path.suffix == ".csv":
                logs[game] = path
    return logs


def with_cpu_times(facts: Sequence[GameFact], folder: Path) -> list[GameFact]:
    """``facts`` with each seat's CPU milliseconds per step from the games' logs in ``folder`` (where they have them).

    A log is found by its game id (the file name up to its first ``_``); a log that is missing or
    unreadable leaves its game without CPU times.
    """
    logs = _logs_of(facts, folder)
    result = []
    for fact in facts:
        cpu = _cpu_of(logs[fact.game_id]) if fact.game_id in logs else None
        result.append(fact if cpu is None else dataclasses.replace(fact, cpu_ms=cpu))
    return result


def _cpu_of(path: Path) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """Each seat's measured CPU milliseconds per step in the log at ``path`` (``None`` when it has none)."""
    try:
        log = read_log(path, path.name)
    except LogFormatError:
        return None
    if log.outcome is None or log.outcome.cpu_ms is None:
        return None
    cpu = log.outcome.cpu_ms
    return (tuple(ms for ms in cpu[0] if ms is not None), tuple(ms for ms in cpu[1] if ms is not None))


def analysed_games(facts: Sequence[GameFact], folder: Path, *, analyse: bool = False, nodes: int | None = None,
                   progress: Callable[[int, int], None] | None = None) -> tuple[list[AnalysedGame], int]:
    """The analysed games of ``facts`` (their logs in ``folder``) and how many have no analysis: the analyses kept
    beside the logs when current (of ``nodes`` per position, when given); with ``analyse``, the others are analysed
    now and kept so (``progress(done, total)`` after each game). A missing or unreadable log has no analysis."""
    from shared.analysis import DEFAULT_NODES, GameAnalysis, analyse_game, analysis_key   # the engine: only here

    logs = _logs_of(facts, folder)
    games, missing = [], 0
    for done, fact in enumerate(facts, 1):
        path = logs.get(fact.game_id)
        analysis = None
        if path is not None:
            try:
                data = read_log_bytes(path)
                key = analysis_key(data)
                kept = stored(path, key, nodes)
                analysis = GameAnalysis.from_json(kept) if kept is not None else None
                if analysis is None and analyse:
                    analysis = analyse_game(read_log_data(data, path.name), nodes=nodes or DEFAULT_NODES)
                    store(path, analysis.to_json(), key)
            except (OSError, ValueError):       # LogFormatError is a ValueError: that game goes unanalysed
                analysis = None
        if progress is not None:
            progress(done, len(facts))
        if analysis is None:
            missing += 1
            continue
        games.append(AnalysedGame(fact.game_id, (fact.white, fact.black), fact.winner, analysis, log=str(path),
                                  page=f"/game?game={quote(fact.game_id)}"))
    return games, missing


def analysis_lines(found: BotAnalysis | None, missing: int) -> list[str]:
    """The analysis part of a version's report: its accuracy and counts, then the worst steps of its lost games,
    each with its page and the ``quoridor-replay`` command that shows it; or how to have its games analysed."""
    hint = "quoridor-server --ladder --report BOT --analyse analyses them (about a second a game)"
    if found is None or not found.games:
        return [f"analysis: none of its games is analysed yet; {hint}"] if missing else []
    lines = [f"analysis of {found.games} games: accuracy {found.accuracy:.1f}%, blunders {found.counts['blunder']}, "
             f"mistakes {found.counts['mistake']}, inaccuracies {found.counts['inaccuracy']}"
             + (f" ({missing} games not analysed yet: {hint})" if missing else "")]
    if found.worst_lost:
        lines.append(f"its worst steps in the {found.lost} lost games analysed:")
    for step in found.worst_lost:
        best = f" (best {step.best})" if step.best and step.best != step.played else ""
        lines.append(f"  {step.game} step {step.ply}: {step.played or 'nothing'}{best}, {step.label}"
                     + (f": {step.reason}" if step.reason else "") + f"  → {step.page}"
                     + (f" · quoridor-replay {step.log} --analyse --step {step.ply}" if step.log else ""))
    return lines


def standing_json(row: PublishedRow | None, on_scale: bool) -> dict[str, Any]:
    """Where a version stands: its published rating and interval, and the line that places it among the reference
    bots, after the rating (``+1,480 [+1,390, +1,570]: beats blocker (+1,659)...``; ``row`` None: the version is not
    on the published table, which holds each bot's newest version only; ``on_scale``: the table is anchored on
    random, as the reference ratings are)."""
    if row is None:
        return {"rating": None, "low": None, "high": None,
                "text": "not on the published table (it rates each bot's newest version only)"}
    line = standing(row.rating, row.low, row.high, on_scale=on_scale)
    if row.rating is not None:
        interval = "" if row.low is None or row.high is None else f" [{row.low:+,.0f}, {row.high:+,.0f}]"
        line = f"{row.rating:+,.0f}{interval}: {line}"
    return {"rating": row.rating, "low": row.low, "high": row.high, "text": line}


def on_random_scale(tracks: Iterable[Track]) -> bool:
    """True when the published table of these (current) tracks is anchored on random = 0, the reference bots' scale."""
    return any(track.bot == "random" for track in tracks)


def report_json(track: Track, report: BotReport, published: PublishedRow | None = None,
                on_scale: bool = True) -> dict[str, Any]:
    """One version's report as ``--json`` writes it (and the ladder page reads it): the report, the version, the live
    openskill rating, and where it stands on the published table (``published``: its row there, if it has one;
    ``on_scale``: that table is anchored on random)."""
    skill = track.skill
    return report.to_json() | {"version": track.version,
                               "live": {"mu": skill.mu, "sigma": skill.sigma, "ordinal": skill.ordinal},
                               "standing": standing_json(published, on_scale)}


def print_report(settings: ServerSettings, bot: str, json_path: Path | None, console: Console, *,
                 analyse: bool = False) -> int:
    """Print the report of every version of ``bot`` (or of ``bot@version``, or the table for ``table``), with the
    analysis of its games (``analyse``: those not analysed yet are analysed now); 0."""
    path = settings.data_dir / "ladder.db"
    if not path.exists():
        raise ValueError(f"no ladder in {settings.data_dir} (no {path.name}); run quoridor-server --ladder first")
    store = LadderStore(path)
    try:
        if bot == "table":
            rows, _ = store.published()
            console.print(render_table(rows))
            if json_path is not None:
                json_path.write_text(json.dumps([asdict(row) for row in rows], indent=2) + "\n", encoding="utf-8")
            return 0
        tracks = [t for t in store.tracks() if bot in (t.bot, t.label, f"{t.bot}@{t.version}")]
        if not tracks:
            known = ", ".join(sorted({t.bot for t in store.tracks()})) or "none yet"
            raise ValueError(f"no bot {bot!r} on the ladder; bots: {known}")
        facts = store.facts([t.id for t in tracks])
        table, current = store.published()
    finally:
        store.close()
    published = {row.track: row for row in table}
    on_scale = on_random_scale(current.values())
    facts = with_cpu_times(facts, settings.data_dir / "ladder")
    limit = settings.effective_time_limit_ms
    reports = [build_report(t.label, facts, limit) for t in tracks]
    with Progress(TextColumn("analysing games"), BarColumn(), MofNCompleteColumn(), console=console, transient=True,
                  disable=not analyse) as bar:
        task = bar.add_task("analysing", total=len(facts))
        games, missing = analysed_games(facts, settings.data_dir / "ladder", analyse=analyse,
                                        nodes=settings.analysis_nodes,
                                        progress=lambda done, total: bar.update(task, completed=done))
    analyses = bot_analyses(games, [t.label for t in tracks])
    for track, report in zip(tracks, reports):
        console.print(render_report(report, limit))
        console.print(Text(f"where it stands: {standing_json(published.get(track.label), on_scale)['text']}"),
                      soft_wrap=True)
        for line in analysis_lines(analyses.get(track.label), missing):
            console.print(Text(line), soft_wrap=True)
        cpu = cpu_summary(report.timing)
        if cpu is not None:
            console.print(cpu)
        skill = track.skill
        console.print(f"live rating (openskill): mean {skill.mu:.2f}, uncertainty {skill.sigma:.2f}, "
                      f"ordinal {skill.ordinal:+.2f}\n")
    if json_path is not None:
        data = [report_json(t, r, published.get(t.label), on_scale) | {"analysis": analyses[t.label].to_json() | {"games_not_analysed": missing}}
                for t, r in zip(tracks, reports)]
        json_path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        console.print(f"wrote {json_path}")
    return 0

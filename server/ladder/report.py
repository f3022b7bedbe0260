"""``quoridor-server --ladder --report BOT``: a bot's ladder report from ``ladder.db``, printed with rich.

The CPU time of each step of a bot the server hosts is read from the games' logs (their ``cpu_ms``
rows, ``DATA_DIR/ladder/GAME_..._vs_....csv``) and shown beside its wall thinking time.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from rich.console import Console

from shared.gamelog import LogFormatError
from shared.ladder import BotReport, GameFact, build_report
from shared.ladder.report import cpu_summary

from server.ladder.store import LadderStore, Track
from server.ladder.view import render_report, render_table
from server.logs.logfile import read_log
from server.settings import ServerSettings

__all__ = ["print_report", "report_json", "with_cpu_times"]


def with_cpu_times(facts: Sequence[GameFact], folder: Path) -> list[GameFact]:
    """``facts`` with each seat's CPU milliseconds per step from the games' logs in ``folder`` (where they have them).

    A log is found by its game id (the file name up to its first ``_``); a log that is missing or
    unreadable leaves its game without CPU times.
    """
    wanted = {fact.game_id for fact in facts}
    logs: dict[str, Path] = {}
    if folder.is_dir():
        for path in folder.iterdir():
            game = path.name.split("_", 1)[0]
            if game in wanted and path.suffix == ".csv":
                logs[game] = path
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


def report_json(track: Track, report: BotReport) -> dict[str, Any]:
    """One version's report as ``--json`` writes it (and the ladder page reads it): the report, the version, the live
    openskill rating."""
    skill = track.skill
    return report.to_json() | {"version": track.version,
                               "live": {"mu": skill.mu, "sigma": skill.sigma, "ordinal": skill.ordinal}}


def print_report(settings: ServerSettings, bot: str, json_path: Path | None, console: Console) -> int:
    """Print the report of every version of ``bot`` (or of ``bot@version``, or the table for ``table``); 0."""
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
    finally:
        store.close()
    facts = with_cpu_times(facts, settings.data_dir / "ladder")
    limit = settings.effective_time_limit_ms
    reports = [build_report(t.label, facts, limit) for t in tracks]
    for track, report in zip(tracks, reports):
        console.print(render_report(report, limit))
        cpu = cpu_summary(report.timing)
        if cpu is not None:
            console.print(cpu)
        skill = track.skill
        console.print(f"live rating (openskill): mean {skill.mu:.2f}, uncertainty {skill.sigma:.2f}, "
                      f"ordinal {skill.ordinal:+.2f}\n")
    if json_path is not None:
        data = [report_json(t, r) for t, r in zip(tracks, reports)]
        json_path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        console.print(f"wrote {json_path}")
    return 0

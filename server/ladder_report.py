"""``quoridor-server --ladder --report BOT``: a bot's ladder report from ``ladder.db``, printed with rich."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

from rich.console import Console

from shared.ladder import build_report, published_table

from .ladder_store import LadderStore
from .ladder_view import render_report, render_table
from .settings import ServerSettings

__all__ = ["print_report"]


def print_report(settings: ServerSettings, bot: str, json_path: Path | None, console: Console) -> int:
    """Print the report of every version of ``bot`` (or of ``bot@version``, or the table for ``table``); 0."""
    path = settings.data_dir / "ladder.db"
    if not path.exists():
        raise ValueError(f"no ladder in {settings.data_dir} (no {path.name}); run quoridor-server --ladder first")
    store = LadderStore(path)
    try:
        if bot == "table":
            current = store.current_tracks()
            labels = {t.id: t.label for t in current}
            games = [(labels[w], labels[b], p) for w, b, p in store.results_between(list(labels))] if labels else []
            anchor = next((t.label for t in current if t.bot == "random"), None)
            rows = published_table(list(labels.values()), games, anchor=anchor,
                                   samples=settings.ladder_bootstrap_samples, seed=len(games))
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
    limit = settings.effective_time_limit_ms
    reports = [build_report(t.label, facts, limit) for t in tracks]
    for track, report in zip(tracks, reports):
        console.print(render_report(report, limit))
        skill = track.skill
        console.print(f"live rating (openskill): mean {skill.mu:.2f}, uncertainty {skill.sigma:.2f}, "
                      f"ordinal {skill.ordinal:+.2f}\n")
    if json_path is not None:
        data = [r.to_json() | {"version": t.version, "live": {"mu": t.skill.mu, "sigma": t.skill.sigma,
                                                              "ordinal": t.skill.ordinal}}
                for t, r in zip(tracks, reports)]
        json_path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        console.print(f"wrote {json_path}")
    return 0

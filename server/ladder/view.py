"""Pure renderables for the practice ladder: a bot's report and the published table (rich, no I/O)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group
from rich.table import Table
from rich.text import Text

from shared.ladder import BotReport, PublishedRow
from shared.tournament import interval_text

__all__ = ["render_report", "render_table"]


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:,.0f}"


def _wld(counts: Sequence[int]) -> str:
    return "/".join(str(n) for n in counts)


def render_report(report: BotReport, time_limit_ms: int | None = None) -> Group:
    """One bot version's report: results by colour, rating history, head-to-head, timing and violations."""
    w0, w1 = report.by_colour
    total = [a + b for a, b in zip(w0, w1)]
    head = Text(f"{report.track}: {report.games} games, W/L/D {_wld(total)} "
                f"(moving first {_wld(w0)}, second {_wld(w1)})", style="bold")
    history = report.history
    rating = Text("rating (ordinal): " + ("-" if not history else
                  f"{history[-1]:+.2f} now, from {history[0]:+.2f}; best {max(history):+.2f}"))
    h2h = Table(title="head to head", title_justify="left")
    for column in ("opponent", "games", "W/L/D", "score"):
        h2h.add_column(column, justify="left" if column == "opponent" else "right")
    for row in report.head_to_head:
        h2h.add_row(row.opponent, str(row.games), f"{row.wins}/{row.losses}/{row.draws}",
                    f"{(row.wins + row.draws / 2) / row.games:.0%}" if row.games else "-")
    t = report.timing
    limit = "" if time_limit_ms is None else f" of {time_limit_ms:,} ms"
    timing = Text(f"thinking time over {t.steps} steps: median {_ms(t.median_ms)} ms, p95 {_ms(t.p95_ms)} ms, "
                  f"max {_ms(t.max_ms)} ms; {t.slow_steps} steps above 80%{limit}; {t.timeouts} timeouts")
    causes = ", ".join(f"{cause} {n}" for cause, n in t.violations.items()) or "none"
    endings = ", ".join(f"{reason} {n}" for reason, n in report.reasons.items()) or "-"
    return Group(head, rating, h2h, timing, Text(f"violations by cause: {causes}"), Text(f"games ended by: {endings}"))


def render_table(rows: Sequence[PublishedRow]) -> Table:
    """The published table: Bradley-Terry rating with its 95% interval, best first."""
    table = Table(title="practice ladder", title_justify="left")
    for column in ("#", "bot", "games", "score", "rating", "95% interval"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for rank, row in enumerate(rows, 1):
        rated = row.rating is not None
        table.add_row(str(rank), row.track, str(row.games), f"{row.score:g}",
                      f"{row.rating:+.0f}" if rated else "-",
                      interval_text(row.low, row.high))
    return table

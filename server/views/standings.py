"""Rendering of tournament standings: rich tables for the terminal, fixed-width text for logs."""

from __future__ import annotations

import math
from collections.abc import Sequence

from rich import box
from rich.table import Table
from rich.text import Text

from shared.tournament import Row, Standings, interval_text

__all__ = ["format_elo", "format_points", "render_standings", "render_crosstable", "standings_text", "crosstable_text",
           "rank_texts", "is_final_table", "TIE_NOTE"]

#: What a final's table says under its rows: a rank with ``=`` is shared (1 + the bots shown better, the same).
TIE_NOTE = ("= after a rank (2=): a shared rank; a final's rank is 1 + the bots shown better at 95% (the final ranks by "
            "rating; ratings with their 95% intervals)")

_HEADERS = ("#", "Player", "Pts", "Games", "W/L/D", "P0", "P1", "Elo", "Viol", "Time (s)")
# Only the player column reads left to right; numbers line up on the right.
_LEFT = {"Player"}


def format_points(points: float) -> str:
    """Points without a needless ``.0``: ``2``, ``1.5``."""
    return f"{points:g}"


def format_elo(elo: float | None, low: float | None = None, high: float | None = None) -> str:
    """``+191 [+110, +272]``: the rating and its 95% interval's ends (not symmetric: a ``±`` would hide the long
    side of a perfect score); ``+inf`` for an infinite one, ``-`` with no games; no interval when undefined or 0
    wide (the anchor)."""
    if elo is None:
        return "-"
    text = ("+inf" if elo > 0 else "-inf") if math.isinf(elo) else f"{elo:+.0f}"
    if low is not None and high is not None and high > low:
        text += f" {interval_text(low, high)}"
    return text


def rank_texts(rows: Sequence[Row]) -> list[str]:
    """Each row's rank as the tables print it: in a final (rows that say ``separated``), ``2=`` for a rank shared by
    neighbours not separated; else the number."""
    final = any(row.separated is not None for row in rows)
    texts = []
    for i, row in enumerate(rows):
        shared = final and ((i > 0 and rows[i - 1].rank == row.rank)
                            or (i + 1 < len(rows) and rows[i + 1].rank == row.rank))
        texts.append(f"{row.rank}=" if shared else str(row.rank))
    return texts


def is_final_table(rows: Sequence[Row]) -> bool:
    """True for a final's table (its rows say ``separated``): it is printed with ``TIE_NOTE`` under it."""
    return any(row.separated is not None for row in rows)


def _cells(row: Row, *, ascii_only: bool, rank: str | None = None) -> tuple[str, ...]:
    return (
        rank or str(row.rank), row.player, format_points(row.points), str(row.games),
        f"{row.wins}/{row.losses}/{row.draws}", "/".join(map(str, row.white)), "/".join(map(str, row.black)),
        format_elo(row.elo, row.elo_low, row.elo_high),
        str(row.violations), f"{row.thinking_ms / 1000:.1f}",
    )


def _elo_style(elo: float | None) -> str:
    if elo is None or elo == 0:
        return ""
    return "green" if elo > 0 else "red"


#: The columns of the compact table (a small terminal): no W/L/D per seat, and every row one line.
_COMPACT = ("#", "Player", "Pts", "Games", "W/L/D", "Elo", "Viol", "Time (s)")
#: Widths the compact table keeps whatever the names (``+147 [-64, +359]``); at most 76 columns in all.
_COMPACT_WIDTHS = {"Elo": 16}


def render_standings(rows: Sequence[Row], *, title: str | None = None, compact: bool = False) -> Table:
    """The standings as a rich table: rank, player, points, games, W/L/D (all, as player 0 and as player 1), Elo ± error,
    violations, time.

    ``compact``: for a small terminal, no borders, no per-seat W/L/D, exactly one line per row (a long
    name is cut with ``…``), so that a caller can count the lines it takes: one for the header, one per row.
    """
    headers = _COMPACT if compact else _HEADERS
    table = Table(title=title, header_style="bold", box=None if compact else box.HEAVY_HEAD,
                  show_edge=not compact, pad_edge=not compact,
                  caption=TIE_NOTE if is_final_table(rows) and not compact else None, caption_justify="left")
    for header in headers:
        if compact:     # a long name gives way, never the numbers (rich would squeeze every column alike)
            least, most = (6, 20) if header == "Player" else (_COMPACT_WIDTHS.get(header, len(header)), None)
        else:
            least, most = None, None
        table.add_column(header, justify="left" if header in _LEFT else "right",
                         style="bold" if header == "Pts" else None, no_wrap=compact or header == "Player",
                         min_width=least, max_width=most)
    for row, rank in zip(rows, rank_texts(rows)):
        cells: list[str | Text] = list(_cells(row, ascii_only=False, rank=rank))
        cells[_HEADERS.index("Elo")] = Text(str(cells[_HEADERS.index("Elo")]), style=_elo_style(row.elo))
        chosen = [cells[_HEADERS.index(header)] for header in headers]
        table.add_row(*chosen, style="bold" if row.rank == 1 and row.games else None)
    return table


def render_crosstable(standings: Standings) -> Table:
    """Points/games of each row player against each column player, columns numbered by row order."""
    rows = standings.rows()
    cross = standings.crosstable()
    table = Table(title="Crosstable", header_style="bold")
    table.add_column("#", justify="right")
    table.add_column("Player", no_wrap=True)
    for number in range(1, len(rows) + 1):
        table.add_column(str(number), justify="center")
    table.add_column("Pts", justify="right", style="bold")
    for row in rows:
        cells: list[str | Text] = [str(row.rank), row.player]
        for column in rows:
            if column.player == row.player:
                cells.append(Text("—", style="dim"))
                continue
            points, games = cross[row.player][column.player]
            cells.append(Text(f"{format_points(points)}/{games}") if games else Text(".", style="dim"))
        cells.append(format_points(row.points))
        table.add_row(*cells)
    return table


def crosstable_text(standings: Standings) -> str:
    """The crosstable as plain ASCII: row player's points/games against each numbered column player."""
    rows = standings.rows()
    cross = standings.crosstable()
    header = ("#", "Player", *(str(n) for n in range(1, len(rows) + 1)), "Pts")
    lines = [header]
    for row in rows:
        cells = []
        for column in rows:
            points, games = cross[row.player].get(column.player, (0.0, 0))
            cells.append("-" if column.player == row.player else f"{format_points(points)}/{games}" if games else ".")
        lines.append((str(row.rank), row.player, *cells, format_points(row.points)))
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    return "\n".join("  ".join(cell.ljust(w) if i == 1 else cell.rjust(w) for i, (cell, w) in
                               enumerate(zip(line, widths))).rstrip() for line in lines)


def standings_text(rows: Sequence[Row]) -> str:
    """The standings as plain fixed-width ASCII text, one line per player after a header line."""
    lines = [_HEADERS, *(_cells(row, ascii_only=True, rank=rank) for row, rank in zip(rows, rank_texts(rows)))]
    widths = [max(len(line[i]) for line in lines) for i in range(len(_HEADERS))]
    out = []
    for line in lines:
        cells = (cell.ljust(width) if header in _LEFT else cell.rjust(width)
                 for cell, width, header in zip(line, widths, _HEADERS))
        out.append("  ".join(cells).rstrip())
    if is_final_table(rows):
        out.append(TIE_NOTE)
    return "\n".join(out)

"""Formatting game-log step rows: ``format_row`` against a game's ``RowFormatter`` (not a test: it prints figures).

The server formats every step of every game it plays as the step is judged (``RowBatcher.add``,
``LiveLogWriter.stage``), on the event loop: at 100 games, about 19,000 rows a second.
This prints the cost per row of the general ``format_row`` (names checked and spelled on every row)
and of ``RowFormatter`` (once per game), on the rows of a played game, and checks that both write
the same text.

    .venv/bin/python bench/log_rows.py [--rows 20000] [--repeat 7]

Timings are the best of ``--repeat`` runs, measured in the same run (the machine's other work only
ever slows a run down).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from shared.gamelog import GameHeader, RowFormatter, StepRecord, format_row  # noqa: E402
from shared.quoridor import GameStatus, Step  # noqa: E402
from timing import best_of  # noqa: E402  (bench/, beside this script)

PLAYERS = ("193304BASELINE", "Smith, John")


def played_rows(count: int) -> list[StepRecord]:
    """``count`` rows as a game writes them: mostly moves, some walls, a violation now and then."""
    rows = []
    for turn in range(count):
        player = PLAYERS[turn % 2]
        if turn % 17 == 0:
            rows.append(StepRecord(player, Step.move(1, 5), GameStatus.INVALID_STEP, 12, turn,
                                   "a5 is not reachable in one step from e2"))
        elif turn % 5 == 0:
            rows.append(StepRecord(player, Step.wall(3, 2, 5, 2), GameStatus.OK, 87, turn))
        else:
            rows.append(StepRecord(player, Step.move(5, 2 + turn % 7), GameStatus.OK, 153, turn))
    return rows


def main(argv: list[str] | None = None) -> int:
    """Time both ways of formatting; exit status 1 if they wrote different text."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=20_000, help="rows formatted per run (default 20,000)")
    parser.add_argument("--repeat", type=int, default=7, help="runs of each; the best counts (default 7)")
    args = parser.parse_args(argv)
    if args.rows < 1 or args.repeat < 1:
        parser.error("--rows and --repeat must be at least 1")
    header = GameHeader(PLAYERS, game="g-1")
    rows = played_rows(args.rows)
    general_s, general = best_of(args.repeat, lambda: "".join(
        format_row(record, seat=header.seat(record.player)) for record in rows))
    formatter = RowFormatter(header)
    game_s, game = best_of(args.repeat, lambda: "".join(map(formatter, rows)))
    per_row = 1e6 / args.rows
    print(f"{args.rows:,} step rows, best of {args.repeat} runs")
    print(f"  format_row (the seat looked up, the name checked on every row): {general_s * per_row:.2f} us per row")
    print(f"  RowFormatter (a game's names checked once):                     {game_s * per_row:.2f} us per row"
          f"  = {game_s / general_s:.2f}x")
    if general != game:
        print("  !! the two wrote different text")
        return 1
    print("  same text: yes")
    return 0


if __name__ == "__main__":
    sys.exit(main())

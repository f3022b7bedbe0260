"""``result.csv`` and ``player_list.csv``: a tournament's results in the course's old Java server's shapes.

The old server (``JY0284/quoridor_server``, ``src/main/java/org/cic/yu/multiplayer/quoridor/``)
wrote both into each contest's folder, and teachers' grading scripts read them; we write them
beside ``results.json`` and ``results.csv``. Both are plain text without CSV quoting, ``\\n``
line ends (the old server wrote ``"\\n"`` itself, on Windows too), no BOM. The old server's
``FileWriter`` used the platform's charset; we write UTF-8, the same bytes for ASCII names.

``result.csv`` (``ContestManager.java`` lines 59-61, 137, 156-157, 170-180)::

    time, player_name, score
    2024-05-01 14:03:39,193304BASELINE,1
    2024-05-01 14:03:39,193304DEFENSIVE,2

* The header has a blank after each comma (``"time, player_name, score\\n"``); the rows have none.
* A knockout: per round, in the order its pairings ended, one row per player knocked out in it,
  ``score`` = that round, from 1; after the last round the champion, scored one more than the
  last round. ``time`` is ``yyyy-MM-dd HH:mm:ss`` in the server's local time when the round ended
  (the old server wrote a round's rows when its last game was over; the champion's at the end).
  A bye gives no row, as there; a pairing the old server left drawn gave no row either, ours are
  always decided (``decide_pairing``). A round is written once all its games are finished.
* A round robin: the old server's (``VERSUS_EVERYONE``, lines 263-289, never used by its ``Main``)
  wrote the header only. We write one row per player once the standings are final, worst first,
  ``score`` = players + 1 - rank (the winner has the highest, as a knockout's champion does),
  ``time`` = the tournament's end.

``player_list.csv`` (``ContestManager.java`` lines 57, 67-80; ``Seat.java`` lines 195-209)::

    id, name, mac, ip, port
    0,193304BASELINE,,,
    1,193304DEFENSIVE,,,

* The header as written by ``Seat.entryHeaderString()``, blanks included; one row per player.
* ``id``: the player's number, from 0, in the tournament's seat order (the order they joined);
  the old server numbered its ``Player`` objects from 0 in the order keys were checked.
* ``mac`` (12 characters of the legacy key), ``ip`` (``/1.2.3.4``) and ``port`` are not stored
  by this server: empty.

Names are written as the game logs write them (``log_safe_name``: a comma becomes ``;``): an
unquoted comma would add a column.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from datetime import UTC, datetime, tzinfo

from shared.gamelog import log_safe_name
from shared.tournament import GameResult, TournamentError, decide_pairing

from server.tournament.rows import GameRow, TournamentRow

__all__ = ["RESULT_CSV", "PLAYER_LIST_CSV", "RESULT_HEADER", "PLAYER_LIST_HEADER", "TIME_FORMAT",
           "result_rows", "result_csv", "player_list_csv"]

RESULT_CSV = "result.csv"
"""The old server's file of who was knocked out in which round."""
PLAYER_LIST_CSV = "player_list.csv"
"""The old server's file of the contest's players."""
RESULT_HEADER = "time, player_name, score"
"""The first line of ``result.csv`` (``ContestManager.java`` line 61), blanks included."""
PLAYER_LIST_HEADER = "id, name, mac, ip, port"
"""The first line of ``player_list.csv`` (``Seat.entryHeaderString()``), blanks included."""
TIME_FORMAT = "%Y-%m-%d %H:%M:%S"
"""The old server's ``SimpleDateFormat("yyyy-MM-dd HH:mm:ss")``."""

_LINE_BREAKS = re.compile(r"[\r\n]+")


def _field(name: str) -> str:
    """A name as an unquoted field: no comma (as in the logs), no line break."""
    return _LINE_BREAKS.sub(" ", log_safe_name(name))


def _local_time(stamp: str | None, tz: tzinfo | None) -> str:
    """A stored ISO 8601 time as ``yyyy-MM-dd HH:mm:ss`` in ``tz`` (None: the server's local time).

    A time without a zone is taken as UTC (the store's); text that is no ISO time is kept as it is.
    """
    if not stamp:
        return ""
    try:
        moment = datetime.fromisoformat(stamp)
    except ValueError:
        return stamp
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(tz).strftime(TIME_FORMAT)


def _latest(stamps: Sequence[str | None]) -> str | None:
    """The latest of ISO times of one format (they sort as text); None when there is none."""
    known = [stamp for stamp in stamps if stamp]
    return max(known) if known else None


def _loser(group: list[GameRow]) -> str | None:
    """Who lost the knockout pairing of the finished games ``group`` (``decide_pairing``); None if they are no pairing."""
    group.sort(key=lambda game: game.game_in_pairing)
    first, second = group[0].white, group[0].black      # the first listed takes seat 0 in the pairing's game 0
    try:
        results = [GameResult(g.white, g.black, g.winner, g.reason or "", g.thinking_ms, g.violations) for g in group]
        return second if decide_pairing(first, second, results) == first else first
    except TournamentError:
        return None


def _knockout_rows(tournament: TournamentRow, games: Sequence[GameRow]) -> list[tuple[str | None, str, int]]:
    """``(time, player, score)`` per knocked-out player, round by round, then the champion."""
    rounds: dict[int, dict[int, list[GameRow]]] = defaultdict(lambda: defaultdict(list))
    for game in games:
        rounds[game.round][game.pairing].append(game)
    rows: list[tuple[str | None, str, int]] = []
    out: set[str] = set()
    last = -1
    for number in sorted(rounds):
        pairings = rounds[number]
        if any(game.status != "finished" for group in pairings.values() for game in group):
            break           # the old server wrote a round's rows when the round was over
        ended: list[tuple[str, int, str]] = []
        for pairing, group in pairings.items():
            loser = _loser(group)
            if loser is None:
                return rows         # rows the store should never hold: write what is certain
            ended.append((_latest([g.ended_at for g in group]) or "", pairing, loser))
        round_end = _latest([stamp for stamp, _, _ in ended])
        for _, _, loser in sorted(ended):
            rows.append((round_end, loser, number + 1))
            out.add(loser)
        last = number
    left = [name for name in tournament.players if name not in out]
    if tournament.finished and last >= 0 and len(left) == 1:
        rows.append((tournament.finished_at, left[0], last + 2))
    return rows


def _round_robin_rows(tournament: TournamentRow) -> list[tuple[str | None, str, int]]:
    """``(time, player, score)`` per player of the final standings, worst first; none before they are final."""
    if not tournament.finished or tournament.standings is None:
        return []
    ranked: list[tuple[int, int, str]] = []
    for order, row in enumerate(tournament.standings):
        rank, player = row.get("rank"), row.get("player")
        if isinstance(rank, int) and not isinstance(rank, bool) and isinstance(player, str):
            ranked.append((rank, order, player))
    size = len(tournament.players)
    return [(tournament.finished_at, player, size + 1 - rank) for rank, _, player in sorted(ranked, reverse=True)]


def result_rows(tournament: TournamentRow, games: Sequence[GameRow],
                tz: tzinfo | None = None) -> list[tuple[str, str, int]]:
    """The rows of ``result.csv`` as ``(time, player, score)``: the knockout's eliminations or the
    round robin's final places (module doc); times in ``tz`` (None: the server's local time)."""
    rows = _knockout_rows(tournament, games) if tournament.format == "knockout" else _round_robin_rows(tournament)
    return [(_local_time(stamp, tz), player, score) for stamp, player, score in rows]


def result_csv(tournament: TournamentRow, games: Sequence[GameRow], tz: tzinfo | None = None) -> str:
    """The text of ``result.csv`` for ``tournament`` and its ``games``, in the old server's shape."""
    lines = [RESULT_HEADER] + [f"{time},{_field(player)},{score}" for time, player, score
                               in result_rows(tournament, games, tz)]
    return "\n".join(lines) + "\n"


def player_list_csv(tournament: TournamentRow) -> str:
    """The text of ``player_list.csv`` for ``tournament``'s players, in the old server's shape."""
    lines = [PLAYER_LIST_HEADER] + [f"{number},{_field(name)},,," for number, name in enumerate(tournament.players)]
    # (mac, ip and port: not stored by this server, left empty)
    return "\n".join(lines) + "\n"

"""``Leaderboard``: the best verified solutions per room and level, in memory, as the rooms read and write them.

Scores are tuples compared ascending (Sokoban: ``(moves, pushes)``; ice: ``(moves, distance)``;
circuit: ``(rotations,)``); each player keeps only its best entry per level, and a level ranks its
entries by score, then by time. The board is pure: no disk and no clock of its own (the time of an
entry is stamped by the ``stamp`` it is given). It remembers what changed since ``take_unsaved``
was last asked, for its owner to store: the puzzle desk saves it through
``server.rooms.leaderboard_store.LeaderboardRecords`` before a reply is sent, and ``seed``s the
board from it at start. One thread at a time uses a board (the desk's).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

__all__ = ["Leaderboard", "Entry", "Record", "Unsaved"]


@dataclass(frozen=True)
class Entry:
    """One player's best verified solution of one level."""

    player: str
    score: tuple[int, ...]
    answer: str
    #: When it was made (ISO 8601 UTC, as ``stamp`` gave it): the tie-break between equal scores.
    at: str


@dataclass(frozen=True)
class Record:
    """An entry with its room and level: one row of the stored leaderboard."""

    room: str
    level: str
    entry: Entry


@dataclass(frozen=True)
class Unsaved(Record):
    """A record made since the last ``take_unsaved``, with the entry it replaced (None: the player's first)."""

    replaced: Entry | None = None


def _order(entry: Entry) -> tuple[tuple[int, ...], str]:
    return entry.score, entry.at


class Leaderboard:
    """Best solutions per ``(room, level)`` in memory; ``stamp()`` gives the time of each new entry."""

    def __init__(self, stamp: Callable[[], str]) -> None:
        """An empty board whose new entries are stamped by ``stamp`` (an ISO 8601 UTC time)."""
        self._stamp = stamp
        self._boards: dict[tuple[str, str], dict[str, Entry]] = {}
        # (room, level, player) -> the entry the first change since the last take replaced.
        self._unsaved: dict[tuple[str, str, str], Entry | None] = {}

    def seed(self, records: Iterable[Record]) -> None:
        """Put stored ``records`` on the board (at start); they are not unsaved."""
        for record in records:
            self._boards.setdefault((record.room, record.level), {})[record.entry.player] = record.entry

    def record(self, room: str, level: str, player: str, score: tuple[int, ...], answer: str) -> int:
        """Offer a verified solution; returns the player's rank on that level afterwards (1 = best).

        A better score than the player's own replaces its entry (and is unsaved until taken); another is ignored.
        """
        board = self._boards.setdefault((room, level), {})
        old = board.get(player)
        if old is None or score < old.score:
            board[player] = Entry(player, tuple(score), answer, self._stamp())
            self._unsaved.setdefault((room, level, player), old)
        ranking = sorted(board.values(), key=_order)
        return next(i for i, e in enumerate(ranking, 1) if e.player == player)

    def top(self, room: str, level: str, n: int = 10) -> list[Entry]:
        """The best ``n`` entries of a level, best first."""
        return sorted(self._boards.get((room, level), {}).values(), key=_order)[:n]

    def take_unsaved(self) -> list[Unsaved]:
        """The entries changed since the last call (each player's newest per level), in the order first changed."""
        taken = [Unsaved(room, level, self._boards[room, level][player], replaced)
                 for (room, level, player), replaced in self._unsaved.items()]
        self._unsaved.clear()
        return taken

    def withdraw(self, unsaved: Iterable[Unsaved]) -> None:
        """Undo taken changes that could not be stored: each entry goes back to the one it replaced.

        An entry changed again since it was taken is left as it is.
        """
        for change in unsaved:
            board = self._boards.get((change.room, change.level), {})
            if board.get(change.entry.player) != change.entry:
                continue
            if change.replaced is None:
                del board[change.entry.player]
            else:
                board[change.entry.player] = change.replaced

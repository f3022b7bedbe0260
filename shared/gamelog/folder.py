"""Which files of a log folder are game logs, by name: the one rule every listing of a folder follows. Pure.

A tournament folder holds its games' logs (``t1-r1-p1-g1_alice_vs_bob.csv``; ``.csv.part`` while
the game is played) beside tables that are CSV too: ours (``results.csv``) and the course's old
Java server's ``result.csv`` (``time, player_name, score``) and ``player_list.csv``
(``id, name, mac, ip, port``). The web server's ``/replays``, ``quoridor-replay FOLDER`` and the
pages of a ``-n 0`` server list exactly the files ``is_log_name`` accepts.
"""

from __future__ import annotations

__all__ = ["LOG_SUFFIX", "PART_SUFFIX", "TABLES", "is_log_name"]

LOG_SUFFIX = ".csv"
"""A finished game's log file ends so."""
PART_SUFFIX = ".csv.part"
"""A game still being played (or cut off by a crash) is logged under this ending until it is finished."""
TABLES = frozenset({"results.csv", "result.csv", "player_list.csv"})
"""The CSV tables of a tournament folder that are not games: ours, and the old server's two."""


def is_log_name(name: str) -> bool:
    """True when a file called ``name`` is a game log to list: ``.csv`` or ``.csv.part`` (any case), not
    hidden, and not one of the folder's ``TABLES``."""
    lower = name.lower()
    if name.startswith(".") or not (lower.endswith(LOG_SUFFIX) or lower.endswith(PART_SUFFIX)):
        return False
    return lower.removesuffix(".part") not in TABLES

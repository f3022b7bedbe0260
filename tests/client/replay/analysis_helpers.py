"""A game log with a known blunder, for the analysis's views: built here with shared.gamelog's writer."""

from __future__ import annotations

from pathlib import Path

from shared.gamelog import GameHeader, GameLog, GameOutcome, StepRecord, format_log
from shared.quoridor import GameStatus, parse_step

__all__ = ["BLUNDER_PLY", "blunder_log", "write_blunder_log"]

#: The ply at which alice (seat 0, on e8) could win at once with e9 and placed a wall instead; bob then wins.
BLUNDER_PLY = 17

_ALICE = ["e2", "e3", "e4", "e5", "e6", "e7", "h5h", "e8", "a7h"]
_BOB = ["d9", "d8", "d7", "d6", "d5", "d4", "d3", "d2", "d1"]


def blunder_log(players: tuple[str, str] = ("alice", "bob")) -> GameLog:
    """alice walks to e8 (a wall on the way), bob down the d-file to d2; alice, to move on e8, places a7h instead
    of winning with e9, and bob wins with d1."""
    steps = []
    for turn in range(2 * len(_BOB)):
        seat = turn % 2
        text = (_ALICE if seat == 0 else _BOB)[turn // 2]
        status = GameStatus.WIN if turn == 2 * len(_BOB) - 1 else GameStatus.OK
        steps.append(StepRecord(players[seat], parse_step(text), status, 10, turn))
    outcome = GameOutcome(1, "goal", (90, 90), (0, 0))
    return GameLog(GameHeader(players, game="g-blunder"), steps, outcome)


def write_blunder_log(folder: Path, name: str = "blunder.csv", players: tuple[str, str] = ("alice", "bob")) -> Path:
    """``blunder_log`` written as our CSV in ``folder``."""
    path = folder / name
    path.write_text(format_log(blunder_log(players)), encoding="utf-8")
    return path

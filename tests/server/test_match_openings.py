"""A ``MatchRunner`` game from an opening: the referee plays the plies, the seats only ever see the turns after them.

Driven with seats that record what they are sent (no sockets), as the ladder's games and the game host's are
played: the opening's plies are the log's first rows (0 ms each), the spectators hear them, and the first turn
goes to the seat to move after them.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from server.games.match import MatchRunner
from shared.gamelog import parse_log
from shared.quoridor import BlockBar, GameStatus, Location, parse_step
from shared.referee import RefereeError, RefereeSettings, StepJudged
from tests.server.conftest import SocketlessSeat as Seat, bounded

OPENING = tuple(parse_step(name) for name in ("e2", "e8", "c3h"))


async def test_the_referee_plays_the_opening_and_the_seat_to_move_after_it_gets_the_first_turn(tmp_path: Path):
    white, black = Seat("white"), Seat("black")
    spectated: list[StepJudged] = []
    match = MatchRunner("g1", (white, black), RefereeSettings(), tmp_path / "g1.csv", opening=OPENING,
                        on_step=lambda runner, judged: spectated.append(judged))
    game = asyncio.create_task(match.run())
    first = await bounded(black.turns.get(), 5)
    assert (first.seat, first.turn) == (1, 3) and white.turns.empty()       # no seat is sent an opening turn
    assert (first.change.my_loc, first.change.enemy_loc) == (Location(5, 8), Location(5, 2))
    assert first.change.new_enemy_wall == BlockBar.of(2, 3, 4, 3)          # white's opening wall
    assert [(j.seat, j.record.turn, j.opening) for j in spectated] == [(0, 0, True), (1, 1, True), (0, 2, True)]
    assert match.submit_step(0, 2, OPENING[2], time.monotonic())[0] == "stale_turn"
    assert match.submit_step(1, 3, parse_step("e7"), time.monotonic()) is None
    assert (await bounded(white.turns.get(), 5)).turn == 4
    match.submit_disconnect(0)
    result = await bounded(game, 5)
    rows = parse_log(result.log_path.read_text(encoding="utf-8")).steps
    assert [(r.player, r.step, r.status, r.thinking_ms, r.turn) for r in rows[:3]] == [
        ("white", OPENING[0], GameStatus.OK, 0, 0), ("black", OPENING[1], GameStatus.OK, 0, 1),
        ("white", OPENING[2], GameStatus.OK, 0, 2)]
    assert rows[3].player == "black" and rows[3].turn == 3 and len(rows) == result.steps == 4


def test_a_bad_opening_is_refused_before_anyone_hears_of_the_game(tmp_path: Path):
    white, black = Seat("white"), Seat("black")
    with pytest.raises(RefereeError, match=r"ply 2 of 2 \(e7\) is illegal"):
        MatchRunner("g1", (white, black), RefereeSettings(), tmp_path / "g1.csv",
                    opening=(OPENING[0], parse_step("e7")))
    assert white.started == black.started == [] and not (tmp_path / "g1.csv").exists()

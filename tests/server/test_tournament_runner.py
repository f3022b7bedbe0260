"""``TournamentRunner`` on seats that play by themselves: schedules, forfeits, the order of what is recorded and said."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from server.seats.players import PlayerSession
from server.tournament.results import Results
from server.settings import ServerSettings
from server.tournament.runner import TournamentRunner, log_name
from shared.protocol import GameOver
from shared.quoridor import Position
from shared.referee import TurnRequest
from shared.tournament import GameResult, Standings
from tests.server.conftest import bounded, runner_policy
from tests.server.support import Recorder


class Line:
    """A connection that is always there (a seat's ``peer``)."""

    closed = False


class WalkingSeat(PlayerSession):
    """A connected player that walks its shortest path, answering each turn on the next pass of the loop.

    ``results`` and ``tid``: at each ``game_over`` it notes whether the game was already stored as finished.
    """

    def __init__(self, name: str, results: Results | None = None, tid: int = 0) -> None:
        super().__init__(name, name)
        self.bind(Line())
        self.results, self.tid = results, tid
        self.games_over: list[GameOver] = []
        self.stored_before_told: list[bool] = []

    async def send_game_start(self, game: str, opponent: str, seat: int) -> bool:
        return True

    def send_turn(self, game: str, request: TurnRequest) -> float | None:
        seat = request.seat
        change = request.change
        pawns = (change.my_loc, change.enemy_loc) if seat == 0 else (change.enemy_loc, change.my_loc)
        mine, theirs = request.walls_left
        position = Position.setup(pawns, [], walls_left=(mine, theirs) if seat == 0 else (theirs, mine), turn=seat)
        step = runner_policy(position, seat)
        asyncio.get_running_loop().call_soon(self.submit, game, request.turn, step, time.monotonic())
        return time.monotonic()

    async def send_game_over(self, message: GameOver) -> bool:
        self.games_over.append(message)
        if self.results is not None:
            finished = {row.game_id for row in await self.results.games(self.tid, "finished")}
            self.stored_before_told.append(message.game in finished)
        return True


class DroppingSeat(WalkingSeat):
    """A player whose connection drops at its ``drop_at``-th turn."""

    def __init__(self, name: str, results: Results, tid: int, drop_at: int = 3) -> None:
        super().__init__(name, results, tid)
        self.turns, self.drop_at = 0, drop_at

    def send_turn(self, game: str, request: TurnRequest) -> float | None:
        self.turns += 1
        if self.turns == self.drop_at:
            asyncio.get_running_loop().call_soon(self.unbind, self.peer)
            return time.monotonic()
        return super().send_turn(game, request)


class SilentSeat(WalkingSeat):
    """A connected player that never answers a turn."""

    def send_turn(self, game: str, request: TurnRequest) -> float | None:
        return time.monotonic()


class AbsentSeat(PlayerSession):
    """A player that never connects."""

    def __init__(self, name: str) -> None:
        super().__init__(name, name)


@pytest.fixture
async def results(tmp_path: Path) -> AsyncIterator[Results]:
    store = await Results.open(tmp_path / "arena.db")
    yield store
    await store.close()


@pytest.fixture
def executor() -> Any:
    pool = ThreadPoolExecutor(max_workers=1)
    yield pool
    pool.shutdown(wait=True)


class Harness:
    """A runner over ``sessions`` with everything it says kept: reporter calls, broadcasts, games over."""

    def __init__(self, runner: TournamentRunner, reporter: Recorder, broadcasts: list[int],
                 over: list[tuple[str, GameResult]], steps: list[str]) -> None:
        self.runner, self.reporter, self.broadcasts, self.over, self.steps = runner, reporter, broadcasts, over, steps


async def make_runner(results: Results, executor: Any, tmp_path: Path, names: list[str], *,
                      absent: tuple[str, ...] = (), seats: dict[str, type[WalkingSeat]] | None = None,
                      **overrides: Any) -> Harness:
    settings = ServerSettings(**{"data_dir": tmp_path, "players": len(names), "rejoin_wait_s": 0, "seed": 5,
                                 **overrides})
    tid = await results.create_tournament("t-test", settings.format, settings.games_per_pairing, settings.seed,
                                          names, {})
    kinds = seats or {}
    sessions = [AbsentSeat(n) if n in absent else kinds.get(n, WalkingSeat)(n, results, tid) for n in names]
    folder = tmp_path / "t-test"
    folder.mkdir(exist_ok=True)
    reporter = Recorder()
    broadcasts: list[int] = []
    over: list[tuple[str, GameResult]] = []
    steps: list[str] = []

    async def broadcast(standings: Standings) -> None:
        broadcasts.append(standings.games_done)       # the games counted in the table sent

    runner = TournamentRunner(settings, results, tid, folder, sessions, executor=executor, reporter=reporter,
                              broadcast=broadcast, on_step=lambda runner, judged: steps.append(runner.game_id),
                              on_game_over=lambda game, result: over.append((game, result)))
    return Harness(runner, reporter, broadcasts, over, steps)


async def test_a_round_robin_plays_every_pairing_and_stores_each_result(results, executor, tmp_path):
    h = await make_runner(results, executor, tmp_path, ["ann", "bob", "cy"])
    standings = await bounded(h.runner.run(), 20)
    rows = await results.games(h.runner.tid)
    assert len(rows) == 3 and all(row.status == "finished" and row.winner is not None for row in rows)
    assert {frozenset((row.white, row.black)) for row in rows} == {frozenset(p) for p in
                                                                   (("ann", "bob"), ("ann", "cy"), ("bob", "cy"))}
    assert all(Path(row.log_path).name == log_name(row.game_id, row.white, row.black) for row in rows)
    assert sum(row.games for row in standings.rows()) == 6
    assert h.reporter.of("tournament_started") == [("t-test", ["ann", "bob", "cy"], 3)]
    assert h.runner.running == {} and h.runner.games_total == 3


async def test_the_standings_go_out_after_each_game(results, executor, tmp_path):
    h = await make_runner(results, executor, tmp_path, ["ann", "bob", "cy", "dee"])
    await bounded(h.runner.run(), 20)
    assert h.broadcasts == [1, 2, 3, 4, 5, 6]
    assert len(h.reporter.of("standings")) == 6


async def test_a_result_is_stored_before_the_players_hear_game_over(results, executor, tmp_path):
    h = await make_runner(results, executor, tmp_path, ["ann", "bob"], games_per_pairing=2)
    await bounded(h.runner.run(), 20)
    seats = list(h.runner.sessions.values())
    assert all(len(seat.games_over) == 2 for seat in seats)
    assert all(seat.stored_before_told == [True, True] for seat in seats)


async def test_on_game_over_is_called_for_every_played_game_with_its_result(results, executor, tmp_path):
    h = await make_runner(results, executor, tmp_path, ["ann", "bob"], games_per_pairing=2)
    await bounded(h.runner.run(), 20)
    stored = {row.game_id: (row.winner, row.reason) for row in await results.games(h.runner.tid)}
    assert {game: (result.winner, result.reason) for game, result in h.over} == stored
    assert [game for game, _ in h.over] == [f"t{h.runner.tid}-r1-p1-g1", f"t{h.runner.tid}-r1-p1-g2"]
    assert [args[0] for args in h.reporter.of("game_finished")] == [game for game, _ in h.over]
    assert set(h.steps) == set(stored)      # every step went to on_step, tagged with its game


async def test_an_absent_player_forfeits_and_the_present_one_is_told(results, executor, tmp_path):
    h = await make_runner(results, executor, tmp_path, ["ann", "bob"], absent=("bob",))
    await bounded(h.runner.run(), 20)
    (row,) = await results.games(h.runner.tid)
    assert (row.winner, row.log_path, row.steps) == (0 if row.white == "ann" else 1, None, 0)
    assert h.over == [(row.game_id, h.over[0][1])] and h.over[0][1].winner == row.winner
    ann = h.runner.sessions["ann"]
    assert [message.game for message in ann.games_over] == [row.game_id]
    assert ann.stored_before_told == [True]
    assert any("bob absent" in line for line in h.reporter.messages())
    assert h.runner.sessions["bob"].gone_for_good
    assert len(h.broadcasts) == 1


async def test_two_absent_players_draw_their_game(results, executor, tmp_path):
    h = await make_runner(results, executor, tmp_path, ["ann", "bob"], absent=("ann", "bob"))
    await bounded(h.runner.run(), 20)
    (row,) = await results.games(h.runner.tid)
    assert row.status == "finished" and row.winner is None
    assert len(h.over) == 1 and h.over[0][1].winner is None


async def test_a_knockout_finds_its_champion_round_by_round(results, executor, tmp_path):
    h = await make_runner(results, executor, tmp_path, ["ann", "bob", "cy", "dee"], format="knockout")
    await bounded(h.runner.run(), 20)
    rows = await results.games(h.runner.tid)
    assert sorted({row.round for row in rows}) == [0, 1] and len(rows) == 3
    final = next(row for row in rows if row.round == 1)
    assert h.runner.champion == (final.white, final.black)[final.winner]
    assert h.reporter.of("tournament_started")[0][2] is None        # undecided while it plays
    assert f"knockout champion: {h.runner.champion}" in h.reporter.messages()
    assert len(h.over) == 3


async def test_a_swiss_plays_its_rounds_with_a_bye(results, executor, tmp_path):
    h = await make_runner(results, executor, tmp_path, ["ann", "bob", "cy"], format="swiss", swiss_rounds=2)
    await bounded(h.runner.run(), 20)
    rows = await results.games(h.runner.tid)
    assert len(rows) == 2 == h.runner.games_total and sorted(row.round for row in rows) == [0, 1]
    assert sum("has the bye" in line for line in h.reporter.messages()) == 2


async def test_a_runner_on_a_finished_schedule_plays_nothing_again(results, executor, tmp_path):
    h = await make_runner(results, executor, tmp_path, ["ann", "bob", "cy"])
    first = await bounded(h.runner.run(), 20)
    again = TournamentRunner(h.runner.settings, results, h.runner.tid, h.runner.folder,
                             list(h.runner.sessions.values()), executor=executor, reporter=Recorder(),
                             broadcast=h.runner.broadcast, on_step=lambda *a: None,
                             on_game_over=lambda game, result: pytest.fail(f"{game} played twice"))
    second = await bounded(again.run(), 20)
    assert [(r.player, r.points) for r in second.rows()] == [(r.player, r.points) for r in first.rows()]


async def test_a_player_that_drops_mid_game_loses_it_and_the_result_is_stored_first(results, executor, tmp_path):
    h = await make_runner(results, executor, tmp_path, ["ann", "bob"], seats={"bob": DroppingSeat})
    await bounded(h.runner.run(), 20)
    (row,) = await results.games(h.runner.tid)
    assert (row.reason, (row.white, row.black)[row.winner]) == ("disconnect", "ann")
    assert [(game, result.reason) for game, result in h.over] == [(row.game_id, "disconnect")]
    assert h.runner.sessions["ann"].stored_before_told == [True]


async def test_a_player_removed_for_timeouts_forfeits_that_game_and_the_next(results, executor, tmp_path):
    h = await make_runner(results, executor, tmp_path, ["ann", "bob"], seats={"bob": SilentSeat},
                          games_per_pairing=2, time_limit_ms=1, timeout_grace_s=0, kick_after_timeouts=1)
    await bounded(h.runner.run(), 20)
    rows = await results.games(h.runner.tid)
    assert [(row.white, row.black)[row.winner] for row in rows] == ["ann", "ann"]
    assert [row.steps > 0 for row in rows] == [True, False]     # the second is forfeited at once
    assert [game for game, _ in h.over] == [row.game_id for row in rows]
    assert h.runner.sessions["bob"].kicked and "bob removed after 1 timeouts" in h.reporter.messages()
    await results.flush()
    assert (await results.player_states(h.runner.tid))["bob"] == (1, True)


async def test_a_full_disk_failing_a_game_and_its_start_record_is_said_once_not_as_a_stray_traceback(
        results, executor, tmp_path, monkeypatch, caplog):
    import errno
    import gc

    from server.tournament import runner as runner_module
    from server.tournament.store import StoreError
    gc.collect()                            # earlier tests' unretrieved tasks are reported now, not as this test's
    await asyncio.sleep(0)
    caplog.clear()
    h = await make_runner(results, executor, tmp_path, ["ann", "bob"])

    async def mark_started(*args: Any) -> None:
        raise StoreError("starting a game in database arena.db failed: the disk is full")

    async def run(self: Any, on_result: Any = None) -> None:
        await asyncio.sleep(0)              # one pass: the start record, queued first, fails in it
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(results, "mark_started", mark_started)
    monkeypatch.setattr(runner_module.MatchRunner, "run", run)
    with pytest.raises(OSError, match="No space left"):
        await bounded(h.runner.run(), 20)
    gc.collect()                            # a failed task nobody looked at is reported when it is collected
    await asyncio.sleep(0)
    assert not [r for r in caplog.records if "never retrieved" in r.getMessage()]

"""``--save-log``: the client's own logs of its games, and the violation on a bot's last step."""

from __future__ import annotations

import re
import time
from pathlib import Path

from client.gamerecord import GameRecorder
from client.player import Player
from shared.gamelog import GameLog, canonical_step, parse_log
from shared.protocol import Turn
from shared.quoridor import COURSE, ChessboardChange, GameStatus, Step
from tests.client.support import Walker, best_move, duel


class Clumsy(Player):
    """Walks a shortest path, but sends an empty step on its 2nd turn and raises on its 4th."""

    def __init__(self, key: str = "") -> None:
        super().__init__(key)
        self.turns = 0

    def next_step(self, change: ChessboardChange) -> Step:
        self.turns += 1
        if self.turns == 2:
            return Step()
        if self.turns == 4:
            raise RuntimeError("oops")
        return best_move(self)

    def restart(self) -> None:
        self.turns = 0


class LastGasp(Player):
    """Keeps away from its goal; when the opponent is one step from winning it sends an empty step (a violation)."""

    def next_step(self, change: ChessboardChange) -> Step:
        pos = self.position
        if pos.distance(1 - self.seat) == 1:
            return Step()
        return Step(max(pos.legal_moves(), key=lambda loc: (pos.apply(Step(loc)).distance(self.seat), loc)))


def rows(log: GameLog) -> list[tuple[str, Step, GameStatus, int | None]]:
    return [(r.player, canonical_step(r.step), r.status, r.turn) for r in log.steps]


async def test_a_violation_on_the_last_step_of_a_game_is_counted(make_server):
    (clumsy, gasp), (_, out), _ = await duel(make_server, Clumsy("one"), LastGasp("two"))
    assert gasp.games == 2 and gasp.losses == 2
    assert gasp.violations == 2          # one per game, on its last step: told in game_over, not in a turn
    assert clumsy.violations == 4 and clumsy.wins == 2
    assert len(re.findall(r"^turn \d+: your step was illegal: empty step: neither a move nor a wall$", out, re.M)) == 2


async def test_saved_logs_are_the_servers_logs_as_each_player_saw_them(make_server, tmp_path):
    folders = (tmp_path / "one", tmp_path / "two")
    (clumsy, gasp), outs, _ = await duel(make_server, Clumsy("one"), LastGasp("two"),
                                         options=({"log_dir": folders[0]}, {"log_dir": folders[1]}))
    for summary, folder, out in zip((clumsy, gasp), folders, outs):
        assert summary.completed and len(summary.logs) == 2
        assert sorted(folder.glob("*.csv")) == sorted(summary.logs)
        for path, result in zip(summary.logs, summary.results):
            assert f"log {path}" in out
            mine = parse_log(path.read_text(encoding="utf-8"), name=str(path))
            theirs = parse_log(Path(result["log"]).read_text(encoding="utf-8"))
            assert mine.problems == [], mine.problems
            assert mine.header.players == theirs.header.players == ("one", "two") or \
                mine.header.players == theirs.header.players == ("two", "one")
            assert mine.header.game == result["game"]
            assert rows(mine) == rows(theirs)
            # The reasons of its own violations, as the server told them; the opponent's are never told.
            me = summary.player
            assert [r.reason for r in mine.steps if r.player == me] == \
                [r.reason for r in theirs.steps if r.player == me]
            assert {r.reason for r in mine.steps if r.player != me} == {""}
            assert mine.outcome is not None and theirs.outcome is not None
            assert (mine.outcome.winner, mine.outcome.reason, mine.outcome.violations, mine.outcome.thinking_ms) == \
                (theirs.outcome.winner, theirs.outcome.reason, theirs.outcome.violations, theirs.outcome.thinking_ms)


def turn(number: int, my_loc: tuple[int, int], enemy_loc: tuple[int, int]) -> Turn:
    return Turn(game="g", turn=number, status=0, my_loc=my_loc, enemy_loc=enemy_loc, enemy_wall=None,
                walls_left=(10, 10), time_limit_ms=1000)


def test_a_game_joined_part_way_gets_no_log():
    recorder = GameRecorder("g", "me", "you", 0, COURSE)
    recorder.turn(turn(6, (5, 3), (5, 7)))
    assert recorder.log() is None and "joined at turn 6" in (recorder.broken or "")


def test_the_server_and_the_old_clients_names_for_the_seats():
    assert GameRecorder("g", "me", "you", 1, COURSE).players == ("you", "me")
    assert GameRecorder("g", "same", "same", 0, COURSE).players == ("Me", "Enemy")
    assert GameRecorder("g", " padded", "you", 0, COURSE).players == ("Me", "Enemy")


class Late(Player):
    """Walks, but thinks 600 ms on every turn: twice the 300 ms limit, so every answer comes after its turn."""

    def next_step(self, change: ChessboardChange) -> Step:
        time.sleep(0.6)
        return best_move(self)


async def test_late_answers_are_not_sent_and_the_log_is_still_the_servers(make_server, tmp_path):
    (late, _), (out, _), _ = await duel(make_server, Late("one"), Walker("two"), games=1,
                                        server={"time_limit_ms": 300}, options=({"log_dir": tmp_path}, {}))
    assert late.completed and late.games == 1 and late.losses == 1
    assert late.violations == 3 and late.timeouts == 3      # the 3rd, the game's end, is told in game_over
    assert re.search(r"^a late answer to turn \d+ was discarded$", out, re.M) and "server error" not in out
    told = re.findall(r"^turn (\d+): too late: no answer within the limit of 300 ms$", out, re.M)
    mine = parse_log(late.logs[0].read_text(encoding="utf-8"))
    theirs = parse_log(Path(late.results[0]["log"]).read_text(encoding="utf-8"))
    assert [int(t) for t in told] == [r.turn for r in theirs.steps if r.player == "one"]
    assert mine.problems == [] and rows(mine) == rows(theirs)
    assert [status for player, _, status, _ in rows(mine) if player == "one"] == \
        [GameStatus.TIMEOUT, GameStatus.TIMEOUT, GameStatus.RULES_BREAKER]
    assert [r.reason for r in mine.steps if r.player == "one"] == ["no answer within the limit of 300 ms"] * 3

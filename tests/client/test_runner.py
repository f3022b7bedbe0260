"""The client runner against a real server on 127.0.0.1 port 0."""

from __future__ import annotations

import asyncio
import io
import json
import re
from pathlib import Path

from rich.console import Console

from client.bots import RunnerPlayer
from client.cli import config_from_args, build_parser, read_config
from client.player import Player
from client.driver import BotDriver
from client.render import notice_printer
from client.runner import BotRunner, ServerUnavailable, final_place
from shared.protocol import StandingRow, TournamentOver
from shared.quoridor import Cause, ChessboardChange, GameStatus, Step, StepVerdict, parse_step
from tests.server.conftest import bounded, url


def quiet() -> Console:
    return Console(file=io.StringIO(), width=120)


class CrashingBot(Player):
    """Raises on its second turn of every game."""

    def __init__(self, key: str = "") -> None:
        super().__init__(key)
        self.turns = 0

    def next_step(self, change: ChessboardChange) -> Step:
        self.turns += 1
        if self.turns == 2:
            raise RuntimeError("boom")
        if self.turns == 3:
            return "e2"   # type: ignore[return-value]  # nonsense: not a Step
        return best_move(self)

    def restart(self) -> None:
        self.turns = 0


def best_move(player: Player) -> Step:
    """The legal move that brings the pawn closest to its goal (steps around the other pawn)."""
    pos = player.position
    return Step(min(pos.legal_moves(), key=lambda m: pos.apply(Step(m)).distance(player.seat)))


class AsyncRunner(Player):
    async def next_step(self, change: ChessboardChange) -> Step:
        await asyncio.sleep(0)
        return best_move(self)


class PortedBot(Player):
    """Written like the C++ framework: nextStep and restart."""

    def nextStep(self, change: ChessboardChange) -> Step:  # noqa: N802 - the C++ name on purpose
        return best_move(self)


async def duel(make_server, first, second):
    server = await make_server(players=2, games_per_pairing=2)
    consoles = (quiet(), quiet())
    runners = [BotRunner(bot, url(server), key, say=notice_printer(console))
               for bot, key, console in zip((first, second), ("one", "two"), consoles)]
    tasks = [asyncio.create_task(r.run()) for r in runners]
    await bounded(server.run_tournament())
    summaries = await bounded(asyncio.gather(*tasks))
    return summaries, [c.file.getvalue() for c in consoles]


class OffToA5(Player):
    """Tries a5 on its first turn of each game (never legal from e1 or e9), then walks; keeps what it was told."""

    def __init__(self, key: str = "") -> None:
        super().__init__(key)
        self.told: list[tuple[GameStatus, StepVerdict | None]] = []
        self.first = True

    def next_step(self, change: ChessboardChange) -> Step:
        self.told.append((change.status, self.last_judgement))
        if self.first:
            self.first = False
            return parse_step("a5")
        return best_move(self)

    def restart(self) -> None:
        self.first = True


async def test_a_bot_that_plays_a5_is_told_why_and_its_author_reads_it(make_server):
    bot = OffToA5()
    (summary, _), (out, _) = await duel(make_server, bot, RunnerPlayer("two"))
    assert summary.violations == 2 and summary.games == 2
    verdicts = [verdict for _, verdict in bot.told if verdict is not None]
    assert sorted((v.status, v.cause, v.reason) for v in verdicts) == [
        (GameStatus.INVALID_STEP, Cause.NOT_REACHABLE, f"a5 is not reachable in one step from {start}")
        for start in ("e1", "e9")]                       # one game from each seat
    assert all(status is GameStatus.OK for status, verdict in bot.told if verdict is None)
    assert bot.told[0] == (GameStatus.OK, None)          # the first turn: nothing to tell
    assert "turn 0: your step a5 was illegal: a5 is not reachable in one step from e1" in out
    assert "turn 1: your step a5 was illegal: a5 is not reachable in one step from e9" in out


async def test_two_runners_play_a_pairing_and_get_a_summary(make_server):
    (a, b), (out, _) = await duel(make_server, RunnerPlayer("one"), RunnerPlayer("two"))
    assert a.games == b.games == 2
    assert a.wins == b.wins == 1            # seat 0 wins each game, seats alternate
    assert a.violations == b.violations == 0
    assert "2 games: 1 won, 1 lost" in a.line()
    place = re.search(r"is over: one placed (1st|2nd) of 2 with 1 point(; champion: (one|two))?\n", out)
    assert place and (place[1] == "1st") == (place[3] in ("one", None))     # a tie-break names a champion, or none


def test_the_end_of_a_big_tournament_says_where_the_bot_finished():
    def row(rank: int, player: str, points: float) -> StandingRow:
        return StandingRow(rank=rank, player=player, points=points, games=9, wins=int(points), losses=0, draws=0)

    top = [row(i + 1, f"p{i + 1}", 9 - i / 2) for i in range(10)]
    over = TournamentOver(tournament="t1", rows=[*top, row(37, "me", 2.5)], champion="p1", players=1000)
    assert text(final_place(over, "me")) == ": me placed 37th of 1,000 with 2.5 points; champion: p1"
    assert text(final_place(over, "p2")) == ": p2 placed 2nd of 1,000 with 8.5 points; champion: p1"
    older = TournamentOver(tournament="t1", rows=top[:3])        # an older server: every row, no players
    assert text(final_place(older, "p3")) == ": p3 placed 3rd of 3 with 8 points"
    assert final_place(over, "stranger") == []
    places = [text(final_place(TournamentOver(tournament="t", rows=[row(n, "x", 0)]), "x")) for n in (11, 12, 13, 21, 103)]
    assert places == [f": x placed {n} of 1 with 0 points" for n in ("11th", "12th", "13th", "21st", "103rd")]


def text(parts) -> str:
    return "".join(part if isinstance(part, str) else part[0] for part in parts)


async def test_a_crashing_bot_is_charged_violations_but_keeps_playing(make_server):
    (crash, other), (out, _) = await duel(make_server, CrashingBot("one"), RunnerPlayer("two"))
    assert crash.games == 2 and crash.bot_errors == 4      # two problems per game
    assert crash.violations >= 2
    assert "RuntimeError: boom" in out and "Traceback" in out
    assert "it must return a Step" in out


async def test_an_async_bot_and_a_ported_nextstep_bot(make_server):
    (a, b), _ = await duel(make_server, AsyncRunner("one"), PortedBot("two"))
    assert a.games == b.games == 2 and a.violations == b.violations == 0
    assert a.wins == 1 and b.wins == 1


async def test_waits_for_the_server_then_gives_up_with_a_clear_error():
    runner = BotRunner(RunnerPlayer(), "ws://127.0.0.1:9/", "k", say=notice_printer(quiet()), wait_s=0.3)
    try:
        await bounded(runner.run(), 10)
    except ServerUnavailable as exc:
        assert "no server at ws://127.0.0.1:9/" in str(exc)
    else:
        raise AssertionError("expected ServerUnavailable")


async def test_asking_a_bot_without_next_step_reports_it():
    problems = []
    step = await BotDriver(object(), problems.append).ask(ChessboardChange(), None, None)
    problem = problems[0].message
    assert step == Step() and "no next_step" in problem


def test_the_old_clients_config_file(tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"network": {"host": "10.0.0.5", "port": 19607}, "playerKey": "191220000",
                                "saveLog": True, "gameReplay": False, "gameReplayCmd": "./QuoridorUI %file%"}))
    values = read_config(path)
    assert values == {"server": "ws://10.0.0.5:19607/", "key": "191220000", "save_log": True, "replay": False,
                      "replay_cmd": "./QuoridorUI %file%"}
    config = config_from_args(build_parser().parse_args(["-c", str(path), "-k", "override", "--bot", "runner"]))
    assert (config.server, config.key, config.bot) == ("ws://10.0.0.5:19607/", "override", "runner")
    assert config.save_log and config.log_dir == Path("replays/client")
    config = config_from_args(build_parser().parse_args(["-p", "2000"]))
    assert config.server == "ws://127.0.0.1:2000/"
    assert not config.save_log


def test_save_log_option_and_log_dir_field(tmp_path):
    config = config_from_args(build_parser().parse_args(["--save-log"]))
    assert config.save_log and config.log_dir == Path("replays/client")
    assert config_from_args(build_parser().parse_args(["-l"])).save_log
    config = config_from_args(build_parser().parse_args(["--save-log", "mine", "-k", "a"]))
    assert config.save_log and config.log_dir == Path("mine") and config.key == "a"
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"saveLog": True, "logDir": "elsewhere"}))
    config = config_from_args(build_parser().parse_args(["-c", str(path)]))
    assert config.save_log and config.log_dir == Path("elsewhere")
    path.write_text(json.dumps({"saveLog": "yes"}))
    import pytest
    with pytest.raises(ValueError, match="'saveLog' must be a bool"):
        read_config(path)


def test_bad_config_files_name_the_problem(tmp_path):
    import pytest
    bad = tmp_path / "bad.json"
    bad.write_text("{nope")
    with pytest.raises(ValueError, match="not valid JSON"):
        read_config(bad)
    bad.write_text(json.dumps({"network": {"port": "x"}}))
    with pytest.raises(ValueError, match="network.port"):
        read_config(bad)
    with pytest.raises(ValueError, match="cannot read"):
        read_config(tmp_path / "missing.json")

"""``BotDriver``: the hooks in the contract's order, plain and async bots, and a bot's failures answered for."""

from __future__ import annotations

import asyncio
import threading

import pytest

from client.driver import BotDriver, BotProblem, ProblemKind, bot_traceback
from client.player import Player
from shared.quoridor import (
    COURSE, STANDARD, Cause, ChessboardChange, GameStatus, Step, StepVerdict, parse_square, parse_step,
)

START = ChessboardChange(GameStatus.OK, parse_square("e1"), parse_square("e9"))
E2 = parse_step("e2")


class Spy:
    """A bot that is no ``Player``: notes every hook the driver calls, answers e2."""

    time_limit_ms: int | None = None

    def __init__(self) -> None:
        self.calls: list[tuple] = []

    def begin_game(self, seat, ruleset):
        self.calls.append(("begin_game", seat, ruleset))

    def observe(self, change, walls_left):
        self.calls.append(("observe", change, walls_left, self.time_limit_ms))

    def next_step(self, change):
        self.calls.append(("next_step", change, self.time_limit_ms))
        return E2

    def step_sent(self, step):
        self.calls.append(("step_sent", step))

    def restart(self):
        self.calls.append(("restart",))


def ask(driver: BotDriver, how: str, change: ChessboardChange = START) -> Step:
    """Ask through ``ask_now`` or, on a fresh event loop, ``ask``."""
    if how == "now":
        return driver.ask_now(change, (10, 10), 500)
    return asyncio.run(driver.ask(change, (10, 10), 500))


@pytest.fixture(params=["now", "await"])
def how(request: pytest.FixtureRequest) -> str:
    """Both ways of asking."""
    return request.param


def test_a_game_calls_the_hooks_in_the_contracts_order(how):
    bot = Spy()
    driver = BotDriver(bot)
    driver.begin_game(0, STANDARD)
    assert ask(driver, how) == E2
    driver.end_game()
    assert bot.calls == [("begin_game", 0, STANDARD), ("observe", START, (10, 10), None), ("next_step", START, 500),
                         ("step_sent", E2), ("restart",)]


def test_a_bot_with_only_next_step_is_enough(how):
    class Bare:
        def next_step(self, change):
            return E2

    driver = BotDriver(Bare())
    driver.begin_game(1, COURSE)
    driver.tell_time_limit(100)
    assert ask(driver, how) == E2
    driver.end_game()


def test_a_player_sees_the_referees_board_and_its_own_confirmed_wall(how):
    class Waller(Player):
        def next_step(self, change):
            return parse_step("a1h") if self.position.walls_left[self.seat] == 10 else E2

    bot = Waller()
    driver = BotDriver(bot)
    driver.begin_game(0, COURSE)
    assert ask(driver, how) == parse_step("a1h")
    assert bot.tracker.pending == parse_step("a1h")     # told what went out
    ask(driver, how, ChessboardChange(GameStatus.OK, parse_square("e1"), parse_square("e8")))
    assert bot.position.walls == [parse_step("a1h").new_wall]


def test_a_player_hears_why_its_previous_step_was_a_violation_before_it_observes(how):
    class Listener(Player):
        def __init__(self) -> None:
            super().__init__()
            self.heard: list[tuple[str, StepVerdict | None]] = []

        def observe(self, change, walls_left=None):
            self.heard.append(("observe", self.last_judgement))
            super().observe(change, walls_left)

        def next_step(self, change):
            self.heard.append(("next_step", self.last_judgement))
            return E2

    verdict = StepVerdict(GameStatus.INVALID_STEP, Cause.NOT_REACHABLE, "a5 is not reachable in one step from e1", 9)
    bot = Listener()
    driver = BotDriver(bot)
    driver.begin_game(0, COURSE)
    ask(driver, how)
    again = ChessboardChange(GameStatus.INVALID_STEP, parse_square("e1"), parse_square("e8"))
    if how == "now":
        driver.ask_now(again, (10, 10), 500, verdict)
    else:
        asyncio.run(driver.ask(again, (10, 10), 500, verdict))
    assert bot.heard == [("observe", None), ("next_step", None), ("observe", verdict), ("next_step", verdict)]
    driver.end_game()
    driver.begin_game(1, COURSE)
    assert bot.last_judgement is None                   # a new game starts with nothing to tell


def test_a_turn_played_for_the_bot_reaches_its_observe_and_step_sent_but_never_next_step():
    bot = Spy()
    BotDriver(bot).hear(START, (10, 10), E2)
    assert bot.calls == [("observe", START, (10, 10), None), ("step_sent", E2)]
    BotDriver(object()).hear(START, None, E2)               # a bot without those hooks hears nothing

    class Broken(Spy):
        def observe(self, change, walls_left):
            raise KeyError("board")

    problems: list[BotProblem] = []
    broken = Broken()
    BotDriver(broken, problems.append).hear(START, (10, 10), E2)
    assert [(p.hook, p.bot, p.error_text) for p in problems] == [("observe", "Broken", "KeyError: 'board'")]
    assert broken.calls == [("step_sent", E2)]


def test_a_bot_without_last_judgement_is_left_alone():
    bot = Spy()
    BotDriver(bot).tell_judgement(StepVerdict(GameStatus.TIMEOUT, Cause.LATE, "late", 1000))
    assert not hasattr(bot, "last_judgement")


def test_a_plain_bot_thinks_in_a_worker_thread_when_awaited_and_here_when_not():
    threads = []

    class Where:
        def next_step(self, change):
            threads.append(threading.current_thread())
            return E2

    driver = BotDriver(Where())
    ask(driver, "await")
    ask(driver, "now")
    assert threads[0] is not threading.main_thread() and threads[1] is threading.main_thread()


class AsyncCounter:
    """An async bot that keeps a lock of its event loop from turn to turn."""

    def __init__(self) -> None:
        self.lock: asyncio.Lock | None = None
        self.loops: set[int] = set()

    async def next_step(self, change):
        self.lock = self.lock or asyncio.Lock()
        async with self.lock:                      # fails on another loop than the lock's first
            self.loops.add(id(asyncio.get_running_loop()))
            await asyncio.sleep(0)
        return E2


def test_an_async_bot_asked_now_runs_on_one_loop_of_the_drivers_until_closed():
    bot = AsyncCounter()
    with BotDriver(bot) as driver:
        assert [driver.ask_now(START, None, None) for _ in range(3)] == [E2] * 3
    assert len(bot.loops) == 1
    driver.close()                                 # twice is fine


def test_an_async_nextstep_ported_from_cpp_is_awaited(how):
    class Ported(Player):
        async def nextStep(self, change):  # noqa: N802 - the C++ name on purpose
            return Step(min(self.position.legal_moves(), key=lambda m: self.position.apply(Step(m)).distance(0)))

    driver = BotDriver(Ported())
    driver.begin_game(0, COURSE)
    assert ask(driver, how) == E2
    driver.close()


def test_a_read_only_time_limit_of_the_bots_own_is_left_alone():
    class Fixed:
        @property
        def time_limit_ms(self):
            return 7

        def next_step(self, change):
            return E2

    driver = BotDriver(Fixed())
    driver.tell_time_limit(1000)
    assert driver.ask_now(START, None, 1000) == E2 and driver.bot.time_limit_ms == 7


class Raiser:
    def next_step(self, change):
        return {}["[/]"]


def test_a_bot_that_raises_is_answered_for_with_an_empty_step_and_its_own_traceback(how):
    problems: list[BotProblem] = []
    assert ask(BotDriver(Raiser(), problems.append), how) == Step()
    (problem,) = problems
    assert (problem.kind, problem.hook, problem.bot) == (ProblemKind.RAISED, "next_step", "Raiser")
    assert problem.message == "next_step raised KeyError: '[/]'" and problem.error_text == "KeyError: '[/]'"
    frames = [line for line in problem.traceback.splitlines() if line.startswith('  File "')]
    assert len(frames) == 1 and __file__ in frames[0] and "in next_step" in frames[0]


def test_what_went_out_after_a_failure_is_the_empty_step(how):
    class RaisingSpy(Spy):
        def next_step(self, change):
            raise RuntimeError("boom")

    bot = RaisingSpy()
    ask(BotDriver(bot), how)
    assert bot.calls[-1] == ("step_sent", Step())


def test_a_bot_that_returns_no_step_is_answered_for(how):
    class Texter:
        def next_step(self, change):
            return "e2"

    problems: list[BotProblem] = []
    assert ask(BotDriver(Texter(), problems.append), how) == Step()
    assert problems[0].kind is ProblemKind.NOT_A_STEP and problems[0].returned == "e2"
    assert problems[0].message == "next_step returned 'e2' (str); it must return a Step"
    assert problems[0].traceback == ""


def test_a_bot_without_next_step_is_answered_for(how):
    problems: list[BotProblem] = []
    assert ask(BotDriver(object(), problems.append), how) == Step()
    assert problems[0].kind is ProblemKind.MISSING and problems[0].message == "object has no next_step(change) method"


@pytest.mark.parametrize("hook", ["begin_game", "observe", "step_sent", "restart"])
def test_a_failing_hook_is_reported_and_the_game_goes_on(how, hook):
    class Broken(Spy):
        pass

    def fail(self, *args):
        raise ValueError(f"[red]{hook}[/]")

    setattr(Broken, hook, fail)
    problems: list[BotProblem] = []
    driver = BotDriver(Broken(), problems.append)
    driver.begin_game(0, COURSE)
    assert ask(driver, how) == E2
    driver.end_game()
    assert [(p.hook, p.error_text) for p in problems] == [(hook, f"ValueError: [red]{hook}[/]")]
    assert "in fail" in problems[0].traceback


def test_a_bots_traceback_starts_at_its_own_frame_even_through_players_nextstep_dispatch():
    class Ported(Player):
        def nextStep(self, change):  # noqa: N802 - the C++ name on purpose
            raise RuntimeError("deep")

    problems: list[BotProblem] = []
    BotDriver(Ported(), problems.append).ask_now(START, None, None)
    lines = problems[0].traceback.splitlines()
    assert lines[0] == "Traceback (most recent call last):" and __file__ in lines[1] and "in nextStep" in lines[1]


def test_bot_traceback_of_an_exception_raised_outside_any_bot_is_whole():
    try:
        raise LookupError("x")
    except LookupError as exc:
        assert "LookupError: x" in bot_traceback(exc) and __file__ in bot_traceback(exc)

"""``BotDriver``: the one way the framework plays a bot through its games.

The websocket runner (``client.runner``), the local match (``client.match``, behind
``quoridor-match``) and the benchmarks all play their bots through a driver. Each turn it calls
the bot's hooks in the order the ``Player`` contract states:

1. ``last_judgement`` is set to the verdict on the bot's previous step (a ``StepVerdict`` when it
   was a violation, else ``None``; on bots that have that attribute), then
   ``observe(change, walls_left)``: the bot's board (``Player.position``) takes in the turn;
2. ``time_limit_ms`` is set to the turn's limit (on bots that have that attribute);
3. ``next_step(change)`` (or ``nextStep``, ported from C++), plain or ``async``, gives the step;
4. ``step_sent(step)``: the bot hears which step went out for it.

``begin_game(seat, ruleset)`` comes before a game's first turn and ``restart()`` after its end.
Every hook but ``next_step`` is optional: a bot may be any object with ``next_step`` or
``nextStep``. A hook that raises never ends a game or a run: the driver reports a
``BotProblem`` (its traceback starts at the bot's own frames) and goes on. A turn whose
``next_step`` raised, returned something other than a ``Step`` or does not exist is answered
with an empty step, a violation by the rules.

Two ways to ask: ``await ask(...)`` for a caller on an event loop (a plain ``next_step`` runs in
a worker thread, so a connection stays alive while the bot thinks; an ``async`` one is awaited),
and ``ask_now(...)`` for a caller without one (a plain ``next_step`` is called right here; an
``async`` one runs on the driver's own event loop, kept from turn to turn until ``close()``).
A turn the referee answered for the bot (a ply of the game's opening) reaches its ``observe`` and
``step_sent`` hooks through ``hear``.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import enum
import inspect
import os
import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from shared.quoridor import Ruleset, Step, StepVerdict
from shared.quoridor.types import ChessboardChange

__all__ = ["BotDriver", "BotFailure", "BotProblem", "ProblemKind", "OnProblem", "bot_traceback"]


class ProblemKind(enum.Enum):
    """How a bot's hook went wrong."""

    RAISED = "raised"            # the hook raised an exception
    NOT_A_STEP = "not a step"    # next_step returned something other than a Step
    MISSING = "missing"          # the bot has neither next_step nor nextStep
    FAILED = "failed"            # a bot outside this process failed (``BotFailure``): one line, no traceback


class BotFailure(Exception):
    """Raised by a bot that runs outside this process (``client.process_bot``) when its process ended or wrote no
    step: the driver reports it in one line (``ProblemKind.FAILED``), without a traceback of the framework's."""


@dataclass(frozen=True)
class BotProblem:
    """One failure of a bot's hook; when the hook was ``next_step``, the turn was answered with an empty step."""

    kind: ProblemKind
    #: The hook that failed: ``next_step``, ``observe``, ``step_sent``, ``begin_game`` or ``restart``.
    hook: str
    #: The bot's class name.
    bot: str
    #: What the hook raised (``RAISED``), else ``None``.
    error: Exception | None = None
    #: What ``next_step`` returned instead of a ``Step`` (``NOT_A_STEP``).
    returned: object = None
    #: The traceback of ``error`` from the bot's own frames on ("" when nothing was raised).
    traceback: str = ""

    @property
    def error_text(self) -> str:
        """``Type: message`` of what the hook raised ("" when it raised nothing)."""
        return "" if self.error is None else f"{type(self.error).__name__}: {self.error}"

    @property
    def message(self) -> str:
        """One line for people: ``next_step raised KeyError: 'x'``, ``next_step returned 'e2' (str); ...``."""
        if self.kind is ProblemKind.RAISED:
            return f"{self.hook} raised {self.error_text}"
        if self.kind is ProblemKind.FAILED:
            return str(self.error)
        if self.kind is ProblemKind.NOT_A_STEP:
            return f"{self.hook} returned {self.returned!r} ({type(self.returned).__name__}); it must return a Step"
        return f"{self.bot} has no next_step(change) method"


#: Told about each problem as it happens (printing it is the caller's business).
OnProblem = Callable[[BotProblem], None]

# Frames that stand before the bot's own in a traceback: the driver, Player's nextStep dispatch,
# and the event loop and worker-thread machinery. Hidden from the author.
_FRAMEWORK_FILES = tuple(str(Path(p).resolve()) for p in (__file__, Path(__file__).with_name("player.py")))
_FRAMEWORK_DIRS = tuple(str(Path(m.__file__).resolve().parent) + os.sep for m in (asyncio, concurrent))
_THREADING = str(Path(threading.__file__).resolve())


def _is_framework(filename: str) -> bool:
    try:
        path = str(Path(filename).resolve())
    except (OSError, RuntimeError):
        return False
    return path in _FRAMEWORK_FILES or path == _THREADING or path.startswith(_FRAMEWORK_DIRS)


def bot_traceback(exc: BaseException) -> str:
    """The traceback of an exception a bot raised, starting at the bot's own frames (the framework's dropped)."""
    tb = exc.__traceback__
    while tb is not None and _is_framework(tb.tb_frame.f_code.co_filename):
        tb = tb.tb_next
    return "".join(traceback.format_exception(type(exc), exc, tb if tb is not None else exc.__traceback__))


class BotDriver:
    """Plays ``bot`` (any object with ``next_step`` or ``nextStep``) through games; ``on_problem`` hears of failures."""

    def __init__(self, bot: Any, on_problem: OnProblem | None = None) -> None:
        self.bot = bot
        self.on_problem = on_problem
        self._loop: asyncio.Runner | None = None    # runs an async next_step for ask_now

    # -- a game's frame ----------------------------------------------------------------------
    def tell_time_limit(self, time_limit_ms: int | None) -> None:
        """Set the bot's ``time_limit_ms`` (``None``: no limit); a bot without that attribute is left alone."""
        if hasattr(self.bot, "time_limit_ms"):
            try:
                self.bot.time_limit_ms = time_limit_ms
            except AttributeError:   # a read-only property of the bot's own: its business
                pass

    def tell_judgement(self, judgement: StepVerdict | None) -> None:
        """Set the bot's ``last_judgement`` (``None``: its previous step stood); a bot without that attribute is
        left alone."""
        if hasattr(self.bot, "last_judgement"):
            try:
                self.bot.last_judgement = judgement
            except AttributeError:   # a read-only property of the bot's own: its business
                pass

    def begin_game(self, seat: int | None, ruleset: Ruleset) -> None:
        """A game starts: the bot's ``begin_game(seat, ruleset)`` (``seat`` ``None`` when not yet known)."""
        self._call("begin_game", seat, ruleset)

    def end_game(self) -> None:
        """The game ended: the bot's ``restart()``, before the next game of the pairing."""
        self._call("restart")

    # -- a turn ----------------------------------------------------------------------------
    async def ask(self, change: ChessboardChange, walls_left: tuple[int, int] | None,
                  time_limit_ms: int | None, judgement: StepVerdict | None = None) -> Step:
        """The bot's step for this turn, asked from an event loop (a plain ``next_step`` in a worker thread).

        ``judgement`` is the verdict on the bot's previous step when it was a violation (the turn's
        ``judgement``), ``None`` when it stood.
        """
        method = self._prepare(change, walls_left, time_limit_ms, judgement)
        if method is None:
            return self._sent(self._missing())
        try:
            if inspect.iscoroutinefunction(method):
                result = await method(change)
            else:
                result = await asyncio.to_thread(method, change)
                if inspect.isawaitable(result):
                    result = await result
        except Exception as exc:  # noqa: BLE001 - a bot's bug is a violation, never the end of a run
            return self._sent(self._raised("next_step", exc))
        return self._sent(self._checked(result))

    def ask_now(self, change: ChessboardChange, walls_left: tuple[int, int] | None,
                time_limit_ms: int | None, judgement: StepVerdict | None = None) -> Step:
        """The bot's step for this turn, asked without an event loop (a plain ``next_step`` called here).

        ``judgement`` as in ``ask`` (a local match passes ``TurnRequest.judgement``).
        """
        method = self._prepare(change, walls_left, time_limit_ms, judgement)
        if method is None:
            return self._sent(self._missing())
        try:
            result = method(change)
            if inspect.isawaitable(result):
                if self._loop is None:
                    self._loop = asyncio.Runner()
                result = self._loop.run(result)
        except Exception as exc:  # noqa: BLE001 - a bot's bug is a violation, never the end of a match
            return self._sent(self._raised("next_step", exc))
        return self._sent(self._checked(result))

    def hear(self, change: ChessboardChange, walls_left: tuple[int, int] | None, step: Step) -> None:
        """A turn answered for the bot (a ply of the game's opening): its ``observe`` and ``step_sent`` hooks hear
        the turn and ``step``; ``next_step`` is not asked."""
        self._call("observe", change, walls_left)
        self._sent(step)

    def close(self) -> None:
        """Close the event loop an ``async`` bot ran on in ``ask_now`` (if any); safe to call twice."""
        if self._loop is not None:
            self._loop.close()
            self._loop = None

    def __enter__(self) -> BotDriver:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    # -- internals ---------------------------------------------------------------------------
    def _prepare(self, change: ChessboardChange, walls_left: tuple[int, int] | None, time_limit_ms: int | None,
                 judgement: StepVerdict | None) -> Callable[[ChessboardChange], Any] | None:
        """Steps 1 and 2 of a turn; the bot's ``next_step`` (or ``nextStep``), ``None`` when it has neither."""
        self.tell_judgement(judgement)
        self._call("observe", change, walls_left)
        self.tell_time_limit(time_limit_ms)
        return getattr(self.bot, "next_step", None) or getattr(self.bot, "nextStep", None)

    def _sent(self, step: Step) -> Step:
        """Step 4 of a turn: tell the bot what goes out for it."""
        self._call("step_sent", step)
        return step

    def _call(self, hook: str, *args: Any) -> None:
        method = getattr(self.bot, hook, None)
        if method is None:
            return
        try:
            method(*args)
        except Exception as exc:  # noqa: BLE001 - a bot's bug never ends a game
            self._raised(hook, exc)

    def _report(self, problem: BotProblem) -> Step:
        if self.on_problem is not None:
            self.on_problem(problem)
        return Step()

    def _raised(self, hook: str, exc: Exception) -> Step:
        if isinstance(exc, BotFailure):
            return self._report(BotProblem(ProblemKind.FAILED, hook, type(self.bot).__name__, error=exc))
        return self._report(BotProblem(ProblemKind.RAISED, hook, type(self.bot).__name__, error=exc,
                                       traceback=bot_traceback(exc)))

    def _missing(self) -> Step:
        return self._report(BotProblem(ProblemKind.MISSING, "next_step", type(self.bot).__name__))

    def _checked(self, result: Any) -> Step:
        if isinstance(result, Step):
            return result
        return self._report(BotProblem(ProblemKind.NOT_A_STEP, "next_step", type(self.bot).__name__,
                                       returned=result))

"""When a ``HostedPeer`` freezes and thaws its bot (issue 31), fed frames and lines: no process, no clock."""

from __future__ import annotations

import asyncio
import json

from server.sandbox.seat import HostedPeer, welcome_for
from shared.protocol import GameOver
from shared.referee import RefereeSettings


class Bot:
    """What a ``HostedPeer`` uses of a ``HostedBot``, noting whether it would be running."""

    def __init__(self) -> None:
        self.running = True
        self.ended = None
        self.stopping = False
        self.on_line = self.on_exit = None
        self.lines: list[str] = []

    def clock(self) -> float:
        return 0.0

    def cpu_seconds(self) -> float:
        return 0.0

    def send(self, line: str) -> bool:
        self.lines.append(line)
        return True

    def freeze(self) -> None:
        self.running = False

    def thaw(self) -> None:
        self.running = True

    def charge_output(self, size: int) -> None:
        pass

    def stop(self, end) -> None:
        self.stopping = True


def turn(game: str, number: int, limit_ms: int | None = 1000) -> str:
    return json.dumps({"type": "turn", "game": game, "turn": number, "time_limit_ms": limit_ms}, separators=(",", ":"))


def step(game: str, number: int) -> str:
    return json.dumps({"type": "step", "game": game, "turn": number, "move": [5, 2], "wall": None})


def test_frozen_from_its_welcome_thawed_for_a_turn_frozen_again_by_its_step():
    bot = Bot()
    peer = HostedPeer(bot)  # type: ignore[arg-type]
    peer.send_now(welcome_for("p", RefereeSettings()))
    assert not bot.running
    peer.send_now(turn("g1", 0))
    assert bot.running
    bot.on_line(step("g1", 0), 0.1)
    assert not bot.running
    bot.on_line("not json", 0.2)              # a refused line: an error frame goes out, the bot stays frozen
    assert not bot.running and json.loads(bot.lines[-1])["type"] == "error"


def test_a_bot_in_two_games_runs_until_it_answered_both_turns_and_a_game_over_ends_a_turn():
    bot = Bot()
    peer = HostedPeer(bot)  # type: ignore[arg-type]
    peer.send_now(turn("g1", 0))
    peer.send_now(turn("g2", 3))
    bot.on_line(step("g1", 0), 0.1)
    assert bot.running                        # g2's turn still waits for it
    peer.send_now(GameOver(game="g2", status=4, result="win", reason="disconnect", winner="p"))
    assert not bot.running


def test_a_turn_that_runs_out_unanswered_freezes_the_bot_at_its_limit():
    async def play() -> Bot:
        bot = Bot()
        frozen = asyncio.Event()
        bot.freeze = frozen.set               # type: ignore[method-assign]
        peer = HostedPeer(bot)  # type: ignore[arg-type]
        peer.send_now(turn("g1", 0, limit_ms=1))
        await asyncio.wait_for(frozen.wait(), 5)      # the loop's own timer, 1 ms away
        return bot

    asyncio.run(play())

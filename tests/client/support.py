"""Helpers of the client tests: quiet consoles, simple bots, and two runners playing on a real server."""

from __future__ import annotations

import asyncio
import io
from typing import Any

from rich.console import Console

from client.player import Player
from client.render import notice_printer
from client.runner import BotRunner, RunSummary
from shared.quoridor import ChessboardChange, Step
from tests.server.conftest import bounded, url


def quiet() -> Console:
    """A console that writes to a string (read it with ``console.file.getvalue()``)."""
    return Console(file=io.StringIO(), width=120)


def best_move(player: Player) -> Step:
    """The legal move that brings the pawn closest to its goal (steps around the other pawn)."""
    pos = player.position
    return Step(min(pos.legal_moves(), key=lambda m: pos.apply(Step(m)).distance(player.seat)))


class Walker(Player):
    """Walks a shortest path."""

    def next_step(self, change: ChessboardChange) -> Step:
        return best_move(self)


async def poll(condition: Any, seconds: float = 20.0) -> None:
    """Wait (bounded) until ``condition()`` is true."""
    async def wait() -> None:
        while not condition():
            await asyncio.sleep(0.01)
    await bounded(wait(), seconds)


async def duel(make_server: Any, first: Any, second: Any, *, games: int = 2, server: dict[str, Any] | None = None,
               options: tuple[dict[str, Any], dict[str, Any]] = ({}, {})) -> tuple[list[RunSummary], list[str], Any]:
    """Play ``first`` (key one) against ``second`` (key two), ``options`` going to each ``BotRunner``.

    Returns both summaries, both console outputs and the server.
    """
    arena = await make_server(players=2, games_per_pairing=games, **(server or {}))
    consoles = (quiet(), quiet())
    runners = [BotRunner(bot, url(arena), key, say=notice_printer(console), **extra)
               for bot, key, console, extra in zip((first, second), ("one", "two"), consoles, options)]
    tasks = [asyncio.create_task(r.run()) for r in runners]
    await bounded(arena.run_tournament())
    summaries = await bounded(asyncio.gather(*tasks))
    return list(summaries), [c.file.getvalue() for c in consoles], arena

"""The puzzle rooms' fixtures: desks opened for a test and closed after it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from server.rooms.desk import PuzzleDesk
from tests.server.conftest import bounded


@pytest.fixture
async def make_desk() -> AsyncIterator[Callable[..., Any]]:
    """Open ``PuzzleDesk``s with a leaderboard at ``path`` (None: in memory) and the desk's ``options``; all are
    closed after the test."""
    desks: list[PuzzleDesk] = []

    async def factory(path: Path | None = None, **options: Any) -> PuzzleDesk:
        desk = PuzzleDesk(path, **options)
        await bounded(desk.open())
        desks.append(desk)
        return desk

    yield factory
    for desk in desks:
        await bounded(desk.close())

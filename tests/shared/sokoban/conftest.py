"""Shared helpers for the Sokoban tests: the level data beside the repository (skipped when absent),
a bundled level that takes the searches a while, and small random levels for checking the solver
against brute force."""

from __future__ import annotations

import random
from collections.abc import Callable
from importlib import resources
from pathlib import Path

import pytest

from shared.sokoban import Collection, Level, parse_level

ROOT = Path(__file__).resolve().parents[3]
DATA = ROOT / ".." / "shared" / "data" / "sokoban"


@pytest.fixture
def data_dir() -> Path:
    """``../shared/data/sokoban`` beside the repository; the test is skipped when it is absent."""
    if not DATA.is_dir():
        pytest.skip(f"level data not found at {DATA.resolve()} (it lives beside the repository in ../shared/data)")
    return DATA


@pytest.fixture
def searches() -> Level:
    """A level the searches need a few thousand states for (more than one batch of expansions)."""
    text = resources.files("shared.sokoban").joinpath("levels", "Grigr2001_100.xsb").read_text(encoding="utf-8")
    return Collection(text).level(3)


def make_random_level(rng: random.Random, *, widths: tuple[int, int] = (6, 7), heights: tuple[int, int] = (5, 6),
                      boxes: tuple[int, int] = (2, 3)) -> Level | None:
    """A small closed room with up to three random walls and some boxes and goals (None if it will not parse)."""
    width, height = rng.randint(*widths), rng.randint(*heights)
    inner = [(r, c) for r in range(1, height - 1) for c in range(1, width - 1)]
    rows = [["#" if r in (0, height - 1) or c in (0, width - 1) else " " for c in range(width)] for r in range(height)]
    cells = rng.sample(inner, len(inner))
    count = rng.randint(*boxes)
    for r, c in cells[:rng.randint(0, 3)]:
        rows[r][c] = "#"
    rest = cells[3:]
    for r, c in rest[:count]:
        rows[r][c] = "$"
    for r, c in rest[count:2 * count]:
        rows[r][c] = "*" if rows[r][c] == "$" else "."
    r, c = rest[2 * count]
    rows[r][c] = "@"
    try:
        return parse_level("\n".join("".join(row) for row in rows))
    except Exception:                        # an enclosed box or goal: not a level worth testing
        return None


@pytest.fixture
def random_level() -> Callable[..., Level | None]:
    """``make_random_level``, for tests that check the solver on many small levels."""
    return make_random_level

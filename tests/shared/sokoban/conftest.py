"""Shared helpers for the Sokoban tests: the level data beside the repository (skipped when absent)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
DATA = ROOT / ".." / "shared" / "data" / "sokoban"


@pytest.fixture
def data_dir() -> Path:
    """``../shared/data/sokoban`` beside the repository; the test is skipped when it is absent."""
    if not DATA.is_dir():
        pytest.skip(f"level data not found at {DATA.resolve()} (it lives beside the repository in ../shared/data)")
    return DATA

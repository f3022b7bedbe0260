"""The time now, as the server writes it down: two ISO 8601 forms in UTC, each made here only.

Results, the stores and the game logs keep milliseconds (``utc_now``); the hand-ins' store keeps seconds with
a ``Z`` (``utc_now_seconds``), as its files and pages have always shown it.
"""

from __future__ import annotations

from datetime import UTC, datetime

__all__ = ["utc_now", "utc_now_seconds"]


def utc_now() -> str:
    """The time now in UTC to the millisecond (``2026-11-24T08:30:00.123+00:00``)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def utc_now_seconds() -> str:
    """The time now in UTC to the second, with a ``Z`` (``2026-11-24T08:30:00Z``)."""
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")

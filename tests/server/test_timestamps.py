"""The server's two written forms of the time now: UTC, ISO 8601, to the millisecond or to the second."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from server.timestamps import utc_now, utc_now_seconds


def test_the_stores_time_is_utc_to_the_millisecond():
    stamp = utc_now()
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00", stamp), stamp
    assert abs(datetime.fromisoformat(stamp) - datetime.now(UTC)) < timedelta(hours=1)


def test_the_hand_ins_time_is_utc_to_the_second_with_a_z():
    stamp = utc_now_seconds()
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", stamp), stamp
    assert abs(datetime.fromisoformat(stamp) - datetime.now(UTC)) < timedelta(hours=1)

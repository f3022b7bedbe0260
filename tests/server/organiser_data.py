"""A data directory for the organiser's page's tests: three roster keys' hand-ins and ladder games, written through the
stores themselves (``SubmissionStore``, ``LadderStore``) before the server opens them.

* Ana: two versions (the newest accepted, an older one refused); four ladder games on her newest track, one of them
  lost by her violations (two ``late``), one with a step over 80% of the limit.
* Bo: his newest version refused (``import_error``), the older one accepted and playing; paused by nobody.
* Cy: no hand-in (a connected bot); one ladder game three days before ``NOW``: idle.

Game L2-g1 has its log on disk (the game page can show it).
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

from shared.gamelog import GameHeader, GameLog, GameOutcome, StepRecord, format_log
from shared.ladder import Skill
from shared.quoridor import GameStatus, Step

from server.ladder.store import LadderGame, LadderStore
from server.submissions.store import StoredVersion, SubmissionStore

ROSTER = {"k-ana": "Ana", "k-bo": "Bo", "k-cy": "Cy"}
ORGANISER_KEY = "teacher-7f3k"
ANA_V, ANA_OLD = "3f2a9c01b7de", "0123456789ab"
BO_V, BO_OLD = "bbbbbbbbbbbb", "b0b0b0b0b0b0"
#: The time the tests measure at (injected into the server's ``OrganiserDesk``): an hour after the data was written.
NOW = datetime.now(UTC) + timedelta(hours=1)


def _version(key: str, version: str, hours_ago: float, accepted: bool) -> StoredVersion:
    stamp = (NOW - timedelta(hours=hours_ago)).isoformat(timespec="seconds").replace("+00:00", "Z")
    return StoredVersion(key, version + "0" * 52, "bot.py", stamp, accepted, "ok" if accepted else "import_error",
                         "played a game against random" if accepted else "ModuleNotFoundError: No module named 'numpy'",
                         1.5, 1, 900)


def seed(data_dir: Path) -> None:
    """Write the hand-ins and the ladder's games of the module doc into ``data_dir``."""
    submissions = SubmissionStore(data_dir)
    for version in (_version("k-ana", ANA_OLD, 50, False), _version("k-ana", ANA_V, 5, True),
                    _version("k-bo", BO_OLD, 30, True), _version("k-bo", BO_V, 2, False)):
        submissions.record(version)
    submissions.close()
    ladder = LadderStore(data_dir / "ladder.db")
    skill = Skill(25.0, 8.0)
    ana, bo, cy = (ladder.track("Ana", ANA_V, skill), ladder.track("Bo", BO_OLD, skill), ladder.track("Cy", "v1", skill))
    folder = data_dir / "ladder-games"

    def play(n: int, white, black, winner, reason="goal", steps=((100, 120), (110, 90)), causes=((), ())) -> None:
        ladder.record(LadderGame(f"L{n}-g1", n, white, black, winner, reason, "", str(folder / f"L{n}-g1.csv"),
                                 NOW.isoformat(), (200, 200), (len(causes[0]), len(causes[1])), steps, causes,
                                 (skill, skill)))

    play(1, ana, bo, 0, steps=((850, 100), (100, 100)))
    play(2, bo, ana, 0, "violations", steps=((100,), (1500, 1400)), causes=((), ("late", "late")))
    play(3, ana, bo, 1)
    play(4, bo, ana, 1)
    play(5, cy, ana, 1)
    ladder.close()
    steps = [StepRecord("Bo", Step.move(5, 2), GameStatus.OK, 100, 0),      # L2's log: the game page reads it
             StepRecord("Ana", Step.move(5, 8), GameStatus.TIMEOUT, 1500, 1)]
    log = GameLog(GameHeader(("Bo", "Ana"), game="L2-g1"), steps, GameOutcome(0, "violations", (100, 2900), (0, 2)))
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "L2-g1.csv").write_text(format_log(log), encoding="utf-8")
    old = (NOW - timedelta(days=3)).isoformat(timespec="milliseconds")
    with sqlite3.connect(data_dir / "ladder.db") as conn:           # Cy played three days ago and not since
        conn.execute("UPDATE games SET ended_at = ? WHERE game_id = 'L5-g1'", (old,))
        conn.execute("UPDATE tracks SET created_at = ? WHERE bot = 'Cy'", (old,))
    conn.close()

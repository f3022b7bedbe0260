"""The organiser's rows (shared.organiser): counts from the current track's games, idleness against an injected time,
what needs attention, the worst games in their order."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from shared.organiser import KeyFacts, LadderActivity, PlayedGame, organiser_frame, organiser_row
from shared.protocol import OrganiserVersion, parse_server
from shared.protocol import dump

NOW = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)
ANA = "Ana@3f2a9c01"


def iso(hours_ago: float) -> str:
    return (NOW - timedelta(hours=hours_ago)).isoformat(timespec="milliseconds")


def version(v: str, hours_ago: float, accepted: bool = True) -> OrganiserVersion:
    stamp = (NOW - timedelta(hours=hours_ago)).isoformat(timespec="seconds").replace("+00:00", "Z")
    return OrganiserVersion(version=v, entry="bot.py", submitted_at=stamp, validated_at=stamp, accepted=accepted,
                            cause="ok" if accepted else "import_error", reason="" if accepted else "no module x")


def game(n: int, white: str, black: str, winner: int | None, reason: str = "goal", steps=((100,), (100,)),
         causes=((), ())) -> PlayedGame:
    return PlayedGame(f"L{n}-g1", white, black, winner, reason, json.dumps(steps), json.dumps(causes), iso(30 - n))


def test_a_row_counts_its_tracks_games_violations_and_near_timeouts():
    games = [game(1, ANA, "bob@1", 0, steps=((850, 100), (100,))),             # a win, one step over 80% of 1000
             game(2, "bob@1", ANA, 0, "violations", steps=((100,), (1200, 900)), causes=((), ("late", "late"))),
             game(3, ANA, "cy@2", None, "step_cap", causes=(("not_reachable",), ()))]
    facts = KeyFacts("Ana", [version("3f2a9c01b7de", 40)], LadderActivity(ANA, iso(39), games, iso(1)), "waiting")
    row = organiser_row(facts, NOW, 1000)
    assert (row.games, row.wins, row.losses, row.draws) == (3, 1, 1, 1)
    assert row.violations == {"late": 2, "not_reachable": 1}
    assert row.near_timeouts == 3                                            # 850, 1200 and 900
    assert not row.idle and row.track == ANA and row.state == "waiting"
    assert row.attention == [f"3 violations since {ANA}: late 2, not_reachable 1"]
    # its own loss by violations first, then the game with its violation, then nothing (a win without violations)
    assert [(w.game, w.opponent, w.result, w.why) for w in row.worst] == [
        ("L2-g1", "bob@1", "loss", "lost by its violations"), ("L3-g1", "cy@2", "draw", "1 violation: not_reachable 1")]
    own = organiser_frame([facts], NOW, 1000, scope="own", ladder=True)     # a player's own page names no opponent
    assert {w.opponent for w in own.rows[0].worst} == {"an opponent"}


def test_the_worst_games_put_faults_first_then_violations_then_losses_newest_first_and_at_most_three():
    games = [game(1, ANA, "b@1", 1, "goal"), game(2, ANA, "b@1", 1, "goal"),
             game(3, ANA, "b@1", 0, "goal", causes=(("late",), ())),
             game(4, "b@1", ANA, 0, "disconnect"), game(5, ANA, "b@1", 0, "violations")]   # the opponent's fault
    row = organiser_row(KeyFacts("Ana", [], LadderActivity(ANA, iso(40), games, iso(25))), NOW, 1000)
    assert [(w.game, w.why) for w in row.worst] == [("L4-g1", "lost by disconnect"),
                                                    ("L3-g1", "1 violation: late 1"), ("L2-g1", "lost (goal)")]


def test_idle_is_measured_against_the_time_given():
    activity = LadderActivity(ANA, iso(100), [game(1, ANA, "b@1", 0)], iso(23))
    facts = KeyFacts("Ana", [version("3f2a9c01b7de", 100)], activity)
    assert not organiser_row(facts, NOW, 1000).idle
    later = organiser_row(facts, NOW + timedelta(hours=2), 1000)          # 25 h since its last game
    assert later.idle and later.attention == ["idle: no game for 25 h"]
    days = organiser_row(facts, NOW + timedelta(days=3), 1000)
    assert days.attention == ["idle: no game for 4 days"]


def test_a_new_version_is_not_idle_yet_and_a_bot_that_never_played_is():
    fresh = KeyFacts("Ana", [version("3f2a9c01b7de", 2)])                  # handed in 2 h ago, not on the ladder yet
    assert not organiser_row(fresh, NOW, 1000).idle
    stale = KeyFacts("Ana", [version("3f2a9c01b7de", 30)])
    assert organiser_row(stale, NOW, 1000).attention == ["never played on the ladder"]
    nobody = KeyFacts("Bo", [])                                            # a roster key never seen
    assert organiser_row(nobody, NOW, 1000).idle
    assert not organiser_row(nobody, NOW, 1000, ladder=False).idle          # no ladder: nothing is idle


def test_a_refused_newest_version_and_a_pause_need_attention():
    facts = KeyFacts("Ana", [version("aaaaaaaaaaaa", 1, accepted=False), version("3f2a9c01b7de", 20)],
                     LadderActivity(ANA, iso(19), [game(29, ANA, "b@1", 0)], iso(1)), "paused",
                     "paused: 5 games in a row with a violation or a timeout")
    row = organiser_row(facts, NOW, 1000)
    assert row.attention == ["paused: 5 games in a row with a violation or a timeout",
                             "newest version aaaaaaaaaaaa refused (import_error)"]
    assert row.state == "paused" and [v.version for v in row.versions] == ["aaaaaaaaaaaa", "3f2a9c01b7de"]


def test_the_frame_puts_rows_needing_attention_first_then_names_and_lists_eight_versions():
    quiet = KeyFacts("alice", [version(f"{n:012x}", 1 + n) for n in range(10)],
                     LadderActivity("alice@0", iso(10), [game(29, "alice@0", "b@1", 0)], iso(1)))
    idle = KeyFacts("Zed", [], None)
    frame = organiser_frame([quiet, idle], NOW, 1000, scope="all", ladder=True)
    assert [row.player for row in frame.rows] == ["Zed", "alice"]
    assert len(frame.rows[1].versions) == 8 and frame.rows[1].older_versions == 2
    assert frame.now == "2026-11-27T12:00:00+00:00" and frame.slow_share == 0.8 and frame.idle_hours == 24
    assert parse_server(dump(frame)) == frame                              # a valid server frame

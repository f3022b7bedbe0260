"""The local match: one game between two drivers, a series with tallies, and a failing bot's notices."""

from __future__ import annotations

import itertools

from client.driver import BotDriver
from client.match import TRACEBACKS_SHOWN, match_labels, play_game, play_match
from client.notices import Notice
from shared.quoridor import COURSE
from shared.referee import RefereeSettings
from tests.client.support import Walker

BOTS = '''
from client.player import Player
from shared.quoridor import Step

class Crasher(Player):
    def next_step(self, change):
        raise RuntimeError("every turn")

class Texter(Player):
    def next_step(self, change):
        return "e2"
'''


class Noting(Walker):
    """Walks, and notes the limit it is told and the games it begins and ends."""

    def __init__(self, key: str = "") -> None:
        super().__init__(key)
        self.notes: list[tuple] = []

    def begin_game(self, seat, ruleset=COURSE):
        super().begin_game(seat, ruleset)
        self.notes.append(("begin", seat, self.time_limit_ms))

    def restart(self):
        self.notes.append(("restart",))


def test_one_game_seats_tells_plays_and_restarts_both_bots():
    bots = (Noting("a"), Noting("b"))
    ticks = itertools.count(0.0, 0.001)
    game = play_game((BotDriver(bots[0]), BotDriver(bots[1])), ("a", "b"), RefereeSettings(time_limit_ms=250),
                     lambda: next(ticks))
    assert game.outcome.reason == "goal" and game.outcome.violations == (0, 0)
    assert bots[0].notes == [("begin", 0, 250), ("restart",)] and bots[1].notes == [("begin", 1, 250), ("restart",)]


def test_labels_of_the_same_bot_twice_are_told_apart():
    assert match_labels(("strong", "x.py:Mine")) == ("strong", "Mine")
    assert match_labels(("runner", "runner")) == ("runner#1", "runner#2")


def test_a_series_alternates_colours_and_tallies_each_bot(tmp_path):
    path = tmp_path / "walker.py"
    path.write_text("from tests.client.support import Walker\n")
    (tmp_path / "logs").mkdir()
    first, second, games = play_match(("runner", f"{path}:Walker"), 4, RefereeSettings(time_limit_ms=None),
                                      log_dir=tmp_path / "logs", say=lambda notice: None)
    assert [g.players for g in games] == [("runner", "Walker"), ("Walker", "runner")] * 2
    assert (first.games, second.games) == (4, 4) and first.wins == second.losses and first.losses == second.wins
    assert first.wins + second.wins + first.draws == 4
    assert first.steps + second.steps == sum(len(g.records) for g in games)
    assert len(list((tmp_path / "logs").glob("game00*_vs_*.csv"))) == 4


def test_a_failing_bot_is_counted_and_told_with_its_traceback_a_few_times(tmp_path):
    path = tmp_path / "bots.py"
    path.write_text(BOTS)
    told: list[Notice] = []
    crasher, texter, _ = play_match((f"{path}:Crasher", f"{path}:Texter"), 2, RefereeSettings(time_limit_ms=None),
                                    log_dir=None, say=told.append)
    assert crasher.errors == texter.errors == 3 + 2              # a game ends at seat 0's 3rd violation
    crashes = [n.text for n in told if n.text.startswith("Crasher")]
    assert len(crashes) == TRACEBACKS_SHOWN + 1 and all("Traceback" in text for text in crashes[:-1])
    assert crashes[0].startswith("Crasher: next_step raised RuntimeError: every turn\nTraceback")
    assert crashes[-1] == "Crasher: next_step raised RuntimeError: every turn — and 2 more times (tracebacks not shown)"
    assert [n.text for n in told if n.text.startswith("Texter")] == \
        ["Texter: next_step returned 'e2' (str); it must return a Step"] * 5

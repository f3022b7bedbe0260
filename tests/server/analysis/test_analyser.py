"""The background analyser: finished games analysed beside their logs, oldest first, a page's game ahead of the
backlog, a bounded queue, and the logs left unanalysed picked up at a start (the fake kit, in the test's thread)."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from server.analysis import AnalysisProcessError, BackgroundAnalyser
from server.analysis.analyser import CRASHES_TO_STOP
from server.analysis.store import analysis_path

from tests.server.analysis import fake_kit
from tests.server.analysis.conftest import BOUND_S, InThread, write_log


@pytest.fixture
def analysers():
    made: list[BackgroundAnalyser] = []

    def make(analysis: InThread, **options) -> BackgroundAnalyser:
        analyser = BackgroundAnalyser(analysis, **options)
        made.append(analyser)
        analyser.start()
        return analyser
    yield make
    for analyser in made:
        analyser.close()


def test_a_finished_games_analysis_appears_beside_its_log(tmp_path, analysers):
    log = write_log(tmp_path / "t1", "t1-r1-p1-g1_alice_vs_bob.csv")
    analyser = analysers(InThread())
    analyser.finished(log)
    assert analyser.wait_idle(BOUND_S)
    stored = json.loads(analysis_path(log).read_text())
    assert analysis_path(log).name == "t1-r1-p1-g1_alice_vs_bob.csv.analysis.json"
    assert stored["key"] == fake_kit.analysis_key(log.read_bytes())
    assert stored["engine"] == "fake-1" and len(stored["plies"]) == 2
    assert not list(log.parent.glob(".*.tmp"))          # written atomically: no temporary file left behind


def test_games_are_analysed_oldest_first_and_a_pages_game_goes_ahead_of_the_backlog(tmp_path, analysers):
    logs = [write_log(tmp_path, f"g{i}.csv", white=f"w{i}") for i in range(4)]
    analysis = InThread(gated=True)
    analyser = analysers(analysis)
    for log in logs[:3]:
        analyser.finished(log)
    analysis.wait_started(1)                            # g0 is being analysed, g1 and g2 wait
    assert [analyser.position(log) for log in logs] == [0, 1, 2, None]
    assert analyser.ask(logs[3]) == 1                   # a page asks for g3: next, ahead of the backlog
    assert analyser.ask(logs[2]) == 2                   # g2, asked for too, moves up behind g3
    assert [analyser.position(log) for log in logs] == [0, 3, 2, 1]
    analysis.release(4)
    assert analyser.wait_idle(BOUND_S)
    assert [Path(r["log"]).name for r in analysis.requests] == ["g0.csv", "g3.csv", "g2.csv", "g1.csv"]
    assert all(analysis_path(log).is_file() for log in logs)


def test_the_queue_is_bounded_the_oldest_waiting_game_gives_way_and_the_log_says_so(tmp_path, analysers, caplog):
    logs = [write_log(tmp_path, f"g{i}.csv", white=f"w{i}") for i in range(6)]
    analysis = InThread(gated=True)
    analyser = analysers(analysis, bound=3)
    analyser.finished(logs[0])
    analysis.wait_started(1)                            # g0 is analysed; 3 places for the others
    with caplog.at_level(logging.WARNING, logger="quoridor.server"):
        for log in logs[1:]:
            analyser.finished(log)
    assert analyser.waiting == 3 and analyser.dropped == 2
    assert [analyser.position(log) for log in logs] == [0, None, None, 1, 2, 3]
    assert "the analysis queue is full (3 games)" in caplog.text and "g1.csv" in caplog.text
    assert caplog.text.count("queue is full") == 1       # said once, not at every drop
    analysis.release(4)
    assert analyser.wait_idle(BOUND_S)
    assert not analysis_path(logs[1]).exists() and analysis_path(logs[5]).exists()


def test_a_start_queues_the_logs_left_without_a_current_analysis(tmp_path, analysers, monkeypatch):
    done = write_log(tmp_path / "t1", "done.csv")
    stale = write_log(tmp_path / "t1", "stale.csv", white="carol")
    never = write_log(tmp_path / "t2", "never.csv", white="dave")
    (tmp_path / "t2" / "playing.csv.part").write_text(never.read_text())    # a game in progress: not finished
    first = analysers(InThread(), scan=tmp_path)
    assert first.wait_idle(BOUND_S)
    first.close()
    assert all(analysis_path(log).is_file() for log in (done, stale, never))
    assert not (tmp_path / "t2" / "playing.csv.part.analysis.json").exists()

    # a new engine version: every stored analysis is stale and done again at the next start
    monkeypatch.setenv("FAKE_ENGINE", "fake-2")
    again = InThread()
    second = analysers(again, scan=tmp_path)
    assert second.wait_idle(BOUND_S)
    analysed = sorted(Path(r["log"]).name for r in again.requests if r["op"] == "analyse")
    assert analysed == ["done.csv", "never.csv", "stale.csv"]
    assert {json.loads(analysis_path(log).read_text())["engine"] for log in (done, stale, never)} == {"fake-2"}

    # and a start with every analysis current analyses nothing
    third = InThread()
    assert analysers(third, scan=tmp_path).wait_idle(BOUND_S)
    assert [r["op"] for r in third.requests] == ["scan"]


def test_a_failed_analysis_is_remembered_and_the_next_game_goes_on(tmp_path, analysers, caplog):
    bad, good = write_log(tmp_path, "bad.csv", boom=True), write_log(tmp_path, "good.csv")
    analyser = analysers(InThread())
    with caplog.at_level(logging.WARNING, logger="quoridor.server"):
        analyser.finished(bad)
        analyser.finished(good)
        assert analyser.wait_idle(BOUND_S)
    assert "the fake engine failed" in analyser.failure(bad)
    assert analyser.failure(good) is None and analysis_path(good).is_file()
    assert "bad.csv not analysed" in caplog.text


def test_a_forfeited_game_has_no_log_and_is_skipped_quietly(tmp_path, analysers, caplog):
    analyser = analysers(InThread())
    with caplog.at_level(logging.WARNING, logger="quoridor.server"):
        analyser.finished(tmp_path / "forfeit.csv")
        assert analyser.wait_idle(BOUND_S)
    assert caplog.text == ""


def test_the_logs_of_a_folder_still_queued_are_known_and_waited_for(tmp_path, analysers):
    ours = [write_log(tmp_path / "t1", f"g{i}.csv", white=f"w{i}") for i in range(2)]
    other = write_log(tmp_path / "t0", "old.csv")
    analysis = InThread(gated=True)
    analyser = analysers(analysis)
    for log in (other, *ours):
        analyser.finished(log)
    analysis.wait_started(1)                            # the old game is analysed; ours wait
    assert analyser.queued_in(tmp_path / "t1") == ours
    assert not analyser.wait_for(ours, timeout=0)
    analysis.release(3)
    assert analyser.wait_for(ours, timeout=BOUND_S)
    assert analyser.queued_in(tmp_path / "t1") == [] and all(analysis_path(log).is_file() for log in ours)


class Crashing(InThread):
    """An analysis process that ends during every request (it cannot even start)."""

    def request(self, message):
        super().request(message)
        raise AnalysisProcessError("the analysis process ended (exit code 1)")


def test_a_process_that_keeps_dying_stops_the_analysis_once_not_for_every_game(tmp_path, analysers, caplog):
    logs = [write_log(tmp_path, f"g{i}.csv", white=f"w{i}") for i in range(5)]
    analysis = Crashing()
    analyser = analysers(analysis)
    with caplog.at_level(logging.WARNING, logger="quoridor.server"):
        for log in logs[:4]:
            analyser.finished(log)
        assert analyser.wait_idle(BOUND_S)
        analyser.finished(logs[4])
    assert len(analysis.requests) == CRASHES_TO_STOP          # the fourth game was not tried, nor the fifth
    assert analyser.waiting == 0 and analyser.broken is not None
    assert "failed 3 times in a row" in analyser.failure(logs[4])
    assert caplog.text.count("the analysis stopped") == 1

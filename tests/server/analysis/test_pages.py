"""GET /analysis/<GAME>.json: 200 with a current analysis, 202 with its place while queued (a page's game first),
404 for no such finished game, never a path outside the data directory."""

from __future__ import annotations

import json
from http import HTTPStatus

import pytest
from websockets.datastructures import Headers
from websockets.http11 import Request

from server.analysis import Analyses, BackgroundAnalyser
from server.analysis.store import store
from server.web.http import answer_http

from tests.server.analysis import fake_kit
from tests.server.analysis.conftest import BOUND_S, InThread, write_log


def get(analyses: Analyses | None, path: str) -> tuple[int, dict]:
    response = answer_http(Request(path, Headers({"Host": "127.0.0.1:1"})),
                           analyses.answer_bytes if analyses is not None else None)
    assert response is not None
    assert response.headers["Content-Type"] == ("application/json" if analyses is not None
                                                else "text/plain; charset=utf-8")
    return response.status_code, (json.loads(response.body) if analyses is not None else {})


@pytest.fixture
def served(tmp_path):
    """Analyses of ``tmp_path`` with a gated in-thread analysis (each game done when the test releases it)."""
    analysis = InThread(gated=True)
    analyser = BackgroundAnalyser(analysis)
    analyses = Analyses(tmp_path, fake_kit.analysis_key, analyser)
    analyses.start()
    yield analyses, analysis
    analyses.close()


def test_a_stored_current_analysis_is_served_ready(tmp_path, served):
    analyses, _ = served
    log = write_log(tmp_path / "t1", "t1-r1-p1-g1_alice_vs_bob.csv")
    store(log, {"engine": "fake-1", "nodes": 7, "plies": [], "players": []}, fake_kit.analysis_key(log.read_bytes()))
    for path in ("/analysis/t1/t1-r1-p1-g1_alice_vs_bob.csv.json", "/analysis/t1%2Ft1-r1-p1-g1_alice_vs_bob.csv.json"):
        status, body = get(analyses, path)
        assert status == 200 and body["status"] == "ready" and body["engine"] == "fake-1"


def test_a_game_not_analysed_is_queued_ahead_of_the_backlog_and_pending_until_ready(tmp_path, served):
    analyses, analysis = served
    backlog = [write_log(tmp_path / "t1", f"g{i}.csv", white=f"w{i}") for i in range(3)]
    for number, log in enumerate(backlog):
        analyses.game_finished(f"t1-g{number}", log)
    analysis.wait_started(1)                                       # g0 is analysed, g1 and g2 wait
    asked = write_log(tmp_path / "t1", "asked.csv", white="carol")
    assert get(analyses, "/analysis/t1/asked.csv.json") == (202, {"status": "pending", "position": 1})
    assert get(analyses, "/analysis/t1-g2.json") == (202, {"status": "pending", "position": 2})   # by its game id
    assert get(analyses, "/analysis/t1-g0.json") == (202, {"status": "pending", "position": 0})
    analysis.release(4)
    assert analyses.analyser is not None and analyses.analyser.wait_idle(BOUND_S)
    assert [r["log"].rsplit("/", 1)[-1] for r in analysis.requests] == ["g0.csv", "asked.csv", "g2.csv", "g1.csv"]
    status, body = get(analyses, "/analysis/t1/asked.csv.json")
    assert status == 200 and body["status"] == "ready" and body["key"] == fake_kit.analysis_key(asked.read_bytes())


def test_a_stale_analysis_is_pending_again(tmp_path, served):
    analyses, _ = served
    log = write_log(tmp_path / "t1", "g.csv")
    store(log, {"engine": "fake-0", "nodes": 7, "plies": [], "players": []}, "an older engine's key")
    status, body = get(analyses, "/analysis/t1/g.csv.json")
    assert status == 202 and body["status"] == "pending" and body["position"] in (0, 1)   # taken at once, or next


@pytest.mark.parametrize("path", [
    "/analysis/t1/nothing.csv.json", "/analysis/unknown-game.json", "/analysis/../etc/passwd.json",
    "/analysis/t1%2F..%2F..%2Fsecret.csv.json", "/analysis/%2Fetc%2Fpasswd.json", "/analysis/t1/g.csv.part.json",
    "/analysis/t1/results.csv.json", "/analysis/.json", "/analysis/" + "a" * 5000 + ".json",
])
def test_no_such_finished_game_is_404_and_no_path_leaves_the_data_directory(tmp_path, served, path):
    analyses, analysis = served
    (tmp_path / "secret.csv").write_text(write_log(tmp_path / "t1", "g.csv").read_text())
    (tmp_path / "t1" / "g.csv.part").write_text("in progress")
    (tmp_path / "t1" / "results.csv").write_text("a table")
    status, body = get(analyses, path)
    assert status == 404 and body["status"] == "missing"
    assert analysis.requests == [] or all(r["op"] == "scan" for r in analysis.requests)


def test_a_failed_analysis_is_said_not_polled_forever(tmp_path, served):
    analyses, analysis = served
    log = write_log(tmp_path / "t1", "bad.csv", boom=True)
    analyses.game_finished("t1-bad", log)
    analysis.release()
    assert analyses.analyser is not None and analyses.analyser.wait_idle(BOUND_S)
    status, body = get(analyses, "/analysis/t1-bad.json")
    assert status == HTTPStatus.INTERNAL_SERVER_ERROR and body["status"] == "failed"
    assert "the fake engine failed" in body["message"]


def test_with_the_analysis_off_stored_analyses_are_served_and_others_are_404(tmp_path):
    analyses = Analyses(tmp_path, fake_kit.analysis_key, None)
    kept, other = write_log(tmp_path / "t1", "kept.csv"), write_log(tmp_path / "t1", "other.csv", white="carol")
    store(kept, {"engine": "fake-1", "nodes": 7, "plies": [], "players": []}, fake_kit.analysis_key(kept.read_bytes()))
    assert get(analyses, "/analysis/t1/kept.csv.json")[0] == 200
    status, body = get(analyses, "/analysis/t1/other.csv.json")
    assert status == 404 and body["status"] == "off" and "--analysis off" in body["message"]
    assert other.exists()


def test_a_server_keeping_no_analyses_answers_404():
    assert get(None, "/analysis/t1-r1-p1-g1.json")[0] == 404

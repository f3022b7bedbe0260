"""The ladder's --report with the analysis: a version's accuracy and the worst steps of its lost games, linked."""

from __future__ import annotations

import json

from server.cli import main
from server.ladder.store import LadderGame, LadderStore
from shared.gamelog import format_log
from shared.ladder import LiveRatings
from tests.client.replay.analysis_helpers import BLUNDER_PLY, blunder_log


def _ladder_with_a_blunder(tmp_path):
    """One ladder game: me (seat 0) could win at once at ply 17, placed a wall instead, and lost to you."""
    store = LadderStore(tmp_path / "ladder.db")
    ratings = LiveRatings()
    me, you = (store.track(bot, "v1", ratings.initial()) for bot in ("me", "you"))
    after = ratings.after_game(me.skill, you.skill, 1)
    store.record(LadderGame("L1-g1", 1, me, you, 1, "goal", "", None, "2026-01-01T00:00:00", (90, 90),
                            (0, 0), ((10,) * 9, (10,) * 9), ((), ()), after))
    store.close()
    (tmp_path / "ladder").mkdir()
    log = tmp_path / "ladder" / "L1-g1_me_vs_you.csv"
    log.write_text(format_log(blunder_log(("me", "you"))), encoding="utf-8")
    return log


def test_the_report_reads_kept_analyses_and_analyses_the_others_only_when_asked(tmp_path, capsys):
    log = _ladder_with_a_blunder(tmp_path)
    out = tmp_path / "me.json"
    args = ["--ladder", "--data-dir", str(tmp_path), "--report", "me", "--json", str(out)]
    assert main(args) == 0
    plain = capsys.readouterr().out
    assert "none of its games is analysed yet; quoridor-server --ladder --report BOT --analyse analyses them" in plain
    assert json.loads(out.read_text())[0]["analysis"]["games_analysed"] == 0
    assert not (tmp_path / "ladder" / f"{log.name}.analysis.json").exists()      # the plain report analyses nothing

    assert main(args + ["--analyse"]) == 0
    text = capsys.readouterr().out
    line = next(line for line in text.splitlines() if line.startswith(f"  L1-g1 step {BLUNDER_PLY}:"))
    assert "a7h (best e9), blunder: e9 reached the goal row at once" in line
    assert f"/game?game=L1-g1&step={BLUNDER_PLY}" in line and f"{log} --analyse --step {BLUNDER_PLY}" in line
    analysis = json.loads(out.read_text())[0]["analysis"]
    assert analysis["games_analysed"] == 1 and analysis["games_not_analysed"] == 0
    assert analysis["lost_games_analysed"] == 1 and analysis["counts"]["blunder"] >= 1
    worst = analysis["worst_lost_steps"][0]
    assert (worst["game"], worst["ply"], worst["played"], worst["best"], worst["label"]) == \
        ("L1-g1", BLUNDER_PLY, "a7h", "e9", "blunder")
    assert worst["log"] == str(log) and worst["page"] == f"/game?game=L1-g1&step={BLUNDER_PLY}"
    kept = tmp_path / "ladder" / f"{log.name}.analysis.json"
    assert kept.exists()

    kept_text = kept.read_text()
    assert main(args) == 0          # the kept analysis is read: the worst step shows without --analyse
    assert f"L1-g1 step {BLUNDER_PLY}: a7h" in capsys.readouterr().out and kept.read_text() == kept_text
    assert main(["--ladder", "--data-dir", str(tmp_path), "--report", "you", "--json", str(out)]) == 0
    you = json.loads(out.read_text())[0]["analysis"]
    assert you["games_analysed"] == 1 and you["lost_games_analysed"] == 0 and you["worst_lost_steps"] == []

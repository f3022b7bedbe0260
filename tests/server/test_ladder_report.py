"""The ladder report: rendered with a plain console, and printed by quoridor-server --ladder --report."""

import json

from rich.console import Console

from server.cli import main
from server.ladder.store import LadderGame, LadderStore
from server.ladder.view import render_report
from shared.ladder import GameFact, LiveRatings, build_report


def test_a_report_renders_its_sections_on_a_plain_console():
    report = build_report("me@v1", [GameFact("L1-g1", "me@v1", "you", 0, "goal", ((100, 900), (5,)),
                                             (("late",), ()), (1.5, -1.5))], 1000)
    console = Console(width=80, color_system=None, record=True)
    console.print(render_report(report, 1000))
    text = console.export_text()
    assert "me@v1: 1 games, W/L/D 1/0/0 (moving first 1/0/0, second 0/0/0)" in text
    assert "you" in text and "1 steps above" in text and "1 timeouts" in text and "max 900 ms" in text


def test_the_report_command_prints_and_writes_json(tmp_path, capsys):
    store = LadderStore(tmp_path / "ladder.db")
    ratings = LiveRatings()
    me, you = (store.track(bot, "v1", ratings.initial()) for bot in ("me", "you"))
    after = ratings.after_game(me.skill, you.skill, 0)
    store.record(LadderGame("L1-g1", 1, me, you, 0, "goal", "e2 e8", None, "2026-01-01T00:00:00", (300, 200),
                            (0, 1), ((100, 200), (50,)), ((), ("not_reachable",)), after))
    store.close()
    out = tmp_path / "me.json"
    assert main(["--ladder", "--data-dir", str(tmp_path), "--report", "me", "--json", str(out)]) == 0
    out_text = capsys.readouterr().out
    assert "me@v1: 1 games" in out_text and "live rating (openskill): mean" in out_text
    data = json.loads(out.read_text())
    assert data[0]["seat0"] == {"wins": 1, "losses": 0, "draws": 0} and data[0]["head_to_head"][0]["opponent"] == "you@v1"
    assert data[0]["live"]["mu"] > 25 and data[0]["version"] == "v1"
    assert main(["--ladder", "--data-dir", str(tmp_path), "--report", "nobody"]) == 1


def test_the_report_shows_cpu_time_per_step_from_the_logs_of_a_hosted_bot(tmp_path, capsys):
    from shared.gamelog import GameHeader, GameLog, GameOutcome, StepRecord, format_log
    from shared.quoridor import GameStatus, Step

    store = LadderStore(tmp_path / "ladder.db")
    ratings = LiveRatings()
    me, you = (store.track(bot, "v1", ratings.initial()) for bot in ("me", "you"))
    after = ratings.after_game(me.skill, you.skill, 0)
    store.record(LadderGame("L1-g1", 1, me, you, 0, "goal", "e2 e8", None, "2026-01-01T00:00:00", (900, 5),
                            (0, 0), ((400, 500), (5,)), ((), ()), after))
    store.close()
    steps = [StepRecord("me", Step.move(5, 2), GameStatus.OK, 400, 0), StepRecord("you", Step.move(5, 8),
                                                                                   GameStatus.OK, 5, 1),
             StepRecord("me", Step.move(5, 3), GameStatus.OK, 500, 2)]
    outcome = GameOutcome(0, "goal", (900, 5), (0, 0), ((380, 470), (None,)))
    (tmp_path / "ladder").mkdir()
    (tmp_path / "ladder" / "L1-g1_me_vs_you.csv").write_text(
        format_log(GameLog(GameHeader(("me", "you"), game="L1-g1"), steps, outcome)), encoding="utf-8")
    (tmp_path / "ladder" / "L1-g10_me_vs_you.csv").write_text("not a log", encoding="utf-8")   # not this game's
    out = tmp_path / "me.json"
    assert main(["--ladder", "--data-dir", str(tmp_path), "--report", "me", "--json", str(out)]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "CPU time per step (2 steps measured): median 425 ms" in text and "max 470 ms" in text
    assert "wall: median 450 ms" in text
    assert json.loads(out.read_text())[0]["timing"]["cpu"]["max_ms"] == 470
    assert main(["--ladder", "--data-dir", str(tmp_path), "--report", "you"]) == 0
    assert "CPU time per step" not in capsys.readouterr().out            # a connected bot: nothing measured


def test_a_sleepy_bots_report_counts_its_timeouts_as_violations_and_its_losses_by_them_as_its_own(tmp_path, capsys):
    # Recorded as the ladder records them: sleepy lost 5 games by 3 late answers each, and won one by the
    # opponent's 3 illegal walls; "15 timeouts" once came with "violations by cause: none".
    store = LadderStore(tmp_path / "ladder.db")
    ratings = LiveRatings()
    sleepy, awake = (store.track(bot, "v1", ratings.initial()) for bot in ("sleepy", "awake"))
    for n in range(1, 6):
        white, black = (sleepy, awake) if n % 2 else (awake, sleepy)
        seat = 0 if white is sleepy else 1
        causes = (("late",) * 3, ()) if seat == 0 else ((), ("late",) * 3)
        times = ((1200, 1500, 1100), (50, 60)) if seat == 0 else ((50, 60), (1200, 1500, 1100))
        violations = (3, 0) if seat == 0 else (0, 3)
        store.record(LadderGame(f"L1-g{n}", n, white, black, 1 - seat, "violations", "e2 e8", None,
                                "2026-01-01T00:00:00", (3800, 110), violations, times, causes,
                                ratings.after_game(white.skill, black.skill, 1 - seat)))
    store.record(LadderGame("L1-g6", 6, awake, sleepy, 1, "violations", "e2 e8", None, "2026-01-01T00:00:00",
                            (30, 900), (3, 0), ((10, 10, 10), (300, 300)), (("wall_overlaps",) * 3, ()),
                            ratings.after_game(awake.skill, sleepy.skill, 1)))
    store.close()
    out = tmp_path / "sleepy.json"
    assert main(["--ladder", "--data-dir", str(tmp_path), "--report", "sleepy", "--json", str(out)]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "15 timeouts" in text and "violations by cause: late 15" in text
    assert "games ended by: violations (its own) 5, violations (the opponent's) 1" in text
    data = json.loads(out.read_text())[0]
    assert data["timing"]["timeouts"] == data["timing"]["violations"]["late"] == 15
    assert data["endings"] == {"violations (its own)": 5, "violations (the opponent's)": 1}
    # awake's report: its own loss by violations, its violations by cause
    assert main(["--ladder", "--data-dir", str(tmp_path), "--report", "awake"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "0 timeouts" in text and "violations by cause: wall_overlaps 3" in text
    assert "games ended by: violations (its own) 1, violations (the opponent's) 5" in text


def test_the_report_says_where_the_version_stands_among_the_reference_bots(tmp_path, capsys):
    from shared.ladder.reference import standing

    store = LadderStore(tmp_path / "ladder.db")
    ratings = LiveRatings()
    old = store.track("me", "v1", ratings.initial())
    me, rand = store.track("me", "v2", ratings.initial()), store.track("random", "", ratings.initial())
    for number, (white, black, winner) in enumerate([(me, rand, 0), (rand, me, 1), (me, rand, 0), (rand, me, 0)], 1):
        store.record(LadderGame(f"L1-g{number}", number, white, black, winner, "goal", "", None, "2026-01-01T00:00:00",
                                (10, 10), (0, 0), ((10,), (10,)), ((), ()),
                                ratings.after_game(white.skill, black.skill, winner)))
    (row,) = [row for row in store.published()[0] if row.track == "me@v2"]
    store.close()
    out = tmp_path / "me.json"
    assert main(["--ladder", "--data-dir", str(tmp_path), "--report", "me", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    line = standing(row.rating, row.low, row.high)           # 3 of 4 against random: above it
    assert line.startswith("beats random (+0)") or line.startswith("about level with random (+0)")
    shown = f"{row.rating:+,.0f} [{row.low:+,.0f}, {row.high:+,.0f}]: {line}"
    assert f"where it stands: {shown}" in text
    assert "where it stands: not on the published table" in text                # v1: an older version
    data = {entry["track"]: entry for entry in json.loads(out.read_text())}
    assert data["me@v2"]["standing"] == {"rating": row.rating, "low": row.low, "high": row.high,
                                         "text": shown}
    assert data[old.label]["standing"]["rating"] is None

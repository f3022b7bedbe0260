"""``quoridor-match``, the bot loader and the Wilson interval."""

import json
import re

import pytest

from client.loader import BotLoadError, load_bot, resolve_spec
from client.match import wilson_interval
from client.match_cli import main

BOT_FILE = '''
from client.player import Player
from shared.quoridor import Step

class Walker(Player):
    def next_step(self, change):
        pos = self.position
        return Step(min(pos.legal_moves(), key=lambda m: pos.apply(Step(m)).distance(self.seat)))

class NotABot:
    pass
'''


def test_wilson_interval():
    low, high = wilson_interval(0.5, 100)
    assert 0.40 < low < 0.41 and 0.59 < high < 0.60
    assert wilson_interval(1.0, 10)[1] == pytest.approx(1.0)
    assert wilson_interval(0.0, 0) == (0.0, 1.0)


def test_load_bot_from_a_file_a_module_and_a_name(tmp_path):
    path = tmp_path / "mybot.py"
    path.write_text(BOT_FILE)
    assert type(load_bot(f"{path}:Walker", "k")).__name__ == "Walker"
    assert type(load_bot("client.bots:RunnerPlayer")).__name__ == "RunnerPlayer"
    assert type(load_bot("strong")).__name__ == "StrongPlayer"


@pytest.mark.parametrize("spec, message", [
    ("chess", "unknown bot"), ("missing.py:X", "does not exist"), ("client.bots:Nope", "has no class"),
    ("no_such_module_xyz:X", "cannot import"),
])
def test_load_bot_errors(spec, message):
    with pytest.raises(BotLoadError, match=message):
        load_bot(spec)


def test_load_bot_rejects_a_class_that_is_not_a_bot(tmp_path):
    path = tmp_path / "mybot.py"
    path.write_text(BOT_FILE)
    with pytest.raises(BotLoadError, match="not a bot class"):
        load_bot(f"{path}:NotABot")
    with pytest.raises(BotLoadError, match=r"has no class 'Wrong' \(bot classes there: Walker\)$"):
        load_bot(f"{path}:Wrong")     # the base class it imports (Player) is not offered


def test_a_local_match_prints_win_rates_and_writes_logs(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "160")
    path = tmp_path / "mybot.py"
    path.write_text(BOT_FILE)
    logs = tmp_path / "logs"
    assert main(["runner", f"{path}:Walker", "-g", "4", "--log-dir", str(logs)]) == 0
    out = capsys.readouterr().out
    assert "runner" in out and "Walker" in out and "50%" in out, out
    files = sorted(logs.glob("*.csv"))
    assert len(files) == 4
    from shared.gamelog import parse_log
    log = parse_log(files[0].read_text())
    assert log.outcome is not None and log.outcome.reason == "goal"


def test_match_cli_errors(capsys):
    with pytest.raises(SystemExit) as info:
        main(["runner", "nobot"])
    assert info.value.code == 2 and "unknown bot" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["runner", "random", "-g", "0"])


LIMIT_AWARE = '''
from client.player import Player
from shared.quoridor import Step

class LimitAware(Player):
    """Walks only when it was told the time limit of 321 ms; else it passes (a violation)."""

    def next_step(self, change):
        if self.time_limit_ms != 321:
            return Step()
        pos = self.position
        return Step(min(pos.legal_moves(), key=lambda m: pos.apply(Step(m)).distance(self.seat)))

class AsyncPorted(Player):
    async def nextStep(self, change):
        pos = self.position
        return Step(min(pos.legal_moves(), key=lambda m: pos.apply(Step(m)).distance(self.seat)))
'''


def test_a_local_match_tells_the_bots_the_time_limit_and_runs_async_nextstep(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "160")
    path = tmp_path / "aware.py"
    path.write_text(LIMIT_AWARE)
    assert main([f"{path}:LimitAware", f"{path}:AsyncPorted", "-g", "2", "-t", "321", "--log-dir", "none"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"LimitAware\s+│\s+2\s+│\s+1/1/0.*│\s+0\s+│\s+0\s+│", out), out
    assert re.search(r"AsyncPorted\s+│\s+2\s+│\s+1/1/0.*│\s+0\s+│\s+0\s+│", out), out


TWO_BOTS = '''
from client.player import Player
from shared.quoridor import Step

class Left(Player):
    def next_step(self, change):
        return Step()

class Right(Player):
    def next_step(self, change):
        return Step()
'''


def test_a_file_alone_names_its_one_bot_class(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "160")
    path = tmp_path / "mybot.py"
    path.write_text(BOT_FILE)              # Walker, beside the imported Player and a class that is no bot
    assert load_bot(str(path)).__class__.__name__ == "Walker"
    assert resolve_spec(str(path)) == f"{path}:Walker"
    assert main(["runner", str(path), "-g", "2", "--log-dir", "none"]) == 0
    assert re.search(r"Walker\s+│\s+2\s+│\s+1/1/0", capsys.readouterr().out)


def test_a_file_with_several_bots_lists_them(tmp_path, capsys):
    path = tmp_path / "pair.py"
    path.write_text(TWO_BOTS)
    with pytest.raises(BotLoadError) as info:
        load_bot(str(path))
    assert str(info.value) == f"{path} has 2 bots: Left, Right; name one as {path}:Left"
    with pytest.raises(SystemExit) as exiting:
        main(["runner", str(path)])
    assert exiting.value.code == 2
    assert f"{path} has 2 bots: Left, Right; name one as {path}:Left" in capsys.readouterr().err


def test_a_file_without_a_bot_says_so(tmp_path):
    path = tmp_path / "empty.py"
    path.write_text("from client.player import Player\n")
    with pytest.raises(BotLoadError, match="defines no bot class"):
        load_bot(str(path))


FAULTY = '''
from client.player import Player
from shared.quoridor import Step


class BadInit(Player):
    def __init__(self, key=""):
        super().__init__(key)
        self.table = {}["weights"]


class Crasher(Player):
    def next_step(self, change):
        raise RuntimeError("every turn")
'''


def test_a_bot_that_raises_in_init_gets_one_line_with_its_own_line(tmp_path, capsys):
    path = tmp_path / "faulty.py"
    path.write_text(FAULTY)
    with pytest.raises(SystemExit) as info:
        main(["runner", f"{path}:BadInit", "-g", "2", "--log-dir", "none"])
    captured = capsys.readouterr()
    assert info.value.code == 2
    assert captured.err.splitlines() == [
        f"quoridor-match: error: {path}:9: creating the bot BadInit raised KeyError: 'weights'"]
    assert "Traceback" not in captured.out + captured.err


def test_an_error_while_importing_names_the_line(tmp_path):
    path = tmp_path / "typo.py"
    path.write_text("import math\n\nx = math.tau\ny = undefined_name\n")
    with pytest.raises(BotLoadError) as info:
        load_bot(f"{path}:X")
    assert str(info.value) == f"{path}:4: importing {path} raised NameError: name 'undefined_name' is not defined"
    path.write_text("def broken(:\n")
    with pytest.raises(BotLoadError, match=rf"^{re.escape(str(path))}:1: importing .* raised SyntaxError: "):
        load_bot(f"{path}:X")


def test_a_bot_that_raises_on_every_turn_is_told_each_time_and_fails_the_match(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "160")
    path = tmp_path / "faulty.py"
    path.write_text(FAULTY)
    assert main(["runner", f"{path}:Crasher", "-g", "2", "--log-dir", "none", "-t", "0"]) == 1
    out = capsys.readouterr().out
    assert out.count("Traceback (most recent call last)") == 3
    assert "Crasher: next_step raised RuntimeError: every turn — and 3 more times (tracebacks not shown)" in out
    assert "quoridor-match: Crasher's code failed 6 times (see above)" in out


# -- three bots and more, the gauntlet, the SPRT -----------------------------------------------------------------
def test_a_round_robin_rates_every_bot_and_writes_every_result_as_json(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    logs, report = tmp_path / "logs", tmp_path / "run.json"
    assert main(["runner", "random", "defender", "-g", "2", "--openings", "3", "--seed", "4",
                 "--log-dir", str(logs), "--json", str(report)]) == 0
    out = capsys.readouterr().out
    assert "a round robin of 3 bots: 2 games per pairing (3 pairings), openings of 3 plies, seed 4, one game at " \
           "a time" in " ".join(out.split())
    assert "ratings: Bradley-Terry, random = 0" in out and "score: row vs column" in out
    shown = [line for line in out.splitlines() if not line.startswith(("logs in", "results in"))]   # paths stay whole
    assert all(len(line) <= 80 for line in shown) and "…" not in out, out
    assert re.search(r"random\s+\d/\d/\d\s+\d+%\s+\d+%-\d+%\s+0\s+anchor\s+0\s+0", out), out
    data = json.loads(report.read_text())
    assert data["mode"] == "round robin" and data["seed"] == 4 and data["opening_plies"] == 3
    assert [b["bot"] for b in data["bots"]] == ["runner", "random", "defender"]
    assert data["bots"][1]["rating"] == 0.0 and data["bots"][1]["rating_interval"] == [0.0, 0.0]
    assert [p["bots"] for p in data["pairings"]] == [["runner", "random"], ["runner", "defender"],
                                                     ["random", "defender"]]
    assert all(p["pairs"] == 1 and sum(p["pentanomial"]) == 1 for p in data["pairings"])
    assert data["matrix"]["runner"]["random"] + data["matrix"]["random"]["runner"] == 1.0
    assert data["matrix"]["runner"]["runner"] is None
    assert len(data["games"]) == 6
    from shared.gamelog import parse_log
    from shared.quoridor import step_name
    for game in data["games"]:
        assert len(game["opening"]) == 3
        log = parse_log((logs / game["log"]).read_text())
        assert [step_name(r.step) for r in log.steps[:3]] == game["opening"]     # the opening: the first rows
    first_pair = [g for g in data["games"] if g["pairing"] == ["runner", "random"]]
    assert first_pair[0]["opening"] == first_pair[1]["opening"]
    assert first_pair[0]["players"] == ["runner", "random"] and first_pair[1]["players"] == ["random", "runner"]


def test_a_gauntlet_plays_one_bot_against_each_other_in_worker_processes(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    report = tmp_path / "run.json"
    assert main(["--gauntlet", "runner", "random", "defender", "-g", "2", "-j", "2", "--seed", "1",
                 "--log-dir", "none", "--json", str(report)]) == 0
    out = capsys.readouterr().out
    assert "a gauntlet: runner against 2 bots: 2 games per pairing (2 pairings), no openings, seed 1, " \
           "2 games at once" in " ".join(out.split())
    data = json.loads(report.read_text())
    assert data["mode"] == "gauntlet"
    assert [p["bots"] for p in data["pairings"]] == [["runner", "random"], ["runner", "defender"]]
    assert data["matrix"]["random"]["defender"] is None and len(data["games"]) == 4


def test_an_sprt_stops_when_it_decides_and_prints_the_ratio_as_it_goes(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "160")
    report = tmp_path / "sprt.json"
    assert main(["runner", "random", "--sprt", "0", "50", "--openings", "2", "--seed", "1", "--log-dir", "none",
                 "--json", str(report)]) == 0
    out = capsys.readouterr().out
    out = " ".join(out.split())
    assert re.search(r"LLR [+-]0\.\d\d \(\d+\.\d%\) \[-2\.94, 2\.94\], 2 games Elo \S+ Ptnml \[\d, \d, \d, \d, \d\]",
                     out), out
    # runner wins nearly every game against random (which walks at random): 17 won pairs decide it.
    assert re.search(r"H1 accepted after \d+ games \(LLR 3\.\d\d >= 2\.94\): runner is 50 Elo better than random "
                     r"rather than 0", out), out
    assert re.search(r"runner vs random: Elo \+.*, LOS \d+\.\d%, \d+ pairs, Ptnml\(0-2\) \[\d+, \d+, \d+, \d+, \d+\]",
                     out), out
    data = json.loads(report.read_text())
    assert data["sprt"]["verdict"] == "H1" and len(data["games"]) == 2 * data["sprt"]["pairs"]
    assert data["sprt"]["llr"] >= data["sprt"]["upper"] and data["pairings"][0]["pairs"] == data["sprt"]["pairs"]


@pytest.mark.parametrize("argv, message", [
    (["runner", "random", "defender", "--sprt", "0", "5"], "--sprt plays exactly two bots"),
    (["runner", "random", "--sprt", "5", "0"], "elo0 must be less than elo1"),
    (["runner"], "give at least two bots"),
    (["runner", "random", "-j", "0"], "--jobs must be at least 1"),
])
def test_run_options_that_make_no_sense_are_refused(argv, message, capsys):
    with pytest.raises(SystemExit) as info:
        main(argv + ["--log-dir", "none"])
    assert info.value.code == 2 and message in capsys.readouterr().err


def test_the_standings_and_the_matrix_fit_80_columns_with_long_names():
    from rich.console import Console

    from client.match import MatchTally
    from client.match_cli import matrix_table, standings_table
    from shared.tournament.bradley_terry import Rating

    names = ["examples_my_first_bot", "a_rather_long_bot_name", "random", "strong"]
    tallies = [MatchTally(name, 120, 100, 8, violations=12, errors=3) for name in names]
    ratings = [Rating(name, -1234.5 + 700 * i, -2000.0, 1500.0) for i, name in enumerate(names)]
    console = Console(width=80, color_system=None, record=True)
    console.print(standings_table(tallies, ratings, anchor="random"))
    console.print(matrix_table(names, {a: {b: None if a == b else 0.5 for b in names} for a in names}))
    text = console.export_text()
    assert all(len(line) <= 80 for line in text.splitlines()) and "…" not in text, text
    assert "120/100/8" in text and "-2000..+1500" in text and "anchor" in text


WANDERER = '''
from client.player import Player
from shared.quoridor import Step, parse_step


class Wanderer(Player):
    """Tries a5 from its first row, then walks to its goal."""

    def next_step(self, change):
        if change.my_loc.y in (1, 9) and change.my_loc.x == 5:
            return parse_step("a5")
        pos = self.position
        return Step(min(pos.legal_moves(), key=lambda m: pos.apply(Step(m)).distance(self.seat)))
'''


def test_a_match_prints_each_bots_violations_by_cause_with_the_first_reason(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "120")
    path = tmp_path / "wanderer.py"
    path.write_text(WANDERER, encoding="utf-8")
    main(["runner", str(path), "-g", "2", "--log-dir", str(tmp_path / "logs")])
    out = capsys.readouterr().out
    assert "Wanderer: " in out and " violations by cause" in out
    assert "not_reachable x" in out and "(first: turn " in out and "a5 is not reachable in one step from e" in out
    assert "runner: " not in out.split("by cause")[0].splitlines()[-1]      # runner broke no rule


def test_two_runs_started_in_the_same_second_keep_their_logs_apart(tmp_path, capsys, monkeypatch):
    from datetime import datetime

    monkeypatch.chdir(tmp_path)
    second = datetime(2026, 11, 27, 12, 15, 30)
    assert main(["runner", "random", "-g", "2", "--step-cap", "10"], now=lambda: second) == 0
    assert main(["runner", "random", "-g", "2", "--step-cap", "10"], now=lambda: second) == 0
    runs = sorted(p.name for p in (tmp_path / "replays").iterdir())
    assert runs == ["local-20261127-121530", "local-20261127-121530-2"]
    assert all(len(list((tmp_path / "replays" / run).glob("*.csv"))) == 2 for run in runs)
    assert "logs in replays/local-20261127-121530-2/" in capsys.readouterr().out


def test_a_run_refused_before_its_games_leaves_no_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit):
        main(["runner", "missing.py"])
    assert not (tmp_path / "replays").exists() or not any((tmp_path / "replays").iterdir())

"""``quoridor-match``, the bot loader and the Wilson interval."""

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
    with pytest.raises(BotLoadError, match="bot classes there: Player, Walker"):
        load_bot(f"{path}:Wrong")


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

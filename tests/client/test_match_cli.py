"""``quoridor-match``, the bot loader and the Wilson interval."""

import re

import pytest

from client.loader import BotLoadError, load_bot
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

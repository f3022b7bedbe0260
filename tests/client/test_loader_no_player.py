"""A file that defines no bot class: the one line says what to write in it, for ``quoridor-client`` and for a bot
handed in as files (validated by ``python -m client.hosted``), never which built-in bots exist."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from client.hosted import EXIT_CODES
from client.loader import BotLoadError, load_bot

ROOT = Path(__file__).resolve().parents[2]
NO_CLASS = "from client.player import Player\n\nSPEED = 3\n"


def test_a_file_without_a_player_subclass_is_told_to_define_one(tmp_path):
    (tmp_path / "mybot.py").write_text(NO_CLASS)
    with pytest.raises(BotLoadError) as info:
        load_bot(str(tmp_path / "mybot.py"))
    message = str(info.value)
    assert message.startswith(f"{tmp_path / 'mybot.py'} defines no bot class: define one subclass of Player in it")
    assert "next_step" in message and "\n" not in message
    assert not any(name in message for name in ("random", "runner", "strong", "built-in"))


def test_a_handed_in_file_without_a_player_subclass_ends_as_no_player_with_what_to_do(tmp_path):
    (tmp_path / "bot.py").write_text(NO_CLASS)
    code = ("import json, sys\nfrom client.hosted import main\ncode = main(['bot.py'])\n"
            "print(json.dumps({'code': code, 'bots': 'client.bots' in sys.modules}), file=sys.__stderr__)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=60,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, input="", check=False)
    lines = done.stderr.splitlines()
    assert json.loads(lines[-1]) == {"code": EXIT_CODES["no_player"], "bots": False}   # the built-ins stay unread
    assert lines[-2] == ("no_player: bot.py defines no bot class: define one subclass of Player in it (from "
                         "client.player import Player) with a next_step(self, change) method that returns a Step")

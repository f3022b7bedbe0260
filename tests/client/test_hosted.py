"""``python -m client.hosted SPEC``: a bot over stdin/stdout, one protocol message a line, prints kept apart."""

from __future__ import annotations

import hashlib
import io
import json
import subprocess
import sys
import textwrap
from pathlib import Path

from client.bots import RandomPlayer
from client.hosted import EXIT_CODES, HostedBotHost, main

ROOT = Path(__file__).resolve().parents[2]
WELCOME = {"type": "welcome", "protocol": 1, "player": "bot", "server": "test",
           "rules": {"ruleset": "course", "time_limit_ms": 1000, "violations_allowed": 3, "step_cap": 100,
                     "walls_per_player": 10}}
START = {"type": "game_start", "game": "g1", "opponent": "them", "seat": 0}
TURN = {"type": "turn", "game": "g1", "turn": 0, "status": 0, "my_loc": [5, 1], "enemy_loc": [5, 9],
        "enemy_wall": None, "walls_left": [10, 10], "time_limit_ms": 1000, "judgement": None}
OVER = {"type": "game_over", "game": "g1", "status": 1, "result": "win", "reason": "goal", "winner": "bot",
        "log": None}

CHATTY = textwrap.dedent("""
    from client.player import Player
    from shared.quoridor import Step
    import os

    class Chatty(Player):
        def next_step(self, change):
            print("thinking out loud")
            os.write(1, b"written to fd 1\\n")
            return Step(self.shortest_path()[1])
""")


def host(spec: str, lines: list[dict], cwd: Path) -> subprocess.CompletedProcess[str]:
    feed = "".join(json.dumps(line) + "\n" for line in lines)
    return subprocess.run([sys.executable, "-m", "client.hosted", spec], input=feed, capture_output=True, text=True,
                          cwd=cwd, timeout=60, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


def test_the_bot_says_hello_once_loaded_then_answers_each_turn_with_a_step(tmp_path):
    (tmp_path / "chatty.py").write_text(CHATTY)
    done = host("chatty.py", [WELCOME, START, TURN], tmp_path)
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 0
    version = hashlib.sha256((tmp_path / "chatty.py").read_bytes()).hexdigest()[:12]
    assert out == [{"type": "hello", "protocol": 1, "role": "player", "key": "hosted", "name": "chatty",
                    "version": version},
                   {"type": "step", "game": "g1", "turn": 0, "move": [5, 2], "wall": None}]
    assert "thinking out loud" in done.stderr and "written to fd 1" in done.stderr


def test_a_bot_that_cannot_load_exits_with_its_cause_and_one_line(tmp_path):
    (tmp_path / "broken.py").write_text("from client.player import Player\nclass A(Player)\n")
    done = host("broken.py", [], tmp_path)
    assert done.returncode == EXIT_CODES["syntax_error"] and done.stdout == ""
    assert done.stderr.splitlines()[-1].startswith("syntax_error: broken.py:2: importing broken.py raised SyntaxError")
    (tmp_path / "empty.py").write_text("x = 1\n")
    assert host("empty.py", [], tmp_path).returncode == EXIT_CODES["no_player"]


def test_the_host_reads_the_same_messages_as_the_websocket_protocol():
    answers = io.StringIO()
    feed = io.BytesIO("".join(json.dumps(m) + "\n" for m in (WELCOME, START, TURN, OVER)).encode())
    code = HostedBotHost(RandomPlayer("k"), feed, answers, io.StringIO()).run("random")
    hello, step = (json.loads(line) for line in answers.getvalue().splitlines())
    assert code == 0 and hello["type"] == "hello" and (step["type"], step["game"], step["turn"]) == ("step", "g1", 0)


def test_usage():
    assert main([]) == EXIT_CODES["usage"]


def test_an_answer_the_referee_has_moved_past_is_not_sent(tmp_path):
    (tmp_path / "chatty.py").write_text(CHATTY)
    done = host("chatty.py", [WELCOME, START, TURN, OVER], tmp_path)      # the game ended while the bot thought
    assert done.returncode == 0 and [json.loads(line)["type"] for line in done.stdout.splitlines()] == ["hello"]
    assert "a late answer to turn 0 was discarded" in done.stderr


def test_a_handed_in_file_is_hosted_without_loading_the_built_in_bots(tmp_path):
    (tmp_path / "lean.py").write_text(textwrap.dedent("""
        import sys
        from client.player import Player
        from shared.quoridor import Step

        class Lean(Player):
            def __init__(self, key=""):
                super().__init__(key)
                print("built-in bots loaded:", "client.bots" in sys.modules)

            def next_step(self, change):
                return Step(self.shortest_path()[1])
    """))
    done = host("lean.py", [WELCOME], tmp_path)
    assert done.returncode == 0 and "built-in bots loaded: False" in done.stderr

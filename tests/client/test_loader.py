"""``client.loader``: a spec costs only what it needs (a handed-in file never imports the built-in bots, a built-in
name only its own)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from client.loader import BotCrashed, BotLoadError, load_bot

ROOT = Path(__file__).resolve().parents[2]
WALKER = ("from client.player import Player\nfrom shared.quoridor import Step\n\n"
          "class Walker(Player):\n    def next_step(self, change):\n        return Step(self.shortest_path()[1])\n")


def loaded_modules(spec: str, cwd: Path) -> dict[str, bool]:
    """Load ``spec`` in a fresh interpreter; which of the modules of interest it imported."""
    code = ("import json, sys\nfrom client.loader import load_bot\nbot = load_bot(sys.argv[1], 'k')\n"
            "print(json.dumps({name: name in sys.modules for name in "
            "('client.bots', 'client.bots.strong', 'client.bots.search', 'sysconfig')}))")
    done = subprocess.run([sys.executable, "-c", code, spec], capture_output=True, text=True, cwd=cwd, timeout=60,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, check=True)
    return json.loads(done.stdout)


def test_a_file_bot_is_loaded_without_importing_the_built_in_bots(tmp_path):
    (tmp_path / "walker.py").write_text(WALKER)
    assert loaded_modules("walker.py", tmp_path) == {"client.bots": False, "client.bots.strong": False,
                                                     "client.bots.search": False, "sysconfig": False}


def test_a_built_in_name_imports_that_bot_only(tmp_path):
    assert loaded_modules("random", tmp_path) == {"client.bots": True, "client.bots.strong": False,
                                                  "client.bots.search": False, "sysconfig": False}
    assert loaded_modules("strong", tmp_path)["client.bots.search"] is True


def test_an_unknown_name_lists_the_built_in_ones():
    with pytest.raises(BotLoadError, match=r"unknown bot 'nobody': give a built-in name \(random, .*strong"):
        load_bot("nobody")


def test_a_crash_is_still_placed_in_the_bots_own_line(tmp_path, monkeypatch):
    (tmp_path / "bad.py").write_text(WALKER.replace("class Walker(Player):",
                                                    "class Walker(Player):\n    def __init__(self, key=''):\n"
                                                    "        raise RuntimeError('no')\n"))
    monkeypatch.chdir(tmp_path)
    with pytest.raises(BotCrashed, match=r"^bad\.py:6: creating the bot Walker raised RuntimeError: no"):
        load_bot("bad.py")


def test_a_bots_folder_never_shadows_the_arenas_packages(tmp_path):
    folder = tmp_path / "bot"
    for name, source in {"bot.py": "import helper\n" + WALKER, "helper.py": "",
                         "server/__init__.py": "raise ImportError('the bot replaced the arena server')\n",
                         "shared/__init__.py": "raise ImportError('the bot replaced the arena shared')\n",
                         "client/__init__.py": "raise ImportError('the bot replaced the arena client')\n"}.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(source, encoding="utf-8")
    code = ("import sys\nfrom client.loader import load_bot\nbot = load_bot(sys.argv[1], 'k')\n"
            "import server.settings, shared.quoridor, client.hosted, helper\n"
            "print(type(bot).__name__, server.__file__, helper.__file__)")
    # PYTHONPATH names the arena (as the sandbox does), and cwd is the bot's folder
    done = subprocess.run([sys.executable, "-P", "-c", code, str(folder / "bot.py")], capture_output=True, text=True,
                          cwd=folder, timeout=60, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    name, server_file, helper_file = done.stdout.split()
    assert name == "Walker" and server_file == str(ROOT / "server" / "__init__.py")
    assert helper_file == str(folder / "helper.py")

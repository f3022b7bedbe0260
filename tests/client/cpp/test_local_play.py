"""The handout's C++ bot played locally as it is written: ``quoridor-match MyPlayer.cpp runner``, a gauntlet and an
SPRT beside Python bots (in worker processes too), built once into the user's cache; a compile error in one line."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

from client import cppcache
from client.cli import main as client_main
from client.match_cli import main as match_main
from client.render import notice_printer
from client.runner import BotRunner
from tests.client.support import Walker, quiet
from tests.server.conftest import bounded, url
from tests.client.cpp.conftest import HANDOUT_BOT

MY_PLAYER = HANDOUT_BOT / "QuoridorClient" / "MyPlayer.cpp"


@pytest.fixture
def cache(tmp_path, monkeypatch, gpp) -> Path:
    """The user's cache of builds, empty (``$XDG_CACHE_HOME``)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg" / "quoridor-arena" / "cpp"


def test_the_handout_bot_plays_a_python_bot_and_a_second_run_uses_the_cache(cache, capfd, monkeypatch):
    code = match_main([str(MY_PLAYER), "runner", "-g", "2", "--step-cap", "20", "--log-dir", "none"])
    first = capfd.readouterr()
    assert code == 0, first.err
    assert "MyPlayer" in first.out and "runner" in first.out and "errors" in first.out
    assert first.err.count("building MyPlayer.cpp (g++ -O2)...") == 1      # once: the games found it in the cache
    assert "game status: Ok; my loc: (5, 1)" in first.err                   # its std::cout, on the terminal's stderr
    assert len(list(cache.glob("*/bot"))) == 1

    builds: list[Path] = []
    real_build = cppcache.build
    monkeypatch.setattr(cppcache, "build", lambda *a, **k: builds.append(a[0]) or real_build(*a, **k))
    code = match_main([f"{MY_PLAYER}:MyPlayer", "strong", "-g", "2", "--step-cap", "20", "--log-dir", "none"])
    second = capfd.readouterr()
    assert code == 0, second.err
    # MyPlayer.cpp:MyPlayer is the entry MyPlayer.cpp found by itself: the same build
    assert builds == [] and "building" not in second.err


def test_an_edited_bot_is_built_again_without_compiling_the_arenas_objects_again(cache, tmp_path, monkeypatch):
    compiled: list[Path] = []
    real = cppcache.build_arena_objects
    monkeypatch.setattr(cppcache, "build_arena_objects", lambda output: compiled.append(output) or real(output))
    bot = tmp_path / "bot"
    shutil.copytree(HANDOUT_BOT, bot)
    first = cppcache.cached_build(bot / "QuoridorClient", entry="MyPlayer.cpp:MyPlayer")
    with (bot / "QuoridorClient" / "MyPlayer.cpp").open("a") as source:
        source.write("// a comment: a new version of the bot\n")
    second = cppcache.cached_build(bot / "QuoridorClient", entry="MyPlayer.cpp:MyPlayer")
    assert not first.cached and not second.cached and first.executable != second.executable
    assert len(compiled) == 1                              # the arena's main, compiled once for both
    assert second.executable.is_file() and len(list(cache.glob("arena-*"))) == 1


def test_a_gauntlet_and_an_sprt_play_the_cpp_bot_beside_python_bots_in_worker_processes(cache, tmp_path, capfd):
    python_bot = tmp_path / "walker_bot.py"
    python_bot.write_text(WALKER)
    code = match_main(["--gauntlet", str(MY_PLAYER), str(python_bot), "runner", "-g", "2", "-j", "2",
                       "--step-cap", "20", "--log-dir", "none", "--seed", "1"])
    out = capfd.readouterr()
    assert code == 0, out.err
    assert "a gauntlet: MyPlayer against 2 bots" in out.out
    assert "Walking" in out.out and "runner" in out.out
    assert "Traceback" not in out.err
    code = match_main([str(MY_PLAYER), str(python_bot), "--sprt", "0", "50", "-g", "4", "--step-cap", "20",
                       "--log-dir", "none", "--seed", "1"])
    out = capfd.readouterr()
    assert code == 0, out.err
    assert "SPRT [0, 50]" in out.out and "after 4 games" in out.out


def test_a_compile_error_is_one_line_with_the_file_and_line_as_typed(cache, tmp_path, capfd, monkeypatch):
    bot = tmp_path / "bot"
    shutil.copytree(HANDOUT_BOT, bot)
    source = bot / "QuoridorClient" / "MyPlayer.cpp"
    lines = source.read_text().splitlines()
    broken = lines.index("    block.normalization();")
    lines[broken] = "    undeclared = 1;"
    source.write_text("\n".join(lines) + "\n")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as ended:
        match_main(["bot/QuoridorClient/MyPlayer.cpp", "runner", "--log-dir", "none"])
    code = ended.value.code
    err = capfd.readouterr().err
    assert code == 2
    assert err.splitlines()[-1] == (f"quoridor-match: error: bot/QuoridorClient/MyPlayer.cpp:{broken + 1}: error: 'undeclared' "
                                    "was not declared in this scope")
    assert "usage:" not in err
    with pytest.raises(SystemExit):
        match_main(["bot/QuoridorClient/MyPlayer.cpp:Nope", "runner", "--log-dir", "none"])
    assert capfd.readouterr().err.splitlines()[-1] == (
        "quoridor-match: error: bot/QuoridorClient/MyPlayer.cpp:Nope: no class Nope deriving from Player "
        "(found: MyPlayer)")


WALKER = '''
from client.player import Player
from shared.quoridor import Step


class Walking(Player):
    def next_step(self, change):
        pos = self.position
        return Step(min(pos.legal_moves(), key=lambda m: pos.apply(Step(m)).distance(self.seat)))
'''


async def test_quoridor_client_plays_the_handout_bot_on_a_server(cache, make_server, capfd):
    server = await make_server(players=2, games_per_pairing=2)
    client = asyncio.create_task(asyncio.to_thread(client_main, ["--server", url(server), "-k", "one", "--bot",
                                                                 str(MY_PLAYER), "--wait", "30"]))
    other = asyncio.create_task(BotRunner(Walker("two"), url(server), "two", say=notice_printer(quiet())).run())
    await bounded(server.run_tournament(), 120)
    assert await bounded(client) == 0
    await bounded(other)
    err = capfd.readouterr().err
    assert "building MyPlayer.cpp (g++ -O2)..." in err
    assert " as one with MyPlayer · " in err and "one: 2 games: " in err
    assert "Traceback" not in err

"""Nothing a bot hands in shadows the arena's own packages: its host is the arena's, whatever the bot's folder holds."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from server.sandbox import BotEntry, GameSpec, LocalGameHost, Pairing, SandboxLimits, validate_bot
from shared.gamelog import parse_log
from shared.referee import RefereeSettings
from tests.server.conftest import bounded
from tests.server.sandbox.conftest import FAST, BotFactory, walker

pytestmark = pytest.mark.usefixtures("sandbox")

#: A host of the bot's own: were it run instead of the arena's, the bot would end as ``crashed`` with this line.
IMPOSTOR = "import sys\nsys.stderr.write('crashed: the hand-in replaced the arena host\\n')\nsys.exit(15)\n"


def hostile(bot_folder: BotFactory) -> Path:
    """A bot with a neighbour module of its own, and ``client/hosted.py``, ``shared/`` and ``server.py`` beside it."""
    folder = bot_folder("import helper\n" + walker(init="assert helper.ANSWER == 42"))
    for name, source in {"helper.py": "ANSWER = 42\n", "client/__init__.py": "", "client/hosted.py": IMPOSTOR,
                         "shared/__init__.py": "raise ImportError('the hand-in replaced the arena shared')\n",
                         "server.py": "raise ImportError('the hand-in replaced the arena server')\n"}.items():
        (folder / name).parent.mkdir(exist_ok=True)
        (folder / name).write_text(textwrap.dedent(source), encoding="utf-8")
    return folder


@pytest.mark.parametrize("limits", [FAST, SandboxLimits(startup_timeout_s=5.0, cpu_seconds=20, unsafe=True)],
                         ids=["sandboxed", "unsafe"])
async def test_a_hand_in_holding_client_hosted_still_runs_the_arenas_host(tmp_path, bot_folder: BotFactory, limits):
    entry = BotEntry("mine", "bot.py", hostile(bot_folder))
    game = GameSpec("g1", tmp_path / "g1.csv", white=0)
    host = LocalGameHost(limits, concurrency=1)
    result = await bounded(host.play(Pairing((entry, BotEntry("random", "random")), (game,),
                                             RefereeSettings(time_limit_ms=1000, step_cap=20), tournament="t")), 60)
    await host.close()
    assert result.reports[0].end is not None and result.reports[0].end.cause == "ok", result.reports[0].end
    log = parse_log(game.log_path.read_text(encoding="utf-8"))
    assert log.outcome is not None and log.outcome.note == "" and log.outcome.reason in ("goal", "step_cap")


@pytest.mark.parametrize("names, shown", [
    (["client/hosted.py", "client/__init__.py"], "client/"), (["shared/__init__.py"], "shared/"),
    (["server.py"], "server.py"), (["lib/bot_helpers.py", "lib/server/__init__.py"], "lib/server/"),
])
async def test_a_hand_in_holding_client_shared_or_server_is_refused_in_one_line(bot_folder: BotFactory, names, shown):
    entry = "lib/bot.py" if names[0].startswith("lib/") else "bot.py"      # lib/server/ is beside the entry
    folder = bot_folder(walker())
    for name in [*names, entry]:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(walker() if name == entry else "", encoding="utf-8")
    verdict = await bounded(validate_bot(folder, entry, FAST), 30)
    assert (verdict.accepted, verdict.cause) == (False, "import_error")
    assert verdict.reason.startswith(f"{shown} has the name of the arena's own package")
    assert "\n" not in verdict.reason and "rename" in verdict.reason


async def test_a_data_folder_named_like_the_arenas_packages_is_no_module(bot_folder: BotFactory):
    folder = bot_folder(walker())
    (folder / "server").mkdir()
    (folder / "server" / "openings.json").write_text("[]", encoding="utf-8")
    verdict = await bounded(validate_bot(folder, "bot.py", FAST), 60)
    assert (verdict.accepted, verdict.cause) == (True, "ok"), verdict


async def test_an_entry_in_a_subfolder_still_imports_the_packages_beside_it_and_at_the_root(bot_folder: BotFactory):
    folder = bot_folder(walker())
    files = {"bots/bot.py": "from tools.numbers import ANSWER\nimport helper\n" + walker(init="assert ANSWER == 42"),
             "bots/helper.py": "", "tools/__init__.py": "", "tools/numbers.py": "ANSWER = 42\n"}
    for name, source in files.items():
        (folder / name).parent.mkdir(exist_ok=True)
        (folder / name).write_text(source, encoding="utf-8")
    verdict = await bounded(validate_bot(folder, "bots/bot.py", FAST), 60)
    assert (verdict.accepted, verdict.cause) == (True, "ok"), verdict


def test_the_server_refuses_the_names_the_bot_host_protects():
    from client.loader import ARENA_PACKAGES
    from server.sandbox import validate

    assert validate.ARENA_PACKAGES == ARENA_PACKAGES

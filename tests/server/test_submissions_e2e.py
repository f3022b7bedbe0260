"""``quoridor-submit`` against a real server on 127.0.0.1 port 0 that validates bots in the real sandbox.

These need bubblewrap: without it they are skipped with how to install it, and fail instead when
``QUORIDOR_REQUIRE_SANDBOX=1`` (as ``.ci/run`` sets it).
"""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

from rich.console import Console

from client.submit_cli import main as submit
from tests.server.conftest import ScriptedBot, url
from tests.server.support import play

ROOT = Path(__file__).resolve().parents[2]
BROKEN = "from client.player import Player\n\nclass Broken(Player)\n    pass\n"


async def run(*argv: str) -> tuple[int, str]:
    """``quoridor-submit ARGV``, in a thread (it runs its own event loop); its exit code and what it printed."""
    out = io.StringIO()
    code = await asyncio.to_thread(submit, list(argv), console=Console(file=out, width=200, color_system=None))
    return code, out.getvalue()


async def test_a_good_bot_is_accepted_and_a_broken_one_refused_with_its_line(make_server, sandbox, tmp_path):
    server = await make_server(players=0)
    code, out = await run(str(ROOT / "examples" / "my_first_bot.py"), "-k", "alice", "--server", url(server),
                          "--entry", ":MyPlayer")
    assert code == 0, out
    accepted = out.strip().splitlines()[-1]
    assert accepted.startswith("accepted: version ") and "(my_first_bot.py:MyPlayer)" in accepted

    (tmp_path / "mybot.py").write_text(BROKEN)
    code, out = await run(str(tmp_path / "mybot.py"), "-k", "alice", "--server", url(server))
    assert code == 1, out
    refused = out.strip().splitlines()[-1]
    assert refused.startswith("refused (syntax_error): ") and "mybot.py" in refused and "3" in refused

    code, out = await run("--list", "-k", "alice", "--server", url(server))
    assert code == 0
    assert "syntax_error" in out and "accepted" in out
    assert out.index("mybot.py") < out.index("my_first_bot.py")        # newest first


async def test_handed_in_bots_take_their_seats_in_a_tournament(make_server, sandbox, tmp_path):
    server = await make_server(players=3, players_from_submissions=True,
                               roster={"k-alice": "Alice", "k-bob": "Bob", "k-carol": "Carol"})
    for key in ("k-alice", "k-bob"):
        code, out = await run(str(ROOT / "examples" / "my_first_bot.py"), "-k", key, "--server", url(server),
                              "--entry", ":MyPlayer")
        assert code == 0, out
    (tmp_path / "mybot.py").write_text(BROKEN)
    code, _ = await run(str(tmp_path / "mybot.py"), "-k", "k-carol", "--server", url(server))
    assert code == 1                            # refused: Carol's seat stays free for a connected bot
    carol = ScriptedBot(url(server), "k-carol")
    standings = await play(server, [carol], seconds=120)
    assert {row.player for row in standings.rows()} == {"Alice", "Bob", "Carol"}
    assert standings.games_done == 3 and [s.name for s in server.hosted] == ["Alice", "Bob"]

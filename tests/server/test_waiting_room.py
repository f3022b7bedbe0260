"""While the seats fill: what the organiser sees of each join and leave (``2 of 4``), on a real server."""

from __future__ import annotations

import asyncio
import io

from server.app import ArenaServer, Stage
from server.views.dashboard import PlainReporter
from server.settings import ServerSettings
from tests.server.conftest import bounded, url
from tests.server.support import Client, hello


async def lines_until(out: io.StringIO, words: str) -> list[str]:
    """The reporter's lines once one of them holds ``words`` (a leave is noticed on the next look at the seats)."""
    for _ in range(100):
        lines = out.getvalue().splitlines()
        if any(words in line for line in lines):
            return lines
        await asyncio.sleep(0.05)
    raise AssertionError(f"no line with {words!r} in {out.getvalue()!r}")


async def test_each_join_and_leave_says_how_many_of_the_seats_are_taken(tmp_path):
    out = io.StringIO()
    server = ArenaServer(ServerSettings(port=0, data_dir=tmp_path, players=3, seed=1), PlainReporter(out))
    await server.start()
    waiting = asyncio.create_task(server.run_tournament())
    clients: list[Client] = []
    try:
        assert server.stage is Stage.WAITING
        assert out.getvalue().splitlines() == [f"watch: http://127.0.0.1:{server.port}/",
                                               f"listening on ws://127.0.0.1:{server.port}/ — waiting for 3 players"]
        for key in ("alice", "bob"):
            client = await Client.open(url(server))
            await client.send(hello(key))
            await client.next("welcome")
            clients.append(client)
        lines = await lines_until(out, "bob joined")
        assert [line.split(" from ")[0] + " — " + line.split(" — ")[-1] for line in lines[2:]] == [
            "alice joined — 1 of 3 joined", "bob joined — 2 of 3 joined"]
        await clients[0].close()
        lines = await lines_until(out, "alice left")
        assert lines[-1] == "alice left — 1 of 3 joined"
        assert server.stage is Stage.WAITING                # nobody played: nothing stored to resume
    finally:
        waiting.cancel()
        await bounded(asyncio.gather(waiting, return_exceptions=True), 30)
        for client in clients[1:]:
            await client.close()
        await bounded(server.close())

"""The server's game host: workers with ``--queue`` (the web pages told of a game a worker starts again), else this
machine; the ladder's pairings get the CPU seconds of two games."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from tests.server.queue.conftest import require_engine_client

require_engine_client()         # before saq is imported: a skip saying how to install it

from server.queue.host import QueueGameHost  # noqa: E402
from server.queue.hosting import server_game_host  # noqa: E402
from server.sandbox import LocalGameHost  # noqa: E402
from server.settings import ServerSettings  # noqa: E402
from tests.server.conftest import bounded  # noqa: E402


async def test_a_game_a_worker_starts_again_is_forgotten_by_the_pages_and_told_to_the_organiser(engine, tmp_path):
    said: list[str] = []
    restarted: list[str] = []
    settings = ServerSettings(data_dir=tmp_path, queue=engine.url)
    with ThreadPoolExecutor(1) as executor:
        host = server_game_host(settings, executor, said.append, restarted=restarted.append)
        assert isinstance(host, QueueGameHost)
        for hook in host.restart_hooks:             # what the host does when attempt 2 of a job begins
            hook("t1-r1-p1-g1", 2)
        await bounded(host.close(), 10)
    assert restarted == ["t1-r1-p1-g1"] and said == ["t1-r1-p1-g1: its worker died; it starts again (attempt 2)"]


async def test_without_a_queue_pairings_are_played_here_with_the_cpu_seconds_of_their_games(tmp_path):
    settings = ServerSettings(data_dir=tmp_path, time_limit_ms=1000, step_cap=200)
    with ThreadPoolExecutor(1) as executor:
        one = server_game_host(settings, executor, print)
        two = server_game_host(settings, executor, print, games_per_pairing=2)
    assert isinstance(one, LocalGameHost) and isinstance(two, LocalGameHost)
    assert two.limits.cpu_seconds == max(settings.sandbox.cpu_seconds, 2 * 200)
    assert one.limits.cpu_seconds == max(settings.sandbox.cpu_seconds, 200)

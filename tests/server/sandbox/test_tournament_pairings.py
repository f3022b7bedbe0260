"""Handed-in bots in a tournament: a fresh sandboxed process for each pairing, through the game host."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path

from server.sandbox import BotEntry, LocalGameHost, Pairing, PairingResult, SandboxLimits
from server.submissions.seats import SubmittedSeat
from shared.gamelog import parse_log
from tests.server.conftest import ScriptedBot, bounded, url
from tests.server.sandbox.conftest import hand_in, walker
from tests.server.support import play

FAST = {"time_limit_ms": 1000, "step_cap": 40, "rejoin_wait_s": 2.0}


@dataclass
class RecordingHost:
    """A game host that remembers each pairing it was given, and plays it on this machine."""

    inner: LocalGameHost
    played: list[tuple[Pairing, PairingResult]] = field(default_factory=list)

    async def play(self, pairing, *, on_step=None):
        result = await self.inner.play(pairing, on_step=on_step)
        self.played.append((pairing, result))
        return result

    async def close(self) -> None:
        await self.inner.close()


def cpu_logged(path) -> list[int]:
    log = parse_log(path.read_text(encoding="utf-8"))
    assert log.problems == [] and log.outcome is not None and log.outcome.cpu_ms is not None
    return [ms for seat in log.outcome.cpu_ms for ms in seat if ms is not None]


async def test_each_pairing_of_handed_in_bots_gets_fresh_processes_from_the_game_host(make_server, sandbox):
    server = await make_server(players=3, players_from_submissions=True, games_per_pairing=2, **FAST)
    for key in ("alice", "bob", "carol"):
        hand_in(server, key, walker())
    host = RecordingHost(LocalGameHost(SandboxLimits(), rows=None))
    server.game_host = host
    standings = await play(server, [], seconds=120)
    assert {row.player for row in standings.rows()} == {"alice", "bob", "carol"}
    assert standings.games_done == 6
    assert all(isinstance(seat, SubmittedSeat) for seat in server.hosted)
    # three pairings, each through the host, each with both bots started for it (before its first turn)
    assert sorted(tuple(sorted(b.name for b in p.bots)) for p, _ in host.played) == [
        ("alice", "bob"), ("alice", "carol"), ("bob", "carol")]
    for pairing, result in host.played:
        assert len(pairing.games) == 2 and [g.white for g in pairing.games] == [0, 1]
        assert all(r.start_s is not None and r.end is not None and r.end.cause == "ok" for r in result.reports)
        assert all(len(r.timings) > 0 for r in result.reports)
    rows = await server.results.games(server.tournament_id, "finished")
    assert len(rows) == 6 and all(row.log_path for row in rows)
    assert all(cpu_logged(Path(row.log_path)) for row in rows)


async def test_a_handed_in_bot_against_a_connected_one_gets_a_process_per_pairing(make_server, sandbox):
    server = await make_server(players=3, players_from_submissions=True,
                               roster={"k-alice": "Alice", "k-bob": "Bob", "k-carol": "Carol"}, **FAST)
    hand_in(server, "k-alice", walker())
    hand_in(server, "k-bob", walker())
    host = RecordingHost(LocalGameHost(SandboxLimits(), rows=None))
    server.game_host = host
    carol = ScriptedBot(url(server), "k-carol")
    standings = await play(server, [carol], seconds=120)
    assert standings.games_done == 3 and {row.player for row in standings.rows()} == {"Alice", "Bob", "Carol"}
    assert [sorted(b.name for b in p.bots) for p, _ in host.played] == [["Alice", "Bob"]]   # the others: here
    rows = await server.results.games(server.tournament_id, "finished")
    mixed = [row for row in rows if "Carol" in (row.white, row.black)]
    assert len(mixed) == 2
    for row in mixed:            # the handed-in seat's CPU times are logged, the connected one's are not
        log = parse_log(Path(row.log_path).read_text(encoding="utf-8"))
        assert log.outcome is not None and log.outcome.cpu_ms is not None
        carol_seat = log.header.players.index("Carol")
        assert all(ms is None for ms in log.outcome.cpu_ms[carol_seat])
        assert any(ms is not None for ms in log.outcome.cpu_ms[1 - carol_seat])


async def test_a_knockout_of_handed_in_bots_is_played_through_the_host(make_server, sandbox):
    server = await make_server(players=2, players_from_submissions=True, format="knockout", **FAST)
    hand_in(server, "alice", walker())
    hand_in(server, "bob", walker(init="self.walk = True"))
    standings = await play(server, [], seconds=120)
    assert standings.games_done >= 1 and {row.player for row in standings.rows()} == {"alice", "bob"}
    assert isinstance(server.game_host, LocalGameHost)


async def test_a_bot_that_cannot_start_loses_its_pairings_and_the_tournament_goes_on(make_server, sandbox):
    server = await make_server(players=4, players_from_submissions=True,
                               roster={k: k.title() for k in ("alice", "bob", "carol", "dave")}, **FAST)
    for key in ("alice", "bob", "carol"):
        hand_in(server, key, walker())
    dave = ScriptedBot(url(server), "dave")
    task = asyncio.ensure_future(server.run_tournament())
    while len(server.hosted) < 3:
        await asyncio.sleep(0.02)
    carol = next(seat for seat in server.hosted if seat.name == "Carol")
    carol.entry = BotEntry("Carol", "gone.py", carol.entry.folder, carol.entry.version)   # its files are gone
    await asyncio.wait_for(asyncio.gather(task, dave.run()), 120)
    standings = task.result()
    assert standings.games_done == 6
    rows = await server.results.games(server.tournament_id, "finished")
    lost = [row for row in rows if "Carol" in (row.white, row.black)]
    assert len(lost) == 3 and all(row.winner is not None and (row.white, row.black)[row.winner] != "Carol"
                                  for row in lost)


async def test_a_tournament_of_handed_in_bots_is_resumed_with_them(make_server, sandbox, tmp_path):
    data = tmp_path / "cup"
    server = await make_server(players=4, players_from_submissions=True, data_dir=data, tournament_name="cup",
                               **FAST)
    for key in ("alice", "bob", "carol", "dave"):
        hand_in(server, key, walker())
    run = asyncio.ensure_future(server.run_tournament())

    async def first_game_over() -> None:
        while server.runner is None or not server.runner.finished:
            await asyncio.sleep(0.02)

    await bounded(first_game_over(), 60)
    run.cancel()                                   # the server dies with games still to play
    await bounded(asyncio.gather(run, return_exceptions=True), 30)
    done_before = len(server.runner.finished)
    await server.close()
    assert done_before < 6
    again = await make_server(players=4, data_dir=data, resume=True, **FAST)
    standings = await play(again, [], seconds=120)
    assert standings.games_done == 6 and {seat.name for seat in again.hosted} == {"alice", "bob", "carol", "dave"}
    rows = await again.results.games(again.tournament_id, "finished")
    assert len(rows) == 6 and not any(row.reason == "forfeit" for row in rows)


async def test_a_bot_accepted_while_the_seats_fill_takes_its_seat(make_server, sandbox):
    server = await make_server(players=3, players_from_submissions=True, **FAST)
    hand_in(server, "alice", walker())
    hand_in(server, "bob", walker())
    run = asyncio.ensure_future(server.run_tournament())
    while len(server.hosted) < 2:
        await asyncio.sleep(0.02)
    hand_in(server, "bob", walker(init="self.newer = True"))            # bob's newer version replaces the seated one
    bob = server.submissions.bot_entry((await server.submissions.store.versions("bob"))[0])
    server.submissions.on_accepted("bob", bob)
    hand_in(server, "carol", walker())                                   # and carol hands in while the seats fill
    server.submissions.on_accepted("carol", server.submissions.bot_entry(
        (await server.submissions.store.versions("carol"))[0]))
    standings = await asyncio.wait_for(run, 120)
    assert standings.games_done == 3 and {seat.name for seat in server.hosted} == {"alice", "bob", "carol"}
    assert next(seat for seat in server.hosted if seat.name == "bob").entry.version == bob.version
    assert server.submissions.on_accepted is None                       # the doors are closed

"""Pairings of two residents go through the game host (fresh processes here, or workers with ``--queue``): the same
opening, colours swapped, each game recorded once; a refused pairing records nothing and says why in one line."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field

from server.games.match import MatchResult
from server.ladder.runner import StepTally
from server.sandbox import BotEnd, BotReport, LocalGameHost, Pairing, PairingResult, SandboxLimits
from server.sandbox.host import PairingRefused
from shared.gamelog import GameOutcome, StepRecord, parse_log
from shared.quoridor import Cause, GameStatus, Position, Step
from shared.referee import StepJudged
from tests.server.conftest import bounded

LADDER = {"ladder": True, "ladder_opening_plies": 2, "ladder_refit_s": 3600.0, "ladder_bootstrap_samples": 10,
          "time_limit_ms": 1000, "step_cap": 40}


@dataclass
class RecordingHost:
    """Plays pairings on this machine and remembers them; or refuses every one (``refuse``)."""

    inner: LocalGameHost
    refuse: bool = False
    #: Neither bot of a pairing starts: each game is a double forfeit, as the host reports one.
    neither_starts: bool = False
    played: list[Pairing] = field(default_factory=list)

    async def play(self, pairing, *, on_step=None) -> PairingResult:
        self.played.append(pairing)
        if self.refuse:
            raise PairingRefused(f"worker w1 refused job {pairing.games[0].game_id}: bot version 0123456789ab is not "
                                 "in the engine (unfetchable)")
        if self.neither_starts:
            forfeit = GameOutcome(None, "forfeit", (0, 0), (0, 0))
            games = tuple(MatchResult(g.game_id, forfeit, g.log_path, "2026-01-01T00:00:00.000Z",
                                      "2026-01-01T00:00:00.000Z", 0) for g in pairing.games)
            reports = tuple(BotReport(bot.name, BotEnd("crashed", "bwrap: Can't fork for pid 1"), None, ())
                            for bot in pairing.bots)
            return PairingResult(games, (reports[0], reports[1]))
        return await self.inner.play(pairing, on_step=on_step)

    async def close(self) -> None:
        await self.inner.close()


async def _until(predicate, seconds: float = 60.0) -> None:
    async def wait() -> None:
        while not predicate():
            await asyncio.sleep(0.05)
    await bounded(wait(), seconds)


async def _stop(ladder: asyncio.Task) -> None:
    ladder.cancel()
    await bounded(asyncio.gather(ladder, return_exceptions=True), 30)


async def test_two_residents_play_their_pairing_through_the_game_host(make_server):
    server = await make_server(ladder_residents=["random", "runner"], **LADDER)
    host = RecordingHost(LocalGameHost(SandboxLimits(), rows=None))
    server.game_host = host
    ladder = asyncio.create_task(server.run_ladder())
    try:
        await _until(lambda: server.ladder is not None and server.ladder.games_played >= 2)
        assert server.ladder.host is host
    finally:
        await _stop(ladder)
    first = host.played[0]
    assert sorted(bot.name for bot in first.bots) == ["random", "runner"]
    assert [(g.game_id, g.white) for g in first.games] == [("L1-g1", 0), ("L1-g2", 1)]     # colours swapped
    assert len(first.opening) == 2
    for game in first.games:                        # both games start from the pairing's opening, played for the bots
        log = parse_log(game.log_path.read_text(encoding="utf-8"))
        assert log.problems == [] and log.outcome is not None
        assert [s.step for s in log.steps[:2]] == list(first.opening)
        assert list(log.header.players) == [first.bots[game.white].name, first.bots[1 - game.white].name]
    facts = await server.ladder_store.facts()
    assert [f.game_id for f in facts][:2] == ["L1-g1", "L1-g2"]
    assert all(len(f.step_ms[0]) + len(f.step_ms[1]) > 0 for f in facts[:2])     # the bots' own steps, timed


async def test_the_ladder_makes_a_local_game_host_for_its_residents(make_server):
    server = await make_server(ladder_residents=["random", "runner"], **LADDER)
    ladder = asyncio.create_task(server.run_ladder())
    try:
        await _until(lambda: server.ladder is not None and server.ladder.games_played >= 2)
        assert isinstance(server.ladder.host, LocalGameHost)
    finally:
        await _stop(ladder)


async def test_a_refused_pairing_records_nothing_and_says_why_in_one_line(make_server, caplog):
    server = await make_server(ladder_residents=["random", "runner"], ladder_pair_games_per_hour=4, **LADDER)
    host = RecordingHost(LocalGameHost(SandboxLimits(), rows=None), refuse=True)
    server.game_host = host
    with caplog.at_level(logging.ERROR, "quoridor.server"):
        ladder = asyncio.create_task(server.run_ladder())
        try:
            await _until(lambda: len(host.played) >= 1 and server.ladder.idle is not None)
            await asyncio.sleep(0.5)
            assert len(host.played) == 1            # a refused pair is barred a while (two bots: nobody else to play)
            assert server.ladder.games_played == 0 and server.ladder.meetings.total() == 0
            assert "could not be played" in server.ladder.idle.reason and server.ladder.idle.resumes_in_s > 500
        finally:
            await _stop(ladder)
    facts = await server.ladder_store.facts()
    assert facts == []
    lines = [r.getMessage() for r in caplog.records if "not played" in r.getMessage()]
    assert len(lines) == 1 and "L1" in lines[0] and "unfetchable" in lines[0] and "\n" not in lines[0]


async def test_a_pairing_neither_bot_started_rates_nobody_and_says_why_in_one_line(make_server, caplog):
    server = await make_server(ladder_residents=["random", "runner"], **LADDER)
    host = RecordingHost(LocalGameHost(SandboxLimits(), rows=None), neither_starts=True)
    server.game_host = host
    with caplog.at_level(logging.ERROR, "quoridor.server"):
        ladder = asyncio.create_task(server.run_ladder())
        try:
            await _until(lambda: len(host.played) >= 1 and server.ladder.idle is not None)
            assert server.ladder.games_played == 0 and server.ladder.meetings.total() == 0
            assert "could not be played" in server.ladder.idle.reason
        finally:
            await _stop(ladder)
    assert await server.ladder_store.facts() == []          # no double forfeit rated as a draw
    lines = [r.getMessage() for r in caplog.records if "not played" in r.getMessage()]
    assert len(lines) == 1 and "neither bot started" in lines[0] and "Can't fork" in lines[0]


def _judged(turn: int, seat: int, ms: int, cause: Cause | None = None) -> StepJudged:
    status = GameStatus.OK if cause is None else GameStatus.INVALID_STEP
    return StepJudged(seat, StepRecord("ab"[seat], Step(), status, ms, turn), Position.initial(), (0, 0), cause)


def test_a_tally_leaves_the_opening_out_and_forgets_an_attempt_played_again():
    tally = StepTally(opening_plies=2)
    assert [tally.add(_judged(t, t % 2, 0)) for t in (0, 1)] == [False, False]       # played for the bots
    assert tally.add(_judged(2, 0, 30)) and tally.add(_judged(3, 1, 40, Cause.NOT_REACHABLE))
    assert tally.steps == ([30], [40]) and tally.causes == ([], ["not_reachable"])
    assert not tally.add(_judged(0, 0, 0))          # the game starts again from the beginning (another worker)
    assert tally.steps == ([], []) and tally.causes == ([], [])
    tally.add(_judged(2, 0, 7))
    assert tally.steps == ([7], [])

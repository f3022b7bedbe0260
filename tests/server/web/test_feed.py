"""``LiveFeed``: the standings go out paced and coalesced, never to a player in a game, and are built only when
someone can hear them; a step reaches the pages and its watchers, an end without a step is marked ``over``."""

from __future__ import annotations

import asyncio
from typing import Any

from server.web.feed import LiveFeed
from shared.quoridor import Step
from shared.referee import GameReferee, RefereeSettings, StepJudged
from shared.tournament import GameResult, Standings
from tests.server.conftest import bounded


class Line:
    """A connection (only its identity matters to the feed)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


class FakeConnections:
    """The registry as the feed uses it: who is greeted, what is sent to whom."""

    def __init__(self, greeted: list[Line]) -> None:
        self.greeted = greeted
        self.sent: list[tuple[list[Line], Any]] = []
        self.published: list[tuple[str, bytes]] = []
        self.arrived = asyncio.Event()

    def send_later(self, conns: list[Line], message: Any, *, paced: bool = False, busy: Any = None) -> int:
        self.sent.append((list(conns), message))
        self.arrived.set()
        return 1000

    def watched(self, game: str) -> bool:
        return True

    def publish(self, game: str, encoded: Any) -> None:
        self.published.append((game, encoded.payload))


class FakeWeb:
    """The pages' desk as the feed uses it."""

    def __init__(self) -> None:
        self.standings: Any = None
        self.kept: Any = None
        self.last: tuple[tuple[str, str], Any] | None = None

    def keep_standings(self, build: Any) -> None:
        self.kept = build

    def ended(self, game: str, winner: Any, reason: str) -> tuple[tuple[str, str], Any] | None:
        return self.last


def table(*games: tuple[str, str, int | None]) -> Standings:
    standings = Standings(["a", "b", "c"])
    for white, black, winner in games:
        standings.add(GameResult(white, black, winner, "goal", (0, 0), (0, 0)))
    return standings


def feed(connections: FakeConnections, web: FakeWeb, *, now: list[float], playing: set[Line] = frozenset(),
         interval_s: float = 10.0) -> LiveFeed:
    live = LiveFeed(connections, web, interval_s=interval_s, playing=lambda: playing,  # type: ignore[arg-type]
                    games_total=lambda: 3, clock=lambda: now[0])
    live.tournament = "tournament-1"
    return live


async def test_the_first_table_goes_at_once_and_the_ones_within_the_interval_coalesce_into_the_newest():
    spectator = Line("eye")
    connections, now = FakeConnections([spectator]), [100.0]
    live = feed(connections, FakeWeb(), now=now)
    await live.standings(table(("a", "b", 0)))
    assert [message.games_done for _, message in connections.sent] == [1]
    connections.arrived.clear()
    now[0] = 109.999                     # 1 ms left of the interval: the newest table waits for it
    await live.standings(table(("a", "b", 0), ("a", "c", 0)))
    await live.standings(table(("a", "b", 0), ("a", "c", 0), ("b", "c", 1)))
    assert len(connections.sent) == 1
    await bounded(connections.arrived.wait(), 5)
    assert [message.games_done for _, message in connections.sent] == [1, 3]
    assert connections.sent[1][1].games_total == 3 and connections.sent[1][1].tournament == "tournament-1"


async def test_a_table_stopped_before_its_turn_never_goes_out():
    connections, now = FakeConnections([Line("eye")]), [0.0]
    live = feed(connections, FakeWeb(), now=now)
    await live.standings(table())
    await live.standings(table(("a", "b", 0)))       # waits 10 s for its turn
    live.stop_standings()
    assert len(connections.sent) == 1


async def test_players_in_a_game_are_left_out_of_the_table():
    busy, free, eye = Line("busy"), Line("free"), Line("eye")
    connections = FakeConnections([busy, free, eye])
    live = feed(connections, FakeWeb(), now=[0.0], playing={busy})
    await live.standings(table())
    assert connections.sent[0][0] == [free, eye]


async def test_with_every_connection_in_a_game_the_table_is_not_built_but_kept_for_a_spectator_to_come():
    busy = Line("busy")
    connections, web = FakeConnections([busy]), FakeWeb()
    live = feed(connections, web, now=[0.0], playing={busy})
    await live.standings(table(("a", "b", 0)))
    assert connections.sent == [] and web.standings is None
    assert web.kept().games_done == 1


def first_step() -> StepJudged:
    """The judged first step of a game between ``a`` and ``b``."""
    referee = GameReferee(("a", "b"), RefereeSettings())
    referee.start()
    referee.clock_started(0, 0.0)
    return next(e for e in referee.receive_step(0, 0, Step.move(5, 2), 0.1) if isinstance(e, StepJudged))


def test_an_end_with_no_step_sends_the_last_board_marked_over():
    connections, web = FakeConnections([]), FakeWeb()
    live = feed(connections, web, now=[0.0])
    result = GameResult("a", "b", 0, "disconnect", (0, 0), (0, 0))
    live.ended("g1", result)                          # no board yet: nothing to send
    assert connections.published == []
    web.last = (("a", "b"), first_step())
    live.ended("g1", result)
    (game, payload), = connections.published
    assert game == "g1" and b'"over":true' in payload and b'"turn":0' in payload

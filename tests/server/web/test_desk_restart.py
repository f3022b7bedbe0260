"""A game played again from the start (its worker died) is shown from its new start, never after the old steps."""

from __future__ import annotations

from server.web import WebDesk
from shared.gamelog import GameOutcome, StepRecord
from shared.quoridor import GameStatus, Location, Position, Step
from shared.referee import StepJudged

PLAYERS = ("amy", "bob")


def walk(turns: int) -> list[StepJudged]:
    """The first ``turns`` steps of a game where both pawns walk straight ahead."""
    position, steps = Position.initial(), []
    for turn in range(turns):
        seat = position.turn
        pawn = position.pawn(seat)
        step = Step(Location(pawn[0], pawn[1] + (1 if seat == 0 else -1)))
        position = position.apply(step)
        record = StepRecord(PLAYERS[seat], step, GameStatus.OK, 5, turn)
        steps.append(StepJudged(seat, record, position, (5 * (turn // 2 + 1), 5 * ((turn + 1) // 2))))
    return steps


def test_a_restarted_game_forgets_its_first_attempt(tmp_path):
    desk = WebDesk(tmp_path)
    for judged in walk(5):                          # attempt 1: five steps, then its worker dies
        desk.step("g1", PLAYERS, judged, None)
    told = desk.restart("g1")                      # what a page showing the game is sent: start over
    assert told is not None and told.steps == [] and told.live and tuple(told.players) == PLAYERS
    record = desk.live_record("g1")
    assert record is not None and record.steps == [] and record.live
    for judged in walk(3):                          # attempt 2 from the start
        desk.step("g1", PLAYERS, judged, None)
    record = desk.live_record("g1")
    assert record is not None and [s.turn for s in record.steps] == [0, 1, 2]
    assert [u.turn for u in desk.running()] == [2]


def test_a_restart_of_a_game_shown_as_over_shows_it_in_progress_again(tmp_path):
    desk = WebDesk(tmp_path)
    steps = walk(2)
    desk.step("g1", PLAYERS, steps[0], None)
    desk.step("g1", PLAYERS, steps[1], None, GameOutcome(1, "disconnect", (5, 5), (0, 0)))
    desk.restart("g1")
    desk.step("g1", PLAYERS, steps[0], None)
    record = desk.live_record("g1")
    assert record is not None and record.live and record.result is None and len(record.steps) == 1
    assert desk.restart("unknown") is None          # a game the pages never saw: nothing to forget, nobody to tell
    assert desk.live_record("unknown") is None


async def test_a_page_watching_a_restarted_game_is_sent_its_new_start(make_server):
    """The page of a game a worker plays again gets the game's record anew (no steps); pages of every game do not."""
    from server.app import ArenaServer
    from tests.server.conftest import url
    from tests.server.support import Client, hello

    server: ArenaServer = await make_server(players=0)
    for judged in walk(4):
        server.web.step("g1", PLAYERS, judged, None)
    page, overview = await Client.open(url(server)), await Client.open(url(server))
    for client, game in ((page, "g1"), (overview, "*")):
        await client.send(hello("web", "spectator"))
        await client.next("welcome")
        await client.send({"type": "watch", "game": game})
    await page.send({"type": "game_request", "game": "g1"})
    assert len((await page.next("game_record"))["steps"]) == 4
    await overview.send({"type": "game_request", "game": "g1"})
    await overview.next("game_record")
    server.feed.restarted("g1")                    # what the game host calls when a worker starts g1 again
    again = await page.next("game_record", skip=frozenset({"standings", "game_update"}))
    assert again["game"] == "g1" and again["steps"] == [] and again["live"]
    server.web.step("g1", PLAYERS, walk(1)[0], None)                # the new attempt's first step
    await overview.send({"type": "game_request", "game": "g1"})     # the overview was sent no record unasked
    assert len((await overview.next("game_record", skip=frozenset({"standings", "game_update"})))["steps"]) == 1
    await page.close()
    await overview.close()


def test_the_current_tournaments_games_are_listed_in_the_order_they_ended_then_those_in_progress(tmp_path):
    # The page's "recent results" are the listing's last finished games: in the order the games started, a game
    # that ended last could be shown as an old one.
    desk = WebDesk(tmp_path)
    steps = walk(3)
    for game in ("g1", "g2", "g3"):
        desk.step(game, PLAYERS, steps[0], None)
    desk.step("g2", PLAYERS, steps[1], None, GameOutcome(0, "goal", (5, 5), (0, 0)))
    assert desk.ended("g1", 1, "disconnect") is not None          # no step ended it: its last step comes back
    desk.step("g3", PLAYERS, steps[1], None)
    (current, *_) = desk.replays().folders
    assert [(g.game, g.score) for g in current.games] == [("g2", "1-0"), ("g1", "0-1"), ("g3", "*")]
    assert desk.ended("g1", 1, "disconnect") is None               # once over, nothing more to send

"""``play_local_game``: the referee in one process, and what it tells bots and their authors of violations."""

import itertools
import pickle

from shared.quoridor import Cause, GameStatus, Position, Step, StepVerdict, parse_step
from shared.referee import RefereeSettings, StepJudged, TurnRequest
from shared.referee.local import play_local_game


def walker(board: dict[int, Position]):
    """Asks that walk a shortest path, seat 0 trying a5 on its first turn; ``board`` follows the game."""
    asked: list[TurnRequest] = []

    def ask(seat: int, request: TurnRequest) -> Step:
        asked.append(request)
        if request.turn == 0:
            return parse_step("a5")                     # not reachable from e1
        pos = board["pos"]
        path = pos.shortest_path(seat)
        return Step(path[1]) if path[1] in pos.legal_moves() else Step(pos.legal_moves()[0])

    return ask, asked


def test_a_bot_that_plays_a5_hears_why_and_the_game_keeps_the_cause():
    board = {"pos": Position.initial()}
    ask, asked = walker(board)
    events = []

    def follow(event):
        events.append(event)
        if isinstance(event, StepJudged):
            board["pos"] = event.position

    ticks = itertools.count()
    game = play_local_game(("a", "b"), ask, lambda: next(ticks) * 0.001, RefereeSettings(), follow)
    second = next(r for r in asked if r.seat == 0 and r.turn == 2)
    assert second.judgement == StepVerdict(GameStatus.INVALID_STEP, Cause.NOT_REACHABLE,
                                           "a5 is not reachable in one step from e1", 1)
    assert all(r.judgement is None for r in asked if r is not second)
    judged = [e for e in events if isinstance(e, StepJudged)]
    assert [(e.cause, e.reason) for e in judged if e.cause] == [(Cause.NOT_REACHABLE,
                                                                  "a5 is not reachable in one step from e1")]
    assert len(game.causes) == len(game.records) and game.causes[0] is Cause.NOT_REACHABLE
    assert set(game.causes[1:]) == {None}
    assert game.records[0].reason == "a5 is not reachable in one step from e1"
    again = pickle.loads(pickle.dumps(game))             # a game played in a worker process comes back whole
    assert again.causes == game.causes and again.records == game.records


def test_a_game_from_an_opening_asks_the_bots_only_after_it():
    opening = (parse_step("e2"), parse_step("e8"), parse_step("d2"))
    asked: list[TurnRequest] = []
    heard: list[StepJudged] = []

    def ask(seat: int, request: TurnRequest) -> Step:
        asked.append(request)
        return Step()                       # an empty step: every answer a violation, the game short

    def follow(event):
        if isinstance(event, StepJudged):
            heard.append(event)

    game = play_local_game(("a", "b"), ask, lambda: 0.0, RefereeSettings(), follow, opening)
    assert (asked[0].seat, asked[0].turn) == (1, 3) and asked[0].change.enemy_loc == parse_step("d2").new_loc
    assert all(r.turn >= 3 for r in asked)
    assert [r.step for r in game.records[:3]] == list(opening) and game.causes[:3] == [None, None, None]
    assert [e.opening for e in heard[:4]] == [True, True, True, False]
    assert (game.outcome.winner, game.outcome.reason, game.outcome.violations) == (0, "violations", (2, 3))

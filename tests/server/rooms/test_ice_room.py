"""The ice room, called directly: requests, verdicts (long ones as jobs), step-by-step play, leaderboard."""

import pytest

from server.rooms import Job, Leaderboard, RoomContext, RoomError
from server.rooms.ice import INLINE_ANSWER, IcePlay, IceRoom
from shared.ice import best_route, parse_maze
from shared.protocol import Action, PuzzleRequest, Solution
from tests.server.rooms.boards import ticking


@pytest.fixture
def room():
    return IceRoom(Leaderboard(ticking()))


def ask(room, ctx, **fields):
    return room.request(ctx, PuzzleRequest(room="ice", **fields))


def test_a_request_gives_a_reproducible_solvable_maze(room):
    ctx = RoomContext("ann")
    puzzle = ask(room, ctx, size=12, seed=5)
    data = puzzle.data
    assert puzzle.room == "ice" and (data["width"], data["height"]) == (12, 12) and data["seed"] == 5
    maze = parse_maze(data["map"])
    assert list(maze.start) == data["start"] and best_route(maze) is not None
    assert ask(room, ctx, size=12, seed=5).data["map"] == data["map"]
    assert ask(room, ctx, size=12, seed=5).puzzle != puzzle.puzzle
    assert 24 <= ask(room, ctx, difficulty="hell", seed=1).data["width"] <= 34
    assert 10 <= ask(room, ctx).data["width"] <= 34


@pytest.mark.parametrize("fields", [{"difficulty": d} for d in ("easy", "normal", "hard", "hell")]
                         + [{"size": side} for side in (4, 6, 8, 10, 12, 16, 24)])
def test_a_served_maze_is_never_trivial(room, fields):
    from server.rooms.ice import min_moves_for_side
    from shared.ice import DIFFICULTIES

    ctx = RoomContext("ann")
    for seed in range(12):
        data = ask(room, ctx, seed=seed, **fields).data
        route = best_route(parse_maze(data["map"]))
        wanted = (DIFFICULTIES[fields["difficulty"]].min_moves if "difficulty" in fields
                  else min_moves_for_side(fields["size"]))
        assert route is not None and route.moves >= wanted >= 2, (fields, seed)


@pytest.mark.parametrize("fields, words", [
    ({"size": 3}, "size 3 is out of range"),
    ({"difficulty": "lunatic"}, "unknown difficulty 'lunatic'"),
    ({"xsb": "#@$.#"}, "generates its mazes"),
])
def test_bad_requests(room, fields, words):
    with pytest.raises(RoomError) as info:
        ask(room, RoomContext("ann"), **fields)
    assert info.value.code == "bad_level" and words in info.value.message


def test_verdicts_judge_optimality_and_rank_players(room):
    ann, bob = RoomContext("ann"), RoomContext("bob")
    pid = ask(room, ann, size=10, seed=3).puzzle
    maze = parse_maze(ann.puzzle(pid).maze.rows())
    route = best_route(maze)
    verdict = room.solution(ann, Solution(puzzle=pid, answer=route.letters))
    assert verdict.valid and verdict.solved and verdict.figures["optimal"]
    assert verdict.figures["moves"] == route.moves == verdict.figures["best_moves"]
    assert verdict.figures["rank"] == 1
    pid_b = ask(room, bob, size=10, seed=3).puzzle
    as_string = room.solution(bob, Solution(puzzle=pid_b, answer="".join(route.letters).upper()))
    assert as_string.solved and as_string.figures["rank"] == 2            # a tie ranks by time
    top = room.action(ann, Action(puzzle=pid, action="leaderboard")).state["leaderboard"]
    assert [e["player"] for e in top] == ["ann", "bob"] and top[0]["score"] == [route.moves, route.distance]


def test_bad_and_short_answers(room):
    ctx = RoomContext("ann")
    pid = ask(room, ctx, size=10, seed=3).puzzle
    bad = room.solution(ctx, Solution(puzzle=pid, answer=["q"]))
    assert not bad.valid and bad.failed_at == 0 and "'q'" in bad.reason
    assert "rank" not in bad.figures
    with pytest.raises(RoomError) as info:
        room.solution(ctx, Solution(puzzle=pid, answer=[1, 2]))
    assert info.value.code == "bad_answer"
    with pytest.raises(RoomError) as info:
        room.solution(ctx, Solution(puzzle="ice-0", answer="u"))
    assert info.value.code == "unknown_puzzle"


def test_step_by_step_play_with_undo_redo_reset(room):
    ctx = RoomContext("ann")
    pid = ask(room, ctx, size=10, seed=3).puzzle
    maze = ctx.puzzle(pid).maze
    route = best_route(maze)
    first = route.letters[0]
    state = room.action(ctx, Action(puzzle=pid, action=first))
    assert state.state["player"] == list(route.stops[1]) and state.counters["moves"] == 1
    state = room.action(ctx, Action(puzzle=pid, action="undo"))
    assert state.state["player"] == list(maze.start) and state.counters == {"moves": 0, "distance": 0}
    state = room.action(ctx, Action(puzzle=pid, action="redo"))
    assert state.state["route"] == first
    room.action(ctx, Action(puzzle=pid, action="reset"))
    for letter in route.letters[:-1]:
        state = room.action(ctx, Action(puzzle=pid, action="move", args={"direction": letter}))
    assert not state.solved
    state = room.action(ctx, Action(puzzle=pid, action=route.letters[-1]))
    assert state.solved and state.counters["rank"] == 1
    assert state.counters["distance"] == route.distance
    with pytest.raises(RoomError, match="solved"):
        room.action(ctx, Action(puzzle=pid, action="u"))


def test_bumps_and_bad_actions(room):
    ctx = RoomContext("ann")
    pid = ctx.new_puzzle("ice", IcePlay(parse_maze("S#E\n   "), "ice-test", 0))
    state = room.action(ctx, Action(puzzle=pid, action="r"))           # into the obstacle: nothing happens
    assert state.counters["moves"] == 0 and state.state["player"] == [0, 0]
    for letter in "dru":
        state = room.action(ctx, Action(puzzle=pid, action=letter))
    assert state.solved and state.state["route"] == "dru" and state.counters["distance"] == 4
    for action, args in (("jump", {}), ("move", {"direction": "x"})):
        with pytest.raises(RoomError) as info:
            room.action(ctx, Action(puzzle=pid, action=action, args=args))
        assert info.value.code == "invalid_fields"


def test_a_long_answer_is_a_job_judged_as_the_room_would(room):
    ctx = RoomContext("ann")
    pid = ctx.new_puzzle("ice", IcePlay(parse_maze(["S  ", "   ", "  E"]), "ice-bounce", 0))
    bounce = ["r", "l"] * (INLINE_ANSWER // 2) + ["d", "r"]          # slides to and fro, then to the end
    short = room.prepare(ctx, Solution(puzzle=pid, answer=["d", "r"]))
    assert short.solved and short.figures["optimal"]
    job = room.prepare(ctx, Solution(puzzle=pid, answer=bounce))
    assert isinstance(job, Job)
    verdict = job.finish(job.function(*job.args))
    assert verdict == room.solution(ctx, Solution(puzzle=pid, answer=bounce))
    assert verdict.solved and not verdict.figures["optimal"] and verdict.figures["moves"] == len(bounce)

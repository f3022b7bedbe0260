"""The frame model: logs replayed into frames (the three legacy logs to their ends), and live updates."""

from __future__ import annotations

import csv
from dataclasses import replace

import pytest

from client.replay import apply_update, frames_from_log, load_game
from client.replay.frames import describe_step
from shared.gamelog import StepRecord, final_position, parse_log
from shared.protocol import GameUpdate
from shared.quoridor import BlockBar, GameStatus, Location, Position, Step, parse_step
from tests.client.replay.helpers import DATA_LEGACY, legacy, small_log

S = GameStatus


@pytest.mark.parametrize("name, steps, winner", [
    ("server_0_DEFENSIVE_VS_BASELINE.csv", 87, "193304BASELINE"),
    ("server_1_DEFENSIVE_VS_BASELINE.csv", 68, "193304BASELINE"),
])
def test_old_server_logs_replay_to_their_final_positions(name, steps, winner):
    path = legacy(name)
    game = load_game(path)
    log = parse_log(path.read_text(encoding="utf-8"))
    assert len(game.frames) == steps + 1 and game.last_step == steps == game.rows
    assert game.frames[-1].position == final_position(log)
    assert game.problems == [] and game.players[game.winner] == winner and game.reason == "goal"
    assert game.result() == f"{winner} won (goal)"
    assert game.frames[-1].over and game.frames[-1].status is S.WIN
    assert [f.line for f in game.frames[1:]] == list(range(2, steps + 2))
    assert game.frames[0].position == Position.initial() and game.frames[0].seat is None


def test_final_positions_in_numbers():
    final0 = load_game(legacy("server_0_DEFENSIVE_VS_BASELINE.csv")).frames[-1].position
    assert (final0.pawn(0), final0.pawn(1), final0.walls_left, len(final0.walls)) == \
        (Location(5, 9), Location(2, 9), (0, 0), 20)
    final1 = load_game(legacy("server_1_DEFENSIVE_VS_BASELINE.csv")).frames[-1].position
    assert (final1.pawn(0), final1.pawn(1), final1.walls_left, len(final1.walls)) == \
        (Location(1, 1), Location(9, 1), (0, 2), 18)


def test_violations_keep_the_board_and_say_why():
    game = load_game(legacy("server_1_DEFENSIVE_VS_BASELINE.csv"))
    frame = game.frames[7]            # line 8: DEFENSIVE "moves" to its own cell
    assert frame.line == 8 and frame.status is S.INVALID_STEP and frame.is_violation and frame.flagged
    assert frame.position == game.frames[6].position.pass_turn()     # the board stays, the turn passes
    assert frame.reason == "your pawn already stands on e1"
    assert frame.violations == (1, 0)
    assert game.frames[-1].violations == (2, 0)


def board_from_rows(path, players: tuple[str, str]):
    """Pawns, walls and walls left read straight from the file, as the old viewer draws it: the last move row
    of each player and every wall row, of the rows whose status it draws (Ok, Win, Lost, EnemyClosed, None)."""
    pawns = {players[0]: Location(5, 1), players[1]: Location(5, 9)}
    walls: set = set()
    placed = {players[0]: 0, players[1]: 0}
    with path.open(newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            if int(row["status"]) not in (0, 1, 2, 4, 2000):
                continue
            cell = Location(int(row["newLoc_x"]), int(row["newLoc_y"]))
            wall = BlockBar.of(*(int(row[c]) for c in ("newBar_start_x", "newBar_start_y", "newBar_stop_x",
                                                        "newBar_stop_y")))
            if cell.is_valid():
                pawns[row["player"]] = cell
            elif not wall.is_none():
                walls.add(wall.normalized())
                placed[row["player"]] += 1
    return (pawns[players[0]], pawns[players[1]]), walls, (10 - placed[players[0]], 10 - placed[players[1]])


def test_the_old_client_log_replays_to_its_final_position_past_its_disagreement_at_line_4():
    path = legacy("client_example.csv")
    game = load_game(path)
    assert game.players == ("Me", "Enemy") and game.rows == 36
    # The disagreement is still reported, and its frame keeps it.
    assert len(game.problems) == 1 and game.problems[0].startswith("line 4: ")
    disagreeing = game.frames[3]
    assert disagreeing.line == 4 and disagreeing.problem is not None and disagreeing.flagged
    assert "7 (InvalidStep)" in disagreeing.problem and "empty step" in disagreeing.problem
    assert disagreeing.player == "Me" and disagreeing.status is S.OK and disagreeing.notation == "-"
    # Every row is shown: checked by the rules before line 4, unverified from it on.
    assert [f.line for f in game.frames] == [None, *range(2, 38)] and game.last_step == 36
    assert [f.unverified for f in game.frames[:3]] == [None] * 3
    assert all(f.unverified == 4 and f.stop is None for f in game.frames[3:])
    assert [f.problem is None for f in game.frames[4:]] == [True] * 33
    # The last frame is the log's own final position: Me's last move (3,4) on line 32, Enemy's (1,1) on line 37.
    pawns, walls, walls_left = board_from_rows(path, game.players)
    final = game.frames[-1].position
    assert pawns == (Location(3, 4), Location(1, 1)) == (final.pawn(0), final.pawn(1))
    assert set(final.walls) == walls and len(walls) == 9 and final.walls_left == walls_left == (6, 5)
    # Violation rows past the disagreement are listed without changing the board.
    assert game.frames[7].status is S.INVALID_STEP and game.frames[7].position.pawns == game.frames[6].position.pawns
    assert set(game.frames[7].position.walls) == set(game.frames[6].position.walls)
    # The last row is Enemy's Win: the end the log claims, shown as unverified (the rules checked up to line 4 only).
    assert game.over and game.end_unverified and (game.winner, game.reason) == (1, "goal")
    assert game.result() == "Enemy won (goal, unverified)" and not game.frames[-1].over


def test_a_row_that_cannot_be_drawn_even_unchecked_ends_the_replay():
    log = small_log()
    bad = [StepRecord("alice", Step.move(5, 5), S.OK, 10, 6),            # disagrees: not reachable from e3
           StepRecord("bob", Step.wall(1, 1, 4, 1), S.OK, 10, 7),         # a wall of length 3: cannot be drawn
           StepRecord("alice", Step.move(5, 6), S.OK, 10, 8)]
    game = frames_from_log(replace(log, steps=log.steps + bad), key="g7")
    assert len(game.frames) == 1 + 6 + 2 and game.rows == 9
    moved, stopped = game.frames[7], game.frames[8]
    assert moved.problem is not None and "not reachable" in moved.problem and moved.unverified == moved.line
    assert moved.position.pawn(0) == Location(5, 5)                       # drawn as the log gives it
    assert stopped.stop is not None and "cannot be drawn even as the log gives it" in stopped.stop
    assert "not a straight wall of length 2" in stopped.stop and stopped.flagged and not stopped.applied
    assert stopped.position == moved.position
    assert len(game.problems) == 2 and game.problems[1].startswith(f"line {stopped.line}: ")


def test_an_enemy_closed_row_ends_the_game_by_disconnect():
    log = small_log()
    steps = log.steps[:5] + [StepRecord("bob", Step.move(5, 8), S.ENEMY_CLOSED, 60, 5)]
    game = frames_from_log(replace(log, steps=steps), key="g7")
    assert game.problems == [] and len(game.frames) == 7
    last = game.frames[-1]
    assert last.over and last.applied and last.position.pawn(1) == Location(5, 8) and last.unverified is None
    assert (game.winner, game.reason) == (1, "disconnect") and game.result() == "bob won (disconnect)"


@pytest.mark.parametrize("name", ["client_example.csv", "server_0_DEFENSIVE_VS_BASELINE.csv",
                                  "server_1_DEFENSIVE_VS_BASELINE.csv"])
def test_the_shared_data_copies_replay_like_the_repo_copies(name):
    path = DATA_LEGACY / name
    if not path.is_file():
        pytest.skip(f"{path.resolve()} is absent (the shared data folder sits beside the repo in CI)")
    ours, theirs = load_game(legacy(name)), load_game(path)
    assert [f.position for f in ours.frames] == [f.position for f in theirs.frames]
    assert ours.problems == theirs.problems


def test_our_logs_carry_times_turns_and_clocks():
    game = frames_from_log(small_log(), key="g7")
    assert game.key == "g7" and game.players == ("alice", "bob") and len(game.frames) == 7
    assert [f.thinking_ms for f in game.frames[1:]] == [120, 340, 15, 1000, 80, 60]
    assert [f.clocks_ms for f in game.frames] == [(0, 0), (120, 0), (120, 340), (135, 340), (135, 1340),
                                                  (215, 1340), (215, 1400)]
    assert game.frames[3].reason.startswith("g7 is not reachable") and game.frames[3].violations == (1, 0)
    assert game.frames[4].status is S.TIMEOUT and game.frames[4].reason == "no answer within the time limit"
    assert game.frames[4].violations == (1, 1)
    assert [f.notation for f in game.frames[1:]] == ["e2", "e7h", "g7", "-", "e3", "e8"]
    assert game.result() == "no result"


def test_a_logged_reason_says_how_late_a_timeout_was():
    log = small_log()
    late = replace(log.steps[3], reason="answered after 1,203 ms; the limit is 1,000 ms")
    game = frames_from_log(replace(log, steps=[*log.steps[:3], late, *log.steps[4:]]), key="g7")
    assert game.frames[4].reason == "answered after 1,203 ms; the limit is 1,000 ms"


def test_legacy_logs_have_no_clocks():
    assert all(f.clocks_ms is None for f in load_game(legacy("server_0_DEFENSIVE_VS_BASELINE.csv")).frames)


def test_describe_step():
    assert describe_step(Step.move(5, 2), S.OK) == "moved to e2"
    assert describe_step(Step.wall(4, 1, 6, 1), S.OK) == "placed wall e1h"
    assert describe_step(Step(), S.INVALID_STEP) == "sent an empty step"
    assert describe_step(Step(), S.TIMEOUT) == "timed out"
    assert describe_step(Step.wall(4, 7, 7, 7), S.INVALID_STEP) == "placed wall ((4,7),(7,7))"


# -- live updates ---------------------------------------------------------------------------------
def update(turn: int, step: str, pos: Position, status: int = 0, *, clocks=(0, 0), over=False,
           game: str = "g1") -> GameUpdate:
    sent = parse_step(step) if step != "-" else Step()
    return GameUpdate.model_validate({
        "game": game, "players": ["ann", "ben"], "turn": turn, "seat": turn % 2,
        "move": list(sent.new_loc) if sent.is_move() else None,
        "wall": [list(sent.new_wall.start), list(sent.new_wall.stop)] if not sent.new_wall.is_none() else None,
        "notation": step, "status": status, "clocks_ms": list(clocks),
        "board": {"pawns": [list(pos.pawn(0)), list(pos.pawn(1))],
                  "walls": [[list(w.start), list(w.stop)] for w in pos.walls], "walls_left": list(pos.walls_left)},
        "over": over})


def test_live_updates_build_a_game_from_its_start():
    games: dict = {}
    p1 = Position.initial().play(parse_step("e2"))
    p2 = p1.play(parse_step("e2h"))
    apply_update(games, update(0, "e2", p1, clocks=(100, 0)), "course")
    game = apply_update(games, update(1, "e2h", p2, clocks=(100, 250)), "course")
    apply_update(games, update(1, "e2h", p2, clocks=(100, 250)), "course")     # a repeat is ignored
    assert game.live and game.key == "g1" and game.players == ("ann", "ben") and not game.over
    assert [f.step for f in game.frames] == [0, 1, 2]
    assert game.frames[1].position == Position.setup((Location(5, 2), Location(5, 9)), turn=1)
    assert set(game.frames[2].position.walls) == set(p2.walls) and game.frames[2].position.walls_left == (10, 9)
    assert [f.thinking_ms for f in game.frames[1:]] == [100, 250]
    assert game.frames[2].player == "ben" and game.result() == "in progress"


def test_a_live_game_joined_late_explains_violations_and_ends_on_a_win():
    games: dict = {}
    pos = Position.setup((Location(5, 8), Location(4, 2)), turn=0)
    game = apply_update(games, update(6, "a1", pos, 7, clocks=(10, 20)), "course")   # joined at turn 6
    assert game.first_step == 7 and len(game.frames) == 1
    assert game.frames[0].status is S.INVALID_STEP and game.frames[0].violations == (1, 0)
    moved = pos.pass_turn().play(parse_step("d3"))
    apply_update(games, update(7, "d3", moved, clocks=(10, 25)), "course")
    apply_update(games, update(8, "a1", moved, 7, clocks=(12, 25)), "course")
    assert game.frames[-1].reason == "a1 is not reachable in one step from e8"   # judged like the referee did
    assert game.frames[-1].violations == (2, 0) and game.frames[-1].position.pawns == game.frames[-2].position.pawns
    back = Position.setup((Location(5, 8), Location(4, 2)))
    apply_update(games, update(9, "d2", back, clocks=(12, 30)), "course")
    won = Position.setup((Location(5, 9), Location(4, 2)), turn=1)
    apply_update(games, update(10, "e9", won, 1, clocks=(40, 30), over=True), "course")
    assert game.frames[-1].over and game.over and game.winner == 0 and game.reason == "goal"
    assert game.frames[-1].thinking_ms == 28 and game.result() == "ann won (goal)"
    assert [f.step for f in game.frames] == [7, 8, 9, 10, 11]


def test_a_live_game_at_the_step_cap_goes_to_the_smaller_clock():
    games: dict = {}
    pos = Position.initial()
    game = apply_update(games, update(199, "-", pos, 7, clocks=(900, 800), over=True), "course")
    assert game.winner == 1 and game.reason == "step_cap"

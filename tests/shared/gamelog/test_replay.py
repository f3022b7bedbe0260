"""Replaying logs through the rules: the three legacy logs, and each way a log can disagree with the rules."""

import pathlib
from dataclasses import replace

import pytest

from shared.gamelog import (
    GameHeader, GameLog, GameOutcome, LogProblem, StepRecord, final_position, format_log, parse_log, replay,
    row_lines, validate,
)
from shared.gamelog.replay import _describe
from shared.quoridor import STANDARD, BlockBar, GameStatus, Location, Position, Step

S = GameStatus
LEGACY = pathlib.Path(__file__).parent / "legacy"


def legacy(name: str) -> GameLog:
    return parse_log((LEGACY / name).read_text(encoding="utf-8"), name=name)


def rows_of(name: str) -> list[list[str]]:
    return [line.split(",") for line in (LEGACY / name).read_text().splitlines()[1:] if line.strip()]


def expected_board(name: str, players: tuple[str, str]) -> tuple[tuple[Location, Location], set]:
    """Pawns and walls straight from the file's Ok/Win rows (independent of the replay)."""
    pawns = [Location(5, 1), Location(5, 9)]
    walls = set()
    for row in rows_of(name):
        x, y, sx, sy, tx, ty, status = (int(v) for v in row[1:8])
        if status not in (0, 1):
            continue
        if x != -1:
            pawns[players.index(row[0])] = Location(x, y)
        else:
            walls.add(Step.wall(sx, sy, tx, ty).new_wall.normalized())
    return (pawns[0], pawns[1]), walls


# -- the legacy logs -----------------------------------------------------------------------------
@pytest.mark.parametrize("name, players, winner, violations", [
    ("server_0_DEFENSIVE_VS_BASELINE.csv", ("193304BASELINE", "193304DEFENSIVE"), 0, (0, 2)),
    # DEFENSIVE opens with three walls; its first attempted move (to its own cell, line 8) seats it at (5,1).
    ("server_1_DEFENSIVE_VS_BASELINE.csv", ("193304DEFENSIVE", "193304BASELINE"), 1, (2, 0)),
])
def test_old_server_logs_replay_to_the_end(name, players, winner, violations):
    log = legacy(name)
    assert log.header.players == players
    assert log.problems == [] and log.outcome is None
    assert {r.reason for r in log.steps} == {""}       # written before logs had a reason column
    run = replay(log)
    assert len(run) == len(log.steps) == len(rows_of(name))
    assert (run.winner, run.reason) == (winner, "goal")
    assert run.violations == violations
    pawns, walls = expected_board(name, players)
    final = final_position(log)
    assert (final.pawn(0), final.pawn(1)) == pawns
    assert set(final.walls) == walls
    assert final.pawn(winner).y == (9 if winner == 0 else 1)


def test_old_server_log_final_positions_in_numbers():
    final0 = final_position(legacy("server_0_DEFENSIVE_VS_BASELINE.csv"))
    assert (final0.pawn(0), final0.pawn(1), final0.walls_left, len(final0.walls)) == \
        (Location(5, 9), Location(2, 9), (0, 0), 20)
    final1 = final_position(legacy("server_1_DEFENSIVE_VS_BASELINE.csv"))
    assert (final1.pawn(0), final1.pawn(1), final1.walls_left, len(final1.walls)) == \
        (Location(1, 1), Location(9, 1), (0, 2), 18)


def test_old_client_example_disagrees_at_its_first_empty_step():
    # Line 4 is "Me,-1,-1,-1,-1,-1,-1,0": an empty step recorded as Ok; the rules make it InvalidStep.
    log = legacy("client_example.csv")
    assert log.header.players == ("Me", "Enemy")
    assert len(log.steps) == 36
    assert [p.line for p in log.problems] == [4]
    assert "status 0 (Ok)" in log.problems[0].message and "7 (InvalidStep)" in log.problems[0].message
    assert "empty step" in log.problems[0].message
    run = replay(log)
    assert [s.line for s in run] == [2, 3]
    # Enemy's first row carries a cell and a wall: it counts as the move, the wall is ignored.
    assert run.position == Position.setup((Location(5, 2), Location(5, 8)))
    assert run.reason is None and run.winner is None


# -- disagreements -----------------------------------------------------------------------------
HEADER = GameHeader(("A", "B"))


def game(*steps: tuple[str, Step, S], outcome: GameOutcome | None = None, header: GameHeader = HEADER) -> GameLog:
    return GameLog(header, [StepRecord(p, s, st) for p, s, st in steps], outcome)


def walk(plies: int) -> list[tuple[str, Step, S]]:
    """A and B stepping forward and back on the e file: always legal, never reaching a goal."""
    rows = []
    for i in range(plies):
        seat, there = i % 2, (i // 2) % 2 == 0
        y = (2 if there else 1) if seat == 0 else (8 if there else 9)
        rows.append(("AB"[seat], Step.move(5, y), S.OK))
    return rows


def first_problem(log: GameLog) -> LogProblem:
    problems = validate(log)
    assert problems, "expected a disagreement"
    return problems[0]


def test_lines_of_a_log_in_memory_are_those_of_its_file():
    log = game(*walk(3), ("B", Step.move(1, 1), S.OK))
    in_memory = first_problem(log)
    from_file = parse_log(format_log(log)).problems[0]
    assert in_memory == from_file
    assert in_memory.line == row_lines(log)[0][3]


def test_an_illegal_ok_row_stops_the_replay_and_keeps_the_position():
    log = game(*walk(3), ("B", Step.move(7, 7), S.OK), *walk(2))
    run = replay(log)
    assert len(run) == 3 and len(run.problems) == 1
    assert "status 0 (Ok)" in run.problems[0].message and "not reachable" in run.problems[0].message
    assert run.position == Position.setup((Location(5, 1), Location(5, 8)), turn=1)


def test_rows_must_alternate_seat_0_first():
    problem = first_problem(game(("B", Step.move(5, 8), S.OK)))
    assert "'B' (seat 1) plays out of turn" in problem.message and "seat 0 moves first" in problem.message
    problem = first_problem(game(("A", Step.move(5, 2), S.OK), ("A", Step.move(5, 3), S.OK)))
    assert "'A' (seat 0) plays out of turn" in problem.message


def test_a_violation_row_must_be_one():
    problem = first_problem(game(("A", Step.move(5, 2), S.INVALID_STEP)))
    assert problem.message == "'A' sent a move to e2 (5,2): the log says status 7 (InvalidStep), but by the rules it is legal"
    problem = first_problem(game(("A", Step.wall(0, 0, 0, 2), S.INSUFFICIENT_BLOCK)))
    assert "7 (InvalidStep)" in problem.message


def test_violations_change_nothing_and_the_third_loses():
    rows = [("A", Step(), S.TIMEOUT), ("B", Step.move(5, 8), S.OK),
            ("A", Step.move(5, 5), S.INVALID_STEP), ("B", Step.move(5, 9), S.OK),
            ("A", Step(), S.RULES_BREAKER)]
    run = replay(game(*rows, outcome=GameOutcome(1, "violations", (0, 0), (3, 0))))
    assert run.problems == []
    assert run.violations == (3, 0) and (run.winner, run.reason) == (1, "violations")
    assert run.position.pawn(0) == Location(5, 1)
    assert [s.judgement is None for s in run] == [True, False, False, False, True]
    wrong = rows[:4] + [("A", Step(), S.TIMEOUT)]
    assert "must be 5 (RulesBreaker)" in first_problem(game(*wrong)).message
    early = [("A", Step(), S.RULES_BREAKER)]
    assert "on violation 1 of 'A'" in first_problem(game(*early)).message
    assert validate(game(*early), violations_to_lose=1) == []


def test_insufficient_block_when_no_walls_are_left():
    rows = []
    for i in range(10):
        rows += [("A", Step.wall(2 * (i % 4), 1 + 2 * (i // 4), 2 * (i % 4) + 2, 1 + 2 * (i // 4)), S.OK),
                 ("B", Step.move(5, 8) if i % 2 == 0 else Step.move(5, 9), S.OK)]
    rows.append(("A", Step.wall(1, 7, 3, 7), S.INSUFFICIENT_BLOCK))
    assert validate(game(*rows)) == []


def test_goal_rows_must_say_win_and_win_must_reach_the_goal():
    a_moves = [Step.move(5, y) for y in range(2, 10)]                  # A walks up the e file
    b_moves = [Step.move(4, 9), Step.move(5, 9)] * 3 + [Step.move(4, 9)]  # B steps aside and back
    to_goal = [("A", a_moves[0], S.OK)]
    for b, a in zip(b_moves, a_moves[1:]):
        to_goal += [("B", b, S.OK), ("A", a, S.OK)]
    won = to_goal[:-1] + [("A", Step.move(5, 9), S.WIN)]
    assert validate(game(*won, outcome=GameOutcome(0, "goal", (0, 0), (0, 0)))) == []
    assert "must be 1 (Win), not 0 (Ok)" in first_problem(game(*to_goal)).message
    lost = to_goal[:-1] + [("A", Step.move(5, 9), S.LOST)]
    assert "must be 1 (Win), not 2 (Lost)" in first_problem(game(*lost)).message
    early_win = [("A", Step.move(5, 2), S.WIN)]
    assert "does not reach the goal row" in first_problem(game(*early_win)).message
    after = won + [("B", Step.move(4, 9), S.OK)]
    assert f"after the game ended on line {row_lines(game(*won))[0][-1]}" in first_problem(game(*after)).message


def test_statuses_that_are_not_a_steps():
    assert "2000 (None) is not the status of a step" in \
        first_problem(game(("A", Step.move(5, 2), S.NONE))).message


def test_enemy_closed_ends_the_game_by_disconnect_and_its_player_wins():
    # EnemyClosed is what a seat is told when its opponent left; our server logs no row for it,
    # only the outcome 'disconnect' naming the same winner, which a row must agree with.
    moved = [("A", Step.move(5, 2), S.OK), ("B", Step.move(5, 8), S.ENEMY_CLOSED)]
    run = replay(game(*moved, outcome=GameOutcome(1, "disconnect", (0, 0), (0, 0))))
    assert run.problems == [] and (run.winner, run.reason) == (1, "disconnect")
    assert run.position.pawn(1) == Location(5, 8) and len(run) == 2
    empty = replay(game(("A", Step.move(5, 2), S.OK), ("B", Step(), S.ENEMY_CLOSED)))
    assert empty.problems == [] and (empty.winner, empty.reason) == (1, "disconnect")
    assert empty.position.pawn(1) == Location(5, 9) and empty.violations == (0, 0)
    assert "after the game ended" in first_problem(game(*moved, ("A", Step.move(5, 3), S.OK))).message
    assert "rows make seat 1 win" in first_problem(game(*moved, outcome=GameOutcome(0, "disconnect", (0, 0),
                                                                                     (0, 0)))).message
    illegal = first_problem(game(("A", Step.move(5, 5), S.ENEMY_CLOSED)))
    assert "the log says status 4 (EnemyClosed), but by the rules it is status 7 (InvalidStep)" in illegal.message
    assert "not reachable" in illegal.message


def test_past_the_first_disagreement_rows_are_drawn_as_the_log_gives_them():
    log = legacy("client_example.csv")
    run = replay(log)
    assert run.disagreement == run.problems[0] and run.disagreement.line == 4 and run.halt is None
    assert [s.line for s in run.unverified] == list(range(4, 38))
    assert not any(s.verified for s in run.unverified) and all(s.verified for s in run)
    assert all(s.judgement is None for s in run.unverified)
    # The rules' position stays where they stopped checking; the drawn one is the log's last board.
    assert run.position == Position.setup((Location(5, 2), Location(5, 8)))
    shown = run.shown_position
    assert (shown.pawn(0), shown.pawn(1)) == (Location(3, 4), Location(1, 1))       # lines 32 and 37
    assert shown.walls_left == (6, 5) and len(shown.walls) == 9
    # What the rules say of the game is what the checked rows show.
    assert run.reason is None and run.violations == (0, 0)


def test_a_row_that_cannot_be_drawn_halts_the_replay():
    rows = walk(3) + [("B", Step.move(7, 7), S.OK), ("A", Step(), S.TIMEOUT), ("B", Step.move(0, 12), S.OK),
                      *walk(2)]
    log = game(*rows)
    run = replay(log)
    lines = row_lines(log)[0]
    assert [p.line for p in run.problems] == [lines[3]] and len(run) == 3
    assert [s.line for s in run.unverified] == lines[3:5]
    assert run.halt is not None and run.halt.line == lines[5]
    assert "move target (0,12) is off the board" in run.halt.message and "replay stops here" in run.halt.message
    assert run.shown_position.pawn(1) == Location(7, 7) and run.shown_position.pawn(0) == Location(5, 1)
    assert validate(log) == run.problems              # the halt is no second disagreement of the rules


def test_turn_numbers_must_increase():
    log = GameLog(HEADER, [StepRecord("A", Step.move(5, 2), S.OK, 5, 4), StepRecord("B", Step.move(5, 8), S.OK, 5, 4)])
    assert "turn number 4 does not follow turn 4" in first_problem(log).message


def test_the_ruleset_of_the_header_is_used():
    crossing = [("A", Step.wall(4, 1, 6, 1), S.OK), ("B", Step.wall(5, 0, 5, 2), S.OK)]
    assert validate(game(*crossing)) == []
    standard = game(*crossing, header=GameHeader(("A", "B"), ruleset="standard"))
    assert "crosses" in first_problem(standard).message
    assert validate(game(*crossing), STANDARD) == validate(standard)


# -- the step cap and the outcome ------------------------------------------------------------------
def capped(last_status: S) -> list[tuple[str, Step, S]]:
    rows = walk(200)
    rows[-1] = (*rows[-1][:2], last_status)
    return rows


def test_the_step_cap_ends_the_game_by_thinking_time():
    log = game(*capped(S.LOST))
    log = replace(log, steps=[replace(r, thinking_ms=1 if r.player == "A" else 2) for r in log.steps],
                  outcome=GameOutcome(0, "step_cap", (100, 200), (0, 0)))
    run = replay(log)
    assert run.problems == [] and (run.winner, run.reason) == (0, "step_cap") and run.steps_made == (100, 100)
    assert validate(replace(log, outcome=None)) == []   # a legacy log: the cap of 100 is the handout's
    longer = replace(log, steps=log.steps + [StepRecord("A", Step.move(5, 2), S.OK)], outcome=None)
    assert "after the game ended" in first_problem(longer).message
    assert validate(game(*walk(202)), step_cap=None) == []
    wrong_winner = replace(log, outcome=GameOutcome(1, "step_cap", (100, 200), (0, 0)))
    messages = [p.message for p in validate(wrong_winner)]
    assert any("the smaller thinking time wins" in m for m in messages)
    assert any("rows make seat 0 win" in m for m in messages)


def test_a_drawn_step_cap_game():
    log = game(*walk(200), outcome=GameOutcome(None, "step_cap", (0, 0), (0, 0)))
    run = replay(log)
    assert run.problems == [] and (run.winner, run.reason) == (None, "step_cap")


def test_the_outcome_must_agree_with_the_rows():
    rows = [("A", Step(), S.TIMEOUT), ("B", Step.move(5, 8), S.OK)]
    good = game(*rows, outcome=GameOutcome(1, "disconnect", (0, 0), (1, 0)))
    assert validate(good) == []
    result_line = row_lines(good)[1]
    bad = {
        "the outcome counts violations (0, 0), the rows (1, 0)": GameOutcome(1, "disconnect", (0, 0), (0, 0)),
        "the outcome says 'goal', but no row ends the game that way": GameOutcome(1, "goal", (0, 0), (1, 0)),
    }
    for message, outcome in bad.items():
        assert validate(replace(good, outcome=outcome)) == [LogProblem(result_line, message)]
    timed = replace(good, steps=[replace(r, thinking_ms=7) for r in good.steps])
    problems = validate(timed)
    assert len(problems) == 1 and "thinking times (0, 0) ms are not the rows' sums (7, 7) ms" in problems[0].message
    uneven = game(("A", Step.move(5, 2), S.OK), outcome=GameOutcome(None, "step_cap", (0, 0), (0, 0)))
    assert "the seats made 1 and 0 steps" in first_problem(uneven).message
    broken = game(("A", Step(), S.RULES_BREAKER), outcome=GameOutcome(1, "disconnect", (0, 0), (1, 0)))
    problem = validate(broken, violations_to_lose=1)[0]
    assert problem.message == "the outcome says 'disconnect', but the rows end the game by 'violations' on line 6"


def test_a_wall_with_a_stray_cell_off_the_board_is_named_as_its_wall():
    # A step with a cell off the board and a wall is a wall (the cell is no move); its name must not
    # depend on the stray cell, which a CSV row does not keep.
    stray = Step(Location(0, 0), BlockBar(Location(5, 1), Location(7, 1)))
    assert _describe(stray) == _describe(Step(new_wall=stray.new_wall))
    assert _describe(stray) == "the wall f1h ((5,1),(7,1))"


def test_the_old_client_logs_last_row_claims_the_end_the_rules_could_not_check():
    run = replay(legacy("client_example.csv"))
    assert run.disagreement is not None and run.disagreement.line == 4
    assert (run.winner, run.reason) == (None, None)               # no checked row ends the game
    assert run.claimed == (1, "goal")                              # line 37: Enemy's Win on a1, its goal row


@pytest.mark.parametrize("last, claimed", [
    (("A", Step(), S.RULES_BREAKER), (1, "violations")),
    (("A", Step.move(5, 3), S.LOST), (1, "step_cap")),
    (("A", Step.move(5, 3), S.WIN), (0, "step_cap")),            # a Win off the goal row: only the step cap
    (("A", Step.move(5, 3), S.ENEMY_CLOSED), (0, "disconnect")),
    (("A", Step.move(5, 3), S.OK), None),
])
def test_the_claimed_end_goes_by_the_last_rows_status(last, claimed):
    rows = [("A", Step.move(5, 2), S.OK), ("B", Step.move(5, 5), S.OK), last]     # B's row disagrees
    assert replay(game(*rows)).claimed == claimed


def test_nothing_is_claimed_when_the_rules_or_the_outcome_say_how_it_ended():
    assert replay(game(*walk(2), ("A", Step.move(5, 3), S.OK))).claimed is None          # agrees throughout
    outcome = GameOutcome(1, "violations", (0, 0), (0, 0))
    rows = [("A", Step.move(5, 2), S.OK), ("B", Step.move(5, 5), S.OK), ("A", Step(), S.RULES_BREAKER)]
    assert replay(game(*rows, outcome=outcome)).claimed is None                           # the log's outcome
    cut = [("A", Step.move(5, 2), S.OK), ("B", Step.move(5, 5), S.OK), ("A", Step.move(0, 9), S.WIN)]
    run = replay(game(*cut))
    assert run.halt is not None and run.claimed is None                                   # its last row not drawn


def test_a_misjudged_row_is_told_in_plain_words():
    problem = first_problem(game(("A", Step(), S.OK)))
    assert problem.message == ("'A' sent the empty step: the log says status 0 (Ok), but by the rules it is "
                               "status 7 (InvalidStep): empty step: neither a move nor a wall")
    assert "judge" not in problem.message

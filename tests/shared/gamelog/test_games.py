"""Property tests on random games played by the rules (violations, timeouts and every ending included):
the CSV round trip is exact, the replay agrees with the game, and a falsified row is found on its line."""

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from shared.gamelog import (
    GameHeader, GameLog, GameOutcome, StepRecord, canonical_step, check_player_name, format_log, parse_log,
    replay, row_lines, validate,
)
from shared.quoridor import RULESETS, BlockBar, GameStatus, Location, Position, Step

S = GameStatus
NAME_CHARS = st.sampled_from(list('ab, "\'xZ9é-_#'))


def valid_name(name: str) -> bool:
    try:
        check_player_name(name)
    except ValueError:
        return False
    return True


names = st.text(NAME_CHARS, min_size=1, max_size=8).filter(valid_name)
coordinate = st.integers(-1, 10)
any_step = st.builds(Step, st.builds(Location, coordinate, coordinate),
                     st.builds(BlockBar, st.builds(Location, coordinate, coordinate),
                               st.builds(Location, coordinate, coordinate)))


@st.composite
def games(draw, max_turns: int = 70) -> tuple[GameLog, Position]:
    """A game as the referee would log it, and the position it ended in."""
    pair = draw(st.lists(names, min_size=2, max_size=2, unique=True))
    header = GameHeader((pair[0], pair[1]), draw(st.sampled_from(sorted(RULESETS))),
                        game=draw(st.none() | st.text(NAME_CHARS, max_size=6)),
                        tournament=draw(st.none() | st.text(NAME_CHARS, max_size=6)),
                        started=draw(st.none() | st.just("2024-05-01T12:00:00Z")))
    pos = Position.initial(RULESETS[header.ruleset])
    records: list[StepRecord] = []
    violations, clocks = [0, 0], [0, 0]
    outcome = None
    for turn in range(max_turns):
        seat, name = pos.turn, header.players[pos.turn]
        ms = draw(st.integers(0, 1200))
        clocks[seat] += ms
        kind = draw(st.sampled_from(("legal " * 10 + "run " * 10 + "timeout random").split()))
        path = pos.shortest_path(seat)
        if kind == "run" and path and path[1] in pos.legal_moves():
            step, status = Step(path[1]), S.OK
        elif kind in ("legal", "run") and pos.count_legal_steps():   # none: hemmed in without walls left
            legal = pos.legal_steps()
            step = legal[draw(st.integers(0, len(legal) - 1))]
            if step.is_move() and draw(st.booleans()):   # a cell and a wall together: counts as the move
                step = Step(step.new_loc, BlockBar.of(4, 7, 6, 7))
            status = pos.judge(step).status
        elif kind == "timeout":
            step, status = Step(), S.TIMEOUT
        else:
            step = draw(any_step)
            status = pos.judge(step).status
        if status is S.OK:
            pos = pos.apply(step)
            if pos.winner() == seat:
                records.append(StepRecord(name, step, S.WIN, ms, turn))
                outcome = GameOutcome(seat, "goal", (clocks[0], clocks[1]), (violations[0], violations[1]))
                break
            records.append(StepRecord(name, step, S.OK, ms, turn))
            continue
        violations[seat] += 1
        pos = pos.pass_turn()
        if violations[seat] == 3:
            records.append(StepRecord(name, step, S.RULES_BREAKER, ms, turn))
            outcome = GameOutcome(1 - seat, "violations", (clocks[0], clocks[1]), (violations[0], violations[1]))
            break
        records.append(StepRecord(name, step, status, ms, turn))
    else:
        left = draw(st.sampled_from([None, "disconnect", "forfeit"]))
        if left is not None:
            outcome = GameOutcome(draw(st.sampled_from([0, 1])), left, (clocks[0], clocks[1]),
                                  (violations[0], violations[1]))
    return GameLog(header, records, outcome), pos


def canonical(log: GameLog) -> GameLog:
    return replace(log, steps=[replace(r, step=canonical_step(r.step)) for r in log.steps])


@settings(max_examples=60, deadline=None)
@given(games())
def test_round_trip_is_exact(played):
    log, _ = played
    text = format_log(log)
    again = parse_log(text, name="generated.csv")
    assert again == canonical(log)
    assert again.problems == []
    assert parse_log(format_log(again)) == again
    crlf = parse_log("\ufeff" + text.replace("\n", "\r\n"))
    assert crlf == again


@settings(max_examples=60, deadline=None)
@given(games())
def test_replay_agrees_with_the_game(played):
    log, end = played
    run = replay(log)
    assert run.problems == []
    assert run.position == end
    assert len(run) == len(log.steps)
    if log.outcome is not None:
        assert (run.winner, run.reason) == (log.outcome.winner, log.outcome.reason)
        assert run.violations == log.outcome.violations and run.thinking_ms == log.outcome.thinking_ms
    # Every row's position is the one before it plus the row's step (or unchanged for a violation).
    before = Position.initial(run.ruleset)
    for row in run:
        if row.record.status in (S.OK, S.WIN):
            assert row.position == before.apply(row.record.step)
        else:
            assert row.position == before.pass_turn()
        before = row.position


@settings(max_examples=60, deadline=None)
@given(games(), st.data())
def test_a_falsified_status_is_found_on_its_line(played, data):
    log, _ = played
    ok_rows = [i for i, r in enumerate(log.steps) if r.status is S.OK]
    if not ok_rows:
        return
    index = data.draw(st.sampled_from(ok_rows))
    steps = list(log.steps)
    steps[index] = replace(steps[index], status=S.INVALID_STEP)
    forged = replace(log, steps=steps)
    problems = validate(forged)
    assert problems and problems[0].line == row_lines(forged)[0][index]
    assert "the log says status 7 (InvalidStep), but by the rules it is legal" in problems[0].message
    assert parse_log(format_log(forged)).problems == problems
    assert len(replay(forged)) == index

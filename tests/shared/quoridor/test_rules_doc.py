"""``docs/rules.md`` says what the referee does: its causes, statuses, examples, numbers and rulesets, checked here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shared.quoridor import (
    BLOCK_SUM, RULESETS, STEP_CAP, VIOLATIONS_TO_LOSE, BlockBar, Cause, GameStatus, Location, Step, parse_position,
    parse_step,
)
from shared.referee import GameReferee, RefereeSettings, StepJudged

ROOT = Path(__file__).resolve().parents[3]
RULES = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    """The text of the section headed ``## title``, up to the next such heading."""
    return RULES.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def rows(text: str) -> list[list[str]]:
    """The body rows of the one Markdown table in ``text``, as lists of cells."""
    lines = [line for line in text.splitlines() if line.startswith("| ")]
    return [[cell.strip() for cell in line.strip("|").split(" | ")] for line in lines[2:]]


def status_name(status: GameStatus) -> str:
    """A status as the rules name it: ``InvalidStep``, ``None``."""
    return "None" if status is GameStatus.NONE else "".join(part.capitalize() for part in status.name.split("_"))


def documented_status(cell: str) -> GameStatus:
    """``InvalidStep (7)`` -> ``GameStatus.INVALID_STEP``, checking that the name and the value agree."""
    name, value = re.fullmatch(r"(\w+) \((\d+)\)", cell).groups()
    status = GameStatus(int(value))
    assert status_name(status) == name, cell
    return status


def step_of(text: str) -> Step:
    """A step as the examples write it: notation (``e2``, ``e1h``, ``-``), a cell ``(x,y)`` or a wall ``((x,y),(x,y))``."""
    numbers = [int(n) for n in re.findall(r"-?\d+", text)]
    if text.startswith("(("):
        return Step(new_wall=BlockBar.of(*numbers))
    if text.startswith("("):
        return Step(Location(*numbers))
    return parse_step(text)


VIOLATIONS = rows(section("Violations"))


def test_the_violations_table_lists_exactly_the_referees_causes():
    codes = [row[0].strip("`") for row in VIOLATIONS]
    assert len(codes) == len(set(codes))
    assert set(codes) == {cause.value for cause in Cause}


@pytest.mark.parametrize("row", [row for row in VIOLATIONS if row[0] != "`late`"], ids=lambda row: row[0].strip("`"))
def test_each_example_earns_the_cause_and_status_the_table_gives(row):
    cause, status, _meaning, example = row
    position, step = re.fullmatch(r"`([^`]+)`, `([^`]+)`", example).groups()
    judgement = parse_position(position).judge(step_of(step))
    assert (judgement.cause, judgement.status) == (Cause(cause.strip("`")), documented_status(status))


def test_a_late_step_is_the_timeout_the_table_says():
    [(_, status, _, _)] = [row for row in VIOLATIONS if row[0] == "`late`"]
    referee = GameReferee(("a", "b"), RefereeSettings(time_limit_ms=1000))
    referee.start()
    referee.clock_started(0, 10.0)
    judged = next(e for e in referee.receive_step(0, 0, Step.move(5, 2), 11.0) if isinstance(e, StepJudged))
    assert (judged.cause, judged.record.status) == (Cause.LATE, documented_status(status))


def test_the_status_codes_are_the_referees():
    assert {(name, int(value)) for name, value, _ in rows(section("Status codes"))} == \
        {(status_name(status), status.value) for status in GameStatus}


def test_the_rulesets_table_matches_the_rulesets():
    table = {row[0].strip("`"): (row[1], row[2]) for row in rows(section("The two rulesets"))}
    assert table == {name: ("yes" if r.diagonal_moves else "no", "yes" if r.walls_may_cross else "no")
                     for name, r in RULESETS.items()}


def test_the_numbers_are_the_referees():
    assert f"**{BLOCK_SUM} walls**" in RULES and f"**{STEP_CAP} steps**" in RULES
    assert VIOLATIONS_TO_LOSE == 3 and "**3rd violation**" in RULES
    assert RefereeSettings().time_limit_ms == 1000 and "**1 second**" in RULES


def test_the_readme_links_the_rules():
    assert "(docs/rules.md)" in (ROOT / "README.md").read_text(encoding="utf-8")

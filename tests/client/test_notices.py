"""Notices: text with tones, printed literally (a bot's ``[red]`` is text) and coloured by tone."""

from __future__ import annotations

import io

from rich.console import Console

from client.notices import Notice, Tone, say_plain, violation_text
from client.render import TONE_STYLES, notice_printer, render_notice
from shared.quoridor import BlockBar, Cause, Location, Step, parse_step

NOTICE = Notice.of("game g1: ", ("win", Tone.GOOD), " against ", ("[bold]two[/]", Tone.NAME))


def test_a_notice_is_its_parts_in_order():
    assert NOTICE.parts == (("game g1: ", Tone.PLAIN), ("win", Tone.GOOD), (" against ", Tone.PLAIN),
                            ("[bold]two[/]", Tone.NAME))
    assert NOTICE.text == "game g1: win against [bold]two[/]"


def test_say_plain_prints_the_text_on_stderr(capsys):
    say_plain(NOTICE)
    assert capsys.readouterr() == ("", "game g1: win against [bold]two[/]\n")


def test_every_tone_has_a_style_and_parts_keep_theirs():
    assert set(TONE_STYLES) == set(Tone)
    text = render_notice(NOTICE)
    assert text.plain == NOTICE.text
    assert [(text.plain[s.start:s.end], s.style) for s in text.spans] == [("win", "green"), ("[bold]two[/]", "bold")]


def test_the_printer_prints_markup_as_text_and_does_not_cut_long_lines():
    console = Console(file=io.StringIO(), width=20, color_system=None)
    say = notice_printer(console)
    say(NOTICE)
    say(Notice.of(("x" * 30, Tone.BAD)))
    assert console.file.getvalue() == "game g1: win against [bold]two[/]\n" + "x" * 30 + "\n"


def test_a_violation_is_told_with_its_turn_step_and_reason():
    assert violation_text(12, Cause.NOT_REACHABLE, "a5 is not reachable in one step from e1", parse_step("a5")) == \
        "turn 12: your step a5 was illegal: a5 is not reachable in one step from e1"
    assert violation_text(7, Cause.LATE, "answered after 1,203 ms; the limit is 1,000 ms", parse_step("e2")) == \
        "turn 7: too late: answered after 1,203 ms; the limit is 1,000 ms"
    assert violation_text(3, "late", "no answer within the limit of 1,000 ms") == \
        "turn 3: too late: no answer within the limit of 1,000 ms"


def test_a_step_without_a_name_is_not_named():
    assert violation_text(2, Cause.EMPTY_STEP, "empty step: neither a move nor a wall", Step()) == \
        "turn 2: your step was illegal: empty step: neither a move nor a wall"
    off = Step(Location(10, 5))
    assert violation_text(2, Cause.OFF_BOARD, "move target (10,5) is off the board", off) == \
        "turn 2: your step was illegal: move target (10,5) is off the board"
    assert violation_text(4, "a_new_rule", "why", Step(new_wall=BlockBar.of(0, 0, 0, 9))) == \
        "turn 4: your step was illegal: why"

"""Notices: text with tones, printed literally (a bot's ``[red]`` is text) and coloured by tone."""

from __future__ import annotations

import io

from rich.console import Console

from client.notices import Notice, Tone, say_plain
from client.render import TONE_STYLES, notice_printer, render_notice

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

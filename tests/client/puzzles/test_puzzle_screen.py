"""What the three puzzle apps share, headless: ``?`` help with the keys and the legend, no command palette."""

from __future__ import annotations

import pytest
from rich.console import Console
from textual.command import CommandPalette
from textual.widgets import Static
from textual.widgets._footer import FooterKey

from client.puzzles.circuit_app import CircuitApp
from client.puzzles.ice_app import IceApp
from client.puzzles.screen import HELP, REDO, RESTART, HelpScreen, Symbol, help_text, key_names, legend_text
from client.puzzles.sokoban_app import SokobanApp
from shared.circuit import parse_circuit
from shared.ice import parse_maze
from shared.sokoban import Collection

KATA = parse_maze("    x \n  #   \n   E  \n #    \n    # \nS    #")


def ice() -> IceApp:
    return IceApp(KATA)


def sokoban() -> SokobanApp:
    return SokobanApp(Collection("#######\n#@ $ .#\n#######\n", "test"))


def circuit() -> CircuitApp:
    return CircuitApp(parse_circuit("S90  I90  L0\n.    .    T0"))


APPS = {"ice": ice, "sokoban": sokoban, "circuit": circuit}
#: Per app: a key that changes the game, and how to read that it did.
MOVES = {"ice": ("up", lambda app: app.game.moves), "sokoban": ("right", lambda app: app.game.moves),
         "circuit": ("space", lambda app: app.game.rotations)}
#: Per app: words the help must hold (a key of its own and symbols of its legend).
WORDS = {"ice": ["s optimal route", "# obstacle", "x stops you", "E end", "arrows slide"],
         "sokoban": ["n next level", "$ box", "* box on a goal", ". goal", "arrows walk"],
         "circuit": ["Space Enter rotate", "● source", "◎ terminal", "━ powered", "arrows move the cursor"]}


def plain(text) -> str:
    console = Console(width=200, color_system=None)
    with console.capture() as capture:
        console.print(text)
    return capture.get()


def words(text) -> str:
    return " ".join(plain(text).split())


@pytest.mark.parametrize("name", list(APPS))
async def test_question_mark_opens_the_help_and_question_mark_or_escape_closes_it(name):
    app = APPS[name]()
    key, played = MOVES[name]
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        shown = words(app.screen.query_one("#help", Static).render())
        for wanted in ["keys", "u z undo", "Esc restart", "? help", "q quit", "symbols", *WORDS[name]]:
            assert wanted in shown, wanted
        await pilot.press(key)                          # the puzzle does not hear keys under the help
        assert played(app) == 0 and isinstance(app.screen, HelpScreen)
        await pilot.press("question_mark")
        assert not isinstance(app.screen, HelpScreen)
        await pilot.press(key)
        assert played(app) == 1
        await pilot.press("question_mark", "escape")     # Esc closes the help; it does not restart the puzzle
        assert not isinstance(app.screen, HelpScreen) and played(app) == 1


@pytest.mark.parametrize("name", list(APPS))
async def test_the_legend_is_under_the_board_and_the_command_palette_is_off(name):
    app = APPS[name]()
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        legend = words(app.query_one("#legend", Static).render())
        assert app.LEGEND and all(f"{symbol.char} {symbol.meaning}" in legend for symbol in app.LEGEND)
        assert len(legend) <= 100                       # one line on a terminal of 100 columns
        footer = [(key.key, key.description) for key in app.query(FooterKey)]
        assert ("question_mark", "help") in footer
        assert not any("palette" in description for _, description in footer)
        await pilot.press("ctrl+p")
        assert not isinstance(app.screen, CommandPalette)


def test_the_ice_legend_names_every_cell():
    legend = plain(legend_text(IceApp.LEGEND))
    assert legend.strip() == "· ice  # obstacle  x stops you  S start  E end  @ you  → your slides"


def test_help_and_legend_texts():
    symbols = [Symbol("#", "bold", "wall"), Symbol("@", "cyan", "you")]
    assert plain(legend_text(symbols)).strip() == "# wall  @ you"
    text = plain(help_text([("arrows", "move"), (key_names(REDO), "redo"), (key_names(RESTART), "restart"),
                            (key_names(HELP), "help")], symbols))
    assert text.splitlines() == ["keys", "  arrows  move", "  r y     redo", "  Esc     restart", "  ?       help", "",
                                 "symbols", "  #  wall", "  @  you", "", "? or Esc closes this help"]

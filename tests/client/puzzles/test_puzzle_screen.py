"""What the three puzzle apps share, headless: one key map doing the same in each, ``?`` help made from it, the
legend, no command palette."""

from __future__ import annotations

import pytest
from rich.console import Console
from textual.command import CommandPalette
from textual.widgets import Static
from textual.widgets._footer import FooterKey

from client.puzzles.circuit_app import CircuitApp
from client.puzzles.ice_app import IceApp
from client.puzzles.screen import KEY_MAP, RESTART_QUESTION, HelpScreen, Symbol, help_text, key_names, legend_text
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
WORDS = {"ice": ["s optimal route", "# obstacle", "x stops you", "E end"],
         "sokoban": ["n next level", "$ box", "* box on a goal", ". goal"],
         "circuit": ["h hint", "● source", "◎ terminal", "━ powered"]}
ENTRY = {entry.action: entry for entry in KEY_MAP}


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
        for entry in KEY_MAP:                           # the whole map, in every puzzle
            assert f"{key_names(entry.keys)} {entry.what}" in shown, entry
        for wanted in ["keys", "u z Backspace undo", "r y redo", "Esc restart: press it twice", "? this help",
                       "Space Enter circuit: turn", "q quit", "symbols", *WORDS[name]]:
            assert wanted in shown, wanted
        await pilot.press(key)                          # the puzzle does not hear keys under the help
        assert played(app) == 0 and isinstance(app.screen, HelpScreen)
        await pilot.press("question_mark")
        assert not isinstance(app.screen, HelpScreen)
        await pilot.press(key)
        assert played(app) == 1
        await pilot.press("question_mark", "escape")     # Esc closes the help; it does not restart the puzzle
        assert not isinstance(app.screen, HelpScreen) and played(app) == 1 and not app.restart_asked


def status(app) -> str:
    return str(app.query_one("#status", Static).render())


@pytest.mark.parametrize("name", list(APPS))
async def test_every_key_of_the_map_does_the_same_in_each_puzzle(name):
    app = APPS[name]()
    key, played = MOVES[name]
    async with app.run_test(size=(100, 40)) as pilot:
        for undo in ENTRY["undo"].keys:
            await pilot.press(key)
            assert played(app) == 1
            await pilot.press(undo)
            assert played(app) == 0, undo
            for redo in ENTRY["redo"].keys:
                await pilot.press(redo)
                assert played(app) == 1, redo
                await pilot.press(undo)
                assert played(app) == 0
        await pilot.press(key)
        [restart] = ENTRY["restart"].keys
        await pilot.press(restart)                      # one press asks and keeps the moves
        assert played(app) == 1 and status(app) == RESTART_QUESTION
        await pilot.press("x")                          # any other key takes the question back
        assert played(app) == 1 and status(app) != RESTART_QUESTION
        await pilot.press(restart)
        assert played(app) == 1
        await pilot.press(restart)                      # the second press restarts
        assert played(app) == 0 and status(app) != RESTART_QUESTION
        await pilot.press(restart, "u")                 # undo after a question undoes, and asks no more
        assert played(app) == 0 and not app.restart_asked


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
    text = plain(help_text([(key_names(ENTRY[action].keys), action) for action in ("move", "redo", "restart", "help")],
                           symbols))
    assert text.splitlines() == ["keys", "  arrows  move", "  r y     redo", "  Esc     restart", "  ?       help", "",
                                 "symbols", "  #  wall", "  @  you", "", "? or Esc closes this help"]

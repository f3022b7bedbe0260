"""The puzzle rooms' one key map in the browser (the terminal's, key for key) and play by touch on a phone.

Every key of the map does the same in Sokoban, the ice maze and circuit repair; the page's help is made
from the map and says what the terminal's help says; Sokoban and the ice maze are played on a 390x844
touch screen by swipes on the board and the pad's buttons.
"""

from __future__ import annotations

import pytest

from client.puzzles.screen import KEY_MAP, key_names
from shared.circuit import clicks, parse_circuit
from shared.circuit import solve as solve_circuit
from shared.ice import parse_maze
from shared.ice import solve as solve_maze

from .conftest import SCREENSHOTS
from .test_puzzle_pages import counter, go_to, http, open_room

LEVEL = "#######\n#@ $ .#\n#######"
#: The map's keys in the browser's names (Textual's on the terminal's side).
BROWSER_KEY = {"up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight", "escape": "Escape",
               "backspace": "Backspace", "space": " ", "enter": "Enter", "question_mark": "?"}
ENTRY = {entry.action: entry for entry in KEY_MAP}


def keys(action: str) -> list[str]:
    """The browser's keys for an action of the terminal's map."""
    return [BROWSER_KEY.get(key, key) for key in ENTRY[action].keys]


async def sokoban(page, server) -> None:
    await page.goto(http(server, "/puzzles"))
    await page.locator("details.own summary").click()
    await page.locator("#xsb").fill(LEVEL)
    await page.locator("button[type=submit]").click()
    await page.locator("#grid .player").wait_for(timeout=5000)
    await page.locator("#grid").focus()


async def first_ice_move(page) -> str:
    """The first letter of an optimal route of the maze on the page (a move that goes somewhere)."""
    return solve_maze(parse_maze((await page.get_attribute("#grid", "data-rows")).split("\n")))


async def test_the_pages_help_is_the_terminals_key_map(browser, make_server):
    server = await make_server(players=0)
    page = await browser.new_page()
    await page.goto(http(server, "/puzzles"))
    assert await page.locator("#keys-help").get_attribute("open") is None
    await page.keyboard.press("?")
    assert await page.locator("#keys-help").get_attribute("open") is not None
    rows = await page.evaluate("() => [...document.querySelectorAll('#keys tr')].map("
                               "r => [r.querySelector('th').textContent, r.querySelector('td').textContent])")
    assert rows[:len(KEY_MAP)] == [[key_names(entry.keys), entry.what] for entry in KEY_MAP]
    assert [name for name, _ in rows[len(KEY_MAP):]] == ["swipe", "click / tap"]
    await page.keyboard.press("?")
    assert await page.locator("#keys-help").get_attribute("open") is None


async def check_the_map(page, change, name: str) -> None:
    """``change()`` plays one step that sets counter ``name`` to 1; every undo, redo and restart key then does its
    thing, restart only on a second press (any other key in between takes the question back)."""
    for undo in keys("undo"):
        await change()
        await counter(page, name, 1)
        await page.keyboard.press(undo)
        await counter(page, name, 0)
        for redo in keys("redo"):
            await page.keyboard.press(redo)
            await counter(page, name, 1)
            await page.keyboard.press(undo)
            await counter(page, name, 0)
    await change()
    await counter(page, name, 1)
    [restart] = keys("restart")
    await page.keyboard.press(restart)
    await page.locator("#notice").wait_for(state="visible", timeout=2000)
    assert "restart?" in await page.locator("#notice").inner_text()
    await page.keyboard.press("x")
    await page.locator("#notice").wait_for(state="hidden", timeout=2000)
    await page.keyboard.press(restart)
    await page.keyboard.press(restart)
    await counter(page, name, 0)
    await page.keyboard.press("Control+z")                   # as in an editor: Ctrl+Z undoes, Ctrl+Y redoes
    await change()
    await counter(page, name, 1)
    await page.keyboard.press("Control+z")
    await counter(page, name, 0)
    await page.keyboard.press("Control+y")
    await counter(page, name, 1)


@pytest.mark.parametrize("room", ["sokoban", "ice", "circuit"])
async def test_every_key_of_the_map_does_the_same_in_each_room(browser, make_server, room):
    server = await make_server(players=0)
    page = await browser.new_page()
    if room == "sokoban":
        await sokoban(page, server)
        await check_the_map(page, lambda: page.keyboard.press("ArrowRight"), "moves")
    elif room == "ice":
        await open_room(page, server, "ice", "easy", 11)
        await page.locator("#grid .player").wait_for(timeout=5000)
        arrow = {"u": "ArrowUp", "d": "ArrowDown", "l": "ArrowLeft", "r": "ArrowRight"}[(await first_ice_move(page))[0]]
        await check_the_map(page, lambda: page.keyboard.press(arrow), "moves")
    else:
        await open_room(page, server, "circuit", "easy", 7)
        tiles = await page.evaluate("""() => {
            const rows = [];
            for (const c of document.querySelectorAll('#grid [data-tile]'))
              (rows[Number(c.dataset.row)] ??= [])[Number(c.dataset.col)] = c.dataset.tile;
            return rows.map(r => r.join(' '));
        }""")
        circuit = parse_circuit(tiles)
        target = solve_circuit(circuit)
        pos = next(p for p, rotation in target.items() if clicks(circuit[p].rotation, rotation))
        await go_to(page, pos)
        for turn in keys("rotate"):                           # Space and Enter turn, l locks: then neither turns
            await page.keyboard.press(turn)
            await counter(page, "rotations", 1)
            await page.keyboard.press("u")
            await counter(page, "rotations", 0)
        await page.keyboard.press("l")
        await page.locator("#grid .tile.locked").wait_for(timeout=5000)
        await page.keyboard.press("Enter")
        await page.keyboard.press("u")                        # undoes the lock, not a turn
        await page.locator("#grid .tile.locked").wait_for(state="detached", timeout=5000)
        await page.keyboard.press("r")                        # redoes the lock
        await page.locator("#grid .tile.locked").wait_for(timeout=5000)
        await page.keyboard.press("l")
        await page.locator("#grid .tile.locked").wait_for(state="detached", timeout=5000)
        await counter(page, "rotations", 0)
        await check_the_map(page, lambda: page.keyboard.press("Space"), "rotations")


async def swipe(page, dx: int, dy: int) -> None:
    """A finger's swipe across the board from its middle, as the touch screen reports it (Chromium's touch input)."""
    box = await page.locator("#grid").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp = await page.context.new_cdp_session(page)
    await cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for step in range(1, 5):
        await cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [
            {"x": x + dx * step / 4, "y": y + dy * step / 4}]})
    await cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    await cdp.detach()


async def no_sideways_scroll(page) -> None:
    assert await page.evaluate("() => document.documentElement.scrollWidth <= document.documentElement.clientWidth")


async def test_sokoban_is_played_by_touch_on_a_phone(phone, make_server):
    server = await make_server(players=0)
    page = phone
    await sokoban(page, server)
    await swipe(page, 80, 6)                                   # a swipe to the right walks right
    await counter(page, "moves", 1)
    await swipe(page, 8, 5)                                    # a tap is not a move
    await page.locator("#pad [data-action=undo]").tap()
    await counter(page, "moves", 0)
    await page.locator("#pad [data-action=redo]").tap()
    await counter(page, "moves", 1)
    await page.locator("#pad [data-action=restart]").tap()     # asks first
    await page.locator("#notice").wait_for(state="visible", timeout=2000)
    await counter(page, "moves", 1)
    await page.locator("#pad [data-action=restart]").tap()
    await counter(page, "moves", 0)
    assert not await page.locator("#pad [data-action=rotate]").is_visible()     # circuit repair's own buttons
    await page.locator("#pad [data-dir=r]").tap()
    await swipe(page, 90, -10)
    await swipe(page, 70, 0)
    await page.wait_for_function("() => document.getElementById('verdict').dataset.solved === 'true'", timeout=5000)
    await no_sideways_scroll(page)
    for button in await page.locator("#pad button:visible").all():
        box = await button.bounding_box()
        assert box["width"] >= 40 and box["height"] >= 40 and box["x"] + box["width"] <= 390, "a finger's target"
    SCREENSHOTS.mkdir(exist_ok=True)
    await page.screenshot(path=str(SCREENSHOTS / "puzzles-touch-390.png"))


async def test_an_ice_maze_is_solved_by_touch_on_a_phone(phone, make_server):
    server = await make_server(players=0)
    page = phone
    await open_room(page, server, "ice", "easy", 11)
    await page.locator("#grid .player").wait_for(timeout=5000)
    route = await first_ice_move(page)
    vector = {"u": (0, -80), "d": (0, 80), "l": (-80, 0), "r": (80, 0)}
    for index, letter in enumerate(route):
        if index % 2:
            await page.locator(f"#pad [data-dir={letter}]").tap()
        else:
            await swipe(page, *vector[letter])
        await counter(page, "moves", index + 1)
    await page.wait_for_function("() => document.getElementById('verdict').dataset.solved === 'true'", timeout=5000)
    await no_sideways_scroll(page)

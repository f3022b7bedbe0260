"""The ice maze and circuit repair in a real browser: played by keys through their rooms, verdict and counters seen."""

from __future__ import annotations

from shared.circuit import clicks, parse_circuit
from shared.circuit import solve as solve_circuit
from shared.grid import Pos
from shared.ice import parse_maze
from shared.ice import solve as solve_maze

from .conftest import http, screenshot

ARROW = {"u": "ArrowUp", "d": "ArrowDown", "l": "ArrowLeft", "r": "ArrowRight"}



async def counter(page, name: str, value: int) -> None:
    """Wait until the room's counter ``name`` shows ``value``."""
    await page.wait_for_function(
        f"() => document.querySelector('[data-counter={name}]')?.textContent === '{value}'", timeout=5000)


async def open_room(page, server, room: str, difficulty: str, seed: int) -> None:
    """The puzzles page with ``room`` chosen, a level of ``difficulty`` and ``seed`` asked for, and its grid drawn."""
    await page.goto(http(server, f"/puzzles?room={room}"))
    await page.locator("#difficulty").select_option(difficulty)
    await page.locator("#seed").fill(str(seed))
    await page.locator("button[type=submit]").click()
    await page.locator("#grid .c").first.wait_for(timeout=5000)
    await page.locator("#grid").focus()


async def test_an_ice_maze_is_solved_by_keys(browser, make_server):
    server = await make_server(players=0)
    page = await browser.new_page()
    await open_room(page, server, "ice", "easy", 11)
    await page.locator("#grid .player").wait_for(timeout=5000)
    maze = parse_maze((await page.get_attribute("#grid", "data-rows")).split("\n"))
    route = solve_maze(maze)
    assert route, "the room only deals solvable mazes"
    await page.keyboard.press(ARROW[route[0]])
    await counter(page, "moves", 1)
    await page.keyboard.press("u")                           # undo, redo (the terminal's keys)
    await counter(page, "moves", 0)
    await page.keyboard.press("y")
    await counter(page, "moves", 1)
    await page.keyboard.press("Escape")                      # restart: asked, then done
    await page.keyboard.press("Escape")
    await counter(page, "moves", 0)
    for letter in route:
        await page.keyboard.press(ARROW[letter])
    await counter(page, "moves", len(route))
    await page.wait_for_function("() => document.getElementById('verdict').dataset.solved === 'true'",
                                 timeout=5000)
    verdict = await page.locator("#verdict").inner_text()
    assert "solved" in verdict and "optimal true" in verdict and f"moves {len(route)}" in verdict
    await page.locator("#leaderboard li:not(.muted)").first.wait_for(timeout=5000)
    await screenshot(page, "puzzles-ice")


async def cursor(page) -> Pos:
    row, col = (await page.get_attribute("#grid", "data-cursor")).split(",")
    return Pos(int(row), int(col))


async def go_to(page, target: Pos) -> None:
    """Move the page's cursor to ``target`` with the arrow keys."""
    here = await cursor(page)
    for _ in range(abs(target.row - here.row)):
        await page.keyboard.press("ArrowDown" if target.row > here.row else "ArrowUp")
    for _ in range(abs(target.col - here.col)):
        await page.keyboard.press("ArrowRight" if target.col > here.col else "ArrowLeft")
    assert await cursor(page) == target


async def test_a_circuit_is_repaired_by_keys(browser, make_server):
    server = await make_server(players=0)
    page = await browser.new_page()
    await open_room(page, server, "circuit", "easy", 7)
    tiles = await page.evaluate("""() => {
        const rows = [];
        for (const c of document.querySelectorAll('#grid [data-tile]')) {
          (rows[Number(c.dataset.row)] ??= [])[Number(c.dataset.col)] = c.dataset.tile;
        }
        return rows.map(r => r.join(' '));
    }""")
    circuit = parse_circuit(tiles)
    target = solve_circuit(circuit)
    assert target is not None
    turns = {pos: clicks(circuit[pos].rotation, rotation) for pos, rotation in target.items()}
    turns = {pos: n for pos, n in turns.items() if n}
    assert turns, "a level starts scrambled"
    first = next(iter(turns))
    await go_to(page, first)
    await page.keyboard.press("l")                           # locked: Space does not turn it
    await page.locator("#grid .tile.locked").wait_for(timeout=5000)
    await page.keyboard.press("l")
    await page.locator("#grid .tile.locked").wait_for(state="detached", timeout=5000)
    await page.keyboard.press("Space")
    await counter(page, "rotations", 1)
    await page.keyboard.press("u")                           # undo the turn
    await counter(page, "rotations", 0)
    done = 0
    for pos, n in turns.items():
        await go_to(page, pos)
        for _ in range(n):
            await page.keyboard.press("Space")
        done += n
        await counter(page, "rotations", done)
    await page.wait_for_function("() => document.getElementById('verdict').dataset.solved === 'true'",
                                 timeout=5000)
    assert "solved" in await page.locator("#verdict").inner_text()
    await counter(page, "rank", 1)
    await page.locator("#leaderboard li:not(.muted)").first.wait_for(timeout=5000)
    await screenshot(page, "puzzles-circuit")

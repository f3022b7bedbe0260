"""The pages in a real browser: live boards, the game page's steps, TV, uploads, a Sokoban level, screenshots."""

from __future__ import annotations

import asyncio
import pathlib
import shutil
import struct

import pytest

from client.replay.sources import load_game
from shared.web import PAGES
from tests.server.conftest import ScriptedBot, url

from .conftest import SCREENSHOTS, SIZES, http, screenshot

LEGACY = pathlib.Path("/work/shared/data/legacy-logs")
LOG = LEGACY / "server_0_DEFENSIVE_VS_BASELINE.csv"
needs_log = pytest.mark.skipif(not LOG.is_file(), reason="the course's logs are not on this machine")



async def drawn(page) -> tuple[dict[str, str], list[str]]:
    """The board as the page draws it: pawn by cell, and the walls."""
    cells, walls = await page.evaluate("""() => {
        const svg = document.querySelector('.board-wrap svg.board');
        const cells = {};
        for (const c of svg.querySelectorAll('[data-cell]')) cells[c.dataset.cell] = c.dataset.pawn;
        return [cells, [...svg.querySelectorAll('[data-wall]')].map(w => w.dataset.wall).sort()];
    }""")
    return cells, walls


def expected(position) -> tuple[dict[str, str], list[str]]:
    """The referee's position in the same form."""
    cells = {f"{x},{y}": "" for x in range(1, 10) for y in range(1, 10)}
    for seat in (0, 1):
        pawn = position.pawn(seat)
        cells[f"{pawn.x},{pawn.y}"] = str(seat)
    walls = []
    for w in position.walls:
        (x1, y1), (x2, y2) = sorted([(w.start.x, w.start.y), (w.stop.x, w.stop.y)])
        walls.append(f"{x1},{y1},{x2},{y2}")
    return cells, sorted(walls)


async def play(server, players: int, delay: float) -> list[ScriptedBot]:
    bots = [ScriptedBot(url(server), f"k{i}", name=f"bot{i}", delay=delay) for i in range(players)]
    for bot in bots:
        asyncio.ensure_future(bot.run())
    return bots


async def test_the_tournament_page_shows_standings_and_live_boards_move(browser, make_server):
    server = await make_server(players=2, games_per_pairing=3)
    page = await browser.new_page()
    await page.goto(http(server))
    bots = await play(server, 2, 0.12)
    run = asyncio.ensure_future(server.run_tournament())
    card = page.locator(".mini").first
    await card.wait_for(timeout=5000)
    turn = await card.get_attribute("data-turn")
    await page.wait_for_function(
        f"() => {{ const c = document.querySelector('.mini'); return c && c.dataset.turn !== '{turn}'; }}",
        timeout=1000)
    game = await page.locator(".mini").first.get_attribute("data-game")
    watcher = await browser.new_page()             # the game's own page follows it live
    await watcher.goto(http(server, f"/game?game={game}"))
    await watcher.locator(".board-wrap svg").wait_for(timeout=5000)
    shown = int(await watcher.get_attribute(".player", "data-step"))
    await watcher.wait_for_function(f"() => Number(document.querySelector('.player').dataset.step) > {shown}",
                                    timeout=2000)
    assert server.connections.spectators, "the pages are spectators"
    await page.locator("table.standings tbody tr").first.wait_for(timeout=10000)
    await screenshot(page, "tournament")
    assert await page.locator("table.standings tbody tr").count() == 2
    assert "bot" in await page.locator("table.standings").inner_text()
    await asyncio.wait_for(run, 60)
    await page.wait_for_function("() => document.getElementById('progress').textContent.includes('over')",
                                 timeout=5000)
    assert await page.locator("#recent li a").count() >= 1
    assert await page.locator("table.crosstable").count() == 1
    del bots


async def test_tv_switches_when_its_game_ends(browser, make_server):
    server = await make_server(players=2, games_per_pairing=3)
    page = await browser.new_page()
    await page.goto(http(server, "/tv"))
    await play(server, 2, 0.1)
    run = asyncio.ensure_future(server.run_tournament())
    await page.wait_for_function("() => document.body.dataset.game", timeout=5000)
    first = await page.evaluate("() => document.body.dataset.game")
    await screenshot(page, "tv")
    await page.wait_for_function(f"() => document.body.dataset.game && document.body.dataset.game !== '{first}'",
                                 timeout=15000)
    await asyncio.wait_for(run, 60)


@needs_log
async def test_the_game_page_reaches_every_step_by_slider_and_keys(browser, make_server):
    server = await make_server(players=0)
    folder = server.settings.data_dir / "course"
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(LOG, folder / LOG.name)
    frames = load_game(LOG).frames
    page = await browser.new_page()
    await page.goto(http(server, f"/game?game=course/{LOG.name}&step=3"))
    await page.locator(".board-wrap svg").wait_for(timeout=5000)
    assert await page.get_attribute(".player", "data-step") == "3"
    assert await drawn(page) == expected(frames[3].position)
    await page.keyboard.press("End")
    last = len(frames) - 1
    assert await page.get_attribute(".player", "data-step") == str(last)
    assert await drawn(page) == expected(frames[last].position)
    await page.wait_for_function(f"() => location.search.includes('step={last}')", timeout=2000)   # the URL follows
    await page.keyboard.press("Home")
    for k in range(1, 8):
        await page.keyboard.press("ArrowRight")
        assert await drawn(page) == expected(frames[k].position), f"step {k}"
    await page.keyboard.press("ArrowLeft")
    assert await drawn(page) == expected(frames[6].position)
    for k in (0, last // 2, last - 1):
        await page.locator(".slider").fill(str(k))
        assert await page.get_attribute(".player", "data-step") == str(k)
        assert await drawn(page) == expected(frames[k].position), f"slider {k}"
    await page.keyboard.press("End")
    await screenshot(page, "game")


@needs_log
async def test_an_uploaded_course_log_shows_the_replay_viewers_final_position(browser, make_server, tmp_path):
    server = await make_server(players=0)
    page = await browser.new_page()
    await page.goto(http(server, "/replays"))
    await page.locator("#file").set_input_files(str(LOG))
    await page.locator("#upload-player .board-wrap svg").wait_for(timeout=5000)
    assert await drawn(page) == expected(load_game(LOG).frames[-1].position)
    await screenshot(page, "replays")
    bad = tmp_path / "broken.csv"
    lines = LOG.read_text().splitlines()
    lines[5] = "193304BASELINE,5,2,-1"
    bad.write_text("\n".join(lines) + "\n")
    await page.locator("#file").set_input_files(str(bad))
    error = page.locator("#upload-error")
    await error.wait_for(state="visible", timeout=5000)
    text = await error.inner_text()
    assert "broken.csv" in text and "line 6" in text
    await screenshot(page, "replays-error")


async def test_a_sokoban_level_is_solved_by_keys(browser, make_server):
    server = await make_server(players=0)
    page = await browser.new_page()
    await page.goto(http(server, "/puzzles"))
    await page.locator("details.own summary").click()
    await page.locator("#xsb").fill("#######\n#@ $ .#\n#######")
    await page.locator("button[type=submit]").click()
    await page.locator("#grid .player").wait_for(timeout=5000)
    await page.locator("#grid").focus()
    for key in ("ArrowRight", "ArrowRight", "ArrowLeft"):
        await page.keyboard.press(key)
    await page.wait_for_function("() => document.querySelector('[data-counter=moves]')?.textContent === '3'",
                                 timeout=5000)
    await page.keyboard.press("u")
    await page.wait_for_function("() => document.querySelector('[data-counter=moves]')?.textContent === '2'",
                                 timeout=5000)
    await page.keyboard.press("Escape")                   # restart: the first Esc asks, the second restarts
    await page.keyboard.press("Escape")
    await page.wait_for_function("() => document.querySelector('[data-counter=moves]')?.textContent === '0'",
                                 timeout=5000)
    for key in ("ArrowRight", "ArrowRight", "ArrowRight"):
        await page.keyboard.press(key)
    await page.wait_for_function("() => document.getElementById('verdict').dataset.solved === 'true'",
                                 timeout=5000)
    assert "solved" in await page.locator("#verdict").inner_text()
    await page.locator("#leaderboard li:not(.muted)").first.wait_for(timeout=5000)
    await screenshot(page, "puzzles")


@needs_log
async def test_the_html_export_plays_with_the_same_player(browser, tmp_path):
    from client.replay.cli import main
    target = tmp_path / "game.html"
    assert main([str(LOG), "--html", str(target)]) == 0
    frames = load_game(LOG).frames
    page = await browser.new_page()
    await page.goto(target.as_uri())
    await page.locator(".board-wrap svg").wait_for(timeout=5000)
    assert await drawn(page) == expected(frames[-1].position)
    await page.keyboard.press("Home")
    await page.keyboard.press("ArrowRight")
    await page.keyboard.press("ArrowRight")
    assert await drawn(page) == expected(frames[2].position)
    await screenshot(page, "html-export")


def png_size(path: pathlib.Path) -> tuple[int, int]:
    """A PNG's width and height, from its IHDR chunk."""
    data = path.read_bytes()[:24]
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", f"{path} is not a PNG"
    return struct.unpack(">II", data[16:24])


async def test_every_page_is_screenshot_at_both_sizes(browser, make_server):
    server = await make_server(players=2, games_per_pairing=2)
    await play(server, 2, 0.1)
    run = asyncio.ensure_future(server.run_tournament())
    page = await browser.new_page()
    await page.goto(http(server))
    game = await page.locator(".mini").first.get_attribute("data-game", timeout=5000)
    ready = {"/": ".mini", "/game": ".board-wrap svg", "/tv": "#tv-board svg", "/replays": "#folders details",
             "/puzzles": "#pick", "/submit": "#hand-in", "/organiser": "#open"}   # what shows that the page has its data
    assert set(ready) == set(PAGES), "a new page needs its screenshot here"
    for route, name in PAGES.items():
        await page.goto(http(server, f"{route}?game={game}" if route == "/game" else route))
        await page.locator(ready[route]).first.wait_for(timeout=5000)
        shot = "page-" + name.removesuffix(".html")
        await screenshot(page, shot)
        for width, height in SIZES:
            assert png_size(SCREENSHOTS / f"{shot}-{width}.png") == (width, height), f"{route} at {width}"
    await asyncio.wait_for(run, 60)

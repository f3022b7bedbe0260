"""The tournament's pages at both ends, in Chromium: the lobby from the first second, the final kept on screen."""

from __future__ import annotations

import asyncio
import json

from tests.server.conftest import ScriptedBot, bounded, url
from tests.server.support import play

from .test_pages import http

NAMES = ("alice", "bob", "carol", "dave")


async def _crosstable(page) -> list[list[str]]:
    """The crosstable's cells as the page shows them, row by row (the diagonal included, empty)."""
    return await page.evaluate("""() => [...document.querySelectorAll('table.crosstable tbody tr')].map(
        tr => [...tr.querySelectorAll('td')].map(td => td.textContent))""")


async def test_the_final_reaches_every_page_and_stays_after_the_server_has_gone(browser, make_server):
    server = await make_server(players=4, games_per_pairing=2)
    page, tv, replays = await browser.new_page(), await browser.new_page(), await browser.new_page()
    await page.goto(http(server))
    await tv.goto(http(server, "/tv"))
    await replays.goto(http(server, "/replays"))
    await page.wait_for_function("() => document.body.dataset.stage === 'waiting'", timeout=5000)
    standings = await play(server, [ScriptedBot(url(server), name, name=name) for name in NAMES], seconds=60)
    await page.wait_for_function("() => document.body.dataset.closed", timeout=5000)
    assert await page.evaluate("() => document.body.dataset.closed") == "finished"
    assert "the tournament has finished" in await page.inner_text("#conn")
    await replays.wait_for_function("() => document.body.dataset.closed === 'finished'", timeout=5000)   # every page
    assert await page.locator("#recent li a").count() == 12              # every game, the last one too
    results = json.loads((server.folder / "results.json").read_text(encoding="utf-8"))["games"]
    newest = sorted(results, key=lambda game: game["ended_at"])[-1]     # of games ending in the same ms, the later one
    score = newest["result"].replace("1/2-1/2", "½-½")
    assert (await page.locator("#recent li").first.inner_text()).startswith(   # the most recent is the last to end
        f"{newest['white']} {score} {newest['black']}")
    cells = await _crosstable(page)
    assert all(len(cell.split()) == 2 for row in cells for cell in row if cell), cells   # 2 games per pairing
    assert sum(1 for row in cells for cell in row if cell) == 12
    rows = await page.locator("table.standings tbody tr").all_inner_texts()
    assert len(rows) == 4 and all(row.split("\t")[3] == "6" for row in rows)
    first = [row.player for row in standings.rows() if row.rank == 1]     # the same bots: a shared first place may be
    shown = await page.inner_text("#champion")
    assert all(name in shown for name in first) and ("Shared" in shown) == (len(first) > 1)
    assert "tournament over" in await page.inner_text("#progress")
    # TV ends on its final screen: the winner, the podium, the last game's board; never an empty board.
    await tv.wait_for_function("() => document.body.classList.contains('final')", timeout=5000)
    assert (await tv.inner_text("#tv-champion")).strip() == " & ".join(first)
    assert await tv.locator(".podium-step .podium-name").count() == 3
    assert await tv.locator(".tv-last svg.board").count() == 1
    caption = await tv.inner_text("#tv-others")                 # the last game, with its result when won
    last = [g for g in results if g["ended_at"] == newest["ended_at"]]          # games may end in the same ms
    assert any(f"{g['white']} {g['result'] if g['reason'] == 'goal' else '–'} {g['black']}" in caption for g in last)
    assert "waiting for a game" not in await tv.inner_text("body")
    size = await tv.evaluate("() => parseFloat(getComputedStyle(document.getElementById('tv-champion')).fontSize)")
    assert size >= 100                                       # readable across a room (7vw: 134 px at 1920)
    await server.close()                                     # the server has gone: the pages keep the final
    assert await page.locator("#recent li a").count() == 12
    assert (await tv.inner_text("#tv-champion")).strip() == " & ".join(first)


async def test_the_lobby_shows_this_server_from_the_first_second_not_the_previous_run(browser, make_server):
    earlier = await make_server(players=2, games_per_pairing=1)
    await play(earlier, [ScriptedBot(url(earlier), f"k{i}", name=f"old{i}") for i in range(2)])
    await earlier.close()
    server = await make_server(players=4, games_per_pairing=2)   # the same data directory, a new tournament
    page, tv = await browser.new_page(), await browser.new_page()
    await page.goto(http(server))
    await tv.goto(http(server, "/tv"))
    await page.wait_for_function("() => document.body.dataset.stage === 'waiting'", timeout=5000)
    assert await page.inner_text("#title") == "Waiting for players"
    assert (await page.inner_text("#progress")).startswith("0 of 4 joined · round-robin · 2 games per pairing")
    bot = ScriptedBot(url(server), "alice", name="alice")
    joined = asyncio.ensure_future(bot.run())
    try:
        await page.wait_for_function("() => document.getElementById('progress').textContent.startsWith('1 of 4')",
                                     timeout=5000)
        assert await page.locator("#seats li").all_inner_texts() == ["alice", "waiting…", "waiting…", "waiting…"]
        await tv.wait_for_function("() => document.getElementById('tv-title').textContent.includes('1 of 4')",
                                   timeout=5000)
        await page.wait_for_function("() => 'listed' in document.body.dataset", timeout=5000)   # replays answered
        shown = await page.inner_text("main")
        assert earlier.folder.name not in shown and "old0" not in shown
        assert await page.locator("#recent li a").count() == 0
    finally:
        joined.cancel()
        await bounded(asyncio.gather(joined, return_exceptions=True), 30)
    await bounded(server.close())


async def test_the_pages_show_every_row_of_a_big_final_table(browser, make_server, tmp_path):
    # 14 players: a player's tournament_over holds the top 10 and its own row; the pages, spectators, get all 14.
    server = await make_server(players=14, format="knockout", time_limit_ms=5000)
    page, tv = await browser.new_page(), await browser.new_page()
    await page.goto(http(server))
    await tv.goto(http(server, "/tv"))
    await page.wait_for_function("() => document.body.dataset.stage === 'waiting'", timeout=15000)
    await play(server, [ScriptedBot(url(server), f"k{i:02}", name=f"student{i:02}") for i in range(14)], seconds=60)
    await page.wait_for_function("() => document.body.dataset.closed === 'finished'", timeout=15000)
    final = [row["player"] for row in json.loads((server.folder / "results.json").read_text())["standings"]]
    rows = await page.locator("table.standings tbody tr").all_inner_texts()
    assert len(rows) == 14 and [row.split("\t")[1] for row in rows] == final      # every row, in the table's order
    await tv.wait_for_function("() => document.body.classList.contains('final')", timeout=15000)
    assert await tv.locator(".podium-step .podium-name").count() == 3
    await tv.set_viewport_size({"width": 1920, "height": 1080})    # a projector: the last game's board fits, not cut off
    board = await tv.locator(".tv-last svg.board").bounding_box()
    assert board is not None and board["height"] >= 100 and board["y"] + board["height"] <= 1080, board
    for name, shown in (("tournament", page), ("tv", tv)):           # for people to look at (not in the repo)
        for width, height in ((1920, 1080), (390, 844)):
            await shown.set_viewport_size({"width": width, "height": height})
            await shown.screenshot(path=str(tmp_path / f"final-{name}-{width}.png"), full_page=name == "tournament")

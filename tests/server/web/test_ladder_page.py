"""The practice ladder in a browser: `/` shows its published table, games, recent games, a version's report and why it
is idle; `/tv` follows its games beside the table."""

from __future__ import annotations

import asyncio
import os

from shared.ladder.reference import OFF_SCALE
from tests.server.conftest import ScriptedBot, bounded, url
from tests.server.web.conftest import http, screenshot

LADDER = {"ladder": True, "ladder_opening_plies": 2, "ladder_refit_s": 3600.0}
#: Set to a folder to keep the screenshots of these pages (at 1920x1080 and 390x844) for a person to look at.
SHOTS = os.environ.get("QUORIDOR_LADDER_SHOTS")




async def shoot(page, name: str) -> None:
    """Keep the page's screenshots in ``SHOTS`` when it is set."""
    if SHOTS:
        await screenshot(page, name, SHOTS, full_page=True)


async def test_the_ladder_page_shows_the_table_games_reports_and_why_it_is_idle(browser, make_server):
    server = await make_server(**LADDER)
    ladder = asyncio.create_task(server.run_ladder())
    bots = [ScriptedBot(url(server), key, delay=0.05) for key in ("alice", "bob", "carol")]
    tasks = [asyncio.create_task(bot.run()) for bot in bots]
    page, tv = await browser.new_page(), await browser.new_page()
    try:
        await page.goto(http(server))
        await tv.goto(http(server, "/tv"))
        await page.wait_for_function("() => document.getElementById('title').textContent === 'Practice ladder'",
                                     timeout=5000)
        await page.locator("#live .mini").first.wait_for(timeout=10000)       # games in progress
        await tv.wait_for_function("() => document.body.dataset.game", timeout=10000)     # TV follows a game
        await page.locator("#recent li a").nth(3).wait_for(timeout=10000)      # recent games, each linked
        await server.ladder.refit()
        await page.locator("table.ladder-table tbody tr").nth(2).wait_for(timeout=5000)
        table = await page.locator("table.ladder-table").inner_text()
        assert all(name in table for name in ("alice", "bob", "carol")) and "95% interval" in table
        assert "playing" in await page.locator("#progress").inner_text()
        assert "Practice ladder" in await tv.locator("#tv-tournament").inner_text()
        assert "alice" in await tv.locator("#tv-standings").inner_text()
        await page.locator("table.ladder-table tbody tr", has_text="alice").click()       # a version's report
        await page.wait_for_function("() => document.querySelector('#crosstable .report-title')", timeout=5000)
        report = await page.locator("#crosstable").inner_text()
        assert report.startswith("alice") and " games · W/L/D " in report and "thinking time" in report
        assert OFF_SCALE in report.split("where it stands: ", 1)[1]       # no random on this ladder: centred
        assert "no standings yet" not in await page.inner_text("body")
        await shoot(page, "ladder")
        await shoot(tv, "ladder-tv")
        for task in tasks[1:]:                                                 # bob and carol leave
            task.cancel()
        await page.wait_for_function(
            "() => document.getElementById('progress').textContent.includes('only alice is connected')", timeout=15000)
        await tv.wait_for_function(
            "() => document.getElementById('tv-title').textContent.includes('only alice is connected')", timeout=5000)
        await page.wait_for_function("() => !document.querySelector('#live .mini')", timeout=10000)  # a left game
        assert await tv.evaluate("() => document.body.dataset.game") == ""
        await shoot(page, "ladder-idle")
        await shoot(tv, "ladder-tv-idle")
    finally:
        for task in (ladder, *tasks):
            task.cancel()
        await bounded(asyncio.gather(ladder, *tasks, return_exceptions=True), 30)

"""The organiser's page in a browser (issue 35): without a key it asks for one and shows nothing; a wrong key is
refused; the organiser's key shows every key's bot; a player's key its own bot only, naming no other key's bot; the
key never reaches the URL; the links go to the bot's report and to its games."""

from __future__ import annotations

import asyncio
import os

from tests.server.conftest import bounded
from tests.server.organiser_data import ANA_V, BO_OLD, NOW, ORGANISER_KEY, ROSTER, seed
from tests.server.web.conftest import http, screenshot

#: Set to a folder (outside the repository) to keep the screenshots of this page at 1920x1080 and 390x844.
SHOTS = os.environ.get("QUORIDOR_ORGANISER_SHOTS")




async def shoot(page, name: str) -> None:
    """Keep the page's screenshots in ``SHOTS`` when it is set."""
    if SHOTS:
        await screenshot(page, name, SHOTS, full_page=True)


async def _server(make_server, tmp_path):
    data = tmp_path / "replays"
    seed(data)
    server = await make_server(ladder=True, roster=ROSTER, organiser_keys=[ORGANISER_KEY], ladder_refit_s=3600.0,
                               data_dir=data)
    server.organiser.now = lambda: NOW

    async def no_residents(*args, **kwargs):      # the seeded hand-ins have no files: the ladder does not seat them
        return {}
    server.submissions.accepted_bots = no_residents
    task = asyncio.create_task(server.run_ladder())
    for _ in range(500):
        if server.ladder is not None:
            break
        await asyncio.sleep(0.01)
    return server, task


async def _type_key(page, key: str) -> None:
    await page.fill("#key", key)
    await page.click("#show")


async def test_the_organisers_page_with_and_without_a_key(browser, make_server, tmp_path):
    server, task = await _server(make_server, tmp_path)
    page = await browser.new_page()
    try:
        await page.goto(http(server, "/organiser"))
        await page.locator("header.nav a[href='/organiser']").wait_for(timeout=5000)      # linked on this server
        assert "type a key" in await page.inner_text("#status")
        assert await page.locator("#rows section").count() == 0                            # nothing without a key
        await shoot(page, "organiser-nokey")

        await _type_key(page, "k-nobody")                                                 # a wrong key: refused
        await page.wait_for_function("() => document.getElementById('status').textContent.startsWith('refused')",
                                     timeout=5000)
        assert await page.locator("#rows section").count() == 0
        assert await page.evaluate("() => sessionStorage.length") == 0                     # a refused key is dropped

        await _type_key(page, ORGANISER_KEY)
        await page.locator("#rows section.bot").nth(2).wait_for(timeout=5000)
        assert "k-" not in page.url and ORGANISER_KEY not in page.url and "?" not in page.url
        assert await page.input_value("#key") == ""                                        # not left in the field
        players = await page.locator("#rows section.bot .name").all_inner_texts()
        assert players == ["Ana", "Bo", "Cy"]
        assert await page.locator("#rows section.bot.needs").count() == 3
        cy = page.locator("section.bot[data-player='Cy']")
        assert await cy.get_attribute("data-idle") == "true" and "idle: no game for 3 days" in await cy.inner_text()
        ana = page.locator("section.bot[data-player='Ana']")
        text = await ana.inner_text()
        assert "5 games (W/L/D 3/2/0)" in text and "late 2" in text and "near-timeouts 3" in text
        assert ANA_V in text and "import_error" in text                                    # both versions, refused too
        bo = page.locator("section.bot[data-player='Bo']")
        assert "newest version bbbbbbbbbbbb refused (import_error)" in await bo.inner_text()
        await shoot(page, "organiser-all")

        report = ana.locator("a.report-link")                                              # the bot's report
        assert await report.get_attribute("href") == "/?report=Ana%403f2a9c01"
        worst = ana.locator("ol.worst a").first                                            # its worst game
        assert await worst.get_attribute("href") == "/game?game=L2-g1"
        assert "loss against Bo@" in await worst.inner_text()
        await report.click()
        await page.wait_for_function("() => document.querySelector('#crosstable .report-title')", timeout=10000)
        assert (await page.inner_text("#crosstable .report-title")).startswith("Ana@3f2a9c01")
        await page.locator("header.nav a[href='/organiser']").wait_for(timeout=5000)       # every page links it here
        await page.go_back()
        await page.locator("#rows section.bot").nth(2).wait_for(timeout=5000)             # the tab kept the key
        await page.locator("section.bot[data-player='Ana'] ol.worst a").first.click()
        await page.wait_for_function("() => document.body.innerText.includes('Bo') && "
                                     "document.body.innerText.includes('Ana') && document.querySelector('svg.board')",
                                     timeout=10000)
        await page.go_back()

        await page.locator("#forget").click()                                              # forgotten: nothing shown
        assert await page.locator("#rows section").count() == 0
        assert await page.evaluate("() => sessionStorage.length") == 0
    finally:
        task.cancel()
        await bounded(asyncio.gather(task, return_exceptions=True), 30)


async def test_a_players_key_shows_its_own_bot_only(browser, phone, make_server, tmp_path):
    server, task = await _server(make_server, tmp_path)
    try:
        for page in (await browser.new_page(), phone):
            await page.goto(http(server, "/organiser"))
            await _type_key(page, "k-bo")
            await page.locator("#rows section.bot").first.wait_for(timeout=5000)
            await page.wait_for_function("() => document.body.dataset.scope === 'own'", timeout=5000)
            assert await page.locator("#rows section.bot .name").all_inner_texts() == ["Bo"]
            html = await page.content()
            assert "Ana" not in html and ANA_V[:8] not in html and "Cy" not in html     # no other key's name or version
            assert BO_OLD in html and "an opponent" in html
        width = await phone.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 390                                                                # nothing wider than a phone
        await shoot(phone, "organiser-own-phone")
    finally:
        task.cancel()
        await bounded(asyncio.gather(task, return_exceptions=True), 30)


async def test_the_nav_links_the_organisers_page_only_when_the_server_has_one(browser, make_server):
    server = await make_server()
    page = await browser.new_page()
    await page.goto(http(server, "/submit"))
    await page.wait_for_function("() => document.getElementById('conn') !== null", timeout=5000)
    await page.goto(http(server, "/replays"))
    await page.wait_for_function("() => document.getElementById('conn').textContent !== ''", timeout=5000)
    assert await page.locator("header.nav a[href='/organiser']").count() == 0

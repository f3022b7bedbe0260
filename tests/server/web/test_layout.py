"""The pages at the two sizes they are read at: a projector (1920x1080: the standings read from the back of a room)
and a phone (390x844: nothing cut off, nothing scrolling sideways, a refused bot's reason on its own line)."""

from __future__ import annotations

import asyncio
import contextlib
import re

from server.submissions.store import StoredVersion
from tests.server.conftest import ScriptedBot, url
from tests.server.web.conftest import http

PROJECTOR = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}
NAMES = ["alice-the-very-long-named-bot", "randombot", "defender", "dave-the-defender"]
#: Read from 10 m: about 28 px or more (issue 29).
ACROSS_A_ROOM_PX = 28
REASON = ("mybot.py line 3: cannot import name 'Stepp' from 'shared.quoridor' (did you mean: 'Step'?); "
          "check the spelling of what the bot imports")



async def font_px(page, selector: str) -> float:
    """The computed font size of the first element matching ``selector``, in px."""
    return await page.evaluate(f"() => parseFloat(getComputedStyle(document.querySelector({selector!r})).fontSize)")


async def overflowing(page, selector: str = ".panel, main, table, .versions tbody tr") -> list[str]:
    """The page, and every element matching ``selector``, whose content is wider than its box."""
    return await page.evaluate("""selector => {
        const wide = e => e.scrollWidth > e.clientWidth + 1;
        const out = wide(document.documentElement) ? ['the page ' + document.documentElement.scrollWidth] : [];
        for (const e of document.querySelectorAll(selector)) {
          if (wide(e)) out.push(`${e.tagName.toLowerCase()}.${e.className} ${e.scrollWidth} > ${e.clientWidth}`);
        }
        return out;
    }""", selector)


async def lines_of(page, selector: str) -> list[int]:
    """The lines of text in each element matching ``selector``, as laid out (boxes that overlap vertically share one)."""
    return await page.evaluate("""selector => [...document.querySelectorAll(selector)].map(cell => {
        const range = document.createRange(); range.selectNodeContents(cell);
        let lines = 0, bottom = -Infinity;
        for (const r of [...range.getClientRects()].sort((a, b) => a.top - b.top)) {
          if (r.height && r.top >= bottom - 1) { lines += 1; bottom = r.bottom; }
          else bottom = Math.max(bottom, r.bottom);
        }
        return lines; })""", selector)


@contextlib.asynccontextmanager
async def tournament(make_server):
    """A running 4-player round-robin whose bots think a little, so its pages have standings and live boards."""
    server = await make_server(players=4, games_per_pairing=4)
    for index, name in enumerate(NAMES):
        asyncio.ensure_future(ScriptedBot(url(server), f"k{index}", name=name, delay=0.05).run())
    run = asyncio.ensure_future(server.run_tournament())
    try:
        yield server
    finally:
        run.cancel()
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(run, 10)


async def test_a_projector_shows_the_standings_across_a_room_and_a_phone_shows_every_column(browser, make_server):
    async with tournament(make_server) as server:
        page = await browser.new_page()
        await page.set_viewport_size(PROJECTOR)
        await page.goto(http(server))
        await page.wait_for_function("() => document.querySelectorAll('table.standings tbody tr').length === 4",
                                     timeout=20_000)
        await page.locator(".mini").first.wait_for(timeout=10_000)
        assert await font_px(page, "table.standings td.name") >= ACROSS_A_ROOM_PX
        assert await font_px(page, "table.standings th") >= 0.8 * ACROSS_A_ROOM_PX
        assert (await page.locator(".mini").first.bounding_box())["width"] >= 240      # the boards grow too
        assert await overflowing(page) == []

        await page.set_viewport_size(PHONE)
        assert await overflowing(page) == []
        head = await page.locator("table.standings th:visible").last.bounding_box()
        assert head["x"] + head["width"] <= PHONE["width"], "the standings' last column is on screen"
        heads = await page.locator("table.standings th:visible").all_inner_texts()
        assert [h.replace("\n", " ") for h in heads] == ["#", "player", "points", "games", "Elo (95%)", "viol."]
        names = await page.locator("table.standings td.name").all_inner_texts()
        assert sorted(n.replace("\n", "") for n in names) == sorted(NAMES), "every name whole, wrapped if long"
        lines = await lines_of(page, "table.standings tbody td:nth-child(8)")
        assert lines and set(lines) == {1}, f"an Elo and its interval stay on one line: lines per cell {lines}"
        names = await page.locator("table.standings td.name").all_inner_texts()
        lines = await lines_of(page, "table.standings td.name")
        broken = [name for name, count in zip(names, lines) if "-" not in name and count > 1]
        assert broken == [], f"a name without a hyphen is never broken mid-word: {broken}"
        elo = await page.locator("table.standings tbody td:nth-child(8)").all_inner_texts()
        assert any(re.fullmatch(r"-?\d+\s\(-?\d+\s…\s-?\d+\)", cell) for cell in elo), \
            f"a rating shows its interval's two ends, not a ± that would hide its long side: {elo}"

        tv = await browser.new_page()
        await tv.set_viewport_size(PROJECTOR)
        await tv.goto(http(server, "/tv"))
        await tv.locator(".tv-title small").first.wait_for(timeout=10_000)
        await tv.locator("#tv-standings td.name").first.wait_for(timeout=10_000)
        name = await font_px(tv, ".tv-player")
        assert name >= ACROSS_A_ROOM_PX and await font_px(tv, ".tv-title small") == name
        assert await font_px(tv, "#tv-standings td.name") >= ACROSS_A_ROOM_PX
        assert await overflowing(tv, ".tv-side, .tv-board") == []
        await tv.set_viewport_size(PHONE)
        assert await overflowing(tv, ".tv-side, .tv-board") == []


async def test_a_refused_bots_reason_reads_on_a_phone(browser, make_server):
    server = await make_server(players=0)
    store = server.submissions.store
    for digest, stamp, accepted in (("a" * 64, "2026-11-20T09:00:00Z", True), ("b" * 64, "2026-11-27T10:15:42Z", False)):
        await store.record(StoredVersion(key="k-ana", digest=digest, entry="mybot.py:MyVeryOwnPlayerClass",
                                   submitted_at=stamp, accepted=accepted, cause="" if accepted else "import_error",
                                   reason="" if accepted else REASON, seconds=2.4, files=1, bytes=900))
    page = await browser.new_page()
    await page.set_viewport_size(PHONE)
    await page.goto(http(server, "/submit"))
    await page.locator("#key").fill("k-ana")
    await page.locator("#list").click()
    await page.wait_for_function("() => document.getElementById('versions').dataset.count === '2'", timeout=10_000)
    assert await overflowing(page) == []
    reason = page.locator("#versions tr.refused .result")
    assert REASON in await reason.inner_text()
    box = await reason.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], "the whole reason is on screen"
    version = await page.locator("#versions tr.refused .version").bounding_box()
    assert box["y"] >= version["y"] + version["height"], "the reason is on a line of its own"
    entry = await page.locator("#versions tr.refused .entry").bounding_box()
    assert entry["x"] + entry["width"] <= PHONE["width"]


async def test_the_html_export_has_margins_no_sideways_scroll_on_a_phone_and_one_palette(browser, tmp_path):
    from client.replay import frames_from_log
    from client.replay.export import HtmlView
    from client.replay.webpage import site_palette
    from tests.client.replay.helpers import small_log

    path = tmp_path / "game.html"
    HtmlView(path).show_game(frames_from_log(small_log()))
    page = await browser.new_page()
    await page.set_viewport_size(PHONE)
    await page.goto(path.as_uri())
    await page.locator(".board-wrap svg").wait_for(timeout=5000)
    assert await overflowing(page, "body, figure, #player") == []
    title = await page.locator("h1").bounding_box()
    assert title["x"] >= 10, "a margin"
    figure = await page.locator("figure svg").bounding_box()
    assert figure["x"] >= 10 and figure["x"] + figure["width"] <= PHONE["width"] - 10
    palette = site_palette()
    player = await page.evaluate("() => [0, 1].map(s => getComputedStyle("
                                 "document.querySelector(`.board-wrap circle.pawn.p${s}`)).fill)")
    picture = await page.evaluate("() => [...document.querySelectorAll('figure svg circle')].filter("
                                  "c => c.getAttribute('r') !== '9').map(c => getComputedStyle(c).fill)")

    def rgb(colour: str) -> str:
        return "rgb({}, {}, {})".format(*(int(colour[i:i + 2], 16) for i in (1, 3, 5)))

    assert player == picture == [rgb(palette["p0"]), rgb(palette["p1"])], "the player's and the picture's pawns"

"""A final's pages in Chromium: the lobby says when hand-ins freeze; the table shows its ties (2=) and intervals."""

from __future__ import annotations

from tests.server.conftest import bounded
from tests.server.support import export, play
from tests.server.test_server_final import waster_bot

from tests.server.web.conftest import http


async def test_a_finals_table_shows_neighbours_not_separated_as_a_shared_rank(browser, make_server):
    # bot6a and bot6b are the same bot: they split their games, and the final cannot tell them apart.
    server = await make_server(players=4, format="final", final_games=60, concurrency=1)
    page, tv = await browser.new_page(), await browser.new_page()
    await page.goto(http(server))
    await tv.goto(http(server, "/tv"))
    await page.wait_for_function("() => document.body.dataset.stage === 'waiting'", timeout=5000)
    assert "final (rounds until the rating order settles) · 2 games per pairing" in await page.inner_text("#progress")
    bots = [waster_bot(server, key, waste) for key, waste in (("bot0", 0), ("bot6a", 6), ("bot6b", 6), ("bot18", 18))]
    await play(server, bots, seconds=120)
    rows = export(server)["standings"]
    assert [r["rank"] for r in rows] == [1, 2, 2, 4] and [r["separated"] for r in rows] == [True, False, True, None]
    await page.wait_for_function("() => document.body.dataset.closed === 'finished'", timeout=5000)
    shown = await page.locator("table.standings tbody tr").all_inner_texts()
    assert [row.split("\t")[0] for row in shown] == ["1", "2=", "2=", "4"]
    assert [row.split("\t")[1] for row in shown] == [r["player"] for r in rows]
    assert all("…" in row.split("\t")[7] for row in shown)              # each rating with its interval
    assert await page.get_attribute("table.standings td.tied >> nth=0", "title") == (
        "as many bots shown better at 95% as another of rank 2; not separated from the next")
    assert "= after a rank (2=): a shared rank; a final's rank is 1 + the bots shown better at 95%" in (
        await page.inner_text(".tie-note"))
    await tv.wait_for_function("() => document.body.classList.contains('final')", timeout=5000)
    ranks = await tv.locator("#tv-standings tbody tr td:first-child").all_inner_texts()
    assert ranks == ["1", "2=", "2=", "4"]
    blocks = await tv.locator(".podium-step .podium-block").all_inner_texts()
    assert sorted(blocks) == ["1", "2=", "2="]                                  # the podium says the tie too
    assert "Elo" in await tv.inner_text(".podium")


async def test_the_lobby_of_a_final_says_when_hand_ins_freeze(browser, make_server):
    server = await make_server(players=4, format="final", freeze_at="2099-01-02T03:04:05+02:00")
    page = await browser.new_page()
    await page.goto(http(server))
    await page.wait_for_function("() => document.body.dataset.stage === 'waiting'", timeout=5000)
    assert (await page.inner_text("#progress")).endswith("hand-ins freeze at 2099-01-02 01:04:05 UTC")
    await bounded(server.close())

"""A pairing where neither hosted bot starts is a double forfeit: no winner, and no point for either bot."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from client.replay.frames import result_text as replay_text
from server.sandbox import BotEntry, LocalGameHost
from server.tournament.export import result_text as export_score
from server.web.records import result_text as page_text
from shared.gamelog import parse_log
from shared.tournament import GameResult, Standings, score_text
from tests.server.conftest import bounded
from tests.server.sandbox.conftest import FAST, BotFactory, hand_in, walker
from tests.server.sandbox.test_host import pairing
from tests.server.web.conftest import browser  # noqa: F401  (the fixture)

pytestmark = pytest.mark.usefixtures("sandbox")


async def test_a_pairing_where_neither_bot_starts_has_no_winner(tmp_path: Path, bot_folder: BotFactory):
    gone = [BotEntry(name, "gone.py", bot_folder(walker(), name=name)) for name in ("ana", "bo")]
    result = await bounded(LocalGameHost(FAST).play(pairing(tmp_path, *gone, "n")), 60)
    assert [report.end.cause for report in result.reports] == ["import_error", "import_error"]
    for game in result.games:
        assert (game.outcome.winner, game.outcome.reason, game.steps) == (None, "forfeit", 0)
        log = parse_log(game.log_path.read_text(encoding="utf-8"))
        assert log.problems == [] and log.outcome is not None and log.outcome.reason == "forfeit"


async def test_one_bot_that_does_not_start_still_loses_to_the_one_that_does(tmp_path: Path, bot_folder: BotFactory):
    gone = BotEntry("ana", "gone.py", bot_folder(walker(), name="ana"))
    result = await bounded(LocalGameHost(FAST).play(pairing(tmp_path, gone, BotEntry("random", "random"), "o")), 60)
    assert [(game.outcome.winner, game.outcome.reason) for game in result.games] == [(1, "disconnect"),
                                                                                    (0, "disconnect")]


def test_a_double_forfeit_scores_for_neither_and_is_left_out_of_the_ratings():
    standings = Standings(["ana", "bo", "cy"])
    for game in (GameResult("ana", "bo", None, "forfeit"), GameResult("bo", "ana", None, "forfeit"),
                 GameResult("cy", "ana", 0, "goal"), GameResult("bo", "cy", None, "step_cap")):
        standings.add(game)
    rows = {row.player: row for row in standings.rows()}
    assert {name: (row.points, row.wins, row.losses, row.draws) for name, row in rows.items()} == {
        "ana": (0.0, 0, 3, 0), "bo": (0.5, 0, 2, 1), "cy": (1.5, 1, 0, 1)}
    assert [score_text(g.winner, g.reason) for g in standings.results] == ["0-0", "0-0", "1-0", "½-½"]
    only_played = Standings(["ana", "bo", "cy"])
    for game in standings.results[2:]:
        only_played.add(game)
    assert standings.ratings() == only_played.ratings()       # a game never played says nothing of strength
    said = {replay_text(("ana", "bo"), None, "forfeit"), page_text(("ana", "bo"), None, "forfeit")}
    assert said == {"double forfeit"} and export_score(None, True, "forfeit") == "0-0"
    assert export_score(None, True, "step_cap") == "1/2-1/2" and page_text(("ana", "bo"), None, "step_cap") == \
        "draw (step cap)"


async def test_a_tournament_pairing_where_neither_handed_in_bot_starts_scores_for_neither(make_server, sandbox):
    server = await make_server(players=3, players_from_submissions=True,
                               roster={k: k.title() for k in ("ana", "bo", "cy")}, time_limit_ms=1000, step_cap=40)
    for key in ("ana", "bo", "cy"):
        hand_in(server, key, walker())
    task = asyncio.ensure_future(server.run_tournament())
    async with asyncio.timeout(60):
        while len(server.hosted) < 3:
            await asyncio.sleep(0.02)
    for seat in server.hosted:
        if seat.name in ("Ana", "Bo"):            # their files are gone: neither starts for their pairing
            seat.entry = BotEntry(seat.name, "gone.py", seat.entry.folder, seat.entry.version)
    standings = await asyncio.wait_for(task, 120)
    rows = await server.results.games(server.tournament_id, "finished")
    both = [row for row in rows if {row.white, row.black} == {"Ana", "Bo"}]
    assert len(rows) == 3 and [(row.winner, row.reason) for row in both] == [(None, "forfeit")]
    points = {row.player: row.points for row in standings.rows()}
    assert points == {"Cy": 2.0, "Ana": 0.0, "Bo": 0.0}


async def test_the_tournament_page_shows_a_double_forfeit_as_0_0(browser, make_server, tmp_path: Path):
    server = await make_server(players=3, players_from_submissions=True,
                               roster={k: k.title() for k in ("ana", "bo", "cy")}, time_limit_ms=1000, step_cap=40)
    for key in ("ana", "bo", "cy"):
        hand_in(server, key, walker())
    page = await browser.new_page()
    await page.goto(f"http://127.0.0.1:{server.port}/")
    task = asyncio.ensure_future(server.run_tournament())
    async with asyncio.timeout(60):
        while len(server.hosted) < 3:
            await asyncio.sleep(0.02)
    for seat in server.hosted:
        if seat.name in ("Ana", "Bo"):
            seat.entry = BotEntry(seat.name, "gone.py", seat.entry.folder, seat.entry.version)
    await asyncio.wait_for(task, 120)
    await page.wait_for_function("() => document.getElementById('progress').textContent.includes('over')",
                                 timeout=10000)
    recent = await page.locator("#recent").inner_text()
    assert "Ana 0-0 Bo" in recent or "Bo 0-0 Ana" in recent, recent
    cells = await page.evaluate("""() => [...document.querySelectorAll('table.crosstable tbody tr')].map(
        tr => [tr.querySelector('th').textContent, ...[...tr.querySelectorAll('td')].map(td => td.textContent)])""")
    names = [row[0].split(". ")[1] for row in cells]       # the columns are the rows' players, in the same order
    table = {name: dict(zip(names, row[1:])) for name, row in zip(names, cells)}     # tied Ana and Bo: either order
    assert table == {"Cy": {"Cy": "", "Ana": "1", "Bo": "1"}, "Ana": {"Cy": "0", "Ana": "", "Bo": "0"},
                     "Bo": {"Cy": "0", "Ana": "0", "Bo": ""}}, cells
    for width, height in ((1920, 1080), (390, 844)):
        await page.set_viewport_size({"width": width, "height": height})
        await page.screenshot(path=str(tmp_path / f"double-forfeit-{width}.png"), full_page=True)

"""A game's analysis on its page, end to end: a real server analyses the log the page asks for and the page shows it."""

from __future__ import annotations

import json
import math

from server.analysis.store import analysis_path

from .test_analysis_page import SCRIPT, SHOTS, write_game
from .conftest import http


async def test_the_page_waits_for_the_servers_analysis_then_draws_it(browser, make_server):
    server = await make_server(players=0, analysis="local", analysis_nodes=2000)
    log = write_game(server.settings.data_dir / "t")
    page = await browser.new_page()
    answers: list[int] = []
    page.on("response", lambda response: answers.append(response.status) if "/analysis/" in response.url else None)
    await page.goto(http(server, "/game?game=t/g1.csv"))
    await page.locator(".analysis svg.eval-graph").wait_for(timeout=30_000)     # analysed at the page's asking
    assert answers[0] == 202 and answers[-1] == 200
    stored = json.loads(analysis_path(log).read_text(encoding="utf-8"))
    assert stored["nodes"] == 2000 and len(stored["plies"]) == len(SCRIPT)
    assert await page.locator("svg.eval-graph circle.point").count() == len(SCRIPT)
    labelled = {p["ply"]: p["label"] for p in stored["plies"] if p["label"]}
    shown = await page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('.moves li.judged')]
        .map(li => [li.dataset.step, li.dataset.label]))""")
    assert shown == {str(ply): label for ply, label in labelled.items()}
    summary = await page.locator(".eval-summary").inner_text()
    for player in stored["players"]:
        assert f"{math.floor(player['accuracy'] + 0.5)}%" in summary.replace(" ", "")    # JavaScript's Math.round
    await page.locator("svg.eval-graph circle.point[data-step='4']").click()
    assert await page.get_attribute(".player", "data-step") == "4"
    best = stored["plies"][3]["best"]
    ghost = page.locator(".board-wrap svg.board g.ghost")
    assert await ghost.count() == (1 if best != SCRIPT[3] else 0)
    await page.screenshot(path=str(SHOTS / "analysis-server-1920.png"))

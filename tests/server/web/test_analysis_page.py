"""A game's analysis on its page, in a real browser: the graph, click-to-step, labels, the best step's ghost, waiting.

The server's answer to ``GET /analysis/GAME.json`` is played by a route of the page here (200, 202 then 200, 404,
an error), with a GameAnalysis in its JSON form; the page's own data comes from a real server.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from shared.analysis import GameAnalysis
from shared.gamelog import GameHeader, GameLog, GameOutcome, StepRecord, format_log
from shared.quoridor import GameStatus, Position, parse_step

from .conftest import http

SHOTS = Path("/tmp")
#: alice walks up the e file; bob steps aside to d9, then walls the a and h files (no path is lengthened).
SCRIPT = ["e2", "d9", "e3", "a2h", "e4", "a4h", "e5", "a6h", "e6", "h2h", "e7", "h4h", "e8", "h6h", "e9"]
#: ply -> (label, best, reason) of the analysis served: bob's walls get worse and worse.
JUDGED = {4: ("inaccuracy", "d8", "this wall lengthened neither path"),
          6: ("mistake", "e5h", "this wall lengthened neither path"),
          10: ("blunder", "e7h", "the race was lost in 5; this wall lengthened neither path")}


def write_game(folder: Path, players: tuple[str, str] = ("alice", "bob")) -> Path:
    """The game of SCRIPT as our CSV log in ``folder`` (alice, the first of ``players``, wins at the goal)."""
    pos, rows = Position.initial(), []
    for ply, name in enumerate(SCRIPT):
        pos = pos.play(parse_step(name))
        status = GameStatus.WIN if pos.is_over() else GameStatus.OK
        rows.append(StepRecord(players[ply % 2], parse_step(name), status, 10 + ply, ply))
    assert pos.is_over() and pos.winner() == 0
    thinking = tuple(sum(row.thinking_ms for row in rows[seat::2]) for seat in (0, 1))
    outcome = GameOutcome(0, "goal", thinking, (0, 0))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "g1.csv"
    path.write_text(format_log(GameLog(GameHeader(players, game="g1", tournament="t"), rows, outcome)),
                    encoding="utf-8")
    return path


def analysis_json() -> dict[str, Any]:
    """A GameAnalysis.to_json() of write_game's game, made by hand (status: ready): bob's walls judged ever worse."""
    plies, chance = [], 0.1                     # alice's chance, rising as bob wastes his walls
    for k, name in enumerate(SCRIPT):
        ply, seat = k + 1, k % 2
        label, best, reason = JUDGED.get(ply, (None, name, None))
        drop = {"inaccuracy": 0.12, "mistake": 0.24, "blunder": 0.45}.get(label or "", 0.0)
        before = chance if seat == 0 else -chance
        chance = min(1.0, chance + drop + 0.02)
        after = chance if seat == 0 else -chance
        plies.append({"ply": ply, "seat": seat, "played": name, "best": best if ply < len(SCRIPT) else None,
                      "chance_before": before, "chance_after": after, "drop": drop, "label": label,
                      "paths_before": [8 - k // 2, 8], "paths_after": [8 - (k + 1) // 2, 8],
                      "walls_left": [10, 10 - (k + 1) // 2 + 1], "reason": reason})
    counts = {"inaccuracy": 1, "mistake": 1, "blunder": 1, "violation": 0}
    data = {"engine": "qa-1", "nodes": 20000, "plies": plies,
            "players": [{"seat": 0, "name": "alice", "accuracy": 98.4, "counts": dict.fromkeys(counts, 0),
                         "worst": [13, 11, 15]},
                        {"seat": 1, "name": "bob", "accuracy": 61.2, "counts": counts, "worst": [10, 6, 4]}]}
    return GameAnalysis.from_json(data).to_json() | {"status": "ready"}     # the one JSON form, as the server's


class Analyses:
    """The route that answers the page's GET /analysis/...: each answer in turn (the last one repeated)."""

    def __init__(self, *answers: tuple[int, dict[str, Any] | None]) -> None:
        self.answers = list(answers)
        self.asked: list[str] = []

    async def __call__(self, route) -> None:
        self.asked.append(route.request.url)
        status, body = self.answers[min(len(self.asked), len(self.answers)) - 1]
        await route.fulfill(status=status, content_type="application/json",
                            body=json.dumps(body) if body is not None else "404 not found\n")


async def open_game(browser, make_server, tmp_path, analyses: Analyses, *, clock: bool = False):
    """The game page of write_game's log on a real server, its analysis answered by ``analyses``."""
    server = await make_server(players=0)
    write_game(server.settings.data_dir / "t")
    page = await browser.new_page()
    if clock:
        await page.clock.install()
    await page.route("**/analysis/**", analyses)
    await page.goto(http(server, "/game?game=t/g1.csv"))
    await page.locator(".board-wrap svg.board").wait_for(timeout=15_000)
    return page


async def answered(page, asked: int) -> None:
    """Wait until the page has had its ``asked``-th answer about the analysis."""
    await page.wait_for_function(f"() => document.querySelector('.analysis')?.dataset.asked === '{asked}'",
                                 timeout=15_000)


async def board_state(page) -> str:
    """The board's cells and walls, as a test reads them (the ghost carries neither)."""
    return await page.evaluate("""() => [...document.querySelectorAll('.board-wrap svg.board [data-cell], '
        + '.board-wrap svg.board [data-wall]')].map(e => (e.dataset.cell || e.dataset.wall) + ':'
        + (e.dataset.pawn ?? '')).join(' ')""")


async def test_the_graph_goes_to_a_step_labels_it_and_draws_the_best_step(browser, make_server, tmp_path):
    analyses = Analyses((200, analysis_json()))
    page = await open_game(browser, make_server, tmp_path, analyses)
    await page.locator(".analysis svg.eval-graph").wait_for(timeout=15_000)
    assert analyses.asked[0].endswith("/analysis/t/g1.csv.json")
    assert await page.locator("svg.eval-graph circle.point").count() == len(SCRIPT)
    assert await page.locator("svg.eval-graph circle.point.blunder").count() == 1
    summary = await page.locator(".eval-summary").inner_text()
    assert "98%" in summary.replace(" ", "") and "61%" in summary.replace(" ", "")
    # the labels in the step list, Lichess's symbols
    for ply, (label, _, reason) in JUDGED.items():
        li = page.locator(f".moves li[data-step='{ply}']")
        symbol = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}[label]
        assert await li.locator(".judgement").inner_text() == symbol
        assert reason in await li.inner_text()
    assert await page.locator(".moves li[data-step='3'] .judgement").count() == 0
    # a click on the blunder's point goes to its step: the board, the list, the graph's cursor follow
    await page.locator("svg.eval-graph circle.point[data-step='10']").click()
    assert await page.get_attribute(".player", "data-step") == "10"
    assert await page.locator(".moves li.current").get_attribute("data-step") == "10"
    assert await page.locator("svg.eval-graph circle.point.current").get_attribute("data-step") == "10"
    cursor = float(await page.locator("svg.eval-graph .cursor").get_attribute("x1"))
    point = float(await page.locator("svg.eval-graph circle.point[data-step='10']").get_attribute("cx"))
    assert abs(cursor - point) < 0.5
    # the engine's best step, a ghost wall with its name beside the played wall
    ghost = page.locator(".board-wrap svg.board g.ghost")
    assert await ghost.get_attribute("data-ghost") == "e7h"
    assert await ghost.locator(".ghost-wall").count() == 1 and await ghost.text_content() == "e7h"
    assert "Best: e7h" in await page.locator(".analysis .verdict").inner_text()
    await page.screenshot(path=str(SHOTS / "analysis-game-1920.png"))
    await page.set_viewport_size({"width": 390, "height": 844})
    await page.locator(".analysis").scroll_into_view_if_needed()
    await page.screenshot(path=str(SHOTS / "analysis-game-390.png"), full_page=True)
    await page.set_viewport_size({"width": 1920, "height": 1080})
    # a pawn's best step is a ghost pawn; a column of the graph goes to its step; a step played as the engine's has
    # no ghost
    await page.locator(".moves li[data-step='4']").click()
    assert await ghost.get_attribute("data-ghost") == "d8" and await ghost.locator(".ghost-pawn").count() == 1
    await page.locator("svg.eval-graph rect.hit[data-step='3']").click(position={"x": 1, "y": 3})
    assert await page.get_attribute(".player", "data-step") == "3"
    assert await ghost.count() == 0
    await page.keyboard.press("End")
    assert await page.locator("svg.eval-graph circle.point.current").get_attribute("data-step") == str(len(SCRIPT))


async def test_a_pending_analysis_says_so_then_fills_in(browser, make_server, tmp_path):
    analyses = Analyses((202, {"status": "pending", "position": 3}), (202, {"status": "pending", "position": 1}),
                        (200, analysis_json()))
    page = await open_game(browser, make_server, tmp_path, analyses, clock=True)
    note = page.locator(".analysis .eval-note")
    await note.wait_for(timeout=15_000)
    assert await note.inner_text() == "analysing… (3 ahead)"
    await page.clock.run_for(2000)
    await answered(page, 2)
    assert await note.inner_text() == "analysing… (1 ahead)"
    await page.clock.run_for(2000)
    await page.locator(".analysis svg.eval-graph").wait_for(timeout=15_000)
    assert await page.locator(".moves li[data-step='10'] .judgement").inner_text() == "??"
    assert len(analyses.asked) == 3


async def test_polling_stops_after_three_minutes(browser, make_server, tmp_path):
    analyses = Analyses((202, {"status": "pending", "position": 40}))
    page = await open_game(browser, make_server, tmp_path, analyses, clock=True)
    await page.locator(".analysis .eval-note").wait_for(timeout=15_000)
    for asked in range(2, 91):                 # 2 s of the page's time at a time, each ask answered before the next
        await page.clock.run_for(2000)
        await answered(page, asked)
    assert await page.evaluate("() => document.querySelector('.analysis').dataset.state") == "stopped"
    await page.clock.run_for(60_000)
    assert len(analyses.asked) == 90
    assert "reload the page later" in await page.locator(".analysis").inner_text()


async def test_no_analysis_leaves_the_page_as_before(browser, make_server, tmp_path):
    for status in (404, 500):
        analyses = Analyses((status, None))
        page = await open_game(browser, make_server, tmp_path, analyses)
        await page.wait_for_function("() => document.querySelector('.analysis')?.dataset.state === 'none'",
                                     timeout=15_000)
        assert len(analyses.asked) == 1
        assert not await page.locator(".analysis").is_visible()
        assert await page.locator("svg.eval-graph, .judgement, g.ghost").count() == 0
        before = await board_state(page)
        await page.keyboard.press("End")
        await page.keyboard.press("ArrowLeft")
        assert await page.get_attribute(".player", "data-step") == str(len(SCRIPT) - 1)
        assert await board_state(page) != before
        await page.close()


async def test_the_html_export_carries_the_graph(browser, tmp_path):
    from client.replay.export import HtmlView
    from client.replay.sources import load_game
    game = load_game(write_game(tmp_path))
    target = tmp_path / "g1.html"
    HtmlView(target, analysis_json()).show_game(game)
    page = await browser.new_page()
    await page.goto(target.as_uri())
    await page.locator(".analysis svg.eval-graph").wait_for(timeout=15_000)
    assert await page.locator("svg.eval-graph circle.point").count() == len(SCRIPT)
    await page.locator("svg.eval-graph circle.point[data-step='6']").click()
    assert await page.get_attribute(".player", "data-step") == "6"
    assert await page.locator(".board-wrap svg.board g.ghost").get_attribute("data-ghost") == "e5h"
    assert await page.locator(".moves li[data-step='6'] .judgement").inner_text() == "?"
    row = page.locator("table.steps tbody tr").nth(5)            # the table of steps marks it too
    assert "a4h ?" in await row.inner_text() and "mistake: this wall lengthened neither path; best: e5h" in \
        await row.inner_text()
    await page.screenshot(path=str(SHOTS / "analysis-export-1920.png"))
    await page.set_viewport_size({"width": 390, "height": 844})
    await page.locator(".analysis").scroll_into_view_if_needed()
    await page.screenshot(path=str(SHOTS / "analysis-export-390.png"))
    assert await page.evaluate("() => document.documentElement.scrollWidth") <= 390    # nothing runs off a phone
    without = tmp_path / "plain.html"                       # no analysis: the page as before
    HtmlView(without).show_game(game)
    assert "AnalysisView" not in without.read_text() and "judgement" not in without.read_text().split("</style>")[1]


async def test_a_live_games_analysis_is_asked_for_when_it_ends(browser, make_server):
    from .test_pages import play
    server = await make_server(players=2, games_per_pairing=1)
    await play(server, 2, 0.25)       # a game of about 4 s: the page joins it live
    page = await browser.new_page()
    live_when_asked: list[bool] = []

    async def answer(route) -> None:
        live_when_asked.append(await page.evaluate("() => window.quoridorPlayer.record.live"))
        await route.fulfill(status=200, content_type="application/json", body=json.dumps(analysis_json()))

    await page.route("**/analysis/**", answer)
    run = asyncio.ensure_future(server.run_tournament())
    try:
        await page.goto(http(server, "/"))
        game = await page.locator(".mini").first.get_attribute("data-game", timeout=10_000)
        await page.goto(http(server, f"/game?game={game}"))
        await page.locator(".player .live").wait_for(timeout=15_000)           # joined while the game is played
        await page.locator(".analysis svg.eval-graph").wait_for(timeout=30_000)
        assert live_when_asked == [False]
    finally:
        await asyncio.wait_for(run, 60)


async def test_a_phone_taps_the_graph(phone, make_server, tmp_path):
    server = await make_server(players=0)
    write_game(server.settings.data_dir / "t", ("193304DEFENSIVE", "193304BASELINE"))       # the course's long names
    await phone.route("**/analysis/**", Analyses((200, analysis_json())))
    await phone.goto(http(server, "/game?game=t/g1.csv"))
    point = phone.locator("svg.eval-graph circle.point[data-step='10']")
    await point.wait_for(timeout=15_000)
    await point.tap()
    assert await phone.get_attribute(".player", "data-step") == "10"
    assert await phone.locator(".board-wrap svg.board g.ghost").get_attribute("data-ghost") == "e7h"
    for part in (".eval-summary", "svg.eval-graph", ".analysis .verdict"):              # nothing runs off it
        box = await phone.locator(part).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, part
    assert await phone.evaluate("() => { const t = document.querySelector('.eval-summary'); "
                                "return t.scrollWidth <= t.clientWidth; }"), "the summary fits without scrolling"
    await phone.screenshot(path=str(SHOTS / "analysis-phone-390.png"), full_page=True)


def test_an_html_position_says_what_the_analysis_says_of_its_step(tmp_path):
    from client.replay.export import game_html
    from client.replay.sources import load_game
    game = load_game(write_game(tmp_path))
    page = game_html(game, 10, analysis=analysis_json())
    assert ('<p class="verdict">step 10: blunder ??; the race was lost in 5; this wall lengthened neither path; '
            "the engine&#x27;s best step: e7h; alice&#x27;s winning chance after it: 100%</p>") in page
    assert "step 3: alice&#x27;s winning chance after it: 58%" in game_html(game, 3, analysis=analysis_json())
    assert 'class="verdict"' not in game_html(game, 0, analysis=analysis_json()) + game_html(game, 10)


def test_quoridor_replay_html_carries_the_analysis_kept_beside_the_log(tmp_path, capsys):
    from client.replay.analysed import write_stored
    from client.replay.cli import main
    from shared.analysis import analysis_key
    log = write_game(tmp_path)
    target = tmp_path / "g1.html"
    assert main([str(log), "--html", str(target)]) == 0                 # none kept: the page as before
    assert "AnalysisView" not in target.read_text(encoding="utf-8")
    kept = GameAnalysis.from_json(analysis_json())
    write_stored(log, kept, analysis_key(log.read_bytes()))             # as the server and quoridor-analyse keep it
    assert main([str(log), "--html", str(target)]) == 0
    page = target.read_text(encoding="utf-8")
    assert "new AnalysisView(player).show(" in page and '"e7h"' in page and 'class="judgement blunder"' in page
    assert main([str(log), "--step", "10", "--html", str(target)]) == 0
    assert "step 10: blunder ??" in target.read_text(encoding="utf-8")
    write_stored(log, kept, "another log's key")                         # stale: the log or the engine changed
    assert main([str(log), "--html", str(target)]) == 0
    assert "AnalysisView" not in target.read_text(encoding="utf-8")
    capsys.readouterr()

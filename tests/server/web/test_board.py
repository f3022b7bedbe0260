"""The board renderer in a real browser: a board patched from step to step is the board drawn anew."""

from __future__ import annotations

import json
import random

from client.replay.webpage import inline_modules
from server.games.updates import game_update
from shared.gamelog.records import StepRecord
from shared.protocol import dump
from shared.quoridor import GameStatus, Position
from shared.referee import StepJudged


def played_updates(seed: int, turns: int = 80) -> list[dict]:
    """The game_update frames of a random game with walls (as a spectator gets them)."""
    rng = random.Random(seed)
    pos, updates = Position.initial(), []
    for turn in range(turns):
        steps = pos.legal_steps()
        walls = [s for s in steps if not s.is_move()]
        step = rng.choice(walls if walls and rng.random() < 0.3 else [s for s in steps if s.is_move()])
        pos = pos.play(step)
        status = GameStatus.WIN if pos.is_over() else GameStatus.OK
        judged = StepJudged(turn % 2, StepRecord("p", step, status, 5, turn), pos, (turn, turn))
        updates.append(json.loads(dump(game_update("g", ("ann", "bob"), judged, pos.is_over()))))
        if pos.is_over():
            break
    return updates


async def test_a_patched_board_is_the_board_drawn_anew_at_every_step(browser):
    updates = played_updates(7)
    assert any(u["wall"] for u in updates) and any(u["move"] for u in updates)
    page = await browser.new_page()
    await page.set_content('<div id="patched"></div><div id="fresh"></div>')
    await page.add_script_tag(content=inline_modules("board.js") + "\nwindow.board = {boardSVG, patchBoard, START};")
    order = [*range(len(updates)), *random.Random(3).sample(range(len(updates)), len(updates)), 0]
    differences = await page.evaluate("""([updates, order]) => {
        const {boardSVG, patchBoard, START} = window.board;
        const patched = document.getElementById('patched'), fresh = document.getElementById('fresh');
        patched.innerHTML = boardSVG(START, {title: 'start'});
        const svg = patched.firstElementChild, out = [];
        for (const i of order) {
          const u = updates[i], title = 'g, step ' + (i + 1);
          patchBoard(svg, u.board, {last: u, title});
          fresh.innerHTML = boardSVG(u.board, {last: u, title});
          if (svg.outerHTML !== fresh.firstElementChild.outerHTML) out.push(i);
        }
        return out;
    }""", [updates, order])
    assert differences == []

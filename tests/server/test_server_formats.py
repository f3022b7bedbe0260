"""Tournament formats and game endings end to end: knockouts (byes, champion, draws), the step cap, live logs."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from shared.gamelog import LogFormatError, parse_log
from shared.quoridor import Location, Position, Step
from tests.server.conftest import ScriptedBot, bounded, url
from tests.server.support import GatedBot, Recorder, export, play


def shuffle(pos: Position, seat: int) -> Step:
    """Step sideways and back, never getting anywhere: games run into the step cap."""
    here = pos.pawn(seat)
    return Step(Location(4 if here.x == 5 else 5, here.y))



@pytest.mark.parametrize("players, rounds", [(3, 2), (4, 2)])
async def test_a_knockout_crowns_a_champion(make_server, players, rounds):
    server = await make_server(players=players, format="knockout")
    server.reporter = recorder = Recorder()
    bots = [ScriptedBot(url(server), f"bot{i}") for i in range(players)]
    await play(server, bots)
    document = export(server)
    games = document["games"]
    assert document["tournament"]["format"] == "knockout" and document["tournament"]["finished"]
    assert len(games) == players - 1 and {g["round"] for g in games} == set(range(rounds))
    assert all(g["status"] == "finished" and g["reason"] == "goal" for g in games)
    final = max(games, key=lambda g: g["round"])
    assert f"knockout champion: {final['winner']}" in recorder.messages()
    first_round = {p for g in games if g["round"] == 0 for p in (g["white"], g["black"])}
    if players == 3:                              # one player had a bye and met the winner in the final
        (bye,) = {b.key for b in bots} - first_round
        assert bye in (final["white"], final["black"])
    losers = [g["black"] if g["winner"] == g["white"] else g["white"] for g in games]
    assert sorted(losers + [final["winner"]]) == sorted(b.key for b in bots)   # each lost once, but one
    for bot in bots:
        assert bot.frames[-1]["type"] == "tournament_over"


async def test_a_knockout_of_two_with_games_at_the_step_cap_ends(make_server):
    server = await make_server(players=2, format="knockout", games_per_pairing=2, step_cap=2)
    server.reporter = recorder = Recorder()
    bots = [ScriptedBot(url(server), key, policy=shuffle) for key in ("a", "b")]
    standings = await play(server, bots)
    games = export(server)["games"]
    assert [g["reason"] for g in games] == ["step_cap", "step_cap"] and standings.games_done == 2
    champions = [m for m in recorder.messages() if m.startswith("knockout champion: ")]
    assert champions in (["knockout champion: a"], ["knockout champion: b"])


async def test_the_step_cap_ends_a_game_on_thinking_time(make_server):
    server = await make_server(players=2, step_cap=3)
    bots = [ScriptedBot(url(server), key, policy=shuffle) for key in ("a", "b")]
    await play(server, bots)
    (game,) = export(server)["games"]
    assert (game["reason"], game["steps"]) == ("step_cap", 6)
    over = bots[0].games_over[0]
    assert over["reason"] == "step_cap"
    mine, theirs = over["thinking_ms"]
    assert over["result"] == ("draw" if mine == theirs else "win" if mine < theirs else "loss")
    assert (over["status"], over["winner"]) == (2000, None) if mine == theirs else over["status"] in (1, 2)
    log = parse_log(Path(over["log"]).read_text(encoding="utf-8"))
    assert log.outcome.reason == "step_cap" and len(log.steps) == 6


async def test_a_game_in_progress_is_only_a_part_file(make_server):
    server = await make_server(players=2, time_limit_ms=60_000)
    gate = asyncio.Event()
    bots = [GatedBot(url(server), key, gate, free_steps=2) for key in ("a", "b")]   # 4 steps, then held
    tasks = [asyncio.create_task(bot.run()) for bot in bots]
    run = asyncio.create_task(server.run_tournament())

    def rows_written() -> int:
        parts = list(server.folder.glob("*.part")) if server.folder is not None else []
        try:
            return len(parse_log(parts[0].read_text(encoding="utf-8")).steps) if parts else 0
        except LogFormatError:            # created, header not written yet
            return 0
    while rows_written() < 4:
        await bounded(asyncio.sleep(0.005), 5)
    (part,) = server.folder.glob("*.part")
    assert part.name.endswith(".csv.part") and list(server.folder.glob("*.csv")) == []
    assert parse_log(part.read_text(encoding="utf-8")).outcome is None   # no result row: not a finished game
    gate.set()
    await bounded(run)
    await bounded(asyncio.gather(*tasks))
    final = Path(bots[0].games_over[0]["log"])
    assert final.name == part.name.removesuffix(".part") and final.exists() and not part.exists()
    log = parse_log(final.read_text(encoding="utf-8"))
    assert log.outcome.reason == "goal" and len(log.steps) == 15
    assert list(server.folder.glob("*.part")) == []


async def test_a_result_is_stored_before_the_players_hear_of_it(make_server):
    server = await make_server(players=2, games_per_pairing=2)
    run = asyncio.create_task(server.run_tournament())
    open_gate = asyncio.Event()
    open_gate.set()
    heard = GatedBot(url(server), "a", open_gate, on_game_over=lambda frame: run.cancel())   # the server dies
    other = GatedBot(url(server), "b", open_gate)
    tasks = [asyncio.create_task(bot.run()) for bot in (heard, other)]
    await bounded(asyncio.gather(run, return_exceptions=True), 30)
    for task in tasks:
        task.cancel()
    await bounded(asyncio.gather(*tasks, return_exceptions=True), 30)
    assert heard.games_over, "the game never ended"
    finished = await server.results.games(server.tournament_id, "finished")
    assert [g.game_id for g in finished] == [heard.games_over[0]["game"]]   # a resume will not replay it

"""The Swiss format end to end: five bots on 127.0.0.1 port 0 (a bye every round), a resume, the options."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import pytest

from server.cli import build_parser, settings_from_args
from server.settings import ServerSettings
from shared.tournament import GameResult, Swiss, swiss_tie_breaks
from tests.server.conftest import ScriptedBot, bounded, url
from tests.server.support import Recorder, export, fails, play


def game_result(game: dict[str, Any]) -> GameResult:
    """A game of results.json as the tie-breaks read it."""
    seats = [game["white"], game["black"]]
    return GameResult(*seats, None if game["winner"] is None else seats.index(game["winner"]), game["reason"])


def check_rounds(document: dict[str, Any], rounds: int, games_per_pairing: int = 1) -> list[str]:
    """The Swiss rules seen in results.json: two pairings and a bye per round of five, no pair twice,
    no bye twice, seats alternating in a pairing; returns the byes in round order."""
    players, games = document["players"], document["games"]
    assert {g["round"] for g in games} == set(range(rounds))
    assert all(g["status"] == "finished" for g in games)
    by_pairing: dict[int, list[dict[str, Any]]] = {}
    for game in games:
        by_pairing.setdefault(game["pairing"], []).append(game)
    byes = []
    for number in range(rounds):
        pairings = [group for group in by_pairing.values() if group[0]["round"] == number]
        seated = Counter(p for group in pairings for p in (group[0]["white"], group[0]["black"]))
        assert len(pairings) == 2 and len(seated) == 4 and set(seated.values()) == {1}
        (bye,) = set(players) - set(seated)
        byes.append(bye)
    for group in by_pairing.values():
        first, second = group[0]["white"], group[0]["black"]
        assert [(g["white"], g["black"]) for g in group] == [
            (first, second) if k % 2 == 0 else (second, first) for k in range(games_per_pairing)]
    pairs = Counter(frozenset((group[0]["white"], group[0]["black"])) for group in by_pairing.values())
    assert set(pairs.values()) == {1}
    assert len(set(byes)) == rounds
    return byes


def check_standings(document: dict[str, Any], byes: list[str], games_per_pairing: int = 1) -> None:
    """Final standings: points with the byes, ordered by points, Buchholz, Sonneborn-Berger, as computed."""
    rows = document["standings"]
    ties = swiss_tie_breaks(document["players"], [game_result(g) for g in document["games"]], byes,
                            games_per_pairing)
    assert sum(r["points"] for r in rows) == len(document["games"]) + games_per_pairing * len(byes)
    assert all((r["points"], r["buchholz"], r["sonneborn_berger"]) == ties[r["player"]].key for r in rows)
    keys = [(r["points"], r["buchholz"], r["sonneborn_berger"]) for r in rows]
    assert keys == sorted(keys, reverse=True) and len(rows) == 5


async def test_a_swiss_of_five_plays_its_rounds_with_a_bye_each(make_server):
    server = await make_server(players=5, format="swiss")
    server.reporter = recorder = Recorder()
    bots = [ScriptedBot(url(server), f"bot{i}") for i in range(5)]
    standings = await play(server, bots, seconds=60)
    document = export(server)
    assert document["tournament"]["format"] == "swiss" and document["tournament"]["finished"]
    assert document["tournament"]["settings"]["swiss_rounds"] is None         # the default: 4 rounds for 5
    assert len(document["games"]) == standings.games_done == 8
    byes = check_rounds(document, 4)
    check_standings(document, byes)
    assert [m for m in recorder.messages() if "bye" in m] == [
        f"round {number} of 4: {bye} has the bye (1 point, a won pairing)" for number, bye in enumerate(byes, 1)]
    started = [args for name, args in recorder.calls if name == "tournament_started"]
    assert started == [(server.folder.name, [b.key for b in bots], 8)]
    for bot in bots:
        assert bot.frames[-1]["type"] == "tournament_over"
        assert len(bot.games_over) == 4 - byes.count(bot.key)
    # The pairer, fed the stored results, pairs every round as the server did (what --resume relies on).
    replay = Swiss(document["players"], 1, document["tournament"]["seed"])
    for number in range(4):
        stored = [g for g in document["games"] if g["round"] == number]
        assert [(g.white, g.black) for g in replay.current_round()] == [(g["white"], g["black"]) for g in stored]
        for g in stored:
            replay.record(game_result(g))
        replay.advance()


async def test_a_swiss_resumes_with_its_settings_and_plays_only_what_is_missing(make_server, tmp_path):
    data = tmp_path / "resume"
    server = await make_server(players=5, format="swiss", swiss_rounds=3, games_per_pairing=2, data_dir=data,
                               tournament_name="ladder")
    # Bots of different speeds, so that the games of a round end apart and the crash comes mid-round.
    bots = [ScriptedBot(url(server), f"bot{i}", delay=0.004 * (i + 1)) for i in range(5)]
    tasks = [asyncio.create_task(bot.run()) for bot in bots]
    run = asyncio.create_task(server.run_tournament())
    while sum(len(b.games_over) for b in bots) < 2 * 5:     # five games over: round 2 is being played
        await bounded(asyncio.sleep(0.01), 60)
    run.cancel()                                            # the server dies mid-tournament
    for task in tasks:
        task.cancel()
    await bounded(asyncio.gather(run, *tasks, return_exceptions=True), 30)
    before = {g.game_id: g for g in await server.results.games(server.tournament_id, "finished")}
    await server.close()
    assert 5 <= len(before) < 12
    # Started again with neither -f nor --swiss-rounds: the tournament keeps the settings it started with.
    again = await make_server(players=5, data_dir=data, resume=True)
    assert (again.settings.format, again.settings.swiss_rounds, again.settings.games_per_pairing) == ("swiss", 3, 2)
    bots = [ScriptedBot(url(again), f"bot{i}") for i in range(5)]
    standings = await play(again, bots, seconds=60)
    assert standings.games_done == 12
    assert sum(len(b.games_over) for b in bots) == 2 * (12 - len(before))    # only the missing games were played
    document = export(again)
    for game in document["games"]:
        if game["game_id"] in before:                       # finished before the crash: kept as it was
            assert (game["white"], game["black"], game["steps"]) == (
                before[game["game_id"]].white, before[game["game_id"]].black, before[game["game_id"]].steps)
    assert sum(g["game_id"] in before for g in document["games"]) == len(before)
    byes = check_rounds(document, 3, games_per_pairing=2)
    check_standings(document, byes, games_per_pairing=2)


# -- the options --------------------------------------------------------------------------------------


@pytest.mark.parametrize("argv, words", [
    (["-f", "swiss", "-n", "5", "--swiss-rounds", "5"],
     "--swiss-rounds 5: a Swiss of 5 players has at most 4 rounds (one more would pair someone twice)"),
    (["-n", "5", "--swiss-rounds", "3"], "--swiss-rounds is the number of rounds of a Swiss; add -f swiss"),
    (["-f", "swiss", "--swiss-rounds", "0"], "--swiss-rounds: Input should be greater than or equal to 1"),
    (["-f", "chess"], "invalid choice: 'chess'"),
])
def test_bad_swiss_options_exit_2_with_one_line(capsys, argv, words):
    line = fails(capsys, argv)
    assert line.startswith("quoridor-server: error:") and words in line


def test_swiss_options():
    settings = settings_from_args(build_parser().parse_args(["-f", "swiss", "-n", "6", "--swiss-rounds", "5"]))
    assert (settings.format, settings.swiss_rounds, settings.players) == ("swiss", 5, 6)
    assert settings_from_args(build_parser().parse_args(["-f", "swiss", "-n", "6"])).swiss_rounds is None


def test_a_resumed_swiss_keeps_its_rounds_and_an_older_tournament_has_none():
    stored = ServerSettings(players=6, format="swiss", swiss_rounds=5).model_dump(mode="json")
    resumed, ignored = ServerSettings(players=2).resumed(stored, 6)
    assert (resumed.format, resumed.swiss_rounds) == ("swiss", 5)
    assert not any(note.startswith("swiss_rounds") for note in ignored)
    # A tournament stored before the Swiss existed has no swiss_rounds: the command line's is not used.
    older = {k: v for k, v in ServerSettings(players=6).model_dump(mode="json").items() if k != "swiss_rounds"}
    resumed, ignored = ServerSettings(players=6, format="swiss", swiss_rounds=3).resumed(older, 6)
    assert (resumed.format, resumed.swiss_rounds) == ("round-robin", None)
    assert any(note.startswith("swiss_rounds=3") for note in ignored)

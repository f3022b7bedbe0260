"""The final end to end: bots of known order on 127.0.0.1 port 0, seeded openings, a settled table, a resume, options."""

from __future__ import annotations

import asyncio
import io
import threading
from pathlib import Path
from typing import Any

import pytest

from server.cli import build_parser, settings_from_args
from server.settings import ServerSettings
from server.views.dashboard import PlainReporter
from shared.gamelog import parse_log
from shared.ladder import pawn_opening
from shared.quoridor import Position, Step
from shared.tournament import Final, GameResult
from tests.server.conftest import ScriptedBot, bounded, url
from tests.server.support import Recorder, export, fails, play


class Waster:
    """A runner that spends ``waste`` turns walking sideways once 6 steps from its goal (out of the other's goal row
    and start): a known handicap of one tempo a turn, so that, 6 wasted turns apart, bots wasting more lose to bots
    wasting less in either seat, from any opening of a pawn move or two each."""

    def __init__(self, waste: int) -> None:
        self.waste = waste
        self.bot: ScriptedBot | None = None
        self.wasted: dict[str, int] = {}        # by game: a bot plays its pairings of a round at once

    def __call__(self, pos: Position, seat: int) -> Step:
        assert self.bot is not None
        game = self.bot.frames[-1]["game"]          # the turn being answered
        moves = pos.legal_moves()
        here = pos.distance(seat) or 0

        def distance(cell: Any) -> int:
            return pos.apply(Step(cell)).distance(seat) or 0
        sideways = [cell for cell in moves if distance(cell) == here]
        if here <= 6 and sideways and self.wasted.get(game, 0) < self.waste:
            self.wasted[game] = self.wasted.get(game, 0) + 1
            return Step(sideways[0])
        return Step(min(moves, key=distance))


def waster_bot(server: Any, key: str, waste: int, **options: Any) -> ScriptedBot:
    policy = Waster(waste)
    bot = policy.bot = ScriptedBot(url(server), key, policy, **options)
    return bot


def game_result(game: dict[str, Any]) -> GameResult:
    seats = [game["white"], game["black"]]
    return GameResult(*seats, None if game["winner"] is None else seats.index(game["winner"]), game["reason"])


def check_final(document: dict[str, Any], games_per_pairing: int = 2, budget: int | None = None) -> Final:
    """The stored final played as ``Final`` plays it (the same rounds from the seed, stopping at the same look); its
    table ordered by rating, ranked as the look ranked it. Returns the final replayed from the stored results."""
    players, games = document["players"], document["games"]
    assert all(g["status"] == "finished" for g in games)
    replay = Final(players, games_per_pairing, document["tournament"]["seed"], budget)
    rounds = max(g["round"] for g in games) + 1
    for number in range(rounds):
        stored = [g for g in games if g["round"] == number]
        assert sorted((g.white, g.black, g.pairing) for g in replay.current_round()) == sorted(
            (g["white"], g["black"], g["pairing"]) for g in stored)
        for game in stored:
            replay.record(game_result(game))
        assert replay.advance() == (number < rounds - 1)
    rows = document["standings"]
    assert [r["player"] for r in rows] == replay.order
    assert [r["separated"] for r in rows] == replay.separated
    assert [r["rank"] for r in rows] == replay.ranks
    for above, row in zip(rows, rows[1:]):
        assert above["elo"] >= row["elo"] and above["rank"] <= row["rank"]
    return replay


def most_games_at_once(bot: ScriptedBot) -> int:
    """The most games ``bot`` was in at once, from the frames it was sent (``game_start`` ... ``game_over``)."""
    playing, most = set(), 0
    for frame in bot.frames:
        if frame["type"] == "game_start":
            playing.add(frame["game"])
            most = max(most, len(playing))
        elif frame["type"] == "game_over":
            playing.discard(frame["game"])
    return most


async def test_a_final_of_four_settles_in_their_true_order_from_seeded_openings(make_server):
    server = await make_server(players=4, format="final")
    server.reporter = recorder = Recorder()
    bots = [waster_bot(server, f"bot{waste}", waste) for waste in (12, 0, 18, 6)]
    standings = await play(server, bots, seconds=120)
    document = export(server)
    assert document["tournament"]["format"] == "final" and document["tournament"]["finished"]
    final = check_final(document)
    assert final.settled and final.order == ["bot0", "bot6", "bot12", "bot18"]
    assert [r["rank"] for r in document["standings"]] == [1, 2, 3, 4]
    assert [most_games_at_once(bot) for bot in bots] == [1, 1, 1, 1]      # a round in slates: one game at a time
    assert standings.games_done == len(document["games"]) == final.games_total
    assert recorder.of("tournament_started") == [(server.folder.name, [b.key for b in bots], None)]
    said = [m for m in recorder.messages() if m.startswith("final, round")]
    assert len(said) == final.round + 1 and said[-1].endswith(f"the final is settled after {final.games_total} games")
    # Each pairing's games start from its seeded opening of 4 pawn moves, played by the referee.
    seed = document["tournament"]["seed"]
    for game in document["games"][:6]:
        log = parse_log(Path(game["log_path"]).read_text(), name=game["log_path"])
        assert [r.step for r in log.steps[:4]] == list(pawn_opening(seed, game["pairing"], 4))
        assert not log.problems


async def test_a_final_stopped_mid_round_resumes_and_plays_only_what_is_missing(make_server, tmp_path):
    data = tmp_path / "resume"
    server = await make_server(players=4, format="final", data_dir=data, final_games=36, concurrency=1)
    bots = [waster_bot(server, f"bot{waste}", waste, delay=0.002 * (waste + 1)) for waste in (0, 0, 0, 0)]
    tasks = [asyncio.create_task(bot.run()) for bot in bots]
    run = asyncio.create_task(server.run_tournament())
    while sum(len(b.games_over) for b in bots) < 2 * 15:       # round 2 is being played
        await bounded(asyncio.sleep(0.01), 60)
    run.cancel()                                                # the server dies mid-round
    for task in tasks:
        task.cancel()
    await bounded(asyncio.gather(run, *tasks, return_exceptions=True), 30)
    before = {g.game_id: g for g in await server.results.games(server.tournament_id, "finished")}
    await server.close()
    assert 12 < len(before) < 24
    # Equal bots never separate: the final plays its whole budget, 3 rounds of 12 (36 games), whatever the crash.
    again = await make_server(players=4, data_dir=data, resume=True)
    assert (again.settings.format, again.settings.final_games, again.settings.games_per_pairing) == ("final", 36, 2)
    again.reporter = recorder = Recorder()
    bots = [waster_bot(again, f"bot{waste}", waste) for waste in (0, 0, 0, 0)]
    standings = await play(again, bots, seconds=120)
    assert standings.games_done == 36
    said = [m.split(":")[0] for m in recorder.messages() if m.startswith("final, round")]
    assert said == ["final, round 2", "final, round 3"]         # round 1's look is not said again
    assert sum(len(b.games_over) for b in bots) == 2 * (36 - len(before))     # only the missing games were played
    document = export(again)
    assert sum(g["game_id"] in before for g in document["games"]) == len(before)
    final = check_final(document, budget=36)
    assert not final.settled and final.games_total == 36


# -- the options --------------------------------------------------------------------------------------


@pytest.mark.parametrize("argv, words", [
    (["--final", "-n", "4", "-r", "3"], "-r 3: a final plays each pairing colour-swapped, an even number of games"),
    (["--final", "-n", "8", "--final-games", "50"], "--final-games 50: one round of a final of 8 players is 56 games"),
    (["-n", "4", "--final-games", "100"], "--final-games is the game budget of a final; add --final"),
    (["--final", "-n", "4", "--freeze-at", "tomorrow"], "--freeze-at: 'tomorrow' is not an ISO time"),
    (["--final", "-f", "swiss", "-n", "4"], "--final is the format final; drop -f swiss"),
])
def test_bad_final_options_exit_2_with_one_line(capsys, argv, words):
    line = fails(capsys, argv)
    assert line.startswith("quoridor-server: error:") and words in line


def test_final_options():
    settings = settings_from_args(build_parser().parse_args(["--final", "-n", "8", "--freeze-at",
                                                             "2026-11-28T10:00+01:00", "--final-games", "560"]))
    assert (settings.format, settings.games_per_pairing, settings.players_from_submissions) == ("final", 2, True)
    assert (settings.freeze_at, settings.final_games) == ("2026-11-28T09:00:00Z", 560)
    assert settings_from_args(build_parser().parse_args(["-f", "final", "-n", "4", "-r", "4"])).games_per_pairing == 4
    assert not settings_from_args(build_parser().parse_args(["-f", "final", "-n", "4"])).players_from_submissions
    assert settings_from_args(build_parser().parse_args(["--freeze-at", "2026-11-28 09:00"])).freeze_at == \
        "2026-11-28T09:00:00Z"      # no offset: UTC
    resumed = settings_from_args(build_parser().parse_args(["--final", "--resume"]))
    assert resumed.resume and not resumed.players_from_submissions


def test_a_resumed_final_keeps_its_budget_freeze_and_openings():
    stored = ServerSettings(players=8, format="final", final_games=560, freeze_at="2026-11-28T09:00:00Z",
                            ladder_opening_plies=6).model_dump(mode="json")
    resumed, _ = ServerSettings(players=2).resumed(stored, 8)
    assert (resumed.format, resumed.final_games, resumed.freeze_at, resumed.ladder_opening_plies) == (
        "final", 560, "2026-11-28T09:00:00Z", 6)


def test_the_plain_view_says_that_a_final_plays_until_it_is_decided():
    out = io.StringIO()
    PlainReporter(out).tournament_started("cup", ["ann", "bob"], None)
    assert "tournament cup: 2 players (ann, bob), games round by round until it is decided" in out.getvalue()
    assert "knockout" not in out.getvalue()


async def test_the_freeze_seats_each_keys_newest_version_accepted_and_handed_in_by_then(make_server):
    from server.submissions.store import StoredVersion, SubmissionStore
    from server.submissions.files import content_digest
    server = await make_server(players=0)
    store = SubmissionStore(server.settings.data_dir)
    try:
        def version(key: str, text: str, at: str, accepted: bool = True) -> str:
            files = {"bot.py": text.encode()}
            digest = content_digest(files, "bot.py")
            store.put_files(digest, files)
            return store.record(StoredVersion(key, digest, "bot.py", at, accepted, "ok", "", 0.1, 1, 9)).version
        old = version("ann", "# 1", "2026-11-28T08:00:00Z")
        version("ann", "# 2", "2026-11-28T09:00:01Z")                        # a second late
        at_the_freeze = version("bob", "# 1", "2026-11-28T09:00:00Z")        # at the freeze: in
        version("bob", "# 2", "2026-11-28T08:30:00Z", accepted=False)        # refused: never seated
        version("cy", "# 1", "2026-11-28T10:00:00Z")                         # only after: no seat
    finally:
        store.close()
    frozen = await server.submissions.tournament_bots(True, "2026-11-28T09:00:00Z")
    assert {key: entry.version for key, entry in frozen.items()} == {"ann": old, "bob": at_the_freeze}
    assert (await server.submissions.tournament_bots(True))["ann"].version != old             # no freeze: the newest
    played = await server.submissions.tournament_bots(True, None, {"ann": old})              # a resume: as played
    assert {key: entry.version for key, entry in played.items()} == {"ann": old}


def test_resuming_with_only_resume_ignores_nothing_the_command_line_did_not_say():
    stored = ServerSettings(players=8, format="final", games_per_pairing=4, time_limit_ms=500, step_cap=60,
                            ruleset="standard", final_games=560).model_dump(mode="json")
    resumed, ignored = settings_from_args(build_parser().parse_args(["--resume"])).resumed(stored, 8)
    assert ignored == [] and (resumed.format, resumed.games_per_pairing, resumed.time_limit_ms) == ("final", 4, 500)
    _, ignored = settings_from_args(build_parser().parse_args(["--resume", "-t", "800"])).resumed(stored, 8)
    assert ignored == ["time_limit_ms=800 (the tournament has 500)"]


async def test_a_look_is_taken_off_the_event_loop(make_server, monkeypatch):
    threads = []
    advance = Final.advance

    def watched(final: Final) -> bool:
        threads.append(threading.current_thread() is threading.main_thread())
        return advance(final)
    monkeypatch.setattr(Final, "advance", watched)
    server = await make_server(players=2, format="final", final_games=4, concurrency=1)
    await play(server, [waster_bot(server, "a", 0), waster_bot(server, "b", 0)], seconds=60)
    assert threads == [False, False]            # two looks (a round of 2 games each), neither on the loop's thread

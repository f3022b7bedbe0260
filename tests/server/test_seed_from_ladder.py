"""``--seed-from-ladder``: a knockout's bracket and a Swiss's round 1 from the ladder's published ratings, kept
for ``--resume`` (the ladder may change, or go, meanwhile), and the flag's one-line errors."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from server.cli import main
from server.ladder.seeding import ladder_ratings_of, ladder_seeds, seeding_text
from server.ladder.store import LadderGame, LadderStore
from server.settings import ServerSettings
from shared.ladder import LiveRatings
from shared.tournament import seeding_order
from tests.server.conftest import ScriptedBot, bounded, url
from tests.server.support import Recorder, export, play

#: The ladder's order, best first: bot3 beats everyone, bot5 no one; bot2 and bot4 never played there.
LADDER = ["bot3", "bot1", "bot0", "bot5"]
PLAYERS = [f"bot{i}" for i in range(6)]


def make_ladder(data_dir: Path, order: list[str] = LADDER, *, versions: dict[str, str] | None = None) -> None:
    """A ``ladder.db`` in ``data_dir`` whose published table ranks ``order`` so: each pair played twice, colours
    swapped, the better one winning both games."""
    data_dir.mkdir(parents=True, exist_ok=True)
    store = LadderStore(data_dir / "ladder.db")
    ratings = LiveRatings()
    tracks = {bot: store.track(bot, (versions or {}).get(bot, ""), ratings.initial()) for bot in order}
    number = 0
    for i, better in enumerate(order):
        for worse in order[i + 1:]:
            for white, black in ((better, worse), (worse, better)):
                number += 1
                w, b = tracks[white], tracks[black]
                winner = 0 if white == better else 1
                store.record(LadderGame(f"L1-g{number}", number, w, b, winner, "goal", "", None,
                                        "2026-11-01T00:00:00", (10, 10), (0, 0), ((10,), (10,)), ((), ()),
                                        ratings.after_game(w.skill, b.skill, winner)))
    store.close()


def expected_seeds(seed: int = 1) -> list[str]:
    """The pairing numbers ``make_ladder``'s table gives ``PLAYERS``: its order, then bot2 and bot4 as ``seed`` draws."""
    order = seeding_order(PLAYERS, {bot: float(-k) for k, bot in enumerate(LADDER)}, seed)
    assert order[:4] == LADDER and sorted(order[4:]) == ["bot2", "bot4"]
    return order


def rounds_of(document: dict[str, Any]) -> list[set[frozenset[str]]]:
    """Each round's pairings in results.json."""
    rounds: dict[int, set[frozenset[str]]] = {}
    for game in document["games"]:
        rounds.setdefault(game["round"], set()).add(frozenset((game["white"], game["black"])))
    return [rounds[r] for r in sorted(rounds)]


def winner_of(document: dict[str, Any], pair: frozenset[str]) -> str:
    """Who went on from a knockout pairing: the player in a later round."""
    later = {p for g in document["games"] for p in (g["white"], g["black"])
             if g["round"] > min(x["round"] for x in document["games"] if {x["white"], x["black"]} == pair)}
    (winner,) = pair & later
    return winner


def test_ratings_are_each_players_track_on_the_published_table(tmp_path):
    make_ladder(tmp_path, versions={"bot3": "v7"})
    ratings = ladder_ratings_of(tmp_path, {"bot3": "v7", "bot1": None, "bot0": "v-other", "bot2": None})
    assert ratings["bot3"] > ratings["bot1"] > 0
    assert ratings["bot0"] is None          # handed in as a version the ladder never played: unrated
    assert ratings["bot2"] is None          # never on the ladder
    order, found = ladder_seeds(tmp_path, {name: None for name in PLAYERS}, seed=1)
    assert order == expected_seeds(1)
    text = seeding_text(order, found)
    assert text.startswith("seeded from the ladder: 1 bot3 (+") and "5 bot" in text and "(unrated)" in text


async def test_a_knockout_seeded_from_the_ladder_is_the_standard_bracket(make_server, tmp_path):
    data = tmp_path / "data"
    make_ladder(data)
    server = await make_server(players=6, format="knockout", seed_from_ladder=True, data_dir=data)
    server.reporter = recorder = Recorder()
    seeds = expected_seeds(1)
    standings = await play(server, [ScriptedBot(url(server), name) for name in PLAYERS], seconds=60)
    document = export(server)
    assert document["tournament"]["settings"]["seeds"] == seeds          # stored: --resume pairs the same
    s = dict(enumerate(seeds, 1))
    rounds = rounds_of(document)
    # 6 in a bracket of 8: seeds 1 and 2 wait (byes), 3 v 6 and 4 v 5 play
    assert rounds[0] == {frozenset((s[3], s[6])), frozenset((s[4], s[5]))}
    w36, w45 = (winner_of(document, frozenset(pair)) for pair in ((s[3], s[6]), (s[4], s[5])))
    assert rounds[1] == {frozenset((s[1], w45)), frozenset((s[2], w36))}
    assert len(rounds) == 3 and standings.games_done == len(document["games"])
    assert any(m.startswith("seeded from the ladder: 1 bot3 (+") for m in recorder.messages())


async def test_a_swiss_seeded_from_the_ladder_pairs_top_half_against_bottom_half(make_server, tmp_path):
    data = tmp_path / "data"
    make_ladder(data)
    server = await make_server(players=6, format="swiss", swiss_rounds=2, seed_from_ladder=True, data_dir=data)
    await play(server, [ScriptedBot(url(server), name) for name in PLAYERS], seconds=60)
    s = dict(enumerate(expected_seeds(1), 1))
    assert rounds_of(export(server))[0] == {frozenset((s[1], s[4])), frozenset((s[2], s[5])),
                                            frozenset((s[3], s[6]))}


async def test_a_seeded_knockout_resumes_with_its_seeds_when_the_ladder_is_gone(make_server, tmp_path):
    data = tmp_path / "data"
    make_ladder(data)
    server = await make_server(players=6, format="knockout", games_per_pairing=2, seed_from_ladder=True,
                               data_dir=data, tournament_name="cup")
    bots = [ScriptedBot(url(server), name, delay=0.004 * (i + 1)) for i, name in enumerate(PLAYERS)]
    tasks = [asyncio.create_task(bot.run()) for bot in bots]
    run = asyncio.create_task(server.run_tournament())
    while sum(len(b.games_over) for b in bots) < 2:          # a game over: round 1 is being played
        await bounded(asyncio.sleep(0.01), 60)
    run.cancel()                                             # the server dies mid-tournament
    for task in tasks:
        task.cancel()
    await bounded(asyncio.gather(run, *tasks, return_exceptions=True), 30)
    before = {g.game_id for g in await server.results.games(server.tournament_id, "finished")}
    await server.close()
    assert before
    (data / "ladder.db").unlink()                            # resumed, it reads its stored seeds, not the ladder
    make_ladder(data, list(reversed(LADDER)))                # ... even if the ladder now says otherwise
    again = await make_server(players=6, data_dir=data, resume=True)
    seeds = expected_seeds(1)
    assert (again.settings.format, again.settings.seeds) == ("knockout", seeds)
    await play(again, [ScriptedBot(url(again), name) for name in PLAYERS], seconds=60)
    document = export(again)
    s = dict(enumerate(seeds, 1))
    assert rounds_of(document)[0] == {frozenset((s[3], s[6])), frozenset((s[4], s[5]))}
    assert before <= {g["game_id"] for g in document["games"]}


def test_a_resumed_tournament_keeps_its_seeds_and_an_older_one_has_none():
    stored = ServerSettings(players=4, format="knockout", seed_from_ladder=True,
                            seeds=["d", "c", "b", "a"]).model_dump(mode="json")
    resumed, ignored = ServerSettings(players=2).resumed(stored, 4)
    assert resumed.seeds == ["d", "c", "b", "a"]
    assert not any(note.startswith("seed") for note in ignored)       # the command line never set them
    older = {k: v for k, v in stored.items() if k not in ("seed_from_ladder", "seeds")}
    resumed, _ = ServerSettings(players=4, format="knockout", seeds=["a", "b", "c", "d"]).resumed(older, 4)
    assert resumed.seeds is None                                       # paired by its seed, as it started


# -- the flag's errors ------------------------------------------------------------------------------

@pytest.mark.parametrize("argv, words", [
    (["-n", "4", "--seed-from-ladder"], "--seed-from-ladder gives a Swiss or a knockout its pairing numbers; the "
                                        "format is round-robin (add -f swiss or -f knockout)"),
    (["-n", "4", "-f", "final", "--seed-from-ladder"], "the format is final"),
    (["--ladder", "-n", "4", "-f", "swiss", "--seed-from-ladder"], "not with --ladder"),
])
def test_the_flag_on_a_format_without_pairing_numbers_exits_2_with_one_line(capsys, argv, words):
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and words in err.strip().splitlines()[-1]


def test_the_flag_without_a_ladder_exits_1_with_one_line(capsys, tmp_path):
    assert main(["-n", "4", "-f", "knockout", "--seed-from-ladder", "--data-dir", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.strip() == (f"quoridor-server: --seed-from-ladder: no ladder in {tmp_path} (no ladder.db); run "
                           "quoridor-server --ladder there first, or give the DATA_DIR of the ladder (--data-dir)")

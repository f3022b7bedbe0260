"""A run's plan and results: colour-swapped pairs from one opening, pair results merged in any order, games
played in this process or in worker processes, and a run stopped early (or by Ctrl-C) leaving no process."""

import multiprocessing

import pytest

from client.driver import ProblemKind
from client.match import PlayedGame, run_games
from client.match_plan import GameJob, Lineup, bot_labels, gauntlet_pairings, round_robin_pairings, schedule
from client.match_results import RunResults
from shared.gamelog import GameOutcome
from shared.referee import RefereeSettings
from shared.referee.local import LocalGame
from shared.tournament.bradley_terry import Encounter
from shared.tournament.pentanomial import Pentanomial

FAST = RefereeSettings(time_limit_ms=None)

CRASHER = '''
from client.player import Player

class Crasher(Player):
    def next_step(self, change):
        raise RuntimeError("every turn")
'''


def test_labels_number_a_bot_given_twice():
    assert bot_labels(["strong", "runner", "strong"]) == ("strong#1", "runner", "strong#2")


def test_pairings_of_a_round_robin_and_a_gauntlet():
    assert round_robin_pairings(3) == [(0, 1), (0, 2), (1, 2)]
    assert gauntlet_pairings(4) == [(0, 1), (0, 2), (0, 3)]


def test_the_schedule_plays_pairs_from_one_opening_pair_by_pair_across_the_pairings():
    jobs = list(schedule([(0, 1), (0, 2)], 3, seed=9, opening_plies=2))
    assert [(j.number, j.pairing, j.pair, j.swapped) for j in jobs] == [
        (0, (0, 1), 0, False), (1, (0, 1), 0, True), (2, (0, 2), 0, False), (3, (0, 2), 0, True),
        (4, (0, 1), 1, False), (5, (0, 2), 1, False)]          # 3 games: the last pair has one game
    assert jobs[0].seats == (0, 1) and jobs[1].seats == (1, 0)
    assert jobs[0].opening == jobs[1].opening == jobs[2].opening != jobs[4].opening
    assert all(len(j.opening) == 2 for j in jobs)
    with pytest.raises(ValueError):
        next(schedule([(0, 1)], 0))


def finished(job: GameJob, winner: int | None) -> PlayedGame:
    """A played game with only what the results read: its job and who won (a seat, None for a draw)."""
    players = ("p0", "p1")
    return PlayedGame(job, LocalGame(players, GameOutcome(winner, "goal", (0, 0), (0, 0)), [], None))


def test_results_count_pairs_whatever_order_their_games_finish_in():
    lineup = Lineup(("a", "b", "c"), ("a", "b", "c"))
    results = RunResults(lineup, [(0, 1), (0, 2)])
    jobs = list(schedule([(0, 1), (0, 2)], 4))
    # Pairing a-b: pair 0 a wins both (seat 0, then seat 1); pair 1 each wins as seat 0 (WL).
    # Pairing a-c: pair 0 a draws then loses (LD); pair 1 left with one game.
    assert results.add(finished(jobs[1], 1)) is None                     # a, in seat 1, wins
    assert results.add(finished(jobs[0], 0)) == Pentanomial(ww=1)       # its partner completes the pair
    assert results.add(finished(jobs[2], None)) is None
    assert results.add(finished(jobs[3], 0)) == Pentanomial(ld=1)       # c in seat 0 wins
    assert results.add(finished(jobs[4], 0)) is None
    assert results.add(finished(jobs[5], 0)) == Pentanomial(wl=1)
    assert results.add(finished(jobs[6], 0)) is None
    ab, ac = results.pairings[(0, 1)], results.pairings[(0, 2)]
    assert (ab.wins, ab.losses, ab.draws, ab.pentanomial) == (3, 1, 0, Pentanomial(ww=1, wl=1))
    assert (ac.wins, ac.losses, ac.draws, ac.pentanomial) == (1, 1, 1, Pentanomial(ld=1))
    assert [(t.wins, t.losses, t.draws) for t in results.tallies] == [(4, 2, 1), (1, 3, 0), (1, 1, 1)]
    assert sorted(results.encounters(), key=repr) == sorted([
        Encounter("a", "b", 2, 2.0), Encounter("a", "b", 2, 1.0), Encounter("a", "c", 2, 0.5),
        Encounter("a", "c", 1, 1.0)], key=repr)
    assert results.matrix() == {"a": {"a": None, "b": 0.75, "c": 0.5}, "b": {"a": 0.25, "b": None, "c": None},
                                "c": {"a": 0.5, "b": None, "c": None}}


def test_a_run_in_worker_processes_brings_every_game_and_every_failure_back(tmp_path):
    path = tmp_path / "crasher.py"
    path.write_text(CRASHER)
    lineup = Lineup.of(["runner", f"{path}:Crasher", "random"])
    played: list[PlayedGame] = []
    assert run_games(lineup, FAST, schedule(round_robin_pairings(3), 2, opening_plies=2),
                     lambda game: played.append(game) or True, workers=2)
    assert sorted(p.job.number for p in played) == list(range(6))
    crashes = [problem for p in played for problem in p.problems]
    assert crashes and all(c.label == "Crasher" and c.kind is ProblemKind.RAISED for c in crashes)
    assert "RuntimeError: every turn" in crashes[0].traceback and crashes[0].place[0] == "next_step"
    assert all([r.step for r in p.game.records[:2]] == list(p.job.opening) for p in played)


def test_a_run_stopped_early_or_interrupted_leaves_no_worker_behind():
    lineup = Lineup.of(["runner", "random"])
    before = set(multiprocessing.active_children())
    seen: list[int] = []
    assert not run_games(lineup, FAST, schedule([(0, 1)], 40), lambda p: seen.append(p.job.number) or len(seen) < 3,
                         workers=2)
    assert len(seen) == 3 and set(multiprocessing.active_children()) <= before

    def interrupt(played: PlayedGame) -> bool:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_games(lineup, FAST, schedule([(0, 1)], 40), interrupt, workers=2)
    assert set(multiprocessing.active_children()) <= before

"""Strength figures for the built-in bots: ``strong`` against every other built-in bot.

A benchmark, not a test. Run from the repository root::

    .venv/bin/python bench/bots_strength.py            # 100 games per opponent (a long run)
    .venv/bin/python bench/bots_strength.py --quick    # 10 games per opponent
    .venv/bin/python bench/bots_strength.py --games 40 --opponents blocker defender --show-losses

Every game is played by ``client.match.play_game`` (the local match's: each bot through its
``BotDriver``, refereed by ``play_local_game``) with the default ``RefereeSettings`` (course
rules, 1000 ms limit, 100-step cap) and ``time.perf_counter`` as the clock, so the times the
referee charges, the ones reported here, are real thinking times. Each bot is told the limit, as
on the server (``strong`` searches for at most 40% of it). Each bot object plays a whole pairing
(``restart()`` between games), as on the server; a bot that raises answers with an empty step (a
violation) and counts as a crash.

Games come in pairs that share a *seeded opening*: ``--opening-plies`` random legal plies (each a
random pawn move, or with probability ``WALL_SHARE`` a random wall) drawn from the seed
``--seed`` + the pair's number and played by the referee (``play_game``'s ``opening``), the bots
hearing them through their hooks like any turn; then the bots take over. ``strong`` is seat 0 in
a pair's first game and seat 1 in its second.
The openings and the random bot are seeded, so a run is repeatable up to the search depth the clock
allows.

Targets: ``strong`` wins at least ``TARGET_WIN_RATE`` of its games against every opponent, never
loses a *won race* on the step cap (a game in which, at one of ``strong``'s turns, its race was won
by ``client.bots.evaluation.won_race``: the opponent had no walls left and ``strong``'s path was at
least a step shorter than the opponent's), and thinks at most ``TARGET_MEDIAN_MS`` per step at the median and
``TARGET_MAX_MS`` at most (opening plies excluded). "steps home beyond the path" counts, in the won
races it won, the steps ``strong`` took after the race was won beyond the length of its path then
(0 when it walked straight home; negative when it jumped the other pawn).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from client.bots import BOTS, RandomPlayer, StrongPlayer
from client.bots.evaluation import won_race
from client.driver import BotDriver, BotProblem
from client.match import play_game
from client.player import Player
from shared.quoridor import ChessboardChange, GameStatus, Position, Step, step_name
from shared.referee import RefereeEvent, RefereeSettings, StepJudged

# -- targets ---------------------------------------------------------------------------------
TARGET_WIN_RATE = 0.95
TARGET_MEDIAN_MS = 150.0
TARGET_MAX_MS = 400.0
TARGET_WON_RACES_LOST_ON_CAP = 0
#: Every built-in bot but ``strong`` itself, weakest first.
OPPONENTS = [name for name in BOTS if name != "strong"]
RANDOM_SEED = 2024
OPENING_SEED = 2024
OPENING_PLIES = 4
#: The chance that an opening ply is a wall rather than a pawn move.
WALL_SHARE = 0.25


def random_opening(seed: int, plies: int = OPENING_PLIES, wall_share: float = WALL_SHARE) -> list[Step]:
    """``plies`` random legal steps from the initial position, drawn from ``seed``: each a pawn move, or a
    wall with probability ``wall_share``. Fewer when a pawn arrives first (not with a few plies)."""
    rng = random.Random(seed)
    pos = Position.initial()
    steps: list[Step] = []
    while len(steps) < plies and not pos.is_over():
        walls = pos.legal_walls() if pos.walls_left[pos.turn] else []
        moves = pos.legal_moves()
        step = Step(new_wall=rng.choice(walls)) if walls and (not moves or rng.random() < wall_share) \
            else Step(rng.choice(moves))
        steps.append(step)
        pos = pos.apply(step)
    return steps


class TimedDriver(BotDriver):
    """A ``BotDriver`` that notes the process CPU time of each of its bot's own answers."""

    def __init__(self, bot: Any, on_problem: Callable[[BotProblem], None] | None = None) -> None:
        super().__init__(bot, on_problem)
        #: The process CPU time (ms) of the bot's last own answer: with the wall time it took, it tells
        #: slow work apart from time the process spent waiting for a CPU on a busy machine.
        self.cpu_ms = 0.0

    def ask_now(self, change: ChessboardChange, *turn: Any) -> Step:
        """The bot's own step; ``turn`` is the rest of what ``BotDriver.ask_now`` takes, passed on as it comes."""
        started = time.process_time()
        try:
            return super().ask_now(change, *turn)
        finally:
            self.cpu_ms = (time.process_time() - started) * 1000


@dataclass
class Pairing:
    """The tally of one opponent's games against ``strong``."""

    opponent: str
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    violations: list[int] = field(default_factory=lambda: [0, 0])    # strong, opponent
    timeouts: list[int] = field(default_factory=lambda: [0, 0])      # strong, opponent
    crashes: list[int] = field(default_factory=lambda: [0, 0])       # strong, opponent
    reasons: Counter[str] = field(default_factory=Counter)
    plies: list[int] = field(default_factory=list)
    think_ms: list[float] = field(default_factory=list)               # strong's, every own step, as charged
    slowest: tuple[float, float, float, int, int] = (0.0, 0.0, 0.0, 0, 0)   # ms charged, searched, of CPU; depth, nodes
    cpu_max_ms: float = 0.0            # the most CPU time strong's answer to one turn took
    won_races: int = 0                 # games in which strong had the race won at one of its turns
    won_races_lost: Counter[str] = field(default_factory=Counter)     # ... and did not win, by reason
    extra_steps: list[int] = field(default_factory=list)              # steps home beyond the path, won races won
    not_won: Counter[str] = field(default_factory=Counter)            # games strong lost or drew, by reason
    losses_seen: list[str] = field(default_factory=list)


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95 % by default) of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def make_opponent(name: str) -> Player:
    """A fresh opponent bot (the random one seeded)."""
    return RandomPlayer(name, seed=RANDOM_SEED) if name == "random" else BOTS[name](name)


def play_one(drivers: tuple[TimedDriver, TimedDriver], strong: StrongPlayer, strong_seat: int,
             opening: Sequence[Step], tally: Pairing) -> None:
    """Play one refereed game after ``opening`` (``drivers``: strong's, then the opponent's) and add it to ``tally``."""
    seated = drivers if strong_seat == 0 else (drivers[1], drivers[0])
    names = ("strong", tally.opponent) if strong_seat == 0 else (tally.opponent, "strong")
    won_at: tuple[int, int] | None = None      # (strong's steps so far, its path then) when the race was first won
    own_steps = 0

    def judged(event: RefereeEvent) -> None:
        nonlocal won_at, own_steps
        if not isinstance(event, StepJudged) or event.opening:
            return
        if event.seat == strong_seat:
            own_steps += 1
            took = float(event.record.thinking_ms or 0)
            tally.think_ms.append(took)
            result = strong.last_result
            cpu = drivers[0].cpu_ms
            tally.cpu_max_ms = max(tally.cpu_max_ms, cpu)
            if took > tally.slowest[0] and result is not None:
                tally.slowest = (took, result.elapsed * 1000, cpu, result.depth, result.nodes)
        if won_at is None and event.position.turn == strong_seat and won_race(event.position, strong_seat):
            won_at = (own_steps, event.position.distance(strong_seat) or 0)

    game = play_game(seated, names, RefereeSettings(), time.perf_counter, judged, opening)
    outcome = game.outcome
    tally.games += 1
    tally.plies.append(len(game.records))
    tally.reasons[outcome.reason] += 1
    if won_at is not None:
        tally.won_races += 1
        if outcome.winner == strong_seat:
            tally.extra_steps.append(own_steps - won_at[0] - won_at[1])
        else:
            tally.won_races_lost[outcome.reason] += 1
    if outcome.winner != strong_seat:
        tally.not_won[outcome.reason] += 1
    if outcome.winner is None:
        tally.draws += 1
    elif outcome.winner == strong_seat:
        tally.wins += 1
    else:
        tally.losses += 1
        moves = " ".join(step_name(r.step) if r.status is not GameStatus.TIMEOUT else "(timeout)"
                         for r in game.records)
        tally.losses_seen.append(f"strong as seat {strong_seat}, {outcome.reason}: {moves}")
    for side, seat in ((0, strong_seat), (1, 1 - strong_seat)):
        tally.violations[side] += outcome.violations[seat]
        tally.timeouts[side] += sum(1 for r in game.records
                                    if r.player == names[seat] and r.status is GameStatus.TIMEOUT)


def run_pairing(opponent: str, games: int, budget_ms: int, plies: int, seed: int, progress: bool) -> Pairing:
    """``games`` games of ``strong`` against ``opponent``: in pairs, one opening a pair, colours alternating."""
    tally = Pairing(opponent)
    strong = StrongPlayer("strong", time_budget_ms=budget_ms)

    def crashed(side: int) -> Callable[[BotProblem], None]:
        def count(problem: BotProblem) -> None:
            tally.crashes[side] += 1
        return count

    drivers = (TimedDriver(strong, crashed(0)), TimedDriver(make_opponent(opponent), crashed(1)))
    opening: list[Step] = []
    for number in range(games):
        if number % 2 == 0:
            opening = random_opening(seed + number // 2, plies)
        play_one(drivers, strong, number % 2, opening, tally)
        if progress:
            print(f"\r  {opponent}: {number + 1}/{games} games, {tally.wins} won", end="", file=sys.stderr, flush=True)
    if progress:
        print(file=sys.stderr)
    return tally


def mark(ok: bool) -> str:
    """A pass/fail mark."""
    return "PASS" if ok else "FAIL"


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-quantile (0..1) of ``values`` by the nearest-rank method."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def counted(counter: Counter[str]) -> str:
    """``reason n, ...``, or ``-`` when empty."""
    return ", ".join(f"{k} {v}" for k, v in sorted(counter.items())) or "-"


_HEADER = (f"{'opponent':<9} {'strong wins':>16} {'95% interval':>16}  {'target':<7} {'':<4}  "
           f"{'losses, draws (how)':<22} {'won races':>9} {'lost on cap':>11}  {'ms median / p90 / max':>21}")


def table_row(tally: Pairing) -> str:
    """One opponent's line of the strength table."""
    rate = tally.wins / tally.games
    low, high = wilson(tally.wins, tally.games)
    how = counted(tally.not_won)
    times = tally.think_ms or [0.0]
    return (f"{tally.opponent:<9} {f'{tally.wins}/{tally.games} = {rate:.1%}':>16} {f'[{low:.1%}, {high:.1%}]':>16}  "
            f"{f'>= {TARGET_WIN_RATE:.0%}':<7} {mark(rate >= TARGET_WIN_RATE):<4}  "
            f"{f'{tally.losses}, {tally.draws} ({how})':<22} {tally.won_races:>9} "
            f"{tally.won_races_lost['step_cap']:>11}  "
            f"{f'{statistics.median(times):.0f} / {percentile(times, 0.9):.0f} / {max(times):.0f}':>21}")


def details(tally: Pairing, show_losses: bool) -> None:
    """Print the rest of one pairing's figures."""
    took, searched, cpu, depth, nodes = tally.slowest
    extra = tally.extra_steps
    print(f"  {tally.opponent}: violations {tally.violations[0]}/{tally.violations[1]} (strong/opponent), "
          f"timeouts {tally.timeouts[0]}/{tally.timeouts[1]}, crashes {tally.crashes[0]}/{tally.crashes[1]}; "
          f"game ends {counted(tally.reasons)}; plies median {statistics.median(tally.plies):.0f}, "
          f"max {max(tally.plies)}")
    print(f"    won races {tally.won_races}: lost {sum(tally.won_races_lost.values())} "
          f"({counted(tally.won_races_lost)}); steps home beyond the path "
          f"{'-' if not extra else f'median {statistics.median(extra):.0f}, max {max(extra)}'}; "
          # Tells a slow search apart from time lost outside it, and slow work (CPU) from time spent waiting
          # for a CPU on a busy machine (wall time, no CPU).
          f"slowest step {took:.0f} ms ({searched:.0f} ms in search, {cpu:.0f} ms of CPU, depth {depth}, "
          f"{nodes} nodes); most CPU in a step {tally.cpu_max_ms:.0f} ms")
    if show_losses:
        for line in tally.losses_seen:
            print(f"    lost: {line}")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the pairings and print the table; the exit status is 0 (figures, not a test)."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100, help="games per opponent (default: 100)")
    parser.add_argument("--quick", action="store_true", help="10 games per opponent")
    parser.add_argument("--budget", type=int, default=StrongPlayer().time_budget_ms, metavar="MS",
                        help="strong's time budget (default: its own, %(default)s)")
    parser.add_argument("--opponents", nargs="+", default=OPPONENTS, choices=OPPONENTS)
    parser.add_argument("--opening-plies", type=int, default=OPENING_PLIES, metavar="N",
                        help=f"random plies before the bots take over (default: {OPENING_PLIES})")
    parser.add_argument("--seed", type=int, default=OPENING_SEED, help=f"first opening's seed (default: {OPENING_SEED})")
    parser.add_argument("--show-losses", action="store_true", help="print the moves of every game strong lost")
    parser.add_argument("--no-progress", action="store_true", help="no progress line on stderr (default when not a tty)")
    args = parser.parse_args(argv)
    games = 10 if args.quick else args.games
    if games < 1:
        parser.error("--games must be at least 1")
    if args.opening_plies < 0:
        parser.error("--opening-plies must be 0 or more")
    started = time.perf_counter()
    print(f"bots strength: strong (budget {args.budget} ms) vs {', '.join(args.opponents)}; {games} games each, "
          f"colours alternating, seeded openings ({args.opening_plies} plies, seeds {args.seed}+); "
          f"course rules, 1000 ms limit, perf_counter clock\n")
    tallies = []
    for opponent in args.opponents:
        tallies.append(run_pairing(opponent, games, args.budget, args.opening_plies, args.seed,
                                   sys.stderr.isatty() and not args.no_progress))
    print(_HEADER)
    for tally in tallies:
        print(table_row(tally))
    print()
    for tally in tallies:
        details(tally, args.show_losses)
    all_times = [t for tally in tallies for t in tally.think_ms] or [0.0]
    median, slowest = statistics.median(all_times), max(all_times)
    lost_on_cap = sum(tally.won_races_lost["step_cap"] for tally in tallies)
    verdicts = {
        f"strong wins >= {TARGET_WIN_RATE:.0%} against each":
            all(t.wins / t.games >= TARGET_WIN_RATE for t in tallies),
        f"won races lost on the step cap: {lost_on_cap} (target {TARGET_WON_RACES_LOST_ON_CAP})":
            lost_on_cap <= TARGET_WON_RACES_LOST_ON_CAP,
        f"ms/step median {median:.0f} (target <= {TARGET_MEDIAN_MS:.0f})": median <= TARGET_MEDIAN_MS,
        f"ms/step max {slowest:.0f} (target <= {TARGET_MAX_MS:.0f})": slowest <= TARGET_MAX_MS,
    }
    print(f"\nstrong over all {sum(t.games for t in tallies)} games "
          f"(ms/step p90 {percentile(all_times, 0.9):.0f} over {len(all_times)} steps)")
    for label, ok in verdicts.items():
        print(f"  {label:<58} {mark(ok)}")
    print(f"\nall targets {'met' if all(verdicts.values()) else 'NOT met'}; "
          f"total time {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

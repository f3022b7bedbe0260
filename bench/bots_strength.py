"""Strength figures for the built-in bots: ``strong`` against ``random``, ``runner`` and ``defender``.

A benchmark, not a test. Run from the repository root::

    .venv/bin/python bench/bots_strength.py            # 100 games per opponent (several minutes)
    .venv/bin/python bench/bots_strength.py --quick    # 10 games per opponent
    .venv/bin/python bench/bots_strength.py --games 40 --opponents defender --show-losses

Every game is played by ``client.match.play_game`` (the local match's: each bot through its
``BotDriver``, refereed by ``play_local_game``) with the default ``RefereeSettings`` (course
rules, 1000 ms limit, 100-step cap) and ``time.perf_counter`` as the clock, so the times the
referee charges, the ones reported here, are real thinking times. Each bot is told the limit, as
on the server (``strong`` searches for at most 40% of it). Colours alternate: ``strong`` is seat 0
in even games. Each bot object plays a whole pairing (``restart()`` between games), as on the
server; a bot that raises answers with an empty step (a violation) and counts as a crash. The
random bot is seeded, so a run is repeatable up to the search depth the clock allows.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from client.bots import BOTS, RandomPlayer, StrongPlayer
from client.driver import BotDriver, BotProblem
from client.match import play_game
from client.player import Player
from shared.quoridor import GameStatus, step_name
from shared.referee import RefereeEvent, RefereeSettings, StepJudged

# -- targets ---------------------------------------------------------------------------------
TARGET_WIN_RATE = {"random": 1.00, "runner": 0.95, "defender": 0.90}
TARGET_MEDIAN_MS = 200.0
RANDOM_SEED = 2024


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
    think_ms: list[float] = field(default_factory=list)               # strong's, every step, as charged
    slowest: tuple[float, float, int, int] = (0.0, 0.0, 0, 0)         # ms asked, ms searched, depth, nodes
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


def play_one(drivers: tuple[BotDriver, BotDriver], strong: StrongPlayer, strong_seat: int, tally: Pairing) -> None:
    """Play one refereed game (``drivers``: strong's, then the opponent's) and add it to ``tally``."""
    seated = drivers if strong_seat == 0 else (drivers[1], drivers[0])
    names = ("strong", tally.opponent) if strong_seat == 0 else (tally.opponent, "strong")

    def judged(event: RefereeEvent) -> None:
        if isinstance(event, StepJudged) and event.seat == strong_seat:
            took = float(event.record.thinking_ms or 0)
            tally.think_ms.append(took)
            result = strong.last_result
            if took > tally.slowest[0] and result is not None:
                tally.slowest = (took, result.elapsed * 1000, result.depth, result.nodes)

    game = play_game(seated, names, RefereeSettings(), time.perf_counter, judged)
    outcome = game.outcome
    tally.games += 1
    tally.plies.append(len(game.records))
    tally.reasons[outcome.reason] += 1
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


def run_pairing(opponent: str, games: int, budget_ms: int, progress: bool) -> Pairing:
    """``games`` games of ``strong`` against ``opponent``, colours alternating."""
    tally = Pairing(opponent)
    strong = StrongPlayer("strong", time_budget_ms=budget_ms)

    def crashed(side: int) -> Callable[[BotProblem], None]:
        def count(problem: BotProblem) -> None:
            tally.crashes[side] += 1
        return count

    drivers = (BotDriver(strong, crashed(0)), BotDriver(make_opponent(opponent), crashed(1)))
    for number in range(games):
        play_one(drivers, strong, number % 2, tally)
        if progress:
            print(f"\r  {opponent}: {number + 1}/{games} games, {tally.wins} won", end="", file=sys.stderr, flush=True)
    if progress:
        print(file=sys.stderr)
    return tally


def mark(ok: bool) -> str:
    """A pass/fail mark."""
    return "PASS" if ok else "FAIL"


def row(label: str, value: str, target: str = "", verdict: str = "") -> None:
    """Print one table row."""
    print(f"  {label:<44} {value:>24}   {target:<10} {verdict}")


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-quantile (0..1) of ``values`` by the nearest-rank method."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def report(tally: Pairing, show_losses: bool) -> bool:
    """Print one pairing's figures; True when its win-rate target is met."""
    rate = tally.wins / tally.games
    low, high = wilson(tally.wins, tally.games)
    target = TARGET_WIN_RATE[tally.opponent]
    ok = rate >= target
    print(f"strong vs {tally.opponent} ({tally.games} games, colours alternating)")
    row("strong wins", f"{tally.wins}/{tally.games} = {rate:6.1%}", f">= {target:.0%}", mark(ok))
    row("  Wilson 95% interval", f"[{low:.1%}, {high:.1%}]")
    row("losses / draws", f"{tally.losses} / {tally.draws}")
    row("violations (strong / opponent)", f"{tally.violations[0]} / {tally.violations[1]}")
    row("timeouts (strong / opponent)", f"{tally.timeouts[0]} / {tally.timeouts[1]}")
    if any(tally.crashes):
        row("crashes (strong / opponent)", f"{tally.crashes[0]} / {tally.crashes[1]}")
    row("game ends", ", ".join(f"{k} {v}" for k, v in sorted(tally.reasons.items())))
    row("plies per game (median / max)", f"{statistics.median(tally.plies):.0f} / {max(tally.plies)}")
    times = tally.think_ms
    row("strong ms/step (median / p90 / max)",
        f"{statistics.median(times):.0f} / {percentile(times, 0.9):.0f} / {max(times):.0f}")
    took, searched, depth, nodes = tally.slowest
    # Tells a slow search apart from time lost outside it (a busy machine, a paused process).
    row("  slowest step ms (in search, depth, nodes)", f"{took:.0f} ({searched:.0f}, {depth}, {nodes})")
    if show_losses:
        for line in tally.losses_seen:
            print(f"    lost: {line}")
    return ok


def main(argv: Sequence[str] | None = None) -> int:
    """Run the pairings and print the table; the exit status is 0 (figures, not a test)."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100, help="games per opponent (default: 100)")
    parser.add_argument("--quick", action="store_true", help="10 games per opponent")
    parser.add_argument("--budget", type=int, default=200, metavar="MS", help="strong's time budget (default: 200)")
    parser.add_argument("--opponents", nargs="+", default=list(TARGET_WIN_RATE), choices=list(TARGET_WIN_RATE))
    parser.add_argument("--show-losses", action="store_true", help="print the moves of every game strong lost")
    parser.add_argument("--no-progress", action="store_true", help="no progress line on stderr (default when not a tty)")
    args = parser.parse_args(argv)
    games = 10 if args.quick else args.games
    if games < 1:
        parser.error("--games must be at least 1")
    started = time.perf_counter()
    print(f"bots strength: strong (budget {args.budget} ms) vs {', '.join(args.opponents)}; {games} games each; "
          f"course rules, 1000 ms limit, perf_counter clock")
    all_times: list[float] = []
    verdicts = []
    for opponent in args.opponents:
        tally = run_pairing(opponent, games, args.budget, sys.stderr.isatty() and not args.no_progress)
        verdicts.append(report(tally, args.show_losses))
        all_times += tally.think_ms
    median = statistics.median(all_times)
    print("strong thinking time over all games")
    row("ms/step (median / p90 / max)",
        f"{median:.0f} / {percentile(all_times, 0.9):.0f} / {max(all_times):.0f}",
        f"<= {TARGET_MEDIAN_MS:.0f} ms", mark(median <= TARGET_MEDIAN_MS))
    print(f"\nall targets {'met' if all(verdicts) and median <= TARGET_MEDIAN_MS else 'NOT met'}; "
          f"total time {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Calibration of the analysis's winning chances (``shared.analysis.win_chance``) on games between the built-in bots.

A benchmark, not a test. Run from the repository root::

    .venv/bin/python bench/analysis_calibration.py            # 10,000 games, 2 positions each (~12 min on 2 cores)
    .venv/bin/python bench/analysis_calibration.py --quick    # 1,000 games (a few minutes)
    .venv/bin/python bench/analysis_calibration.py --samples /tmp/cal.jsonl          # ... and keep the samples
    .venv/bin/python bench/analysis_calibration.py --from-samples /tmp/cal.jsonl     # fit again, no game played

**The games.** Six bots of several strengths (``MIX``): ``random`` (seeded by its position, so a game is
repeatable), ``runner``, ``blocker``, ``defender``, and the engine's search (``shared.engine.Searcher``,
the ``strong`` bot's) on a fixed budget of 40 and of 120 nodes a step (``Strong40``, ``Strong120``: a few
ms a step, and deterministic, as a node budget is). Every pairing of two of them, and each of them but
``random`` against itself: 20 pairings, taken in turn, the colours swapped every other round. Each game
starts from its own seeded opening (``client.openings.opening_for(seed, game number, 4)``: four random legal
plies), so even two deterministic bots play a different game each time, and no game is played twice. The
games are played by ``client.match.run_games`` (the local match's referee), ``--jobs`` at once in worker
processes, without a time limit (the budgets are nodes).

**The samples.** Searching every ply of 10,000 games at the analysis's budget would take hours on two
cores; ``--positions`` (2) positions are drawn from each game (seeded by the game's number), uniformly
among the positions before its rows, opening rows included, as the analysis values every one. Two
positions of one game share its result, so they tell less than two games would: a few per game and many
games is the better use of the same time. Each sampled position is searched as ``analyse_game`` searches it
(``shared.analysis``'s engine call at ``DEFAULT_NODES``); its truth is the game's result for the side to move
there (1 won, 0 lost). Games ended by the step cap (decided by thinking time, not on the board) are left out.

**The fit.** Games, not positions, are split: every fifth round of the 20 pairings is held out (a fifth of
each pairing's games, both colours). On the
others, the logistic ``P(win) = 1 / (1 + exp(-(v + offset) / scale))``, that is ``(1 + win_chance(v)) / 2``,
is fitted by maximum likelihood (Newton's method on ``1/scale`` and ``offset/scale``; plain Python), without
and with the offset. Positions the engine calls decided (``|v| >= KNOWN_WIN / 2``, a race won or a win
found) carry no information on the scale and are left out of the fit, but counted in every check.
On the held-out games it prints the Brier score of the fitted curve (and of the curve in
``shared/analysis/calibration.py`` now, and of the fit set's base rate for comparison), the log loss, and
the reliability table: 10 bins of predicted chance of winning, each with its count, mean prediction and the
share of those positions whose side to move won. Last, the lines to write into ``calibration.py``.

Progress goes to stderr; the figures to stdout.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
if str(ROOT / "bench") not in sys.path:            # the worker processes load this module's bots by name
    sys.path.insert(1, str(ROOT / "bench"))

from client.bots import RandomPlayer  # noqa: E402
from client.bots.strong import StrongPlayer  # noqa: E402
from client.match import PlayedGame, run_games  # noqa: E402
from client.match_plan import GameJob, Lineup  # noqa: E402
from client.openings import opening_for  # noqa: E402
from shared.gamelog import GameHeader, GameLog, replay  # noqa: E402
from shared.quoridor import ChessboardChange, Position, Step  # noqa: E402
from shared.referee import RefereeSettings  # noqa: E402

#: This module's name for the worker processes (it runs as ``__main__`` in the one started from the shell).
MODULE = "analysis_calibration"
GAMES = 10_000
QUICK_GAMES = 1_000
POSITIONS = 2
OPENING_PLIES = 4
SEED = 33
#: Every ``HOLD_OUT``-th round of games is held out of the fit (``held_out``).
HOLD_OUT = 5
#: Games with no time limit: the bots' budgets are nodes, and none of them is slow.
SETTINGS = RefereeSettings(time_limit_ms=None)


# -- the bots ----------------------------------------------------------------------------------
class NodeStrong(StrongPlayer):
    """The ``strong`` bot on ``NODES`` nodes a step (its ``nodes`` budget): deterministic, quick when small."""

    NODES = 120

    def __init__(self, key: str = "") -> None:
        super().__init__(key, nodes=self.NODES)


class Strong40(NodeStrong):
    """The engine on 40 nodes a step."""

    NODES = 40


class Strong120(NodeStrong):
    """The engine on 120 nodes a step."""

    NODES = 120


class SeededRandom(RandomPlayer):
    """``random``, its generator seeded at each game's first turn by the position then (after the opening)."""

    def restart(self) -> None:
        """A new game: seed again at its first turn."""
        self.seeded = False

    def next_step(self, change: ChessboardChange) -> Step:
        """As ``random``; the same position after the opening gives the same game."""
        if not getattr(self, "seeded", False):
            pos = self.position
            self.rng = random.Random(f"{pos.pawns}/{pos.h_walls}/{pos.v_walls}/{pos.walls_left}/{pos.turn}")
            self.seeded = True
        return super().next_step(change)


#: The bots of the games, weakest first: (label, spec).
MIX: tuple[tuple[str, str], ...] = (
    ("random", f"{MODULE}:SeededRandom"),
    ("runner", "runner"),
    ("blocker", "blocker"),
    ("defender", "defender"),
    ("strong40n", f"{MODULE}:Strong40"),
    ("strong120n", f"{MODULE}:Strong120"),
)


def lineup_and_pairings() -> tuple[Lineup, list[tuple[int, int]]]:
    """The lineup (each bot but ``random`` twice, as its own opponent) and the 20 pairings, in the order played."""
    labels = [label for label, _ in MIX] + [f"{label}#2" for label, _ in MIX[1:]]
    specs = [spec for _, spec in MIX] + [spec for _, spec in MIX[1:]]
    n = len(MIX)
    pairings = [(a, b) for a in range(n) for b in range(a + 1, n)] + [(a, a + n - 1) for a in range(1, n)]
    return Lineup(tuple(specs), tuple(labels)), pairings


def jobs(games: int, seed: int) -> Iterator[GameJob]:
    """Game ``i``: pairing ``i % 20``, colours swapped every other round, its own opening."""
    _, pairings = lineup_and_pairings()
    for number in range(games):
        swapped = (number // len(pairings)) % 2 == 1
        yield GameJob(number, pairings[number % len(pairings)], number, swapped,
                      opening_for(seed, number, OPENING_PLIES))


def held_out(number: int) -> bool:
    """True for the games kept out of the fit: every ``HOLD_OUT``-th round of the 20 pairings (all of them alike)."""
    return (number // ROUND) % HOLD_OUT == HOLD_OUT - 1


def pairing_of(number: int) -> tuple[str, str]:
    """The labels of game ``number``'s pairing (its first bot first, whatever the colours)."""
    lineup, pairings = lineup_and_pairings()
    a, b = pairings[number % len(pairings)]
    return lineup.labels[a], lineup.labels[b]


#: Games in a round: one of each pairing.
ROUND = len(lineup_and_pairings()[1])


# -- progress ---------------------------------------------------------------------------------
class Progress:
    """One line on stderr, rewritten at most every half second: ``what done/total (rate, elapsed)``."""

    def __init__(self, what: str, total: int, out: TextIO = sys.stderr) -> None:
        self.what, self.total, self.out = what, total, out
        self.start = self.last = time.perf_counter()
        self.done = 0

    def step(self, n: int = 1) -> None:
        """``n`` more done."""
        self.done += n
        now = time.perf_counter()
        if now - self.last >= 0.5 or self.done == self.total:
            self.last = now
            elapsed = now - self.start
            left = elapsed / self.done * (self.total - self.done) if self.done else 0.0
            self.out.write(f"\r{self.what} {self.done:,}/{self.total:,}  {elapsed:6.0f} s, about {left:4.0f} s left ")
            self.out.flush()

    def close(self) -> float:
        """End the line; the seconds since the start."""
        self.out.write("\n")
        self.out.flush()
        return time.perf_counter() - self.start


# -- playing ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Game:
    """A played game: its number, its log, and why it ended."""

    number: int
    log: GameLog


def play(games: int, seed: int, workers: int, *, only: Iterable[int] | None = None,
         stop: Callable[[Game], bool] | None = None) -> list[Game]:
    """Play games ``0 .. games - 1`` of the mix (or those of them in ``only``), ``workers`` at once; returns them in the
    order of their numbers. ``stop(game)`` returning True ends the run after that game."""
    lineup, _ = lineup_and_pairings()
    chosen = None if only is None else set(only)
    todo = [job for job in jobs(games, seed) if chosen is None or job.number in chosen]
    played: list[Game] = []
    progress = Progress("games played", len(todo))

    def take(result: PlayedGame) -> bool:
        game = result.game
        log = GameLog(GameHeader(players=game.players, ruleset=SETTINGS.ruleset.name), game.records, game.outcome)
        played.append(Game(result.job.number, log))
        progress.step()
        return stop is None or not stop(played[-1])

    run_games(lineup, SETTINGS, todo, take, workers=workers)
    progress.close()
    return sorted(played, key=lambda g: g.number)


def sampled_plies(game: Game, positions: int, seed: int) -> list[int]:
    """The plies (1-based rows of the log) whose positions are sampled: ``positions`` of them, seeded by the game."""
    rows = len(game.log.steps)
    rng = random.Random(f"analysis-calibration/{seed}/{game.number}")
    return sorted(rng.sample(range(1, rows + 1), min(positions, rows)))


# -- valuing positions --------------------------------------------------------------------------
@dataclass(frozen=True)
class Sample:
    """A sampled position: its game, its ply, the side to move, the engine's value there, and whether that side won."""

    game: int
    ply: int
    seat: int
    value: int
    won: int


def position_value(pos: Position, nodes: int) -> int:
    """The engine's value of ``pos`` for its side to move, as ``analyse_game`` takes it before a row: a fresh
    ``Searcher`` on ``nodes`` nodes (``+-WIN`` once the game is over). ``check_values`` keeps the two in step."""
    from shared.engine import WIN, Searcher
    winner = pos.winner()
    if winner is not None:
        return WIN if winner == pos.turn else -WIN
    return Searcher().search(pos, nodes=nodes).score


def positions_before(log: GameLog) -> list[Position]:
    """The position before each row of ``log`` (index 0: before ply 1)."""
    game = replay(log)
    before = [Position.initial(game.ruleset)]
    before += [row.position for row in game.steps[:-1]]
    return before


def _value_plies(task: tuple[Game, list[int], int]) -> list[tuple[int, int, int]]:
    """(ply, seat, value) of each sampled ply of a game, in a worker process."""
    game, plies, nodes = task
    before = positions_before(game.log)
    return [(ply, before[ply - 1].turn, position_value(before[ply - 1], nodes)) for ply in plies]


def value_samples(games: Sequence[Game], positions: int, seed: int, nodes: int, workers: int) -> list[Sample]:
    """The samples of every game that ended on the board, valued ``workers`` games at once."""
    tasks = [(g, sampled_plies(g, positions, seed), nodes) for g in games if decided_on_board(g.log)]
    progress = Progress("positions valued", sum(len(plies) for _, plies, _ in tasks))
    samples: list[Sample] = []

    def collect(game: Game, rows: Iterable[tuple[int, int, int]]) -> None:
        winner = game.log.outcome.winner if game.log.outcome is not None else None
        for ply, seat, value in rows:
            samples.append(Sample(game.number, ply, seat, value, int(winner == seat)))
            progress.step()

    if workers == 1:
        for task in tasks:
            collect(task[0], _value_plies(task))
    else:
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
            for task, rows in zip(tasks, pool.map(_value_plies, tasks, chunksize=8)):
                collect(task[0], rows)
    progress.close()
    return samples


def check_values(games: Sequence[Game], nodes: int) -> int:
    """The plies of ``games`` at which ``position_value`` gives ``analyse_game``'s chance before the row; ``ValueError``
    at the first that differs (the analysis then values positions otherwise than this bench: fix the bench)."""
    from shared.analysis import analyse_game, win_chance
    checked = 0
    for game in games:
        analysis = analyse_game(game.log, nodes=nodes)
        for ply, pos in zip(analysis.plies, positions_before(game.log)):
            if ply.seat != pos.turn:
                continue
            mine = round(win_chance(position_value(pos, nodes)), 4)
            if mine != ply.chance_before:
                raise ValueError(f"game {game.number}, ply {ply.ply}: the bench values the position at {mine}, "
                                 f"analyse_game at {ply.chance_before}")
            checked += 1
    return checked


def decided_on_board(log: GameLog) -> bool:
    """True when the game has a winner not decided by the step cap's thinking times."""
    return log.outcome is not None and log.outcome.winner is not None and log.outcome.reason != "step_cap"


# -- the fit and its checks --------------------------------------------------------------------
def decided(value: int) -> bool:
    """True for a value the engine gives a decided position: a race won (``KNOWN_WIN`` less the winner's path, at
    least 40,000) or a win found (``WIN`` less the plies); an open race scores at most about 10,000."""
    from shared.engine import KNOWN_WIN
    return abs(value) >= KNOWN_WIN // 2


def chance_of_win(value: float, scale: float, offset: float = 0.0) -> float:
    """``P(win)`` of the side to move under the logistic: ``(1 + win_chance(value)) / 2``."""
    z = (value + offset) / scale
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def _log_likelihood(xs: Sequence[float], ys: Sequence[int], a: float, b: float) -> float:
    total = 0.0
    for x, y in zip(xs, ys):
        z = a * x + b
        total -= math.log1p(math.exp(-z)) + (0.0 if y else z) if z >= 0 else \
            math.log1p(math.exp(z)) - (z if y else 0.0)
    return total


def fit(samples: Sequence[Sample], with_offset: bool) -> tuple[float, float]:
    """The maximum-likelihood ``(scale, offset)`` of the logistic on ``samples`` (offset 0 unless ``with_offset``).

    Newton's method on ``a = 1/scale`` and ``b = offset/scale`` (the log likelihood is concave in them), each step
    halved until the likelihood rises; values in hundreds of units, for a well-conditioned step.
    """
    xs = [s.value / 100.0 for s in samples]
    ys = [s.won for s in samples]
    a, b = 0.25, 0.0
    best = _log_likelihood(xs, ys, a, b)
    for _ in range(100):
        ga = gb = haa = hab = hbb = 0.0
        for x, y in zip(xs, ys):
            p = chance_of_win(a * x + b, 1.0)
            w = p * (1.0 - p)
            ga += (y - p) * x
            gb += y - p
            haa += w * x * x
            hab += w * x
            hbb += w
        det = haa * hbb - hab * hab
        if with_offset and det > 0:
            da, db = (hbb * ga - hab * gb) / det, (haa * gb - hab * ga) / det
        else:
            da, db = (ga / haa if haa > 0 else ga), 0.0
        shrink = 1.0
        while shrink > 1e-6:
            now = _log_likelihood(xs, ys, a + shrink * da, b + shrink * db)
            if now >= best:
                break
            shrink /= 2
        else:
            break
        a, b, best = a + shrink * da, b + shrink * db, now
        if abs(shrink * da) < 1e-9 and abs(shrink * db) < 1e-9:
            break
    if a <= 0:
        raise ValueError("the fit found no positive scale: the values do not predict the results")
    return 100.0 / a, b * 100.0 / a


def brier(samples: Sequence[Sample], predict: Callable[[int], float]) -> float:
    """The mean squared difference between the predicted chance of winning and the result (0 won... 1 lost)."""
    return sum((predict(s.value) - s.won) ** 2 for s in samples) / len(samples)


def log_loss(samples: Sequence[Sample], predict: Callable[[int], float]) -> float:
    """The mean negative log likelihood of the results (predictions clipped to 1e-6..1-1e-6)."""
    total = 0.0
    for s in samples:
        p = min(max(predict(s.value), 1e-6), 1 - 1e-6)
        total -= math.log(p if s.won else 1 - p)
    return total / len(samples)


def reliability(samples: Sequence[Sample], predict: Callable[[int], float],
                bins: int = 10) -> list[tuple[float, float, int, float, float]]:
    """Per bin of predicted chance of winning: (low, high, count, mean predicted, observed share won)."""
    sums = [[0, 0.0, 0] for _ in range(bins)]
    for s in samples:
        p = predict(s.value)
        row = sums[min(int(p * bins), bins - 1)]
        row[0] += 1
        row[1] += p
        row[2] += s.won
    return [(i / bins, (i + 1) / bins, int(n), mean / n if n else math.nan, won / n if n else math.nan)
            for i, (n, mean, won) in enumerate(sums)]


# -- the samples on disk -------------------------------------------------------------------------
def save_samples(path: Path, samples: Sequence[Sample], meta: dict[str, object]) -> None:
    """Write the samples as JSON lines, the first line the run's settings."""
    with path.open("w") as out:
        out.write(json.dumps(meta) + "\n")
        for s in samples:
            out.write(json.dumps([s.game, s.ply, s.seat, s.value, s.won]) + "\n")


def load_samples(path: Path) -> tuple[dict[str, object], list[Sample]]:
    """The settings and samples ``save_samples`` wrote; ``ValueError`` (one line) for another file."""
    try:
        lines = path.read_text().splitlines()
        meta = json.loads(lines[0])
        samples = [Sample(*json.loads(line)) for line in lines[1:] if line.strip()]
    except (OSError, IndexError, TypeError, ValueError) as exc:
        raise ValueError(f"{path}: not a samples file of this bench ({exc})") from None
    if not isinstance(meta, dict):
        raise ValueError(f"{path}: not a samples file of this bench (no settings line)")
    return meta, samples


# -- the report ---------------------------------------------------------------------------------
def report(samples: Sequence[Sample], meta: dict[str, object], out: TextIO = sys.stdout) -> float:
    """Fit, check on the held-out games and print; returns the fitted scale."""
    from shared.analysis import ENGINE_VERSION
    from shared.analysis.calibration import CHANCE_SCALE

    fit_set = [s for s in samples if not held_out(s.game)]
    test_set = [s for s in samples if held_out(s.game)]
    fit_open = [s for s in fit_set if not decided(s.value)]
    games_fit = len({s.game for s in fit_set})
    games_test = len({s.game for s in test_set})
    print(f"samples: {len(samples):,} positions of {games_fit + games_test:,} games ({meta.get('positions')} a game); "
          f"fit on {len(fit_open):,} undecided positions of {games_fit:,} games "
          f"({len(fit_set) - len(fit_open):,} decided left out), checked on {len(test_set):,} positions of "
          f"{games_test:,} held-out games", file=out)
    scale, _ = fit(fit_open, with_offset=False)
    scale2, offset2 = fit(fit_open, with_offset=True)
    base = sum(s.won for s in fit_set) / len(fit_set)

    def curve(sc: float, off: float = 0.0) -> Callable[[int], float]:
        return lambda v: chance_of_win(v, sc, off)

    rows = [
        (f"fitted: scale {scale:.1f}", curve(scale)),
        (f"fitted with offset: scale {scale2:.1f}, offset {offset2:+.1f}", curve(scale2, offset2)),
        (f"calibration.py now: scale {CHANCE_SCALE:g}", curve(CHANCE_SCALE)),
        (f"base rate: {base:.3f} won, whatever the value", lambda v: base),
    ]
    test_open = [s for s in test_set if not decided(s.value)]
    print(f"\nheld-out games ({ENGINE_VERSION}, {meta.get('nodes')} nodes a position):", file=out)
    print(f"  {'curve':<48} {'Brier':>7} {'undecided':>10} {'log loss':>9}", file=out)
    for name, predict in rows:
        print(f"  {name:<48} {brier(test_set, predict):7.4f} {brier(test_open, predict):10.4f} "
              f"{log_loss(test_set, predict):9.4f}", file=out)
    print(f"  (Brier: all {len(test_set):,} held-out positions; 'undecided': the {len(test_open):,} the engine "
          "does not call decided)", file=out)
    print(f"\nreliability, held-out games, fitted scale {scale:.1f} (chance of winning = (1 + win_chance) / 2):",
          file=out)
    print(f"  {'predicted':<11} {'count':>7} {'mean predicted':>15} {'observed':>9}", file=out)
    for low, high, n, mean, won in reliability(test_set, curve(scale)):
        shown = f"{mean:15.3f} {won:9.3f}" if n else f"{'-':>15} {'-':>9}"
        print(f"  {low:.1f}-{high:.1f}    {n:7,} {shown}", file=out)
    decided_test = [s for s in test_set if decided(s.value)]
    if decided_test:
        right = sum(1 for s in decided_test if (s.value > 0) == bool(s.won))
        print(f"\ndecided positions held out: {len(decided_test):,}, the engine's side won {right:,} "
              f"({100 * right / len(decided_test):.1f}%)", file=out)
    print("\nthe scale fitted on some of the games only (the mix decides it: a weaker bot loses even positions):",
          file=out)
    groups = (
        ("like against like: each bot against itself", lambda a, b: b == f"{a}#2"),
        ("bots that place walls (no random, no runner)", lambda a, b: "random" not in a + b and "runner" not in a + b),
        ("the engine's bots against each other", lambda a, b: a.startswith("strong") and b.startswith("strong")),
        ("a bot of the mix against a stronger one", lambda a, b: b != f"{a}#2"),
    )
    for name, chosen in groups:
        subset = [s for s in fit_open if chosen(*pairing_of(s.game))]
        if len(subset) >= 50:
            print(f"  {name:<48} scale {fit(subset, with_offset=False)[0]:7.1f} ({len(subset):,} positions)", file=out)
    gain = log_loss(test_set, curve(scale)) - log_loss(test_set, curve(scale2, offset2))
    print(f"\nthe offset improves the held-out log loss by {gain:.4f} "
          f"({'worth a second constant' if gain > 0.002 else 'not worth a second constant'})", file=out)
    print(f"\nfor shared/analysis/calibration.py: CHANCE_SCALE = {scale:.0f}.0", file=out)
    return scale


def main(argv: Sequence[str] | None = None) -> int:
    """Play, sample, value, fit and print (see the module docstring)."""
    p = argparse.ArgumentParser(description="Fit and check the analysis's curve from engine value to winning chance "
                                            "on games between the built-in bots.")
    p.add_argument("--games", type=int, default=None,
                   help=f"games to play (default {GAMES:,}; --quick {QUICK_GAMES:,})")
    p.add_argument("--quick", action="store_true", help=f"{QUICK_GAMES:,} games: a few minutes")
    p.add_argument("--positions", type=int, default=POSITIONS, help=f"positions sampled a game (default {POSITIONS})")
    p.add_argument("--nodes", type=int, default=None, help="nodes a position (default: the analysis's DEFAULT_NODES)")
    p.add_argument("-j", "--jobs", type=int, default=2, help="worker processes (default 2)")
    p.add_argument("--seed", type=int, default=SEED, help=f"seed of the openings and samples (default {SEED})")
    p.add_argument("--samples", type=Path, help="write the valued samples to this file (JSON lines)")
    p.add_argument("--from-samples", type=Path, help="fit on the samples of a file written by --samples; play nothing")
    args = p.parse_args(argv)
    if args.jobs < 1 or args.positions < 1 or (args.games is not None and args.games < HOLD_OUT):
        p.error(f"--jobs and --positions must be at least 1, --games at least {HOLD_OUT}")
    if args.from_samples is not None:
        try:
            meta, samples = load_samples(args.from_samples)
        except ValueError as exc:
            p.error(str(exc))
        print(f"samples from {args.from_samples}: {meta}")
        report(samples, meta)
        return 0

    from shared.analysis import DEFAULT_NODES, ENGINE_VERSION
    games = args.games or (QUICK_GAMES if args.quick else GAMES)
    nodes = args.nodes or DEFAULT_NODES
    started = time.perf_counter()
    played = play(games, args.seed, args.jobs)
    generation = time.perf_counter() - started
    cap = sum(1 for g in played if not decided_on_board(g.log))
    plies = sum(len(g.log.steps) for g in played)
    print(f"generation: {games:,} games, {plies:,} plies, in {generation:.0f} s on {args.jobs} worker(s) "
          f"({cap} ended without a winner on the board, left out)")
    started = time.perf_counter()
    samples = value_samples(played, args.positions, args.seed, nodes, args.jobs)
    valuing = time.perf_counter() - started
    print(f"valuing: {len(samples):,} positions at {nodes:,} nodes in {valuing:.0f} s on {args.jobs} worker(s) "
          f"({1000 * valuing * args.jobs / max(len(samples), 1):.0f} ms a position of one core)")
    try:
        agreed = check_values([g for g in played if decided_on_board(g.log)][:2], nodes)
    except ValueError as exc:
        print(f"the bench's values are not the analysis's: {exc}", file=sys.stderr)
        return 1
    print(f"values as analyse_game's: checked on {agreed} plies of 2 games")
    meta = {"games": games, "positions": args.positions, "nodes": nodes, "seed": args.seed, "engine": ENGINE_VERSION,
            "date": datetime.now(UTC).date().isoformat()}
    if args.samples is not None:
        save_samples(args.samples, samples, meta)
        print(f"samples written to {args.samples}")
    report(samples, meta)
    return 0


if __name__ == "__main__":
    sys.exit(main())

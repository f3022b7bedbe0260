"""The built-in bots' reference ratings on the ladder's scale (``random`` = 0): the run behind ``shared.ladder.reference``.

A benchmark, not a test. Run from the repository root::

    .venv/bin/python bench/reference_ratings.py              # the documented run (-g 100 -j 2, about 4 minutes)
    .venv/bin/python bench/reference_ratings.py -g 8         # a quick look
    .venv/bin/python bench/reference_ratings.py --write      # also print the REFERENCE literal to paste

It plays the built-in bots against each other with ``quoridor-match``'s machinery (``client.match.run_games``:
colour-swapped pairs from seeded openings, ``-j`` games at once in worker processes), fits the ladder's
Bradley-Terry model (``shared.ladder.published.published_table``: the penalised fit with 95% profile likelihood
intervals, ``random`` at 0) and prints each bot's rating and interval beside the stored figures of
``shared.ladder.reference`` (FAIL where a stored rating is outside the new interval).

**The ladder's conditions.** The ladder starts each pairing from 4 random pawn moves
(``shared.ladder.openings``); so does this run. It gives 1000 ms a step, and ``strong`` there searches
200 ms a step (its default budget, under 40% of the limit), which depends on the machine and on its load;
here it searches a fixed ``STRONG_NODES`` nodes a step instead (``StrongPlayer(nodes=...)``: the same
search on any machine), the median a 200 ms search reaches on a quiet machine (1,322 nodes, load 0.4).
No other built-in bot looks at the clock, so the referee's is off (``--time-limit 0``'s no limit): on a
loaded machine a 1000 ms limit would add ``late`` violations that the ladder's bots, on a quiet one, do not
commit. The run prints every bot's violations (0 expected).

**A linked chain.** A pair in which one side wins every game says only that the gap is large: the fit's
penalty keeps the rating finite (one virtual draw), but the figure is then the prior's, not the games'.
``random`` loses nearly every game to ``runner`` (it walks at random and places no wall), and ``strong``
beats ``defender`` so. So the run adds *bridges*, bots of graded strength between the references, and plays
each bot against its ``REACH`` nearest neighbours in the chain (weakest first): ``runner`` diluted with
random pawn moves (``DilutedRunner``: 97%, 90%, 75%, 50% and 25% of its steps random) between ``random`` and
``runner``, and ``strong`` at small node budgets (``StrongNodes``: 1, 30 and 300 nodes a step) among
``runner``, ``blocker``, ``defender`` and ``strong``. Every pairing of neighbours then has games won by each
side (the run prints them: a pairing at 0 wins for one side is one the chain does not lean on alone),
so the chain random < ... < strong is linked by games, not by the prior. The bridges are rated, not stored.

The documented run (``REFERENCE_COMMAND``): 13 bots, 33 pairings of 100 games, about 4 minutes with ``-j 2``.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from client.bots import RunnerPlayer, StrongPlayer
from client.match import PlayedGame, run_games
from client.match_plan import GameJob, Lineup, schedule
from shared.quoridor import ChessboardChange, Step
from shared.referee import RefereeSettings

#: Nodes ``strong`` searches a step in the reference run: the median of a 200 ms search on a quiet machine.
STRONG_NODES = 1500
#: Each bot of the chain plays its next ``REACH`` bots.
REACH = 3
#: Random pawn moves each pair of games starts from (the ladder's ``ladder_opening_plies``).
OPENING_PLIES = 4
#: The referee's limit: none (every bot of the run is on no clock; see the module docstring).
TIME_LIMIT_MS: int | None = None
SEED = 35
GAMES = 100
_ME = Path(__file__).resolve()


class DilutedRunner(RunnerPlayer):
    """``runner`` that plays a random legal pawn move instead of its own step in a share ``RANDOM_SHARE`` of turns."""

    RANDOM_SHARE = 0.5

    def __init__(self, key: str = "") -> None:
        super().__init__(key)
        self.rng = random.Random(f"{type(self).__name__}:{key}")

    def next_step(self, change: ChessboardChange) -> Step:
        """A random legal pawn move at the bot's share, else runner's step."""
        moves = self.position.legal_moves()
        if moves and self.rng.random() < self.RANDOM_SHARE:
            return Step(self.rng.choice(moves))
        return super().next_step(change)


class Runner97(DilutedRunner):
    """``runner`` with 97% of its steps random (a bridge next to ``random``)."""

    RANDOM_SHARE = 0.97


class Runner90(DilutedRunner):
    """``runner`` with 90% of its steps random."""

    RANDOM_SHARE = 0.9


class Runner75(DilutedRunner):
    """``runner`` with 75% of its steps random."""

    RANDOM_SHARE = 0.75


class Runner50(DilutedRunner):
    """``runner`` with half of its steps random."""

    RANDOM_SHARE = 0.5


class Runner25(DilutedRunner):
    """``runner`` with 25% of its steps random (a bridge next to ``runner``)."""

    RANDOM_SHARE = 0.25


class StrongNodes(StrongPlayer):
    """``strong`` searching ``NODES`` nodes a step, on no clock."""

    NODES = STRONG_NODES

    def __init__(self, key: str = "") -> None:
        super().__init__(key, nodes=self.NODES)


class Strong1(StrongNodes):
    """``strong`` at 1 node a step (a bridge next to ``defender``)."""

    NODES = 1


class Strong30(StrongNodes):
    """``strong`` at 30 nodes a step."""

    NODES = 30


class Strong300(StrongNodes):
    """``strong`` at 300 nodes a step (a bridge next to ``strong``)."""

    NODES = 300


#: The chain, weakest first: (label, spec); the references are the built-in bots' names.
CHAIN: tuple[tuple[str, str], ...] = (
    ("random", "random"),
    ("runner-97%-random", f"{_ME}:Runner97"),
    ("runner-90%-random", f"{_ME}:Runner90"),
    ("runner-75%-random", f"{_ME}:Runner75"),
    ("runner-50%-random", f"{_ME}:Runner50"),
    ("runner-25%-random", f"{_ME}:Runner25"),
    ("runner", "runner"),
    ("strong-1-node", f"{_ME}:Strong1"),
    ("blocker", "blocker"),
    ("defender", "defender"),
    ("strong-30-nodes", f"{_ME}:Strong30"),
    ("strong-300-nodes", f"{_ME}:Strong300"),
    ("strong", f"{_ME}:StrongNodes"),
)
REFERENCES = ("random", "runner", "blocker", "defender", "strong")


def chain_pairings(bots: int, reach: int = REACH) -> list[tuple[int, int]]:
    """Each bot of the chain against the next ``reach`` ones: (0, 1), (0, 2), (1, 2), ..."""
    return [(a, b) for a in range(bots) for b in range(a + 1, min(a + reach + 1, bots))]


def load_average() -> str:
    """The 1-minute load average, as every figure is reported beside it."""
    return f"{os.getloadavg()[0]:.2f}"


def main(argv: Sequence[str] | None = None) -> int:
    """Play the chain, print the figures beside the stored ones (and with ``--write`` the literal); 1 if one is off."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-g", "--games", type=int, default=GAMES, help=f"games per pairing (default {GAMES})")
    parser.add_argument("-j", "--jobs", type=int, default=2, help="games at once (default 2)")
    parser.add_argument("--reach", type=int, default=REACH, help=f"each bot plays the next REACH in the chain "
                        f"(default {REACH})")
    parser.add_argument("--seed", type=int, default=SEED, help=f"seed of the openings (default {SEED})")
    parser.add_argument("--write", action="store_true", help="also print the REFERENCE literal of "
                        "shared/ladder/reference.py for these figures (to paste; no file is changed)")
    args = parser.parse_args(argv)
    if args.games < 2 or args.jobs < 1:
        parser.error("--games must be at least 2 (a colour-swapped pair) and --jobs at least 1")

    from shared.ladder.published import published_table
    from shared.ladder.reference import REFERENCE, REFERENCE_COMMAND

    labels = tuple(label for label, _ in CHAIN)
    lineup = Lineup(tuple(spec for _, spec in CHAIN), labels)
    settings = RefereeSettings(time_limit_ms=TIME_LIMIT_MS)
    pairings = chain_pairings(len(CHAIN), args.reach)
    jobs: list[GameJob] = list(schedule(pairings, args.games, seed=args.seed, opening_plies=OPENING_PLIES,
                                        opening_walls=False))
    games: list[tuple[str, str, float]] = []
    violations = dict.fromkeys(labels, 0)
    load_before = load_average()
    started = time.perf_counter()

    def take(played: PlayedGame) -> bool:
        seats = played.job.seats
        winner = played.game.outcome.winner
        for seat, count in enumerate(played.game.outcome.violations):
            violations[labels[seats[seat]]] += count
        games.append((labels[seats[0]], labels[seats[1]], 0.5 if winner is None else float(winner == 0)))
        if len(games) % 20 == 0 or len(games) == len(jobs):
            print(f"\r{len(games)} of {len(jobs)} games", end="", file=sys.stderr, flush=True)
        return True

    run_games(lineup, settings, jobs, take, workers=args.jobs)
    elapsed = time.perf_counter() - started
    print(file=sys.stderr)
    print(f"{len(jobs)} games ({len(pairings)} pairings x {args.games}, openings of {OPENING_PLIES} pawn plies, seed "
          f"{args.seed}, no time limit, strong at {STRONG_NODES} nodes a step) in {elapsed:.0f} s with -j "
          f"{args.jobs}; load average {load_before} before, {load_average()} after")
    print("violations: " + (", ".join(f"{label} {n}" for label, n in violations.items() if n) or "none"))
    print("\nresults per pairing (first bot's W/L/D):")
    for a, b in pairings:
        w = l_ = d = 0
        for white, black, points in games:
            if {white, black} != {labels[a], labels[b]}:
                continue
            mine = points if white == labels[a] else 1 - points
            w, l_, d = w + (mine == 1), l_ + (mine == 0), d + (mine == 0.5)
        print(f"  {labels[a]:>18} v {labels[b]:<18} {w}/{l_}/{d}")

    rows = published_table(labels, games, anchor="random")
    stored = {ref.bot: ref for ref in REFERENCE}
    print(f"\n{'bot':>18} {'rating':>7} {'95% interval':>18} {'stored':>7}  check")
    failed = False
    for row in rows:
        assert row.rating is not None and row.low is not None and row.high is not None
        ref = stored.get(row.track)
        check = ""
        if ref is not None:
            ok = row.low <= ref.rating <= row.high
            failed |= not ok
            check = "ok (stored inside the interval)" if ok else "FAIL (stored outside the interval)"
        else:
            check = "(a bridge: not stored)"
        print(f"{row.track:>18} {row.rating:+7.0f} {f'[{row.low:+.0f}, {row.high:+.0f}]':>18} "
              f"{'' if ref is None else f'{ref.rating:+.0f}':>7}  {check}")
    print(f"\nstored figures made by: {REFERENCE_COMMAND}")
    if args.write:
        today = datetime.now(UTC).date().isoformat()
        print("\n# the literal for shared/ladder/reference.py:")
        command = " ".join(["bench/reference_ratings.py", *(a for a in (argv or sys.argv[1:]) if a != "--write")])
        print(f'REFERENCE_COMMAND = "{command} ({today}, load {load_before})"')
        print("REFERENCE: tuple[ReferenceRating, ...] = (")
        for row in reversed(rows):                          # weakest first
            if row.track in REFERENCES:
                print(f'    ReferenceRating("{row.track}", {row.rating:.0f}, {row.low:.0f}, {row.high:.0f}),')
        print(")")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

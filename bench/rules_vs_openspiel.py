"""Our rules core (``shared.quoridor.Position``, standard rules) against OpenSpiel's C++ Quoridor from Python.

The baseline of issue 34. A benchmark, not a test. Run from the repository root::

    .venv/bin/python bench/rules_vs_openspiel.py           # about 20 s on 2 cores
    .venv/bin/python bench/rules_vs_openspiel.py --quick   # about 2 s

OpenSpiel is an optional bench dependency (``.venv/bin/pip install open_spiel``); without it the
bench prints our figures alone with a note. OpenSpiel's game is ``quoridor`` with
``board_size=9, players=2, wall_count=10``; ours is ``Position.initial(STANDARD)``.

Measures (every random choice from ``random.Random`` with a fixed seed; the two implementations
interleaved round by round, which goes first alternating; the figure is the median round):

1. the complete legal-step list (``legal_steps()`` / ``legal_actions()``) on 200 mid-game
   positions (>= 4 walls down, the side to move still holding walls) reached by seeded random
   play (``bench/rules_core.py``'s recording policy and criterion). The same positions in
   both: each game is played in both implementations, step by step, and at every recorded
   position both legal lists must name the same steps. Each timed call is on a position freshly
   made by ``apply`` from its parent (made, untimed, just before the timed sweep), so no cache can
   answer the same position twice;
2. the legal-step list at the start position (a fresh start position for every call);
3. uniform random playouts: choose uniformly from the legal list, apply, until a win (games
   capped at OpenSpiel's 324 plies, the same cap for both): games/s.

Target (issue 34): ours / OpenSpiel >= 1.0x on each.

Figures (``bench/README.md`` has the tables): the baseline 0.29x mid-game, 0.73x at the start and 0.25x
for playouts (quiet machine). With issue 34's rules work (positions share their walls, carry each pawn's
path forward, check a closing wall at the path edge it cuts; ``shared/quoridor/walls.py``) 0.91-1.12x,
2.2-2.8x and 0.58-0.65x in runs at load 3-5 on 2 cores: the start and mid-game lists reach the target,
the playouts do not (their wall-placing plies, 20 a game, cost about half their time). With the slots
known to shut a pawn in carried to the next wall's board, the ways round a wall's near end and the
start's paths: 0.99-1.08x, 2.4-2.7x and 0.70-0.75x (load 3.7-4.5), the playouts still short of the target.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rules_core import MIN_WALLS_ON_BOARD, SET_SEED, policy_step  # bench/, beside this script
from shared.quoridor import Position, Step, step_name
from shared.quoridor.rulesets import STANDARD

TARGET_RATIO = 1.0
PLY_CAP = 324            # OpenSpiel's max_game_length() for a 9x9 board: its games end there
START_CHUNK = 5_000      # fresh start positions made (untimed) at a time
PLAYOUT_SEED = 12345
OPENSPIEL_PARAMS = {"board_size": 9, "players": 2, "wall_count": 10}
INSTALL_HINT = ("OpenSpiel is not installed, our figures alone: .venv/bin/pip install open_spiel "
                "to measure it side by side")


@dataclass(frozen=True)
class Config:
    """How much work each section does (full or quick)."""

    positions: int      # size of the mid-game set
    rounds: int         # interleaved rounds per measure
    passes: int         # sweeps over the mid-game set per round (each on fresh children)
    start_calls: int    # start-position calls per round
    playout_games: int  # playouts per round


FULL = Config(positions=200, rounds=9, passes=50, start_calls=50_000, playout_games=1_000)
QUICK = Config(positions=200, rounds=3, passes=10, start_calls=10_000, playout_games=150)


# -- OpenSpiel (optional) ----------------------------------------------------------------------
def load_openspiel() -> Any | None:
    """OpenSpiel's 9x9 two-player Quoridor game, or None when ``pyspiel`` is not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    stderr = os.dup(2)  # pyspiel warns on stderr that its quoridor "has known issues"; keep the output clean
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
            return pyspiel.load_game("quoridor", OPENSPIEL_PARAMS)
    finally:
        os.dup2(stderr, 2)
        os.close(stderr)


def openspiel_name(step: Step) -> str:
    """OpenSpiel's name of our step: its rows count from the other side (our e1 is its e9)."""
    name = step_name(step)
    col, rest = name[0], name[1:]
    if rest[-1] in "hv":
        return f"{col}{9 - int(rest[:-1])}{rest[-1]}"
    return f"{col}{10 - int(rest)}"


def openspiel_actions(state: Any) -> dict[str, int]:
    """OpenSpiel's legal actions of ``state`` by name."""
    player = state.current_player()
    return {state.action_to_string(player, a): a for a in state.legal_actions()}


# -- the mid-game set ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Sample:
    """A recorded position, as its parent and the step leading to it, in both implementations."""

    parent: Position
    step: Step
    os_parent: Any | None
    os_action: int


def mid_game_set(count: int, game: Any | None) -> list[Sample]:
    """``count`` positions with >= 4 walls down, the side to move holding walls, from seeded games
    (``rules_core``'s policy), each game mirrored in OpenSpiel with both legal lists compared at every ply."""
    found: list[Sample] = []
    seed = SET_SEED
    while len(found) < count:
        rng = random.Random(seed)
        seed += 1
        pos, state = Position.initial(STANDARD), game.new_initial_state() if game else None
        candidates: list[Sample] = []
        for _ in range(PLY_CAP):
            if pos.is_over():
                break
            steps = pos.legal_steps()
            step = policy_step(pos, rng)
            os_action = -1
            if state is not None:
                actions = openspiel_actions(state)
                ours = {openspiel_name(s) for s in steps}
                if ours != set(actions):
                    raise SystemExit(f"the two rule sets disagree (seed {seed - 1}): "
                                     f"ours only {sorted(ours - set(actions))}, OpenSpiel's only "
                                     f"{sorted(set(actions) - ours)}")
                os_action = actions[openspiel_name(step)]
            child = pos.apply(step)
            if len(child.walls) >= MIN_WALLS_ON_BOARD and child.walls_left[child.turn] > 0 and not child.is_over():
                candidates.append(Sample(pos, step, state.clone() if state is not None else None, os_action))
            pos = child
            if state is not None:
                state.apply_action(os_action)
        found += rng.sample(candidates, min(4, len(candidates)))
    return found[:count]


# -- the timed sections -----------------------------------------------------------------------------
def ours_mid_game(samples: Sequence[Sample], passes: int) -> float:
    """``legal_steps()`` calls/s on fresh children of the samples' parents (children made untimed)."""
    elapsed = 0.0
    for _ in range(passes):
        children = [s.parent.apply(s.step) for s in samples]
        t0 = time.perf_counter()
        for pos in children:
            pos.legal_steps()
        elapsed += time.perf_counter() - t0
    return passes * len(samples) / elapsed


def os_mid_game(samples: Sequence[Sample], passes: int) -> float:
    """OpenSpiel ``legal_actions()`` calls/s on fresh children (clone + apply_action, untimed)."""
    elapsed = 0.0
    for _ in range(passes):
        children = []
        for s in samples:
            child = s.os_parent.clone()
            child.apply_action(s.os_action)
            children.append(child)
        t0 = time.perf_counter()
        for state in children:
            state.legal_actions()
        elapsed += time.perf_counter() - t0
    return passes * len(samples) / elapsed


def ours_start(calls: int) -> float:
    """``legal_steps()`` calls/s at the start position, a fresh one each call (made untimed)."""
    elapsed = 0.0
    for _ in range(calls // START_CHUNK):
        fresh = [Position.initial(STANDARD) for _ in range(START_CHUNK)]
        t0 = time.perf_counter()
        for pos in fresh:
            pos.legal_steps()
        elapsed += time.perf_counter() - t0
    return calls // START_CHUNK * START_CHUNK / elapsed


def os_start(game: Any, calls: int) -> Callable[[], float]:
    """OpenSpiel ``legal_actions()`` calls/s at the start position, a fresh state each call."""
    def run() -> float:
        """One round."""
        elapsed = 0.0
        for _ in range(calls // START_CHUNK):
            fresh = [game.new_initial_state() for _ in range(START_CHUNK)]
            t0 = time.perf_counter()
            for state in fresh:
                state.legal_actions()
            elapsed += time.perf_counter() - t0
        return calls // START_CHUNK * START_CHUNK / elapsed
    return run


def ours_playouts(games: int, seed: int) -> tuple[float, float]:
    """Uniform random playouts from the start: (games/s, plies per game)."""
    rng = random.Random(seed)
    choice = rng.choice
    plies = 0
    t0 = time.perf_counter()
    for _ in range(games):
        pos = Position.initial(STANDARD)
        for _ in range(PLY_CAP):
            if pos.is_over():
                break
            pos = pos.apply(choice(pos.legal_steps()))
            plies += 1
    return games / (time.perf_counter() - t0), plies / games


def os_playouts(game: Any, games: int, seed: int) -> tuple[float, float]:
    """OpenSpiel's uniform random playouts from the start: (games/s, plies per game)."""
    rng = random.Random(seed)
    choice = rng.choice
    plies = 0
    t0 = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(choice(state.legal_actions()))
            plies += 1
    return games / (time.perf_counter() - t0), plies / games


def interleave(ours: Callable[[], float], theirs: Callable[[], float] | None, rounds: int) -> tuple[float, float | None]:
    """Median rate of each over ``rounds`` rounds, the two alternating which goes first."""
    a: list[float] = []
    b: list[float] = []
    for r in range(rounds):
        order = [(ours, a), (theirs, b)] if r % 2 == 0 else [(theirs, b), (ours, a)]
        for run, out in order:
            if run is not None:
                out.append(run())
    return statistics.median(a), statistics.median(b) if b else None


def main(argv: Sequence[str] | None = None) -> int:
    """Print the three measures, ours against OpenSpiel's, with the ratio and the target."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds and calls (about 2 s)")
    args = parser.parse_args(argv)
    cfg = QUICK if args.quick else FULL

    game = load_openspiel()
    print(f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.2f}; standard rules; {'quick' if args.quick else 'full'} run")
    if game is None:
        print(INSTALL_HINT)
    samples = mid_game_set(cfg.positions, game)
    walls = statistics.mean(len(s.parent.apply(s.step).walls) for s in samples)
    agree = "; both legal lists name the same steps at every ply of the recording games" if game else ""
    print(f"mid-game set: {len(samples)} positions, {walls:.1f} walls down on average{agree}")
    print(f"{cfg.rounds} interleaved rounds a measure; {cfg.passes} sweeps of fresh positions a round, "
          f"{cfg.start_calls:,} start calls, {cfg.playout_games:,} playouts")

    rows: list[tuple[str, float, float | None, str]] = []
    ours, theirs = interleave(lambda: ours_mid_game(samples, cfg.passes),
                              (lambda: os_mid_game(samples, cfg.passes)) if game else None, cfg.rounds)
    rows.append((f"legal-step list, {len(samples)} mid-game positions", ours, theirs, "calls/s"))
    ours, theirs = interleave(lambda: ours_start(cfg.start_calls),
                              os_start(game, cfg.start_calls) if game else None, cfg.rounds)
    rows.append(("legal-step list, start position", ours, theirs, "calls/s"))
    plies: dict[str, float] = {}

    def ours_play() -> float:
        """One round of our playouts."""
        rate, plies["ours"] = ours_playouts(cfg.playout_games, PLAYOUT_SEED)
        return rate

    def os_play() -> float:
        """One round of OpenSpiel's playouts."""
        rate, plies["openspiel"] = os_playouts(game, cfg.playout_games, PLAYOUT_SEED)
        return rate

    ours, theirs = interleave(ours_play, os_play if game else None, cfg.rounds)
    rows.append(("uniform random playouts", ours, theirs, "games/s"))

    print()
    print(f"{'measure':<44} {'ours':>12} {'OpenSpiel':>12} {'ratio':>7}  target")
    worst = None
    for label, mine, other, unit in rows:
        if other is None:
            print(f"{label:<44} {mine:>12,.0f} {'-':>12} {'-':>7}  >= {TARGET_RATIO:.1f}x ({unit})")
            continue
        ratio = mine / other
        worst = ratio if worst is None else min(worst, ratio)
        verdict = "ok" if ratio >= TARGET_RATIO else "below"
        print(f"{label:<44} {mine:>12,.0f} {other:>12,.0f} {ratio:>6.2f}x  >= {TARGET_RATIO:.1f}x ({unit}) {verdict}")
    print("plies per playout: " + ", ".join(f"{k} {v:.0f}" for k, v in plies.items())
          + f" (cap {PLY_CAP}" + ("; same seed, but the lists' orders differ, so not the same games)" if game else ")"))
    print(f"load after the run {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Speed and sensitivity of the analysis of a game (``shared.analysis.analyse_game``). Not a test.

Run from the repository root::

    .venv/bin/python bench/analysis_speed.py            # every section (a few minutes on 2 quiet cores)
    .venv/bin/python bench/analysis_speed.py --quick    # fewer cases and games (about a minute)
    .venv/bin/python bench/analysis_speed.py --sections gs

Sections, each printed against its target (issue 33):

* g: one 60-ply game (the first 60 rows of a game of the calibration's mix, ``analysis_calibration.py``, that
  lasted longer) analysed at the default budget (``DEFAULT_NODES``) in one process: the best of 3 runs, in CPU
  seconds of this process (wall seconds beside them: on a busy machine they are longer). Target <= 3 s.
* t: a class tournament's 120 logs (six rounds of the mix's 20 pairings, written as CSV logs to a temporary
  folder) analysed 2 at a time: with ``quoridor-analyse FOLDER -j 2`` when that command is installed, else by
  the library in a pool of 2 processes (the line says which); wall seconds. Target <= 180 s.
* s: sensitivity. Positions found in games of the mix's bots that place walls (600 games of its 10 pairings
  of blocker, defender, strong40n and strong120n; 100 with ``--quick``), and the step row after them replaced
  by one that throws a won game away; the log up to that row is analysed and its last row must be labelled a
  blunder in >= 95% of the cases. Two kinds of case, the game's first one at most, 100 of each kind at most
  (20 with ``--quick``):

  - *wins at once*: the side to move has a move to its goal row, the other pawn is one step from its own, and
    the row played is another step (a pawn move or a wall, drawn at random) after which the other pawn has a
    winning move;
  - *race won*: neither side has a wall left, the side to move's race is won (``won_race``: its path a step
    shorter than the other's) and the row played is a pawn move that lengthens its path by one step. Where the
    pawns meet, a jump can make such a move the best there is, so each case is proved by a search over the
    pawn moves (``forced_win``): the mover won for certain before the row, and the other side wins for
    certain after it.

  Then the blunder rate of the built-in ``strong`` bot against itself (its default settings, the local
  match's 1 s limit, seeded 4-ply openings, 2 games at once): the share of its steps the analysis labels a
  blunder (and a mistake, an inaccuracy). No target but "rare".

Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(1, str(ROOT / "bench"))

from analysis_calibration import Game, Progress, lineup_and_pairings, play  # noqa: E402
from client.logfiles import write_log_atomic  # noqa: E402
from client.match import PlayedGame, run_games  # noqa: E402
from client.match_plan import GameJob, Lineup  # noqa: E402
from client.openings import opening_for  # noqa: E402
from shared.analysis import DEFAULT_NODES, ENGINE_VERSION, GameAnalysis, analyse_game  # noqa: E402
from shared.engine import won_race  # noqa: E402
from shared.gamelog import GameHeader, GameLog, StepRecord, read_log_data, replay  # noqa: E402
from shared.quoridor import GameStatus, Position, Step  # noqa: E402
from shared.referee import RefereeSettings  # noqa: E402

TARGET_GAME_S = 3.0
TARGET_TOURNAMENT_S = 180.0
TARGET_BLUNDER_SHARE = 0.95
GAME_PLIES = 60
TOURNAMENT_GAMES = 120
#: The openings' seed: other games than the calibration's (seed 33).
SEED = 3301
#: The mix's bots that place walls, by label: the sensitivity's games are theirs.
WALL_BOTS = ("blocker", "defender", "strong40n", "strong120n")


def mark(ok: bool) -> str:
    """``PASS``/``FAIL`` against a target."""
    return "PASS" if ok else "FAIL"


def load() -> str:
    """The machine's load averages (1, 5, 15 minutes) and its cores, for the record."""
    one, five, fifteen = os.getloadavg()
    return f"load {one:.1f} {five:.1f} {fifteen:.1f} on {os.cpu_count()} cores"


# -- g: one game ------------------------------------------------------------------------------
def sixty_ply_log(seed: int) -> GameLog:
    """The first ``GAME_PLIES`` rows of the first game of the mix that lasted longer (an unfinished log)."""
    for game in play(200, seed, 1, stop=lambda g: len(g.log.steps) > GAME_PLIES):
        if len(game.log.steps) > GAME_PLIES:
            return GameLog(game.log.header, game.log.steps[:GAME_PLIES], None)
    raise RuntimeError(f"no game of the mix lasted {GAME_PLIES} plies")


def section_game() -> None:
    """One 60-ply game analysed at the default budget, best of 3 (CPU seconds of this process)."""
    log = sixty_ply_log(SEED)
    cpu: list[float] = []
    wall: list[float] = []
    for _ in range(3):
        c, w = time.process_time(), time.perf_counter()
        analysis = analyse_game(log)
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
    best = min(cpu)
    print(f"g  a {GAME_PLIES}-ply game at {DEFAULT_NODES} nodes ({len(analysis.plies)} plies analysed): "
          f"{best:.2f} s CPU (best of 3; wall {min(wall):.2f} s)  target <= {TARGET_GAME_S:.0f} s  "
          f"{mark(best <= TARGET_GAME_S)}")


# -- t: a class tournament --------------------------------------------------------------------
def _analyse_file(path: Path) -> int:
    """Analyse one log file (in a worker process); its plies."""
    log = read_log_data(path.read_bytes(), path.name)
    return len(analyse_game(log).plies)


def _children_cpu() -> float:
    """CPU seconds (user and system) of this process's children that have ended (and of theirs)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def section_tournament(games: int) -> None:
    """``games`` logs of the mix in a folder, analysed 2 at a time (``quoridor-analyse`` or a pool)."""
    played = play(games, SEED, 2)
    plies = sum(len(g.log.steps) for g in played)
    command = shutil.which("quoridor-analyse", path=str(ROOT / ".venv" / "bin"))
    with tempfile.TemporaryDirectory(prefix="analysis-bench-") as folder:
        for game in played:
            write_log_atomic(Path(folder) / f"game{game.number + 1:03d}.csv", game.log)
        before = load()
        cpu_before = _children_cpu()
        started = time.perf_counter()
        if command is not None:
            how = "quoridor-analyse FOLDER -j 2"
            done = subprocess.run([command, folder, "-j", "2"], stdout=subprocess.DEVNULL, check=False)
            if done.returncode != 0:
                print(f"t  quoridor-analyse exited with status {done.returncode}")
                return
        else:
            how = "the library, 2 processes (quoridor-analyse is not installed)"
            paths = sorted(Path(folder).glob("*.csv"))
            progress = Progress("logs analysed", len(paths))
            with ProcessPoolExecutor(2, mp_context=get_context("spawn")) as pool:
                for _ in pool.map(_analyse_file, paths):
                    progress.step()
            progress.close()
        took = time.perf_counter() - started
        cpu = _children_cpu() - cpu_before
    print(f"t  {games} logs, {plies:,} plies, by {how}: {took:.0f} s ({before} at the start)  "
          f"target <= {TARGET_TOURNAMENT_S:.0f} s  {mark(took <= TARGET_TOURNAMENT_S)}")
    print(f"t  the analysing processes' CPU: {cpu:.0f} s, so about {cpu / 2:.0f} s on 2 cores left to them")


# -- s: sensitivity -----------------------------------------------------------------------------
def _winning_moves(pos: Position) -> list[Step]:
    """The side to move's pawn moves that reach its goal row."""
    return [Step(loc) for loc in pos.legal_moves() if pos.apply(Step(loc)).winner() == pos.turn]


def _throws_win(pos: Position, rng: random.Random) -> Step | None:
    """A step other than a win after which the other side wins at once, when ``pos`` is a *wins at once* case."""
    if not _winning_moves(pos) or pos.distance(1 - pos.turn) != 1:
        return None
    moves = [Step(loc) for loc in pos.legal_moves()]
    walls = [Step(new_wall=wall) for wall in pos.legal_walls()] if pos.walls_left[pos.turn] else []
    kinds = []
    for kind in (moves, walls):
        losing = [s for s in kind if pos.apply(s).winner() is None and _winning_moves(pos.apply(s))]
        if losing:
            kinds.append(losing)
    return rng.choice(rng.choice(kinds)) if kinds else None


def forced_win(pos: Position, seat: int, plies: int, memo: dict[tuple[Position, int], bool]) -> bool:
    """True when ``seat`` reaches its goal within ``plies`` plies whatever the other side does (pawn moves only).

    A proof, never a guess: a line where ``seat``'s path (ignoring the pawns) is longer than its moves left is
    not followed (a jump could beat that bound; such a win is missed, not invented), and a side with no legal
    move proves nothing.
    """
    key = (pos, plies)
    if key in memo:
        return memo[key]
    distance = pos.distance(seat)
    moves_left = (plies + (pos.turn == seat)) // 2
    children = [pos.apply(Step(loc)) for loc in pos.legal_moves()]
    if distance is None or distance > moves_left or not children:
        result = False
    elif pos.turn == seat:
        result = any(c.winner() == seat or forced_win(c, seat, plies - 1, memo) for c in children)
    else:
        result = all(c.winner() is None and forced_win(c, seat, plies - 1, memo) for c in children)
    memo[key] = result
    return result


def _walks_away(pos: Position, rng: random.Random) -> Step | None:
    """A pawn move that lengthens the mover's path by one step, when ``pos`` is a *race won* case it then loses.

    The race must be won for certain before the move and lost for certain after it (``forced_win`` both
    ways): where the pawns meet, a jump can make walking away the best step there is.
    """
    me, other = pos.turn, 1 - pos.turn
    if pos.walls_left != (0, 0) or not won_race(pos, me):
        return None
    mine, theirs = pos.distance(me), pos.distance(other)
    if mine is None or theirs is None or theirs != mine + 1:     # with more to spare, one step away loses nothing
        return None
    away = [Step(loc) for loc in pos.legal_moves() if pos.apply(Step(loc)).distance(me) == mine + 1]
    rng.shuffle(away)
    for step in away:
        if forced_win(pos, me, 2 * mine - 1, {}) and forced_win(pos.apply(step), other, 2 * theirs - 1, {}):
            return step
    return None


FINDERS = {"wins at once": _throws_win, "race won": _walks_away}


def first_case(game: Game, seed: int) -> tuple[str, GameLog] | None:
    """The log up to the game's first position of a kind, its last row replaced by one that throws the game away."""
    rng = random.Random(f"analysis-sensitivity/{seed}/{game.number}")
    before = Position.initial()
    for index, row in enumerate(replay(game.log).steps):
        for kind, finder in FINDERS.items():
            step = finder(before, rng)
            if step is None:
                continue
            last = game.log.steps[index]
            log = GameLog(game.log.header, [*game.log.steps[:index], StepRecord(last.player, step, GameStatus.OK, 0,
                                                                               last.turn)])
            if not replay(log).problems:
                return kind, log
        before = row.position
    return None


def cases(games: Sequence[Game], seed: int, per_kind: int) -> list[tuple[str, GameLog]]:
    """At most ``per_kind`` cases of each kind, one per game at most, in the games' order."""
    found: list[tuple[str, GameLog]] = []
    counts: Counter[str] = Counter()
    for game in games:
        case = first_case(game, seed)
        if case is not None and counts[case[0]] < per_kind:
            counts[case[0]] += 1
            found.append(case)
    return found


def _last_label(case: tuple[str, GameLog]) -> tuple[str, str | None, float]:
    """The kind of a case and the label and drop the analysis gives its last row (in a worker process)."""
    kind, log = case
    last = analyse_game(log).plies[-1]
    return kind, last.label, last.drop


def section_sensitivity(games: int, per_kind: int, strong_games: int) -> None:
    """The blunders found in the made cases, and the blunder rate of ``strong`` against itself."""
    lineup, pairings = lineup_and_pairings()
    walls_only = {n for n, (a, _) in enumerate(pairings) if lineup.labels[a] in WALL_BOTS}
    wanted = [n for n in range(games * len(pairings)) if n % len(pairings) in walls_only][:games]
    played = play(wanted[-1] + 1, SEED + 1, 2, only=wanted)
    made = cases(played, SEED, per_kind)
    progress = Progress("cases analysed", len(made))
    results: list[tuple[str, str | None, float]] = []
    with ProcessPoolExecutor(2, mp_context=get_context("spawn")) as pool:
        for result in pool.map(_last_label, made, chunksize=2):
            results.append(result)
            progress.step()
    progress.close()
    total_blunders = sum(1 for _, label, _ in results if label == "blunder")
    for kind in FINDERS:
        mine = [r for r in results if r[0] == kind]
        hit = sum(1 for _, label, _ in mine if label == "blunder")
        share = hit / len(mine) if mine else 0.0
        missed = Counter(str(label) for _, label, _ in mine if label != "blunder")
        print(f"s  {kind}: {hit} of {len(mine)} thrown-away steps labelled blunder ({100 * share:.1f}%)"
              + (f"; the others: {dict(missed)}" if missed else ""))
    share = total_blunders / len(results) if results else 0.0
    print(f"s  all: {total_blunders} of {len(results)} cases from {len(played)} games ({100 * share:.1f}%)  "
          f"target >= {100 * TARGET_BLUNDER_SHARE:.0f}%  {mark(bool(results) and share >= TARGET_BLUNDER_SHARE)}")
    strong_rate(strong_games)


def strong_rate(games: int) -> None:
    """The labels the analysis gives the steps of ``strong`` against itself (its default settings)."""
    settings = RefereeSettings()
    lineup = Lineup(("strong", "strong"), ("strong#1", "strong#2"))
    todo = [GameJob(n, (0, 1), n, n % 2 == 1, opening_for(SEED, n, 4)) for n in range(games)]
    logs: list[GameLog] = []
    progress = Progress("strong v strong games", games)

    def take(result: PlayedGame) -> bool:
        game = result.game
        logs.append(GameLog(GameHeader(players=game.players, ruleset=settings.ruleset.name), game.records,
                            game.outcome))
        progress.step()
        return True

    run_games(lineup, settings, todo, take, workers=2)
    progress.close()
    with ProcessPoolExecutor(2, mp_context=get_context("spawn")) as pool:
        analyses: list[GameAnalysis] = list(pool.map(analyse_game, logs))
    labels = Counter(p.label for a in analyses for p in a.plies[4:])   # the opening's 4 plies are not strong's
    steps = sum(labels.values())
    shares = ", ".join(f"{labels[name]} {plural} ({100 * labels[name] / steps:.2f}%)"
                       for name, plural in (("blunder", "blunders"), ("mistake", "mistakes"),
                                            ("inaccuracy", "inaccuracies")))
    accuracy = statistics.mean(p.accuracy for a in analyses for p in a.players)
    print(f"s  strong v strong: {games} games, {steps:,} steps of the bots: {shares}; "
          f"mean accuracy {accuracy:.1f}  (no target: blunders rare)")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the chosen sections and print each figure against its target."""
    p = argparse.ArgumentParser(description="Speed and sensitivity of the analysis of a game.")
    p.add_argument("--sections", default="gts", help="g: one 60-ply game, t: a 120-log tournament, s: sensitivity")
    p.add_argument("--quick", action="store_true",
                   help="40 logs; 100 games for the sensitivity's cases (20 of each kind at most); 2 strong games")
    args = p.parse_args(argv)
    if set(args.sections) - set("gts") or not args.sections:
        p.error("--sections takes letters among g, t and s")
    print(f"{ENGINE_VERSION}, {DEFAULT_NODES} nodes a position; {load()}")
    if "g" in args.sections:
        section_game()
    if "t" in args.sections:
        section_tournament(40 if args.quick else TOURNAMENT_GAMES)
    if "s" in args.sections:
        section_sensitivity(100 if args.quick else 600, 20 if args.quick else 100, 2 if args.quick else 10)
    print(f"done; {load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

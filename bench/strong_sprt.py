"""``strong`` against itself at another revision: nodes per second on the same positions, and an SPRT of play.

    .venv/bin/python bench/strong_sprt.py --nps-only              # nodes/s of this tree's strong and 58f7d11's
    .venv/bin/python bench/strong_sprt.py                          # nodes/s, then the SPRT (400 ms a step, -j 2)
    .venv/bin/python bench/strong_sprt.py --new HEAD               # the same, of the last commit (a long run
                                                                   # that others' edits in progress cannot break)
    .venv/bin/python bench/strong_sprt.py --ms 100 --games 200     # a quick look at the direction
    .venv/bin/python bench/strong_sprt.py --nodes 2000 --no-nps    # search quality alone: both on 2,000 nodes a step

The base revision (``--base``, default 58f7d11: the strong of issue 34's start, rules core included) is checked
out into a git worktree in a temporary folder, removed at the end (``--new REV`` likewise; else the new side is
the working tree). Each side is that tree's own ``StrongPlayer`` on ``--ms`` a step (or ``--nodes``), in a child
process with ``PYTHONPATH`` naming the tree, behind a bot of this file (``StrongNew``, ``StrongBase``:
``TreeStrong``) that sends it the match's board as a position text; ``quoridor-match StrongNew StrongBase --sprt
ELO0 ELO1`` plays them in colour-swapped pairs from seeded openings, normalised Elo by default. Not as hosted
bots (``./prog``): a process bot hears only its turns, which never name an opening's walls, so ``quoridor-match``
would draw openings of pawn moves only; behind an in-process bot each side is handed the whole board. The time limit (``-t``, 1000 ms) leaves the 400 ms search
and the hand-over room; ``--ms`` above 40% of it is refused, as ``StrongPlayer`` would cut its budget to that
share under a server.

Nodes per second: the same positions (from seeded games of this tree's strong), each searched on a fixed
node budget by a fresh searcher, in a child process per tree, the trees alternating round after round; the
figure is each tree's median over the rounds and their ratio (target: higher; the machine's load is printed).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from client.player import Player  # noqa: E402
from shared.quoridor import COURSE, ChessboardChange, Position, Ruleset, Step, parse_step, position_text  # noqa: E402

#: The child's work: search every position (one line of text each, on stdin) on a node budget; print nodes, seconds.
_NPS_CHILD = """
import json, sys, time
from shared.engine import Searcher
from shared.quoridor import parse_position
texts, nodes = json.loads(sys.stdin.read())
positions = [parse_position(t) for t in texts]
total, start = 0, time.process_time()
for pos in positions:
    total += Searcher().search(pos, nodes=nodes).nodes
print(json.dumps([total, time.process_time() - start]))
"""

#: The searching side of ``TreeStrong``: a tree's own ``StrongPlayer`` (run with ``PYTHONPATH`` naming the tree),
#: answering one position text a line with its step; ``begin SEAT RULESET`` starts a game (a fresh table).
_STRONG_CHILD = """
import os, sys
from client.bots.strong import StrongPlayer
from shared.quoridor import ChessboardChange, GameStatus, Step, find_ruleset, parse_position, step_name
ms, nodes = int(sys.argv[1]), (int(sys.argv[2]) or None)
bot = StrongPlayer("strong", time_budget_ms=ms, nodes=nodes)
try:
    print("ready", flush=True)
    for line in sys.stdin:
        command, _, rest = line.strip().partition(" ")
        if command == "begin":
            seat, ruleset = rest.split()
            bot.begin_game(int(seat), find_ruleset(ruleset))
            bot.restart()
            print("ok", flush=True)
        elif command == "step":
            pos = parse_position(rest)
            bot.tracker.position = pos
            step = bot.next_step(ChessboardChange(GameStatus.OK, pos.pawn(pos.turn), pos.pawn(1 - pos.turn)))
            print("-" if step == Step() else step_name(step), flush=True)
except (BrokenPipeError, KeyboardInterrupt):   # the match ended while this side was thinking
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
"""

#: ``quoridor-match`` of the tree on ``PYTHONPATH``.
_MATCH = "import sys; from client.match_cli import main; sys.exit(main(sys.argv[1:]))"


def load_average() -> str:
    """The machine's 1-minute load average (the figures share the machine)."""
    return f"{os.getloadavg()[0]:.2f}"


def sample_positions(games: int, seed: int) -> list[str]:
    """Mid-game positions (every third ply from ply 6) of seeded games of this tree's strong on 150 nodes."""
    from client.bots.strong import StrongPlayer

    rng = random.Random(seed)
    out: list[str] = []
    for _ in range(games):
        pos = Position.initial()
        for _ in range(4):                      # a random opening, then the engine plays both sides
            pos = pos.apply(rng.choice(pos.legal_steps()))
        bot = StrongPlayer(nodes=150)
        for ply in range(60):
            if pos.is_over():
                break
            if ply >= 6 and ply % 3 == 0:
                out.append(position_text(pos))
            step = bot.searcher.search(pos, nodes=150).step
            if step is None:
                break
            pos = pos.apply(step)
    return out


def nodes_per_second(tree: Path, texts: list[str], nodes: int) -> float:
    """Nodes per CPU second of ``tree``'s engine on ``texts``, each searched on ``nodes``, in a child process."""
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
    out = subprocess.run([sys.executable, "-c", _NPS_CHILD], input=json.dumps([texts, nodes]), capture_output=True,
                         text=True, env=env, cwd=tree, timeout=600, check=True).stdout
    total, seconds = json.loads(out)
    return total / seconds


def measure_nps(new: Path, base: Path, new_label: str, label: str, rounds: int, nodes: int, games: int) -> None:
    """Print both trees' nodes per second on the same positions, rounds alternating, and their ratio."""
    texts = sample_positions(games, seed=34)
    print(f"nodes/s: {len(texts)} positions, {nodes} nodes each, {rounds} rounds alternating (load {load_average()})")
    new_runs, base_runs = [], []
    for r in range(rounds):
        order = [(new, new_runs), (base, base_runs)]
        if r % 2:
            order.reverse()
        for tree, runs in order:
            runs.append(nodes_per_second(tree, texts, nodes))
    fast, old = statistics.median(new_runs), statistics.median(base_runs)
    ratios = [a / b for a, b in zip(new_runs, base_runs)]
    print(f"  {label:>12}: {old:>9,.0f} nodes/s (median; rounds {', '.join(f'{x:,.0f}' for x in base_runs)})")
    print(f"  {new_label:>12}: {fast:>9,.0f} nodes/s (median; rounds {', '.join(f'{x:,.0f}' for x in new_runs)})")
    spread = f"per round {min(ratios):.2f}-{max(ratios):.2f}"
    print(f"  ratio {fast / old:.2f}x ({spread}; target > 1) (load {load_average()})")


class TreeStrong(Player):
    """``strong`` of the tree named by ``$STRONG_SPRT_<SIDE>``, on ``$STRONG_SPRT_MS`` (or ``_NODES``) a step.

    The match's board (its ``BoardTracker``, which hears the opening's plies) is sent as a position text to a
    child process running that tree's own ``StrongPlayer``, which answers the step: both sides play their whole
    tree (rules core included) and see the same board. A hosted bot (``./prog``) is told only its turns, so it
    misses the opening's walls (bench/README.md).
    """

    side = ""

    def __init__(self, key: str = "") -> None:
        super().__init__(key)
        tree = os.environ[f"STRONG_SPRT_{self.side}"]
        budget = [os.environ.get("STRONG_SPRT_MS", "400"), os.environ.get("STRONG_SPRT_NODES", "0")]
        self.child = subprocess.Popen([sys.executable, "-c", _STRONG_CHILD, *budget], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, text=True, cwd=tree,
                                      env={**os.environ, "PYTHONPATH": tree})
        self._ask(None)                                      # loaded before the first turn

    def _ask(self, line: str | None) -> str:
        assert self.child.stdin is not None and self.child.stdout is not None
        if line is not None:
            self.child.stdin.write(line + "\n")
            self.child.stdin.flush()
        answer = self.child.stdout.readline().strip()
        if not answer:
            raise RuntimeError(f"the strong of {self.side.lower()} ended (exit {self.child.poll()})")
        return answer

    def begin_game(self, seat: int | None, ruleset: Ruleset = COURSE) -> None:
        """A new game: the child's player begins it with a fresh table."""
        super().begin_game(seat, ruleset)
        self._ask(f"begin {seat or 0} {ruleset.name}")

    def next_step(self, change: ChessboardChange) -> Step:
        """The child's step for the match's position."""
        answer = self._ask(f"step {position_text(self.position)}")
        return Step() if answer == "-" else parse_step(answer)

    def __del__(self) -> None:
        child = getattr(self, "child", None)
        if child is not None and child.poll() is None:
            child.kill()
            child.wait()


class StrongNew(TreeStrong):
    """This tree's strong."""

    side = "NEW"


class StrongBase(TreeStrong):
    """The base revision's strong."""

    side = "BASE"


def _interrupt(signum: int, frame: object) -> None:
    """SIGTERM ends the bench as Ctrl-C does: the match is stopped and the worktree removed."""
    raise KeyboardInterrupt


def _stop(match: subprocess.Popen[bytes]) -> None:
    """Stop the match (Ctrl-C: it prints where it got to), then its whole session (its bots) if it lingers."""
    match.send_signal(signal.SIGINT)
    try:
        match.wait(timeout=15)
    except subprocess.TimeoutExpired:
        pass
    try:
        os.killpg(match.pid, signal.SIGKILL)     # the bots it started, if any outlived it
    except ProcessLookupError:
        pass
    match.wait()


def build_parser() -> argparse.ArgumentParser:
    """The bench's options."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--base", default="58f7d11", help="the revision to play against (default 58f7d11)")
    p.add_argument("--new", default=None, help="play this revision (checked out) instead of the working tree")
    p.add_argument("--ms", type=int, default=400, help="search budget per step in ms (default 400)")
    p.add_argument("--nodes", type=int, default=None, help="search this many nodes a step instead of --ms")
    p.add_argument("-t", "--time-limit", type=int, default=1000, help="the referee's limit per step (default 1000)")
    p.add_argument("--sprt", nargs=2, type=float, default=(0.0, 30.0), metavar=("ELO0", "ELO1"),
                   help="the test's bounds in normalised Elo (default 0 30)")
    p.add_argument("--games", type=int, default=1000, help="the most games (default 1000)")
    p.add_argument("--openings", type=int, default=4, help="random plies before the bots take over (default 4)")
    p.add_argument("--seed", type=int, default=34, help="seed of the openings (default 34)")
    p.add_argument("-j", "--jobs", type=int, default=2, help="games at once (default 2)")
    p.add_argument("--json", default=None, help="quoridor-match's results as JSON to this file")
    p.add_argument("--nps-only", action="store_true", help="measure nodes per second only")
    p.add_argument("--no-nps", action="store_true", help="skip the nodes-per-second measure")
    p.add_argument("--nps-rounds", type=int, default=3, help="rounds of the nodes/s measure (default 3)")
    p.add_argument("--nps-nodes", type=int, default=1000, help="nodes per position for nodes/s (default 1000)")
    return p


def main(argv: list[str] | None = None) -> int:
    """Make the base's worktree, measure, play, remove it; the match's exit status."""
    args = build_parser().parse_args(argv)
    if args.ms <= 0 or (args.nodes is not None and args.nodes <= 0):
        print("strong_sprt.py: --ms and --nodes must be positive", file=sys.stderr)
        return 2
    budget = args.ms if not args.time_limit else min(args.ms, 0.4 * args.time_limit)
    if args.nodes is None and budget < args.ms:
        print(f"strong_sprt.py: -t {args.time_limit} cuts the {args.ms} ms budget to {budget:g} ms (40% of the "
              f"limit); give -t {int(args.ms / 0.4)} or more", file=sys.stderr)
        return 2
    temp = Path(tempfile.mkdtemp(prefix="strong_sprt_"))
    trees: list[Path] = []
    match: subprocess.Popen[bytes] | None = None
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        base = _checkout(args.base, temp / "base", trees)
        new = ROOT if args.new is None else _checkout(args.new, temp / "new", trees)
        new_label = "this tree" if args.new is None else f"new {args.new}"
        base_label = f"base {args.base}"
        if not args.no_nps:
            measure_nps(new, base, new_label, base_label, args.nps_rounds, args.nps_nodes, games=4)
        if args.nps_only:
            return 0
        # The match (its referee, its workers and this file's bots) runs from the new side's tree too.
        me = new / "bench" / Path(__file__).name
        os.environ.update(STRONG_SPRT_NEW=str(new), STRONG_SPRT_BASE=str(base), STRONG_SPRT_MS=str(args.ms),
                          STRONG_SPRT_NODES=str(args.nodes or 0), PYTHONPATH=str(new))
        command = [sys.executable, "-c", _MATCH, f"{me}:StrongNew", f"{me}:StrongBase",
                   "--sprt", f"{args.sprt[0]:g}", f"{args.sprt[1]:g}", "-g", str(args.games),
                   "--openings", str(args.openings), "--seed", str(args.seed), "-j", str(args.jobs),
                   "-t", str(args.time_limit), "--log-dir", "none"]
        if args.json:
            command += ["--json", args.json]
        budget_text = f"{args.nodes} nodes" if args.nodes else f"{args.ms} ms"
        print(f"SPRT: strong of {new_label} against {base_label}, {budget_text} a step, load {load_average()}")
        print("  quoridor-match " + " ".join(command[3:]).replace(str(new) + "/", ""), flush=True)
        match = subprocess.Popen(command, cwd=temp, start_new_session=True)
        return match.wait()
    except _NoRevision as exc:
        print(f"strong_sprt.py: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    finally:
        if match is not None and match.poll() is None:
            _stop(match)
        for tree in trees:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], capture_output=True)
        shutil.rmtree(temp, ignore_errors=True)


class _NoRevision(Exception):
    """A revision git cannot check out."""


def _checkout(revision: str, where: Path, trees: list[Path]) -> Path:
    """``revision`` checked out at ``where`` (a detached git worktree, noted in ``trees`` for removal)."""
    made = subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(where), revision],
                          capture_output=True, text=True)
    if made.returncode:
        lines = made.stderr.strip().splitlines() or ["git worktree add failed"]
        raise _NoRevision(f"cannot check out {revision}: {lines[-1]}")
    trees.append(where)
    return where


if __name__ == "__main__":
    sys.exit(main())

"""The hog run (issue 31): does a hosted bot that spins threads or forks spinners take its opponent's CPU? Not a test.

Run from the repository root (bubblewrap installed)::

    .venv/bin/python bench/hog_run.py              # both sections (about 8 minutes on 2 cores)
    .venv/bin/python bench/hog_run.py --quick      # one game a pairing, a 3-bot round robin
    .venv/bin/python bench/hog_run.py --sections h # h: the hog run, r: the round robin's cost of freezing

h: a fair handed-in bot that needs 450 ms, then 700 ms, of CPU a step (1 s allowed) plays an honest
bot, a thread hog (from its first step on, 30 threads hashing, which runs them on every core; its own
steps quick and legal) and a process hog (30 forked spinners), each pairing in the sandbox, with the
guard on (the server as it is: bots frozen between their turns, each pinned to a core) and off (as
before issue 31), on the wall clock, then with the guard on the cpu clock (``--hosted-clock cpu``: a
busy machine costs no timeout). Printed: the fair bot's step wall times (median, p95, max), its
timeouts, and the CPU the opponent's whole tree was charged. With the guard on, the fair bot's steps
should look the same against every opponent.

r: a round robin of honest handed-in bots (each step at once: only the machinery is measured), 2 games a
pairing, played by ``LocalGameHost`` with and without freezing: the cost of stopping and continuing a
bot's processes at each step. The load average is printed before and after: the figures mean little on
a machine busy with something else.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.sandbox import BotEntry, GameSpec, LocalGameHost, Pairing, SandboxLimits, sandbox_status  # noqa: E402
from server.sandbox.cage import make_cage  # noqa: E402
from server.sandbox.host import play_pairing  # noqa: E402
from shared.gamelog import read_log_data  # noqa: E402
from shared.referee import RefereeSettings  # noqa: E402

WALK = '''

def walk(player):
    """A step along the shortest path; round the other pawn when it stands in the way (no violation)."""
    path = player.shortest_path()
    moves = [step for step in player.legal_steps() if step.is_move()]
    want = Step(path[1]) if path and len(path) > 1 else None
    if want in moves:
        return want
    return min(moves, key=lambda step: abs(step.new_loc.y - player.goal_row))
'''

FAIR = '''
import time
from client.player import Player
from shared.quoridor import Step
WALK_HERE


class Fair(Player):
    """Needs MS ms of CPU time a step (its own thread's), then walks its shortest path."""

    def next_step(self, change):
        begin = time.thread_time()
        while time.thread_time() - begin < MS / 1000:
            pass
        return walk(self)
'''

HONEST = '''
from client.player import Player
from shared.quoridor import Step
WALK_HERE


class Honest(Player):
    """Walks its shortest path at once."""

    def next_step(self, change):
        return walk(self)
'''

THREAD_HOG = '''
import hashlib
import threading
from client.player import Player
from shared.quoridor import Step
WALK_HERE

DATA = bytes(1 << 20)


def spin():
    while True:
        hashlib.sha256(DATA).digest()       # hashing a large buffer releases the interpreter's lock: every core


class ThreadHog(Player):
    """From its first step on, 30 threads spin; its own steps stay quick and legal."""

    started = False

    def next_step(self, change):
        if not self.started:
            self.started = True
            threading.stack_size(256 * 1024)        # 30 stacks of the default 8 MB would not fit the address space
            for _ in range(30):
                threading.Thread(target=spin, daemon=True).start()
        return walk(self)
'''

PROCESS_HOG = '''
import os
from client.player import Player
from shared.quoridor import Step
WALK_HERE


class ProcessHog(Player):
    """From its first step on, 30 forked processes spin; its own steps stay quick and legal."""

    started = False

    def next_step(self, change):
        if not self.started:
            self.started = True
            for _ in range(30):
                if os.fork() == 0:
                    while True:
                        pass
        return walk(self)
'''


def _folder(root: Path, name: str, source: str) -> Path:
    folder = root / name
    folder.mkdir()
    (folder / "bot.py").write_text(source.replace("WALK_HERE", WALK), encoding="utf-8")
    for path in (folder, folder / "bot.py"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    return folder


def _pick(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


async def _hog_run(root: Path, games: int) -> None:
    limits = SandboxLimits(cpu_seconds=600, processes=64)
    opponents = {"honest": HONEST, "thread hog": THREAD_HOG, "process hog": PROCESS_HOG}
    print(f"h: the fair bot's steps (1 s allowed), {games} game(s) a pairing, colours swapped; cage: "
          f"{make_cage().kind}")
    print(f"  {'fair':>6}  {'opponent':<12} {'guard':<6} {'clock':<5} {'steps':>5} {'p50 ms':>7} {'p95 ms':>7} "
          f"{'max ms':>7} {'timeouts':>8} {'opp cpu s':>9}")
    for need_ms in (450, 700):
        fair = _folder(root, f"fair{need_ms}", FAIR.replace("MS", str(need_ms)))
        for name, source in opponents.items():
            opponent = _folder(root, f"{name.replace(' ', '_')}{need_ms}", source)
            for guard, clock in (("on", "wall"), ("off", "wall"), ("on", "cpu")):
                frozen = guard == "on"
                # off: as before issue 31, neither frozen nor pinned (SandboxLimits.freeze_between_turns is both)
                tag = f"{need_ms}-{name.replace(' ', '_')}-{guard}-{clock}"
                pairing = Pairing((BotEntry("fair", "bot.py", fair), BotEntry("opponent", "bot.py", opponent)),
                                  tuple(GameSpec(f"{tag}-{i}", root / f"{tag}-{i}.csv", white=i % 2)
                                        for i in range(games)), RefereeSettings(time_limit_ms=1000, clock=clock))
                result = await play_pairing(pairing, dataclasses.replace(limits, freeze_between_turns=frozen))
                report, other = result.reports
                walls = [t.wall_ms for t in report.timings]
                timeouts = sum(1 for game in result.games for record in read_log_data(game.log_path.read_bytes(),
                                                                                        str(game.log_path)).steps
                               if record.player == "fair" and record.reason.startswith(("answered after", "no answer")))
                print(f"  {need_ms:>4}ms  {name:<12} {guard:<6} {clock:<5} {len(walls):>5} "
                      f"{_pick(walls, 0.5):>7.0f} {_pick(walls, 0.95):>7.0f} {max(walls, default=0):>7.0f} "
                      f"{timeouts:>8} {other.cpu_ms / 1000:>9.1f}", flush=True)


async def _round_robin(root: Path, bots: int, games: int) -> None:
    folders = [_folder(root, f"honest{i}", HONEST) for i in range(bots)]
    print(f"r: a round robin of {bots} honest handed-in bots, {games} games a pairing, one pairing at once")
    for frozen in (False, True, False, True):          # alternated: a machine that gets busier hurts neither alone
        host = LocalGameHost(SandboxLimits(freeze_between_turns=frozen), concurrency=1)
        began, steps = time.perf_counter(), 0
        for a in range(bots):
            for b in range(a + 1, bots):
                tag = f"rr{int(frozen)}-{a}-{b}-{began:.0f}"
                pairing = Pairing((BotEntry(f"h{a}", "bot.py", folders[a]), BotEntry(f"h{b}", "bot.py", folders[b])),
                                  tuple(GameSpec(f"{tag}-{i}", root / f"{tag}-{i}.csv", white=i % 2)
                                        for i in range(games)))
                result = await host.play(pairing)
                steps += sum(len(r.timings) for r in result.reports)
        took = time.perf_counter() - began
        await host.close()
        print(f"  frozen {'yes' if frozen else 'no ':<3}  {took:6.2f} s  {steps} steps  "
              f"{took / max(1, steps) * 1000:6.2f} ms a step (starts included)", flush=True)


def main(argv: list[str] | None = None) -> int:
    """Run the sections asked for and print their figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sections", default="hr", help="h: the hog run, r: the round robin (default: both)")
    parser.add_argument("--quick", action="store_true", help="one game a pairing, a 3-bot round robin")
    args = parser.parse_args(argv)
    problem = sandbox_status()
    if problem is not None:
        print(f"hog_run: {problem}", file=sys.stderr)
        return 2
    print(f"load average before: {' '.join(f'{v:.2f}' for v in os.getloadavg())}; {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory(prefix="hog-run-") as tmp:
        root = Path(tmp)
        root.chmod(0o755)
        if "h" in args.sections:
            asyncio.run(_hog_run(root, 1 if args.quick else 2))
        if "r" in args.sections:
            asyncio.run(_round_robin(root, 3 if args.quick else 4, 2))
    print(f"load average after: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

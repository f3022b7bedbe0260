"""A hosted bot computes only on its own clock (issue 31), on a real sandbox: frozen between its turns, its CPU
counted over every thread and process it starts. No timing is asserted: the bots count their own work."""

from __future__ import annotations

import asyncio
import re
import statistics
import textwrap

import pytest

from server.sandbox import process
from server.sandbox.cage import SignalCage, cgroup_root
from server.sandbox.host import BotEntry, GameSpec, Pairing, play_pairing

from .conftest import FAST, processes_of_bot_users

#: Counts the spinning threads add during the spinner's own turn (its step waits for them).
ON_TURN = 400_000

SPINNER = f"""
import sys, threading
from client.player import Player
from shared.quoridor import Step

count = [0]
sys.setswitchinterval(0.0002)      # the main thread gets the interpreter back at once when it reads or writes

def spin():
    while True:
        count[0] += 1

for _ in range(2):
    threading.Thread(target=spin, daemon=True).start()


class Spinner(Player):
    '''Two threads count all the time; each step waits until they counted ON_TURN more, and says how much
    they counted since its last step.'''

    last = None

    def next_step(self, change):
        start = count[0]
        if self.last is not None:
            print(f"between {{start - self.last}}", file=sys.stderr, flush=True)
        while count[0] - start < {ON_TURN}:
            pass
        self.last = count[0]
        return Step(self.shortest_path()[1])
"""

SLOW = """
import time
from client.player import Player
from shared.quoridor import Step

class Slow(Player):
    '''Takes 0.2 s of wall time a step, asleep: its opponent has the CPU to itself meanwhile (unless frozen).'''

    def next_step(self, change):
        time.sleep(0.2)
        return Step(self.shortest_path()[1])
"""

HELPERS = """
import os, sys, threading, time
from client.player import Player
from shared.quoridor import Step

def work():
    x = 0
    for i in range(3_000_000):
        x += i

class Helper(Player):
    '''Each step's work is done by a {how} while the bot's main thread only waits; it says the CPU the worker used.'''

    def next_step(self, change):
        if "{how}" == "thread":
            used = []
            def run():
                begin = time.thread_time()
                work()
                used.append(time.thread_time() - begin)
            worker = threading.Thread(target=run)
            worker.start()
            worker.join()
            print(f"worker_ms {{used[0] * 1000:.1f}}", file=sys.stderr, flush=True)
        else:
            before = os.times()
            pid = os.fork()
            if pid == 0:
                work()
                os._exit(0)
            os.waitpid(pid, 0)
            after = os.times()
            used = (after.children_user + after.children_system) - (before.children_user + before.children_system)
            print(f"worker_ms {{used * 1000:.1f}}", file=sys.stderr, flush=True)
        return Step(self.shortest_path()[1])
"""


@pytest.fixture(params=["cgroup", "signals"])
def cage_kind(request, monkeypatch):
    """Each test runs with the bots in cgroups of their own (where the host lets the server make them) and with
    the stop signals every host has."""
    if request.param == "cgroup":
        if cgroup_root() is None:
            pytest.skip("this host gives the server no cgroup v2 of its own to write in")
    else:
        monkeypatch.setattr(process, "make_cage", lambda: SignalCage())
    return request.param


def _pairing(tmp_path, folders, games=1):
    bots = tuple(BotEntry(name, "bot.py", folder) for name, folder in folders)
    return Pairing(bots, tuple(GameSpec(f"g{i}", tmp_path / f"g{i}.csv", white=i % 2) for i in range(games)))


def test_a_bot_that_spins_threads_does_no_work_between_its_step_and_its_next_turn(bot_folder, tmp_path, cage_kind):
    pairing = _pairing(tmp_path, [("spinner", bot_folder(SPINNER, "spinner")), ("slow", bot_folder(SLOW, "slow"))])
    result = asyncio.run(play_pairing(pairing, FAST))
    spinner = result.reports[0]
    assert spinner.end is not None and spinner.end.cause == "ok", spinner.output_tail
    between = [int(n) for n in re.findall(r"between (\d+)", spinner.output_tail)]
    assert len(between) >= 5
    # Unfrozen, the threads count through each of the slow bot's 0.2 s steps: about 20 times ON_TURN here. Frozen,
    # they count only while the step line is on its way to the server and the next turn to the bot's main thread.
    assert statistics.median(between) < 2 * ON_TURN, between


@pytest.mark.parametrize("how", ["thread", "process"])
def test_the_cpu_of_a_steps_worker_thread_or_child_process_is_the_bots(bot_folder, tmp_path, cage_kind, how):
    source = textwrap.dedent(HELPERS).replace("{how}", how).replace("{{", "{").replace("}}", "}")
    pairing = Pairing((BotEntry("helper", "bot.py", bot_folder(source, "helper")), BotEntry("random", "random")),
                      (GameSpec("g0", tmp_path / "g0.csv"),))
    result = asyncio.run(play_pairing(pairing, FAST))
    helper = result.reports[0]
    assert helper.end is not None and helper.end.cause == "ok", helper.output_tail
    worker_ms = [float(n) for n in re.findall(r"worker_ms ([\d.]+)", helper.output_tail)]
    counted = [t.cpu_ms for t in helper.timings]
    assert len(worker_ms) == len(counted) >= 5 and None not in counted
    # Each step is charged at least what its worker used (it ran in the bot's tree), less a clock tick of rounding.
    assert sum(counted) >= sum(worker_ms) - 10 * len(counted), (counted, worker_ms)
    log = (tmp_path / "g0.csv").read_text()
    logged = [int(v) for line in log.splitlines() if ",cpu_ms," in line and line.split(",")[10] == "0"
              for v in line.split(",")[12].split()]
    assert sum(logged) >= sum(worker_ms) - 10 * len(logged)


def test_a_pairing_cancelled_again_while_it_closes_its_bots_leaves_none_running(tmp_path, cage_kind):
    """A second cancellation (the host closing, a bounded wait running out) that comes while a cancelled pairing
    closes its bots, before their closing began, still ends them: none is left frozen between its turns."""
    pairing = Pairing((BotEntry("random", "random"), BotEntry("runner", "runner")),
                      (GameSpec("g0", tmp_path / "g0.csv"),))

    async def run() -> list[int]:
        playing = asyncio.Event()
        task = asyncio.create_task(play_pairing(pairing, FAST, on_step=lambda runner, judged: playing.set()))
        await asyncio.wait_for(playing.wait(), 30)
        task.cancel()                   # the pairing stops mid-game: its finally starts closing the bots...
        await asyncio.sleep(0)
        task.cancel()                   # ...and it is cancelled again before their closing ran
        await asyncio.wait({task}, timeout=30)
        assert task.cancelled()
        deadline = asyncio.get_running_loop().time() + 10
        while processes_of_bot_users() and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.05)
        return processes_of_bot_users()

    assert asyncio.run(run()) == []

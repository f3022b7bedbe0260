"""``server.sandbox.cage`` on real processes (no sandbox needed): a tree stopped whole, its CPU summed, and a cgroup
cage that its process could not join handing over to signals."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from server.sandbox.cage import CgroupCage, Cores, SignalCage, _remove_stale, _sweep, cgroup_root
from server.sandbox.procfs import stat_fields, tree

#: A process that forks two children, each of which computes a while (a bounded loop) then sleeps; once both have
#: computed it says their pids and sleeps too. Nothing spins: all of it lives at most 30 s.
WORKERS = """
import os, sys, time
kids = []
for _ in range(2):
    done_r, done_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        x = 0
        for i in range(3_000_000):
            x += i
        os.write(done_w, b"!")
        time.sleep(30)
        os._exit(0)
    os.read(done_r, 1)
    kids.append(pid)
print(*kids, flush=True)
time.sleep(30)
"""


@pytest.fixture
def workers():
    """A process and its two children, their work done: (the process, the children's pids); all killed after."""
    proc = subprocess.Popen([sys.executable, "-c", WORKERS], stdout=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        kids = [int(pid) for pid in proc.stdout.readline().split()]
        yield proc, kids
    finally:
        if os.getpgid(proc.pid) == proc.pid:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def _state(pid: int) -> bytes:
    fields = stat_fields(pid)
    return b"gone" if fields is None else fields[0]


def _states_become(wanted, pids) -> bool:
    """True once the processes' states are as ``wanted`` says (within 5 s)."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        if wanted({_state(pid) for pid in pids}):
            return True
        time.sleep(0.001)
    return False


def test_the_tree_of_a_process_holds_its_children_each_with_its_stat_fields(workers):
    proc, kids = workers
    members = tree(proc.pid)
    assert set(members) == {proc.pid, *kids}
    assert all(int(members[kid][1]) == proc.pid for kid in kids)


def test_a_signal_cage_stops_every_process_of_the_tree_and_starts_them_again(workers):
    proc, kids = workers
    cage = SignalCage()
    assert cage.attach(proc.pid, proc.pid, session=True)
    cage.freeze()
    assert _states_become(lambda states: states == {b"T"}, (proc.pid, *kids))     # a signal takes a moment to land
    cage.thaw()
    assert _states_become(lambda states: b"T" not in states, (proc.pid, *kids))


def test_a_trees_cpu_counts_its_childrens_work(workers):
    proc, kids = workers
    cage = SignalCage()
    cage.attach(proc.pid, proc.pid, session=True)
    own = stat_fields(proc.pid)
    assert own is not None
    tick = os.sysconf("SC_CLK_TCK")
    parent_only = (int(own[11]) + int(own[12])) / tick
    children = sum(int(stat_fields(kid)[11]) + int(stat_fields(kid)[12]) for kid in kids) / tick  # type: ignore[index]
    assert children > 0 and cage.cpu_seconds() == pytest.approx(parent_only + children)


def test_a_cgroup_cage_its_process_is_not_in_says_so():
    root = cgroup_root()
    if root is None:
        pytest.skip("this host gives the server no cgroup v2 of its own to write in")
    cage = CgroupCage.make(root)
    assert cage is not None
    try:
        assert not cage.attach(1, 1, session=False)     # pid 1 never joined it: the bot host takes signals instead
    finally:
        cage.close()


def test_cores_go_to_the_least_held_and_come_back():
    cores = Cores({0, 1, 2})
    assert [cores.take() for _ in range(4)] == [0, 1, 2, 0]
    cores.give(1)
    cores.give(2)
    assert cores.take() == 1 and cores.take() == 2 and cores.take() == 1
    assert Cores({3}).take() is None                       # one core: nothing to share out, nothing pinned


def test_the_empty_cgroups_of_a_server_that_is_gone_are_removed(tmp_path):
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    (tmp_path / f"quoridor-{gone.pid}" / "bot-1").mkdir(parents=True)
    (tmp_path / f"quoridor-{os.getpid()}" / "bot-1").mkdir(parents=True)      # this one runs: kept
    _remove_stale(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"quoridor-{os.getpid()}"]


def test_the_processes_left_in_the_cgroup_of_a_server_that_is_gone_are_ended_and_the_cgroup_removed():
    root = cgroup_root()
    if root is None:
        pytest.skip("no cgroup v2 this server may write here")
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    stale = root.parent / f"quoridor-{gone.pid}" / "bot-1"
    stale.mkdir(parents=True)
    leftover = subprocess.Popen(["sleep", "60"])              # a bot's process its killed server left behind
    try:
        (stale / "cgroup.procs").write_text(str(leftover.pid))
        _remove_stale(root.parent)
        assert leftover.wait(timeout=10) == -signal.SIGKILL
        _sweep()
        assert not stale.parent.exists()
    finally:
        leftover.kill()
        leftover.wait()
        for path in (stale, stale.parent):
            if path.exists():
                path.rmdir()

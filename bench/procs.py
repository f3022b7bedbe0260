"""Child processes of the load bench and what they cost: start, read, stop, and CPU from /proc.

A helper of ``server_load.py`` (Linux: CPU figures come from ``/proc``), not a script of its own.
"""

from __future__ import annotations

import os
import queue
import resource
import subprocess
import threading
import time
from pathlib import Path

__all__ = ["Proc", "cpu_seconds", "memory_kb", "machine_busy", "thread_cpu", "cpu_in_window", "CLK_TCK", "ROOT"]

ROOT = Path(__file__).resolve().parent.parent
CLK_TCK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float | None:
    """utime + stime of a live process, in seconds (None once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK
    except (OSError, IndexError, ValueError):
        return None


def memory_kb(pid: int) -> tuple[int, int] | None:
    """Resident set size now and its peak so far (``VmRSS``, ``VmHWM``) of a live process, in KiB."""
    found: dict[str, int] = {}
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as handle:
            for line in handle:
                if line.startswith(("VmRSS:", "VmHWM:")):
                    found[line[:5]] = int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return (found["VmRSS"], found["VmHWM"]) if len(found) == 2 else None


def machine_busy() -> float | None:
    """CPU seconds the whole machine has spent busy (all CPUs, everything but idle and iowait)."""
    try:
        with open("/proc/stat", encoding="ascii") as handle:
            fields = [int(x) for x in handle.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    return (sum(fields[:8]) - fields[3] - fields[4]) / CLK_TCK


def thread_cpu(pid: int) -> dict[str, float]:
    """CPU seconds of each thread of a live process: ``main`` and ``thread <tid>`` (Python 3.11 names no threads)."""
    result: dict[str, float] = {}
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return result
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/stat", encoding="utf-8", errors="replace") as handle:
                text = handle.read()
        except OSError:
            continue
        name = "main" if tid == str(pid) else f"thread {tid}"
        fields = text.rsplit(")", 1)[1].split()
        result[name] = result.get(name, 0.0) + (int(fields[11]) + int(fields[12])) / CLK_TCK
    return result


def cpu_in_window(samples: list[tuple[float, float]], t0: float, t1: float) -> float:
    """CPU seconds per second between ``t0`` and ``t1``, linearly interpolated from (time, cpu) samples."""
    if len(samples) < 2 or not t1 > t0:
        return float("nan")

    def at(t: float) -> float:
        if t <= samples[0][0]:
            return samples[0][1]
        for (ta, ca), (tb, cb) in zip(samples, samples[1:]):
            if ta <= t <= tb:
                return ca + (cb - ca) * ((t - ta) / (tb - ta) if tb > ta else 0.0)
        return samples[-1][1]

    return (at(t1) - at(t0)) / (t1 - t0)


class Proc:
    """A child process whose stdout lines are read by a thread and whose CPU time is sampled."""

    def __init__(self, name: str, argv: list[str], stderr_path: Path, *, open_files: int | None = None) -> None:
        """Start ``argv``; ``open_files``: its RLIMIT_NOFILE, soft and hard (set in the child before it starts)."""
        self.name = name
        self.argv = argv
        self.stderr_path = stderr_path
        self._stderr = stderr_path.open("w", encoding="utf-8")

        def limit_files() -> None:
            if open_files is not None:
                resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, open_files))

        self.popen = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=self._stderr, text=True, cwd=ROOT,
                                      env={**os.environ, "PYTHONPATH": str(ROOT)},
                                      preexec_fn=limit_files if open_files is not None else None)
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.cpu: list[tuple[float, float]] = []
        self.threads: dict[str, list[tuple[float, float]]] = {}
        self.per_thread = False
        #: (time, VmRSS KiB) samples, and the peak (VmHWM) last read, when ``track_memory`` is set.
        self.track_memory = False
        self.rss: list[tuple[float, int]] = []
        self.peak_kb = 0
        #: The most file descriptors seen open at once, when ``track_files`` is set.
        self.track_files = False
        self.peak_files = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.popen.stdout is not None
        for line in self.popen.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def wait_line(self, prefix: str, timeout: float) -> str:
        """The first stdout line starting with ``prefix``; RuntimeError if it does not come in time."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise RuntimeError(f"{self.name}: no '{prefix}' line within {timeout:.0f} s{self.stderr_tail()}")
            try:
                line = self.lines.get(timeout=min(left, 0.5))
            except queue.Empty:
                continue
            if line is None:
                raise RuntimeError(f"{self.name} exited (status {self.popen.wait()}) before printing "
                                   f"'{prefix}'{self.stderr_tail()}")
            if line.startswith(prefix):
                return line

    def sample(self) -> None:
        """Record (now, CPU seconds) while the process lives."""
        now = time.monotonic()
        value = cpu_seconds(self.popen.pid)
        if value is not None:
            self.cpu.append((now, value))
        if self.per_thread:
            for name, seconds in thread_cpu(self.popen.pid).items():
                self.threads.setdefault(name, []).append((now, seconds))
        if self.track_memory:
            memory = memory_kb(self.popen.pid)
            if memory is not None:
                self.rss.append((now, memory[0]))
                self.peak_kb = max(self.peak_kb, memory[1])
        if self.track_files:
            try:
                self.peak_files = max(self.peak_files, len(os.listdir(f"/proc/{self.popen.pid}/fd")))
            except OSError:
                pass

    def stderr_tail(self, lines: int = 15) -> str:
        """The end of the process's stderr, for error messages."""
        if not self._stderr.closed:
            self._stderr.flush()
        try:
            text = self.stderr_path.read_text(encoding="utf-8", errors="replace").strip().splitlines()
        except OSError:
            return ""
        return ("\n    stderr: " + "\n    stderr: ".join(text[-lines:])) if text else ""

    def close(self) -> None:
        """Close the stderr file (the process must have ended)."""
        if not self._stderr.closed:
            self._stderr.close()

    def stop(self, grace: float) -> int | None:
        """Wait up to ``grace`` s for the process to exit, then SIGTERM it (10 s), then kill it; None if ended by us."""
        try:
            return self.popen.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            self.popen.terminate()
            try:
                self.popen.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait(timeout=10)
            return None
        finally:
            self.close()

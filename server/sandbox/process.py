"""``HostedBot``: one bot process, in bubblewrap unless unsafe.

What runs is what the spec needs (``shared.hosting.bot_language``): a Python bot or a built-in one, the bot
host ``python -m client.hosted SPEC``; a C++ bot (``FILE.cpp[:CLASS]``), its executable, built first from its
folder by ``sandboxed_cpp_build`` (off the event loop, in the sandbox, or unsafe without it where there is none;
cached under ``builds``, held there while it runs; before the startup clock starts: a cold build takes seconds)
and bound read-only at ``/program/bot``, the bot's folder its working directory at ``/bot``; an executable bot, ``/bot/PATH`` itself (a program of the bot's own that
speaks the hosted-bot channel, docs/hosted-bots.md).

The process is started with its rlimits (set in the child before ``exec``), in a session of its
own. Its stdout carries protocol lines only (``client.hosted`` moves the bot's prints to stderr);
each line is stamped with the time it was read, before anything else is done with it, and handed to
``on_line``. A line longer than ``line_bytes``, or more than ``output_bytes`` on stderr and in
refused stdout lines together (``charge_output``), stops the bot (``output_limit``). ``close``
kills the whole sandbox (killing bubblewrap kills its PID namespace; unsafe, the process group) and
waits for the process, so no zombie is left.

The bot's whole process tree is in a ``Cage`` (``server.sandbox.cage``: a cgroup of its own, else
signals to its processes): its seat ``freeze``s it between its step and its next turn and ``thaw``s it
for a turn, its CPU time is that of every process and thread of it (the cgroup's ``cpu.stat``, else
``/proc``), seen from outside: the bot cannot tamper with it, and a fork or a thread never multiplies
its ``cpu_seconds`` budget. The process runs ``nice`` and, when cores allow, pinned to one core.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import os
import resource
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from shared.hosting import bot_language

from server.sandbox.bwrap import BOT_DIR, PROGRAM, BwrapLaunch, SandboxLayout, bwrap_launch, current_layout, host_command
from server.sandbox.buildcache import let_go
from server.sandbox.bytecode import host_packages_compiled
from server.sandbox.cage import BOT_NICE, CORES, Cage, SignalCage, make_cage
from server.sandbox.causes import BotEnd, classify_exit
from server.sandbox.cppbuild import CppBuilt, sandboxed_cpp_build
from server.sandbox.limits import SandboxLimits, rlimits
from server.sandbox.procfs import UIDS, CpuClock, children, sandbox_uids
from server.sandbox.seccomp import SeccompUnavailable, bot_filter
from server.sandbox.status import INSTALL_HINT, SandboxUnavailable, cpp_status, project_root, sandbox_status

__all__ = ["HostedBot", "SandboxUnavailable", "CppBuilder", "default_build_cache", "project_root", "sandbox_uids"]

#: What builds a C++ bot: ``sandboxed_cpp_build(folder, cache_dir, entry=...)`` (a test gives its own).
CppBuilder = Callable[..., CppBuilt]

log = logging.getLogger("quoridor.server")

#: Seconds to wait for a process's pipes to close after it exited (a child it left may hold them).
_DRAIN_S = 0.2


def default_build_cache() -> Path:
    """Where C++ builds are cached when the caller names no folder (``HostedBot``, ``BotEntry`` used directly, the
    benches): ``$XDG_CACHE_HOME/quoridor-arena/hosted-cpp`` (``~/.cache/...``), beside the local builds' ``cpp``; the
    server uses ``DATA_DIR/cpp-builds``, a worker ``CACHE/cpp-builds`` (all listed in docs/hosted-bots.md)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "quoridor-arena" / "hosted-cpp"


class _Pipes(asyncio.SubprocessProtocol):
    """Reads the process's stdout (lines, stamped) and stderr (a capped tail) as they arrive."""

    def __init__(self, bot: HostedBot) -> None:
        self.bot = bot
        self.exited = asyncio.get_running_loop().create_future()
        self.closed = asyncio.get_running_loop().create_future()

    def pipe_data_received(self, fd: int, data: bytes) -> None:
        arrived_at = self.bot.clock()          # first: a step is judged by when its bytes arrived
        if fd == 1:
            self.bot._stdout(data, arrived_at)
        else:
            self.bot._stderr(data)

    def process_exited(self) -> None:
        if not self.exited.done():
            self.exited.set_result(None)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.closed.done():
            self.closed.set_result(None)


class HostedBot:
    """A bot process for ``spec`` (relative to ``folder``, the bot's files; ``None``: a built-in bot).

    ``on_line(text, arrived_at)`` hears each protocol line after the bot's ``hello``; ``on_exit``
    hears how the process ended (once). ``trusted`` bots (the built-in ones) may run without the
    sandbox; a handed-in bot never does unless ``limits.unsafe``. A C++ bot's builds are cached under
    ``builds`` (default ``default_build_cache()``), made by ``builder`` (default ``sandboxed_cpp_build``).
    """

    def __init__(self, spec: str, folder: Path | None, limits: SandboxLimits, *, trusted: bool = False,
                 layout: SandboxLayout | None = None, clock: Callable[[], float] = time.monotonic,
                 builds: Path | None = None, builder: CppBuilder | None = None) -> None:
        self.spec = spec
        #: What runs it (``shared.hosting.LANGUAGES``): ``builtin``/``python`` (the bot host), ``cpp``, ``executable``.
        self.language = bot_language(spec) if folder is not None else "builtin"
        #: Where its C++ builds are cached.
        self.builds = builds if builds is not None else default_build_cache()
        self._builder = builder
        #: Its C++ build (``None`` until built, and for other bots): the executable, notes, whether it was cached.
        self.built: CppBuilt | None = None
        #: The clock of its lines' arrival stamps (the clock of the match's deadlines).
        self.clock = clock
        self.folder = folder
        self.limits = limits
        self.trusted = trusted
        self.layout = layout
        self.on_line: Callable[[str, float], None] | None = None
        self.on_exit: Callable[[BotEnd], None] | None = None
        #: How the process ended (``None`` while it runs).
        self.ended: BotEnd | None = None
        #: The bot's ``hello``, once it is loaded.
        self.hello: dict[str, object] | None = None
        #: Seconds from the start to the bot's ``hello`` (loaded and created).
        self.start_s: float | None = None
        self.pid: int | None = None            # the bot's own process (inside the sandbox: its host pid)
        self._transport: asyncio.SubprocessTransport | None = None
        self._pipes: _Pipes | None = None
        self._ready: asyncio.Future[None] | None = None
        self._buffer = bytearray()
        self._tail = bytearray()
        self._err_bytes = 0
        self._stopped: BotEnd | None = None
        self._adopting: asyncio.Task[None] | None = None     # a start cancelled as it spawned (``_adopt``)
        self._uid: int | None = None
        self._cpu: CpuClock | None = None
        self._sandboxed = False
        #: The bot's process tree (made at ``start``): frozen between its turns, its CPU counted.
        self.cage: Cage | None = None
        #: The core it is pinned to, taken from ``CORES`` at its start (``None``: not pinned).
        self._core: int | None = None
        self._launch: BwrapLaunch | None = None      # bwrap's arguments and filter, until it started
        self._done = asyncio.Event()

    # -- starting -------------------------------------------------------------------------------
    async def _build(self) -> BotEnd | None:
        """A C++ bot's build, off the event loop (cached): ``None`` when its executable is ready, else why not."""
        problem = cpp_status()
        if problem is not None:
            return BotEnd("no_compiler", problem)
        # Unsafe (--unsafe-no-sandbox), the build runs unsandboxed where bubblewrap does not work, as the bot will.
        builder = self._builder or functools.partial(sandboxed_cpp_build, unsafe=self.limits.unsafe, held=True)
        assert self.folder is not None
        entry = self.spec.strip() if ":" in self.spec else None       # FILE.cpp alone: its Player class is found
        self.built = await asyncio.to_thread(builder, self.folder, self.builds, entry=entry)
        if self.built.executable is None:
            return BotEnd("compile_error", self.built.reason)
        return None

    def _own_program(self) -> BotEnd | None:
        """An executable bot's entry: ``None`` when it is a file its process may run, else why not."""
        assert self.folder is not None
        path = self.folder / self.spec.strip()
        needed = 0o005 if os.geteuid() == 0 and not self.limits.unsafe else 0o100
        try:
            mode = path.stat().st_mode
        except OSError:
            return BotEnd("no_player", f"{self.spec}: there is no such file in the bot's folder")
        if not path.is_file() or mode & needed != needed:
            return BotEnd("no_player", f"{self.spec} is not an executable file (hand in a program or a script "
                                       "starting with #!, mode 0755)")
        return None

    def _command(self, sandboxed: bool) -> tuple[list[str], str | None]:
        """The command that runs the bot (its paths inside the sandbox when ``sandboxed``), and the built
        executable to bind at ``PROGRAM`` (``None``: none)."""
        if self.language == "cpp":
            assert self.built is not None and self.built.executable is not None
            executable = str(self.built.executable.resolve())
            return ([PROGRAM] if sandboxed else [executable]), executable
        if self.language == "executable":
            assert self.folder is not None
            inside = self.spec.strip().removeprefix("./")
            return [f"{BOT_DIR}/{inside}" if sandboxed else str((self.folder / inside).resolve())], None
        return host_command(sys.executable, self.spec), None

    def _argv(self) -> list[str]:
        if self.limits.unsafe or (self.trusted and sandbox_status() is not None):
            return self._command(sandboxed=False)[0]
        command, program = self._command(sandboxed=True)
        problem = sandbox_status()
        if problem is not None:
            raise SandboxUnavailable(f"refusing to run handed-in code without the sandbox: {problem}")
        try:
            seccomp = bot_filter()
        except SeccompUnavailable as exc:
            raise SandboxUnavailable(f"refusing to run handed-in code without the sandbox: {exc}") from exc
        root = os.geteuid() == 0
        layout = self.layout or current_layout(str(project_root()), root=root)
        self._uid = UIDS.take() if root else 0
        self._sandboxed = True
        folder = None if self.folder is None else str(self.folder.resolve())
        self._launch = bwrap_launch(layout, folder, command, self.limits, self._uid, seccomp, program=program)
        return self._launch.argv

    def _unreadable(self) -> str | None:
        """The first of the bot's files (or folders) that others may not read, which the bot's own user could not."""
        if self.folder is None:
            return None
        for here, _folders, files in os.walk(self.folder):
            for path, needed in ((here, 0o005), *((os.path.join(here, name), 0o004) for name in files)):
                try:
                    if os.stat(path).st_mode & needed != needed:
                        return path
                except OSError:
                    return path
        return None

    def _limit_child(self) -> None:
        """In the child, before ``exec``: the rlimits (bubblewrap and the bot inherit them)."""
        for which, soft, hard in rlimits(self.limits):
            resource.setrlimit(which, (soft, hard))
        if self.cage is not None:
            self.cage.join()
        os.nice(BOT_NICE)
        if self._core is not None:
            try:
                os.sched_setaffinity(0, {self._core})
            except OSError:
                pass                                 # the core went away meanwhile: any core will do

    async def start(self) -> BotEnd | None:
        """Start the process and wait until the bot is loaded: ``None`` then, else how it ended (``too_slow``:
        loading took longer than ``startup_timeout_s``). ``SandboxUnavailable`` when it may not run here."""
        loop = asyncio.get_running_loop()
        if self.language in ("cpp", "executable"):       # before the startup clock: a cold build takes seconds
            refused = await self._build() if self.language == "cpp" else self._own_program()
            if refused is not None:
                self.ended = refused
                self._done.set()
                return self.ended
        else:
            await host_packages_compiled(project_root())  # once: the sandbox cannot cache the host's bytecode
        argv = self._argv()
        hidden = self._unreadable() if self._uid else None
        if hidden is not None:
            self._release()
            self.ended = BotEnd("sandbox_unavailable", f"the bot's files are not readable by the sandbox's user: "
                                                       f"{hidden} (folders need mode 0755 or 0555, files 0644 or 0444)")
            self._done.set()
            return self.ended
        started = self.clock()
        self._ready = loop.create_future()
        self.cage = make_cage()
        if self.limits.freeze_between_turns:
            self._core = CORES.take()
        cwd = str(self.folder) if self.folder is not None and not self._sandboxed else None
        # Sandboxed, bubblewrap gets no environment: its init (pid 1 inside) would show it to a bot without root; the
        # bot's own is bwrap_argv's --setenv.
        env = {} if self._sandboxed else {"PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                                          "PYTHONPATH": str(project_root()), "PYTHONDONTWRITEBYTECODE": "1",
                                          "LANG": "C.UTF-8"}
        # Shielded: on 3.11, a cancellation that reaches subprocess_exec while it connects the pipes can make it
        # wait for ever for a process it has killed (base_subprocess's _wait: a pipe never connected, so the
        # transport never finishes). A start cancelled here lets the spawn end, then stops what it made (``_adopt``).
        spawn = loop.create_task(loop.subprocess_exec(
            lambda: _Pipes(self), *argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, cwd=cwd, env=env, start_new_session=True,
            preexec_fn=self._limit_child, pass_fds=self._launch.fds if self._launch else ()))
        try:
            self._transport, self._pipes = await asyncio.shield(spawn)
        except OSError as exc:
            self._release()
            raise SandboxUnavailable(f"cannot start the bot host ({exc}): {INSTALL_HINT}") from exc
        except asyncio.CancelledError:
            self._adopting = loop.create_task(self._adopt(spawn))
            raise
        self._close_launch()                             # bwrap holds its own copies now
        loop.create_task(self._watch())
        try:
            async with asyncio.timeout(self.limits.startup_timeout_s):
                await asyncio.wait({self._ready, self._pipes.exited}, return_when=asyncio.FIRST_COMPLETED)
        except TimeoutError:
            self.stop(BotEnd("too_slow", f"did not start within {self.limits.startup_timeout_s:g} s "
                                         "(importing its files and creating its player took too long)"))
        if self._ready.done() and self.ended is None and self._stopped is None:
            self.start_s = self.clock() - started
            await asyncio.to_thread(self._find_pid)      # a scan of /proc: off the event loop
            return None
        return await self.wait()

    async def _adopt(self, spawn: asyncio.Task[tuple[asyncio.SubprocessTransport, _Pipes]]) -> None:
        """A start cancelled while its process was spawned: once it is (the spawn is never cancelled), watch it and
        stop it; ``close`` waits for this first."""
        try:
            self._transport, self._pipes = await asyncio.shield(spawn)
        except OSError:
            return                               # no process: ``close`` releases what the start held
        self._close_launch()
        asyncio.get_running_loop().create_task(self._watch())
        self.stop(self._stopped or BotEnd("ok", "stopped as it started"))

    def _find_pid(self) -> None:
        assert self._transport is not None
        pid = self._transport.get_pid()
        if self._sandboxed:               # bwrap -> bwrap (the namespace's init) -> the bot
            for _ in range(2):
                found = children(pid)
                if not found:
                    return
                pid = found[0]
        self.pid = pid
        self._cpu = CpuClock.of(pid)
        if self.cage is not None:
            outer = self._transport.get_pid()
            top = pid if not self._sandboxed else (children(outer) or [pid])[0]     # the namespace's init
            if not self.cage.attach(outer, top, session=not self._sandboxed):
                self.cage.close()                    # it could not join its cgroup: stop it with signals instead
                self.cage = SignalCage()
                self.cage.attach(outer, top, session=not self._sandboxed)

    # -- the pipes ------------------------------------------------------------------------------
    def _stdout(self, data: bytes, arrived_at: float) -> None:
        buffer = self._buffer
        buffer += data
        while (end := buffer.find(b"\n")) >= 0:
            line = bytes(buffer[:end])
            del buffer[:end + 1]
            self._line(line, arrived_at)
        if len(buffer) > self.limits.line_bytes:
            buffer.clear()
            self.stop(BotEnd("output_limit", f"wrote a protocol line longer than {self.limits.line_bytes:,} bytes"))

    def _line(self, raw: bytes, arrived_at: float) -> None:
        if self._stopped is not None or len(raw) > self.limits.line_bytes:
            if self._stopped is None:
                self.stop(BotEnd("output_limit", f"wrote a protocol line longer than {self.limits.line_bytes:,} bytes"))
            return
        text = raw.decode("utf-8", "replace")
        if self._ready is not None and not self._ready.done():
            try:
                message = json.loads(text)
            except ValueError:
                message = None
            if isinstance(message, dict) and message.get("type") == "hello":
                self.hello = message
                self._ready.set_result(None)
                return
        if self.on_line is not None:
            self.on_line(text, arrived_at)

    def charge_output(self, size: int) -> None:
        """Count ``size`` bytes against the output cap (a stdout line that was no protocol message)."""
        self._stderr(b"", size)

    def _stderr(self, data: bytes, extra: int = 0) -> None:
        self._err_bytes += len(data) + extra
        self._tail += data
        if len(self._tail) > 4096:
            del self._tail[:-4096]
        if self._err_bytes > self.limits.output_bytes and self._stopped is None:
            self.stop(BotEnd("output_limit", f"printed more than {self.limits.output_bytes:,} bytes"))

    @property
    def last_error_line(self) -> str:
        """The last line the process wrote on stderr ("" when none)."""
        lines = [line for line in bytes(self._tail).decode("utf-8", "replace").splitlines() if line.strip()]
        return lines[-1].strip() if lines else ""

    @property
    def output_tail(self) -> str:
        """The last few KB the process wrote on stderr (the bot's prints, tracebacks)."""
        return bytes(self._tail).decode("utf-8", "replace")

    # -- talking --------------------------------------------------------------------------------
    def send(self, line: str) -> bool:
        """Write one protocol line (without its line break); False when the process is gone."""
        transport = self._transport
        if transport is None or self.ended is not None or self._stopped is not None:
            return False
        pipe = transport.get_pipe_transport(0)
        if pipe is None or pipe.is_closing():
            return False
        pipe.write(line.encode("utf-8") + b"\n")
        return True

    def cpu_seconds(self) -> float | None:
        """CPU seconds the bot's whole process tree has used so far (``None`` when it cannot be read).

        Over ``limits.cpu_seconds`` the bot is stopped (``cpu_limit``): the budget is the tree's, not a process's.
        """
        used = self.cage.cpu_seconds() if self.cage is not None and self.pid is not None else None
        if used is None:
            used = None if self._cpu is None else self._cpu.seconds()
        if used is not None and used >= self.limits.cpu_seconds and self._stopped is None and self.ended is None:
            self.stop(BotEnd("cpu_limit", f"used its {self.limits.cpu_seconds} s of CPU time (all its processes "
                                          "and threads together)"))
        return used

    def freeze(self) -> None:
        """Stop the bot's whole process tree until ``thaw`` (between its step and its next turn)."""
        if self.cage is not None and self.pid is not None and self.limits.freeze_between_turns and self.ended is None:
            self.cage.freeze()

    def thaw(self) -> None:
        """Let the bot's process tree run again (a turn is going out to it)."""
        if self.cage is not None:
            self.cage.thaw()

    # -- ending ---------------------------------------------------------------------------------
    @property
    def stopping(self) -> bool:
        """True once the server stopped the process (it may not have ended yet)."""
        return self._stopped is not None

    def stop(self, end: BotEnd) -> None:
        """Stop the bot now for ``end`` (a limit it broke, or the server is done with it): kill its sandbox."""
        if self._stopped is None and self.ended is None:
            self._stopped = end
        self._kill()

    def _kill(self) -> None:
        transport = self._transport
        if transport is None or transport.get_returncode() is not None:
            return
        # bwrap (its PID namespace dies with it) or, unsafe, the host's group, and the cage (its cgroup: all of it).
        # Not ``transport.kill()``: it polls the process, which would reap it behind the child watcher's back.
        if self.cage is not None:
            self.cage.kill()
        try:
            os.killpg(transport.get_pid(), signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    async def _watch(self) -> None:
        """Settle ``ended`` once the process exited (and its pipes are drained), then tell ``on_exit``."""
        pipes = self._pipes
        assert pipes is not None and self._transport is not None
        await pipes.exited
        self.cpu_seconds()
        try:
            async with asyncio.timeout(_DRAIN_S):
                await asyncio.shield(pipes.closed)
        except TimeoutError:
            pass
        self._kill_leftovers()
        code = self._transport.get_returncode()
        end = classify_exit(code if code is not None else -9, self.last_error_line, stopped=self._stopped,
                            cpu_s=self.cpu_seconds(), cpu_limit_s=self.limits.cpu_seconds,
                            address_space_mb=self.limits.address_space_mb)
        self.ended = end
        self._release()
        self._transport.close()
        if self._ready is not None and not self._ready.done():
            self._ready.set_result(None)
        self._done.set()
        if self.on_exit is not None:
            self.on_exit(end)

    def _kill_leftovers(self) -> None:
        """Unsafe, a child the bot left behind still holds the group: end it (the sandbox's die with bubblewrap)."""
        if self.cage is not None:
            self.cage.kill()
        if self._transport is not None:
            try:
                os.killpg(self._transport.get_pid(), signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass

    def _close_launch(self) -> None:
        if self._launch is not None:
            self._launch.close()
            self._launch = None

    def _release(self) -> None:
        if self.built is not None:                   # its build may be evicted from the cache now
            let_go(self.built.hold)
            self.built = replace(self.built, hold=None)
        CORES.give(self._core)
        self._core = None
        if self.cage is not None:
            self.cage.close()
        self._close_launch()
        if self._cpu is not None:
            self._cpu.close()
        if self._uid:
            UIDS.give(self._uid)
            self._uid = None

    async def wait(self) -> BotEnd:
        """Wait for the process to end; how it ended."""
        await self._done.wait()
        assert self.ended is not None
        return self.ended

    async def close(self, end: BotEnd | None = None) -> BotEnd:
        """End the process (``end``: why, default a normal end) and wait for it; how it ended."""
        if self._adopting is not None:
            await self._adopting                 # a start cancelled as it spawned: its process first (a few ms)
        if self.ended is None:
            if self._stopped is None:
                self._stopped = end or BotEnd("ok", "")
            self.stop(self._stopped)
            if self._transport is None:
                self._release()
                self.ended = self._stopped
                self._done.set()
                return self.ended
        return await self.wait()

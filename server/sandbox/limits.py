"""``SandboxLimits``: what a handed-in bot's process may use, and the rlimits that enforce it (pure).

The limits are settings (``ServerSettings.sandbox``). ``unsafe`` is ``--unsafe-no-sandbox``: the
bot runs without bubblewrap, under the rlimits only (no namespaces: it can reach the network and
read what the server's user can read); the server says so loudly at every start.
"""

from __future__ import annotations

import resource
from dataclasses import dataclass

__all__ = ["SandboxLimits", "Rlimit", "rlimits", "MB"]

MB = 1024 * 1024
"""One megabyte (MiB), as the limits count them."""

#: One rlimit to set in the bot's process: the resource (``resource.RLIMIT_*``), soft and hard values.
Rlimit = tuple[int, int, int]


@dataclass(frozen=True)
class SandboxLimits:
    """What one hosted bot process may use; the defaults are those of issue 18."""

    #: Address space (RLIMIT_AS) in MB: an allocation beyond it fails (``MemoryError``).
    address_space_mb: int = 256
    #: CPU seconds of the process over its whole life (RLIMIT_CPU: SIGXCPU, then SIGKILL a second later).
    #: A process plays one pairing: two games of at most 100 steps of 1 s each fit in 200 s.
    cpu_seconds: int = 300
    #: Processes and threads of the sandbox (RLIMIT_NPROC, set inside it by ``bwrap_argv``: it counts the bot's own
    #: user as root, the sandbox's user namespace without root; the sandbox's init is one of them).
    processes: int = 32
    #: Open files (RLIMIT_NOFILE).
    open_files: int = 64
    #: The largest file the bot may write (RLIMIT_FSIZE), in MB: it can write only in its private /tmp anyway.
    file_size_mb: int = 8
    #: Bytes the bot may print (stdout and stderr together, protocol lines excepted) before it is stopped.
    output_bytes: int = 1 * MB
    #: The longest protocol line the bot may write on stdout, in bytes.
    line_bytes: int = 64 * 1024
    #: Size of the private /tmp (a tmpfs) in MB.
    tmp_mb: int = 16
    #: Seconds the bot may take to start: import its files and create its player (no step is timed meanwhile).
    startup_timeout_s: float = 10.0
    #: ``--unsafe-no-sandbox``: run without bubblewrap, with these rlimits only.
    unsafe: bool = False
    #: Stop the bot's whole process tree between its step and its next turn, and pin it to a core (issue 31; off
    #: only to measure what they change).
    freeze_between_turns: bool = True

    def __post_init__(self) -> None:
        for name in ("address_space_mb", "cpu_seconds", "processes", "open_files", "file_size_mb", "output_bytes",
                     "line_bytes", "tmp_mb"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"sandbox limit {name} must be a positive whole number, got {value!r}")
        if not self.startup_timeout_s > 0:
            raise ValueError(f"sandbox limit startup_timeout_s must be positive, got {self.startup_timeout_s!r}")


def rlimits(limits: SandboxLimits) -> tuple[Rlimit, ...]:
    """The rlimits of a bot process under ``limits``, set before bubblewrap starts: address space, CPU, open files,
    file size.

    The CPU's hard limit is a second above the soft one, so a bot that keeps computing gets SIGXCPU
    (told apart from any other kill) before the kernel's SIGKILL. The process limit is not among
    them: set on bubblewrap it would count every process of the server's user (an idle server has
    15) and, without root, refuse the sandbox's own start; ``bwrap_argv`` sets it inside the
    sandbox. Unsafe (``--unsafe-no-sandbox``) bots therefore have no process limit.
    """
    return (
        (resource.RLIMIT_AS, limits.address_space_mb * MB, limits.address_space_mb * MB),
        (resource.RLIMIT_CPU, limits.cpu_seconds, limits.cpu_seconds + 1),
        (resource.RLIMIT_NOFILE, limits.open_files, limits.open_files),
        (resource.RLIMIT_FSIZE, limits.file_size_mb * MB, limits.file_size_mb * MB),
        (resource.RLIMIT_CORE, 0, 0),
    )

"""Why a hosted bot's process ended or was refused: stable cause codes and one line for people (pure).

The bot host (``client/hosted.py``, run as a process) exits with a code of its own for each way
loading a bot fails, and says why on its last stderr line; a signal or a limit ends it otherwise.
``classify_exit`` turns what is seen from outside (exit status, last stderr line, what the server
itself did) into a ``BotEnd``.
"""

from __future__ import annotations

import signal
from dataclasses import dataclass

from shared.hosting import EXIT_CODES

__all__ = ["CAUSES", "HOST_EXIT_CODES", "BotEnd", "classify_exit"]

CAUSES = ("ok", "syntax_error", "import_error", "no_player", "init_error", "compile_error", "no_compiler",
          "illegal_steps", "timeout", "too_slow", "memory_limit", "cpu_limit", "output_limit", "crashed",
          "sandbox_unavailable")
"""Every cause code: why a bot was refused, or how its process ended (stable: reports and logs carry them).
``compile_error``: a C++ bot's build failed (``file:line: message``, or the build's limit it hit), before it ran;
``no_compiler``: the server cannot build C++ bots (no g++ or no JSON headers: the line says what to install)."""

#: The cause of each of the bot host's exit codes (``shared.hosting.EXIT_CODES``; a bad command line counts as crashed).
HOST_EXIT_CODES = {code: "crashed" if cause == "usage" else cause for cause, code in EXIT_CODES.items()}


@dataclass(frozen=True)
class BotEnd:
    """How a hosted bot's process ended: a cause code (``CAUSES``) and one line for people."""

    cause: str
    reason: str

    def __str__(self) -> str:
        return f"{self.cause}: {self.reason}" if self.reason else self.cause


def _strip_cause(line: str, cause: str) -> str:
    return line[len(cause) + 2:] if line.startswith(cause + ": ") else line


def classify_exit(returncode: int, last_line: str, *, stopped: BotEnd | None = None, cpu_s: float | None = None,
                  cpu_limit_s: int | None = None, address_space_mb: int | None = None) -> BotEnd:
    """The ``BotEnd`` of a process that exited with ``returncode`` (negative: killed by that signal).

    ``stopped`` is what the server itself stopped it for (output over the cap, the startup timeout,
    a closed game): it wins over anything the exit status says. ``last_line`` is the last line the
    process wrote on stderr; ``cpu_s`` the CPU time it used, told against ``cpu_limit_s``.
    A bubblewrap sandbox reports a child killed by signal N as the exit code 128 + N, and its own
    failure to set the sandbox up as exit code 1 with a ``bwrap:`` line: that is the server's problem
    (``sandbox_unavailable``), never the bot's.
    """
    if stopped is not None:
        return stopped
    line = " ".join(last_line.split())
    if returncode == 0:
        return BotEnd("ok", "")
    if returncode == 1 and line.startswith("bwrap: "):
        return BotEnd("sandbox_unavailable", f"the sandbox could not start the bot here ({line}); the server's "
                                             "organiser can run quoridor-server --sandbox-self-test")
    if returncode in HOST_EXIT_CODES:
        cause = HOST_EXIT_CODES[returncode]
        return BotEnd(cause, _strip_cause(line, cause) or f"the bot host exited with code {returncode}")
    signum = -returncode if returncode < 0 else returncode - 128 if 128 < returncode < 160 else None
    if signum == signal.SIGXCPU or (signum == signal.SIGKILL and cpu_s is not None and cpu_limit_s is not None
                                    and cpu_s >= cpu_limit_s):
        return BotEnd("cpu_limit", f"used its {cpu_limit_s} s of CPU time (killed by the CPU limit)")
    if "MemoryError" in line or "Cannot allocate memory" in line or "out of memory" in line.lower():
        limit = f" of {address_space_mb} MB" if address_space_mb else ""
        return BotEnd("memory_limit", f"ran out of its address space{limit}: {line}")
    if signum is not None:
        try:
            name = signal.Signals(signum).name
        except ValueError:
            name = f"signal {signum}"
        return BotEnd("crashed", f"killed by {name}" + (f"; last output: {line}" if line else ""))
    return BotEnd("crashed", line or f"exited with code {returncode}")

"""Handed-in bots run in a sandbox: bubblewrap plus rlimits, one process per pairing, over stdin/stdout.

* ``SandboxLimits`` (``limits``): what a bot's process may use; ``unsafe`` is ``--unsafe-no-sandbox``.
* ``sandbox_status`` (``status``): ``None`` when bubblewrap works here, else why not and how to install it;
  ``cpp_status``: the same for building C++ bots (g++ and the JSON headers).
* ``bwrap_argv`` (``bwrap``): the sandbox's command line, a pure function; ``bwrap_launch`` passes its options
  through a memory file, with ``bot_filter`` (``seccomp``): the system calls a bot is refused.
* ``HostedBot`` (``process``): one bot process (``python -m client.hosted SPEC``; a C++ bot's build, made before
  its startup clock and cached; a program of the bot's own), its whole tree in a
  ``Cage`` (``cage``: a cgroup of its own, else signals), frozen between its turns, its CPU counted from
  outside (the cgroup's, else ``procfs``'s); ``causes`` says why it ended.
* ``HostedSeat``, ``HostedPeer`` (``seat``): that process as a player; its steps go through
  ``PlayerSession.submit``, as a websocket player's do.
* ``GameHost``, ``LocalGameHost`` (``host``): where pairings of hosted bots are played; ``HostedRows``
  (``rows``) adds their CPU times and ends to the logs.
* ``HostedPlayers`` (``players``): hosted bots seated in a lobby for good (the ladder's residents; a newer
  version replaces a bot between games).
* ``compile_host_packages`` (``bytecode``): the bot host's packages byte-compiled once, before the first start.
* ``sandboxed_cpp_build`` (``cppbuild``): a C++ hand-in built by g++ inside the sandbox, under its own limits; the
  executable or one line saying why not; cached by the hash of the files and the compiler (unsafe, without the
  sandbox where there is none). ``buildcache``: the cache's bound (the most recently used builds, none a bot runs).
* ``validate_bot`` (``validate``): import, create, one short game against ``random``: a ``Validation``.
* ``run_self_test`` (``selftest``): hostile probes in this machine's sandbox, a verdict each
  (``quoridor-server --sandbox-self-test``, ``quoridor-worker --self-test``).
"""

from server.sandbox.bwrap import SandboxLayout, bwrap_argv
from server.sandbox.bytecode import compile_host_packages
from server.sandbox.causes import CAUSES, BotEnd, classify_exit
from server.sandbox.host import (
    BotEntry, BotReport, GameHost, GameSpec, LocalGameHost, Pairing, PairingRefused, PairingResult, default_concurrency,
    play_pairing,
)
from server.sandbox.limits import SandboxLimits, rlimits
from server.sandbox.players import HostedPlayer, HostedPlayers
from server.sandbox.process import HostedBot, SandboxUnavailable
from server.sandbox.rows import HostedRows
from server.sandbox.seat import HostedPeer, HostedSeat, StepTiming
from server.sandbox.status import INSTALL_HINT, UNSAFE_WARNING, sandbox_notice, sandbox_status
from server.sandbox.validate import Validation, validate_bot

__all__ = [
    "BotEnd", "BotEntry", "BotReport", "CAUSES", "GameHost", "GameSpec", "HostedBot", "HostedPeer", "HostedPlayer",
    "HostedPlayers", "HostedRows", "HostedSeat", "INSTALL_HINT", "LocalGameHost", "Pairing", "PairingRefused", "PairingResult",
    "SandboxLayout", "SandboxLimits", "SandboxUnavailable", "StepTiming", "UNSAFE_WARNING", "Validation", "bwrap_argv",
    "classify_exit", "compile_host_packages", "default_concurrency", "play_pairing", "rlimits", "sandbox_notice",
    "sandbox_status", "validate_bot",
]

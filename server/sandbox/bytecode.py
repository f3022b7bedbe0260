"""``compile_host_packages``: the bot host's packages byte-compiled once per server, before the first sandbox starts.

Inside the sandbox the project's packages are read-only (and ``PYTHONDONTWRITEBYTECODE`` is set), so
a bot host whose modules have no up-to-date ``__pycache__`` would compile them from source at every
start, before its ``hello``. The server never imports ``client``: nothing else writes its bytecode.
Compiling is skipped for files whose bytecode is current, and a tree the server may not write is
left as it is (the bots then start a little slower, nothing more).
"""

from __future__ import annotations

import asyncio
import compileall
import functools
from pathlib import Path

__all__ = ["compile_host_packages", "host_packages_compiled"]

#: The project's packages a bot host imports (``python -m client.hosted``).
HOST_PACKAGES = ("client", "shared")


@functools.cache
def compile_host_packages(project: Path) -> bool:
    """Write the missing or stale bytecode of ``project``'s ``client`` and ``shared`` (once per project); True when
    every file compiled (False: some could not be written, or did not compile)."""
    # a list, not a generator: every package is compiled even when one of them fails
    return all([compileall.compile_dir(project / package, quiet=2, workers=1) for package in HOST_PACKAGES])


async def host_packages_compiled(project: Path) -> None:
    """``compile_host_packages`` off the event loop, the first time only."""
    if compile_host_packages.cache_info().currsize == 0:
        await asyncio.to_thread(compile_host_packages, project)

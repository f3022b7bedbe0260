"""File descriptors and connections: how many connections the server may hold with the open-file limit it has."""

from __future__ import annotations

import resource

__all__ = ["FILES_IN_RESERVE", "connection_capacity", "raise_open_file_limit"]

#: Open files kept for the server's own use (logs, the databases) when it sizes its connection limit.
FILES_IN_RESERVE = 0.5


def connection_capacity(open_files: int) -> int:
    """Connections the server may hold at once with ``open_files`` file descriptors: half of them.

    The other half is kept for what a tournament opens itself (a log per game in progress, the
    databases), so that no number of connections can make a game's log impossible to open.
    """
    return max(16, int(open_files * (1 - FILES_IN_RESERVE)))


def raise_open_file_limit() -> int:
    """Raise this process's open-file limit to its hard limit (as servers do at start); the limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        wanted = 1 << 20 if hard == resource.RLIM_INFINITY else hard
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return soft

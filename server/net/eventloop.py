"""The event loop the server runs on: uvloop where it is installed (Linux, macOS), else asyncio's own.

uvloop is a drop-in loop written in C; it roughly halves the loop's own cost per message, which
is most of what a step costs besides the rules. It does not exist on Windows, where asyncio's
loop serves (slower, equally correct).
"""

from __future__ import annotations

import asyncio
import gc
import sys
import importlib.util
from collections.abc import Coroutine
from typing import Any, TypeVar

__all__ = ["run", "loop_name"]

T = TypeVar("T")


def loop_name() -> str:
    """``"uvloop"`` when the server will run on it, else ``"asyncio"``."""
    return "uvloop" if importlib.util.find_spec("uvloop") is not None else "asyncio"


def run(main: Coroutine[Any, Any, T]) -> T:
    """Run ``main`` to completion on the best loop available (as ``asyncio.run``), with the GC set for a server.

    ``gc.freeze()`` moves everything alive at start-up (modules, the protocol's compiled schemas)
    out of the collector's sight: a full collection then scans only what the tournament made, so
    its pauses, which stop every game's clock-keeping at once, stay short.
    """
    gc.collect()
    gc.freeze()
    # Full collections only after many more survivors than the default (10 young collections):
    # each one pauses every clock-keeping task at once.
    gc.set_threshold(700, 10, 1000)
    # The log and database threads run Python code too; a thread holding the GIL keeps the event
    # loop waiting up to the switch interval (5 ms by default) each time it wants it back.
    sys.setswitchinterval(0.001)
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    return uvloop.run(main)

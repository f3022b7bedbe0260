"""The event loop the server runs on: uvloop where it is installed (Linux, macOS), else asyncio's own.

uvloop is a drop-in loop written in C; it roughly halves the loop's own cost per message, which
is most of what a step costs besides the rules. It does not exist on Windows, where asyncio's
loop serves (slower, equally correct).
"""

from __future__ import annotations

import asyncio
import importlib.util
from collections.abc import Coroutine
from typing import Any, TypeVar

__all__ = ["run", "loop_name"]

T = TypeVar("T")


def loop_name() -> str:
    """``"uvloop"`` when the server will run on it, else ``"asyncio"``."""
    return "uvloop" if importlib.util.find_spec("uvloop") is not None else "asyncio"


def run(main: Coroutine[Any, Any, T]) -> T:
    """Run ``main`` to completion on the best loop available (as ``asyncio.run``)."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    return uvloop.run(main)

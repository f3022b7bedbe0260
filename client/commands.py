"""How to name this package's console scripts in a command a person can paste into a shell."""

from __future__ import annotations

import shlex
import shutil
import sys
from pathlib import Path

__all__ = ["installed_command"]


def installed_command(name: str) -> str:
    """The console script ``name`` as a shell word: the file beside the running Python, relative when under the cwd.

    After the README's quick start the virtual environment is not activated, so a bare
    ``quoridor-replay`` is not found; ``.venv/bin/quoridor-replay`` is. Falls back to the
    ``PATH`` and then to the bare name when the script is not installed beside the interpreter.
    """
    folder = Path(sys.executable).absolute().parent     # not resolved: a venv's python is a symlink
    for candidate in (folder / name, folder / f"{name}.exe"):
        if candidate.is_file():
            path = candidate
            break
    else:
        found = shutil.which(name)
        return shlex.quote(found) if found else name
    try:
        shown = path.relative_to(Path.cwd())
    except ValueError:
        shown = path
    return shlex.quote(str(shown))

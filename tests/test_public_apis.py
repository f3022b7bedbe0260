"""Public APIs only: no file of the project reaches into a dependency's private names or internals.

websockets is the one the server once read the insides of (its parser coroutine, its reader's
buffer, an undocumented ``process_event``); the server now stands on its documented sans-I/O
layer, and this keeps it so.
"""

from __future__ import annotations

import ast
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
SOURCES = sorted(p for folder in ("server", "client", "shared", "bench", "tools") for p in (ROOT / folder).rglob("*.py"))
DEPENDENCIES = ("websockets", "pydantic", "rich", "textual", "uvloop")
#: Attributes of websockets' objects that are internal (read by the old fast path) and never to be touched.
WEBSOCKETS_INTERNALS = re.compile(r"\b(gi_yieldfrom|gi_frame|process_event|cur_size|reader\.buffer|"
                                  r"protocol\.parser|protocol\.reader|protocol\.writes|protocol\.events)\b")


def _private_imports(tree: ast.AST) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in DEPENDENCIES:
            parts = node.module.split(".") + [alias.name for alias in node.names]
            found += [f"from {node.module} import {alias.name}" for alias in node.names
                      if any(part.startswith("_") for part in parts)]
        elif isinstance(node, ast.Import):
            found += [alias.name for alias in node.names
                      if alias.name.split(".")[0] in DEPENDENCIES and any(p.startswith("_") for p in alias.name.split("."))]
    return found


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_private_name_of_a_dependency_is_imported(path):
    assert not _private_imports(ast.parse(path.read_text(encoding="utf-8"))), path


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_internal_of_websockets_is_read(path):
    hits = [line.strip() for line in path.read_text(encoding="utf-8").splitlines()
            if WEBSOCKETS_INTERNALS.search(line) and not line.lstrip().startswith("#")]
    assert not hits, f"{path.relative_to(ROOT)} reads websockets' internals: {hits}"


def test_the_dependency_range_admits_the_current_websockets_major():
    import websockets

    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    spec = re.search(r'"websockets([^"]*)"', text)
    assert spec is not None
    upper = re.search(r"<\s*(\d+)", spec.group(1))
    major = int(websockets.__version__.split(".")[0])
    assert upper is None or int(upper.group(1)) > major, f"pyproject.toml keeps websockets below {major}"

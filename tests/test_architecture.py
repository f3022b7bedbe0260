"""Layering rules: the pure core imports no I/O or UI, and every package's exports resolve."""

import ast
import importlib
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
FORBIDDEN_IN_SHARED = {"asyncio", "websockets", "rich", "textual", "sqlite3", "socket", "server", "client",
                       "subprocess", "threading"}


def imported_modules(path: pathlib.Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("path", sorted((ROOT / "shared").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_shared_is_pure(path):
    bad = imported_modules(path) & FORBIDDEN_IN_SHARED
    assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}; keep I/O and UI in server/ or client/"


def full_imports(path: pathlib.Path) -> set[str]:
    """The dotted names a module imports (``from a.b import c`` gives ``a.b``)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


#: The one thing the client takes from the server: the atomic game-log writer (file I/O, so not in shared).
CLIENT_MAY_USE_FROM_SERVER = {"server.logfile"}


def test_server_and_client_stay_apart():
    for path in (ROOT / "server").rglob("*.py"):
        assert not {n for n in full_imports(path) if n.split(".")[0] == "client"}, f"{path} imports the client"
    for path in (ROOT / "client").rglob("*.py"):
        used = {n for n in full_imports(path) if n.split(".")[0] == "server"}
        assert used <= CLIENT_MAY_USE_FROM_SERVER, f"{path} imports {sorted(used - CLIENT_MAY_USE_FROM_SERVER)}"


def test_shared_opens_no_files():
    for path in (ROOT / "shared").rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        assert "open(" not in source.replace(".open", ""), f"{path} opens a file"


@pytest.mark.parametrize("package", ["shared.grid", "shared.quoridor", "shared.protocol", "shared.tournament", "shared.gamelog", "shared.referee",
                                     "shared.legacy", "shared.ice", "shared.circuit"])
def test_exports_resolve(package):
    module = importlib.import_module(package)
    for name in module.__all__:
        assert hasattr(module, name), f"{package}.__all__ names {name}, which does not exist"

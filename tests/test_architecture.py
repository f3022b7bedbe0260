"""Layering rules: the pure core imports no I/O or UI, server and client never import each other,
only the client's terminal-UI modules import rich or Textual, and every package's exports resolve."""

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


def test_server_and_client_stay_apart():
    for path in (ROOT / "server").rglob("*.py"):
        assert not {n for n in full_imports(path) if n.split(".")[0] == "client"}, f"{path} imports the client"
    for path in (ROOT / "client").rglob("*.py"):
        assert not {n for n in full_imports(path) if n.split(".")[0] == "server"}, f"{path} imports the server"


#: The client's terminal UI: command lines, renderables, Textual apps and screens. Nothing else in
#: the client (the SDK, the runner, the driver, the local match, the bots, replay sources) draws.
CLIENT_UI_MODULES = {
    "client/cli.py", "client/match_cli.py", "client/render.py",
    "client/puzzles/circuit_app.py", "client/puzzles/circuit_cli.py", "client/puzzles/ice_app.py",
    "client/puzzles/ice_cli.py", "client/puzzles/screen.py", "client/puzzles/sokoban_app.py",
    "client/puzzles/sokoban_cli.py", "client/puzzles/sokoban_render.py",
    "client/replay/app.py", "client/replay/cli.py", "client/replay/screens.py", "client/replay/views.py",
    "client/submit_cli.py",
}
TERMINAL_UI = {"rich", "textual"}


@pytest.mark.parametrize("path", sorted((ROOT / "client").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_only_the_clients_ui_modules_import_rich_or_textual(path):
    name = path.relative_to(ROOT).as_posix()
    if name not in CLIENT_UI_MODULES:
        used = imported_modules(path) & TERMINAL_UI
        assert not used, f"{name} imports {sorted(used)}: draw in a UI module ({sorted(CLIENT_UI_MODULES)})"


def test_the_list_of_client_ui_modules_names_existing_files():
    assert {name for name in CLIENT_UI_MODULES if not (ROOT / name).is_file()} == set()


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

"""Layering rules: the import contracts of pyproject.toml hold (the pure core imports no I/O, clock or UI, server and
client never import each other, no import circles), only the client's terminal-UI modules import rich or Textual,
and every package's exports resolve."""

import ast
import importlib
import pathlib
import subprocess
import sys
import tomllib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]


def imported_modules(path: pathlib.Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_the_import_contracts_hold():
    """pyproject.toml's [tool.importlinter] contracts, as ``lint-imports`` checks them: shared imports neither the
    server nor the client, nor any I/O, clock or UI module; server and client never import each other; no import
    circles (deferred and TYPE_CHECKING imports included)."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]
    assert {c["type"] for c in contracts} >= {"forbidden", "independence", "acyclic_siblings"}
    lint = pathlib.Path(sys.executable).with_name("lint-imports")
    assert lint.exists(), f"no {lint}: pip install -e '.[test]' brings import-linter"
    result = subprocess.run([str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0 and f"{len(contracts)} kept, 0 broken" in result.stdout, result.stdout + result.stderr


#: The client's terminal UI: command lines, renderables, Textual apps and screens. Nothing else in
#: the client (the SDK, the runner, the driver, the local match, the bots, replay sources) draws.
CLIENT_UI_MODULES = {
    "client/cli.py", "client/match_cli.py", "client/render.py",
    "client/puzzles/circuit_app.py", "client/puzzles/circuit_cli.py", "client/puzzles/ice_app.py",
    "client/puzzles/ice_cli.py", "client/puzzles/screen.py", "client/puzzles/sokoban_app.py",
    "client/puzzles/sokoban_cli.py", "client/puzzles/sokoban_render.py",
    "client/replay/app.py", "client/replay/cli.py", "client/replay/screens.py", "client/replay/views.py",
    "client/replay/analysis_view.py", "client/analyse_cli.py", "client/submit_cli.py",
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
                                     "shared.legacy", "shared.ice", "shared.circuit", "shared.engine",
                                     "shared.analysis"])
def test_exports_resolve(package):
    module = importlib.import_module(package)
    for name in module.__all__:
        assert hasattr(module, name), f"{package}.__all__ names {name}, which does not exist"

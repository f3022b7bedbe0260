"""The bot host's packages are byte-compiled once by the server: the sandbox sees them read-only."""

from __future__ import annotations

import os

import pytest

from server.sandbox.bytecode import compile_host_packages


def test_the_host_packages_get_their_bytecode_once(tmp_path):
    for package in ("client", "shared"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("X = 1\n")
    assert compile_host_packages(tmp_path) is True
    assert list((tmp_path / "client" / "__pycache__").glob("__init__.*.pyc"))
    assert list((tmp_path / "shared" / "__pycache__").glob("__init__.*.pyc"))
    for pyc in (tmp_path / "client" / "__pycache__").iterdir():
        pyc.unlink()
    assert compile_host_packages(tmp_path) is True                    # once per project: not compiled again
    assert not list((tmp_path / "client" / "__pycache__").iterdir())


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes anywhere")
def test_a_tree_the_server_may_not_write_is_left_as_it_is(tmp_path):
    for package in ("client", "shared"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("X = 1\n")
        (tmp_path / package).chmod(0o555)
    try:
        assert compile_host_packages(tmp_path) is False
        assert not (tmp_path / "client" / "__pycache__").exists()
    finally:
        for package in ("client", "shared"):
            (tmp_path / package).chmod(0o755)


def test_a_file_that_does_not_compile_is_no_error(tmp_path):
    for package in ("client", "shared"):
        (tmp_path / package).mkdir()
    (tmp_path / "client" / "broken.py").write_text("def (:\n")
    assert compile_host_packages(tmp_path) is False

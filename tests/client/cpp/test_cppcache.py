"""The bound of the local C++ build cache (``client.cppcache``): after a new build the least recently used builds
beyond the bound are removed, never one a run holds, never the current arena objects; a hit marks a build used."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from client import cppcache
from client.cppbuild import CppBuildError
from tests.client.cpp.conftest import HANDOUT_BOT

ARENA = "arena-current"


def fake_build(cache: Path, name: str, used: float) -> Path:
    """A finished build ``name`` in ``cache``, last used at ``used`` (seconds since the epoch)."""
    folder = cache / name
    folder.mkdir(parents=True)
    (folder / "bot").write_bytes(b"\x7fELF")
    (folder / "build.json").write_text(json.dumps({"entry_class": "MyPlayer", "notes": []}), encoding="utf-8")
    os.utime(folder / "build.json", (used, used))
    return folder


def test_the_least_recently_used_builds_beyond_the_bound_are_removed(tmp_path: Path) -> None:
    for number in range(4):
        fake_build(tmp_path, f"b{number}", 1000.0 + number)
    (tmp_path / ARENA).mkdir()
    (tmp_path / "arena-of-an-older-gpp").mkdir()
    (tmp_path / ".building-x").mkdir()                  # a build under way
    removed = cppcache.evict(tmp_path, keep=2, arena=ARENA)
    assert sorted(removed) == ["arena-of-an-older-gpp", "b0", "b1"]
    assert {path.name for path in tmp_path.iterdir()} == {"b2", "b3", ARENA, ".building-x"}


def test_a_build_another_run_holds_is_never_removed(tmp_path: Path) -> None:
    fake_build(tmp_path, "b0", 1000.0)
    fd = os.open(tmp_path / "b0" / "build.json", os.O_RDONLY)     # as another run's hold
    try:
        fcntl.flock(fd, fcntl.LOCK_SH)
        assert cppcache.evict(tmp_path, keep=0, arena=ARENA) == []
    finally:
        os.close(fd)
    assert cppcache.evict(tmp_path, keep=0, arena=ARENA) == ["b0"]


def test_a_hit_marks_the_build_used(tmp_path: Path) -> None:
    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "MyPlayer.cpp").write_text("// a bot\n", encoding="utf-8")
    cache = tmp_path / "cache"
    done = fake_build(cache, cppcache.local_build_key(bot, "MyPlayer.cpp:MyPlayer"), 1000.0)
    found = cppcache.cached_build(bot, entry="MyPlayer.cpp:MyPlayer", cache=cache)
    assert found.cached and found.executable == done / "bot"
    assert (done / "build.json").stat().st_mtime > 1000.0


def test_the_bound_is_read_from_the_environment_with_a_one_line_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(cppcache.KEEP_VARIABLE, raising=False)
    assert cppcache.cache_keep() == cppcache.DEFAULT_KEEP
    monkeypatch.setenv(cppcache.KEEP_VARIABLE, "3")
    assert cppcache.cache_keep() == 3
    monkeypatch.setenv(cppcache.KEEP_VARIABLE, "0")
    with pytest.raises(CppBuildError, match="QUORIDOR_CPP_CACHE_KEEP='0'"):
        cppcache.cache_keep()


def test_a_new_build_evicts_an_older_one_beyond_the_bound_and_keeps_the_arenas_objects(
        tmp_path: Path, arena_objects: Path) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    shutil.copytree(arena_objects, cache / cppcache._arena_name())       # built once a session
    first, second = tmp_path / "first", tmp_path / "second"
    for folder, text in ((first, "// first\n"), (second, "// second\n")):
        shutil.copytree(HANDOUT_BOT / "QuoridorClient", folder)
        with (folder / "MyPlayer.cpp").open("a") as source:
            source.write(text)
    # the first built by another run, ended since (its hold gone with it)
    subprocess.run([sys.executable, "-c", "import sys; from pathlib import Path; from client.cppcache import "
                    "cached_build; cached_build(Path(sys.argv[1]), cache=Path(sys.argv[2]))", str(first), str(cache)],
                   check=True, timeout=120, cwd=Path(cppcache.__file__).parent.parent)
    built = cppcache.cached_build(second, cache=cache, keep=1)
    assert not built.cached and built.executable.is_file()
    names = {path.name for path in cache.iterdir() if not path.name.startswith(".")}
    assert names == {built.executable.parent.name, cppcache._arena_name()}

"""The bound of the server's C++ build cache (``server.sandbox.buildcache``): the least recently used builds beyond
the bound are removed, never one a bot holds, never the current arena objects; a hit marks a build used."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from server.sandbox import buildcache

ARENA = "arena-current"


def build(cache: Path, name: str, used: float) -> Path:
    """A finished build ``name`` in ``cache``, last used at ``used`` (seconds since the epoch)."""
    folder = cache / name
    (folder / "stage").mkdir(parents=True)
    (folder / "stage" / "bot").write_bytes(b"\x7fELF")
    (folder / "answer.json").write_text("{}", encoding="utf-8")
    os.utime(folder / "answer.json", (used, used))
    return folder


def left(cache: Path) -> set[str]:
    return {path.name for path in cache.iterdir()}


def test_the_least_recently_used_builds_beyond_the_bound_are_removed(tmp_path: Path) -> None:
    for number in range(5):
        build(tmp_path, f"b{number}", 1000.0 + number)
    build(tmp_path, ARENA, 1.0)                          # the oldest of all, and kept
    (tmp_path / ".b9.1234").mkdir()                      # a build under way
    removed = buildcache.evict(tmp_path, keep=2, arena=ARENA)
    assert sorted(removed) == ["b0", "b1", "b2"]
    assert left(tmp_path) == {"b3", "b4", ARENA, ".b9.1234"}


def test_a_hit_marks_a_build_used_and_saves_it_from_eviction(tmp_path: Path) -> None:
    for number in range(3):
        build(tmp_path, f"b{number}", 1000.0 + number)
    buildcache.let_go(buildcache.hold(tmp_path / "b0"))      # found in the cache now: the most recent
    buildcache.evict(tmp_path, keep=1, arena=ARENA)
    assert left(tmp_path) == {"b0"}


def test_a_build_held_by_a_bot_is_never_removed_and_is_once_let_go(tmp_path: Path) -> None:
    build(tmp_path, "old", 1000.0)
    build(tmp_path, "new", 2000.0)
    held = buildcache.hold(tmp_path / "old")
    os.utime(tmp_path / "old" / "answer.json", (1000.0, 1000.0))   # still the least recently used
    assert buildcache.evict(tmp_path, keep=0, arena=ARENA) == ["new"]
    assert (tmp_path / "old" / "stage" / "bot").is_file()
    buildcache.let_go(held)
    assert buildcache.evict(tmp_path, keep=0, arena=ARENA) == ["old"]
    assert left(tmp_path) == set()


def test_the_arena_objects_of_another_compiler_are_removed(tmp_path: Path) -> None:
    build(tmp_path, "arena-old", 3000.0)
    build(tmp_path, ARENA, 1.0)
    assert buildcache.evict(tmp_path, keep=10, arena=ARENA) == ["arena-old"]
    assert left(tmp_path) == {ARENA}


def test_a_build_evicted_is_not_held(tmp_path: Path) -> None:
    folder = build(tmp_path, "b0", 1000.0)
    buildcache.evict(tmp_path, keep=0, arena=ARENA)
    assert buildcache.hold(folder) is None


def test_the_bound_is_set_per_cache_folder(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setattr(buildcache, "_KEEP", {})
    buildcache.bound(tmp_path / "a", 3)
    assert buildcache.keep_of(tmp_path / "a") == 3
    assert buildcache.keep_of(tmp_path / "b") == buildcache.DEFAULT_KEEP


def test_the_servers_option_bounds_its_cache(monkeypatch, tmp_path: Path) -> None:
    from server.app import ArenaServer
    from server.cli import build_parser, settings_from_args

    monkeypatch.setattr(buildcache, "_KEEP", {})
    args = build_parser().parse_args(["--data-dir", str(tmp_path), "--cpp-builds-keep", "7"])
    settings = settings_from_args(args)
    ArenaServer(settings)
    assert buildcache.keep_of(tmp_path / "cpp-builds") == 7


def test_the_workers_option_bounds_its_cache(monkeypatch, tmp_path: Path) -> None:
    pytest.importorskip("saq")
    from server.queue.worker import GameWorker, WorkerSettings

    monkeypatch.setattr(buildcache, "_KEEP", {})
    GameWorker(WorkerSettings(url="redis://127.0.0.1:1/0", cache=tmp_path, cpp_builds_keep=9))
    assert buildcache.keep_of(tmp_path / "cpp-builds") == 9


def test_the_caches_of_this_machine_are_under_quoridor_arena_and_listed_in_one_place(monkeypatch,
                                                                                      tmp_path: Path) -> None:
    from client.cppcache import cache_root
    from server.queue.worker_cli import build_parser
    from server.sandbox.process import default_build_cache

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_root() == tmp_path / "quoridor-arena" / "cpp"
    assert default_build_cache() == tmp_path / "quoridor-arena" / "hosted-cpp"
    assert build_parser().parse_args([]).cache == tmp_path / "quoridor-worker"       # documented: kept as it was
    monkeypatch.setenv("XDG_CACHE_HOME", "")                                         # set but empty: ~/.cache
    assert build_parser().parse_args([]).cache == Path.home() / ".cache" / "quoridor-worker"
    docs = (Path(__file__).resolve().parents[3] / "docs" / "hosted-bots.md").read_text(encoding="utf-8")
    table = docs[docs.index("## Where builds are cached"):]
    for folder in ("$XDG_CACHE_HOME/quoridor-arena/cpp", "$XDG_CACHE_HOME/quoridor-arena/hosted-cpp",
                   "DATA_DIR/cpp-builds", "CACHE/cpp-builds", "$XDG_CACHE_HOME/quoridor-worker"):
        assert f"`{folder}`" in table


def test_a_build_that_cannot_be_marked_is_found_all_the_same(monkeypatch, tmp_path: Path) -> None:
    from client import cppcache

    def refused(*args, **kwargs):
        raise PermissionError(1, "Operation not permitted")

    build(tmp_path, "b0", 1000.0)
    (tmp_path / "b0" / "build.json").write_text("{}", encoding="utf-8")       # the local cache's stamp
    monkeypatch.setattr(os, "utime", refused)                                  # another user's cache
    held = buildcache.hold(tmp_path / "b0")
    assert held is not None
    buildcache.let_go(held)
    assert cppcache._hold(tmp_path / "b0")

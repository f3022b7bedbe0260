"""A local C++ bot's folder (its source file's parent, hashed and compiled whole) is bounded as a user expects:
hidden folders are skipped, and a folder as big as a home folder is refused in one line before it is all read;
the course framework's layout and the server's hand-ins (bounded by the archive limits instead) are not."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from client import cppcache
from client.cppbuild import LOCAL_BOUND, CppBuildError, FolderBound, cpp_files, plan_build
from client.match_cli import main as match_main
from tests.client.cpp.conftest import HANDOUT_BOT

EXAMPLES_CPP = Path(__file__).resolve().parents[3] / "examples" / "cpp"


def test_a_bot_in_the_home_folder_among_many_cpp_files_is_refused_in_one_line(tmp_path, monkeypatch, capfd):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / ".cache"))
    shutil.copy(HANDOUT_BOT / "QuoridorClient" / "MyPlayer.cpp", tmp_path)
    shutil.copy(HANDOUT_BOT / "QuoridorClient" / "MyPlayer.h", tmp_path)
    projects = tmp_path / "projects"
    projects.mkdir()
    for number in range(LOCAL_BOUND.files):
        (projects / f"p{number}.cpp").write_text("int main() {}\n")
    with pytest.raises(SystemExit) as ended:
        match_main([str(tmp_path / "MyPlayer.cpp"), "runner", "-g", "1", "--log-dir", "none"])
    err = capfd.readouterr().err
    assert ended.value.code == 2
    line = next(line for line in err.splitlines() if "holds" in line)
    assert f"~ holds more than {LOCAL_BOUND.files} C++ files: put MyPlayer.cpp and its headers in a folder of their " \
           "own" in line
    assert "Traceback" not in err and not (tmp_path / ".cache" / "quoridor-arena").exists()    # nothing built


def test_hidden_folders_are_neither_hashed_nor_compiled(tmp_path):
    bot = tmp_path / "QuoridorClient"
    shutil.copytree(HANDOUT_BOT / "QuoridorClient", bot)
    before = cppcache.local_build_key(bot, "MyPlayer.cpp:MyPlayer")
    (bot / ".backup").mkdir()
    (bot / ".backup" / "MyPlayer.cpp").write_text("an old copy that does not compile {\n")
    assert cppcache.local_build_key(bot, "MyPlayer.cpp:MyPlayer") == before
    plan = plan_build(bot, tmp_path / "stage", entry="MyPlayer.cpp:MyPlayer", bound=LOCAL_BOUND)
    assert not any(".backup" in part for part in plan.command)
    assert not (tmp_path / "stage" / "src" / ".backup").exists()


@pytest.mark.parametrize("folder", [HANDOUT_BOT, HANDOUT_BOT / "QuoridorClient", EXAMPLES_CPP])
def test_the_course_frameworks_layout_and_the_example_are_within_the_bound(folder):
    assert cpp_files(folder, LOCAL_BOUND) == cpp_files(folder)


def test_a_folder_too_big_is_refused_by_its_bytes_and_by_the_files_looked_at(tmp_path):
    (tmp_path / "big.h").write_bytes(b"//" + b"x" * 2048)
    with pytest.raises(CppBuildError, match=r"holds more than 0 MB of C\+\+ files: put MyPlayer.cpp"):
        cpp_files(tmp_path, FolderBound(bytes=1024), named="MyPlayer.cpp")
    for number in range(20):
        (tmp_path / f"photo{number}.jpg").write_bytes(b"")
    with pytest.raises(CppBuildError, match="holds more than 10 files"):
        cpp_files(tmp_path, FolderBound(entries=10))


def test_a_hand_in_on_the_server_is_not_bounded_by_the_local_rule(tmp_path):
    """The server's hand-ins are bounded by its archive limits (--max-submission-files up to 10,000), not this."""
    bot = tmp_path / "bot"
    shutil.copytree(HANDOUT_BOT / "QuoridorClient", bot)
    for number in range(LOCAL_BOUND.files + 5):
        (bot / f"part{number}.h").write_text(f"// part {number}\n")
    with pytest.raises(CppBuildError):
        cpp_files(bot, LOCAL_BOUND)
    plan = plan_build(bot, tmp_path / "stage", entry="MyPlayer.cpp:MyPlayer")     # as python -m client.cppbuild
    assert plan.entry_class == "MyPlayer" and (tmp_path / "stage" / "src" / f"part{LOCAL_BOUND.files}.h").is_file()

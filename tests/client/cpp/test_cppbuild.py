"""``client.cppbuild``: which class a C++ hand-in's entry is, the framework's own files replaced by the arena's, and
a compile error said in one line with the student's file and line."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from client.cppbuild import ARENA_CPP, ARENA_OBJECTS, CppBuildError, build, find_player_classes, main, plan_build

from .conftest import HANDOUT_BOT
from .test_example_bot import EXAMPLE

FRAMEWORK_ROBOTS = {
    "QuoridorClient/MyPlayer.h": "namespace QuoridorUtils {\nclass MyPlayer final : public Player {};\n}\n",
    "QuoridorClient/XlinePlayer.h": "namespace QuoridorUtils {\nclass XlinePlayer : public Player {};\n}\n",
    "QuoridorClient/RunPlayer.h": "namespace QuoridorUtils {\nclass RunPlayer : virtual public XlinePlayer {};\n}\n",
    "QuoridorClient/DefensiveRunPlayer.h":
        "namespace QuoridorUtils {\nclass DefensiveRunPlayer : public RunPlayer, public QuoridorUtils::Other {};\n}\n",
    "QuoridorClient/Notes.h": "// class Fake : public Player {\nconst char* s = \"class Fake2 : public Player {\";\n",
}


def test_the_entry_classes_are_the_leaves_below_player_in_their_namespace() -> None:
    assert find_player_classes(FRAMEWORK_ROBOTS) == {
        "DefensiveRunPlayer": ("QuoridorClient/DefensiveRunPlayer.h", "QuoridorUtils"),
        "MyPlayer": ("QuoridorClient/MyPlayer.h", "QuoridorUtils")}


def write(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def test_of_several_classes_the_handouts_myplayer_is_the_default_and_entry_names_another(tmp_path: Path) -> None:
    folder = write(tmp_path / "bot", FRAMEWORK_ROBOTS)
    assert plan_build(folder, tmp_path / "a").entry_class == "MyPlayer"
    named = plan_build(folder, tmp_path / "b", entry="DefensiveRunPlayer.h:DefensiveRunPlayer")
    assert named.entry_class == "DefensiveRunPlayer"
    assert "return new ::QuoridorUtils::DefensiveRunPlayer(key);" in (tmp_path / "b" / "arena_factory.cpp").read_text()
    assert plan_build(folder, tmp_path / "c", entry="RunPlayer.h:RunPlayer").entry_class == "RunPlayer"   # not a leaf


@pytest.mark.parametrize(("files", "entry", "message"), [
    ({"a.h": "class A : public Player {};", "b.h": "class B : public Player {};"}, None,
     "several classes derive from Player (A, B): name one with --entry FILE.cpp:CLASS"),
    ({"a.cpp": "int main() { return 0; }"}, None,
     "no class deriving from Player (class MyPlayer : public Player) in the bot's files"),
    ({"a.h": "class A : public Player {};"}, "a.h:B", "--entry a.h:B: no class B deriving from Player (found: A)"),
    ({"a.h": "class A : public Player {};"}, "b.cpp:A", "--entry b.cpp:A: there is no file b.cpp in the bot's folder"),
])
def test_an_entry_that_cannot_be_found_is_one_line(tmp_path: Path, files: dict[str, str], entry: str | None,
                                                   message: str) -> None:
    with pytest.raises(CppBuildError) as raised:
        plan_build(write(tmp_path / "bot", files), tmp_path / "stage", entry=entry)
    assert str(raised.value) == message


def test_the_frameworks_own_files_are_replaced_by_the_arenas_with_a_note(tmp_path: Path) -> None:
    folder = write(tmp_path / "Quoridor", {
        "QuoridorClient/Client.cpp": "int main() { return 1; }\n",
        "QuoridorClient/Player.h": "#error the framework's Player.h needs asio\n",
        "QuoridorClient/LogPlayer.cpp": "#include \"csv.h\"\n",
        "QuoridorUtils/QuoridorUtils.h": "#error not the arena's\n",
        "QuoridorUI/QuoridorUI.cpp": "int main() { return 2; }\n",
    })
    for name in ("MyPlayer.h", "MyPlayer.cpp"):
        (folder / "QuoridorClient" / name).write_bytes((HANDOUT_BOT / "QuoridorClient" / name).read_bytes())
    plan = plan_build(folder, tmp_path / "stage")
    assert plan.notes == ["QuoridorClient/Client.cpp is the framework's own file: the arena's is used instead",
                          "QuoridorClient/LogPlayer.cpp is the framework's own file: the arena's is used instead",
                          "QuoridorClient/Player.h is the framework's own file: the arena's is used instead",
                          "QuoridorUtils/QuoridorUtils.h is the framework's own file: the arena's is used instead"]
    assert [a for a in plan.command if a.startswith("src/")] == ["src/QuoridorClient/MyPlayer.cpp"]


def test_a_class_declared_in_its_cpp_gets_its_factory_there_and_the_build_says_hello(gpp: str, tmp_path: Path) -> None:
    folder = write(tmp_path / "bot", {"Walker.cpp": """#include "Player.h"
using namespace QuoridorUtils;
class Walker : public Player {
public:
    Walker(const std::string& key) : Player(key) {}
    Step nextStep(const ChessboardChange& change) override { return Step(Location(change.myLoc.x, 5)); }
    void restart() override {}
};
"""})
    built = build(folder, tmp_path / "stage", name="Walker bot")
    assert not (tmp_path / "stage" / "arena_factory.cpp").exists()
    ran = subprocess.run([str(built.output)], input="", capture_output=True, text=True, timeout=10, check=False)
    assert ran.returncode == 0
    assert json.loads(ran.stdout)["name"] == "Walker bot"


def test_a_compile_error_names_the_students_file_and_line_in_one_line(gpp: str, tmp_path: Path) -> None:
    folder = write(tmp_path / "bot", {
        "QuoridorClient/MyPlayer.h": (HANDOUT_BOT / "QuoridorClient" / "MyPlayer.h").read_text(),
        "QuoridorClient/MyPlayer.cpp": (HANDOUT_BOT / "QuoridorClient" / "MyPlayer.cpp").read_text().replace(
            "    targetY = 0;\n}", "    targetY = undeclared;\n}"),
    })
    line = (folder / "QuoridorClient" / "MyPlayer.cpp").read_text().splitlines().index("    targetY = undeclared;") + 1
    with pytest.raises(CppBuildError) as raised:
        build(folder, tmp_path / "stage")
    assert str(raised.value) == f"QuoridorClient/MyPlayer.cpp:{line}: 'undeclared' was not declared in this scope"


def test_a_bot_links_the_arenas_objects_built_once_instead_of_compiling_the_arenas_sources(arena_objects: Path,
                                                                                         tmp_path: Path) -> None:
    objects = [arena_objects / name for name in ARENA_OBJECTS]
    assert all(path.is_file() for path in objects)
    for bot, folder in (("a", HANDOUT_BOT), ("b", EXAMPLE)):                # any number of bots link the same objects
        built = build(folder, tmp_path / bot, arena_objects=arena_objects)
        assert built.command[-2:] == [str(path) for path in objects]
        assert not any(arg.startswith(str(ARENA_CPP)) and arg.endswith(".cpp") for arg in built.command)
        ran = subprocess.run([str(built.output)], input="", capture_output=True, text=True, timeout=10, check=False)
        assert ran.returncode == 0 and json.loads(ran.stdout)["name"] == "MyPlayer"   # the arena's main is in it


def test_a_build_told_of_arena_objects_that_are_not_there_says_so_in_one_line(gpp: str, tmp_path: Path) -> None:
    with pytest.raises(CppBuildError) as raised:
        build(HANDOUT_BOT, tmp_path / "stage", arena_objects=tmp_path / "none")
    assert str(raised.value) == f"the arena's objects are missing from {tmp_path / 'none'} (build_arena_objects)"


def test_the_command_line_builds_the_arenas_objects_or_a_bot_and_refuses_neither(gpp: str, tmp_path: Path,
                                                                                capsys: pytest.CaptureFixture) -> None:
    assert main(["--arena-objects-into", str(tmp_path / "objects")]) == 0
    assert json.loads(capsys.readouterr().out) == {"ok": True, "objects": list(ARENA_OBJECTS)}
    assert main([str(HANDOUT_BOT), str(tmp_path / "stage"), "--arena-objects", str(tmp_path / "objects")]) == 0
    assert json.loads(capsys.readouterr().out)["entry_class"] == "MyPlayer"
    with pytest.raises(SystemExit):
        main([])
    assert "give FOLDER and STAGE (a bot to build), or --arena-objects-into DIR alone" in capsys.readouterr().err

"""``shared.hosting.bot_language``: which runner a bot spec names."""

from __future__ import annotations

import pytest

from shared.hosting import BUILTIN_BOTS, LANGUAGES, bot_language


@pytest.mark.parametrize(("spec", "language"), [
    ("strong", "builtin"),
    (" random ", "builtin"),
    ("mybot.py", "python"),
    ("bots/mybot.py:MyPlayer", "python"),
    ("mypackage.bots:MyPlayer", "python"),
    ("MyPlayer.cpp", "cpp"),
    ("MyPlayer.cpp:MyPlayer", "cpp"),
    ("src/Bot.CC:Bot", "cpp"),
    ("robot.cxx", "cpp"),
    ("bot", "executable"),
    ("bin/mybot", "executable"),
    ("./run.sh", "executable"),
])
def test_each_spec_names_the_runner_of_its_language(spec: str, language: str) -> None:
    assert bot_language(spec) == language


def test_every_built_in_bot_is_builtin_and_every_answer_is_a_language() -> None:
    assert {bot_language(name) for name in BUILTIN_BOTS} == {"builtin"}
    assert {bot_language(spec) for spec in ("a.py", "a.cpp", "a", "strong")} == set(LANGUAGES)

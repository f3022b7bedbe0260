"""Roster entries that name a handed-in bot: parsed (pure), checked against the settings and the stored versions."""

from __future__ import annotations

import pytest

from server.app import ArenaServer
from server.cli import build_parser, load_roster, main, settings_from_args
from server.seats.roster import Roster, parse_roster
from server.seats.lobby import Lobby
from server.sandbox import BotEntry
from server.settings import ServerSettings
from server.submissions.seats import LateSeats, SubmittedSeat, named_version
from server.submissions.store import StoredVersion

V1, V2, V3 = "3f2a9c01b7de", "a01c44e90f12", "0123456789ab"


def version(digest_start: str, *, accepted: bool = True, cause: str = "ok", reason: str = "accepted") -> StoredVersion:
    return StoredVersion("k", digest_start + "0" * 52, "bot.py", "2026-11-24T08:30:00Z", accepted, cause, reason,
                         0.5, 1, 100)


def test_a_last_field_submission_seats_the_newest_or_the_named_version():
    roster = parse_roster("# k name [submission[:VERSION]]\n"
                          "k-ana Ana\n"
                          "k-bo  Bo submission\n"
                          f"k-cy  Team Cy, submission:{V1.upper()}\n"
                          "k#4,Smith, J.,submission\n")
    assert roster == Roster({"k-ana": "Ana", "k-bo": "Bo", "k-cy": "Team Cy", "k#4": "Smith, J."},
                            {"k-bo": None, "k-cy": V1, "k#4": None})


def test_a_name_that_is_only_the_word_or_holds_it_elsewhere_stays_a_name():
    roster = parse_roster("k1 submission\nk2 The submission team\nk3 #submission\nk4 Submission\n")
    assert roster.names == {"k1": "submission", "k2": "The submission team", "k3": "#submission",
                            "k4": "Submission"}
    assert roster.submissions == {}


@pytest.mark.parametrize(("text", "words"), [
    ("k1 Ana submission:xyz\n", "roster roster line 1: submission version 'xyz' is not a version id (12 hex digits"),
    ("k1 Ana submission:\n", "submission version '' is not a version id"),
    (f"k1 Ana submission:{V1}0\n", "is not a version id"),
])
def test_a_malformed_version_is_one_line_naming_the_line(text, words):
    with pytest.raises(ValueError) as info:
        parse_roster(text)
    assert words in str(info.value) and "\n" not in str(info.value)


def test_the_json_form_takes_an_object_with_a_name_and_a_submission():
    roster = parse_roster('{"k-ana": "Ana", "k-bo": {"name": "Bo", "submission": true}, '
                          f'"k-cy": {{"name": "Cy", "submission": "{V1}"}}, "k-dee": {{"name": "Dee", "submission": false}}}}')
    assert roster == Roster({"k-ana": "Ana", "k-bo": "Bo", "k-cy": "Cy", "k-dee": "Dee"}, {"k-bo": None, "k-cy": V1})


@pytest.mark.parametrize(("text", "words"), [
    ('{"k": {"name": "Bo", "submission": 3}}', "the \"submission\" of key 'k' should be true or a version id"),
    ('{"k": {"submission": true}}', "should be a name, or an object with \"name\" and \"submission\""),
    ('{"k": {"name": "Bo", "version": "x"}}', "should be a name, or an object"),
    ('{"k": {"name": "Bo", "submission": "nope"}}', "submission version 'nope' is not a version id"),
])
def test_a_bad_json_entry_says_what_it_should_be(text, words):
    with pytest.raises(ValueError) as info:
        parse_roster(text)
    assert words in str(info.value)


def test_the_command_line_carries_the_named_submissions_into_the_settings(tmp_path):
    path = tmp_path / "roster.txt"
    path.write_text(f"k-ana Ana\nk-bo Bo submission:{V1}\n")
    settings = settings_from_args(build_parser().parse_args(["--roster", str(path)]))
    assert settings.roster == {"k-ana": "Ana", "k-bo": "Bo"} and settings.roster_submissions == {"k-bo": V1}
    assert load_roster(path).submissions == {"k-bo": V1}
    assert "submission:VERSION" in build_parser().format_help()


def test_named_submissions_must_fit_the_seats_and_stay_off_the_ladder():
    roster = {"a": "A", "b": "B", "c": "C"}
    with pytest.raises(ValueError, match=r"names 3 handed-in bots \('submission'\), more than the 2 seats"):
        ServerSettings(roster=roster, roster_submissions={"a": None, "b": None, "c": None}, players=2)
    with pytest.raises(ValueError, match="on --ladder every key's newest accepted bot is a resident already"):
        ServerSettings(roster=roster, roster_submissions={"a": None}, ladder=True)
    with pytest.raises(ValueError, match="names keys the roster does not list"):
        ServerSettings(roster=roster, roster_submissions={"z": None}, players=2)


def test_the_newest_accepted_version_is_chosen_unless_one_is_named():
    versions = [version(V3, accepted=False, cause="syntax_error", reason="bot.py:3: invalid syntax"), version(V2),
                version(V1)]
    assert named_version("Bo", versions, None).version == V2
    assert named_version("Bo", versions, V1).version == V1


@pytest.mark.parametrize(("versions", "wanted", "words"), [
    ([], None, "Bo has handed in no bot: hand one in (quoridor-submit BOT.py -k KEY) or drop 'submission'"),
    ([version(V3, accepted=False, cause="syntax_error", reason="bot.py:3: invalid syntax")], None,
     f"none of its 1 version(s) was accepted (the newest, {V3}: syntax_error: bot.py:3: invalid syntax)"),
    ([version(V2)], V1, (f"version {V1} of Bo's handed-in bot, which Bo never handed in (its versions, newest "
                         f"first: {V2};")),
    ([version(V1, accepted=False, cause="no_player", reason="bot.py defines no bot class")], V1,
     f"version {V1} of Bo's handed-in bot, which was refused (no_player: bot.py defines no bot class)"),
])
def test_a_named_bot_that_cannot_play_is_one_clear_line(versions, wanted, words):
    with pytest.raises(ValueError) as info:
        named_version("Bo", versions, wanted)
    assert words in str(info.value) and "\n" not in str(info.value)


async def test_a_server_whose_roster_names_a_bot_never_handed_in_stops_before_it_listens(tmp_path):
    server = ArenaServer(ServerSettings(port=0, data_dir=tmp_path, players=2, roster={"k-ana": "Ana", "k-bo": "Bo"},
                                        roster_submissions={"k-bo": V1}))
    with pytest.raises(ValueError, match="the roster seats Bo's handed-in bot, but Bo has handed in no bot"):
        await server.start()
    assert server.server is None


def test_the_command_line_stops_with_one_line_when_a_named_bot_was_never_handed_in(tmp_path, capsys):
    path = tmp_path / "roster.txt"
    path.write_text("k-ana Ana\nk-bo Bo submission\n")
    code = main(["--roster", str(path), "-p", "0", "--data-dir", str(tmp_path / "data"), "--view", "plain"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1 and err == [("quoridor-server: the roster seats Bo's handed-in bot, but Bo has handed in no "
                                  "bot: hand one in (quoridor-submit BOT.py -k KEY) or drop 'submission' from its entry")]


async def test_while_the_seats_fill_a_named_version_stays_and_keys_left_to_connect_are_not_seated(tmp_path):
    settings = ServerSettings(players=3, roster={"k-ana": "Ana", "k-bo": "Bo", "k-cy": "Cy"},
                              roster_submissions={"k-bo": None, "k-cy": V1})
    lobby = Lobby(3, settings.roster)
    bo, cy = (SubmittedSeat(key, BotEntry(name, "bot.py", tmp_path, version))
              for key, name, version in (("k-bo", "Bo", V2), ("k-cy", "Cy", V1)))
    lobby.sessions += [bo, cy]
    said: list[str] = []
    late = LateSeats(lobby, [bo, cy], settings, said.append, everyone=False)
    late("k-bo", BotEntry("Bo", "bot.py", tmp_path, V3))       # "submission": the newer version plays
    late("k-cy", BotEntry("Cy", "bot.py", tmp_path, V3))       # "submission:V1": V1 plays
    late("k-ana", BotEntry("Ana", "bot.py", tmp_path, V3))     # no "submission": Ana connects
    assert (bo.entry.version, cy.entry.version) == (V3, V1)
    assert said == [f"Bo will play version {V3} of its handed-in bot"] and len(lobby.sessions) == 2

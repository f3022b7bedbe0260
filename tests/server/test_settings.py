"""``ServerSettings``: its defaults, the checks across options, derived values, and each command-line flag."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from server.cli import build_parser, settings_from_args
from server.settings import TOURNAMENT_FIELDS, Limits, ServerSettings
from shared.referee import STEP_CAP


def from_argv(*argv: str) -> ServerSettings:
    return settings_from_args(build_parser().parse_args(list(argv)))


def test_the_defaults_are_a_single_match_on_localhost():
    s = ServerSettings()
    assert (s.host, s.port, s.players, s.format, s.games_per_pairing) == ("127.0.0.1", 19330, 2, "round-robin", 1)
    assert (s.ruleset, s.time_limit_ms, s.step_cap, s.data_dir) == ("course", 1000, STEP_CAP, Path("replays"))
    assert s.roster is None and s.legacy_port is None and not s.ladder and not s.puzzles_only
    assert s.limits == Limits()


def test_the_command_line_defaults_are_the_settings_defaults():
    assert from_argv() == ServerSettings()


def test_a_debugging_server_has_no_time_limit():
    assert ServerSettings(time_limit_ms=250).effective_time_limit_ms == 250
    assert ServerSettings(time_limit_ms=250, debug=True).effective_time_limit_ms is None
    assert ServerSettings(time_limit_ms=250, debug=True).referee_settings().time_limit_ms is None


def test_the_referee_settings_carry_the_ruleset_the_limit_and_the_step_cap():
    referee = ServerSettings(ruleset="course", time_limit_ms=700, step_cap=40).referee_settings()
    assert (referee.ruleset.name, referee.time_limit_ms, referee.step_cap) == ("course", 700, 40)


def test_n_0_serves_only_the_puzzle_rooms():
    assert ServerSettings(players=0).puzzles_only


@pytest.mark.parametrize("argv, field, value", [
    (["-p", "0"], "port", 0),
    (["--port", "4000"], "port", 4000),
    (["--legacy-port", "4001"], "legacy_port", 4001),
    (["--host", "0.0.0.0"], "host", "0.0.0.0"),
    (["-n", "6"], "players", 6),
    (["-r", "3"], "games_per_pairing", 3),
    (["-f", "knockout"], "format", "knockout"),
    (["-n", "8", "-f", "swiss", "--swiss-rounds", "3"], "swiss_rounds", 3),
    (["-t", "250"], "time_limit_ms", 250),
    (["-d"], "debug", True),
    (["--kick-after-timeouts", "2"], "kick_after_timeouts", 2),
    (["--step-cap", "40"], "step_cap", 40),
    (["-c", "4"], "concurrency", 4),
    (["--data-dir", "/tmp/elsewhere"], "data_dir", Path("/tmp/elsewhere")),
    (["--resume"], "resume", True),
    (["--seed", "7"], "seed", 7),
    (["--name", "final"], "tournament_name", "final"),
    (["--rejoin-wait", "2.5"], "rejoin_wait_s", 2.5),
    (["--ladder"], "ladder", True),
    (["--ladder", "--resident", "random"], "ladder_residents", ["random"]),
    (["--ladder", "--pause-after", "0"], "ladder_pause_after", 0),
    (["--ladder", "--pair-cap", "3"], "ladder_pair_games_per_hour", 3),
    (["--ladder", "--opening-plies", "2"], "ladder_opening_plies", 2),
    (["--ladder", "--refit", "5"], "ladder_refit_s", 5.0),
    (["--max-submission-bytes", "4096"], "max_submission_bytes", 4096),
    (["--players-from-submissions"], "players_from_submissions", True),
    (["--queue", "redis://127.0.0.1:6379/0"], "queue", "redis://127.0.0.1:6379/0"),
    (["--queue", ""], "queue", None),
])
def test_each_flag_sets_its_setting(argv, field, value):
    assert getattr(from_argv(*argv), field) == value


def test_unsafe_no_sandbox_turns_the_sandbox_off():
    assert from_argv("--unsafe-no-sandbox").sandbox.unsafe
    assert not from_argv().sandbox.unsafe


def test_the_roster_flag_reads_names_and_handed_in_bots(tmp_path):
    roster = tmp_path / "roster.txt"
    roster.write_text("k1 alice\nk2 bob\n")
    assert from_argv("--roster", str(roster)).roster == {"k1": "alice", "k2": "bob"}


@pytest.mark.parametrize("argv, line", [
    (["-n", "1"], "a tournament needs at least 2 players"),
    (["--ruleset", "course", "-t", "0"], "--time-limit: Input should be greater than or equal to 1"),
    (["-p", "70000"], "--port: Input should be less than or equal to 65535"),
    (["--swiss-rounds", "3"], "--swiss-rounds is the number of rounds of a Swiss; add -f swiss"),
    (["-n", "4", "-f", "swiss", "--swiss-rounds", "4"], "a Swiss of 4 players has at most 3 rounds"),
    (["-n", "0", "--resume"], "--resume continues a tournament"),
    (["--resident", "random"], "residents sit on the practice ladder: add --ladder"),
    (["--ladder", "--resident", "nobody"], "--resident nobody: choose each of"),
    (["--ladder", "--resume"], "a --ladder always continues from its ladder.db"),
    (["--queue", "http://x"], "expected redis://HOST:PORT/N"),
    (["--ladder", "--players-from-submissions"], "--players-from-submissions seats handed-in bots"),
    (["--ladder", "--opening-plies", "13"], "--opening-plies: Input should be less than or equal to 12"),
])
def test_a_bad_value_is_one_line_naming_the_option(argv, line):
    with pytest.raises(ValueError) as caught:
        from_argv(*argv)
    assert line in str(caught.value) and "\n" not in str(caught.value)


def test_a_roster_shorter_than_the_seats_is_refused(tmp_path):
    with pytest.raises(ValidationError, match="the roster lists 1 player"):
        ServerSettings(players=2, roster={"k1": "alice"})
    with pytest.raises(ValidationError, match="same player name to two keys"):
        ServerSettings(roster={"k1": "alice", "k2": "alice"})


def test_roster_submissions_must_be_roster_keys_and_fit_the_seats():
    roster = {"k1": "a", "k2": "b", "k3": "c"}
    with pytest.raises(ValidationError, match="names keys the roster does not list"):
        ServerSettings(roster=roster, roster_submissions={"k9": None})
    with pytest.raises(ValidationError, match="more than the 2 seats"):
        ServerSettings(roster=roster, roster_submissions={"k1": None, "k2": None, "k3": None})
    assert ServerSettings(roster=roster, roster_submissions={"k1": "v1"}).roster_submissions == {"k1": "v1"}


def test_settings_are_frozen():
    with pytest.raises(ValidationError):
        ServerSettings().port = 1  # type: ignore[misc]


def test_a_resumed_tournament_keeps_its_own_rules_and_says_what_was_ignored():
    here = ServerSettings(port=0, time_limit_ms=500, format="round-robin", seed=3, concurrency=2)
    stored = {"format": "knockout", "games_per_pairing": 2, "ruleset": "course", "time_limit_ms": 900,
              "debug": False, "kick_after_timeouts": None, "step_cap": STEP_CAP, "seed": 3,
              "tournament_name": "t-1", "timeout_grace_s": 0.05}
    resumed, ignored = here.resumed(stored, players=4)
    assert (resumed.format, resumed.games_per_pairing, resumed.time_limit_ms) == ("knockout", 2, 900)
    assert (resumed.players, resumed.resume, resumed.port, resumed.concurrency) == (4, True, 0, 2)
    assert resumed.tournament_name == "t-1" and resumed.swiss_rounds is None
    assert sorted(line.split("=")[0] for line in ignored) == ["format", "time_limit_ms"]    # -r was not given
    assert set(stored) | {"swiss_rounds", "hosted_clock", "hosted_wall_cap_ms", "time_bank_ms", "seeds",
                          "final_games", "freeze_at", "ladder_opening_plies"} == set(TOURNAMENT_FIELDS)


def test_a_tournament_stored_before_the_clock_options_resumes_on_the_wall_clock_without_a_bank():
    here = ServerSettings(port=0, hosted_clock="cpu", time_bank_ms=2000)
    stored = {name: getattr(ServerSettings(), name) for name in TOURNAMENT_FIELDS
              if name not in ("hosted_clock", "hosted_wall_cap_ms", "time_bank_ms")}
    resumed, ignored = here.resumed(stored, players=2)
    assert (resumed.hosted_clock, resumed.time_bank_ms) == ("wall", 0)
    assert sorted(line.split("=")[0] for line in ignored) == ["hosted_clock", "time_bank_ms"]
    referee = ServerSettings(hosted_clock="cpu", hosted_wall_cap_ms=2500, time_bank_ms=300).referee_settings()
    assert (referee.clock, referee.wall_cap_ms, referee.time_bank_ms) == ("cpu", 2500, 300)

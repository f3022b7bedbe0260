"""``is_log_name``: the one rule for which files of a folder are game logs."""

import pytest

from shared.gamelog import TABLES, is_log_name


@pytest.mark.parametrize("name", [
    "t1-r1-p1-g1_alice_vs_bob.csv", "t1-r1-p1-g1_alice_vs_bob.csv.part", "server_0_DEFENSIVE_VS_BASELINE.csv",
    "GAME.CSV", "1_Me_VS_Enemy.csv",
])
def test_a_games_log_is_a_log(name):
    assert is_log_name(name)


@pytest.mark.parametrize("name", [
    "result.csv",                   # the old Java server's results (time, player_name, score)
    "player_list.csv",              # and its players (id, name, mac, ip, port)
    "results.csv", "Result.CSV", "results.csv.part",
    ".t1-r1-p1-g1_alice_vs_bob.csv", "results.json", "arena.db", "notes.txt", "csv",
])
def test_a_tournaments_tables_and_other_files_are_not(name):
    assert not is_log_name(name)


def test_the_tables_are_the_servers_and_the_old_servers():
    assert TABLES == {"results.csv", "result.csv", "player_list.csv"}

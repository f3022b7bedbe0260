"""The old Java server's result.csv and player_list.csv: its exact shapes, from our store's rows."""

from __future__ import annotations

import re
from datetime import UTC, timedelta, timezone

from server.tournament.legacy_results import (
    PLAYER_LIST_HEADER, RESULT_HEADER, player_list_csv, result_csv, result_rows,
)
from server.tournament.store import ResultStore
from server.tournament.export import legacy_paths
from server.tournament.rows import GameRow, TournamentRow
from shared.tournament import GameResult, ScheduledGame

T0 = "2024-05-01T12:00:00.000+00:00"


def at(minutes: int) -> str:
    """A stored (UTC, ISO 8601) time ``minutes`` after noon."""
    return f"2024-05-01T12:{minutes:02d}:00.000+00:00"


def tournament(players: tuple[str, ...], fmt: str = "knockout", *, finished_at: str | None = at(59),
               standings: tuple[dict, ...] | None = None) -> TournamentRow:
    return TournamentRow(1, "tournament-20240501-120000", fmt, 1, 7, players, {}, T0, finished_at, standings)


def game(round_: int, pairing: int, white: str, black: str, winner: int | None, ended: int | None, *,
         k: int = 0, thinking: tuple[int, int] = (0, 0), status: str = "finished") -> GameRow:
    reason = None if status != "finished" else "goal" if winner is not None else "step_cap"
    return GameRow(round_, pairing, k, white, black, status, f"t1-r{round_ + 1}-p{pairing + 1}-g{k + 1}",
                   winner, reason, thinking, (0, 0), None, None, None if ended is None else at(ended), 30)


def fields(text: str) -> list[list[str]]:
    """The file as a comma-splitting reader without quoting sees it (as the grading scripts and the old tools)."""
    assert text.endswith("\n") and "\r" not in text
    return [line.split(",") for line in text[:-1].split("\n")]


# -- result.csv ---------------------------------------------------------------------------------
def test_a_knockout_lists_the_knocked_out_by_round_then_the_champion():
    # Three players: bo loses round 1 (cy has the bye), ann loses round 2 to cy, the champion.
    games = [game(0, 0, "ann", "bo", 0, 5), game(1, 1, "ann", "cy", 1, 10)]
    text = result_csv(tournament(("ann", "bo", "cy")), games, tz=UTC)
    assert text == ("time, player_name, score\n"
                    "2024-05-01 12:05:00,bo,1\n"
                    "2024-05-01 12:10:00,ann,2\n"
                    "2024-05-01 12:59:00,cy,3\n")


def test_a_rounds_rows_come_in_the_order_its_pairings_ended_at_the_rounds_end_time():
    games = [game(0, 0, "ann", "bo", 1, 9), game(0, 1, "cy", "dee", 0, 4),
             game(1, 2, "bo", "cy", 0, 20)]
    rows = result_rows(tournament(("ann", "bo", "cy", "dee")), games, tz=UTC)
    assert rows == [("2024-05-01 12:09:00", "dee", 1), ("2024-05-01 12:09:00", "ann", 1),
                    ("2024-05-01 12:20:00", "cy", 2), ("2024-05-01 12:59:00", "bo", 3)]


def test_a_drawn_pairing_is_lost_by_the_larger_thinking_time_as_the_knockout_decided_it():
    games = [game(0, 0, "ann", "bo", 0, 3, k=0, thinking=(900, 100)),
             game(0, 0, "bo", "ann", 0, 6, k=1, thinking=(100, 900))]
    assert result_rows(tournament(("ann", "bo")), games, tz=UTC) == [
        ("2024-05-01 12:06:00", "ann", 1), ("2024-05-01 12:59:00", "bo", 2)]


def test_an_unfinished_round_and_champion_are_not_written_yet():
    games = [game(0, 0, "ann", "bo", 0, 5), game(0, 1, "cy", "dee", 1, 6),
             game(1, 2, "ann", "dee", None, None, status="running")]
    rows = result_rows(tournament(("ann", "bo", "cy", "dee"), finished_at=None), games, tz=UTC)
    assert [(player, score) for _, player, score in rows] == [("bo", 1), ("cy", 1)]
    assert result_csv(tournament(("ann", "bo"), finished_at=None), [], tz=UTC) == RESULT_HEADER + "\n"


def test_times_are_the_servers_local_time_as_the_old_server_wrote_them():
    games = [game(0, 0, "ann", "bo", 0, 5)]
    beijing = timezone(timedelta(hours=8))
    assert result_rows(tournament(("ann", "bo")), games, tz=beijing)[0] == ("2024-05-01 20:05:00", "bo", 1)
    local = result_rows(tournament(("ann", "bo")), games)           # no tz: this machine's
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", time) for time, _, _ in local)


def test_a_round_robin_gives_each_player_its_place_worst_first_once_final():
    standings = ({"rank": 1, "player": "cy"}, {"rank": 2, "player": "ann"}, {"rank": 2, "player": "dee"},
                 {"rank": 4, "player": "bo"})
    final = tournament(("ann", "bo", "cy", "dee"), "round-robin", standings=standings)
    assert result_csv(final, [], tz=UTC) == ("time, player_name, score\n"
                                             "2024-05-01 12:59:00,bo,1\n"
                                             "2024-05-01 12:59:00,dee,3\n"
                                             "2024-05-01 12:59:00,ann,3\n"
                                             "2024-05-01 12:59:00,cy,4\n")
    running = tournament(("ann", "bo"), "round-robin", finished_at=None)
    assert result_csv(running, [], tz=UTC) == "time, player_name, score\n"


# -- player_list.csv -----------------------------------------------------------------------------
def test_player_list_has_the_old_header_and_one_row_per_player_in_seat_order():
    assert player_list_csv(tournament(("193304BASELINE", "193304DEFENSIVE"))) == (
        "id, name, mac, ip, port\n"
        "0,193304BASELINE,,,\n"
        "1,193304DEFENSIVE,,,\n")


def test_names_with_commas_keep_the_column_counts():
    players = ("Smith, J", "bo")
    games = [game(0, 0, "Smith, J", "bo", 1, 5)]
    result = fields(result_csv(tournament(players), games, tz=UTC))
    assert result[0] == ["time", " player_name", " score"]
    assert all(len(row) == 3 for row in result) and [row[1] for row in result[1:]] == ["Smith; J", "bo"]
    listed = fields(player_list_csv(tournament(players)))
    assert listed[0] == ["id", " name", " mac", " ip", " port"] and all(len(row) == 5 for row in listed)
    assert listed[1][:2] == ["0", "Smith; J"]


# -- written by the export, beside results.json ------------------------------------------------------
def test_the_export_writes_both_files_beside_the_results_in_their_bytes(tmp_path):
    with ResultStore(tmp_path / "arena.db") as store:
        tid = store.create_tournament("cup", "knockout", 1, 3, ["ann", "bo"], {})
        scheduled = ScheduledGame(0, 0, 0, "ann", "bo")
        store.schedule(tid, [scheduled])
        store.record_result(tid, (0, 0, 0), GameResult("ann", "bo", 0, "goal", (10, 20), (0, 0)),
                            log_path=None, game_id="t1-r1-p1-g1", started_at=T0, ended_at=at(7), steps=9)
        store.finish_tournament(tid, [{"rank": 1, "player": "ann"}, {"rank": 2, "player": "bo"}])
        store.export(tid, tmp_path / "cup")
    result_path, players_path = legacy_paths(tmp_path / "cup")
    assert sorted(p.name for p in (tmp_path / "cup").iterdir()) == [
        "player_list.csv", "result.csv", "results.csv", "results.json"]     # no temporary files left
    data = result_path.read_bytes()
    assert data.startswith(RESULT_HEADER.encode("ascii") + b"\n") and b"\r" not in data
    assert not data.startswith(b"\xef\xbb\xbf")
    rows = fields(data.decode("utf-8"))[1:]
    assert [(row[1], row[2]) for row in rows] == [("bo", "1"), ("ann", "2")]
    assert players_path.read_bytes() == (PLAYER_LIST_HEADER + "\n0,ann,,,\n1,bo,,,\n").encode("ascii")

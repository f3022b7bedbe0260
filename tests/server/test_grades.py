"""``quoridor-server --export grades.csv``: a finished tournament's grades, their numbers checked against the table
(``results.json``'s standings), the games' logs and ``submissions.db``; and the one-line refusals."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from shared.quoridor import Location, Position, Step
from shared.tournament import GameResult, ScheduledGame

from server.cli import build_parser, main
from server.submissions.store import SubmissionStore
from server.tournament.grades import (
    CAUSES, CSV_COLUMNS, UNKNOWN, GradesError, build_grades, count_causes, game_causes, grades_csv, leaderboard,
    pick_tournament,
)
from server.tournament.rows import Entrant, GameRow, TournamentRow
from server.tournament.store import ResultStore
from tests.server.conftest import ScriptedBot, runner_policy, url
from tests.server.support import export, play
from tests.server.test_server_final import waster_bot
from tests.server.test_submissions_e2e import ROOT, run

BY_CAUSE = [f"violations_{cause}" for cause in (*CAUSES, UNKNOWN)]


class Sloppy:
    """Carol's bot: onto her own cell, then no answer (a timeout), then a wall on the border (her 3rd violation,
    which loses that game); every later step a runner's."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, pos: Position, seat: int) -> Step | None:
        self.calls += 1
        if self.calls == 1:
            return Step(pos.pawn(seat))
        if self.calls == 2:
            return None
        if self.calls == 3:
            return Step.wall(1, 9, 3, 9)
        return runner_policy(pos, seat)


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8-sig", newline="") as handle:     # as a spreadsheet reads it
        reader = csv.DictReader(handle)
        assert tuple(reader.fieldnames or ()) == CSV_COLUMNS
        return list(reader)


def rounded(value: float | None) -> str:
    return "" if value is None else str(round(value, 1))


async def test_a_finished_round_robin_of_a_handed_in_bot_and_connected_bots_grades_as_its_table(
        make_server, sandbox, tmp_path, capsys):
    data = tmp_path / "replays"
    server = await make_server(players=3, players_from_submissions=True, games_per_pairing=2,
                               roster={"k-alice": "Alice", "k-bob": "Bob", "k-carol": "Carol"})
    code, out = await run(str(ROOT / "examples" / "my_first_bot.py"), "-k", "k-alice", "--server", url(server),
                          "--entry", ":MyPlayer")
    assert code == 0, out
    version = out.strip().splitlines()[-1].split()[2]           # "accepted: version V (...)"
    await play(server, [ScriptedBot(url(server), "k-bob"), ScriptedBot(url(server), "k-carol", Sloppy())],
               seconds=120)
    table = {row["player"]: row for row in export(server)["standings"]}
    games = [g for g in export(server)["games"] if g["status"] == "finished"]
    capsys.readouterr()

    code = main(["--data-dir", str(data), "--export", str(tmp_path / "grades.csv"),
                 "--json", str(tmp_path / "grades.json")])
    said = capsys.readouterr()
    assert code == 0, said.err
    assert said.out.startswith(f"the grades of {server.folder.name} (round-robin, 3 players, 6 games")
    assert "k-" not in said.out + said.err                      # the keys are in the file only

    rows = read_csv(tmp_path / "grades.csv")
    assert [r["name"] for r in rows] == [row["player"] for row in export(server)["standings"]]
    assert {r["name"]: r["key"] for r in rows} == {"Alice": "k-alice", "Bob": "k-bob", "Carol": "k-carol"}
    for r in rows:
        t = table[r["name"]]
        assert (int(r["rank"]), float(r["points"]), int(r["games"]), int(r["wins"]), int(r["losses"]),
                int(r["draws"]), int(r["violations"])) == (t["rank"], t["points"], t["games"], t["wins"],
                                                          t["losses"], t["draws"], t["violations"])
        assert (r["rating"], r["rating_low"], r["rating_high"]) == (rounded(t["elo"]), rounded(t["elo_low"]),
                                                                   rounded(t["elo_high"]))
        assert r["separated_from_next"] == ""                    # only a final says
        assert sum(int(r[c]) for c in BY_CAUSE) == int(r["violations"])     # the causes account for every one
        assert r["timeouts"] == r["violations_late"] and r[f"violations_{UNKNOWN}"] == "0"
        # each player's violations as the store holds them game by game
        assert int(r["violations"]) == sum(g["violations"][g["white"] != r["name"]] for g in games
                                           if r["name"] in (g["white"], g["black"]))
    carol = next(r for r in rows if r["name"] == "Carol")
    assert {c: int(carol[c]) for c in BY_CAUSE if carol[c] != "0"} == {
        "violations_own_cell": 1, "violations_late": 1, "violations_wall_on_border": 1}
    assert any(g["reason"] == "violations" and "Carol" in (g["white"], g["black"]) for g in games)

    alice = next(r for r in rows if r["name"] == "Alice")
    stored = SubmissionStore(data)
    try:
        handed_in = next(v for v in stored.versions("k-alice") if v.version == version)
    finally:
        stored.close()
    assert (alice["version"], alice["handed_in_at"], alice["validated_at"]) == (
        version, handed_in.submitted_at, handed_in.validated_at)
    assert alice["validated_at"] >= alice["handed_in_at"] != ""
    assert all(r["version"] == r["handed_in_at"] == r["validated_at"] == "" for r in rows if r["name"] != "Alice")

    document = json.loads((tmp_path / "grades.json").read_text(encoding="utf-8"))
    assert document["tournament"]["name"] == server.folder.name and document["causes"] == [*CAUSES, UNKNOWN]
    for r, j in zip(rows, document["rows"]):
        assert (j["key"], j["name"], j["rank"], j["points"], j["violations"], j["timeouts"], j["version"] or "") == (
            r["key"], r["name"], int(r["rank"]), float(r["points"]), int(r["violations"]), int(r["timeouts"]),
            r["version"])
        assert {f"violations_{c}": str(n) for c, n in j["violations_by_cause"].items()} == {c: r[c] for c in BY_CAUSE}
        assert [(e["name"], e["order"]) for e in j["leaderboard"]] == [
            ("Rank", "asc"), ("Rating", "desc"), ("Points", "desc"), ("Wins", "desc"), ("Violations", "asc")]
        assert j["leaderboard"][0]["value"] == j["rank"] and j["leaderboard"][2]["value"] == j["points"]

    # Carol's game lost by violations loses its log: its violations are counted, as unknown, and said so.
    lost = next(g for g in games if g["reason"] == "violations")
    (server.folder / Path(lost["log_path"]).name).unlink()
    assert main(["--data-dir", str(data), "--export", str(tmp_path / "again.csv")]) == 0
    note = capsys.readouterr().err
    assert note.startswith("note: 1 game log(s) missing or unreadable (such as ") and "3 violation(s)" in note
    carol = next(r for r in read_csv(tmp_path / "again.csv") if r["name"] == "Carol")
    assert (carol["violations"], carol[f"violations_{UNKNOWN}"], carol["violations_late"]) == ("3", "3", "0")


async def test_without_a_roster_a_handed_in_bot_is_named_by_its_key_and_a_connected_one_keeps_its_key(
        make_server, sandbox, tmp_path, capsys):
    server = await make_server(players=2, players_from_submissions=True)
    code, out = await run(str(ROOT / "examples" / "my_first_bot.py"), "-k", "k-alice", "--server", url(server),
                          "--entry", ":MyPlayer")
    assert code == 0, out
    await play(server, [ScriptedBot(url(server), "k-bob", name="Bob")], seconds=60)
    assert main(["--data-dir", str(tmp_path / "replays"), "--export", "-"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out.removeprefix("\ufeff"))))
    assert {(r["name"], r["key"], r["version"] != "") for r in rows} == {("k-alice", "k-alice", True),
                                                                        ("Bob", "k-bob", False)}


# -- a final's table: the separated column -------------------------------------------------------------------------
async def test_a_final_of_a_handed_in_bot_and_connected_bots_exports_its_ties_as_its_table_shows_them(
        make_server, sandbox, tmp_path, capsys):
    data = tmp_path / "final"
    server = await make_server(players=4, format="final", players_from_submissions=True, final_games=24,
                               concurrency=1, data_dir=data)
    code, out = await run(str(ROOT / "examples" / "my_first_bot.py"), "-k", "k-alice", "--server", url(server),
                          "--entry", ":MyPlayer")
    assert code == 0, out
    bots = [waster_bot(server, key, waste) for key, waste in (("k-bo", 0), ("k-cy", 0), ("k-dee", 18))]
    await play(server, bots, seconds=120)
    table = export(server)["standings"]
    capsys.readouterr()
    assert main(["--data-dir", str(data), "--export", str(tmp_path / "final.csv")]) == 0
    assert "(final, 4 players, " in capsys.readouterr().out
    rows = read_csv(tmp_path / "final.csv")
    shown = {True: "yes", False: "no", None: ""}
    assert [(r["name"], int(r["rank"]), r["separated_from_next"], r["rating"]) for r in rows] == [
        (t["player"], t["rank"], shown[t["separated"]], rounded(t["elo"])) for t in table]
    assert "no" in {r["separated_from_next"] for r in rows}     # two equal bots never separate: a tie
    assert rows[-1]["separated_from_next"] == "" and [r["key"] != "" for r in rows] == [True] * 4
    assert all(sum(int(r[c]) for c in BY_CAUSE) == int(r["violations"]) for r in rows)


def _row(rank: int, player: str, elo: float, separated: bool | None, violations: int = 0) -> dict:
    return {"rank": rank, "player": player, "points": 2.0, "games": 4, "wins": 2, "losses": 2, "draws": 0,
            "seat0": [1, 1, 0], "seat1": [1, 1, 0], "elo": elo, "elo_error": 80.0, "elo_low": elo - 70.0,
            "elo_high": elo + 80.0, "violations": violations, "thinking_ms": 100, "separated": separated}


def _tournament(fmt: str, standings: tuple[dict, ...] | None, name: str = "final-1", tid: int = 1) -> TournamentRow:
    players = tuple(row["player"] for row in standings or ()) or ("A", "B")
    return TournamentRow(tid, name, fmt, 2, 7, players, {}, "2026-11-27T10:00:00Z",
                         None if standings is None else "2026-11-27T11:00:00Z", standings,
                         {p: Entrant(f"key-{p}", None) for p in players})


def test_a_finals_table_says_which_neighbours_are_separated_and_ties_share_a_rank(tmp_path, capsys):
    standings = (_row(1, "Ana", 300.0, True), _row(2, "Bo", 120.0, False), _row(2, "Cy", 100.0, True),
                 _row(4, "Dee", -200.0, None))
    rows = build_grades(_tournament("final", standings), [], {}, {})
    assert [(g.rank, g.name, g.separated) for g in rows] == [(1, "Ana", True), (2, "Bo", False), (2, "Cy", True),
                                                            (4, "Dee", None)]
    text = list(csv.DictReader(io.StringIO(grades_csv(rows))))
    assert [(r["rank"], r["separated_from_next"], r["rating"], r["rating_low"]) for r in text] == [
        ("1", "yes", "300.0", "230.0"), ("2", "no", "120.0", "50.0"), ("2", "yes", "100.0", "30.0"),
        ("4", "", "-200.0", "-270.0")]
    # Another format's rows never say separated, even with the field stored.
    assert {g.separated for g in build_grades(_tournament("round-robin", standings), [], {}, {})} == {None}

    # Through the command line, from a stored final.
    with ResultStore(tmp_path / "arena.db") as store:
        tid = store.create_tournament("final-1", "final", 2, 7, [r["player"] for r in standings], {},
                                      {r["player"]: Entrant(f"key-{r['player']}", None) for r in standings})
        store.finish_tournament(tid, list(standings))
    assert main(["--data-dir", str(tmp_path), "--export", str(tmp_path / "g.csv")]) == 0
    assert [(r["name"], r["key"], r["separated_from_next"]) for r in read_csv(tmp_path / "g.csv")] == [
        ("Ana", "key-Ana", "yes"), ("Bo", "key-Bo", "no"), ("Cy", "key-Cy", "yes"), ("Dee", "key-Dee", "")]
    assert "the grades of final-1 (final, 4 players, 8 games" in capsys.readouterr().out


# -- counting ------------------------------------------------------------------------------------------------------
def _game(key: int, white: str, black: str, violations: tuple[int, int], status: str = "finished") -> GameRow:
    return GameRow(1, key, 1, white, black, status, f"g{key}", 0, "goal", (10, 10), violations, f"g{key}.csv",
                   None, None, 10)


def test_causes_count_where_a_log_accounts_for_every_violation_else_as_unknown():
    games = [_game(1, "A", "B", (2, 1)), _game(2, "B", "A", (1, 0)), _game(3, "A", "B", (1, 0)),
             _game(4, "A", "B", (3, 3), status="pending")]
    causes = {(1, 1, 1): (("late", "own_cell"), ("late",)),
              (1, 2, 1): (("wall_exists", "late"), ()),         # the log disagrees with the store: unknown
              (1, 3, 1): None}                                 # no log
    tally = count_causes(games, causes)
    assert tally["A"] == {"late": 1, "own_cell": 1, UNKNOWN: 1}
    assert tally["B"] == {"late": 1, UNKNOWN: 1}


def test_a_game_without_violations_needs_no_log_and_one_with_violations_and_no_log_is_unknown(tmp_path):
    assert game_causes(_game(1, "A", "B", (0, 0)), tmp_path) == ((), ())          # g1.csv is nowhere: not read
    assert game_causes(_game(2, "A", "B", (1, 0)), tmp_path) is None
    (tmp_path / "g3.csv").write_text("not a game log\n")
    assert game_causes(_game(3, "A", "B", (0, 2)), tmp_path) is None


def test_the_leaderboard_leaves_out_a_rating_the_table_does_not_have():
    (grade,) = build_grades(_tournament("round-robin", ({**_row(1, "Ana", 0.0, None), "elo": None},)), [], {}, {})
    assert leaderboard(grade) == [{"name": "Rank", "value": 1, "order": "asc"},
                                  {"name": "Points", "value": 2.0, "order": "desc"},
                                  {"name": "Wins", "value": 2, "order": "desc"},
                                  {"name": "Violations", "value": 0, "order": "asc"}]


# -- choosing the tournament and refusing ----------------------------------------------------------------------------
def test_the_newest_finished_tournament_is_chosen_and_a_newer_unfinished_one_is_named():
    done = _tournament("round-robin", (_row(1, "A", 0.0, None),), "cup-1", 1)
    later = _tournament("round-robin", None, "cup-2", 2)
    assert pick_tournament([done, later], None, Path("d")) == (done, "cup-2 is newer but not finished; these are "
                                                                     "the grades of cup-1")
    assert pick_tournament([done, later], "cup-1", Path("d")) == (done, None)
    for tournaments, name, words in (([done, later], "cup-2", "tournament cup-2 is not finished"),
                                     ([later], None, "tournament cup-2 is not finished"),
                                     ([done], "cup-9", "no tournament named 'cup-9' in d (the newest: cup-1)"),
                                     ([], None, "no tournament in d yet")):
        with pytest.raises(GradesError, match=words.replace("(", r"\(").replace(")", r"\)")):
            pick_tournament(tournaments, name, Path("d"))


def _unfinished_store(folder: Path) -> None:
    with ResultStore(folder / "arena.db") as store:
        tid = store.create_tournament("cup-1", "round-robin", 1, 1, ["A", "B"], {})
        store.schedule(tid, [ScheduledGame(1, 1, 1, "A", "B")])
        store.record_result(tid, (1, 1, 1), GameResult("A", "B", 0, "goal"), log_path=None, game_id="g1",
                            started_at=None, ended_at="2026-11-27T10:00:00Z", steps=3)


@pytest.mark.parametrize(("setup", "output", "words"), [
    ("nothing", "g.csv", "quoridor-server: no tournament in {d} (no arena.db): run one there first, or pass the "
                         "--data-dir it ran with"),
    ("unfinished", "g.csv", "quoridor-server: tournament cup-1 is not finished, so it has no final table to grade "
                            "by: finish it (quoridor-server --resume --data-dir {d}), or name a finished one with "
                            "--name"),
    ("finished", "g.csv/grades.csv", "quoridor-server: cannot write {d}/g.csv/grades.csv: Not a directory; pass a "
                                     "path in a folder you can write to"),
    ("not a database", "g.csv", "quoridor-server: database {d}/arena.db is not a Quoridor Arena results database"),
])
def test_nothing_to_export_or_nowhere_to_write_is_one_line(tmp_path, capsys, setup, output, words):
    if setup == "unfinished":
        _unfinished_store(tmp_path)
    elif setup == "finished":
        with ResultStore(tmp_path / "arena.db") as store:
            store.finish_tournament(store.create_tournament("cup-1", "round-robin", 1, 1, ["A", "B"], {}),
                                    [_row(1, "A", 0.0, None), _row(2, "B", 0.0, None)])
        (tmp_path / "g.csv").write_text("a file, not a folder")
    elif setup == "not a database":
        (tmp_path / "arena.db").write_text("hello")
    code = main(["--data-dir", str(tmp_path), "--export", str(tmp_path / output)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1 and len(err) == 1 and err[0].startswith(words.format(d=tmp_path)), err


def test_the_export_reads_only_the_data_dir_and_is_in_the_help(tmp_path, capsys):
    # A roster that cannot be read does not stop an export: it needs only DATA_DIR.
    assert main(["--data-dir", str(tmp_path), "--roster", str(tmp_path / "missing.txt"),
                 "--export", str(tmp_path / "g.csv")]) == 1
    assert "no arena.db" in capsys.readouterr().err
    text = " ".join(build_parser().format_help().split())
    assert "--export FILE write the grades of the newest finished tournament in DATA_DIR" in text
    assert "with --export: also write the grades as JSON to FILE, each row with its Gradescope leaderboard" in text

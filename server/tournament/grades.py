"""Grades out (``quoridor-server --export grades.csv``): one row per player of a finished tournament, for a teacher.

Each row holds the player's key and name, what the stored final table says of it (rank, points, its
Bradley-Terry rating and 95% interval, whether a final separates it from the next row, games, wins,
losses, draws, violations), its violations by cause and its timeouts, found again in its games' logs
(``shared.gamelog.violation_causes``), and, for a handed-in bot, the version that played with when it was
handed in and validated (``submissions.db``). ``--json`` writes the same rows as JSON, each with its
Gradescope leaderboard (``leaderboard``: the entries an autograder's ``results.json`` takes as they are).

The counts agree with the table: a game's violations by cause sum to the violations the results store
holds for it, and ``late`` (a timeout is a violation) is the ``timeouts`` column. A game whose log is
missing, unreadable or disagrees with the store counts its violations under ``unknown`` instead, so the
causes still sum to ``violations`` (and ``timeouts`` counts only the timeouts seen).

The building is pure (``build_grades``, ``grades_csv``, ``grades_json``); ``read_grades`` and
``write_grades`` do the reading and writing for the command line.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shared.gamelog import STEP_CAP, LogFormatError, replay, violation_causes
from shared.quoridor import Cause

from server.logs.logfile import read_log, write_text_atomic
from server.submissions.store import StoredVersion, SubmissionStore
from server.tournament.export import to_json
from server.tournament.rows import GameRow, TournamentRow
from server.tournament.store import ResultStore, StoreError

__all__ = ["GRADES_VERSION", "CAUSES", "UNKNOWN", "CSV_COLUMNS", "Grade", "GameCauses", "Grades", "GradesError",
           "build_grades", "count_causes", "leaderboard", "grades_csv", "grades_json", "pick_tournament",
           "game_causes", "read_grades", "write_grades"]

GRADES_VERSION = 1
"""The ``grades_version`` of the JSON; raised when a field changes meaning or disappears."""
CAUSES = tuple(cause.value for cause in Cause)
"""Every violation's cause the referee knows, in the rules' order (``late``, the timeouts, last)."""
UNKNOWN = "unknown"
"""The violations of games whose log could not tell their causes."""
CSV_COLUMNS = (
    "key", "name", "rank", "points", "rating", "rating_low", "rating_high", "separated_from_next",
    "games", "wins", "losses", "draws", "violations", *(f"violations_{cause}" for cause in (*CAUSES, UNKNOWN)),
    "timeouts", "version", "handed_in_at", "validated_at",
)
"""The header of the grades CSV, in column order."""

#: One game's violations by seat, as causes; None: its log could not tell them.
GameCauses = tuple[tuple[str, ...], tuple[str, ...]] | None


class GradesError(ValueError):
    """Nothing to export (no results database, no finished tournament, an unknown name) or nowhere to write it;
    the message says so in one line, and what to do."""


@dataclass(frozen=True)
class Grade:
    """One player's row: the stored table's numbers, its violations by cause, and the version that played."""

    key: str | None
    name: str
    rank: int
    points: float
    #: The table's rating (Elo scale, Bradley-Terry) and its 95% interval; None where the table has none.
    rating: float | None
    rating_low: float | None
    rating_high: float | None
    #: A final: True when this row's rating is shown above the next row's, False for a tie; None otherwise.
    separated: bool | None
    games: int
    wins: int
    losses: int
    draws: int
    violations: int
    #: Violations by cause: every cause of ``CAUSES`` and ``UNKNOWN``, zeros included; they sum to ``violations``.
    by_cause: dict[str, int] = field(hash=False)
    timeouts: int
    #: The handed-in version that played (None: a connected bot), when it was handed in and validated.
    version: str | None = None
    handed_in_at: str | None = None
    validated_at: str | None = None


@dataclass(frozen=True)
class Grades:
    """A tournament's grades: the tournament, its rows in table order, and notes for the teacher (one line each)."""

    tournament: TournamentRow
    rows: tuple[Grade, ...]
    notes: tuple[str, ...] = ()


# -- building (pure) ----------------------------------------------------------------------------------------------
def count_causes(games: Sequence[GameRow], causes: Mapping[tuple[int, int, int], GameCauses]) -> dict[str, Counter[str]]:
    """Each player's violations by cause over the finished ``games``: a game's causes (``causes``, by game key)
    where they account for every violation the store holds for that seat, else that many ``UNKNOWN``."""
    tally: dict[str, Counter[str]] = {}
    for game in games:
        if game.status != "finished":
            continue
        found = causes.get(game.key)
        for seat, player in enumerate(game.players):
            mine = tally.setdefault(player, Counter())
            expected = game.violations[seat]
            if found is not None and len(found[seat]) == expected:
                mine.update(found[seat])
            elif expected:
                mine[UNKNOWN] += expected
    return tally


def _number(value: Any) -> float | None:
    return None if value is None else float(value)


def build_grades(tournament: TournamentRow, games: Sequence[GameRow],
                 causes: Mapping[tuple[int, int, int], GameCauses],
                 versions: Mapping[tuple[str, str], StoredVersion]) -> list[Grade]:
    """The rows of finished ``tournament``, in its table's order: the stored standings' numbers, the violations
    by cause of its ``games`` (``count_causes``), each player's key and version (the tournament's entrants) and
    that version's times (``versions``, by key and version id). ``GradesError`` if it is not finished."""
    if tournament.standings is None:
        raise GradesError(f"tournament {tournament.name} is not finished: it has no final table yet")
    tally = count_causes(games, causes)
    rows = []
    for row in tournament.standings:
        name = str(row["player"])
        entrant = tournament.entrants.get(name)
        key, version = (entrant.key, entrant.version) if entrant is not None else (None, None)
        stored = versions.get((key, version)) if key is not None and version is not None else None
        counted = tally.get(name, Counter())
        by_cause = {cause: counted[cause] for cause in (*CAUSES, UNKNOWN)}
        rows.append(Grade(
            key=key, name=name, rank=int(row["rank"]), points=float(row["points"]),
            rating=_number(row.get("elo")), rating_low=_number(row.get("elo_low")),
            rating_high=_number(row.get("elo_high")),
            separated=row.get("separated") if tournament.format == "final" else None,
            games=int(row["games"]), wins=int(row["wins"]), losses=int(row["losses"]), draws=int(row["draws"]),
            violations=int(row.get("violations", 0)), by_cause=by_cause, timeouts=by_cause[Cause.LATE.value],
            version=version, handed_in_at=stored.submitted_at if stored else None,
            validated_at=stored.validated_at if stored else None))
    return rows


def _rating(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def leaderboard(grade: Grade) -> list[dict[str, Any]]:
    """``grade`` as a Gradescope leaderboard: ``{"name", "value", "order"}`` entries (``asc``: lower ranks
    higher); the rating's entry is left out when the table has no rating."""
    entries: list[dict[str, Any]] = [{"name": "Rank", "value": grade.rank, "order": "asc"}]
    if grade.rating is not None:
        entries.append({"name": "Rating", "value": _rating(grade.rating), "order": "desc"})
    entries += [{"name": "Points", "value": grade.points, "order": "desc"},
                {"name": "Wins", "value": grade.wins, "order": "desc"},
                {"name": "Violations", "value": grade.violations, "order": "asc"}]
    return entries


def _yes_no(value: bool | None) -> str:
    return "" if value is None else ("yes" if value else "no")


def grades_csv(rows: Sequence[Grade]) -> str:
    """The grades as CSV text (``CSV_COLUMNS``; RFC 4180, as ``results.csv``): empty cells for what is unknown
    or does not apply, ratings to one decimal, ``separated_from_next`` yes or no."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(CSV_COLUMNS)
    for g in rows:
        cells: list[Any] = [g.key, g.name, g.rank, f"{g.points:g}", _rating(g.rating), _rating(g.rating_low),
                            _rating(g.rating_high), _yes_no(g.separated), g.games, g.wins, g.losses, g.draws,
                            g.violations, *(g.by_cause[cause] for cause in (*CAUSES, UNKNOWN)), g.timeouts,
                            g.version, g.handed_in_at, g.validated_at]
        writer.writerow(["" if cell is None else cell for cell in cells])
    return buffer.getvalue()


def grades_json(grades: Grades) -> str:
    """The grades as JSON text: the tournament, the causes, and each row with its ``violations_by_cause`` and
    its Gradescope ``leaderboard``."""
    t = grades.tournament
    rows = []
    for g in grades.rows:
        rows.append({
            "key": g.key, "name": g.name, "rank": g.rank, "points": g.points, "rating": _rating(g.rating),
            "rating_low": _rating(g.rating_low), "rating_high": _rating(g.rating_high),
            "separated_from_next": g.separated, "games": g.games, "wins": g.wins, "losses": g.losses,
            "draws": g.draws, "violations": g.violations, "violations_by_cause": g.by_cause,
            "timeouts": g.timeouts, "version": g.version, "handed_in_at": g.handed_in_at,
            "validated_at": g.validated_at, "leaderboard": leaderboard(g)})
    document = {"grades_version": GRADES_VERSION,
                "tournament": {"id": t.id, "name": t.name, "format": t.format, "created_at": t.created_at,
                               "finished_at": t.finished_at},
                "causes": [*CAUSES, UNKNOWN], "rows": rows, "notes": list(grades.notes)}
    return to_json(document, indent=2) + "\n"


def pick_tournament(tournaments: Sequence[TournamentRow], name: str | None, where: Path) -> tuple[TournamentRow, str | None]:
    """The tournament to export from ``tournaments`` (oldest first): the one named ``name``, else the newest
    finished; and a note when a newer one is still being played. ``GradesError`` when there is none to export."""
    if name is not None:
        named = [t for t in tournaments if t.name == name]
        if not named:
            known = ", ".join(t.name for t in tournaments[-5:]) or "none"
            raise GradesError(f"no tournament named {name!r} in {where} (the newest: {known})")
        chosen = named[-1]
        if not chosen.finished:
            raise GradesError(_unfinished(chosen, where))
        return chosen, None
    finished = [t for t in tournaments if t.finished]
    if not finished:
        if tournaments:
            raise GradesError(_unfinished(tournaments[-1], where))
        raise GradesError(f"no tournament in {where} yet: grades come from a finished tournament")
    chosen = finished[-1]
    newer = [t.name for t in tournaments if t.id > chosen.id and not t.finished]
    note = (f"{newer[-1]} is newer but not finished; these are the grades of {chosen.name}" if newer else None)
    return chosen, note


def _unfinished(tournament: TournamentRow, where: Path) -> str:
    return (f"tournament {tournament.name} is not finished, so it has no final table to grade by: finish it "
            f"(quoridor-server --resume --data-dir {where}), or name a finished one with --name")


# -- reading and writing ------------------------------------------------------------------------------------------
def game_causes(game: GameRow, folder: Path, step_cap: int = STEP_CAP) -> GameCauses:
    """The causes of ``game``'s violations by seat, from its log (in ``folder``, the tournament's, by the log's
    file name; else where the store says); None when the log is missing, unreadable or disagrees with the rules.
    A game without violations has nothing to tell: its log is not read."""
    if not any(game.violations):
        return (), ()
    if not game.log_path:
        return None
    stored = Path(game.log_path)
    path = folder / stored.name
    if not path.is_file():
        path = stored
    try:
        played = replay(read_log(path, path.name), step_cap=step_cap)
    except LogFormatError:
        return None
    if not played.complete:
        return None
    found = violation_causes(played)
    return tuple(c.value for c in found[0]), tuple(c.value for c in found[1])


def read_grades(data_dir: Path, name: str | None = None) -> Grades:
    """The grades of the tournament ``name`` (default: the newest finished one) in ``data_dir``'s ``arena.db``, its
    games' logs and ``submissions.db``. ``GradesError`` (one line) when there is nothing to export."""
    path = data_dir / "arena.db"
    if not path.is_file():
        raise GradesError(f"no tournament in {data_dir} (no {path.name}): run one there first, or pass the "
                          "--data-dir it ran with")
    try:
        with ResultStore(path) as store:
            tournament, note = pick_tournament(store.tournaments(), name, data_dir)
            games = store.games(tournament.id)
    except StoreError as exc:
        raise GradesError(str(exc)) from None
    settings_cap = tournament.settings.get("step_cap")
    step_cap = settings_cap if isinstance(settings_cap, int) and not isinstance(settings_cap, bool) else STEP_CAP
    folder = data_dir / tournament.name
    causes = {g.key: game_causes(g, folder, step_cap) for g in games if g.status == "finished"}
    versions = _versions(data_dir, tournament)
    notes = [] if note is None else [note]
    unread = [g for g in games if g.status == "finished" and causes.get(g.key) is None]
    if unread:
        lost = sum(sum(g.violations) for g in unread)
        notes.append(f"{len(unread)} game log(s) missing or unreadable (such as {unread[0].game_id}): their "
                     f"{lost} violation(s) are counted as {UNKNOWN}")
    return Grades(tournament, tuple(build_grades(tournament, games, causes, versions)), tuple(notes))


def _versions(data_dir: Path, tournament: TournamentRow) -> dict[tuple[str, str], StoredVersion]:
    """The stored versions of the handed-in bots that played in ``tournament``, by key and version id."""
    wanted = {(e.key, e.version) for e in tournament.entrants.values() if e.key is not None and e.version}
    if not wanted or not (data_dir / "submissions.db").is_file():
        return {}
    store = SubmissionStore(data_dir)
    try:
        return {(v.key, v.version): v for key in {k for k, _ in wanted} for v in store.versions(key)
                if (v.key, v.version) in wanted}
    finally:
        store.close()


def write_grades(grades: Grades, csv_path: Path | None, json_path: Path | None) -> None:
    """Write the grades' CSV to ``csv_path`` (UTF-8 with a byte order mark, for spreadsheets) and JSON to
    ``json_path``, each replaced whole; ``GradesError`` (one line) when one cannot be written."""
    for path, text in ((csv_path, "\ufeff" + grades_csv(grades.rows) if csv_path else ""),
                       (json_path, grades_json(grades) if json_path else "")):
        if path is None:
            continue
        try:
            write_text_atomic(path, text)
        except OSError as exc:
            raise GradesError(f"cannot write {path}: {exc.strerror or exc}; pass a path in a folder you can "
                              "write to") from None

"""Games as the pages see them: a ``GameRecord`` from a log or from a live game's judged steps, and the replay listing.

Pure builders, except ``list_replays``, ``read_log``, ``folder_listing`` and ``finished_info``, which read
the data directory. Every
step of a record is the ``game_update`` a spectator would have got live, so the page draws live
and finished games with one renderer. ``log_path`` keeps file paths inside the data directory.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from shared.gamelog import GameLog, LogFormatError, is_log_name, replay
from shared.protocol import (
    BoardState,
    GameRecord,
    GameUpdate,
    ReplayFolder,
    ReplayGameEntry,
    Replays,
    StandingRow,
    TournamentInfo,
    cell,
    wall,
)
from shared.quoridor import GameStatus, Step, step_name
from shared.referee import StepJudged
from shared.tournament import GameResult, TournamentError, decide_pairing, score_text

from server.logs import logfile
from server.games.updates import game_update

__all__ = [
    "champion",
    "finished_info",
    "folder_listing",
    "list_replays",
    "newest_finished",
    "log_path",
    "read_log",
    "record_from_log",
    "record_from_steps",
    "result_text",
]

_TIMEOUT_REASON = "no answer within the time limit"
_BREAKER_REASON = "the third violation loses the game"
#: A path of the listing: folder names and a log's name, no dots in front, no backslashes.
_PART = re.compile(r"^[^/\\\x00-\x1f.][^/\\\x00-\x1f]{0,199}$")


def result_text(players: Sequence[str], winner: int | None, reason: str | None) -> str | None:
    """``alice won (goal)``, ``draw (step cap)``, ``double forfeit`` (neither came), or None when the game is not
    over."""
    if reason is None:
        return None
    why = reason.replace("_", " ")
    if winner is None:
        return "double forfeit" if reason == "forfeit" else f"draw ({why})"
    return f"{players[winner]} won ({why})"


def _notation(step: Step) -> str:
    try:
        return step_name(step)
    except ValueError:
        return "-" if step.is_nan() else "?"


def record_from_log(log: GameLog, game: str) -> GameRecord:
    """The record of a log, replayed by the rules core (rows past a disagreement drawn as the log gives them)."""
    run = replay(log)
    players = log.header.players
    clocks = [0, 0]
    steps: list[GameUpdate] = []
    done_rows = [*run.steps, *run.unverified]
    for index, done in enumerate(done_rows):
        record, pos = done.record, done.position
        clocks[done.seat] += record.thinking_ms or 0
        step = record.step
        status = record.status
        reason = ""
        if status is GameStatus.TIMEOUT:
            reason = record.reason or _TIMEOUT_REASON
        elif status is GameStatus.RULES_BREAKER:
            reason = f"{_BREAKER_REASON}: {record.reason}" if record.reason else _BREAKER_REASON
        elif done.judgement is not None and not done.judgement.ok:
            reason = done.judgement.reason
        elif status.is_violation:
            reason = record.reason
        steps.append(GameUpdate.model_construct(
            type="game_update", game=game, players=players, turn=index, seat=done.seat,
            move=cell(step.new_loc) if step.is_move() else None,
            wall=None if step.is_move() or step.new_wall.is_none() else _wall(step),
            notation=_notation(step), status=int(status), clocks_ms=(clocks[0], clocks[1]),
            board=BoardState.model_construct(pawns=(cell(pos.pawn(0)), cell(pos.pawn(1))),
                                             walls=[wall(w) for w in pos.walls], walls_left=pos.walls_left),
            over=index == len(done_rows) - 1 and run.reason is not None, reason=reason,
            thinking_ms=record.thinking_ms))
    winner, reason = run.winner, run.reason
    if reason is None and run.claimed is not None:
        winner, reason = run.claimed
    problems = [str(p) for p in run.problems] + ([str(run.halt)] if run.halt is not None else [])
    return GameRecord(game=game, players=players, ruleset=log.header.ruleset, live=False,
                      result=result_text(players, winner, reason), winner=winner if reason else None,
                      problems=problems, steps=steps)


def _wall(step: Step) -> Any:
    try:
        return wall(step.new_wall)
    except ValueError:
        return None


def record_from_steps(game: str, players: tuple[str, str], judged: Sequence[StepJudged], ruleset: str,
                      over: bool) -> GameRecord:
    """The record of a live game so far, from the referee's judged steps."""
    steps = [game_update(game, players, j, over and i == len(judged) - 1) for i, j in enumerate(judged)]
    return GameRecord(game=game, players=players, ruleset=ruleset, live=not over, steps=steps)


def log_path(data_dir: Path, relative: str) -> Path | None:
    """The log file ``relative`` names inside ``data_dir``, or None: never a path outside it.

    Each part must be a plain name (no ``..``, no leading dot, no backslash or control
    character), the file must be named as a game log is (``shared.gamelog.is_log_name``: ``.csv``, or
    ``.csv.part`` for a game in progress, and none of a tournament's tables), and its real path
    (links followed) must lie inside the data directory.
    """
    parts = relative.split("/")
    if not 1 <= len(parts) <= 2 or not all(_PART.match(p) for p in parts):
        return None
    if not is_log_name(parts[-1]):
        return None
    root = data_dir.resolve()
    try:
        target = root.joinpath(*parts).resolve(strict=True)
    except (OSError, RuntimeError):
        return None
    if not target.is_relative_to(root) or not target.is_file():
        return None
    return target


def read_log(data_dir: Path, relative: str) -> GameLog:
    """Read the log ``relative`` names in ``data_dir`` (``server.logs.logfile.read_log``); ``LogFormatError`` naming
    ``relative`` when there is none or it is not a game log."""
    path = log_path(data_dir, relative)
    if path is None:
        raise LogFormatError(relative, None, "no such game log in the data directory")
    return logfile.read_log(path, relative)


def list_replays(data_dir: Path) -> Replays:
    """The tournaments of ``data_dir`` (newest first) and their games, as ``quoridor-replay FOLDER`` lists them."""
    folders: list[ReplayFolder] = []
    if not data_dir.is_dir():
        return Replays(folders=[])
    subs = [p for p in data_dir.iterdir() if p.is_dir() and not p.name.startswith(".")]
    subs.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    for sub in subs:
        games = _games(sub)
        if games:
            folders.append(ReplayFolder(name=sub.name, games=games))
    top = _loose_logs(data_dir, "", set())
    if top:
        folders.append(ReplayFolder(name=".", games=top))
    return Replays(folders=folders)


def _games(folder: Path) -> list[ReplayGameEntry]:
    entries: list[ReplayGameEntry] = []
    listed: set[str] = set()
    results = folder / "results.json"
    if results.is_file():
        try:
            document = json.loads(results.read_text(encoding="utf-8"))
            # in the order the games ended (a page's "recent results" are the last ones), then those still to end
            ended = sorted(document["games"], key=lambda game: (not game.get("ended_at"), str(game.get("ended_at"))))
            for game in ended:
                name = Path(str(game.get("log_path") or "")).name
                here = folder / name if name else None
                if here is not None and not here.is_file() and (folder / (name + ".part")).is_file():
                    name += ".part"
                    here = folder / name
                path = f"{folder.name}/{name}" if here is not None and here.is_file() else None
                if name:
                    listed.add(name)
                finished = game.get("status") == "finished"
                score = str(game.get("result") or "*").replace("1/2-1/2", "½-½") if finished else "*"
                result = (str(game.get("reason") or "?").replace("_", " ") if finished
                          else str(game.get("status") or "unfinished"))
                entries.append(ReplayGameEntry(game=str(game.get("game_id") or "?"), white=str(game["white"]),
                                               black=str(game["black"]), score=score, result=result, path=path))
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            entries, listed = [], set()
    return entries + _loose_logs(folder, folder.name + "/", listed)


def _loose_logs(folder: Path, prefix: str, listed: set[str]) -> list[ReplayGameEntry]:
    """The logs ``results.json`` does not mention, named by their file: players and score from the log's header."""
    entries = []
    for path in sorted(folder.iterdir()):
        name = path.name
        if name in listed or not is_log_name(name) or not path.is_file():
            continue
        white = black = "?"
        score, result = "?", "not read"
        try:
            log = logfile.read_log(path, name)
            white, black = log.header.players
            outcome = log.outcome if not name.endswith(".part") else None    # the name says unfinished
            score = score_text(outcome.winner, outcome.reason) if outcome else "*"
            result = outcome.reason.replace("_", " ") if outcome else "unfinished"
        except LogFormatError:
            result = "not a game log"
        entries.append(ReplayGameEntry(game=name.removesuffix(".part").removesuffix(".csv"), white=white,
                                       black=black, score=score, result=result, path=prefix + name))
    return entries


def folder_listing(folder: Path) -> ReplayFolder:
    """One tournament folder's games, as ``list_replays`` lists them (``results.json`` first, then the other logs)."""
    return ReplayFolder(name=folder.name, games=_games(folder) if folder.is_dir() else [])


def champion(rows: Sequence[StandingRow]) -> str | None:
    """The only player ranked 1 in a final table, or None when the first place is shared (or nobody played)."""
    first = [row.player for row in rows if row.rank == 1]
    return first[0] if len(first) == 1 else None


def finished_info(folder: Path) -> TournamentInfo | None:
    """The finished tournament of ``folder`` as its ``results.json`` tells it (final table, champion); None when
    the folder holds no finished tournament or its ``results.json`` cannot be read."""
    try:
        document = json.loads((folder / "results.json").read_text(encoding="utf-8"))
        about = document["tournament"]
        if not about.get("finished"):
            return None
        rows = [StandingRow.model_validate(row) for row in document.get("standings") or []]
        players = [str(name) for name in document.get("players") or [row.player for row in rows]]
        settings = about.get("settings") or {}
        form = str(about.get("format") or "round-robin")
        winner = _knockout_champion(document["games"]) if form == "knockout" else champion(rows)
        return TournamentInfo(tournament=str(about.get("name") or folder.name), stage="finished", players=players,
                              seats=len(players), format=form, games_per_pairing=int(about.get("games_per_pairing") or 1),
                              ruleset=str(settings.get("ruleset") or "course"), rows=rows, champion=winner)
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None


def newest_finished(data_dir: Path) -> TournamentInfo | None:
    """The newest finished tournament among the folders of ``data_dir`` (what a server that plays none shows)."""
    if not data_dir.is_dir():
        return None
    subs = [p for p in data_dir.iterdir() if p.is_dir() and not p.name.startswith(".")]
    for sub in sorted(subs, key=lambda p: p.stat().st_mtime, reverse=True):
        if (info := finished_info(sub)) is not None:
            return info
    return None


def _knockout_champion(games: list[dict[str, Any]]) -> str | None:
    """The winner of a finished knockout's last pairing (``decide_pairing``, as the server decided it)."""
    played = [g for g in games if g.get("status") == "finished"]
    if not played:
        return None
    last = max(int(g["round"]) for g in played)
    final = sorted((g for g in played if int(g["round"]) == last), key=lambda g: int(g.get("game_in_pairing") or 0))
    if len({int(g["pairing"]) for g in final}) != 1:
        return None
    seats = {0: final[0]["white"], 1: final[0]["black"]}
    try:
        results = [GameResult(g["white"], g["black"], {g["white"]: 0, g["black"]: 1}.get(g.get("winner")),
                              str(g.get("reason") or ""), tuple(g.get("thinking_ms") or (0, 0)),
                              tuple(g.get("violations") or (0, 0))) for g in final]
        return decide_pairing(seats[0], seats[1], results)
    except TournamentError:
        return None

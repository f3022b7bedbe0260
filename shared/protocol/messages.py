"""The frames of protocol v1 (``spec/protocol.md``) as frozen pydantic models, and the two unions.

``ClientMessage`` is every frame a client may send, ``ServerMessage`` every frame a server may
send; both are discriminated on ``type``. Unknown fields are ignored, so later versions may add some.
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import Field, field_validator
from pydantic_core import PydanticCustomError

from .base import Cell, Message, ProtocolModel, Wall
from .ladder import Ladder, LadderRequest
from .organiser import Organiser, OrganiserRequest
from .puzzles import Action, PuzzleMessage, PuzzleRequest, PuzzleState, Solution, Verdict
from .submissions import Submissions, SubmissionsRequest, Submit, Submitted
from .web import GameRequest, LogUpload, Replays, ReplaysRequest

__all__ = [
    "PROTOCOL_VERSION", "Role", "Room", "Hello", "StepMessage", "Watch", "FinalTableRequest", "RulesInfo", "Welcome",
    "GameStart",
    "StepJudgement", "Turn", "GameOver", "StandingRow", "Standings", "TournamentInfo", "TournamentOver", "BoardState",
    "GameUpdate", "GameUpdates", "GameRecord", "ErrorMessage", "ClientMessage", "ServerMessage", "CLIENT_MESSAGES", "SERVER_MESSAGES",
]

PROTOCOL_VERSION = 1
"""The protocol version these models describe."""

Role = Literal["player", "spectator", "submitter"]
"""What a connection does: play games, watch them, or hand bots in as files (``submit``)."""
Room = Literal["quoridor", "sokoban", "ice", "circuit"]
"""The tournament room and the puzzle side rooms."""

_KEY_PATTERN = "^[!-~]+$"  # printable ASCII without the space: easy to type, quote and log


# --- client -> server ---------------------------------------------------------------------------

class Hello(Message):
    """Client -> server, the first frame: which protocol, which role and room, and who you are."""

    type: Literal["hello"] = "hello"
    protocol: int = Field(description="The protocol version the client speaks: 1.",
                          json_schema_extra={"const": PROTOCOL_VERSION})
    role: Role = Field(description="player, spectator or submitter (hands a bot in as files).")
    room: Room = Field("quoridor", description="quoridor (the tournament), sokoban, ice or circuit.")
    key: str = Field(min_length=1, max_length=64, json_schema_extra={"pattern": _KEY_PATTERN},
                     description="Your secret key: 1 to 64 printable ASCII characters, no spaces.")
    name: str | None = Field(None, min_length=1, max_length=40, description="A display name (defaults to the key's).")
    version: str | None = Field(None, min_length=1, max_length=64, json_schema_extra={"pattern": _KEY_PATTERN},
                                description="The bot's version (the practice ladder rates each version on its "
                                            "own): 1 to 64 printable ASCII characters, no spaces; quoridor-client "
                                            "sends a hash of the bot's source.")
    concurrency: int | None = Field(None, ge=1, le=64, description="Games at once the bot accepts on the practice "
                                                                 "ladder, 1 to 64 (default 1).")

    @field_validator("protocol")
    @classmethod
    def _speaks_v1(cls, value: int) -> int:
        if value != PROTOCOL_VERSION:
            raise PydanticCustomError(
                "protocol_version", "should be {expected}: this server speaks protocol version {expected} only",
                {"expected": PROTOCOL_VERSION})
        return value

    @field_validator("key")
    @classmethod
    def _key_chars(cls, value: str) -> str:
        if not all("!" <= char <= "~" for char in value):
            raise PydanticCustomError("key_chars", "should hold printable ASCII characters only, no spaces")
        return value

    @field_validator("version")
    @classmethod
    def _version_chars(cls, value: str | None) -> str | None:
        if value is not None and not all("!" <= char <= "~" for char in value):
            raise PydanticCustomError("version_chars", "should hold printable ASCII characters only, no spaces")
        return value

    @field_validator("name")
    @classmethod
    def _printable(cls, value: str | None) -> str | None:
        # Names end up in other people's terminals: no control characters or escape sequences.
        if value is not None and not value.isprintable():
            raise PydanticCustomError("name_not_printable", "should hold printable characters only")
        return value


class StepMessage(Message):
    """Client -> server: a player's answer to a ``turn``: a move, a wall, both (a move) or neither (a no-op)."""

    type: Literal["step"] = "step"
    game: str = Field(description="The game id from the turn.")
    turn: int = Field(ge=0, description="The turn number this step answers, echoed from the turn.")
    move: Cell | None = Field(None, description="The cell to move to, or null.")
    wall: Wall | None = Field(None, description="The wall to place, or null.")


class Watch(Message):
    """Client -> server: a spectator subscribes to a live game, or to all of them."""

    type: Literal["watch"] = "watch"
    game: str = Field(description='A game id, or "*" for every game.')
    batch: bool = Field(False, description="True: updates that come together arrive as one game_updates frame.")


class FinalTableRequest(Message):
    """Client -> server, a player: make this connection's ``tournament_over`` carry every row of the final table
    (once per connection; without it a player gets the top and its own row)."""

    type: Literal["final_table_request"] = "final_table_request"


# --- server -> client: the tournament -----------------------------------------------------------


class RulesInfo(ProtocolModel):
    """The rules the server plays by, sent in ``welcome``."""

    ruleset: str = Field(description="course (the handout's rules) or standard (the board game's).")
    time_limit_ms: int | None = Field(description="Thinking time per step in ms; null: no limit (a debugging server).")
    violations_allowed: int = Field(description="The violation that loses a game: 3 means the 3rd loses.")
    step_cap: int = Field(description="Steps each player may make in a game before it ends on time.")
    walls_per_player: int = Field(description="Walls each player starts a game with.")


class Welcome(Message):
    """Server -> client: the answer to ``hello``."""

    type: Literal["welcome"] = "welcome"
    protocol: int = Field(PROTOCOL_VERSION, description="The protocol version the server speaks.")
    player: str = Field(description="The name the server knows you by.")
    server: str = Field(description="The server's name and version.")
    rules: RulesInfo = Field(description="The rules of the tournament.")
    organiser_page: bool = Field(False, description="True when this server has an organiser's key: its pages link "
                                                    "the organiser's page (`/organiser`, `organiser_request`).")


class GameStart(Message):
    """Server -> player: a game begins; seat 0 starts at (5,1) and moves first, seat 1 starts at (5,9)."""

    type: Literal["game_start"] = "game_start"
    game: str = Field(description="The game id.")
    opponent: str = Field(description="The opponent's name.")
    seat: Literal[0, 1] = Field(description="Your seat: 0 moves first from (5,1), 1 starts at (5,9).")


class StepJudgement(ProtocolModel):
    """Why your previous step was a violation, in ``turn`` (and in ``game_over`` for your last step)."""

    status: int = Field(description="The GameStatus the step earned: 3 Timeout, 6 InsufficientBlock or 7 InvalidStep.")
    cause: str = Field(description="A stable code: late, not_reachable, wall_overlaps, ... (see the table of causes; "
                                   "treat a code you do not know as a violation all the same).")
    reason: str = Field(description="The reason for people, e.g. 'a5 is not reachable in one step from e1'.")
    thinking_ms: int = Field(description="The thinking time charged for the step, in ms.")


class Turn(Message):
    """Server -> player: it is your move (the handout's ChessboardChange); answer with a ``step``."""

    type: Literal["turn"] = "turn"
    game: str = Field(description="The game id.")
    turn: int = Field(description="The turn number, to echo in the step.")
    status: int = Field(description="The GameStatus of your previous step (0 Ok at the start).")
    my_loc: Cell = Field(description="Your pawn.")
    enemy_loc: Cell = Field(description="The opponent's pawn.")
    enemy_wall: Wall | None = Field(description="The wall the opponent placed on its last turn, or null.")
    walls_left: tuple[int, int] = Field(description="Walls left: yours, the opponent's.")
    time_limit_ms: int | None = Field(description="Time for this step in ms, or null for no limit.")
    judgement: StepJudgement | None = Field(
        None, description="Why your previous step was a violation (status 3, 6 or 7); null when it stood or "
                          "there was none.")


class GameOver(Message):
    """Server -> player: a game ended (the client calls its player's ``restart()``)."""

    type: Literal["game_over"] = "game_over"
    game: str = Field(description="The game id.")
    status: int = Field(description="1 Win, 2 Lost, 4 EnemyClosed, 5 RulesBreaker, or 2000 for a draw.")
    result: Literal["win", "loss", "draw"] = Field(description="The result for you.")
    reason: Literal["goal", "violations", "disconnect", "step_cap", "forfeit"] = Field(
        description="How the game ended.")
    winner: str | None = Field(description="The winner's name, or null for a draw.")
    log: str | None = Field(None, description="Where the server wrote the game's log, if it did.")
    thinking_ms: tuple[int, int] | None = Field(None, description="Total thinking time: yours, the opponent's.")
    judgement: StepJudgement | None = Field(
        None, description="Why your last step was a violation, when no turn told you (your 3rd violation, or "
                          "one the game ended right after); else null.")


class StandingRow(ProtocolModel):
    """One player's line in the standings."""

    rank: int = Field(description="1 for the leader; equal players share a rank (in a final: 1 + the players shown "
                                  "better at the final's confidence).")
    player: str = Field(description="The player's name.")
    points: float = Field(description="1 per win, 0.5 per draw.")
    games: int = Field(description="Games played.")
    wins: int = Field(description="Games won.")
    losses: int = Field(description="Games lost.")
    draws: int = Field(description="Games drawn.")
    seat0: list[int] = Field([0, 0, 0], description="[wins, losses, draws] as player 0 (starting at (5,1), moving first).")
    seat1: list[int] = Field([0, 0, 0], description="[wins, losses, draws] as player 1 (starting at (5,9)).")
    elo: float | None = Field(None, description="Elo rating estimated from the games, if computed.")
    elo_error: float | None = Field(None, description="How far the rating's 95% interval reaches from `elo` on its "
                                                     "longer side (`elo ± elo_error` holds the interval), if computed.")
    elo_low: float | None = Field(None, description="The low end of `elo`'s 95% interval (not symmetric), if computed.")
    elo_high: float | None = Field(None, description="The high end of `elo`'s 95% interval, if computed.")
    violations: int = Field(0, description="Violations over all games.")
    thinking_ms: int = Field(0, description="Thinking time over all games, in ms.")
    separated: bool | None = Field(None, description="In a final: true when this row's rating is shown to be above the "
                                   "next row's (at the final's 95% overall confidence), false when the two are not "
                                   "separated; null for the last row and other formats.")


class Standings(Message):
    """Server -> everyone: the tournament table so far."""

    type: Literal["standings"] = "standings"
    tournament: str = Field(description="The tournament id.")
    games_done: int = Field(description="Games finished.")
    games_total: int = Field(description="Games scheduled (a knockout's or a final's length follows from its results: "
                                         "the games finished or playing so far).")
    rows: list[StandingRow] = Field(description="The table, best first.")


class TournamentOver(Message):
    """Server -> everyone: the final standings (to a player, the top and its own row); then the server closes the
    connection normally."""

    type: Literal["tournament_over"] = "tournament_over"
    tournament: str = Field(description="The tournament id.")
    rows: list[StandingRow] = Field(description="The final table, best first: to a player, its top 10 and then the "
                                                "player's own row when it is below them; to a spectator, and to a "
                                                "player that sent final_table_request, every row.")
    champion: str | None = Field(None, description="The winner: a knockout's last player in, else the only player "
                                                   "ranked 1; null when the first place is shared.")
    players: int | None = Field(None, description="How many players the whole table has (rows may hold fewer); null "
                                                  "from a server that always sent every row.")


class TournamentInfo(Message):
    """Server -> spectator: the tournament this server shows, from the first second: its lobby while the seats
    fill, then its name once it plays; on a server that plays none, the data directory's newest finished one."""

    type: Literal["tournament_info"] = "tournament_info"
    tournament: str | None = Field(description="The tournament id; null while the server waits for its players.")
    stage: Literal["waiting", "playing", "finished"] = Field(
        description="waiting for players, playing, or finished (its final table in rows).")
    players: list[str] = Field(description="The players seated so far (all of them once it plays).")
    seats: int = Field(description="The players the tournament waits for (n of N).")
    format: str = Field(description="round-robin, knockout, swiss or final.")
    games_per_pairing: int = Field(description="Games per pairing, seats alternating.")
    ruleset: str = Field("course", description="The rules the games are played by.")
    rows: list[StandingRow] = Field([], description="The final table when finished, best first; else empty.")
    champion: str | None = Field(None, description="When finished, the winner as in tournament_over; else null.")
    freeze_at: str | None = Field(None, description="When hand-ins freeze (UTC, 2026-11-28T09:00:00Z): a final (or "
                                  "--freeze-at) waits for it, then seats each key's newest accepted version handed in "
                                  "at or before it; null when nothing freezes.")


class BoardState(ProtocolModel):
    """A whole board, for spectators: both pawns, every wall, walls left."""

    pawns: tuple[Cell, Cell] = Field(description="The pawns, seat 0 first.")
    walls: list[Wall] = Field(description="Every wall on the board.")
    walls_left: tuple[int, int] = Field(description="Walls left, seat 0 first.")


class GameUpdate(Message):
    """Server -> spectator: a step was just played in a watched game."""

    type: Literal["game_update"] = "game_update"
    game: str = Field(description="The game id.")
    players: tuple[str, str] = Field(description="The players' names, seat 0 first.")
    turn: int = Field(description="The number of the turn just played.")
    seat: int = Field(description="The seat that played it.")
    move: Cell | None = Field(description="The cell it moved to, or null.")
    wall: Wall | None = Field(description="The wall it placed, or null.")
    notation: str = Field(description='The step in algebraic notation: "e2", "e1h"; "-" for nothing.')
    status: int = Field(description="The GameStatus the step earned.")
    clocks_ms: tuple[int, int] = Field(description="Total thinking time per seat, seat 0 first.")
    board: BoardState = Field(description="The board after the step.")
    over: bool = Field(False, description="True when this step ended the game; a game that no step ended (a player "
                                          "left, a forfeit) gets its last step again with over true.")
    reason: str = Field("", description="Why the step was a violation, for people; empty for a step that stood.")
    thinking_ms: int | None = Field(None, description="The step's thinking time in ms, if known.")


class GameUpdates(Message):
    """Server -> spectator that watches with ``batch``: several ``game_update`` frames that came together, in order."""

    type: Literal["game_updates"] = "game_updates"
    updates: list[GameUpdate] = Field(description="The game_update frames, oldest first.")


class GameRecord(Message):
    """Server -> spectator: the answer to ``game_request`` or ``log_upload``: a game's steps so far."""

    type: Literal["game_record"] = "game_record"
    game: str = Field(description="The game id, or the log's path or file name.")
    players: tuple[str, str] = Field(description="The players' names, seat 0 first.")
    ruleset: str = Field("course", description="The rules the game is played by.")
    live: bool = Field(False, description="True while the game is played: its game_update frames follow.")
    result: str | None = Field(None, description="How it ended, for people (alice won (goal)); null when not over.")
    winner: int | None = Field(None, description="The winning seat; null for a draw or a game not over.")
    problems: list[str] = Field([], description="Where a log disagrees with the rules (line N: ...).")
    steps: list[GameUpdate] = Field(description="Every step in order, each as its game_update.")


class ErrorMessage(Message):
    """Server -> client: a frame was refused; the connection stays open unless the client keeps misbehaving."""

    type: Literal["error"] = "error"
    code: str = Field(description="A stable machine-readable code (see the error codes).")
    message: str = Field(description="What went wrong, for people.")
    frame_type: str | None = Field(None, description="The offending frame's type, if known.")


# --- the unions ---------------------------------------------------------------------------------

ClientMessage = Annotated[
    Union[Hello, StepMessage, Watch, PuzzleRequest, Solution, Action, GameRequest, ReplaysRequest, LogUpload,
          Submit, SubmissionsRequest, LadderRequest, FinalTableRequest, OrganiserRequest],
    Field(discriminator="type"),
]
"""Any frame a client may send."""

ServerMessage = Annotated[
    Union[Welcome, GameStart, Turn, GameOver, Standings, TournamentOver, TournamentInfo, GameUpdate, GameUpdates,
          GameRecord, Replays, PuzzleMessage, Verdict, PuzzleState, ErrorMessage, Submitted, Submissions, Ladder,
          Organiser],
    Field(discriminator="type"),
]
"""Any frame a server may send."""

CLIENT_MESSAGES: dict[str, type[Message]] = {
    cls.model_fields["type"].default: cls
    for cls in (Hello, StepMessage, Watch, PuzzleRequest, Solution, Action, GameRequest, ReplaysRequest, LogUpload,
                Submit, SubmissionsRequest, LadderRequest, FinalTableRequest, OrganiserRequest)
}
"""The client frames by type name."""
SERVER_MESSAGES: dict[str, type[Message]] = {
    cls.model_fields["type"].default: cls
    for cls in (Welcome, GameStart, Turn, GameOver, Standings, TournamentOver, TournamentInfo, GameUpdate, GameUpdates,
                GameRecord, Replays, PuzzleMessage, Verdict, PuzzleState, ErrorMessage, Submitted, Submissions, Ladder,
                Organiser)
}
"""The server frames by type name."""

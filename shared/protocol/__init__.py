"""Wire protocol v1 (``spec/protocol.md``): frozen pydantic models of every frame, and the codec.

Pure: the server and the clients move frames; this package parses, validates and dumps them.
``docs/protocol.md`` is the guide for bot authors, ``docs/protocol.schema.json`` the JSON Schema.
"""

from .base import COORD_MAX, COORD_MIN, Cell, Coord, Message, ProtocolModel, Wall
from .codec import (
    MAX_FRAME_BYTES, MAX_SERVER_FRAME_BYTES, SCHEMA_TITLE, cell, dump, json_schema, json_string, parse_client, parse_server, step_judgement,
    to_blockbar, to_location, to_step, to_verdict, turn_frame, wall, wall_json,
)
from .errors import ERROR_CODES, ProtocolError
from .ladder import Ladder, LadderRequest, LadderRow
from .organiser import Organiser, OrganiserRequest, OrganiserRow, OrganiserTournament, OrganiserVersion, WorstGame
from .messages import (
    CLIENT_MESSAGES, PROTOCOL_VERSION, SERVER_MESSAGES, BoardState, ClientMessage, ErrorMessage, FinalTableRequest, GameOver,
    GameRecord, GameStart, GameUpdate, GameUpdates, Hello, Role, Room, RulesInfo, ServerMessage, StandingRow, Standings, StepJudgement,
    StepMessage, TournamentInfo, TournamentOver, Turn, Watch, Welcome,
)
from .puzzles import Action, PuzzleMessage, PuzzleRequest, PuzzleRoom, PuzzleState, Solution, Verdict
from .submissions import (
    MAX_SUBMISSION_BYTES, MAX_SUBMIT_PARTS, SUBMISSION_CEILING_BYTES, SUBMIT_PART_CHARS, VALIDATION_CAUSES, SubmissionEntry, Submissions,
    SubmissionsRequest, Submit, Submitted,
)
from .web import (
    MAX_UPLOAD_BYTES, GameRequest, LogUpload, ReplayFolder, ReplayGameEntry, Replays, ReplaysRequest,
)

__all__ = [
    "CLIENT_MESSAGES", "COORD_MAX", "COORD_MIN", "ERROR_CODES", "MAX_FRAME_BYTES", "MAX_SERVER_FRAME_BYTES",
    "PROTOCOL_VERSION",
    "SCHEMA_TITLE", "SERVER_MESSAGES", "Action", "BoardState", "Cell", "ClientMessage", "Coord", "ErrorMessage",
    "FinalTableRequest", "GameOver", "GameStart", "GameUpdate", "GameUpdates", "Hello", "Message", "ProtocolError", "ProtocolModel", "PuzzleMessage",
    "PuzzleRequest", "PuzzleRoom", "PuzzleState", "Role", "Room", "RulesInfo", "ServerMessage", "Solution",
    "StandingRow", "Standings", "StepJudgement", "StepMessage", "TournamentInfo", "TournamentOver", "Turn", "Verdict", "Wall", "Watch",
    "Welcome", "GameRecord", "GameRequest", "LogUpload", "MAX_UPLOAD_BYTES", "ReplayFolder", "ReplayGameEntry",
    "Replays", "ReplaysRequest", "Ladder", "LadderRequest", "LadderRow",
    "Organiser", "OrganiserRequest", "OrganiserRow", "OrganiserTournament", "OrganiserVersion", "WorstGame",
    "MAX_SUBMISSION_BYTES", "MAX_SUBMIT_PARTS", "SUBMISSION_CEILING_BYTES", "SUBMIT_PART_CHARS", "VALIDATION_CAUSES", "SubmissionEntry",
    "Submissions", "SubmissionsRequest", "Submit", "Submitted",
    "cell", "dump", "json_schema", "json_string", "parse_client", "parse_server", "step_judgement", "to_blockbar", "to_location",
    "to_step", "to_verdict", "turn_frame", "wall", "wall_json",
]

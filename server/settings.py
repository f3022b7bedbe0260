"""``ServerSettings``: every option of the referee server in one validated object."""

from __future__ import annotations

from datetime import UTC, datetime
import re
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from shared.hosting import BUILTIN_BOTS
from shared.protocol import MAX_SUBMISSION_BYTES, SUBMISSION_CEILING_BYTES
from shared.quoridor import RULESETS
from shared.referee import STEP_CAP, VIOLATIONS_TO_LOSE, RefereeSettings
from shared.quoridor import find_ruleset
from shared.tournament import max_swiss_rounds

from server.net.limits import Limits
from server.net.origins import normal_origin
from server.sandbox.buildcache import DEFAULT_KEEP
from server.sandbox.limits import SandboxLimits

__all__ = ["ServerSettings", "Limits", "freeze_time"]


def freeze_time(text: str) -> str:
    """``text`` (ISO 8601; UTC when it names no offset) as the hand-ins' store writes times: ``2026-11-28T09:00:00Z``."""
    try:
        moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        raise ValueError(f"{text!r} is not an ISO time such as 2026-11-28T09:00 (UTC) or "
                         "2026-11-28T10:00+01:00") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


#: What an organiser's key may be: what a roster's key may be (printable ASCII, no spaces, 1 to 64 characters).
ORGANISER_KEY = re.compile(r"[!-~]{1,64}")


#: The settings that define a tournament: kept from its start when it is resumed.
TOURNAMENT_FIELDS = ("format", "games_per_pairing", "ruleset", "time_limit_ms", "debug", "kick_after_timeouts",
                     "step_cap", "seed", "tournament_name", "timeout_grace_s", "swiss_rounds", "hosted_clock",
                     "hosted_wall_cap_ms", "time_bank_ms", "final_games", "freeze_at", "ladder_opening_plies",
                     "seeds")


class ServerSettings(BaseModel):
    """The server's configuration; built by the command line or by tests."""

    model_config = ConfigDict(frozen=True)

    host: str = "127.0.0.1"
    port: int = Field(19330, ge=0, le=65535)
    legacy_port: int | None = Field(None, ge=0, le=65535,
                                    description="TCP port for the course's C++ clients (legacy protocol); None = off")
    players: int = Field(2, ge=0, description="players to wait for; 2 = a single match, 0 = only the puzzle rooms")
    games_per_pairing: int = Field(1, ge=1, description="games each pairing plays (-r)")
    format: Literal["round-robin", "knockout", "swiss", "final"] = "round-robin"
    swiss_rounds: int | None = Field(None, ge=1, description="rounds of a Swiss (-f swiss); None = "
                                     "ceil(log2(players)) + 1, at most players - 1")
    final_games: int | None = Field(None, ge=1, description="a final's game budget (-f final): no round starts that "
                                    "would pass it; None = 20 rounds' worth (shared.tournament.default_final_games)")
    freeze_at: str | None = Field(None, description="when hand-ins freeze (UTC, 2026-11-28T09:00:00Z): the tournament "
                                  "waits until then, then seats each key's newest accepted version handed in at or "
                                  "before it; None = no freeze (a final freezes at its start)")
    ruleset: str = "course"
    time_limit_ms: int = Field(1000, ge=1)
    hosted_clock: Literal["wall", "cpu"] = Field("wall", description="what a hosted bot's step is judged by: wall "
                                                 "time (the course's), or the CPU time its processes used (cpu)")
    hosted_wall_cap_ms: int | None = Field(None, ge=1, description="on the cpu clock, the wall time a hosted bot's "
                                           "turn may take at most; None = 3 times what the turn allows")
    time_bank_ms: int = Field(0, ge=0, description="unused thinking time a player keeps for later steps, up to this")
    debug: bool = Field(False, description="no time limit, every frame logged")
    kick_after_timeouts: int | None = Field(None, ge=1)
    step_cap: int = Field(STEP_CAP, ge=1)
    concurrency: int | None = Field(None, ge=1, description="games at once; None = every game of a round")
    data_dir: Path = Path("replays")
    roster: dict[str, str] | None = Field(None, description="key -> player name; None admits anyone")
    organiser_keys: list[str] = Field(default_factory=list, description="keys that open the organiser's page (every "
                                      "key's versions, games, violations; --organiser-key, or the roster's "
                                      "'KEY NAME organiser' lines); none: the page is off")
    resume: bool = False
    seed: int | None = None
    seed_from_ladder: bool = Field(False, description="a Swiss's or a knockout's pairing numbers from the ladder's "
                                   "published ratings in DATA_DIR/ladder.db (--seed-from-ladder), not a shuffle")
    seeds: list[str] | None = Field(None, description="the players by pairing number, best first (set at the start "
                                    "from the ladder with seed_from_ladder, and kept for --resume); None = the seed's")
    tournament_name: str | None = None
    rejoin_wait_s: float = Field(30.0, ge=0, description="how long a game waits for an absent player")
    standings_interval_s: float = Field(1.0, ge=0, description="at most one standings broadcast per this many "
                                        "seconds (0: after every game); the final table goes in tournament_over")
    timeout_grace_s: float = Field(0.05, ge=0, description="wait past the deadline before declaring a timeout")
    server_name: str = "quoridor-arena"
    limits: Limits = Limits()
    allowed_origins: list[str] = Field(default_factory=list, description="origins (scheme://host[:port]) of web "
                                       "pages elsewhere allowed to open websockets here (--allow-origin); the "
                                       "server's own pages and bots always may")
    # -- the practice ladder (--ladder): always on, bots come and go, ratings kept in ladder.db
    ladder: bool = Field(False, description="run the practice ladder instead of a tournament")
    ladder_residents: list[str] = Field(default_factory=list, description="built-in bots seated as residents")
    ladder_pause_after: int = Field(5, ge=0, description="pause a bot after this many games in a row with a "
                                    "violation or a timeout (0: never)")
    ladder_pair_games_per_hour: int = Field(8, ge=2, description="games one pair may play in any hour")
    ladder_opening_plies: int = Field(4, ge=0, le=12, description="random pawn moves each pairing starts from")
    ladder_refit_s: float = Field(60.0, gt=0, description="seconds between refits of the published table")
    # -- bots handed in as files (quoridor-submit): kept in DATA_DIR/submissions/, validated in the sandbox
    max_submission_bytes: int = Field(MAX_SUBMISSION_BYTES, ge=1024, le=SUBMISSION_CEILING_BYTES,
                                      description="largest zip archive a bot may be handed in as, in bytes")
    max_submission_files: int = Field(200, ge=1, le=10_000, description="files one handed-in bot may hold")
    submission_queue: int = Field(4, ge=0, description="handed-in bots that may wait for validation while one is "
                                  "validated (beyond them: busy)")
    cpp_builds: Path | None = Field(None, description="where the C++ builds of handed-in bots are cached (by the hash "
                                    "of their files and the compiler); None = DATA_DIR/cpp-builds")
    cpp_builds_keep: int = Field(DEFAULT_KEEP, ge=1, description="C++ builds the cache keeps, the most recently used "
                                 "(about 240 KB each); older ones are removed after a new build, never one a bot runs")
    players_from_submissions: bool = Field(False, description="seat each key's newest accepted handed-in bot in the "
                                           "tournament before the connected bots")
    roster_submissions: dict[str, str | None] = Field(
        default_factory=dict, description="roster keys seated in the tournament with their handed-in bot (the roster's "
        "'submission' field): key -> the version id, or None for the key's newest accepted version")
    # -- games of handed-in bots on worker machines (--queue; server/queue, docs/queue.md)
    queue: str | None = Field(None, description="the job engine whose workers play games of handed-in bots "
                              "(redis://HOST:PORT/N); None plays them on this machine")
    # -- every finished game analysed in the background (server/analysis; issue 33)
    analysis: Literal["off", "local", "queue"] = Field("local", description="analyse each finished game in one "
                                                       "background process at the lowest CPU priority (local), on the "
                                                       "workers of --queue (queue), or not (off)")
    analysis_nodes: int | None = Field(None, ge=1, le=100_000_000, description="nodes the analysis searches a "
                                       "position; None = the engine's default (shared.analysis.DEFAULT_NODES)")
    # -- the sandbox handed-in bots run in (server/sandbox); sandbox.unsafe is --unsafe-no-sandbox
    sandbox: SandboxLimits = Field(default_factory=SandboxLimits,
                                   description="what a handed-in bot's process may use (memory, CPU, processes, "
                                   "files, output, /tmp); unsafe: run without bubblewrap, under rlimits only")

    @field_validator("allowed_origins")
    @classmethod
    def _origins(cls, value: list[str]) -> list[str]:
        """Each allowed origin in one spelling (``server.net.origins.normal_origin``)."""
        return [normal_origin(origin) for origin in value]

    @field_validator("freeze_at")
    @classmethod
    def _freeze(cls, value: str | None) -> str | None:
        """An ISO time (UTC when it names no offset) in the hand-ins' own spelling, to the second with a ``Z``."""
        return None if value is None else freeze_time(value)

    @model_validator(mode="before")
    @classmethod
    def _final_games_per_pairing(cls, data: Any) -> Any:
        """A final plays its pairings colour-swapped: 2 games unless told (-r)."""
        if isinstance(data, dict) and data.get("format") == "final" and data.get("games_per_pairing") is None:
            return {**data, "games_per_pairing": 2}
        return data

    @field_validator("queue", mode="before")
    @classmethod
    def _no_queue(cls, value: object) -> object:
        """An empty ``--queue`` (docker-compose.yml's QUEUE unset) is no queue."""
        return None if value == "" else value

    @model_validator(mode="after")
    def _check(self) -> ServerSettings:
        if self.players == 1:
            raise ValueError("a tournament needs at least 2 players (or 0 to serve only the puzzle rooms)")
        if self.queue is not None and not self.queue.startswith(("redis://", "rediss://", "unix://")):
            raise ValueError(f"--queue {self.queue!r}: expected redis://HOST:PORT/N (for example redis://127.0.0.1:6379/0)")
        if self.analysis == "queue" and self.queue is None:
            raise ValueError("--analysis queue has the workers of --queue analyse the games: add --queue URL (or "
                             "--analysis local to analyse them here)")
        if self.players == 0 and self.resume:
            raise ValueError("--resume continues a tournament; a server of only puzzle rooms (-n 0) has none")
        if self.swiss_rounds is not None and self.format != "swiss":
            raise ValueError(f"--swiss-rounds is the number of rounds of a Swiss; add -f swiss (the format is "
                             f"{self.format})")
        if self.format == "swiss" and self.swiss_rounds is not None and self.players >= 2 \
                and self.swiss_rounds > max_swiss_rounds(self.players):
            raise ValueError(f"--swiss-rounds {self.swiss_rounds}: a Swiss of {self.players} players has at most "
                             f"{max_swiss_rounds(self.players)} rounds (one more would pair someone twice)")
        if self.final_games is not None and self.format != "final":
            raise ValueError(f"--final-games is the game budget of a final; add --final (the format is {self.format})")
        if self.format == "final":
            if self.games_per_pairing % 2:
                raise ValueError(f"-r {self.games_per_pairing}: a final plays each pairing colour-swapped, an even "
                                 "number of games (default 2)")
            if self.players >= 2 and self.final_games is not None:
                one_round = self.players * (self.players - 1) // 2 * self.games_per_pairing
                if self.final_games < one_round:
                    raise ValueError(f"--final-games {self.final_games}: one round of a final of {self.players} "
                                     f"players is {one_round} games (every pair, -r {self.games_per_pairing} each)")
        if self.freeze_at is not None and (self.ladder or self.puzzles_only):
            raise ValueError("--freeze-at freezes the hand-ins a tournament seats: not with --ladder or -n 0")
        if self.seed_from_ladder and self.format not in ("swiss", "knockout"):
            raise ValueError(f"--seed-from-ladder gives a Swiss or a knockout its pairing numbers; the format is "
                             f"{self.format} (add -f swiss or -f knockout)")
        if self.seed_from_ladder and self.ladder:
            raise ValueError("--seed-from-ladder seeds a tournament from the ladder's table: not with --ladder")
        if self.ruleset not in RULESETS:
            raise ValueError(f"unknown ruleset {self.ruleset!r}; choose one of: {', '.join(RULESETS)}")
        wrong = [key for key in self.organiser_keys if not ORGANISER_KEY.fullmatch(key)]
        if wrong:
            raise ValueError("--organiser-key: a key must be 1 to 64 printable ASCII characters without spaces")
        if self.roster is not None and set(self.organiser_keys) & set(self.roster):
            raise ValueError("an organiser's key is also a player's key on the roster: give the organiser a key of "
                             "their own (a player's key opens the organiser's page for its own bot only)")
        if self.roster is not None and len(set(self.roster.values())) != len(self.roster):
            raise ValueError("the roster gives the same player name to two keys")
        if self.ladder_residents and not self.ladder:
            raise ValueError("residents sit on the practice ladder: add --ladder")
        unknown = [name for name in self.ladder_residents if name not in BUILTIN_BOTS]
        if unknown or len(set(self.ladder_residents)) != len(self.ladder_residents):
            raise ValueError(f"--resident {', '.join(unknown) or 'twice the same bot'}: choose each of "
                             f"{', '.join(BUILTIN_BOTS)} at most once")
        if self.players_from_submissions and (self.ladder or self.resume or self.puzzles_only):
            raise ValueError("--players-from-submissions seats handed-in bots in a new tournament: not with --ladder, "
                             "--resume or -n 0")
        if self.roster_submissions:
            if self.roster is None or not set(self.roster_submissions) <= set(self.roster):
                raise ValueError("roster_submissions names keys the roster does not list")
            if self.ladder:
                raise ValueError("the roster names handed-in bots ('submission'): that seats them in a tournament; on "
                                 "--ladder every key's newest accepted bot is a resident already: drop the field")
            if self.players and len(self.roster_submissions) > self.players:
                raise ValueError(f"the roster names {len(self.roster_submissions)} handed-in bots ('submission'), more "
                                 f"than the {self.players} seats (-n)")
        if self.ladder and self.resume:
            raise ValueError("--resume continues a tournament; a --ladder always continues from its ladder.db")
        if self.roster is not None and len(self.roster) < self.players and not self.ladder:
            # Otherwise the server would wait forever for seats nobody may take.
            raise ValueError(f"the roster lists {len(self.roster)} player(s), fewer than the "
                             f"{self.players} the server waits for")
        return self

    def resumed(self, stored: dict[str, Any], players: int) -> tuple[ServerSettings, list[str]]:
        """These settings for resuming a tournament stored with ``stored``; and what the command line changed.

        The fields that define the tournament (``TOURNAMENT_FIELDS``) are the stored ones, so a
        resumed tournament plays by the rules it started with; where and how it is served (host,
        port, limits, roster, concurrency) is this command line's.
        """
        update: dict[str, Any] = {"players": players, "resume": True}
        ignored = []
        stored = {"swiss_rounds": None} | dict(stored)     # a tournament stored before Swiss existed has none
        # ... and one stored before issue 31 was played on the wall clock without a bank
        stored = {"hosted_clock": "wall", "hosted_wall_cap_ms": None, "time_bank_ms": 0} | stored
        stored = {"final_games": None, "freeze_at": None} | stored       # ... and before the final (issue 35)
        stored = {"seeds": None} | stored        # ... and one stored before issue 35's seeding was paired by its seed
        for name in TOURNAMENT_FIELDS:
            if name in stored and stored[name] != getattr(self, name):
                update[name] = stored[name]
                # only what the command line gave: a default it did not choose is not "ignored"
                if name != "tournament_name" and name in self.model_fields_set and getattr(self, name) is not None:
                    ignored.append(f"{name}={getattr(self, name)!r} (the tournament has {stored[name]!r})")
        return ServerSettings.model_validate(self.model_dump() | update), ignored

    @property
    def build_cache(self) -> Path:
        """Where this server caches the C++ builds of handed-in bots (``cpp_builds``, else ``DATA_DIR/cpp-builds``)."""
        return self.cpp_builds if self.cpp_builds is not None else self.data_dir / "cpp-builds"

    @property
    def puzzles_only(self) -> bool:
        """True when the server plays no tournament and serves only the puzzle rooms (``-n 0``)."""
        return self.players == 0

    @property
    def effective_time_limit_ms(self) -> int | None:
        """The per-step limit, or ``None`` on a debugging server."""
        return None if self.debug else self.time_limit_ms

    def referee_settings(self) -> RefereeSettings:
        """The rules every game of this server is refereed by."""
        return RefereeSettings(find_ruleset(self.ruleset), self.effective_time_limit_ms, VIOLATIONS_TO_LOSE, self.step_cap,
                               clock=self.hosted_clock, wall_cap_ms=self.hosted_wall_cap_ms,
                               time_bank_ms=self.time_bank_ms)

"""The queue's job and its answer as JSON: ``PairingJob`` (what to play) and ``JobResult`` / ``JobRefusal`` (pure).

A job names a pairing completely: the two bots (a built-in bot by name, a handed-in bot by the
content digest of its files, ``server.submissions.files.content_digest``), its games (ids, log file
names, colours), the opening plies its games start from (the ladder's), the referee's rules and the
sandbox's limits. A worker of the same ``PROTOCOL``
plays it with the server's own referee code and answers with a ``JobResult`` (each game's outcome
and compressed log, each bot's report) or a ``JobRefusal`` (why it could not play it at all).

``PROTOCOL`` changes whenever a job or an answer changes shape: a worker serves only the queue of
its own protocol, and says so when a server speaks another.
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import json
import zlib
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from shared.gamelog import GameOutcome
from shared.quoridor import find_ruleset, parse_step, step_name
from shared.referee import RefereeSettings

from server.games.match import MatchResult
from server.sandbox.causes import BotEnd
from server.sandbox.host import BotEntry, BotReport, GameSpec, Pairing, PairingResult
from server.sandbox.limits import SandboxLimits
from server.sandbox.seat import StepTiming

__all__ = ["PROTOCOL", "JOB_FUNCTION", "BotRef", "GameRef", "RulesRef", "PairingJob", "GameOut", "ReportOut",
           "JobResult", "JobRefusal", "Answer", "job_for", "pairing_for", "limits_for", "job_result", "pairing_result",
           "parse_answer", "log_text", "job_timeout_s"]

PROTOCOL = 3
"""The job protocol this code speaks (jobs, answers, step events); workers serve only their own.

2: a job's ``opening`` (the ladder's games on workers); a game's answer carries its ``GameOutcome`` whole.
3: a job's rules carry the clock options (``clock``, ``wall_cap_ms``, ``time_bank_ms``; issue 31).
"""
JOB_FUNCTION = "play_pairing"
"""The name workers register their job function under (saq's ``Job.function``)."""

_FROZEN = ConfigDict(frozen=True, extra="forbid")
_KEY_HASH_CHARS = 12
#: Hex digits of a digest that make a version id (``server.submissions.store.VERSION_CHARS``).
_VERSION_CHARS = 12


class BotRef(BaseModel):
    """A bot of a job: its name in the games, its entry, and its files' digest (``None``: a built-in bot)."""

    model_config = _FROZEN
    name: str = Field(min_length=1, max_length=200)
    spec: str = Field(min_length=1, max_length=400)
    digest: str | None = Field(None, pattern=r"^[0-9a-f]{64}$")


class GameRef(BaseModel):
    """A game of a job: its id, its log's file name, and which bot (0 or 1) plays seat 0."""

    model_config = _FROZEN
    game_id: str = Field(min_length=1, max_length=200)
    log_name: str = Field(min_length=1, max_length=255, pattern=r"^[^/\x00]+$")
    white: Literal[0, 1] = 0


class RulesRef(BaseModel):
    """The referee's settings of a job's games."""

    model_config = _FROZEN
    ruleset: str
    time_limit_ms: int | None
    violations_to_lose: int
    step_cap: int
    #: The clock options (issue 31).
    clock: Literal["wall", "cpu"] = "wall"
    wall_cap_ms: int | None = None
    time_bank_ms: int = 0


class PairingJob(BaseModel):
    """One pairing to play on a worker: two bots, their games, the rules and the sandbox's limits."""

    model_config = _FROZEN
    protocol: int = PROTOCOL
    bots: tuple[BotRef, BotRef]
    games: tuple[GameRef, ...] = Field(min_length=1)
    rules: RulesRef
    #: ``SandboxLimits`` fields (``unsafe`` excepted: running without the sandbox is the worker's decision).
    limits: dict[str, int | float]
    tournament: str | None = None
    #: Plies every game starts from, played for the bots (``e2``, ``e8``: ``shared.quoridor.step_name``).
    opening: tuple[str, ...] = Field((), max_length=64)

    @property
    def key(self) -> str:
        """The job's key: its games' ids and a digest of the whole job, so one pairing is one job.

        The same pairing asked for twice (a server that resumed) is the same job; another pairing that
        reuses game ids (a tournament folder started afresh) is another job.
        """
        content = json.dumps(self.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
        digest = hashlib.sha256(content.encode()).hexdigest()[:_KEY_HASH_CHARS]
        return "+".join(game.game_id for game in self.games) + "#" + digest


class GameOut(BaseModel):
    """One game's answer: how it ended (the referee's own ``GameOutcome``), when, its steps, and its log (CSV, zlib
    and base64)."""

    model_config = _FROZEN
    game_id: str
    outcome: GameOutcome
    started_at: str
    ended_at: str
    steps: int
    log_z: str


class ReportOut(BaseModel):
    """One bot's report: how its process ended, its start time and each step's (game, turn, wall ms, CPU ms)."""

    model_config = _FROZEN
    name: str
    end: tuple[str, str] | None
    start_s: float | None
    timings: tuple[tuple[str, int, float, float | None], ...]
    output_tail: str = ""


class JobResult(BaseModel):
    """A worker played the job: each game (in order) and a report per bot."""

    model_config = _FROZEN
    kind: Literal["result"] = "result"
    protocol: int = PROTOCOL
    worker: str
    attempt: int
    games: tuple[GameOut, ...]
    reports: tuple[ReportOut, ReportOut]


class JobRefusal(BaseModel):
    """A worker could not play the job at all: a stable ``code`` and one line for people."""

    model_config = _FROZEN
    kind: Literal["refused"] = "refused"
    protocol: int = PROTOCOL
    worker: str
    #: ``incompatible`` (another protocol), ``bad_job`` (not a job), ``unfetchable`` (a bot version the worker
    #: cannot fetch), ``bad_digest`` (files that do not match their digest), ``bad_files`` (an unsafe archive).
    code: str
    reason: str


Answer = JobResult | JobRefusal
"""What a worker returns for a job."""


def parse_answer(value: object) -> Answer:
    """A worker's answer from its JSON form; ``ValueError`` (pydantic's) when it is neither kind."""
    if isinstance(value, Mapping) and value.get("kind") == "refused":
        return JobRefusal.model_validate(value)
    return JobResult.model_validate(value)


# -- pairing -> job -> pairing -----------------------------------------------------------------
def _limits_fields(limits: SandboxLimits) -> dict[str, int | float]:
    return {f.name: getattr(limits, f.name) for f in dataclasses.fields(limits) if f.name != "unsafe"}


def job_for(pairing: Pairing, limits: SandboxLimits, digests: Mapping[str, str]) -> PairingJob:
    """The job playing ``pairing`` under ``limits``; ``digests`` gives each handed-in bot's digest by its name."""
    bots = tuple(BotRef(name=bot.name, spec=bot.spec, digest=None if bot.folder is None else digests[bot.name])
                 for bot in pairing.bots)
    referee = pairing.referee
    return PairingJob(
        bots=bots,  # type: ignore[arg-type]
        games=tuple(GameRef(game_id=g.game_id, log_name=g.log_path.name, white=g.white)  # type: ignore[arg-type]
                    for g in pairing.games),
        rules=RulesRef(ruleset=referee.ruleset.name, time_limit_ms=referee.time_limit_ms,
                       violations_to_lose=referee.violations_to_lose, step_cap=referee.step_cap,
                       clock=referee.clock, wall_cap_ms=referee.wall_cap_ms, time_bank_ms=referee.time_bank_ms),
        limits=_limits_fields(limits), tournament=pairing.tournament,
        opening=tuple(step_name(step) for step in pairing.opening))


def pairing_for(job: PairingJob, folders: Mapping[str, Path], log_dir: Path, *, builds: Path | None = None) -> Pairing:
    """The pairing a worker plays for ``job``: handed-in bots from ``folders`` (by digest), logs in ``log_dir``, C++
    bots built (or found built) in ``builds``, the worker's own cache."""
    bots = tuple(BotEntry(bot.name, bot.spec, None if bot.digest is None else folders[bot.digest],
                          None if bot.digest is None else bot.digest[:_VERSION_CHARS], builds=builds)
                 for bot in job.bots)
    rules = job.rules
    referee = RefereeSettings(ruleset=find_ruleset(rules.ruleset), time_limit_ms=rules.time_limit_ms,
                              violations_to_lose=rules.violations_to_lose, step_cap=rules.step_cap,
                              clock=rules.clock, wall_cap_ms=rules.wall_cap_ms, time_bank_ms=rules.time_bank_ms)
    games = tuple(GameSpec(g.game_id, log_dir / g.log_name, g.white) for g in job.games)
    opening = tuple(parse_step(name) for name in job.opening)
    return Pairing(bots, games, referee, job.tournament, opening)  # type: ignore[arg-type]


def limits_for(job: PairingJob, *, unsafe: bool) -> SandboxLimits:
    """The sandbox's limits of ``job`` (``unsafe``: this worker runs bots without bubblewrap)."""
    return SandboxLimits(**job.limits, unsafe=unsafe)  # type: ignore[arg-type]


def job_timeout_s(job: PairingJob, *, margin_s: float = 60.0) -> int:
    """Seconds the job may run at most (0: no bound, for games without a time limit): every step at its limit."""
    rules = job.rules
    if rules.time_limit_ms is None:
        return 0
    allowed = rules.time_limit_ms + rules.time_bank_ms       # a step's most, when it draws on a full bank
    limit_ms = (rules.wall_cap_ms or 3 * allowed) if rules.clock == "cpu" else allowed
    steps = len(job.games) * 2 * rules.step_cap
    startup = 2 * float(job.limits.get("startup_timeout_s", 10.0))
    return int(steps * (limit_ms / 1000 + 0.05) + startup + margin_s)


# -- pairing result -> answer -> pairing result --------------------------------------------------
def _pack(text: str) -> str:
    return base64.b64encode(zlib.compress(text.encode("utf-8"), 6)).decode("ascii")


def log_text(game: GameOut) -> str:
    """The CSV log of ``game`` as the worker wrote it."""
    return zlib.decompress(base64.b64decode(game.log_z)).decode("utf-8")


def job_result(result: PairingResult, logs: Mapping[str, str], *, worker: str, attempt: int) -> JobResult:
    """The answer for a played pairing; ``logs`` holds each game's log text by game id."""
    games = tuple(GameOut(game_id=g.game_id, outcome=g.outcome, started_at=g.started_at, ended_at=g.ended_at,
                          steps=g.steps, log_z=_pack(logs[g.game_id])) for g in result.games)
    reports = tuple(ReportOut(name=r.name, end=None if r.end is None else (r.end.cause, r.end.reason),
                              start_s=r.start_s, output_tail=r.output_tail,
                              timings=tuple((t.game, t.turn, t.wall_ms, t.cpu_ms) for t in r.timings))
                    for r in result.reports)
    return JobResult(worker=worker, attempt=attempt, games=games, reports=reports)  # type: ignore[arg-type]


def pairing_result(answer: JobResult, pairing: Pairing) -> PairingResult:
    """The ``PairingResult`` of ``answer`` with the server's own log paths; ``ValueError`` if its games differ."""
    specs = {g.game_id: g for g in pairing.games}
    if [g.game_id for g in answer.games] != [g.game_id for g in pairing.games]:
        raise ValueError(f"the answer holds games {[g.game_id for g in answer.games]}, the pairing "
                         f"{list(specs)}")
    games = tuple(MatchResult(g.game_id, g.outcome, specs[g.game_id].log_path, g.started_at, g.ended_at, g.steps)
                  for g in answer.games)
    reports = tuple(BotReport(r.name, None if r.end is None else BotEnd(*r.end), r.start_s,
                              tuple(StepTiming(*t) for t in r.timings), r.output_tail) for r in answer.reports)
    return PairingResult(games, reports)  # type: ignore[arg-type]

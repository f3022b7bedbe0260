"""The organiser's page's rows (``shared.protocol.Organiser``), built from each key's versions and ladder games.

Pure: the server reads the versions (``submissions.db``), the ladder's games (``ladder.db``) and its
sessions, and hands them in with the time now; this module counts and judges. What a row counts is
the games of the bot's *current track* (its newest version that played on the ladder): its
results, its violations by cause and its near-timeouts (steps over ``SLOW_SHARE`` of the time limit,
counted as the bot's report counts its slow steps: ``shared.ladder.build_report``).

A row needs attention (``attention``; such rows come first) when the bot is idle (no ladder game for
``IDLE_HOURS``, nor a version or a track begun since; or never played), paused, had violations
since its current version began (or in the tournament the server plays), or its newest handed-in
version was refused. On a tournament server a row also carries its line of the standings.

Its worst games, at most ``WORST_SHOWN``: first the games it lost by its own fault (violations, a
disconnect, a forfeit), then games with violations of its own, then its other losses; newest first
within each. The games' analyses are not read for this (one file per game, for every bot at each
request): the game page shows a listed game's analysis.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from shared.ladder.report import FAULT_ENDINGS, SLOW_SHARE, GameFact, build_report
from shared.protocol import Organiser, OrganiserRow, OrganiserTournament, OrganiserVersion, WorstGame
from shared.protocol.organiser import MAX_VERSIONS_SHOWN

__all__ = ["IDLE_HOURS", "WORST_SHOWN", "PlayedGame", "LadderActivity", "KeyFacts", "organiser_row",
           "organiser_frame"]

#: Hours without a ladder game after which a bot is idle.
IDLE_HOURS = 24.0
#: Games a row lists as worth a look, at most.
WORST_SHOWN = 3


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A finished ladder game of the bot's current track as the ladder's store keeps it (tracks by label, seat 0
    first): each seat's step times and violation causes are still the store's JSON text, read by ``fact`` where the
    rows are built (not on the store's thread, which records the games)."""

    game_id: str
    white: str
    black: str
    winner: int | None
    reason: str
    #: ``[[ms, ...], [ms, ...]]``: each seat's step times, as ``ladder.db`` keeps them.
    step_ms: str
    #: ``[[cause, ...], [cause, ...]]``: each seat's violations by cause.
    causes: str
    #: When it ended (ISO 8601).
    ended_at: str

    def fact(self) -> GameFact:
        """The game as the bot's report reads it (``shared.ladder.GameFact``)."""
        step_ms, causes = json.loads(self.step_ms), json.loads(self.causes)
        return GameFact(self.game_id, self.white, self.black, self.winner, self.reason,
                        (tuple(step_ms[0]), tuple(step_ms[1])), (tuple(causes[0]), tuple(causes[1])))


@dataclass(frozen=True)
class LadderActivity:
    """What the ladder's store knows of one bot: its current track and that track's games (in play order)."""

    track: str
    created_at: str
    games: Sequence[PlayedGame]
    #: When its last game ended, any of its versions (ISO 8601); None when it never played.
    last_game_at: str | None


@dataclass(frozen=True)
class KeyFacts:
    """Everything known of one key's bot: its name, versions (newest first), ladder activity and session."""

    player: str
    versions: Sequence[OrganiserVersion]
    activity: LadderActivity | None = None
    state: str = "away"
    paused: str | None = None
    #: Its line in the tournament the server plays (or played), if it has one.
    tournament: OrganiserTournament | None = None


def _when(text: str | None) -> datetime | None:
    """An ISO 8601 time as the stores write them (``Z`` or ``+00:00``); None for none or a malformed one."""
    if not text:
        return None
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return None


def _causes(counts: dict[str, int]) -> str:
    return ", ".join(f"{cause} {n}" for cause, n in sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def _idle_text(quiet: timedelta) -> str:
    hours = quiet.total_seconds() / 3600
    return f"idle: no game for {hours:.0f} h" if hours < 48 else f"idle: no game for {hours / 24:.0f} days"


def _worst(track: str, games: Sequence[GameFact], *, named: bool) -> list[WorstGame]:
    """The games of ``track`` worth a look, worst first (see the module doc); ``named``: the opponents by track, else
    ``an opponent``."""
    ranked: list[tuple[int, int, WorstGame]] = []
    for order, fact in enumerate(games):
        if track not in (fact.white, fact.black) or fact.white == fact.black:
            continue
        seat = 0 if fact.white == track else 1
        opponent = fact.black if seat == 0 else fact.white
        result = "draw" if fact.winner is None else "win" if fact.winner == seat else "loss"
        own = fact.causes[seat]
        if result == "loss" and fact.reason in FAULT_ENDINGS:
            kind, why = 0, f"lost by its {fact.reason}" if fact.reason == "violations" else f"lost by {fact.reason}"
        elif own:
            counts: dict[str, int] = {}
            for cause in own:
                counts[cause] = counts.get(cause, 0) + 1
            kind, why = 1, f"{len(own)} violation{'s' if len(own) > 1 else ''}: {_causes(counts)}"
        elif result == "loss":
            kind, why = 2, f"lost ({fact.reason.replace('_', ' ')})"
        else:
            continue
        ranked.append((kind, -order, WorstGame(game=fact.game_id, opponent=opponent if named else "an opponent",
                                               result=result, why=why)))
    ranked.sort(key=lambda item: (item[0], item[1]))
    return [worst for _, _, worst in ranked[:WORST_SHOWN]]


def organiser_row(facts: KeyFacts, now: datetime, time_limit_ms: int | None, *, ladder: bool = True,
                  idle_hours: float = IDLE_HOURS, named: bool = True) -> OrganiserRow:
    """One key's row at ``now`` (its counts from its current track's games; ``ladder``: False on a server without a
    ladder, where nothing is counted and no bot is idle; ``named``: False to name no opponent, for a player's own page)."""
    activity = facts.activity
    games = [game.fact() for game in activity.games] if activity is not None else []
    track = activity.track if activity is not None else None
    report = build_report(track or "", games, time_limit_ms)
    wins = report.by_colour[0][0] + report.by_colour[1][0]
    losses = report.by_colour[0][1] + report.by_colour[1][1]
    draws = report.by_colour[0][2] + report.by_colour[1][2]
    violations = dict(report.timing.violations)
    attention: list[str] = []
    idle = False
    if ladder:
        last = activity.last_game_at if activity is not None else None
        began = [_when(last), _when(activity.created_at if activity is not None else None),
                 *(_when(v.submitted_at) for v in facts.versions[:1])]
        latest = max((when for when in began if when is not None), default=None)
        idle = latest is None or now - latest >= timedelta(hours=idle_hours)
        if idle:
            attention.append("never played on the ladder" if last is None or latest is None
                             else _idle_text(now - latest))
    if facts.paused is not None:
        attention.append(facts.paused if facts.paused.startswith("paused") else f"paused: {facts.paused}")
    if violations:
        attention.append(f"{sum(violations.values())} violation{'s' if sum(violations.values()) > 1 else ''} since "
                         f"{track}: {_causes(violations)}")
    if facts.tournament is not None and facts.tournament.violations:
        count = facts.tournament.violations
        attention.append(f"{count} violation{'s' if count > 1 else ''} in the tournament")
    newest = facts.versions[0] if facts.versions else None
    if newest is not None and not newest.accepted:
        attention.append(f"newest version {newest.version} refused ({newest.cause})")
    return OrganiserRow(
        player=facts.player, versions=list(facts.versions[:MAX_VERSIONS_SHOWN]),
        older_versions=max(0, len(facts.versions) - MAX_VERSIONS_SHOWN), track=track,
        since=activity.created_at if activity is not None else None, games=report.games, wins=wins, losses=losses,
        draws=draws, violations=violations, near_timeouts=report.timing.slow_steps,
        last_game_at=activity.last_game_at if activity is not None else None, idle=idle,
        state=facts.state if facts.state in ("playing", "waiting", "paused", "away") else "away",  # type: ignore[arg-type]
        paused=facts.paused, attention=attention, worst=_worst(track, games, named=named) if track else [],
        tournament=facts.tournament)


def organiser_frame(keys: Iterable[KeyFacts], now: datetime, time_limit_ms: int | None, *, scope: str,
                    ladder: bool, idle_hours: float = IDLE_HOURS) -> Organiser:
    """The ``organiser`` frame of ``keys`` at ``now``: rows needing attention first, then by name. A player's own page
    (``scope`` ``own``) names no other key's bot: its worst games' opponents are ``an opponent``."""
    rows = [organiser_row(facts, now, time_limit_ms, ladder=ladder, idle_hours=idle_hours, named=scope == "all")
            for facts in keys]
    rows.sort(key=lambda row: (not row.attention, row.player.casefold(), row.player))
    return Organiser(scope=scope, now=now.isoformat(timespec="seconds"), ladder=ladder,  # type: ignore[arg-type]
                     time_limit_ms=time_limit_ms, slow_share=SLOW_SHARE, idle_hours=idle_hours, rows=rows)

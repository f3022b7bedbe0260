"""Finite ratings for a table of any size: the Bradley-Terry fit with likelihood intervals, per game.

Every game is one ``Encounter`` of ``bradley_terry``: its bias-reducing penalty keeps every rating
finite (a perfect score included) and its profile likelihood interval always holds the rating.
Anchored at ``random`` = 0 when it plays (its interval is then 0 wide: every other rating is a gap
to it); otherwise centred, the field's mean at 0, with intervals of the centred ratings.

The table is rebuilt on the server's event loop after games, and profile intervals cost a few fits
per player, each cubic in the players (about 70 ms for 20 players, 1.2 s for 48). So the cost is
kept bounded by the field's size:

- up to ``PROFILE_PLAYERS``: the profile likelihood intervals (``rate``);
- up to ``FIT_PLAYERS``: the same fit, with the quadratic interval at it (``rate(profile=False)``:
  one solve per player, about 25 ms for 48 players with 2 games a pair), still holding its estimate;
- above: each player rated alone against the field as one opponent rated 0 (a performance rating,
  with the same penalty, one virtual draw, and a profile interval: about 30 us a player), still finite.
"""

from __future__ import annotations

from collections.abc import Sequence

from .bradley_terry import Encounter, Rating, rate

__all__ = ["field_ratings", "ANCHOR", "FIT_PLAYERS", "PROFILE_PLAYERS"]

ANCHOR = "random"
#: The largest field rated with profile likelihood intervals.
PROFILE_PLAYERS = 20
#: The largest field rated by one fit (with quadratic intervals above ``PROFILE_PLAYERS``).
FIT_PLAYERS = 48
#: The field, as one opponent, in a performance rating (a name no player has: it holds a character names lack).
_FIELD = "\0field"


def _performance(players: Sequence[str], encounters: Sequence[Encounter]) -> dict[str, Rating]:
    """Each player's rating against the field as one opponent rated 0, with its interval."""
    points = {name: 0.0 for name in players}
    games = {name: 0 for name in players}
    for e in encounters:
        points[e.first] += e.points
        points[e.second] += e.games - e.points
        games[e.first] += e.games
        games[e.second] += e.games
    result = {}
    for name in players:
        if games[name]:
            result[name] = rate([_FIELD, name], [Encounter(name, _FIELD, games[name], points[name])])[1]
    return result


def field_ratings(players: Sequence[str], games: Sequence[tuple[str, str, float]], *,
                  anchor: str | None = None) -> dict[str, Rating]:
    """Each player's finite rating with its 95% interval; ``games`` are ``(white, black, white's points)``.

    Players without a game are left out.
    """
    names = list(players)
    encounters = [Encounter(w, b, 1, p) for w, b, p in games]
    if not encounters:
        return {}
    if len(names) > FIT_PLAYERS:
        return _performance(names, encounters)
    anchor = anchor if anchor in names else (ANCHOR if ANCHOR in names else None)
    played = {e.first for e in encounters} | {e.second for e in encounters}
    # Centred ratings are those of the first player who played and of everyone linked to it by games.
    first = next(name for name in names if name in played)
    ratings = rate(names, encounters, anchor=anchor or first, centred=anchor is None,
                   profile=len(names) <= PROFILE_PLAYERS)
    return {r.player: r for r in ratings if r.rating is not None and r.player in played}

"""The ladder's published table: a Bradley-Terry fit over the games of the current versions.

Live openskill ratings move after every game and depend on the order of the games; the
published table is refitted every so often over *all* games between current versions, with 95%
profile likelihood intervals (``bradley_terry.rate``: each interval holds its rating), anchored so
that the resident ``random`` is 0 when it plays; else centred, the field's mean at 0, as a
tournament's standings (no bot of the table sits at 0 with an interval of 0 width). Each game is one
encounter; the fit aggregates them per pair, so its cost grows with the bots, not with the games
(0.7 s of CPU for 100,000 games of 50 bots: ``bench/ladder.py --sections f``).

``ladder_ratings`` is the table's ratings without the intervals (the same fit, the same anchor): the
ladder's order, cheap enough to recompute after every few games.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from shared.tournament.bradley_terry import Encounter, fit_ratings, interval_margin, rate

__all__ = ["PublishedRow", "ladder_ratings", "pair_encounters", "published_table"]


@dataclass(frozen=True, slots=True)
class PublishedRow:
    """One line of the published table (``rating`` None: not linked to the anchor by games yet)."""

    track: str
    games: int
    score: float
    wins: int
    losses: int
    draws: int
    rating: float | None
    low: float | None
    high: float | None

    @property
    def margin(self) -> float | None:
        """How far the interval reaches from the rating on its longer side (``rating ± margin`` holds it)."""
        return interval_margin(self.rating, self.low, self.high)


def pair_encounters(games: Sequence[tuple[str, str, float]]) -> list[Encounter]:
    """``games`` (``(white, black, white's points)``) summed per pair: one ``Encounter`` each, names in order."""
    totals: dict[tuple[str, str], list[float]] = {}
    for white, black, points in games:
        key, flip = ((white, black), False) if white <= black else ((black, white), True)
        entry = totals.setdefault(key, [0.0, 0.0])
        entry[0] += 1
        entry[1] += (1 - points) if flip else points
    return [Encounter(a, b, int(n), p) for (a, b), (n, p) in totals.items()]


def _anchoring(names: Sequence[str], anchor: str | None, encounters: Sequence[Encounter]) -> tuple[str, bool]:
    """The fit's anchor and whether it is centred: ``anchor`` at 0 when it is a track, else the mean at 0 of the
    group of the first track that played."""
    if anchor is not None and anchor in names:
        return anchor, False
    played = {e.first for e in encounters} | {e.second for e in encounters}
    return next((name for name in names if name in played), names[0]), True


def ladder_ratings(tracks: Sequence[str], games: Sequence[tuple[str, str, float]], *,
                   anchor: str | None = None) -> dict[str, float | None]:
    """The published table's ratings (Elo units, ``anchor`` at 0, else centred; None: unrated), no intervals."""
    names = list(tracks)
    if not names:
        return {}
    encounters = pair_encounters(games)
    fixed, centred = _anchoring(names, anchor, encounters)
    return fit_ratings(names, encounters, anchor=fixed, centred=centred)


def published_table(tracks: Sequence[str], games: Sequence[tuple[str, str, float]], *,
                    anchor: str | None = None) -> list[PublishedRow]:
    """The table, best first; ``games`` are ``(white, black, white's points)`` between ``tracks``."""
    names = list(tracks)
    if not names:
        return []
    played = {name: 0 for name in names}
    scored = {name: 0.0 for name in names}
    results = {name: [0, 0, 0] for name in names}          # wins, losses, draws
    for white, black, points in games:
        played[white] += 1
        played[black] += 1
        scored[white] += points
        scored[black] += 1 - points
        if points == 0.5:
            results[white][2] += 1
            results[black][2] += 1
        else:
            results[white][0 if points else 1] += 1
            results[black][1 if points else 0] += 1
    encounters = pair_encounters(games)
    if encounters:
        fixed, centred = _anchoring(names, anchor, encounters)
        ratings = rate(names, encounters, anchor=fixed, centred=centred)
    else:
        ratings = []
    by_name = {r.player: r for r in ratings}
    rows = []
    for name in names:
        r = by_name.get(name)
        rows.append(PublishedRow(name, played[name], scored[name], *results[name], None if r is None else r.rating,
                                 None if r is None else r.low, None if r is None else r.high))
    rows.sort(key=lambda row: (row.rating is None, -(row.rating or 0.0), row.track))
    return rows

"""``--seed-from-ladder``: a Swiss's or a knockout's pairing numbers from the practice ladder's published ratings.

The ratings are the ladder's published table (``LadderStore.published``: the Bradley-Terry fit over the games of
each bot's current version, ``random`` = 0) in ``DATA_DIR/ladder.db``, read once as the tournament starts; the
order (``shared.tournament.seeding_order``) is then stored with the tournament's settings, so ``--resume`` pairs
the same whatever the ladder did since. A player's rating is its track's: for a handed-in bot, the version it
plays (unrated when that version has not played on the ladder's current table); for a connected bot, its name's
newest version. Players without a rating come after the rated ones, in an order drawn from the tournament's seed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from shared.tournament import seeding_order

from server.ladder.store import LadderStore

__all__ = ["LADDER_FILE", "check_ladder_file", "ladder_ratings_of", "ladder_seeds", "seeding_text"]

LADDER_FILE = "ladder.db"


def check_ladder_file(data_dir: Path) -> Path:
    """The ladder's file in ``data_dir``; ``ValueError`` in one line when there is none to seed from."""
    path = data_dir / LADDER_FILE
    if not path.is_file():
        raise ValueError(f"--seed-from-ladder: no ladder in {data_dir} (no {LADDER_FILE}); run quoridor-server "
                         f"--ladder there first, or give the DATA_DIR of the ladder (--data-dir)")
    return path


def ladder_ratings_of(data_dir: Path, players: Mapping[str, str | None]) -> dict[str, float | None]:
    """Each player's published ladder rating (None: unrated); ``players`` maps a name to the version it plays
    (a handed-in bot's) or None (a connected bot: its name's newest version)."""
    store = LadderStore(check_ladder_file(data_dir))
    try:
        rows, tracks = store.published()
    finally:
        store.close()
    rating = {row.track: row.rating for row in rows}
    newest = {track.bot: label for label, track in tracks.items()}
    found: dict[str, float | None] = {}
    for name, version in players.items():
        if version is not None:
            label = next((label for label, track in tracks.items() if track.bot == name and track.version == version),
                         None)
        else:
            label = newest.get(name)
        found[name] = None if label is None else rating.get(label)
    return found


def ladder_seeds(data_dir: Path, players: Mapping[str, str | None], seed: int) -> tuple[list[str], dict[str, float | None]]:
    """The players by pairing number from the ladder's ratings (``ladder_ratings_of``), best first, and the ratings."""
    ratings = ladder_ratings_of(data_dir, players)
    return seeding_order(list(players), ratings, seed), ratings


def seeding_text(order: Sequence[str], ratings: Mapping[str, float | None]) -> str:
    """One line for the organiser: ``seeded from the ladder: 1 alice (+812), 2 bob (+40), 3 carol (unrated)``."""
    return "seeded from the ladder: " + ", ".join(
        f"{number} {name} ({'unrated' if ratings.get(name) is None else format(ratings[name], '+.0f')})"
        for number, name in enumerate(order, 1))

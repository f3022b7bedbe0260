"""What a local run plays: its bots (``Lineup``), who meets whom (pairings) and every game to play (``GameJob``).

A run is a set of *pairings* (two bots each); every pairing plays its games as colour-swapped
*pairs* from one opening: the pairing's first bot takes seat 0 in the pair's first game and seat
1 in its second. ``schedule`` yields the jobs pair by pair, every pairing's pair 0 first, then
every pairing's pair 1, and so on, so a run cut short (Ctrl-C, a decided SPRT) has played every
pairing about equally, and each pair's two games are played one after the other.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from shared.hosting import bot_language
from shared.quoridor import COURSE, Ruleset, Step

from .loader import bot_label, resolve_spec
from .openings import opening_for

__all__ = ["Lineup", "GameJob", "bot_labels", "board_keepers", "round_robin_pairings", "gauntlet_pairings", "schedule"]


def bot_labels(specs: Sequence[str]) -> tuple[str, ...]:
    """The bots' names in a run: their spec labels, ``#1``, ``#2``... added to a label given more than once."""
    labels = [bot_label(spec) for spec in specs]
    seen: dict[str, int] = {}
    numbered = []
    for label in labels:
        if labels.count(label) > 1:
            seen[label] = seen.get(label, 0) + 1
            numbered.append(f"{label}#{seen[label]}")
        else:
            numbered.append(label)
    return tuple(numbered)


@dataclass(frozen=True)
class Lineup:
    """The bots of a run, by index: their specs (as ``resolve_spec`` gives them) and their distinct labels."""

    specs: tuple[str, ...]
    labels: tuple[str, ...]

    @classmethod
    def of(cls, specs: Sequence[str]) -> Lineup:
        """The lineup of bot specs as typed (``BotLoadError`` for a file spec that names no single bot)."""
        resolved = tuple(resolve_spec(spec) for spec in specs)
        return cls(resolved, bot_labels(resolved))


@dataclass(frozen=True)
class GameJob:
    """One game to play: its pairing (bot indices, the first bot's view counts), its pair and its seats."""

    #: The game's number in the run, from 0 (its log is ``game<number + 1>...``).
    number: int
    #: The two bots (indices into the ``Lineup``); pair results are counted for the first.
    pairing: tuple[int, int]
    #: The pair's number within the pairing, from 0; it numbers the opening too.
    pair: int
    #: False in the pair's first game (the pairing's first bot in seat 0), True in its second.
    swapped: bool
    #: Plies played before the bots take over (the same for both games of the pair).
    opening: tuple[Step, ...] = ()

    @property
    def seats(self) -> tuple[int, int]:
        """The bots (indices) in seat 0 and seat 1."""
        first, second = self.pairing
        return (second, first) if self.swapped else (first, second)


def round_robin_pairings(bots: int) -> list[tuple[int, int]]:
    """Every two of ``bots`` bots once, in index order: (0, 1), (0, 2), ..., (1, 2), ..."""
    return list(itertools.combinations(range(bots), 2))


def gauntlet_pairings(bots: int, champion: int = 0) -> list[tuple[int, int]]:
    """Bot ``champion`` against each of the others (it is each pairing's first bot)."""
    return [(champion, other) for other in range(bots) if other != champion]


def schedule(pairings: Sequence[tuple[int, int]], games_per_pairing: int, *, seed: int = 0, opening_plies: int = 0,
             ruleset: Ruleset = COURSE, opening_walls: bool = True) -> Iterator[GameJob]:
    """Every game of the run, pair by pair across the pairings (see the module docstring); the openings are pawn
    moves only when not ``opening_walls`` (``client.openings``).

    With an odd ``games_per_pairing`` a pairing's last game has no partner: its first bot takes
    seat 0, it counts in the scores but in no pair result.
    """
    if games_per_pairing < 1:
        raise ValueError(f"a pairing plays at least one game, got {games_per_pairing!r}")
    number = 0
    for pair in range((games_per_pairing + 1) // 2):
        opening = opening_for(seed, pair, opening_plies, ruleset, walls=opening_walls)
        for pairing in pairings:
            for swapped in (False, True):
                if 2 * pair + swapped < games_per_pairing:
                    yield GameJob(number, pairing, pair, swapped, opening)
                    number += 1


def board_keepers(labels: Sequence[str], specs: Sequence[str]) -> list[str]:
    """The labels of the bots that run as processes of their own (C++, programs on the hosted-bot channel).

    Such a bot keeps its own board from the handout's ``ChessboardChange``: each turn tells it both pawns
    but only the opponent's last wall, so it can never learn the walls an opening placed (it would step
    through them); a run with one of them draws its openings from pawn moves only.
    """
    return [label for label, spec in zip(labels, specs) if bot_language(spec) in ("cpp", "executable")]

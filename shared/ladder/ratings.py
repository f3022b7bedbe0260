"""Live ladder ratings: openskill's Weng-Lin (Plackett-Luce) model, updated after every game.

A rating is a mean ``mu`` and an uncertainty ``sigma``; the table shows the conservative
``ordinal = mu - 3 sigma`` (what the bot is at least, with about 99.7% confidence). A game is a
two-team match in openskill's terms: ``model.rate([[a], [b]], ranks=[0, 1])`` for a win of ``a``,
``ranks=[0, 0]`` for a draw, which counts (it pulls two ratings together and shrinks both sigmas).
"""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

__all__ = ["Skill", "LiveRatings"]


@dataclass(frozen=True, slots=True)
class Skill:
    """One bot's live rating."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative rating shown in tables: ``mu - 3 sigma``."""
        return self.mu - 3.0 * self.sigma


class LiveRatings:
    """A thin facade over one openskill model: new ratings, and the two ratings after a game."""

    def __init__(self) -> None:
        self.model = PlackettLuce()

    def initial(self) -> Skill:
        """A newcomer's rating (mu 25, sigma 25/3)."""
        rating = self.model.rating()
        return Skill(rating.mu, rating.sigma)

    def after_game(self, white: Skill, black: Skill, winner: int | None) -> tuple[Skill, Skill]:
        """Both ratings after a game ``white`` (seat 0) and ``black`` played; ``winner`` None is a draw."""
        ranks = [0, 0] if winner is None else ([0, 1] if winner == 0 else [1, 0])
        a = self.model.rating(mu=white.mu, sigma=white.sigma)
        b = self.model.rating(mu=black.mu, sigma=black.sigma)
        [[a2], [b2]] = self.model.rate([[a], [b]], ranks=ranks)
        return Skill(a2.mu, a2.sigma), Skill(b2.mu, b2.sigma)

    def win_probability(self, a: Skill, b: Skill) -> float:
        """The model's chance that ``a`` beats ``b``."""
        return self.model.predict_win([[self.model.rating(mu=a.mu, sigma=a.sigma)],
                                       [self.model.rating(mu=b.mu, sigma=b.sigma)]])[0]

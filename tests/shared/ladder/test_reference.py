"""The reference bots' ratings and where a published rating stands among them (the report's line)."""

import pytest

from shared.ladder.reference import OFF_SCALE, REFERENCE, ReferenceRating, standing

REFS = (ReferenceRating("random", 0, 0, 0), ReferenceRating("runner", 1185, 1100, 1270),
        ReferenceRating("defender", 1785, 1700, 1870), ReferenceRating("strong", 2389, 2300, 2480))


@pytest.mark.parametrize("rating, low, high, line", [
    (2000, 1900, 2100, "beats defender (+1,785), not yet strong (+2,389)"),
    (1790, 1700, 1900, "beats runner (+1,185), about level with defender (+1,785), not yet strong (+2,389)"),
    (1500, 1100, 1900, "beats random (+0), about level with runner (+1,185), defender (+1,785), "
                       "not yet strong (+2,389)"),
    (600, 500, 700, "beats random (+0), not yet runner (+1,185)"),
    (2700, 2500, 2900, "beats strong (+2,389), the strongest reference bot"),
    (2400, 2350, 2500, "beats defender (+1,785), about level with strong (+2,389)"),
    (-300, -400, -200, "not yet random (+0), the weakest reference bot"),
    (-20, -90, 40, "about level with random (+0), not yet runner (+1,185)"),
])
def test_a_rating_is_placed_among_the_references_by_its_interval(rating, low, high, line):
    assert standing(rating, low, high, REFS) == line


def test_an_unrated_bot_and_a_rating_without_an_interval():
    assert standing(None, None, None, REFS).startswith("not rated yet")
    assert standing(1185, references=REFS) == "beats random (+0), about level with runner (+1,185), not yet defender (+1,785)"
    assert standing(50, references=()) == "no reference bots to compare with"


def test_a_table_not_anchored_on_random_is_not_placed():
    assert standing(1790, 1700, 1900, REFS, on_scale=False) == OFF_SCALE
    assert "--resident random" in OFF_SCALE


def test_the_stored_figures_are_the_five_built_in_bots_on_the_ladder_scale():
    assert [ref.bot for ref in REFERENCE] == ["random", "runner", "blocker", "defender", "strong"]
    assert REFERENCE[0] == ReferenceRating("random", 0, 0, 0)
    ratings = [ref.rating for ref in REFERENCE]
    assert ratings == sorted(ratings)
    assert all(ref.low <= ref.rating <= ref.high for ref in REFERENCE)

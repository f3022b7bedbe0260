from shared.ladder import published_table


def test_the_published_table_is_anchored_at_random_and_ordered_best_first():
    games = [("strong", "random", 1.0), ("random", "strong", 0.0), ("mid", "random", 1.0), ("strong", "mid", 1.0),
             ("mid", "strong", 0.5), ("random", "mid", 0.5)]
    rows = published_table(["random", "mid", "strong", "newcomer"], games, anchor="random", samples=20)
    assert [r.track for r in rows] == ["strong", "mid", "random", "newcomer"]
    random_row = next(r for r in rows if r.track == "random")
    assert (random_row.rating, random_row.low, random_row.high) == (0.0, 0.0, 0.0)
    assert rows[0].rating > rows[1].rating > 0 and rows[0].low <= rows[0].rating <= rows[0].high
    assert rows[-1].rating is None and rows[-1].games == 0
    assert (rows[0].games, rows[0].score, rows[0].wins, rows[0].losses, rows[0].draws) == (4, 3.5, 3, 0, 1)

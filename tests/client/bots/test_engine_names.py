"""The bots' ``search`` and ``evaluation`` modules are the engine's (``shared.engine``) under their old names."""

from client.bots import evaluation, search
from shared import engine


def test_the_bots_see_the_engine_under_their_old_names() -> None:
    assert evaluation.won_race is engine.won_race and evaluation.wall_options is engine.wall_options
    assert issubclass(search.Searcher, engine.Searcher)


def test_the_bots_searcher_keeps_time_by_default() -> None:
    # The engine reads no clock; a bot's search is bounded in seconds, so its searcher brings one.
    assert search.Searcher().clock is not None
    assert engine.Searcher().clock is None

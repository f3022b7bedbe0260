"""The controllers: navigation, going to a step, playing and following a growing game; joining a source to a view."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from client.replay import (
    SPEEDS, Controller, DataLoader, GameSource, GameView, LiveSource, LogFileSource, ReplayController, ReplayGame,
    StepOutOfRange, StepSource, frames_from_log,
)
from client.replay.app import ReplayApp
from client.replay.export import HtmlView, SvgView
from client.replay.views import LineView, TextView, frame_line
from tests.client.replay.helpers import legacy, small_log


def test_navigation_stays_inside_the_game():
    c = Controller(5)
    assert c.index == 0 and not c.prev()
    assert c.next() and c.next() and c.index == 2
    assert c.end() and c.index == 4 and c.at_end and not c.next()
    assert c.home() and c.index == 0
    assert c.prev() is False and c.index == 0


def test_goto_takes_step_numbers_and_refuses_others():
    c = Controller(88)
    c.goto(87)
    assert c.index == 87 and c.step == 87
    with pytest.raises(StepOutOfRange, match="no step 88: this game shows steps 0 to 87"):
        c.goto(88)
    late = Controller(3, first_step=10)
    late.goto(11)
    assert late.index == 1 and late.step == 11
    with pytest.raises(StepOutOfRange):
        late.goto(9)


def test_playing_runs_to_the_end_and_stops():
    c = Controller(3)
    assert c.toggle_play() and c.playing
    assert c.tick() and c.index == 1 and c.playing
    assert c.tick() and c.index == 2 and not c.playing
    assert not c.tick()
    assert c.toggle_play() and c.index == 0       # playing again from the end starts from the start
    assert not c.toggle_play() and not c.tick() and c.index == 0


def test_speed_steps_through_the_ladder_and_stays_inside_it():
    c = Controller(2)
    start = c.speed
    assert c.faster() > start and c.interval == pytest.approx(1 / c.speed)
    for _ in range(len(SPEEDS) + 1):
        c.faster()
    assert c.speed == SPEEDS[-1]
    for _ in range(len(SPEEDS) + 1):
        c.slower()
    assert c.speed == SPEEDS[0]


def test_a_growing_game_is_followed_from_the_end_only():
    c = Controller(3, 2, live_wait=True)
    c.resize(5)
    assert c.index == 4                     # it was on the last frame: it follows
    c.prev()
    c.resize(8)
    assert c.index == 3                     # moved back: it stays
    c.end()
    c.toggle_play()
    assert c.playing and not c.tick() and c.playing   # a live game waits for more instead of stopping
    c.resize(9)
    assert c.index == 8


def test_a_controller_needs_a_frame():
    with pytest.raises(ValueError, match="at least one frame"):
        Controller(0)


# -- the seams: a source and a view, each one class, joined by the ReplayController -------------------
class GrowingSource:
    """A new kind of source, one class: a game that grows one step at a time (as a live one does)."""

    live = True

    def __init__(self) -> None:
        self.name = "growing"
        self.games: dict[str, ReplayGame] = {}
        self.full = frames_from_log(small_log(), key="g7")

    async def follow(self, changed) -> None:
        """Hand the frames of the small log over one by one, with news before the first."""
        changed(None)
        game = self.games["g7"] = ReplayGame("g7", self.full.players, self.full.frames[:1], live=True)
        changed("g7")
        for frame in self.full.frames[1:]:
            game.frames.append(frame)
            changed("g7")


class RecordingView:
    """A new kind of view, one class: it writes down what it is asked to show."""

    def __init__(self) -> None:
        self.shown: list[tuple[str, str, int | None]] = []

    def show(self, game: ReplayGame, index: int) -> None:
        """Note frame ``index``."""
        self.shown.append(("show", game.key, index))

    def show_game(self, game: ReplayGame) -> None:
        """Note the whole game."""
        self.shown.append(("show_game", game.key, None))


def test_the_seams_are_protocols_and_every_view_and_source_fits_them(tmp_path):
    assert DataLoader is StepSource
    for source in (GrowingSource(), LogFileSource(legacy("client_example.csv")), GameSource(),
                   LiveSource("ws://127.0.0.1:1/")):
        assert isinstance(source, StepSource)
    console = Console(file=io.StringIO(), color_system=None)
    for view in (RecordingView(), TextView(console), LineView(console), SvgView(tmp_path / "a.svg"),
                 HtmlView(tmp_path / "a.html"), ReplayApp()):
        assert isinstance(view, GameView)


async def test_a_new_source_plugs_into_the_controller_and_the_text_view():
    out = io.StringIO()
    source = GrowingSource()
    news: list[str] = []
    joined = ReplayController(source, LineView(Console(file=out, width=200, color_system=None)), every_frame=True,
                              on_news=lambda: news.append("news"))
    await joined.run()
    full = source.full
    assert out.getvalue().splitlines() == [frame_line(full, frame) for frame in full.frames[1:]]
    assert out.getvalue().splitlines()[2].startswith("g7 step 3: alice g7 InvalidStep")
    assert news == ["news"] and joined.key == "g7" and joined.cursor.index == 6


async def test_a_new_view_plugs_into_the_controller():
    view = RecordingView()
    joined = ReplayController(GrowingSource(), view)     # a screen: it is told to redraw, following the end
    await joined.run()
    assert view.shown == [("show", "g7", index) for index in range(7)]
    view.shown.clear()
    joined.cursor.home()
    joined.source.games["g7"].frames.append(joined.source.games["g7"].frames[-1])
    joined.changed("g7")                                 # moved back: a new frame does not move the view
    assert view.shown == [("show", "g7", 0)]
    from_file = ReplayController(LogFileSource(legacy("server_0_DEFENSIVE_VS_BASELINE.csv")), view)
    from_file.goto(12)
    from_file.show()
    from_file.show_game()
    key = "server_0_DEFENSIVE_VS_BASELINE.csv"
    assert view.shown[-2:] == [("show", key, 12), ("show_game", key, None)]
    with pytest.raises(StepOutOfRange):
        from_file.goto(88)

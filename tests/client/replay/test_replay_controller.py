"""The controller: navigation, going to a step, playing and following a growing game."""

from __future__ import annotations

import pytest

from client.replay import SPEEDS, Controller, StepOutOfRange


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

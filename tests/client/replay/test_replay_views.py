"""The text views, checked on captured output (no colour), and the marked board."""

from __future__ import annotations

import io

from rich.console import Console

from client.render import MARK_STYLE, render_board, render_board_marked
from client.replay import frames_from_log, load_game
from client.replay.views import TextView, frame_line, render_frame, render_info, render_listing
from client.replay.listing import GameEntry
from shared.quoridor import Location, Position, diagram, parse_step, parse_wall
from tests.client.replay.helpers import legacy, small_log


def plain(renderable, width: int = 100) -> str:
    console = Console(file=io.StringIO(), width=width, color_system=None)
    console.print(renderable)
    return console.file.getvalue()


def test_a_frame_shows_title_board_and_what_happened():
    game = load_game(legacy("server_0_DEFENSIVE_VS_BASELINE.csv"))
    out = plain(render_frame(game, 2), width=120)
    lines = out.splitlines()
    assert lines[0] == ("193304BASELINE (0) vs 193304DEFENSIVE (1) · course rules · 193304BASELINE won (goal)")
    board = diagram(game.frames[2].position).split("\n")[:-1]       # the diagram without its status line
    assert lines[1:1 + len(board)] == board
    info = lines[1 + len(board):]
    assert info[0] == "step 2/87 · line 3"
    assert info[1] == "193304DEFENSIVE placed wall d2h  [d2h]"
    assert info[2] == "status: Ok"
    assert info[3] == "players    193304BASELINE (seat 0) · 193304DEFENSIVE (seat 1)"
    assert info[4] == "pawn on    e2 → row 9 · e9 → row 1"
    assert info[5] == "walls left 10 · 9"
    assert info[6] == "thinking   — · —"
    assert info[7] == "violations 0 · 0"


def test_the_side_panel_says_where_each_pawn_stands_at_the_step_not_where_it_started():
    game = load_game(legacy("server_0_DEFENSIVE_VS_BASELINE.csv"))
    info = render_info(game, 58).plain.splitlines()
    pawns = game.frames[58].position
    assert "players    193304BASELINE (seat 0) · 193304DEFENSIVE (seat 1)" in info
    assert (pawns.pawn(0), pawns.pawn(1)) == (Location(1, 4), Location(2, 9))
    assert "pawn on    a4 → row 9 · b9 → row 1" in info
    assert not any("e1" in line or "e9" in line for line in info)


def test_the_last_frame_says_how_the_game_ended():
    game = load_game(legacy("server_0_DEFENSIVE_VS_BASELINE.csv"))
    out = plain(render_info(game, len(game.frames) - 1))
    assert "step 87/87 · line 88" in out and "193304BASELINE moved to e9  [e9]" in out
    assert "status: Win" in out and out.rstrip().endswith("193304BASELINE won (goal)")


def test_a_violation_stands_out_with_its_reason():
    game = load_game(legacy("server_1_DEFENSIVE_VS_BASELINE.csv"))
    info = render_info(game, 7)
    assert "status: InvalidStep: your pawn already stands on e1" in info.plain
    bad = [span for span in info.spans if "red" in str(span.style)]
    assert any("InvalidStep" in info.plain[span.start:span.end] for span in bad)


def test_the_disagreement_of_the_old_client_log_is_shown():
    game = load_game(legacy("client_example.csv"))
    out = plain(render_frame(game, 3), width=200)
    assert "disagrees with the rules at line 4" in out.splitlines()[0]
    assert "step 3/36 · line 4" in out and "Me sent an empty step  [-]" in out
    assert "status in the log: Ok" in out
    assert ("✗ the log disagrees with the rules (line 4): 'Me' sent the empty step: the log says status 0 (Ok), "
            "but by the rules it is status 7 (InvalidStep): empty step: neither a move nor a wall") in out
    assert "unverified: from this row on, rows are drawn as the log gives them, not checked by the rules" in out
    assert "stops here" not in out


def test_frames_after_the_disagreement_are_marked_unverified():
    game = load_game(legacy("client_example.csv"))
    checked = plain(render_info(game, 2), width=200)
    assert "unverified" not in checked and "status: Ok" in checked
    later = plain(render_info(game, 36), width=200)
    assert "step 36/36 · line 37" in later and "Enemy moved to a1  [a1]" in later
    assert "status in the log: Win" in later
    assert "unverified: after the disagreement at line 4 (drawn as the log gives it)" in later


def test_times_are_shown_per_step_and_in_total():
    game = frames_from_log(small_log(), key="g7")
    out = plain(render_info(game, 2))
    assert "bob placed wall e7h  [e7h]" in out
    assert "thinking   total 120 ms · 340 ms, total 340 ms" in out
    assert "total 1.3 s" in plain(render_info(game, 4))


def test_print_view_writes_every_frame_as_plain_text():
    console = Console(file=io.StringIO(), width=100, color_system=None)
    game = load_game(legacy("client_example.csv"))
    TextView(console).show_game(game)
    out = console.file.getvalue()
    assert out.count("    a   b   c   d   e   f   g   h   i") == 2 * len(game.frames) == 2 * 37
    assert "\x1b[" not in out
    assert "✗ line 4: 'Me' sent the empty step" in out.split("violations")[-1]     # after the last frame


def test_live_line():
    game = frames_from_log(small_log(), key="g7")
    assert frame_line(game, game.frames[3]) == \
        "g7 step 3: alice g7 InvalidStep · clocks 135 ms / 340 ms (g7 is not reachable in one step from e2)"


def test_listing_table():
    entries = [GameEntry("g1", "alice", "bob", "1-0", "goal", None, 15, ""),
               GameEntry("g2", "bob", "carol", "*", "unfinished", None, None, "no log")]
    out = plain(render_listing(entries, "2 games in t1"), width=100)
    assert out.splitlines()[0].strip() == "2 games in t1"
    row = next(line for line in out.splitlines() if "alice" in line).split()
    assert row == ["1", "g1", "alice", "bob", "1-0", "goal", "15"]


def test_marked_board_keeps_the_characters_and_marks_the_step():
    pos = Position.initial().play(parse_step("e2")).play(parse_step("e7h")).play(parse_step("c3v"))
    for wall, cell in ((parse_wall("c3v"), Location(5, 2)), (parse_wall("e7h"), None)):
        marked = render_board_marked(pos, wall=wall, cell=cell)
        assert marked.plain == render_board(pos).plain == diagram(pos)
        lines = marked.plain.split("\n")
        spans = [(s.start, s.end) for s in marked.spans if str(s.style) == MARK_STYLE]
        text = marked.plain
        marked_chars = "".join(text[a:b] for a, b in spans)
        if wall == parse_wall("e7h"):
            assert marked_chars == "-------"
            start = text.index(lines[5])           # the line between rows 8 and 7
            assert spans == [(start + 19, start + 26)]
        else:
            assert marked_chars.count("|") == 3 and marked_chars.count("0") == 1


def test_marked_board_ignores_a_wall_that_is_not_on_the_board():
    pos = Position.initial()
    marked = render_board_marked(pos, wall=parse_wall("e7h"))
    assert not [s for s in marked.spans if str(s.style) == MARK_STYLE]


def test_a_wall_sent_with_a_move_is_said_to_be_ignored():
    game = load_game(legacy("client_example.csv"))
    frame = game.frames[2]                 # line 3: Enemy,5,8,4,7,6,7,0 -- a move to e8 and the wall e7h
    assert frame.line == 3 and frame.ignored_wall is not None and not frame.position.walls
    out = plain(render_info(game, 2), width=200)
    assert "Enemy moved to e8  [e8]\nthis row also gives the wall e7h: not placed, because a step with both a cell " \
           "and a wall counts as the move (handout rule 5); the course's viewer ignores it too\n" in out
    others = [f for f in game.frames if f is not frame]
    assert all(f.ignored_wall is None and f.ignored_wall_note == "" for f in others)


def test_the_title_gives_the_end_the_last_row_claims_as_unverified():
    game = load_game(legacy("client_example.csv"))
    title = plain(render_frame(game, 0), width=200).splitlines()[0]
    assert title == ("Me (0) vs Enemy (1) · course rules · Enemy won (goal, unverified) · disagrees with the rules "
                     "at line 4")
    assert plain(render_info(game, 36), width=200).rstrip().endswith("Enemy won (goal, unverified)")

"""Rendering of standings and crosstables, checked on captured plain-text console output."""

import io
import math
from itertools import combinations

from rich.console import Console

from server.views.standings import (
    TIE_NOTE, crosstable_text, format_elo, format_points, rank_texts, render_crosstable, render_standings,
    standings_text,
)
from shared.tournament import FinalStandings, GameResult, Standings


def render(renderable) -> str:
    console = Console(width=100, color_system=None, file=io.StringIO())
    console.print(renderable)
    return console.file.getvalue()


def sample() -> Standings:
    """alpha 2 wins 3 draws (3.5), beta 1 win 2 losses 2 draws (2), gamma 1 draw 1 loss (0.5)."""
    s = Standings(["gamma", "beta", "alpha"])
    for _ in range(2):
        s.add(GameResult("alpha", "beta", 0, "goal", thinking_ms=(1200, 3000), violations=(0, 1)))
        s.add(GameResult("beta", "alpha", None, "step_cap", thinking_ms=(800, 900)))
    s.add(GameResult("alpha", "gamma", None, "step_cap", thinking_ms=(2000, 2000)))
    s.add(GameResult("gamma", "beta", 1, "disconnect"))
    return s


def line_of(output: str, name: str) -> str:
    lines = [line for line in output.splitlines() if f" {name} " in line]
    assert len(lines) == 1, output
    return lines[0]


def test_format_helpers():
    assert format_points(2.0) == "2" and format_points(1.5) == "1.5" and format_points(0.0) == "0"
    assert format_elo(None, None) == "-"
    assert format_elo(190.8485, 110.2, 971.6) == "+191 [+110, +972]"      # the ends: the long side shows
    assert format_elo(-5.0, -6.25, -3.75) == "-5 [-6, -4]"
    assert format_elo(0.0) == "+0" and format_elo(0.0, 0.0, 0.0) == "+0"     # the anchor: no interval to show
    assert format_elo(math.inf) == "+inf" and format_elo(-math.inf) == "-inf"


def cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.split("│")[1:-1]]


def test_render_standings_shows_every_column():
    rows = sample().rows()
    out = render(render_standings(rows, title="Round 3"))
    assert "Round 3" in out
    header = next(line for line in out.splitlines() if "Player" in line)
    assert [c.strip() for c in header.split("┃")[1:-1]] == [
        "#", "Player", "Pts", "Games", "W/L/D", "P0", "P1", "Elo", "Viol", "Time (s)"]
    alpha, beta = rows[0], rows[1]
    alpha_cells = cells(line_of(out, "alpha"))
    assert alpha_cells[:5] + alpha_cells[7:] == [
        "1", "alpha", "3.5", "5", "2/0/3", format_elo(alpha.elo, alpha.elo_low, alpha.elo_high), "0", "6.2"]
    beta_cells = cells(line_of(out, "beta"))
    assert beta_cells[:5] + beta_cells[7:] == [
        "2", "beta", "2", "5", "1/2/2", format_elo(beta.elo, beta.elo_low, beta.elo_high), "2", "7.6"]
    # The per-seat columns split W/L/D between the games as player 0 and as player 1.
    for name in ("alpha", "beta", "gamma"):
        total, p0, p1 = ([int(n) for n in cell.split("/")] for cell in cells(line_of(out, name))[4:7])
        assert [a + b for a, b in zip(p0, p1)] == total
    assert cells(line_of(out, "gamma"))[:5] == ["3", "gamma", "0.5", "2", "0/1/1"]
    assert cells(line_of(out, "gamma"))[-1] == "2.0"
    assert out.index("alpha") < out.index("beta") < out.index("gamma")


def test_elo_interval_is_shown_when_defined():
    s = Standings(["a", "b"])
    for _ in range(20):
        s.add(GameResult("a", "b", 0, "goal"))
        s.add(GameResult("b", "a", None, "step_cap"))
    out = render(render_standings(s.rows()))
    a, b = (next(r for r in s.rows() if r.player == name) for name in "ab")
    assert cells(line_of(out, "a"))[7] == f"{a.elo:+.0f} [{a.elo_low:+.0f}, {a.elo_high:+.0f}]"
    assert cells(line_of(out, "b"))[7] == f"{b.elo:+.0f} [{b.elo_low:+.0f}, {b.elo_high:+.0f}]"
    assert a.elo_low < a.elo < a.elo_high


def test_render_standings_without_games():
    out = render(render_standings(Standings(["x", "y"]).rows()))
    assert cells(line_of(out, "x")) == ["1", "x", "0", "0", "0/0/0", "0/0/0", "0/0/0", "-", "0", "0.0"]


def test_render_crosstable():
    out = render(render_crosstable(sample()))
    assert "Crosstable" in out
    # Columns follow the standings order: 1 alpha, 2 beta, 3 gamma; "." marks an unplayed pair.
    assert cells(line_of(out, "alpha")) == ["1", "alpha", "—", "3/4", "0.5/1", "3.5"]
    assert cells(line_of(out, "beta")) == ["2", "beta", "1/4", "—", "1/1", "2"]
    assert cells(line_of(out, "gamma")) == ["3", "gamma", "0.5/1", "0/1", "—", "0.5"]


def test_standings_text_is_fixed_width_ascii():
    rows = sample().rows()
    text = standings_text(rows)
    lines = text.splitlines()
    assert len(lines) == 4 and lines[0].split() == ["#", "Player", "Pts", "Games", "W/L/D", "P0", "P1", "Elo", "Viol",
                                                     "Time", "(s)"]
    assert text.isascii() and "±" not in text
    assert [line.split()[:5] for line in lines[1:]] == [
        ["1", "alpha", "3.5", "5", "2/0/3"], ["2", "beta", "2", "5", "1/2/2"], ["3", "gamma", "0.5", "2", "0/1/1"]]
    # Right-aligned columns end at the same offset on every line.
    for column in ("Pts", "Elo", "Viol"):
        end = lines[0].index(column) + len(column)
        assert all(line[end - 1] != " " and (len(line) == end or line[end] == " ") for line in lines[1:])
    assert lines[2].rstrip().endswith("7.6")


def test_crosstable_text_is_plain_and_matches_the_table():
    text = crosstable_text(sample())
    assert text.isascii()
    lines = text.splitlines()
    assert lines[0].split() == ["#", "Player", "1", "2", "3", "Pts"]
    assert lines[1].split() == ["1", "alpha", "-", "3/4", "0.5/1", "3.5"]
    assert lines[3].split() == ["3", "gamma", "0.5/1", "0/1", "-", "0.5"]


def test_the_compact_standings_take_one_line_per_row_at_80_columns():
    long = Standings(["a-team-with-a-name-far-too-long-for-a-small-terminal-window-at-all-of-them"]).rows()
    console = Console(width=80, color_system=None, file=io.StringIO())
    console.print(render_standings(sample().rows() + long, compact=True))
    lines = console.file.getvalue().splitlines()
    assert lines[0].split() == ["#", "Player", "Pts", "Games", "W/L/D", "Elo", "Viol", "Time", "(s)"]   # no P0, P1
    assert len(lines) == 1 + 4 and all(len(line) <= 80 for line in lines)                   # a header, a line a row
    assert lines[1].split()[:5] == ["1", "alpha", "3.5", "5", "2/0/3"] and "│" not in "".join(lines)
    assert "…" in lines[-1] and "0/0/0" in lines[-1]                                         # a long name is cut


def test_a_finals_table_marks_a_shared_rank_and_says_why():
    strength = {"ann": 3, "bob": 2, "cy": 2, "dee": 1}       # bob and cy are even: the final cannot tell them apart
    standings = FinalStandings(list(strength), 0.95)
    for _ in range(10):
        for a, b in combinations(strength, 2):
            for white, black in ((a, b), (b, a)):
                even = strength[white] == strength[black]
                standings.add(GameResult(white, black, None if even else 0 if strength[white] > strength[black] else 1,
                                         "goal"))
    rows = standings.rows()
    assert rank_texts(rows) == ["1", "2=", "2=", "4"]
    lines = standings_text(rows).splitlines()
    assert [line.split()[0] for line in lines[1:5]] == ["1", "2=", "2=", "4"] and lines[-1] == TIE_NOTE
    assert "[+" in lines[1]                                   # the rating with its interval
    shown = " ".join(render(render_standings(rows)).split())
    assert "│ 2= │" in shown and TIE_NOTE in shown
    plain = Standings(list(strength))                         # other formats: ranks as numbers, no note
    plain.add(GameResult("ann", "bob", None, "goal"))
    assert rank_texts(plain.rows())[:2] == ["1", "1"] and TIE_NOTE not in standings_text(plain.rows())

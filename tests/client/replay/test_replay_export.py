"""SVG and HTML exports: well-formed XML, the board's pieces, the players and the steps."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from client.replay import frames_from_log, load_game
from client.replay.export import HtmlView, SvgView, game_html, game_svg, position_svg
from client.replay.webpage import site_palette
from shared.web import STATIC
from tests.client.replay.helpers import legacy, small_log

SVG = "{http://www.w3.org/2000/svg}"
PALETTE = site_palette()
WALL, LAST = PALETTE["wall"], PALETTE["wall-last"]


def walls_in(svg: ET.Element) -> list[ET.Element]:
    return [r for r in svg.iter(f"{SVG}rect") if r.get("fill") in (WALL, LAST)]


def test_position_svg_draws_the_walls_and_pawns_of_that_step():
    game = load_game(legacy("server_0_DEFENSIVE_VS_BASELINE.csv"))
    for index in (0, 2, 40, len(game.frames) - 1):
        root = ET.fromstring(position_svg(game, index))
        assert root.tag == f"{SVG}svg"
        assert len(walls_in(root)) == len(game.frames[index].position.walls)
        pawns = [c for c in root.iter(f"{SVG}circle")]
        assert len(pawns) == 2
        texts = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
        assert f"step {game.frames[index].step}/87" in texts and "193304BASELINE (0) vs 193304DEFENSIVE (1)" in texts
    # step 2 placed d2h: it is the one wall drawn in the highlight colour
    root = ET.fromstring(position_svg(game, 2))
    assert [r.get("fill") for r in walls_in(root)] == [LAST]


def test_whole_game_svg_numbers_every_wall_and_draws_both_paths():
    game = load_game(legacy("server_1_DEFENSIVE_VS_BASELINE.csv"))
    root = ET.fromstring(game_svg(game))
    assert len(walls_in(root)) == 18
    labels = [t.text for t in root.iter(f"{SVG}text") if t.get("font-size") == "9.5"]
    assert len(labels) == 18 and labels[0] == "1"           # DEFENSIVE's first step was a wall
    assert len(list(root.iter(f"{SVG}polyline"))) == 2
    assert "68 steps · 193304BASELINE won (goal)" in " ".join(t.text or "" for t in root.iter(f"{SVG}text"))


def test_svg_of_a_disagreeing_log_says_so():
    game = load_game(legacy("client_example.csv"))
    texts = " ".join(t.text or "" for t in ET.fromstring(position_svg(game, 3)).iter(f"{SVG}text"))
    assert "the log disagrees with the rules (line 4)" in texts
    texts = " ".join(t.text or "" for t in ET.fromstring(game_svg(game)).iter(f"{SVG}text"))
    assert "disagrees with the rules: line 4" in texts


def test_names_are_escaped():
    log = small_log()
    from dataclasses import replace
    log = replace(log, header=replace(log.header, players=("<alice&co>", "bob")),
                  steps=[replace(s, player="<alice&co>") if s.player == "alice" else s for s in log.steps])
    game = frames_from_log(log)
    for text in (position_svg(game, 1), game_svg(game), game_html(game)):
        ET.fromstring(text)
        assert "&lt;alice&amp;co&gt;" in text


def test_html_page_holds_the_board_the_table_and_every_position(tmp_path):
    game = load_game(legacy("server_1_DEFENSIVE_VS_BASELINE.csv"))
    path = tmp_path / "game.html"
    HtmlView(path).show_game(game)
    text = path.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>")
    root = ET.fromstring(text)                               # also well-formed XML
    body = root.find("body")
    assert body is not None
    assert "193304DEFENSIVE" in ET.tostring(body.find("h1"), encoding="unicode")
    assert len(body.findall("figure/svg")) == 1
    rows = body.findall("table/tbody/tr")
    assert len(rows) == 68 and rows[6].get("class") == "bad"   # step 7: the InvalidStep
    assert len(body.findall("details")) == 69 and all(d.find("svg") is not None for d in body.findall("details"))


def test_html_of_one_position(tmp_path):
    game = load_game(legacy("client_example.csv"))
    path = tmp_path / "pos.html"
    HtmlView(path).show(game, 2)
    root = ET.fromstring(path.read_text(encoding="utf-8"))
    assert root.find("body/figure/svg") is not None and not root.findall("body/details")
    assert "disagrees with the rules at line 4" in path.read_text(encoding="utf-8")


def test_the_pictures_and_the_page_have_the_web_players_colours_only():
    game = load_game(legacy("server_0_DEFENSIVE_VS_BASELINE.csv"))
    css = (STATIC / "style.css").read_text(encoding="utf-8")
    assert "--p0: #2b6cb0;" in css and "--p1: #c53030;" in css       # the player's blue and red
    assert PALETTE["p0"] == "#2b6cb0" and PALETTE["p1"] == "#c53030" and PALETTE["goal0"] in css
    for svg in (position_svg(game, 40), game_svg(game)):
        root = ET.fromstring(svg)
        assert [c.get("fill") for c in root.iter(f"{SVG}circle") if c.get("r") != "9"] == [PALETTE["p0"], PALETTE["p1"]]
        assert {p.get("stroke") for p in root.iter(f"{SVG}polyline")} <= {PALETTE["p0"], PALETTE["p1"]}
        fills = {e.get("fill") for e in root.iter() if e.get("fill") not in (None, "none")}
        assert fills <= set(PALETTE.values()) | {"#ffffff", "#fff7ed", "#7c2d12", "#92400e"}, fills
    page = game_html(game)
    for old in ("#0e7490", "#a21caf", "#cffafe", "#fae8ff"):      # the teal and purple of before
        assert old not in page


def test_svg_view_writes_files(tmp_path):
    game = load_game(legacy("client_example.csv"))
    SvgView(tmp_path / "a.svg").show(game, 1)
    SvgView(tmp_path / "b.svg").show_game(game)
    for name in ("a.svg", "b.svg"):
        assert ET.parse(tmp_path / name).getroot().tag == f"{SVG}svg"

"""The organiser's page over the websocket (issue 35): the organiser's key sees every key's row, a player's key its own,
a wrong key is refused as a wrong hello key is (and counts toward its address's slow-down); the roster's organiser
lines, the settings' checks, and the ladder store's activity query."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from shared.protocol import StandingRow, Standings

from server.cli import build_parser, settings_from_args
from server.ladder.seats import LadderSession
from server.ladder.store import LadderStore
from server.seats.roster import parse_roster
from server.settings import ServerSettings
from tests.server.conftest import bounded, url
from tests.server.organiser_data import ANA_V, BO_OLD, BO_V, NOW, ORGANISER_KEY, ROSTER, seed
from tests.server.support import Client, hello


@pytest.fixture
def unpaced(monkeypatch):
    """A connection may ask again at once (the pace, one request a second, is tested on its own)."""
    monkeypatch.setattr("server.router.ORGANISER_INTERVAL_S", 0.0)


async def _server(make_server, tmp_path, **extra):
    data = tmp_path / "replays"
    seed(data)
    server = await make_server(ladder=True, roster=ROSTER, organiser_keys=[ORGANISER_KEY], ladder_refit_s=3600.0,
                               data_dir=data, **extra)
    server.organiser.now = lambda: NOW

    async def no_residents(*args, **kwargs):      # the seeded hand-ins have no files: the ladder does not seat them
        return {}
    server.submissions.accepted_bots = no_residents
    task = asyncio.create_task(server.run_ladder())
    for _ in range(500):                                  # the ladder opens its store (bounded: 5 s)
        if server.ladder is not None:
            break
        await asyncio.sleep(0.01)
    return server, task


async def _page(server) -> Client:
    page = await Client.open(url(server))
    await page.send(hello("web-page", role="spectator"))
    welcome = await page.next("welcome")
    assert welcome["organiser_page"] is True
    return page


async def _stop(task):
    task.cancel()
    await bounded(asyncio.gather(task, return_exceptions=True), 30)


async def test_the_organisers_key_shows_every_keys_row(make_server, tmp_path, unpaced):
    server, task = await _server(make_server, tmp_path)
    try:
        page = await _page(server)
        await page.send({"type": "organiser_request", "key": ORGANISER_KEY})
        frame = await page.next("organiser")
        assert frame["scope"] == "all" and frame["ladder"] is True and frame["time_limit_ms"] == 1000
        rows = {row["player"]: row for row in frame["rows"]}
        assert [row["player"] for row in frame["rows"]] == ["Ana", "Bo", "Cy"]      # each needs attention here
        ana, bo, cy = rows["Ana"], rows["Bo"], rows["Cy"]
        assert [v["version"] for v in ana["versions"]] == [ANA_V, "0123456789ab"]
        assert ana["versions"][0]["validated_at"] and ana["versions"][1]["cause"] == "import_error"
        assert (ana["track"], ana["games"], ana["wins"], ana["losses"]) == ("Ana@3f2a9c01", 5, 3, 2)
        assert ana["violations"] == {"late": 2} and ana["near_timeouts"] == 3 and not ana["idle"]
        assert ana["worst"][0] == {"game": "L2-g1", "opponent": f"Bo@{BO_OLD[:8]}", "result": "loss",
                                   "why": "lost by its violations"}
        assert bo["attention"] == [f"newest version {BO_V} refused (import_error)"]
        assert bo["track"] == f"Bo@{BO_OLD[:8]}" and bo["violations"] == {}
        assert cy["idle"] and cy["attention"] == ["idle: no game for 3 days"] and cy["versions"] == []
        assert all(row["state"] == "away" for row in frame["rows"])
        gone = LadderSession("k-cy", "Cy")                                         # the ladder paused Cy's session
        gone.paused = "paused: 5 games in a row with a violation or a timeout (reconnect to play again)"
        server.ladder.lobby.sessions.append(gone)
        await page.send({"type": "organiser_request", "key": ORGANISER_KEY})
        cy = next(row for row in (await page.next("organiser"))["rows"] if row["player"] == "Cy")
        assert cy["paused"] == gone.paused and cy["attention"][1] == gone.paused
        server.ladder.lobby.sessions.remove(gone)
        server.organiser.now = lambda: NOW + timedelta(days=2)                     # two days on, nobody played
        await page.send({"type": "organiser_request", "key": ORGANISER_KEY})
        later = await page.next("organiser")
        assert all(row["idle"] for row in later["rows"])
        await page.close()
    finally:
        await _stop(task)


async def test_the_game_page_finds_a_ladder_game_by_its_id(make_server, tmp_path):
    server, task = await _server(make_server, tmp_path)
    try:
        page = await _page(server)
        await page.send({"type": "game_request", "game": "L2-g1"})          # not kept in memory: found in ladder.db
        record = await page.next("game_record", "error")
        assert record["type"] == "game_record" and record["players"] == ["Bo", "Ana"]
        await page.close()
    finally:
        await _stop(task)


async def test_a_players_key_shows_its_own_row_only(make_server, tmp_path):
    server, task = await _server(make_server, tmp_path)
    try:
        page = await _page(server)
        await page.send({"type": "organiser_request", "key": "k-bo"})
        frame = await page.next("organiser")
        assert frame["scope"] == "own" and [row["player"] for row in frame["rows"]] == ["Bo"]
        text = str(frame)
        assert frame["rows"][0]["worst"] and "Ana" not in text and ANA_V[:8] not in text and "Cy" not in text
        assert {g["opponent"] for g in frame["rows"][0]["worst"]} == {"an opponent"}
        await page.close()
    finally:
        await _stop(task)


async def test_a_wrong_key_is_refused_closed_and_counted_as_a_wrong_hello_key_is(make_server, tmp_path):
    server, task = await _server(make_server, tmp_path)
    keys = server.connections.wrong_keys
    try:
        page = await _page(server)
        await page.send({"type": "organiser_request", "key": "k-nobody"})
        error = await page.next("error")
        assert error["code"] == "unknown_key" and error["frame_type"] == "organiser_request"
        assert await page.closed() == 1008
        assert keys._bursts["127.0.0.1"].failures == 1                           # the address's count of wrong keys
        assert not [f for f in page.frames if f["type"] == "organiser"]
    finally:
        await _stop(task)


async def test_a_held_wrong_key_reads_nothing_more_from_its_connection(make_server, tmp_path):
    server, task = await _server(make_server, tmp_path)
    keys = server.connections.wrong_keys
    keys.free, keys.first_delay_s = 0, 0.2                                     # this address guessed before: slowed
    try:
        page = await _page(server)
        await page.send({"type": "organiser_request", "key": "k-guess"})
        await bounded(_until(lambda: bool(keys.held)), 5)
        await page.send({"type": "organiser_request", "key": ORGANISER_KEY})   # a second guess while held: not read
        assert await page.closed() == 1008
        answers = [(f["type"], f.get("code")) for f in page.frames if f["type"] in ("error", "organiser")]
        assert answers == [("error", "unknown_key")]
    finally:
        await _stop(task)


async def _until(condition) -> None:
    while not condition():
        await asyncio.sleep(0.01)


async def test_requests_are_paced_per_connection(make_server, tmp_path):
    server, task = await _server(make_server, tmp_path)
    try:
        page = await _page(server)
        await page.send({"type": "organiser_request", "key": ORGANISER_KEY})
        await page.next("organiser")
        await page.send({"type": "organiser_request", "key": ORGANISER_KEY})     # at once: too soon
        error = await page.next("error")
        assert error["code"] == "rate_limited" and error["frame_type"] == "organiser_request"
        await page.close()
    finally:
        await _stop(task)


async def test_a_tournament_server_shows_the_versions_and_counts_no_games(make_server, tmp_path, unpaced):
    data = tmp_path / "replays"
    seed(data)
    server = await make_server(players=3, roster=ROSTER, organiser_keys=[ORGANISER_KEY], data_dir=data)
    page = await _page(server)
    await page.send({"type": "organiser_request", "key": ORGANISER_KEY})
    frame = await page.next("organiser")
    assert frame["ladder"] is False and [row["player"] for row in frame["rows"]] == ["Bo", "Ana", "Cy"]
    assert [row["games"] for row in frame["rows"]] == [0, 0, 0] and not any(row["idle"] for row in frame["rows"])
    assert frame["rows"][0]["attention"] == [f"newest version {BO_V} refused (import_error)"]
    assert all(row["tournament"] is None for row in frame["rows"])                # no game played yet
    server.web.standings = Standings(tournament="t", games_done=3, games_total=6, rows=[
        StandingRow(rank=1, player="Ana", points=2.0, games=2, wins=2, losses=0, draws=0),
        StandingRow(rank=2, player="Cy", points=1.0, games=2, wins=1, losses=1, draws=0, violations=2)])
    await page.send({"type": "organiser_request", "key": ORGANISER_KEY})
    rows = {row["player"]: row for row in (await page.next("organiser"))["rows"]}
    assert rows["Ana"]["tournament"] == {"rank": 1, "points": 2.0, "games": 2, "wins": 2, "losses": 0, "draws": 0,
                                         "violations": 0}
    assert rows["Cy"]["attention"] == ["2 violations in the tournament"] and rows["Bo"]["tournament"] is None
    await page.close()


async def test_a_server_without_an_organisers_key_has_no_page(make_server):
    server = await make_server()
    page = await Client.open(url(server))
    await page.send(hello("web-page", role="spectator"))
    assert (await page.next("welcome"))["organiser_page"] is False
    await page.send({"type": "organiser_request", "key": "anything"})
    error = await page.next("error")
    assert error["code"] == "room_unavailable" and "--organiser-key" in error["message"]
    await page.close()


async def test_a_player_may_not_ask(make_server):
    server = await make_server(roster={"k1": "Ann", "k2": "Bob"}, organiser_keys=[ORGANISER_KEY])
    player = await Client.open(url(server))
    await player.send(hello("k1"))
    await player.next("welcome")
    await player.send({"type": "organiser_request", "key": ORGANISER_KEY})
    assert (await player.next("error"))["code"] == "not_a_spectator"
    await player.close()


def test_a_key_in_the_frame_is_bounded():
    from shared.protocol import ProtocolError, parse_client
    for bad in ("", "x" * 65, "has space"):
        with pytest.raises(ProtocolError):
            parse_client({"type": "organiser_request", "key": bad})


def test_the_roster_names_organisers_who_never_play():
    roster = parse_roster("k1 Ana\nt0p Ms Smith organiser\nk2 organiser\n")
    assert roster.names == {"k1": "Ana", "k2": "organiser"} and roster.organisers == {"t0p": "Ms Smith"}
    roster = parse_roster('{"k1": "Ana", "t0p": {"name": "Ms Smith", "role": "organiser"}}')
    assert roster.names == {"k1": "Ana"} and roster.organisers == {"t0p": "Ms Smith"}
    with pytest.raises(ValueError, match="organiser"):
        parse_roster('{"k1": "Ana", "t0p": {"name": "Ms Smith", "role": "organiser", "submission": true}}')
    with pytest.raises(ValueError, match="role"):
        parse_roster('{"k1": "Ana", "t0p": {"name": "Ms Smith", "role": "boss"}}')


def test_the_command_line_takes_organiser_keys_from_the_flag_and_the_roster(tmp_path):
    roster = tmp_path / "roster.txt"
    roster.write_text("k1 Ana\nk2 Bo\nt0p Ms Smith organiser\n", encoding="utf-8")
    args = build_parser().parse_args(["--roster", str(roster), "--organiser-key", "flag-key"])
    settings = settings_from_args(args)
    assert settings.organiser_keys == ["flag-key", "t0p"] and "t0p" not in settings.roster
    with pytest.raises(ValueError, match="also a player's key"):
        ServerSettings(roster={"k1": "Ana", "k2": "Bo"}, organiser_keys=["k1"])
    with pytest.raises(ValueError, match="printable ASCII"):
        ServerSettings(organiser_keys=["two words"])


def test_the_ladder_store_gives_each_bots_current_track_and_last_game(tmp_path):
    seed(tmp_path)
    store = LadderStore(tmp_path / "ladder.db")
    try:
        activity = store.activity(["Ana", "Cy", "Nobody"])
        assert set(activity) == {"Ana", "Cy"}
        assert [g.game_id for g in activity["Ana"].games] == ["L1-g1", "L2-g1", "L3-g1", "L4-g1", "L5-g1"]
        assert store.game_log("L1-g1") == "ladder-games/L1-g1.csv" and store.game_log("L9-g9") is None
        assert activity["Cy"].last_game_at < activity["Ana"].last_game_at
    finally:
        store.close()

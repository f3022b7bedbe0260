"""The end of a tournament in O(N): a player gets the top of the final table and its own row, a spectator (or a
player that asked with ``final_table_request``) every row; the legacy port's players their close message."""

from __future__ import annotations

import asyncio
import json

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from server.tournament.final_table import TOP_ROWS, FinalTables
from shared.protocol import StandingRow, TournamentOver, dump, parse_server
from shared.quoridor import Location, Position, Step
from tests.server.conftest import ScriptedBot, bounded, url
from tests.server.legacy_client import LegacyBot
from tests.server.support import Client, export, hello, play

ASK = {"type": "final_table_request"}


def table(names: list[str]) -> list[StandingRow]:
    """A final table of ``names``, best first, with every field set (as a real one)."""
    return [StandingRow(rank=i + 1, player=name, points=float(len(names) - i), games=len(names) - 1,
                        wins=len(names) - i, losses=i, draws=0, seat0=[1, 2, 0], seat1=[0, 1, 0], elo=-12.5 * i, elo_error=80.25,
                        elo_low=-90.0, elo_high=70.5, violations=i % 3, thinking_ms=1000 + i)
            for i, name in enumerate(names)]


# --- the frames ---------------------------------------------------------------------------------

def test_a_player_below_the_top_gets_the_top_and_its_own_row():
    names = [f"p{i:02}" for i in range(30)]
    tables = FinalTables("t1", table(names), "p00")
    frame = parse_server(tables.for_player("p29").payload.decode())
    assert isinstance(frame, TournamentOver) and frame.players == 30 and frame.champion == "p00"
    assert [row.player for row in frame.rows] == names[:TOP_ROWS] + ["p29"]
    assert frame.rows[-1] == table(names)[29]
    top = parse_server(tables.for_player("p03").payload.decode())     # in the top: nothing more
    assert [row.player for row in top.rows] == names[:TOP_ROWS] and top.players == 30
    assert tables.for_player(None) is tables.top is tables.for_player("stranger")
    assert [row.player for row in parse_server(tables.whole.payload.decode()).rows] == names


def test_each_players_frame_is_the_dump_of_its_message_character_for_character():
    # Names with JSON's hard cases, the rows' end marker among them: the frame is spliced, not dumped.
    names = ['a"b', "ü\u2028é", 'x],"champion":"y', "\\", "tab\t", *[f"p{i}" for i in range(20)], 'z],"champion":']
    for champion in (None, 'c],"champion":"d', "a\"b"):
        tables = FinalTables('t"1', table(names), champion, top=5)
        for name in names:
            encoded = tables.for_player(name)
            assert encoded.payload == dump(encoded.message).encode()
            place = names.index(name)
            rows = [*table(names)[:5], *([table(names)[place]] if place >= 5 else [])]
            assert encoded.message == TournamentOver(tournament='t"1', rows=rows, champion=champion, players=len(names))


def test_a_small_table_goes_whole_to_everyone():
    tables = FinalTables("t1", table(["a", "b", "c"]), None)
    assert all(tables.for_player(name).payload == tables.whole.payload for name in "abc")
    empty = FinalTables("t1", [], None)
    assert json.loads(empty.for_player("a").payload) == {"type": "tournament_over", "tournament": "t1", "rows": [],
                                                         "champion": None, "players": 0}


# --- end to end ---------------------------------------------------------------------------------

async def watch_to_the_end(server) -> list[dict]:
    """A spectator of every game: its frames up to the close."""
    frames: list[dict] = []
    try:
        async with connect(url(server), max_size=None) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": 1, "role": "spectator", "key": "eye"}))
            await ws.send(json.dumps({"type": "watch", "game": "*", "batch": True}))
            async for raw in ws:
                frames.append(json.loads(raw))
    except ConnectionClosed:
        pass
    return frames


async def test_thirty_players_each_get_the_top_and_their_own_row_a_spectator_every_row(make_server):
    server = await make_server(players=30, format="knockout", time_limit_ms=5000)
    asker = ScriptedBot(url(server), "k00", after_hello=(ASK, ASK))       # the second is refused: once a connection
    bots = [asker, *(ScriptedBot(url(server), f"k{i:02}") for i in range(1, 30))]
    eye = asyncio.create_task(watch_to_the_end(server))
    await play(server, bots, seconds=60)
    final = [row["player"] for row in export(server)["standings"]]
    assert len(final) == 30
    below = 0
    for bot in bots:
        over = bot.frames[-1]
        assert over["type"] == "tournament_over" and over["players"] == 30 and over["champion"] == final[0]
        shown = [row["player"] for row in over["rows"]]
        if bot is asker:
            assert shown == final                                   # asked: every row
        elif final.index(bot.key) < TOP_ROWS:
            assert shown == final[:TOP_ROWS]
        else:
            below += 1
            assert shown == final[:TOP_ROWS] + [bot.key]            # the top, then its own row
            ranks = {row["player"]: row["rank"] for row in export(server)["standings"]}
            assert over["rows"][-1]["rank"] == ranks[bot.key]
    assert below == 30 - TOP_ROWS - (final.index("k00") >= TOP_ROWS)
    assert [e["code"] for e in asker.errors] == ["already_asked"]
    frames = await bounded(eye)
    overs = [f for f in frames if f["type"] == "tournament_over"]
    assert len(overs) == 1 and [row["player"] for row in overs[0]["rows"]] == final and overs[0]["players"] == 30


async def test_the_request_is_refused_to_a_spectator(make_server):
    server = await make_server(players=2)
    async with connect(url(server)) as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "role": "spectator", "key": "eye"}))
        await ws.send(json.dumps(ASK))
        for _ in range(10):                                       # welcome, tournament_info, ..., then the error
            frame = json.loads(await bounded(ws.recv(), 10))
            if frame["type"] == "error":
                break
    assert (frame["code"], frame["frame_type"]) == ("not_a_player", "final_table_request")


def far_away(pos: Position, seat: int) -> Step:
    """A move to a cell no pawn reaches in one step: a violation every turn, so every game is lost."""
    return Step(Location(1, 1) if pos.pawn(seat).y > 2 else Location(9, 9))


async def test_a_legacy_player_below_the_top_gets_the_close_message(make_server):
    # 11 players: the legacy bot loses every game (three illegal steps), so it is last, below the top 10.
    server = await make_server(legacy_port=0, players=TOP_ROWS + 1, time_limit_ms=5000)
    legacy = LegacyBot("127.0.0.1", server.legacy_port, "old", policy=far_away)
    modern = [ScriptedBot(url(server), f"new{i}") for i in range(TOP_ROWS)]
    await play(server, [legacy, *modern], seconds=60)
    assert export(server)["standings"][-1]["player"] == "OLD"
    assert legacy.closed_by_server and len(legacy.finals) == TOP_ROWS     # 1001, -1: the legacy protocol's end
    for bot in modern:
        assert bot.frames[-1]["type"] == "tournament_over" and bot.frames[-1]["players"] == TOP_ROWS + 1


async def test_a_ladder_has_no_final_table_to_ask_for(make_server):
    server = await make_server(ladder=True)
    player = await Client.open(url(server))
    await player.send(hello("k1"))
    await player.next("welcome")
    await player.send(ASK)
    error = await player.next("error")
    assert (error["code"], error["frame_type"]) == ("room_unavailable", "final_table_request")
    assert "never ends" in error["message"]
    await player.close()

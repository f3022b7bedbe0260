"""Property: whatever a rogue connection sends, it gets ``error`` frames (or is closed), and the game beside it
is untouched.

Each example starts one server, holds a real game between two bots in progress, and throws generated
frames at it from a rogue connection: before hello, after hello as a spectator, and again on a new
connection whenever the server closed the last one. The reply to every frame is predicted from the
protocol (the same ``parse_client`` the server uses) and checked exactly.
"""

from __future__ import annotations

import asyncio
import json
import logging
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings, strategies as st
from websockets.exceptions import ConnectionClosed

from server.app import ArenaServer
from server.settings import Limits, ServerSettings
from shared.gamelog import parse_log
from shared.protocol import (
    CLIENT_MESSAGES, ERROR_CODES, FinalTableRequest, GameRequest, Hello, LadderRequest, LogUpload, OrganiserRequest,
    ProtocolError, ReplaysRequest, StepMessage, SubmissionsRequest, Submit, Watch, parse_client,
)
from tests.server.conftest import bounded
from tests.server.support import Client, GatedBot

FRAME_LIMIT = 1024
STRIKES = 6
WATCHED = 4
GAME = "t1-r1-p1-g1"

_scalars = st.none() | st.booleans() | st.integers(-3, 400) | st.floats(allow_nan=False) | st.text(max_size=12)
_json = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=8)
_cells = st.lists(st.integers(-2, 11), min_size=2, max_size=2) | _json
_typed = st.fixed_dictionaries(
    {"type": st.sampled_from([*CLIENT_MESSAGES, "welcome", "turn", "HELLO", ""])},
    optional={
        "protocol": st.sampled_from([1, 2, 0, "1", 1.0, None]),
        "role": st.sampled_from(["spectator", "player", "referee", None]),
        "room": st.sampled_from(["quoridor", "sokoban", "chess", 3]),
        "key": st.sampled_from(["eye", "with space", "", "k" * 70, "é"]) | st.text(max_size=8),
        "name": st.text(max_size=45),
        "game": st.sampled_from([GAME, "*", "nope", ""]) | _json,
        "turn": st.integers(-2, 40) | _json,
        "move": _cells, "wall": st.lists(_cells, max_size=3) | _json,
        "puzzle": st.text(max_size=6), "answer": _json, "action": st.text(max_size=6),
    },
).map(json.dumps)
frames = st.one_of(
    st.text(max_size=80),
    _json.map(json.dumps),
    _typed, _typed,
    st.binary(max_size=60),
    st.integers(FRAME_LIMIT + 1, 4 * FRAME_LIMIT).map(lambda n: json.dumps({"type": "watch", "game": "x" * n})),
    st.sampled_from(['{"type": "watch", "game": "*"}', '{"type": "hello", "protocol": 1, "role": "spectator", '
                     '"key": "eye"}', '{"type": "hello", "protocol": 1, "role": "spectator", "key": "eye", '
                     '"room": "ice"}', '{"type": "hello", "protocol": 2, "role": "spectator", "key": "eye"}']),
)


class _Model:
    """What the server must answer to each frame: ("error", code, closes), ("welcome",) or ("none",)."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.greeted, self.strikes, self.watched = False, 0, set[str]()

    def expect(self, frame: str | bytes) -> tuple[Any, ...] | None:
        """The expected answer, or None for a frame the test must not send (a hello that takes a seat)."""
        size = len(frame) if isinstance(frame, bytes) else len(frame.encode())
        try:
            message = None if size > FRAME_LIMIT else parse_client(frame)
        except ProtocolError as exc:
            fatal = exc.code == "protocol_version" and not self.greeted
            return self._error(exc.code, fatal)
        if message is None:
            return self._error("frame_too_large")
        if isinstance(message, Hello) and not self.greeted:
            if message.role == "player":
                return None     # takes a seat or enters a puzzle room (tests/server/rooms): not thrown here
            if message.room != "quoridor":
                return self._error("room_unavailable", fatal=True)
            self.greeted = True
            return ("welcome",)
        if not self.greeted:
            return self._error("hello_first")
        if isinstance(message, Hello):
            return self._error("already_hello")
        if isinstance(message, StepMessage):
            return self._error("not_a_player")
        if isinstance(message, (Submit, SubmissionsRequest)):
            return self._error("not_a_submitter")
        if isinstance(message, (GameRequest, ReplaysRequest, LogUpload, LadderRequest)):
            return None         # the web pages' requests, answered (tests/server/web): not thrown here
        if isinstance(message, FinalTableRequest):
            return self._error("not_a_player")
        if isinstance(message, OrganiserRequest):
            return self._error("room_unavailable")      # this server has no organiser's key
        if isinstance(message, Watch):
            if message.game not in self.watched and len(self.watched) >= WATCHED:
                return self._error("invalid_fields")
            self.watched.add(message.game)
            self.strikes = 0
            return ("none",)
        return self._error("wrong_room")

    def _error(self, code: str, fatal: bool = False) -> tuple[Any, ...]:
        self.strikes += 1
        return ("error", code, fatal or self.strikes >= STRIKES)


async def _scenario(data: Path, rogue_frames: list[str | bytes]) -> None:
    server = ArenaServer(ServerSettings(
        port=0, data_dir=data, seed=3, time_limit_ms=60_000,
        limits=Limits(max_frame_bytes=FRAME_LIMIT, strikes_to_close=STRIKES, watched_games=WATCHED)))
    failures: list[logging.LogRecord] = []
    handler = logging.Handler(logging.ERROR)
    handler.emit = failures.append  # type: ignore[method-assign]
    logging.getLogger("quoridor.server").addHandler(handler)
    await server.start()
    try:
        url = f"ws://127.0.0.1:{server.port}/"
        gate = asyncio.Event()
        rogue = await Client.open(url)
        # The game gets going (two steps each), then is held mid-play while the rogue does its worst.
        bots = [GatedBot(url, "white", gate, free_steps=2), GatedBot(url, "black", gate, free_steps=2)]
        tasks = [asyncio.create_task(bot.run()) for bot in bots]
        tournament = asyncio.create_task(server.run_tournament())
        while sum(bot.steps_sent for bot in bots) < 4:
            await bounded(asyncio.sleep(0.002), 5)

        model = _Model()
        for frame in rogue_frames:
            expected = model.expect(frame)
            if expected is None:
                continue
            await rogue.send(frame)
            if expected[0] == "none":
                continue
            reply = await rogue.reply()
            if expected[0] == "welcome":
                assert reply["type"] == "welcome" and reply["player"] == "spectator"
                continue
            assert reply["type"] == "error" and reply["code"] in ERROR_CODES
            assert reply["code"] == expected[1], (frame, reply)
            if expected[2]:                          # the server closes; the next frames go on a new connection
                assert await rogue.closed() is not None
                rogue = await Client.open(url)
                model.reset()

        gate.set()
        standings = await bounded(tournament)
        await bounded(asyncio.gather(*tasks))
        assert standings.games_done == 1
        white = next(b for b in bots if next(f for f in b.frames if f["type"] == "game_start")["seat"] == 0)
        for bot in bots:
            over = bot.games_over[0]
            assert (over["reason"], over["winner"], over["game"]) == ("goal", white.key, GAME)
        log = parse_log(Path(bots[0].games_over[0]["log"]).read_text(encoding="utf-8"))
        assert len(log.steps) == 15 and all(s.status in (0, 1) for s in log.steps)   # nothing of the rogue's
        try:
            await rogue.closed(timeout=5)            # the tournament's end closes the rogue too
        except ConnectionClosed:
            pass
        assert not failures, [r.getMessage() for r in failures]
    finally:
        logging.getLogger("quoridor.server").removeHandler(handler)
        await server.close()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(frames, min_size=1, max_size=30))
def test_rogue_frames_get_errors_and_never_touch_the_game(rogue_frames: list[str | bytes]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(_scenario(Path(folder), rogue_frames))

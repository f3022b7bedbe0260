"""The course's C++ client, redone in Python from ``legacy-tcp.md`` byte for byte.

Deliberately written with ``struct`` from the spec, not with ``shared.legacy``: it checks the
server's codec against the spec rather than against itself. Every read is bounded in time.
"""

from __future__ import annotations

import asyncio
import struct
from dataclasses import dataclass, field

from shared.quoridor import BlockBar, Location, Position, Step
from tests.server.conftest import Policy, runner_policy

__all__ = ["LegacyBot", "Change", "legacy_key", "KEY", "STEP", "CHANGE", "CLOSE"]

KEY = struct.Struct(">i64s")          # 68 bytes: 1, the key
STEP = struct.Struct(">i64s6i")       # 92 bytes: 2, the key, x y x1 y1 x2 y2
CHANGE = struct.Struct(">11i")        # 44 bytes: 1002, auth 0, status, my x y, enemy x y, wall x1 y1 x2 y2
CLOSE = struct.Struct(">2i")          # 8 bytes: 1001, -1
FINAL = {1, 2, 4, 5}                  # Win, Lost, EnemyClosed, RulesBreaker: the client restarts


def legacy_key(player_key: str, mac: str = "0A1B2C3D4E5F") -> bytes:
    """``uppercase(playerKey + "_" + MAC)`` padded with ``_`` (or cut) to 64 bytes; byte 63 is ``_``."""
    text = (player_key + "_" + mac).upper()[:63].ljust(63, "_") + "_"
    return text.encode("ascii")


@dataclass(frozen=True)
class Change:
    """One 44-byte board change as received."""

    status: int
    me: tuple[int, int]
    enemy: tuple[int, int]
    wall: tuple[int, int, int, int]

    @property
    def final(self) -> bool:
        """The end of a game: a final status with every location -1."""
        return self.status in FINAL and self.me == (-1, -1) and self.enemy == (-1, -1)


@dataclass
class LegacyBot:
    """Connect, send the key, answer every non-final board change with one step, restart on a final one."""

    host: str
    port: int
    player_key: str
    policy: Policy = runner_policy
    mac: str = "0A1B2C3D4E5F"
    #: Seconds to sleep before answering, per step index (across games): a slow or late bot.
    delays: dict[int, float] = field(default_factory=dict)
    changes: list[Change] = field(default_factory=list)
    finals: list[int] = field(default_factory=list)
    closed_by_server: bool = False
    dropped: bool = False

    async def run(self, *, stop_after_steps: int | None = None, garbage: bytes = b"", hang_up: bool = False) -> None:
        """Play until the close frame.

        After ``stop_after_steps`` steps it sends ``garbage`` instead of a step, then hangs up
        (``hang_up``) or waits for the server to drop it (``dropped``).
        """
        reader, writer = await asyncio.wait_for(asyncio.open_connection(self.host, self.port), 5)
        key = legacy_key(self.player_key, self.mac)
        writer.write(KEY.pack(1, key))
        walls: list[BlockBar] = []
        mine_pending: BlockBar | None = None
        placed = seat = steps = 0
        first = True
        try:
            while True:
                head = await asyncio.wait_for(reader.readexactly(4), 30)
                (frame_id,) = struct.unpack(">i", head)
                if frame_id == 1001:
                    (rest,) = struct.unpack(">i", await asyncio.wait_for(reader.readexactly(4), 5))
                    assert rest == -1
                    self.closed_by_server = True
                    return
                assert frame_id == 1002, frame_id
                numbers = struct.unpack(">10i", await asyncio.wait_for(reader.readexactly(40), 5))
                assert numbers[0] == 0                      # the auth state
                change = Change(numbers[1], numbers[2:4], numbers[4:6], numbers[6:10])
                self.changes.append(change)
                if change.final:
                    self.finals.append(change.status)
                    walls, mine_pending, placed, first = [], None, 0, True      # restart()
                    continue
                if first:
                    seat, first = (0 if change.me[1] == 1 else 1), False
                if mine_pending is not None and change.status == 0:
                    walls.append(mine_pending)
                    placed += 1
                mine_pending = None
                if change.wall != (-1, -1, -1, -1):
                    walls.append(BlockBar.of(*change.wall))
                step = self._choose(change, walls, seat, placed)
                if stop_after_steps is not None and steps >= stop_after_steps:
                    writer.write(garbage)
                    await writer.drain()
                    if not hang_up:
                        self.dropped = await asyncio.wait_for(reader.read(), 10) == b""
                    return
                delay = self.delays.get(steps, 0.0)
                if delay:
                    await asyncio.sleep(delay)
                steps += 1
                if step.is_move():
                    writer.write(STEP.pack(2, key, step.new_loc.x, step.new_loc.y, -1, -1, -1, -1))
                else:
                    w = step.new_wall
                    mine_pending = w
                    writer.write(STEP.pack(2, key, -1, -1, w.start.x, w.start.y, w.stop.x, w.stop.y))
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            return                                          # the server closed the socket
        finally:
            writer.close()

    def _choose(self, change: Change, walls: list[BlockBar], seat: int, placed: int) -> Step:
        me, enemy = Location(*change.me), Location(*change.enemy)
        pawns = (me, enemy) if seat == 0 else (enemy, me)
        theirs = sum(1 for w in walls) - placed
        left = (10 - placed, 10 - theirs) if seat == 0 else (10 - theirs, 10 - placed)
        pos = Position.setup(pawns, walls, walls_left=left, turn=seat)
        step = self.policy(pos, seat)
        return step if step is not None else Step()

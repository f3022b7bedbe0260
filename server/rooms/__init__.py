"""Puzzle side rooms served beside the Quoridor room: ``sokoban``, ``ice`` and ``circuit``.

Each room is a class in its own module; ``build_rooms`` makes one of each around a shared
leaderboard (``leaderboard.Leaderboard``, in memory; ``leaderboard_store.LeaderboardRecords`` keeps it on
disk for the server's ``desk.PuzzleDesk``). A room's long answers are ``Job``s, which ``workers.WorkerPool`` runs in worker
processes for the server's ``PuzzleDesk``.
"""

from __future__ import annotations

from server.rooms.base import Job, Reply, Room, RoomContext, RoomError
from server.rooms.circuit import CircuitRoom
from server.rooms.ice import IceRoom
from server.rooms.leaderboard import Entry, Leaderboard
from server.rooms.sokoban import SokobanRoom

__all__ = ["ROOM_CLASSES", "Job", "Reply", "Room", "RoomContext", "RoomError", "Leaderboard", "Entry", "build_rooms"]

#: Room name -> its class.
ROOM_CLASSES: dict[str, type[Room]] = {room.name: room for room in (SokobanRoom, IceRoom, CircuitRoom)}


def build_rooms(leaderboard: Leaderboard) -> dict[str, Room]:
    """One instance of every room, all recording on ``leaderboard`` (in memory, at once)."""
    return {name: room(leaderboard) for name, room in ROOM_CLASSES.items()}

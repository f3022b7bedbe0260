"""Puzzle side rooms served beside the Quoridor room: ``sokoban``, ``ice`` and ``circuit``.

Each room is a class in its own module, named here; ``load_rooms`` builds those that exist.
"""

from __future__ import annotations

import importlib

from .base import Room, RoomContext, RoomError
from .leaderboard import Entry, Leaderboard

__all__ = ["ROOM_CLASSES", "Room", "RoomContext", "RoomError", "Leaderboard", "Entry", "load_rooms"]

#: Room name -> "module:Class" of its implementation.
ROOM_CLASSES: dict[str, str] = {
    "sokoban": "server.rooms.sokoban:SokobanRoom",
    "ice": "server.rooms.ice:IceRoom",
    "circuit": "server.rooms.circuit:CircuitRoom",
}


def load_rooms(leaderboard: Leaderboard) -> dict[str, Room]:
    """An instance of every room whose module is present (a room still being built is skipped)."""
    rooms: dict[str, Room] = {}
    for name, target in ROOM_CLASSES.items():
        module_name, class_name = target.split(":")
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name == module_name:
                continue
            raise
        rooms[name] = getattr(module, class_name)(leaderboard)
    return rooms

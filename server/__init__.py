"""Server side of Quoridor Arena: the websocket referee, tournaments and persistence."""

__version__ = "0.1.0"

"""Pure core of Quoridor Arena: the grid library, the game rules, the referee, the log format,
the puzzles and the protocol models. Nothing in this package performs I/O or imports asyncio, sockets or UI code."""

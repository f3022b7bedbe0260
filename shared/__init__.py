"""Pure core of Quoridor Arena: the grid library, the game rules and (later) puzzles and
protocol models. Nothing in this package performs I/O or imports asyncio, sockets or UI code."""

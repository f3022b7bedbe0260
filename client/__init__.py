"""Client side of Quoridor Arena: the bot SDK (``Player``), the built-in bots, the one bot driver
(``driver``) behind the server runner (``runner``) and the local match (``match``), their command
lines, the demo, the replay viewer and the terminal puzzles. Only the terminal-UI modules draw."""

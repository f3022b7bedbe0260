"""Client side of Quoridor Arena: the bot SDK, built-in bots and the terminal demo."""

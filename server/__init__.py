"""Server side of Quoridor Arena: the websocket referee, tournaments and persistence."""

"""Who plays: player sessions across reconnects, the lobby, the roster."""

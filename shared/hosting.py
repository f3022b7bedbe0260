"""The hosted-bot channel's tables: what the bot host (``python -m client.hosted``) and the server agree on.

Pure data, no imports: the host process reads it before it loads a bot, so it stays light (no pydantic, no
``shared.protocol``). The server's ``server.sandbox.causes`` reads the exit codes; its ladder seats the
built-in bots by these names; ``client.bots`` is the registry that makes them.
"""

__all__ = ["BUILTIN_BOTS", "EXIT_CODES"]

BUILTIN_BOTS = ("random", "runner", "blocker", "defender", "strong")
"""The built-in bots' names, weakest first: the specs a host loads without a file, and the ladder's residents."""

EXIT_CODES = {
    "usage": 2,
    "syntax_error": 10,
    "import_error": 11,
    "no_player": 12,
    "init_error": 13,
    "memory_limit": 14,
    "crashed": 15,
}
"""The host's exit code for each way it ends but a normal end (0), by cause code (``usage``: a bad command line)."""

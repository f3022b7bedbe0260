"""The hosted-bot channel's tables: what the bot host (``python -m client.hosted``) and the server agree on.

Pure data, no imports: the host process reads it before it loads a bot, so it stays light (no pydantic, no
``shared.protocol``). The server's ``server.sandbox.causes`` reads the exit codes; its ladder seats the
built-in bots by these names; ``client.bots`` is the registry that makes them.
"""

__all__ = ["BUILTIN_BOTS", "CPP_SUFFIXES", "EXIT_CODES", "LANGUAGES", "bot_language"]

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

CPP_SUFFIXES = (".cpp", ".cc", ".cxx")
"""The suffixes of a C++ entry file: the arena builds it with its own ``main`` (``client/cpp``)."""

LANGUAGES = ("builtin", "python", "cpp", "executable")
"""What can run a bot: a built-in bot, the Python host, a C++ build, or an executable of the bot's own."""


def bot_language(spec: str) -> str:
    """Which of ``LANGUAGES`` runs the bot of ``spec``: ``builtin`` (a name of ``BUILTIN_BOTS``), ``cpp``
    (``FILE.cpp`` or ``FILE.cpp:CLASS``), ``python`` (``FILE.py``, ``FILE.py:CLASS``, ``MODULE:CLASS``), else
    ``executable`` (the path of a program that speaks the hosted-bot channel, docs/hosted-bots.md)."""
    spec = spec.strip()
    if spec in BUILTIN_BOTS:
        return "builtin"
    where = spec.rsplit(":", 1)[0] if ":" in spec else spec
    if where.lower().endswith(CPP_SUFFIXES):
        return "cpp"
    if ":" in spec or where.endswith(".py"):
        return "python"
    return "executable"

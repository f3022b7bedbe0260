"""``quoridor-client``: connect a bot to a Quoridor Arena server.

Short flags follow the course's C++ client where they do not clash with ``--help``:
``-c`` config file, ``-p`` port, ``-k`` key. A config file may use the old client's fields
(``network.host``, ``network.port``, ``playerKey``, ``saveLog``, ``gameReplay``,
``gameReplayCmd``) and ours (``server``, ``bot``, ``name``); command-line options win.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shlex
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console

from shared.protocol import GameOver

from .bots import BOTS
from .loader import BotLoadError, load_bot
from .runner import BotRunner, ServerUnavailable

__all__ = ["main", "ClientConfig", "read_config", "build_parser"]


@dataclass
class ClientConfig:
    """Everything the client needs, merged from the config file and the command line."""

    server: str = "ws://127.0.0.1:19330/"
    key: str = "19120000"
    name: str | None = None
    bot: str = "random"
    replay: bool = False
    replay_cmd: str = "quoridor-replay %file%"
    wait_s: float = 60.0


def read_config(path: Path) -> dict[str, Any]:
    """Read a JSON config file into ``ClientConfig`` field values; ``ValueError`` names the problem."""
    try:
        data = json.loads(path.read_text(encoding="utf-8-sig"))
    except OSError as exc:
        raise ValueError(f"cannot read config {path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"config {path} is not valid JSON: {exc.msg} (line {exc.lineno})") from None
    if not isinstance(data, dict):
        raise ValueError(f"config {path} must hold a JSON object")
    values: dict[str, Any] = {}
    network = data.get("network", {})
    if not isinstance(network, dict):
        raise ValueError(f"config {path}: 'network' must be an object with host and port")
    if "host" in network or "port" in network:
        host, port = network.get("host", "127.0.0.1"), network.get("port", 19330)
        if not isinstance(port, int):
            raise ValueError(f"config {path}: network.port must be a number, got {port!r}")
        values["server"] = f"ws://{host}:{port}/"
    for ours, theirs, kind in (("server", "server", str), ("key", "playerKey", str), ("key", "key", str),
                               ("name", "name", str), ("bot", "bot", str), ("replay", "gameReplay", bool),
                               ("replay_cmd", "gameReplayCmd", str)):
        if theirs in data:
            if not isinstance(data[theirs], kind):
                raise ValueError(f"config {path}: {theirs!r} must be a {kind.__name__}, got {data[theirs]!r}")
            values[ours] = data[theirs]
    return values


def build_parser() -> argparse.ArgumentParser:
    """The argument parser."""
    p = argparse.ArgumentParser(
        prog="quoridor-client", description="Connect a Quoridor bot to a Quoridor Arena server and play.",
        epilog="examples: quoridor-client --bot strong -k alice   |   "
               "quoridor-client --bot mybot.py:MyPlayer -p 19330 -k 191220000   |   quoridor-client -c config.json")
    p.add_argument("-c", "--config", type=Path, help="JSON config file (the old client's fields work)")
    p.add_argument("--server", help="server URL (default ws://127.0.0.1:19330/)")
    p.add_argument("--host", help="server host (with -p; instead of --server)")
    p.add_argument("-p", "--port", type=int, help="server port (default 19330)")
    p.add_argument("-k", "--key", help="your player key")
    p.add_argument("-n", "--name", help="display name (default: the key)")
    p.add_argument("-b", "--bot", help=f"built-in bot ({', '.join(BOTS)}), FILE.py:CLASS or MODULE:CLASS "
                                       "(default random)")
    p.add_argument("--replay", action="store_true", default=None, help="replay each game after it ends")
    p.add_argument("--replay-cmd", help="replay command, %%file%% = the log (default 'quoridor-replay %%file%%')")
    p.add_argument("--wait", type=float, dest="wait_s", help="seconds to wait for the server to come up (default 60)")
    return p


def config_from_args(args: argparse.Namespace) -> ClientConfig:
    """Merge the config file (if any) and the options."""
    values = read_config(args.config) if args.config else {}
    if args.server:
        values["server"] = args.server
    elif args.host or args.port:
        values["server"] = f"ws://{args.host or '127.0.0.1'}:{args.port or 19330}/"
    for name in ("key", "name", "bot", "replay", "replay_cmd", "wait_s"):
        if getattr(args, name) is not None:
            values[name] = getattr(args, name)
    return ClientConfig(**values)


def _replayer(config: ClientConfig, console: Console):  # type: ignore[no-untyped-def]
    def replay(over: GameOver) -> None:
        if not config.replay or not over.log:
            return
        command = config.replay_cmd.replace("%file%", shlex.quote(over.log))
        try:
            subprocess.run(command, shell=True, check=False, timeout=3600)
        except (OSError, subprocess.SubprocessError) as exc:
            console.print(f"[yellow]replay command failed: {exc}[/]")
    return replay


def main(argv: Sequence[str] | None = None) -> int:
    """Run the client; 0 when the tournament ended normally, 1 when it could not play, 2 for bad options."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        config = config_from_args(args)
        player = load_bot(config.bot, config.key)
    except (ValueError, BotLoadError) as exc:
        parser.error(str(exc))
    console = Console(stderr=True)
    runner = BotRunner(player, config.server, config.key, name=config.name, console=console, wait_s=config.wait_s,
                       on_game_over=_replayer(config, console))
    try:
        summary = asyncio.run(runner.run())
    except ServerUnavailable as exc:
        console.print(f"[red]{exc}[/]; is the server running? (quoridor-server -p PORT)")
        return 1
    except KeyboardInterrupt:
        console.print("interrupted")
        return 130
    console.print(f"[bold]{summary.player or config.key}[/]: {summary.line()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

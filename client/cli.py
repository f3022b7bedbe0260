"""``quoridor-client``: connect a bot to a Quoridor Arena server, in the terminal.

It merges the config file and the options, loads the bot, plays it with ``client.runner.BotRunner``
and prints what the runner tells (``client.notices``) and the run's summary on standard error.

Short flags follow the course's C++ client where they do not clash with ``--help``:
``-c`` config file, ``-p`` port, ``-k`` key, ``-l`` save the logs. A config file may use the old client's fields
(``network.host``, ``network.port``, ``playerKey``, ``saveLog``, ``gameReplay``,
``gameReplayCmd``) and ours (``server``, ``bot``, ``name``, ``logDir``); command-line options win.

Without ``--bot`` (or ``bot`` in the config) the client plays the built-in ``random`` bot, and the
line that says it joined says so.

``saveLog`` (``--save-log [DIR]``) makes the client write each game's log itself, rebuilt from
what it was told (see ``client.gamerecord``), in a folder of the run's own under
``replays/client/`` (``replays/client/<date>-<time>/``), or in ``logDir`` / DIR when one is given.
``gameReplay`` (``--replay``) replays those local logs once the run is over, as the old client did
(a viewer opened between games would stall the bot's next game): the run's folder in one
``quoridor-replay`` (its list of games), or ``gameReplayCmd`` once per log when one is set
(``%file%`` is the log). It saves the logs even without ``saveLog``, since the server's may be on
another machine.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import inspect
import json
import shlex
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from .bots import BOTS
from .commands import installed_command
from .connecting import ServerUnavailable, check_server_url
from .loader import BotCrashed, BotLoadError, bot_label, load_bot, resolve_spec
from .logfiles import DEFAULT_LOG_DIR, new_run_folder
from .notices import Notice, Tone
from .process_bot import ProcessBot
from .render import notice_printer
from .runner import BotRunner, RunSummary

__all__ = ["main", "ClientConfig", "read_config", "build_parser", "config_from_args", "run_replays", "run_log_dir",
           "DEFAULT_BOT"]

#: The bot played when none is chosen (``--bot`` / ``bot``).
DEFAULT_BOT = "random"


@dataclass
class ClientConfig:
    """Everything the client needs, merged from the config file and the command line."""

    server: str = "ws://127.0.0.1:19330/"
    key: str = "19120000"
    name: str | None = None
    #: The bot spec chosen; ``None``: none was, ``DEFAULT_BOT`` plays.
    bot: str | None = None
    save_log: bool = False
    log_dir: Path = DEFAULT_LOG_DIR
    replay: bool = False
    #: The replay command for each log (``%file%``); ``None``: the run's folder in ``quoridor-replay``.
    replay_cmd: str | None = None
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
                               ("name", "name", str), ("bot", "bot", str), ("save_log", "saveLog", bool),
                               ("log_dir", "logDir", str), ("replay", "gameReplay", bool),
                               ("replay_cmd", "gameReplayCmd", str)):
        if theirs in data:
            if not isinstance(data[theirs], kind):
                raise ValueError(f"config {path}: {theirs!r} must be a {kind.__name__}, got {data[theirs]!r}")
            values[ours] = data[theirs]
    if "log_dir" in values:
        values["log_dir"] = Path(values["log_dir"])
    return values


def build_parser() -> argparse.ArgumentParser:
    """The argument parser."""
    p = argparse.ArgumentParser(
        prog="quoridor-client", description="Connect a Quoridor bot to a Quoridor Arena server and play.",
        epilog="examples: quoridor-client --bot strong -k alice   |   "
               "quoridor-client --bot mybot.py:MyPlayer -p 19330 -k 191220000   |   "
               "quoridor-client --bot QuoridorClient/MyPlayer.cpp -k alice   |   quoridor-client -c config.json")
    p.add_argument("-c", "--config", type=Path, help="JSON config file (the old client's fields work; on quoridor-server, -c is games at once)")
    p.add_argument("--server", help="server URL (default ws://127.0.0.1:19330/)")
    p.add_argument("--host", help="server host (with -p; instead of --server)")
    p.add_argument("-p", "--port", type=int, help="server port (default 19330)")
    p.add_argument("-k", "--key", help="your player key")
    p.add_argument("-n", "--name", help="display name (default: the key; on quoridor-server, -n is the number of players)")
    p.add_argument("-b", "--bot", help=f"built-in bot ({', '.join(BOTS)}), FILE.py (its one bot class), "
                                       f"FILE.py:CLASS, MODULE:CLASS, a C++ bot (MyPlayer.cpp, MyPlayer.cpp:CLASS: "
                                       f"built with g++ and cached) or an executable speaking the hosted-bot channel "
                                       f"(./mybot) (default {DEFAULT_BOT})")
    p.add_argument("-l", "--save-log", nargs="?", const=True, default=None, metavar="DIR",
                   help=f"write each game's log (the server's CSV format) in DIR "
                        f"(default: a folder per run under {DEFAULT_LOG_DIR}/)")
    p.add_argument("--replay", action="store_true", default=None,
                   help="open the run's games in quoridor-replay when the run is over (saves the logs)")
    p.add_argument("--bot-version", metavar="TEXT",
                   help="the version the practice ladder rates your bot under (default: a hash of the bot's source, "
                        "so every change starts a new rating track)")
    p.add_argument("--replay-cmd", help="instead, run this command on each local log, %%file%% = the log")
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
    if args.save_log is not None:
        values["save_log"] = True
        if args.save_log is not True:
            values["log_dir"] = Path(args.save_log)
    config = ClientConfig(**values)
    check_server_url(config.server)      # ValueError: one line saying how to write it
    return config


def run_log_dir(config: ClientConfig, now: datetime | None = None) -> Path:
    """Where this run's logs go: ``log_dir`` when one was given, else a new folder of the run's own under it
    (made now, ``new_run_folder``: two clients started in the same second never share one)."""
    if config.log_dir != DEFAULT_LOG_DIR:
        return config.log_dir
    return new_run_folder(config.log_dir, "", now)


def _run(command: str, console: Console) -> None:
    try:
        subprocess.run(command, shell=True, check=False, timeout=3600)
    except (OSError, subprocess.SubprocessError) as exc:
        console.print(Text(f"replay command failed: {exc}", "yellow"), soft_wrap=True)


def run_replays(config: ClientConfig, logs: Sequence[Path], console: Console) -> None:
    """Replay the run's local logs: their folder in one ``quoridor-replay``, or ``replay_cmd`` on each in turn."""
    if not logs:
        return
    if config.replay_cmd is None:
        folder = logs[0].parent
        _run(f"{installed_command('quoridor-replay')} {shlex.quote(str(folder))}", console)
        return
    for log in logs:
        _run(config.replay_cmd.replace("%file%", shlex.quote(str(log))), console)


def _report(console: Console, summary: RunSummary, config: ClientConfig) -> int:
    if summary.refused:                     # it played nothing: the reason is the one thing to say
        console.print(Text(f"quoridor-client: {summary.problem}", "red"), soft_wrap=True)
        return 1
    console.print(Text.assemble((summary.player or config.key, "bold"), f": {summary.line()}"), soft_wrap=True)
    if summary.logs:
        console.print(Text(f"{len(summary.logs)} game logs in {summary.logs[0].parent}/"), soft_wrap=True)
    if not summary.completed:
        console.print(Text(f"quoridor-client: the run did not finish: {summary.problem}", "red"), soft_wrap=True)
        return 1
    return 0


def source_version(player: Any) -> str | None:
    """The bot's default version for the practice ladder: 12 hex digits of the SHA-256 of its class's source file (a
    C++ or executable bot's: what its ``hello`` said, the C++ build's hash of the bot's files)."""
    if isinstance(player, ProcessBot):
        return player.version
    try:
        path = inspect.getsourcefile(type(player))
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:12] if path else None
    except (OSError, TypeError):
        return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the client; 0 when the tournament ended normally, 1 when it could not play it to the end, 2 for bad options."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        config = config_from_args(args)
        spec = resolve_spec(config.bot or DEFAULT_BOT)
        player = load_bot(spec, config.key)
    except BotCrashed as exc:              # the bot's bug, not the command line's: no usage line
        parser.exit(2, f"{parser.prog}: error: {exc}\n")
    except (ValueError, BotLoadError) as exc:
        parser.error(str(exc))
    console = Console(stderr=True)
    say = notice_printer(console)
    try:
        log_dir = run_log_dir(config) if config.save_log or config.replay else None
    except OSError as exc:
        parser.exit(1, f"{parser.prog}: cannot make a folder for the logs under {config.log_dir}: "
                       f"{exc.strerror or exc}\n")
    where = "-p/--server" if args.config is None or args.server or args.host or args.port else \
        f"-p/--server or network in {args.config}"
    runner = BotRunner(player, config.server, config.key, name=config.name, say=say, wait_s=config.wait_s,
                       log_dir=log_dir, label=bot_label(spec), hint=f"check {where}",
                       version=args.bot_version or source_version(player),
                       label_note="" if config.bot else "the default bot: choose yours with --bot")
    try:
        summary = asyncio.run(runner.run())
    except ServerUnavailable as exc:
        say(Notice.of((f"quoridor-client: {exc}", Tone.BAD)))
        return 1
    except KeyboardInterrupt:
        console.print("interrupted")
        return 130
    finally:
        if isinstance(player, ProcessBot):
            player.close()
        if log_dir is not None and log_dir != config.log_dir:     # the run's own folder, left empty: no game
            with contextlib.suppress(OSError):
                log_dir.rmdir()
    code = _report(console, summary, config)
    if config.replay:
        run_replays(config, summary.logs, console)
    return code


if __name__ == "__main__":
    sys.exit(main())

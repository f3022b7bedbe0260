"""``quoridor-demo``: a real tournament in one command — a server and four built-in bots.

The server (``python -m server``) runs in the foreground with its live dashboard; each bot
is its own ``python -m client`` process connecting over websockets, exactly as a student's bot
would. The demo says what it starts before anything starts; at the end the server shows how to
replay a game, and the demo where the logs and the bots' output are.
"""

from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from shared.cli import DeprecatedAlias, deprecation_notes

from .bots import BOTS
from .commands import installed_command
from .logfiles import new_run_folder

__all__ = ["main", "free_port", "game_logs"]

DEFAULT_BOTS = ("strong", "defender", "runner", "random")
#: What ``quoridor-demo --help`` says first (the module docstring carries reST markup).
DESCRIPTION = "A real tournament in one command: a Quoridor Arena server and built-in bots, each its own process."


def free_port() -> int:
    """A TCP port that is free on 127.0.0.1 right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def game_logs(folder: Path) -> list[Path]:
    """The game logs a tournament folder's ``results.json`` lists, in play order (none when it has none).

    Not every ``.csv`` there: the server also writes ``results.csv`` and the old server's result files.
    """
    try:
        games = json.loads((folder / "results.json").read_text(encoding="utf-8"))["games"]
    except (OSError, ValueError, KeyError, TypeError):
        return []
    return [Path(game["log_path"]) for game in games if isinstance(game, dict) and game.get("log_path")]


def _stop(process: subprocess.Popen, grace: float = 5.0) -> None:  # type: ignore[type-arg]
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(grace)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the demo tournament; returns the server's exit code."""
    parser = argparse.ArgumentParser(prog="quoridor-demo", description=DESCRIPTION,
                                     epilog=f"after it: {installed_command('quoridor-replay')} "
                                            "replays/<tournament>/<game>.csv")
    parser.add_argument("--bots", default=",".join(DEFAULT_BOTS),
                        help=f"comma-separated built-in bots (default {','.join(DEFAULT_BOTS)}; "
                             f"choose from {', '.join(BOTS)})")
    parser.add_argument("-r", "--games-per-pairing", type=int, default=2, dest="games_per_pairing", metavar="R",
                        help="games per pairing, seats alternating (default 2)")
    parser.add_argument("--rounds", action=DeprecatedAlias, type=int, dest="games_per_pairing",
                        instead="-r or --games-per-pairing", why="it means games per pairing, not rounds")
    parser.add_argument("--data-dir", type=Path, default=Path("replays"), help="where logs go (default replays/)")
    parser.add_argument("--view", choices=["auto", "live", "plain"], default="auto", help="server view (default auto)")
    parser.add_argument("--timeout", type=float, default=600, help="give up after this many seconds (default 600)")
    args = parser.parse_args(argv)
    for note in deprecation_notes(args):
        print(note, file=sys.stderr)
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    unknown = [b for b in bots if b not in BOTS]
    if unknown or len(bots) < 2:
        parser.error(f"--bots needs two or more of {', '.join(BOTS)}; got {args.bots!r}")
    if args.games_per_pairing < 1:
        parser.error("--games-per-pairing must be at least 1")
    port = free_port()
    name = new_run_folder(args.data_dir, "demo-").name      # this run's own: two demos never share a folder
    folder = args.data_dir / name
    # Something on screen at once: the server's dashboard takes a second or more to come up (a Python
    # start-up and its imports), longer on a busy machine.
    print(f"quoridor-demo: starting a server and {len(bots)} bots ({', '.join(bots)}) …", flush=True)
    server = subprocess.Popen([sys.executable, "-m", "server", "-p", str(port), "-n", str(len(bots)),
                               "-r", str(args.games_per_pairing), "--data-dir", str(args.data_dir), "--name", name,
                               "--view", args.view, "--seed", "2026"])
    clients = []
    client_log = args.data_dir / f"{name}-clients.log"
    with open(client_log, "w", encoding="utf-8") as log:
        try:
            for bot in bots:
                clients.append(subprocess.Popen(
                    [sys.executable, "-m", "client", "--server", f"ws://127.0.0.1:{port}/", "--bot", bot,
                     "-k", bot, "--wait", "30"], stdout=log, stderr=subprocess.STDOUT))
            code = server.wait(args.timeout)
        except subprocess.TimeoutExpired:
            print(f"quoridor-demo: the tournament did not finish in {args.timeout:.0f} s; stopping", file=sys.stderr)
            code = 1
        except KeyboardInterrupt:
            code = 130
        finally:
            deadline = time.monotonic() + 10
            for client in clients:
                try:
                    client.wait(max(deadline - time.monotonic(), 0.1))
                except subprocess.TimeoutExpired:
                    _stop(client)
            _stop(server)
    games = game_logs(folder)
    if code == 0 and games:     # the server has just said how to replay them
        print(f"{len(games)} game logs in {folder}/ (the bots' output: {client_log})")
    elif code != 0:
        print(f"quoridor-demo: the server stopped with exit code {code}; bot output is in {client_log}",
              file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())

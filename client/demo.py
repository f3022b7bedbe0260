"""``quoridor-demo``: a real tournament in one command — a server and four built-in bots.

The server (``python -m server``) runs in the foreground with its live dashboard; each bot
is its own ``python -m client`` process connecting over websockets, exactly as a student's bot
would. At the end it says where the logs are and how to replay a game.
"""

from __future__ import annotations

import argparse
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from .bots import BOTS
from .commands import installed_command

__all__ = ["main", "free_port"]

DEFAULT_BOTS = ("strong", "defender", "runner", "random")


def free_port() -> int:
    """A TCP port that is free on 127.0.0.1 right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


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
    parser = argparse.ArgumentParser(prog="quoridor-demo", description=__doc__.splitlines()[0],
                                     epilog=f"after it: {installed_command('quoridor-replay')} "
                                            "replays/<tournament>/<game>.csv")
    parser.add_argument("--bots", default=",".join(DEFAULT_BOTS),
                        help=f"comma-separated built-in bots (default {','.join(DEFAULT_BOTS)}; "
                             f"choose from {', '.join(BOTS)})")
    parser.add_argument("-r", "--rounds", type=int, default=2, help="games per pairing (default 2)")
    parser.add_argument("--data-dir", type=Path, default=Path("replays"), help="where logs go (default replays/)")
    parser.add_argument("--view", choices=["auto", "live", "plain"], default="auto", help="server view (default auto)")
    parser.add_argument("--timeout", type=float, default=600, help="give up after this many seconds (default 600)")
    args = parser.parse_args(argv)
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    unknown = [b for b in bots if b not in BOTS]
    if unknown or len(bots) < 2:
        parser.error(f"--bots needs two or more of {', '.join(BOTS)}; got {args.bots!r}")
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    port = free_port()
    name = datetime.now().strftime("demo-%Y%m%d-%H%M%S")
    folder = args.data_dir / name
    server = subprocess.Popen([sys.executable, "-m", "server", "-p", str(port), "-n", str(len(bots)),
                               "-r", str(args.rounds), "--data-dir", str(args.data_dir), "--name", name,
                               "--view", args.view, "--seed", "2026"])
    clients = []
    client_log = args.data_dir / f"{name}-clients.log"
    args.data_dir.mkdir(parents=True, exist_ok=True)
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
    games = sorted(p for p in folder.glob("*.csv") if p.name != "results.csv")
    if code == 0 and games:
        print(f"\n{len(games)} game logs in {folder}/ (bot output: {client_log})")
        print(f"replay a game:  {installed_command('quoridor-replay')} {games[0]}")
    elif code != 0:
        print(f"quoridor-demo: the server stopped with exit code {code}; bot output is in {client_log}",
              file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())

"""``quoridor-server``: the command line of the referee server (short flags as the course's Java server)."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
from collections.abc import Sequence
from pathlib import Path

from pydantic import ValidationError
from rich.console import Console

from shared.quoridor import RULESETS

from .app import ArenaServer
from .live import LiveReporter, PlainReporter
from .settings import ServerSettings
from .store import StoreError

__all__ = ["main", "build_parser", "settings_from_args", "read_roster"]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (also used by the docker-compose test to check option names)."""
    p = argparse.ArgumentParser(
        prog="quoridor-server",
        description="Quoridor Arena referee server: waits for N players over websockets, runs the tournament, "
                    "shows it live, writes every game's log and the results.",
        epilog="example: quoridor-server -p 19330 -n 4 -r 2   (4 players, round-robin, 2 games per pairing)")
    p.add_argument("-p", "--port", type=int, default=19330, help="port to listen on (default 19330; 0 = any free)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; 0.0.0.0 = all)")
    p.add_argument("-n", "--players", type=int, default=2, help="players to wait for (default 2 = a single match)")
    p.add_argument("-r", "--rounds", type=int, default=1, dest="games_per_pairing", metavar="R",
                   help="games per pairing, seats alternating (default 1)")
    p.add_argument("-f", "--format", choices=["round-robin", "knockout"], default="round-robin",
                   help="tournament format (default round-robin)")
    p.add_argument("--ruleset", choices=sorted(RULESETS), default="course",
                   help="course (default: no diagonals, crossing walls) or standard (board-game rules)")
    p.add_argument("-t", "--time-limit", type=int, default=1000, dest="time_limit_ms", metavar="MS",
                   help="thinking time limit per step in milliseconds (default 1000)")
    p.add_argument("-d", "--debug", action="store_true", help="debugging server: no time limit, every frame logged")
    p.add_argument("--kick-after-timeouts", type=int, metavar="N",
                   help="remove a bot after N timeouts in the contest; its remaining games are forfeits (off)")
    p.add_argument("--step-cap", type=int, default=100, metavar="N", help="steps per player per game (default 100)")
    p.add_argument("-c", "--concurrency", type=int, metavar="N",
                   help="games at once (default: every game of a round)")
    p.add_argument("--data-dir", type=Path, default=Path("replays"),
                   help="where logs, results and the database go (default replays/)")
    p.add_argument("--roster", type=Path, metavar="FILE",
                   help="key -> player name file (JSON object, or 'key name' lines); only listed keys may play")
    p.add_argument("--resume", action="store_true",
                   help="continue the unfinished tournament in --data-dir instead of starting a new one")
    p.add_argument("--seed", type=int, help="seed for pairings (default: random, stored for --resume)")
    p.add_argument("--name", dest="tournament_name", help="tournament name (default tournament-<date>-<time>)")
    p.add_argument("--rejoin-wait", type=float, default=30.0, dest="rejoin_wait_s", metavar="S",
                   help="seconds a game waits for an absent player before it is forfeited (default 30)")
    p.add_argument("--view", choices=["auto", "live", "plain"], default="auto",
                   help="live dashboard, plain lines, or auto (live on a terminal)")
    return p


def read_roster(path: Path) -> dict[str, str]:
    """Read a roster: a JSON object ``{"key": "name"}`` or lines ``key name`` (``#`` comments)."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise ValueError(f"cannot read roster {path}: {exc.strerror}") from None
    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"roster {path} is not valid JSON: {exc.msg} at line {exc.lineno}") from None
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
            raise ValueError(f"roster {path}: every key and name must be a string")
        return dict(data)
    roster: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.replace(",", " ").split(None, 1)
        if len(parts) != 2:
            raise ValueError(f"roster {path} line {number}: expected 'KEY NAME', got {line!r}")
        if parts[0] in roster:
            raise ValueError(f"roster {path} line {number}: key {parts[0]!r} is listed twice")
        roster[parts[0]] = parts[1].strip()
    if not roster:
        raise ValueError(f"roster {path} lists no players")
    return roster


def settings_from_args(args: argparse.Namespace) -> ServerSettings:
    """Validated settings from parsed arguments; ``ValueError`` says which option is wrong."""
    values = {k: v for k, v in vars(args).items() if k not in ("view", "roster") and v is not None}
    if args.roster is not None:
        values["roster"] = read_roster(args.roster)
    try:
        return ServerSettings(**values)
    except ValidationError as exc:
        problems = "; ".join(f"--{'-'.join(str(p) for p in e['loc']).replace('_', '-')}: {e['msg']}"
                             for e in exc.errors())
        raise ValueError(problems) from None


async def _run(settings: ServerSettings, reporter: object) -> int:
    server = ArenaServer(settings, reporter)  # type: ignore[arg-type]
    try:
        await server.start()
        await server.run_tournament()
    finally:
        if isinstance(reporter, LiveReporter):
            reporter.stop()
        await server.close()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the server; returns the exit code (2 for bad options, 1 for a failure it can explain)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        settings = settings_from_args(args)
    except ValueError as exc:
        parser.error(str(exc))
    console = Console()
    live = args.view == "live" or (args.view == "auto" and console.is_terminal)
    reporter = LiveReporter(console) if live else PlainReporter(sys.stdout)
    logging.basicConfig(level=logging.INFO if settings.debug else logging.WARNING,
                        format="%(asctime)s %(levelname)s %(message)s")
    try:
        return asyncio.run(_run(settings, reporter))
    except KeyboardInterrupt:
        print("interrupted: finished games are saved; start again with --resume to continue", file=sys.stderr)
        return 130
    except (ValueError, StoreError) as exc:
        print(f"quoridor-server: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"quoridor-server: cannot listen on {settings.host}:{settings.port}: {exc.strerror or exc}",
              file=sys.stderr)
        return 1

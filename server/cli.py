"""``quoridor-server``: the command line of the referee server (short flags as the course's Java server)."""

from __future__ import annotations

import argparse
import asyncio
import errno
import logging
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from rich.console import Console

from shared.cli import DeprecatedAlias, deprecation_notes
from shared.quoridor import RULESETS

from server.net import eventloop
from server.app import ArenaServer, Stage
from server.views.dashboard import LiveReporter, PlainReporter
from server.logs.logfile import out_of_descriptors
from server.seats.roster import Roster, parse_roster
from server.sandbox.buildcache import DEFAULT_KEEP
from server.sandbox.limits import SandboxLimits
from server.settings import ServerSettings
from server.tournament.store import StoreError

__all__ = ["main", "build_parser", "settings_from_args", "load_roster", "read_roster", "interrupted_message",
           "export_grades"]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (also used by the docker-compose test to check option names)."""
    p = argparse.ArgumentParser(
        prog="quoridor-server",
        description="Quoridor Arena referee server: waits for N players over websockets, runs the tournament, "
                    "shows it live, writes every game's log and the results. The puzzle rooms (sokoban, ice, "
                    "circuit) are served on the same port while it runs.",
        epilog="example: quoridor-server -p 19330 -n 4 -r 2   (4 players, round-robin, 2 games per pairing). "
               "-n and -c mean other things to quoridor-client (its display name, its config file).")
    p.add_argument("-p", "--port", type=int, default=19330, help="port to listen on (default 19330; 0 = any free)")
    p.add_argument("--legacy-port", type=int, metavar="PORT",
                   help="also listen on this TCP port for the course's C++ clients, unchanged (the old binary "
                        "protocol; off unless given; 0 = any free)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; 0.0.0.0 = all)")
    p.add_argument("-n", "--players", type=int, default=2, help="players to wait for (default 2 = a single match; 0 = no tournament, "
                        "serve only the puzzle rooms until stopped). On quoridor-client, -n is the display name")
    p.add_argument("-r", "--games-per-pairing", type=int, dest="games_per_pairing", metavar="R",
                   help="games per pairing, seats alternating (default 1; a final: 2); not rounds: a tournament's rounds (the r1, "
                        "r2 of game ids) follow from the players")
    p.add_argument("--rounds", action=DeprecatedAlias, type=int, dest="games_per_pairing",
                   instead="-r or --games-per-pairing", why="it means games per pairing, not rounds")
    p.add_argument("-f", "--format", choices=["round-robin", "knockout", "swiss", "final"], default=None,
                   help="tournament format (default round-robin); swiss: rounds of players with equal scores, "
                        "no pair twice, a bye worth a won pairing, ties broken by Buchholz then Sonneborn-Berger; "
                        "final: see --final")
    final = p.add_argument_group("a final that settles (--final)")
    final.add_argument("--final", action="store_true", default=None,
                       help="play a final: hand-ins freeze (--freeze-at), each key's newest accepted handed-in bot "
                            "takes a seat (as --players-from-submissions; connected bots take the rest), and every "
                            "pair plays -r games (default 2, colours swapped) from a seeded opening of "
                            "--opening-plies pawn moves, round after round, until every pair of neighbours in the "
                            "Bradley-Terry order is separated at 95%% overall, or the budget ends; the table ranks "
                            "by rating with intervals, a rank is 1 + the bots shown better (-f final: the same "
                            "format, seating only the roster's hand-ins)")
    final.add_argument("--final-games", type=int, dest="final_games", metavar="N",
                       help="the final's game budget: no round starts that would pass it (default 20 rounds' worth: "
                            "20 x pairs x -r; 1,120 games for 8 players); each look at the table is made at "
                            "1 - 5%%/R confidence, R the rounds the budget allows, so looking after every round "
                            "keeps the final's error at 5%%")
    final.add_argument("--freeze-at", dest="freeze_at", metavar="TIME",
                       help="when hand-ins freeze: an ISO time, UTC unless it names an offset (2026-11-28T09:00 or "
                            "2026-11-28T10:00+01:00); the server waits until then, then seats each key's newest "
                            "version accepted and handed in at or before it (default: at the start); --resume "
                            "seats the same versions")
    p.add_argument("--swiss-rounds", type=int, dest="swiss_rounds", metavar="N",
                   help="rounds of a Swiss (-f swiss; default ceil(log2(players)) + 1, at most players - 1)")
    p.add_argument("--ruleset", choices=sorted(RULESETS),
                   help="course (default: no diagonals, crossing walls) or standard (board-game rules)")
    p.add_argument("-t", "--time-limit", type=int, dest="time_limit_ms", metavar="MS",
                   help="thinking time limit per step in milliseconds (default 1000)")
    p.add_argument("--hosted-clock", choices=["wall", "cpu"], dest="hosted_clock",
                   help="what a handed-in (hosted) bot's step is judged by: wall (default, the course's clock) or "
                        "cpu (the CPU time all its processes used, so a busy host costs it nothing; with a "
                        "wall-time cap, --hosted-wall-cap)")
    p.add_argument("--hosted-wall-cap", type=int, dest="hosted_wall_cap_ms", metavar="MS",
                   help="with --hosted-clock cpu: the wall time a hosted bot's turn may take at most "
                        "(default 3 times what the turn allows)")
    p.add_argument("--time-bank", type=_bank_ms, dest="time_bank_ms", metavar="S",
                   help="keep each player's unused thinking time for its later steps, up to S seconds (default 0: "
                        "none); a step may take the limit plus its bank")
    p.add_argument("-d", "--debug", action="store_true", help="debugging server: no time limit, every frame logged")
    p.add_argument("--kick-after-timeouts", type=int, metavar="N",
                   help="remove a bot after N timeouts in the contest; its remaining games are forfeits (off)")
    p.add_argument("--step-cap", type=int, metavar="N", help="steps per player per game (default 100)")
    p.add_argument("-c", "--concurrency", type=int, metavar="N",
                   help="games at once (default: every game of a round). On quoridor-client, -c is the config file")
    p.add_argument("--data-dir", type=Path, default=Path("replays"),
                   help="where logs, results, the databases and handed-in bots go (default replays/)")
    p.add_argument("--roster", type=Path, metavar="FILE",
                   help="key -> player name file (JSON object, or 'key name' lines where a line starting "
                        "with # is a comment); only listed keys may play. A line 'key name submission' seats that "
                        "key's newest accepted handed-in bot, 'key name submission:VERSION' that version (JSON: "
                        "{\"key\": {\"name\": \"name\", \"submission\": true or \"VERSION\"}}); the other keys connect")
    p.add_argument("--organiser-key", action="append", dest="organiser_keys", metavar="KEY",
                   help="a key that opens the organiser's page (/organiser: every key's versions, games, violations, "
                        "pauses; typed into the page, never in a URL); a roster line 'KEY NAME organiser' is the "
                        "same and keeps the key out of the process list")
    p.add_argument("--resume", action="store_true",
                   help="continue the unfinished tournament in --data-dir instead of starting a new one")
    p.add_argument("--seed", type=int, help="seed for pairings (default: random, stored for --resume)")
    p.add_argument("--seed-from-ladder", action="store_true", default=None, dest="seed_from_ladder",
                   help="-f swiss or -f knockout: pairing numbers from the practice ladder's published ratings in "
                        "DATA_DIR/ladder.db, not a shuffle (a knockout: the standard bracket, 1 v N, byes to the top "
                        "seeds; a Swiss: round 1 top half v bottom half); unrated players after the rated ones in a "
                        "seeded order; stored for --resume")
    p.add_argument("--name", dest="tournament_name", help="tournament name (default tournament-<date>-<time>); with "
                   "--export: the tournament whose grades to write (default the newest finished one)")
    p.add_argument("--rejoin-wait", type=float, default=30.0, dest="rejoin_wait_s", metavar="S",
                   help="seconds a game waits for an absent player before it is forfeited (default 30)")
    ladder = p.add_argument_group("the practice ladder (--ladder)")
    ladder.add_argument("--ladder", action="store_true", default=None,
                        help="run the always-on practice ladder instead of a tournament: bots connect any time, get "
                             "paired, and keep openskill ratings in DATA_DIR/ladder.db across restarts")
    ladder.add_argument("--resident", action="append", dest="ladder_residents", metavar="BOT",
                        help="seat a built-in bot (random, runner, defender, strong, blocker) as a permanent "
                             "resident; repeat for more")
    ladder.add_argument("--pause-after", type=int, dest="ladder_pause_after", metavar="N",
                        help="pause a bot after N games in a row with a violation or a timeout (default 5; 0 never)")
    ladder.add_argument("--pair-cap", type=int, dest="ladder_pair_games_per_hour", metavar="N",
                        help="games one pair may play in any hour (default 8)")
    ladder.add_argument("--opening-plies", type=int, dest="ladder_opening_plies", metavar="N",
                        help="random pawn moves each pairing's games start from, on the ladder and in a final "
                             "(default 4)")
    ladder.add_argument("--refit", type=float, dest="ladder_refit_s", metavar="S",
                        help="seconds between refits of the published Bradley-Terry table (default 60)")
    ladder.add_argument("--report", metavar="BOT",
                        help="print the ladder report of BOT (every version; or BOT@VERSION) from DATA_DIR/ladder.db "
                             "and exit; 'table' prints the published table")
    ladder.add_argument("--json", type=Path, dest="report_json", metavar="FILE",
                        help="with --report: also write the report as JSON to FILE; with --export: also write the "
                             "grades as JSON to FILE, each row with its Gradescope leaderboard")
    ladder.add_argument("--analyse", "--analyze", action="store_true", dest="report_analyse",
                        help="with --report: also analyse the games not analysed yet (about a second a game; the "
                             "report shows the analyses kept beside the logs without it)")
    grades = p.add_argument_group("grades out (--export)")
    grades.add_argument("--export", type=Path, dest="export_grades", metavar="FILE",
                        help="write the grades of the newest finished tournament in DATA_DIR (--name: that one) as "
                             "CSV to FILE ('-': to the output) and exit: per player its key, name, rank, points, "
                             "rating and interval, games, wins, violations by cause, timeouts, and the handed-in "
                             "version that played with when it was handed in and validated")
    handed_in = p.add_argument_group("bots handed in as files (quoridor-submit)")
    handed_in.add_argument("--max-submission-bytes", type=int, dest="max_submission_bytes", metavar="BYTES",
                           help="largest zip archive a bot may be handed in as (default 1048576 = 1 MiB; the files "
                                "go to DATA_DIR/submissions/, the versions to DATA_DIR/submissions.db)")
    handed_in.add_argument("--players-from-submissions", action="store_true", default=None,
                           help="seat the newest accepted handed-in bot of each key (of the roster, if any) in the "
                                "tournament (a fresh sandboxed process for each pairing); connected bots take the "
                                "seats left (-n counts all)")
    handed_in.add_argument("--queue", metavar="URL",
                           help="play games of handed-in bots (and the ladder's residents) on worker machines "
                                "(quoridor-worker --queue URL) "
                                "through the job engine at URL, redis://HOST:PORT/N (docs/queue.md); "
                                "default: on this machine")
    analysis = p.add_argument_group("every game analysed (the game page's evaluation graph, quoridor-replay --analyse)")
    analysis.add_argument("--analysis", choices=["off", "local", "queue"], default="local",
                          help="local (default): analyse each finished game in one background process at the lowest "
                               "CPU priority, kept beside its log as LOG.analysis.json (live games go first: it "
                               "uses only CPU nothing else wants); queue: the workers of --queue analyse them (one "
                               "at a time each, at their lowest priority, beside their pairings); off: analyse "
                               "nothing (analyses already kept are still shown)")
    analysis.add_argument("--analysis-nodes", type=int, dest="analysis_nodes", metavar="N",
                          help="nodes the engine searches a position (default: the engine's; more is slower and "
                               "stronger; a stored analysis of another N is done again)")
    p.add_argument("--allow-origin", action="append", dest="allowed_origins", metavar="ORIGIN",
                   help="let web pages of ORIGIN (scheme://host[:port]) open websockets here, as the server's own "
                   "pages may (repeatable); pages of any other site are refused, bots are never affected")
    handed_in.add_argument("--cpp-builds", type=Path, dest="cpp_builds", metavar="DIR",
                           help="where the C++ builds of handed-in bots are cached, by the hash of their files and "
                                "the compiler's version (default DATA_DIR/cpp-builds)")
    handed_in.add_argument("--cpp-builds-keep", type=int, dest="cpp_builds_keep", metavar="N",
                           help=f"C++ builds the cache keeps, the most recently used (about 240 KB each; default "
                                f"{DEFAULT_KEEP}): older ones are removed after a new build, never one a bot runs")
    p.add_argument("--unsafe-no-sandbox", action="store_true", dest="unsafe_no_sandbox",
                   help="run handed-in bots WITHOUT bubblewrap, under rlimits only (they can reach the network and "
                        "read what the server can): only where bubblewrap cannot work, on a machine of no value")
    p.add_argument("--sandbox-self-test", action="store_true", dest="sandbox_self_test",
                   help="check this machine's sandbox and exit: hostile probes (network, the host's files, a fork "
                        "bomb, threads between turns, ptrace, user namespaces, the environment, /proc/1/cmdline) "
                        "play one short game in it with the sandbox's limits, a line each says contained or NOT "
                        "contained; exit code 0 only when all are contained")
    p.add_argument("--view", choices=["auto", "live", "plain"], default="auto",
                   help="live dashboard, plain lines, or auto (live on a terminal)")
    return p


def _bank_ms(text: str) -> int:
    """``--time-bank S``: seconds (0 or more) as whole milliseconds."""
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 <= seconds <= 3600:
        raise argparse.ArgumentTypeError(f"the time bank must be 0 to 3600 seconds, got {text}")
    return round(seconds * 1000)


def load_roster(path: Path) -> Roster:
    """Read the roster file ``path`` (``parse_roster``); ``ValueError`` when it cannot be read or is wrong."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise ValueError(f"cannot read roster {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ValueError(f"roster {path} is not utf-8 text") from None
    return parse_roster(text, str(path))


def read_roster(path: Path) -> dict[str, str]:
    """The key -> player name map of the roster file ``path`` (``load_roster``)."""
    return load_roster(path).names


def settings_from_args(args: argparse.Namespace) -> ServerSettings:
    """Validated settings from parsed arguments; ``ValueError`` says which option is wrong."""
    values = {k: v for k, v in vars(args).items()
              if k not in ("view", "roster", "report", "report_json", "report_analyse", "export_grades", "unsafe_no_sandbox",
                                        "sandbox_self_test", "final") and v is not None}
    if getattr(args, "final", None):
        if values.get("format", "final") != "final":
            raise ValueError(f"--final is the format final; drop -f {values['format']}")
        values["format"] = "final"
        if not values.get("resume"):        # a resumed final seats its own bots again
            values["players_from_submissions"] = True
    if getattr(args, "unsafe_no_sandbox", False):
        values["sandbox"] = SandboxLimits(unsafe=True)
    if args.roster is not None:
        roster = load_roster(args.roster)
        values["roster"] = roster.names
        if roster.organisers:
            values["organiser_keys"] = [*values.get("organiser_keys", []), *roster.organisers]
        if roster.submissions:
            values["roster_submissions"] = roster.submissions
    try:
        return ServerSettings(**values)
    except ValidationError as exc:
        raise ValueError("; ".join(_problem(e) for e in exc.errors())) from None


def _problem(error: Any) -> str:
    """One validation error as the option it concerns (as typed, not the setting's name) and what is wrong."""
    message = str(error["msg"]).removeprefix("Value error, ")
    if not error["loc"]:            # a check across options (the roster against -n, ...)
        return message
    # argparse has no public list of its actions; _actions is stable since Python 3.2.
    options = {action.dest: max(action.option_strings, key=len)
               for action in build_parser()._actions if action.option_strings and action.help != argparse.SUPPRESS}
    field = str(error["loc"][0])
    name = options.get(field, "--" + field.replace("_", "-"))
    return f"{name}: {message}"


def export_grades(data_dir: Path, csv_path: Path, json_path: Path | None, name: str | None) -> int:
    """``--export``: write the grades of a finished tournament in ``data_dir`` (``server.tournament.grades``) and say
    where; 0, or 1 with one line saying why there is nothing to write."""
    from server.tournament.grades import grades_csv, read_grades, write_grades    # only here: no server needed
    to_output = str(csv_path) == "-"
    try:
        grades = read_grades(data_dir, name)
        write_grades(grades, None if to_output else csv_path, json_path)
    except ValueError as exc:
        print(f"quoridor-server: {exc}", file=sys.stderr)
        return 1
    if to_output:
        sys.stdout.write(grades_csv(grades.rows))
    for note in grades.notes:
        print(f"note: {note}", file=sys.stderr)
    t, written = grades.tournament, [str(p) for p in (None if to_output else csv_path, json_path) if p is not None]
    games = sum(row.games for row in grades.rows) // 2
    if written:
        print(f"the grades of {t.name} ({t.format}, {len(grades.rows)} players, {games:,} games, finished "
              f"{t.finished_at}) are in {' and '.join(written)}", file=sys.stderr if to_output else sys.stdout)
    return 0


class _Interrupted(Exception):
    """Ctrl-C stopped the server; raised in place of the cancellation once everything is closed, with what to say."""


def interrupted_message(stage: Stage, *, resume: bool, puzzles_only: bool, folder: Path, ladder: bool = False) -> str:
    """What a server stopped by Ctrl-C at ``stage`` tells the organiser: what is saved, and whether --resume applies."""
    if puzzles_only:
        return "stopped: the puzzle leaderboards are saved"
    if ladder:
        return "stopped the ladder: every finished game and rating is saved; start it again to continue"
    if stage is Stage.FINISHED:
        return f"stopped after the tournament finished: its results are in {folder}/; there is nothing to resume"
    if stage is Stage.PLAYING:
        return "interrupted: finished games are saved; start again with --resume to continue"
    if resume:      # stopped while the stored tournament was being looked up
        return "interrupted before the tournament resumed: nothing new was played; start again with --resume"
    return ("interrupted while waiting for players: no game was played, so there is nothing to resume; "
            "start the server again as before")


async def _run(settings: ServerSettings, reporter: object) -> int:
    server = ArenaServer(settings, reporter)  # type: ignore[arg-type]
    try:
        await server.start()
        if settings.puzzles_only:
            await server.serve_forever()
        elif settings.ladder:
            await server.run_ladder()
        else:
            await server.run_tournament()
            await server.analyse_the_rest()
    except asyncio.CancelledError:
        # Ctrl-C: asyncio cancels this task and would raise a bare KeyboardInterrupt in main(), which
        # cannot tell waiting from playing; how far the server got is known here (said after the finally).
        raise _Interrupted(interrupted_message(server.stage, resume=settings.resume, puzzles_only=settings.puzzles_only,
                                               folder=server.folder or settings.data_dir,
                                               ladder=settings.ladder)) from None
    finally:
        if isinstance(reporter, LiveReporter):
            reporter.stop()
        await server.close()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the server; returns the exit code (2 for bad options, 1 for a failure it can explain)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    for note in deprecation_notes(args):
        print(note, file=sys.stderr)
    if args.export_grades is not None:     # reads DATA_DIR only: no other option needs to be valid
        return export_grades(args.data_dir, args.export_grades, args.report_json, args.tournament_name)
    try:
        settings = settings_from_args(args)
    except ValueError as exc:
        parser.error(str(exc))
    if settings.seed_from_ladder and not settings.resume:
        from server.ladder.seeding import check_ladder_file     # only here: a file to find before anyone waits
        try:
            check_ladder_file(settings.data_dir)
        except ValueError as exc:
            print(f"quoridor-server: {exc}", file=sys.stderr)
            return 1
    if args.sandbox_self_test:
        from server.sandbox.selftest import self_test_main     # only here: the self-test needs no server
        return self_test_main(settings.sandbox, program="quoridor-server", data_dir=settings.data_dir)
    console = Console()
    if args.report is not None:
        from server.ladder.report import print_report    # only here: the report needs no server
        try:
            return print_report(settings, args.report, args.report_json, console, analyse=args.report_analyse)
        except ValueError as exc:
            print(f"quoridor-server: {exc}", file=sys.stderr)
            return 1
    live = args.view == "live" or (args.view == "auto" and console.is_terminal)
    reporter = LiveReporter(console) if live else PlainReporter(sys.stdout)
    logging.basicConfig(level=logging.INFO if settings.debug else logging.WARNING,
                        format="%(asctime)s %(levelname)s %(message)s")
    try:
        return eventloop.run(_run(settings, reporter))
    except _Interrupted as stopped:
        print(stopped, file=sys.stderr)
        return 130
    except KeyboardInterrupt:
        # A second Ctrl-C, or one before the server ran or after it closed: how far it got is unknown.
        if settings.puzzles_only:
            print("stopped: the puzzle leaderboards are saved", file=sys.stderr)
        else:
            print("interrupted: games that finished are saved; if the tournament had started, start again with "
                  "--resume to continue it", file=sys.stderr)
        return 130
    except (ValueError, StoreError) as exc:
        print(f"quoridor-server: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        # Not a failure to listen: ArenaServer.start reports those (a ValueError naming the address).
        print(f"quoridor-server: {_os_error(exc, settings.puzzles_only, settings.data_dir)}", file=sys.stderr)
        return 1


def _os_error(exc: OSError, puzzles_only: bool, data_dir: Path) -> str:
    """What the system refused the running server, said plainly (and what ran out, if that was it)."""
    text = str(exc)
    if exc.errno == errno.ENOSPC:       # which write does not matter: where, and what to do
        text = f"the disk holding {exc.filename or data_dir} is full ({exc.strerror}); free space on it"
    what = out_of_descriptors(exc)
    if what is not None and not text.startswith(what):
        text = f"{what}: {text}"
    if what is not None:
        text += "; raise the limit (ulimit -n) or play fewer games at once (-c)"
    if not puzzles_only:
        text += "; finished games are saved: start again with --resume to continue"
    return text

"""A server in miniature for the fault tests: a round-robin of hosted bots played by workers, recorded in the
results store, resumable (run it again: finished games are kept, the others are asked for again).

``run_cup`` is what a tournament with ``--queue`` does with its pairings: each pairing of unfinished games goes
to ``QueueGameHost.play``, each game it returns is recorded with ``Results.record_result`` (and a line
``recorded GAME`` in ``recorded.txt``). Run as a script (``python -m tests.server.queue.cup``), it is a server
process a test can kill with SIGKILL and start again; ``--hold-after N`` makes it record N whole pairings and
then record nothing more (pairings finish on the workers meanwhile), so a kill never falls between two games of
one pairing being recorded (the resumed server would then ask for the rest as another job).
"""

from __future__ import annotations

import argparse
import asyncio
import os
from collections import defaultdict
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from server.queue.host import QueueGameHost, QueueSettings
from server.tournament.results import Results
from server.sandbox import BotEntry, GameSpec, Pairing, SandboxLimits
from shared.referee import RefereeSettings
from shared.tournament import GameResult, round_robin

LIMITS = SandboxLimits(startup_timeout_s=10.0, cpu_seconds=60)
REFEREE = RefereeSettings(time_limit_ms=2000, step_cap=40)


def _note(data: Path, line: str) -> None:
    with open(data / "recorded.txt", "a", encoding="utf-8") as out:
        out.write(line + "\n")
        out.flush()
        os.fsync(out.fileno())


async def run_cup(url: str, data: Path, bots: Mapping[str, Path | None], *, heartbeat_s: int = 2,
                  on_step: Callable[[Any, Any], None] | None = None,
                  on_restart: Callable[[str, int], None] | None = None, hold_after: int | None = None) -> int:
    """Play (or go on playing) the cup of ``bots`` (name -> folder of a handed-in ``bot.py``, or None: built-in);
    returns the tournament's id once every game is recorded."""
    data.mkdir(parents=True, exist_ok=True)
    names = list(bots)
    async with await Results.open(data / "arena.db") as results:
        row = await results.latest_unfinished()
        if row is None:
            tid = await results.create_tournament("cup", "round-robin", 2, 1, names, {})
            await results.schedule(tid, [game for games in round_robin(names, 2, 1) for game in games])
        else:
            tid = row.id
            await results.reset_unfinished(tid)
        groups: dict[tuple[int, int], list[Any]] = defaultdict(list)
        for game in await results.games(tid):
            if game.status != "finished":
                groups[game.round, game.pairing].append(game)
        host = QueueGameHost(url, LIMITS, settings=QueueSettings(heartbeat_s=heartbeat_s, poll_s=1.0),
                             on_restart=on_restart)

        recording = asyncio.Lock()          # one pairing's games recorded at a time
        held = [0]

        def entry(name: str) -> BotEntry:
            folder = bots[name]
            return BotEntry(name, "bot.py" if folder is not None else name, folder)

        async def play(games: list[Any]) -> None:
            first = games[0]
            pair = (entry(first.white), entry(first.black))
            specs = {}
            for game in games:
                game_id = f"t{tid}-r{game.round + 1}-p{game.pairing + 1}-g{game.game_in_pairing + 1}"
                white = 0 if game.white == first.white else 1
                specs[game_id] = (game, GameSpec(game_id, data / f"{game_id}.csv", white))
            pairing = Pairing(pair, tuple(spec for _, spec in specs.values()), REFEREE, tournament="cup")
            result = await host.play(pairing, on_step=on_step)
            async with recording:
                if hold_after is not None and held[0] >= hold_after:
                    await asyncio.Event().wait()        # recorded enough: wait for the kill
                await record(result, specs)
                held[0] += 1

        async def record(result: Any, specs: dict[str, Any]) -> None:
            for match in result.games:
                game = specs[match.game_id][0]
                outcome = match.outcome
                await results.record_result(
                    tid, (game.round, game.pairing, game.game_in_pairing),
                    GameResult(game.white, game.black, outcome.winner, outcome.reason, outcome.thinking_ms,
                               outcome.violations),
                    log_path=str(match.log_path), game_id=match.game_id, started_at=match.started_at,
                    ended_at=match.ended_at, steps=match.steps)
                _note(data, f"recorded {match.game_id}")

        try:
            await asyncio.gather(*(play(sorted(g, key=lambda x: x.game_in_pairing)) for g in groups.values()))
        finally:
            await host.close()
        await results.finish_tournament(tid, [])
    return tid


def main() -> None:
    """``python -m tests.server.queue.cup URL DATA NAME=FOLDER...`` (``NAME=`` alone: a built-in bot)."""
    p = argparse.ArgumentParser()
    p.add_argument("url")
    p.add_argument("data", type=Path)
    p.add_argument("bots", nargs="+")
    p.add_argument("--hold-after", type=int, default=None)
    args = p.parse_args()
    bots = {name: (Path(folder) if folder else None) for name, _, folder in (b.partition("=") for b in args.bots)}
    asyncio.run(run_cup(args.url, args.data, bots, hold_after=args.hold_after))
    _note(args.data, "done")


if __name__ == "__main__":
    main()

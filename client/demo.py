"""``quoridor-demo``: a short game between two simple bots on the rules core, drawn in colour."""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence

from rich.console import Console

from shared.quoridor import RULESETS, Position, Step, find_ruleset, step_name

from .render import render_board

__all__ = ["main", "choose_step"]


def choose_step(pos: Position, rng: random.Random) -> Step:
    """A simple demo policy: usually walk a shortest path, sometimes slow the opponent with a wall."""
    me, them = pos.turn, 1 - pos.turn
    if pos.walls_left[me] and rng.random() < 0.3:
        best, gain = None, 0
        before = pos.distance(them) or 0
        for wall in rng.sample(pos.legal_walls(), k=min(24, len(pos.legal_walls()))):
            after = pos.apply(Step(new_wall=wall)).distance(them) or 0
            if after - before > gain:
                best, gain = wall, after - before
        if best is not None:
            return Step(new_wall=best)
    path = pos.shortest_path(me)
    moves = pos.legal_moves()
    if path and len(path) > 1 and path[1] in moves:
        return Step(path[1])
    return Step(min(moves, key=lambda loc: abs(loc.y - (9 if me == 0 else 1))))


def main(argv: Sequence[str] | None = None) -> int:
    """Play and draw one demo game; returns the process exit code."""
    parser = argparse.ArgumentParser(prog="quoridor-demo", description=__doc__)
    parser.add_argument("--seed", type=int, default=7, help="random seed (default: 7)")
    parser.add_argument("--ruleset", default="course", choices=sorted(RULESETS), help="rules to play by")
    parser.add_argument("--every", type=int, default=10, metavar="N",
                        help="draw the board every N steps (default: 10; 0 = only the end)")
    args = parser.parse_args(argv)
    if args.every < 0:
        parser.error("--every must be 0 or more")
    console = Console()
    rng = random.Random(args.seed)
    pos = Position.initial(find_ruleset(args.ruleset))
    console.rule(f"[bold]Quoridor Arena demo[/] · {args.ruleset} rules · seed {args.seed}")
    moves: list[str] = []
    for number in range(1, 201):
        step = choose_step(pos, rng)
        moves.append(step_name(step))
        pos = pos.play(step)
        if pos.is_over() or (args.every and number % args.every == 0):
            console.print(f"[bold]after step {number}[/]: … {' '.join(moves[-args.every or None:])}")
            console.print(render_board(pos))
        if pos.is_over():
            break
    winner = pos.winner()
    console.print(f"[bold green]player {winner} wins[/] after {len(moves)} steps"
                  if winner is not None else "[bold]no winner within 200 steps[/]")
    return 0


if __name__ == "__main__":
    sys.exit(main())

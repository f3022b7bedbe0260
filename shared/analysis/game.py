"""``analyse_game``: every step of a game log judged by the engine on a fixed node budget.

For each row of the log (``shared.gamelog.replay``: ours, the old server's and the old client's), the
position before it is searched for the engine's best step and value (``shared.engine.Searcher`` with a
fresh table and ``nodes`` nodes: deterministic), and the position after it is searched to the same depth
on the same table (``Searcher.score_child``, again at most ``nodes`` nodes a depth tried), from the
opponent's side, negated: the mover's value after the step, comparable with the best step's. Searched
apart, at the same budget, the two would often end on leaves of different parity, and the side to
move's tempo (half a step) would make every step but the engine's own look like a loss. Values become
winning chances (``win_chance``); the drop is the chance lost by the played step (0 when it is the
engine's best), labelled by Lichess's thresholds.

Accuracy (per player) is Lichess's move accuracy on the win-percentage drop (``drop%`` = 50 x drop, the
drop on Lichess's 0..100 win-percentage scale): ``103.1668 * exp(-0.04354 * drop%) - 3.1669``, clamped to
0..100 and rounded to 0.1 (a step as good as the engine's scores 100), averaged over the player's steps
with a plain mean (Lichess weighs its mean by the game's volatility and mixes in a harmonic mean; a plain
mean is the documented variant here). A player without a step scores 100.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable

from shared.engine import MATE_BOUND, WIN, Searcher
from shared.gamelog import GameLog, ReplayStep, replay
from shared.quoridor import GameStatus, Position, Step, step_name

from .calibration import CHANCE_SCALE, win_chance
from .model import LABELS, THRESHOLDS, VIOLATION, GameAnalysis, PlayerSummary, PlyAnalysis
from .reasons import step_reason

__all__ = ["DEFAULT_NODES", "ENGINE_VERSION", "analyse_game", "analysis_key", "step_accuracy"]

#: The node budget per position: a game of 60 plies analyses in 1.2 s of CPU on one core (median of 50 games
#: between strong bots and blocker, defender, strong at 20 ms; 2.1 s the slowest), within the 3 s it may take.
DEFAULT_NODES = 500
#: The search and evaluation's revision: raise it when either changes what a search returns.
_SEARCH_REVISION = 2
#: The analysis's version: the search's revision, the default budget and the chance curve's scale; an
#: analysis stored under another version is stale.
ENGINE_VERSION = f"qa-{_SEARCH_REVISION}.n{DEFAULT_NODES}.s{CHANCE_SCALE:g}"
_VIOLATIONS = (GameStatus.TIMEOUT, GameStatus.INVALID_STEP, GameStatus.INSUFFICIENT_BLOCK, GameStatus.RULES_BREAKER)
_DIGITS = 4      # chances and drops are rounded: the JSON form is the same on every machine


def analysis_key(log_bytes: bytes) -> str:
    """The store's key of a log's analysis: the engine's version and the sha256 of the log's bytes."""
    return f"{ENGINE_VERSION}:{hashlib.sha256(log_bytes).hexdigest()}"


def step_accuracy(drop: float) -> float:
    """Lichess's accuracy (0..100) of a step that lost ``drop`` (-1..1 scale) of winning chance."""
    raw = 103.1668 * math.exp(-0.04354 * (50.0 * drop)) - 3.1669
    return min(100.0, max(0.0, raw))


class _Judge:
    """One position searched for its side to move: the engine's best step (``None`` if none) and value.

    ``after(child)``: the mover's value after a step to ``child``, searched on the same table to the depth
    of the best step's value (``Searcher.score_child``), so the two compare.
    """

    def __init__(self, pos: Position, nodes: int) -> None:
        self.pos, self.nodes = pos, nodes
        self.searcher = Searcher()
        winner = pos.winner()
        if winner is not None:
            self.best: Step | None = None
            self.value = WIN if winner == pos.turn else -WIN
            self.depth = 1
            return
        result = self.searcher.search(pos, nodes=nodes)
        self.best, self.value, self.depth = result.step, result.score, self.searcher.score_depth

    def before(self, seat: int) -> int:
        """The value of the position for ``seat`` (the search's value, negated for the other side)."""
        return self.value if self.pos.turn == seat else -self.value

    def after(self, child: Position, seat: int) -> int:
        """The value for ``seat`` of the position ``child`` the row led to."""
        if child.distance(0) is None or child.distance(1) is None:     # only in a row drawn as the log gives it
            return self.before(seat)
        if abs(self.value) > MATE_BOUND:
            # The search stopped at a forced win or loss, often at once, before any depth worth matching:
            # a step beside it is searched on its own (does it keep the win, or let the loss come sooner?).
            value = -Searcher().search(child, nodes=self.nodes).score if child.winner() is None else \
                self.searcher.score_child(child, 1, self.nodes)
        else:
            value = self.searcher.score_child(child, self.depth, self.nodes)
        return value if 1 - child.turn == seat else -value


def _paths(pos: Position) -> tuple[int, int]:
    """Both shortest path lengths; -1 for a pawn cut off (only in a row drawn as the log gives it)."""
    d0, d1 = pos.distance(0), pos.distance(1)
    return (-1 if d0 is None else d0), (-1 if d1 is None else d1)


def _label(drop: float) -> str | None:
    label = None
    for name, threshold in zip(LABELS, THRESHOLDS):
        if drop >= threshold:
            label = name
    return label


def analyse_game(log: GameLog, *, nodes: int = DEFAULT_NODES,
                 progress: Callable[[int, int], None] | None = None) -> GameAnalysis:
    """The analysis of every step row of ``log`` (see the module doc); ``progress(done, total)`` after each row.

    Rows past a disagreement with the rules are analysed as the log draws them; a row that cannot be
    drawn ends the analysis. ``ValueError`` for a budget below one node.
    """
    if nodes < 1:
        raise ValueError(f"the node budget must be at least 1, got {nodes}")
    game = replay(log)
    rows: list[ReplayStep] = [*game.steps, *game.unverified]
    total = len(rows)
    position = Position.initial(game.ruleset)
    plies: list[PlyAnalysis] = []
    for index, row in enumerate(rows):
        plies.append(_ply(index + 1, row, position, _Judge(position, nodes)))
        position = row.position
        if progress is not None:
            progress(index + 1, total)
    names = log.header.players
    players = (_summary(0, names[0], plies), _summary(1, names[1], plies))
    return GameAnalysis(engine=ENGINE_VERSION, nodes=nodes, plies=tuple(plies), players=players)


def _ply(ply: int, row: ReplayStep, before: Position, judge: _Judge) -> PlyAnalysis:
    """One row judged: the chances with the best step and the played one, the label and the reason."""
    seat, record, after = row.seat, row.record, row.position
    violation = record.status in _VIOLATIONS
    applied = not violation and not record.step.is_nan()
    played = step_name(record.step) if applied else ""
    best = judge.best
    chance_before = round(win_chance(judge.before(seat)), _DIGITS)
    if applied and best is not None and step_name(best) == played:
        chance_after = chance_before       # the engine's own step loses nothing, whatever a new search says
    else:
        chance_after = round(win_chance(judge.after(after, seat)), _DIGITS)
    drop = round(max(0.0, chance_before - chance_after), _DIGITS)
    label = VIOLATION if violation else (_label(drop) if applied else None)
    if violation:
        reason: str | None = record.reason or ("the step timed out: the turn passed" if record.status is
                                               GameStatus.TIMEOUT else "an illegal step: the turn passed")
    elif label is not None:
        reason = step_reason(before, record.step, after, best, (chance_before, chance_after))
    else:
        reason = None
    return PlyAnalysis(ply=ply, seat=seat, played=played, best=step_name(best) if best is not None else None,
                       chance_before=chance_before, chance_after=chance_after, drop=drop, label=label,
                       paths_before=_paths(before), paths_after=_paths(after), walls_left=after.walls_left,
                       reason=reason)


def _summary(seat: int, name: str, plies: list[PlyAnalysis]) -> PlayerSummary:
    """One seat's accuracy (the module doc's formula), its counts by label and its three worst steps."""
    own = [p for p in plies if p.seat == seat]
    accuracy = round(sum(step_accuracy(p.drop) for p in own) / len(own), 1) if own else 100.0
    counts = {name_: 0 for name_ in (*LABELS, VIOLATION)}
    for p in own:
        if p.label is not None:
            counts[p.label] += 1
    worst = sorted((p for p in own if p.drop > 0), key=lambda p: (-p.drop, p.ply))[:3]
    return PlayerSummary(seat=seat, name=name, accuracy=accuracy, counts=counts, worst=tuple(p.ply for p in worst))

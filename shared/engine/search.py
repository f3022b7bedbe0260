"""``Searcher``: an alpha-beta search over pawn moves and a pruned set of walls, bounded in nodes and/or time.

Negamax with principal-variation windows, iterative deepening and a transposition table keyed
by the (hashable) ``Position``. The walls searched are only those that lengthen the opponent's
shortest path (``wall_cuts``), best few first by static score; pawn moves are all searched.

A node does only the work its answer needs. A step is scored from the two path lengths after it (one
search out from the goal row gives every pawn move's), and its position is made only when it is
searched. The pawn moves come first: a win in one, or at the last ply a move that already reaches
``beta``, ends the node before any wall is looked at. Below the root the table's step is searched before
the walls are generated, and when it refutes they never are; then the steps that refuted a sibling at
the same ply (killers), then the rest best first.

The budget is a node count, or seconds on an injected clock (``clock``: this package reads no clock of
its own), or both; it is checked at every node: when it is spent the running iteration is abandoned and
the best move of the last completed one is played. A search on a node budget alone is deterministic:
the same position, ``seen`` and table give the same step and score on any machine (the table is a dict
looked up, never iterated, and every list is built in a fixed order).

The table is kept from move to move (``StrongPlayer`` clears it between games). A win or loss in it
is stored as plies from its own position, and is taken only by a node that searches at least that
many plies (``_within``): every win the search reports is then within the depth it searched, the
quickest one there is, so an iteration that finds one may end the search.

A line that comes back to a position the game has been in (``search``'s ``seen``) ends there, at
``-REPETITION`` for the side that searches: going round in circles gains nothing, and a game that
goes round until the step cap is lost by the side that thinks more. The set only grows during a
game, so a score in the table that counted such a line stays right for the rest of it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import NamedTuple

from shared.quoridor import Position, Step
from shared.quoridor.geometry import GOAL_ROWS, MOVE_STEPS

from .evaluation import WIN, distance_from, distances_to_goal, evaluate, score_of, wall_cuts

__all__ = ["MATE_BOUND", "REPETITION", "Searcher", "SearchResult"]

_EXACT, _LOWER, _UPPER = 0, 1, 2
#: What coming back to a position of the game costs the side that searches (two steps below an even
#: game). Scored like any other position, a repeated one is as good as the last time, and a searcher
#: that saw no gain in going on paced between two cells while the other pawn paced too, until the step
#: cap, which goes to the side that thought less: seldom the one that searches.
REPETITION = 200
#: Scores beyond this are wins (or losses) the search found (``WIN`` less the plies to them).
MATE_BOUND = WIN - 1000
_INFINITY = 10 * WIN
_NEVER = float("inf")
_NEVER_NODES = 1 << 62
#: The share of the budget after which no new iteration starts (the next one costs several times the last).
_LATE = 0.3


class SearchResult(NamedTuple):
    """What one search found: the step to play (``None`` when nothing is legal) and how deep it looked."""

    step: Step | None
    score: int          # for the side to move, in evaluation units (100 = one step of path)
    depth: int          # the deepest iteration that completed (0: only the static ordering)
    nodes: int
    elapsed: float      # seconds


class _Timeout(Exception):
    """The budget ran out inside the search."""


class _Child(NamedTuple):
    score: int          # static score for the mover (or a win score)
    step: Step
    child: Position | None   # made when the step is searched (most walls scored are never searched)
    d0: int
    d1: int
    is_wall: bool


class Searcher:
    """Alpha-beta search with a transposition table that persists between calls (``clear`` forgets it)."""

    def __init__(self, wall_limit: int = 6, root_wall_limit: int = 12, max_depth: int = 30,
                 table_limit: int = 300_000, clock: Callable[[], float] | None = None) -> None:
        self.wall_limit = wall_limit
        self.root_wall_limit = root_wall_limit
        self.max_depth = max_depth
        self.table_limit = table_limit
        self.clock = clock
        self.table: dict[Position, tuple[int, int, int, Step | None]] = {}
        #: The positions of the game so far (``search``'s ``seen``) and the side that searches.
        self.seen: Collection[Position] = ()
        self.root_turn = 0
        self.nodes = 0
        #: Per ply, the last two steps that refuted a sibling (searched early: the "killer" heuristic); per search.
        self.killers: list[list[Step]] = [[] for _ in range(max_depth + 2)]
        #: The depth the last ``search``'s score was searched to (its step's line was searched one less below it).
        self.score_depth = 0
        self.deadline = _NEVER
        self.node_limit = _NEVER_NODES

    def _now(self) -> float:
        return 0.0 if self.clock is None else self.clock()

    def clear(self) -> None:
        """Forget the transposition table (a new game)."""
        self.table.clear()

    # -- the root -------------------------------------------------------------------------
    def search(self, pos: Position, budget_s: float | None = None, seen: Collection[Position] = (), *,
               nodes: int | None = None) -> SearchResult:
        """The best step for the side to move found within ``budget_s`` seconds (plus one node's work) and/or ``nodes``.

        Seconds need the searcher's ``clock``; at least one budget must be given (``ValueError`` otherwise).
        ``seen`` holds the positions the game has been in: a line that comes back to one of them scores
        ``-REPETITION`` for the side to move at ``pos``, whoever is to move there.
        """
        if budget_s is None and nodes is None:
            raise ValueError("a search needs a budget: seconds (with a clock), nodes, or both")
        if budget_s is not None and self.clock is None:
            raise ValueError("a budget in seconds needs a clock: Searcher(clock=...)")
        if nodes is not None and nodes < 1:
            raise ValueError(f"a node budget must be positive, got {nodes}")
        start = self._now()
        self.deadline = _NEVER if budget_s is None else start + budget_s
        self.node_limit = _NEVER_NODES if nodes is None else nodes
        self.nodes = 0
        self.killers = [[] for _ in range(self.max_depth + 2)]
        self.score_depth = 1      # the static scores of the root's moves are their one-ply values
        self.seen, self.root_turn = seen, pos.turn
        if len(self.table) > self.table_limit:
            self.table.clear()
        d0, d1 = pos.distance(0), pos.distance(1)
        if d0 is None or d1 is None or pos.is_over():
            return SearchResult(None, 0, 0, 0, self._now() - start)
        children = self._expand(pos, d0, d1, 0)
        if not children:
            return SearchResult(None, evaluate(pos, d0, d1), 0, 0, self._now() - start)
        children = [c._replace(child=pos.apply(c.step)) for c in self._prune(children, self.root_wall_limit, None)]
        best = children[0]
        if len(children) == 1 or best.score > MATE_BOUND:
            return SearchResult(best.step, best.score, 1, 1, self._now() - start)
        result = SearchResult(best.step, best.score, 0, 0, 0.0)
        for depth in range(1, self.max_depth + 1):
            try:
                score, step, children = self._root(pos, children, depth)
            except _Timeout as partial:
                if partial.args:   # the iteration proved a move at least as good as the last best
                    step, score = partial.args
                    result = SearchResult(step, score, result.depth, self.nodes, 0.0)
                    self.score_depth = depth
                break
            result = SearchResult(step, score, depth, self.nodes, 0.0)
            self.score_depth = depth
            elapsed = self._now() - start
            # A decided game needs no deeper look (its win or loss lies within this depth, the
            # quickest there is); and the next iteration costs several times this one, so starting
            # it late would only be thrown away.
            late = self.nodes > self.node_limit * _LATE or (budget_s is not None and elapsed > budget_s * _LATE)
            if abs(score) > MATE_BOUND or late:
                break
        return result._replace(nodes=self.nodes, elapsed=self._now() - start)

    def score_child(self, child: Position, depth: int, nodes: int) -> int:
        """The score of ``child`` for the side that moved into it, searched ``depth - 1`` plies below it.

        The value of one step at the root's ``depth`` (``score_depth`` after a ``search``), on the table the
        search left, so that it compares with the search's score: a line searched to another parity gives
        the last mover the tempo of the leaves, and even play would read as a loss. When ``nodes`` run out,
        the next shallower depth of the same parity is tried (each with ``nodes``), and at last the static
        score. Deterministic.
        """
        mover = 1 - child.turn
        winner = child.winner()
        if winner is not None:
            return WIN - 1 if winner == mover else -(WIN - 1)
        d0, d1 = child.distance(0), child.distance(1)
        if d0 is None or d1 is None:
            raise ValueError(f"{child!r} is not a position of a game: a pawn has no path to its goal row")
        self.node_limit, self.deadline = nodes, _NEVER
        self.seen, self.root_turn = (), mover
        self.killers = [[] for _ in range(self.max_depth + 2)]
        for d in range(max(depth, 1) - 1, 0, -2):
            self.nodes = 0     # each depth tried has the budget: a shallower one costs a fraction of it
            try:
                return -self._negamax(child, d, -_INFINITY, _INFINITY, 1, d0, d1)
            except _Timeout:
                continue
        return -evaluate(child, d0, d1)

    def _root(self, pos: Position, children: list[_Child], depth: int) -> tuple[int, Step, list[_Child]]:
        """One iteration over the root moves; returns the score, the best step and the moves re-ordered."""
        alpha, beta = -_INFINITY, _INFINITY
        scored: list[tuple[int, int, _Child]] = []
        best_step: Step | None = None
        for index, c in enumerate(children):
            try:
                if index == 0:
                    score = -self._negamax(c.child, depth - 1, -beta, -alpha, 1, c.d0, c.d1)
                else:
                    score = -self._negamax(c.child, depth - 1, -alpha - 1, -alpha, 1, c.d0, c.d1)
                    if score > alpha:
                        score = -self._negamax(c.child, depth - 1, -beta, -alpha, 1, c.d0, c.d1)
            except _Timeout:
                if best_step is not None:
                    raise _Timeout(best_step, alpha) from None
                raise
            scored.append((score, -index, c))
            if score > alpha:
                alpha, best_step = score, c.step
        scored.sort(key=lambda t: (t[0], t[1]), reverse=True)
        return alpha, best_step, [c for _, _, c in scored]  # type: ignore[return-value]

    # -- the tree ---------------------------------------------------------------------------
    def _negamax(self, pos: Position, depth: int, alpha: int, beta: int, ply: int, d0: int, d1: int) -> int:
        """The score of ``pos`` for its side to move, searched ``depth`` plies (fail-soft)."""
        if self.nodes >= self.node_limit:      # a node budget counts only the nodes searched
            raise _Timeout()
        self.nodes += 1
        if self.clock is not None and self.clock() > self.deadline:
            raise _Timeout()
        if pos in self.seen:
            return -REPETITION if pos.turn == self.root_turn else REPETITION
        if depth <= 0:
            return evaluate(pos, d0, d1)
        entry = self.table.get(pos)
        tt_step = None
        if entry is not None:
            e_depth, flag, e_score, tt_step = entry
            if e_depth >= depth and _within(e_score, depth):
                if e_score > MATE_BOUND:
                    e_score -= ply
                elif e_score < -MATE_BOUND:
                    e_score += ply
                if flag == _EXACT or (flag == _LOWER and e_score >= beta) or (flag == _UPPER and e_score <= alpha):
                    return e_score
        # The pawn moves first (a handful, and cheap): a win in one, or at the last ply a move that already
        # reaches ``beta``, needs no wall looked at.
        moves = self._moves(pos, d0, d1, ply)
        if moves and (moves[0].score > MATE_BOUND or (depth == 1 and moves[0].score >= beta)):
            first = moves[0]
            self._store(pos, 1 if first.score <= MATE_BOUND else depth, _EXACT if first.score > MATE_BOUND else _LOWER,
                        first.score, ply, first.step)
            return first.score
        if depth == 1:
            # The children's static scores are their depth-0 values: no need to visit them.
            children = moves + self._walls(pos, d0, d1)
            if not children:      # no legal step: the turn passes (a violation), nothing changes
                return evaluate(pos, d0, d1)
            first = max(children, key=_child_score)
            self._store(pos, 1, _EXACT, first.score, ply, first.step)
            return first.score
        alpha_start = alpha
        best_score, best_step = -_INFINITY, None
        # The table's step is searched before the walls are generated: when it refutes, they never are.
        if tt_step is not None:
            c = self._child_of(pos, tt_step, moves, d0, d1)
            best_score = -self._negamax(c.child or pos.apply(c.step), depth - 1, -beta, -alpha, ply + 1, c.d0, c.d1)
            best_step = tt_step
            if best_score > alpha:
                alpha = best_score
                if alpha >= beta:
                    self._store(pos, depth, _LOWER, best_score, ply, best_step)
                    return best_score
        children = moves + self._walls(pos, d0, d1)
        if not children:          # no legal step: the turn passes (a violation), nothing changes
            return evaluate(pos, d0, d1)
        children.sort(key=_child_score, reverse=True)
        children = self._prune(children, self.wall_limit, None)
        killers = self.killers[ply]
        if killers:
            front = [c for c in children if c.step in killers]
            if front:
                children = front + [c for c in children if c.step not in killers]
        for c in children:
            if c.step == tt_step:
                continue
            child = c.child or pos.apply(c.step)
            if best_step is None:
                score = -self._negamax(child, depth - 1, -beta, -alpha, ply + 1, c.d0, c.d1)
            else:
                score = -self._negamax(child, depth - 1, -alpha - 1, -alpha, ply + 1, c.d0, c.d1)
                if alpha < score < beta:
                    score = -self._negamax(child, depth - 1, -beta, -alpha, ply + 1, c.d0, c.d1)
            if score > best_score:
                best_score, best_step = score, c.step
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if c.step not in killers:
                            killers.insert(0, c.step)
                            del killers[2:]
                        break
        flag = _LOWER if best_score >= beta else (_UPPER if best_score <= alpha_start else _EXACT)
        self._store(pos, depth, flag, best_score, ply, best_step)
        return best_score

    def _store(self, pos: Position, depth: int, flag: int, score: int, ply: int, step: Step | None) -> None:
        """Remember ``pos``'s result; a win or loss is stored as plies from ``pos`` (not from the root)."""
        if score > MATE_BOUND:
            score += ply
        elif score < -MATE_BOUND:
            score -= ply
        self.table[pos] = (depth, flag, score, step)

    # -- move generation -------------------------------------------------------------------
    def _moves(self, pos: Position, d0: int, d1: int, ply: int) -> list[_Child]:
        """Every pawn move, best static score first (a move to the goal row scores a win); no child made yet."""
        me = pos.turn
        goal = GOAL_ROWS[me]
        opened = pos.open
        walls_left = pos.walls_left
        out: list[_Child] = []
        cells = pos.move_targets()
        for cell, d in zip(cells, distances_to_goal(cells, goal, opened)):
            if d is None:        # cannot happen: a pawn move stays in its pawn's region
                continue
            c0, c1 = (d, d1) if me == 0 else (d0, d)
            score = WIN - ply - 1 if d == 0 else -score_of(1 - me, walls_left, c0, c1)
            out.append(_Child(score, MOVE_STEPS[cell], None, c0, c1, False))
        out.sort(key=_child_score, reverse=True)
        return out

    @staticmethod
    def _walls(pos: Position, d0: int, d1: int) -> list[_Child]:
        """Every path-lengthening wall (``wall_cuts``, slot order) with its static score; no child made yet."""
        me = pos.turn
        w0, w1 = pos.walls_left
        after = (w0 - 1, w1) if me == 0 else (w0, w1 - 1)
        return [_Child(-score_of(1 - me, after, a, b), step, None, a, b, True) for step, a, b in wall_cuts(pos, d0, d1)]

    @staticmethod
    def _child_of(pos: Position, step: Step, moves: list[_Child], d0: int, d1: int) -> _Child:
        """The child of a step the table holds for ``pos`` (so legal there): a move's from ``moves``, a wall's made."""
        for c in moves:
            if c.step == step:
                return c
        child = pos.apply(step)
        opened = child.open
        c0 = distance_from(1 << child.pawns[0], GOAL_ROWS[0], opened)
        c1 = distance_from(1 << child.pawns[1], GOAL_ROWS[1], opened)
        assert c0 is not None and c1 is not None   # a legal wall leaves both pawns a path
        return _Child(-evaluate(child, c0, c1), step, child, c0, c1, True)

    def _expand(self, pos: Position, d0: int, d1: int, ply: int) -> list[_Child]:
        """Every pawn move and every path-lengthening wall, best static score first; no child made yet."""
        children = self._moves(pos, d0, d1, ply) + self._walls(pos, d0, d1)
        children.sort(key=_child_score, reverse=True)
        return children

    @staticmethod
    def _prune(children: list[_Child], wall_limit: int, first: Step | None) -> list[_Child]:
        """All pawn moves and the ``wall_limit`` best walls, in order, with ``first`` moved to the front."""
        kept: list[_Child] = []
        walls = 0
        for c in children:
            if c.is_wall:
                if walls >= wall_limit and c.step != first:
                    continue
                walls += 1
            if c.step == first:
                kept.insert(0, c)
            else:
                kept.append(c)
        return kept


def _child_score(c: _Child) -> int:
    return c.score


def _within(stored: int, depth: int) -> bool:
    """True unless ``stored`` (a table score) is a win or loss more plies away than a ``depth``-ply search sees.

    Such a score comes from a deeper search, often of an earlier move, and is true; but taken here it
    would rank one move by what lies beyond the horizon while its siblings are ranked by what lies
    within it. A slower win found that way outranks a quicker one not yet in sight, and it stops the
    deepening that would bring the quicker one into sight: with the positions repeating, the searcher
    kept all game then stepped back and forth beside its goal, each time choosing the same slower win
    from its table. Refused, the entry still orders the moves (its step is searched first).
    """
    if stored > MATE_BOUND:
        return WIN - stored <= depth
    if stored < -MATE_BOUND:
        return WIN + stored <= depth
    return True

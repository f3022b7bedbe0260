"""Board measures the bots share: fast path lengths, walls that cut a path, and the static evaluation.

Everything works on the bit masks of a ``Position`` (cell ``(x, y)`` is bit ``(y - 1) * 10 + x - 1``,
see ``shared.quoridor.geometry``). The breadth-first searches are inlined here instead of going
through ``Position.distance`` because the search calls them thousands of times per move.
"""

from __future__ import annotations

from typing import NamedTuple

from shared.quoridor import Position, Step
from shared.quoridor.geometry import GOAL_ROWS, H_SLOTS, H_STEPS, V_SLOTS, V_STEPS

__all__ = [
    "WIN", "KNOWN_WIN", "STEP", "TEMPO", "WALL_VALUES", "LEAD", "DECIDED_LEAD", "WallOption",
    "distance_from", "distances_to_goal", "path_from", "path_blockers", "evaluate", "score_of", "wall_cuts",
    "wall_options", "won_race",
]

#: Score of a won game (minus the plies it takes, so quicker wins score higher).
WIN = 100_000
#: Score of a race that is decided (the loser has no walls left to change it), less a step per step of
#: the winner's path (see ``evaluate``).
KNOWN_WIN = 50_000
#: Score of one step of path length.
STEP = 100
#: Bonus of the side to move: in a pure race the mover wins ties, so half a step (ties score +50, not 0).
TEMPO = 50
#: Worth of holding n walls (index n): one and a half steps each, so a wall is placed only when it gains
#: more than that net. First tuned against ``defender`` from seeded openings (games in pairs, colours
#: swapped; searches of a fixed node count): at one step a wall ``strong`` spent all ten early, each
#: for three or four steps of the other path, and was walled in near its goal by an opponent who had
#: kept its own (35 of 40 won); 1.5 steps won 37 of 40, 2 steps 194 of 200 (190 of 200 on other
#: openings), 2.5 steps 75 of 80, 3 steps 56 of 80. Against ``strong`` itself (issue 34; 1,500 nodes a
#: step, 4-ply openings), 1.5 steps beat 2 by +75 +/- 50 Elo (160 games) and 1 step lost to 1.5 by
#: -112 +/- 80 (80 games). Tables with the last walls dearer, and a bonus for the only side holding
#: walls, did no better than the straight line.
WALL_VALUES = tuple(3 * STEP * n // 2 for n in range(11))
#: Worth of one step of lead in a decided race: a tie-break among moves that bring the winner equally
#: close, far below a step of its path, so that no wall and no stand in the loser's way pays for a step.
LEAD = 10
#: Plies a side must be ahead for its race to be decided (``won_race``): it reaches its goal this many
#: plies before the other even if the other pawn jumps over it once on the way (a jump gains a step).
DECIDED_LEAD = 3


def distance_from(seed: int, goal: int, opened: tuple[int, int, int, int]) -> int | None:
    """Moves from the cells of mask ``seed`` to the nearest cell of ``goal`` through ``opened``; ``None`` if cut off."""
    if seed & goal:
        return 0
    up, down, left, right = opened
    seen = frontier = seed
    d = 0
    while True:
        d += 1
        frontier = (((frontier & up) << 10) | ((frontier & down) >> 10)
                    | ((frontier & left) >> 1) | ((frontier & right) << 1)) & ~seen
        if not frontier:
            return None
        if frontier & goal:
            return d
        seen |= frontier


def distances_to_goal(cells: list[int], goal: int, opened: tuple[int, int, int, int]) -> list[int | None]:
    """Moves from each cell (bit index) of ``cells`` to ``goal`` through ``opened``: one search out from the goal row.

    ``None`` for a cell cut off from it. Moves are symmetric (an open mask and the opposite one agree), so the
    layers grown from the goal row reach each cell at its distance; one search serves all of a pawn's moves.
    """
    up, down, left, right = opened
    out: list[int | None] = [None] * len(cells)
    wanted = 0
    for cell in cells:
        wanted |= 1 << cell
    seen = frontier = goal
    d = 0
    while True:
        hit = frontier & wanted
        if hit:
            for i, cell in enumerate(cells):
                if hit >> cell & 1:
                    out[i] = d
            wanted ^= hit
            if not wanted:
                return out
        d += 1
        frontier = (((frontier & up) << 10) | ((frontier & down) >> 10)
                    | ((frontier & left) >> 1) | ((frontier & right) << 1)) & ~seen
        if not frontier:
            return out
        seen |= frontier


def path_from(seed: int, goal: int, opened: tuple[int, int, int, int], *, highest: bool = False) -> list[int] | None:
    """One shortest path as single-bit cell masks, from a ``goal`` cell back to ``seed``; ``None`` if cut off.

    Of several shortest paths it takes the lowest cell of each layer, or with ``highest`` the highest: another
    path where there are several, so that a wall must cut both to lengthen the distance (``wall_cuts``).
    """
    up, down, left, right = opened
    layers = [seed]
    seen = frontier = seed
    while not frontier & goal:
        frontier = (((frontier & up) << 10) | ((frontier & down) >> 10)
                    | ((frontier & left) >> 1) | ((frontier & right) << 1)) & ~seen
        if not frontier:
            return None
        seen |= frontier
        layers.append(frontier)
    cell = frontier & goal
    cell = 1 << (cell.bit_length() - 1) if highest else cell & -cell
    path = [cell]
    # Moves are symmetric (an open mask and the opposite one agree), so any neighbour in the
    # previous layer continues the path back to the seed.
    for layer in reversed(layers[:-1]):
        back = (((cell & up) << 10) | ((cell & down) >> 10) | ((cell & left) >> 1) | ((cell & right) << 1)) & layer
        cell = 1 << (back.bit_length() - 1) if highest else back & -back
        path.append(cell)
    return path


def path_blockers(path: list[int]) -> tuple[int, int]:
    """Horizontal and vertical wall slots (masks) that would cut an edge of ``path`` (cell masks)."""
    h = v = 0
    for a, b in zip(path, path[1:]):
        low = a if a < b else b
        if (a | b) == low | low << 10:   # a vertical step: the horizontal walls above the lower cell
            h |= (low << 9) | (low << 10)
        else:                            # a sideways step: the vertical walls right of the left cell
            v |= (low << 1) | (low >> 9)
    return h & H_SLOTS, v & V_SLOTS


def evaluate(pos: Position, d0: int, d1: int) -> int:
    """Static score for the side to move (higher is better) given both path lengths ``d0``, ``d1``.

    An open race scores its margin (``STEP`` a step, ``TEMPO`` to the mover) and the walls in
    hand (``WALL_VALUES``). A decided one (``won_race``: the trailing side has no walls left and the
    leader is ``DECIDED_LEAD`` plies ahead) scores ``KNOWN_WIN`` to the winner less ``STEP`` per step
    of the winner's path, with the margin only a tie-break (``LEAD``) and its walls in hand kept: the
    winner gains by walking home and by nothing else. Scored by the margin instead, a step home and a
    step that holds the loser back (a pawn standing in its way, a wall) tie, and the searcher walked
    back and forth in the loser's way until the step cap.
    """
    return score_of(pos.turn, pos.walls_left, d0, d1)


def score_of(me: int, walls_left: tuple[int, int], d0: int, d1: int) -> int:
    """``evaluate`` from the side to move ``me`` and the walls left alone: the search scores a step before it makes
    the step's position."""
    d_me, d_op = (d0, d1) if me == 0 else (d1, d0)
    w_me, w_op = walls_left[me], walls_left[1 - me]
    race = d_op - d_me   # >= 0: the mover wins a pure race
    # ``won_race`` inlined (the hot path): the mover is 2 * race + 1 plies ahead, the other side
    # 1 - 2 * race; at least DECIDED_LEAD (3) means race >= 1 for the mover and race <= -2 for the other.
    if race >= 1 and not w_op:
        return KNOWN_WIN - STEP * d_me + LEAD * race + WALL_VALUES[w_me]
    if race <= -2 and not w_me:
        return -KNOWN_WIN + STEP * d_op + LEAD * race - WALL_VALUES[w_op]
    return STEP * race + TEMPO + WALL_VALUES[w_me] - WALL_VALUES[w_op]


def won_race(pos: Position, player: int) -> bool:
    """True when ``player``'s race is decided in its favour: nothing but its own moves can stop it.

    The other side has no walls left, and ``player`` reaches its goal row at least ``DECIDED_LEAD``
    plies before the other would if both walked their shortest paths: to move, its path is at least
    a step shorter; not to move, at least two. One step to spare covers the step the other pawn
    gains by jumping over this one where their paths cross; a pure race (no step to spare) can be
    lost that way. ``False`` when the game is over or a pawn has no path.
    """
    other = 1 - player
    mine, theirs = pos.distance(player), pos.distance(other)
    if pos.walls_left[other] or mine is None or theirs is None or pos.is_over():
        return False
    ahead = 2 * (theirs - mine) + (1 if pos.turn == player else -1)
    return ahead >= DECIDED_LEAD


class WallOption(NamedTuple):
    """A legal wall for the side to move that lengthens the opponent's shortest path."""

    step: Step
    child: Position
    d0: int          # player 0's path length after the wall
    d1: int          # player 1's path length after the wall


def _slot_cuts(steps: dict[int, Step]) -> dict[int, tuple[int, int, int, int]]:
    """The edges (open masks: up, down, left, right) each wall slot closes, read off the rules core once."""
    start = Position.initial()
    return {p: tuple(a & ~b for a, b in zip(start.open, start.apply(step).open)) for p, step in steps.items()}


#: The moves a wall closes, by slot: its child's open masks are the parent's less these (no ``Position`` made).
_H_CUTS = _slot_cuts(H_STEPS)
_V_CUTS = _slot_cuts(V_STEPS)


def wall_cuts(pos: Position, d0: int, d1: int) -> list[tuple[Step, int, int]]:
    """``(step, d0, d1)`` of every legal wall of the side to move that lengthens the opponent's path (slot order).

    ``wall_options`` without the child positions: the search makes a child only for a wall it searches.
    A wall that lengthens a path must cut every shortest path, so only the walls that cut two of them (lowest
    and highest cells first) are tried; a wall is legal when its slot is free and both pawns keep a path.
    """
    me = pos.turn
    op = 1 - me
    if not pos.walls_left[me]:
        return []
    opened = pos.open
    up, down, left, right = opened
    seed_op, seed_me = 1 << pos.pawns[op], 1 << pos.pawns[me]
    goal_op, goal_me = GOAL_ROWS[op], GOAL_ROWS[me]
    d_op0, d_me0 = (d1, d0) if me == 0 else (d0, d1)
    op_path = path_from(seed_op, goal_op, opened)
    my_path = path_from(seed_me, goal_me, opened)
    if op_path is None or my_path is None:   # cannot happen in a legal position
        return []
    cut_h, cut_v = path_blockers(op_path)
    far = path_from(seed_op, goal_op, opened, highest=True)
    if far is not None and far != op_path:     # a wall that lengthens the path cuts this one too
        far_h, far_v = path_blockers(far)
        cut_h &= far_h
        cut_v &= far_v
    mine_h, mine_v = path_blockers(my_path)
    out: list[tuple[Step, int, int]] = []
    for mask, mine, cuts, steps in ((cut_h & pos.free_h, mine_h, _H_CUTS, H_STEPS),
                                    (cut_v & pos.free_v, mine_v, _V_CUTS, V_STEPS)):
        while mask:
            low = mask & -mask
            mask ^= low
            p = low.bit_length() - 1
            cu, cd, cl, cr = cuts[p]
            child = (up & ~cu, down & ~cd, left & ~cl, right & ~cr)
            d_op = distance_from(seed_op, goal_op, child)
            if d_op is None or d_op <= d_op0:
                continue
            d_me = d_me0 if not low & mine else distance_from(seed_me, goal_me, child)
            if d_me is None:
                continue
            out.append((steps[p], d_me, d_op) if me == 0 else (steps[p], d_op, d_me))
    return out


def wall_options(pos: Position, d0: int, d1: int) -> list[WallOption]:
    """Every legal wall of the side to move that lengthens the opponent's shortest path (slot order), with its child.

    ``wall_cuts`` with each wall's child position made.
    """
    return [WallOption(step, pos.apply(step), a, b) for step, a, b in wall_cuts(pos, d0, d1)]

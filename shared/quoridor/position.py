"""``Position``: an immutable Quoridor position with legal-step generation, judging and applying steps.

The board lives in Python ints (see ``geometry``): four *open masks* say from which cells a
pawn may move up, down, left and right; two slot masks hold the free wall slots. Placing a
wall clears a few bits, and a path check is a bit-parallel flood fill.

Most walls need no path check at all: walls and the border form a planar graph on the grid
points, and a new wall can only cut cells apart if it closes a cycle in it, that is when at
least two of its three grid points already belong to the same connected piece of that graph.
The position keeps those pieces (``components``), so the check is a few int operations for
all 128 slots at once. A candidate that does close a cycle is flood-filled only for a pawn
whose current shortest path it actually crosses.
"""

from __future__ import annotations

from collections.abc import Iterable

from .geometry import (
    BORDER_POINTS, CELL_LOCATIONS, GOAL_ROWS, H_POINTS, H_SLOTS, LAYOUT, MOVE_STEPS, V_POINTS,
    V_SLOTS, cell_index, slot_wall, steps_of_mask, wall_slot,
)
from .judgement import Cause, Judgement
from .notation import square, wall_name
from .rulesets import COURSE, Ruleset
from .types import BLOCK_SUM, PLAYER0_LOC, PLAYER1_LOC, BlockBar, GameStatus, Location, Step

__all__ = ["Position", "Judgement", "IllegalStepError"]


_OK = Judgement(GameStatus.OK, "")


def _invalid(cause: Cause, reason: str) -> Judgement:
    """An InvalidStep judgement."""
    return Judgement(GameStatus.INVALID_STEP, reason, cause)


class IllegalStepError(ValueError):
    """A step that the rules do not allow in the position; carries the ``Judgement``."""

    def __init__(self, step: Step, judgement: Judgement) -> None:
        super().__init__(f"illegal step {step}: {judgement.reason}")
        self.step = step
        self.judgement = judgement


_SHIFTS = (10, -10, -1, 1)  # cell bit shift of a move up, down, left, right (y grows upwards)


def _reaches(seed: int, goal: int, up: int, down: int, left: int, right: int) -> bool:
    """True when the region flood-filled from ``seed`` meets ``goal`` (hot path: inlined spread)."""
    region = seed
    while not region & goal:
        grown = (region | ((region & up) << 10) | ((region & down) >> 10)
                 | ((region & left) >> 1) | ((region & right) << 1))
        if grown == region:
            return False
        region = grown
    return True


def _closing(components: tuple[int, ...], free_h: int, free_v: int) -> tuple[int, int]:
    """Free slots of each orientation that touch one wall component at two or more grid points."""
    need_h = need_v = 0
    for c in components:
        b, d = c >> 1, c >> 2
        need_h |= (c & b) | (c & d) | (b & d)
        b, d = c >> 10, c >> 20
        need_v |= (c & b) | (c & d) | (b & d)
    return need_h & free_h, need_v & free_v


def _path_blockers(path: list[int]) -> tuple[int, int]:
    """Horizontal and vertical slots whose wall would cut an edge of the cell path ``path``."""
    h = v = 0
    for a, b in zip(path, path[1:]):
        low = a if a < b else b
        if b - a in (10, -10):    # vertical move between low and low + 10: horizontal walls above low
            h |= 3 << (low + 9)
        else:                     # horizontal move between low and low + 1: vertical walls right of low
            v |= (1 | 1 << 10) << (low - 9) if low >= 9 else 1 << (low + 1)
    return h & H_SLOTS, v & V_SLOTS


class Position:
    """Both pawns, the walls, the walls left and whose turn it is, under a ruleset. Immutable.

    Players are 0 (starts at e1, moves first, aims for row 9) and 1 (starts at e9, aims for
    row 1). ``apply`` returns the position after a step without checking it; ``play``
    checks first and raises ``IllegalStepError``; ``judge`` returns the ``Judgement``.
    """

    __slots__ = ("ruleset", "pawns", "walls_left", "turn", "h_walls", "v_walls",
                 "free_h", "free_v", "open", "components")

    ruleset: Ruleset
    pawns: tuple[int, int]
    walls_left: tuple[int, int]
    turn: int
    h_walls: int
    v_walls: int
    free_h: int
    free_v: int
    open: tuple[int, int, int, int]
    components: tuple[int, ...]

    # -- construction -----------------------------------------------------------------
    @classmethod
    def initial(cls, ruleset: Ruleset = COURSE) -> Position:
        """The starting position: pawns on e1 and e9, 10 walls each, player 0 to move."""
        pos = cls.__new__(cls)
        pos.ruleset = ruleset
        pos.pawns = (cell_index(*PLAYER0_LOC), cell_index(*PLAYER1_LOC))
        pos.walls_left = (BLOCK_SUM, BLOCK_SUM)
        pos.turn = 0
        pos.h_walls = pos.v_walls = 0
        pos.free_h, pos.free_v = H_SLOTS, V_SLOTS
        pos.open = LAYOUT.edge_open  # type: ignore[assignment]
        pos.components = (BORDER_POINTS,)
        return pos

    @classmethod
    def setup(cls, pawns: tuple[Location, Location] = (PLAYER0_LOC, PLAYER1_LOC),
              walls: Iterable[BlockBar] = (), *, walls_left: tuple[int, int] | None = None,
              turn: int = 0, ruleset: Ruleset = COURSE) -> Position:
        """A position from its parts; walls are checked for shape, bounds and overlap.

        ``walls_left`` defaults to 10 each minus half the walls (rounded so player 0 gets the
        odd one). Raises ``ValueError`` naming what is wrong.
        """
        walls = list(walls)
        for loc in pawns:
            if not Location(*loc).is_valid():
                raise ValueError(f"pawn {loc} is not on the board")
        if pawns[0] == pawns[1]:
            raise ValueError(f"both pawns stand on {square(Location(*pawns[0]))}")
        if turn not in (0, 1):
            raise ValueError(f"turn must be 0 or 1, got {turn}")
        if walls_left is None:
            walls_left = (BLOCK_SUM - (len(walls) + 1) // 2, BLOCK_SUM - len(walls) // 2)
        if min(walls_left) < 0 or max(walls_left) > BLOCK_SUM:
            raise ValueError(f"walls left must be 0..{BLOCK_SUM}, got {walls_left}")
        pos = cls.initial(ruleset)
        for wall in walls:
            problem = pos._wall_shape_problem(wall)
            if problem is not None:
                raise ValueError(problem.reason)
            pos = pos._with_wall(*wall_slot(wall))  # type: ignore[misc]
        pos.pawns = (cell_index(*pawns[0]), cell_index(*pawns[1]))
        pos.walls_left = (int(walls_left[0]), int(walls_left[1]))
        pos.turn = turn
        for player in (0, 1):
            if pos.distance(player) is None:
                raise ValueError(f"player {player}'s pawn on {square(pos.pawn(player))} has no path to its goal row")
        return pos

    def _copy(self) -> Position:
        pos = Position.__new__(Position)
        pos.ruleset, pos.pawns, pos.walls_left, pos.turn = self.ruleset, self.pawns, self.walls_left, self.turn
        pos.h_walls, pos.v_walls, pos.free_h, pos.free_v = self.h_walls, self.v_walls, self.free_h, self.free_v
        pos.open, pos.components = self.open, self.components
        return pos

    # -- reading --------------------------------------------------------------------------
    def pawn(self, player: int) -> Location:
        """Where ``player``'s pawn stands."""
        return CELL_LOCATIONS[self.pawns[player]]

    @property
    def walls(self) -> list[BlockBar]:
        """Every wall on the board, normalised, horizontal ones first."""
        return ([slot_wall(True, p) for p in range(100) if self.h_walls >> p & 1]
                + [slot_wall(False, p) for p in range(100) if self.v_walls >> p & 1])

    def has_wall(self, wall: BlockBar) -> bool:
        """True when exactly this wall has been placed."""
        slot = wall_slot(wall)
        if slot is None:
            return False
        horizontal, p = slot
        return bool((self.h_walls if horizontal else self.v_walls) >> p & 1)

    def winner(self) -> int | None:
        """The player whose pawn stands on its goal row, or ``None``."""
        if (1 << self.pawns[0]) & GOAL_ROWS[0]:
            return 0
        if (1 << self.pawns[1]) & GOAL_ROWS[1]:
            return 1
        return None

    def is_over(self) -> bool:
        """True when a pawn has reached its goal row."""
        return self.winner() is not None

    def can_move(self, loc: Location, to: Location) -> bool:
        """True when no wall or edge lies between the orthogonally adjacent cells ``loc`` and ``to``."""
        if not (loc.is_valid() and to.is_valid()) or loc.distance(to) != 1:
            return False
        a, b = cell_index(*loc), cell_index(*to)
        return bool(self.open[_SHIFTS.index(b - a)] >> a & 1)

    def distance(self, player: int) -> int | None:
        """Moves ``player``'s pawn needs to reach its goal row, ignoring the other pawn; ``None`` if cut off."""
        return LAYOUT.distance(1 << self.pawns[player], self.open, GOAL_ROWS[player])

    def shortest_path(self, player: int) -> list[Location] | None:
        """The cells of one shortest path from ``player``'s pawn to its goal row (pawn first)."""
        path = LAYOUT.path(1 << self.pawns[player], self.open, GOAL_ROWS[player])
        return None if path is None else [CELL_LOCATIONS[i] for i in path]

    # -- legal steps ----------------------------------------------------------------------
    def _move_targets(self) -> list[int]:
        """Cell indices the mover's pawn may move to (steps, straight jumps, diagonals if allowed)."""
        me, other = self.pawns[self.turn], self.pawns[1 - self.turn]
        opened = self.open
        targets = []
        for i in range(4):
            if not opened[i] >> me & 1:
                continue
            target = me + _SHIFTS[i]
            if target != other:
                targets.append(target)
            elif opened[i] >> other & 1:
                targets.append(other + _SHIFTS[i])
            elif self.ruleset.diagonal_moves:
                for j in ((2, 3) if i < 2 else (0, 1)):
                    if opened[j] >> other & 1:
                        targets.append(other + _SHIFTS[j])
        return targets

    def legal_moves(self) -> list[Location]:
        """The cells the side to move may move its pawn to."""
        return [CELL_LOCATIONS[t] for t in self._move_targets()]

    def legal_wall_masks(self) -> tuple[int, int]:
        """The legal wall slots as two masks (horizontal, vertical), ignoring walls left."""
        free_h, free_v = self.free_h, self.free_v
        need_h, need_v = _closing(self.components, free_h, free_v)
        if not (need_h or need_v):
            return free_h, free_v
        up, down, left, right = self.open
        p0, p1 = 1 << self.pawns[0], 1 << self.pawns[1]
        g0, g1 = GOAL_ROWS
        paths = [LAYOUT.path(p0, self.open, g0), LAYOUT.path(p1, self.open, g1)]
        b0h, b0v = _path_blockers(paths[0])  # type: ignore[arg-type]
        b1h, b1v = _path_blockers(paths[1])  # type: ignore[arg-type]
        bad_h = bad_v = 0
        todo = need_h & (b0h | b1h)
        while todo:
            low = todo & -todo
            todo ^= low
            p = low.bit_length() - 1
            u, d = up & ~(3 << (p - 10)), down & ~(3 << p)
            if (low & b0h and not _reaches(p0, g0, u, d, left, right)) or \
                    (low & b1h and not _reaches(p1, g1, u, d, left, right)):
                bad_h |= low
        todo = need_v & (b0v | b1v)
        while todo:
            low = todo & -todo
            todo ^= low
            p = low.bit_length() - 1
            r, lf = right & ~(0x401 << (p - 1)), left & ~(0x401 << p)
            if (low & b0v and not _reaches(p0, g0, up, down, lf, r)) or \
                    (low & b1v and not _reaches(p1, g1, up, down, lf, r)):
                bad_v |= low
        return free_h & ~bad_h, free_v & ~bad_v

    def legal_walls(self) -> list[BlockBar]:
        """The walls the side to move may place (none when it has no walls left)."""
        return [s.new_wall for s in self._wall_steps()]

    def _wall_steps(self) -> list[Step]:
        if not self.walls_left[self.turn]:
            return []
        return steps_of_mask(*self.legal_wall_masks())

    def legal_steps(self) -> list[Step]:
        """Every legal step of the side to move: pawn moves first, then walls (shared, interned objects)."""
        steps = [MOVE_STEPS[t] for t in self._move_targets()]
        steps += self._wall_steps()
        return steps

    def count_legal_steps(self) -> int:
        """How many legal steps the side to move has."""
        if not self.walls_left[self.turn]:
            return len(self._move_targets())
        h, v = self.legal_wall_masks()
        return len(self._move_targets()) + h.bit_count() + v.bit_count()

    # -- judging --------------------------------------------------------------------------
    def judge(self, step: Step) -> Judgement:
        """The status ``step`` earns for the side to move: Ok, InvalidStep or InsufficientBlock, with a
        reason for people and, when it is illegal, the ``Cause`` (one stable code per reason)."""
        if step.is_move():
            return self._judge_move(step.new_loc)
        if not step.new_wall.is_none():
            return self._judge_wall(step.new_wall)
        if step.is_nan():
            return Judgement(GameStatus.INVALID_STEP, "empty step: neither a move nor a wall", Cause.EMPTY_STEP)
        return Judgement(GameStatus.INVALID_STEP, f"move target {step.new_loc} is off the board", Cause.OFF_BOARD)

    def is_legal(self, step: Step) -> bool:
        """True when ``step`` is legal for the side to move."""
        return self.judge(step).ok

    def _judge_move(self, loc: Location) -> Judgement:
        target = cell_index(*loc)
        if target in self._move_targets():
            return _OK
        me, other = self.pawn(self.turn), self.pawn(1 - self.turn)
        name = square(loc)
        if loc == me:
            reason, cause = f"your pawn already stands on {name}", Cause.OWN_CELL
        elif loc == other:
            reason, cause = f"{name} is occupied by the other pawn", Cause.OCCUPIED
        elif me.distance(loc) == 1:
            reason, cause = f"a wall blocks the move from {square(me)} to {name}", Cause.WALL_BLOCKS_MOVE
        elif abs(me.x - loc.x) == 1 and abs(me.y - loc.y) == 1 and not self.ruleset.diagonal_moves:
            reason = f"diagonal moves are not allowed in the {self.ruleset.name} rules ({square(me)} to {name})"
            cause = Cause.DIAGONAL_NOT_ALLOWED
        elif other.distance(loc) == 1 and me.distance(other) == 1:
            reason = f"cannot jump from {square(me)} to {name} over the pawn on {square(other)}"
            cause = Cause.CANNOT_JUMP
        else:
            reason, cause = f"{name} is not reachable in one step from {square(me)}", Cause.NOT_REACHABLE
        return Judgement(GameStatus.INVALID_STEP, reason, cause)

    def _wall_shape_problem(self, wall: BlockBar) -> Judgement | None:
        """Why ``wall`` cannot stand on this board (shape, bounds, overlap, crossing), or ``None``."""
        if wall.is_nan():
            return _invalid(Cause.WALL_SHAPE, f"wall {wall} is not a straight wall of length 2")
        slot = wall_slot(wall)
        if slot is None:
            return _invalid(Cause.WALL_OFF_BOARD, f"wall {wall} lies outside the board")
        horizontal, p = slot
        if not (H_SLOTS if horizontal else V_SLOTS) >> p & 1:
            return _invalid(Cause.WALL_ON_BORDER, f"wall {wall} lies on the board's border")
        if (self.free_h if horizontal else self.free_v) >> p & 1:
            return None
        name = wall_name(wall)
        mine = self.h_walls if horizontal else self.v_walls
        for q in (p, p - 1, p + 1) if horizontal else (p, p - 10, p + 10):
            if q >= 0 and mine >> q & 1:
                if q == p:
                    return _invalid(Cause.WALL_EXISTS, f"wall {name} is already placed")
                return _invalid(Cause.WALL_OVERLAPS, f"wall {name} overlaps {wall_name(slot_wall(horizontal, q))}")
        crossing = slot_wall(not horizontal, p - 9 if horizontal else p + 9)
        return _invalid(Cause.WALL_CROSSES, f"wall {name} crosses {wall_name(crossing)} "
                                            f"(not allowed in the {self.ruleset.name} rules)")

    def _judge_wall(self, wall: BlockBar) -> Judgement:
        if not self.walls_left[self.turn]:
            return Judgement(GameStatus.INSUFFICIENT_BLOCK, f"no walls left (each player has {BLOCK_SUM})",
                             Cause.NO_WALLS_LEFT)
        problem = self._wall_shape_problem(wall)
        if problem is not None:
            return problem
        horizontal, p = wall_slot(wall)  # type: ignore[misc]
        need_h, need_v = _closing(self.components, 1 << p if horizontal else 0, 0 if horizontal else 1 << p)
        if not (need_h or need_v):
            return _OK
        up, down, left, right = self.open
        if horizontal:
            up, down = up & ~(3 << (p - 10)), down & ~(3 << p)
        else:
            right, left = right & ~(0x401 << (p - 1)), left & ~(0x401 << p)
        for player in (0, 1):
            if not _reaches(1 << self.pawns[player], GOAL_ROWS[player], up, down, left, right):
                who = "your pawn" if player == self.turn else "the other pawn"
                return _invalid(Cause.WALL_SEALS_PAWN,
                                f"wall {wall_name(wall)} leaves {who} (player {player}) no path to its goal row")
        return _OK

    # -- applying -------------------------------------------------------------------------
    def _with_wall(self, horizontal: bool, p: int) -> Position:
        """A copy with a wall at slot ``p`` added (no legality check, walls left unchanged)."""
        pos = self._copy()
        up, down, left, right = self.open
        if horizontal:
            pos.open = (up & ~(3 << (p - 10)), down & ~(3 << p), left, right)
            pos.h_walls = self.h_walls | 1 << p
            pos.free_h = self.free_h & ~((H_POINTS << p) >> 1)
            if not self.ruleset.walls_may_cross:
                pos.free_v = self.free_v & ~(1 << (p - 9))
            points = H_POINTS << p
        else:
            pos.open = (up, down, left & ~(0x401 << p), right & ~(0x401 << (p - 1)))
            pos.v_walls = self.v_walls | 1 << p
            pos.free_v = self.free_v & ~((V_POINTS << p) >> 10)
            if not self.ruleset.walls_may_cross:
                pos.free_h = self.free_h & ~(1 << (p + 9))
            points = V_POINTS << p
        merged, rest = points, []
        for c in self.components:
            if c & points:
                merged |= c
            else:
                rest.append(c)
        pos.components = (merged, *rest)
        return pos

    def apply(self, step: Step) -> Position:
        """The position after the side to move plays ``step``, which must be legal (not checked)."""
        if step.is_move():
            pos = self._copy()
            target = cell_index(*step.new_loc)
            pos.pawns = (target, self.pawns[1]) if self.turn == 0 else (self.pawns[0], target)
        else:
            pos = self._with_wall(*wall_slot(step.new_wall))  # type: ignore[misc]
            left = self.walls_left
            pos.walls_left = (left[0] - 1, left[1]) if self.turn == 0 else (left[0], left[1] - 1)
        pos.turn = 1 - self.turn
        return pos

    def play(self, step: Step) -> Position:
        """The position after ``step``; raises ``IllegalStepError`` (with the reason) when it is illegal."""
        judgement = self.judge(step)
        if not judgement.ok:
            raise IllegalStepError(step, judgement)
        return self.apply(step)

    def pass_turn(self) -> Position:
        """The same board with the other player to move (after a violation)."""
        pos = self._copy()
        pos.turn = 1 - self.turn
        return pos

    # -- identity -------------------------------------------------------------------------
    def _key(self) -> tuple:
        return (self.ruleset.name, self.pawns, self.walls_left, self.turn, self.h_walls, self.v_walls)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        walls = " ".join(wall_name(w) for w in self.walls) or "none"
        return (f"Position({square(self.pawn(0))} {square(self.pawn(1))}, walls: {walls}, "
                f"left {self.walls_left[0]}/{self.walls_left[1]}, player {self.turn} to move, {self.ruleset.name})")


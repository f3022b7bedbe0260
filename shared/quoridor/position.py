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
    BORDER_POINTS, CELL_LOCATIONS, GOAL_ROWS, H_POINTS, H_SLOTS, H_STEPS, LAYOUT, MOVE_CELLS, MOVE_LISTS,
    MOVE_SHIFTS, MOVE_STEPS, V_POINTS, V_SLOTS, V_STEPS, cell_index, slot_wall, steps_of_mask, wall_slot,
)
from .judgement import Cause, Judgement
from .notation import square, wall_name
from .rulesets import COURSE, Ruleset
from .types import BLOCK_SUM, PLAYER0_LOC, PLAYER1_LOC, BlockBar, GameStatus, Location, Step
from .walls import closing, path_cells, reaches, sealing_walls

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


_SHIFTS = MOVE_SHIFTS
#: ``other - me`` when the other pawn stands next to the mover (then jumps decide the moves).
_NEXT_TO = frozenset(MOVE_SHIFTS)
#: The cell or wall slot of each interned step, found by the step's identity (``apply``'s fast path).
_MOVE_OF: dict[int, int] = {id(s): c for c, s in MOVE_STEPS.items()}
_WALL_OF: dict[int, tuple[bool, int]] = {
    **{id(s): (True, p) for p, s in H_STEPS.items()}, **{id(s): (False, p) for p, s in V_STEPS.items()}}
_new = object.__new__


class Position:
    """Both pawns, the walls, the walls left and whose turn it is, under a ruleset. Immutable.

    Players are 0 (starts at e1, moves first, aims for row 9) and 1 (starts at e9, aims for
    row 1). ``apply`` returns the position after a step without checking it; ``play``
    checks first and raises ``IllegalStepError``; ``judge`` returns the ``Judgement``.

    The fast form for search works on ints instead of ``Step`` objects: ``move_targets()`` (cells),
    ``legal_wall_masks()`` (slots), ``apply_move(cell)`` and ``apply_wall(horizontal, slot)``.
    """

    __slots__ = ("ruleset", "pawns", "walls_left", "turn", "h_walls", "v_walls",
                 "free_h", "free_v", "open", "components", "_need", "_path0", "_path1")

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
    # Derived lazily, carried forward by apply while still true: the closing free slots
    # (``walls.closing``; None until asked) and a path per pawn as a cell mask (0 until asked).
    _need: tuple[int, int] | None
    _path0: int
    _path1: int

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
        pos._need = None
        pos._path0 = pos._path1 = 0
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
        pos._path0 = pos._path1 = 0
        for player in (0, 1):
            if pos.distance(player) is None:
                raise ValueError(f"player {player}'s pawn on {square(pos.pawn(player))} has no path to its goal row")
        return pos

    def _copy(self) -> Position:
        pos = _new(Position)
        pos.ruleset, pos.pawns, pos.walls_left, pos.turn = self.ruleset, self.pawns, self.walls_left, self.turn
        pos.h_walls, pos.v_walls, pos.free_h, pos.free_v = self.h_walls, self.v_walls, self.free_h, self.free_v
        pos.open, pos.components = self.open, self.components
        pos._need, pos._path0, pos._path1 = self._need, self._path0, self._path1
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

    def path_cells(self, player: int) -> int:
        """The cells of one path of ``player``'s pawn to its goal row as a bit mask (fast form); 0 if cut off.

        Shortest when first asked; carried forward by ``apply`` while no wall cuts it, so then any path.
        """
        if player:
            path = self._path1
            if not path:
                path = self._path1 = path_cells(self.pawns[1], GOAL_ROWS[1], self.open)
        else:
            path = self._path0
            if not path:
                path = self._path0 = path_cells(self.pawns[0], GOAL_ROWS[0], self.open)
        return path

    # -- legal steps ----------------------------------------------------------------------
    def move_targets(self) -> list[int]:
        """The cells (bit indices) the side to move may move its pawn to (fast form of ``legal_moves``)."""
        turn = self.turn
        me, other = self.pawns[turn], self.pawns[1 - turn]
        if other - me not in _NEXT_TO:
            up, down, left, right = self.open
            return [*MOVE_CELLS[me << 4 | (up >> me & 1) | (down >> me & 1) << 1
                                | (left >> me & 1) << 2 | (right >> me & 1) << 3]]
        return self._targets_next_to(me, other)

    def _targets_next_to(self, me: int, other: int) -> list[int]:
        """``move_targets`` when the other pawn stands next to the mover: straight jumps, diagonals if allowed."""
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
        return [CELL_LOCATIONS[t] for t in self.move_targets()]

    def legal_wall_masks(self) -> tuple[int, int]:
        """The legal wall slots as two masks (horizontal, vertical), ignoring walls left (fast form of ``legal_walls``)."""
        free_h, free_v = self.free_h, self.free_v
        need = self._need
        if need is None:
            need = self._need = closing(self.components, free_h, free_v)
        need_h, need_v = need
        if not (need_h or need_v):
            return free_h, free_v
        paths = (self._path0 or self.path_cells(0), self._path1 or self.path_cells(1))
        bad_h, bad_v = sealing_walls(need_h, need_v, self.open, self.pawns, paths, GOAL_ROWS)
        return free_h & ~bad_h, free_v & ~bad_v

    def legal_walls(self) -> list[BlockBar]:
        """The walls the side to move may place (none when it has no walls left)."""
        if not self.walls_left[self.turn]:
            return []
        return [s.new_wall for s in steps_of_mask(*self.legal_wall_masks())]

    def legal_steps(self) -> list[Step]:
        """Every legal step of the side to move: pawn moves first, then walls (shared, interned objects)."""
        turn = self.turn
        me, other = self.pawns[turn], self.pawns[1 - turn]
        if other - me not in _NEXT_TO:
            up, down, left, right = self.open
            moves = MOVE_LISTS[me << 4 | (up >> me & 1) | (down >> me & 1) << 1
                               | (left >> me & 1) << 2 | (right >> me & 1) << 3]
        else:
            moves = tuple(MOVE_STEPS[t] for t in self._targets_next_to(me, other))
        if not self.walls_left[turn]:
            return [*moves]
        h, v = self.legal_wall_masks()
        return steps_of_mask(h, v, moves)

    def count_legal_steps(self) -> int:
        """How many legal steps the side to move has."""
        if not self.walls_left[self.turn]:
            return len(self.move_targets())
        h, v = self.legal_wall_masks()
        return len(self.move_targets()) + h.bit_count() + v.bit_count()

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
        if target in self.move_targets():
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
        need_h, need_v = closing(self.components, 1 << p if horizontal else 0, 0 if horizontal else 1 << p)
        if not (need_h or need_v):
            return _OK
        up, down, left, right = self.open
        if horizontal:
            up, down = up & ~(3 << (p - 10)), down & ~(3 << p)
        else:
            right, left = right & ~(0x401 << (p - 1)), left & ~(0x401 << p)
        for player in (0, 1):
            if not reaches(1 << self.pawns[player], GOAL_ROWS[player], up, down, left, right):
                who = "your pawn" if player == self.turn else "the other pawn"
                return _invalid(Cause.WALL_SEALS_PAWN,
                                f"wall {wall_name(wall)} leaves {who} (player {player}) no path to its goal row")
        return _OK

    # -- applying -------------------------------------------------------------------------
    def _with_wall(self, horizontal: bool, p: int) -> Position:
        """A copy with a wall at slot ``p`` added (no legality check, walls left unchanged).

        The pawns' paths go along while the wall cuts neither of their edges (two neighbouring path
        cells are consecutive on it, see ``walls``); the closing slots are found again when asked.
        """
        pos = self._copy()
        up, down, left, right = self.open
        path0, path1 = self._path0, self._path1
        if horizontal:
            pos.open = (up & ~(3 << (p - 10)), down & ~(3 << p), left, right)
            pos.h_walls = self.h_walls | 1 << p
            pos.free_h = self.free_h & ~((H_POINTS << p) >> 1)
            if not self.ruleset.walls_may_cross:
                pos.free_v = self.free_v & ~(1 << (p - 9))
            points = H_POINTS << p
            pos._path0 = 0 if (path0 >> (p - 10)) & (path0 >> p) & 3 else path0
            pos._path1 = 0 if (path1 >> (p - 10)) & (path1 >> p) & 3 else path1
        else:
            pos.open = (up, down, left & ~(0x401 << p), right & ~(0x401 << (p - 1)))
            pos.v_walls = self.v_walls | 1 << p
            pos.free_v = self.free_v & ~((V_POINTS << p) >> 10)
            if not self.ruleset.walls_may_cross:
                pos.free_h = self.free_h & ~(1 << (p + 9))
            points = V_POINTS << p
            pos._path0 = 0 if (path0 >> (p - 1)) & (path0 >> p) & 0x401 else path0
            pos._path1 = 0 if (path1 >> (p - 1)) & (path1 >> p) & 0x401 else path1
        merged, rest = points, []
        for c in self.components:
            if c & points:
                merged |= c
            else:
                rest.append(c)
        pos.components = (merged, *rest)
        pos._need = None
        return pos

    def apply(self, step: Step) -> Position:
        """The position after the side to move plays ``step``, which must be legal (not checked)."""
        cell = _MOVE_OF.get(id(step))   # an interned step (the legal lists hand out those): no decoding
        if cell is None:
            wall = _WALL_OF.get(id(step))
            if wall is None:
                if step.is_move():
                    return self.apply_move(cell_index(*step.new_loc))
                wall = wall_slot(step.new_wall)
            return self.apply_wall(*wall)  # type: ignore[misc]
        return self.apply_move(cell)

    def apply_move(self, cell: int) -> Position:
        """The position after the side to move moves its pawn to ``cell`` (a bit index; legal, not checked). Fast form."""
        pos = _new(Position)
        pos.ruleset, pos.walls_left, pos.components, pos._need = self.ruleset, self.walls_left, self.components, self._need
        pos.h_walls, pos.v_walls, pos.free_h, pos.free_v, pos.open = (
            self.h_walls, self.v_walls, self.free_h, self.free_v, self.open)
        # The mover's path goes along when the pawn steps onto its next cell (a neighbour on it).
        if self.turn:
            me = self.pawns[1]
            pos.pawns, pos.turn, pos._path0 = (self.pawns[0], cell), 0, self._path0
            path = self._path1
            pos._path1 = path ^ (1 << me) if path >> cell & 1 and cell - me in _NEXT_TO else 0
        else:
            me = self.pawns[0]
            pos.pawns, pos.turn, pos._path1 = (cell, self.pawns[1]), 1, self._path1
            path = self._path0
            pos._path0 = path ^ (1 << me) if path >> cell & 1 and cell - me in _NEXT_TO else 0
        return pos

    def apply_wall(self, horizontal: bool, slot: int) -> Position:
        """The position after the side to move places the wall at ``slot`` (legal, not checked). Fast form.

        Slots are numbered as in ``legal_wall_masks``: the grid point ``(x, y)`` of the wall's
        lower-left end is bit ``y * 10 + x`` (``shared.quoridor.geometry``).
        """
        pos = self._with_wall(horizontal, slot)
        left = self.walls_left
        if self.turn:
            pos.walls_left, pos.turn = (left[0], left[1] - 1), 0
        else:
            pos.walls_left, pos.turn = (left[0] - 1, left[1]), 1
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


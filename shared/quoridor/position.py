"""``Position``: an immutable Quoridor position with legal-step generation, judging and applying steps.

The board lives in Python ints (see ``geometry``): four *open masks* say from which cells a
pawn may move up, down, left and right; two slot masks hold the free wall slots. Placing a
wall clears a few bits, and a path check is a bit-parallel flood fill.

A position is its pawns, whose turn it is, and a ``Walls`` (``walls``): the walls, the walls in
hand and what follows from them alone, shared by every position reached by pawn moves. Which
free slots are legal is worked out there: only a wall that closes a cycle in the graph of walls
and border can cut cells apart, and it is filled only for a pawn whose path it cuts.

``apply`` is lazy: a child computes nothing it is not asked for, and carries forward from its
parent what is still true (the ``Walls`` after a move, whose closing slots and slots known to seal
the pawns in a new wall's ``Walls`` starts from; each pawn's path, kept, mended or followed while it
stays a path, see ``walls``; none once nobody holds a wall, as no legal list needs one then).
"""

from __future__ import annotations

from collections.abc import Iterable

from .geometry import (
    CELL_LOCATIONS, GOAL_ROWS, H_STEPS, LAYOUT, MOVE_CELLS, MOVE_LISTS, MOVE_SHIFTS, MOVE_STEPS, V_STEPS,
    cell_index, slot_wall, steps_of_mask, wall_slot,
)
from .judgement import Judgement
from .judging import judge_step, wall_shape_problem
from .notation import square, wall_name
from .rulesets import COURSE, Ruleset
from .types import BLOCK_SUM, PLAYER0_LOC, PLAYER1_LOC, BlockBar, Location, Step
from .walls import Walls, moved_path, path_cells, sealing_walls, walled_path

__all__ = ["Position", "Judgement", "IllegalStepError"]


class IllegalStepError(ValueError):
    """A step that the rules do not allow in the position; carries the ``Judgement``."""

    def __init__(self, step: Step, judgement: Judgement) -> None:
        super().__init__(f"illegal step {step}: {judgement.reason}")
        self.step = step
        self.judgement = judgement


_SHIFTS = MOVE_SHIFTS
#: ``other - me`` when the other pawn stands next to the mover (then jumps decide the moves).
_NEXT_TO = frozenset(MOVE_SHIFTS)
#: The cell or wall slot of an interned step, found by the step's identity (``apply``'s fast path; bound
#: ``dict.get`` methods, which the hot path calls without looking the method up).
_move_of = {id(s): c for c, s in MOVE_STEPS.items()}.get
_wall_of = {**{id(s): (True, p) for p, s in H_STEPS.items()}, **{id(s): (False, p) for p, s in V_STEPS.items()}}.get
_new = object.__new__
#: Player 0 has won when its pawn's cell is at least this (row 9); player 1 when below ``_P1_HOME`` (row 1).
_P0_HOME = min(c for c in range(100) if GOAL_ROWS[0] >> c & 1)
_P1_HOME = max(c for c in range(100) if GOAL_ROWS[1] >> c & 1) + 1
_NONE_LEFT = (0, 0)
#: The cells of the starting pawns' file, e1 to e9: a shortest path for each pawn at the start.
_START_PATH = sum(1 << cell_index(PLAYER0_LOC.x, y) for y in range(PLAYER0_LOC.y, PLAYER1_LOC.y + 1))


class Position:
    """Both pawns, the walls, the walls left and whose turn it is, under a ruleset. Immutable.

    Players are 0 (starts at e1, moves first, aims for row 9) and 1 (starts at e9, aims for
    row 1). ``apply`` returns the position after a step without checking it; ``play``
    checks first and raises ``IllegalStepError``; ``judge`` returns the ``Judgement``.

    The fast form for search works on ints instead of ``Step`` objects: ``move_targets()`` (cells),
    ``legal_wall_masks()`` (slots), ``apply_move(cell)``, ``apply_wall(horizontal, slot)`` and
    ``path_cells(player)``.
    """

    __slots__ = ("board", "pawns", "turn", "_path0", "_path1")

    #: The walls and the walls in hand, with what follows from them (shared, see ``walls.Walls``).
    board: Walls
    #: Cell bit index of each pawn.
    pawns: tuple[int, int]
    turn: int
    # A path per pawn as a cell mask (``path_cells``): 0 until asked, carried forward while true.
    _path0: int
    _path1: int

    # -- construction -----------------------------------------------------------------
    @classmethod
    def initial(cls, ruleset: Ruleset = COURSE) -> Position:
        """The starting position: pawns on e1 and e9, 10 walls each, player 0 to move."""
        pos = _new(cls)
        pos.board = Walls.start(ruleset)
        pos.pawns = (cell_index(*PLAYER0_LOC), cell_index(*PLAYER1_LOC))
        pos.turn = 0
        pos._path0 = pos._path1 = _START_PATH   # the pawns' file, a shortest path for both
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
        left = (int(walls_left[0]), int(walls_left[1]))
        pos = cls.initial(ruleset)
        pos.board = Walls.start(ruleset, left)
        for wall in walls:
            problem = wall_shape_problem(pos, wall)
            if problem is not None:
                raise ValueError(problem.reason)
            pos.board = pos.board.placed(*wall_slot(wall), left)  # type: ignore[misc]
        pos.pawns = (cell_index(*pawns[0]), cell_index(*pawns[1]))
        pos.turn, pos._path0, pos._path1 = turn, 0, 0
        for player in (0, 1):
            if pos.distance(player) is None:
                raise ValueError(f"player {player}'s pawn on {square(pos.pawn(player))} has no path to its goal row")
        return pos

    # -- reading --------------------------------------------------------------------------
    @property
    def ruleset(self) -> Ruleset:
        """The rules this position is played under."""
        return self.board.ruleset

    @property
    def walls_left(self) -> tuple[int, int]:
        """The walls each player still holds."""
        return self.board.walls_left

    @property
    def h_walls(self) -> int:
        """The horizontal walls as a slot mask."""
        return self.board.h_walls

    @property
    def v_walls(self) -> int:
        """The vertical walls as a slot mask."""
        return self.board.v_walls

    @property
    def free_h(self) -> int:
        """The horizontal slots where a wall would overlap or cross none on the board (mask)."""
        return self.board.free_h

    @property
    def free_v(self) -> int:
        """The vertical slots where a wall would overlap or cross none on the board (mask)."""
        return self.board.free_v

    # (not a ``def``: tests/test_architecture.py looks for file opening by its name and a parenthesis)
    open = property(lambda self: self.board.open,
                    doc="The open masks (tuple of 4 ints): the cells from which a pawn may move up, down, left, right.")

    @property
    def components(self) -> tuple[int, ...]:
        """The connected pieces of the graph of walls and border, as grid-point masks."""
        return self.board.components

    def pawn(self, player: int) -> Location:
        """Where ``player``'s pawn stands."""
        return CELL_LOCATIONS[self.pawns[player]]

    @property
    def walls(self) -> list[BlockBar]:
        """Every wall on the board, normalised, horizontal ones first."""
        h_walls, v_walls = self.board.h_walls, self.board.v_walls
        return ([slot_wall(True, p) for p in range(100) if h_walls >> p & 1]
                + [slot_wall(False, p) for p in range(100) if v_walls >> p & 1])

    def has_wall(self, wall: BlockBar) -> bool:
        """True when exactly this wall has been placed."""
        slot = wall_slot(wall)
        if slot is None:
            return False
        horizontal, p = slot
        return bool((self.board.h_walls if horizontal else self.board.v_walls) >> p & 1)

    def winner(self) -> int | None:
        """The player whose pawn stands on its goal row, or ``None``."""
        if self.pawns[0] >= _P0_HOME:
            return 0
        if self.pawns[1] < _P1_HOME:
            return 1
        return None

    def is_over(self) -> bool:
        """True when a pawn has reached its goal row."""
        pawns = self.pawns
        return pawns[0] >= _P0_HOME or pawns[1] < _P1_HOME

    def can_move(self, loc: Location, to: Location) -> bool:
        """True when no wall or edge lies between the orthogonally adjacent cells ``loc`` and ``to``."""
        if not (loc.is_valid() and to.is_valid()) or loc.distance(to) != 1:
            return False
        a, b = cell_index(*loc), cell_index(*to)
        return bool(self.board.open[_SHIFTS.index(b - a)] >> a & 1)

    def distance(self, player: int) -> int | None:
        """Moves ``player``'s pawn needs to reach its goal row, ignoring the other pawn; ``None`` if cut off."""
        return LAYOUT.distance(1 << self.pawns[player], self.board.open, GOAL_ROWS[player])

    def shortest_path(self, player: int) -> list[Location] | None:
        """The cells of one shortest path from ``player``'s pawn to its goal row (pawn first)."""
        path = LAYOUT.path(1 << self.pawns[player], self.board.open, GOAL_ROWS[player])
        return None if path is None else [CELL_LOCATIONS[i] for i in path]

    def path_cells(self, player: int) -> int:
        """The cells of one path of ``player``'s pawn to its goal row as a bit mask (fast form); 0 if cut off.

        Shortest when first asked; carried forward by ``apply`` while no wall cuts it, so then any path.
        """
        if player:
            path = self._path1
            if not path:
                path = self._path1 = path_cells(self.pawns[1], GOAL_ROWS[1], self.board.open)
        else:
            path = self._path0
            if not path:
                path = self._path0 = path_cells(self.pawns[0], GOAL_ROWS[0], self.board.open)
        return path

    # -- legal steps ----------------------------------------------------------------------
    def move_targets(self) -> list[int]:
        """The cells (bit indices) the side to move may move its pawn to (fast form of ``legal_moves``)."""
        turn = self.turn
        me, other = self.pawns[turn], self.pawns[1 - turn]
        if other - me not in _NEXT_TO:
            return [*MOVE_CELLS[me << 4 | self.board.around >> (me << 2) & 15]]
        return self._targets_next_to(me, other)

    def _targets_next_to(self, me: int, other: int) -> list[int]:
        """``move_targets`` when the other pawn stands next to the mover: straight jumps, diagonals if allowed."""
        opened = self.board.open
        targets = []
        for i in range(4):
            if not opened[i] >> me & 1:
                continue
            target = me + _SHIFTS[i]
            if target != other:
                targets.append(target)
            elif opened[i] >> other & 1:
                targets.append(other + _SHIFTS[i])
            elif self.board.ruleset.diagonal_moves:
                for j in ((2, 3) if i < 2 else (0, 1)):
                    if opened[j] >> other & 1:
                        targets.append(other + _SHIFTS[j])
        return targets

    def legal_moves(self) -> list[Location]:
        """The cells the side to move may move its pawn to."""
        return [CELL_LOCATIONS[t] for t in self.move_targets()]

    def legal_wall_masks(self) -> tuple[int, int]:
        """The legal wall slots as two masks (horizontal, vertical), ignoring walls left (fast form of ``legal_walls``)."""
        board = self.board
        need_h, need_v = board.need or board.closing_slots()
        if not (need_h or need_v):
            return board.free_h, board.free_v
        return self._checked_masks(board, need_h, need_v)

    def _checked_masks(self, board: Walls, need_h: int, need_v: int) -> tuple[int, int]:
        """``legal_wall_masks`` when some free slots close a cycle: those not known to seal a pawn are
        checked (``sealing_walls``), and what seals is kept on the board for these pawns (``Walls.sealed``)."""
        pawns, known = self.pawns, board.sealed
        if known is not None and known[0] is pawns:  # the same pawns (carried by apply_wall): still sealing
            known_h, known_v = known[1], known[2]
            need_h &= ~known_h
            need_v &= ~known_v
        else:
            known_h = known_v = 0
        if need_h or need_v:
            bad_h, bad_v = sealing_walls(need_h, need_v, board.open, board.around, pawns,
                                         (self._path0 or self.path_cells(0), self._path1 or self.path_cells(1)),
                                         GOAL_ROWS)
            known_h |= bad_h
            known_v |= bad_v
        free_h, free_v = board.free_h, board.free_v
        known_h &= free_h
        known_v &= free_v
        board.sealed = (pawns, known_h, known_v)
        return free_h & ~known_h, free_v & ~known_v

    def legal_walls(self) -> list[BlockBar]:
        """The walls the side to move may place (none when it has no walls left)."""
        if not self.board.walls_left[self.turn]:
            return []
        return [s.new_wall for s in steps_of_mask(*self.legal_wall_masks())]

    def legal_steps(self) -> list[Step]:
        """Every legal step of the side to move: pawn moves first, then walls (shared, interned objects)."""
        turn, board = self.turn, self.board
        me, other = self.pawns[turn], self.pawns[1 - turn]
        if other - me not in _NEXT_TO:
            moves = MOVE_LISTS[me << 4 | board.around >> (me << 2) & 15]
        else:
            moves = tuple(MOVE_STEPS[t] for t in self._targets_next_to(me, other))
        if not board.walls_left[turn]:
            return [*moves]
        # legal_wall_masks, inlined
        need_h, need_v = board.need or board.closing_slots()
        if not (need_h or need_v):    # no free slot closes a cycle in the wall graph: all are legal
            return steps_of_mask(board.free_h, board.free_v, moves)
        return steps_of_mask(*self._checked_masks(board, need_h, need_v), moves)

    def count_legal_steps(self) -> int:
        """How many legal steps the side to move has."""
        if not self.board.walls_left[self.turn]:
            return len(self.move_targets())
        h, v = self.legal_wall_masks()
        return len(self.move_targets()) + h.bit_count() + v.bit_count()

    # -- judging (``judging``) ----------------------------------------------------------------
    def judge(self, step: Step) -> Judgement:
        """The status ``step`` earns for the side to move: Ok, InvalidStep or InsufficientBlock, with a
        reason for people and, when it is illegal, the ``Cause`` (one stable code per reason)."""
        return judge_step(self, step)

    def is_legal(self, step: Step) -> bool:
        """True when ``step`` is legal for the side to move."""
        return judge_step(self, step).ok

    # -- applying -------------------------------------------------------------------------
    def apply(self, step: Step) -> Position:
        """The position after the side to move plays ``step``, which must be legal (not checked)."""
        cell = _move_of(id(step))   # an interned step (the legal lists hand out those): no decoding
        if cell is None:
            wall = _wall_of(id(step))
            if wall is None:
                if step.is_move():
                    return self.apply_move(cell_index(*step.new_loc))
                wall = wall_slot(step.new_wall)
            return self.apply_wall(*wall)  # type: ignore[misc]
        # apply_move, inlined: a random playout spends most of its plies here.
        pos = _new(Position)
        pos.board = self.board
        if self.turn:
            me = self.pawns[1]
            pos.pawns, pos.turn, pos._path0 = (self.pawns[0], cell), 0, self._path0
            path = self._path1
            pos._path1 = moved_path(path, me, cell, self.board.around) if path else 0
        else:
            me = self.pawns[0]
            pos.pawns, pos.turn, pos._path1 = (cell, self.pawns[1]), 1, self._path1
            path = self._path0
            pos._path0 = moved_path(path, me, cell, self.board.around) if path else 0
        return pos

    def apply_move(self, cell: int) -> Position:
        """The position after the side to move moves its pawn to ``cell`` (a bit index; legal, not checked). Fast form."""
        pos = _new(Position)
        pos.board = self.board
        # The mover's path goes along (``walls.moved_path``); the other pawn's stays as it is.
        if self.turn:
            me = self.pawns[1]
            pos.pawns, pos.turn, pos._path0 = (self.pawns[0], cell), 0, self._path0
            path = self._path1
            pos._path1 = moved_path(path, me, cell, self.board.around) if path else 0
        else:
            me = self.pawns[0]
            pos.pawns, pos.turn, pos._path1 = (cell, self.pawns[1]), 1, self._path1
            path = self._path0
            pos._path0 = moved_path(path, me, cell, self.board.around) if path else 0
        return pos

    def apply_wall(self, horizontal: bool, slot: int) -> Position:
        """The position after the side to move places the wall at ``slot`` (legal, not checked). Fast form.

        Slots are numbered as in ``legal_wall_masks``: the grid point ``(x, y)`` of the wall's
        lower-left end is bit ``y * 10 + x`` (``shared.quoridor.geometry``). A pawn's path goes
        along while the wall cuts none of its edges, or is mended round the wall (``walls.walled_path``).
        """
        pos = _new(Position)
        left = self.board.walls_left
        path0, path1 = self._path0, self._path1
        board = self.board.placed(horizontal, slot, (left[0], left[1] - 1) if self.turn else (left[0] - 1, left[1]))
        pos.board, pos.turn, pos.pawns = board, 1 - self.turn, self.pawns
        if board.walls_left == _NONE_LEFT:   # the last wall: no legal list needs a path again, the moves carry none
            pos._path0 = pos._path1 = 0
            return pos
        pos._path0 = walled_path(path0, horizontal, slot, board.around) if path0 else 0
        pos._path1 = walled_path(path1, horizontal, slot, board.around) if path1 else 0
        return pos

    def play(self, step: Step) -> Position:
        """The position after ``step``; raises ``IllegalStepError`` (with the reason) when it is illegal."""
        judgement = self.judge(step)
        if not judgement.ok:
            raise IllegalStepError(step, judgement)
        return self.apply(step)

    def pass_turn(self) -> Position:
        """The same board with the other player to move (after a violation)."""
        pos = _new(Position)
        pos.board, pos.pawns, pos._path0, pos._path1 = self.board, self.pawns, self._path0, self._path1
        pos.turn = 1 - self.turn
        return pos

    # -- identity -------------------------------------------------------------------------
    def _key(self) -> tuple:
        board = self.board
        return (board.ruleset.name, self.pawns, board.walls_left, self.turn, board.h_walls, board.v_walls)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        walls = " ".join(wall_name(w) for w in self.walls) or "none"
        return (f"Position({square(self.pawn(0))} {square(self.pawn(1))}, walls: {walls}, "
                f"left {self.walls_left[0]}/{self.walls_left[1]}, player {self.turn} to move, {self.ruleset.name})")

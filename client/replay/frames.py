"""The frame model of a replay: a ``ReplayGame`` is the list of ``Frame`` a viewer shows. Pure.

Frame 0 is the starting position; frame k shows the board after the k-th row of a log (or the
k-th ``game_update`` of a live game). Rows that break the rules without being applied
(violations) get a frame too, with the board unchanged and the reason. A log that disagrees with
the rules is checked by the rules up to its first disagreement, whose frame carries the problem;
from that row on, rows are drawn the old viewer's way, as the log gives them (``asgiven``), each
frame marked ``unverified`` with the line of the disagreement. A row that cannot be drawn even
so (a cell off the board, a malformed wall) gets a last frame saying why (``stop``), board unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from shared.gamelog import DRAWN, GameLog, ReplayStep, replay
from shared.protocol import GameUpdate, to_blockbar, to_location
from shared.quoridor import BlockBar, GameStatus, Position, Step, find_ruleset, step_name

__all__ = ["Frame", "ReplayGame", "STATUS_NAMES", "frames_from_log", "apply_update", "describe_step", "result_text"]

STATUS_NAMES = {
    GameStatus.OK: "Ok", GameStatus.WIN: "Win", GameStatus.LOST: "Lost", GameStatus.TIMEOUT: "Timeout",
    GameStatus.ENEMY_CLOSED: "EnemyClosed", GameStatus.RULES_BREAKER: "RulesBreaker",
    GameStatus.INSUFFICIENT_BLOCK: "InsufficientBlock", GameStatus.INVALID_STEP: "InvalidStep",
    GameStatus.NONE: "None",
}
"""The handout's name of each status, as the old viewer prints it."""

_ENDING = (GameStatus.WIN, GameStatus.LOST, GameStatus.ENEMY_CLOSED, GameStatus.RULES_BREAKER)
_TIMEOUT_REASON = "no answer within the time limit"
_BREAKER_REASON = "the third violation loses the game"


@dataclass(frozen=True)
class Frame:
    """One position to show and the step that led to it (``seat`` is None for the start)."""

    #: The step's number in the game: 0 for the start, k after the k-th step.
    step: int
    position: Position
    seat: int | None = None
    player: str | None = None
    #: What the player sent (a move, a wall, both or neither).
    sent: Step = Step()
    #: The step in algebraic notation (``e2``, ``e1h``, ``-``), or its coordinates when it has none.
    notation: str = ""
    status: GameStatus | None = None
    #: Why the step was a violation, as the rules say it ("" for an applied step).
    reason: str = ""
    #: Where the log disagrees with the rules on this row (its first disagreement), or why a live
    #: board cannot be drawn.
    problem: str | None = None
    thinking_ms: int | None = None
    #: Total thinking time per seat so far; None when the source does not record times.
    clocks_ms: tuple[int, int] | None = None
    violations: tuple[int, int] = (0, 0)
    #: The file line of the row (logs only).
    line: int | None = None
    #: True when this step ended the game.
    over: bool = False
    #: Not checked by the rules: the line of the log's first disagreement, from which rows are
    #: drawn as the log gives them (None for a frame the rules checked).
    unverified: int | None = None
    #: Why the replay stops at this row: it cannot be drawn even as the log gives it (board unchanged).
    stop: str | None = None

    @property
    def is_violation(self) -> bool:
        """True for a step the rules refused (Timeout, InsufficientBlock, InvalidStep, RulesBreaker)."""
        return self.status is not None and (self.status.is_violation or self.status is GameStatus.RULES_BREAKER)

    @property
    def flagged(self) -> bool:
        """True when the frame should stand out: a violation, a disagreement, or where the replay stops."""
        return self.is_violation or self.problem is not None or self.stop is not None

    @property
    def applied(self) -> bool:
        """True when the board shows this frame's step placed (by the rules, or drawn as the log gives it)."""
        if self.status is None or self.stop is not None:
            return False
        if self.unverified is not None:
            return self.status in DRAWN
        return not self.flagged

    @property
    def ignored_wall(self) -> BlockBar | None:
        """The wall this step also carried though it counts as a move (handout rule 5), never placed; else None."""
        if self.status is None or not self.sent.is_move() or self.sent.new_wall.is_none():
            return None
        return self.sent.new_wall

    @property
    def ignored_wall_note(self) -> str:
        """What the frame says of a wall sent beside a move (``ignored_wall``); ``""`` when there is none."""
        wall = self.ignored_wall
        if wall is None:
            return ""
        return (f"this row also gives the wall {_notation(Step(new_wall=wall))}: not placed, because a step with "
                "both a cell and a wall counts as the move (handout rule 5); the course's viewer ignores it too")

    @property
    def unverified_note(self) -> str:
        """What a frame the rules did not check says about itself; ``""`` for a checked frame."""
        if self.unverified is None or self.stop is not None:
            return ""
        if self.line == self.unverified:
            return "unverified: from this row on, rows are drawn as the log gives them, not checked by the rules"
        return f"unverified: after the disagreement at line {self.unverified} (drawn as the log gives it)"


@dataclass
class ReplayGame:
    """A game as a viewer sees it: players by seat, the frames, and what is known of the end.

    ``problems`` are the log's disagreements with the rules (``line N: ...``); ``rows`` is how
    many step rows the source holds, which is more than ``len(frames) - 1`` when the replay stopped.
    ``end_unverified`` is True when ``winner``/``reason`` are what the log's last row claims, past a
    disagreement, unchecked by the rules.
    """

    key: str
    players: tuple[str, str]
    frames: list[Frame]
    ruleset: str = "course"
    title: str = ""
    problems: list[str] = field(default_factory=list)
    winner: int | None = None
    reason: str | None = None
    rows: int = 0
    live: bool = False
    end_unverified: bool = False

    @property
    def over(self) -> bool:
        """True when the game's end is known (``end_unverified``: as the log's last row claims it)."""
        return self.reason is not None

    @property
    def first_step(self) -> int:
        """The step number of frame 0 (above 0 for a live game joined late)."""
        return self.frames[0].step

    @property
    def last_step(self) -> int:
        """The step number of the last frame."""
        return self.frames[-1].step

    @property
    def unverified_from(self) -> int | None:
        """The line of the disagreement after which frames are drawn unchecked; None when the rules checked all."""
        return next((f.unverified for f in self.frames if f.unverified is not None), None)

    def result(self) -> str:
        """``alice won (goal)``, ``draw (step cap)``, ``double forfeit``, ``alice won (goal, unverified)``,
        ``in progress``, ``no result``."""
        return result_text(self.players, self.winner, self.reason, live=self.live, unverified=self.end_unverified)


def result_text(players: tuple[str, str], winner: int | None, reason: str | None, *, live: bool = False,
                unverified: bool = False) -> str:
    """The end of a game in words, for people; ``unverified``: as the log gives it, not checked by the rules."""
    if reason is None:
        return "in progress" if live else "no result"
    why = reason.replace("_", " ") + (", unverified" if unverified else "")
    if winner is None and reason == "forfeit":          # neither player came: it scores for neither
        return "double forfeit" + (" (unverified)" if unverified else "")
    return f"draw ({why})" if winner is None else f"{players[winner]} won ({why})"


def describe_step(sent: Step, status: GameStatus | None) -> str:
    """What a player did, in words: ``moved to e2``, ``placed wall e7h``, ``sent an empty step``."""
    if status is GameStatus.TIMEOUT:
        return "timed out"
    if sent.is_move():
        return f"moved to {_notation(sent)}"
    if not sent.new_wall.is_none():
        return f"placed wall {_notation(sent)}"
    if sent.is_nan():
        return "sent an empty step"
    return f"moved to {sent.new_loc} (off the board)"


def _notation(sent: Step) -> str:
    try:
        return step_name(sent)
    except ValueError:   # a wall that is no wall, a cell off the board: show the numbers
        return str(sent.new_wall) if sent.new_loc.is_nan() else str(sent.new_loc)


# -- logs ----------------------------------------------------------------------------------------
def frames_from_log(log: GameLog, *, key: str = "", title: str = "") -> ReplayGame:
    """Replay ``log`` into frames: checked by the rules core up to a disagreement, unverified after it (module doc)."""
    run = replay(log)
    players = log.header.players
    timed = all(record.thinking_ms is not None for record in log.steps)
    clocks = [0, 0] if timed else None
    violations = [0, 0]
    frames = [Frame(0, Position.initial(run.ruleset), clocks_ms=(0, 0) if timed else None)]
    first = run.disagreement
    for done in [*run.steps, *run.unverified]:
        record = done.record
        if clocks is not None:
            clocks[done.seat] += record.thinking_ms or 0
        if record.status.is_violation or record.status is GameStatus.RULES_BREAKER:
            violations[done.seat] += 1
        since = None if done.verified or first is None else first.line
        problem = first.message if since is not None and done.line == since else None
        frames.append(Frame(
            len(frames), done.position, done.seat, record.player, record.step, _notation(record.step), record.status,
            _reason(done), problem, record.thinking_ms, None if clocks is None else (clocks[0], clocks[1]),
            (violations[0], violations[1]), done.line, done.verified and record.status in _ENDING, since))
    problems = [str(p) for p in run.problems]
    if run.halt is not None and first is not None:      # a row that cannot be drawn even unchecked: stop there
        record = log.steps[len(frames) - 1]
        seat = players.index(record.player) if record.player in players else None
        frames.append(Frame(
            len(frames), run.shown_position, seat, record.player, record.step, _notation(record.step), record.status,
            "", first.message if run.halt.line == first.line else None, record.thinking_ms, frames[-1].clocks_ms,
            frames[-1].violations, run.halt.line, False, first.line, run.halt.message))
        problems.append(str(run.halt))
    winner, reason, claimed = run.winner, run.reason, False
    if reason is None and run.claimed is not None:     # the last row says how it ended; the rules could not check it
        (winner, reason), claimed = run.claimed, True
    return ReplayGame(key or log.header.game or "game", players, frames, log.header.ruleset, title,
                      problems, winner, reason, len(log.steps), end_unverified=claimed)


def _reason(done: ReplayStep) -> str:
    """Why a row was a violation: the referee's words as the log keeps them (how late a late step was),
    else what the rules say of its step."""
    status, logged = done.record.status, done.record.reason
    if status is GameStatus.TIMEOUT:
        return logged or _TIMEOUT_REASON
    if status is GameStatus.RULES_BREAKER:
        return f"{_BREAKER_REASON}: {logged}" if logged else _BREAKER_REASON
    judgement = done.judgement
    return judgement.reason if judgement is not None and not judgement.ok else ""


# -- live games ----------------------------------------------------------------------------------
def apply_update(games: dict[str, ReplayGame], update: GameUpdate, ruleset: str = "course") -> ReplayGame:
    """Add the frame of one ``game_update`` to its game in ``games`` (creating it); returns the game.

    A game watched from its first step starts with the initial position as frame 0; one joined
    later starts with the first board received. Updates for steps already shown are ignored.
    """
    game = games.get(update.game)
    rules = find_ruleset(ruleset)
    if game is None:
        start = [Frame(0, Position.initial(rules), clocks_ms=(0, 0))] if update.turn == 0 else []
        game = games[update.game] = ReplayGame(update.game, update.players, start, ruleset, update.game, live=True)
    previous = game.frames[-1] if game.frames else None
    step = update.turn + 1
    if previous is not None and step <= previous.step:
        return game
    seat = update.seat if update.seat in (0, 1) else None
    sent = Step(to_location(update.move), to_blockbar(update.wall))
    status = _status(update.status)
    problem = None
    try:
        board = update.board
        position = Position.setup((to_location(board.pawns[0]), to_location(board.pawns[1])),
                                  [to_blockbar(w) for w in board.walls], walls_left=board.walls_left,
                                  turn=0 if seat is None else 1 - seat, ruleset=rules)
    except ValueError as exc:     # a board the rules cannot hold: keep the last one and say why
        position = previous.position if previous is not None else Position.initial(rules)
        problem = f"the server's board after this step cannot be drawn: {exc}"
    thinking = None
    if previous is not None and previous.clocks_ms is not None and seat is not None and previous.step == step - 1:
        thinking = update.clocks_ms[seat] - previous.clocks_ms[seat]
    violations = list(previous.violations) if previous is not None else [0, 0]
    if seat is not None and status is not None and (status.is_violation or status is GameStatus.RULES_BREAKER):
        violations[seat] += 1
    reason = ""
    if status is GameStatus.TIMEOUT:
        reason = _TIMEOUT_REASON
    elif status is GameStatus.RULES_BREAKER:
        reason = _BREAKER_REASON
    elif status is not None and status.is_violation and previous is not None and previous.step == step - 1:
        reason = previous.position.judge(sent).reason   # the rules say why, as the referee did
    frame = Frame(step, position, seat, None if seat is None else update.players[seat], sent,
                  update.notation, status, reason, problem, thinking, update.clocks_ms,
                  (violations[0], violations[1]), None, update.over)
    game.frames.append(frame)
    game.rows += 1
    if problem is not None:
        game.problems.append(f"step {step}: {problem}")
    if update.over and seat is not None:
        game.winner, game.reason = _end(status, seat, position, update.clocks_ms)
    return game


def _status(code: int) -> GameStatus | None:
    try:
        return GameStatus(code)
    except ValueError:
        return None


def _end(status: GameStatus | None, seat: int, position: Position, clocks_ms: tuple[int, int]) -> tuple[int | None, str]:
    """Who won and why, from the step that ended the game (a spectator gets no ``game_over``)."""
    if status is GameStatus.RULES_BREAKER:
        return 1 - seat, "violations"
    if position.winner() is not None:
        return position.winner(), "goal"
    # Otherwise the step cap ended it: the smaller total thinking time wins, equal times draw.
    t0, t1 = clocks_ms
    return (None if t0 == t1 else 0 if t0 < t1 else 1), "step_cap"

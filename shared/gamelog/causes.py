"""Why each violation of a game log was one: the referee's ``Cause`` of every violation row, found again.

A log names each violation's status (Timeout, InvalidStep, InsufficientBlock, or RulesBreaker for the one that
loses the game) and the referee's reason for people, not the cause's code; the replay gives back the rules'
verdict on each InvalidStep and InsufficientBlock row. A RulesBreaker row's cause is the rules' verdict on its
step when the referee's reason is that verdict's, else ``late``: the referee judges the clock first, so a late
answer is late whatever it holds. In a log without reasons (older servers) an empty step is a timeout and any
other illegal step its rules' cause. Pure.
"""

from __future__ import annotations

from ..quoridor import Cause, GameStatus, Position
from .records import StepRecord
from .replay import Replay

__all__ = ["violation_causes"]

_JUDGED = (GameStatus.INVALID_STEP, GameStatus.INSUFFICIENT_BLOCK)


def violation_causes(played: Replay) -> tuple[tuple[Cause, ...], tuple[Cause, ...]]:
    """Each seat's violations in the rows of ``played`` that agree with the rules, in play order, as ``Cause``s;
    as many as ``played.violations`` counts."""
    causes: tuple[list[Cause], list[Cause]] = ([], [])
    before = Position.initial(played.ruleset)
    for row in played:
        status = row.record.status
        if status is GameStatus.TIMEOUT:
            causes[row.seat].append(Cause.LATE)
        elif status in _JUDGED and row.judgement is not None and row.judgement.cause is not None:
            causes[row.seat].append(row.judgement.cause)
        elif status is GameStatus.RULES_BREAKER:
            causes[row.seat].append(_last_straw(before, row.record))
        before = row.position
    return tuple(causes[0]), tuple(causes[1])


def _last_straw(before: Position, record: StepRecord) -> Cause:
    """The cause of the violation that lost the game, played in ``before``."""
    if not record.reason and record.step.is_nan():       # an older log's timeout: nothing sent, no reason given
        return Cause.LATE
    judgement = before.judge(record.step)
    if not judgement.ok and judgement.cause is not None and record.reason in ("", judgement.reason):
        return judgement.cause
    return Cause.LATE

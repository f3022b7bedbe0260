"""The queue's pure parts: jobs and answers round-trip through JSON, step entries give back the referee's own
events, the ledger takes each game once; nothing here needs the engine."""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path

import pytest

from client.bots.runner import race_step
from server.games.match import MatchResult
from server.queue import PROTOCOL, JobRefusal, JobResult, ResultLedger, Verdict
from server.queue.events import AttemptEntry, DoneEntry, StepEntry, attempt_entry, done_entry, parse_entry, step_entry
from server.queue.jobs import (
    PairingJob, job_for, job_result, job_timeout_s, limits_for, log_text, pairing_for, pairing_result, parse_answer,
)
from server.sandbox import BotEntry, BotReport, GameSpec, Pairing, PairingResult, SandboxLimits
from server.sandbox.causes import BotEnd
from server.sandbox.seat import StepTiming
from shared.gamelog import GameOutcome
from shared.quoridor import STANDARD, BlockBar, Location, Step
from shared.referee import GameFinished, GameReferee, RefereeSettings, StepJudged, TurnRequest

DIGEST = "ab" * 32


def a_pairing(tmp_path: Path) -> Pairing:
    games = (GameSpec("t1-r1-p1-g1", tmp_path / "g1.csv", 0), GameSpec("t1-r1-p1-g2", tmp_path / "g2.csv", 1))
    return Pairing((BotEntry("mine", "bot.py:Mine", tmp_path / "mine", "abababababab"), BotEntry("random", "random")),
                   games, RefereeSettings(ruleset=STANDARD, time_limit_ms=500, step_cap=40), tournament="cup")


def test_a_job_names_the_pairing_completely_and_a_worker_rebuilds_it(tmp_path):
    pairing = a_pairing(tmp_path)
    job = job_for(pairing, SandboxLimits(address_space_mb=128), {"mine": DIGEST})
    again = PairingJob.model_validate(json.loads(json.dumps(job.model_dump(mode="json"))))
    assert again == job and again.protocol == PROTOCOL
    assert again.bots[0].digest == DIGEST and again.bots[1].digest is None
    rebuilt = pairing_for(again, {DIGEST: tmp_path / "cache" / DIGEST}, tmp_path / "work")
    assert rebuilt.referee == pairing.referee and rebuilt.tournament == "cup"
    assert [(g.game_id, g.log_path.name, g.white) for g in rebuilt.games] == \
        [(g.game_id, g.log_path.name, g.white) for g in pairing.games]
    assert rebuilt.bots[0] == BotEntry("mine", "bot.py:Mine", tmp_path / "cache" / DIGEST, DIGEST[:12])
    assert rebuilt.bots[1] == BotEntry("random", "random")
    assert limits_for(again, unsafe=True) == SandboxLimits(address_space_mb=128, unsafe=True)


def test_a_job_carries_the_clock_options_and_its_timeout_allows_the_wall_time_cap(tmp_path):
    pairing = dataclasses.replace(a_pairing(tmp_path), referee=RefereeSettings(
        time_limit_ms=500, step_cap=40, clock="cpu", wall_cap_ms=2000, time_bank_ms=300))
    job = job_for(pairing, SandboxLimits(), {"mine": DIGEST})
    again = PairingJob.model_validate(json.loads(json.dumps(job.model_dump(mode="json"))))
    assert pairing_for(again, {DIGEST: tmp_path}, tmp_path).referee == pairing.referee
    wall = job_for(dataclasses.replace(pairing, referee=RefereeSettings(time_limit_ms=500, step_cap=40)),
                   SandboxLimits(), {"mine": DIGEST})
    assert job_timeout_s(job, margin_s=0) - job_timeout_s(wall, margin_s=0) == int(2 * 2 * 40 * 1.5)


def test_a_ladder_pairing_carries_its_opening_to_the_worker(tmp_path):
    opening = (Step(Location(5, 2)), Step(Location(5, 8)), Step(Location(4, 2)))
    pairing = dataclasses.replace(a_pairing(tmp_path), opening=opening)
    job = job_for(pairing, SandboxLimits(), {"mine": DIGEST})
    assert job.opening == ("e2", "e8", "d2")
    again = PairingJob.model_validate(json.loads(json.dumps(job.model_dump(mode="json"))))
    assert pairing_for(again, {DIGEST: tmp_path}, tmp_path).opening == opening
    assert job.key != job_for(a_pairing(tmp_path), SandboxLimits(), {"mine": DIGEST}).key     # another opening


def test_the_same_pairing_is_the_same_job_key_and_another_pairing_is_another(tmp_path):
    pairing = a_pairing(tmp_path)
    key = job_for(pairing, SandboxLimits(), {"mine": DIGEST}).key
    assert key == job_for(a_pairing(tmp_path), SandboxLimits(), {"mine": DIGEST}).key
    assert key.startswith("t1-r1-p1-g1+t1-r1-p1-g2#")
    assert key != job_for(pairing, SandboxLimits(), {"mine": "cd" * 32}).key       # another version of the bot
    assert key != job_for(pairing, SandboxLimits(cpu_seconds=9), {"mine": DIGEST}).key


def test_a_job_may_run_as_long_as_every_step_at_its_limit(tmp_path):
    job = job_for(a_pairing(tmp_path), SandboxLimits(startup_timeout_s=10), {"mine": DIGEST})
    assert job_timeout_s(job, margin_s=0) == int(2 * 2 * 40 * 0.55 + 20)
    no_limit = job.model_copy(update={"rules": job.rules.model_copy(update={"time_limit_ms": None})})
    assert job_timeout_s(no_limit) == 0


def test_an_answer_round_trips_with_its_logs_and_reports(tmp_path):
    pairing = a_pairing(tmp_path)
    outcome = GameOutcome(1, "goal", (120, 80), (0, 1), ((1, None), (2,)), "seat 0 crashed: killed by SIGKILL")
    games = tuple(MatchResult(g.game_id, outcome, tmp_path / "worker" / g.log_path.name, "2026-01-01T00:00:00Z",
                              "2026-01-01T00:00:05Z", 3) for g in pairing.games)
    reports = (BotReport("mine", BotEnd("crashed", "killed by SIGKILL"), 0.12,
                         (StepTiming("t1-r1-p1-g1", 0, 5.5, 1.25), StepTiming("t1-r1-p1-g1", 2, 3.0, None)), "boom"),
               BotReport("random", BotEnd("ok", ""), None, ()))
    logs = {g.game_id: f"player,...\nlog of {g.game_id} é\n" for g in pairing.games}
    answer = job_result(PairingResult(games, reports), logs, worker="w1", attempt=2)
    parsed = parse_answer(json.loads(json.dumps(answer.model_dump(mode="json"))))
    assert isinstance(parsed, JobResult) and parsed == answer and parsed.attempt == 2
    assert [log_text(g) for g in parsed.games] == list(logs.values())
    result = pairing_result(parsed, pairing)
    assert [g.log_path for g in result.games] == [g.log_path for g in pairing.games]      # the server's own paths
    assert [g.outcome for g in result.games] == [outcome, outcome]
    assert result.reports == reports


def test_an_answer_for_other_games_is_not_taken_for_the_pairing(tmp_path):
    pairing = a_pairing(tmp_path)
    outcome = GameOutcome(0, "goal", (1, 1), (0, 0))
    stranger = MatchResult("t9-r1-p1-g1", outcome, tmp_path / "x.csv", "a", "b", 1)
    answer = job_result(PairingResult((stranger,), (BotReport("a", None, None, ()), BotReport("b", None, None, ()))),
                        {"t9-r1-p1-g1": ""}, worker="w", attempt=1)
    with pytest.raises(ValueError, match="t9-r1-p1-g1"):
        pairing_result(answer, pairing)


def test_a_refusal_is_told_apart_from_a_result():
    refusal = parse_answer({"kind": "refused", "protocol": PROTOCOL, "worker": "w", "code": "unfetchable",
                            "reason": "bot version abababababab is not in the engine"})
    assert isinstance(refusal, JobRefusal) and refusal.code == "unfetchable"
    with pytest.raises(ValueError):
        parse_answer({"kind": "result", "worker": "w"})


# -- step entries -------------------------------------------------------------------------------
def played_steps() -> tuple[list[StepJudged], GameOutcome]:
    """A game of two runners with a few illegal walls thrown in, as the referee judged it."""
    referee = GameReferee(("white", "black"), RefereeSettings(time_limit_ms=1000))
    events: list[object] = list(referee.start())
    judged: list[StepJudged] = []
    clock = 0.0
    bad_wall = Step(new_wall=BlockBar.of(1, 1, 1, 1))
    while not referee.is_over:
        request = next(e for e in reversed(events) if isinstance(e, TurnRequest))
        referee.clock_started(request.turn, clock)
        clock += 0.01
        step = bad_wall if request.turn in (3, 7) else (race_step(referee.position) or Step())
        events = referee.receive_step(request.seat, request.turn, step, clock)
        judged += [e for e in events if isinstance(e, StepJudged)]
        assert not any(isinstance(e, GameFinished) for e in events) or referee.is_over
    assert referee.outcome is not None
    return judged, referee.outcome


def test_a_step_entry_gives_back_the_referees_own_event():
    judged, outcome = played_steps()
    assert any(j.cause is not None for j in judged)
    for number, event in enumerate(judged):
        last = number == len(judged) - 1
        entry = parse_entry(json.loads(json.dumps(step_entry(3, "g1", event, outcome if last else None))))
        assert isinstance(entry, StepEntry)
        assert (entry.attempt, entry.game, entry.judged) == (3, "g1", event)
        assert entry.outcome == (outcome if last else None)


def test_attempt_and_done_entries_and_strangers():
    assert parse_entry(attempt_entry(2, "w1")) == AttemptEntry(2, "w1")
    assert parse_entry({b"e": done_entry(4)["e"].encode()}) == DoneEntry(4)
    for bad in ({}, {"e": "{}"}, {"e": '{"t": "mystery", "a": 1}'}, {"e": '{"t": "step", "a": 1}'}):
        with pytest.raises(ValueError):
            parse_entry(bad)


# -- the ledger -----------------------------------------------------------------------------------
def test_each_game_is_taken_once_and_only_from_the_job_that_holds_it():
    ledger = ResultLedger()
    ledger.expect("job1", ["g1", "g2"])
    assert ledger.take("job1", "g1") is Verdict.TAKEN
    assert ledger.take("job1", "g1") is Verdict.DUPLICATE
    assert ledger.take("job1", "g9") is Verdict.UNKNOWN
    assert ledger.take("job2", "g2") is Verdict.UNKNOWN          # a job the server never asked for
    ledger.close("job1")
    assert ledger.take("job1", "g2") is Verdict.UNKNOWN
    ledger.expect("job1", ["g1", "g2"])                            # asked again: g1 stays taken
    assert ledger.take("job1", "g1") is Verdict.DUPLICATE and ledger.take("job1", "g2") is Verdict.TAKEN
    assert "duplicate" in ledger.refusal(Verdict.DUPLICATE, "job1", "g1", "w1")
    assert "did not ask" in ledger.refusal(Verdict.UNKNOWN, "job1", "g9", "w1")


def test_the_ledger_forgets_the_oldest_games_beyond_its_size():
    ledger = ResultLedger(kept=2)
    ledger.expect("j", ["a", "b", "c"])
    for game in "abc":
        assert ledger.take("j", game) is Verdict.TAKEN
    assert not ledger.taken("a") and ledger.taken("c")


def test_the_embedded_default_never_imports_the_engine():
    import subprocess

    code = ("import sys, server.app, server.cli, server.queue, server.queue.jobs, server.queue.events; "
            "print(sorted(m for m in ('saq', 'redis') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          cwd=Path(__file__).resolve().parents[3])
    assert done.stdout.strip() == "[]"

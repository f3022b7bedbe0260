"""One or more sample instances of every protocol message; tests taking ``message`` run once per sample."""

from __future__ import annotations

import pytest

from shared.protocol import (
    Action, BoardState, ErrorMessage, FinalTableRequest, GameOver, GameStart, GameUpdate, GameUpdates, Hello,
    Message, PuzzleMessage, PuzzleRequest, PuzzleState, RulesInfo, Solution, StandingRow, Standings,
    StepJudgement, StepMessage, TournamentOver, Turn, Verdict, Watch, Welcome,
    GameRecord, GameRequest, LogUpload, ReplayFolder, ReplayGameEntry, Replays, ReplaysRequest,
    SubmissionEntry, Submissions, SubmissionsRequest, Submit, Submitted,
    Ladder, LadderRequest, LadderRow, TournamentInfo,
    Organiser, OrganiserRequest, OrganiserRow, OrganiserTournament, OrganiserVersion, WorstGame,
)

ROWS = [
    StandingRow(rank=1, player="Team 7", points=3.5, games=4, wins=3, losses=0, draws=1, elo=1612.5,
                elo_error=140.0, violations=1, thinking_ms=9120),
    StandingRow(rank=2, player="Ünïcode ☃", points=0.0, games=4, wins=0, losses=4, draws=0),
]

CLIENT_SAMPLES: list[Message] = [
    Hello(protocol=1, role="player", key="k3y-team-7"),
    Hello(protocol=1, role="spectator", room="circuit", key="~!@#$%^&*()", name="Éva ☃"),
    StepMessage(game="g1", turn=0, move=(5, 2)),
    StepMessage(game="g1", turn=7, wall=((6, 1), (4, 1))),
    StepMessage(game="g1", turn=9, move=(10, -1), wall=((5, 0), (5, 2))),
    StepMessage(game="g1", turn=11),
    Watch(game="*"),
    Watch(game="g1", batch=True),
    PuzzleRequest(room="sokoban", collection="Microban", index=3),
    PuzzleRequest(room="sokoban", xsb="#####\n#@$.#\n#####"),
    PuzzleRequest(room="circuit", difficulty="hell", size=8, seed=-5),
    Solution(puzzle="s1", answer="lUrD"),
    Solution(puzzle="i1", answer=["u", "d"]),
    Solution(puzzle="c1", answer=[0, 90, 270]),
    Solution(puzzle="c1", answer=[]),
    Action(puzzle="c1", action="rotate", args={"row": 1, "col": 2}),
    Action(puzzle="s1", action="undo"),
    GameRequest(game="t1/g1_a_vs_b.csv"),
    ReplaysRequest(),
    LogUpload(name="game.csv", csv="player,newLoc_x\nMe,5\n"),
    LogUpload(csv=""),
    Hello(protocol=1, role="submitter", key="k3y-team-7"),
    Submit(zip="UEsFBgAAAAAAAAAAAAAAAAAAAAAAAA=="),
    Submit(entry="pkg/mod.py:MyPlayer", part=2, parts=3, zip="QUJD"),
    SubmissionsRequest(),
    LadderRequest(),
    LadderRequest(report="alice@3f2a9c01"),
    FinalTableRequest(),
    OrganiserRequest(key="teacher-k3y"),
]

SERVER_SAMPLES: list[Message] = [
    Welcome(player="Team 7", server="quoridor-arena 0.1.0",
            rules=RulesInfo(ruleset="course", time_limit_ms=1000, violations_allowed=3, step_cap=100,
                            walls_per_player=10)),
    Welcome(player="x", server="debug", rules=RulesInfo(ruleset="standard", time_limit_ms=None,
                                                        violations_allowed=3, step_cap=100, walls_per_player=10)),
    GameStart(game="g1", opponent="Team 3", seat=1),
    Turn(game="g1", turn=0, status=0, my_loc=(5, 1), enemy_loc=(5, 9), enemy_wall=None, walls_left=(10, 10),
         time_limit_ms=1000),
    Turn(game="g1", turn=4, status=7, my_loc=(5, 2), enemy_loc=(5, 8), enemy_wall=((4, 2), (6, 2)),
         walls_left=(10, 8), time_limit_ms=None,
         judgement=StepJudgement(status=7, cause="not_reachable", reason="a4 is not reachable in one step from e2",
                                 thinking_ms=41)),
    GameOver(game="g1", status=1, result="win", reason="goal", winner="Team 7", log="replays/g1.csv",
             thinking_ms=(2140, 5310)),
    GameOver(game="g3", status=5, result="loss", reason="violations", winner="Team 3",
             judgement=StepJudgement(status=3, cause="late", reason="answered after 1,203 ms; the limit is 1,000 ms",
                                     thinking_ms=1203)),
    GameOver(game="g2", status=2000, result="draw", reason="step_cap", winner=None),
    Standings(tournament="t1", games_done=6, games_total=12, rows=ROWS),
    Standings(tournament="t1", games_done=0, games_total=0, rows=[]),
    TournamentOver(tournament="t1", rows=ROWS),
    TournamentOver(tournament="t1", rows=ROWS, champion="Team 7", players=40),
    GameUpdate(game="g1", players=("Team 7", "Team 3"), turn=3, seat=1, move=None, wall=((4, 2), (6, 2)),
               notation="e2h", status=0, clocks_ms=(310, 455),
               board=BoardState(pawns=((5, 2), (5, 8)), walls=[((4, 2), (6, 2))], walls_left=(10, 9))),
    GameUpdate(game="g1", players=("a", "b"), turn=80, seat=0, move=(5, 9), wall=None, notation="e9",
               status=1, clocks_ms=(0, 0), board=BoardState(pawns=((5, 9), (1, 1)), walls=[], walls_left=(0, 0)),
               over=True),
    GameUpdates(updates=[
        GameUpdate(game="g2", players=("a", "b"), turn=0, seat=0, move=(5, 2), wall=None, notation="e2", status=0,
                   clocks_ms=(12, 0), board=BoardState(pawns=((5, 2), (5, 9)), walls=[], walls_left=(10, 10))),
        GameUpdate(game="g3", players=("c", "d"), turn=4, seat=0, move=None, wall=((4, 2), (6, 2)), notation="e2h",
                   status=0, clocks_ms=(40, 31), board=BoardState(pawns=((5, 3), (5, 7)), walls=[((4, 2), (6, 2))],
                                                                  walls_left=(9, 10)))]),
    GameUpdates(updates=[]),
    GameRecord(game="g1", players=("a", "b"), live=True, steps=[
        GameUpdate(game="g1", players=("a", "b"), turn=0, seat=0, move=(5, 2), wall=None, notation="e2", status=7,
                   clocks_ms=(12, 0), board=BoardState(pawns=((5, 1), (5, 9)), walls=[], walls_left=(10, 10)),
                   reason="a5 is not reachable in one step from e1", thinking_ms=12)]),
    GameRecord(game="t1/g.csv", players=("a", "b"), result="a won (goal)", winner=0, problems=["line 3: x"], steps=[]),
    Replays(folders=[ReplayFolder(name="t1", games=[
        ReplayGameEntry(game="g1", white="a", black="b", score="½-½", result="step cap", path="t1/g1.csv"),
        ReplayGameEntry(game="g2", white="a", black="b", score="*", result="unfinished", path=None)])]),
    Replays(folders=[]),
    PuzzleMessage(puzzle="s1", room="sokoban", data={"xsb": "#####\n#@$.#\n#####"}),
    PuzzleMessage(puzzle="i1", room="ice", data={"map": ["S  #", "x  E"], "nested": {"a": [1, None, True]}}),
    Verdict(puzzle="s1", valid=True, solved=True, figures={"moves": 3, "pushes": 1, "optimal": True, "ratio": 0.5}),
    Verdict(puzzle="s1", valid=False, solved=False, failed_at=4, reason="a wall blocks u"),
    PuzzleState(puzzle="c1", state={"grid": [[0, 90], [180, 270]]}, counters={"rotations": 2}, solved=True),
    PuzzleState(puzzle="c1", state={}),
    ErrorMessage(code="invalid_fields", message="invalid step frame: turn is missing", frame_type="step"),
    ErrorMessage(code="binary_frame", message="binary frames are not accepted"),
    Submitted(version="3f2a9c01b7de", entry="mybot.py:MyPlayer", accepted=True, cause="ok", reason="played",
              seconds=1.42, files=1, bytes=2210),
    Submitted(version="a01c44e90f12", entry="mybot.py", accepted=False, cause="syntax_error",
              reason="mybot.py:12: invalid syntax", seconds=0.0, files=3, bytes=0, new=False),
    Submissions(player="Team 7", versions=[
        SubmissionEntry(version="3f2a9c01b7de", entry="mybot.py:MyPlayer", submitted_at="2026-11-24T08:30:00Z",
                        accepted=True, cause="ok", reason="played", seconds=1.5, files=1, bytes=2210)]),
    Submissions(player="Éva ☃", versions=[]),
    TournamentInfo(tournament=None, stage="waiting", players=["Team 7"], seats=4, format="round-robin",
                   games_per_pairing=2),
    TournamentInfo(tournament="t1", stage="finished", players=["Team 7", "Ünïcode ☃"], seats=2, format="knockout",
                   games_per_pairing=2, ruleset="standard", rows=ROWS, champion="Team 7"),
    Ladder(games_played=0, bots=1, playing=0, idle="only alice is connected: play starts when a second bot connects",
           rows=[], recent=[]),
    Ladder(games_played=38, bots=4, playing=1, games=["L38-g1"], idle=None, resumes_in_s=None,
           rows=[LadderRow(rank=1, track="alice@3f2a9c01", bot="alice", version="3f2a9c01b7de", rating=120.5,
                           low=40.0, high=210.0, games=6, score=4.5, wins=4, losses=1, draws=1, state="playing"),
                 LadderRow(rank=2, track="random@7a2d0000", bot="random", version="7a2d0000", rating=None,
                           low=None, high=None, games=0, score=0.0, wins=0, losses=0, draws=0, state="away")],
           recent=[ReplayGameEntry(game="L37-g2", white="a", black="b", score="1-0", result="goal", path="L37-g2")],
           report={"bot": "alice", "versions": []}),
    Organiser(scope="all", now="2026-11-27T23:00:00Z", ladder=True, time_limit_ms=1000, slow_share=0.8,
              idle_hours=24.0, rows=[
                  OrganiserRow(key="k3y-team-7", player="Team 7", versions=[
                      OrganiserVersion(version="3f2a9c01b7e4", entry="bot.py:MyPlayer", submitted_at="2026-11-26T10:00:00Z",
                                       validated_at="2026-11-26T10:00:03Z", accepted=True, cause="ok", reason="ok")],
                               track="Team 7@3f2a9c01b7e4", since="2026-11-26T10:01:00Z", games=12, wins=7, losses=5,
                               draws=0, violations={"late": 2}, near_timeouts=3, last_game_at="2026-11-26T12:00:00Z",
                               idle=True, state="away", paused=None, attention=["no game for a day"],
                               worst=[WorstGame(game="ladder-41", opponent="an opponent", result="loss",
                                                why="lost by its violations")],
                               tournament=OrganiserTournament(rank=2, points=3.0, games=4, wins=3, losses=1, draws=0,
                                                              violations=0))]),
    Organiser(scope="own", now="2026-11-27T23:00:00Z", ladder=False, time_limit_ms=None, slow_share=0.8,
              idle_hours=24.0, rows=[]),
]

SAMPLES = CLIENT_SAMPLES + SERVER_SAMPLES


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run tests that take ``message`` (any frame), ``client_message`` or ``server_message`` on every sample."""
    for name, samples in (("message", SAMPLES), ("client_message", CLIENT_SAMPLES),
                          ("server_message", SERVER_SAMPLES)):
        if name in metafunc.fixturenames:
            metafunc.parametrize(name, samples, ids=[f"{m.type}-{i}" for i, m in enumerate(samples)])


@pytest.fixture(scope="session")
def samples() -> tuple[list[Message], list[Message]]:
    """The client samples and the server samples."""
    return CLIENT_SAMPLES, SERVER_SAMPLES

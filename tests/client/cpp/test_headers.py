"""The arena's ``Player.h`` and ``QuoridorUtils.h`` behave as the course handout documents its types (seed 004,
``docs/rules.md``): code written for the framework compiles and means the same."""

from __future__ import annotations

from pathlib import Path

from .conftest import compile_and_run

PROGRAM = r'''
#include "Player.h"
#include "../QuoridorUtils/QuoridorUtils.h"
#include <iostream>
#include <unordered_map>
#include <unordered_set>

using namespace QuoridorUtils;

class Echo final : public Player {
public:
    Echo(const std::string& key) : Player(key) { };
    Step nextStep(const ChessboardChange& newChange) override { return Step(newChange); }
    void restart() override { }
};

int main() {
    std::cout << SIZE << ' ' << BLOCK_SUM << ' ' << BLOCK_LEN << ' ' << PLAYER0_LOC << ' ' << PLAYER1_LOC << '\n';
    Location none;
    std::cout << none << ' ' << Location(2, 3).distance(Location(5, 1)) << ' ' << (Location(5, 1) == PLAYER0_LOC)
              << '\n';
    BlockBar a(4, 1, 6, 1), b(6, 1, 4, 1), v(5, 2, 5, 0);
    std::cout << a.isNan() << b.isNan() << a.isH() << a.isV() << v.isV() << v.isH() << (a == b) << '\n';
    b.normalization();
    v.normalization();
    std::cout << b << ' ' << v << ' ' << (a == b) << '\n';
    BlockBar mixed(6, 1, 4, 3);  // slanted: not normalised (only a pair both of whose coordinates are >= swaps)
    mixed.normalization();
    std::cout << mixed.start << mixed.stop << '\n';
    std::cout << BlockBar().isNan() << BlockBar(4, 1, 7, 1).isNan() << BlockBar(4, 1, 5, 2).isNan()
              << BlockBar(8, 1, 10, 1).isNan() << BlockBar(-1, 1, 1, 1).isNan() << BlockBar(Location(0, 9)).isNan()
              << '\n';
    std::cout << BlockBar(4, 1, 7, 1) << '\n';
    std::unordered_set<BlockBar, BlockBarHash> walls{a, b, BlockBar(1, 1, 3, 1)};
    std::unordered_map<Location, Doors, LocationHash> board;
    board[Location(5, 1)].up = false;
    std::cout << walls.size() << ' ' << LocationHash{}(Location(2, 3)) << ' ' << BlockBarHash{}(a) << ' '
              << board[Location(5, 1)].up << board[Location(5, 1)].down << board[Location(1, 1)].left
              << board[Location(1, 1)].right << '\n';
    Doors doors;
    std::cout << doors.up << doors.down << doors.left << doors.right << '\n';
    ChessboardChange change;
    std::cout << change << " | " << change.isFinish() << '\n';
    change.myLoc = Location(5, 2);
    change.enemyLoc = Location(5, 8);
    change.newEnemyBlockBar = BlockBar(4, 2, 6, 2);
    std::cout << change << '\n';
    for (int s : {0, 1, 2, 3, 4, 5, 6, 7, 2000}) {
        change.status = GameStatus(s);
        std::cout << change.status << ':' << change.isWin() << change.isLost() << change.isFinish() << ' ';
    }
    std::cout << '\n';
    Step move(Location(5, 2)), wall(Location(), BlockBar(4, 8, 6, 8)), both(Location(5, 2), BlockBar(4, 8, 6, 8));
    Step nothing, off(Location(0, 5));
    std::cout << move << " | " << wall << " | " << both << " | " << nothing << " | " << off.isMove() << off.isNan()
              << '\n';
    Echo echo("abc");
    Player& player = echo;
    const Step echoed = player.nextStep(change);
    std::cout << echoed.myNewLoc << ' ' << echoed.myNewBlockBar << ' ' << player.getKey().size() << ' '
              << player.getKey().substr(0, 4) << '\n';
    return 0;
}
'''

EXPECTED = """9 10 2 (5, 1) (5, 9)
(-1, -1) 5 1
0010100
[(4, 1); (6, 1)] [(5, 0); (5, 2)] 1
(6, 1)(4, 3)
111111
Nan BlockBar.
2 5 12 0111
1111
game status: Ok; my loc: (-1, -1); enemy loc: (-1, -1) | 0
game status: Ok; my loc: (5, 2); enemy loc: (5, 8); enemy new BlockBar: [(4, 2); (6, 2)]
Ok:000 Win:101 Lost:011 Timeout:000 EnemyClosed:101 RulesBreaker:011 InsufficientBlock:000 InvalidStep:000 None:000 \n\
move to: (5, 2) | add BlockBar: [(4, 8); (6, 8)] | move to: (5, 2) and add BlockBar: [(4, 8); (6, 8)] | no operation! | 01
(5, 8) [(4, 2); (6, 2)] 64 ABC_
"""


def test_the_handout_types_mean_what_the_handout_says(gpp: str, tmp_path: Path) -> None:
    assert compile_and_run(gpp, PROGRAM, tmp_path) == EXPECTED

#include "MyPlayer.h"
#include "../QuoridorUtils/QuoridorUtils.h"

#include <iostream>
#include <queue>

using namespace QuoridorUtils;

namespace QuoridorUtils {

void MyPlayer::closeDoors(BlockBar block) {
    block.normalization();
    if (block.isH()) {            // between rows y and y + 1, over the cells x = start.x + 1 .. start.x + 2
        for (int x = block.start.x + 1; x <= block.stop.x; x++) {
            board[Location(x, block.start.y)].up = false;
            board[Location(x, block.start.y + 1)].down = false;
        }
    } else if (block.isV()) {     // between columns x and x + 1, beside the rows y = start.y + 1 .. start.y + 2
        for (int y = block.start.y + 1; y <= block.stop.y; y++) {
            board[Location(block.start.x, y)].right = false;
            board[Location(block.start.x + 1, y)].left = false;
        }
    }
}

Location MyPlayer::nextCell(const Location& myLoc, const Location& enemyLoc) {
    // breadth-first search from my pawn to my goal row; the first cell of the shortest path
    std::unordered_map<Location, Location, LocationHash> cameFrom;
    std::queue<Location> frontier;
    frontier.push(myLoc);
    cameFrom[myLoc] = myLoc;
    while (!frontier.empty()) {
        Location here = frontier.front();
        frontier.pop();
        if (here.y == targetY) {
            while (!(cameFrom[here] == myLoc)) {
                here = cameFrom[here];
            }
            return here;
        }
        const Doors doors = board[here];
        const Location around[4] = {Location(here.x, here.y + 1), Location(here.x, here.y - 1),
                                    Location(here.x - 1, here.y), Location(here.x + 1, here.y)};
        const bool open[4] = {doors.up, doors.down, doors.left, doors.right};
        for (int i = 0; i < 4; i++) {
            const Location next = around[i];
            if (!open[i] || next.x < 1 || next.x > SIZE || next.y < 1 || next.y > SIZE) continue;
            if (next == enemyLoc || cameFrom.count(next)) continue;
            cameFrom[next] = here;
            frontier.push(next);
        }
    }
    return Location();            // walled in behind the enemy: nothing to do
}

Step MyPlayer::nextStep(const ChessboardChange& newChange) {
    if (targetY == 0) {
        targetY = newChange.myLoc == PLAYER0_LOC ? PLAYER1_LOC.y : PLAYER0_LOC.y;
    }
    std::cout << newChange;
    if (!newChange.newEnemyBlockBar.isNan()) {
        closeDoors(newChange.newEnemyBlockBar);
    }
    Step step;
    step.myNewLoc = nextCell(newChange.myLoc, newChange.enemyLoc);
    std::cout << " -> " << step << std::endl;
    return step;
}

void MyPlayer::restart() {
    board.clear();
    targetY = 0;
}

}

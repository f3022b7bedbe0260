#include "MyPlayer.h"
#include "../QuoridorUtils/QuoridorUtils.h"

#include <queue>

using namespace QuoridorUtils;

namespace QuoridorUtils {

/*
 * The rules this bot keeps (the course's, docs/rules.md), so that every step it sends is legal:
 *   - a move goes one cell up, down, left or right, not through a wall, not off the board, not onto the other pawn;
 *     when the other pawn is right beside it, it may jump straight over it unless a wall or the edge is behind it;
 *   - a wall lies on the grid lines, 2 long: horizontal ones at y = 1..8 from x = 0..7, vertical ones at x = 1..8
 *     from y = 0..7; it may not overlap a wall, and it may not leave either pawn without a path to its goal row;
 *   - each player has BLOCK_SUM walls.
 * The course allows two walls to cross at their middles; this bot never places such a wall, so that it is legal
 * under the standard rules too.
 */

// ---------------------------------------------------------------- the board

bool MyPlayer::onBoard(const Location& loc) const {
    return loc.x >= 1 && loc.x <= SIZE && loc.y >= 1 && loc.y <= SIZE;
}

Doors& MyPlayer::doorsOf(const Location& loc) {
    return doors[(loc.y - 1) * SIZE + loc.x - 1];
}

const Doors& MyPlayer::doorsOf(const Location& loc) const {
    return doors[(loc.y - 1) * SIZE + loc.x - 1];
}

bool MyPlayer::canPass(const Location& from, const Location& to) const {
    if (!onBoard(from) || !onBoard(to) || from.distance(to) != 1) {
        return false;
    }
    const Doors& d = doorsOf(from);
    if (to.y == from.y + 1) return d.up;
    if (to.y == from.y - 1) return d.down;
    if (to.x == from.x - 1) return d.left;
    return d.right;
}

void MyPlayer::setDoors(const BlockBar& block, bool open) {
    if (block.isH()) {            // between rows y and y + 1, over the cells x = start.x + 1 .. stop.x
        for (int x = block.start.x + 1; x <= block.stop.x; x++) {
            doorsOf(Location(x, block.start.y)).up = open;
            doorsOf(Location(x, block.start.y + 1)).down = open;
        }
    } else {                      // between columns x and x + 1, beside the rows y = start.y + 1 .. stop.y
        for (int y = block.start.y + 1; y <= block.stop.y; y++) {
            doorsOf(Location(block.start.x, y)).right = open;
            doorsOf(Location(block.start.x + 1, y)).left = open;
        }
    }
}

void MyPlayer::addBlock(BlockBar block) {
    block.normalization();
    if (!inRange(block)) {
        return;                   // the server only reports legal walls; nothing else goes on my board
    }
    setDoors(block, false);
    blocks.push_back(block);
}

// ---------------------------------------------------------------- walls

bool MyPlayer::inRange(const BlockBar& block) const {
    if (block.isNan()) {
        return false;
    }
    if (block.isH()) {
        return block.start.y >= 1 && block.start.y <= SIZE - 1 && block.start.x >= 0 && block.stop.x <= SIZE;
    }
    return block.start.x >= 1 && block.start.x <= SIZE - 1 && block.start.y >= 0 && block.stop.y <= SIZE;
}

bool MyPlayer::clashes(const BlockBar& block) const {
    for (const BlockBar& other : blocks) {
        if (block.isH() && other.isH()) {          // same line, less than a wall's length apart: they overlap
            if (block.start.y == other.start.y && std::abs(block.start.x - other.start.x) < BLOCK_LEN) return true;
        } else if (block.isV() && other.isV()) {
            if (block.start.x == other.start.x && std::abs(block.start.y - other.start.y) < BLOCK_LEN) return true;
        } else {                                   // one of each: they cross when their middles meet
            const BlockBar& h = block.isH() ? block : other;
            const BlockBar& v = block.isH() ? other : block;
            if (h.start.x + 1 == v.start.x && h.start.y == v.start.y + 1) return true;
        }
    }
    return false;
}

bool MyPlayer::tryBlock(const BlockBar& block, const Location& myLoc, const Location& enemyLoc,
                        int& myDistance, int& enemyDistance) {
    if (!inRange(block) || clashes(block)) {
        return false;
    }
    setDoors(block, false);
    myDistance = distance(myLoc, targetY);
    enemyDistance = distance(enemyLoc, enemyTargetY);
    setDoors(block, true);        // walls never share a side, so opening it again restores the board exactly
    return myDistance >= 0 && enemyDistance >= 0;
}

// The legal wall that lengthens the opponent's path most against my own (ties: the one that lengthens the
// opponent's most). Unless anyLegal, only a wall that costs the opponent more than it costs me will do.
bool MyPlayer::bestBlock(const Location& myLoc, const Location& enemyLoc, int myDistance, int enemyDistance,
                         bool anyLegal, BlockBar& best) {
    bool found = false;
    int bestGain = 0;
    int bestEnemyLoss = 0;
    for (int a = 0; a <= SIZE - BLOCK_LEN; a++) {
        for (int b = 1; b <= SIZE - 1; b++) {
            const BlockBar candidates[2] = {BlockBar(a, b, a + BLOCK_LEN, b), BlockBar(b, a, b, a + BLOCK_LEN)};
            for (const BlockBar& block : candidates) {
                int myAfter = 0;
                int enemyAfter = 0;
                if (!tryBlock(block, myLoc, enemyLoc, myAfter, enemyAfter)) {
                    continue;
                }
                const int enemyLoss = enemyAfter - enemyDistance;
                const int gain = enemyLoss - (myAfter - myDistance);
                if (!anyLegal && gain <= 0) {
                    continue;
                }
                if (!found || gain > bestGain || (gain == bestGain && enemyLoss > bestEnemyLoss)) {
                    found = true;
                    best = block;
                    bestGain = gain;
                    bestEnemyLoss = enemyLoss;
                }
            }
        }
    }
    return found;
}

// ---------------------------------------------------------------- paths

int MyPlayer::distance(const Location& from, int goalY) const {
    std::vector<int> steps(SIZE * SIZE, -1);
    std::queue<Location> frontier;
    steps[(from.y - 1) * SIZE + from.x - 1] = 0;
    frontier.push(from);
    while (!frontier.empty()) {
        const Location here = frontier.front();
        frontier.pop();
        const int done = steps[(here.y - 1) * SIZE + here.x - 1];
        if (here.y == goalY) {
            return done;
        }
        const Location around[4] = {Location(here.x, here.y + 1), Location(here.x, here.y - 1),
                                    Location(here.x - 1, here.y), Location(here.x + 1, here.y)};
        for (const Location& next : around) {
            if (!canPass(here, next)) continue;
            int& seen = steps[(next.y - 1) * SIZE + next.x - 1];
            if (seen >= 0) continue;
            seen = done + 1;
            frontier.push(next);
        }
    }
    return -1;
}

std::vector<Location> MyPlayer::legalMoves(const Location& myLoc, const Location& enemyLoc) const {
    std::vector<Location> moves;
    const int dx[4] = {0, 0, -1, 1};
    const int dy[4] = {1, -1, 0, 0};
    for (int i = 0; i < 4; i++) {
        const Location next(myLoc.x + dx[i], myLoc.y + dy[i]);
        if (!canPass(myLoc, next)) continue;
        if (!(next == enemyLoc)) {
            moves.push_back(next);
            continue;
        }
        const Location over(next.x + dx[i], next.y + dy[i]);     // jump straight over the other pawn
        if (canPass(next, over)) {
            moves.push_back(over);
        }
    }
    return moves;
}

// ---------------------------------------------------------------- a turn

Step MyPlayer::nextStep(const ChessboardChange& newChange) {
    const Location myLoc = newChange.myLoc;
    const Location enemyLoc = newChange.enemyLoc;
    if (targetY == 0) {                                      // the first turn of a game: which way am I going?
        targetY = myLoc == PLAYER0_LOC ? PLAYER1_LOC.y : PLAYER0_LOC.y;
        enemyTargetY = targetY == PLAYER1_LOC.y ? PLAYER0_LOC.y : PLAYER1_LOC.y;
    }
    if (!myLastBlock.isNan() && newChange.status == GameStatus::Ok) {   // my wall stood (a Timeout would void it)
        addBlock(myLastBlock);
        myBlocksLeft--;
    }
    myLastBlock = BlockBar();
    if (!newChange.newEnemyBlockBar.isNan()) {
        addBlock(newChange.newEnemyBlockBar);
    }

    const int myDistance = distance(myLoc, targetY);
    const int enemyDistance = distance(enemyLoc, enemyTargetY);
    Step step;
    // I move first from here, so I win a plain race when my path is no longer than the opponent's: until then, wall.
    if (myBlocksLeft > 0 && enemyDistance < myDistance) {
        BlockBar block;
        if (bestBlock(myLoc, enemyLoc, myDistance, enemyDistance, false, block)) {
            myLastBlock = block;
            step.myNewBlockBar = block;                      // myNewLoc stays (-1, -1): a wall, not a move
            return step;
        }
    }

    // The move that leaves my path shortest; of equals, not back to where I just came from.
    const std::vector<Location> moves = legalMoves(myLoc, enemyLoc);
    int bestDistance = -1;
    for (const Location& move : moves) {
        const int d = distance(move, targetY);
        if (d < 0) continue;
        const bool better = bestDistance < 0 || d < bestDistance ||
                            (d == bestDistance && step.myNewLoc == myLastLoc);
        if (better) {
            bestDistance = d;
            step.myNewLoc = move;
        }
    }
    if (bestDistance >= 0) {
        myLastLoc = myLoc;
        return step;
    }

    // Boxed in by walls and the other pawn: any legal wall rather than a violation.
    BlockBar block;
    if (myBlocksLeft > 0 && bestBlock(myLoc, enemyLoc, myDistance, enemyDistance, true, block)) {
        myLastBlock = block;
        step.myNewBlockBar = block;
    }
    return step;                                             // nothing legal at all: an empty step
}

void MyPlayer::restart() {
    doors.assign(SIZE * SIZE, Doors());
    blocks.clear();
    myLastBlock = BlockBar();
    myLastLoc = Location();
    myBlocksLeft = BLOCK_SUM;
    targetY = 0;
    enemyTargetY = 0;
}

}

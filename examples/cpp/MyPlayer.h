#pragma once
#include <vector>
#include "Player.h"

namespace QuoridorUtils {

// A racer that walls: it walks a shortest path to its goal row, and while the opponent is ahead in the race it
// places the wall that lengthens the opponent's path more than its own.
class MyPlayer final : public Player {
private:
    std::vector<Doors> doors = std::vector<Doors>(SIZE * SIZE);   // the sides of cell (x, y): doors[(y - 1) * SIZE + x - 1]
    std::vector<BlockBar> blocks;      // every wall on the board (both players'), normalised
    BlockBar myLastBlock;              // the wall I placed last turn: on the board once the server answers Ok
    Location myLastLoc;                // where I stood before my last move (to avoid pacing back and forth)
    int myBlocksLeft = BLOCK_SUM;
    int targetY = 0;                   // my goal row
    int enemyTargetY = 0;              // the opponent's goal row

    // the board
    bool onBoard(const Location& loc) const;
    Doors& doorsOf(const Location& loc);
    const Doors& doorsOf(const Location& loc) const;
    bool canPass(const Location& from, const Location& to) const;   // two cells side by side, no wall between
    void setDoors(const BlockBar& block, bool open);                 // close (or open again) the sides a wall touches
    void addBlock(BlockBar block);

    // walls
    bool inRange(const BlockBar& block) const;                       // on the grid, not on the border, 2 long
    bool clashes(const BlockBar& block) const;                       // overlaps or crosses a wall on the board
    bool tryBlock(const BlockBar& block, const Location& myLoc, const Location& enemyLoc,
                  int& myDistance, int& enemyDistance);              // the paths with it, false when illegal
    bool bestBlock(const Location& myLoc, const Location& enemyLoc, int myDistance, int enemyDistance,
                   bool anyLegal, BlockBar& best);

    // paths
    int distance(const Location& from, int goalY) const;             // breadth-first search, pawns ignored; -1: none
    std::vector<Location> legalMoves(const Location& myLoc, const Location& enemyLoc) const;

public:
    MyPlayer(const std::string& key) : Player(key) { };
    Step nextStep(const ChessboardChange& newChange) override;
    void restart() override;
};

}

/*
 * Cells (x, y) and wall grid points, as the framework draws them:
 *
 * ┌-┬-┬-┬-┬-┬-┬-┬-┬-┐         ┌-┬-┬-┬-┬-┬-┬-┬-┬-┐9
 * ├-┼-┼-┼-┼-┼-┼-┼-┼-┤↖9       ├-┼-┼-┼-┼-┼-┼-┼-┼-┤8
 * ├-┼-┼-┼-┼-┼-┼-┼-┼-┤↖8       ├-┼-┼-┼-┼-┼-┼-┼-┼-┤7
 * ...                          ...
 * ├-┼-┼-┼-┼-┼-┼-┼-┼-┤↖2       ├-┼-┼-┼-┼-┼-┼-┼-┼-┤1
 * └-┴-┴-┴-┴-┴-┴-┴-┴-┘↖1 y     └-┴-┴-┴-┴-┴-┴-┴-┴-┘0 y
 *x 1 2 3 4 5 6 7 8 9         x0 1 2 3 4 5 6 7 8 9
 */

// Quoridor Arena: the course framework's data types (vill-jiang/quoridor_client, QuoridorUtils.h), declared with the
// same names, members, constructors, operators and semantics, so that a MyPlayer.cpp written for the course compiles
// unchanged. The rules these types describe: docs/rules.md (coordinates: cells 1..9, wall grid points 0..9, y upwards).
#pragma once
#include <cstdlib>
#include <functional>
#include <ostream>

namespace QuoridorUtils {

extern const int SIZE;        // board size: 9 x 9 cells
extern const int BLOCK_SUM;   // walls each player has: 10
extern const int BLOCK_LEN;   // length of a wall: 2

// The result of a player's previous step, as the server reports it (the handout's values, sent as integers).
enum class GameStatus {
    Ok = 0,
    Win = 1,
    Lost = 2,
    Timeout = 3,
    EnemyClosed = 4,
    RulesBreaker = 5,
    InsufficientBlock = 6,
    InvalidStep = 7,
    None = 2000,
};

// A cell (x, y), x = 1..SIZE left to right, y = 1..SIZE bottom to top; (-1, -1) means "none".
struct Location {
    int x;
    int y;
    Location(const int x = -1, const int y = -1) : x(x), y(y) {}
    bool operator==(const Location& rLoc) const { return x == rLoc.x && y == rLoc.y; }
    int distance(const Location& rLoc) const { return std::abs(x - rLoc.x) + std::abs(y - rLoc.y); }  // city-block
};

extern const Location PLAYER0_LOC;  // (5, 1): where the first mover starts
extern const Location PLAYER1_LOC;  // (5, SIZE): where the second mover starts

// A wall between two grid points (0..SIZE), BLOCK_LEN apart; (-1, -1, -1, -1) means "no wall".
struct BlockBar {
    Location start;
    Location stop;
    BlockBar(const int startX = -1, const int startY = -1, const int stopX = -1, const int stopY = -1)
        : start(startX, startY), stop(stopX, stopY) {}
    BlockBar(const Location start, const Location stop = Location(-1, -1)) : start(start), stop(stop) {}
    bool operator==(const BlockBar& rLoc) const { return start == rLoc.start && stop == rLoc.stop; }
    // True when this is no well-formed wall: a point off the grid, a slanted wall, or one not BLOCK_LEN long.
    bool isNan() const {
        return start.x < 0 || start.x > SIZE || start.y < 0 || start.y > SIZE ||
               stop.x < 0 || stop.x > SIZE || stop.y < 0 || stop.y > SIZE ||
               !(isH() || isV()) || start.distance(stop) != BLOCK_LEN;
    }
    bool isH() const { return start.y == stop.y && start.x != stop.x; }  // horizontal
    bool isV() const { return start.x == stop.x && start.y != stop.y; }  // vertical
    // Puts the smaller end first (only ever swaps start and stop), so that equal walls compare equal.
    void normalization() {
        if (start.x >= stop.x && start.y >= stop.y) {
            const Location tmp = start;
            start = stop;
            stop = tmp;
        }
    }
};

// What a player is told each turn: its previous step's status, both pawns, and the wall the opponent just placed.
struct ChessboardChange {
    GameStatus status = GameStatus::Ok;
    Location myLoc;
    Location enemyLoc;
    BlockBar newEnemyBlockBar;  // (-1, -1, -1, -1) when the opponent placed none
    bool isFinish() const { return isWin() || isLost(); }
    bool isWin() const { return status == GameStatus::Win || status == GameStatus::EnemyClosed; }
    bool isLost() const { return status == GameStatus::Lost || status == GameStatus::RulesBreaker; }
};

// A player's answer: a cell to move to, or a wall to place (both: it is a move; neither: an empty step).
struct Step {
    Location myNewLoc;
    BlockBar myNewBlockBar;
    Step(const Location loc = Location(), const BlockBar block = BlockBar()) : myNewLoc(loc), myNewBlockBar(block) {}
    Step(const ChessboardChange chessboard) : myNewLoc(chessboard.enemyLoc), myNewBlockBar(chessboard.newEnemyBlockBar) {}
    bool isMove() const { return myNewLoc.x >= 1 && myNewLoc.x <= SIZE && myNewLoc.y >= 1 && myNewLoc.y <= SIZE; }
    bool isNan() const { return !isMove() && myNewBlockBar.isNan(); }
};

std::ostream& operator<<(std::ostream& os, const QuoridorUtils::GameStatus status);
std::ostream& operator<<(std::ostream& os, const QuoridorUtils::Location loc);
std::ostream& operator<<(std::ostream& os, const QuoridorUtils::BlockBar block);
std::ostream& operator<<(std::ostream& os, const QuoridorUtils::ChessboardChange change);
std::ostream& operator<<(std::ostream& os, const QuoridorUtils::Step step);

// Hashes for std::unordered_map / std::unordered_set keyed by Location or BlockBar (the handout's: sums of std::hash).
struct LocationHash {
    size_t operator()(const Location& loc) const { return std::hash<int>{}(loc.x) + std::hash<int>{}(loc.y); }
};
struct BlockBarHash {
    size_t operator()(const BlockBar& block) const {
        return std::hash<int>{}(block.start.x) + std::hash<int>{}(block.start.y) +
               std::hash<int>{}(block.stop.x) + std::hash<int>{}(block.stop.y);
    }
};

// The four sides of a cell, open (true) until a wall closes them; the framework's robots build their boards of these.
struct Doors {
    bool up = true;
    bool down = true;
    bool left = true;
    bool right = true;
};

// The framework's byte-order helpers for its binary network format; kept so that code calling them still compiles.
Step changeEndian(const Step& step, int intChangeEndian(int));
ChessboardChange changeEndian(const ChessboardChange& chessboardChange, int intChangeEndian(int));

}  // namespace QuoridorUtils

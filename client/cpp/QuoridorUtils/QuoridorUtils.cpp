// Quoridor Arena: the constants and stream operators of the course framework's QuoridorUtils.h, with its texts.
#include "QuoridorUtils.h"

namespace QuoridorUtils {

const int SIZE = 9;
const int BLOCK_SUM = 10;
const int BLOCK_LEN = 2;

const Location PLAYER0_LOC{5, 1};
const Location PLAYER1_LOC{5, 9};

std::ostream& operator<<(std::ostream& os, const GameStatus status) {
    switch (status) {
    case GameStatus::Ok: os << "Ok"; break;
    case GameStatus::Win: os << "Win"; break;
    case GameStatus::Lost: os << "Lost"; break;
    case GameStatus::Timeout: os << "Timeout"; break;
    case GameStatus::EnemyClosed: os << "EnemyClosed"; break;
    case GameStatus::RulesBreaker: os << "RulesBreaker"; break;
    case GameStatus::InsufficientBlock: os << "InsufficientBlock"; break;
    case GameStatus::InvalidStep: os << "InvalidStep"; break;
    case GameStatus::None: os << "None"; break;
    default: os.setstate(std::ios_base::failbit);   // not a status: the stream fails, as the framework's does
    }
    return os;
}

std::ostream& operator<<(std::ostream& os, const Location loc) {
    return os << '(' << loc.x << ", " << loc.y << ')';
}

std::ostream& operator<<(std::ostream& os, const BlockBar block) {
    if (block.isNan()) {
        return os << "Nan BlockBar.";
    }
    return os << '[' << block.start << "; " << block.stop << ']';
}

std::ostream& operator<<(std::ostream& os, const ChessboardChange change) {
    os << "game status: " << change.status << "; my loc: " << change.myLoc << "; enemy loc: " << change.enemyLoc;
    if (!change.newEnemyBlockBar.isNan()) {
        os << "; enemy new BlockBar: " << change.newEnemyBlockBar;
    }
    return os;
}

std::ostream& operator<<(std::ostream& os, const Step step) {
    if (step.isNan()) {
        return os << "no operation!";
    }
    if (step.isMove() && !step.myNewBlockBar.isNan()) {
        os << "move to: " << step.myNewLoc << " and add BlockBar: " << step.myNewBlockBar;
    } else if (step.isMove()) {
        os << "move to: " << step.myNewLoc;
    } else {
        os << "add BlockBar: " << step.myNewBlockBar;
    }
    return os;
}

Step changeEndian(const Step& step, int intChangeEndian(int)) {
    return Step(Location(intChangeEndian(step.myNewLoc.x), intChangeEndian(step.myNewLoc.y)),
                BlockBar(intChangeEndian(step.myNewBlockBar.start.x), intChangeEndian(step.myNewBlockBar.start.y),
                         intChangeEndian(step.myNewBlockBar.stop.x), intChangeEndian(step.myNewBlockBar.stop.y)));
}

ChessboardChange changeEndian(const ChessboardChange& change, int intChangeEndian(int)) {
    ChessboardChange changed;
    changed.status = GameStatus(intChangeEndian(int(change.status)));
    changed.myLoc = Location(intChangeEndian(change.myLoc.x), intChangeEndian(change.myLoc.y));
    changed.enemyLoc = Location(intChangeEndian(change.enemyLoc.x), intChangeEndian(change.enemyLoc.y));
    changed.newEnemyBlockBar = BlockBar(intChangeEndian(change.newEnemyBlockBar.start.x),
                                        intChangeEndian(change.newEnemyBlockBar.start.y),
                                        intChangeEndian(change.newEnemyBlockBar.stop.x),
                                        intChangeEndian(change.newEnemyBlockBar.stop.y));
    return changed;
}

}  // namespace QuoridorUtils

#pragma once
#include <vector>
#include "Player.h"

namespace QuoridorUtils {
class MyPlayer final : public Player {
private:
    std::unordered_map<Location, Doors, LocationHash> board;   // the doors of every cell, as the framework's robots keep them
    int targetY = 0;
    void closeDoors(BlockBar block);
    Location nextCell(const Location& myLoc, const Location& enemyLoc);
public:
    MyPlayer(const std::string& key) : Player(key) { };
    Step nextStep(const ChessboardChange& newChange) override;
    void restart() override;
};
}

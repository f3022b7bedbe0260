// Quoridor Arena: the course framework's Player base class (vill-jiang/quoridor_client, Player.h), with the same
// constructor and methods. The arena's main (arena_main.cpp) creates the student's Player once, calls restart()
// before the first game and after each game, and nextStep() for every turn.
#pragma once
#include "../QuoridorUtils/QuoridorUtils.h"

// The framework's Player.h reached these through its network headers; code written against it may rely on them.
#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstring>
#include <functional>
#include <iostream>
#include <list>
#include <map>
#include <memory>
#include <queue>
#include <set>
#include <sstream>
#include <stack>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace QuoridorUtils {

class Player {
private:
    std::string myKey;

public:
    // The key is kept as given, upper-cased and padded with '_' (or cut) to 64 characters as the framework's is
    // (which also appended the machine's MAC address: the arena knows a bot by its hand-in, not by its key).
    Player(const std::string& key) : myKey(key) {
        std::transform(myKey.begin(), myKey.end(), myKey.begin(), [](unsigned char c) { return std::toupper(c); });
        myKey.resize(64, '_');
    }
    Player(const Player& oldObj) = default;
    std::string getKey() const { return myKey; }
    virtual ~Player() = default;
    virtual Step nextStep(const ChessboardChange& newChange) = 0;
    virtual void restart() = 0;
};

}  // namespace QuoridorUtils

// Quoridor Arena: the main of a C++ bot written for the course framework. It plays the student's Player over the
// hosted-bot channel (docs/hosted-bots.md), as `python -m client.hosted SPEC` plays a Python bot:
//   * stdin: one JSON message a line from the server (welcome, game_start, turn, game_over, error, tournament_over);
//   * stdout: a `hello` line once the Player is created, then one `step` line for each `turn`.
// The student's std::cout/printf cannot corrupt the channel: the channel keeps a copy of the original stdout and file
// descriptor 1 becomes a copy of stderr; stdin is the channel's alone (std::cin reads nothing).
// The Player is made by quoridorArenaMakePlayer, which the build generates for the entry class (client/cppbuild.py).
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <exception>
#include <iostream>
#include <memory>
#include <new>
#include <nlohmann/json.hpp>
#include <string>

#include "QuoridorClient/Player.h"

extern QuoridorUtils::Player* quoridorArenaMakePlayer(const std::string& key);
extern const char* const quoridorArenaBotName;
extern const char* const quoridorArenaBotVersion;

namespace {

using nlohmann::json;
using QuoridorUtils::BlockBar;
using QuoridorUtils::ChessboardChange;
using QuoridorUtils::GameStatus;
using QuoridorUtils::Location;
using QuoridorUtils::Step;

// The exit codes of shared/hosting.py's EXIT_CODES that a C++ bot can end with.
constexpr int kExitInitError = 13;
constexpr int kExitMemoryLimit = 14;
constexpr int kExitCrashed = 15;

class Channel {
public:
    // Takes fds 0 and 1 for the protocol; the bot's stdin becomes /dev/null and its stdout a copy of stderr.
    Channel() : in_(dup(0)), out_(dup(1)) {
        const int null = open("/dev/null", O_RDONLY);
        if (null >= 0) {
            dup2(null, 0);
            close(null);
        }
        std::fflush(stdout);
        dup2(2, 1);
    }

    // The next line (without its newline); false once the input has ended.
    bool readLine(std::string& line) {
        for (;;) {
            const auto end = buffer_.find('\n');
            if (end != std::string::npos) {
                line.assign(buffer_, 0, end);
                buffer_.erase(0, end + 1);
                return true;
            }
            char chunk[65536];
            const ssize_t got = read(in_, chunk, sizeof chunk);
            if (got < 0 && errno == EINTR) {
                continue;
            }
            if (got <= 0) {
                return false;
            }
            buffer_.append(chunk, static_cast<size_t>(got));
        }
    }

    // Writes one message as a line; false when the server is gone.
    bool send(const json& message) {
        const std::string text = message.dump() + "\n";
        size_t done = 0;
        while (done < text.size()) {
            const ssize_t wrote = write(out_, text.data() + done, text.size() - done);
            if (wrote < 0 && errno == EINTR) {
                continue;
            }
            if (wrote <= 0) {
                return false;
            }
            done += static_cast<size_t>(wrote);
        }
        return true;
    }

private:
    int in_;
    int out_;
    std::string buffer_;
};

Location cell(const json& value) { return Location(value.at(0).get<int>(), value.at(1).get<int>()); }

// The handout's ChessboardChange of a `turn` message.
ChessboardChange changeOf(const json& turn) {
    ChessboardChange change;
    change.status = GameStatus(turn.at("status").get<int>());
    change.myLoc = cell(turn.at("my_loc"));
    change.enemyLoc = cell(turn.at("enemy_loc"));
    const auto wall = turn.find("enemy_wall");
    if (wall != turn.end() && !wall->is_null()) {
        change.newEnemyBlockBar = BlockBar(cell(wall->at(0)), cell(wall->at(1)));
    }
    return change;
}

// The `step` line answering `turn`: a cell on the board is a move, a well-formed wall is a wall (both: the server
// counts a move, as the handout says); anything else is sent as nothing, an empty step (a violation).
json stepOf(const json& turn, const Step& step) {
    json message = {{"type", "step"}, {"game", turn.at("game")}, {"turn", turn.at("turn")},
                    {"move", nullptr}, {"wall", nullptr}};
    if (step.isMove()) {
        message["move"] = {step.myNewLoc.x, step.myNewLoc.y};
    }
    if (!step.myNewBlockBar.isNan()) {
        const BlockBar& bar = step.myNewBlockBar;
        message["wall"] = {{bar.start.x, bar.start.y}, {bar.stop.x, bar.stop.y}};
    }
    return message;
}

int play(Channel& channel, QuoridorUtils::Player& player) {
    json hello = {{"type", "hello"}, {"protocol", 1}, {"role", "player"}, {"key", "hosted"},
                  {"name", quoridorArenaBotName}};
    if (quoridorArenaBotVersion[0] != '\0') {
        hello["version"] = quoridorArenaBotVersion;
    }
    if (!channel.send(hello)) {
        return 0;
    }
    std::string line;
    while (channel.readLine(line)) {
        json message = json::parse(line, nullptr, false);
        if (message.is_discarded() || !message.is_object()) {
            std::cerr << "unreadable line from the server: " << line.substr(0, 200) << std::endl;
            continue;
        }
        const std::string kind = message.value("type", "");
        if (kind == "turn") {
            Step step;
            try {
                step = player.nextStep(changeOf(message));
            } catch (const std::bad_alloc&) {
                throw;
            } catch (const std::exception& error) {
                std::cerr << "bot error in nextStep: " << error.what() << std::endl;
            }
            if (!channel.send(stepOf(message, step))) {
                return 0;
            }
        } else if (kind == "game_over") {
            player.restart();
        } else if (kind == "error") {
            std::cerr << "server error " << message.value("code", "") << ": " << message.value("message", "")
                      << std::endl;
        } else if (kind == "tournament_over") {
            return 0;
        }
    }
    return 0;
}

}  // namespace

int main() {
    Channel channel;
    std::unique_ptr<QuoridorUtils::Player> player;
    try {
        player.reset(quoridorArenaMakePlayer(quoridorArenaBotName));
        player->restart();                       // as the framework does before its first game
    } catch (const std::bad_alloc&) {
        std::cerr << "memory_limit: creating the bot ran out of memory" << std::endl;
        return kExitMemoryLimit;
    } catch (const std::exception& error) {
        std::cerr << "init_error: creating the bot raised " << error.what() << std::endl;
        return kExitInitError;
    } catch (...) {
        std::cerr << "init_error: creating the bot raised an exception" << std::endl;
        return kExitInitError;
    }
    try {
        return play(channel, *player);
    } catch (const std::bad_alloc&) {
        std::cerr << "memory_limit: the bot ran out of memory" << std::endl;
        return kExitMemoryLimit;
    } catch (const std::exception& error) {
        std::cerr << "crashed: " << error.what() << std::endl;
        return kExitCrashed;
    } catch (...) {
        std::cerr << "crashed: the bot threw an exception that is no std::exception" << std::endl;
        return kExitCrashed;
    }
}

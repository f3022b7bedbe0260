# Quoridor Arena in one image: the server, the client runner with the built-in bots, the replayer.
# docker-compose.yml runs a server and four bots from it; see the README ("Run it with Docker").
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
# bubblewrap: the sandbox of handed-in bots (a worker, or a server that runs them, refuses without it).
# g++ and nlohmann-json3-dev: C++ hand-ins are built in that sandbox with the arena's main (client/cpp), which reads
# the channel's JSON with the header-only nlohmann-json; g++ brings gcc and the C library. Without them the server
# refuses C++ hand-ins and says what to install. About 250 MB installed, in a layer before the project's files: a
# change of code does not fetch them again.
RUN apt-get update \
    && apt-get install -y --no-install-recommends bubblewrap g++ gcc nlohmann-json3-dev \
    && rm -rf /var/lib/apt/lists/*
COPY pyproject.toml README.md ./
COPY shared ./shared
COPY server ./server
COPY client ./client
# .[queue]: saq and redis, for --queue and quoridor-worker (docker-compose's "queue" profile).
RUN pip install .[queue] \
    && useradd --create-home --uid 10001 arena \
    && mkdir -p /data/replays \
    && chown -R arena /data

# The server runs as this unprivileged user (hand-ins and their sandboxes work without root): bubblewrap then makes a
# user namespace per bot, which Docker's default seccomp and AppArmor profiles forbid, so a server that validates or
# hosts handed-in bots needs --security-opt seccomp=unconfined --security-opt apparmor=unconfined (as docker-compose.yml
# gives its workers); without them it refuses handed-in bots and says why (quoridor-server --sandbox-self-test).
USER arena
WORKDIR /data
# Game logs, results (arena.db, results.json/csv) and the puzzle leaderboards.
VOLUME /data/replays
# 19330: websockets (bots in any language, spectators, puzzle rooms); 19331: the course's C++ clients.
EXPOSE 19330 19331

CMD ["quoridor-server", "--host", "0.0.0.0", "-p", "19330", "--legacy-port", "19331", "--data-dir", "/data/replays"]

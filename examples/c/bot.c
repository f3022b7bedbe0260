/*
 * A complete Quoridor Arena bot in C: it speaks the hosted-bot channel (docs/hosted-bots.md) on stdin and stdout
 * and walks a shortest path to its goal row, jumping over the other pawn when it stands in the way. It never places
 * a wall, and it sends only legal moves (the course's rules, docs/rules.md).
 *
 * Build:   gcc -std=c11 -O2 -Wall -static -o bot bot.c      (or: make)
 * Try it:  quoridor-match examples/c/bot runner
 * Hand in: quoridor-submit examples/c/ --entry bot -k YOUR_KEY --server ws://HOST:19330/
 *
 * No JSON library: each message is one line of JSON whose fields are the documented ones, so reading a message is
 * finding a top-level key (top_level_value below: it skips strings and nested objects, so a key inside a `judgement`
 * or a `reason` text is never mistaken for one of the message's own) and reading a number, a string or [x, y] there.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIZE 9

/* A wall closes two sides of cells: h_wall[x][y] the side between (x, y) and (x, y + 1), v_wall[x][y] the side
 * between (x, y) and (x + 1, y). Cells are 1..SIZE; the opponent's walls are the only ones (this bot places none). */
static int h_wall[SIZE + 2][SIZE + 2];
static int v_wall[SIZE + 2][SIZE + 2];
static int goal_y = SIZE;                  /* seat 0 aims for y = 9, seat 1 for y = 1 */

/* ---- reading a message ------------------------------------------------------------------------------------ */

/* The end of the JSON string starting at the quote *s (just past its closing quote). */
static const char *skip_string(const char *s) {
    for (s++; *s && *s != '"'; s++) {
        if (*s == '\\' && s[1]) s++;
    }
    return *s ? s + 1 : s;
}

/* Where the value of the top-level key `key` starts in the JSON object `line` (NULL: no such key). */
static const char *top_level_value(const char *line, const char *key) {
    size_t len = strlen(key);
    int depth = 0;
    for (const char *s = line; *s; ) {
        if (*s == '"') {
            const char *end = skip_string(s);
            if (depth == 1 && (size_t)(end - s) == len + 2 && strncmp(s + 1, key, len) == 0) {
                const char *p = end;
                while (*p == ' ') p++;
                if (*p == ':') {                       /* a key, not a value that happens to be spelled the same */
                    for (p++; *p == ' '; p++) {}
                    return p;
                }
            }
            s = end;
            continue;
        }
        if (*s == '{' || *s == '[') depth++;
        if (*s == '}' || *s == ']') depth--;
        s++;
    }
    return NULL;
}

/* Reads the integers of `value` ("7", "[5, 2]", "[[4,2],[6,2]]") into out[0..n-1]; the count read. */
static int read_ints(const char *value, int *out, int n) {
    int count = 0;
    const char *s = value;
    while (count < n && *s && *s != '}' && strncmp(s, "null", 4) != 0) {
        if (*s == '-' || (*s >= '0' && *s <= '9')) {
            char *end;
            out[count++] = (int)strtol(s, &end, 10);
            s = end;
        } else if (*s == ',' || *s == '[' || *s == ']' || *s == ' ') {
            s++;
        } else {
            break;
        }
    }
    return count;
}

/* Copies the raw JSON string at `value` (quotes and escapes kept as they are) into out: it is echoed back as is. */
static void raw_string(const char *value, char *out, size_t size) {
    size_t n = (value && *value == '"') ? (size_t)(skip_string(value) - value) : 0;
    if (n == 0 || n >= size) {
        snprintf(out, size, "null");
        return;
    }
    memcpy(out, value, n);
    out[n] = '\0';
}

/* ---- the board ---------------------------------------------------------------------------------------------- */

static int on_board(int x, int y) { return x >= 1 && x <= SIZE && y >= 1 && y <= SIZE; }

/* True when a pawn may step from (x, y) to the cell beside it (x + dx, y + dy): on the board, no wall between. */
static int can_pass(int x, int y, int dx, int dy) {
    if (!on_board(x, y) || !on_board(x + dx, y + dy)) return 0;
    if (dy == 1) return !h_wall[x][y];
    if (dy == -1) return !h_wall[x][y - 1];
    if (dx == 1) return !v_wall[x][y];
    return !v_wall[x - 1][y];
}

/* Puts the wall from (sx, sy) to (tx, ty) on the board (either end first). */
static void add_wall(int sx, int sy, int tx, int ty) {
    if (sx > tx || sy > ty) {
        int t = sx; sx = tx; tx = t;
        t = sy; sy = ty; ty = t;
    }
    if (sy == ty && tx == sx + 2 && sy >= 1 && sy < SIZE && sx >= 0 && tx <= SIZE) {
        h_wall[sx + 1][sy] = h_wall[sx + 2][sy] = 1;       /* over the cells sx + 1 and sx + 2 of row sy */
    } else if (sx == tx && ty == sy + 2 && sx >= 1 && sx < SIZE && sy >= 0 && ty <= SIZE) {
        v_wall[sx][sy + 1] = v_wall[sx][sy + 2] = 1;       /* right of the cells sy + 1 and sy + 2 of column sx */
    }
}

static const int DX[4] = {0, 0, -1, 1};
static const int DY[4] = {1, -1, 0, 0};

/* dist[x][y]: the steps from (x, y) to the goal row, pawns ignored (breadth-first search from the row; -1: none). */
static void distances(int dist[SIZE + 2][SIZE + 2]) {
    int queue[SIZE * SIZE][2], head = 0, tail = 0;
    for (int x = 0; x < SIZE + 2; x++)
        for (int y = 0; y < SIZE + 2; y++) dist[x][y] = -1;
    for (int x = 1; x <= SIZE; x++) {
        dist[x][goal_y] = 0;
        queue[tail][0] = x; queue[tail][1] = goal_y; tail++;
    }
    while (head < tail) {
        int x = queue[head][0], y = queue[head][1];
        head++;
        for (int i = 0; i < 4; i++) {
            int nx = x + DX[i], ny = y + DY[i];
            if (can_pass(x, y, DX[i], DY[i]) && dist[nx][ny] < 0) {
                dist[nx][ny] = dist[x][y] + 1;
                queue[tail][0] = nx; queue[tail][1] = ny; tail++;
            }
        }
    }
}

/* The legal move from (x, y) nearest the goal, the other pawn at (ex, ey); 0 when there is none. */
static int best_move(int x, int y, int ex, int ey, int *to_x, int *to_y) {
    int dist[SIZE + 2][SIZE + 2], best = -1;
    distances(dist);
    for (int i = 0; i < 4; i++) {
        if (!can_pass(x, y, DX[i], DY[i])) continue;
        int nx = x + DX[i], ny = y + DY[i];
        if (nx == ex && ny == ey) {                        /* the other pawn: jump straight over it, if nothing is behind */
            if (!can_pass(nx, ny, DX[i], DY[i])) continue;
            nx += DX[i];
            ny += DY[i];
        }
        if (dist[nx][ny] >= 0 && (best < 0 || dist[nx][ny] < best)) {
            best = dist[nx][ny];
            *to_x = nx;
            *to_y = ny;
        }
    }
    return best >= 0;
}

/* ---- the channel ---------------------------------------------------------------------------------------------- */

static void reset_board(void) {
    memset(h_wall, 0, sizeof h_wall);
    memset(v_wall, 0, sizeof v_wall);
}

/* Answers a `turn` with one `step` line. */
static void answer_turn(const char *line) {
    char game[256];
    int turn = 0, me[2] = {0, 0}, enemy[2] = {0, 0}, wall[4];
    const char *value;
    raw_string(top_level_value(line, "game"), game, sizeof game);
    if ((value = top_level_value(line, "turn")) != NULL) read_ints(value, &turn, 1);
    if ((value = top_level_value(line, "my_loc")) != NULL) read_ints(value, me, 2);
    if ((value = top_level_value(line, "enemy_loc")) != NULL) read_ints(value, enemy, 2);
    if ((value = top_level_value(line, "enemy_wall")) != NULL && read_ints(value, wall, 4) == 4) {
        add_wall(wall[0], wall[1], wall[2], wall[3]);
    }
    int x, y;
    if (best_move(me[0], me[1], enemy[0], enemy[1], &x, &y)) {
        printf("{\"type\":\"step\",\"game\":%s,\"turn\":%d,\"move\":[%d,%d],\"wall\":null}\n", game, turn, x, y);
    } else {                                               /* boxed in, and no walls to place: nothing is legal */
        printf("{\"type\":\"step\",\"game\":%s,\"turn\":%d,\"move\":null,\"wall\":null}\n", game, turn);
    }
    fflush(stdout);                                        /* at once: a buffered step arrives late */
}

int main(void) {
    char *line = NULL;
    size_t capacity = 0;
    printf("{\"type\":\"hello\",\"protocol\":1,\"role\":\"player\",\"key\":\"hosted\",\"name\":\"c-runner\"}\n");
    fflush(stdout);
    while (getline(&line, &capacity, stdin) > 0) {
        char type[32];
        raw_string(top_level_value(line, "type"), type, sizeof type);
        if (strcmp(type, "\"turn\"") == 0) {
            answer_turn(line);
        } else if (strcmp(type, "\"game_start\"") == 0) {
            int seat = 0;
            const char *value = top_level_value(line, "seat");
            if (value != NULL) read_ints(value, &seat, 1);
            goal_y = seat == 0 ? SIZE : 1;
            reset_board();
        } else if (strcmp(type, "\"game_over\"") == 0) {
            reset_board();
        } else if (strcmp(type, "\"error\"") == 0) {
            fprintf(stderr, "the server refused a line: %s", line);
        } else if (strcmp(type, "\"tournament_over\"") == 0) {
            break;
        }
    }
    free(line);
    return 0;
}

// The puzzle rooms in the browser: hello with room sokoban/ice/circuit as a player, then their frames.
import {connect, esc} from "./protocol.js";
import {nav, connState} from "./nav.js";

nav("/puzzles");
const $ = id => document.getElementById(id);
const KEYS = {ArrowUp: "u", ArrowDown: "d", ArrowLeft: "l", ArrowRight: "r"};
let conn = null, room = null, puzzle = null, state = null, solved = false;
// Circuit repair by keys, as in the terminal: arrows move this cursor, Space/Enter turns its tile, L locks it.
let cursor = [0, 0];

function key() {
  const typed = $("key").value.trim();
  if (typed) return typed;
  let mine = sessionStorage.getItem("quoridor-puzzle-key");
  if (!mine) { mine = "web-" + Math.random().toString(36).slice(2, 10); sessionStorage.setItem("quoridor-puzzle-key", mine); }
  return mine;
}

function showRoom() {
  const r = $("room").value;
  for (const el of document.querySelectorAll(".sokoban-only")) el.hidden = r !== "sokoban";
  for (const el of document.querySelectorAll(".generated-only")) el.hidden = r === "sokoban";
}

function error(text) { $("error").textContent = text; $("error").hidden = !text; }

function rows(data) {
  const grid = data.map ?? data.grid ?? data.xsb ?? [];
  return (Array.isArray(grid) ? grid : String(grid).split("\n")).filter(line => line.length);
}

const CLASSES = {"#": "wall", " ": "floor", "$": "box", ".": "goal", "*": "box-on-goal", "@": "player", "+": "player-on-goal", "-": "floor", "_": "floor"};

// Circuit tiles (shared/circuit/tiles.py): sides as [dx, dy]; rotations are degrees clockwise.
const SIDE = {N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0]};
const TILE_SIDES = {
  I: r => (r % 180 === 0 ? ["W", "E"] : ["N", "S"]),
  L: r => ({0: ["N", "E"], 90: ["E", "S"], 180: ["S", "W"], 270: ["W", "N"]}[r] || []),
  S: r => [{0: "N", 90: "E", 180: "S", 270: "W"}[r]],
  T: r => [{0: "N", 90: "E", 180: "S", 270: "W"}[r]],
};

function tileSVG(token) {
  const kind = token[0], rot = Number(token.slice(1)) || 0;
  const sides = (TILE_SIDES[kind] || (() => []))(rot).filter(Boolean);
  const lines = sides.map(side => `<line x1="10" y1="10" x2="${10 + 10 * SIDE[side][0]}" y2="${10 + 10 * SIDE[side][1]}"/>`).join("");
  const hub = kind === "S" ? `<circle class="source" cx="10" cy="10" r="5"/>` : kind === "T" ? `<rect class="terminal" x="5" y="5" width="10" height="10"/>` : "";
  return `<svg viewBox="0 0 20 20" class="tile-svg">${lines}${hub}</svg>`;
}

function drawCircuit(data) {
  const grid = $("grid");
  const tokens = rows(data).map(line => line.trim().split(/\s+/));
  const width = Math.max(...tokens.map(t => t.length), 1);
  const locked = new Set((data.locked || []).map(([r, c]) => r + "," + c));
  const powered = new Set((data.powered || []).map(([r, c]) => r + "," + c));
  cursor = [Math.min(Math.max(cursor[0], 0), tokens.length - 1), Math.min(Math.max(cursor[1], 0), width - 1)];
  grid.dataset.room = room;
  grid.dataset.cursor = cursor.join(",");
  grid.style.setProperty("--cols", String(width));
  grid.innerHTML = tokens.map((row, r) => row.map((token, c) => {
    const here = r + "," + c;
    const cls = (token === "." ? " empty" : "") + (locked.has(here) ? " locked" : "") + (powered.has(here) ? " powered" : "")
      + (r === cursor[0] && c === cursor[1] ? " cursor" : "");
    return `<span class="c tile${cls}" data-row="${r}" data-col="${c}" data-tile="${esc(token)}" title="${esc(token)}">${tileSVG(token)}</span>`;
  }).join("")).join("");
}

function circuitTile(r, c) {
  const line = rows(state)[r];
  return line === undefined ? undefined : line.trim().split(/\s+/)[c];
}

function circuitKey(e) {
  const step = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]}[e.key];
  const [r, c] = cursor;
  if (step) {
    cursor = [r + step[0], c + step[1]];
    drawCircuit(state);
    return true;
  }
  const tile = circuitTile(r, c) || ".";
  const movable = tile[0] === "I" || tile[0] === "L";
  const isLocked = (state.locked || []).some(([lr, lc]) => lr === r && lc === c);
  if (e.key === " " || e.key === "Enter") {
    if (movable && !isLocked) act("rotate", {row: r, col: c});
    return true;
  }
  if (e.key === "l" || e.key === "L") {
    if (movable) act(isLocked ? "unlock" : "lock", {row: r, col: c});
    return true;
  }
  return false;
}

function drawGrid(data) {
  if (room === "circuit") return drawCircuit(data);
  const lines = rows(data);
  const width = Math.max(...lines.map(l => [...l].length), 1);
  const grid = $("grid");
  grid.dataset.room = room;
  grid.style.setProperty("--cols", String(width));
  grid.innerHTML = lines.map((line, r) => [...line.padEnd(width)].map((ch, c) => {
    const here = room === "ice" && Array.isArray(data.player) && data.player[0] === r && data.player[1] === c;
    const cls = here ? "player" : room === "ice" && ch === "#" ? "wall" : room === "ice" ? "floor" : (CLASSES[ch] || "other");
    const text = room === "ice" && !here && ch !== "#" && ch !== " " ? ch : cls === "other" ? ch : "";
    return `<span class="c ${cls}" data-row="${r}" data-col="${c}" data-ch="${esc(ch)}">${esc(text)}</span>`;
  }).join("")).join("");
  grid.dataset.rows = lines.join("\n");
}

function drawCounters(counters) {
  $("counters").innerHTML = Object.entries(counters || {}).map(([k, v]) => `<div><span class="muted">${esc(k)}</span> <b data-counter="${esc(k)}">${esc(v)}</b></div>`).join("");
}

function drawLeaderboard(entries) {
  $("leaderboard").innerHTML = entries && entries.length
    ? entries.map(e => {
        const figures = Object.entries(e).filter(([k, v]) => !["rank", "player", "answer", "at", "score"].includes(k) && typeof v !== "object")
          .map(([k, v]) => `${esc(k)} ${esc(v)}`);
        if (Array.isArray(e.score)) figures.push(esc(e.score.join(" / ")));
        return `<li>${esc(e.player ?? "?")} <span class="muted">${figures.join(" · ")}</span></li>`;
      }).join("")
    : `<li class="muted">no entries yet</li>`;
}

function act(action, args = {}) {
  if (conn && puzzle) conn.send({type: "action", puzzle, action, args});
}

function start(event) {
  event?.preventDefault();
  error("");
  if (conn) conn.close();
  room = $("room").value;
  puzzle = null; solved = false;
  $("verdict").textContent = "";
  delete $("verdict").dataset.solved;
  const request = {type: "puzzle_request", room};
  if (room === "sokoban") {
    const own = $("xsb").value.trim();
    if (own) request.xsb = own; else { request.collection = $("collection").value; request.index = Math.max(0, Number($("index").value) - 1); }
  } else {
    request.difficulty = $("difficulty").value;
    if ($("seed").value !== "") request.seed = Number($("seed").value);
  }
  conn = connect({
    hello: {role: "player", room, key: key(), name: null},
    onOpen: () => connState("connected", true),
    onMessage: (msg, send) => {
      if (msg.type === "welcome") send(request);
      else if (msg.type === "puzzle") {
        puzzle = msg.puzzle; state = msg.data;
        if (room === "circuit") cursor = Array.isArray(msg.data.source) ? [...msg.data.source] : [0, 0];
        drawGrid(msg.data); drawCounters({});
        act("leaderboard");
        $("grid").focus();
      } else if (msg.type === "state") {
        state = msg.state;
        drawGrid(msg.state); drawCounters(msg.counters);
        if (msg.state.leaderboard) drawLeaderboard(msg.state.leaderboard);
        if (msg.solved && !solved) {
          solved = true;
          const answer = room === "sokoban" ? msg.state.lurd : room === "ice" ? [...(msg.state.route || "")] : null;
          if (answer !== null) send({type: "solution", puzzle, answer});
          else {          // the circuit room judges every turn itself: its state is the verdict, ranked in counters
            const figures = Object.entries(msg.counters || {}).map(([k, v]) => `${esc(k)} ${esc(v)}`).join(" · ");
            $("verdict").innerHTML = `<b class="ok">solved</b> <span class="muted">${figures}</span>`;
            $("verdict").dataset.solved = "true";
            act("leaderboard");
          }
        }
        if (!msg.solved) solved = false;
      } else if (msg.type === "verdict") {
        const figures = Object.entries(msg.figures || {}).map(([k, v]) => `${esc(k)} ${esc(v)}`).join(" · ");
        $("verdict").innerHTML = msg.solved ? `<b class="ok">solved</b> <span class="muted">${figures}</span>`
          : `<b class="bad">not solved</b> ${esc(msg.reason || "")}`;
        $("verdict").dataset.solved = String(msg.solved);
        act("leaderboard");
      } else if (msg.type === "error") {
        error(msg.code === "unknown_key" ? "this server admits only the keys on its roster: type your key above and press Play"
          : msg.message);
      }
    },
    onClose: () => connState("disconnected", false),
  });
}

document.addEventListener("keydown", e => {
  if (e.target.closest("input, select, textarea, button, summary") || !puzzle || e.altKey) return;
  if (room === "circuit" && state && circuitKey(e)) { e.preventDefault(); return; }
  let action = room === "circuit" ? undefined : KEYS[e.key];
  if (!action && (e.key === "u" || e.key === "U" || e.key === "Backspace" || (e.key === "z" && (e.ctrlKey || e.metaKey)))) action = "undo";
  if (!action && room === "ice" && (e.key === "y" || e.key === "Y")) action = "redo";
  if (!action && (e.key === "r" || e.key === "R" || e.key === "Escape")) action = "reset";
  if (!action) return;
  e.preventDefault();
  act(action);
});

$("grid").addEventListener("click", e => {
  const cell = e.target.closest(".c");
  if (cell && room === "circuit") {
    cursor = [Number(cell.dataset.row), Number(cell.dataset.col)];
    act("rotate", {row: cursor[0], col: cursor[1]});
  }
});

$("room").addEventListener("change", showRoom);
$("pick").addEventListener("submit", start);
const params = new URLSearchParams(location.search);
if (params.get("room")) $("room").value = params.get("room");
showRoom();

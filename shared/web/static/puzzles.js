// The puzzle rooms in the browser: hello with room sokoban/ice/circuit as a player, then their frames.
import {connect, esc} from "./protocol.js";
import {nav, connState, closedState} from "./nav.js";

nav("/puzzles");
const $ = id => document.getElementById(id);
const DIRS = {ArrowUp: "u", ArrowDown: "d", ArrowLeft: "l", ArrowRight: "r"};
/**
 * The puzzles' one key map, the same as the terminal's (client/puzzles/screen.py KEY_MAP; the browser tests check
 * that they agree). The help and the on-screen buttons are made from it; `label` is a button's text.
 */
export const KEY_MAP = [
  {keys: ["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"], names: "arrows", action: "move",
   what: "move: walk and push (Sokoban), slide (ice), move the cursor (circuit)"},
  {keys: ["u", "z", "Backspace"], names: "u z Backspace", action: "undo", label: "↶ undo", what: "undo the last move"},
  {keys: ["r", "y"], names: "r y", action: "redo", label: "↷ redo", what: "redo what was undone"},
  {keys: ["Escape"], names: "Esc", action: "restart", label: "⟲ restart",
   what: "restart: press it twice (the first press asks, any other key keeps your moves)"},
  {keys: [" ", "Enter"], names: "Space Enter", action: "rotate", label: "⟳ turn", rooms: ["circuit"],
   what: "circuit: turn the tile under the cursor"},
  {keys: ["l"], names: "l", action: "lock", label: "lock", rooms: ["circuit"],
   what: "circuit: lock or unlock the tile under the cursor"},
  {keys: ["?"], names: "?", action: "help", label: "? keys", what: "this help"},
];
// What the page adds to the map: touch and the mouse.
const TOUCH = [
  {names: "swipe", what: "on the board: move (Sokoban, ice)"},
  {names: "click / tap", what: "circuit: turn the tile (and put the cursor on it)"},
];
const RESTART_QUESTION = "restart? press Esc (or ⟲ restart) again to start over; any other key keeps your moves";
const SWIPE_PX = 24;            // a shorter drag on the board is a tap, not a move
let conn = null, room = null, puzzle = null, state = null, solved = false, restartAsked = false;
// Circuit repair by keys, as in the terminal: arrows move this cursor, Space/Enter turns its tile, L locks it.
let cursor = [0, 0];
// Circuit repair's turns and locks this page sent (for redo: the room keeps no undone turns), and those undone.
let circuitDone = [], circuitUndone = [];

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
  if (!puzzle) document.body.dataset.room = r;      // the pad shows the chosen room's buttons until one is played
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

/** The tile under the cursor can turn (a straight or corner tile), and whether it is locked. */
function cursorTile() {
  const [r, c] = cursor;
  const tile = circuitTile(r, c) || ".";
  return {movable: tile[0] === "I" || tile[0] === "L",
          locked: (state.locked || []).some(([lr, lc]) => lr === r && lc === c)};
}

function circuitSend(action) {
  const step = {action, row: cursor[0], col: cursor[1]};
  circuitDone.push(step);
  circuitUndone = [];
  act(action, {row: step.row, col: step.col});
}

function notice(text) { $("notice").textContent = text; $("notice").hidden = !text; }

/** Do what a key of the map (or its button, or a swipe) says, in the room being played. */
function perform(action, dir) {
  if (action === "help") { $("keys-help").open = !$("keys-help").open; return; }
  if (!puzzle) return;
  if (action !== "restart" && restartAsked) { restartAsked = false; notice(""); }
  const circuit = room === "circuit";
  if (action === "move") {
    if (!circuit) { act(dir); return; }
    const [dr, dc] = {u: [-1, 0], d: [1, 0], l: [0, -1], r: [0, 1]}[dir];
    cursor = [cursor[0] + dr, cursor[1] + dc];
    drawCircuit(state);
  } else if (action === "undo") {
    if (circuit && circuitDone.length) circuitUndone.push(circuitDone.pop());
    act("undo");
  } else if (action === "redo") {
    if (!circuit) { act("redo"); return; }
    const step = circuitUndone.pop();
    if (!step) return;
    circuitDone.push(step);
    act(step.action, {row: step.row, col: step.col});
  } else if (action === "restart") {
    if (!restartAsked) { restartAsked = true; notice(RESTART_QUESTION); return; }
    restartAsked = false;
    notice("");
    circuitDone = []; circuitUndone = [];
    act("reset");
  } else if (circuit && action === "rotate") {
    const {movable, locked} = cursorTile();
    if (movable && !locked) circuitSend("rotate");
  } else if (circuit && action === "lock") {
    const {movable, locked} = cursorTile();
    if (movable) circuitSend(locked ? "unlock" : "lock");
  }
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
  puzzle = null; solved = false; restartAsked = false;
  circuitDone = []; circuitUndone = [];
  notice("");
  document.body.dataset.room = room;
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
    onClose: event => closedState(event),
  });
}

/** The map's entry for a key event, or undefined (letters in either case; Ctrl/Cmd only with z and y). */
function entryFor(e) {
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  if ((e.ctrlKey || e.metaKey) && key !== "z" && key !== "y") return undefined;
  return KEY_MAP.find(entry => entry.keys.includes(key));
}

document.addEventListener("keydown", e => {
  if (e.altKey || e.target.closest("input, select, textarea, summary")
      || (e.target.closest("button") && !e.target.closest("#pad"))) return;
  const entry = entryFor(e);
  if (!entry) {
    if (restartAsked && !["Shift", "Control", "Alt", "Meta"].includes(e.key)) { restartAsked = false; notice(""); }
    return;
  }
  if (!puzzle && entry.action !== "help") return;
  if (entry.rooms && !entry.rooms.includes(room)) return;
  e.preventDefault();
  perform(entry.action, DIRS[e.key]);
});

$("grid").addEventListener("click", e => {
  const cell = e.target.closest(".c");
  if (cell && room === "circuit") {
    cursor = [Number(cell.dataset.row), Number(cell.dataset.col)];
    drawCircuit(state);
    perform("rotate");
  }
});

// Touch: a swipe on the board moves (Sokoban, ice); the pad's buttons do what their keys do.
let swipe = null;
$("grid").addEventListener("pointerdown", e => {
  if (room !== "circuit") swipe = {x: e.clientX, y: e.clientY, id: e.pointerId};
});
$("grid").addEventListener("pointerup", e => {
  const from = swipe;
  swipe = null;
  if (!from || from.id !== e.pointerId || room === "circuit") return;
  const dx = e.clientX - from.x, dy = e.clientY - from.y;
  if (Math.max(Math.abs(dx), Math.abs(dy)) < SWIPE_PX) return;
  perform("move", Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "r" : "l") : (dy > 0 ? "d" : "u"));
});
$("grid").addEventListener("pointercancel", () => { swipe = null; });

function drawHelp() {
  $("keys").innerHTML = [...KEY_MAP, ...TOUCH].map(k => `<tr><th>${esc(k.names)}</th><td>${esc(k.what)}</td></tr>`).join("");
  const arrows = [["u", "↑", "up"], ["l", "←", "left"], ["d", "↓", "down"], ["r", "→", "right"]];
  $("pad").innerHTML = `<div class="arrows">${arrows.map(([dir, glyph, name]) =>
      `<button type="button" class="dir-${dir}" data-action="move" data-dir="${dir}" aria-label="${name}">${glyph}</button>`).join("")}</div>` +
    `<div class="actions">${KEY_MAP.filter(k => k.label).map(k =>
      `<button type="button" data-action="${k.action}"${k.rooms ? ` data-rooms="${k.rooms.join(" ")}"` : ""}>${esc(k.label)}</button>`).join("")}</div>`;
}

// A finger's tap acts on its pointerup (a tap right after a swipe may bring no click); a mouse or a key, on click.
let pressed = null;
$("pad").addEventListener("pointerdown", e => { pressed = e.target.closest("button[data-action]"); });
$("pad").addEventListener("pointerup", e => {
  const button = e.target.closest("button[data-action]");
  if (e.pointerType !== "mouse" && button && button === pressed) perform(button.dataset.action, button.dataset.dir);
  pressed = null;
});
$("pad").addEventListener("click", e => {
  const button = e.target.closest("button[data-action]");
  if (button && (e.pointerType === "mouse" || !e.pointerType)) perform(button.dataset.action, button.dataset.dir);
});

$("room").addEventListener("change", showRoom);
$("pick").addEventListener("submit", start);
const params = new URLSearchParams(location.search);
if (params.get("room")) $("room").value = params.get("room");
drawHelp();
showRoom();

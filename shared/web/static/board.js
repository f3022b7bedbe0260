// The board: a pure function from a game_update's board to SVG text (Lichess's way: no framework).
// Cells are [x, y] with x = 1..9 left to right and y = 1..9 bottom to top; walls lie on grid lines 0..9.

export const CELL = 40, GAP = 10, PITCH = CELL + GAP, SIZE = GAP + 9 * PITCH;
const FILES = "abcdefghi";

export const START = Object.freeze({pawns: [[5, 1], [5, 9]], walls: [], walls_left: [10, 10]});

/** The algebraic name of a cell: [5, 1] -> "e1". */
export function cellName([x, y]) { return FILES[x - 1] + y; }

const cx = x => GAP + (x - 1) * PITCH;            // left edge of column x
const cy = y => GAP + (9 - y) * PITCH;            // top edge of row y
const lx = i => i * PITCH + GAP / 2;              // vertical grid line i
const ly = j => (9 - j) * PITCH + GAP / 2;        // horizontal grid line j

/** Escape text for HTML and SVG. */
export function esc(text) {
  return String(text ?? "").replace(/[&<>"']/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
}

function wallRect([[x1, y1], [x2, y2]], cls) {
  if (y1 === y2) {
    const a = Math.min(x1, x2), b = Math.max(x1, x2);
    return `<rect class="${cls}" data-wall="${a},${y1},${b},${y2}" x="${lx(a) - GAP / 2}" y="${ly(y1) - GAP / 2}" width="${(b - a) * PITCH + GAP}" height="${GAP}" rx="3"/>`;
  }
  const a = Math.min(y1, y2), b = Math.max(y1, y2);
  return `<rect class="${cls}" data-wall="${x1},${a},${x2},${b}" x="${lx(x1) - GAP / 2}" y="${ly(b) - GAP / 2}" width="${GAP}" height="${(b - a) * PITCH + GAP}" rx="3"/>`;
}

/**
 * The SVG of a board ({pawns, walls}); `last` is the step that led to it ({move, wall, seat}), drawn
 * highlighted. Every cell carries data-cell="x,y" and data-pawn="0|1|" so a test reads the board.
 */
export function boardSVG(board, {last = null, labels = true, title = ""} = {}) {
  const pawn = new Map(board.pawns.map((p, seat) => [p[0] + "," + p[1], seat]));
  const out = [`<svg class="board" viewBox="0 0 ${SIZE + (labels ? 14 : 0)} ${SIZE + (labels ? 14 : 0)}" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${esc(title || "Quoridor board")}">`];
  out.push(`<rect class="bg" x="0" y="0" width="${SIZE}" height="${SIZE}" rx="6"/>`);
  for (let y = 9; y >= 1; y--) {
    for (let x = 1; x <= 9; x++) {
      const key = x + "," + y, seat = pawn.has(key) ? pawn.get(key) : "";
      const goal = y === 9 ? " goal0" : y === 1 ? " goal1" : "";
      const moved = last && last.move && last.move[0] === x && last.move[1] === y ? " moved" : "";
      out.push(`<rect class="cell${goal}${moved}" data-cell="${key}" data-pawn="${seat}" x="${cx(x)}" y="${cy(y)}" width="${CELL}" height="${CELL}" rx="3"/>`);
    }
  }
  out.push(wallsSVG(board, last));
  board.pawns.forEach(([x, y], seat) => {
    out.push(`<circle class="pawn p${seat}" data-seat="${seat}" cx="${cx(x) + CELL / 2}" cy="${cy(y) + CELL / 2}" r="${CELL * 0.36}"/>`);
  });
  if (labels) {
    for (let x = 1; x <= 9; x++) out.push(`<text class="label" x="${cx(x) + CELL / 2}" y="${SIZE + 10}">${FILES[x - 1]}</text>`);
    for (let y = 1; y <= 9; y++) out.push(`<text class="label" x="${SIZE + 7}" y="${cy(y) + CELL / 2 + 4}">${y}</text>`);
  }
  out.push("</svg>");
  return out.join("");
}

/** The walls' rects of a board, the one `last` placed highlighted. */
function wallsSVG(board, last) {
  const placed = last && last.wall ? JSON.stringify(last.wall) : null;
  return board.walls.map(w => wallRect(w, placed !== null && JSON.stringify(w) === placed ? "wall last" : "wall")).join("");
}

const wallsDrawn = new WeakMap();      // a patched board's svg -> its walls' markup, to redraw them only when they change

/**
 * Bring `svg`, a board drawn by boardSVG (with labels), to what boardSVG(board, {last, title}) draws, changing
 * only what differs: the pawns, the cells' data-pawn and the moved cell, the walls when they changed. The game
 * page redraws a step this way: the DOM is the same as drawn anew (tests/server/web/test_board.py), and a
 * step's redraw took half the time (bench/web_spectators.py: median 2.5 ms before, 1.2 ms after).
 */
export function patchBoard(svg, board, {last = null, title = ""} = {}) {
  svg.setAttribute("aria-label", title || "Quoridor board");
  for (const cell of svg.querySelectorAll('rect.cell[data-pawn="0"], rect.cell[data-pawn="1"]')) cell.dataset.pawn = "";
  const moved = svg.querySelector("rect.cell.moved");
  if (moved) moved.classList.remove("moved");
  const cells = svg.querySelectorAll("rect.cell");       // drawn row 9 first, a to i: index (9 - y) * 9 + x - 1
  const at = ([x, y]) => cells[(9 - y) * 9 + x - 1];
  board.pawns.forEach((p, seat) => { at(p).dataset.pawn = String(seat); });
  if (last && last.move) at(last.move).classList.add("moved");
  const walls = wallsSVG(board, last);
  if (wallsDrawn.get(svg) !== walls) {
    for (const rect of svg.querySelectorAll("rect.wall")) rect.remove();
    svg.querySelector("circle.pawn").insertAdjacentHTML("beforebegin", walls);
    wallsDrawn.set(svg, walls);
  }
  for (const pawn of svg.querySelectorAll("circle.pawn")) {
    const [x, y] = board.pawns[Number(pawn.dataset.seat)];
    pawn.setAttribute("cx", String(cx(x) + CELL / 2));
    pawn.setAttribute("cy", String(cy(y) + CELL / 2));
  }
}

/** The step a notation names: {move: [x, y]} for a square ("e5"), {wall: [[x1, y1], [x2, y2]]} for a wall ("e1h",
 * as shared/quoridor/notation.py parses it), or null for anything else ("-", ""). */
export function parseStep(name) {
  const m = /^([a-i])([1-9])([hv]?)$/.exec(String(name ?? "").trim().toLowerCase());
  if (!m) return null;
  const col = FILES.indexOf(m[1]) + 1, row = Number(m[2]);
  if (!m[3]) return {move: [col, row]};
  if (col > 8 || row > 8) return null;
  return {wall: m[3] === "h" ? [[col - 1, row], [col + 1, row]] : [[col, row - 1], [col, row + 1]]};
}

/**
 * A ghost of the step `name` (a notation) by `seat`: a translucent pawn or wall with the step's name on it, drawn
 * over a board of boardSVG's (the engine's best step beside the played one). "" for a name that is no step.
 */
export function ghostSVG(name, seat) {
  const step = parseStep(name);
  if (!step) return "";
  const tag = (x, y) => `<text class="ghost-name" x="${x}" y="${y + 4}">${esc(name)}</text>`;
  if (step.move) {
    const [x, y] = step.move, mx = cx(x) + CELL / 2, my = cy(y) + CELL / 2;
    return `<g class="ghost p${seat}" data-ghost="${esc(name)}"><circle class="ghost-pawn" cx="${mx}" cy="${my}" ` +
      `r="${CELL * 0.36}"/>${tag(mx, my)}</g>`;
  }
  const rect = wallRect(step.wall, "ghost-wall").replace(/ data-wall="[^"]*"/, "");
  const [[x1, y1], [x2, y2]] = step.wall, mx = lx((x1 + x2) / 2), my = ly((y1 + y2) / 2);
  return `<g class="ghost p${seat}" data-ghost="${esc(name)}">${rect}<rect class="ghost-tag" x="${mx - 15}" ` +
    `y="${my - 8}" width="30" height="16" rx="8"/>${tag(mx, my)}</g>`;
}

/** The steps between cells the walls block, as a Set of "x,y|x,y" keys (both directions). */
export function blockedSteps(walls) {
  const blocked = new Set();
  const add = (a, b) => { blocked.add(a + "|" + b); blocked.add(b + "|" + a); };
  for (const [[x1, y1], [x2, y2]] of walls) {
    if (y1 === y2) {
      const a = Math.min(x1, x2);
      for (const x of [a + 1, a + 2]) add(`${x},${y1}`, `${x},${y1 + 1}`);
    } else {
      const a = Math.min(y1, y2);
      for (const y of [a + 1, a + 2]) add(`${x1},${y}`, `${x1 + 1},${y}`);
    }
  }
  return blocked;
}

/** Steps from seat's pawn to its goal row (seat 0: y = 9, seat 1: y = 1), walls only; Infinity if none. */
export function distanceToGoal(board, seat) {
  const blocked = blockedSteps(board.walls), goal = seat === 0 ? 9 : 1;
  const start = board.pawns[seat], seen = new Set([start.join(",")]);
  let frontier = [start], dist = 0;
  while (frontier.length) {
    const next = [];
    for (const [x, y] of frontier) {
      if (y === goal) return dist;
      for (const [nx, ny] of [[x, y + 1], [x, y - 1], [x - 1, y], [x + 1, y]]) {
        const key = nx + "," + ny;
        if (nx < 1 || nx > 9 || ny < 1 || ny > 9 || seen.has(key) || blocked.has(`${x},${y}|${key}`)) continue;
        seen.add(key);
        next.push([nx, ny]);
      }
    }
    frontier = next;
    dist++;
  }
  return Infinity;
}

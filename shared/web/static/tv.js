// TV: one large board following the most interesting game in progress, the standings beside it.
import {connect, esc} from "./protocol.js";
import {boardSVG, distanceToGoal, START} from "./board.js";
import {standingsTable} from "./tables.js";

const live = new Map();      // game id -> latest game_update
let current = null, holdUntil = 0;
const $ = id => document.getElementById(id);

/** How interesting a game is: the closest race first, then the most walls on the board, then the longest. */
export function interest(u) {
  const d0 = distanceToGoal(u.board, 0), d1 = distanceToGoal(u.board, 1);
  const race = Number.isFinite(d0) && Number.isFinite(d1) ? Math.abs(d0 - d1) : 9;
  return -race * 100 + u.board.walls.length * 5 + Math.min(u.turn, 100) / 10;
}

function pick() {
  let best = null, score = -Infinity;
  for (const [id, u] of live) {
    const s = interest(u);
    if (s > score) { best = id; score = s; }
  }
  return best;
}

function draw() {
  const u = current ? live.get(current) : null;
  document.body.dataset.game = current || "";
  if (!u) {
    $("tv-title").textContent = "waiting for a game…";
    $("tv-board").innerHTML = boardSVG(START, {title: "no game"});
    $("tv-caption").textContent = "";
  } else {
    const d = [distanceToGoal(u.board, 0), distanceToGoal(u.board, 1)];
    const mover = u.over ? null : 1 - u.seat;
    $("tv-title").innerHTML = [0, 1].map(s =>
      `<span class="tv-player${mover === s ? " to-move" : ""}"><span class="pawn-dot p${s}"></span>${esc(u.players[s])} ` +
      `<small>${d[s]} to go · ${u.board.walls_left[s]} walls · ${(u.clocks_ms[s] / 1000).toFixed(1)} s</small></span>`).join("<span class=\"vs\">vs</span>");
    $("tv-board").innerHTML = boardSVG(u.board, {last: u, title: u.game});
    $("tv-caption").textContent = `${u.game} · step ${u.turn + 1} · ${u.notation}`;
  }
  const others = [...live.keys()].filter(id => id !== current);
  $("tv-others").innerHTML = others.length ? `<h3>also playing</h3>` + others.slice(0, 8).map(id => {
    const o = live.get(id);
    return `<div>${esc(o.players[0])} – ${esc(o.players[1])} <span class="muted">step ${o.turn + 1}</span></div>`;
  }).join("") : "";
}

connect({
  onOpen: send => send({type: "watch", game: "*", batch: true}),
  onMessage: msg => {
    if (msg.type === "game_update") {
      live.set(msg.game, msg);
      if (msg.over) {
        if (msg.game === current) { draw(); holdUntil = Date.now() + 1500; setTimeout(() => { live.delete(msg.game); current = pick(); draw(); }, 1500); return; }
        live.delete(msg.game);
      }
      if (!current || (!live.has(current) && Date.now() >= holdUntil)) current = pick();
      if (msg.game === current || !current) draw();
    } else if (msg.type === "standings" || msg.type === "tournament_over") {
      $("tv-tournament").textContent = msg.tournament;
      $("tv-standings").innerHTML = standingsTable(msg.rows.slice(0, 16), {compact: true});
    }
  },
});
draw();

// TV: one large board following the most interesting game in progress, the standings beside it; the lobby before
// the first game, and a final screen (the champion and the podium, readable across a room) at the end.
import {connect, esc} from "./protocol.js";
import {boardSVG, distanceToGoal, START} from "./board.js";
import {standingsTable, formatLine, podium, winners, isFinal, rankText} from "./tables.js";
import {TOURNAMENT_OVER} from "./nav.js";
import {goneGames, isLadder, ladderTable, statusLine} from "./ladder.js";

const live = new Map();      // game id -> latest game_update
let current = null, holdUntil = 0;
let info = null;             // tournament_info: the lobby, the tournament, or a finished one
let final = null;            // {tournament, rows, champion} once the tournament is over
let ladder = null;           // on a practice ladder: its latest `ladder` frame ({} until the first)
// On a practice ladder: the games that ended without a last update (a bot left) leave the screen.
const gone = goneGames(ids => {
  ids.forEach(id => live.delete(id));
  if (current && !live.has(current)) current = pick();
  draw();
});
let last = null;             // the last game_update that ended a game: the final screen shows its board
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

function drawFinal() {
  document.body.dataset.game = "";
  document.body.classList.add("final");
  const first = winners(final.rows, final.champion);
  $("tv-title").innerHTML = `<span class="tv-final-title">${esc(final.tournament)} · final</span>`;
  const places = podium(final.rows, final.champion);
  const order = [places[1], places[0], places[2]];          // second, first, third: the winner in the middle
  // A final ranks by rating: its podium says the rating, and 2= for neighbours it could not separate.
  const rated = isFinal(final.rows);
  const label = (row, place) => rated ? rankText(final.rows, final.rows.indexOf(row)) : place;
  const score = row => rated && row.elo !== null ? `${row.elo > 0 ? "+" : ""}${Math.round(row.elo)} Elo` : `${row.points} pts`;
  const step = (row, place) => row ? `<div class="podium-step place${place}"><div class="podium-name">${esc(row.player)}</div>` +
    `<div class="podium-points">${score(row)}</div><div class="podium-block">${label(row, place)}</div></div>` : `<div class="podium-step empty"></div>`;
  $("tv-board").innerHTML = `<div class="tv-final">` +
    `<div class="tv-champion-label">${first.length > 1 ? "shared first place" : "champion"}</div>` +
    `<div class="tv-champion" id="tv-champion">${first.map(esc).join(" &amp; ") || "—"}</div>` +
    `<div class="podium">${step(order[0], 2)}${step(order[1], 1)}${step(order[2], 3)}</div></div>`;
  $("tv-caption").textContent = "the tournament has finished";
  $("tv-tournament").textContent = "Final standings";
  $("tv-standings").innerHTML = standingsTable(final.rows.slice(0, 16), {compact: true});
  $("tv-others").innerHTML = last ? `<h3>last game</h3><div class="tv-last">${boardSVG(last.board, {last, labels: false, title: last.game})}</div>` +
    `<div>${esc(last.players[0])} ${last.status === 1 ? (last.seat === 0 ? "1-0" : "0-1") : "–"} ${esc(last.players[1])} ` +
    `<span class="muted">${esc(last.game)}</span></div>` : "";
}

function draw() {
  if (final) { drawFinal(); return; }
  const u = current ? live.get(current) : null;
  document.body.dataset.game = current || "";
  if (!u && ladder) {
    $("tv-title").textContent = ladder.idle ? `practice ladder · ${ladder.idle}` : "practice ladder · the next game starts in a moment";
    $("tv-board").innerHTML = boardSVG(START, {title: "no game"});
    const left = ladder.resumes_in_s == null ? null : ladder.resumes_in_s - (Date.now() - ladder.received) / 1000;
    $("tv-caption").textContent = ladder.bots === undefined ? "" : statusLine(ladder, left);
  } else if (!u) {
    const waiting = info?.stage === "waiting";
    $("tv-title").textContent = waiting ? `waiting for players · ${info.players.length} of ${info.seats} joined` : "waiting for a game…";
    $("tv-board").innerHTML = boardSVG(START, {title: "no game"});
    $("tv-caption").textContent = info ? formatLine(info) : "";
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

function drawLobby() {
  if (final || info?.stage !== "waiting") return;
  $("tv-tournament").textContent = "Players";
  $("tv-standings").innerHTML = `<ol class="seats">` + info.players.map(p => `<li class="seat">${esc(p)}</li>`).join("") +
    `<li class="seat free muted">waiting…</li>`.repeat(Math.max(info.seats - info.players.length, 0)) + `</ol>`;
}

function finish(name, rows, champion) {
  final = {tournament: name, rows, champion};
  live.clear();
  current = null;
  draw();
}

connect({
  onOpen: send => send({type: "watch", game: "*", batch: true}),
  onMessage: (msg, send) => {
    if (final && msg.type !== "tournament_over") return;    // the final screen stays
    if (msg.type === "welcome" && isLadder(msg)) {
      ladder = ladder || {};
      send({type: "ladder_request"});
      setInterval(() => { if (!current && !final) draw(); }, 1000);     // the countdown to play resuming
      return;
    }
    if (msg.type === "ladder") {
      ladder = {...msg, received: Date.now()};
      $("tv-tournament").textContent = "Practice ladder";
      $("tv-standings").innerHTML = ladderTable(msg.rows.slice(0, 16), {compact: true});
      gone.ladder(msg);
      if (!current) draw();
      return;
    }
    if (ladder && (msg.type === "standings" || msg.type === "tournament_info")) return;   // the ladder's table instead
    if (msg.type === "game_update") {
      if (ladder) gone.seen(msg);
      live.set(msg.game, msg);
      if (msg.over) {
        last = msg;
        if (msg.game === current) { draw(); holdUntil = Date.now() + 1500; setTimeout(() => { live.delete(msg.game); current = pick(); draw(); }, 1500); return; }
        live.delete(msg.game);
      }
      if (!current || (!live.has(current) && Date.now() >= holdUntil)) current = pick();
      if (msg.game === current || !current) draw();
    } else if (msg.type === "tournament_info") {
      info = msg;
      if (msg.stage === "finished") { finish(msg.tournament, msg.rows, msg.champion); return; }
      drawLobby();
      if (!current) draw();
    } else if (msg.type === "standings") {
      $("tv-tournament").textContent = msg.tournament;
      $("tv-standings").innerHTML = standingsTable(msg.rows.slice(0, 16), {compact: true});
    } else if (msg.type === "tournament_over") {
      finish(msg.tournament, msg.rows, msg.champion);
    }
  },
  onClose: event => {
    if (!final) $("tv-caption").textContent = event.reason === TOURNAMENT_OVER ? "the tournament has finished" : "disconnected from the server";
  },
});
draw();

// The tournament page: progress, standings, crosstable, live mini-boards, recent results.
import {connect, esc} from "./protocol.js";
import {boardSVG} from "./board.js";
import {standingsTable, crosstable} from "./tables.js";
import {nav, connState} from "./nav.js";

nav("/");
const live = new Map();      // game id -> latest game_update
let standings = null, games = [], tournament = null;
const $ = id => document.getElementById(id);
const gameLink = id => "/game?game=" + encodeURIComponent(id);

function drawLive() {
  const el = $("live");
  if (!live.size) { el.innerHTML = `<p class="muted">none right now</p>`; return; }
  for (const [id, u] of live) {
    let card = el.querySelector(`[data-game="${CSS.escape(id)}"]`);
    if (!card) {
      el.querySelector("p.muted")?.remove();
      card = document.createElement("a");
      card.className = "mini";
      card.href = gameLink(id);
      card.dataset.game = id;
      el.append(card);
    }
    card.dataset.turn = String(u.turn);
    card.innerHTML = boardSVG(u.board, {last: u, labels: false, title: id}) +
      `<div class="mini-caption"><span class="pawn-dot p0"></span>${esc(u.players[0])} <span class="muted">vs</span> ` +
      `<span class="pawn-dot p1"></span>${esc(u.players[1])}<br><span class="muted">step ${u.turn + 1} · ${esc(u.notation)}</span></div>`;
  }
  for (const card of [...el.querySelectorAll(".mini")]) if (!live.has(card.dataset.game)) card.remove();
  if (!live.size) el.innerHTML = `<p class="muted">none right now</p>`;
}

function drawTables() {
  if (standings) {
    $("title").textContent = standings.tournament;
    $("standings").innerHTML = standingsTable(standings.rows);
    const total = standings.games_total || 0, done = standings.games_done || 0;
    $("progress").textContent = `${done} of ${total || "?"} games played`;
    $("progress-done").setAttribute("width", total ? String(100 * done / total) : "0");
  }
  const finished = games.filter(g => g.score !== "*");
  const names = standings ? standings.rows.map(r => r.player) : [...new Set(finished.flatMap(g => [g.white, g.black]))];
  $("crosstable").innerHTML = crosstable(names, finished);
  $("recent").innerHTML = finished.slice(-12).reverse().map(g =>
    `<li><a href="${gameLink(g.path || g.game)}">${esc(g.white)} <b>${esc(g.score)}</b> ${esc(g.black)}</a> <span class="muted">${esc(g.result)}</span></li>`).join("")
    || `<li class="muted">no games finished yet</li>`;
}

let refresh = null;
function askGames(send) {
  clearTimeout(refresh);
  refresh = setTimeout(() => send({type: "replays_request"}), 300);
}

connect({
  onOpen: send => { send({type: "watch", game: "*", batch: true}); send({type: "replays_request"}); connState("connected", true); },
  onMessage: (msg, send) => {
    if (msg.type === "game_update") {
      if (msg.over) { live.delete(msg.game); askGames(send); } else live.set(msg.game, msg);
      drawLive();
    } else if (msg.type === "standings" || msg.type === "tournament_over") {
      standings = {games_done: standings?.games_done, games_total: standings?.games_total, ...msg};
      if (msg.type === "tournament_over") { standings.games_done = standings.games_total; $("progress").textContent = "tournament over"; }
      drawTables();
      if (msg.type === "tournament_over") $("progress").textContent = "tournament over";
    } else if (msg.type === "replays") {
      const here = msg.folders.find(f => f.name === (standings?.tournament ?? tournament)) || msg.folders[0];
      tournament = here ? here.name : null;
      games = here ? here.games : [];
      if (!standings && tournament) $("title").textContent = tournament;
      drawTables();
    }
  },
  onClose: () => connState("disconnected", false),
});

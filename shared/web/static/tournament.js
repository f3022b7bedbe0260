// The tournament page: the lobby, progress, standings, crosstable, live mini-boards, recent results, the final.
import {connect, esc} from "./protocol.js";
import {boardSVG} from "./board.js";
import {standingsTable, crosstable, formatLine, winners} from "./tables.js";
import {nav, connState, closedState} from "./nav.js";
import {isLadder, ladderPage} from "./ladder.js";

nav("/");
const live = new Map();      // game id -> latest game_update
let standings = null, games = [], tournament = null;
let info = null;             // tournament_info: what this server shows (its lobby, its tournament, a finished one)
let final = null;            // {tournament, rows, champion} once the tournament is over
let ladder = null;           // on a practice ladder: its page (ladder.js) draws the panels
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

/** The title, the lobby or the progress line, and the champion: what the server shows now. */
function drawHeader(finished) {
  const waiting = !final && info?.stage === "waiting";
  document.body.dataset.stage = final ? "finished" : info?.stage || (standings ? "playing" : "");
  $("lobby").hidden = !waiting;
  if (waiting) {
    $("title").textContent = info.tournament || "Waiting for players";
    const freeze = info.freeze_at ? ` · hand-ins freeze at ${info.freeze_at.replace("T", " ").replace("Z", " UTC")}` : "";
    $("progress").textContent = `${info.players.length} of ${info.seats} joined · ${formatLine(info)}${freeze}`;
    $("progress-done").setAttribute("width", String(100 * info.players.length / Math.max(info.seats, 1)));
    $("seats").innerHTML = info.players.map(p => `<li class="seat">${esc(p)}</li>`).join("") +
      `<li class="seat free muted">waiting…</li>`.repeat(Math.max(info.seats - info.players.length, 0));
  } else if (final) {
    $("title").textContent = final.tournament;
    $("progress").textContent = `tournament over · ${finished.length} games` + (info ? ` · ${formatLine(info)}` : "");
    $("progress-done").setAttribute("width", "100");
  } else if (standings) {
    $("title").textContent = standings.tournament;
    const total = standings.games_total || 0, done = standings.games_done || 0;
    $("progress").textContent = info?.format === "final" ? `${done} games played · the final plays rounds until `
      + "every pair of neighbours is separated, or its budget ends" : `${done} of ${total || "?"} games played`;
    $("progress-done").setAttribute("width", total ? String(100 * done / total) : "0");
  } else if (info?.tournament) {
    $("title").textContent = info.tournament;
    $("progress").textContent = `the first games are being played · ${formatLine(info)}`;
  } else if (tournament) {
    $("title").textContent = tournament;
  }
  const first = final ? winners(final.rows, final.champion) : [];
  $("champion").hidden = !first.length;
  $("champion").innerHTML = first.length === 1 ? `Champion: <b>${esc(first[0])}</b>`
    : `Shared first place: ${first.map(p => `<b>${esc(p)}</b>`).join(", ")}`;
}

function drawTables() {
  const finished = games.filter(g => ["1-0", "0-1", "½-½", "0-0"].includes(g.score));   // 0-0: a double forfeit
  drawHeader(finished);
  const rows = final ? final.rows : standings?.rows;
  $("standings").innerHTML = standingsTable(rows || []);
  const names = rows?.length ? rows.map(r => r.player) : info?.players?.length ? info.players
    : [...new Set(finished.flatMap(g => [g.white, g.black]))];
  $("crosstable").innerHTML = crosstable(names, finished);
  $("recent").innerHTML = finished.slice(-12).reverse().map(g =>
    `<li><a href="${gameLink(g.path || g.game)}">${esc(g.white)} <b>${esc(g.score)}</b> ${esc(g.black)}</a> <span class="muted">${esc(g.result)}</span></li>`).join("")
    || `<li class="muted">no games finished yet</li>`;
}

/** The tournament is over: its final table (`tournament_over`, or a finished `tournament_info`) stays on screen. */
function finish(name, rows, champion) {
  final = {tournament: name, rows, champion};
  live.clear();
  drawLive();
  drawTables();
}

let refresh = null;
function askGames(send) {
  clearTimeout(refresh);
  refresh = setTimeout(() => send({type: "replays_request"}), 300);
}

connect({
  onOpen: send => { send({type: "watch", game: "*", batch: true}); send({type: "replays_request"}); connState("connected", true); },
  onMessage: (msg, send) => {
    if (msg.type === "welcome" && isLadder(msg)) ladder = ladder || ladderPage(send, gone => {
      gone.forEach(id => live.delete(id));
      drawLive();
    });
    if (ladder?.handle(msg)) return;
    if (msg.type === "game_update") {
      if (final) return;
      if (msg.over) { live.delete(msg.game); if (!ladder) askGames(send); } else live.set(msg.game, msg);
      drawLive();
    } else if (msg.type === "tournament_info") {
      info = msg;
      if (msg.stage === "finished") finish(msg.tournament, msg.rows, msg.champion);
      else drawTables();
    } else if (msg.type === "standings") {
      if (final) return;
      standings = msg;
      drawTables();
    } else if (msg.type === "tournament_over") {
      finish(msg.tournament, msg.rows, msg.champion);
    } else if (msg.type === "replays") {
      // This server's tournament when it has one (none while it waits for players: never an older run's games);
      // else, on a server that plays none, the data directory's newest.
      const name = final?.tournament ?? info?.tournament ?? standings?.tournament;
      const here = info || name ? msg.folders.find(f => f.name === name) : msg.folders[0];
      tournament = here ? here.name : null;
      games = here ? here.games : [];
      document.body.dataset.listed = tournament ?? "";
      drawTables();
    }
  },
  onClose: event => closedState(event, final !== null),
});

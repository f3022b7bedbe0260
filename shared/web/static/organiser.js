// The organiser's page: every key's bot (the organiser's key) or one's own (a player's key), from the `organiser`
// frame (docs/protocol.md: organiser_request with the typed key). The key goes in that frame only, never in the URL;
// it is kept in sessionStorage (this tab, until it closes) so that a refresh needs no typing, and "Forget" drops it.
import {connect, esc} from "./protocol.js";
import {nav, connState} from "./nav.js";

nav("/organiser");
const $ = id => document.getElementById(id);
const STORED = "quoridor-organiser-key";
const REFRESH_MS = 60000;
let conn = null, open = false, key = sessionStorage.getItem(STORED) || "", refused = false;

function status(text, bad = false) {
  $("status").textContent = text;
  $("status").className = bad ? "error" : "muted";
}

function buttons() {
  $("refresh").disabled = !key;
  $("forget").disabled = !key;
}

/** `2026-11-27T09:30:00Z` (or +00:00, milliseconds) as `2026-11-27 09:30`. */
function when(text) {
  return text ? esc(text.replace("T", " ").replace(/(:\d\d)(\.\d+)?(Z|[+-]\d\d:\d\d)$/, "").slice(0, 16)) : "—";
}

/** How long before `now` the time `text` was, in words (`3 h ago`, `2 days ago`). */
function ago(text, now) {
  if (!text) return "never";
  const hours = (Date.parse(now) - Date.parse(text)) / 3600000;
  if (!(hours >= 0)) return when(text);
  if (hours < 1) return `${Math.max(1, Math.round(hours * 60))} min ago`;
  return hours < 48 ? `${Math.round(hours)} h ago` : `${Math.round(hours / 24)} days ago`;
}

function causes(counts) {
  const parts = Object.entries(counts).sort((a, b) => b[1] - a[1]).map(([c, n]) => `${esc(c.replace(/_/g, " "))} ${n}`);
  return parts.length ? parts.join(", ") : "none";
}

function versions(row) {
  if (!row.versions.length) return `<p class="muted">no bot handed in: it connects</p>`;
  const older = row.older_versions ? `<p class="muted">and ${row.older_versions} older version(s)</p>` : "";
  return `<table class="versions"><thead><tr><th>version</th><th>handed in (UTC)</th><th>validated</th><th>result</th>` +
    `</tr></thead><tbody>` + row.versions.map(v => `<tr data-version="${esc(v.version)}" class="${v.accepted ? "accepted" : "refused"}">` +
      `<td class="mono version">${esc(v.version)}</td><td class="when">${when(v.submitted_at)}</td>` +
      `<td class="when validated">${when(v.validated_at)}</td>` +
      `<td class="result">${v.accepted ? "accepted" : esc(`refused: ${v.cause}: ${v.reason}`)}</td></tr>`).join("") +
    `</tbody></table>` + older;
}

function worst(row) {
  if (!row.worst.length) return "";
  return `<h3>Games worth a look</h3><ol class="worst">` + row.worst.map(g =>
    `<li><a href="/game?game=${encodeURIComponent(g.game)}">${esc(g.result)} against ${esc(g.opponent)}</a> ` +
    `<span class="muted">${esc(g.why)} · ${esc(g.game)}</span></li>`).join("") + `</ol>`;
}

function card(row, frame) {
  const played = row.track
    ? `<p class="facts"><a class="report-link" href="/?report=${encodeURIComponent(row.track)}">report of ${esc(row.track)}</a>` +
      ` <span class="muted">on the ladder since ${when(row.since)} UTC</span></p>` +
      `<p class="facts"><b>${row.games}</b> game${row.games === 1 ? "" : "s"} (W/L/D ${row.wins}/${row.losses}/${row.draws})` +
      ` · violations <b class="${Object.keys(row.violations).length ? "bad" : ""}">${causes(row.violations)}</b>` +
      ` · near-timeouts <b class="${row.near_timeouts ? "bad" : ""}">${row.near_timeouts}</b>` +
      ` · last game ${ago(row.last_game_at, frame.now)}</p>`
    : `<p class="facts muted">${frame.ladder ? "no ladder game yet" : "this server runs no ladder: no games counted"}</p>`;
  const t = row.tournament;
  const tournament = t
    ? `<p class="facts tournament">in the tournament: rank <b>${t.rank}</b> · ${t.points} points · ${t.games} game` +
      `${t.games === 1 ? "" : "s"} (W/L/D ${t.wins}/${t.losses}/${t.draws}) · violations ` +
      `<b class="${t.violations ? "bad" : ""}">${t.violations}</b></p>` : "";
  const attention = row.attention.length
    ? `<ul class="attention">${row.attention.map(a => `<li>${esc(a)}</li>`).join("")}</ul>` : "";
  return `<section class="panel bot${row.attention.length ? " needs" : ""}" data-player="${esc(row.player)}"` +
    ` data-idle="${row.idle}" data-state="${esc(row.state)}">` +
    `<h2><span class="name">${esc(row.player)}</span> <span class="state state-${esc(row.state)}">${esc(row.state)}</span></h2>` +
    attention + tournament + played + worst(row) + `<h3>Versions</h3>` + versions(row) + `</section>`;
}

function show(frame) {
  const needs = frame.rows.filter(r => r.attention.length).length;
  const limit = frame.time_limit_ms === null ? "no time limit" :
    `near-timeout: a step over ${Math.round(frame.slow_share * 100)}% of ${frame.time_limit_ms} ms`;
  status(`${frame.scope === "all" ? `${frame.rows.length} bot${frame.rows.length === 1 ? "" : "s"}` : "your bot"}` +
    ` · ${needs} need${needs === 1 ? "s" : ""} attention · measured ${when(frame.now)} UTC · ${limit}` +
    ` · idle: no game for ${frame.idle_hours} h`);
  document.body.dataset.scope = frame.scope;
  $("rows").innerHTML = frame.rows.map(row => card(row, frame)).join("") ||
    `<p class="muted">no keys yet: nobody has handed a bot in or connected one</p>`;
}

function ask() {
  if (!key) return;
  if (conn && open) { conn.send({type: "organiser_request", key}); return; }
  if (conn) return;                      // connecting: it asks once welcomed
  refused = false;
  conn = connect({
    onOpen: () => { open = true; connState("connected", true); },
    onMessage: msg => {
      if (msg.type === "welcome") { if (key) conn.send({type: "organiser_request", key}); return; }
      if (msg.type === "organiser") { show(msg); return; }
      if (msg.type === "error" && msg.frame_type === "organiser_request") {
        if (msg.code === "unknown_key") {
          refused = true;
          key = "";
          sessionStorage.removeItem(STORED);
          buttons();
          $("rows").innerHTML = "";
          delete document.body.dataset.scope;
        }
        status(`refused: ${msg.message}`, true);
      }
    },
    onClose: () => {
      conn = null; open = false;
      connState(refused ? "refused" : "disconnected", false);
      if (!refused) status("the connection closed; press Refresh to read again", true);
    },
  });
}

$("open").addEventListener("submit", event => {
  event.preventDefault();
  const typed = $("key").value.trim();
  if (!typed) return;
  key = typed;
  sessionStorage.setItem(STORED, key);
  $("key").value = "";
  buttons();
  status("reading…");
  ask();
});
$("refresh").addEventListener("click", () => { status("reading…"); ask(); });
$("forget").addEventListener("click", () => {
  key = "";
  sessionStorage.removeItem(STORED);
  buttons();
  $("rows").innerHTML = "";
  delete document.body.dataset.scope;
  status("the key is forgotten; type a key to see the bots");
});
setInterval(() => { if (key && open) ask(); }, REFRESH_MS);
buttons();
if (key) { status("reading…"); ask(); }

// The practice ladder on the pages (its welcome's server ends in "(practice ladder)"): the published table, what
// plays now or why nothing does, the latest games and a version's report. `/` hands its panels over to ladderPage;
// the TV shows ladderTable beside its board. Pure HTML from the `ladder` frame (docs/protocol.md).
import {esc} from "./protocol.js";

const fmt = v => v === null || v === undefined ? "—" : (v > 0 ? "+" : "") + Math.round(v);
const STATES = {playing: "playing", waiting: "waiting", paused: "paused", away: "away"};

/**
 * The games a page still shows that the ladder no longer plays: a game a bot left ends without a last update.
 * `seen(update)` notes each game_update; `ladder(frame)` hands `onGone` the games missing from the frame's `games`
 * that sent nothing for `quietMs` (a game that started after the frame was built is not one of them), now or
 * once they have been quiet that long.
 */
export function goneGames(onGone, quietMs = 3000) {
  const last = new Map();
  let timer = null;
  const check = frame => {
    const ids = [...last.keys()].filter(id => !frame.games.includes(id) && Date.now() - last.get(id) >= quietMs);
    ids.forEach(id => last.delete(id));
    if (ids.length) onGone(ids);
  };
  return {
    seen(update) { if (update.over) last.delete(update.game); else last.set(update.game, Date.now()); },
    ladder(frame) {
      check(frame);
      clearTimeout(timer);
      timer = setTimeout(() => check(frame), quietMs);
    },
  };
}

/** True when a `welcome` comes from a practice ladder. */
export function isLadder(welcome) {
  return /\(practice ladder\)$/.test(welcome.server || "");
}

/** The ladder's published table (a `ladder` frame's rows); `compact` for the TV; `chosen` marks a version's row. */
export function ladderTable(rows, {compact = false, chosen = null} = {}) {
  if (!rows || !rows.length) return `<p class="muted">no version has played yet</p>`;
  const interval = r => r.low === null || r.high === null ? "" : `${fmt(r.low)} … ${fmt(r.high)}`;
  const head = compact
    ? "<tr><th>#</th><th>bot</th><th>rating</th><th>games</th></tr>"
    : "<tr><th>#</th><th>bot</th><th>version</th><th>rating</th><th>95% interval</th><th>games</th><th class='wld'>W/L/D</th><th class='state'>now</th></tr>";
  const body = rows.map(r => {
    const state = STATES[r.state] || r.state;
    return compact
      ? `<tr class="state-${esc(r.state)}"><td>${r.rank}</td><td class="name">${esc(r.bot)}</td><td>${fmt(r.rating)}</td><td>${r.games}</td></tr>`
      : `<tr class="state-${esc(r.state)}${r.track === chosen ? " chosen" : ""}" data-track="${esc(r.track)}" tabindex="0" title="show the report of ${esc(r.track)}">` +
        `<td>${r.rank}</td><td class="name">${esc(r.bot)}</td><td class="version">${esc(r.version.slice(0, 8))}</td>` +
        `<td><b>${fmt(r.rating)}</b></td><td class="interval">${interval(r)}</td><td>${r.games}</td>` +
        `<td class="wld">${r.wins}/${r.losses}/${r.draws}</td><td class="state">${esc(state)}</td></tr>`;
  }).join("");
  return `<table class="standings ladder-table"><thead>${head}</thead><tbody>${body}</tbody></table>`;
}

/** What the ladder does now, in one line: its games, or why it is idle and in how many seconds play resumes. */
export function statusLine(ladder, secondsLeft = ladder.resumes_in_s) {
  const bots = `${ladder.bots} bot${ladder.bots === 1 ? "" : "s"} connected`;
  const games = `${ladder.games_played} game${ladder.games_played === 1 ? "" : "s"} since the server started`;
  if (ladder.idle === null) return `playing ${ladder.playing} game${ladder.playing === 1 ? "" : "s"} · ${bots} · ${games}`;
  const resumes = secondsLeft === null || secondsLeft === undefined ? "" : ` · play resumes in ${Math.max(0, Math.round(secondsLeft))} s`;
  return `idle: ${ladder.idle}${resumes} · ${bots} · ${games}`;
}

const ms = v => v === null || v === undefined ? "—" : `${Math.round(v).toLocaleString("en")} ms`;

/** A version's report (as `--report BOT --json` writes it) as HTML. */
export function reportHTML(report) {
  const s0 = report.seat0, s1 = report.seat1, t = report.timing;
  const wld = s => `${s.wins}/${s.losses}/${s.draws}`;
  const total = {wins: s0.wins + s1.wins, losses: s0.losses + s1.losses, draws: s0.draws + s1.draws};
  const history = report.rating_history || [];
  const rating = history.length ? `${history[history.length - 1].toFixed(2)} now, from ${history[0].toFixed(2)}; best ${Math.max(...history).toFixed(2)}` : "—";
  const h2h = (report.head_to_head || []).map(h => {
    const games = h.wins + h.losses + h.draws;
    return `<tr><td class="name">${esc(h.opponent)}</td><td>${games}</td><td>${h.wins}/${h.losses}/${h.draws}</td>` +
      `<td>${games ? Math.round(100 * (h.wins + h.draws / 2) / games) + "%" : "—"}</td></tr>`;
  }).join("");
  const causes = Object.entries(t.violations || {}).map(([c, n]) => `${esc(c)} ${n}`).join(", ") || "none";
  const endings = Object.entries(report.endings || {}).map(([r, n]) => `${esc(r.replace(/_/g, " "))} ${n}`).join(", ") || "—";
  const version = report.version ? ` <span class="muted">version ${esc(report.version)}</span>` : "";
  return `<h3 class="report-title">${esc(report.track)}${version}</h3>` +
    `<p>${report.games} games · W/L/D ${wld(total)} (moving first ${wld(s0)}, second ${wld(s1)})</p>` +
    `<p>rating (openskill ordinal): ${rating}</p>` +
    (report.standing ? `<p class="standing">where it stands: ${esc(report.standing.text)}</p>` : "") +
    `<p>thinking time over ${t.steps} steps: median ${ms(t.median_ms)}, p95 ${ms(t.p95_ms)}, max ${ms(t.max_ms)}; ` +
    `${t.slow_steps} steps above 80% of the limit; ${t.timeouts} timeouts</p>` +
    `<p>violations by cause: ${causes} · games ended by: ${endings}</p>` +
    (h2h ? `<table class="standings report-h2h"><thead><tr><th>opponent</th><th>games</th><th>W/L/D</th><th>score</th></tr></thead><tbody>${h2h}</tbody></table>` : "");
}

/**
 * Turn `/` into the ladder's page: its panels become the published table, the report of a chosen version and
 * the latest games (the live mini-boards stay the tournament page's: `onGone` hears the games that ended without a
 * last update, a bot having left, to drop their boards). Returns {handle(msg)}: true when the frame
 * was the ladder's to draw (`ladder`, and the tournament's `standings`/`replays`, which the ladder shows otherwise).
 */
export function ladderPage(send, onGone = () => {}) {
  const $ = id => document.getElementById(id);
  document.body.dataset.ladder = "yes";
  document.title = "Practice ladder · Quoridor Arena";
  $("title").textContent = "Practice ladder";
  $("progress").textContent = "reading the ladder…";
  $("progress").closest(".progress")?.querySelector(".progress-bar")?.remove();
  $("standings").previousElementSibling.textContent = "Published table";
  $("standings").innerHTML = `<p class="muted">reading the table…</p>`;
  $("crosstable").previousElementSibling.textContent = "Report";
  $("crosstable").innerHTML = `<p class="muted">choose a version in the table to see its report</p>`;
  $("recent").previousElementSibling.textContent = "Recent games";
  let ladder = null, chosen = null, received = 0;
  const games = goneGames(onGone);

  const drawStatus = () => {
    if (!ladder) return;
    const left = ladder.resumes_in_s === null ? null : ladder.resumes_in_s - (Date.now() - received) / 1000;
    $("progress").textContent = statusLine(ladder, left);
    $("progress").classList.toggle("idle", ladder.idle !== null);
  };
  const choose = track => {
    chosen = track;
    $("crosstable").innerHTML = `<p class="muted">reading the report of ${esc(track)}…</p>`;
    send({type: "ladder_request", report: track});
    if (ladder) $("standings").innerHTML = ladderTable(ladder.rows, {chosen});
  };
  $("standings").addEventListener("click", event => {
    const row = event.target.closest("tr[data-track]");
    if (row) choose(row.dataset.track);
  });
  $("standings").addEventListener("keydown", event => {
    const row = event.target.closest("tr[data-track]");
    if (row && (event.key === "Enter" || event.key === " ")) { event.preventDefault(); choose(row.dataset.track); }
  });
  setInterval(drawStatus, 1000);
  const wanted = new URLSearchParams(location.search).get("report");     // /?report=TRACK (the organiser's links)
  if (wanted) choose(wanted);
  else send({type: "ladder_request"});

  return {
    handle(msg) {
      if (msg.type === "game_update") games.seen(msg);
      if (msg.type === "ladder") {
        ladder = msg;
        received = Date.now();
        games.ladder(msg);
        drawStatus();
        $("standings").innerHTML = ladderTable(msg.rows, {chosen});
        $("recent").innerHTML = msg.recent.map(g =>
          `<li><a href="/game?game=${encodeURIComponent(g.path || g.game)}">${esc(g.white)} <b>${esc(g.score)}</b> ${esc(g.black)}</a> ` +
          `<span class="muted">${esc(g.game)} · ${esc(g.result)}</span></li>`).join("") || `<li class="muted">no games finished yet</li>`;
        if (msg.report && msg.report.track === chosen) $("crosstable").innerHTML = reportHTML(msg.report);
        return true;
      }
      if (msg.type === "error" && msg.frame_type === "ladder_request") {
        $("crosstable").innerHTML = `<p class="muted">${esc(msg.message)}</p>`;
        return true;
      }
      return msg.type === "standings" || msg.type === "replays" || msg.type === "tournament_info";
    },
  };
}

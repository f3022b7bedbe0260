// Standings and crosstable as HTML: pure functions of the protocol's frames.
import {esc} from "./protocol.js";

const fmt = v => v === null || v === undefined ? "—" : Math.round(v);

/** A rating's 95% interval as its two ends (`elo_low`..`elo_high`: not symmetric, long on the side of a perfect
 * score), or `± elo_error` from a server that sends only the margin; nothing for the anchor (0 wide). */
function interval(r) {
  if (r.elo_low !== null && r.elo_low !== undefined && r.elo_high !== null && r.elo_high !== undefined) {
    return r.elo_high > r.elo_low ? `${fmt(r.elo_low)}&nbsp;…&nbsp;${fmt(r.elo_high)}` : "";
  }
  return r.elo_error ? `±&nbsp;${fmt(r.elo_error)}` : "";
}

/** True for the table of a final: its rows say whether each is `separated` from the next. */
export function isFinal(rows) {
  return (rows || []).some(r => r.separated !== null && r.separated !== undefined);
}

/** What a final's table says under its rows. */
export const TIE_NOTE = "= after a rank (2=): a shared rank; a final's rank is 1 + the bots shown better at 95% (a final " +
  "ranks by rating, with 95% intervals)";

/** Row `i`'s rank as a final's table prints it: `2=` for a rank shared by neighbours not separated, else `2`. */
export function rankText(rows, i) {
  const r = rows[i];
  const shared = isFinal(rows) && ((i > 0 && rows[i - 1].rank === r.rank) ||
    (i + 1 < rows.length && rows[i + 1].rank === r.rank));
  return shared ? `${r.rank}=` : String(r.rank);
}

/** A row's rank cell: in a final, `2=` (with why, on hover) for a rank shared by neighbours not separated. */
function rankCell(rows, i, final) {
  const r = rows[i];
  if (!final || !rankText(rows, i).endsWith("=")) return `<td>${r.rank}</td>`;
  const why = `as many bots shown better at 95% as another of rank ${r.rank}` +
    (r.separated === false ? "; not separated from the next" : "");
  return `<td class="tied" title="${why}">${r.rank}=</td>`;
}

/** The standings rows of a `standings` frame as a table; `compact` for the TV. A final's shows its ties. */
export function standingsTable(rows, {compact = false} = {}) {
  if (!rows || !rows.length) return `<p class="muted">no standings yet</p>`;
  const final = isFinal(rows);
  const head = compact
    ? "<tr><th>#</th><th>player</th><th>pts</th><th>games</th><th>Elo</th></tr>"
    : "<tr><th>#</th><th>player</th><th>points</th><th>games</th><th>W</th><th>L</th><th>D</th><th>Elo (95%)</th><th>viol.</th><th>think s</th></tr>";
  const body = rows.map((r, i) => compact
    ? `<tr>${rankCell(rows, i, final)}<td class="name">${esc(r.player)}</td><td>${r.points}</td><td>${r.games}</td><td>${fmt(r.elo)}${interval(r) ? `<small class="interval">&nbsp;${interval(r)}</small>` : ""}</td></tr>`
    : `<tr>${rankCell(rows, i, final)}<td class="name">${esc(r.player)}</td><td><b>${r.points}</b></td><td>${r.games}</td><td>${r.wins}</td><td>${r.losses}</td><td>${r.draws}</td>` +
      `<td>${fmt(r.elo)}${interval(r) ? `<small class="interval">&nbsp;(${interval(r)})</small>` : ""}</td><td>${r.violations}</td><td>${(r.thinking_ms / 1000).toFixed(1)}</td></tr>`).join("");
  const note = final ? `<p class="tie-note muted">${TIE_NOTE}</p>` : "";
  return `<table class="standings ${compact ? "compact" : "full"}${final ? " final" : ""}"><thead>${head}</thead>` +
    `<tbody>${body}</tbody></table>${note}`;
}

/** A crosstable of finished games ({white, black, score}) in the standings' order. */
export function crosstable(names, games) {
  if (!names.length) return `<p class="muted">no games finished yet</p>`;
  const cell = new Map();
  const add = (a, b, points) => {
    const key = a + "\u0000" + b, was = cell.get(key) || [];
    was.push(points);
    cell.set(key, was);
  };
  for (const g of games) {
    const p = {"1-0": [1, 0], "0-1": [0, 1], "½-½": [0.5, 0.5], "0-0": [0, 0]}[g.score];   // 0-0: a double forfeit
    if (!p) continue;
    add(g.white, g.black, p[0]);
    add(g.black, g.white, p[1]);
  }
  const short = n => esc(n.length > 10 ? n.slice(0, 9) + "…" : n);
  const head = `<tr><th></th>${names.map((n, i) => `<th title="${esc(n)}">${i + 1}</th>`).join("")}</tr>`;
  const rows = names.map((a, i) => `<tr><th class="name" title="${esc(a)}">${i + 1}. ${short(a)}</th>` + names.map(b => {
    if (a === b) return `<td class="self"></td>`;
    const got = cell.get(a + "\u0000" + b);
    return `<td>${got ? got.map(x => x === 0.5 ? "½" : x).join(" ") : ""}</td>`;
  }).join("") + "</tr>").join("");
  return `<table class="crosstable"><thead>${head}</thead><tbody>${rows}</tbody></table>`;
}

/** The format of a `tournament_info` for people: `round-robin · 2 games per pairing · course rules`. */
export function formatLine(info) {
  const games = `${info.games_per_pairing} game${info.games_per_pairing === 1 ? "" : "s"} per pairing`;
  const format = info.format === "final" ? "final (rounds until the rating order settles)" : info.format;
  return `${format} · ${games} · ${info.ruleset} rules`;
}

/** The winner of a final table: the `champion` the server named, else the players ranked 1 (several: shared). */
export function winners(rows, champion) {
  if (champion) return [champion];
  return (rows || []).filter(r => r.rank === 1).map(r => r.player);
}

/** The podium of a final table: up to three rows, the champion first (a knockout's need not lead the table). */
export function podium(rows, champion) {
  const all = rows || [];
  const first = champion ? all.filter(r => r.player === champion) : [];
  return [...first, ...all.filter(r => r.player !== champion)].slice(0, 3);
}

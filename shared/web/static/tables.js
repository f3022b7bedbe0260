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

/** The standings rows of a `standings` frame as a table; `compact` for the TV. */
export function standingsTable(rows, {compact = false} = {}) {
  if (!rows || !rows.length) return `<p class="muted">no standings yet</p>`;
  const head = compact
    ? "<tr><th>#</th><th>player</th><th>pts</th><th>games</th><th>Elo</th></tr>"
    : "<tr><th>#</th><th>player</th><th>points</th><th>games</th><th>W</th><th>L</th><th>D</th><th>Elo (95%)</th><th>viol.</th><th>think s</th></tr>";
  const body = rows.map(r => compact
    ? `<tr><td>${r.rank}</td><td class="name">${esc(r.player)}</td><td>${r.points}</td><td>${r.games}</td><td>${fmt(r.elo)}${interval(r) ? `<small class="interval">&nbsp;${interval(r)}</small>` : ""}</td></tr>`
    : `<tr><td>${r.rank}</td><td class="name">${esc(r.player)}</td><td><b>${r.points}</b></td><td>${r.games}</td><td>${r.wins}</td><td>${r.losses}</td><td>${r.draws}</td>` +
      `<td>${fmt(r.elo)}${interval(r) ? `<small class="interval">&nbsp;(${interval(r)})</small>` : ""}</td><td>${r.violations}</td><td>${(r.thinking_ms / 1000).toFixed(1)}</td></tr>`).join("");
  return `<table class="standings ${compact ? "compact" : "full"}"><thead>${head}</thead><tbody>${body}</tbody></table>`;
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
  return `${info.format} · ${games} · ${info.ruleset} rules`;
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

// A game's analysis beside its player (Lichess's computer analysis): each player's accuracy and counts, the
// evaluation graph (seat 0's winning chance over the steps; click a point to go to that step), the labels in the
// step list, and the engine's best step drawn as a ghost on the board. The data is GameAnalysis.to_json()
// (shared/analysis; docs/analysis.md): the server's GET /analysis/GAME.json, or embedded by quoridor-replay --html.
import {esc, ghostSVG} from "./board.js";

/** Lichess's symbols for the labels; a violation (a timeout or an illegal step) gets a cross. */
export const SYMBOLS = Object.freeze({inaccuracy: "?!", mistake: "?", blunder: "??", violation: "✗"});
const LABEL_ORDER = ["inaccuracy", "mistake", "blunder", "violation"];
const PLURALS = {inaccuracy: "inaccuracies", mistake: "mistakes", blunder: "blunders", violation: "violations"};
/** The page asks again every 2 s while the server says pending, 90 times (3 minutes), then stops. */
export const POLL_MS = 2000, POLL_TIMES = 90;

/** Seat 0's winning chance (-1..1) at each step: the start, then after each ply. */
export function seat0Chances(analysis) {
  const plies = analysis.plies;
  if (!plies.length) return [0];
  const side = (p, chance) => (p.seat === 0 ? chance : -chance);
  return [side(plies[0], plies[0].chance_before), ...plies.map(p => side(p, p.chance_after))];
}

/** A winning chance (-1..1) as a percentage of winning (0..100). */
export function percent(chance) { return Math.round(50 * (1 + Math.max(-1, Math.min(1, chance)))); }

/**
 * The evaluation graph as SVG text, `width` x `height` pixels: seat 0's winning chance from 100% (top) to 0%
 * (bottom), the area blue above the even line and red below (the pawns' colours); a dot per step, the labelled
 * ones larger in their label's colour; every step's column clickable (data-step). `step` is marked by a line.
 */
export function graphSVG(analysis, {width = 600, height = 160, step = 0, players = ["seat 0", "seat 1"]} = {}) {
  const chances = seat0Chances(analysis), last = chances.length - 1, pad = 9, left = 48;   // left: the scale's room
  const dx = (width - left - pad) / Math.max(1, last);
  const X = i => left + i * dx, Y = v => pad + (1 - Math.max(-1, Math.min(1, v))) / 2 * (height - 2 * pad);
  const f = n => Math.round(n * 10) / 10;
  const out = [`<svg class="eval-graph" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" ` +
    `xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${esc(players[0])}'s winning chance by step">`];
  out.push(`<defs><linearGradient id="eval-fill" gradientUnits="userSpaceOnUse" x1="0" y1="${Y(1)}" x2="0" ` +
    `y2="${Y(-1)}"><stop offset="50%" class="stop0"/><stop offset="50%" class="stop1"/></linearGradient></defs>`);
  out.push(`<rect class="frame" x="0.5" y="0.5" width="${width - 1}" height="${height - 1}" rx="6"/>`);
  for (const v of [0.5, -0.5]) out.push(`<line class="quarter" x1="${left}" x2="${width - pad}" y1="${f(Y(v))}" y2="${f(Y(v))}"/>`);
  out.push(`<line class="even" x1="${left}" x2="${width - pad}" y1="${f(Y(0))}" y2="${f(Y(0))}"/>`);
  for (const v of [1, 0, -1]) out.push(`<text class="scale" x="${left - 5}" y="${f(Y(v) + 4)}">${percent(v)}%</text>`);
  for (let i = 0; i <= last; i++) {       // under the curve: a click anywhere in a step's column goes to that step
    out.push(`<rect class="hit" data-step="${i}" x="${f(X(i) - dx / 2)}" y="0" width="${f(dx)}" height="${height}"/>`);
  }
  const line = chances.map((v, i) => `${f(X(i))},${f(Y(v))}`).join(" ");
  out.push(`<path class="area" fill="url(#eval-fill)" d="M${f(X(0))},${f(Y(0))} L${line} L${f(X(last))},${f(Y(0))} Z"/>`);
  out.push(`<polyline class="curve" points="${line}"/>`);
  out.push(`<line class="cursor" x1="${f(X(step))}" x2="${f(X(step))}" y1="0" y2="${height}"/>`);
  const small = Math.max(1.5, Math.min(3, dx / 3)), big = Math.max(4.5, Math.min(7, dx));
  analysis.plies.forEach((p, k) => {
    const i = k + 1, who = players[p.seat] ?? `seat ${p.seat}`;
    const tip = `${i}. ${who} ${p.played || "—"}${p.label ? SYMBOLS[p.label] + " " + p.label : ""} · ` +
      `${players[0]} ${percent(chances[i])}%${p.best && p.best !== p.played ? " · best " + p.best : ""}`;
    out.push(`<circle class="point${p.label ? " " + p.label : ""}${i === step ? " current" : ""}" data-step="${i}" ` +
      `cx="${f(X(i))}" cy="${f(Y(chances[i]))}" r="${p.label ? big : small}"><title>${esc(tip)}</title></circle>`);
  });
  out.push("</svg>");
  return out.join("");
}

/** The players' accuracy and counts by label, a row each; their worst steps as buttons (data-step). */
export function summaryHTML(analysis, players) {
  const head = LABEL_ORDER.map(l => `<th title="${PLURALS[l]}" class="${l}">${SYMBOLS[l]}</th>`).join("");
  const rows = analysis.players.map(p => {
    const counts = LABEL_ORDER.map(l => `<td class="${(p.counts[l] || 0) ? l : "zero"}">${p.counts[l] || 0}</td>`).join("");
    const worst = (p.worst || []).map(n => `<button type="button" data-step="${n}" title="go to step ${n}">${n}</button>`).join("");
    return `<tr class="seat${p.seat}"><td class="who"><span class="pawn-dot p${p.seat}"></span>${esc(players[p.seat] ?? p.name)}</td>` +
      `<td class="accuracy"><b>${Math.round(p.accuracy)}</b>%</td>${counts}<td class="worst">${worst}</td></tr>`;
  }).join("");
  return `<table class="eval-summary"><thead><tr><th></th><th>accuracy</th>${head}<th>worst steps</th></tr></thead>` +
    `<tbody>${rows}</tbody></table>`;
}

/** A step's verdict in words: "12. bob e1h?? blunder (−0.41): the reason. Best: e4" (`short`: from "blunder"). */
export function verdictText(ply, players, {short = false} = {}) {
  if (!ply) return "";
  const who = players[ply.seat] ?? `seat ${ply.seat}`;
  let text = short ? "" : `${ply.ply}. ${who} ${ply.played || "—"}${ply.label ? SYMBOLS[ply.label] : ""}`;
  if (ply.label) text += `${text ? " " : ""}${ply.label}${ply.label !== "violation" ? ` (−${ply.drop.toFixed(2)})` : ""}`;
  if (ply.reason) text += `${text ? ": " : ""}${ply.reason}`;
  if (ply.best && ply.best !== ply.played) text += `${ply.label || ply.reason ? ". " : text ? " · " : ""}Best: ${ply.best}`;
  return text;
}

/**
 * The analysis of the game a GamePlayer shows: `show(analysis)` draws it (summary, graph, labels, ghosts) and
 * follows the player's steps; `pending(position)` says it is being made; `clear()` leaves the page as it was.
 */
export class AnalysisView {
  constructor(player) {
    this.player = player;
    this.analysis = null;
    this.el = document.createElement("section");
    this.el.className = "analysis";
    this.el.hidden = true;
    this.el.addEventListener("click", e => {
      const target = e.target.closest("[data-step]");
      if (target && this.analysis) this.player.render(Number(target.dataset.step));
    });
    this.width = 0;
    this.resize = typeof ResizeObserver === "function" ? new ResizeObserver(() => this.redraw()) : null;
    this.onStep = e => this.follow(e.detail);
    player.root.addEventListener("step", this.onStep);
  }

  get players() { return this.player.record ? this.player.record.players : this.analysis.players.map(p => p.name); }

  /** Put the view in the player's side column, above the step list (mount() draws the player anew). */
  place() {
    const side = this.player.root.querySelector(".side");
    if (side && this.el.parentElement !== side) side.insertBefore(this.el, side.querySelector(".problems"));
  }

  /** The server is still analysing: `position` games ahead in its queue. */
  pending(position) {
    this.analysis = null;
    this.el.hidden = false;
    this.el.dataset.state = "pending";
    const ahead = Number.isFinite(position) && position > 0 ? ` (${position} ahead)` : "";
    this.el.innerHTML = `<p class="eval-note muted">analysing…${ahead}</p>`;
    this.place();
  }

  /** The analysis is not coming: no graph, the page as before; `note` says why when there is something to say. */
  clear(note = "") {
    this.analysis = null;
    this.el.dataset.state = note ? "stopped" : "none";
    this.el.innerHTML = note ? `<p class="eval-note muted">${esc(note)}</p>` : "";
    this.el.hidden = !note;
    if (this.resize) this.resize.disconnect();
    this.player.root.querySelector(".board-wrap svg.board g.ghost")?.remove();
    this.place();
  }

  /** Draw `analysis` (GameAnalysis.to_json()) and follow the player's steps. */
  show(analysis) {
    this.analysis = analysis;
    this.labelled = null;
    this.el.hidden = false;
    this.el.dataset.state = "ready";
    this.el.innerHTML = `<div class="eval-head"><span><span class="pawn-dot p0"></span>${esc(this.players[0])}'s ` +
      `winning chance</span><span class="muted">engine ${esc(analysis.engine)} · ` +
      `${Number(analysis.nodes).toLocaleString("en")} nodes</span></div>` +
      `${summaryHTML(analysis, this.players)}<div class="eval-plot"></div><p class="verdict"></p>`;
    this.plot = this.el.querySelector(".eval-plot");
    this.place();
    this.width = 0;
    this.redraw();
    if (this.resize) { this.resize.disconnect(); this.resize.observe(this.plot); }
    this.follow(this.player.step);
  }

  /** Draw the graph at the plot's width (again when it changes). */
  redraw() {
    if (!this.analysis || !this.plot) return;
    const width = Math.round(this.plot.clientWidth || 600);
    if (width === this.width) return;
    this.width = width;
    const height = Math.round(Math.max(110, Math.min(260, width * 0.28)));
    this.plot.innerHTML = graphSVG(this.analysis, {width, height, step: this.player.step, players: this.players});
  }

  /** The symbol of each labelled step in the player's step list, with its reason under it. */
  labelMoves() {
    const moves = this.player.root.querySelector(".moves");
    if (!moves || (this.labelled === moves && moves.children.length === this.labelledCount)) return;
    for (const p of this.analysis.plies) {
      const li = moves.children[p.ply - 1];
      if (!li || li.dataset.label !== undefined) continue;
      li.dataset.label = p.label || "";
      if (!p.label) continue;
      li.classList.add("judged", p.label);
      li.querySelector(".notation")?.insertAdjacentHTML("beforeend",
        `<b class="judgement ${p.label}" title="${esc(p.label)}">${SYMBOLS[p.label]}</b>`);
      if (p.label === "violation") continue;            // the list says its reason already (player.js)
      li.insertAdjacentHTML("beforeend",
        `<span class="comment ${p.label}">${esc(verdictText(p, this.players, {short: true}))}</span>`);
    }
    this.labelled = moves;
    this.labelledCount = moves.children.length;
  }

  /** Step `n` is shown: the graph's cursor, the step's verdict, the ghost of the engine's best step. */
  follow(n) {
    if (!this.analysis) return;
    this.place();
    this.labelMoves();
    const svg = this.plot.querySelector("svg.eval-graph");
    if (svg) {
      const hit = svg.querySelector(`rect.hit[data-step="${n}"]`), cursor = svg.querySelector(".cursor");
      if (hit && cursor) {
        const x = String(Number(hit.getAttribute("x")) + Number(hit.getAttribute("width")) / 2);
        cursor.setAttribute("x1", x);
        cursor.setAttribute("x2", x);
      }
      svg.querySelector("circle.point.current")?.classList.remove("current");
      svg.querySelector(`circle.point[data-step="${n}"]`)?.classList.add("current");
    }
    const ply = n > 0 ? this.analysis.plies[n - 1] : null;
    const verdict = this.el.querySelector(".verdict");
    verdict.textContent = ply ? verdictText(ply, this.players) : "the start: click the graph to go to a step";
    verdict.className = `verdict${ply && ply.label ? " " + ply.label : ""}`;
    const board = this.player.root.querySelector(".board-wrap svg.board");
    if (!board) return;
    board.querySelector("g.ghost")?.remove();
    if (ply && ply.best && ply.best !== ply.played) board.insertAdjacentHTML("beforeend", ghostSVG(ply.best, ply.seat));
  }
}

/**
 * Ask the server for a game's analysis (GET /analysis/GAME.json) and show it in `view`: 200 draws it, 202 says
 * "analysing… (N ahead)" and asks again every POLL_MS, at most POLL_TIMES times; a 404 or an error shows nothing.
 * Returns a function that stops the polling.
 */
export function fetchAnalysis(game, view, {every = POLL_MS, times = POLL_TIMES} = {}) {
  const url = "/analysis/" + game.split("/").map(encodeURIComponent).join("/") + ".json";
  let timer = null, stopped = false, asked = 0;
  const ask = async () => {
    timer = null;
    asked++;
    let response, body;
    try {
      response = await fetch(url, {cache: "no-store"});
      body = response.status === 200 || response.status === 202 ? await response.json() : null;
    } catch {
      response = null;
    }
    if (stopped) return;
    view.el.dataset.asked = String(asked);
    if (response && response.status === 200 && body && Array.isArray(body.plies)) view.show(body);
    else if (response && response.status === 202 && body) {
      if (asked >= times) view.clear("the analysis is still queued: reload the page later to see it");
      else { view.pending(Number(body.position)); timer = setTimeout(ask, every); }
    } else view.clear();
  };
  ask();
  return () => { stopped = true; clearTimeout(timer); };
}

// One player for every game, live or finished (Kaggle's GameAdapter: mount / render / unmount).
// A record is a game_record frame: {game, players, steps: [game_update...], result, live, problems};
// step k shows the board after the k-th step (0: the start). Live games grow with push(update).
import {START, boardSVG, esc, patchBoard} from "./board.js";

const STATUS = {0: "Ok", 1: "Win", 2: "Lost", 3: "Timeout", 4: "EnemyClosed", 5: "RulesBreaker",
                6: "InsufficientBlock", 7: "InvalidStep", 2000: "None"};
const VIOLATION = new Set([3, 5, 6, 7]);
const SPEEDS = [1, 2, 4, 8, 16];
// The address bar follows the step at most this often: history.replaceState costs about as much as drawing
// the board, and a browser ignores it when called hundreds of times in a few seconds (a held arrow key).
const URL_EVERY_MS = 200;


export class GamePlayer {
  /** `url`: keep ?step=N in the address bar; `keys`: answer the arrow keys, Home and End. */
  constructor(root, {url = false, keys = true, compact = false} = {}) {
    this.root = root;
    this.options = {url, keys, compact};
    this.record = null;
    this.step = 0;
    this.timer = null;
    this.speed = 4;
    this.urlTimer = null;
    this.urlWritten = -Infinity;
    this.onKey = this.onKey.bind(this);
  }

  get last() { return this.record ? this.record.steps.length : 0; }

  /** Show a record; `step` (default: the end of a live game, else the URL's or 0). */
  mount(record, step = null) {
    this.record = {...record, steps: [...record.steps]};
    const {compact} = this.options;
    this.root.classList.add("player");
    this.root.innerHTML = `
      <div class="board-wrap"></div>
      <aside class="side${compact ? " compact" : ""}">
        <div class="names"></div>
        <div class="state"></div>
        <div class="controls">
          <button type="button" data-go="home" title="first step (Home)">«</button>
          <button type="button" data-go="prev" title="previous step (←)">‹</button>
          <button type="button" data-go="play" class="play" title="autoplay">▶</button>
          <button type="button" data-go="next" title="next step (→)">›</button>
          <button type="button" data-go="end" title="last step (End)">»</button>
          <label>speed <select class="speed">${SPEEDS.map(s => `<option value="${s}"${s === this.speed ? " selected" : ""}>${s}/s</option>`).join("")}</select></label>
        </div>
        <input class="slider" type="range" min="0" max="0" value="0" aria-label="step">
        <div class="problems"></div>
        <ol class="moves"></ol>
      </aside>`;
    this.boardEl = this.root.querySelector(".board-wrap");
    this.slider = this.root.querySelector(".slider");
    this.moves = this.root.querySelector(".moves");
    this.root.querySelector(".names").innerHTML =
      `<span class="pawn-dot p0"></span><b>${esc(record.players[0])}</b> <span class="vs">vs</span> ` +
      `<span class="pawn-dot p1"></span><b>${esc(record.players[1])}</b>`;
    this.root.querySelector(".problems").innerHTML = (record.problems || []).map(p => `<div class="problem">${esc(p)}</div>`).join("");
    this.slider.addEventListener("input", () => this.render(Number(this.slider.value)));
    this.root.querySelector(".controls").addEventListener("click", e => {
      const go = e.target.closest("button")?.dataset.go;
      if (go === "home") this.render(0);
      else if (go === "prev") this.render(this.step - 1);
      else if (go === "next") this.render(this.step + 1);
      else if (go === "end") this.render(this.last);
      else if (go === "play") this.toggle();
    });
    this.root.querySelector(".speed").addEventListener("change", e => {
      this.speed = Number(e.target.value);
      if (this.timer) { this.stop(); this.play(); }
    });
    this.moves.addEventListener("click", e => {
      const li = e.target.closest("li[data-step]");
      if (li) this.render(Number(li.dataset.step));
    });
    if (this.options.keys) document.addEventListener("keydown", this.onKey);
    this.maxThinking = 1;
    this.appendMoves(0);
    if (step === null) {
      const wanted = this.options.url ? new URLSearchParams(location.search).get("step") : null;
      step = wanted !== null ? Number(wanted) : record.live ? this.last : 0;
    }
    this.render(step);
  }

  /** A live game_update: appended when it is the next step; the view follows when it showed the end. */
  push(update) {
    if (!this.record || update.game !== this.record.game) return;
    const steps = this.record.steps;
    if (steps.length && update.turn <= steps[steps.length - 1].turn) {
      // A game no step ended (a bot left): its last board again, marked over. The game is no longer live.
      if (update.over && this.record.live) {
        this.record.live = false;
        this.record.result = this.record.result || "game over";
        this.render(this.step);
      }
      return;
    }
    const following = this.step === this.last;
    steps.push(update);
    if (update.over) {
      this.record.live = false;
      const [a, b] = update.players, won = update.seat === 0 ? a : b, lost = update.seat === 0 ? b : a;
      this.record.result = update.status === 1 ? `${won} won (goal)` : update.status === 5 ? `${lost} won (violations)`
        : this.record.result || "game over";
    }
    this.appendMoves(steps.length - 1);
    if (following) this.render(this.last);
    else this.slider.max = String(this.last);
  }

  /** Finish with the game's end as the server says it (a result line). */
  finish(result) {
    if (this.record) { this.record.result = result; this.record.live = false; this.render(this.step); }
  }

  appendMoves(from) {
    const steps = this.record.steps;
    for (let i = from; i < steps.length; i++) this.maxThinking = Math.max(this.maxThinking, steps[i].thinking_ms || 0);
    const html = [];
    for (let i = from; i < steps.length; i++) {
      const s = steps[i], bad = VIOLATION.has(s.status);
      const ms = s.thinking_ms ?? null;
      const pct = ms === null ? 0 : Math.max(1, Math.round(100 * ms / this.maxThinking));
      html.push(`<li data-step="${i + 1}" class="seat${s.seat}${bad ? " violation" : ""}">` +
        `<span class="num">${i + 1}.</span><span class="pawn-dot p${s.seat}"></span>` +
        `<span class="notation">${esc(s.notation)}</span>` +
        `<svg class="bar" viewBox="0 0 100 8" preserveAspectRatio="none"><rect width="${pct}" height="8"/></svg>` +
        `<span class="ms">${ms === null ? "" : ms + " ms"}</span>` +
        (bad ? `<span class="reason">${esc(STATUS[s.status] || s.status)}${s.reason ? ": " + esc(s.reason) : ""}</span>` : "") +
        `</li>`);
    }
    this.moves.insertAdjacentHTML("beforeend", html.join(""));
    this.slider.max = String(this.last);
  }

  /** Show step `n` (clamped to 0..last). */
  render(n) {
    if (!this.record) return;
    n = Math.max(0, Math.min(this.last, Number.isFinite(n) ? Math.round(n) : 0));
    const steps = this.record.steps, s = n > 0 ? steps[n - 1] : null;
    const board = s ? s.board : START;
    const drawn = this.boardEl.firstElementChild, title = `${this.record.game}, step ${n}`;
    if (drawn && drawn.matches("svg.board")) patchBoard(drawn, board, {last: s, title});
    else this.boardEl.innerHTML = boardSVG(board, {last: s, title});
    const prev = this.moves.querySelector("li.current");
    if (prev) prev.classList.remove("current");
    const li = n > 0 ? this.moves.children[n - 1] : null;
    if (li) { li.classList.add("current"); if (!this.options.compact) li.scrollIntoView({block: "nearest"}); }
    this.slider.value = String(n);
    this.step = n;
    this.root.dataset.step = String(n);
    const [a, b] = this.record.players;
    const ended = s && s.over;
    let state;
    if (ended || (n === this.last && !this.record.live && this.record.result)) {
      state = `<b class="result">${esc(this.record.result || "game over")}</b>`;
    } else {
      const mover = s ? 1 - s.seat : 0;
      state = `<span class="pawn-dot p${mover}"></span> ${esc(mover ? b : a)} to move`;
    }
    const live = this.record.live ? `<span class="live">● live</span>` : "";
    this.root.querySelector(".state").innerHTML =
      `<div class="stepno">step <b>${n}</b> / ${this.last} ${live}</div><div>${state}</div>` +
      `<div class="walls-left"><span class="pawn-dot p0"></span> walls ${board.walls_left[0]} ` +
      `<span class="pawn-dot p1"></span> walls ${board.walls_left[1]}</div>` +
      (s && VIOLATION.has(s.status) ? `<div class="violation-note">${esc(STATUS[s.status])}${s.reason ? ": " + esc(s.reason) : ""}</div>` : "");
    if (this.options.url) this.followURL();
    this.root.dispatchEvent(new CustomEvent("step", {detail: n}));     // the analysis follows (analysis.js)
  }

  /** Put ?step=N in the address bar: now, or once URL_EVERY_MS has passed since the last time (the newest step). */
  followURL() {
    if (this.urlTimer) return;
    const write = () => {
      this.urlTimer = null;
      this.urlWritten = performance.now();
      const params = new URLSearchParams(location.search);
      params.set("step", String(this.step));
      history.replaceState(null, "", "?" + params.toString());
    };
    const wait = this.urlWritten + URL_EVERY_MS - performance.now();
    if (wait <= 0) write();
    else this.urlTimer = setTimeout(write, wait);
  }

  play() {
    if (this.step >= this.last) this.render(0);
    this.root.querySelector(".play").textContent = "❙❙";
    this.timer = setInterval(() => {
      if (this.step >= this.last) { if (!this.record.live) this.stop(); return; }
      this.render(this.step + 1);
    }, 1000 / this.speed);
  }

  stop() {
    clearInterval(this.timer);
    this.timer = null;
    const button = this.root.querySelector(".play");
    if (button) button.textContent = "▶";
  }

  toggle() { if (this.timer) this.stop(); else this.play(); }

  onKey(e) {
    if (e.target.closest && e.target.closest("input:not([type=range]), select, textarea")) return;
    const go = {ArrowLeft: this.step - 1, ArrowRight: this.step + 1, Home: 0, End: this.last}[e.key];
    if (go === undefined) return;
    e.preventDefault();
    this.render(go);
  }

  unmount() {
    this.stop();
    clearTimeout(this.urlTimer);
    this.urlTimer = null;
    document.removeEventListener("keydown", this.onKey);
    this.root.innerHTML = "";
    this.record = null;
  }
}

// Replays: the data directory's tournaments and games, and "open a log" (sent to the server's reader).
import {connect, esc} from "./protocol.js";
import {GamePlayer} from "./player.js";
import {nav, connState, closedState} from "./nav.js";

nav("/replays");
const $ = id => document.getElementById(id);
const MAX = 96 * 1024;
let player = null, conn = null;

function folders(list) {
  if (!list.length) return `<p class="muted">no replays in the data directory</p>`;
  return list.map(f => `<details class="panel folder" open><summary><h2>${esc(f.name)}</h2> <span class="muted">${f.games.length} games</span></summary>
    <table class="games"><thead><tr><th>game</th><th>seat 0</th><th></th><th>seat 1</th><th>result</th></tr></thead><tbody>` +
    f.games.map(g => `<tr><td>${g.path ? `<a href="/game?game=${encodeURIComponent(g.path)}">${esc(g.game)}</a>` : esc(g.game)}</td>` +
      `<td>${esc(g.white)}</td><td class="score">${esc(g.score)}</td><td>${esc(g.black)}</td><td class="muted">${esc(g.result)}</td></tr>`).join("") +
    `</tbody></table></details>`).join("");
}

conn = connect({
  onOpen: send => { send({type: "replays_request"}); connState("connected", true); },
  onMessage: msg => {
    if (msg.type === "replays") $("folders").innerHTML = folders(msg.folders);
    else if (msg.type === "game_record") {
      $("upload-error").hidden = true;
      if (player) player.unmount();
      player = new GamePlayer($("upload-player"), {url: false});
      window.quoridorPlayer = player;
      player.mount(msg, msg.steps.length);
    } else if (msg.type === "error" && msg.frame_type === "log_upload") {
      if (player) { player.unmount(); player = null; }
      $("upload-error").textContent = msg.message;
      $("upload-error").hidden = false;
    }
  },
  onClose: event => closedState(event),
});

$("file").addEventListener("change", async () => {
  const file = $("file").files[0];
  if (!file) return;
  if (file.size > MAX) {
    $("upload-error").textContent = `${file.name}: ${file.size} bytes, more than ${MAX}: far too large for a game log`;
    $("upload-error").hidden = false;
    return;
  }
  conn.send({type: "log_upload", name: file.name.slice(0, 200), csv: await file.text()});
});

// The game page: ?game=ID (a live or finished game, or a log's path from the replays) &step=N.
// A finished game's analysis (analysis.js) comes from the server once the game is over.
import {connect} from "./protocol.js";
import {GamePlayer} from "./player.js";
import {AnalysisView, fetchAnalysis} from "./analysis.js";
import {nav, connState, closedState} from "./nav.js";

nav("");
const params = new URLSearchParams(location.search);
const game = params.get("game");
const player = new GamePlayer(document.getElementById("player"), {url: true});
window.quoridorPlayer = player;
const analysis = new AnalysisView(player);
let asked = false;
const error = document.getElementById("error");
document.getElementById("title").textContent = game || "no game named";

/** Ask for the analysis once the game shown is over (a live game's when it ends). */
function askAnalysis() {
  if (asked || !player.record || player.record.live) return;
  asked = true;
  fetchAnalysis(game, analysis);
}

if (game) {
  connect({
    onOpen: send => { send({type: "watch", game, batch: true}); send({type: "game_request", game}); connState("connected", true); },
    onMessage: msg => {
      if (msg.type === "game_record" && msg.game === game) {
        player.mount(msg);
        document.getElementById("title").textContent = `${msg.players[0]} vs ${msg.players[1]}`;
        document.title = `${msg.players[0]} vs ${msg.players[1]} · Quoridor Arena`;
        askAnalysis();
      } else if (msg.type === "game_update" && msg.game === game && player.record) {
        player.push(msg);
        askAnalysis();
      } else if (msg.type === "error" && ["game_request", "watch"].includes(msg.frame_type)) {
        error.textContent = msg.message;
        error.hidden = false;
      }
    },
    onClose: event => closedState(event),
  });
}

// The documented websocket protocol (docs/protocol.md), as the pages speak it: hello, then frames.
import {showOrganiser} from "./nav.js";

/** The websocket URL of the server that served this page. */
export function serverURL() {
  return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/";
}

/**
 * Open a connection, say hello (a spectator unless `hello` says otherwise) and hand every frame to
 * `onMessage`; `onClose` hears why it closed. Returns {send(obj), close()}.
 */
export function connect({hello = {}, onMessage, onOpen = () => {}, onClose = () => {}, url = serverURL()}) {
  const ws = new WebSocket(url);
  const send = obj => { if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(obj)); };
  ws.addEventListener("open", () => {
    send({type: "hello", protocol: 1, role: "spectator", key: "web-page", ...hello});
    onOpen(send);
  });
  ws.addEventListener("message", event => {
    let msg;
    try { msg = JSON.parse(event.data); } catch { return; }
    // A batch (watch with batch: true) is the game_update frames it carries, one after the other.
    if (msg.type === "welcome" && msg.organiser_page) showOrganiser();     // this server has an organiser's page
    if (msg.type === "game_updates") msg.updates.forEach(update => onMessage(update, send));
    else onMessage(msg, send);
  });
  ws.addEventListener("close", event => onClose(event));
  return {send, close: () => ws.close(1000)};
}

/** Escape text for HTML. */
export function esc(text) {
  return String(text ?? "").replace(/[&<>"']/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
}

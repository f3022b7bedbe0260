// Hand in a bot: zip the chosen files in the page and send them as a submitter, with the same frames as
// quoridor-submit (docs/protocol.md: hello role "submitter", submit parts, submitted; submissions_request,
// submissions). The key is read from its field when needed and kept nowhere else (no storage, no URL).
import {connect, esc} from "./protocol.js";
import {nav, connState} from "./nav.js";
import {base64, zipFiles} from "./zip.js";

nav("/submit");
const $ = id => document.getElementById(id);
const MAX_BYTES = 4096 * 1024;            // shared.protocol.SUBMISSION_CEILING_BYTES (each server says its own limit)
const PART_CHARS = 96 * 1024;             // shared.protocol.SUBMIT_PART_CHARS
// What a bot's folder holds that is never handed in (as quoridor-submit leaves them out).
const SKIPPED = new Set(["__pycache__", ".git", ".hg", ".svn", ".venv", ".mypy_cache", ".pytest_cache", ".DS_Store"]);
let busy = false;

function status(text) { $("status").textContent = text; }

function report(text, state) {
  const el = $("report");
  el.textContent = text;
  el.className = "report " + state;
  el.dataset.state = state;
  el.hidden = false;
}

/** The chosen files as [{name, file}] by name: the files field's, or the folder's with paths inside the folder. */
function chosen() {
  const folder = [...$("folder").files];
  const files = folder.length
    ? folder.map(file => ({name: file.webkitRelativePath.split("/").slice(1).join("/"), file}))
      .filter(({name}) => name && !name.split("/").some(part => SKIPPED.has(part) || part.startsWith("."))
        && !name.endsWith(".pyc"))
    : [...$("files").files].map(file => ({name: file.name, file}));
  return files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function describe() {
  const files = chosen();
  $("chosen").textContent = files.length ? files.map(f => f.name).join(", ") : "no bot chosen";
}

/** The archive to hand in and its entry (as quoridor-submit's pack_bot), or an Error saying what is wrong. */
async function pack(files, typed) {
  if (!files.length) throw new Error("choose your bot: a .py file, several, a folder or a .zip");
  const zips = files.filter(f => f.name.toLowerCase().endsWith(".zip"));
  let archive, entry = typed || null;
  if (zips.length) {
    if (files.length > 1) throw new Error("hand in a .zip alone, or the .py files without it");
    archive = new Uint8Array(await zips[0].file.arrayBuffer());
  } else {
    if (!files.some(f => f.name.endsWith(".py"))) throw new Error("no .py file chosen: a bot is Python files");
    if (files.length === 1 && (entry === null || entry.startsWith(":"))) entry = files[0].name + (entry || "");
    const read = await Promise.all(files.map(async f => ({name: f.name, data: new Uint8Array(await f.file.arrayBuffer())})));
    archive = await zipFiles(read);
  }
  if (archive.length > MAX_BYTES) {
    throw new Error(`the bot makes a ${archive.length.toLocaleString("en")} byte archive; no server takes more than ` +
      `${MAX_BYTES.toLocaleString("en")} bytes zipped (leave out data files the bot does not need)`);
  }
  return {archive, entry};
}

function parts(archive, entry) {
  const text = base64(archive);
  const count = Math.max(1, Math.ceil(text.length / PART_CHARS));
  return Array.from({length: count}, (_, part) =>
    ({type: "submit", entry, part, parts: count, zip: text.slice(part * PART_CHARS, (part + 1) * PART_CHARS)}));
}

function versionsTable(listing) {
  if (!listing.versions.length) return `<p class="muted">${esc(listing.player)} has handed in no bot yet</p>`;
  return `<p class="muted">bots handed in by ${esc(listing.player)}, newest first</p><table class="versions"><thead><tr>` +
    `<th>version</th><th>handed in (UTC)</th><th>entry</th><th>result</th><th>s</th></tr></thead><tbody>` +
    listing.versions.map(v => `<tr data-version="${esc(v.version)}" class="${v.accepted ? "accepted" : "refused"}">` +
      `<td class="mono version">${esc(v.version)}</td><td class="when">${esc(v.submitted_at.replace("T", " ").replace(/Z$/, ""))}</td>` +
      `<td class="mono entry">${esc(v.entry)}</td><td class="result">${v.accepted ? "accepted" : esc(`${v.cause}: ${v.reason}`)}</td>` +
      `<td class="seconds">${Number(v.seconds).toFixed(1)}</td></tr>`).join("") + `</tbody></table>`;
}

/**
 * One submitter connection: say hello with the key, send `frames` once welcomed, hand each answer to
 * `onAnswer` (it returns true when the exchange is over). Resolves when the connection closes.
 */
function exchange(key, frames, onAnswer) {
  return new Promise(resolve => {
    let done = false;
    const conn = connect({
      hello: {role: "submitter", key},
      onOpen: () => connState("connected", true),
      onMessage: (msg, send) => {
        if (msg.type === "welcome") { frames.forEach(send); return; }
        if (msg.type === "error" && msg.frame_type === "hello") {
          done = true;
          report(`the server refused the key: ${msg.message} (${msg.code})`, "refused");
          status("not handed in");
          return;
        }
        if (onAnswer(msg, send)) { done = true; conn.close(); }
      },
      onClose: event => {
        connState(done ? "" : "disconnected", done);     // one connection per hand-in: closed when answered
        if (!done) {
          report(`the connection closed before the server answered${event.reason ? ` (${event.reason})` : ""}`, "refused");
          status("no answer");
        }
        resolve();
      },
    });
  });
}

function showVersions(msg) {
  $("versions").innerHTML = versionsTable(msg);
  $("versions").dataset.count = String(msg.versions.length);
}

async function handIn(event) {
  event.preventDefault();
  if (busy) return;
  const key = $("key").value.trim();
  if (!key) { report("type your key first", "refused"); return; }
  let packed;
  try {
    packed = await pack(chosen(), $("entry").value.trim());
  } catch (problem) {
    report(problem.message, "refused");
    return;
  }
  busy = true;
  $("send").disabled = true;
  $("report").hidden = true;
  status(`handing in ${packed.archive.length.toLocaleString("en")} bytes zipped; the server validates it in its ` +
    "sandbox, which may take a while (bots are validated one at a time)");
  await exchange(key, parts(packed.archive, packed.entry), (msg, send) => {
    if (msg.type === "submitted") {
      const again = msg.new ? "" : " (handed in before)";
      if (msg.accepted) {
        report(`accepted: version ${msg.version} (${msg.entry})${again}, validated in ${msg.seconds.toFixed(1)} s`, "accepted");
      } else {
        report(`refused (${msg.cause}): ${msg.reason} [version ${msg.version}${again}]`, "refused");
      }
      status("validated");
      send({type: "submissions_request"});
      return false;
    }
    if (msg.type === "submissions") { showVersions(msg); return true; }
    if (msg.type === "error") {
      report(`refused (${msg.code}): ${msg.message}`, "refused");
      status("not handed in");
      return true;
    }
    return false;
  });
  busy = false;
  $("send").disabled = false;
}

async function listVersions() {
  const key = $("key").value.trim();
  if (!key) { report("type your key first", "refused"); return; }
  await exchange(key, [{type: "submissions_request"}], msg => {
    if (msg.type === "submissions") { showVersions(msg); return true; }
    if (msg.type === "error") { report(`${msg.message} (${msg.code})`, "refused"); return true; }
    return false;
  });
}

$("hand-in").addEventListener("submit", handIn);
$("list").addEventListener("click", listVersions);
$("files").addEventListener("change", () => { if ($("files").files.length) $("folder").value = ""; describe(); });
$("folder").addEventListener("change", () => { if ($("folder").files.length) $("files").value = ""; describe(); });
connState("", true);

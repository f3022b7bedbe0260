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

const CPP = /\.(cpp|cc|cxx)$/i;          // shared.hosting.CPP_SUFFIXES
const HEADER = /\.(h|hpp|hh|hxx)$/i;

/** What runs an entry, as shared.hosting.bot_language says it: "python", "cpp" or "program". */
function language(entry) {
  const where = entry.includes(":") ? entry.slice(0, entry.lastIndexOf(":")) : entry;
  if (CPP.test(where)) return "cpp";
  return entry.includes(":") || where.endsWith(".py") ? "python" : "program";
}

/** The entry the server takes when none is typed (its only .py file, else MyPlayer.cpp or its only C++ file), or why
 *  there is none: {entry} or {why}. */
function serverEntry(names) {
  const python = names.filter(n => n.endsWith(".py"));
  if (python.length === 1) return {entry: python[0]};
  if (python.length) return {why: `${python.length} .py files: type the bot's file as the entry (FILE.py:CLASS)`};
  const cpp = names.filter(n => CPP.test(n));
  const players = cpp.filter(n => n.split("/").pop() === "MyPlayer.cpp");
  if (players.length === 1 || cpp.length === 1) return {entry: (players.length === 1 ? players : cpp)[0]};
  if (cpp.length) return {why: `${cpp.length} C++ files: type the bot's file and class as the entry (MyPlayer.cpp:MyPlayer)`};
  return {why: "no .py or C++ file: type your program's name as the entry"};
}

/** The entry sent for `names` and the typed entry (as quoridor-submit's pack_bot): a single file names itself. */
function entryFor(names, typed) {
  if (names.length === 1 && !names[0].toLowerCase().endsWith(".zip") && (!typed || typed.startsWith(":"))) {
    return names[0] + (typed || "");
  }
  if (typed && typed.startsWith(":")) {
    const found = serverEntry(names).entry;
    return found ? found.replace(/:.*$/, "") + typed : typed;
  }
  return typed || null;
}

/** One line on what will be handed in: the kind of bot and its entry (or what the server will look for). */
function plan(files, typed) {
  const names = files.map(f => f.name);
  if (!names.length) return "";
  if (names.some(n => n.toLowerCase().endsWith(".zip"))) {
    return names.length > 1 ? "a .zip goes alone" : `a .zip as it is · entry ${typed || "found by the server"}`;
  }
  if (names.length === 1 && HEADER.test(names[0])) return `${names[0]} is a header: choose its .cpp file with it`;
  const entry = entryFor(names, typed);
  if (entry === null) {
    const found = serverEntry(names);
    if (!found.entry) return found.why;
    return `${describeKind(language(found.entry))} · entry ${found.entry} (found as the server finds it)`;
  }
  return `${describeKind(language(entry))} · entry ${entry}`;
}

function describeKind(kind) {
  return {python: "a Python bot", cpp: "a C++ bot (the server builds it with g++)",
    program: "a program of its own (a Linux executable or a script starting with #!)"}[kind];
}

function describe() {
  const files = chosen();
  $("chosen").textContent = files.length ? files.map(f => f.name).join(", ") : "no bot chosen";
  const line = plan(files, $("entry").value.trim());
  $("plan").textContent = line;
  $("plan").hidden = !line;
}

/** True for a program's first bytes: a Linux executable (ELF) or a script (#!). */
function isProgram(data) {
  return (data[0] === 0x7f && data[1] === 0x45 && data[2] === 0x4c && data[3] === 0x46) ||
    (data[0] === 0x23 && data[1] === 0x21);
}

/** The archive to hand in and its entry (as quoridor-submit's pack_bot), or an Error saying what is wrong. */
async function pack(files, typed) {
  if (!files.length) {
    throw new Error("choose your bot: a .py file, a C++ bot's files (MyPlayer.cpp and MyPlayer.h), a folder or a .zip");
  }
  const zips = files.filter(f => f.name.toLowerCase().endsWith(".zip"));
  let archive, entry = typed || null;
  if (zips.length) {
    if (files.length > 1) throw new Error("hand in a .zip alone, or the bot's files without it");
    archive = new Uint8Array(await zips[0].file.arrayBuffer());
  } else {
    const read = await Promise.all(files.map(async f => ({name: f.name, data: new Uint8Array(await f.file.arrayBuffer())})));
    const names = read.map(f => f.name);
    const bot = n => n.endsWith(".py") || CPP.test(n);
    if (read.length === 1 && HEADER.test(names[0])) {
      throw new Error(`${names[0]} is a header: choose its .cpp file with it (MyPlayer.cpp and MyPlayer.h)`);
    }
    if (read.length === 1 && !bot(names[0]) && !isProgram(read[0].data)) {
      throw new Error(`${names[0]} is not a .py file, a C++ file, a program or a .zip`);
    }
    const wanted = entry && language(entry) !== "program" && entry.includes(":") ? entry.slice(0, entry.lastIndexOf(":")) : entry;
    if (read.length > 1 && !names.some(n => bot(n) || n === wanted)) {
      throw new Error("no .py or C++ file chosen: a bot is Python files, C++ files (MyPlayer.cpp, MyPlayer.h), " +
        "or a program of its own named as the entry");
    }
    entry = entryFor(names, entry);
    archive = await zipFiles(read.map(f => ({...f, executable: !bot(f.name) && isProgram(f.data)})));
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
        const note = msg.note ? `; ${msg.note}` : "";
        report(`accepted: version ${msg.version} (${msg.entry})${again}, validated in ${msg.seconds.toFixed(1)} s${note}`,
          "accepted");
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
$("entry").addEventListener("input", describe);
connState("", true);

// A zip archive written in the page (no library): the files of a bot, deflated where the browser can
// (CompressionStream "deflate-raw"), else stored. Names are UTF-8, times fixed, so the same files make the
// same archive; the server reads it as it reads quoridor-submit's (docs/protocol.md, "submit").

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** The CRC-32 of `bytes` (a Uint8Array), as zip archives carry it. */
export function crc32(bytes) {
  let c = 0xFFFFFFFF;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xFF] ^ (c >>> 8);
  return (c ^ 0xFFFFFFFF) >>> 0;
}

async function deflateRaw(bytes) {
  if (typeof CompressionStream === "undefined") return null;
  try {
    const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("deflate-raw"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  } catch {
    return null;
  }
}

const DOS_DATE = (0 << 9) | (1 << 5) | 1;          // 1980-01-01, 00:00: a fixed time
const REGULAR_FILE = 0o100644 * 0x10000;            // external attributes: a plain file, rw-r--r--
const PROGRAM_FILE = 0o100755 * 0x10000;            // a program of the bot's own, rwxr-xr-x

/**
 * A zip archive (Uint8Array) of `files`: [{name: "pkg/mod.py", data: Uint8Array, executable: false}, ...], in the
 * order given (`executable`: kept a program, as quoridor-submit keeps one).
 */
export async function zipFiles(files) {
  const encoder = new TextEncoder();
  const locals = [], centrals = [];
  let offset = 0;
  for (const {name, data, executable} of files) {
    const nameBytes = encoder.encode(name);
    const packed = await deflateRaw(data);
    const deflated = packed !== null && packed.length < data.length;
    const body = deflated ? packed : data;
    const crc = crc32(data);
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(4, 20, true);                     // version needed: 2.0
    local.setUint16(6, 0x0800, true);                 // the name is UTF-8
    local.setUint16(8, deflated ? 8 : 0, true);
    local.setUint16(10, 0, true);
    local.setUint16(12, DOS_DATE, true);
    local.setUint32(14, crc, true);
    local.setUint32(18, body.length, true);
    local.setUint32(22, data.length, true);
    local.setUint16(26, nameBytes.length, true);
    local.setUint16(28, 0, true);
    const central = new DataView(new ArrayBuffer(46));
    central.setUint32(0, 0x02014b50, true);
    central.setUint16(4, (3 << 8) | 20, true);        // made by: unix, 2.0 (the attributes are a unix mode)
    central.setUint16(6, 20, true);
    central.setUint16(8, 0x0800, true);
    central.setUint16(10, deflated ? 8 : 0, true);
    central.setUint16(12, 0, true);
    central.setUint16(14, DOS_DATE, true);
    central.setUint32(16, crc, true);
    central.setUint32(20, body.length, true);
    central.setUint32(24, data.length, true);
    central.setUint16(28, nameBytes.length, true);
    central.setUint32(38, executable ? PROGRAM_FILE : REGULAR_FILE, true);
    central.setUint32(42, offset, true);
    locals.push(new Uint8Array(local.buffer), nameBytes, body);
    centrals.push(new Uint8Array(central.buffer), nameBytes);
    offset += 30 + nameBytes.length + body.length;
  }
  const centralSize = centrals.reduce((sum, part) => sum + part.length, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, files.length, true);
  end.setUint16(10, files.length, true);
  end.setUint32(12, centralSize, true);
  end.setUint32(16, offset, true);
  const parts = [...locals, ...centrals, new Uint8Array(end.buffer)];
  const archive = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) { archive.set(part, at); at += part.length; }
  return archive;
}

/** The base64 text of `bytes` (a Uint8Array). */
export function base64(bytes) {
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

/**
 * A zip archive of one file, stored without compression (method 0), as the raw logs' download answers:
 * every unzip tool reads it, and writing it needs nothing but a CRC-32.
 */

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** The MS-DOS time and date fields of a moment (UTC), which zip headers hold. */
function dosTime(moment: Date): { time: number; date: number } {
  const year = Math.max(1980, moment.getUTCFullYear());
  return {
    time: (moment.getUTCHours() << 11) | (moment.getUTCMinutes() << 5) | Math.floor(moment.getUTCSeconds() / 2),
    date: ((year - 1980) << 9) | ((moment.getUTCMonth() + 1) << 5) | moment.getUTCDate(),
  };
}

/** A zip archive holding `content` as the file `name` (ASCII), dated `modified`. */
export function zipOne(name: string, content: Uint8Array, modified: Date): Uint8Array<ArrayBuffer> {
  const nameBytes = new TextEncoder().encode(name);
  const crc = crc32(content);
  const { time, date } = dosTime(modified);
  const local = 30 + nameBytes.length;
  const central = 46 + nameBytes.length;
  const out = new Uint8Array(local + content.length + central + 22);
  const view = new DataView(out.buffer);
  let at = 0;
  const u16 = (value: number) => {
    view.setUint16(at, value, true);
    at += 2;
  };
  const u32 = (value: number) => {
    view.setUint32(at, value >>> 0, true);
    at += 4;
  };
  // Local file header, then the data.
  u32(0x04034b50);
  u16(20);
  u16(0);
  u16(0);
  u16(time);
  u16(date);
  u32(crc);
  u32(content.length);
  u32(content.length);
  u16(nameBytes.length);
  u16(0);
  out.set(nameBytes, at);
  at += nameBytes.length;
  out.set(content, at);
  at += content.length;
  // Central directory entry.
  const centralAt = at;
  u32(0x02014b50);
  u16(20);
  u16(20);
  u16(0);
  u16(0);
  u16(time);
  u16(date);
  u32(crc);
  u32(content.length);
  u32(content.length);
  u16(nameBytes.length);
  u16(0);
  u16(0);
  u16(0);
  u16(0);
  u32(0);
  u32(0);
  out.set(nameBytes, at);
  at += nameBytes.length;
  // End of central directory.
  u32(0x06054b50);
  u16(0);
  u16(0);
  u16(1);
  u16(1);
  u32(central);
  u32(centralAt);
  u16(0);
  return out;
}

import { crc32, deflateRawSync, inflateRawSync, constants as zlibConstants } from 'node:zlib';

// Zips written and read by hand, for tests and benchmarks (bench/ reaches this through the batch
// test utilities, so nothing here imports the test helper).

/**
 * A zip entry for {@link zipFile}: its bytes, or a part that repeats `unit` `times` times between
 * `head` and `tail` (compressed without ever holding the expanded text, for zip bombs).
 */
export type ZipPart = {
  name: string;
  data?: Buffer | string;
  repeat?: { head: string; unit: string; times: number; tail: string };
  /** the uncompressed size written in the headers, when it should lie */
  declaredSize?: number;
};

const FULL_FLUSH = { level: 9, finishFlush: zlibConstants.Z_FULL_FLUSH };

/** Deflates a part; each piece ends on a full flush, so a compressed run can be repeated as is. */
function deflatePart(p: ZipPart): { deflated: Buffer; size: number; crc: number } {
  if (!p.repeat) {
    const data = Buffer.from(p.data ?? '');
    return { deflated: deflateRawSync(data), size: data.length, crc: crc32(data) };
  }
  const { head, unit, times, tail } = p.repeat;
  // ~4 MB of units per compressed block: the block repeats, the text is never built whole
  const per = Math.max(1, Math.min(times, Math.floor((4 << 20) / unit.length)));
  const block = Buffer.from(unit.repeat(per));
  const blockZ = deflateRawSync(block, FULL_FLUSH);
  const rest = Buffer.from(unit.repeat(times % per));
  const pieces: Buffer[] = [deflateRawSync(Buffer.from(head), FULL_FLUSH)];
  let crc = crc32(Buffer.from(head));
  for (let i = 0; i < Math.floor(times / per); i++) {
    pieces.push(blockZ);
    crc = crc32(block, crc);
  }
  // (an empty buffer is left out: zlib.crc32 of one answers 0 once deflateRawSync has seen it)
  if (rest.length > 0) {
    pieces.push(deflateRawSync(rest, FULL_FLUSH));
    crc = crc32(rest, crc);
  }
  pieces.push(deflateRawSync(Buffer.from(tail)));
  crc = crc32(Buffer.from(tail), crc);
  const size = Buffer.byteLength(head) + unit.length * times + Buffer.byteLength(tail);
  return { deflated: Buffer.concat(pieces), size, crc };
}

/** A zip (deflate, no data descriptors) written by hand, so tests can make files Excel never would. */
export function zipFile(parts: readonly ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const p of parts) {
    const { deflated, size, crc } = deflatePart(p);
    const declared = p.declaredSize ?? size;
    if (declared > 0xffffffff) throw new Error('zipFile writes no zip64');
    const name = Buffer.from(p.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(deflated.length, 18);
    local.writeUInt32LE(declared, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc >>> 0, 16);
    central.writeUInt32LE(deflated.length, 20);
    central.writeUInt32LE(declared, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, deflated);
    centrals.push(central, name);
    offset += local.length + name.length + deflated.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** The entries of a zip (stored or deflated), in order: enough to rewrite a part of an .xlsx. */
export function unzipFile(zip: Buffer): { name: string; data: Buffer }[] {
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== 0x06054b50) end--;
  if (end < 0) throw new Error('unzipFile: no end of central directory');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const out: { name: string; data: Buffer }[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('unzipFile: bad central directory');
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const nameLen = zip.readUInt16LE(at + 28);
    const extraLen = zip.readUInt16LE(at + 30);
    const commentLen = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLen).toString('utf8');
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(start, start + compressed);
    if (method !== 0 && method !== 8) throw new Error(`unzipFile: method ${method} of ${name}`);
    out.push({ name, data: method === 8 ? inflateRawSync(raw) : Buffer.from(raw) });
    at += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

export const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

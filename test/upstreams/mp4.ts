import type { ServerResponse } from 'node:http';

/**
 * An MP4 body of `size` bytes: a real `ftyp` box, then one `mdat` box filling the rest with bytes
 * from `seed`, and, with `seconds`, a `moov` box after it whose `mvhd` says that length (as a file
 * not prepared for streaming has it: the index last). Written in 1 MiB chunks as the client reads,
 * never held whole, so a 150 MB video costs the simulator flat memory. `Range` requests are
 * answered with 206.
 */
/** `stallAfter`: write that many bytes, then nothing more (the connection stays open), as a CDN that stops sending. */
export function sendMp4(res: ServerResponse, size: number, seed: number, options: { range?: string; withLength?: boolean; seconds?: number; stallAfter?: number } = {}): void {
  const byteAt = mp4Bytes(size, seed, options.seconds);
  const match = options.range ? /^bytes=(\d+)-(\d*)$/.exec(options.range) : null;
  const start = match ? Number(match[1]) : 0;
  const end = match && match[2] ? Math.min(Number(match[2]), size - 1) : size - 1;
  const headers: Record<string, string> = { 'Content-Type': 'video/mp4', 'Accept-Ranges': 'bytes' };
  if (options.withLength !== false) headers['Content-Length'] = String(end - start + 1);
  if (match) headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
  res.writeHead(match ? 206 : 200, headers);
  let offset = start;
  const last = options.stallAfter === undefined ? end : Math.min(end, start + options.stallAfter - 1);
  const write = () => {
    while (offset <= last) {
      const chunk = Buffer.alloc(Math.min(1024 * 1024, last - offset + 1));
      for (let i = 0; i < chunk.length; i++) chunk[i] = byteAt(offset + i);
      offset += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', write);
    }
    if (last === end) res.end();
  };
  write();
}

/** The bytes `sendMp4` writes at `offset`, for comparing what was stored. */
export function mp4ByteAt(size: number, seed: number, offset: number, seconds?: number): number {
  return mp4Bytes(size, seed, seconds)(offset);
}

function mp4Bytes(size: number, seed: number, seconds?: number): (offset: number) => number {
  const header = ftyp();
  const trailer = seconds === undefined ? Buffer.alloc(0) : moov(seconds);
  const mdat = mdatHeader(size - header.length - trailer.length);
  const trailerAt = size - trailer.length;
  return (offset) =>
    offset < header.length
      ? header[offset]!
      : offset < header.length + 8
        ? mdat[offset - header.length]!
        : offset >= trailerAt
          ? trailer[offset - trailerAt]!
          : (offset * 31 + seed) & 0xff;
}

/** A `moov` box holding only a version-0 `mvhd` of `seconds` at a timescale of 1000. */
function moov(seconds: number): Buffer {
  const mvhd = Buffer.alloc(8 + 100);
  mvhd.writeUInt32BE(mvhd.length, 0);
  mvhd.write('mvhd', 4, 'latin1');
  mvhd.writeUInt32BE(1000, 8 + 12);
  mvhd.writeUInt32BE(Math.round(seconds * 1000), 8 + 16);
  const box = Buffer.alloc(8 + mvhd.length);
  box.writeUInt32BE(box.length, 0);
  box.write('moov', 4, 'latin1');
  mvhd.copy(box, 8);
  return box;
}

function ftyp(): Buffer {
  const box = Buffer.alloc(24);
  box.writeUInt32BE(24, 0);
  box.write('ftypisom', 4, 'latin1');
  box.writeUInt32BE(0x200, 12);
  box.write('isomiso2', 16, 'latin1');
  return box;
}

function mdatHeader(length: number): Buffer {
  const box = Buffer.alloc(8);
  box.writeUInt32BE(length, 0);
  box.write('mdat', 4, 'latin1');
  return box;
}

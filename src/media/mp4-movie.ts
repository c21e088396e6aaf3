/**
 * An MP4's length as a decoder plays it, read from its `moov` box (ISO/IEC 14496-12 and -14):
 * every figure the file gives for it, the longest taken, so no header it writes can make it read
 * shorter than what plays. The movie header (`mvhd`), each track's media header (`mdhd`) and
 * sample durations (`stts`); and for each audio track, which must be AAC (`mp4a` with its
 * AudioSpecificConfig), its sample count times 1,024 samples at the rate the decoder is told
 * (what an AAC decoder outputs, whatever time scale the track claims). A fragmented file (`mvex`:
 * samples in `moof` boxes past the index) or one with no AAC track is not timed: undefined.
 */

interface Box {
  type: string;
  /** Where the body starts and ends in the buffer. */
  start: number;
  end: number;
}

/** The boxes laid end to end in `bytes[start, end)`; it stops at one whose size does not fit. */
function boxes(bytes: Uint8Array, start: number, end: number): Box[] {
  const out: Box[] = [];
  for (let at = start; at + 8 <= end; ) {
    let size = u32(bytes, at);
    let header = 8;
    if (size === 1 && at + 16 <= end) {
      size = u32(bytes, at + 8) * 2 ** 32 + u32(bytes, at + 12);
      header = 16;
    }
    if (size < header || at + size > end) break;
    out.push({ type: fourcc(bytes, at + 4), start: at + header, end: at + size });
    at += size;
  }
  return out;
}

const child = (bytes: Uint8Array, parent: Box, type: string) => boxes(bytes, parent.start, parent.end).find((box) => box.type === type);

/** The sampling rates an AudioSpecificConfig indexes (ISO/IEC 14496-3, 1.6.3.4). */
const AAC_RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350];
/** Samples an AAC frame decodes to (the 960-sample variant is shorter, so this bounds it). */
const AAC_FRAME_SAMPLES = 1024;

/**
 * The movie's length in seconds from its `moov` body, or undefined when it cannot be timed.
 * `audio`: the file is a client's audio, timed as its decoder plays it (an AAC track required);
 * otherwise (a provider's rendered video) the longest figure its headers and tables give.
 */
export function movieSeconds(bytes: Uint8Array, options: { audio: boolean }): number | undefined {
  const moov: Box = { type: 'moov', start: 0, end: bytes.length };
  const children = boxes(bytes, moov.start, moov.end);
  if (children.some((box) => box.type === 'mvex')) return undefined;
  const lengths: number[] = [];
  const mvhd = children.find((box) => box.type === 'mvhd');
  if (mvhd) lengths.push(headerSeconds(bytes, mvhd));
  let audio = false;
  for (const trak of children.filter((box) => box.type === 'trak')) {
    const track = trackSeconds(bytes, trak, options.audio);
    if (track === undefined) return undefined;
    lengths.push(...track.lengths);
    audio ||= track.audio;
  }
  const longest = Math.max(0, ...lengths.filter(Number.isFinite));
  return (audio || !options.audio) && longest > 0 ? longest : undefined;
}

/** A track's lengths; undefined for an audio track of a client's file this reader cannot time (not AAC). */
function trackSeconds(bytes: Uint8Array, trak: Box, clientAudio: boolean): { lengths: number[]; audio: boolean } | undefined {
  const mdia = child(bytes, trak, 'mdia');
  const mdhd = mdia && child(bytes, mdia, 'mdhd');
  const hdlr = mdia && child(bytes, mdia, 'hdlr');
  if (!mdia || !mdhd) return { lengths: [], audio: false };
  const { timescale } = timing(bytes, mdhd);
  const lengths = [headerSeconds(bytes, mdhd)];
  const minf = child(bytes, mdia, 'minf');
  const stbl = minf && child(bytes, minf, 'stbl');
  const stts = stbl && child(bytes, stbl, 'stts');
  if (stts && timescale > 0) lengths.push(sttsTicks(bytes, stts) / timescale);
  const audio = hdlr !== undefined && hdlr.start + 12 <= hdlr.end && fourcc(bytes, hdlr.start + 8) === 'soun';
  if (!audio) return { lengths, audio };
  const stsd = stbl && child(bytes, stbl, 'stsd');
  const stsz = stbl && child(bytes, stbl, 'stsz');
  const rate = stsd && aacRate(bytes, stsd);
  if (rate && stsz && stsz.start + 12 <= stsz.end) lengths.push((u32(bytes, stsz.start + 8) * AAC_FRAME_SAMPLES) / rate);
  else if (clientAudio) return undefined;
  return { lengths, audio };
}

/** A full box's time scale and duration: `mvhd` and `mdhd` share the layout (32-bit fields, or 64-bit in version 1). */
function timing(bytes: Uint8Array, box: Box): { timescale: number; duration: number } {
  const v1 = bytes[box.start] === 1;
  if (box.start + (v1 ? 32 : 20) > box.end) return { timescale: 0, duration: 0 };
  const timescale = u32(bytes, box.start + (v1 ? 20 : 12));
  const duration = v1 ? u32(bytes, box.start + 24) * 2 ** 32 + u32(bytes, box.start + 28) : u32(bytes, box.start + 16);
  return { timescale, duration };
}

/** The duration a header states, in seconds; 0 when it states none (no time scale, or all ones: unknown). */
function headerSeconds(bytes: Uint8Array, box: Box): number {
  const { timescale, duration } = timing(bytes, box);
  return timescale === 0 || duration === 0xffffffff || duration >= 2 ** 63 ? 0 : duration / timescale;
}

/** The sum of an `stts` table's sample counts times their durations, in the track's time scale. */
function sttsTicks(bytes: Uint8Array, stts: Box): number {
  if (stts.start + 8 > stts.end) return 0;
  const entries = u32(bytes, stts.start + 4);
  let ticks = 0;
  for (let i = 0, at = stts.start + 8; i < entries && at + 8 <= stts.end; i++, at += 8) ticks += u32(bytes, at) * u32(bytes, at + 4);
  return ticks;
}

/**
 * The output rate an AAC decoder is told by the first sample entry's `esds` AudioSpecificConfig,
 * or undefined when the entry is not AAC. A QuickTime sound description (version 1 or 2) has 16
 * or 36 more bytes before its child boxes.
 */
function aacRate(bytes: Uint8Array, stsd: Box): number | undefined {
  const [entry] = boxes(bytes, stsd.start + 8, stsd.end);
  if (!entry || entry.type !== 'mp4a' || entry.start + 28 > entry.end) return undefined;
  const soundVersion = (bytes[entry.start + 8]! << 8) | bytes[entry.start + 9]!;
  const childrenAt = entry.start + 28 + (soundVersion === 1 ? 16 : soundVersion === 2 ? 36 : 0);
  const esds = boxes(bytes, childrenAt, entry.end).find((box) => box.type === 'esds');
  const config = esds && decoderSpecificInfo(bytes, esds.start + 4, esds.end);
  return config && audioSpecificRate(config);
}

/** The DecoderSpecificInfo (tag 5) inside an ES_Descriptor (3) and its DecoderConfigDescriptor (4). */
function decoderSpecificInfo(bytes: Uint8Array, start: number, end: number): Uint8Array | undefined {
  for (let at = start; at < end; ) {
    const tag = bytes[at]!;
    let size = 0;
    let i = at + 1;
    for (let n = 0; n < 4 && i < end; n++) {
      const b = bytes[i++]!;
      size = (size << 7) | (b & 0x7f);
      if ((b & 0x80) === 0) break;
    }
    const body = i;
    if (body + size > end) return undefined;
    if (tag === 5) return bytes.subarray(body, body + size);
    if (tag === 3) {
      // ES_ID, then flags naming optional fields: a dependency (2 bytes), a URL (length-prefixed), an OCR stream (2 bytes).
      const flags = bytes[body + 2]!;
      let inner = body + 3 + (flags & 0x80 ? 2 : 0);
      if (flags & 0x40) inner += 1 + bytes[inner]!;
      if (flags & 0x20) inner += 2;
      return decoderSpecificInfo(bytes, inner, body + size);
    }
    // DecoderConfigDescriptor: 13 bytes of stream fields before its own descriptors.
    if (tag === 4) return decoderSpecificInfo(bytes, body + 13, body + size);
    at = body + size;
  }
  return undefined;
}

/** The sampling rate an AudioSpecificConfig names: 5 bits of object type (31: 6 more), then 4 bits of rate index (15: 24 bits of rate). */
function audioSpecificRate(config: Uint8Array): number | undefined {
  const bit = (n: number) => (config[n >> 3]! >> (7 - (n & 7))) & 1;
  const read = (from: number, count: number) => {
    let value = 0;
    for (let n = 0; n < count; n++) value = value * 2 + bit(from + n);
    return value;
  };
  let at = 5;
  if (config.length < 2) return undefined;
  if (read(0, 5) === 31) at += 6;
  if ((at + 4 + 7) >> 3 > config.length) return undefined;
  const index = read(at, 4);
  if (index === 15) return (at + 4 + 24 + 7) >> 3 <= config.length ? read(at + 4, 24) || undefined : undefined;
  return AAC_RATES[index];
}

const fourcc = (bytes: Uint8Array, at: number) => String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!);

export function u32(bytes: Uint8Array, at: number): number {
  return ((bytes[at]! << 24) >>> 0) + (bytes[at + 1]! << 16) + (bytes[at + 2]! << 8) + bytes[at + 3]!;
}

import { UpstreamStalled } from '../providers/idle';

/**
 * R2 multipart parts must be at least 5 MiB (but the last) and all of one size (but the last,
 * which may be smaller): 8 MiB is the most a copy holds at once.
 */
export const PART_BYTES = 8 * 1024 * 1024;

/** A body that did not have the length it promised: nothing is stored. */
export class LengthMismatch extends Error {}

/**
 * Streams a body into R2 without holding it whole in memory. Of a known length, one `put` through
 * a `FixedLengthStream` (R2 streams it, and refuses a body of another length: `LengthMismatch`,
 * nothing stored); of unknown length, a multipart upload of `PART_BYTES` parts, the most it holds
 * at once. Returns the stored size. (Locally, Miniflare's R2 stand-in takes about the object's
 * size in memory on a `put` and more on a multipart upload: bench/README.md, the media row.)
 */
export async function streamIntoR2(
  bucket: R2Bucket,
  key: string,
  body: ReadableStream<Uint8Array>,
  options: { contentType: string; length?: number },
): Promise<number> {
  const { length, contentType } = options;
  if (length !== undefined) {
    const sized = new FixedLengthStream(length);
    const piped = body.pipeTo(sized.writable).catch((err: unknown) => err);
    try {
      await bucket.put(key, sized.readable, { httpMetadata: { contentType } });
    } catch {
      // A body that failed (an upstream gone silent) is that failure, not a wrong length.
      const failure = await piped;
      if (failure instanceof UpstreamStalled) throw failure;
      throw new LengthMismatch(`the body was not ${length} bytes`);
    }
    if ((await piped) !== undefined) throw new LengthMismatch(`the body was not ${length} bytes`);
    return length;
  }

  const upload = await bucket.createMultipartUpload(key, { httpMetadata: { contentType } });
  try {
    const parts: R2UploadedPart[] = [];
    const part = new Uint8Array(PART_BYTES);
    let filled = 0;
    let size = 0;
    // One buffer for every part: a part is sent before the next is filled.
    const flush = async () => {
      parts.push(await upload.uploadPart(parts.length + 1, filled === PART_BYTES ? part : part.subarray(0, filled)));
      filled = 0;
    };
    for await (const chunk of body) {
      size += chunk.length;
      for (let offset = 0; offset < chunk.length; ) {
        const take = Math.min(PART_BYTES - filled, chunk.length - offset);
        part.set(chunk.subarray(offset, offset + take), filled);
        filled += take;
        offset += take;
        if (filled === PART_BYTES) await flush();
      }
    }
    if (filled > 0 || parts.length === 0) await flush();
    await upload.complete(parts);
    return size;
  } catch (err) {
    await upload.abort().catch(() => {});
    throw err;
  }
}

/** Streams an upstream file into R2 (`streamIntoR2`), checking the length it states. */
export async function copyToR2(bucket: R2Bucket, key: string, response: Response, contentType: string): Promise<number> {
  if (!response.body) throw new Error('the upstream file has no body');
  const stated = Number(response.headers.get('content-length'));
  const length = Number.isSafeInteger(stated) && stated > 0 ? stated : undefined;
  return streamIntoR2(bucket, key, response.body, { contentType, length });
}

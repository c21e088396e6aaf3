import { ChunkReader } from '../http/chunk-reader';
import { UpstreamStalled } from '../providers/idle';
import { R2Spool } from './r2-spool';

export { PART_BYTES } from './r2-spool';

/** A body that did not have the length it promised: nothing is stored. */
export class LengthMismatch extends Error {}

/**
 * Streams a body into R2 without holding it whole in memory. Of a known length, one `put` through
 * a `FixedLengthStream` (R2 streams it, and refuses a body of another length: `LengthMismatch`,
 * nothing stored); of unknown length, an `R2Spool` (a multipart upload of `PART_BYTES` parts, the
 * most it holds at once). Returns the stored size. (Locally, Miniflare's R2 stand-in takes about
 * the object's size in memory on a `put` and more on a multipart upload: bench/README.md, the media row.)
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

  const spool = new R2Spool(bucket, key, contentType);
  try {
    // A reused buffer, not a new one a chunk: a runtime body leaves nothing to collect.
    const reader = new ChunkReader(body);
    for (let chunk = await reader.read(); chunk; chunk = await reader.read()) await spool.write(chunk);
    return await spool.finish();
  } catch (err) {
    await spool.abort();
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

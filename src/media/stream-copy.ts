/** R2 multipart parts must be at least 5 MiB (but the last); 10 MiB keeps the part count low. */
const PART_BYTES = 10 * 1024 * 1024;

/**
 * Streams an upstream file into R2 without holding it in memory: through a `FixedLengthStream`
 * when the response states its length, else as a multipart upload of 10 MiB parts (the most a
 * copy holds at once). Returns the stored size.
 */
export async function copyToR2(bucket: R2Bucket, key: string, response: Response, contentType: string): Promise<number> {
  const body = response.body;
  if (!body) throw new Error('the upstream file has no body');
  const length = Number(response.headers.get('content-length'));
  if (Number.isSafeInteger(length) && length > 0) {
    const sized = new FixedLengthStream(length);
    const piped = body.pipeTo(sized.writable);
    await bucket.put(key, sized.readable, { httpMetadata: { contentType } });
    await piped;
    return length;
  }
  const upload = await bucket.createMultipartUpload(key, { httpMetadata: { contentType } });
  try {
    const parts: R2UploadedPart[] = [];
    let size = 0;
    let pending: Uint8Array[] = [];
    let pendingBytes = 0;
    const flush = async () => {
      const part = new Uint8Array(pendingBytes);
      let offset = 0;
      for (const chunk of pending) {
        part.set(chunk, offset);
        offset += chunk.length;
      }
      parts.push(await upload.uploadPart(parts.length + 1, part));
      pending = [];
      pendingBytes = 0;
    };
    for await (const chunk of body) {
      pending.push(chunk);
      pendingBytes += chunk.length;
      size += chunk.length;
      if (pendingBytes >= PART_BYTES) await flush();
    }
    if (pendingBytes > 0 || parts.length === 0) await flush();
    await upload.complete(parts);
    return size;
  } catch (err) {
    await upload.abort();
    throw err;
  }
}

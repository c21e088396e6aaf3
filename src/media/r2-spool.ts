/**
 * R2 multipart parts must be at least 5 MiB (but the last) and all of one size (but the last,
 * which may be smaller): 8 MiB is the most a spool holds at once.
 */
export const PART_BYTES = 8 * 1024 * 1024;

/**
 * Writes a body of unknown length into R2 through one part buffer it reuses: bytes are copied in
 * as they come (so the caller may reuse its own buffer at once), each full part is uploaded
 * before the next is filled, and a body of one part or less is a single `put`.
 */
export class R2Spool {
  readonly #part = new Uint8Array(PART_BYTES);
  readonly #parts: R2UploadedPart[] = [];
  #upload: R2MultipartUpload | undefined;
  #filled = 0;
  #size = 0;

  constructor(
    readonly bucket: R2Bucket,
    readonly key: string,
    readonly contentType: string,
  ) {}

  /** Bytes written so far. */
  get size(): number {
    return this.#size;
  }

  async write(chunk: Uint8Array): Promise<void> {
    this.#size += chunk.length;
    for (let offset = 0; offset < chunk.length; ) {
      const take = Math.min(PART_BYTES - this.#filled, chunk.length - offset);
      this.#part.set(chunk.subarray(offset, offset + take), this.#filled);
      this.#filled += take;
      offset += take;
      if (this.#filled === PART_BYTES) await this.#flush();
    }
  }

  /** Stores what was written; returns its size. */
  async finish(): Promise<number> {
    if (!this.#upload) {
      await this.bucket.put(this.key, this.#part.subarray(0, this.#filled), { httpMetadata: { contentType: this.contentType } });
      return this.#size;
    }
    if (this.#filled > 0) await this.#flush();
    await this.#upload.complete(this.#parts);
    return this.#size;
  }

  /** Drops an unfinished upload (nothing was stored). */
  async abort(): Promise<void> {
    await this.#upload?.abort().catch(() => {});
  }

  async #flush(): Promise<void> {
    this.#upload ??= await this.bucket.createMultipartUpload(this.key, { httpMetadata: { contentType: this.contentType } });
    this.#parts.push(await this.#upload.uploadPart(this.#parts.length + 1, this.#filled === PART_BYTES ? this.#part : this.#part.subarray(0, this.#filled)));
    this.#filled = 0;
  }
}

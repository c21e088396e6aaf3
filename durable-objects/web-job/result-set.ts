/** Where the item array sits in the result object: the inline `pages`/`records` answer is this byte range. */
export interface ResultRange {
  offset: number;
  length: number;
}

interface ItemRef {
  seq: number;
  r2_key: string | null;
  bytes: number;
}

const encoder = new TextEncoder();

/**
 * Writes a job's result set, `{...head, "<field>": [items in order]}`, to R2 one item at a time:
 * small items from their rows, large ones piped from their R2 objects. The total length is known
 * from the stored sizes, so R2 takes it as one fixed-length stream and no item list is ever held
 * in memory whole (500 pages of 10 MB would not fit in an isolate's 128 MB).
 */
export async function writeResultSet(sql: SqlStorage, bucket: R2Bucket, key: string, head: Record<string, unknown>, field: 'pages' | 'records'): Promise<ResultRange> {
  const refs = sql.exec<{ seq: number; r2_key: string | null; bytes: number }>('SELECT seq, r2_key, coalesce(bytes, length(CAST(data AS BLOB))) AS bytes FROM items ORDER BY seq').toArray() as ItemRef[];
  const prefix = encoder.encode(`${JSON.stringify(head).slice(0, -1)},${JSON.stringify(field)}:`);
  const length = 2 + refs.reduce((sum, ref) => sum + ref.bytes, 0) + Math.max(0, refs.length - 1);
  const stream = new FixedLengthStream(prefix.byteLength + length + 1);
  const writer = stream.writable.getWriter();

  const write = async () => {
    await writer.write(prefix);
    await writer.write(encoder.encode('['));
    for (const [i, ref] of refs.entries()) {
      if (i > 0) await writer.write(encoder.encode(','));
      if (ref.r2_key === null) {
        const row = sql.exec<{ data: string }>('SELECT data FROM items WHERE seq = ?', ref.seq).one();
        await writer.write(encoder.encode(row.data));
        continue;
      }
      const object = await bucket.get(ref.r2_key);
      if (!object || object.size !== ref.bytes) throw new Error(`item ${ref.seq} is missing from R2 or has the wrong size`);
      const reader = object.body.getReader();
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) await writer.write(chunk.value);
    }
    await writer.write(encoder.encode(']}'));
    await writer.close();
  };
  const writing = write().catch(async (err: unknown) => {
    await writer.abort(err);
    throw err;
  });
  await Promise.all([bucket.put(key, stream.readable, { httpMetadata: { contentType: 'application/json' } }), writing]);
  return { offset: prefix.byteLength, length };
}

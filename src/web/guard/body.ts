/** What reading a fetched body came to: its bytes, or why not (too large, or the read failed). */
export type BodyRead = { ok: true; bytes: Uint8Array } | { ok: false; reason: string };

/**
 * Reads a fetched body, at most `maxBytes` of it: a declared length above that is refused before
 * reading, and a body that runs past it is cancelled there, so a hostile host cannot fill the
 * Worker's memory. A body that stalls past the fetch's timeout or breaks off is a failed read,
 * not an exception: the host is the client's choice, so it is the client's 4xx.
 */
export async function readBodyCapped(response: Response, maxBytes: number, limitLabel: string): Promise<BodyRead> {
  const tooLarge: BodyRead = { ok: false, reason: `exceeds ${limitLabel}` };
  if (Number(response.headers.get('content-length')) > maxBytes) {
    await response.body?.cancel().catch(() => {});
    return tooLarge;
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  try {
    for (;;) {
      const next = await reader?.read();
      if (!next || next.done) break;
      size += next.value.byteLength;
      if (size > maxBytes) {
        await reader?.cancel().catch(() => {});
        return tooLarge;
      }
      chunks.push(next.value);
    }
  } catch (err) {
    return { ok: false, reason: `could not be read (${err instanceof Error ? err.message : String(err)})` };
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return { ok: true, bytes };
}

/** What reading a body came to: its bytes, or why not (`cause`), with `reason` in words for a message. */
export type BodyRead = { ok: true; bytes: Uint8Array } | { ok: false; cause: 'too_large' | 'unreadable'; reason: string };

/**
 * The one bounded body reader (the URL guard's fetches, MCP tool results): at most `maxBytes` of
 * a response body, counted as the bytes arrive. A declared length above that is refused before
 * reading, and a body that runs past it (whatever its `Content-Length` said or did not say) is
 * cancelled there, so nothing is buffered beyond the bound: a hostile host cannot fill the
 * Worker's memory. A body that stalls past the fetch's timeout or breaks off is a failed read,
 * not an exception: for a fetched URL the host is the client's choice, so it is the client's 4xx.
 */
export async function readBodyCapped(response: Response, maxBytes: number, limitLabel: string): Promise<BodyRead> {
  const tooLarge: BodyRead = { ok: false, cause: 'too_large', reason: `exceeds ${limitLabel}` };
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
    return { ok: false, cause: 'unreadable', reason: `could not be read (${err instanceof Error ? err.message : String(err)})` };
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return { ok: true, bytes };
}

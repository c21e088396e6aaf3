import { guardedFetch, type GuardOptions } from '../guard';
import type { RailResult } from './types';

/** A current desktop Chrome: many sites serve bots a different (or no) page. */
export const BROWSER_HEADERS = {
  'User-Agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'Accept-Language': 'en-US,en;q=0.9',
};

const MAX_PAGE_BYTES = 10 * 1024 * 1024;

/** The standard rail: a plain fetch through the URL guard, redirects checked hop by hop. */
export async function fetchStandard(url: string, options: { timeoutMs: number; guard: GuardOptions & { fetcher?: typeof fetch } }): Promise<RailResult> {
  const outcome = await guardedFetch(url, { headers: BROWSER_HEADERS, timeoutMs: options.timeoutMs }, options.guard);
  if (!outcome.ok) {
    return { ok: false, kind: outcome.kind === 'rejected' ? 'rejected' : 'failed', message: outcome.reason };
  }
  const { response, finalUrl } = outcome.result;
  try {
    const html = await readText(response);
    return { ok: true, status: response.status, html, finalUrl, contentType: response.headers.get('content-type') ?? '' };
  } catch (err) {
    return { ok: false, kind: 'failed', message: `Reading ${finalUrl} failed: ${err instanceof Error ? err.message : String(err)}` };
  }
}

/** The body as text in its declared charset (header, then <meta charset>), at most 10 MB. */
async function readText(response: Response): Promise<string> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.byteLength > MAX_PAGE_BYTES) throw new Error('the page is larger than 10 MB');
  const declared =
    /charset=["']?([\w-]+)/i.exec(response.headers.get('content-type') ?? '')?.[1] ??
    /<meta[^>]+charset=["']?([\w-]+)/i.exec(new TextDecoder('latin1').decode(bytes.subarray(0, 2048)))?.[1] ??
    'utf-8';
  try {
    return new TextDecoder(declared).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

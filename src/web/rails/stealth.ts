import type { RailResult } from './types';

/** Whether the operator configured the stealth rail (STEALTH_API_KEY and STEALTH_BASE_URL). */
export function stealthConfigured(env: Env): boolean {
  return Boolean(env.STEALTH_API_KEY && env.STEALTH_BASE_URL);
}

/**
 * The stealth rail of the contract: Cloudflare Browser Rendering's REST `/content` endpoint,
 * `POST {base}/content` with `{"url"}` and a bearer key, answering `{"success": true, "result": "<html>"}`.
 */
export async function fetchStealth(url: string, options: { env: Env; timeoutMs: number }): Promise<RailResult> {
  const { STEALTH_API_KEY: key, STEALTH_BASE_URL: base } = options.env;
  if (!key || !base) return { ok: false, kind: 'unavailable', message: 'The stealth rail is not configured on this gateway.' };
  let response: Response;
  try {
    response = await fetch(`${base.replace(/\/+$/, '')}/content`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ url }),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
  } catch (err) {
    return { ok: false, kind: 'failed', message: `The stealth rail could not be reached: ${err instanceof Error ? err.message : String(err)}` };
  }
  const body = (await response.json().catch(() => null)) as { success?: boolean; result?: unknown; errors?: { message?: string }[] } | null;
  if (!response.ok || body?.success !== true || typeof body.result !== 'string') {
    const reason = body?.errors?.[0]?.message ?? `HTTP ${response.status}`;
    return { ok: false, kind: 'failed', message: `The stealth rail could not render ${url}: ${reason}` };
  }
  return { ok: true, status: 200, html: body.result, finalUrl: url, contentType: 'text/html' };
}

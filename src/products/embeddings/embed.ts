import { GatewayError } from '../../errors';
import type { Vector } from '../../providers/adapters';
import { DEFAULT_NON_STREAMED_TIMEOUT_MS, detailOrStatus, sendUpstream } from '../../providers/http';
import { readAllIdle, upstreamIdleMs } from '../../providers/idle';
import { adapterTarget } from '../../providers/registry';
import type { EmbeddingsPlan } from './plan';

/** Parts sent at once: a batch split for a provider's limit finishes quickly without flooding it. */
const PARALLEL_PARTS = 3;

export interface Embedded {
  vectors: Vector[];
  /** The tokens to bill: each part's reported count, or its estimate where the upstream reports none, at most its bound (D33). */
  tokens: number;
}

/**
 * Embeds every part of the plan on its route and joins the vectors in input order. A part that
 * fails fails the request (its hold is released; what the upstream billed for parts already
 * done is the operator's loss, as D33 puts it).
 */
export async function embedParts(plan: EmbeddingsPlan, env: Env, signal: AbortSignal): Promise<Embedded> {
  const { adapter, target } = adapterTarget(env, plan.route.provider, 'embeddings');
  const timeoutMs = Number(env.UPSTREAM_TIMEOUT_MS) || DEFAULT_NON_STREAMED_TIMEOUT_MS;
  const embedPart = async (part: EmbeddingsPlan['parts'][number]) => {
    const call = adapter.request({ inputs: part.inputs, upstreamId: plan.route.upstreamId, base64: plan.base64, ...(plan.dimensions !== undefined && { dimensions: plan.dimensions }) }, target);
    const outcome = await sendUpstream(call, { timeoutMs, signal, errorMessage: detailOrStatus });
    if (!outcome.ok) throw outcome.error;
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder().decode(await readAllIdle(outcome.response.body, upstreamIdleMs(env), signal)));
    } catch (err) {
      throw err instanceof GatewayError ? err : new GatewayError('provider_error', 'The provider answered with an unreadable body.');
    }
    const count = part.inputs.kind === 'text' ? part.inputs.texts.length : part.inputs.arrays.length;
    const { vectors, promptTokens } = adapter.parse(body, count);
    return { vectors, tokens: Math.min(promptTokens ?? part.estimate, part.bound) };
  };
  const results: Awaited<ReturnType<typeof embedPart>>[] = [];
  for (let start = 0; start < plan.parts.length; start += PARALLEL_PARTS) {
    results.push(...(await Promise.all(plan.parts.slice(start, start + PARALLEL_PARTS).map(embedPart))));
  }
  return { vectors: results.flatMap((result) => result.vectors), tokens: results.reduce((sum, result) => sum + result.tokens, 0) };
}

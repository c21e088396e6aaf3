import type { RouteHandler } from '@hono/zod-openapi';
import { withHold } from '../../accounts/billed';
import { CHAT_HOLD_LEASE_MS, keepHoldAlive } from '../../accounts/hold-lease';
import { COST_HEADER, CREDITS_HEADER } from '../../billing/headers';
import type { AppEnv } from '../../env';
import { formatUsd } from '../../money';
import type { RequestRecord } from '../../../durable-objects/account/requests';
import { knowLocalModels } from '../local-models';
import { embedParts } from './embed';
import { embeddingCostMicros, planEmbeddings } from './plan';
import type { embeddings } from './routes';
import { encodeVector } from './vectors';

/**
 * `POST /v1/embeddings`: hold the bound of the inputs' tokens (D33), embed them in parts within
 * the provider's limits, charge the tokens the upstream reports (never past the bound), and
 * answer OpenAI's shape with the cost in headers. Any failure releases the hold.
 */
export const embeddingsHandler: RouteHandler<typeof embeddings, AppEnv> = async (c) => {
  const startedAt = Date.now();
  const body = c.req.valid('json');
  await knowLocalModels(c, [body.model]);
  const plan = planEmbeddings(body, c.env);
  const { model, route } = plan;
  Object.assign(c.var.log, { model: model.id, provider: route.provider });
  const record = (usage: Record<string, number>): RequestRecord => ({
    path: '/v1/embeddings',
    model: model.id,
    provider: route.provider,
    startedAt,
    durationMs: Date.now() - startedAt,
    streamed: false,
    usage,
  });
  const ask = { model: model.id, route: 'embeddings' as const, minMicros: plan.holdMicros, maxMicros: plan.holdMicros, purpose: `embeddings:${model.id}`, ttlMs: CHAT_HOLD_LEASE_MS };
  const { embedded, settled } = await withHold(
    c,
    ask,
    async (hold, settle) => {
      // Renewed while the parts run: if the Worker dies, the hold is freed within the lease.
      const stopLease = keepHoldAlive(c.get('caller').account, hold.holdId);
      try {
        const embedded = await embedParts(plan, c.env, c.req.raw.signal);
        const usage = { prompt_tokens: embedded.tokens, inputs: plan.count };
        return { embedded, settled: await settle(embeddingCostMicros(embedded.tokens, route), record(usage)) };
      } finally {
        stopLease();
      }
    },
    () => record({ inputs: plan.count }),
  );
  c.var.log.cost_usd = formatUsd(settled.costMicros);
  return c.json(
    {
      object: 'list' as const,
      data: embedded.vectors.map((vector, index) => ({ object: 'embedding' as const, index, embedding: encodeVector(vector, plan.base64) })),
      model: model.id,
      usage: { prompt_tokens: embedded.tokens, total_tokens: embedded.tokens },
    },
    200,
    { [COST_HEADER]: formatUsd(settled.costMicros), [CREDITS_HEADER]: formatUsd(settled.balanceMicros) },
  );
};

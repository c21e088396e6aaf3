import type { Context } from 'hono';
import { discoverLocalModels, localModels } from '../../catalog/local';
import { MODELS } from '../../catalog/models';
import type { AppEnv } from '../../env';
import { executionContext } from '../../execution-context';
import { pageHeaders } from '../security';
import { catalogRows, MODEL_TYPES, type ModelTypeFilter } from './catalog';
import { ModelsPage } from './page';

const isType = (value: string | undefined): value is ModelTypeFilter => MODEL_TYPES.includes(value as ModelTypeFilter);

/** `GET /models?q=&type=`: the model catalog page, the local server's models included; an unknown type is no filter. */
export async function modelsPage(c: Context<AppEnv>): Promise<Response> {
  const query = (c.req.query('q') ?? '').slice(0, 100);
  const type = c.req.query('type');
  const filter = { query, type: isType(type) ? type : null };
  // As `/v1/models` lists them (`catalog/local.ts`); a malformed LOCAL_OPENAI_PRICES leaves them out, logged.
  await discoverLocalModels(c.env, (promise) => executionContext(c)?.waitUntil(promise)).catch((err: unknown) => console.error(err instanceof Error ? err.message : err));
  const total = MODELS.length + localModels(c.env).length;
  return c.html(<ModelsPage rows={catalogRows(c.env, filter)} total={total} query={query} type={filter.type} />, 200, pageHeaders());
}

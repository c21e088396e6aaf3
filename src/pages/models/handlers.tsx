import type { Context } from 'hono';
import { MODELS } from '../../catalog/models';
import type { AppEnv } from '../../env';
import { pageHeaders } from '../security';
import { catalogRows, MODEL_TYPES, type ModelTypeFilter } from './catalog';
import { ModelsPage } from './page';

const isType = (value: string | undefined): value is ModelTypeFilter => MODEL_TYPES.includes(value as ModelTypeFilter);

/** `GET /models?q=&type=`: the model catalog page; an unknown type is no filter. */
export function modelsPage(c: Context<AppEnv>): Response | Promise<Response> {
  const query = (c.req.query('q') ?? '').slice(0, 100);
  const type = c.req.query('type');
  const filter = { query, type: isType(type) ? type : null };
  return c.html(<ModelsPage rows={catalogRows(c.env, filter)} total={MODELS.length} query={query} type={filter.type} />, 200, pageHeaders());
}

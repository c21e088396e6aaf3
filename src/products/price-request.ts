import type { Context } from 'hono';
import type { RouteClass } from '../../durable-objects/account/types';
import type { AppEnv } from '../env';
import type { Price, Pricer } from './contract';
import { type BilledPath, billedRoute, PRODUCTS } from './index';

/** What a billed request would cost (D25), with the route it is for. */
export interface PricedRequest extends Price {
  path: BilledPath;
  /** The route class a key's allowed_routes guardrail names (D27). */
  route: RouteClass;
}

/**
 * Prices a billed request without holding, charging or sending anything: the route's validation
 * (400, 404 for an unknown model) and its worst case, by its product's own pricer. The quote route
 * and x402's keyless challenge use it.
 */
export async function priceRequest(c: Context<AppEnv>, path: BilledPath, body: unknown): Promise<PricedRequest> {
  const { product, route } = billedRoute(path);
  const { prices } = await PRODUCTS[product].load();
  const price: Pricer = (prices as Readonly<Record<string, Pricer>>)[path]!;
  return { path, route, ...(await price(body, c)) };
}

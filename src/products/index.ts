import type { RouteClass } from '../../durable-objects/account/types';
import { type BilledPathOf, type BilledProduct, product, type RouteSpec } from './contract';
import { CHAT } from './chat/paths';
import { EMBEDDINGS } from './embeddings/paths';
import { IMAGES } from './images/paths';
import { SPEECH } from './speech/paths';
import { TRANSCRIPTION } from './transcription/paths';
import { VIDEOS } from './videos/paths';
import { WEB } from './web/paths';

/**
 * Every billed product, in route-table order (docs/contributors/architecture.md, "Products"). The
 * lazy route table, x402's priced routes, `POST /v1/quote` and the MCP tools are derived from it;
 * each `load` brings a product's schemas and handlers with its first request, not at startup.
 */
export const PRODUCTS = {
  chat: product({ routes: Object.values(CHAT), load: () => import('./chat/product') }),
  images: product({ routes: Object.values(IMAGES), load: () => import('./images/product') }),
  speech: product({ routes: Object.values(SPEECH), load: () => import('./speech/product') }),
  transcription: product({ routes: Object.values(TRANSCRIPTION), load: () => import('./transcription/product') }),
  videos: product({ routes: Object.values(VIDEOS), load: () => import('./videos/product') }),
  web: product({ routes: Object.values(WEB), load: () => import('./web/product') }),
  embeddings: product({ routes: Object.values(EMBEDDINGS), load: () => import('./embeddings/product') }),
} satisfies Record<string, BilledProduct>;

export type ProductName = keyof typeof PRODUCTS;
type Routes<P extends ProductName> = (typeof PRODUCTS)[P]['routes'];

/** Every billed path (`POST /v1/quote` takes these), each product's own. */
export type BilledPath = { [P in ProductName]: BilledPathOf<Routes<P>> }[ProductName];

interface BilledRoute {
  product: ProductName;
  route: RouteClass;
}

const BILLED: ReadonlyMap<string, BilledRoute> = new Map(
  (Object.entries(PRODUCTS) as [ProductName, BilledProduct][]).flatMap(([name, { routes }]) =>
    routes.flatMap((spec: RouteSpec) => (spec.billed ? [[spec.path, { product: name, route: spec.billed }] as const] : [])),
  ),
);

export const BILLED_PATHS = [...BILLED.keys()] as BilledPath[];

export function isBilledPath(path: string): path is BilledPath {
  return BILLED.has(path);
}

/** The product that bills a path, and the guardrail class its holds are made under (D27). */
export function billedRoute(path: BilledPath): BilledRoute {
  const billed = BILLED.get(path);
  if (!billed) throw new Error(`${path} is not a billed route`);
  return billed;
}

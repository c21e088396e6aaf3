import type { OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { RouteClass } from '../../durable-objects/account/types';
import type { ChatModel, TokenPrice } from '../catalog/types';
import type { AppEnv } from '../env';

export type Method = 'get' | 'post' | 'patch' | 'delete';

/**
 * One route of a product, declared once: the route table matches it before its module loads, its
 * `createRoute` spreads it, and a billed one names the guardrail class its holds are made under (D27).
 */
export interface RouteSpec {
  readonly method: Method;
  readonly path: string;
  readonly billed?: RouteClass;
}

/** What a billed request would cost, worked out as its route does before it holds (D25). */
export interface Price {
  /** The model it would run on; null for web routes. */
  model: string | null;
  /** What the route would hold: the most it can cost. */
  worstMicros: number;
  /** The least the route would hold and still serve it (D5 lowers an unset max_tokens to what is held). */
  minMicros: number;
  /** What it is likely to cost (equal to the worst case where the price is known up front). */
  estimatedMicros: number;
  /** Chat only: what a balance buys in output tokens. */
  chat?: { model: ChatModel; price: TokenPrice; promptTokens: number; choices: number };
}

/** Prices a body with the route's own validation (the same 400s, with the same `param`), holding nothing. */
export type Pricer = (body: unknown, c: Context<AppEnv>) => Promise<Price>;

/** One MCP tool: which route it runs, and how its arguments become that route's request. */
export interface ToolRoute {
  name: string;
  description: string;
  /** The arguments: the route's own zod schema (the route validates); `toolInputSchema` is its JSON Schema. */
  args: z.ZodType;
  /** The in-process request the tool makes, or a refusal message for arguments that name no route. */
  request(args: Record<string, unknown>): { method: 'GET' | 'POST'; path: string; body?: unknown } | { refuse: string };
}

/** The paths of a product's billed routes. */
export type BilledPathOf<R extends readonly RouteSpec[]> = Extract<R[number], { billed: RouteClass }>['path'];

/** The same, of a product's routes by name (its `paths.ts`). */
export type BilledPathIn<T extends Record<string, RouteSpec>> = Extract<T[keyof T], { billed: RouteClass }>['path'];

/** The half of a product loaded by the first request that needs it: zod, schemas, handlers. */
export interface ProductModule<Billed extends string> {
  /** Registers every route of the product on the app, in the order its `routes` list them. */
  register(app: OpenAPIHono<AppEnv>): void;
  /** Each billed route's price or hold: `POST /v1/quote` and x402's keyless challenge read it. */
  prices: { readonly [P in Billed]: Pricer };
  /** Its MCP tools (D24), each calling one of its routes; declared even when there are none. */
  tools: readonly ToolRoute[];
}

/**
 * A billed product (contract: docs/contributors/architecture.md, "Products"): its routes, and the
 * module that serves, prices and exposes them as tools. The route table, x402's priced routes, the
 * quote and MCP's tools are derived from the table of these (`PRODUCTS`), so a route without a
 * price or a product without a tool does not compile.
 */
export interface BilledProduct<R extends readonly RouteSpec[] = readonly RouteSpec[]> {
  routes: R;
  load(): Promise<ProductModule<BilledPathOf<R>>>;
}

/** A product's entry of `PRODUCTS`, checked against its own routes (`satisfies` alone would widen them). */
export function product<const R extends readonly RouteSpec[]>(entry: BilledProduct<R>): BilledProduct<R> {
  return entry;
}

/** The method and path of a spec, for `createRoute` (the guardrail class stays out of the OpenAPI document). */
export function at<const S extends RouteSpec>(spec: S): { method: S['method']; path: S['path'] } {
  return { method: spec.method, path: spec.path };
}

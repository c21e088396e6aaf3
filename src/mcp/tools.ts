import { z } from '@hono/zod-openapi';
import { PRODUCTS } from '../products';
import type { ToolRoute } from '../products/contract';
import { bodySchemaOf } from '../products/route-body';
import * as fundRoutes from '../routes/funding/fund.routes';

export type { ToolRoute };

export type InputSchema = { type: 'object'; [key: string]: unknown };
const inputSchemas = new WeakMap<ToolRoute, InputSchema>();

/**
 * A tool's input JSON Schema: what a client may send (defaults optional). Made at the first
 * `tools/list`, not at load: the conversion is milliseconds of a cold start otherwise (issue #25).
 */
export function toolInputSchema(tool: ToolRoute): InputSchema {
  let schema = inputSchemas.get(tool);
  if (!schema) {
    const json = z.toJSONSchema(tool.args, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
    delete json.$schema;
    schema = { ...json, type: 'object' };
    inputSchemas.set(tool, schema);
  }
  return schema;
}

const JOB_PATHS = { crawl: '/v1/crawl/', extract: '/v1/extract/', image: '/v1/images/jobs/', video: '/v1/videos/generations/' } as const;
const GetJobArgs = z.object({
  kind: z.enum(['crawl', 'extract', 'image', 'video']).describe('Which kind of job the id names.'),
  id: z.string().min(1).max(100).describe('The job id the submitting call returned.'),
});
const NoArgs = z.object({});

/** The tools that are no product's: the catalog, job polling, and the account itself. */
const ACCOUNT_TOOLS = {
  before: [
    {
      name: 'list_models',
      description: 'The chat, image, video, speech and embedding models with their prices (GET /v1/models). Free.',
      args: NoArgs,
      request: () => ({ method: 'GET', path: '/v1/models' }),
    },
  ],
  after: [
    {
      name: 'get_job',
      description: 'The state and result of a crawl, extract, image or video job.',
      args: GetJobArgs,
      request: (args) => {
        const parsed = GetJobArgs.safeParse(args);
        if (!parsed.success) return { refuse: 'get_job needs {"kind": "crawl"|"extract"|"image"|"video", "id": "<job id>"}.' };
        return { method: 'GET', path: JOB_PATHS[parsed.data.kind] + encodeURIComponent(parsed.data.id) };
      },
    },
    {
      name: 'get_account',
      description: 'This key\'s account: balance, limits and how to fund it (GET /agent/account). Free.',
      args: NoArgs,
      request: () => ({ method: 'GET', path: '/agent/account' }),
    },
    {
      name: 'fund_account',
      description: 'How to add funds: a USDC-on-Base deposit of the exact amount that credits this account (POST /agent/fund).',
      args: bodySchemaOf(fundRoutes.fund),
      request: (args) => ({ method: 'POST', path: '/agent/fund', body: args }),
    },
  ],
} satisfies Record<string, ToolRoute[]>;

export interface Tools {
  list: readonly ToolRoute[];
  byName: ReadonlyMap<string, ToolRoute>;
}

let loaded: Promise<Tools> | undefined;

/** The tools (contract "Agents"), each the real route it names: every product's own (`PRODUCTS`), between the account's. */
export function loadTools(): Promise<Tools> {
  loaded ??= Promise.all(Object.values(PRODUCTS).map((product) => product.load())).then((modules) => {
    const list = [...ACCOUNT_TOOLS.before, ...modules.flatMap((module) => module.tools), ...ACCOUNT_TOOLS.after];
    return { list, byName: new Map(list.map((tool) => [tool.name, tool])) };
  });
  // A failed import is retried by the next request rather than remembered.
  loaded.catch(() => (loaded = undefined));
  return loaded;
}

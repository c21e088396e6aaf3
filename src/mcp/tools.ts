import { z } from '@hono/zod-openapi';
import * as chatRoutes from '../products/chat/routes';
import * as fundRoutes from '../routes/funding/fund.routes';
import * as imagesRoutes from '../products/images/routes';
import * as speechRoutes from '../products/speech/routes';
import * as jobsRoutes from '../products/web/jobs.routes';
import * as scrapeRoutes from '../products/web/scrape.routes';

/** One MCP tool: which route it runs, and how its arguments become that route's request. */
export interface ToolRoute {
  name: string;
  description: string;
  /** The arguments: the route's own zod schema (the route validates); `toolInputSchema` is its JSON Schema. */
  args: z.ZodType;
  /** The in-process request the tool makes, or a refusal message for arguments that name no route. */
  request(args: Record<string, unknown>): { method: 'GET' | 'POST'; path: string; body?: unknown } | { refuse: string };
}

/** The JSON body schema a route declares. */
function bodySchemaOf(route: { request?: { body?: { content: { 'application/json': { schema: z.ZodType } } } } }): z.ZodType {
  const schema = route.request?.body?.content['application/json'].schema;
  if (!schema) throw new Error('route has no JSON body');
  return schema;
}

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

const post = (path: string) => (args: Record<string, unknown>) => ({ method: 'POST' as const, path, body: args });

/** The tools (contract "Agents"), each the real route it names. */
export const TOOLS: readonly ToolRoute[] = [
  {
    name: 'list_models',
    description: 'The chat, image, video and speech models with their prices (GET /v1/models). Free.',
    args: NoArgs,
    request: () => ({ method: 'GET', path: '/v1/models' }),
  },
  {
    name: 'chat_completion',
    description: 'An OpenAI-compatible chat completion (POST /v1/chat/completions, never streamed here). Billed per token.',
    args: bodySchemaOf(chatRoutes.chatCompletions),
    request: (args) => ({ method: 'POST', path: '/v1/chat/completions', body: { ...args, stream: false } }),
  },
  {
    name: 'scrape',
    description: 'Fetch one web page as markdown, html or text (POST /v1/scrape). Billed per page.',
    args: bodySchemaOf(scrapeRoutes.scrape),
    request: post('/v1/scrape'),
  },
  {
    name: 'crawl',
    description: 'Start crawling a site (POST /v1/crawl); poll with get_job {kind: "crawl"}. Billed per page.',
    args: bodySchemaOf(jobsRoutes.crawl),
    request: post('/v1/crawl'),
  },
  {
    name: 'extract',
    description: 'Start a ready-made structured scraper (POST /v1/extract); poll with get_job {kind: "extract"}. Billed per record.',
    args: bodySchemaOf(jobsRoutes.extract),
    request: post('/v1/extract'),
  },
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
    name: 'generate_image',
    description: 'Generate an image (POST /v1/images/generations); answers a hosted link. Billed per image.',
    args: bodySchemaOf(imagesRoutes.generateImages),
    request: post('/v1/images/generations'),
  },
  {
    name: 'create_speech',
    description: 'Speak text (POST /v1/audio/speech); answers a hosted MP3 link. Billed per character.',
    args: bodySchemaOf(speechRoutes.speech),
    request: post('/v1/audio/speech'),
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
    request: post('/agent/fund'),
  },
];

export const TOOLS_BY_NAME: ReadonlyMap<string, ToolRoute> = new Map(TOOLS.map((tool) => [tool.name, tool]));

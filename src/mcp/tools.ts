import { z } from '@hono/zod-openapi';
import * as chatRoutes from '../routes/chat/chat.routes';
import * as fundRoutes from '../routes/funding/fund.routes';
import * as imagesRoutes from '../routes/media/images.routes';
import * as speechRoutes from '../routes/media/speech.routes';
import * as jobsRoutes from '../routes/web/jobs.routes';
import * as scrapeRoutes from '../routes/web/scrape.routes';

/** One MCP tool: which route it runs, and how its arguments become that route's request. */
export interface ToolRoute {
  name: string;
  description: string;
  /** JSON Schema of the arguments, derived from the route's own zod schema (the route validates). */
  inputSchema: { type: 'object'; [key: string]: unknown };
  /** The in-process request the tool makes, or a refusal message for arguments that name no route. */
  request(args: Record<string, unknown>): { method: 'GET' | 'POST'; path: string; body?: unknown } | { refuse: string };
}

/** The JSON body schema a route declares. */
function bodySchemaOf(route: { request?: { body?: { content: { 'application/json': { schema: z.ZodType } } } } }): z.ZodType {
  const schema = route.request?.body?.content['application/json'].schema;
  if (!schema) throw new Error('route has no JSON body');
  return schema;
}

/** A route schema as a tool's input JSON Schema: what a client may send (defaults optional). */
function inputJsonSchema(schema: z.ZodType): ToolRoute['inputSchema'] {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  delete json.$schema;
  return { ...json, type: 'object' };
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
    inputSchema: inputJsonSchema(NoArgs),
    request: () => ({ method: 'GET', path: '/v1/models' }),
  },
  {
    name: 'chat_completion',
    description: 'An OpenAI-compatible chat completion (POST /v1/chat/completions, never streamed here). Billed per token.',
    inputSchema: inputJsonSchema(bodySchemaOf(chatRoutes.chatCompletions)),
    request: (args) => ({ method: 'POST', path: '/v1/chat/completions', body: { ...args, stream: false } }),
  },
  {
    name: 'scrape',
    description: 'Fetch one web page as markdown, html or text (POST /v1/scrape). Billed per page.',
    inputSchema: inputJsonSchema(bodySchemaOf(scrapeRoutes.scrape)),
    request: post('/v1/scrape'),
  },
  {
    name: 'crawl',
    description: 'Start crawling a site (POST /v1/crawl); poll with get_job {kind: "crawl"}. Billed per page.',
    inputSchema: inputJsonSchema(bodySchemaOf(jobsRoutes.crawl)),
    request: post('/v1/crawl'),
  },
  {
    name: 'extract',
    description: 'Start a ready-made structured scraper (POST /v1/extract); poll with get_job {kind: "extract"}. Billed per record.',
    inputSchema: inputJsonSchema(bodySchemaOf(jobsRoutes.extract)),
    request: post('/v1/extract'),
  },
  {
    name: 'get_job',
    description: 'The state and result of a crawl, extract, image or video job.',
    inputSchema: inputJsonSchema(GetJobArgs),
    request: (args) => {
      const parsed = GetJobArgs.safeParse(args);
      if (!parsed.success) return { refuse: 'get_job needs {"kind": "crawl"|"extract"|"image"|"video", "id": "<job id>"}.' };
      return { method: 'GET', path: JOB_PATHS[parsed.data.kind] + encodeURIComponent(parsed.data.id) };
    },
  },
  {
    name: 'generate_image',
    description: 'Generate an image (POST /v1/images/generations); answers a hosted link. Billed per image.',
    inputSchema: inputJsonSchema(bodySchemaOf(imagesRoutes.generateImages)),
    request: post('/v1/images/generations'),
  },
  {
    name: 'create_speech',
    description: 'Speak text (POST /v1/audio/speech); answers a hosted MP3 link. Billed per character.',
    inputSchema: inputJsonSchema(bodySchemaOf(speechRoutes.speech)),
    request: post('/v1/audio/speech'),
  },
  {
    name: 'get_account',
    description: 'This key\'s account: balance, limits and how to fund it (GET /agent/account). Free.',
    inputSchema: inputJsonSchema(NoArgs),
    request: () => ({ method: 'GET', path: '/agent/account' }),
  },
  {
    name: 'fund_account',
    description: 'How to add funds: a USDC-on-Base deposit of the exact amount that credits this account (POST /agent/fund).',
    inputSchema: inputJsonSchema(bodySchemaOf(fundRoutes.fund)),
    request: post('/agent/fund'),
  },
];

export const TOOLS_BY_NAME: ReadonlyMap<string, ToolRoute> = new Map(TOOLS.map((tool) => [tool.name, tool]));

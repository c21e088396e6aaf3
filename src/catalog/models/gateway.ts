import type { CatalogModel } from '../types';
import { CATALOG_DATE } from './sources';

/**
 * The gateway's own demo chat model, answered inside the Worker (`src/providers/gateway/`): free,
 * served while no chat provider is configured or when `DEMO_MODEL=on`, at most
 * `DEMO_REQUESTS_PER_MINUTE` requests a minute per account.
 */
export const gatewayModels = [
  {
    type: 'chat',
    id: 'gateway/echo',
    displayName: 'Echo (demo)',
    maker: 'gateway',
    released: CATALOG_DATE,
    demo: 'A demo model built into the gateway: it answers with the last user message, for free, so a chat works before any provider is configured. Not a language model.',
    // Takes what the coding agents send (Claude Code: about 25,000 tokens of prompt, a dozen tools),
    // so they run against it too; it never calls a tool, and reads no image or PDF.
    contextLength: 200_000,
    maxOutputTokens: 1_024,
    vision: true,
    tools: true,
    pdf: true,
    routes: [{ provider: 'gateway', upstreamId: 'echo', price: { inputPerMTok: 0, outputPerMTok: 0 }, source: { url: 'https://github.com/ai-gateway/ai-gateway#quick-start', readOn: CATALOG_DATE } }],
  },
] satisfies readonly CatalogModel[];

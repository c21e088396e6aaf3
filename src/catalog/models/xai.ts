import type { CatalogModel } from '../types';
import { XAI_PRICING } from './sources';

/**
 * xAI Grok models on the xAI API (OpenAI-compatible Chat Completions). xAI publishes no separate
 * output cap for most Grok models; where it does not, maxOutputTokens is the context window.
 */
export const xai = [
  {
    // Base tier (prompts <= 200K tokens); longer prompts $4 / $12, cache $1.
    type: 'chat',
    id: 'xai/grok-4.5',
    displayName: 'Grok 4.5',
    maker: 'xai',
    released: '2026-07-09',
    contextLength: 500_000,
    maxOutputTokens: 500_000,
    vision: true,
    tools: true,
    pdf: false,
    routes: [{ provider: 'xai', upstreamId: 'grok-4.5', price: { inputPerMTok: 2, outputPerMTok: 6, cacheReadPerMTok: 0.5 }, source: XAI_PRICING }],
  },
  {
    type: 'chat',
    id: 'xai/grok-4-1-fast-reasoning',
    displayName: 'Grok 4.1 Fast (reasoning)',
    maker: 'xai',
    released: '2025-11-19',
    contextLength: 2_000_000,
    maxOutputTokens: 30_000,
    vision: true,
    tools: true,
    pdf: false,
    routes: [
      { provider: 'xai', upstreamId: 'grok-4-1-fast-reasoning', price: { inputPerMTok: 0.2, outputPerMTok: 0.5, cacheReadPerMTok: 0.05 }, source: XAI_PRICING },
    ],
  },
  {
    type: 'chat',
    id: 'xai/grok-4-1-fast-non-reasoning',
    displayName: 'Grok 4.1 Fast (non-reasoning)',
    maker: 'xai',
    released: '2025-11-19',
    contextLength: 2_000_000,
    maxOutputTokens: 30_000,
    vision: true,
    tools: true,
    pdf: false,
    routes: [
      { provider: 'xai', upstreamId: 'grok-4-1-fast-non-reasoning', price: { inputPerMTok: 0.2, outputPerMTok: 0.5, cacheReadPerMTok: 0.05 }, source: XAI_PRICING },
    ],
  },
  {
    type: 'chat',
    id: 'xai/grok-code-fast-1',
    displayName: 'Grok Code Fast 1',
    maker: 'xai',
    released: '2025-08-28',
    contextLength: 256_000,
    maxOutputTokens: 10_000,
    vision: false,
    tools: true,
    pdf: false,
    routes: [
      { provider: 'xai', upstreamId: 'grok-code-fast-1', price: { inputPerMTok: 0.2, outputPerMTok: 1.5, cacheReadPerMTok: 0.02 }, source: XAI_PRICING },
    ],
  },
  {
    // Base tier (prompts <= 128K tokens); longer prompts $6 / $30.
    type: 'chat',
    id: 'xai/grok-4',
    displayName: 'Grok 4',
    maker: 'xai',
    released: '2025-07-09',
    contextLength: 256_000,
    maxOutputTokens: 256_000,
    vision: true,
    tools: true,
    pdf: false,
    routes: [{ provider: 'xai', upstreamId: 'grok-4-0709', price: { inputPerMTok: 3, outputPerMTok: 15, cacheReadPerMTok: 0.75 }, source: XAI_PRICING }],
  },
  {
    type: 'chat',
    id: 'xai/grok-3',
    displayName: 'Grok 3',
    maker: 'xai',
    released: '2025-04-09',
    contextLength: 131_072,
    maxOutputTokens: 131_072,
    vision: false,
    tools: true,
    pdf: false,
    routes: [{ provider: 'xai', upstreamId: 'grok-3', price: { inputPerMTok: 3, outputPerMTok: 15, cacheReadPerMTok: 0.75 }, source: XAI_PRICING }],
  },
  {
    type: 'chat',
    id: 'xai/grok-3-mini',
    displayName: 'Grok 3 Mini',
    maker: 'xai',
    released: '2025-04-09',
    contextLength: 131_072,
    maxOutputTokens: 131_072,
    vision: false,
    tools: true,
    pdf: false,
    routes: [{ provider: 'xai', upstreamId: 'grok-3-mini', price: { inputPerMTok: 0.3, outputPerMTok: 0.5, cacheReadPerMTok: 0.075 }, source: XAI_PRICING }],
  },
] satisfies readonly CatalogModel[];

import type { CatalogModel } from '../types';
import { DEEPSEEK_PRICING, FIREWORKS_PRICING, TOGETHER_PRICING } from './sources';

/**
 * DeepSeek. The first-party API now serves DeepSeek-V4 as `deepseek-v4-flash` and `deepseek-v4-pro`
 * (released 2026-04-24); the legacy aliases `deepseek-chat` / `deepseek-reasoner` were retired after
 * 2026-07-24 and are not listed. Cache read = the "input (cache hit)" price of
 * https://api-docs.deepseek.com/quick_start/pricing; a miss is written at the input price. Older open-weight
 * DeepSeek releases are served by Together and Fireworks.
 */
export const deepseek = [
  {
    // Thinking and non-thinking modes on one id.
    type: 'chat',
    id: 'deepseek/deepseek-v4-flash',
    displayName: 'DeepSeek V4 Flash',
    maker: 'deepseek',
    released: '2026-04-24',
    contextLength: 1_000_000,
    maxOutputTokens: 384_000,
    vision: false,
    tools: true,
    pdf: false,
    routes: [
      { provider: 'deepseek', upstreamId: 'deepseek-v4-flash', price: { inputPerMTok: 0.14, outputPerMTok: 0.28, cacheReadPerMTok: 0.0028 }, source: DEEPSEEK_PRICING },
    ],
  },
  {
    // Regular list price (the launch 75% discount ended 2026-05-31).
    type: 'chat',
    id: 'deepseek/deepseek-v4-pro',
    displayName: 'DeepSeek V4 Pro',
    maker: 'deepseek',
    released: '2026-04-24',
    contextLength: 1_000_000,
    maxOutputTokens: 384_000,
    vision: false,
    tools: true,
    pdf: false,
    routes: [
      { provider: 'deepseek', upstreamId: 'deepseek-v4-pro', price: { inputPerMTok: 1.74, outputPerMTok: 3.48, cacheReadPerMTok: 0.0145 }, source: DEEPSEEK_PRICING },
    ],
  },
  {
    type: 'chat',
    id: 'deepseek/deepseek-v3.1',
    displayName: 'DeepSeek V3.1',
    maker: 'deepseek',
    released: '2025-08-21',
    contextLength: 131_072,
    maxOutputTokens: 32_768,
    vision: false,
    tools: true,
    pdf: false,
    routes: [
      { provider: 'fireworks', upstreamId: 'accounts/fireworks/models/deepseek-v3p1', price: { inputPerMTok: 0.56, outputPerMTok: 1.68 }, source: FIREWORKS_PRICING },
      { provider: 'together', upstreamId: 'deepseek-ai/DeepSeek-V3.1', price: { inputPerMTok: 0.6, outputPerMTok: 1.7 }, source: TOGETHER_PRICING },
    ],
  },
  {
    type: 'chat',
    id: 'deepseek/deepseek-v3-0324',
    displayName: 'DeepSeek V3 (0324)',
    maker: 'deepseek',
    released: '2025-03-24',
    contextLength: 131_072,
    maxOutputTokens: 16_384,
    vision: false,
    tools: true,
    pdf: false,
    routes: [
      { provider: 'fireworks', upstreamId: 'accounts/fireworks/models/deepseek-v3-0324', price: { inputPerMTok: 0.9, outputPerMTok: 0.9 }, source: FIREWORKS_PRICING },
      { provider: 'together', upstreamId: 'deepseek-ai/DeepSeek-V3', price: { inputPerMTok: 1.25, outputPerMTok: 1.25 }, source: TOGETHER_PRICING },
    ],
  },
  {
    type: 'chat',
    id: 'deepseek/deepseek-r1-0528',
    displayName: 'DeepSeek R1 (0528)',
    maker: 'deepseek',
    released: '2025-05-28',
    contextLength: 163_840,
    maxOutputTokens: 32_768,
    vision: false,
    tools: true,
    pdf: false,
    routes: [
      { provider: 'together', upstreamId: 'deepseek-ai/DeepSeek-R1', price: { inputPerMTok: 3, outputPerMTok: 7 }, source: TOGETHER_PRICING },
      { provider: 'fireworks', upstreamId: 'accounts/fireworks/models/deepseek-r1-0528', price: { inputPerMTok: 3, outputPerMTok: 8 }, source: FIREWORKS_PRICING },
    ],
  },
  {
    type: 'chat',
    id: 'deepseek/deepseek-r1-distill-llama-70b',
    displayName: 'DeepSeek R1 Distill Llama 70B',
    maker: 'deepseek',
    released: '2025-01-20',
    contextLength: 131_072,
    maxOutputTokens: 32_768,
    vision: false,
    tools: false,
    pdf: false,
    routes: [
      { provider: 'together', upstreamId: 'deepseek-ai/DeepSeek-R1-Distill-Llama-70B', price: { inputPerMTok: 2, outputPerMTok: 2 }, source: TOGETHER_PRICING },
    ],
  },
] satisfies readonly CatalogModel[];

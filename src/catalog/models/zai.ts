import type { CatalogModel } from '../types';
import { FIREWORKS_PRICING, TOGETHER_PRICING } from './sources';

/** Z.ai (Zhipu) GLM open-weight models on Together and Fireworks (cheapest route first). */
export const zai = [
  {
    type: 'chat',
    id: 'zai/glm-4.6',
    displayName: 'GLM-4.6',
    maker: 'zai',
    released: '2025-09-30',
    contextLength: 202_752,
    maxOutputTokens: 131_072,
    vision: false,
    tools: true,
    pdf: false,
    routes: [
      { provider: 'fireworks', upstreamId: 'accounts/fireworks/models/glm-4p6', price: { inputPerMTok: 0.55, outputPerMTok: 2.19 }, source: FIREWORKS_PRICING },
      { provider: 'together', upstreamId: 'zai-org/GLM-4.6', price: { inputPerMTok: 0.6, outputPerMTok: 2.2 }, source: TOGETHER_PRICING },
    ],
  },
  {
    type: 'chat',
    id: 'zai/glm-4.5',
    displayName: 'GLM-4.5',
    maker: 'zai',
    released: '2025-07-28',
    contextLength: 131_072,
    maxOutputTokens: 98_304,
    vision: false,
    tools: true,
    pdf: false,
    routes: [
      { provider: 'fireworks', upstreamId: 'accounts/fireworks/models/glm-4p5', price: { inputPerMTok: 0.55, outputPerMTok: 2.19 }, source: FIREWORKS_PRICING },
    ],
  },
  {
    type: 'chat',
    id: 'zai/glm-4.5-air',
    displayName: 'GLM-4.5-Air',
    maker: 'zai',
    released: '2025-07-28',
    contextLength: 131_072,
    maxOutputTokens: 98_304,
    vision: false,
    tools: true,
    pdf: false,
    routes: [
      { provider: 'together', upstreamId: 'zai-org/GLM-4.5-Air-FP8', price: { inputPerMTok: 0.2, outputPerMTok: 1.1 }, source: TOGETHER_PRICING },
      { provider: 'fireworks', upstreamId: 'accounts/fireworks/models/glm-4p5-air', price: { inputPerMTok: 0.22, outputPerMTok: 0.88 }, source: FIREWORKS_PRICING },
    ],
  },
] satisfies readonly CatalogModel[];

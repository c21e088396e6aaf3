import type { CatalogModel } from '../types';
import { FIREWORKS_PRICING, GROQ_PRICING, TOGETHER_PRICING } from './sources';

/** Moonshot AI Kimi K2 open-weight models on Groq, Together and Fireworks (cheapest route first). */
export const moonshotai = [
  {
    type: 'chat',
    id: 'moonshotai/kimi-k2-instruct-0905',
    displayName: 'Kimi K2 Instruct (0905)',
    maker: 'moonshotai',
    released: '2025-09-05',
    contextLength: 262_144,
    maxOutputTokens: 16_384,
    vision: false,
    tools: true,
    pdf: false,
    routes: [
      { provider: 'fireworks', upstreamId: 'accounts/fireworks/models/kimi-k2-instruct-0905', price: { inputPerMTok: 0.6, outputPerMTok: 2.5 }, source: FIREWORKS_PRICING },
      { provider: 'groq', upstreamId: 'moonshotai/kimi-k2-instruct-0905', price: { inputPerMTok: 1, outputPerMTok: 3 }, source: GROQ_PRICING },
      { provider: 'together', upstreamId: 'moonshotai/Kimi-K2-Instruct-0905', price: { inputPerMTok: 1, outputPerMTok: 3 }, source: TOGETHER_PRICING },
    ],
  },
  {
    type: 'chat',
    id: 'moonshotai/kimi-k2-instruct',
    displayName: 'Kimi K2 Instruct (0711)',
    maker: 'moonshotai',
    released: '2025-07-11',
    contextLength: 131_072,
    maxOutputTokens: 16_384,
    vision: false,
    tools: true,
    pdf: false,
    routes: [
      { provider: 'fireworks', upstreamId: 'accounts/fireworks/models/kimi-k2-instruct', price: { inputPerMTok: 0.6, outputPerMTok: 2.5 }, source: FIREWORKS_PRICING },
      { provider: 'together', upstreamId: 'moonshotai/Kimi-K2-Instruct', price: { inputPerMTok: 1, outputPerMTok: 3 }, source: TOGETHER_PRICING },
    ],
  },
  {
    type: 'chat',
    id: 'moonshotai/kimi-k2-thinking',
    displayName: 'Kimi K2 Thinking',
    maker: 'moonshotai',
    released: '2025-11-06',
    contextLength: 262_144,
    maxOutputTokens: 65_536,
    vision: false,
    tools: true,
    pdf: false,
    routes: [
      { provider: 'fireworks', upstreamId: 'accounts/fireworks/models/kimi-k2-thinking', price: { inputPerMTok: 0.6, outputPerMTok: 2.5 }, source: FIREWORKS_PRICING },
      { provider: 'together', upstreamId: 'moonshotai/Kimi-K2-Thinking', price: { inputPerMTok: 1.2, outputPerMTok: 4 }, source: TOGETHER_PRICING },
    ],
  },
] satisfies readonly CatalogModel[];

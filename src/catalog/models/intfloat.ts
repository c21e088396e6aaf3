import type { CatalogModel } from '../types';
import { TOGETHER_E5_PAGE } from './sources';

/** intfloat's open embedding models, served by Together. */
export const intfloat = [
  {
    // 512 tokens per input (XLM-RoBERTa), one size (1,024). $0.02 / 1M tokens as
    // https://www.together.ai/models/multilingual-e5-large-instruct states it; the same stored
    // page says the model is not on Together's serverless API (re-check before relying on it).
    type: 'embedding',
    id: 'intfloat/multilingual-e5-large-instruct',
    displayName: 'Multilingual E5 Large Instruct',
    maker: 'intfloat',
    released: '2024-02-08',
    maxInputTokens: 512,
    defaultDimensions: 1024,
    minDimensions: 1024,
    maxDimensions: 1024,
    routes: [{ provider: 'together', upstreamId: 'intfloat/multilingual-e5-large-instruct', inputPerMTok: 0.02, source: TOGETHER_E5_PAGE }],
  },
] satisfies readonly CatalogModel[];

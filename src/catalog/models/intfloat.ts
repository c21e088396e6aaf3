import type { CatalogModel } from '../types';
import { TOGETHER_PRICING } from './sources';

/** intfloat's open embedding models, served by Together. */
export const intfloat = [
  {
    // 512 tokens per input (XLM-RoBERTa), one size (1,024); Together's serverless embedding model.
    type: 'embedding',
    id: 'intfloat/multilingual-e5-large-instruct',
    displayName: 'Multilingual E5 Large Instruct',
    maker: 'intfloat',
    released: '2024-02-08',
    maxInputTokens: 512,
    defaultDimensions: 1024,
    minDimensions: 1024,
    maxDimensions: 1024,
    routes: [{ provider: 'together', upstreamId: 'intfloat/multilingual-e5-large-instruct', inputPerMTok: 0.02, source: TOGETHER_PRICING }],
  },
] satisfies readonly CatalogModel[];

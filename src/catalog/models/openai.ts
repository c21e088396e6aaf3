import type { CatalogModel } from '../types';
import { cerebrasPage, FIREWORKS_PRICING, GROQ_PRICING, OPENAI_PRICING, TOGETHER_PRICING } from './sources';

/**
 * OpenAI models. Only ids still served on the catalog date are listed: o1, o3-mini, o4-mini,
 * gpt-4.1-nano, gpt-image-1 and the GPT-3.5/GPT-4 ids were shut down on 2026-10-23.
 * Deprecated but still served (shutdown dates from OpenAI's deprecations page):
 * gpt-image-1.5 / gpt-image-1-mini 2026-12-01; gpt-5, gpt-5-mini, gpt-5-nano, o3 2026-12-11;
 * tts-1, tts-1-hd, gpt-4o-mini-tts 2027-01-06; gpt-4o, gpt-4o-mini, gpt-4.1, gpt-4.1-mini 2027-01-14.
 * Cache read = the "cached input" price of https://developers.openai.com/api/docs/pricing; OpenAI
 * charges no cache writes (cached prefixes are written at the input price), so none is listed.
 */
export const openai = [
  // ---- Chat (OpenAI API) ----
  {
    type: 'chat',
    id: 'openai/gpt-4o',
    displayName: 'GPT-4o',
    maker: 'openai',
    released: '2024-05-13',
    contextLength: 128_000,
    maxOutputTokens: 16_384,
    vision: true,
    tools: true,
    pdf: true,
    routes: [
      { provider: 'openai', upstreamId: 'gpt-4o', price: { inputPerMTok: 2.5, outputPerMTok: 10, cacheReadPerMTok: 1.25 }, source: OPENAI_PRICING },
    ],
  },
  {
    type: 'chat',
    id: 'openai/gpt-4o-mini',
    displayName: 'GPT-4o mini',
    maker: 'openai',
    released: '2024-07-18',
    contextLength: 128_000,
    maxOutputTokens: 16_384,
    vision: true,
    // OpenAI's vision guide: 2,833 base plus 5,667 per 512-px tile, at most 8 tiles at high detail.
    imageTokens: 48_169,
    tools: true,
    pdf: true,
    routes: [
      { provider: 'openai', upstreamId: 'gpt-4o-mini', price: { inputPerMTok: 0.15, outputPerMTok: 0.6, cacheReadPerMTok: 0.075 }, source: OPENAI_PRICING },
    ],
  },
  {
    type: 'chat',
    id: 'openai/gpt-4.1',
    displayName: 'GPT-4.1',
    maker: 'openai',
    released: '2025-04-14',
    contextLength: 1_047_576,
    maxOutputTokens: 32_768,
    vision: true,
    tools: true,
    pdf: true,
    routes: [
      { provider: 'openai', upstreamId: 'gpt-4.1', price: { inputPerMTok: 2, outputPerMTok: 8, cacheReadPerMTok: 0.5 }, source: OPENAI_PRICING },
    ],
  },
  {
    type: 'chat',
    id: 'openai/gpt-4.1-mini',
    displayName: 'GPT-4.1 mini',
    maker: 'openai',
    released: '2025-04-14',
    contextLength: 1_047_576,
    maxOutputTokens: 32_768,
    vision: true,
    tools: true,
    pdf: true,
    routes: [
      { provider: 'openai', upstreamId: 'gpt-4.1-mini', price: { inputPerMTok: 0.4, outputPerMTok: 1.6, cacheReadPerMTok: 0.1 }, source: OPENAI_PRICING },
    ],
  },
  {
    type: 'chat',
    id: 'openai/o3',
    displayName: 'o3',
    maker: 'openai',
    released: '2025-04-16',
    contextLength: 200_000,
    maxOutputTokens: 100_000,
    vision: true,
    tools: true,
    pdf: true,
    routes: [
      { provider: 'openai', upstreamId: 'o3', price: { inputPerMTok: 2, outputPerMTok: 8, cacheReadPerMTok: 0.5 }, source: OPENAI_PRICING },
    ],
  },
  {
    type: 'chat',
    id: 'openai/gpt-5',
    displayName: 'GPT-5',
    maker: 'openai',
    released: '2025-08-07',
    contextLength: 400_000,
    maxOutputTokens: 128_000,
    vision: true,
    tools: true,
    pdf: true,
    routes: [
      { provider: 'openai', upstreamId: 'gpt-5', price: { inputPerMTok: 1.25, outputPerMTok: 10, cacheReadPerMTok: 0.125 }, source: OPENAI_PRICING },
    ],
  },
  {
    type: 'chat',
    id: 'openai/gpt-5-mini',
    displayName: 'GPT-5 mini',
    maker: 'openai',
    released: '2025-08-07',
    contextLength: 400_000,
    maxOutputTokens: 128_000,
    vision: true,
    tools: true,
    pdf: true,
    routes: [
      { provider: 'openai', upstreamId: 'gpt-5-mini', price: { inputPerMTok: 0.25, outputPerMTok: 2, cacheReadPerMTok: 0.025 }, source: OPENAI_PRICING },
    ],
  },
  {
    type: 'chat',
    id: 'openai/gpt-5-nano',
    displayName: 'GPT-5 nano',
    maker: 'openai',
    released: '2025-08-07',
    contextLength: 400_000,
    maxOutputTokens: 128_000,
    vision: true,
    tools: true,
    pdf: true,
    routes: [
      { provider: 'openai', upstreamId: 'gpt-5-nano', price: { inputPerMTok: 0.05, outputPerMTok: 0.4, cacheReadPerMTok: 0.005 }, source: OPENAI_PRICING },
    ],
  },
  {
    type: 'chat',
    id: 'openai/gpt-5.1',
    displayName: 'GPT-5.1',
    maker: 'openai',
    released: '2025-11-13',
    contextLength: 400_000,
    maxOutputTokens: 128_000,
    vision: true,
    tools: true,
    pdf: true,
    routes: [
      { provider: 'openai', upstreamId: 'gpt-5.1', price: { inputPerMTok: 1.25, outputPerMTok: 10, cacheReadPerMTok: 0.125 }, source: OPENAI_PRICING },
    ],
  },
  {
    type: 'chat',
    id: 'openai/gpt-5.2',
    displayName: 'GPT-5.2',
    maker: 'openai',
    released: '2025-12-11',
    contextLength: 400_000,
    maxOutputTokens: 128_000,
    vision: true,
    tools: true,
    pdf: true,
    routes: [
      { provider: 'openai', upstreamId: 'gpt-5.2', price: { inputPerMTok: 1.75, outputPerMTok: 14, cacheReadPerMTok: 0.175 }, source: OPENAI_PRICING },
    ],
  },
  {
    // Base tier: prompts up to 272K input tokens; longer prompts are billed at a higher rate.
    type: 'chat',
    id: 'openai/gpt-5.4',
    displayName: 'GPT-5.4',
    maker: 'openai',
    released: '2026-03-05',
    contextLength: 1_050_000,
    maxOutputTokens: 128_000,
    vision: true,
    tools: true,
    pdf: true,
    routes: [
      { provider: 'openai', upstreamId: 'gpt-5.4', price: { inputPerMTok: 2.5, outputPerMTok: 15, cacheReadPerMTok: 0.25 }, source: OPENAI_PRICING },
    ],
  },
  {
    // Base tier: prompts up to 272K input tokens ($10 / $45 per MTok above that).
    type: 'chat',
    id: 'openai/gpt-5.5',
    displayName: 'GPT-5.5',
    maker: 'openai',
    released: '2026-04-23',
    contextLength: 1_050_000,
    maxOutputTokens: 128_000,
    vision: true,
    tools: true,
    pdf: true,
    routes: [
      { provider: 'openai', upstreamId: 'gpt-5.5', price: { inputPerMTok: 5, outputPerMTok: 30, cacheReadPerMTok: 0.5 }, source: OPENAI_PRICING },
    ],
  },

  // ---- Open-weight gpt-oss (served by Groq, Together, Fireworks, Cerebras) ----
  {
    type: 'chat',
    id: 'openai/gpt-oss-120b',
    displayName: 'gpt-oss-120b',
    maker: 'openai',
    released: '2025-08-05',
    contextLength: 131_072,
    maxOutputTokens: 32_768,
    vision: false,
    tools: true,
    pdf: false,
    routes: [
      { provider: 'groq', upstreamId: 'openai/gpt-oss-120b', price: { inputPerMTok: 0.15, outputPerMTok: 0.6, cacheReadPerMTok: 0.075 }, source: GROQ_PRICING },
      { provider: 'together', upstreamId: 'openai/gpt-oss-120b', price: { inputPerMTok: 0.15, outputPerMTok: 0.6 }, source: TOGETHER_PRICING },
      { provider: 'fireworks', upstreamId: 'accounts/fireworks/models/gpt-oss-120b', price: { inputPerMTok: 0.15, outputPerMTok: 0.6 }, source: FIREWORKS_PRICING },
      { provider: 'cerebras', upstreamId: 'gpt-oss-120b', price: { inputPerMTok: 0.35, outputPerMTok: 0.75 }, source: cerebrasPage('openai-oss') },
    ],
  },
  {
    type: 'chat',
    id: 'openai/gpt-oss-20b',
    displayName: 'gpt-oss-20b',
    maker: 'openai',
    released: '2025-08-05',
    contextLength: 131_072,
    maxOutputTokens: 32_768,
    vision: false,
    tools: true,
    pdf: false,
    routes: [
      { provider: 'together', upstreamId: 'openai/gpt-oss-20b', price: { inputPerMTok: 0.05, outputPerMTok: 0.2 }, source: TOGETHER_PRICING },
      { provider: 'fireworks', upstreamId: 'accounts/fireworks/models/gpt-oss-20b', price: { inputPerMTok: 0.07, outputPerMTok: 0.3 }, source: FIREWORKS_PRICING },
      { provider: 'groq', upstreamId: 'openai/gpt-oss-20b', price: { inputPerMTok: 0.075, outputPerMTok: 0.3 }, source: GROQ_PRICING },
    ],
  },
  {
    type: 'chat',
    id: 'openai/gpt-oss-safeguard-20b',
    displayName: 'gpt-oss-safeguard-20b',
    maker: 'openai',
    released: '2025-10-29',
    contextLength: 131_072,
    maxOutputTokens: 65_536,
    vision: false,
    tools: true,
    pdf: false,
    routes: [
      { provider: 'groq', upstreamId: 'openai/gpt-oss-safeguard-20b', price: { inputPerMTok: 0.075, outputPerMTok: 0.3 }, source: GROQ_PRICING },
    ],
  },

  // ---- Images (/v1/images/generations and /v1/images/edits; prices per 1024x1024 image) ----
  {
    type: 'image',
    id: 'openai/gpt-image-1.5',
    displayName: 'GPT Image 1.5',
    maker: 'openai',
    released: '2025-12-16',
    imageEdit: true,
    maxReferenceImages: 16,
    qualities: ['low', 'medium', 'high'],
    routes: [
      {
        provider: 'openai',
        upstreamId: 'gpt-image-1.5',
        perImage: { low: 0.009, medium: 0.034, high: 0.133 },
        tokens: { textInputPerMTok: 5, imageInputPerMTok: 8, imageOutputPerMTok: 32 },
        source: OPENAI_PRICING,
      },
    ],
  },
  {
    type: 'image',
    id: 'openai/gpt-image-1-mini',
    displayName: 'GPT Image 1 mini',
    maker: 'openai',
    released: '2025-10-06',
    imageEdit: true,
    maxReferenceImages: 16,
    qualities: ['low', 'medium', 'high'],
    routes: [
      {
        provider: 'openai',
        upstreamId: 'gpt-image-1-mini',
        perImage: { low: 0.005, medium: 0.011, high: 0.036 },
        tokens: { textInputPerMTok: 2, imageInputPerMTok: 2.5, imageOutputPerMTok: 8 },
        source: OPENAI_PRICING,
      },
    ],
  },

  // ---- Video (/v1/videos, billed per second; `input_reference` takes a first frame) ----
  {
    type: 'video',
    id: 'openai/sora-2',
    displayName: 'Sora 2',
    maker: 'openai',
    released: '2025-10-06',
    durations: [4, 8, 12],
    defaultDuration: 4,
    resolutions: ['720p'],
    audio: true,
    imageInput: true,
    routes: [{ provider: 'openai', upstreamId: 'sora-2', perSecond: { '720p': 0.1 }, source: OPENAI_PRICING }],
  },
  {
    // 720x1280 / 1280x720 at $0.30/s. The 1024x1792 / 1792x1024 size ($0.50/s) has no VideoResolution value.
    type: 'video',
    id: 'openai/sora-2-pro',
    displayName: 'Sora 2 Pro',
    maker: 'openai',
    released: '2025-10-06',
    durations: [4, 8, 12],
    defaultDuration: 4,
    resolutions: ['720p'],
    audio: true,
    imageInput: true,
    routes: [{ provider: 'openai', upstreamId: 'sora-2-pro', perSecond: { '720p': 0.3 }, source: OPENAI_PRICING }],
  },

  // ---- Speech (/v1/audio/speech) ----
  {
    // $15 per 1M characters.
    type: 'audio',
    id: 'openai/tts-1',
    displayName: 'TTS-1',
    maker: 'openai',
    released: '2023-11-06',
    defaultVoice: 'alloy',
    routes: [{ provider: 'openai', upstreamId: 'tts-1', per1kChars: 0.015, source: OPENAI_PRICING }],
  },
  {
    // $30 per 1M characters.
    type: 'audio',
    id: 'openai/tts-1-hd',
    displayName: 'TTS-1 HD',
    maker: 'openai',
    released: '2023-11-06',
    defaultVoice: 'alloy',
    routes: [{ provider: 'openai', upstreamId: 'tts-1-hd', per1kChars: 0.03, source: OPENAI_PRICING }],
  },
  {
    // Token-billed ($0.60 / 1M text input, $12 / 1M audio output); OpenAI's own estimate is
    // $0.015 per minute of audio, about $0.015 per 1K characters of English text.
    type: 'audio',
    id: 'openai/gpt-4o-mini-tts',
    displayName: 'GPT-4o mini TTS',
    maker: 'openai',
    released: '2025-03-20',
    defaultVoice: 'alloy',
    routes: [{ provider: 'openai', upstreamId: 'gpt-4o-mini-tts', per1kChars: 0.015, source: OPENAI_PRICING }],
  },
] satisfies readonly CatalogModel[];

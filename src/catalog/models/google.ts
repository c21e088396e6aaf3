import type { CatalogModel } from '../types';
import { GEMINI_PRICING, falPage, replicatePage } from './sources';

/**
 * Google models. Chat goes to the Gemini API (generateContent); cache read = the context-caching
 * price of https://ai.google.dev/gemini-api/docs/pricing (implicit and explicit cache hits). A cache
 * is written at the input price, plus an hourly storage fee that has no field in TokenPrice. Gemini 2.0 Flash/Flash-Lite,
 * 2.5 Pro, 2.5 Flash and 3 Pro Preview were shut down before the catalog date, as was
 * gemini-2.5-flash-image (Nano Banana, 2026-10-02). Imagen, Nano Banana Pro and Veo are reached
 * through fal and Replicate.
 */
export const google = [
  // ---- Chat (Gemini API) ----
  {
    type: 'chat',
    id: 'google/gemini-2.5-flash-lite',
    displayName: 'Gemini 2.5 Flash-Lite',
    maker: 'google',
    released: '2025-07-22',
    contextLength: 1_048_576,
    maxOutputTokens: 65_536,
    vision: true,
    tools: true,
    pdf: true,
    routes: [
      { provider: 'gemini', upstreamId: 'gemini-2.5-flash-lite', price: { inputPerMTok: 0.1, outputPerMTok: 0.4, cacheReadPerMTok: 0.01 }, source: GEMINI_PRICING },
    ],
  },
  {
    type: 'chat',
    id: 'google/gemini-3-flash-preview',
    displayName: 'Gemini 3 Flash Preview',
    maker: 'google',
    released: '2025-12-17',
    contextLength: 1_048_576,
    maxOutputTokens: 65_536,
    vision: true,
    tools: true,
    pdf: true,
    routes: [
      { provider: 'gemini', upstreamId: 'gemini-3-flash-preview', price: { inputPerMTok: 0.5, outputPerMTok: 3, cacheReadPerMTok: 0.05 }, source: GEMINI_PRICING },
    ],
  },
  {
    // Tiered by prompt length: base tier (prompts <= 200K tokens) below; > 200K is $4 / $18, cache $0.40.
    type: 'chat',
    id: 'google/gemini-3.1-pro-preview',
    displayName: 'Gemini 3.1 Pro Preview',
    maker: 'google',
    released: '2026-02-19',
    contextLength: 1_048_576,
    maxOutputTokens: 65_536,
    vision: true,
    tools: true,
    pdf: true,
    routes: [
      { provider: 'gemini', upstreamId: 'gemini-3.1-pro-preview', price: { inputPerMTok: 2, outputPerMTok: 12, cacheReadPerMTok: 0.2 }, source: GEMINI_PRICING },
    ],
  },
  {
    type: 'chat',
    id: 'google/gemini-3.1-flash-lite',
    displayName: 'Gemini 3.1 Flash-Lite',
    maker: 'google',
    released: '2026-05-07',
    contextLength: 1_048_576,
    maxOutputTokens: 65_536,
    vision: true,
    tools: true,
    pdf: true,
    routes: [
      { provider: 'gemini', upstreamId: 'gemini-3.1-flash-lite', price: { inputPerMTok: 0.25, outputPerMTok: 1.5, cacheReadPerMTok: 0.025 }, source: GEMINI_PRICING },
    ],
  },
  {
    type: 'chat',
    id: 'google/gemini-3.5-flash',
    displayName: 'Gemini 3.5 Flash',
    maker: 'google',
    released: '2026-05-19',
    contextLength: 1_048_576,
    maxOutputTokens: 65_536,
    vision: true,
    tools: true,
    pdf: true,
    routes: [
      { provider: 'gemini', upstreamId: 'gemini-3.5-flash', price: { inputPerMTok: 1.5, outputPerMTok: 9, cacheReadPerMTok: 0.15 }, source: GEMINI_PRICING },
    ],
  },
  {
    type: 'chat',
    id: 'google/gemini-3.7-flash',
    displayName: 'Gemini 3.7 Flash',
    maker: 'google',
    released: '2026-08-13',
    contextLength: 1_048_576,
    maxOutputTokens: 65_536,
    vision: true,
    tools: true,
    pdf: true,
    routes: [
      { provider: 'gemini', upstreamId: 'gemini-3.7-flash', price: { inputPerMTok: 1.5, outputPerMTok: 7.5, cacheReadPerMTok: 0.15 }, source: GEMINI_PRICING },
    ],
  },
  {
    // Introductory Standard price through 2026-12-31 (published 2027 rate: $1.50 / $7.50, cache $0.15).
    type: 'chat',
    id: 'google/gemini-3.8-flash',
    displayName: 'Gemini 3.8 Flash',
    maker: 'google',
    released: '2026-09-02',
    contextLength: 1_048_576,
    maxOutputTokens: 65_536,
    vision: true,
    tools: true,
    pdf: true,
    routes: [
      { provider: 'gemini', upstreamId: 'gemini-3.8-flash', price: { inputPerMTok: 0.75, outputPerMTok: 3.75, cacheReadPerMTok: 0.075 }, source: GEMINI_PRICING },
    ],
  },

  // ---- Images (fal, Replicate) ----
  {
    type: 'image',
    id: 'google/imagen-4',
    displayName: 'Imagen 4',
    maker: 'google',
    released: '2025-05-20',
    imageEdit: false,
    maxReferenceImages: 0,
    routes: [
      { provider: 'fal', upstreamId: 'fal-ai/imagen4/preview', perImage: 0.04, source: falPage('fal-ai/imagen4/preview', '2026-01-26') },
      { provider: 'replicate', upstreamId: 'google/imagen-4', perImage: 0.04, source: replicatePage('google/imagen-4', '2026-01-26') },
    ],
  },
  {
    type: 'image',
    id: 'google/imagen-4-fast',
    displayName: 'Imagen 4 Fast',
    maker: 'google',
    released: '2025-06-24',
    imageEdit: false,
    maxReferenceImages: 0,
    routes: [
      { provider: 'fal', upstreamId: 'fal-ai/imagen4/preview/fast', perImage: 0.02, source: falPage('fal-ai/imagen4/preview/fast') },
      { provider: 'replicate', upstreamId: 'google/imagen-4-fast', perImage: 0.02, source: replicatePage('google/imagen-4-fast') },
    ],
  },
  {
    type: 'image',
    id: 'google/imagen-4-ultra',
    displayName: 'Imagen 4 Ultra',
    maker: 'google',
    released: '2025-05-20',
    imageEdit: false,
    maxReferenceImages: 0,
    routes: [
      { provider: 'fal', upstreamId: 'fal-ai/imagen4/preview/ultra', perImage: 0.06, source: falPage('fal-ai/imagen4/preview/ultra') },
      { provider: 'replicate', upstreamId: 'google/imagen-4-ultra', perImage: 0.06, source: replicatePage('google/imagen-4-ultra') },
    ],
  },
  {
    // Nano Banana Pro. 1K/2K price; 4K output costs $0.30. Up to 14 reference images.
    type: 'image',
    id: 'google/gemini-3-pro-image',
    displayName: 'Nano Banana Pro (Gemini 3 Pro Image)',
    maker: 'google',
    released: '2025-11-20',
    imageEdit: true,
    maxReferenceImages: 14,
    routes: [
      {
        provider: 'fal',
        upstreamId: 'fal-ai/nano-banana-pro',
        editUpstreamId: 'fal-ai/nano-banana-pro/edit',
        perImage: 0.15,
        source: falPage('fal-ai/nano-banana-pro'),
      },
      { provider: 'replicate', upstreamId: 'google/nano-banana-pro', referenceInput: { field: 'image_input', list: true }, perImage: 0.15, source: replicatePage('google/nano-banana-pro') },
    ],
  },

  // ---- Video (fal; image-to-video variants live at `<id>/image-to-video`) ----
  {
    // Audio on (default): $0.40/s; audio off: $0.20/s.
    type: 'video',
    id: 'google/veo-3',
    displayName: 'Veo 3',
    maker: 'google',
    released: '2025-05-20',
    durations: [4, 6, 8],
    defaultDuration: 8,
    resolutions: ['720p', '1080p'],
    audio: true,
    imageInput: true,
    routes: [
      {
        provider: 'fal',
        upstreamId: 'fal-ai/veo3',
        perSecond: { '720p': 0.4, '1080p': 0.4 },
        source: falPage('fal-ai/veo3'),
        // https://fal.ai/models/fal-ai/veo3/image-to-video: image_url, aspect_ratio auto/16:9/9:16, no seed.
        endpoints: { image: { upstreamId: 'fal-ai/veo3/image-to-video', lacks: ['seed'] } },
      },
    ],
  },
  {
    // Audio on (default).
    type: 'video',
    id: 'google/veo-3-fast',
    displayName: 'Veo 3 Fast',
    maker: 'google',
    released: '2025-07-17',
    durations: [4, 6, 8],
    defaultDuration: 8,
    resolutions: ['720p', '1080p'],
    audio: true,
    imageInput: true,
    routes: [
      {
        provider: 'fal',
        upstreamId: 'fal-ai/veo3/fast',
        perSecond: { '720p': 0.15, '1080p': 0.15 },
        source: falPage('fal-ai/veo3/fast'),
        // https://fal.ai/models/fal-ai/veo3/fast/image-to-video: prompt, image_url (required), aspect_ratio
        // auto/16:9/9:16, duration, generate_audio, resolution 720p/1080p; no seed (as Veo 3's image-to-video).
        endpoints: { image: { upstreamId: 'fal-ai/veo3/fast/image-to-video', lacks: ['seed'] } },
      },
    ],
  },
  {
    // Audio on (default): $0.40/s at 720p/1080p, $0.60/s at 4K; audio off $0.20 / $0.40.
    type: 'video',
    id: 'google/veo-3.1',
    displayName: 'Veo 3.1',
    maker: 'google',
    released: '2025-10-15',
    durations: [4, 6, 8],
    defaultDuration: 8,
    resolutions: ['720p', '1080p', '4k'],
    audio: true,
    imageInput: true,
    routes: [
      {
        provider: 'fal',
        upstreamId: 'fal-ai/veo3.1',
        perSecond: { '720p': 0.4, '1080p': 0.4, '4k': 0.6 },
        source: falPage('fal-ai/veo3.1'),
        // https://fal.ai/docs/model-api-reference/video-generation-api/veo3.1-image-to-video (image_url, seed),
        // .../veo3.1-first-last-frame-to-video (first_frame_url, last_frame_url; no seed listed),
        // .../veo3.1-reference-to-video (image_urls; no seed). Same per-second prices on each.
        endpoints: {
          image: { upstreamId: 'fal-ai/veo3.1/image-to-video' },
          firstLast: { upstreamId: 'fal-ai/veo3.1/first-last-frame-to-video', first: 'first_frame_url', last: 'last_frame_url', lacks: ['seed'] },
          references: { upstreamId: 'fal-ai/veo3.1/reference-to-video', field: 'image_urls', max: 3, lacks: ['seed'] },
        },
      },
    ],
  },
  {
    // Audio on (default).
    type: 'video',
    id: 'google/veo-3.1-fast',
    displayName: 'Veo 3.1 Fast',
    maker: 'google',
    released: '2025-10-15',
    durations: [4, 6, 8],
    defaultDuration: 8,
    resolutions: ['720p', '1080p'],
    audio: true,
    imageInput: true,
    routes: [
      {
        provider: 'fal',
        upstreamId: 'fal-ai/veo3.1/fast',
        perSecond: { '720p': 0.15, '1080p': 0.15 },
        source: falPage('fal-ai/veo3.1/fast'),
        // https://fal.ai/models/fal-ai/veo3.1/fast/first-last-frame-to-video (first_frame_url, last_frame_url);
        // fal lists fal-ai/veo3.1/fast/image-to-video beside it. No reference endpoint for Fast.
        endpoints: {
          image: { upstreamId: 'fal-ai/veo3.1/fast/image-to-video' },
          firstLast: { upstreamId: 'fal-ai/veo3.1/fast/first-last-frame-to-video', first: 'first_frame_url', last: 'last_frame_url', lacks: ['seed'] },
        },
      },
    ],
  },
  {
    // 2,048 tokens per input; `outputDimensionality` 128 to 3,072 (Google recommends 768, 1,536, 3,072).
    type: 'embedding',
    id: 'google/gemini-embedding-001',
    displayName: 'Gemini Embedding',
    maker: 'google',
    released: '2025-07-14',
    maxInputTokens: 2048,
    defaultDimensions: 3072,
    minDimensions: 128,
    maxDimensions: 3072,
    routes: [{ provider: 'gemini', upstreamId: 'gemini-embedding-001', inputPerMTok: 0.15, source: GEMINI_PRICING }],
  },
] satisfies readonly CatalogModel[];

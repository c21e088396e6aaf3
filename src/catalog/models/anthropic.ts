import type { CatalogModel } from '../types';
import { ANTHROPIC_PRICING } from './sources';

/**
 * Claude models on the Claude API (Messages). Prices from the Claude API pricing page
 * (https://platform.claude.com/docs/en/about-claude/pricing, "Model pricing" and "Prompt
 * caching"): cache write = "5m cache writes" (1.25 times input), cache write 1h = "1h cache
 * writes" (2 times input), cache read = "cache hits and refreshes" (0.1 times input).
 * All take image and PDF input.
 * Retired on the Claude API before the catalog date and therefore not listed:
 * Claude Haiku 3.5 and Sonnet 3.7 (2026-02-19), Sonnet 4 and Opus 4 (2026-06-15), Opus 4.1.
 */
export const anthropic = [
  {
    type: 'chat',
    id: 'anthropic/claude-haiku-4-5',
    displayName: 'Claude Haiku 4.5',
    maker: 'anthropic',
    released: '2025-10-15',
    contextLength: 200_000,
    maxOutputTokens: 64_000,
    vision: true,
    tools: true,
    pdf: true,
    routes: [
      {
        provider: 'anthropic',
        upstreamId: 'claude-haiku-4-5-20251001',
        price: { inputPerMTok: 1, outputPerMTok: 5, cacheWritePerMTok: 1.25, cacheWrite1hPerMTok: 2, cacheReadPerMTok: 0.1 },
        source: ANTHROPIC_PRICING,
      },
    ],
  },
  {
    // Base tier (prompts up to 200K tokens); the 1M-context beta bills longer prompts at $6 / $22.50.
    type: 'chat',
    id: 'anthropic/claude-sonnet-4-5',
    displayName: 'Claude Sonnet 4.5',
    maker: 'anthropic',
    released: '2025-09-29',
    contextLength: 200_000,
    maxOutputTokens: 64_000,
    vision: true,
    tools: true,
    pdf: true,
    routes: [
      {
        provider: 'anthropic',
        upstreamId: 'claude-sonnet-4-5-20250929',
        price: { inputPerMTok: 3, outputPerMTok: 15, cacheWritePerMTok: 3.75, cacheWrite1hPerMTok: 6, cacheReadPerMTok: 0.3 },
        source: ANTHROPIC_PRICING,
      },
    ],
  },
  {
    type: 'chat',
    id: 'anthropic/claude-opus-4-5',
    displayName: 'Claude Opus 4.5',
    maker: 'anthropic',
    released: '2025-11-24',
    contextLength: 200_000,
    maxOutputTokens: 64_000,
    vision: true,
    tools: true,
    pdf: true,
    routes: [
      {
        provider: 'anthropic',
        upstreamId: 'claude-opus-4-5-20251101',
        price: { inputPerMTok: 5, outputPerMTok: 25, cacheWritePerMTok: 6.25, cacheWrite1hPerMTok: 10, cacheReadPerMTok: 0.5 },
        source: ANTHROPIC_PRICING,
      },
    ],
  },
  {
    type: 'chat',
    id: 'anthropic/claude-opus-4-6',
    displayName: 'Claude Opus 4.6',
    maker: 'anthropic',
    released: '2026-02-05',
    contextLength: 1_000_000,
    maxOutputTokens: 128_000,
    vision: true,
    tools: true,
    pdf: true,
    routes: [
      {
        provider: 'anthropic',
        upstreamId: 'claude-opus-4-6',
        price: { inputPerMTok: 5, outputPerMTok: 25, cacheWritePerMTok: 6.25, cacheWrite1hPerMTok: 10, cacheReadPerMTok: 0.5 },
        source: ANTHROPIC_PRICING,
      },
    ],
  },
  {
    type: 'chat',
    id: 'anthropic/claude-sonnet-4-6',
    displayName: 'Claude Sonnet 4.6',
    maker: 'anthropic',
    released: '2026-02-17',
    contextLength: 1_000_000,
    maxOutputTokens: 64_000,
    vision: true,
    tools: true,
    pdf: true,
    routes: [
      {
        provider: 'anthropic',
        upstreamId: 'claude-sonnet-4-6',
        price: { inputPerMTok: 3, outputPerMTok: 15, cacheWritePerMTok: 3.75, cacheWrite1hPerMTok: 6, cacheReadPerMTok: 0.3 },
        source: ANTHROPIC_PRICING,
      },
    ],
  },
  {
    type: 'chat',
    id: 'anthropic/claude-opus-4-7',
    displayName: 'Claude Opus 4.7',
    maker: 'anthropic',
    released: '2026-04-16',
    contextLength: 1_000_000,
    maxOutputTokens: 128_000,
    vision: true,
    tools: true,
    pdf: true,
    routes: [
      {
        provider: 'anthropic',
        upstreamId: 'claude-opus-4-7',
        price: { inputPerMTok: 5, outputPerMTok: 25, cacheWritePerMTok: 6.25, cacheWrite1hPerMTok: 10, cacheReadPerMTok: 0.5 },
        source: ANTHROPIC_PRICING,
      },
    ],
  },
  {
    type: 'chat',
    id: 'anthropic/claude-opus-4-8',
    displayName: 'Claude Opus 4.8',
    maker: 'anthropic',
    released: '2026-05-28',
    contextLength: 1_000_000,
    maxOutputTokens: 128_000,
    vision: true,
    tools: true,
    pdf: true,
    routes: [
      {
        provider: 'anthropic',
        upstreamId: 'claude-opus-4-8',
        price: { inputPerMTok: 5, outputPerMTok: 25, cacheWritePerMTok: 6.25, cacheWrite1hPerMTok: 10, cacheReadPerMTok: 0.5 },
        source: ANTHROPIC_PRICING,
      },
    ],
  },
  {
    type: 'chat',
    id: 'anthropic/claude-fable-5',
    displayName: 'Claude Fable 5',
    maker: 'anthropic',
    released: '2026-06-09',
    contextLength: 1_000_000,
    maxOutputTokens: 128_000,
    vision: true,
    tools: true,
    pdf: true,
    routes: [
      {
        provider: 'anthropic',
        upstreamId: 'claude-fable-5',
        price: { inputPerMTok: 10, outputPerMTok: 50, cacheWritePerMTok: 12.5, cacheWrite1hPerMTok: 20, cacheReadPerMTok: 1 },
        source: ANTHROPIC_PRICING,
      },
    ],
  },
  {
    type: 'chat',
    id: 'anthropic/claude-sonnet-5',
    displayName: 'Claude Sonnet 5',
    maker: 'anthropic',
    released: '2026-06-30',
    contextLength: 1_000_000,
    maxOutputTokens: 128_000,
    vision: true,
    tools: true,
    pdf: true,
    routes: [
      {
        provider: 'anthropic',
        upstreamId: 'claude-sonnet-5',
        price: { inputPerMTok: 2, outputPerMTok: 10, cacheWritePerMTok: 2.5, cacheWrite1hPerMTok: 4, cacheReadPerMTok: 0.2 },
        source: ANTHROPIC_PRICING,
      },
    ],
  },
  {
    type: 'chat',
    id: 'anthropic/claude-opus-5',
    displayName: 'Claude Opus 5',
    maker: 'anthropic',
    released: '2026-07-24',
    contextLength: 1_000_000,
    maxOutputTokens: 128_000,
    vision: true,
    tools: true,
    pdf: true,
    routes: [
      {
        provider: 'anthropic',
        upstreamId: 'claude-opus-5',
        price: { inputPerMTok: 5, outputPerMTok: 25, cacheWritePerMTok: 6.25, cacheWrite1hPerMTok: 10, cacheReadPerMTok: 0.5 },
        source: ANTHROPIC_PRICING,
      },
    ],
  },
  {
    // Cache hits are 0.05x input on this model (not the usual 0.1x).
    type: 'chat',
    id: 'anthropic/claude-opus-5-5',
    displayName: 'Claude Opus 5.5',
    maker: 'anthropic',
    released: '2026-09-22',
    contextLength: 1_000_000,
    maxOutputTokens: 128_000,
    vision: true,
    tools: true,
    pdf: true,
    routes: [
      {
        provider: 'anthropic',
        upstreamId: 'claude-opus-5-5',
        price: { inputPerMTok: 4, outputPerMTok: 20, cacheWritePerMTok: 5, cacheWrite1hPerMTok: 8, cacheReadPerMTok: 0.2 },
        source: ANTHROPIC_PRICING,
      },
    ],
  },
] satisfies readonly CatalogModel[];

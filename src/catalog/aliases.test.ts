import { describe, expect, it } from 'vitest';
import { aliasKey, buildAliasIndex, editDistance, matchAlias } from './aliases';
import { MODELS } from './models';
import type { ChatModel } from './types';

const SLUGS = MODELS.map((model) => model.id);
const index = buildAliasIndex(MODELS);

describe('buildAliasIndex over the catalog (D32)', () => {
  it('gives no two catalog models the same alias, so every form of every slug names one model', () => {
    const shared = [...index.entries()].filter(([, ids]) => ids.length > 1);
    expect(shared).toEqual([]);
  });

  it.each([
    ['anthropic/claude-sonnet-4-5', 'anthropic/claude-sonnet-4-5'],
    ['claude-sonnet-4-5', 'anthropic/claude-sonnet-4-5'],
    ['claude-sonnet-4-5-20250929', 'anthropic/claude-sonnet-4-5'],
    ['anthropic/claude-sonnet-4-5-20250929', 'anthropic/claude-sonnet-4-5'],
    ['anthropic/claude-sonnet-4.5', 'anthropic/claude-sonnet-4-5'],
    ['claude-sonnet-4.5', 'anthropic/claude-sonnet-4-5'],
    ['gpt-4o-mini', 'openai/gpt-4o-mini'],
    ['openai/gpt-5-1', 'openai/gpt-5.1'],
    ['GPT-5.1', 'openai/gpt-5.1'],
    ['gemini-2.5-flash-lite', 'google/gemini-2.5-flash-lite'],
    ['grok-4-0709', 'xai/grok-4'],
    ['x-ai/grok-4', 'xai/grok-4'],
    ['meta-llama/llama-3.3-70b-instruct', 'meta/llama-3.3-70b-instruct'],
    ['mistralai/mistral-large-3', 'mistral/mistral-large-3'],
    ['mistral-large-2512', 'mistral/mistral-large-3'],
    ['eleven_flash_v2_5', 'elevenlabs/eleven-flash-v2-5'],
    ['gpt-image-1-mini', 'openai/gpt-image-1-mini'],
    ['sora-2', 'openai/sora-2'],
  ])('resolves %s to %s', (id, slug) => {
    expect(matchAlias(index, SLUGS, id)).toEqual({ ok: true, id: slug });
  });
});

describe('matchAlias when no single model answers', () => {
  const model = (id: string, upstreamId: string): ChatModel => ({
    type: 'chat',
    id,
    displayName: id,
    maker: id.split('/')[0]!,
    released: '2025-01-01',
    contextLength: 1000,
    maxOutputTokens: 100,
    vision: false,
    tools: false,
    pdf: false,
    routes: [{ provider: 'openai', upstreamId, price: { inputPerMTok: 1, outputPerMTok: 1 }, source: { url: 'https://example.com', readOn: '2025-01-01' } }],
  });

  it('names every model an ambiguous alias could mean', () => {
    // Two makers' models with one name: the bare name is theirs both.
    const models = [model('openai/tiny-1', 'tiny-1'), model('acme/tiny-1', 'acme-tiny')];
    const result = matchAlias(buildAliasIndex(models), models.map((m) => m.id), 'tiny-1');
    expect(result).toEqual({ ok: false, reason: 'ambiguous', candidates: ['openai/tiny-1', 'acme/tiny-1'] });
    expect(matchAlias(buildAliasIndex(models), [], 'ACME/Tiny-1')).toEqual({ ok: true, id: 'acme/tiny-1' });
  });

  it.each([
    ['claude-sonet-4-5', 'anthropic/claude-sonnet-4-5'],
    ['anthropic/claude-sonnet-4-5-latest', 'anthropic/claude-sonnet-4-5'],
    ['gpt-4o-mimi', 'openai/gpt-4o-mini'],
  ])('names the closest slugs of an unknown id %s, the nearest first (%s)', (id, nearest) => {
    const result = matchAlias(index, SLUGS, id);
    expect(result).toMatchObject({ ok: false, reason: 'unknown' });
    const closest = result.ok ? [] : result.reason === 'unknown' ? result.closest : [];
    expect(closest[0]).toBe(nearest);
    expect(closest.length).toBeLessThanOrEqual(3);
  });

  it('names no slug for an id like none of them, nor for an absurdly long one', () => {
    expect(matchAlias(index, SLUGS, 'nobody/nothing-at-all-here')).toEqual({ ok: false, reason: 'unknown', closest: [] });
    expect(matchAlias(index, SLUGS, 'gpt-4o-mini'.repeat(1000))).toEqual({ ok: false, reason: 'unknown', closest: [] });
  });
});

describe('aliasKey and editDistance', () => {
  it('reads dots between digits and underscores as dashes, and any case as lower', () => {
    expect(aliasKey('Anthropic/Claude-Sonnet-4.5')).toBe('anthropic/claude-sonnet-4-5');
    expect(aliasKey('eleven_turbo_v2_5')).toBe('eleven-turbo-v2-5');
    // A dot that is not between digits stays.
    expect(aliasKey('a.b-1.x')).toBe('a.b-1.x');
  });

  it.each([
    ['', 'abc', 3],
    ['kitten', 'sitting', 3],
    ['same', 'same', 0],
  ])('distance(%s, %s) = %i', (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
  });
});

import type { ProviderId } from '../providers/ids';
import type { CatalogModel } from './types';

/**
 * D32: model ids as clients write them. Besides its slug, a model answers to its name without the
 * maker's prefix (`claude-sonnet-4-5`), to the id its maker's own API takes (`claude-sonnet-4-5-20250929`,
 * `grok-4-0709`), with or without the prefix, and to the spellings of other gateways: dots or
 * underscores for the dashes in version numbers (`anthropic/claude-sonnet-4.5`, `eleven_flash_v2_5`),
 * any letter case, and their names for some makers (`x-ai/`, `meta-llama/`).
 */

/** Other gateways' names for a maker's prefix. */
const MAKER_SPELLINGS: Record<string, string> = {
  'x-ai': 'xai',
  'z-ai': 'zai',
  'meta-llama': 'meta',
  mistralai: 'mistral',
  stabilityai: 'stability-ai',
  moonshot: 'moonshotai',
};

/** The provider that is the maker's own API, where its id differs from the maker's. */
const OWN_PROVIDER: Record<string, ProviderId> = { google: 'gemini' };

/** The form every alias is compared in: lower case, `_` and a `.` between digits read as `-`. */
export function aliasKey(id: string): string {
  const lower = id.trim().toLowerCase().replaceAll('_', '-');
  const slash = lower.indexOf('/');
  const maker = slash > 0 ? lower.slice(0, slash) : '';
  const name = (slash > 0 ? lower.slice(slash + 1) : lower).replace(/(\d)\.(?=\d)/g, '$1-');
  return slash > 0 ? `${MAKER_SPELLINGS[maker] ?? maker}/${name}` : name;
}

/** Every key one model answers to. */
function keysOf(model: CatalogModel): Set<string> {
  const name = model.id.slice(model.id.indexOf('/') + 1);
  const own = OWN_PROVIDER[model.maker] ?? model.maker;
  const makerIds = model.routes.filter((route) => route.provider === own && !route.upstreamId.includes('/')).map((route) => route.upstreamId);
  return new Set([model.id, name, ...makerIds, ...makerIds.map((id) => `${model.maker}/${id}`)].map(aliasKey));
}

/** Alias key -> the ids of every model answering to it (more than one: ambiguous). */
export type AliasIndex = Map<string, string[]>;

export function buildAliasIndex(models: readonly CatalogModel[]): AliasIndex {
  const index: AliasIndex = new Map();
  for (const model of models) {
    for (const key of keysOf(model)) index.set(key, [...(index.get(key) ?? []), model.id]);
  }
  return index;
}

export type AliasMatch = { ok: true; id: string } | { ok: false; reason: 'ambiguous'; candidates: string[] } | { ok: false; reason: 'unknown'; closest: string[] };

/** How many slugs an unknown id's 404 names at most. */
const MAX_SUGGESTIONS = 3;
/** Longer ids get no suggestions: no real id is this long, and the distances cost length times slugs. */
const MAX_SUGGESTED_LENGTH = 128;

/** The one model `id` names, or why none: several answer to it, or none (with the closest slugs). */
export function matchAlias(index: AliasIndex, slugs: readonly string[], id: string): AliasMatch {
  const key = aliasKey(id);
  const found = index.get(key);
  if (found?.length === 1) return { ok: true, id: found[0]! };
  if (found) return { ok: false, reason: 'ambiguous', candidates: found.slice(0, MAX_SUGGESTIONS) };
  return { ok: false, reason: 'unknown', closest: key.length > MAX_SUGGESTED_LENGTH ? [] : closestSlugs(slugs, key) };
}

/**
 * The slugs nearest `key` by edit distance, on the whole slug or on the name without the prefix
 * (whichever is nearer), among those within half the key's length: a typo or a missing word finds
 * its model, an unrelated id finds none.
 */
function closestSlugs(slugs: readonly string[], key: string): string[] {
  const bare = key.slice(key.indexOf('/') + 1);
  const limit = Math.max(2, Math.floor(bare.length / 2));
  return slugs
    .map((slug) => {
      const normal = aliasKey(slug);
      return { slug, distance: Math.min(editDistance(key, normal), editDistance(bare, normal.slice(normal.indexOf('/') + 1))) };
    })
    .filter((entry) => entry.distance <= limit)
    .sort((a, b) => a.distance - b.distance || a.slug.localeCompare(b.slug))
    .slice(0, MAX_SUGGESTIONS)
    .map((entry) => entry.slug);
}

/** Levenshtein distance: the fewest single-character edits from `a` to `b`. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

import { describe, it, expect } from 'vitest';
import { PROVIDER_IDS } from '../providers/registry';
import { MODELS } from './models';
import type { CatalogModel, PriceSource } from './types';

/** Magnitude cross-checks on the catalog: a price off by 1000 (per token vs per MTok, cents vs dollars) fails here. */

const SLUG = /^[a-z0-9-]+\/[a-z0-9.\-]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

const isDate = (value: string) => DATE.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));
const prices = (price: number | Partial<Record<string, number>>): number[] =>
  typeof price === 'number' ? [price] : Object.values(price).filter((value): value is number => value !== undefined);
const rows = MODELS.map((model) => [model.id, model] as [string, CatalogModel]);

describe('catalog shape', () => {
  it('has at least 120 models from at least 12 makers', () => {
    expect(MODELS.length).toBeGreaterThanOrEqual(120);
    expect(new Set(MODELS.map((model) => model.maker)).size).toBeGreaterThanOrEqual(12);
  });

  it('has unique ids', () => {
    const seen = new Set<string>();
    const duplicates = MODELS.map((model) => model.id).filter((id) => (seen.has(id) ? true : (seen.add(id), false)));
    expect(duplicates).toEqual([]);
  });

  // The local server's models are discovered from it at run time (src/catalog/local.ts), not listed here.
  it.each(PROVIDER_IDS.filter((id) => id !== 'local_openai'))('provider %s serves at least one model', (provider) => {
    expect(MODELS.some((model) => model.routes.some((route) => route.provider === provider))).toBe(true);
  });
});

describe.each(rows)('%s', (id, model) => {
  it('has a lower-case <maker>/<model> slug matching its maker', () => {
    expect(id).toMatch(SLUG);
    expect(id.split('/')[0]).toBe(model.maker);
    expect(model.displayName.length).toBeGreaterThan(0);
  });

  it('has a valid release date', () => {
    expect(isDate(model.released)).toBe(true);
  });

  it('has at least one route, each with an https source read on a real date', () => {
    expect(model.routes.length).toBeGreaterThan(0);
    for (const route of model.routes) {
      const source: PriceSource = route.source;
      expect(source.url).toMatch(/^https:\/\/\S+$/);
      expect(isDate(source.readOn)).toBe(true);
      expect(route.upstreamId.length).toBeGreaterThan(0);
      expect(PROVIDER_IDS).toContain(route.provider);
    }
  });

  it('has prices of the right magnitude for its type', () => {
    switch (model.type) {
      case 'chat': {
        expect(model.contextLength).toBeGreaterThan(0);
        expect(model.maxOutputTokens).toBeGreaterThan(0);
        expect(model.maxOutputTokens).toBeLessThanOrEqual(model.contextLength);
        for (const { price } of model.routes) {
          // The demo model is free (its limit is a rate, not a price).
          if (model.demo !== undefined) {
            expect(price).toEqual({ inputPerMTok: 0, outputPerMTok: 0 });
            continue;
          }
          // USD per million tokens.
          expect(price.inputPerMTok).toBeGreaterThan(0.01);
          expect(price.inputPerMTok).toBeLessThanOrEqual(200);
          expect(price.outputPerMTok).toBeGreaterThanOrEqual(0);
          expect(price.outputPerMTok).toBeGreaterThan(0.01);
          expect(price.outputPerMTok).toBeLessThanOrEqual(200);
          if (price.cacheReadPerMTok !== undefined) {
            expect(price.cacheReadPerMTok).toBeGreaterThan(0);
            expect(price.cacheReadPerMTok).toBeLessThan(price.inputPerMTok);
          }
          if (price.cacheWritePerMTok !== undefined) {
            expect(price.cacheWritePerMTok).toBeGreaterThan(0);
            expect(price.cacheWritePerMTok).toBeLessThanOrEqual(200);
          }
        }
        break;
      }
      case 'image': {
        expect(model.maxReferenceImages).toBeGreaterThanOrEqual(0);
        if (model.imageEdit) expect(model.maxReferenceImages).toBeGreaterThan(0);
        else expect(model.maxReferenceImages).toBe(0);
        for (const route of model.routes) {
          const perImage = prices(route.perImage);
          expect(perImage.length).toBeGreaterThan(0);
          // USD per image.
          for (const price of perImage) {
            expect(price).toBeGreaterThanOrEqual(0.001);
            expect(price).toBeLessThanOrEqual(2);
          }
          if (typeof route.perImage !== 'number') {
            expect(model.qualities).toBeDefined();
            for (const quality of Object.keys(route.perImage)) expect(model.qualities).toContain(quality);
          }
        }
        break;
      }
      case 'video': {
        expect(model.durations.length).toBeGreaterThan(0);
        expect(model.durations).toContain(model.defaultDuration);
        expect(model.resolutions.length).toBeGreaterThan(0);
        for (const route of model.routes) {
          const perSecond = prices(route.perSecond);
          expect(perSecond.length).toBeGreaterThan(0);
          // USD per second of video.
          for (const price of perSecond) {
            expect(price).toBeGreaterThanOrEqual(0.01);
            expect(price).toBeLessThanOrEqual(3);
          }
          if (typeof route.perSecond !== 'number') {
            for (const resolution of Object.keys(route.perSecond)) expect(model.resolutions).toContain(resolution);
            for (const resolution of model.resolutions) expect(route.perSecond[resolution]).toBeDefined();
          }
        }
        break;
      }
      case 'audio': {
        expect(model.defaultVoice.length).toBeGreaterThan(0);
        for (const route of model.routes) {
          // USD per 1,000 characters.
          expect(route.per1kChars).toBeGreaterThanOrEqual(0.005);
          expect(route.per1kChars).toBeLessThanOrEqual(1);
        }
        break;
      }
    }
  });
});

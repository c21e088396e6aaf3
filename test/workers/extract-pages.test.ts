import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';

import { findScraper, SCRAPERS } from '../../src/web/extract/index.ts';
import type { DomDocument } from '../../src/web/structured/dom.ts';
import { PAGES } from '../fixtures/extract/pages.generated.ts';

/** Parses the way the extract job does: linkedom's parseHTML on the fetched body. */
function parse(html: string): DomDocument {
  return (parseHTML(html) as { document: DomDocument }).document;
}

describe('scrapers on saved pages', () => {
  it.each(PAGES.map((page) => ({ ...page, label: `${page.scraper} reads ${page.name} (${page.kind})` })))(
    '$label',
    ({ scraper: name, url, html, expected }) => {
      const scraper = findScraper(name);
      if (!scraper) throw new Error(`no scraper named ${name}`);
      expect(scraper.extract({ html, url, document: parse(html) })).toEqual(expected);
    },
  );

  it('has at least two pages for every scraper in the catalog', () => {
    for (const scraper of SCRAPERS) {
      expect(PAGES.filter((page) => page.scraper === scraper.name).length, scraper.name).toBeGreaterThanOrEqual(2);
    }
  });

  it('writes down flat records: scalars or arrays of scalars, nothing empty or null', () => {
    const isScalar = (value: unknown): boolean => ['string', 'number', 'boolean'].includes(typeof value) && value !== '';
    for (const page of PAGES) {
      for (const record of page.expected) {
        for (const [key, value] of Object.entries(record)) {
          const ok = Array.isArray(value) ? value.length > 0 && value.every(isScalar) : isScalar(value);
          expect(ok, `${page.scraper}/${page.name} ${key}`).toBe(true);
        }
      }
    }
  });

  it('returns no records for a page without anything to extract', () => {
    const html = '<html><head><title>Hello</title></head><body><p>Nothing here.</p></body></html>';
    for (const scraper of SCRAPERS) {
      expect(scraper.extract({ html, url: 'https://example.com/', document: parse(html) }), scraper.name).toEqual([]);
    }
  });
});

describe('scraper catalog', () => {
  it('spans the four categories with unique names and filled-in entries', () => {
    expect(new Set(SCRAPERS.map((scraper) => scraper.name)).size).toBe(SCRAPERS.length);
    expect(new Set(SCRAPERS.map((scraper) => scraper.category))).toEqual(new Set(['ecommerce', 'business', 'local', 'real-estate']));
    for (const scraper of SCRAPERS) {
      expect(scraper.input_hint, scraper.name).toMatch(/^\{"url": "https:\/\/.+"\} — /);
      expect(scraper.description.length, scraper.name).toBeGreaterThan(80);
    }
  });

  it('finds scrapers by name and nothing else', () => {
    expect(findScraper('product-page')?.category).toBe('ecommerce');
    expect(findScraper('no-such-scraper')).toBeUndefined();
  });
});

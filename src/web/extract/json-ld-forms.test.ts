import { describe, expect, it } from 'vitest';

import { parseDocument } from '../structured/dom.ts';
import { findScraper } from './index.ts';
import type { ExtractRecord } from './types.ts';

/*
 * JSON-LD can hold a page's items in several shapes: a top-level array, an `@graph` whose nodes
 * point at each other by `@id`, an `ItemList` of `ListItem`s holding each item (or being it), or
 * one script per item. Every scraper that reads JSON-LD must find the same records in each.
 */

type Node = Record<string, unknown>;

const PAGE_URL = 'https://example.com/page';
const CONTEXT = { '@context': 'https://schema.org' };
/** Shares the page with the items in the array, graph and per-script forms; no scraper reads it. */
const SITE: Node = { '@type': 'WebSite', name: 'Example', url: 'https://example.com/' };

const script = (data: unknown): string => `<script type="application/ld+json">${JSON.stringify(data)}</script>`;
const typesOf = (node: Node): unknown[] => (Array.isArray(node['@type']) ? node['@type'] : [node['@type']]);

type Form = 'a top-level array' | 'an @graph with @id references' | 'an ItemList of ListItems holding them' | 'an ItemList of ListItems that are them' | 'one script each';

const FORMS: Record<Form, (nodes: Node[]) => string> = {
  'a top-level array': (nodes) => script([SITE, ...nodes].map((node) => ({ ...CONTEXT, ...node }))),
  'an @graph with @id references': (nodes) => {
    const ids = nodes.map((_node, index) => `${PAGE_URL}#item-${index + 1}`);
    const page = { '@type': 'WebPage', '@id': `${PAGE_URL}#page`, isPartOf: { '@id': 'https://example.com/#site' }, mainEntity: ids.map((id) => ({ '@id': id })) };
    return script({ ...CONTEXT, '@graph': [{ ...SITE, '@id': 'https://example.com/#site' }, page, ...nodes.map((node, index) => ({ '@id': ids[index], ...node }))] });
  },
  'an ItemList of ListItems holding them': (nodes) =>
    script({ ...CONTEXT, '@type': 'ItemList', name: 'On this page', itemListElement: nodes.map((node, index) => ({ '@type': 'ListItem', position: index + 1, item: node })) }),
  'an ItemList of ListItems that are them': (nodes) =>
    script({ ...CONTEXT, '@type': 'ItemList', name: 'On this page', itemListElement: nodes.map((node, index) => ({ ...node, '@type': ['ListItem', ...typesOf(node)], position: index + 1 })) }),
  'one script each': (nodes) => [SITE, ...nodes].map((node) => script({ ...CONTEXT, ...node })).join('\n'),
};
const ALL_FORMS = Object.keys(FORMS) as Form[];

const product = (n: number): Node => ({
  '@type': 'Product',
  name: `Trail Shoe ${n}`,
  url: `https://example.com/p/${n}`,
  offers: { '@type': 'Offer', price: `${n}9.00`, priceCurrency: 'USD', availability: 'https://schema.org/InStock' },
});
const restaurant = (n: number): Node => ({
  '@type': 'Restaurant',
  name: `Cafe ${n}`,
  telephone: `+1 555 010${n}`,
  address: { '@type': 'PostalAddress', streetAddress: `${n} Main St`, addressLocality: 'Springfield', postalCode: '12345' },
});
const review = (n: number): Node => ({
  '@type': 'Review',
  author: { '@type': 'Person', name: `Reviewer ${n}` },
  reviewRating: { '@type': 'Rating', ratingValue: n + 2, bestRating: 5 },
  reviewBody: `Visit number ${n} was good.`,
});
const listing = (n: number): Node => ({
  '@type': 'RealEstateListing',
  name: `Flat ${n} with a balcony`,
  url: `https://example.com/flats/${n}`,
  offers: { '@type': 'Offer', price: 1000 + n, priceCurrency: 'EUR' },
  about: { '@type': 'Apartment', numberOfBedrooms: n },
});

interface ScraperCase {
  scraper: string;
  nodes: Node[];
  expected: ExtractRecord[];
  /** The forms that hold what this scraper reads; all of them unless said. */
  forms?: Form[];
}

const ONE_TWO_THREE = [1, 2, 3];

const CASES: ScraperCase[] = [
  {
    scraper: 'product-listing',
    nodes: ONE_TWO_THREE.map(product),
    expected: ONE_TWO_THREE.map((n) => ({ name: `Trail Shoe ${n}`, price: n * 10 + 9, currency: 'USD', availability: 'in_stock', url: `https://example.com/p/${n}` })),
  },
  {
    scraper: 'product-page',
    nodes: [{ ...product(1), url: PAGE_URL, sku: 'TS-1' }],
    expected: [{ name: 'Trail Shoe 1', sku: 'TS-1', price: 19, currency: 'USD', availability: 'in_stock', url: PAGE_URL }],
  },
  {
    // The business behind the page is a top-level item; a listed business is one of many.
    scraper: 'business-profile',
    nodes: [{ '@type': 'Organization', name: 'Acme Tools', url: 'https://acme.example/', telephone: '+1 555 0100', sameAs: ['https://www.linkedin.com/company/acme-tools'] }],
    expected: [{ name: 'Acme Tools', type: 'Organization', url: 'https://acme.example/', telephone: '+1 555 0100', social_links: ['https://www.linkedin.com/company/acme-tools'] }],
    forms: ['a top-level array', 'an @graph with @id references', 'one script each'],
  },
  {
    scraper: 'contact-details',
    nodes: [{ '@type': 'Organization', name: 'Acme Tools', email: 'hello@acme.example', telephone: '+1 555 0100' }],
    expected: [{ url: PAGE_URL, emails: ['hello@acme.example'], phones: ['+1 555 0100'] }],
  },
  {
    scraper: 'local-business',
    nodes: ONE_TWO_THREE.map(restaurant),
    expected: ONE_TWO_THREE.map((n) => ({
      name: `Cafe ${n}`,
      type: 'Restaurant',
      telephone: `+1 555 010${n}`,
      address: `${n} Main St, Springfield, 12345`,
      street: `${n} Main St`,
      locality: 'Springfield',
      postal_code: '12345',
    })),
  },
  {
    scraper: 'reviews',
    nodes: ONE_TWO_THREE.map(review),
    expected: ONE_TWO_THREE.map((n) => ({ author: `Reviewer ${n}`, rating: n + 2, best_rating: 5, body: `Visit number ${n} was good.` })),
  },
  {
    scraper: 'real-estate-listing',
    nodes: [{ ...listing(1), url: PAGE_URL }],
    expected: [{ title: 'Flat 1 with a balcony', price: 1001, currency: 'EUR', bedrooms: 1, property_type: 'apartment', url: PAGE_URL }],
  },
  {
    scraper: 'real-estate-search',
    nodes: ONE_TWO_THREE.map(listing),
    expected: ONE_TWO_THREE.map((n) => ({ title: `Flat ${n} with a balcony`, price: 1000 + n, currency: 'EUR', bedrooms: n, property_type: 'apartment', url: `https://example.com/flats/${n}` })),
  },
];

describe('scrapers on every JSON-LD form', () => {
  const runs = CASES.flatMap(({ scraper, nodes, expected, forms = ALL_FORMS }) => forms.map((form) => ({ scraper, form, nodes, expected })));

  it.each(runs)('$scraper reads its items from $form', ({ scraper: name, form, nodes, expected }) => {
    const scraper = findScraper(name);
    if (!scraper) throw new Error(`no scraper named ${name}`);
    const html = `<!DOCTYPE html><html><head><title>Example page</title>${FORMS[form](nodes)}</head><body></body></html>`;
    expect(scraper.extract({ html, url: PAGE_URL, document: parseDocument(html) })).toEqual(expected);
  });
});

describe('scrapers on lists that are not the items themselves', () => {
  const extract = (name: string, jsonLd: string): ExtractRecord[] => {
    const scraper = findScraper(name);
    if (!scraper) throw new Error(`no scraper named ${name}`);
    const html = `<html><head>${jsonLd}</head><body></body></html>`;
    return scraper.extract({ html, url: PAGE_URL, document: parseDocument(html) });
  };

  it('product-listing reads the products when the ItemList only gives their URLs', () => {
    const summary = { ...CONTEXT, '@type': 'ItemList', itemListElement: ONE_TWO_THREE.map((n) => ({ '@type': 'ListItem', position: n, url: `https://example.com/p/${n}` })) };
    const records = extract('product-listing', script(summary) + script(ONE_TWO_THREE.map((n) => ({ ...CONTEXT, ...product(n) }))));
    expect(records.map((record) => record.name)).toEqual(['Trail Shoe 1', 'Trail Shoe 2', 'Trail Shoe 3']);
  });

  it('business-profile does not take a business listed on the page for the one behind it', () => {
    const directory = { ...CONTEXT, '@type': 'ItemList', itemListElement: ONE_TWO_THREE.map((n) => ({ '@type': 'ListItem', position: n, item: restaurant(n) })) };
    expect(extract('business-profile', script(directory))).toEqual([]);
  });
});

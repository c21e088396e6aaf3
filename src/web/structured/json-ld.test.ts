import { describe, expect, it } from 'vitest';

import { parseDocument } from './dom.ts';
import { jsonLd } from './json-ld.ts';

const block = (json: string): string => `<script type="application/ld+json">${json}</script>`;

describe('jsonLd', () => {
  it.each([
    {
      name: 'reads one object, stripping the schema.org prefix from types and keys',
      html: block('{"@context":"https://schema.org","@type":"Product","name":"Anvil","schema:sku":"A-1"}'),
      expected: [{ type: ['Product'], properties: { name: 'Anvil', sku: 'A-1' }, source: 'json-ld' }],
    },
    {
      name: 'flattens a top-level array into items',
      html: block('[{"@type":"Thing","name":"a"},{"@type":"http://schema.org/Thing","name":"b"}]'),
      expected: [
        { type: ['Thing'], properties: { name: 'a' }, source: 'json-ld' },
        { type: ['Thing'], properties: { name: 'b' }, source: 'json-ld' },
      ],
    },
    {
      name: 'expands @graph and resolves @id references between its nodes',
      html: block(
        '{"@context":"https://schema.org","@graph":[{"@type":"WebPage","@id":"#page","about":{"@id":"#org"}},{"@type":"Organization","@id":"#org","name":"Acme"}]}',
      ),
      expected: [
        {
          type: ['WebPage'],
          properties: {
            '@id': '#page',
            about: { type: ['Organization'], properties: { '@id': '#org', name: 'Acme' }, source: 'json-ld' },
          },
          source: 'json-ld',
        },
        { type: ['Organization'], properties: { '@id': '#org', name: 'Acme' }, source: 'json-ld' },
      ],
    },
    {
      name: 'keeps multiple types and nested objects as nested items',
      html: block('{"@type":["Product","Car"],"offers":{"@type":"Offer","price":9.5},"image":["a.jpg","b.jpg"]}'),
      expected: [
        {
          type: ['Product', 'Car'],
          properties: {
            offers: { type: ['Offer'], properties: { price: 9.5 } },
            image: ['a.jpg', 'b.jpg'],
          },
          source: 'json-ld',
        },
      ],
    },
    {
      name: 'unwraps @value objects and drops nulls',
      html: block('{"@type":"Thing","name":{"@value":"x","@language":"en"},"description":null}'),
      expected: [{ type: ['Thing'], properties: { name: 'x' }, source: 'json-ld' }],
    },
    {
      name: 'skips a block that is not JSON and keeps the valid ones',
      html: block('{"@type":"Thing",') + block('{"@type":"Thing","name":"ok"}'),
      expected: [{ type: ['Thing'], properties: { name: 'ok' }, source: 'json-ld' }],
    },
    {
      name: 'tolerates raw line breaks inside strings and comment wrappers',
      html: block('<!-- {"@type":"Thing","description":"two\nlines"} -->'),
      expected: [{ type: ['Thing'], properties: { description: 'two lines' }, source: 'json-ld' }],
    },
    {
      name: 'ignores scripts of other types',
      html: '<script type="application/json">{"@type":"Thing"}</script><script>var x = 1;</script>',
      expected: [],
    },
    {
      name: 'accepts a type with parameters and odd case',
      html: '<script type="Application/LD+JSON; charset=utf-8">{"@type":"Thing","name":"n"}</script>',
      expected: [{ type: ['Thing'], properties: { name: 'n' }, source: 'json-ld' }],
    },
    {
      name: 'ends on a reference cycle instead of recursing forever',
      html: block('{"@graph":[{"@id":"#a","@type":"Thing","knows":{"@id":"#b"}},{"@id":"#b","@type":"Thing","knows":{"@id":"#a"}}]}'),
      expected: [
        {
          type: ['Thing'],
          properties: {
            '@id': '#a',
            knows: { type: ['Thing'], properties: { '@id': '#b', knows: { type: [], properties: { '@id': '#a' } } }, source: 'json-ld' },
          },
          source: 'json-ld',
        },
        { type: ['Thing'], properties: { '@id': '#b', knows: { type: [], properties: { '@id': '#a' } } }, source: 'json-ld' },
      ],
    },
    {
      name: 'reads every product of a top-level array',
      html: block(`[${[1, 2, 3].map((n) => `{"@context":"https://schema.org","@type":"Product","name":"P${n}"}`).join(',')}]`),
      expected: [1, 2, 3].map((n) => ({ type: ['Product'], properties: { name: `P${n}` }, source: 'json-ld' })),
    },
    {
      name: 'reads arrays inside @graph and @graph inside arrays',
      html: block('[{"@graph":[[{"@type":"Thing","name":"a"}],{"@type":"Thing","name":"b"}]},{"@type":"Thing","name":"c"}]'),
      expected: ['a', 'b', 'c'].map((name) => ({ type: ['Thing'], properties: { name }, source: 'json-ld' })),
    },
    {
      name: 'reads every script of the page, in page order',
      html: block('{"@type":"Thing","name":"a"}') + '<p>between</p>' + block('[{"@type":"Thing","name":"b"},{"@type":"Thing","name":"c"}]'),
      expected: ['a', 'b', 'c'].map((name) => ({ type: ['Thing'], properties: { name }, source: 'json-ld' })),
    },
    {
      name: 'unwraps @list and @set containers, as itemListElement may be',
      html: block('{"@type":"ItemList","itemListElement":{"@list":[{"@type":"ListItem","position":1},{"@type":"ListItem","position":2}]},"keywords":{"@set":["x","y"]}}'),
      expected: [
        {
          type: ['ItemList'],
          properties: {
            itemListElement: [
              { type: ['ListItem'], properties: { position: 1 } },
              { type: ['ListItem'], properties: { position: 2 } },
            ],
            keywords: ['x', 'y'],
          },
          source: 'json-ld',
        },
      ],
    },
  ])('$name', ({ html, expected }) => {
    expect(jsonLd(parseDocument(html))).toEqual(expected);
  });

  it('makes one item of a node that is both listed at the top and referenced', () => {
    const [page, product] = jsonLd(
      parseDocument(block('{"@graph":[{"@type":"WebPage","mainEntity":[{"@id":"#p"}]},{"@type":"Product","@id":"#p","name":"P"}]}')),
    );
    const entities = page?.properties.mainEntity;
    expect(Array.isArray(entities) && entities[0] === product).toBe(true);
  });

  it('keeps nodes that merely share an @id apart, resolving references to the first', () => {
    // Listing pages give every product the same relative id ("#product"); they are still three products.
    const items = jsonLd(parseDocument(block(`[${[1, 2, 3].map((n) => `{"@type":"Product","@id":"#product","name":"P${n}"}`).join(',')}]`)));
    expect(items.map((item) => item.properties.name)).toEqual(['P1', 'P2', 'P3']);
  });
});

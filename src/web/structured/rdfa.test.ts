import { describe, expect, it } from 'vitest';

import { parseDocument } from './dom.ts';
import { rdfa } from './rdfa.ts';

const BASE = 'https://shop.example/p/1';

describe('rdfa', () => {
  it.each([
    {
      name: 'reads RDFa Lite with vocab, typeof and property',
      html: `<div vocab="http://schema.org/" typeof="Product"><span property="name">Anvil</span>
        <span property="offers" typeof="Offer"><meta property="priceCurrency" content="USD"><span property="price">119.99</span>
        <link property="availability" href="http://schema.org/InStock"></span></div>`,
      expected: [
        {
          type: ['Product'],
          properties: {
            name: 'Anvil',
            offers: {
              type: ['Offer'],
              properties: { priceCurrency: 'USD', price: '119.99', availability: 'http://schema.org/InStock' },
            },
          },
          source: 'rdfa',
        },
      ],
    },
    {
      name: 'resolves hrefs and srcs against the base and records resource as @id',
      html: `<div vocab="https://schema.org/" typeof="Person" resource="#me"><a property="url" href="/about">me</a><img property="image" src="me.png"></div>`,
      expected: [
        {
          type: ['Person'],
          properties: { '@id': 'https://shop.example/p/1#me', url: 'https://shop.example/about', image: 'https://shop.example/p/me.png' },
          source: 'rdfa',
        },
      ],
    },
    {
      name: 'expands the schema: prefix without a vocab',
      html: `<div typeof="schema:LocalBusiness"><span property="schema:name">Shop</span><span property="schema:telephone">+1 555</span></div>`,
      expected: [{ type: ['LocalBusiness'], properties: { name: 'Shop', telephone: '+1 555' }, source: 'rdfa' }],
    },
    {
      name: 'uses prefixes declared with the prefix attribute',
      html: `<div prefix="s: http://schema.org/" typeof="s:Thing"><span property="s:name">n</span></div>`,
      expected: [{ type: ['Thing'], properties: { name: 'n' }, source: 'rdfa' }],
    },
    {
      name: 'prefers content over text, and datetime on time',
      html: `<div vocab="http://schema.org/" typeof="Event"><span property="name" content="Gig">Gig!!</span><time property="startDate" datetime="2024-05-01T20:00">May 1</time></div>`,
      expected: [{ type: ['Event'], properties: { name: 'Gig', startDate: '2024-05-01T20:00' }, source: 'rdfa' }],
    },
    {
      name: 'ignores Open Graph meta properties outside any item',
      html: `<html prefix="og: http://ogp.me/ns#"><head><meta property="og:title" content="T"></head><body></body></html>`,
      expected: [],
    },
    {
      name: 'reports a typeof without property inside another item as its own item',
      html: `<div vocab="http://schema.org/" typeof="WebPage"><span property="name">Page</span><div typeof="Person"><span property="name">P</span></div></div>`,
      expected: [
        { type: ['WebPage'], properties: { name: 'Page' }, source: 'rdfa' },
        { type: ['Person'], properties: { name: 'P' }, source: 'rdfa' },
      ],
    },
  ])('$name', ({ html, expected }) => {
    expect(rdfa(parseDocument(html), BASE)).toEqual(expected);
  });
});

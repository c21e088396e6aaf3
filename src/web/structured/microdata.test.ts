import { describe, expect, it } from 'vitest';

import { parseDocument } from './dom.ts';
import { microdata } from './microdata.ts';

const BASE = 'https://shop.example/products/anvil';

describe('microdata', () => {
  it.each([
    {
      name: 'reads a flat item with text values and strips the type prefix',
      html: '<div itemscope itemtype="http://schema.org/Person"><span itemprop="name"> Jane\n  Doe </span></div>',
      expected: [{ type: ['Person'], properties: { name: 'Jane Doe' }, source: 'microdata' }],
    },
    {
      name: 'takes values per element: meta content, link/a href, img src, time datetime, data value',
      html: `<div itemscope itemtype="https://schema.org/Offer">
        <meta itemprop="priceCurrency" content="USD">
        <link itemprop="availability" href="http://schema.org/InStock">
        <a itemprop="url" href="/offers/1">offer</a>
        <img itemprop="image" src="img/a.jpg">
        <time itemprop="validFrom" datetime="2024-01-02">Jan 2</time>
        <data itemprop="price" value="19.99">$19.99</data>
        <meter itemprop="ratingValue" value="4" min="0" max="5">4</meter>
        <object itemprop="subjectOf" data="/doc.pdf"></object>
      </div>`,
      expected: [
        {
          type: ['Offer'],
          properties: {
            priceCurrency: 'USD',
            availability: 'http://schema.org/InStock',
            url: 'https://shop.example/offers/1',
            image: 'https://shop.example/products/img/a.jpg',
            validFrom: '2024-01-02',
            price: '19.99',
            ratingValue: '4',
            subjectOf: 'https://shop.example/doc.pdf',
          },
          source: 'microdata',
        },
      ],
    },
    {
      name: 'nests items and does not report nested items at top level',
      html: `<div itemscope itemtype="http://schema.org/Product"><span itemprop="name">Anvil</span>
        <div itemprop="offers" itemscope itemtype="http://schema.org/Offer"><span itemprop="price">10</span></div></div>`,
      expected: [
        {
          type: ['Product'],
          properties: { name: 'Anvil', offers: { type: ['Offer'], properties: { price: '10' } } },
          source: 'microdata',
        },
      ],
    },
    {
      name: 'collects repeated properties into an array and splits space-separated names',
      html: `<div itemscope itemtype="http://schema.org/Thing"><span itemprop="a">1</span><span itemprop="a b">2</span></div>`,
      expected: [{ type: ['Thing'], properties: { a: ['1', '2'], b: '2' }, source: 'microdata' }],
    },
    {
      name: 'follows itemref to properties outside the item',
      html: `<div itemscope itemtype="http://schema.org/Person" itemref="extra"><span itemprop="name">A</span></div>
        <p id="extra"><span itemprop="email">a@example.com</span></p>`,
      expected: [{ type: ['Person'], properties: { name: 'A', email: 'a@example.com' }, source: 'microdata' }],
    },
    {
      name: 'keeps properties of a nested item out of its parent',
      html: `<div itemscope itemtype="http://schema.org/Restaurant"><span itemprop="name">R</span>
        <div itemprop="address" itemscope itemtype="http://schema.org/PostalAddress"><span itemprop="addressLocality">X</span></div></div>`,
      expected: [
        {
          type: ['Restaurant'],
          properties: { name: 'R', address: { type: ['PostalAddress'], properties: { addressLocality: 'X' } } },
          source: 'microdata',
        },
      ],
    },
    {
      name: 'reports an itemscope without itemtype with an empty type list, and its itemid',
      html: '<div itemscope itemid="urn:isbn:123"><span itemprop="name">Book</span></div>',
      expected: [{ type: [], properties: { '@id': 'urn:isbn:123', name: 'Book' }, source: 'microdata' }],
    },
    {
      name: 'survives an itemref cycle',
      html: '<div id="a" itemscope itemtype="http://schema.org/Thing" itemref="a"><span itemprop="name">n</span></div>',
      expected: [{ type: ['Thing'], properties: { name: 'n' }, source: 'microdata' }],
    },
  ])('$name', ({ html, expected }) => {
    expect(microdata(parseDocument(html), BASE)).toEqual(expected);
  });

  it('treats an itemscope on <html> as an item whose properties include head metadata', () => {
    const doc = parseDocument(
      '<html itemscope itemtype="http://schema.org/Organization"><head><meta itemprop="url" content="https://a.example/"></head><body><p itemprop="name">A</p></body></html>',
    );
    expect(microdata(doc, BASE)).toEqual([
      { type: ['Organization'], properties: { url: 'https://a.example/', name: 'A' }, source: 'microdata' },
    ]);
  });
});

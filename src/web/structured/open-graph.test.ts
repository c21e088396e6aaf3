import { describe, expect, it } from 'vitest';

import { parseDocument } from './dom.ts';
import { openGraph } from './open-graph.ts';

describe('openGraph', () => {
  it.each([
    {
      name: 'reads og:, product: and twitter: tags with lower-cased keys',
      html: `<meta property="og:Title" content="Anvil"><meta property="product:price:amount" content="17.99">
        <meta name="twitter:card" content="summary"><meta name="description" content="ignored">`,
      expected: { 'og:title': ['Anvil'], 'product:price:amount': ['17.99'], 'twitter:card': ['summary'] },
    },
    {
      name: 'keeps every value of a repeated tag in document order',
      html: `<meta property="og:image" content="a.jpg"><meta property="og:image" content="b.jpg">`,
      expected: { 'og:image': ['a.jpg', 'b.jpg'] },
    },
    {
      name: 'accepts og: written with name and twitter: written with property',
      html: `<meta name="og:type" content="product"><meta property="twitter:title" content="T">`,
      expected: { 'og:type': ['product'], 'twitter:title': ['T'] },
    },
    {
      name: 'collapses whitespace and skips empty content',
      html: `<meta property="og:description" content="  two
        lines "><meta property="og:title" content="  ">`,
      expected: { 'og:description': ['two lines'] },
    },
    {
      name: 'reads business contact data and place coordinates',
      html: `<meta property="business:contact_data:locality" content="Sunnyvale"><meta property="place:location:latitude" content="37.4">`,
      expected: { 'business:contact_data:locality': ['Sunnyvale'], 'place:location:latitude': ['37.4'] },
    },
  ])('$name', ({ html, expected }) => {
    expect(openGraph(parseDocument(html))).toEqual(expected);
  });
});

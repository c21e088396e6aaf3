import { describe, expect, it } from 'vitest';

import { allItems, parseDocument, schemaItems, visibleText } from './index.ts';

describe('schemaItems', () => {
  it('merges JSON-LD, microdata and RDFa in that order, resolving URLs against <base>', () => {
    const doc = parseDocument(`<html><head><base href="https://cdn.example/assets/">
      <script type="application/ld+json">{"@type":"Organization","name":"Org"}</script></head><body>
      <div itemscope itemtype="http://schema.org/Product"><img itemprop="image" src="a.jpg"></div>
      <div vocab="http://schema.org/" typeof="Person"><span property="name">P</span></div></body></html>`);
    expect(schemaItems(doc, 'https://shop.example/p/1')).toEqual([
      { type: ['Organization'], properties: { name: 'Org' }, source: 'json-ld' },
      { type: ['Product'], properties: { image: 'https://cdn.example/assets/a.jpg' }, source: 'microdata' },
      { type: ['Person'], properties: { name: 'P' }, source: 'rdfa' },
    ]);
  });
});

describe('allItems', () => {
  it('lists nested items depth first after their parent', () => {
    const offer = { type: ['Offer'], properties: { price: '1' } };
    const brand = { type: ['Brand'], properties: { name: 'B' } };
    const product = { type: ['Product'], properties: { offers: [offer], brand } };
    expect(allItems([product])).toEqual([product, offer, brand]);
  });
});

describe('visibleText', () => {
  it('skips scripts, styles, noscript and comments and separates blocks', () => {
    const doc = parseDocument(
      '<div><p>Call<!-- mailto:x@y.z --></p><p>020 8340 2600</p><script>var a="hidden"</script><style>p{}</style><noscript>no js</noscript></div>',
    );
    const root = doc.querySelector('div');
    expect(root && visibleText(root)).toBe('Call 020 8340 2600');
  });
});

import { describe, expect, it } from 'vitest';
import { convertPage, type PageFormat } from './index';

const URL = 'https://shop.example.com/p/trail-runner-2';

const FORMATS: PageFormat[] = ['markdown', 'html', 'text'];

const HEAD = '<head><title>Trail Runner 2 | Example Shop</title></head>';
const BANNER = '<header><a href="/">Example Shop home</a><nav><a href="/men">Shop for men</a> <a href="/women">Shop for women</a></nav></header>';
const FOOTER =
  '<footer><p>© 2024 Example Shop Ltd. All rights reserved. Free shipping on orders over $50, returns within 30 days, ' +
  'and a price match promise, so write to help@example.com with any question, any day of the week.</p></footer>';
const LONG_FOOTER = FOOTER.replace('</footer>', '<p>' + 'Our stores, careers, press, gift cards, affiliates, sustainability report, accessibility statement. '.repeat(6) + '</p></footer>');
const PRODUCT = '<h1>Trail Runner 2</h1><p class="price">$129.00</p><p>A light trail shoe with a grippy sole.</p>';
const CONTENT = ['Trail Runner 2', '$129.00', 'A light trail shoe with a grippy sole.'];
const FURNITURE = ['All rights reserved', 'Shop for men', 'Example Shop home', 'Our stores'];

/** Short pages that Readability gives up on, each with its main content somewhere else. */
const SHORT_PAGES: [string, string][] = [
  ['a product in <main> before a footer', `${BANNER}<main>${PRODUCT}</main>${FOOTER}`],
  ['a product in [role=main] beside an aside', `${BANNER}<div role="main">${PRODUCT}</div><aside><p>Customers also bought socks, laces and insoles.</p></aside>${FOOTER}`],
  ['a product in a lone <article>', `${BANNER}<div class="wrap"><article>${PRODUCT}</article></div>${FOOTER}`],
  ['a product in plain divs between header and footer', `${BANNER}<div class="product">${PRODUCT}</div>${FOOTER}`],
  ['a page with only a <main>', `<main>${PRODUCT}</main>`],
  ['a product whose footer is longer than Readability needs', `${BANNER}<main>${PRODUCT}</main>${LONG_FOOTER}`],
];

describe('convertPage on short pages', () => {
  const cases = SHORT_PAGES.flatMap(([name, body]) => FORMATS.map((format) => [name, format, `<!DOCTYPE html><html>${HEAD}<body>${body}</body></html>`] as const));

  it.each(cases)('keeps the main content of %s as %s, without the site furniture', (_name, format, html) => {
    const content = convertPage(html, URL, format)?.content ?? '';
    for (const text of CONTENT) expect(content).toContain(text);
    for (const text of FURNITURE) expect(content).not.toContain(text);
  });

  it('keeps a long article found by Readability rather than the landmark around it', () => {
    const prose = '<p>This paragraph is long enough, with commas, clauses and a full stop, to be scored as real article text by the extractor.</p>'.repeat(6);
    const html = `<html>${HEAD}<body>${BANNER}<main><div class="promo"><p>Sale ends soon, grab a deal!</p></div><article><h1>Trail Runner 2 review</h1>${prose}</article></main>${FOOTER}</body></html>`;
    const content = convertPage(html, URL, 'markdown')?.content ?? '';
    expect(content).toContain('This paragraph is long enough');
    expect(content).not.toContain('All rights reserved');
  });
});

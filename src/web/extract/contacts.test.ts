import { describe, expect, it } from 'vitest';

import { parseDocument } from '../structured/dom.ts';
import { emailsIn, isSocialProfile, phonesIn, socialLinksIn } from './contacts.ts';

describe('emailsIn', () => {
  it('reads mailto: links and addresses in the text, not in comments or scripts, once each', () => {
    const doc = parseDocument(`<body>
      <a href="mailto:Sales@Shop.example?subject=Hi">write</a>
      <p>or sales@shop.example, support@shop.example</p>
      <!-- <a href="mailto:hidden@shop.example">x</a> -->
      <script>var e = "script@shop.example";</script>
      <img src="logo@2x.png" alt="">
    </body>`);
    expect(emailsIn(doc)).toEqual(['Sales@Shop.example', 'support@shop.example']);
  });
});

describe('phonesIn', () => {
  it.each([
    { name: 'tel: links', html: '<a href="tel:+44%201326%20000000">call</a>', expected: ['+44 1326 000000'] },
    { name: 'elements marked as phones', html: '<span class="tel">&nbsp;0808 189 1375</span><span itemprop="telephone">(408) 714-1489</span>', expected: ['0808 189 1375', '(408) 714-1489'] },
    { name: 'numbers after a cue word', html: '<p>Freephone <b>0134 4408 028</b></p><h4>Call <strong>020 8340 2600</strong> or</h4>', expected: ['0134 4408 028', '020 8340 2600'] },
    { name: 'North American numbers without a cue', html: '<p>Call Charles (The Best Company!) at 954-478-4784.</p>', expected: ['954-478-4784'] },
    { name: 'no dates, ids or prices', html: '<p>Date: 2009-06-16. PostingID: 1224008903. Asking $189,999. Ref 1358710</p>', expected: [] },
    { name: 'each number once, by its digits', html: '<a href="tel:01483425533">x</a><p>Tel: 01483 425 533</p>', expected: ['01483425533'] },
  ])('reads $name', ({ html, expected }) => {
    expect(phonesIn(parseDocument(`<body>${html}</body>`))).toEqual(expected);
  });
});

describe('social profiles', () => {
  it.each([
    ['https://www.facebook.com/southernafricatravel', true],
    ['https://twitter.com/SATravelExperts', true],
    ['https://www.linkedin.com/company/acme', true],
    ['https://www.facebook.com/sharer/sharer.php?u=https%3A%2F%2Facme.example', false],
    ['https://twitter.com/intent/tweet?text=hi', false],
    ['https://www.facebook.com/', false],
    ['https://acme.example/facebook.com', false],
  ])('%s is a profile: %s', (url, expected) => {
    expect(isSocialProfile(url)).toBe(expected);
  });

  it('collects profile links of the page as absolute URLs', () => {
    const doc = parseDocument('<a href="https://instagram.com/acme">ig</a><a href="/about">about</a><a href="https://instagram.com/acme">again</a>');
    expect(socialLinksIn(doc, 'https://acme.example/')).toEqual(['https://instagram.com/acme']);
  });
});

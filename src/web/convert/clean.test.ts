import { describe, expect, it } from 'vitest';
import { cleanedBody, mainLandmark } from './clean';
import { collapseWhitespace, parseDocument } from './dom';

function landmarkText(body: string): string | null {
  const landmark = mainLandmark(parseDocument(`<html><body>${body}</body></html>`));
  return landmark ? collapseWhitespace(landmark.textContent ?? '') : null;
}

describe('mainLandmark', () => {
  it.each([
    ['<main> before [role=main] and <article>', '<div role="main">role</div><article>article</article><main>main</main>', 'main'],
    ['[role=main] before <article>', '<article>article</article><div role="main">role</div>', 'role'],
    ['a lone <article>', '<div><article>article</article></div>', 'article'],
    ['a visible <main> over a hidden one', '<main hidden>old</main><main>shown</main>', 'shown'],
  ])('takes %s', (_name, body, expected) => {
    expect(landmarkText(body)).toBe(expected);
  });

  it.each([
    ['no landmark at all', '<div>text</div>'],
    ['several articles (a listing)', '<article>one</article><article>two</article>'],
  ])('finds none in %s', (_name, body) => {
    expect(landmarkText(body)).toBeNull();
  });

  it('drops sidebars, footers and hidden parts but keeps a header that holds the heading', () => {
    const text = landmarkText(
      '<main><header><h1>Heading</h1></header><header>Banner</header><p>Body</p><aside>Related</aside><footer>Tags</footer><p style="display:none">Hidden</p></main>',
    );
    for (const kept of ['Heading', 'Body']) expect(text).toContain(kept);
    for (const dropped of ['Banner', 'Related', 'Tags', 'Hidden']) expect(text).not.toContain(dropped);
  });
});

describe('cleanedBody', () => {
  it('drops the header, footer and sidebars around the content', () => {
    const body = cleanedBody(parseDocument('<html><body><header><h1>Site</h1></header><div>Content</div><aside>Side</aside><footer>Foot</footer></body></html>'));
    expect(collapseWhitespace(body?.textContent ?? '')).toBe('Content');
  });
});

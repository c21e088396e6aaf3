import { describe, expect, it } from 'vitest';
import { parseDocument } from './dom';
import { furnitureShare, markPageFurniture } from './furniture';

function shareOf(body: string, selector: string): number {
  const document = parseDocument(`<html><body>${body}</body></html>`);
  markPageFurniture(document);
  const root = document.querySelector(selector);
  if (!root) throw new Error(`no ${selector}`);
  return furnitureShare(root);
}

describe('furnitureShare', () => {
  it('counts the page footer and everything in it, however deep the root starts', () => {
    expect(shareOf('<main>Product</main><footer><div><p id="legal">All rights reserved</p></div></footer>', '#legal')).toBe(1);
    expect(shareOf('<div id="all"><main>1234</main><footer>1234</footer></div>', '#all')).toBeCloseTo(0.5);
  });

  it('does not count headers and footers inside the content', () => {
    expect(shareOf('<article id="post"><header><h1>Title</h1></header><p>Text</p><footer>Tags</footer></article>', '#post')).toBe(0);
  });

  it('does not count a header that wraps the content', () => {
    expect(shareOf('<header id="wrap"><main>Everything</main></header>', '#wrap')).toBe(0);
  });
});

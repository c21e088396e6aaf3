import { collapseWhitespace, type DomElement, type HtmlDocument } from './dom';

/** Site header, footer and sidebars: part of the page, never of its main content. */
const PAGE_FURNITURE = 'header, footer, aside, [role="banner"], [role="contentinfo"], [role="complementary"]';
/** Inside these, a header or footer belongs to the content (an article's byline, a section's notes). */
const CONTENT = 'main, article, [role="main"]';
const MARK = 'data-page-furniture';

/**
 * Marks the page's furniture and everything in it, so that what Readability returns can be
 * traced back to it (Readability keeps attributes; `sanitizeContent` drops the mark later).
 */
export function markPageFurniture(document: HtmlDocument): void {
  for (const element of Array.from(document.querySelectorAll(PAGE_FURNITURE))) {
    if (element.closest(CONTENT) || element.querySelector(CONTENT)) continue;
    for (const part of [element, ...Array.from(element.querySelectorAll('*'))]) part.setAttribute(MARK, '');
  }
}

/** How much of `root`'s text (0 to 1) comes from marked furniture. */
export function furnitureShare(root: DomElement): number {
  const total = collapseWhitespace(root.textContent ?? '').length;
  if (!total) return 0;
  if (root.hasAttribute(MARK)) return 1;
  const outermost = Array.from(root.querySelectorAll(`[${MARK}]`)).filter((element) => !element.parentNode?.closest(`[${MARK}]`));
  const furniture = outermost.reduce((sum, element) => sum + collapseWhitespace(element.textContent ?? '').length, 0);
  return Math.min(1, furniture / total);
}

import { Readability } from '@mozilla/readability';
import { cleanedBody, removeNoise } from './clean';
import { sanitizeContent } from './sanitize';
import { collapseWhitespace, useLowerCaseTags, type DomElement, type HtmlDocument } from './dom';
import { absolutizeUrls } from './urls';

export interface MainContent {
  /** The page's headline (see `headingTitle`), else Readability's title; null when neither is known. */
  title: string | null;
  /** The sanitized main content, a detached element. */
  root: DomElement;
}

/** Text that has at least one letter or digit is worth returning. */
const MEANINGFUL = /[\p{L}\p{N}]/u;

/**
 * The main content of a page: Readability's article from a copy of the document, else the
 * cleaned body when Readability finds nothing, else null when the page has no text at all.
 * Noise is removed from `document` itself, so read the metadata first.
 */
export function extractMainContent(document: HtmlDocument, base: URL | null): MainContent | null {
  const headline = headingTitle(document);
  // Readability's own link fixing reads `document.baseURI`, which linkedom reports unresolved.
  absolutizeUrls(document, base);
  removeNoise(document);

  const copy = document.cloneNode(true) as HtmlDocument;
  useLowerCaseTags(copy);
  // Readability's declarations name lib.dom's Document, which the Workers build does not load.
  const reader = new Readability<DomElement>(copy as never, { keepClasses: true, serializer: (node) => node as unknown as DomElement });
  relaxNegativeHints(reader);
  const article = parseArticle(reader);
  if (article?.content && MEANINGFUL.test(article.content.textContent ?? '')) {
    sanitizeContent(article.content, base);
    return { title: headline ?? (collapseWhitespace(article.title ?? '') || null), root: article.content };
  }

  const body = cleanedBody(document);
  if (!body || !MEANINGFUL.test(body.textContent ?? '')) return null;
  sanitizeContent(body, base);
  return { title: headline, root: body };
}

/** Readability's article, or null when it finds none or gives up on a document it cannot handle. */
function parseArticle(reader: Readability<DomElement>): ReturnType<Readability<DomElement>['parse']> {
  try {
    return reader.parse();
  } catch {
    // It throws on documents it was not built for (odd DOM states); the cleaned body still serves.
    return null;
  }
}

/**
 * Readability drops blocks whose class or id matches `share` (share widgets), which also hits
 * sections named after "shared …" (a docs page lost its "amend a shared changeset" section).
 */
function relaxNegativeHints(reader: object): void {
  const hints = reader as { REGEXPS?: Record<string, RegExp> };
  const negative = hints.REGEXPS?.negative;
  if (!hints.REGEXPS || !negative) return;
  hints.REGEXPS = { ...hints.REGEXPS, negative: new RegExp(negative.source.replace('|share|', '|share(?!d)|'), negative.flags) };
}

/**
 * The page's own headline: an `<h1>`/`<h2>` whose text the `<title>` or og:title contains, preferring
 * one the title starts with, then the longest. Titles usually append the site name
 * ("Headline | Site"), and Readability's guess at removing it sometimes cuts the headline instead
 * (it splits at a colon inside it).
 */
function headingTitle(document: HtmlDocument): string | null {
  const titles = [document.querySelector('head title')?.textContent, document.querySelector('meta[property="og:title"]')?.getAttribute('content')]
    .map((title) => collapseWhitespace(title ?? '').toLowerCase())
    .filter(Boolean);
  let best: { text: string; score: number } | null = null;
  for (const heading of Array.from(document.querySelectorAll('h1, h2')).slice(0, 20)) {
    const text = collapseWhitespace(heading.textContent ?? '');
    const lower = text.toLowerCase();
    if (text.split(' ').length < 2 || !titles.some((title) => title.includes(lower))) continue;
    const score = (titles.some((title) => title.startsWith(lower)) ? 10_000 : 0) + text.length;
    if (!best || score > best.score) best = { text, score };
  }
  return best?.text ?? null;
}

import { Readability } from '@mozilla/readability';
import { cleanedBody, mainLandmark, removeNoise } from './clean';
import { furnitureShare, markPageFurniture } from './furniture';
import { sanitizeContent } from './sanitize';
import { collapseWhitespace, useLowerCaseTags, type DomElement, type HtmlDocument } from './dom';
import { absolutizeUrls } from './urls';

export interface MainContent {
  /** The page's headline (see `headingTitle`), else Readability's title; null when neither is known. */
  title: string | null;
  /** The sanitized main content. */
  root: DomElement;
}

/** Text that has at least one letter or digit is worth returning. */
const MEANINGFUL = /[\p{L}\p{N}]/u;
/**
 * Readability's DEFAULT_CHAR_THRESHOLD. Below it Readability has not found an article: it
 * returns its longest attempt instead, which on a short page is often the footer.
 */
const ARTICLE_MIN_TEXT = 500;
/** An article that is mostly site header, footer or sidebar text is not the main content. */
const FURNITURE_MAX_SHARE = 0.5;
/** A short guess holding less than this share of the body's text picked the content out of it. */
const GUESS_MIN_SHARE = 0.5;

/**
 * The main content of a page: Readability's article from a copy of the document when it found
 * one, else the best of the page's main landmark, Readability's short guess and the body without
 * site furniture (see `shortPageContent`); null when the page has no text at all. Noise is
 * removed from `document` itself, so read the metadata first.
 */
export function extractMainContent(document: HtmlDocument, base: URL | null): MainContent | null {
  const headline = headingTitle(document);
  // Readability's own link fixing reads `document.baseURI`, which linkedom reports unresolved.
  absolutizeUrls(document, base);
  removeNoise(document);

  const copy = document.cloneNode(true) as HtmlDocument;
  useLowerCaseTags(copy);
  markPageFurniture(copy);
  // Readability's declarations name lib.dom's Document, which the Workers build does not load.
  const reader = new Readability<DomElement>(copy as never, { keepClasses: true, serializer: (node) => node as unknown as DomElement });
  relaxNegativeHints(reader);
  const article = parseArticle(reader);
  const title = headline ?? (collapseWhitespace(article?.title ?? '') || null);
  const guess = article?.content && hasText(article.content) ? article.content : null;

  const root = guess && isArticle(guess) ? guess : shortPageContent(document, guess);
  if (!root) return null;
  sanitizeContent(root, base);
  return { title, root };
}

/** Whether Readability's answer is an article it found, not the best of its failed attempts or the site's footer. */
function isArticle(content: DomElement): boolean {
  return textLength(content) >= ARTICLE_MIN_TEXT && furnitureShare(content) <= FURNITURE_MAX_SHARE;
}

/**
 * The main content when Readability found no article: the page's main landmark, which its author
 * declared; else Readability's short guess when it picked a part of a much larger page (a short
 * story among sidebars, where the whole body would bring them along); else the body without site
 * furniture, which keeps the headings and prices that a guess drops.
 */
function shortPageContent(document: HtmlDocument, guess: DomElement | null): DomElement | null {
  const landmark = mainLandmark(document);
  if (landmark && hasText(landmark)) return landmark;
  const body = cleanedBody(document);
  if (!body || !hasText(body)) return guess;
  if (guess && furnitureShare(guess) <= FURNITURE_MAX_SHARE && textLength(guess) < textLength(body) * GUESS_MIN_SHARE) return guess;
  return body;
}

function textLength(element: DomElement): number {
  return collapseWhitespace(element.textContent ?? '').length;
}

function hasText(element: DomElement): boolean {
  return MEANINGFUL.test(element.textContent ?? '');
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

import { collapseWhitespace, tagOf, type DomElement, type HtmlDocument } from './dom';
import { srcsetCandidates } from './urls';

/** Never content: removed before extraction. JSON-LD scripts stay for Readability's metadata. */
const NOISE = [
  'script:not([type="application/ld+json"])',
  'style',
  'link',
  'template',
  'svg',
  'canvas',
  'nav',
  '[role="navigation"]',
  '[role="menubar"]',
  'dialog',
  '[role="dialog"]',
  '[role="alertdialog"]',
  '[aria-modal="true"]',
  'button',
  'select',
  'textarea',
  'input:not([type="checkbox"])',
].join(', ');

/** Site furniture that the fallbacks drop; Readability judges these itself. */
const CHROME = [
  'header',
  'footer',
  'aside',
  'noscript',
  '[role="banner"]',
  '[role="contentinfo"]',
  '[role="complementary"]',
  '[role="search"]',
  '[hidden]',
  '[aria-hidden="true"]',
].join(', ');

const CONSENT = /(?:^|[\s_-])(?:cookies?|consent|gdpr)(?:$|[\s_-])|cookiebot|onetrust|didomi|usercentrics|cc-window|cc-banner/i;
/** A consent banner is short; a long block mentioning cookies is probably an article about them. */
const CONSENT_MAX_TEXT = 1500;
/** Forms that wrap a whole page (ASP.NET) stay; short ones are search boxes and sign-ups. */
const FORM_MAX_TEXT = 400;

/** Removes what is never main content: scripts, styles, navigation, dialogs, consent banners, form controls. */
export function removeNoise(document: HtmlDocument): void {
  const root = document.documentElement;
  if (!root) return;
  keepTaskMarkers(root);
  keepPreformattedBreaks(root);
  unwrapLayoutTables(root);
  removeAll(root.querySelectorAll(NOISE));
  for (const form of root.querySelectorAll('form')) {
    if (collapseWhitespace(form.textContent ?? '').length < FORM_MAX_TEXT) form.remove();
  }
  for (const element of root.querySelectorAll('[id], [class]')) {
    const label = `${element.getAttribute('id') ?? ''} ${element.getAttribute('class') ?? ''}`;
    if (!CONSENT.test(label) || ['html', 'body', 'main', 'article'].includes(tagOf(element))) continue;
    if (element.querySelector('article, main')) continue;
    if (collapseWhitespace(element.textContent ?? '').length <= CONSENT_MAX_TEXT) element.remove();
  }
  useLazySources(root);
}

/**
 * The page's own main landmark: its `<main>`, else its `[role=main]`, else its only `<article>`
 * (several articles make a listing, which the whole body serves better), with sidebars, footers
 * and hidden parts removed. A header holding a heading stays: inside the content it is the
 * content's own title block, not the site banner.
 */
export function mainLandmark(document: HtmlDocument): DomElement | null {
  const body = document.body;
  if (!body) return null;
  const articles = body.querySelectorAll('article:not([hidden])');
  const landmark = body.querySelector('main:not([hidden])') ?? body.querySelector('[role="main"]:not([hidden])') ?? (articles.length === 1 ? (articles[0] ?? null) : null);
  if (!landmark) return null;
  removeChrome(landmark, (element) => tagOf(element) === 'header' && element.querySelector('h1, h2, h3') !== null);
  return landmark;
}

/** The body with site furniture removed: the fallback when the page has no main landmark. */
export function cleanedBody(document: HtmlDocument): DomElement | null {
  const body = document.body;
  if (!body) return null;
  removeChrome(body, () => false);
  return body;
}

/** Removes site furniture and hidden elements from `root`, except what `keep` spares. */
function removeChrome(root: DomElement, keep: (element: DomElement) => boolean): void {
  removeAll(Array.from(root.querySelectorAll(CHROME)).filter((element) => !keep(element)));
  for (const element of root.querySelectorAll('[style]')) {
    if (/display\s*:\s*none|visibility\s*:\s*hidden/i.test(element.getAttribute('style') ?? '')) element.remove();
  }
}

/**
 * Tables that hold other tables, or say they are presentational, lay out a page rather than hold
 * data. As divs they let Readability score their cells like any other block, instead of taking
 * the whole grid (sidebars included) as one candidate.
 */
function unwrapLayoutTables(root: DomElement): void {
  const layout = Array.from(root.querySelectorAll('table')).filter(
    (table) => table.querySelector('table') !== null || /^(?:presentation|none)$/i.test(table.getAttribute('role') ?? ''),
  );
  for (const table of layout) {
    const parts = Array.from(table.querySelectorAll('tbody, thead, tfoot, tr, td, th')).filter((part) => closestTable(part) === table);
    for (const element of [...parts, table]) renameElement(element, 'div');
  }
}

function closestTable(element: DomElement): DomElement | null {
  for (let parent = element.parentNode; parent; parent = parent.parentNode) {
    if (tagOf(parent) === 'table') return parent;
  }
  return null;
}

/** Replaces `element` with a `tag` element holding its children (attributes are not kept). */
function renameElement(element: DomElement, tag: string): void {
  const replacement = element.ownerDocument?.createElement(tag);
  if (!replacement || !element.parentNode) return;
  while (element.firstChild) replacement.appendChild(element.firstChild);
  element.parentNode.replaceChild(replacement, element);
}

/** Readability turns runs of `<br>` into paragraphs, even inside `<pre>`; there they are newlines. */
function keepPreformattedBreaks(root: DomElement): void {
  for (const br of Array.from(root.querySelectorAll('pre br'))) {
    const newline = br.ownerDocument?.createTextNode('\n');
    if (newline && br.parentNode) br.parentNode.replaceChild(newline, br);
  }
}

/** Readability drops every `<input>`; a task list's checkboxes survive it as marked spans. */
function keepTaskMarkers(root: DomElement): void {
  for (const box of Array.from(root.querySelectorAll('li input[type="checkbox" i]'))) {
    const marker = box.ownerDocument?.createElement('span');
    if (!marker || !box.parentNode) continue;
    marker.setAttribute('data-task', box.hasAttribute('checked') ? 'done' : 'open');
    box.parentNode.replaceChild(marker, box);
  }
}

/** Lazy-loaded images: the real URL sits in a data attribute and `src` holds a placeholder or nothing. */
export function useLazySources(root: DomElement): void {
  for (const image of root.querySelectorAll('img')) {
    const src = image.getAttribute('src') ?? '';
    if (src && !/^data:/i.test(src)) continue;
    const lazy = ['data-src', 'data-original', 'data-lazy-src', 'data-url', 'data-hi-res-src']
      .map((name) => image.getAttribute(name))
      .find((value) => value && !/^data:/i.test(value));
    const srcset = image.getAttribute('srcset') ?? image.getAttribute('data-srcset') ?? '';
    const candidate = lazy ?? srcsetCandidates(srcset)[0]?.url;
    if (candidate) image.setAttribute('src', candidate);
  }
}

export function removeAll(elements: Iterable<DomElement>): void {
  for (const element of Array.from(elements)) element.remove();
}

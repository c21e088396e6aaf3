import { absoluteUrl, collapseWhitespace, type DomElement, elementText, visibleText } from '../structured/dom.ts';
import type { PageContext } from './context.ts';
import { findPrices, type Price } from './values.ts';

/** One repeated item of a listing page found without structured data. */
export interface Card {
  element: DomElement;
  url: string;
  name?: string;
  text: string;
  image?: string;
  price?: Price;
}

const LAZY_SOURCES = ['data-src', 'data-lazy-src', 'data-original', 'data-csrc', 'data-srcset', 'src'];
const PLACEHOLDER = /(?:spacer|blank|pixel|transparent|placeholder|loading)[^/]*\.(?:gif|png|svg)$|^data:/i;

/** The picture an `<img>` shows, preferring lazy-loading attributes over placeholder `src`s. */
export function imageSource(img: DomElement, base: string): string | undefined {
  for (const attribute of LAZY_SOURCES) {
    const raw = img.getAttribute(attribute)?.trim().split(/\s+/)[0];
    if (!raw || PLACEHOLDER.test(raw)) continue;
    const url = absoluteUrl(raw, base);
    if (url) return url;
  }
  return undefined;
}

function linkTarget(link: DomElement, base: string): string | undefined {
  const href = link.getAttribute('href')?.trim() ?? '';
  if (!href || href.startsWith('#') || /^(?:mailto|tel|javascript):/i.test(href)) return undefined;
  const url = absoluteUrl(href, base);
  return url?.replace(/#.*$/, '');
}

function signature(element: DomElement): string {
  const classes = (element.getAttribute('class') ?? '').split(/\s+/).filter(Boolean).sort().join('.');
  return classes ? `${element.localName}.${classes}` : element.localName;
}

/** Tag-and-class path of the element and a few ancestors: siblings in one list share it. */
function structuralPath(element: DomElement): string {
  const parts: string[] = [];
  let current: DomElement | null = element;
  for (let depth = 0; current && depth < 6; depth += 1, current = current.parentElement) parts.push(signature(current));
  return parts.join('<');
}

const BOILERPLATE = 'header, nav, footer, aside';

/**
 * Repeated link-bearing items of a listing page: each link climbs to the largest ancestor that
 * links nowhere else (the card), cards are grouped by their structural path, and the group with
 * the most cards showing a price wins. Navigation, headers and footers are not considered.
 */
export function findCards(context: PageContext): Card[] {
  const targets = new Map<DomElement, string>();
  for (const link of Array.from(context.doc.querySelectorAll('a[href]'))) {
    if (link.closest(BOILERPLATE)) continue;
    const url = linkTarget(link, context.base);
    if (url) targets.set(link, url);
  }
  const linksUnder = new Map<DomElement, Set<string>>();
  const distinctLinks = (element: DomElement): Set<string> => {
    let set = linksUnder.get(element);
    if (!set) {
      set = new Set<string>();
      for (const link of Array.from(element.querySelectorAll('a[href]'))) {
        const url = targets.get(link) ?? linkTarget(link, context.base);
        if (url) set.add(url);
      }
      linksUnder.set(element, set);
    }
    return set;
  };

  const cards = new Map<DomElement, string>();
  for (const [link, url] of targets) {
    let root = link;
    for (let parent = root.parentElement; parent && !['body', 'html'].includes(parent.localName); parent = parent.parentElement) {
      if (distinctLinks(parent).size > 1) break;
      root = parent;
    }
    if (!cards.has(root)) cards.set(root, url);
  }

  const groups = new Map<string, Card[]>();
  for (const [element, url] of cards) {
    const text = visibleText(element);
    const card: Card = {
      element,
      url,
      text,
      price: findPrices(text)[0],
      name: cardName(element),
      image: cardImage(element, context.base),
    };
    const key = structuralPath(element);
    groups.set(key, [...(groups.get(key) ?? []), card]);
  }
  let best: Card[] = [];
  let bestPriced = 1;
  for (const group of groups.values()) {
    const priced = group.filter((card) => card.price).length;
    if (priced > bestPriced || (priced === bestPriced && priced > 1 && group.length > best.length)) {
      best = group;
      bestPriced = priced;
    }
  }
  return best;
}

function cardName(element: DomElement): string | undefined {
  const links = [element, ...Array.from(element.querySelectorAll('a[href]'))].filter((node) => node.localName === 'a');
  const titled = links.map((link) => collapseWhitespace(link.getAttribute('title') ?? '')).find(Boolean);
  if (titled) return titled;
  const heading = element.querySelector('h1, h2, h3, h4, h5, h6');
  const headingText = heading ? elementText(heading) : '';
  if (headingText) return headingText;
  const linkTexts = links.map((link) => elementText(link)).filter(Boolean);
  const longest = linkTexts.sort((a, b) => b.length - a.length)[0];
  if (longest) return longest;
  return collapseWhitespace(element.querySelector('img[alt]')?.getAttribute('alt') ?? '') || undefined;
}

function cardImage(element: DomElement, base: string): string | undefined {
  for (const img of Array.from(element.querySelectorAll('img'))) {
    const url = imageSource(img, base);
    if (url) return url;
  }
  return element.localName === 'img' ? imageSource(element, base) : undefined;
}

/**
 * A listing title without the price and separators around it:
 * `925 Sterling Silver Bracelet - $25 -` → `925 Sterling Silver Bracelet`.
 */
export function stripPrices(name: string, drop: (segment: string) => boolean = () => false): string | undefined {
  let stripped = name;
  for (const price of findPrices(name)) stripped = stripped.replace(price.match, ' ');
  const segments = stripped
    .split(/\s+[-–—|/]\s+|\s+[-–—|/]$|^[-–—|/]\s+|^\s*[-–—|/]\s*$/)
    .map((segment) => collapseWhitespace(segment).replace(/^[-–—|/]\s*|\s*[-–—|/]$/g, '').trim())
    .filter((segment) => segment && !drop(segment));
  return segments.join(' - ') || undefined;
}

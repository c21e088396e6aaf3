import { absoluteUrl, collapseWhitespace, type DomDocument, elementText, visibleText } from '../structured/dom.ts';

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,24}/g;
const NOT_EMAIL_TLD = /\.(?:png|jpe?g|gif|svg|webp|css|js)$/i;

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** De-duplicates case-insensitively, keeping the first spelling seen. */
function uniqueIgnoringCase(values: readonly string[]): string[] {
  const seen = new Map<string, string>();
  for (const value of values) if (!seen.has(value.toLowerCase())) seen.set(value.toLowerCase(), value);
  return [...seen.values()];
}

/** Addresses from `mailto:` links, then from the visible text (comments and scripts are not read). */
export function emailsIn(doc: DomDocument): string[] {
  const fromLinks = Array.from(doc.querySelectorAll('a[href^="mailto:" i], area[href^="mailto:" i]')).flatMap((link) =>
    decode((link.getAttribute('href') ?? '').replace(/^mailto:/i, '').split('?')[0] ?? '')
      .split(/[,;]/)
      .map((address) => address.trim()),
  );
  const root = doc.querySelector('body') ?? doc.querySelector('html');
  const fromText = root ? [...visibleText(root).matchAll(EMAIL)].map((match) => match[0]) : [];
  return uniqueIgnoringCase(
    [...fromLinks, ...fromText].filter((address) => /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(address) && !NOT_EMAIL_TLD.test(address)),
  );
}

const DIGIT_COUNT = (value: string): number => value.replace(/\D/g, '').length;
const PHONE_CHARS = /^[+()\d\s./-]+$/;
const PHONE_RUN = /\+?\(?\d[\d\s().-]{5,20}\d/g;
const CUE = /(?:tel|phone|telephone|call|freephone|toll-free|fax|mobile|cell|\bt)\s*[.:]?\s*(?:us|now)?\s*:?\s*$/i;
const NANP = /^\(?\d{3}\)?[\s.-]?\d{3}[.-]\d{4}$/;

function isPlausiblePhone(candidate: string): boolean {
  const digits = DIGIT_COUNT(candidate);
  return digits >= 7 && digits <= 15 && PHONE_CHARS.test(candidate);
}

/**
 * Phone numbers from `tel:` links, from elements marked as phones (`itemprop=telephone`, class
 * `tel`/`phone`), and from the visible text where a cue (`Tel`, `Call`, `Freephone`, `T:`)
 * precedes them or they are written `+…` or `555-123-4567`. Numbers keep the page's spelling;
 * repeats (same digits) are dropped.
 */
export function phonesIn(doc: DomDocument): string[] {
  const found: string[] = [];
  for (const link of Array.from(doc.querySelectorAll('a[href^="tel:" i]'))) {
    const number = decode((link.getAttribute('href') ?? '').replace(/^tel:/i, '')).trim();
    if (isPlausiblePhone(number)) found.push(collapseWhitespace(number));
  }
  const marked = doc.querySelectorAll('[itemprop~="telephone"], .tel, .phone, .telephone, [class*="phone-number"]');
  for (const element of Array.from(marked)) {
    const value = elementText(element);
    if (isPlausiblePhone(value)) found.push(value);
  }
  const root = doc.querySelector('body') ?? doc.querySelector('html');
  const body = root ? visibleText(root) : '';
  for (const match of body.matchAll(PHONE_RUN)) {
    const candidate = match[0].trim();
    if (!isPlausiblePhone(candidate)) continue;
    const before = body.slice(Math.max(0, (match.index ?? 0) - 24), match.index);
    if (candidate.startsWith('+') || NANP.test(candidate) || CUE.test(before)) found.push(candidate);
  }
  const byDigits = new Map<string, string>();
  for (const phone of found) {
    const key = phone.replace(/\D/g, '');
    if (!byDigits.has(key)) byDigits.set(key, phone);
  }
  return [...byDigits.values()];
}

const SOCIAL_HOSTS =
  /(?:^|\.)(?:facebook\.com|fb\.com|twitter\.com|x\.com|instagram\.com|linkedin\.com|youtube\.com|pinterest\.com|tiktok\.com|threads\.net|mastodon\.social|github\.com|yelp\.com|tripadvisor\.[a-z.]+|plus\.google\.com)$/i;
const SHARE_PATH = /\/(?:sharer|share|intent|pin\/create|shareArticle|dialog)\b|[?&](?:u|url)=/i;

/** True for a profile link on a social network (share buttons excluded). */
export function isSocialProfile(url: string): boolean {
  try {
    const parsed = new URL(url);
    return SOCIAL_HOSTS.test(parsed.hostname) && parsed.pathname.length > 1 && !SHARE_PATH.test(parsed.pathname + parsed.search);
  } catch {
    return false;
  }
}

/** Links to social profiles in the page, absolute and de-duplicated. */
export function socialLinksIn(doc: DomDocument, base: string): string[] {
  const urls = Array.from(doc.querySelectorAll('a[href]'))
    .map((link) => absoluteUrl(link.getAttribute('href'), base))
    .filter((url): url is string => url !== undefined && isSocialProfile(url));
  return [...new Set(urls)];
}

import type { DomElement, HtmlDocument } from './dom';

/** The URL relative references resolve against: the first `<base href>` (itself resolved), else the page URL. */
export function documentBase(document: HtmlDocument, pageUrl: string): URL | null {
  const page = parseUrl(pageUrl);
  const href = document.querySelector('base[href]')?.getAttribute('href')?.trim();
  return (href ? parseUrl(href, page ?? undefined) : null) ?? page;
}

/** `reference` resolved against `base`; unchanged when it cannot be resolved or there is no base. */
export function absoluteUrl(reference: string, base: URL | null): string {
  const trimmed = reference.trim();
  if (!base || trimmed === '') return trimmed;
  return parseUrl(trimmed, base)?.href ?? trimmed;
}

/** The attributes that hold a URL, by element. */
const URL_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  a: ['href'],
  area: ['href'],
  img: ['src', 'srcset'],
  source: ['src', 'srcset'],
  video: ['src', 'poster'],
  audio: ['src'],
  track: ['src'],
  iframe: ['src'],
  embed: ['src'],
  blockquote: ['cite'],
  q: ['cite'],
  ins: ['cite'],
  del: ['cite'],
};

/** Rewrites every link, media source and srcset under `root` to an absolute URL; drops script URLs. */
export function absolutizeUrls(root: DomElement | HtmlDocument, base: URL | null): void {
  if (!base) return;
  // One pass over the candidates: each selector query is a full walk of the tree in linkedom.
  for (const element of root.querySelectorAll('[href], [src], [srcset], [poster], [cite]')) {
    for (const attribute of URL_ATTRIBUTES[element.localName.toLowerCase()] ?? []) {
      const value = element.getAttribute(attribute);
      if (value === null) continue;
      if (/^\s*(?:javascript|vbscript):/i.test(value)) element.removeAttribute(attribute);
      else element.setAttribute(attribute, attribute === 'srcset' ? absoluteSrcset(value, base) : absoluteUrl(value, base));
    }
  }
}

/** A srcset with each candidate's URL made absolute (descriptors kept). */
export function absoluteSrcset(srcset: string, base: URL | null): string {
  return srcsetCandidates(srcset)
    .map(({ url, descriptor }) => [absoluteUrl(url, base), descriptor].filter(Boolean).join(' '))
    .join(', ');
}

/** The candidates of a srcset. A comma only separates candidates when followed by white space. */
export function srcsetCandidates(srcset: string): { url: string; descriptor: string }[] {
  return srcset
    .split(/,\s+/)
    .map((candidate) => candidate.trim().split(/\s+/))
    .filter((parts) => parts[0])
    .map(([url = '', ...descriptor]) => ({ url: url.replace(/,$/, ''), descriptor: descriptor.join(' ') }));
}

function parseUrl(value: string, base?: URL): URL | null {
  try {
    return new URL(value, base);
  } catch {
    return null;
  }
}

import { collapseWhitespace, type HtmlDocument } from './dom';
import { absoluteUrl, documentBase } from './urls';

export interface PageMetadata {
  title?: string;
  description?: string;
  language?: string;
  /** `<link rel="canonical">`, made absolute. */
  canonicalUrl?: string;
  /**
   * Open Graph properties keyed without the `og:` prefix (`title`, `image`, `image:width`, ...).
   * When a property repeats (several `og:image`), the first one wins.
   */
  openGraph: Record<string, string>;
  /** Every `application/ld+json` block that parses, in document order; invalid blocks are skipped. */
  jsonLd: unknown[];
}

/**
 * The page's own description of itself: title (og:title, else `<title>`), description (meta
 * description, else og:description), `<html lang>`, canonical URL, Open Graph and JSON-LD.
 * Call it before anything strips scripts from the document.
 */
export function pageMetadata(document: HtmlDocument, url: string): PageMetadata {
  const openGraph = openGraphOf(document);
  const named = namedMeta(document);
  const base = documentBase(document, url);
  const canonical = document.querySelector('link[rel~="canonical" i][href]')?.getAttribute('href');
  const language = document.documentElement?.getAttribute('lang') ?? named.get('content-language');

  return omitEmpty({
    title: clean(openGraph.title) ?? clean((document.querySelector('head title') ?? document.querySelector('title'))?.textContent) ?? clean(named.get('twitter:title')),
    description: clean(named.get('description')) ?? clean(openGraph.description) ?? clean(named.get('twitter:description')),
    language: clean(language),
    canonicalUrl: canonical ? absoluteUrl(canonical, base) : undefined,
    openGraph,
    jsonLd: jsonLdOf(document),
  });
}

function openGraphOf(document: HtmlDocument): Record<string, string> {
  const properties: Record<string, string> = {};
  for (const meta of document.querySelectorAll('meta[content]')) {
    // Sites write Open Graph with `property` (the spec), `name`, or several space-separated properties.
    const keys = `${meta.getAttribute('property') ?? ''} ${meta.getAttribute('name') ?? ''}`.toLowerCase().split(/\s+/);
    const content = meta.getAttribute('content')?.trim();
    if (!content) continue;
    for (const key of keys) {
      if (key.startsWith('og:') && key.length > 3 && !(key.slice(3) in properties)) properties[key.slice(3)] = content;
    }
  }
  return properties;
}

/** `<meta name=… content=…>` and `<meta http-equiv=… content=…>` by lower-cased name; first wins. */
function namedMeta(document: HtmlDocument): Map<string, string> {
  const named = new Map<string, string>();
  for (const meta of document.querySelectorAll('meta[content]')) {
    const name = (meta.getAttribute('name') ?? meta.getAttribute('http-equiv') ?? '').trim().toLowerCase();
    const content = meta.getAttribute('content') ?? '';
    if (name && !named.has(name)) named.set(name, content);
  }
  return named;
}

function jsonLdOf(document: HtmlDocument): unknown[] {
  const blocks: unknown[] = [];
  for (const script of document.querySelectorAll('script[type]')) {
    if (script.getAttribute('type')?.trim().toLowerCase() !== 'application/ld+json') continue;
    // Some CMSs wrap the JSON in a CDATA section or an HTML comment.
    const text = (script.textContent ?? '')
      .replace(/^\s*(?:\/\/\s*)?(?:<!\[CDATA\[|<!--)/, '')
      .replace(/(?:\/\/\s*)?(?:\]\]>|-->)\s*$/, '')
      .trim();
    if (!text) continue;
    try {
      blocks.push(JSON.parse(text));
    } catch {
      // Invalid JSON-LD is common in the wild; it carries nothing we can use.
    }
  }
  return blocks;
}

function clean(value: string | null | undefined): string | undefined {
  const collapsed = collapseWhitespace(value ?? '');
  return collapsed === '' ? undefined : collapsed;
}

/** Drops the optional keys left undefined, so the metadata serialises without nulls. */
function omitEmpty(metadata: PageMetadata): PageMetadata {
  const result: PageMetadata = { openGraph: {}, jsonLd: [] };
  if (metadata.title !== undefined) result.title = metadata.title;
  if (metadata.description !== undefined) result.description = metadata.description;
  if (metadata.language !== undefined) result.language = metadata.language;
  if (metadata.canonicalUrl !== undefined) result.canonicalUrl = metadata.canonicalUrl;
  result.openGraph = metadata.openGraph;
  result.jsonLd = metadata.jsonLd;
  return result;
}

import { absoluteUrl, collapseWhitespace, type DomDocument, documentBase, elementText } from '../structured/dom.ts';
import { allItems, jsonLd, microdata, openGraph, rdfa } from '../structured/index.ts';
import type { MetaProperties, NestedItem, SchemaSource } from '../structured/types.ts';
import type { ExtractPage } from './types.ts';

/** Everything the scrapers read from one page, parsed once. */
export interface PageContext {
  doc: DomDocument;
  /** The page URL (after redirects). */
  url: string;
  /** Base for relative URLs (`<base href>` or the page URL). */
  base: string;
  /** Items by syntax, in the order scrapers consult them. */
  sources: readonly { source: SchemaSource; items: NestedItem[] }[];
  meta: MetaProperties;
}

export function readPage(page: ExtractPage): PageContext {
  const { document: doc, url } = page;
  const base = documentBase(doc, url);
  return {
    doc,
    url,
    base,
    sources: [
      { source: 'json-ld', items: jsonLd(doc) },
      { source: 'microdata', items: microdata(doc, base) },
      { source: 'rdfa', items: rdfa(doc, base) },
    ],
    meta: openGraph(doc),
  };
}

export type TypeTest = (type: string) => boolean;

export function hasType(item: NestedItem, test: TypeTest): boolean {
  return item.type.some(test);
}

/**
 * The items passing `test` from the first syntax (JSON-LD, then microdata, then RDFa) that has
 * any. `nested` also searches inside other items (a `Product` under an `ItemList`).
 */
export function itemsFromFirstSource(
  context: PageContext,
  test: TypeTest,
  { nested = true }: { nested?: boolean } = {},
): NestedItem[] {
  for (const { items } of context.sources) {
    const pool = nested ? allItems(items) : items;
    const matching = pool.filter((item) => hasType(item, test));
    if (matching.length > 0) return matching;
  }
  return [];
}

/** Items passing `test` from every syntax, JSON-LD first. */
export function itemsFromAllSources(context: PageContext, test: TypeTest, { nested = true } = {}): NestedItem[] {
  return context.sources.flatMap(({ items }) => (nested ? allItems(items) : items).filter((item) => hasType(item, test)));
}

/** The first value of a meta property among `keys`. */
export function metaValue(context: PageContext, ...keys: string[]): string | undefined {
  for (const key of keys) {
    const value = context.meta[key]?.[0];
    if (value) return value;
  }
  return undefined;
}

/** `<link rel=canonical>`, then `og:url`, then the page URL. */
export function canonicalUrl(context: PageContext): string {
  const canonical = context.doc.querySelector('link[rel~="canonical"][href]')?.getAttribute('href');
  return absoluteUrl(canonical, context.base) ?? absoluteUrl(metaValue(context, 'og:url'), context.base) ?? context.url;
}

export function documentTitle(context: PageContext): string | undefined {
  const title = context.doc.querySelector('title');
  return title ? elementText(title) || undefined : undefined;
}

export function firstHeading(context: PageContext): string | undefined {
  const heading = context.doc.querySelector('h1');
  return heading ? elementText(heading) || undefined : undefined;
}

export function metaDescription(context: PageContext): string | undefined {
  const meta = Array.from(context.doc.querySelectorAll('meta[name][content]')).find(
    (element) => element.getAttribute('name')?.trim().toLowerCase() === 'description',
  );
  return collapseWhitespace(meta?.getAttribute('content') ?? '') || undefined;
}

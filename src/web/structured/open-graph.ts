import { collapseWhitespace, type DomDocument } from './dom.ts';
import type { MetaProperties } from './types.ts';

/** Namespaces read: Open Graph and its object types, Facebook's product/business/place, Twitter Cards. */
const NAMESPACES = /^(og|product|twitter|article|book|profile|business|place|restaurant):/;

/**
 * Open Graph (`og:*`), `product:*`, `business:*`, `place:*` and Twitter Card (`twitter:*`) meta
 * tags, whether written with `property` or `name` (sites use both), in document order. Keys are
 * lower-cased; repeated tags (several `og:image`) keep every value.
 */
export function openGraph(doc: DomDocument): MetaProperties {
  const properties: MetaProperties = {};
  for (const meta of Array.from(doc.querySelectorAll('meta'))) {
    const content = meta.getAttribute('content') ?? meta.getAttribute('value');
    if (content === null) continue;
    const value = collapseWhitespace(content);
    if (!value) continue;
    const keys = new Set(
      [meta.getAttribute('property'), meta.getAttribute('name')]
        .flatMap((attribute) => (attribute ?? '').split(/\s+/))
        .map((key) => key.trim().toLowerCase())
        .filter((key) => NAMESPACES.test(key)),
    );
    for (const key of keys) (properties[key] ??= []).push(value);
  }
  return properties;
}

import { type DomDocument, documentBase } from './dom.ts';
import { jsonLd } from './json-ld.ts';
import { microdata } from './microdata.ts';
import { rdfa } from './rdfa.ts';
import { isNestedItem, type NestedItem, type SchemaItem } from './types.ts';

export * from './dom.ts';
export * from './types.ts';
export { jsonLd } from './json-ld.ts';
export { microdata } from './microdata.ts';
export { openGraph } from './open-graph.ts';
export { rdfa } from './rdfa.ts';

/** JSON-LD, then microdata, then RDFa items of the page, relative URLs resolved against `url`. */
export function schemaItems(doc: DomDocument, url: string): SchemaItem[] {
  const base = documentBase(doc, url);
  return [...jsonLd(doc), ...microdata(doc, base), ...rdfa(doc, base)];
}

/** Every item and every item nested in a property value, depth first, each once. */
export function allItems(items: readonly NestedItem[]): NestedItem[] {
  const seen = new Set<NestedItem>();
  const result: NestedItem[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const entry of value) visit(entry);
      return;
    }
    if (!isNestedItem(value) || seen.has(value)) return;
    seen.add(value);
    result.push(value);
    for (const property of Object.values(value.properties)) visit(property);
  };
  for (const item of items) visit(item);
  return result;
}

import { allItems } from '../structured/index.ts';
import { isNestedItem, type NestedItem } from '../structured/types.ts';
import { list } from './values.ts';

/** Containers whose `itemListElement` holds the things a page shows; breadcrumbs list pages, not things. */
const LIST_TYPES = new Set(['ItemList', 'OfferCatalog']);

export function isList(item: NestedItem): boolean {
  return item.type.some((type) => LIST_TYPES.has(type));
}

/**
 * The things the lists among `items` (nested ones too) hold, in list order, each once: a
 * `ListItem`'s `item`, or the entry itself when it is the thing (`"@type": ["ListItem",
 * "Product"]`, or a bare `Product` in the list). A list inside a list gives its own entries.
 */
export function listEntries(items: readonly NestedItem[]): NestedItem[] {
  const entries = new Set<NestedItem>();
  for (const container of allItems(items).filter(isList)) {
    for (const entry of list(container.properties.itemListElement)) {
      if (!isNestedItem(entry)) continue;
      const thing = isNestedItem(entry.properties.item) ? entry.properties.item : entry;
      if (!isList(thing)) entries.add(thing);
    }
  }
  return [...entries];
}

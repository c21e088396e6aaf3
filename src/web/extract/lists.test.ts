import { describe, expect, it } from 'vitest';

import type { NestedItem } from '../structured/types.ts';
import { listEntries } from './lists.ts';

const item = (type: string[], properties: Record<string, unknown> = {}): NestedItem => ({ type, properties });

describe('listEntries', () => {
  const shoe = item(['Product'], { name: 'Shoe' });
  const sock = item(['Product'], { name: 'Sock' });

  it.each([
    ['the item a ListItem holds', item(['ItemList'], { itemListElement: [item(['ListItem'], { position: 1, item: shoe })] }), [shoe]],
    ['an entry that is the thing itself', item(['ItemList'], { itemListElement: shoe }), [shoe]],
    ['the entries of an OfferCatalog', item(['OfferCatalog'], { itemListElement: [shoe, sock] }), [shoe, sock]],
    ['a list nested in another item', item(['CollectionPage'], { mainEntity: item(['ItemList'], { itemListElement: [shoe] }) }), [shoe]],
    ['the entries of a list inside a list, not the inner list', item(['ItemList'], { itemListElement: item(['ListItem'], { item: item(['ItemList'], { itemListElement: [sock] }) }) }), [sock]],
    ['nothing from breadcrumbs', item(['BreadcrumbList'], { itemListElement: [item(['ListItem'], { name: 'Home', item: 'https://example.com/' })] }), []],
  ])('gives %s', (_name, container, expected) => {
    expect(listEntries([container])).toEqual(expected);
  });

  it('gives a thing listed twice once', () => {
    const lists = [item(['ItemList'], { itemListElement: [shoe, sock] }), item(['ItemList'], { itemListElement: [item(['ListItem'], { item: shoe })] })];
    expect(listEntries(lists)).toEqual([shoe, sock]);
  });
});

import { allItems } from '../structured/index.ts';
import type { NestedItem } from '../structured/types.ts';
import { type Card, findCards, stripPrices } from './cards.ts';
import { hasType, type PageContext, readPage } from './context.ts';
import { listEntries } from './lists.ts';
import { offerFields } from './offers.ts';
import { isProduct } from './schema-types.ts';
import type { ExtractRecord, Scraper } from './types.ts';
import { compact, fillGaps, text, urlOf, urlsOf } from './values.ts';

/**
 * `product-listing`: one record per product shown on a category, search or listing page.
 *
 * | field | type | |
 * |---|---|---|
 * | name | string | |
 * | price | number | |
 * | currency | string | ISO 4217 |
 * | availability | string | as in `product-page` |
 * | url | string | absolute product URL |
 * | image | string | absolute URL |
 *
 * Sources in order: the entries of an `ItemList`/`OfferCatalog` (a `ListItem`'s `item`, or the
 * entry itself), else every `Product` item, from the first of JSON-LD, microdata, RDFa that names
 * any (prices and images the markup lacks are taken from the matching card on the page, by URL);
 * without markup, the page's repeated cards (the group of sibling blocks that each link one URL
 * and show a price).
 */

function itemRecord(item: NestedItem, context: PageContext): ExtractRecord {
  const { properties } = item;
  const { price, currency, availability } = offerFields(item);
  return compact({
    name: text(properties.name),
    price,
    currency,
    availability,
    url: urlOf(properties.url, context.base) ?? urlOf(item.properties['@id'], context.base),
    image: urlsOf(properties.image, context.base)[0],
  });
}

function stockOf(card: Card): string | undefined {
  if (/\b(?:out of stock|sold out)\b/i.test(card.text)) return 'out_of_stock';
  if (/\bin stock\b/i.test(card.text)) return 'in_stock';
  return undefined;
}

function cardRecord(card: Card): ExtractRecord {
  return compact({
    name: card.name ? stripPrices(card.name) : undefined,
    price: card.price?.amount,
    currency: card.price?.currency,
    availability: stockOf(card),
    url: card.url,
    image: card.image,
  });
}

/**
 * Records from the first syntax that names any product: its lists' entries, else (lists that
 * only give each entry's URL, as Google's summary-page carousel does) its `Product` items.
 */
function structuredRecords(context: PageContext): ExtractRecord[] {
  const named = (chosen: NestedItem[]) => chosen.map((item) => itemRecord(item, context)).filter((record) => record.name !== undefined);
  for (const { items } of context.sources) {
    const listed = named(listEntries(items));
    const records = listed.length > 0 ? listed : named(allItems(items).filter((item) => hasType(item, isProduct)));
    if (records.length > 0) return records;
  }
  return [];
}

export const productListing: Scraper = {
  name: 'product-listing',
  category: 'ecommerce',
  input_hint: '{"url": "https://shop.example/category/shoes"} — a category, search-results or listing page',
  description:
    'One record per product on a listing page: name, price (number), currency (ISO 4217), availability, url ' +
    '(absolute), image (absolute). Read from ItemList/Product markup (JSON-LD, microdata, RDFa), else from the ' +
    "page's repeated product cards. Fields the page does not state are omitted.",
  extract(page) {
    const context = readPage(page);
    const cards = findCards(context);
    const structured = structuredRecords(context);
    if (structured.length === 0) return cards.map(cardRecord).filter((record) => record.name !== undefined);
    const byUrl = new Map(cards.map((card) => [card.url, cardRecord(card)]));
    // Markup often names the products but leaves the price to the visible card.
    return structured.map((record) => {
      const card = typeof record.url === 'string' ? byUrl.get(record.url) : undefined;
      if (!card) return record;
      const { price, currency, image, availability } = card;
      return fillGaps(record, compact({ price, currency, image, availability }));
    });
  },
};

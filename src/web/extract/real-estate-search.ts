import { allItems } from '../structured/index.ts';
import { isNestedItem, type NestedItem } from '../structured/types.ts';
import { type Card, findCards, stripPrices } from './cards.ts';
import { type PageContext, readPage } from './context.ts';
import { listEntries } from './lists.ts';
import { isRoomToken, listingTypeIn, propertyTypeIn, roomsIn, structuredListing } from './real-estate.ts';
import { isRealEstate } from './schema-types.ts';
import type { ExtractRecord, Scraper } from './types.ts';
import { compact, list } from './values.ts';

/**
 * `real-estate-search`: one record per property on a search-results or agency listing page:
 * title, price, currency, address fields and lat/lng (when marked up), bedrooms, bathrooms,
 * floor_area, floor_area_unit, property_type, listing_type, url, image (first photo).
 *
 * Sources: `ItemList` entries and `RealEstateListing`/dwelling items from the first of JSON-LD,
 * microdata, RDFa; without markup, the page's repeated result cards (blocks linking one URL and
 * showing a price), whose text gives the room counts, area, type and sale/rent wording.
 */

function structuredResults(context: PageContext): ExtractRecord[] {
  for (const { items } of context.sources) {
    const everything = allItems(items);
    const entries = listEntries(items).filter((entry) => entry.type.some(isRealEstate));
    const listings: NestedItem[] = entries.length > 0 ? entries : topListings(everything);
    if (listings.length > 0) return listings.map((listing) => searchRecord(structuredListing(listing, context)));
  }
  return [];
}

/** Listing items not nested in another listing item (the dwelling a listing is about is not a result). */
function topListings(everything: NestedItem[]): NestedItem[] {
  const listings = everything.filter((item) => item.type.some(isRealEstate));
  const nested = new Set(listings.flatMap((item) => allItems(Object.values(item.properties).flatMap(list).filter(isNestedItem))));
  return listings.filter((item) => !nested.has(item));
}

function searchRecord(record: ExtractRecord): ExtractRecord {
  const { images, ...rest } = record;
  return compact({ ...rest, image: Array.isArray(images) ? images[0] : undefined });
}

function cardRecord(card: Card): ExtractRecord {
  const name = card.name ?? card.text;
  return compact({
    title: stripPrices(name, isRoomToken),
    price: card.price?.amount,
    currency: card.price?.currency,
    ...roomsIn(card.text),
    property_type: propertyTypeIn(name),
    listing_type: listingTypeIn(name),
    url: card.url,
    image: card.image,
  });
}

export const realEstateSearch: Scraper = {
  name: 'real-estate-search',
  category: 'real-estate',
  input_hint: '{"url": "https://realty.example/search?city=austin"} — a search-results or agency listings page',
  description:
    'One record per property on a results page: title, price (number), currency (ISO 4217), address and lat/lng when ' +
    'marked up, bedrooms, bathrooms, floor_area, floor_area_unit, property_type, listing_type (sale or rent), url, ' +
    "image. Read from ItemList/RealEstateListing markup, else from the page's repeated result cards.",
  extract(page) {
    const context = readPage(page);
    const structured = structuredResults(context);
    if (structured.length > 0) return structured;
    return findCards(context)
      .map(cardRecord)
      .filter((record) => record.title !== undefined);
  },
};

import { collapseWhitespace, type DomElement, elementText, visibleText } from '../structured/dom.ts';
import { isNestedItem, type NestedItem } from '../structured/types.ts';
import { imageSource } from './cards.ts';
import { canonicalUrl, documentTitle, firstHeading, metaDescription, metaValue, type PageContext } from './context.ts';
import { offerFields } from './offers.ts';
import { addressFrom, coordinatesOf, ukAddressLine, usAddressIn } from './place.ts';
import { isRealEstate } from './schema-types.ts';
import type { ExtractRecord } from './types.ts';
import { compact, first, integer, list, number, parsePrice, text, unique, urlOf, urlsOf } from './values.ts';

/**
 * Shared by `real-estate-listing` and `real-estate-search`. A listing record:
 *
 * | field | type | |
 * |---|---|---|
 * | title | string | |
 * | description | string | |
 * | price | number | asking price or rent |
 * | currency | string | ISO 4217 |
 * | address | string | one line |
 * | street, locality, region, postal_code, country | string | address parts |
 * | lat, lng | number | |
 * | bedrooms | integer | |
 * | bathrooms | number | halves allowed (`2.5`) |
 * | floor_area | number | |
 * | floor_area_unit | string | `sqft` or `sqm` |
 * | property_type | string | `house`, `apartment`, `flat`, `condo`, `townhouse`, `duplex`, `studio`, `maisonette`, `bungalow`, `cottage`, `villa`, `land`, `room`, … |
 * | listing_type | string | `sale` or `rent` |
 * | images | string[] | absolute URLs (a search result has `image`, its first) |
 * | url | string | |
 */

const PROPERTY_TYPES: readonly [RegExp, string][] = [
  [/\bsingle[- ]family\b/i, 'house'],
  [/\bmaisonette\b/i, 'maisonette'],
  [/\btown ?house\b/i, 'townhouse'],
  [/\bcondo(?:minium)?\b/i, 'condo'],
  [/\bpenthouse\b/i, 'penthouse'],
  [/\bduplex\b/i, 'duplex'],
  [/\btriplex\b/i, 'triplex'],
  [/\bstudio\b/i, 'studio'],
  [/\bbungalow\b/i, 'bungalow'],
  [/\bcottage\b/i, 'cottage'],
  [/\bvilla\b/i, 'villa'],
  [/\bloft\b/i, 'loft'],
  [/\bmobile home\b/i, 'mobile_home'],
  [/\bapartment\b|\bapt\b/i, 'apartment'],
  [/\bflat\b/i, 'flat'],
  [/\bhouse\b/i, 'house'],
  [/\bland\b|\bplot\b/i, 'land'],
  [/\broom\b/i, 'room'],
];

const SCHEMA_PROPERTY_TYPES: Readonly<Record<string, string>> = {
  SingleFamilyResidence: 'house',
  House: 'house',
  Apartment: 'apartment',
  ApartmentComplex: 'apartment_complex',
  GatedResidenceCommunity: 'gated_community',
  Room: 'room',
};

/** The property type named earliest in `raw` (`Maisonette 2 Bedroom Flat` → `maisonette`). */
export function propertyTypeIn(raw: string): string | undefined {
  let best: { index: number; type: string } | undefined;
  for (const [pattern, type] of PROPERTY_TYPES) {
    const index = raw.search(pattern);
    if (index >= 0 && (best === undefined || index < best.index)) best = { index, type };
  }
  return best?.type;
}

const SALE = /\bfor sale\b|\bsale price\b|\bbuy\b/i;
const RENT = /\bfor rent\b|\bto rent\b|\bto let\b|\bfor lease\b|\brental\b|\bper month\b|\/\s?mo(?:nth)?\b|\bpcm\b|\bp\/m\b/i;

/** `sale` or `rent`, whichever the text names first. */
export function listingTypeIn(raw: string): string | undefined {
  const sale = raw.search(SALE);
  const rent = raw.search(RENT);
  if (sale < 0 && rent < 0) return undefined;
  if (rent < 0) return 'sale';
  if (sale < 0) return 'rent';
  return sale < rent ? 'sale' : 'rent';
}

const BEDROOMS = /(\d{1,2})\s*(?:br\b|bd\b|beds?\b|bedrooms?\b|-bed\b)/i;
const BATHROOMS = /(\d{1,2}(?:\.5)?)\s*(?:ba\b|baths?\b|bathrooms?\b)/i;
const AREA = /(\d{1,3}(?:,\d{3})+|\d+(?:[.,]\d+)?)\s*(ft2|ft²|sq\.?\s?ft\.?|sqft|square\s+f(?:ee|oo)t|m2|m²|sq\.?\s?m\b|sqm|square\s+met(?:er|re)s?)/i;

/** Bedrooms, bathrooms and floor area written in `raw` (`1BR / 1Ba`, `642ft2`, `1,134 square feet`). */
export function roomsIn(raw: string): { bedrooms?: number; bathrooms?: number; floor_area?: number; floor_area_unit?: string } {
  const bedrooms = BEDROOMS.exec(raw)?.[1];
  const bathrooms = BATHROOMS.exec(raw)?.[1];
  const area = AREA.exec(raw);
  const unit = area?.[2] ? (/m/i.test(area[2].replace(/square\s+f(?:ee|oo)t|ft/i, '')) ? 'sqm' : 'sqft') : undefined;
  return compact({
    bedrooms: bedrooms === undefined ? undefined : Number(bedrooms),
    bathrooms: bathrooms === undefined ? undefined : Number(bathrooms),
    floor_area: area?.[1] === undefined ? undefined : number(area[1]),
    floor_area_unit: unit,
  });
}

/** Room and area tokens that make no title on their own (`4br`, `642ft2`). */
export function isRoomToken(segment: string): boolean {
  return /^(?:\d{1,2}\s*(?:br|bd|ba|beds?|baths?)|[\d,.]+\s*(?:ft2|ft²|sq\.?\s?ft|sqft|m2|m²|sqm))$/i.test(segment.trim());
}

function floorArea(value: unknown): { floor_area?: number; floor_area_unit?: string } {
  const single = first(value);
  if (!isNestedItem(single)) return compact({ floor_area: number(single) });
  const code = text(single.properties.unitCode)?.toUpperCase();
  const unitText = text(single.properties.unitText) ?? '';
  let unit: string | undefined;
  if (code === 'FTK' || /ft|feet|foot/i.test(unitText)) unit = 'sqft';
  else if (code === 'MTK' || /m/i.test(unitText)) unit = 'sqm';
  return compact({ floor_area: number(single.properties.value), floor_area_unit: unit });
}

const RENT_FUNCTIONS = /LeaseOut|Rent/i;

/** A record from a listing item and the dwelling it is about (`about`, `mainEntity`, `itemOffered`). */
export function structuredListing(listing: NestedItem, context: PageContext): ExtractRecord {
  const { properties } = listing;
  const offers = list(properties.offers).filter(isNestedItem);
  const related = [properties.about, properties.mainEntity, properties.itemOffered, ...offers.map((offer) => offer.properties.itemOffered)];
  const dwelling =
    related.map(first).find((value): value is NestedItem => isNestedItem(value) && value.type.some(isRealEstate)) ?? listing;
  // The listing states the offer, the dwelling its rooms and place; either may carry any field.
  const pick = (key: string): unknown => [listing, dwelling].map((item) => item.properties[key]).find((value) => value !== undefined);
  const offer = offerFields(listing).price !== undefined ? offerFields(listing) : offerFields(dwelling);
  const businessFunction = offers.map((offer_) => text(offer_.properties.businessFunction)).find(Boolean);
  const name = text(pick('name'));
  let listingType = name ? listingTypeIn(name) : undefined;
  if (businessFunction) listingType = RENT_FUNCTIONS.test(businessFunction) ? 'rent' : 'sale';
  const coordinates = coordinatesOf(dwelling).lat !== undefined ? coordinatesOf(dwelling) : coordinatesOf(listing);
  return compact({
    title: name,
    description: text(pick('description')),
    price: offer.price,
    currency: offer.currency,
    ...addressFrom(pick('address')),
    ...coordinates,
    bedrooms: integer(pick('numberOfBedrooms')),
    bathrooms: number(pick('numberOfBathroomsTotal')) ?? number(pick('numberOfFullBathrooms')),
    ...floorArea(pick('floorSize')),
    property_type: dwelling.type.map((type) => SCHEMA_PROPERTY_TYPES[type]).find(Boolean) ?? (name ? propertyTypeIn(name) : undefined),
    listing_type: listingType,
    images: unique([...urlsOf(pick('image'), context.base), ...urlsOf(pick('photo'), context.base)]),
    url: urlOf(properties.url, context.base),
  });
}

const GALLERY = [
  'gallery',
  'slider',
  'slideshow',
  'carousel',
  'photos',
  'swipe',
].flatMap((word) => [`[class*="${word}" i] img`, `[id*="${word}" i] img`]).join(', ');
const PHOTO = /\.(?:jpe?g|png|webp|avif)(?:[?#]|$)/i;

/** The listing's photos: `og:image`, then gallery/slider images (thumbnails skipped), else content photos. */
function listingImages(context: PageContext): string[] {
  const og = (context.meta['og:image'] ?? []).map((image) => urlOf(image, context.base));
  const gallery = Array.from(context.doc.querySelectorAll(GALLERY))
    .filter((img) => !img.closest('[class*="thumb" i], a[href]:not([href=""]):not([href^="#"])'))
    .map((img) => imageSource(img, context.base));
  const found = unique([...og, ...gallery]);
  if (found.length > 0) return found;
  return unique(
    Array.from(context.doc.querySelectorAll('img'))
      .filter((img) => !img.closest('a[href], header, nav, footer'))
      .map((img) => imageSource(img, context.base))
      .filter((url) => url !== undefined && PHOTO.test(url)),
  );
}

function priceOnPage(context: PageContext): ReturnType<typeof parsePrice> {
  for (const element of Array.from(context.doc.querySelectorAll('[class*="price" i], [id*="price" i], h1, h2'))) {
    const price = parsePrice(elementText(element));
    if (price) return price;
  }
  return undefined;
}

/** The text that summarises a listing: title, first headings, price, attribute blocks and breadcrumbs. */
function summaryText(context: PageContext, title: string | undefined): string {
  const { doc } = context;
  const single = ['h1', 'h2', '[class*="price" i]'].map((selector) => doc.querySelector(selector));
  const blocks = Array.from(doc.querySelectorAll('[class*="attr" i], [class*="housing" i], [class*="breadcrumb" i]'));
  const parts = [...single, ...blocks].filter((element): element is DomElement => element !== null).map((element) => visibleText(element));
  return [title, ...parts].filter(Boolean).join(' | ');
}

function addressOnPage(context: PageContext, bodyText: string): ReturnType<typeof addressFrom> {
  const heading = context.doc.querySelector('h1');
  const next: DomElement | null | undefined = heading?.parentElement?.querySelector('h1 + h2, h1 + h3, h1 + p, h1 + div');
  const line = next ? ukAddressLine(elementText(next)) ?? usAddressIn(elementText(next)) : undefined;
  const block = context.doc.querySelector('[itemprop="address"], [class*="address" i]');
  return line ?? usAddressIn(bodyText) ?? (block ? addressFrom(collapseWhitespace(visibleText(block))) : {});
}

/** What a listing page shows without markup. */
export function pageListing(context: PageContext): ExtractRecord {
  const title = metaValue(context, 'og:title') ?? firstHeading(context) ?? documentTitle(context);
  const summary = summaryText(context, title);
  const body = context.doc.querySelector('body');
  const bodyText = body ? visibleText(body) : summary;
  const rooms = roomsIn(summary);
  const price = priceOnPage(context);
  return compact({
    title,
    description: metaValue(context, 'og:description') ?? metaDescription(context),
    price: price?.amount,
    currency: price?.currency,
    ...addressOnPage(context, bodyText),
    ...roomsIn(bodyText),
    ...rooms,
    property_type: propertyTypeIn(summary),
    listing_type: listingTypeIn(summary),
    images: listingImages(context),
    url: canonicalUrl(context),
  });
}

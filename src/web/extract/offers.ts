import { isNestedItem, type NestedItem } from '../structured/types.ts';
import { availability, condition, currencyCode, first, integer, list, number, text } from './values.ts';

/** Price, currency, availability and condition of an item's first usable offer. */
export interface OfferFields {
  price?: number;
  currency?: string;
  availability?: string;
  condition?: string;
}

function priceOf(offer: NestedItem): { price?: number; currency?: string } {
  const { properties } = offer;
  const specification = list(properties.priceSpecification).find(isNestedItem);
  const price =
    number(properties.price) ??
    number(properties.lowPrice) ??
    (specification ? number(specification.properties.price) ?? number(specification.properties.minPrice) : undefined);
  const currency =
    currencyCode(properties.priceCurrency) ?? (specification ? currencyCode(specification.properties.priceCurrency) : undefined);
  return { price, currency };
}

/** Reads `offers` (an `Offer`, `AggregateOffer` or a list of them): the first offer with a price wins. */
export function offerFields(item: NestedItem): OfferFields {
  const offers = list(item.properties.offers).filter(isNestedItem);
  const priced = offers.find((offer) => priceOf(offer).price !== undefined) ?? offers[0];
  if (!priced) return { condition: condition(item.properties.itemCondition) };
  const { price, currency } = priceOf(priced);
  return {
    price,
    currency,
    availability: availability(priced.properties.availability),
    condition: condition(priced.properties.itemCondition) ?? condition(item.properties.itemCondition),
  };
}

/** `aggregateRating` as a number and a count. */
export function ratingFields(item: NestedItem): { rating?: number; review_count?: number } {
  const aggregate = first(item.properties.aggregateRating);
  if (!isNestedItem(aggregate)) return {};
  const { ratingValue, reviewCount, ratingCount } = aggregate.properties;
  return { rating: number(ratingValue), review_count: integer(reviewCount) ?? integer(ratingCount) };
}

/** A GTIN from whichever of `gtin`, `gtin13`, `gtin12`, `gtin14`, `gtin8` or `isbn` the item uses. */
export function gtinOf(item: NestedItem): string | undefined {
  const { properties } = item;
  for (const key of ['gtin', 'gtin13', 'gtin12', 'gtin14', 'gtin8', 'isbn']) {
    const value = text(properties[key]);
    if (value) return value;
  }
  return undefined;
}

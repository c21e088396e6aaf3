import { collapseWhitespace } from '../structured/dom.ts';
import { isNestedItem, type NestedItem } from '../structured/types.ts';
import type { PageContext } from './context.ts';
import { metaValue } from './context.ts';
import { compact, first, list, number, text } from './values.ts';

/** Address fields shared by business, local and real-estate records. */
export interface AddressFields {
  /** The address on one line, as the page gives it or joined from its parts. */
  address?: string;
  street?: string;
  locality?: string;
  region?: string;
  postal_code?: string;
  /** As written: a name (`South Africa`) or a code (`US`). */
  country?: string;
}

// `1111 James Donlon Blvd, Antioch, CA, 94509` / `9163 N.W. 26th Street, Sunrise, FL 33322`
const US_ADDRESS =
  /(?<![\d,.])(\d{1,6}[A-Za-z]?(?:\s+[A-Za-z0-9.'#-]+){1,6}?),\s*([A-Za-z][A-Za-z .'-]{1,40}?),\s*([A-Z]{2}),?\s+(\d{5}(?:-\d{4})?)\b/;
// `Ashley Road, London N19` / `1 High St, Leeds LS1 4AB`
const UK_ADDRESS_LINE = /^(.+),\s*([A-Za-z][A-Za-z .'-]*?)\s+([A-Z]{1,2}\d[A-Z\d]?(?:\s*\d[A-Z]{2})?)$/;

/** A US street address found in running text. */
export function usAddressIn(raw: string): AddressFields | undefined {
  const match = US_ADDRESS.exec(raw);
  if (!match) return undefined;
  const [whole, street, locality, region, postal] = match;
  return compact({ address: collapseWhitespace(whole), street, locality: locality?.trim(), region, postal_code: postal });
}

/** A short UK address line ending in a postcode (`Ashley Road, London N19`). */
export function ukAddressLine(raw: string): AddressFields | undefined {
  const line = collapseWhitespace(raw);
  if (line.length > 100) return undefined;
  const match = UK_ADDRESS_LINE.exec(line);
  if (!match) return undefined;
  const [, street, locality, postal] = match;
  return compact({ address: line, street: street?.trim(), locality: locality?.trim(), postal_code: postal });
}

/** Address fields of a `PostalAddress` item or of a plain address string. */
export function addressFrom(value: unknown): AddressFields {
  const single = first(value);
  if (typeof single === 'string') {
    const line = collapseWhitespace(single);
    return usAddressIn(line) ?? ukAddressLine(line) ?? (line ? { address: line } : {});
  }
  if (!isNestedItem(single)) return {};
  const { properties } = single;
  const parts = compact({
    street: list(properties.streetAddress).map(text).filter(Boolean).join(', '),
    locality: text(properties.addressLocality),
    region: text(properties.addressRegion),
    postal_code: text(properties.postalCode),
    country: text(properties.addressCountry),
  }) as AddressFields;
  const joined = [parts.street, parts.locality, [parts.region, parts.postal_code].filter(Boolean).join(' '), parts.country]
    .filter(Boolean)
    .join(', ');
  return compact({ address: joined, ...parts }) as AddressFields;
}

/** Latitude and longitude from `geo` (`GeoCoordinates`) or `latitude`/`longitude` on the item. */
export function coordinatesOf(item: NestedItem): { lat?: number; lng?: number } {
  const geo = first(item.properties.geo);
  const source = isNestedItem(geo) ? geo.properties : item.properties;
  const lat = number(source.latitude);
  const lng = number(source.longitude);
  return lat !== undefined && lng !== undefined ? { lat, lng } : {};
}

const DAY_CODES: Readonly<Record<string, string>> = {
  monday: 'Mo',
  tuesday: 'Tu',
  wednesday: 'We',
  thursday: 'Th',
  friday: 'Fr',
  saturday: 'Sa',
  sunday: 'Su',
  publicholidays: 'PH',
};

/**
 * Opening hours in schema.org's `openingHours` syntax (`Mo-Sa 11:00-14:30`): `openingHours`
 * strings as written, `openingHoursSpecification` entries converted (`Mo,Tu 09:00-17:00`).
 */
export function openingHoursOf(item: NestedItem): string[] {
  const hours = list(item.properties.openingHours)
    .map(text)
    .filter((entry): entry is string => entry !== undefined);
  for (const spec of list(item.properties.openingHoursSpecification)) {
    if (!isNestedItem(spec)) continue;
    const days = list(spec.properties.dayOfWeek)
      .map(text)
      .map((day) => DAY_CODES[(day ?? '').replace(/^.*[/#]/, '').toLowerCase()])
      .filter(Boolean);
    const opens = text(spec.properties.opens)?.slice(0, 5);
    const closes = text(spec.properties.closes)?.slice(0, 5);
    if (days.length === 0 || !opens || !closes) continue;
    hours.push(`${days.join(',')} ${opens}-${closes}`);
  }
  return [...new Set(hours)];
}

/** Facebook's `business:contact_data:*` and `place:location:*` meta tags. */
export function metaPlace(context: PageContext): AddressFields & { lat?: number; lng?: number } {
  const street = metaValue(context, 'business:contact_data:street_address');
  const locality = metaValue(context, 'business:contact_data:locality');
  const region = metaValue(context, 'business:contact_data:region');
  const postal = metaValue(context, 'business:contact_data:postal_code');
  const country = metaValue(context, 'business:contact_data:country_name');
  const lat = number(metaValue(context, 'place:location:latitude'));
  const lng = number(metaValue(context, 'place:location:longitude'));
  const address = [street, locality, [region, postal].filter(Boolean).join(' '), country].filter(Boolean).join(', ');
  return compact({
    address,
    street,
    locality,
    region,
    postal_code: postal,
    country,
    ...(lat !== undefined && lng !== undefined ? { lat, lng } : {}),
  });
}

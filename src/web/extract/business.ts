import { isNestedItem, type NestedItem } from '../structured/types.ts';
import { emailsIn, isSocialProfile, phonesIn, socialLinksIn } from './contacts.ts';
import { canonicalUrl, documentTitle, metaDescription, metaValue, type PageContext, type TypeTest } from './context.ts';
import { listEntries } from './lists.ts';
import { ratingFields } from './offers.ts';
import { addressFrom, coordinatesOf, openingHoursOf } from './place.ts';
import type { ExtractRecord } from './types.ts';
import { compact, fillGaps, list, text, unique, urlOf, urlsOf } from './values.ts';

/** Types that say nothing about the kind of business; `ListItem` only says where it is listed. */
const GENERIC_TYPES = new Set(['Organization', 'LocalBusiness', 'Corporation', 'Place', 'Thing', 'ListItem']);

/**
 * Groups the page's top-level items of one kind into businesses: items naming the same business
 * (or naming none) describe one, so a JSON-LD `Organization` and a microdata footer with its
 * address become one record. `listed` adds the entries of the page's lists (a directory of
 * restaurants). Groups keep page order, JSON-LD first.
 */
export function groupBusinesses(context: PageContext, test: TypeTest, { listed = false }: { listed?: boolean } = {}): NestedItem[][] {
  const items = context.sources.flatMap(({ items: sourceItems }) => {
    const candidates = new Set(listed ? [...sourceItems, ...listEntries(sourceItems)] : sourceItems);
    return [...candidates].filter((item) => item.type.some(test));
  });
  const groups: { name: string | undefined; items: NestedItem[] }[] = [];
  const nameless: NestedItem[] = [];
  for (const item of items) {
    const name = text(item.properties.name)?.toLowerCase();
    if (name === undefined) {
      nameless.push(item);
      continue;
    }
    const group = groups.find((candidate) => candidate.name === name);
    if (group) group.items.push(item);
    else groups.push({ name, items: [item] });
  }
  if (groups.length === 0) return nameless.length > 0 ? [nameless] : [];
  // Unnamed fragments (a footer address block) belong to the page's business when there is one.
  if (groups.length === 1) groups[0]?.items.push(...nameless);
  return groups.map((group) => group.items);
}

/** The most specific type of a business (`TravelAgency` over `Organization`). */
function businessType(items: NestedItem[]): string | undefined {
  const types = items.flatMap((item) => item.type);
  return types.find((type) => !GENERIC_TYPES.has(type)) ?? types[0];
}

function email(value: unknown): string | undefined {
  return text(value)?.replace(/^mailto:/i, '');
}

/** One business record from the items describing it; the first item stating a field wins. */
export function businessRecord(items: NestedItem[], context: PageContext): ExtractRecord {
  const records = items.map((item) => {
    const { properties } = item;
    const contactPoint = list(properties.contactPoint).find(isNestedItem)?.properties ?? {};
    return compact({
      name: text(properties.name),
      legal_name: text(properties.legalName),
      description: text(properties.description),
      url: urlOf(properties.url, context.base),
      logo: urlOf(properties.logo, context.base),
      image: urlsOf(properties.image, context.base)[0],
      telephone: text(properties.telephone) ?? text(contactPoint.telephone),
      email: email(properties.email) ?? email(contactPoint.email),
      ...addressFrom(properties.address),
      ...coordinatesOf(item),
      opening_hours: openingHoursOf(item),
      price_range: text(properties.priceRange),
      cuisine: list(properties.servesCuisine).map(text).filter(Boolean),
      ...ratingFields(item),
      founding_date: text(properties.foundingDate),
    });
  });
  const merged = fillGaps({}, ...records);
  const sameAs = unique(items.flatMap((item) => urlsOf(item.properties.sameAs, context.base)));
  return compact({ ...merged, type: businessType(items), social_links: sameAs });
}

/** What the page says about its owner without markup: site name, description, contacts, profiles. */
export function pageBusinessRecord(context: PageContext): ExtractRecord {
  return compact({
    name: metaValue(context, 'og:site_name') ?? documentTitle(context),
    description: metaValue(context, 'og:description') ?? metaDescription(context),
    url: canonicalUrl(context),
    telephone: phonesIn(context.doc)[0],
    email: emailsIn(context.doc)[0],
    social_links: socialLinksIn(context.doc, context.base),
  });
}

/** Adds profile links found in the page to those the markup lists. */
export function withPageSocialLinks(record: ExtractRecord, context: PageContext): ExtractRecord {
  const listed = Array.isArray(record.social_links) ? (record.social_links as string[]) : [];
  const links = unique([...listed, ...socialLinksIn(context.doc, context.base)]);
  return compact({ ...record, social_links: links.filter((link) => listed.includes(link) || isSocialProfile(link)) });
}

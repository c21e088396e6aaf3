import { allItems } from '../structured/index.ts';
import { visibleText } from '../structured/dom.ts';
import { emailsIn, phonesIn, socialLinksIn } from './contacts.ts';
import { canonicalUrl, type PageContext, readPage } from './context.ts';
import { type AddressFields, addressFrom, usAddressIn } from './place.ts';
import { isPostalAddress } from './schema-types.ts';
import type { Scraper } from './types.ts';
import { compact, list, text, unique, urlsOf } from './values.ts';

/**
 * `contact-details`: one record per page listing how to reach its owner.
 *
 * | field | type | |
 * |---|---|---|
 * | url | string | canonical page URL |
 * | emails | string[] | `email` markup, `mailto:` links, addresses in the text |
 * | phones | string[] | `telephone` markup, `tel:` links, numbers marked or cued (`Tel`, `Call`) in the text |
 * | address | string | one line |
 * | street, locality, region, postal_code, country | string | address parts |
 * | social_links | string[] | `sameAs` and links to social profiles |
 *
 * Structured data first (every item's `email`, `telephone`, `sameAs`, the first `PostalAddress`),
 * then the page (links, text, an `<address>` block or a US street address in the text). HTML
 * comments and scripts are not read. No record when the page shows no email, phone or profile.
 */

function addressOf(context: PageContext): AddressFields {
  for (const { items } of context.sources) {
    const postal = allItems(items).find((item) => item.type.some(isPostalAddress));
    if (postal) return addressFrom(postal);
    const written = allItems(items).map((item) => text(item.properties.address)).find(Boolean);
    if (written) return addressFrom(written);
  }
  const block = context.doc.querySelector('address');
  if (block) return addressFrom(visibleText(block));
  const body = context.doc.querySelector('body');
  return usAddressIn(body ? visibleText(body) : '') ?? {};
}

export const contactDetails: Scraper = {
  name: 'contact-details',
  category: 'business',
  input_hint: '{"url": "https://company.example/contact"} — any page of a site; contact and about pages give the most',
  description:
    'One record per page: emails, phones (as written), address (one line) and street, locality, region, postal_code, ' +
    'country, social_links, url. Read from structured data, mailto:/tel: links, phone numbers marked or cued in the ' +
    'text, address blocks and links to social profiles. No record when the page shows no contact.',
  extract(page) {
    const context = readPage(page);
    const everything = context.sources.flatMap(({ items }) => allItems(items));
    const markupEmails = everything.flatMap((item) => list(item.properties.email).map((value) => text(value)?.replace(/^mailto:/i, '')));
    const markupPhones = everything.flatMap((item) => list(item.properties.telephone).map(text));
    const markupProfiles = everything.flatMap((item) => urlsOf(item.properties.sameAs, context.base));
    const emails = dedupe(unique([...markupEmails, ...emailsIn(context.doc)]), (email) => email.toLowerCase());
    const phones = dedupe(unique([...markupPhones, ...phonesIn(context.doc)]), (phone) => phone.replace(/\D/g, ''));
    const social = unique([...markupProfiles, ...socialLinksIn(context.doc, context.base)]);
    if (emails.length === 0 && phones.length === 0 && social.length === 0) return [];
    return [compact({ url: canonicalUrl(context), emails, phones, ...addressOf(context), social_links: social })];
  },
};

function dedupe(values: string[], key: (value: string) => string): string[] {
  const seen = new Map<string, string>();
  for (const value of values) if (!seen.has(key(value))) seen.set(key(value), value);
  return [...seen.values()];
}

import { visibleText } from '../structured/dom.ts';
import { businessRecord, groupBusinesses, withPageSocialLinks } from './business.ts';
import { emailsIn, phonesIn } from './contacts.ts';
import { canonicalUrl, documentTitle, firstHeading, metaValue, type PageContext, readPage } from './context.ts';
import { addressFrom, metaPlace, usAddressIn } from './place.ts';
import { isLocalBusiness, isOrganization } from './schema-types.ts';
import type { ExtractRecord, Scraper } from './types.ts';
import { compact, fillGaps } from './values.ts';

/**
 * `local-business`: one record per local business (shop, restaurant, agency, practice) a page
 * describes. Fields as in `business-profile` (name, type, description, url, logo, image,
 * telephone, email, address, street, locality, region, postal_code, country, lat, lng,
 * opening_hours, price_range, cuisine, rating, review_count, social_links).
 *
 * Sources: `LocalBusiness` items and subtypes (`Restaurant`, `Dentist`, `TravelAgency`, …) of
 * JSON-LD, microdata and RDFa, at the top level or listed in an `ItemList`, items naming the same
 * business merged. When the page describes one, what it lacks comes from the page's
 * `Organization` markup, then from the page (contacts, profile links). Without markup: Facebook
 * `business:contact_data:*` / `place:location:*` tags, or an `<address>` block or US street
 * address together with a phone number.
 */

function pageFallback(context: PageContext): ExtractRecord[] {
  const place = metaPlace(context);
  const telephone = phonesIn(context.doc)[0];
  const addressBlock = context.doc.querySelector('address');
  const body = context.doc.querySelector('body');
  const address =
    place.address !== undefined
      ? place
      : addressBlock
        ? addressFrom(visibleText(addressBlock))
        : usAddressIn(body ? visibleText(body) : '') ?? {};
  if (address.address === undefined || (telephone === undefined && place.address === undefined)) return [];
  return [
    compact({
      name: metaValue(context, 'og:site_name', 'og:title') ?? firstHeading(context) ?? documentTitle(context),
      telephone,
      email: emailsIn(context.doc)[0],
      ...address,
      url: canonicalUrl(context),
    }),
  ];
}

export const localBusiness: Scraper = {
  name: 'local-business',
  category: 'local',
  input_hint: '{"url": "https://restaurant.example/"} — the page of a shop, restaurant, practice or other local business',
  description:
    'One record per local business on the page: name, type, description, url, logo, image, telephone, email, address ' +
    '(one line) and street, locality, region, postal_code, country, lat, lng, opening_hours (e.g. "Mo-Sa 11:00-14:30"), ' +
    'price_range, cuisine, rating (number), review_count (integer), social_links. Read from LocalBusiness markup ' +
    '(JSON-LD, microdata, RDFa), then business meta tags and address blocks.',
  extract(page) {
    const context = readPage(page);
    const groups = groupBusinesses(context, isLocalBusiness, { listed: true });
    if (groups.length === 0) return pageFallback(context);
    const records = groups.map((group) => businessRecord(group, context));
    if (records.length > 1) return records;
    const [organization] = groupBusinesses(context, (type) => isOrganization(type) && !isLocalBusiness(type));
    const owner = organization ? businessRecord(organization, context) : {};
    const contacts = compact({ telephone: phonesIn(context.doc)[0], email: emailsIn(context.doc)[0] });
    return records.map((record) => withPageSocialLinks(fillGaps(record, owner, contacts), context));
  },
};

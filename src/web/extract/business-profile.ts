import { businessRecord, groupBusinesses, pageBusinessRecord, withPageSocialLinks } from './business.ts';
import { readPage } from './context.ts';
import { isOrganization } from './schema-types.ts';
import type { Scraper } from './types.ts';
import { fillGaps } from './values.ts';

/**
 * `business-profile`: one record for the company or organisation a page (a home, about or
 * contact page) belongs to.
 *
 * | field | type | |
 * |---|---|---|
 * | name | string | |
 * | legal_name | string | |
 * | type | string | most specific schema.org type (`TravelAgency`, `Corporation`) |
 * | description | string | |
 * | url | string | the business's site, else the page |
 * | logo | string | absolute URL |
 * | image | string | absolute URL |
 * | telephone | string | as written |
 * | email | string | |
 * | address | string | one line |
 * | street, locality, region, postal_code, country | string | address parts |
 * | lat, lng | number | |
 * | opening_hours | string[] | `Mo-Fr 09:00-17:00` |
 * | price_range | string | |
 * | cuisine | string[] | |
 * | rating | number | |
 * | review_count | integer | |
 * | founding_date | string | |
 * | social_links | string[] | `sameAs` and profile links on the page |
 *
 * Sources: top-level `Organization` / `LocalBusiness` items (and subtypes) of JSON-LD, microdata
 * and RDFa that name the same business, merged in that order; then Open Graph and the page
 * (`og:site_name`, meta description, `tel:`/`mailto:` links and phone numbers in the text, links
 * to social profiles) for what the markup lacks.
 */
export const businessProfile: Scraper = {
  name: 'business-profile',
  category: 'business',
  input_hint: '{"url": "https://company.example/"} — a company home, about or contact page',
  description:
    'One record for the business behind the page: name, legal_name, type, description, url, logo, image, telephone, ' +
    'email, address (one line) and street, locality, region, postal_code, country, lat, lng, opening_hours, ' +
    'price_range, rating, review_count, founding_date, social_links (absolute URLs). Read from Organization and ' +
    'LocalBusiness markup (JSON-LD, microdata, RDFa), then Open Graph and contact links on the page.',
  extract(page) {
    const context = readPage(page);
    const fromPage = pageBusinessRecord(context);
    const [business] = groupBusinesses(context, isOrganization);
    if (business) return [withPageSocialLinks(fillGaps(businessRecord(business, context), fromPage), context)];
    const hasContact = ['telephone', 'email', 'social_links'].some((key) => key in fromPage);
    return hasContact ? [fromPage] : [];
  },
};

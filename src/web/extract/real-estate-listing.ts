import { readPage } from './context.ts';
import { pageListing, structuredListing } from './real-estate.ts';
import { itemsFromFirstSource } from './context.ts';
import { isRealEstate } from './schema-types.ts';
import type { Scraper } from './types.ts';
import { fillGaps } from './values.ts';

/**
 * `real-estate-listing`: one record for a property detail page (fields in `real-estate.ts`:
 * title, description, price, currency, address, street, locality, region, postal_code, country,
 * lat, lng, bedrooms, bathrooms, floor_area, floor_area_unit, property_type, listing_type,
 * images, url).
 *
 * Sources: a `RealEstateListing` (with the dwelling it is `about`) or a dwelling item (`House`,
 * `Apartment`, `SingleFamilyResidence`, `Accommodation`, …) from the first of JSON-LD,
 * microdata, RDFa; the page fills what the markup lacks: `og:title`/`<h1>`, the price element,
 * room counts and floor area written in the title, headings and attribute blocks (`3br`,
 * `2 Bathroom`, `642ft2`, `1,134 square feet`), the type and `for sale`/`for rent` wording, a US
 * street address or a UK address line under the heading, `og:image` and gallery photos.
 */
export const realEstateListing: Scraper = {
  name: 'real-estate-listing',
  category: 'real-estate',
  input_hint: '{"url": "https://realty.example/listing/123"} — a property detail page (for sale or to rent)',
  description:
    'One record per property page: title, description, price (number), currency (ISO 4217), address (one line) and ' +
    'street, locality, region, postal_code, country, lat, lng, bedrooms, bathrooms, floor_area, floor_area_unit ' +
    '(sqft or sqm), property_type (house, apartment, condo, ...), listing_type (sale or rent), images (absolute URLs), ' +
    'url. Read from RealEstateListing/Residence markup, then the page (headings, price, attributes, gallery).',
  extract(page) {
    const context = readPage(page);
    const fromPage = pageListing(context);
    const items = itemsFromFirstSource(context, isRealEstate);
    const listing = items.find((item) => item.type.includes('RealEstateListing')) ?? items[0];
    if (listing) return [fillGaps(structuredListing(listing, context), fromPage)];
    const hasFacts = ['price', 'bedrooms', 'floor_area'].some((key) => key in fromPage);
    return fromPage.title !== undefined && hasFacts ? [fromPage] : [];
  },
};

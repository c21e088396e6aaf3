import { businessProfile } from './business-profile.ts';
import { contactDetails } from './contact-details.ts';
import { localBusiness } from './local-business.ts';
import { productListing } from './product-listing.ts';
import { productPage } from './product-page.ts';
import { realEstateListing } from './real-estate-listing.ts';
import { realEstateSearch } from './real-estate-search.ts';
import { reviews } from './reviews.ts';
import type { Scraper } from './types.ts';

export type { ExtractPage, ExtractRecord, Scraper, ScraperCategory } from './types.ts';

/** The scraper catalog, in the order `GET /v1/extract/scrapers` lists it. */
export const SCRAPERS: readonly Scraper[] = [
  productPage,
  productListing,
  businessProfile,
  contactDetails,
  localBusiness,
  reviews,
  realEstateListing,
  realEstateSearch,
];

const BY_NAME = new Map(SCRAPERS.map((scraper) => [scraper.name, scraper]));

export function findScraper(name: string): Scraper | undefined {
  return BY_NAME.get(name);
}

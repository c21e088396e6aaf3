import type { DomDocument } from '../structured/dom.ts';

export type ScraperCategory = 'ecommerce' | 'business' | 'local' | 'real-estate';

/** One fetched page, as the job runner hands it over. */
export interface ExtractPage {
  html: string;
  /** The final URL after redirects; relative links resolve against it. */
  url: string;
  /** The parsed page (linkedom's `parseHTML(html).document` satisfies the type). */
  document: DomDocument;
}

/** A flat record: absent values are omitted, never null. */
export type ExtractRecord = Record<string, unknown>;

export interface Scraper {
  /** Catalog name, e.g. `product-page`. */
  name: string;
  category: ScraperCategory;
  /** What `input` objects to send. */
  input_hint: string;
  /** What the scraper returns, field by field. */
  description: string;
  /** Records found on one fetched page (empty when none). Pure: the caller fetches pages. */
  extract(page: ExtractPage): ExtractRecord[];
}
